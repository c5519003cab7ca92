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

use crate::geom::Frame;
use crate::geom::Vec3;
use crate::import::model::{Body, BodyKind, Coedge, Curve, CurveSegment, Loop, Model, Surface};
use std::fmt::Write as _;

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
    /// hyperbolas, parabolas and reversed arcs into exact rational 126s).
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

struct Cmp<'a> {
    a: &'a Model,
    b: &'a Model,
    o: CompareOptions,
    out: Comparison,
    face_map: Vec<Option<usize>>,
    face_rev: Vec<Option<usize>>,
    edge_map: Vec<Option<usize>>,
    edge_rev: Vec<Option<usize>>,
    vert_map: Vec<Option<usize>>,
    vert_rev: Vec<Option<usize>>,
}

/// Pairs `i ↔ j` in a one-to-one map; false when either side is already paired elsewhere.
fn pair(map: &mut [Option<usize>], rev: &mut [Option<usize>], i: usize, j: usize) -> Result<bool, String> {
    let (Some(mi), Some(rj)) = (map.get(i).copied(), rev.get(j).copied()) else {
        return Err(format!("index {i} / {j} out of range"));
    };
    match (mi, rj) {
        (None, None) => {
            map[i] = Some(j);
            rev[j] = Some(i);
            Ok(true)
        }
        (Some(x), Some(y)) if x == j && y == i => Ok(false),
        (x, y) => Err(format!(
            "a {i} ↔ b {j}, but a {i} already ↔ b {x:?} and b {j} ↔ a {y:?}"
        )),
    }
}

impl<'a> Cmp<'a> {
    fn diff(&mut self, path: &str, what: impl Into<String>) {
        self.out.differences.push(Difference {
            path: path.to_string(),
            what: what.into(),
        });
    }

    fn real(&mut self, path: &str, name: &str, x: f64, y: f64) {
        let d = (x - y).abs();
        let scale = 1f64.max(x.abs()).max(y.abs());
        if d <= self.o.tol * scale || (x == y) {
            if d.is_finite() {
                self.out.max_deviation = self.out.max_deviation.max(d / scale);
            }
        } else {
            self.diff(path, format!("{name} {x:?} vs {y:?} (Δ {d:e})"));
        }
    }

    fn vec(&mut self, path: &str, name: &str, x: &crate::geom::Vec3, y: &crate::geom::Vec3) {
        let d = (x - y).norm();
        let scale = 1f64.max(x.norm()).max(y.norm());
        if d <= self.o.tol * scale {
            if d.is_finite() {
                self.out.max_deviation = self.out.max_deviation.max(d / scale);
            }
        } else {
            self.diff(
                path,
                format!(
                    "{name} [{}, {}, {}] vs [{}, {}, {}] (Δ {d:e})",
                    x.x, x.y, x.z, y.x, y.y, y.z
                ),
            );
        }
    }

    fn reals(&mut self, path: &str, name: &str, x: &[f64], y: &[f64]) {
        if x.len() != y.len() {
            self.diff(path, format!("{name} count {} vs {}", x.len(), y.len()));
            return;
        }
        let n = self.out.differences.len();
        for (k, (p, q)) in x.iter().zip(y).enumerate() {
            self.real(path, &format!("{name}[{k}]"), *p, *q);
            if self.out.differences.len() > n + 3 {
                break;
            }
        }
    }

    fn frame(&mut self, path: &str, x: &Frame, y: &Frame) {
        self.vec(path, "origin", &x.origin, &y.origin);
        self.vec(path, "x axis", &x.x, &y.x);
        self.vec(path, "z axis", &x.z, &y.z);
    }

