//! STEP AP214 writer (ISO 10303-21, schema AUTOMOTIVE_DESIGN) for the B-rep
//! [`Model`].
//!
//! What is written (formats/export.md has the full table):
//! - units: SI millimetre, radian, steradian; the Model tolerance as the
//!   context's length uncertainty (1e-7 mm when the Model has none);
//! - product structure: one PRODUCT per body when every body is unplaced and
//!   has its own faces, else an assembly: one root product, one component
//!   product per distinct set of shells, one NEXT_ASSEMBLY_USAGE_OCCURRENCE with
//!   a CONTEXT_DEPENDENT_SHAPE_REPRESENTATION / ITEM_DEFINED_TRANSFORMATION per
//!   body (its placement);
//! - solids as MANIFOLD_SOLID_BREP (BREP_WITH_VOIDS with void shells), open
//!   shells as SHELL_BASED_SURFACE_MODEL, a one-face loose body as a bare
//!   ADVANCED_FACE item;
//! - ADVANCED_FACE, FACE_OUTER_BOUND / FACE_BOUND, EDGE_LOOP / POLY_LOOP,
//!   ORIENTED_EDGE, EDGE_CURVE (always `same_sense = .T.`, start vertex at the
//!   Edge's `t0`), VERTEX_POINT, SURFACE_CURVE / SEAM_CURVE with one PCURVE
//!   per face use;
//! - analytic surfaces as PLANE, CYLINDRICAL_SURFACE, CONICAL_SURFACE,
//!   SPHERICAL_SURFACE, TOROIDAL_SURFACE, SURFACE_OF_REVOLUTION,
//!   SURFACE_OF_LINEAR_EXTRUSION, OFFSET_SURFACE, RECTANGULAR_TRIMMED_SURFACE,
//!   B-splines as B_SPLINE_SURFACE_WITH_KNOTS (rational: the complex instance
//!   with RATIONAL_B_SPLINE_SURFACE); curves as LINE, CIRCLE, ELLIPSE,
//!   PARABOLA, HYPERBOLA, POLYLINE, COMPOSITE_CURVE of TRIMMED_CURVEs and
//!   B_SPLINE_CURVE_WITH_KNOTS (rational: complex instance).
//!
//! Entities are numbered in traversal order, reals are written in Rust's
//! shortest round-trip form, and directions, frames and rational poles are
//! written as values the reader maps back to themselves, so Model → STEP →
//! Model → STEP gives the same bytes twice.

use super::{check_finite, stable_frame, stable_pole, stable_pose_frame, stable_unit, ExportError, Written};
use crate::geom::Frame;
use crate::geom::{NurbsCurve, NurbsSurface, Vec3};
use crate::import::model::{BodyKind, Coedge, Curve, CurveSegment, Loop, Model, Surface};
use std::collections::HashMap;
use std::fmt::Write as _;

/// Options of the STEP writer.
#[derive(Debug, Clone, PartialEq)]
pub struct StepOptions {
    /// Name written in FILE_NAME (default: the Model's file name with `.step`).
    pub file_name: Option<String>,
    /// Name of the root product when an assembly is written.
    pub assembly_name: String,
}

impl Default for StepOptions {
    fn default() -> Self {
        Self {
            file_name: None,
            assembly_name: "assembly".into(),
        }
    }
}

/// A real in ISO 10303-21 form: the shortest decimal that reads back to the
/// same `f64`, always with a decimal point, exponent as `E` (`1.E-07` style is
/// not needed: `1.E-7` is valid).
pub fn real(x: f64) -> String {
    let x = if x == 0.0 { 0.0 } else { x }; // no "-0."
    let s = format!("{x:?}");
    let (mant, exp) = match s.split_once('e') {
        Some((m, e)) => (m.to_string(), Some(e.to_string())),
        None => (s, None),
    };
    let mut mant = if mant.contains('.') { mant } else { format!("{mant}.") };
    if let Some(stripped) = mant.strip_suffix(".0") {
        mant = format!("{stripped}.");
    }
    match exp {
        Some(e) => format!("{mant}E{e}"),
        None => mant,
    }
}

/// A string literal: `'` doubled, `\` doubled, printable ASCII as is, every
/// other character as `\X2\…\X0\` (UTF-16 code units, 4 hex digits each).
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    let mut wide: Vec<u16> = Vec::new();
    let flush = |out: &mut String, wide: &mut Vec<u16>| {
        if !wide.is_empty() {
            out.push_str("\\X2\\");
            for u in wide.iter() {
                let _ = write!(out, "{u:04X}");
            }
            out.push_str("\\X0\\");
            wide.clear();
        }
    };
    for c in s.chars() {
        if (' '..='~').contains(&c) {
            flush(&mut out, &mut wide);
            match c {
                '\'' => out.push_str("''"),
                '\\' => out.push_str("\\\\"),
                _ => out.push(c),
            }
        } else {
            let mut buf = [0u16; 2];
            wide.extend_from_slice(c.encode_utf16(&mut buf));
        }
    }
    flush(&mut out, &mut wide);
    out.push('\'');
    out
}

fn b(x: bool) -> &'static str {
    if x {
        ".T."
    } else {
        ".F."
    }
}

fn list<T>(items: &[T], f: impl Fn(&T) -> String) -> String {
    let mut s = String::from("(");
    for (k, it) in items.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        s.push_str(&f(it));
    }
    s.push(')');
    s
}

