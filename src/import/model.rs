//! The B-rep Model every importer produces and every later stage consumes.
//!
//! Conventions (`docs/architecture.md`, "Conventions"):
//! - lengths in **millimetres** (importers convert from the file's unit), angles in radians;
//! - face, edge and vertex geometry is in the owning body's local frame; a
//!   [`Body::placement`] maps it to world coordinates. Two placed instances of
//!   one part share faces and differ only in placement;
//! - analytic surfaces use Open CASCADE's parameterisations (so `uv` values are
//!   comparable with the oracle files), written out on each [`Surface`] variant;
//! - parameter-space (p-)curves are [`Curve`]s with `z = 0`, `(x, y) = (u, v)`;
//! - every item carries the id of the entity it came from ([`SourceId`]): the
//!   STEP instance number `#N` or the IGES directory-entry sequence number.

use crate::geom::{Frame, NurbsCurve, NurbsSurface, Pose, Vec3};
use serde::Serialize;

/// Id of the source entity: STEP `#N`, or the IGES directory-entry sequence
/// number (odd line number of the entry's first DE line). 0 = synthesised.
pub type SourceId = u64;

/// Which exchange format a Model was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceFormat {
    /// IGES 5.3 (and earlier versions read leniently).
    Iges,
    /// ISO 10303-21 (AP203, AP214, AP242).
    Step,
}

/// The length unit the file was written in (all values are already in mm).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Units {
    /// Unit name as written or implied by the file, e.g. `"mm"`, `"inch"`, `"m"`.
    pub name: String,
    /// Millimetres per file unit (applied during import).
    pub mm_per_unit: f64,
}

impl Default for Units {
    fn default() -> Self {
        Self {
            name: "mm".into(),
            mm_per_unit: 1.0,
        }
    }
}

/// A surface as the file defines it. Parameterisations (Open CASCADE's):
// The B-spline variant carries its per-span evaluation table inline; a Model
// holds one surface per face, so the size difference costs little and the
// importers' pattern matching stays direct.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Surface {
    /// `o + u·x + v·y`.
    Plane {
        /// Position; `z` is the normal.
        frame: Frame,
    },
    /// `o + r(cos u·x + sin u·y) + v·z`.
    Cylinder {
        /// Position; `z` is the axis.
        frame: Frame,
        /// Radius, mm.
        radius: f64,
    },
    /// `o + (r + v·sin a)(cos u·x + sin u·y) + v·cos a·z` (v along the generatrix).
    Cone {
        /// Position; `z` is the axis.
        frame: Frame,
        /// Radius at `v = 0`, mm.
        radius: f64,
        /// Semi-angle `a`, radians (negative: the cone narrows along +z).
        semi_angle: f64,
    },
    /// `o + r cos v (cos u·x + sin u·y) + r sin v·z`, `v ∈ [−π/2, π/2]`.
    Sphere {
        /// Position; `z` is the polar axis.
        frame: Frame,
        /// Radius, mm.
        radius: f64,
    },
    /// `o + (R + r cos v)(cos u·x + sin u·y) + r sin v·z`.
    Torus {
        /// Position; `z` is the axis.
        frame: Frame,
        /// Major radius R, mm.
        major: f64,
        /// Minor radius r, mm.
        minor: f64,
    },
    /// The profile `c(v)` rotated by angle `u` about the axis (right-handed about `axis_dir`).
    Revolution {
        /// Generatrix.
        profile: Box<Curve>,
        /// A point on the axis.
        axis_origin: Vec3,
        /// Unit axis direction.
        axis_dir: Vec3,
    },
    /// `c(u) + v·d` with `d` a unit direction.
    Extrusion {
        /// Directrix.
        profile: Box<Curve>,
        /// Unit extrusion direction.
        direction: Vec3,
    },
    /// `basis(u,v) + d·n(u,v)` with `n` the unit normal `f_u × f_v`.
    Offset {
        /// The surface being offset.
        basis: Box<Surface>,
        /// Signed offset distance, mm.
        distance: f64,
    },
    /// A B-spline / NURBS surface (Bézier surfaces are stored this way too).
    BSpline(NurbsSurface),
    /// The basis surface restricted to a parameter rectangle.
    Trimmed {
        /// Underlying surface.
        basis: Box<Surface>,
        /// u range.
        u: (f64, f64),
        /// v range.
        v: (f64, f64),
    },
}