    fn surface(&mut self, path: &str, x: &Surface, y: &Surface) {
        if self.o.relax.bounded_surfaces {
            if let (false, Surface::Trimmed { basis: q, u, v }) = (matches!(x, Surface::Trimmed { .. }), y) {
                if matches!(**q, Surface::Revolution { .. } | Surface::Extrusion { .. }) {
                    *self.out.relaxed.entry("bounded surface (Trimmed)").or_insert(0) += 1;
                    self.bounded_basis(&format!("{path} / trimmed basis"), x, q, *u, *v);
                    return;
                }
            }
        }
        match (x, y) {
            (Surface::Plane { frame: f }, Surface::Plane { frame: g }) => self.frame(path, f, g),
            (Surface::Cylinder { frame: f, radius: r }, Surface::Cylinder { frame: g, radius: s }) => {
                self.frame(path, f, g);
                self.real(path, "radius", *r, *s);
            }
            (
                Surface::Cone {
                    frame: f,
                    radius: r,
                    semi_angle: a,
                },
                Surface::Cone {
                    frame: g,
                    radius: s,
                    semi_angle: b,
                },
            ) => {
                self.frame(path, f, g);
                self.real(path, "radius", *r, *s);
                self.real(path, "semi-angle", *a, *b);
            }
            (Surface::Sphere { frame: f, radius: r }, Surface::Sphere { frame: g, radius: s }) => {
                self.frame(path, f, g);
                self.real(path, "radius", *r, *s);
            }
            (
                Surface::Torus {
                    frame: f,
                    major: r1,
                    minor: r2,
                },
                Surface::Torus {
                    frame: g,
                    major: s1,
                    minor: s2,
                },
            ) => {
                self.frame(path, f, g);
                self.real(path, "major radius", *r1, *s1);
                self.real(path, "minor radius", *r2, *s2);
            }
            (
                Surface::Revolution {
                    profile: p,
                    axis_origin: o,
                    axis_dir: d,
                },
                Surface::Revolution {
                    profile: q,
                    axis_origin: o2,
                    axis_dir: d2,
                },
            ) => {
                self.curve(&format!("{path} / profile"), p, q);
                self.vec(path, "axis origin", o, o2);
                self.vec(path, "axis direction", d, d2);
            }
            (
                Surface::Extrusion {
                    profile: p,
                    direction: d,
                },
                Surface::Extrusion {
                    profile: q,
                    direction: d2,
                },
            ) => {
                self.curve(&format!("{path} / profile"), p, q);
                self.vec(path, "direction", d, d2);
            }
            (Surface::Offset { basis: p, distance: d }, Surface::Offset { basis: q, distance: e }) => {
                self.surface(&format!("{path} / basis"), p, q);
                self.real(path, "offset", *d, *e);
            }
            (Surface::BSpline(p), Surface::BSpline(q)) => {
                if (p.degree_u, p.degree_v, p.n_u, p.n_v) != (q.degree_u, q.degree_v, q.n_u, q.n_v) {
                    self.diff(
                        path,
                        format!(
                            "B-spline degrees/poles {}x{} {}x{} vs {}x{} {}x{}",
                            p.degree_u, p.degree_v, p.n_u, p.n_v, q.degree_u, q.degree_v, q.n_u, q.n_v
                        ),
                    );
                    return;
                }
                self.reals(path, "u knot", &p.knots_u, &q.knots_u);
                self.reals(path, "v knot", &p.knots_v, &q.knots_v);
                self.poles(path, &p.cw, &q.cw);
            }
            (Surface::Trimmed { basis: p, u, v }, Surface::Trimmed { basis: q, u: u2, v: v2 }) => {
                self.surface(&format!("{path} / basis"), p, q);
                self.reals(path, "trim", &[u.0, u.1, v.0, v.1], &[u2.0, u2.1, v2.0, v2.1]);
            }
            _ => self.diff(path, format!("surface type {} vs {}", variant_s(x), variant_s(y))),
        }
    }

