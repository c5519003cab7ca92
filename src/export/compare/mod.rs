//! Structural comparison of two [`Model`]s, as the round-trip tests use it
//! (documented in formats/export.md, "Structural comparison").
//!
//! The comparison walks both Models in parallel — bodies in order, their
//! shells, faces, loops and coedges in order — and builds the
//! correspondence of faces, edges and vertices as it goes. Topology must be
//! identical: the same counts everywhere, the same flags (`kind`, `closed`,
//! `void`, `same_sense`, `forward`), and a one-to-one correspondence (a face,
//! edge or vertex of `a` always meets the same one of `b`, so sharing is
//! preserved exactly). Geometry is compared value by value: frames, radii,
//! angles, control points, weights, knots and parameter ranges must agree
//! within `tol · max(1, |x|, |y|)` (absolute near the origin, relative for
//! large coordinates). Not compared: source ids, file name, producer, warnings,
//! the unit name (every value is in mm), the order of the Model's face / edge
//! / vertex vectors (only the correspondence matters).
//!
//! [`Relaxations`] switch on the documented cross-format equivalences; each one
//! names the representation difference it accepts.
//!
//! One concept per file: `walker` (the walk's state: one-to-one
//! correspondences and value-by-value comparison within tolerance),
//! `topology` (bodies, shells, faces, loops, coedges, edges, vertices),
//! `surfaces` and `curves` (geometry, with the relaxations that accept a
//! changed representation).

mod curves;
mod surfaces;
mod topology;
mod walker;

use crate::import::model::Model;
use std::fmt::Write as _;
use walker::Cmp;

/// Documented equivalences for cross-format round trips (all off = strict).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Relaxations {
    /// A free coedge (`edge: None`, a 3-D `curve` segment, as IGES 142 gives)
    /// equals a coedge whose edge has that curve and range (STEP needs edges).
    pub free_coedges_as_edges: bool,
    /// A `faces` body equals an `open_shell` body with the same faces.
    pub faces_as_open_shell: bool,
    /// Lines compare as point sets of their used segment: `o + t·d` on `[t0, t1]`
    /// equals `o' + s·d'` on `[s0, s1]` when both segments have the same end
    /// points (STEP lines have unit speed, IGES lines run on `[0, 1]`).
    pub line_parameterisation: bool,
    /// P-curve segments compare by their curve only, not by their range and
    /// sense flag (with `line_parameterisation`, p-curve lines compare as
    /// infinite lines: unit direction up to sign and perpendicular offset) (STEP p-curves run on their edge's range with the coedge's
    /// sense; IGES p-curves have their own range, and the IGES reader sets the
    /// flag from the curve's direction relative to the edge).
    pub pcurve_ranges: bool,
    /// A p-curve equals the same curve reversed (the IGES writer writes each
    /// p-curve along its loop, as Open CASCADE's reader takes it; the IGES
    /// reader keeps the curve as written). Implied by `pcurve_ranges`.
    pub pcurve_direction: bool,
    /// Ranges of circles and ellipses compare modulo 2π (IGES 100 arcs start
    /// at an angle in (−π, π]).
    pub angle_ranges: bool,
    /// A face without an outer loop (its natural parameter rectangle) equals
    /// the same face whose outer loop runs along that rectangle's sides (the
    /// IGES writer adds such loops: a 510 face needs one).
    pub natural_boundaries: bool,
    /// Body names are not compared (IGES carries no product names; the IGES
    /// reader names bodies by directory entry).
    pub names: bool,
    /// A bare surface of revolution / linear extrusion equals a `Trimmed`
    /// surface whose basis equals it (IGES 120 / 122 surfaces are bounded:
    /// the IGES reader returns them restricted to the written rectangle; the
    /// face's loops bound the face either way); an extrusion's profile may be
    /// moved along the extrusion direction (the same surface: a 122 starts at
    /// its directrix, which the IGES writer moves to the face's lowest `v`).
    pub bounded_surfaces: bool,
    /// A conic (circle, ellipse, hyperbola, parabola) segment equals a
    /// B-spline segment with the same point set, compared by evaluation: the
    /// B-spline at 17 evenly spaced parameters, each point's conic parameter
    /// in closed form (angle, `asinh`, `y`), the conic evaluated there within
    /// the tolerance, the parameters inside the conic's range, monotone, and
    /// the ends at the range's ends (the IGES writer converts ellipses,
    /// hyperbolas, parabolas and reversed arcs into exact rational 126s);
    /// a coedge of an ellipse, hyperbola or parabola edge may lose its
    /// p-curve (the writer leaves it out: the 126's parameter differs).
    pub curves_by_evaluation: bool,
}

/// Options of [`compare_models`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CompareOptions {
    /// Tolerance on every real value (relative above magnitude 1).
    pub tol: f64,
    /// Accepted representation differences.
    pub relax: Relaxations,
}

impl Default for CompareOptions {
    fn default() -> Self {
        Self {
            tol: 1e-12,
            relax: Relaxations::default(),
        }
    }
}