fn refs(ids: &[usize]) -> String {
    list(ids, |i| format!("#{i}"))
}

/// Distinct knot values with multiplicities (exact equality).
pub fn compress_knots(k: &[f64]) -> (Vec<usize>, Vec<f64>) {
    let mut m = Vec::new();
    let mut v: Vec<f64> = Vec::new();
    for &x in k {
        match v.last() {
            Some(&l) if l == x => {
                if let Some(c) = m.last_mut() {
                    *c += 1;
                }
            }
            _ => {
                v.push(x);
                m.push(1);
            }
        }
    }
    (m, v)
}

struct W<'m> {
    model: &'m Model,
    ents: Vec<String>,
    warnings: Vec<String>,
    ctx2: usize,
    scaled_lines: usize,
}

/// Face uses of one edge (in traversal order): face index, p-curve, coedge direction.
struct EdgeUse {
    face: usize,
    pcurve: Option<CurveSegment>,
    forward: bool,
}

impl<'m> W<'m> {
    fn add(&mut self, s: String) -> usize {
        self.ents.push(s);
        self.ents.len()
    }

    fn reserve(&mut self) -> usize {
        self.add(String::new())
    }

    fn set(&mut self, id: usize, s: String) {
        if let Some(e) = self.ents.get_mut(id.wrapping_sub(1)) {
            *e = s;
        }
    }

    fn pt3(&mut self, p: &Vec3) -> usize {
        self.add(format!(
            "CARTESIAN_POINT('',({},{},{}))",
            real(p.x),
            real(p.y),
            real(p.z)
        ))
    }

    fn pt(&mut self, p: &Vec3, dim2: bool) -> usize {
        if dim2 {
            self.add(format!("CARTESIAN_POINT('',({},{}))", real(p.x), real(p.y)))
        } else {
            self.pt3(p)
        }
    }

    fn dir(&mut self, d: &Vec3, dim2: bool) -> usize {
        let u = stable_unit(*d);
        if dim2 {
            self.add(format!("DIRECTION('',({},{}))", real(u.x), real(u.y)))
        } else {
            self.add(format!("DIRECTION('',({},{},{}))", real(u.x), real(u.y), real(u.z)))
        }
    }

    fn axis3(&mut self, f: &Frame) -> usize {
        let f = stable_frame(f);
        let o = self.pt3(&f.origin);
        let z = self.add(format!(
            "DIRECTION('',({},{},{}))",
            real(f.z.x),
            real(f.z.y),
            real(f.z.z)
        ));
        let x = self.add(format!(
            "DIRECTION('',({},{},{}))",
            real(f.x.x),
            real(f.x.y),
            real(f.x.z)
        ));
        self.add(format!("AXIS2_PLACEMENT_3D('',#{o},#{z},#{x})"))
    }

    /// A placement for a conic: 2-D when the frame lies in the uv plane with
    /// its normal along +z, else 3-D (read back the same, noted in a warning).
    fn conic_axis(&mut self, f: &Frame, dim2: bool, what: &str) -> usize {
        if dim2 {
            let planar = f.origin.z == 0.0 && f.x.z == 0.0 && f.z == Vec3::z();
            if planar {
                let o = self.pt(&f.origin, true);
                let x = self.dir(&f.x, true);
                return self.add(format!("AXIS2_PLACEMENT_2D('',#{o},#{x})"));
            }
            self.warnings.push(format!(
                "{what}: p-curve conic with a clockwise frame written with a 3-D placement"
            ));
        }
        self.axis3(f)
    }

    fn bspline_curve(&mut self, c: &NurbsCurve, dim2: bool) -> usize {
        let pts: Vec<usize> =
            c.cw.iter()
                .map(|h| {
                    let p = stable_pole(*h);
                    self.pt(&Vec3::new(p[0], p[1], p[2]), dim2)
                })
                .collect();
        let (m, k) = compress_knots(&c.knots);
        let ml = list(&m, |x| x.to_string());
        let kl = list(&k, |x| real(*x));
        if c.rational {
            let w = list(&c.cw, |h| real(h[3]));
            self.add(format!(
                "(BOUNDED_CURVE()B_SPLINE_CURVE({},{},.UNSPECIFIED.,.F.,.F.)B_SPLINE_CURVE_WITH_KNOTS({ml},{kl},.UNSPECIFIED.)CURVE()GEOMETRIC_REPRESENTATION_ITEM()RATIONAL_B_SPLINE_CURVE({w})REPRESENTATION_ITEM(''))",
                c.degree,
                refs(&pts)
            ))
        } else {
            self.add(format!(
                "B_SPLINE_CURVE_WITH_KNOTS('',{},{},.UNSPECIFIED.,.F.,.F.,{ml},{kl},.UNSPECIFIED.)",
                c.degree,
                refs(&pts)
            ))
        }
    }