    /// A bare revolution / extrusion `x` against the basis `y` of a trimmed
    /// surface with rectangle `u × v` (`bounded_surfaces`). A profile whose
    /// type changed (a conic written as a B-spline) compares by evaluation:
    /// `x`'s profile on its natural range against `y`'s on the rectangle's
    /// profile range.
    fn bounded_basis(&mut self, path: &str, x: &Surface, y: &Surface, u: (f64, f64), v: (f64, f64)) {
        let (p, q, range) = match (x, y) {
            (Surface::Revolution { profile: p, .. }, Surface::Revolution { profile: q, .. }) => (p, q, v),
            (Surface::Extrusion { profile: p, .. }, Surface::Extrusion { profile: q, .. }) => (p, q, u),
            _ => return self.surface(path, x, y),
        };
        if p.type_name() == q.type_name() {
            if let (Surface::Extrusion { direction: d, .. }, Surface::Extrusion { direction: d2, .. }) = (x, y) {
                // the same surface when the profile moved along the direction
                let t = p.natural_range().map_or(0.0, |r| r.0);
                let delta = (q.eval(t) - p.eval(t)).dot(d);
                if delta != 0.0 && delta.is_finite() {
                    *self
                        .out
                        .relaxed
                        .entry("extrusion profile moved along the direction")
                        .or_insert(0) += 1;
                    let moved = super::iges::shift_curve(p, &(d * delta));
                    self.curve(
                        &format!("{path} / profile moved by {delta:e} along the direction"),
                        &moved,
                        q,
                    );
                    self.vec(path, "direction", d, d2);
                    return;
                }
            }
            return self.surface(path, x, y);
        }
        if !self.o.relax.curves_by_evaluation {
            return self.surface(path, x, y);
        }
        let Some((t0, t1)) = p.natural_range() else {
            self.diff(
                path,
                format!("profile {} vs {}: unbounded profile", p.type_name(), q.type_name()),
            );
            return;
        };
        let seg = |c: &Curve, (t0, t1): (f64, f64)| CurveSegment {
            curve: c.clone(),
            t0,
            t1,
            forward: true,
        };
        self.segment(&format!("{path} / profile"), &seg(p, (t0, t1)), &seg(q, range), false);
        match (x, y) {
            (
                Surface::Revolution {
                    axis_origin: o,
                    axis_dir: d,
                    ..
                },
                Surface::Revolution {
                    axis_origin: o2,
                    axis_dir: d2,
                    ..
                },
            ) => {
                self.vec(path, "axis origin", o, o2);
                self.vec(path, "axis direction", d, d2);
            }
            (Surface::Extrusion { direction: d, .. }, Surface::Extrusion { direction: d2, .. }) => {
                self.vec(path, "direction", d, d2)
            }
            _ => {}
        }
    }

    fn poles(&mut self, path: &str, p: &[[f64; 4]], q: &[[f64; 4]]) {
        if p.len() != q.len() {
            self.diff(path, format!("pole count {} vs {}", p.len(), q.len()));
            return;
        }
        let n = self.out.differences.len();
        for (k, (x, y)) in p.iter().zip(q).enumerate() {
            // Euclidean poles and weights
            let ex = crate::geom::Vec3::new(x[0] / x[3], x[1] / x[3], x[2] / x[3]);
            let ey = crate::geom::Vec3::new(y[0] / y[3], y[1] / y[3], y[2] / y[3]);
            self.vec(path, &format!("pole {k}"), &ex, &ey);
            self.real(path, &format!("weight {k}"), x[3], y[3]);
            if self.out.differences.len() > n + 3 {
                break;
            }
        }
    }