/// One difference: where (a path like `body 0 / shell 0 / face 3 / outer / coedge 2 / edge`) and what.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// Path in `a`'s structure.
    pub path: String,
    /// What differs, with both values.
    pub what: String,
}

/// Result of a comparison.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Comparison {
    /// All differences found (the walk continues after a difference where it can).
    pub differences: Vec<Difference>,
    /// Faces, edges and vertices matched.
    pub matched: (usize, usize, usize),
    /// Largest deviation of a real value that was within tolerance.
    pub max_deviation: f64,
    /// How often each type-changing relaxation was used (`bounded_surfaces`,
    /// `curves_by_evaluation`), by what it accepted, for the per-file report.
    pub relaxed: std::collections::BTreeMap<&'static str, usize>,
}

impl Comparison {
    /// True when there is no difference.
    pub fn is_equal(&self) -> bool {
        self.differences.is_empty()
    }

    /// A readable diff: one line per difference (`- path: what`), at most `max` lines.
    pub fn report(&self, max: usize) -> String {
        let mut s = String::new();
        if self.is_equal() {
            let _ = writeln!(
                s,
                "equal ({} faces, {} edges, {} vertices matched; max deviation {:e})",
                self.matched.0, self.matched.1, self.matched.2, self.max_deviation
            );
            return s;
        }
        let _ = writeln!(s, "{} differences:", self.differences.len());
        for d in self.differences.iter().take(max) {
            let _ = writeln!(s, "- {}: {}", d.path, d.what);
        }
        if self.differences.len() > max {
            let _ = writeln!(s, "… {} more", self.differences.len() - max);
        }
        s
    }

    /// Difference kinds with counts (the last path element's name and the
    /// first word of the message), for compact summaries.
    pub fn kinds(&self) -> std::collections::BTreeMap<String, usize> {
        let mut m = std::collections::BTreeMap::new();
        for d in &self.differences {
            let last = d.path.rsplit(" / ").next().unwrap_or("");
            let last: String = last.chars().filter(|c| !c.is_ascii_digit()).collect();
            let first = d.what.split([' ', ':']).next().unwrap_or("");
            *m.entry(format!("{}: {}", last.trim(), first)).or_insert(0) += 1;
        }
        m
    }
}