    /// Any curve; `range` is the used parameter range when known (lines with a
    /// non-unit direction then become an exact degree-1 B-spline).
    fn curve(&mut self, c: &Curve, dim2: bool, range: Option<(f64, f64)>, what: &str) -> usize {
        match c {
            Curve::Line { origin, dir } => {
                let u = stable_unit(*dir);
                let unit_speed = (dir.norm() - 1.0).abs() <= 1e-15;
                if !unit_speed {
                    // STEP lines have unit speed: same point set, parameter scaled by |d|
                    self.scaled_lines += 1;
                }
                let _ = range;
                let o = self.pt(origin, dim2);
                let d = self.dir(&u, dim2);
                let v = self.add(format!("VECTOR('',#{d},1.)"));
                self.add(format!("LINE('',#{o},#{v})"))
            }
            Curve::Circle { frame, radius } => {
                let a = self.conic_axis(frame, dim2, what);
                self.add(format!("CIRCLE('',#{a},{})", real(*radius)))
            }
            Curve::Ellipse { frame, semi_x, semi_y } => {
                let a = self.conic_axis(frame, dim2, what);
                self.add(format!("ELLIPSE('',#{a},{},{})", real(*semi_x), real(*semi_y)))
            }
            Curve::Parabola { frame, focal } => {
                let a = self.conic_axis(frame, dim2, what);
                self.add(format!("PARABOLA('',#{a},{})", real(*focal)))
            }
            Curve::Hyperbola { frame, semi_x, semi_y } => {
                let a = self.conic_axis(frame, dim2, what);
                self.add(format!("HYPERBOLA('',#{a},{},{})", real(*semi_x), real(*semi_y)))
            }
            Curve::BSpline(n) => self.bspline_curve(n, dim2),
            Curve::Polyline(p) => {
                let ids: Vec<usize> = p.iter().map(|q| self.pt(q, dim2)).collect();
                self.add(format!("POLYLINE('',{})", refs(&ids)))
            }
            Curve::Composite(segs) => {
                let mut ids = Vec::with_capacity(segs.len());
                for s in segs {
                    let basis = self.curve(&s.curve, dim2, Some((s.t0, s.t1)), what);
                    let t = self.add(format!(
                        "TRIMMED_CURVE('',#{basis},(PARAMETER_VALUE({})),(PARAMETER_VALUE({})),.T.,.PARAMETER.)",
                        real(s.t0),
                        real(s.t1)
                    ));
                    ids.push(self.add(format!("COMPOSITE_CURVE_SEGMENT(.CONTINUOUS.,{},#{t})", b(s.forward))));
                }
                self.add(format!("COMPOSITE_CURVE('',{},.U.)", refs(&ids)))
            }
        }
    }

    fn bspline_surface(&mut self, s: &NurbsSurface) -> usize {
        let mut rows = Vec::with_capacity(s.n_u);
        for i in 0..s.n_u {
            let row: Vec<usize> = (0..s.n_v)
                .map(|j| {
                    let p = stable_pole(s.cw[i * s.n_v + j]);
                    self.pt3(&Vec3::new(p[0], p[1], p[2]))
                })
                .collect();
            rows.push(refs(&row));
        }
        let poles = list(&rows, |r| r.clone());
        let (mu, ku) = compress_knots(&s.knots_u);
        let (mv, kv) = compress_knots(&s.knots_v);
        let knots = format!(
            "{},{},{},{}",
            list(&mu, |x| x.to_string()),
            list(&mv, |x| x.to_string()),
            list(&ku, |x| real(*x)),
            list(&kv, |x| real(*x))
        );
        if s.rational {
            let wrows: Vec<String> = (0..s.n_u)
                .map(|i| list(&s.cw[i * s.n_v..(i + 1) * s.n_v], |h| real(h[3])))
                .collect();
            self.add(format!(
                "(BOUNDED_SURFACE()B_SPLINE_SURFACE({},{},{poles},.UNSPECIFIED.,.F.,.F.,.F.)B_SPLINE_SURFACE_WITH_KNOTS({knots},.UNSPECIFIED.)GEOMETRIC_REPRESENTATION_ITEM()RATIONAL_B_SPLINE_SURFACE({})REPRESENTATION_ITEM('')SURFACE())",
                s.degree_u,
                s.degree_v,
                list(&wrows, |r| r.clone())
            ))
        } else {
            self.add(format!(
                "B_SPLINE_SURFACE_WITH_KNOTS('',{},{},{poles},.UNSPECIFIED.,.F.,.F.,.F.,{knots},.UNSPECIFIED.)",
                s.degree_u, s.degree_v
            ))
        }
    }

    fn surface(&mut self, s: &Surface, what: &str) -> usize {
        match s {
            Surface::Plane { frame } => {
                let a = self.axis3(frame);
                self.add(format!("PLANE('',#{a})"))
            }
            Surface::Cylinder { frame, radius } => {
                let a = self.axis3(frame);
                self.add(format!("CYLINDRICAL_SURFACE('',#{a},{})", real(*radius)))
            }
            Surface::Cone {
                frame,
                radius,
                semi_angle,
            } => {
                let a = self.axis3(frame);
                self.add(format!(
                    "CONICAL_SURFACE('',#{a},{},{})",
                    real(*radius),
                    real(*semi_angle)
                ))
            }
            Surface::Sphere { frame, radius } => {
                let a = self.axis3(frame);
                self.add(format!("SPHERICAL_SURFACE('',#{a},{})", real(*radius)))
            }
            Surface::Torus { frame, major, minor } => {
                let a = self.axis3(frame);
                self.add(format!("TOROIDAL_SURFACE('',#{a},{},{})", real(*major), real(*minor)))
            }
            Surface::Revolution {
                profile,
                axis_origin,
                axis_dir,
            } => {
                let c = self.curve(profile, false, None, what);
                let o = self.pt3(axis_origin);
                let d = self.dir(axis_dir, false);
                let a = self.add(format!("AXIS1_PLACEMENT('',#{o},#{d})"));
                self.add(format!("SURFACE_OF_REVOLUTION('',#{c},#{a})"))
            }
            Surface::Extrusion { profile, direction } => {
                let c = self.curve(profile, false, None, what);
                let d = self.dir(direction, false);
                let v = self.add(format!("VECTOR('',#{d},1.)"));
                self.add(format!("SURFACE_OF_LINEAR_EXTRUSION('',#{c},#{v})"))
            }
            Surface::Offset { basis, distance } => {
                let bs = self.surface(basis, what);
                self.add(format!("OFFSET_SURFACE('',#{bs},{},.F.)", real(*distance)))
            }
            Surface::BSpline(n) => self.bspline_surface(n),
            Surface::Trimmed { basis, u, v } => {
                let bs = self.surface(basis, what);
                self.add(format!(
                    "RECTANGULAR_TRIMMED_SURFACE('',#{bs},{},{},{},{},.T.,.T.)",
                    real(u.0),
                    real(u.1),
                    real(v.0),
                    real(v.1)
                ))
            }
        }
    }
}