    fn curve(&mut self, path: &str, x: &Curve, y: &Curve) {
        match (x, y) {
            (Curve::Line { origin: o, dir: d }, Curve::Line { origin: o2, dir: d2 }) => {
                self.vec(path, "origin", o, o2);
                self.vec(path, "direction", d, d2);
            }
            (Curve::Circle { frame: f, radius: r }, Curve::Circle { frame: g, radius: s }) => {
                self.frame(path, f, g);
                self.real(path, "radius", *r, *s);
            }
            (
                Curve::Ellipse {
                    frame: f,
                    semi_x: a,
                    semi_y: b,
                },
                Curve::Ellipse {
                    frame: g,
                    semi_x: c,
                    semi_y: d,
                },
            )
            | (
                Curve::Hyperbola {
                    frame: f,
                    semi_x: a,
                    semi_y: b,
                },
                Curve::Hyperbola {
                    frame: g,
                    semi_x: c,
                    semi_y: d,
                },
            ) => {
                self.frame(path, f, g);
                self.real(path, "semi-axis x", *a, *c);
                self.real(path, "semi-axis y", *b, *d);
            }
            (Curve::Parabola { frame: f, focal: a }, Curve::Parabola { frame: g, focal: b }) => {
                self.frame(path, f, g);
                self.real(path, "focal distance", *a, *b);
            }
            (Curve::BSpline(p), Curve::BSpline(q)) => {
                if p.degree != q.degree {
                    self.diff(path, format!("B-spline degree {} vs {}", p.degree, q.degree));
                    return;
                }
                self.reals(path, "knot", &p.knots, &q.knots);
                self.poles(path, &p.cw, &q.cw);
            }
            (Curve::Polyline(p), Curve::Polyline(q)) => {
                if p.len() != q.len() {
                    self.diff(path, format!("polyline points {} vs {}", p.len(), q.len()));
                    return;
                }
                for (k, (u, v)) in p.iter().zip(q).enumerate() {
                    self.vec(path, &format!("point {k}"), u, v);
                }
            }
            (Curve::Composite(p), Curve::Composite(q)) => {
                if p.len() != q.len() {
                    self.diff(path, format!("composite segments {} vs {}", p.len(), q.len()));
                    return;
                }
                for (k, (u, v)) in p.iter().zip(q).enumerate() {
                    self.segment(&format!("{path} / segment {k}"), u, v, false);
                }
            }
            _ => self.diff(path, format!("curve type {} vs {}", x.type_name(), y.type_name())),
        }
    }

    /// `y` (a B-spline segment) against the conic segment `x` by evaluation
    /// (see [`Relaxations::curves_by_evaluation`]); `either_sense` accepts
    /// `y` running against `x` (p-curves under `pcurve_ranges`).
    fn conic_by_evaluation(&mut self, path: &str, x: &CurveSegment, y: &CurveSegment, either_sense: bool) {
        const N: usize = 16;
        let periodic = matches!(x.curve, Curve::Circle { .. } | Curve::Ellipse { .. });
        let (start, end) = if x.forward { (x.t0, x.t1) } else { (x.t1, x.t0) };
        let mut ts = Vec::with_capacity(N + 1);
        let n = self.out.differences.len();
        for k in 0..=N {
            let s = k as f64 / N as f64;
            let p = y.point_at(s);
            let Some(mut t) = conic_parameter(&x.curve, &p) else {
                self.diff(path, format!("{} has no closed-form parameter", x.curve.type_name()));
                return;
            };
            if periodic {
                // the turn closest to the expected position along `x`
                let expect = start + s * (end - start);
                t += ((expect - t) / std::f64::consts::TAU).round() * std::f64::consts::TAU;
            }
            let q = x.curve.eval(t);
            self.vec(
                path,
                &format!("B-spline point {k} on the {}", x.curve.type_name()),
                &q,
                &p,
            );
            ts.push(t);
            if self.out.differences.len() > n + 3 {
                return;
            }
        }
        let (first, last) = (ts[0], ts[N]);
        let reversed = either_sense && (first - end).abs() < (first - start).abs();
        let (want0, want1) = if reversed { (end, start) } else { (start, end) };
        self.real(path, "start parameter on the conic", want0, first);
        self.real(path, "end parameter on the conic", want1, last);
        let rising = want1 > want0;
        if ts.windows(2).any(|w| (w[1] > w[0]) != rising || w[1] == w[0]) {
            self.diff(
                path,
                format!(
                    "the B-spline does not run monotonically along the {}",
                    x.curve.type_name()
                ),
            );
        }
    }

