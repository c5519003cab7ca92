//! **Model sanity pass.** After a file is read, before anything is
//! prepared, the Model is checked for values no CAD exporter writes on
//! purpose but a corrupt or hostile file can carry, and which would make
//! the preparation meaningless or slow:
//!
//! - **non-finite numbers** (NaN, ±inf) anywhere in the geometry: refused;
//! - **coordinates and sizes beyond [`MAX_COORDINATE_MM`]** (10 km) in
//!   absolute value (vertices, control points, frame origins, radii, offset
//!   distances): refused;
//! - **knot vectors and weights out of range**: knots decreasing or all
//!   equal, weights zero, negative or non-finite: refused; weights whose
//!   ratio exceeds [`MAX_WEIGHT_RATIO`]: a warning;
//! - **outliers relative to the model's extent**: a vertex or control point
//!   farther from the model's centre than [`OUTLIER_FACTOR`] times the
//!   model's robust radius (the 90th percentile of the points' distances
//!   to their median): a warning; beyond [`REFUSE_FACTOR`] times: refused;
//! - **loops that do not close** (a coedge ending farther from the next one's
//!   start than [`closing_tolerance`]) and **degenerate loops** (all their
//!   points within it): a warning naming face and loop.
//!
//! Every message names the entity (`#N` for STEP, the DE number for IGES)
//! it is about. What is refused fails the import with a [`SanityError`];
//! the rest is appended to the Model's warnings, and the preparation goes
//! on (bounded per face by its work budget).

use crate::geom::{Hpoint, Vec3};
use crate::import::model::{Curve, Model, SourceId, Surface};
use thiserror::Error;

/// Largest coordinate or size accepted, mm (10 km).
pub const MAX_COORDINATE_MM: f64 = 1e7;
/// A point farther from the model's centre than this many robust radii is
/// reported as an outlier.
pub const OUTLIER_FACTOR: f64 = 1e3;
/// A point farther from the model's centre than this many robust radii is
/// refused.
pub const REFUSE_FACTOR: f64 = 1e6;
/// Largest ratio of the largest to the smallest weight of a rational
/// B-spline before a warning.
pub const MAX_WEIGHT_RATIO: f64 = 1e9;
/// Warnings of each kind listed one by one; the rest are counted.
const SHOWN: usize = 10;

/// Why a Model was refused by the sanity pass.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("{what} {id}: {msg} (model sanity check, see README \"Limits\"); the file is refused")]
pub struct SanityError {
    /// What the entity is (`"vertex"`, `"edge"`, `"face"`).
    pub what: &'static str,
    /// The entity (`#N` or `DE N`).
    pub id: String,
    /// What is wrong.
    pub msg: String,
}

/// Formats a source id for a message in the file's own notation.
pub(super) fn name_of(model: &Model, id: SourceId) -> String {
    match model.format {
        crate::import::model::SourceFormat::Step => format!("#{id}"),
        crate::import::model::SourceFormat::Iges => format!("DE {id}"),
    }
}

/// Collects the problems of one entity at a time.
struct Check<'m> {
    model: &'m Model,
    what: &'static str,
    id: SourceId,
    warnings: Vec<String>,
}