impl Surface {
    /// Type name as Open CASCADE reports it (`Plane`, `Cylinder`, `BSplineSurface`, …).
    pub fn type_name(&self) -> &'static str {
        match self {
            Surface::Plane { .. } => "Plane",
            Surface::Cylinder { .. } => "Cylinder",
            Surface::Cone { .. } => "Cone",
            Surface::Sphere { .. } => "Sphere",
            Surface::Torus { .. } => "Torus",
            Surface::Revolution { .. } => "SurfaceOfRevolution",
            Surface::Extrusion { .. } => "SurfaceOfExtrusion",
            Surface::Offset { .. } => "OffsetSurface",
            Surface::BSpline(_) => "BSplineSurface",
            Surface::Trimmed { basis, .. } => basis.type_name(),
        }
    }
}

/// A curve in 3-D, or in a surface's parameter space (`z = 0`). Parameterisations:
#[derive(Debug, Clone, PartialEq)]
pub enum Curve {
    /// `o + t·d` (`d` as given: unit for STEP/OCCT lines).
    Line {
        /// Point at `t = 0`.
        origin: Vec3,
        /// Direction (per unit parameter).
        dir: Vec3,
    },
    /// `o + r(cos t·x + sin t·y)`.
    Circle {
        /// Position; `z` is the normal.
        frame: Frame,
        /// Radius.
        radius: f64,
    },
    /// `o + a cos t·x + b sin t·y`.
    Ellipse {
        /// Position.
        frame: Frame,
        /// Semi-axis along x.
        semi_x: f64,
        /// Semi-axis along y.
        semi_y: f64,
    },
    /// `o + t²/(4f)·x + t·y`.
    Parabola {
        /// Position; x is the symmetry axis.
        frame: Frame,
        /// Focal distance f.
        focal: f64,
    },
    /// `o + a cosh t·x + b sinh t·y`.
    Hyperbola {
        /// Position.
        frame: Frame,
        /// Semi-axis along x.
        semi_x: f64,
        /// Semi-axis along y.
        semi_y: f64,
    },
    /// A B-spline / NURBS curve.
    BSpline(NurbsCurve),
    /// Piecewise-linear through the points; parameter `t ∈ [0, n−1]` (vertex index).
    Polyline(Vec<Vec3>),
    /// Segments traversed in order; parameter `t ∈ [0, n]`, segment `k` on `[k, k+1]`.
    Composite(Vec<CurveSegment>),
}

impl Curve {
    /// The natural parameter range of a bounded curve (`None` for lines and
    /// other unbounded curves, whose range comes from their use).
    pub fn natural_range(&self) -> Option<(f64, f64)> {
        match self {
            Curve::Circle { .. } | Curve::Ellipse { .. } => Some((0.0, std::f64::consts::TAU)),
            Curve::BSpline(b) => Some(b.domain()),
            Curve::Polyline(p) => Some((0.0, p.len().saturating_sub(1) as f64)),
            Curve::Composite(s) => Some((0.0, s.len() as f64)),
            _ => None,
        }
    }
}

/// One segment of a composite curve or a trim curve: `curve` on `[t0, t1]`,
/// traversed from `t0` to `t1` when `forward`, else from `t1` to `t0`.
#[derive(Debug, Clone, PartialEq)]
pub struct CurveSegment {
    /// The curve.
    pub curve: Curve,
    /// Start of the used range (in the curve's own parameter).
    pub t0: f64,
    /// End of the used range (`t0 < t1`).
    pub t1: f64,
    /// Traversal direction.
    pub forward: bool,
}

impl Curve {
    /// Type name (Open CASCADE's naming).
    pub fn type_name(&self) -> &'static str {
        match self {
            Curve::Line { .. } => "Line",
            Curve::Circle { .. } => "Circle",
            Curve::Ellipse { .. } => "Ellipse",
            Curve::Parabola { .. } => "Parabola",
            Curve::Hyperbola { .. } => "Hyperbola",
            Curve::BSpline(_) => "BSplineCurve",
            Curve::Polyline(_) => "Polyline",
            Curve::Composite(_) => "CompositeCurve",
        }
    }
}

/// Kind of a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BodyKind {
    /// A closed solid (inside/outside defined; signed distance available).
    Solid,
    /// An open shell or a set of sewn faces.
    OpenShell,
    /// Loose faces (e.g. IGES faces mode).
    Faces,
}