    /// A used curve range; `pcurve` applies the p-curve relaxation.
    fn segment(&mut self, path: &str, x: &CurveSegment, y: &CurveSegment, pcurve: bool) {
        if self.o.relax.curves_by_evaluation
            && matches!(y.curve, Curve::BSpline(_))
            && matches!(
                x.curve,
                Curve::Circle { .. } | Curve::Ellipse { .. } | Curve::Hyperbola { .. } | Curve::Parabola { .. }
            )
        {
            // in their traversal orders (either way round for p-curves under `pcurve_ranges`)
            let either = pcurve && self.o.relax.pcurve_ranges;
            *self
                .out
                .relaxed
                .entry(match x.curve {
                    Curve::Circle { .. } => "circle as B-spline (by evaluation)",
                    Curve::Ellipse { .. } => "ellipse as B-spline (by evaluation)",
                    Curve::Hyperbola { .. } => "hyperbola as B-spline (by evaluation)",
                    _ => "parabola as B-spline (by evaluation)",
                })
                .or_insert(0) += 1;
            self.conic_by_evaluation(path, x, y, either);
            return;
        }
        if x.forward != y.forward && !(pcurve && self.o.relax.pcurve_ranges) {
            self.diff(path, format!("direction forward={} vs {}", x.forward, y.forward));
        }
        if self.o.relax.line_parameterisation {
            if let (Curve::Line { origin: o, dir: d }, Curve::Line { origin: o2, dir: d2 }) = (&x.curve, &y.curve) {
                if pcurve && self.o.relax.pcurve_ranges {
                    // by curve only: the same infinite line (ranges and
                    // speed are the format's, see `pcurve_ranges`)
                    let (n, n2) = (d.norm(), d2.norm());
                    if n > 0.0 && n2 > 0.0 {
                        let (u, mut u2) = (d / n, d2 / n2);
                        if u.dot(&u2) < 0.0 {
                            u2 = -u2;
                        }
                        self.vec(path, "line direction (unit, up to sign)", &u, &u2);
                        let off = o2 - o;
                        let perp = off - u * off.dot(&u);
                        self.vec(path, "line offset (perpendicular)", &Vec3::zeros(), &perp);
                        return;
                    }
                }
                self.vec(path, "line start", &(o + d * x.t0), &(o2 + d2 * y.t0));
                self.vec(path, "line end", &(o + d * x.t1), &(o2 + d2 * y.t1));
                return;
            }
        }
        self.curve(path, &x.curve, &y.curve);
        let periodic = matches!(x.curve, Curve::Circle { .. } | Curve::Ellipse { .. });
        if self.o.relax.angle_ranges && periodic && !(pcurve && self.o.relax.pcurve_ranges) {
            let k = ((y.t0 - x.t0) / std::f64::consts::TAU).round() * std::f64::consts::TAU;
            self.real(path, "t0 (mod 2π)", x.t0 + k, y.t0);
            self.real(path, "t1 (mod 2π)", x.t1 + k, y.t1);
            return;
        }
        if !(pcurve && self.o.relax.pcurve_ranges) {
            self.real(path, "t0", x.t0, y.t0);
            self.real(path, "t1", x.t1, y.t1);
        }
    }

    fn body(&mut self, path: &str, x: &Body, y: &Body) {
        if !self.o.relax.names && x.name != y.name {
            self.diff(path, format!("name {:?} vs {:?}", x.name, y.name));
        }
        let kinds_ok = x.kind == y.kind
            || (self.o.relax.faces_as_open_shell
                && matches!(
                    (x.kind, y.kind),
                    (BodyKind::Faces, BodyKind::OpenShell) | (BodyKind::OpenShell, BodyKind::Faces)
                ));
        if !kinds_ok {
            self.diff(path, format!("kind {:?} vs {:?}", x.kind, y.kind));
        }
        let (fx, fy) = (super::frame_of_pose(&x.placement), super::frame_of_pose(&y.placement));
        self.frame(&format!("{path} / placement"), &fx, &fy);
        if x.shells.len() != y.shells.len() {
            self.diff(path, format!("shell count {} vs {}", x.shells.len(), y.shells.len()));
        }
        for (k, (s, t)) in x.shells.iter().zip(&y.shells).enumerate() {
            let p = format!("{path} / shell {k}");
            // a loose-face body's shell is open; an open shell may be either
            if s.closed != t.closed && !self.o.relax.faces_as_open_shell {
                self.diff(&p, format!("closed {} vs {}", s.closed, t.closed));
            }
            if s.void != t.void {
                self.diff(&p, format!("void {} vs {}", s.void, t.void));
            }
            if s.faces.len() != t.faces.len() {
                self.diff(&p, format!("face count {} vs {}", s.faces.len(), t.faces.len()));
            }
            for (&f, &g) in s.faces.iter().zip(&t.faces) {
                let fp = format!("{p} / face {f}");
                match pair(&mut self.face_map, &mut self.face_rev, f, g) {
                    Ok(true) => self.face(&fp, f, g),
                    Ok(false) => {}
                    Err(m) => self.diff(&fp, format!("face sharing differs: {m}")),
                }
            }
        }
    }