fn is_poly_loop(l: &Loop) -> bool {
    l.coedges.len() >= 3
        && l.coedges.iter().all(|c| {
            c.edge.is_none()
                && c.pcurve.is_none()
                && c.forward
                && matches!(&c.curve, Some(CurveSegment { curve: Curve::Polyline(p), t0, t1, forward: true })
                    if p.len() == 2 && *t0 == 0.0 && *t1 == 1.0)
        })
        && {
            let n = l.coedges.len();
            (0..n).all(|k| {
                let end = match &l.coedges[k].curve {
                    Some(CurveSegment {
                        curve: Curve::Polyline(p),
                        ..
                    }) => p[1],
                    _ => return false,
                };
                let next = match &l.coedges[(k + 1) % n].curve {
                    Some(CurveSegment {
                        curve: Curve::Polyline(p),
                        ..
                    }) => p[0],
                    _ => return false,
                };
                end == next
            })
        }
}

/// Splits a body name `"product (instance)"` as the reader composes it.
fn split_name(name: &str) -> (String, String) {
    if let Some(stripped) = name.strip_suffix(')') {
        if let Some(k) = stripped.rfind(" (") {
            return (stripped[..k].to_string(), stripped[k + 2..].to_string());
        }
    }
    (name.to_string(), name.to_string())
}

/// A free coedge (no shared edge): its 3-D segment, or `None`.
fn free_segment(c: &Coedge) -> Option<&CurveSegment> {
    c.curve.as_ref()
}

/// The file's mm per length unit (1 when the Model's is unusable).
fn unit_factor(u: &crate::import::model::Units) -> f64 {
    if u.mm_per_unit.is_finite() && u.mm_per_unit > 0.0 {
        u.mm_per_unit
    } else {
        1.0
    }
}

/// The length unit instance: SI metre with a prefix when the factor and the
/// name are those of an SI prefix of the metre, else a CONVERSION_BASED_UNIT (named
/// `INCH`, `FOOT` or the Model's unit name) on the millimetre.
fn length_unit(w: &mut W<'_>, u: &crate::import::model::Units) -> usize {
    const SI: [(f64, &str, &str); 10] = [
        (1.0, ".MILLI.", "mm"),
        (1e3, "$", "m"),
        (1e-3, ".MICRO.", "um"),
        (1e-6, ".NANO.", "nm"),
        (10.0, ".CENTI.", "cm"),
        (100.0, ".DECI.", "dm"),
        (1e4, ".DECA.", "dam"),
        (1e5, ".HECTO.", "hm"),
        (1e6, ".KILO.", "km"),
        (1e-9, ".PICO.", "pm"),
    ];
    let f = unit_factor(u);
    // SI when the factor and the name are the SI unit's (a file's own
    // CONVERSION_BASED_UNIT name, e.g. 'millimetre', is kept)
    if let Some((_, p, _)) = SI
        .iter()
        .find(|(k, _, n)| *k == f && (*n == u.name || f == 1.0 && u.name.is_empty()))
    {
        return w.add(format!("(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT({p},.METRE.))"));
    }
    let mm = w.add("(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT(.MILLI.,.METRE.))".into());
    let name = match u.name.to_ascii_lowercase().as_str() {
        "inch" | "in" => "INCH".to_string(),
        "foot" | "ft" => "FOOT".to_string(),
        n => n.to_ascii_uppercase(),
    };
    let dim = w.add("DIMENSIONAL_EXPONENTS(1.,0.,0.,0.,0.,0.,0.)".into());
    let mwu = w.add(format!("LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE({}),#{mm})", real(f)));
    w.add(format!(
        "(CONVERSION_BASED_UNIT({},#{mwu})LENGTH_UNIT()NAMED_UNIT(#{dim}))",
        string(&name)
    ))
}