/// A body: a solid, an open shell or a group of loose faces, with a placement.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// Name (product / instance name, or synthesised like `"body 1"`).
    pub name: String,
    /// Solid, open shell or loose faces.
    pub kind: BodyKind,
    /// Maps the body's local coordinates (the face geometry) to world.
    pub placement: Pose,
    /// Shells; a solid's first shell is the outer one, further ones voids.
    pub shells: Vec<Shell>,
    /// Source entity.
    pub source: SourceId,
}

impl Body {
    /// Indices of all faces of this body (all shells).
    pub fn face_indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.shells.iter().flat_map(|s| s.faces.iter().copied())
    }
}

/// A shell: indices into [`Model::faces`].
#[derive(Debug, Clone, PartialEq)]
pub struct Shell {
    /// Faces of the shell.
    pub faces: Vec<usize>,
    /// True for a closed shell.
    pub closed: bool,
    /// True for an inner (void) shell of a solid.
    pub void: bool,
    /// Source entity.
    pub source: SourceId,
}

/// A face: a surface with orientation and trim loops.
#[derive(Debug, Clone, PartialEq)]
pub struct Face {
    /// Underlying surface.
    pub surface: Surface,
    /// True when the face's outward normal is `f_u × f_v`; false when reversed.
    pub same_sense: bool,
    /// Outer boundary; `None` = the surface's natural parameter rectangle.
    pub outer: Option<Loop>,
    /// Holes.
    pub inner: Vec<Loop>,
    /// Source entity.
    pub source: SourceId,
}

/// A closed trim loop: oriented edges in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Loop {
    /// Coedges, in loop order.
    pub coedges: Vec<Coedge>,
    /// Source entity.
    pub source: SourceId,
}

impl Loop {
    /// The same loop traversed the other way: coedges in reverse order, each
    /// coedge reversed. A shared edge's use turns (`forward`) with its
    /// p-curve; a free coedge (no shared edge) is traversed as its segments
    /// say, so its p-curve and 3-D curve segments turn and its `forward`
    /// stays (turning both would leave its direction as it was).
    pub fn reverse(&mut self) {
        self.coedges.reverse();
        for c in &mut self.coedges {
            if c.edge.is_some() {
                c.forward = !c.forward;
            }
            if let Some(s) = c.pcurve.as_mut() {
                s.forward = !s.forward;
            }
            if let Some(s) = c.curve.as_mut() {
                s.forward = !s.forward;
            }
        }
    }
}

/// The use of an edge (or a free trim curve) by one face's loop.
#[derive(Debug, Clone, PartialEq)]
pub struct Coedge {
    /// Index into [`Model::edges`] when the boundary is a shared topological edge.
    pub edge: Option<usize>,
    /// True when the loop runs along increasing edge / curve parameter.
    pub forward: bool,
    /// Parameter-space curve (z = 0) with its range, when the file gives one.
    pub pcurve: Option<CurveSegment>,
    /// 3-D curve with its range when there is no shared edge (IGES 144/142).
    pub curve: Option<CurveSegment>,
    /// The file names the parameter-space curve as the preferred
    /// representation (IGES 142 preference flag 1): where the two disagree
    /// the face follows `pcurve`.
    pub pcurve_preferred: bool,
    /// Source entity.
    pub source: SourceId,
}

/// A topological edge: a 3-D curve on `[t0, t1]` between two vertices.
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    /// Underlying curve.
    pub curve: Curve,
    /// Parameter at the start vertex.
    pub t0: f64,
    /// Parameter at the end vertex.
    pub t1: f64,
    /// Start vertex (index into [`Model::vertices`]).
    pub start: Option<usize>,
    /// End vertex.
    pub end: Option<usize>,
    /// Faces using this edge (filled by the importer).
    pub faces: Vec<usize>,
    /// Source entity.
    pub source: SourceId,
}

/// A topological vertex.
#[derive(Debug, Clone, PartialEq)]
pub struct Vertex {
    /// Position, mm (body-local).
    pub point: Vec3,
    /// Source entity.
    pub source: SourceId,
}