    fn face(&mut self, path: &str, f: usize, g: usize) {
        let (a, b) = (self.a, self.b);
        let (Some(x), Some(y)) = (a.faces.get(f), b.faces.get(g)) else {
            self.diff(path, "face index out of range");
            return;
        };
        self.out.matched.0 += 1;
        if x.same_sense != y.same_sense {
            self.diff(path, format!("same_sense {} vs {}", x.same_sense, y.same_sense));
        }
        self.surface(&format!("{path} / surface"), &x.surface, &y.surface);
        match (&x.outer, &y.outer) {
            (Some(l), Some(m)) => self.lp(&format!("{path} / outer"), l, m, f, g),
            (None, None) => {}
            (None, Some(l)) if self.o.relax.natural_boundaries && on_natural_rect(&y.surface, l) => {}
            _ => self.diff(
                path,
                format!("outer loop {} vs {}", x.outer.is_some(), y.outer.is_some()),
            ),
        }
        if x.inner.len() != y.inner.len() {
            self.diff(path, format!("hole count {} vs {}", x.inner.len(), y.inner.len()));
        }
        for (k, (l, m)) in x.inner.iter().zip(&y.inner).enumerate() {
            self.lp(&format!("{path} / hole {k}"), l, m, f, g);
        }
    }

    fn lp(&mut self, path: &str, x: &Loop, y: &Loop, f: usize, g: usize) {
        if x.coedges.len() != y.coedges.len() {
            self.diff(path, format!("coedge count {} vs {}", x.coedges.len(), y.coedges.len()));
        }
        for (k, (c, d)) in x.coedges.iter().zip(&y.coedges).enumerate() {
            self.coedge(&format!("{path} / coedge {k}"), c, d, f, g);
        }
    }

    fn coedge(&mut self, path: &str, c: &Coedge, d: &Coedge, _f: usize, _g: usize) {
        let (a, b) = (self.a, self.b);
        match (c.edge, d.edge) {
            (Some(e), Some(h)) => {
                if c.forward != d.forward {
                    self.diff(path, format!("forward {} vs {}", c.forward, d.forward));
                }
                let ep = format!("{path} / edge {e}");
                match pair(&mut self.edge_map, &mut self.edge_rev, e, h) {
                    Ok(true) => self.edge(&ep, e, h),
                    Ok(false) => {}
                    Err(m) => self.diff(&ep, format!("edge sharing differs: {m}")),
                }
            }
            (None, Some(h)) if self.o.relax.free_coedges_as_edges => {
                let (Some(seg), Some(ed)) = (&c.curve, b.edges.get(h)) else {
                    self.diff(path, "free coedge without a 3-D curve vs an edge");
                    return;
                };
                self.out.matched.1 += 1;
                let as_seg = CurveSegment {
                    curve: ed.curve.clone(),
                    t0: ed.t0,
                    t1: ed.t1,
                    forward: d.forward,
                };
                let mine = CurveSegment {
                    forward: c.forward == seg.forward,
                    ..seg.clone()
                };
                self.segment(&format!("{path} / free curve"), &mine, &as_seg, false);
            }
            (None, None) => {
                if c.forward != d.forward {
                    self.diff(path, format!("forward {} vs {}", c.forward, d.forward));
                }
                match (&c.curve, &d.curve) {
                    (Some(s), Some(t)) => self.segment(&format!("{path} / curve"), s, t, false),
                    (None, None) => {}
                    _ => self.diff(path, "3-D trim curve present on one side only"),
                }
            }
            _ => self.diff(
                path,
                format!("shared edge {} vs {}", c.edge.is_some(), d.edge.is_some()),
            ),
        }
        match (&c.pcurve, &d.pcurve) {
            (Some(s), Some(t)) => self.segment(&format!("{path} / pcurve"), s, t, true),
            (None, None) => {}
            _ => self.diff(
                path,
                format!("p-curve {} vs {}", c.pcurve.is_some(), d.pcurve.is_some()),
            ),
        }
        let _ = a;
    }