impl Check<'_> {
    fn refuse(&self, msg: String) -> SanityError {
        SanityError {
            what: self.what,
            id: name_of(self.model, self.id),
            msg,
        }
    }

    fn number(&self, name: &str, x: f64) -> Result<(), SanityError> {
        if x.is_finite() {
            Ok(())
        } else {
            Err(self.refuse(format!("{name} is {x}")))
        }
    }

    fn length(&self, name: &str, x: f64) -> Result<(), SanityError> {
        self.number(name, x)?;
        if x.abs() > MAX_COORDINATE_MM {
            return Err(self.refuse(format!(
                "{name} {x:e} mm beyond the bound of {MAX_COORDINATE_MM:e} mm"
            )));
        }
        Ok(())
    }

    fn point(&self, name: &str, p: &Vec3, param_space: bool) -> Result<(), SanityError> {
        for x in p.iter() {
            if param_space {
                self.number(name, *x)?;
            } else {
                self.length(name, *x)?;
            }
        }
        Ok(())
    }

    fn knots(&self, name: &str, k: &[f64]) -> Result<(), SanityError> {
        if let Some(x) = k.iter().find(|x| !x.is_finite()) {
            return Err(self.refuse(format!("{name} knot {x}")));
        }
        if k.windows(2).any(|w| w[1] < w[0]) {
            return Err(self.refuse(format!("{name} knots decrease")));
        }
        if k.first() == k.last() {
            return Err(self.refuse(format!("{name} knots are all equal (an empty domain)")));
        }
        Ok(())
    }

    fn poles(&mut self, cw: &[Hpoint], rational: bool, param_space: bool) -> Result<(), SanityError> {
        let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
        for q in cw {
            let w = q[3];
            if !(w.is_finite() && w > 0.0) {
                return Err(self.refuse(format!("weight {w} (weights must be positive)")));
            }
            lo = lo.min(w);
            hi = hi.max(w);
            self.point("control point", &Vec3::new(q[0] / w, q[1] / w, q[2] / w), param_space)?;
        }
        if rational && hi > MAX_WEIGHT_RATIO * lo {
            self.warnings.push(format!(
                "{} {}: weights range over {:.1e} (above {MAX_WEIGHT_RATIO:e}): the surface or curve is numerically fragile",
                self.what,
                name_of(self.model, self.id),
                hi / lo
            ));
        }
        Ok(())
    }

    fn curve(&mut self, c: &Curve, param_space: bool) -> Result<(), SanityError> {
        let size = |s: &Self, n: &str, x: f64| if param_space { s.number(n, x) } else { s.length(n, x) };
        match c {
            Curve::Line { origin, dir } => {
                self.point("line origin", origin, param_space)?;
                self.point("line direction", dir, true)?;
            }
            Curve::Circle { frame, radius } | Curve::Parabola { frame, focal: radius } => {
                self.point("origin", &frame.origin, param_space)?;
                size(self, "radius", *radius)?;
            }
            Curve::Ellipse { frame, semi_x, semi_y } | Curve::Hyperbola { frame, semi_x, semi_y } => {
                self.point("origin", &frame.origin, param_space)?;
                size(self, "semi-axis", *semi_x)?;
                size(self, "semi-axis", *semi_y)?;
            }
            Curve::BSpline(n) => {
                self.knots("curve", &n.knots)?;
                self.poles(&n.cw, n.rational, param_space)?;
            }
            Curve::Polyline(p) => {
                for q in p {
                    self.point("polyline point", q, param_space)?;
                }
            }
            Curve::Composite(segs) => {
                for s in segs {
                    self.number("segment start", s.t0)?;
                    self.number("segment end", s.t1)?;
                    self.curve(&s.curve, param_space)?;
                }
            }
        }
        Ok(())
    }

    fn surface(&mut self, s: &Surface) -> Result<(), SanityError> {
        match s {
            Surface::Plane { frame } => self.point("origin", &frame.origin, false)?,
            Surface::Cylinder { frame, radius } | Surface::Sphere { frame, radius } => {
                self.point("origin", &frame.origin, false)?;
                self.length("radius", *radius)?;
            }
            Surface::Cone {
                frame,
                radius,
                semi_angle,
            } => {
                self.point("origin", &frame.origin, false)?;
                self.length("radius", *radius)?;
                self.number("semi-angle", *semi_angle)?;
            }
            Surface::Torus { frame, major, minor } => {
                self.point("origin", &frame.origin, false)?;
                self.length("major radius", *major)?;
                self.length("minor radius", *minor)?;
            }
            Surface::Revolution {
                profile,
                axis_origin,
                axis_dir,
            } => {
                self.curve(profile, false)?;
                self.point("axis origin", axis_origin, false)?;
                self.point("axis direction", axis_dir, true)?;
            }
            Surface::Extrusion { profile, direction } => {
                self.curve(profile, false)?;
                self.point("direction", direction, true)?;
            }
            Surface::Offset { basis, distance } => {
                self.length("offset distance", *distance)?;
                self.surface(basis)?;
            }
            Surface::BSpline(n) => {
                self.knots("u", &n.knots_u)?;
                self.knots("v", &n.knots_v)?;
                self.poles(&n.cw, n.rational, false)?;
            }
            Surface::Trimmed { basis, u, v } => {
                for x in [u.0, u.1, v.0, v.1] {
                    self.number("trim parameter", x)?;
                }
                // an angle range of more than one turn (a revolution through
                // 1e6 rad would be converted span by span)
                let turn = std::f64::consts::TAU * (1.0 + 1e-9);
                let (u_angle, v_angle) = match &**basis {
                    Surface::Revolution { .. } | Surface::Cylinder { .. } | Surface::Cone { .. } => (true, false),
                    Surface::Sphere { .. } | Surface::Torus { .. } => (true, true),
                    _ => (false, false),
                };
                for (angle, r, name) in [(u_angle, u, "u"), (v_angle, v, "v")] {
                    if angle && (r.1 - r.0).abs() > turn {
                        return Err(self.refuse(format!(
                            "{name} angle range {:e} rad is more than one turn",
                            r.1 - r.0
                        )));
                    }
                }
                self.surface(basis)?;
            }
        }
        Ok(())
    }
}