/// Writes `model` as a STEP AP214 file, in the Model's source length unit.
pub fn write_step(model: &Model, opts: &StepOptions) -> Result<Written, ExportError> {
    check_finite(model)?;
    // revolution / extrusion profiles that are non-unit lines made unit-speed
    let mut profiled = model.clone();
    let n = super::units::unit_speed_profiles(&mut profiled);
    let model: &Model = if n > 0 { &profiled } else { model };
    // every length in the source unit (declared below)
    let scaled = super::units::to_file_units(model);
    let model: &Model = &scaled;
    let mut w = W {
        model,
        ents: Vec::new(),
        warnings: Vec::new(),
        ctx2: 0,
        scaled_lines: 0,
    };
    if n > 0 {
        w.warnings.push(format!(
            "{n} surfaces of revolution / extrusion on a non-unit line profile written unit-speed (the profile parameter becomes a length; trims and p-curves scaled with it)"
        ));
    }
    let loose = model
        .vertices
        .iter()
        .enumerate()
        .filter(|(k, _)| !model.edges.iter().any(|e| e.start == Some(*k) || e.end == Some(*k)))
        .count();
    if loose > 0 {
        w.warnings.push(format!(
            "{loose} vertices not used by any edge (e.g. VERTEX_LOOP apexes; the Model does not keep their face) are not written"
        ));
    }
    // contexts and units
    let app = w.add("APPLICATION_CONTEXT('automotive design')".into());
    w.add(format!(
        "APPLICATION_PROTOCOL_DEFINITION('international standard','automotive_design',2000,#{app})"
    ));
    let mm = length_unit(&mut w, &model.units);
    let rad = w.add("(NAMED_UNIT(*)PLANE_ANGLE_UNIT()SI_UNIT($,.RADIAN.))".into());
    let sr = w.add("(NAMED_UNIT(*)SI_UNIT($,.STERADIAN.)SOLID_ANGLE_UNIT())".into());
    let tol = model
        .tolerance
        .filter(|t| t.is_finite() && *t > 0.0)
        .unwrap_or_else(|| super::units::stable_div(1e-7, unit_factor(&model.units)));
    let unc = w.add(format!(
        "UNCERTAINTY_MEASURE_WITH_UNIT(LENGTH_MEASURE({}),#{mm},'distance_accuracy_value','confusion accuracy')",
        real(tol)
    ));
    let ctx = w.add(format!(
        "(GEOMETRIC_REPRESENTATION_CONTEXT(3)GLOBAL_UNCERTAINTY_ASSIGNED_CONTEXT((#{unc}))GLOBAL_UNIT_ASSIGNED_CONTEXT((#{mm},#{rad},#{sr}))REPRESENTATION_CONTEXT('Context #1','3D Context with UNIT and UNCERTAINTY'))"
    ));
    w.ctx2 = w.add(
        "(GEOMETRIC_REPRESENTATION_CONTEXT(2)PARAMETRIC_REPRESENTATION_CONTEXT()REPRESENTATION_CONTEXT('2D SPACE',''))"
            .into(),
    );
    let pctx = w.add(format!("PRODUCT_CONTEXT('',#{app},'mechanical')"));
    let pdctx = w.add(format!("PRODUCT_DEFINITION_CONTEXT('part definition',#{app},'design')"));

    // traversal: unique faces, edges and vertices in reading order
    let mut face_order: Vec<usize> = Vec::new();
    let mut face_seen = vec![false; model.faces.len()];
    for body in &model.bodies {
        for s in &body.shells {
            for &f in &s.faces {
                if !face_seen[f] {
                    face_seen[f] = true;
                    face_order.push(f);
                }
            }
        }
    }
    let mut edge_order: Vec<usize> = Vec::new();
    let mut edge_uses: HashMap<usize, Vec<EdgeUse>> = HashMap::new();
    let mut vert_order: Vec<usize> = Vec::new();
    let mut vert_seen = vec![false; model.vertices.len()];
    for &f in &face_order {
        let face = &model.faces[f];
        for l in face.outer.iter().chain(face.inner.iter()) {
            for c in &l.coedges {
                let Some(e) = c.edge else { continue };
                let uses = edge_uses.entry(e).or_default();
                if uses.is_empty() {
                    edge_order.push(e);
                    let ed = &model.edges[e];
                    for v in [ed.start, ed.end].into_iter().flatten() {
                        if !vert_seen[v] {
                            vert_seen[v] = true;
                            vert_order.push(v);
                        }
                    }
                }
                uses.push(EdgeUse {
                    face: f,
                    pcurve: c.pcurve.clone(),
                    forward: c.forward,
                });
            }
        }
    }

    // surfaces, one instance per face
    let mut surf_id = vec![0usize; model.faces.len()];
    for &f in &face_order {
        surf_id[f] = w.surface(&model.faces[f].surface, &format!("face {f}"));
    }
    // vertices
    let mut vert_id = vec![0usize; model.vertices.len()];
    for &v in &vert_order {
        let p = w.pt3(&model.vertices[v].point);
        vert_id[v] = w.add(format!("VERTEX_POINT('',#{p})"));
    }
    // edges
    let mut edge_id: HashMap<usize, usize> = HashMap::new();
    for &e in &edge_order {
        let ed = &model.edges[e];
        let what = format!("edge {e}");
        let c3 = w.curve(&ed.curve, false, Some((ed.t0, ed.t1)), &what);
        let uses = edge_uses.remove(&e).unwrap_or_default();
        // p-curves: per face, the forward use first (the reader gives a seam's
        // first p-curve to the forward use)
        let mut pcs: Vec<usize> = Vec::new();
        let mut seam = false;
        let mut faces_done: Vec<usize> = Vec::new();
        for u in &uses {
            if faces_done.contains(&u.face) {
                continue;
            }
            faces_done.push(u.face);
            let mut same: Vec<&EdgeUse> = uses.iter().filter(|x| x.face == u.face).collect();
            if same.len() >= 2 {
                seam = true;
                same.sort_by_key(|x| !x.forward);
                if same.len() > 2 {
                    w.warnings.push(format!(
                        "{what}: used {} times by face {}; the reader keeps two p-curves",
                        same.len(),
                        u.face
                    ));
                }
            }
            for x in same {
                let Some(pc) = &x.pcurve else {
                    continue;
                };
                if pc.t0 != ed.t0 || pc.t1 != ed.t1 {
                    w.warnings.push(format!(
                        "{what}: p-curve on face {} has range [{}, {}], the edge [{}, {}]; STEP p-curves share the edge's parameter",
                        x.face, pc.t0, pc.t1, ed.t0, ed.t1
                    ));
                }
                let c2 = w.curve(&pc.curve, true, Some((pc.t0, pc.t1)), &what);
                let ctx2 = w.ctx2;
                let dr = w.add(format!("DEFINITIONAL_REPRESENTATION('',(#{c2}),#{ctx2})"));
                pcs.push(w.add(format!("PCURVE('',#{},#{dr})", surf_id[x.face])));
            }
        }
        let geom = if pcs.is_empty() {
            c3
        } else {
            let kind = if seam { "SEAM_CURVE" } else { "SURFACE_CURVE" };
            w.add(format!("{kind}('',#{c3},{},.PCURVE_S1.)", refs(&pcs)))
        };
        let (Some(s), Some(t)) = (ed.start, ed.end) else {
            return Err(ExportError::Unsupported(format!(
                "{what}: an edge without vertices cannot be written"
            )));
        };
        let id = w.add(format!("EDGE_CURVE('',#{},#{},#{geom},.T.)", vert_id[s], vert_id[t]));
        edge_id.insert(e, id);
    }
    // faces
    let mut face_id = vec![0usize; model.faces.len()];
    for &f in &face_order {
        let face = &model.faces[f];
        let mut bounds = Vec::new();
        for (k, l) in face.outer.iter().chain(face.inner.iter()).enumerate() {
            let outer = k == 0 && face.outer.is_some();
            if l.coedges.iter().all(|c| c.edge.is_none() && free_segment(c).is_none()) {
                // no coedge has a 3-D curve: an empty EDGE_LOOP is not valid STEP
                w.warnings.push(format!(
                    "face {f}: {} loop of {} coedges with p-curves only (STEP edges need a 3-D curve) left out",
                    if outer { "outer" } else { "inner" },
                    l.coedges.len()
                ));
                continue;
            }
            let lid = if is_poly_loop(l) {
                let pts: Vec<usize> = l
                    .coedges
                    .iter()
                    .filter_map(|c| match &c.curve {
                        Some(CurveSegment {
                            curve: Curve::Polyline(p),
                            ..
                        }) => Some(p[0]),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
                    .iter()
                    .map(|p| w.pt3(p))
                    .collect();
                w.add(format!("POLY_LOOP('',{})", refs(&pts)))
            } else {
                let mut oes = Vec::with_capacity(l.coedges.len());
                for (ci, c) in l.coedges.iter().enumerate() {
                    let eid = match c.edge {
                        Some(e) => edge_id.get(&e).copied().unwrap_or(0),
                        None => {
                            // a free trim curve: an edge of its own
                            let Some(seg) = free_segment(c) else {
                                w.warnings.push(format!(
                                    "face {f}: coedge {ci} has only a p-curve; STEP edges need a 3-D curve, coedge left out"
                                ));
                                continue;
                            };
                            w.warnings.push(format!(
                                "face {f}: free trim curve (coedge {ci}) written as an edge with its own vertices"
                            ));
                            let c3 = w.curve(&seg.curve, false, Some((seg.t0, seg.t1)), &format!("face {f}"));
                            let p0 = seg.curve.eval(seg.t0);
                            let p1 = seg.curve.eval(seg.t1);
                            let a = w.pt3(&p0);
                            let va = w.add(format!("VERTEX_POINT('',#{a})"));
                            let vb = if p0 == p1 {
                                va
                            } else {
                                let bb = w.pt3(&p1);
                                w.add(format!("VERTEX_POINT('',#{bb})"))
                            };
                            let geom = match &c.pcurve {
                                Some(pc) => {
                                    let c2 = w.curve(&pc.curve, true, Some((pc.t0, pc.t1)), &format!("face {f}"));
                                    let ctx2 = w.ctx2;
                                    let dr = w.add(format!("DEFINITIONAL_REPRESENTATION('',(#{c2}),#{ctx2})"));
                                    let pcid = w.add(format!("PCURVE('',#{},#{dr})", surf_id[f]));
                                    w.add(format!("SURFACE_CURVE('',#{c3},(#{pcid}),.PCURVE_S1.)"))
                                }
                                None => c3,
                            };
                            let id = w.add(format!("EDGE_CURVE('',#{va},#{vb},#{geom},.T.)"));
                            let orient = c.forward == seg.forward;
                            oes.push(w.add(format!("ORIENTED_EDGE('',*,*,#{id},{})", b(orient))));
                            continue;
                        }
                    };
                    oes.push(w.add(format!("ORIENTED_EDGE('',*,*,#{eid},{})", b(c.forward))));
                }
                w.add(format!("EDGE_LOOP('',{})", refs(&oes)))
            };
            let kind = if outer { "FACE_OUTER_BOUND" } else { "FACE_BOUND" };
            bounds.push(w.add(format!("{kind}('',#{lid},.T.)")));
        }
        // a void's faces are written as the closed shell they bound and the
        // void uses that shell reversed (ORIENTED_CLOSED_SHELL .F.), so the
        // Model's material-outward sense is stored flipped here
        let in_void = model
            .bodies
            .iter()
            .any(|bd| bd.shells.iter().any(|sh| sh.void && sh.faces.contains(&f)));
        face_id[f] = w.add(format!(
            "ADVANCED_FACE('',{},#{},{})",
            refs(&bounds),
            surf_id[f],
            b(face.same_sense != in_void)
        ));
    }

    // bodies: shape items
    let mut items = Vec::with_capacity(model.bodies.len());
    let mut rep_kind = Vec::with_capacity(model.bodies.len());
    // bodies sharing shells share one representation
    let mut shared: Vec<Option<usize>> = vec![None; model.bodies.len()];
    for (k, body) in model.bodies.iter().enumerate() {
        if let Some(j) = (0..k).find(|&j| model.bodies[j].shells == body.shells && model.bodies[j].kind == body.kind) {
            shared[k] = Some(j);
            items.push(0);
            rep_kind.push("");
            continue;
        }
        let lone_face = body.kind == BodyKind::Faces
            && body.shells.len() == 1
            && body.shells[0].faces.len() == 1
            && !body.shells[0].closed
            && !body.shells[0].void;
        if lone_face {
            // a lone ADVANCED_FACE item reads back as a one-face body
            items.push(face_id[body.shells[0].faces[0]]);
            rep_kind.push("MANIFOLD_SURFACE_SHAPE_REPRESENTATION");
            continue;
        }
        let shell_ids: Vec<usize> = body
            .shells
            .iter()
            .map(|s| {
                let fl: Vec<usize> = s.faces.iter().map(|&f| face_id[f]).collect();
                let kind = if s.closed { "CLOSED_SHELL" } else { "OPEN_SHELL" };
                w.add(format!("{kind}('',{})", refs(&fl)))
            })
            .collect();
        let name = string(&body.name);
        let (item, rk) = match body.kind {
            BodyKind::Solid => {
                if body.shells.iter().any(|s| !s.closed) {
                    w.warnings.push(format!(
                        "body {k} ({}): solid with an open shell written as MANIFOLD_SOLID_BREP of an OPEN_SHELL",
                        body.name
                    ));
                }
                match shell_ids.split_first() {
                    Some((&outer, [])) => (
                        w.add(format!("MANIFOLD_SOLID_BREP({name},#{outer})")),
                        "ADVANCED_BREP_SHAPE_REPRESENTATION",
                    ),
                    Some((&outer, voids)) => {
                        let vs: Vec<usize> = voids
                            .iter()
                            .map(|&v| w.add(format!("ORIENTED_CLOSED_SHELL('',*,#{v},.F.)")))
                            .collect();
                        (
                            w.add(format!("BREP_WITH_VOIDS({name},#{outer},{})", refs(&vs))),
                            "ADVANCED_BREP_SHAPE_REPRESENTATION",
                        )
                    }
                    None => {
                        w.warnings.push(format!(
                            "body {k} ({}): solid without shells written as an empty shell model",
                            body.name
                        ));
                        (
                            w.add(format!("SHELL_BASED_SURFACE_MODEL({name},())")),
                            "MANIFOLD_SURFACE_SHAPE_REPRESENTATION",
                        )
                    }
                }
            }
            kind => {
                if kind == BodyKind::Faces {
                    w.warnings.push(format!(
                        "body {k} ({}): {} loose faces written as an open shell (read back as an open shell body)",
                        body.name,
                        body.face_indices().count()
                    ));
                }
                (
                    w.add(format!("SHELL_BASED_SURFACE_MODEL({name},{})", refs(&shell_ids))),
                    "MANIFOLD_SURFACE_SHAPE_REPRESENTATION",
                )
            }
        };
        items.push(item);
        rep_kind.push(rk);
    }

    let identity = crate::geom::Pose::identity();
    let flat = model
        .bodies
        .iter()
        .zip(&shared)
        .all(|(bd, s)| s.is_none() && bd.placement.iso == identity.iso);
    let product = |w: &mut W<'_>, name: &str| -> (usize, usize) {
        let n = string(name);
        let p = w.add(format!("PRODUCT({n},{n},'',(#{pctx}))"));
        w.add(format!("PRODUCT_RELATED_PRODUCT_CATEGORY('part',$,(#{p}))"));
        let pdf = w.add(format!("PRODUCT_DEFINITION_FORMATION('','',#{p})"));
        let pd = w.add(format!("PRODUCT_DEFINITION('design','',#{pdf},#{pdctx})"));
        let pds = w.add(format!("PRODUCT_DEFINITION_SHAPE('','',#{pd})"));
        (pd, pds)
    };
    if flat {
        for (k, body) in model.bodies.iter().enumerate() {
            let (_pd, pds) = product(&mut w, &body.name);
            let rep = w.add(format!("{}('',(#{}),#{ctx})", rep_kind[k], items[k]));
            w.add(format!("SHAPE_DEFINITION_REPRESENTATION(#{pds},#{rep})"));
        }
    } else {
        let (root_pd, root_pds) = product(&mut w, &opts.assembly_name);
        let root_rep = w.reserve();
        let mut root_items = Vec::new();
        let mut comp: Vec<(usize, usize, usize)> = vec![(0, 0, 0); model.bodies.len()]; // (pd, rep, origin axis)
        for (k, body) in model.bodies.iter().enumerate() {
            if shared[k].is_some() {
                continue;
            }
            let (pname, _) = split_name(&body.name);
            let (pd, pds) = product(&mut w, &pname);
            let origin = w.axis3(&Frame::default());
            let rep = w.add(format!("{}('',(#{},#{origin}),#{ctx})", rep_kind[k], items[k]));
            w.add(format!("SHAPE_DEFINITION_REPRESENTATION(#{pds},#{rep})"));
            comp[k] = (pd, rep, origin);
        }
        for (k, body) in model.bodies.iter().enumerate() {
            let (pd, rep, origin) = comp[shared[k].unwrap_or(k)];
            let (_, inst) = split_name(&body.name);
            let f = stable_pose_frame(&body.placement);
            let target = w.axis3(&f);
            root_items.push(target);
            let nauo = w.add(format!(
                "NEXT_ASSEMBLY_USAGE_OCCURRENCE({},{},'',#{root_pd},#{pd},$)",
                string(&format!("{}", k + 1)),
                string(&inst)
            ));
            let pds = w.add(format!("PRODUCT_DEFINITION_SHAPE('','',#{nauo})"));
            let t = w.add(format!("ITEM_DEFINED_TRANSFORMATION('','',#{origin},#{target})"));
            let rr = w.add(format!(
                "(REPRESENTATION_RELATIONSHIP('','',#{rep},#{root_rep})REPRESENTATION_RELATIONSHIP_WITH_TRANSFORMATION(#{t})SHAPE_REPRESENTATION_RELATIONSHIP())"
            ));
            w.add(format!("CONTEXT_DEPENDENT_SHAPE_REPRESENTATION(#{rr},#{pds})"));
        }
        let root_origin = w.axis3(&Frame::default());
        root_items.insert(0, root_origin);
        w.set(
            root_rep,
            format!("SHAPE_REPRESENTATION('',{},#{ctx})", refs(&root_items)),
        );
        w.add(format!("SHAPE_DEFINITION_REPRESENTATION(#{root_pds},#{root_rep})"));
    }

    // the file
    let file_name = opts.file_name.clone().unwrap_or_else(|| {
        let stem = model
            .file_name
            .rsplit_once('.')
            .map_or(model.file_name.as_str(), |(s, _)| s);
        format!("{stem}.step")
    });
    let mut out = String::with_capacity(w.ents.iter().map(|e| e.len() + 12).sum::<usize>() + 512);
    out.push_str("ISO-10303-21;\nHEADER;\n");
    let _ = writeln!(
        out,
        "FILE_DESCRIPTION(({}),'2;1');",
        string(&format!("extrack export of {}", model.file_name))
    );
    let _ = writeln!(
        out,
        "FILE_NAME({},'1970-01-01T00:00:00',(''),(''),{},{},'');",
        string(&file_name),
        string(concat!("extrack ", env!("CARGO_PKG_VERSION"))),
        string("extrack")
    );
    out.push_str("FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'));\nENDSEC;\nDATA;\n");
    for (k, e) in w.ents.iter().enumerate() {
        let _ = writeln!(out, "#{}={e};", k + 1);
    }
    out.push_str("ENDSEC;\nEND-ISO-10303-21;\n");
    if w.scaled_lines > 0 {
        w.warnings.push(format!(
            "{} lines with a non-unit direction (IGES 110 lines run on [0, 1]) written as unit-speed LINEs: same points, parameter scaled by the direction's length",
            w.scaled_lines
        ));
    }
    let _ = w.model;
    Ok(Written {
        bytes: out.into_bytes(),
        warnings: w.warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reals_have_a_decimal_point() {
        assert_eq!(real(1.0), "1.");
        assert_eq!(real(-0.0), "0.");
        assert_eq!(real(0.5), "0.5");
        assert_eq!(real(1e-7), "1.E-7");
        assert_eq!(real(1.5e300), "1.5E300");
        assert_eq!(real(-2.5e-12), "-2.5E-12");
    }

    #[test]
    fn strings_escape_quotes_backslashes_and_non_ascii() {
        assert_eq!(string("it's"), "'it''s'");
        assert_eq!(string("a\\b"), "'a\\\\b'");
        assert_eq!(string("Müller"), "'M\\X2\\00FC\\X0\\ller'");
        assert_eq!(string("😀"), "'\\X2\\D83DDE00\\X0\\'");
        assert_eq!(string("line\nbreak"), "'line\\X2\\000A\\X0\\break'");
    }

    #[test]
    fn knots_compress_by_exact_equality() {
        let (m, k) = compress_knots(&[0.0, 0.0, 0.5, 1.0, 1.0, 1.0]);
        assert_eq!(m, vec![2, 1, 3]);
        assert_eq!(k, vec![0.0, 0.5, 1.0]);
    }

    proptest! {
        #[test]
        fn reals_read_back_exactly(x in proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO) {
            let s = real(x);
            prop_assert!(s.contains('.'));
            let v: f64 = s.replace(".E", ".0E").parse().unwrap();
            prop_assert_eq!(v, if x == 0.0 { 0.0 } else { x });
        }

        #[test]
        fn strings_decode_to_the_original(s in "\\PC{0,40}") {
            let lit = string(&s);
            let inner = &lit.as_bytes()[1..lit.len() - 1];
            prop_assert!(lit.is_ascii());
            let back = crate::import::step::strings::decode(inner).unwrap();
            prop_assert_eq!(back, s);
        }
    }
}