    fn edge(&mut self, path: &str, e: usize, h: usize) {
        let (a, b) = (self.a, self.b);
        let (Some(x), Some(y)) = (a.edges.get(e), b.edges.get(h)) else {
            self.diff(path, "edge index out of range");
            return;
        };
        self.out.matched.1 += 1;
        let sx = CurveSegment {
            curve: x.curve.clone(),
            t0: x.t0,
            t1: x.t1,
            forward: true,
        };
        let sy = CurveSegment {
            curve: y.curve.clone(),
            t0: y.t0,
            t1: y.t1,
            forward: true,
        };
        self.segment(path, &sx, &sy, false);
        for (name, u, v) in [("start", x.start, y.start), ("end", x.end, y.end)] {
            match (u, v) {
                (Some(i), Some(j)) => {
                    let vp = format!("{path} / {name} vertex {i}");
                    match pair(&mut self.vert_map, &mut self.vert_rev, i, j) {
                        Ok(true) => {
                            self.out.matched.2 += 1;
                            if let (Some(p), Some(q)) = (a.vertices.get(i), b.vertices.get(j)) {
                                self.vec(&vp, "point", &p.point, &q.point);
                            }
                        }
                        Ok(false) => {}
                        Err(m) => self.diff(&vp, format!("vertex sharing differs: {m}")),
                    }
                }
                (None, None) => {}
                _ => self.diff(path, format!("{name} vertex {u:?} vs {v:?}")),
            }
        }
        if x.faces.len() != y.faces.len() {
            self.diff(path, format!("adjacent faces {} vs {}", x.faces.len(), y.faces.len()));
        }
    }
}

/// True when every coedge of `l` has a straight p-curve on a side of the
/// B-spline surface's parameter rectangle.
fn on_natural_rect(s: &Surface, l: &Loop) -> bool {
    let Surface::BSpline(n) = s else { return false };
    let ((u0, u1), (v0, v1)) = n.domain();
    !l.coedges.is_empty()
        && l.coedges.iter().all(|c| match &c.pcurve {
            Some(CurveSegment {
                curve: Curve::Line { origin, dir },
                ..
            }) => {
                (dir.y == 0.0 && (origin.y == v0 || origin.y == v1))
                    || (dir.x == 0.0 && (origin.x == u0 || origin.x == u1))
            }
            _ => false,
        })
}

/// The parameter of the conic `c` at a point on it, in closed form (`None`
/// for other curves): circles and ellipses the eccentric angle, hyperbolas
/// `asinh(y / b)`, parabolas `y` (frame coordinates).
fn conic_parameter(c: &Curve, p: &Vec3) -> Option<f64> {
    let local = |f: &Frame| {
        let d = p - f.origin;
        (d.dot(&f.x), d.dot(&f.y))
    };
    match c {
        Curve::Circle { frame, .. } => {
            let (x, y) = local(frame);
            Some(y.atan2(x))
        }
        Curve::Ellipse { frame, semi_x, semi_y } => {
            let (x, y) = local(frame);
            Some((y / semi_y).atan2(x / semi_x))
        }
        Curve::Hyperbola { frame, semi_y, .. } => Some((local(frame).1 / semi_y).asinh()),
        Curve::Parabola { frame, .. } => Some(local(frame).1),
        _ => None,
    }
}