/// The Cartesian control points of a curve (vertices of a polyline).
fn curve_points(c: &Curve, out: &mut Vec<(Vec3, &'static str, SourceId)>, what: &'static str, id: SourceId) {
    match c {
        Curve::BSpline(n) => out.extend(
            n.cw
                .iter()
                .map(|q| (Vec3::new(q[0] / q[3], q[1] / q[3], q[2] / q[3]), what, id)),
        ),
        Curve::Polyline(p) => out.extend(p.iter().map(|&q| (q, what, id))),
        Curve::Composite(s) => s.iter().for_each(|s| curve_points(&s.curve, out, what, id)),
        _ => {}
    }
}

/// The distance below which two loop ends meet: 1000 times the file's
/// tolerance, and at least 1e-3 of the model's robust radius and 1 µm.
pub fn closing_tolerance(model: &Model, radius: f64) -> f64 {
    let tol = model.tolerance.filter(|t| t.is_finite() && *t > 0.0).unwrap_or(0.0);
    (1e3 * tol).max(1e-3 * radius).max(1e-3)
}

/// Robust centre (per-axis median) and radius (90th percentile of the
/// distances to it) of `pts`; `None` for fewer than 4 points.
fn extent(pts: &[Vec3]) -> Option<(Vec3, f64)> {
    if pts.len() < 4 {
        return None;
    }
    let median = |k: usize| {
        let mut v: Vec<f64> = pts.iter().map(|p| p[k]).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let c = Vec3::new(median(0), median(1), median(2));
    let mut d: Vec<f64> = pts.iter().map(|p| (p - c).norm()).collect();
    d.sort_by(f64::total_cmp);
    Some((c, d[(d.len() * 9) / 10]))
}

/// Checks `model` (see the module doc): `Err` for what cannot be prepared
/// meaningfully; warnings appended to `model.warnings` otherwise.
pub fn check(model: &mut Model) -> Result<(), SanityError> {
    let warnings = check_model(model)?;
    model.warnings.extend(warnings);
    Ok(())
}

fn check_model(model: &Model) -> Result<Vec<String>, SanityError> {
    let mut warnings = Vec::new();
    let ck = |what: &'static str, id: SourceId| Check {
        model,
        what,
        id,
        warnings: Vec::new(),
    };
    // 1. absolute bounds, non-finite numbers, knots and weights
    for v in &model.vertices {
        ck("vertex", v.source).point("point", &v.point, false)?;
    }
    for e in &model.edges {
        let mut c = ck("edge", e.source);
        c.number("start parameter", e.t0)?;
        c.number("end parameter", e.t1)?;
        c.curve(&e.curve, false)?;
        warnings.append(&mut c.warnings);
    }
    for f in &model.faces {
        let mut c = ck("face", f.source);
        c.surface(&f.surface)?;
        for l in f.outer.iter().chain(&f.inner) {
            for ce in &l.coedges {
                let mut cc = ck("coedge", ce.source);
                if let Some(s) = &ce.pcurve {
                    cc.number("p-curve start", s.t0)?;
                    cc.number("p-curve end", s.t1)?;
                    cc.curve(&s.curve, true)?;
                }
                if let Some(s) = &ce.curve {
                    cc.curve(&s.curve, false)?;
                }
                warnings.append(&mut cc.warnings);
            }
        }
        warnings.append(&mut c.warnings);
    }
    // 2. outliers relative to the model's extent
    let mut pts: Vec<(Vec3, &'static str, SourceId)> =
        model.vertices.iter().map(|v| (v.point, "vertex", v.source)).collect();
    for e in &model.edges {
        curve_points(&e.curve, &mut pts, "edge", e.source);
    }
    for f in &model.faces {
        if let Surface::BSpline(n) = &f.surface {
            pts.extend(
                n.cw
                    .iter()
                    .map(|q| (Vec3::new(q[0] / q[3], q[1] / q[3], q[2] / q[3]), "face", f.source)),
            );
        }
    }
    let coords: Vec<Vec3> = pts.iter().map(|p| p.0).collect();
    let (centre, radius) = extent(&coords).unwrap_or((Vec3::zeros(), 0.0));
    // a floor: a model of points all within 1 µm has no meaningful extent
    let r = radius.max(1e-3);
    if extent(&coords).is_some() {
        let mut far: Vec<(f64, &'static str, SourceId)> = pts
            .iter()
            .map(|(p, what, id)| ((p - centre).norm() / r, *what, *id))
            .filter(|(k, ..)| *k > OUTLIER_FACTOR)
            .collect();
        far.sort_by(|a, b| b.0.total_cmp(&a.0));
        if let Some(&(k, what, id)) = far.first() {
            if k > REFUSE_FACTOR {
                return Err(SanityError {
                    what,
                    id: name_of(model, id),
                    msg: format!(
                        "a point lies {k:.1e} times the model's radius ({r:.3e} mm) from its centre (more than {REFUSE_FACTOR:e})"
                    ),
                });
            }
        }
        far.dedup_by_key(|f| (f.1, f.2));
        for (k, what, id) in far.iter().take(SHOWN) {
            warnings.push(format!(
                "{what} {}: a point lies {k:.1e} times the model's radius ({r:.3e} mm) from its centre: a corrupt coordinate?",
                name_of(model, *id)
            ));
        }
        if far.len() > SHOWN {
            warnings.push(format!("{} more entities with outlying points", far.len() - SHOWN));
        }
    }
    // 3. loops: closing and degenerate
    let tol = closing_tolerance(model, radius);
    let mut loop_warnings = Vec::new();
    for f in &model.faces {
        for l in f.outer.iter().chain(&f.inner) {
            let ends: Vec<Option<(Vec3, Vec3)>> = l
                .coedges
                .iter()
                .map(|c| {
                    let e = model.edges.get(c.edge?)?;
                    let p = |v: Option<usize>| v.and_then(|v| model.vertices.get(v)).map(|v| v.point);
                    let (a, b) = (p(e.start)?, p(e.end)?);
                    Some(if c.forward { (a, b) } else { (b, a) })
                })
                .collect();
            let n = ends.len();
            let mut worst: Option<(f64, usize)> = None;
            for i in 0..n {
                if let (Some(a), Some(b)) = (ends[i], ends[(i + 1) % n]) {
                    let gap = (a.1 - b.0).norm();
                    if gap > tol && worst.map_or(true, |w| gap > w.0) {
                        worst = Some((gap, i));
                    }
                }
            }
            if let Some((gap, i)) = worst {
                let src = |k: usize| name_of(model, l.coedges[k % n].source);
                loop_warnings.push(format!(
                    "face {}: loop {} does not close: coedge {} ends {gap:.3e} mm from the start of coedge {} (closing tolerance {tol:.1e} mm)",
                    name_of(model, f.source),
                    name_of(model, l.source),
                    src(i),
                    src(i + 1)
                ));
            }
            // degenerate: every point of the loop (ends and edge middles) within the tolerance
            let mut lo = Vec3::repeat(f64::INFINITY);
            let mut hi = Vec3::repeat(f64::NEG_INFINITY);
            let mut any = false;
            for c in &l.coedges {
                let Some(e) = c.edge.and_then(|e| model.edges.get(e)) else {
                    any = false;
                    break;
                };
                for t in [e.t0, 0.5 * (e.t0 + e.t1), e.t1] {
                    let p = e.curve.eval(t);
                    lo = lo.inf(&p);
                    hi = hi.sup(&p);
                    any = true;
                }
            }
            if any && (hi - lo).norm() <= 1e-3 * tol {
                loop_warnings.push(format!(
                    "face {}: loop {} is degenerate (all its points within {:.1e} mm)",
                    name_of(model, f.source),
                    name_of(model, l.source),
                    (hi - lo).norm()
                ));
            }
        }
    }
    let extra = loop_warnings.len().saturating_sub(SHOWN);
    warnings.extend(loop_warnings.into_iter().take(SHOWN));
    if extra > 0 {
        warnings.push(format!("{extra} more loops that do not close or are degenerate"));
    }
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::model::{SourceFormat, Vertex};

    /// A 3×3×3 grid of vertices over a 10 mm cube (robust radius √75 ≈ 8.7
    /// mm about its centre (5, 5, 5)), and vertex #7 at `(far, 0, 0)`.
    fn cube_model(far: f64) -> Model {
        let mut m = Model::new(SourceFormat::Step, "t.stp");
        for x in [0.0, 5.0, 10.0] {
            for y in [0.0, 5.0, 10.0] {
                for z in [0.0, 5.0, 10.0] {
                    m.vertices.push(Vertex {
                        point: Vec3::new(x, y, z),
                        source: 100,
                    });
                }
            }
        }
        m.vertices.push(Vertex {
            point: Vec3::new(far, 0.0, 0.0),
            source: 7,
        });
        m
    }

    #[test]
    fn a_sane_model_passes_without_warnings() {
        let mut m = cube_model(10.0);
        check(&mut m).unwrap();
        assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    }

    #[test]
    fn absurd_and_non_finite_coordinates_are_refused_naming_the_entity() {
        for x in [1e308, 1e20, f64::NAN, f64::INFINITY] {
            let e = check(&mut cube_model(x)).unwrap_err();
            assert_eq!(e.id, "#7", "{e}");
            assert_eq!(e.what, "vertex");
        }
    }

    #[test]
    fn outliers_relative_to_the_extent_warn_then_refuse() {
        // the grid's robust radius is ~8.7 mm: 1e5 mm is ~1e4 radii away
        let mut m = cube_model(1e5);
        check(&mut m).unwrap();
        assert_eq!(m.warnings.len(), 1, "{:?}", m.warnings);
        assert!(m.warnings[0].contains("vertex #7"), "{}", m.warnings[0]);
        // 9e6 mm (below the absolute bound) is ~1e6 radii away
        let e = check(&mut cube_model(9.9e6)).unwrap_err();
        assert!(e.to_string().contains("#7"), "{e}");
    }

    #[test]
    fn bad_knots_and_weights_are_refused() {
        let mut m = cube_model(10.0);
        let c = crate::geom::NurbsCurve {
            degree: 1,
            knots: vec![0.0, 0.0, 1.0, 0.5],
            cw: vec![[0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 1.0]],
            rational: false,
        };
        m.edges.push(crate::import::model::Edge {
            curve: Curve::BSpline(c.clone()),
            t0: 0.0,
            t1: 1.0,
            start: None,
            end: None,
            faces: Vec::new(),
            source: 9,
        });
        let e = check(&mut m.clone()).unwrap_err();
        assert!(e.to_string().contains("edge #9: curve knots decrease"), "{e}");
        let mut w = c;
        w.knots = vec![0.0, 0.0, 1.0, 1.0];
        w.cw[1][3] = -1.0;
        w.rational = true;
        m.edges[0].curve = Curve::BSpline(w);
        let e = check(&mut m).unwrap_err();
        assert!(e.to_string().contains("weight -1"), "{e}");
    }
}