/// Everything read from one file.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Source format.
    pub format: SourceFormat,
    /// File name (no directories) the Model was read from.
    pub file_name: String,
    /// Producing system as written in the file.
    pub producer: String,
    /// The file's length unit (values are already converted to mm).
    pub units: Units,
    /// Model tolerance / uncertainty from the file, mm, when given.
    pub tolerance: Option<f64>,
    /// Bodies (solids, shells, loose-face groups).
    pub bodies: Vec<Body>,
    /// All faces.
    pub faces: Vec<Face>,
    /// All edges.
    pub edges: Vec<Edge>,
    /// All vertices.
    pub vertices: Vec<Vertex>,
    /// What was skipped or repaired, and why (one line each).
    pub warnings: Vec<String>,
    /// Faces bounded (also) by a single vertex: STEP VERTEX_LOOPs, such as
    /// the poles of a closed surface of revolution or a sphere. A vertex loop
    /// encloses no area, so it is not a [`Loop`]; it says that the face
    /// reaches that point (a pole: the face's parameter range must reach the
    /// surface's natural bound there).
    pub vertex_loops: Vec<VertexLoop>,
    /// Face-like entities of the file that did not become Model faces (each
    /// also named by a warning): the self-check reports them as `DROPPED`
    /// faces, and a body whose closed shell lost one as incomplete.
    pub dropped: Vec<DroppedFace>,
}

/// A face-like entity of the file that is not a Model face
/// ([`Model::dropped`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DroppedFace {
    /// The entity (STEP `#N`, IGES DE number).
    pub source: SourceId,
    /// Index into [`Model::bodies`] of the body it belonged to, if any.
    pub body: Option<usize>,
    /// It belonged to a closed shell (the body's signed distance is then unreliable).
    pub closed_shell: bool,
    /// Why it was dropped.
    pub reason: String,
}

/// A degenerate trim loop: face `face` is bounded at vertex `vertex` (a
/// pole or apex) with no edge ([`Model::vertex_loops`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VertexLoop {
    /// Index into [`Model::faces`].
    pub face: usize,
    /// Index into [`Model::vertices`].
    pub vertex: usize,
    /// Source entity (the VERTEX_LOOP, or its FACE_BOUND).
    pub source: SourceId,
}

impl Model {
    /// True when the faces `faces` close up topologically: every trim
    /// coedge is the use of a shared edge and every such edge is used exactly
    /// twice by these faces (a seam: twice by one face). Faces without loops
    /// add no edges.
    pub fn faces_close_up(&self, faces: &[usize]) -> bool {
        let mut uses: std::collections::HashMap<usize, u32> = std::collections::HashMap::new();
        for &f in faces {
            let Some(face) = self.faces.get(f) else { return false };
            for l in face.outer.iter().chain(face.inner.iter()) {
                for c in &l.coedges {
                    match c.edge {
                        Some(e) => *uses.entry(e).or_insert(0) += 1,
                        None => return false,
                    }
                }
            }
        }
        uses.values().all(|&n| n == 2)
    }

    /// An empty Model.
    pub fn new(format: SourceFormat, file_name: impl Into<String>) -> Self {
        Self {
            format,
            file_name: file_name.into(),
            producer: String::new(),
            units: Units::default(),
            tolerance: None,
            bodies: Vec::new(),
            faces: Vec::new(),
            edges: Vec::new(),
            vertices: Vec::new(),
            warnings: Vec::new(),
            vertex_loops: Vec::new(),
            dropped: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_segment(from: Vec3, to: Vec3) -> CurveSegment {
        CurveSegment {
            curve: Curve::Line {
                origin: from,
                dir: to - from,
            },
            t0: 0.0,
            t1: 1.0,
            forward: true,
        }
    }

    #[test]
    fn reversing_a_loop_turns_each_free_coedge_and_each_edge_use() {
        let (a, b) = (Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0));
        let free = Coedge {
            edge: None,
            forward: true,
            pcurve: Some(line_segment(a, b)),
            curve: Some(line_segment(a, b)),
            pcurve_preferred: false,
            source: 1,
        };
        let shared = Coedge {
            edge: Some(0),
            curve: None,
            ..free.clone()
        };
        let mut l = Loop {
            coedges: vec![free, shared],
            source: 0,
        };
        l.reverse();
        // the free coedge is traversed as its segments say: from b to a now
        let f = &l.coedges[1];
        assert!(f.forward);
        for s in [f.pcurve.as_ref().unwrap(), f.curve.as_ref().unwrap()] {
            assert!((s.point_at(0.0) - b).norm() < 1e-15 && (s.point_at(1.0) - a).norm() < 1e-15);
        }
        // the shared edge's use turns
        assert!(!l.coedges[0].forward);
        assert_eq!(l.coedges[0].edge, Some(0));
    }
}