fn variant_s(s: &Surface) -> &'static str {
    match s {
        Surface::Trimmed { .. } => "RectangularTrimmedSurface",
        other => other.type_name(),
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
    use crate::geom::Vec3;
    use crate::import::model::{Edge, Face, Shell, SourceFormat, Vertex};

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

    fn cmp<'m>(m: &'m Model, relax: Relaxations) -> Cmp<'m> {
        Cmp {
            a: m,
            b: m,
            o: CompareOptions { tol: 1e-12, relax },
            out: Comparison::default(),
            face_map: Vec::new(),
            face_rev: Vec::new(),
            edge_map: Vec::new(),
            edge_rev: Vec::new(),
            vert_map: Vec::new(),
            vert_rev: Vec::new(),
        }
    }

    #[test]
    fn conic_segments_compare_by_evaluation_only_when_relaxed_and_on_the_conic() {
        let m = Model::new(SourceFormat::Step, "t.step");
        let frame = Frame::from_axis_ref(Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.0, 0.6, 0.8), Some(Vec3::x())).unwrap();
        for conic in [
            Curve::Ellipse {
                frame,
                semi_x: 3.0,
                semi_y: 1.5,
            },
            Curve::Hyperbola {
                frame,
                semi_x: 2.0,
                semi_y: 0.5,
            },
        ] {
            let seg = CurveSegment {
                curve: conic.clone(),
                t0: 0.3,
                t1: 1.9,
                forward: true,
            };
            let nurbs = crate::import::iges::nurbs::to_nurbs(&seg).unwrap();
            let (s0, s1) = nurbs.domain();
            let as_bspline = CurveSegment {
                curve: Curve::BSpline(nurbs.clone()),
                t0: s0,
                t1: s1,
                forward: true,
            };
            let relax = Relaxations {
                curves_by_evaluation: true,
                ..Default::default()
            };
            let mut c = cmp(&m, relax);
            c.segment("e", &seg, &as_bspline, false);
            assert!(c.out.is_equal(), "{}", c.out.report(5));
            assert_eq!(c.out.relaxed.values().sum::<usize>(), 1);
            // strict: a type difference
            let mut c = cmp(&m, Relaxations::default());
            c.segment("e", &seg, &as_bspline, false);
            assert!(!c.out.is_equal());
            // a shorter segment, a reversed one and a moved pole are differences
            let shorter = CurveSegment { t1: 1.8, ..seg.clone() };
            let reversed = CurveSegment {
                forward: false,
                ..seg.clone()
            };
            let mut moved = nurbs.clone();
            let k = moved.cw.len() / 2;
            moved.cw[k][2] += 1e-9 * moved.cw[k][3];
            let moved = CurveSegment {
                curve: Curve::BSpline(moved),
                ..as_bspline.clone()
            };
            for (x, y) in [(&shorter, &as_bspline), (&reversed, &as_bspline), (&seg, &moved)] {
                let mut c = cmp(&m, relax);
                c.segment("e", x, y, false);
                assert!(!c.out.is_equal(), "{:?} vs {:?}", x.t1, y.curve.type_name());
            }
            // a p-curve may run either way under `pcurve_ranges`
            let mut c = cmp(
                &m,
                Relaxations {
                    pcurve_ranges: true,
                    ..relax
                },
            );
            c.segment("p", &reversed, &as_bspline, true);
            assert!(c.out.is_equal(), "{}", c.out.report(5));
        }
    }

    #[test]
    fn bounded_surfaces_compare_by_basis_and_moved_directrix() {
        let m = Model::new(SourceFormat::Step, "t.step");
        let profile = Curve::Line {
            origin: Vec3::new(1.0, 0.0, 0.0),
            dir: Vec3::new(0.0, 1.0, 0.0),
        };
        let d = Vec3::new(0.0, 0.0, 1.0);
        let bare = Surface::Extrusion {
            profile: Box::new(profile.clone()),
            direction: d,
        };
        let trimmed = |p: Curve| Surface::Trimmed {
            basis: Box::new(Surface::Extrusion {
                profile: Box::new(p),
                direction: d,
            }),
            u: (0.0, 1.0),
            v: (0.0, 2.0),
        };
        let relax = Relaxations {
            bounded_surfaces: true,
            ..Default::default()
        };
        let moved = super::super::iges::shift_curve(&profile, &(d * -1.5));
        let tilted = super::super::iges::shift_curve(&profile, &Vec3::new(0.1, 0.0, -1.5));
        for (y, relax, equal) in [
            (trimmed(profile.clone()), relax, true),
            (trimmed(moved.clone()), relax, true),
            (trimmed(tilted), relax, false),
            (trimmed(profile.clone()), Relaxations::default(), false),
        ] {
            let mut c = cmp(&m, relax);
            c.surface("s", &bare, &y);
            assert_eq!(c.out.is_equal(), equal, "{}", c.out.report(5));
        }
    }
}