/// Compares `a` with `b` (see the module documentation).
pub fn compare_models(a: &Model, b: &Model, opts: &CompareOptions) -> Comparison {
    let mut c = Cmp {
        a,
        b,
        o: *opts,
        out: Comparison::default(),
        face_map: vec![None; a.faces.len()],
        face_rev: vec![None; b.faces.len()],
        edge_map: vec![None; a.edges.len()],
        edge_rev: vec![None; b.edges.len()],
        vert_map: vec![None; a.vertices.len()],
        vert_rev: vec![None; b.vertices.len()],
    };
    if a.bodies.len() != b.bodies.len() {
        c.diff("model", format!("body count {} vs {}", a.bodies.len(), b.bodies.len()));
    }
    for (k, (x, y)) in a.bodies.iter().zip(&b.bodies).enumerate() {
        c.body(&format!("body {k}"), x, y);
    }
    // everything reached must be all there is (no extra faces/edges/vertices)
    let reached = |m: &[Option<usize>]| m.iter().filter(|x| x.is_some()).count();
    let (fa, fb) = (reached(&c.face_map), reached(&c.face_rev));
    if c.out.differences.is_empty() && (fa != a.faces.len() || fb != b.faces.len()) {
        let what = format!(
            "faces reached from bodies: a {fa} of {}, b {fb} of {}",
            a.faces.len(),
            b.faces.len()
        );
        c.diff("model", what);
    }
    if !c.o.relax.free_coedges_as_edges && c.out.differences.is_empty() {
        let (ea, eb) = (reached(&c.edge_map), reached(&c.edge_rev));
        let (va, vb) = (reached(&c.vert_map), reached(&c.vert_rev));
        // vertices no edge uses (STEP VERTEX_LOOP apexes) have no place in the topology compared
        let on_edges = |m: &Model| {
            let mut used = vec![false; m.vertices.len()];
            for e in &m.edges {
                for v in [e.start, e.end].into_iter().flatten() {
                    if let Some(u) = used.get_mut(v) {
                        *u = true;
                    }
                }
            }
            used.iter().filter(|u| **u).count()
        };
        // added natural-boundary edges of `b` are not reached from the loops compared
        let b_ok = c.o.relax.natural_boundaries || (eb == b.edges.len() && vb == on_edges(b));
        if ea != a.edges.len() || va != on_edges(a) || !b_ok {
            let what = format!(
                "edges/vertices reached: a {ea}/{} of {}/{}, b {eb}/{} of {}/{}",
                va,
                a.edges.len(),
                a.vertices.len(),
                vb,
                b.edges.len(),
                b.vertices.len()
            );
            c.diff("model", what);
        }
    }
    c.out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Frame, Vec3};
    use crate::import::model::{
        Body, BodyKind, Coedge, Curve, CurveSegment, Edge, Face, Loop, Shell, SourceFormat, Surface, Vertex,
    };

    fn square() -> Model {
        let mut m = Model::new(SourceFormat::Step, "t.step");
        let pts = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ];
        for p in pts {
            m.vertices.push(Vertex { point: p, source: 0 });
        }
        let mut coedges = Vec::new();
        for k in 0..4 {
            let (a, b) = (pts[k], pts[(k + 1) % 4]);
            m.edges.push(Edge {
                curve: Curve::Line {
                    origin: a,
                    dir: (b - a).normalize(),
                },
                t0: 0.0,
                t1: 1.0,
                start: Some(k),
                end: Some((k + 1) % 4),
                faces: vec![0],
                source: 0,
            });
            coedges.push(Coedge {
                edge: Some(k),
                forward: true,
                pcurve: None,
                curve: None,
                pcurve_preferred: false,
                source: 0,
            });
        }
        m.faces.push(Face {
            surface: Surface::Plane {
                frame: Frame::default(),
            },
            same_sense: true,
            outer: Some(Loop { coedges, source: 0 }),
            inner: vec![],
            source: 0,
        });
        m.bodies.push(Body {
            name: "sq".into(),
            kind: BodyKind::Faces,
            placement: crate::geom::Pose::identity(),
            shells: vec![Shell {
                faces: vec![0],
                closed: false,
                void: false,
                source: 0,
            }],
            source: 0,
        });
        m
    }

    #[test]
    fn equal_models_compare_equal_and_changes_are_reported() {
        let a = square();
        let c = compare_models(&a, &a.clone(), &CompareOptions::default());
        assert!(c.is_equal(), "{}", c.report(10));
        assert_eq!(c.matched, (1, 4, 4));

        let mut b = a.clone();
        b.vertices[2].point.x += 1e-9;
        let c = compare_models(&a, &b, &CompareOptions::default());
        assert_eq!(c.differences.len(), 1, "{}", c.report(10));
        assert!(c.report(10).contains("vertex 2"), "{}", c.report(10));

        let mut b = a.clone();
        b.vertices[2].point.x += 1e-14;
        assert!(compare_models(&a, &b, &CompareOptions::default()).is_equal());
    }

    /// Free coedges (3-D trim curves, no shared edge) compare by traversal:
    /// a coedge whose sense and segment are both flipped, with the curve
    /// stored reversed, is the same coedge; flipping the sense alone is not.
    #[test]
    fn free_coedges_compare_by_their_traversal() {
        let mut a = square();
        let (edges, faces) = (a.edges.clone(), &mut a.faces);
        for c in &mut faces[0].outer.as_mut().unwrap().coedges {
            let e = &edges[c.edge.take().unwrap()];
            c.curve = Some(CurveSegment {
                curve: e.curve.clone(),
                t0: e.t0,
                t1: e.t1,
                forward: true,
            });
        }
        a.edges.clear();
        a.vertices.clear();
        let flip = |m: &mut Model, reverse_curve: bool| {
            let c = &mut m.faces[0].outer.as_mut().unwrap().coedges[1];
            c.forward = !c.forward;
            if reverse_curve {
                let s = c.curve.as_mut().unwrap();
                if let Curve::Line { origin, dir } = s.curve.clone() {
                    s.curve = Curve::Line {
                        origin: origin + dir * (s.t0 + s.t1),
                        dir: -dir,
                    };
                }
            }
        };
        let mut b = a.clone();
        flip(&mut b, true);
        let c = compare_models(&a, &b, &CompareOptions::default());
        assert!(c.is_equal(), "{}", c.report(5));
        let mut d = a.clone();
        flip(&mut d, false);
        assert!(!compare_models(&a, &d, &CompareOptions::default()).is_equal());
    }

    #[test]
    fn broken_sharing_is_a_topology_difference() {
        let a = square();
        let mut b = a.clone();
        // edge 3 now ends at a new vertex at the same place as vertex 0
        b.vertices.push(Vertex {
            point: Vec3::zeros(),
            source: 0,
        });
        b.edges[3].end = Some(4);
        let c = compare_models(&a, &b, &CompareOptions::default());
        assert!(!c.is_equal());
        assert!(c.report(10).contains("sharing"), "{}", c.report(10));
    }

    #[test]
    fn relaxations_accept_named_differences_only() {
        let a = square();
        let mut b = a.clone();
        b.bodies[0].kind = BodyKind::OpenShell;
        b.bodies[0].name = "other".into();
        assert_eq!(compare_models(&a, &b, &CompareOptions::default()).differences.len(), 2);
        let o = CompareOptions {
            relax: Relaxations {
                faces_as_open_shell: true,
                names: true,
                ..Default::default()
            },
            ..Default::default()
        };
        assert!(compare_models(&a, &b, &o).is_equal());
    }
}
