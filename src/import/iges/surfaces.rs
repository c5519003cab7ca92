//! Surface entities → [`Surface`]s in model space (mm) with Open CASCADE's
//! parameterisations, each with its natural parameter domain and the map from
//! the IGES parameter space (where 142 / 141 / 508 p-curves live) to the
//! Model surface's parameters:
//!
//! | IGES | Model | p-curve map |
//! |---|---|---|
//! | 108 plane, 190 plane | `Plane` | `(u, v)·mm` (lengths) |
//! | 114 parametric spline | exact `BSpline` (C0 Bézier patches) | identity |
//! | 118 ruled | exact `BSpline` (degree 1 across) | identity |
//! | 120 revolution | `Revolution` | swap: IGES `(t, θ)` → `(θ, t)` |
//! | 122 tabulated cylinder | `Extrusion` | `u ↦ t0 + u (t1 − t0)`, `v ↦ v·L` |
//! | 128 B-spline | `BSpline` | identity |
//! | 140 offset | `Offset` | that of the basis |
//! | 192/194 cylinder/cone | `Cylinder`/`Cone` | `u` degrees → radians, `v·mm` |
//! | 196/198 sphere/torus | `Sphere`/`Torus` | degrees → radians |

use super::curves::map_segment;
use super::directory::DirEntry;
use super::error::IgesError;
use super::nurbs::{cubic_breakpoint_knots, cubic_power_to_bezier, map_nurbs, reverse, to_nurbs, to_nurbs_rail};
use super::reader::Reader;
use super::transform::{Affine, Map2};
use crate::geom::Frame;
use crate::geom::{Hpoint, NurbsCurve, NurbsSurface, Vec3};
use crate::import::model::{Curve, Surface};
use std::f64::consts::{PI, TAU};
use truck_geometry::prelude as tg;

/// A surface with its natural domain and p-curve map.
#[derive(Debug, Clone)]
pub struct SurfaceDef {
    /// The surface (model space, mm).
    pub surface: Surface,
    /// Natural parameter rectangle, `None` when unbounded (planes, cylinders …).
    pub domain: Option<((f64, f64), (f64, f64))>,
    /// IGES parameter space → Model surface parameters.
    pub pmap: Map2,
}

impl SurfaceDef {
    /// The surface restricted to its natural domain when the Model's
    /// "natural rectangle" of the bare surface would differ (revolutions,
    /// extrusions, offsets of them).
    pub fn bounded(&self) -> Surface {
        let needs = matches!(
            self.surface,
            Surface::Revolution { .. } | Surface::Extrusion { .. } | Surface::Offset { .. }
        );
        match (needs, self.domain) {
            (true, Some((u, v))) => Surface::Trimmed {
                basis: Box::new(self.surface.clone()),
                u,
                v,
            },
            _ => self.surface.clone(),
        }
    }
}

const DEG: f64 = PI / 180.0;

impl Reader<'_> {
    /// The surface a pointer refers to, placed with `parent`.
    pub fn surface(&mut self, ptr: i64, from: &DirEntry, parent: &Affine) -> Result<SurfaceDef, IgesError> {
        let e = self.entry(ptr, from)?;
        if let Some(class) = super::reader::other_class(e.entity, super::reader::Class::Surface) {
            return Err(self.err(
                from,
                format!(
                    "pointer {ptr} should be a surface, is entity {} ({class}) at DE {}",
                    e.entity, e.de
                ),
            ));
        }
        self.nested(&e, |r| r.surface_entity(&e, parent))
    }

    /// A point entity (116), placed.
    pub fn point_entity(&mut self, ptr: i64, from: &DirEntry, parent: &Affine) -> Result<Vec3, IgesError> {
        let e = self.entry_of(ptr, from, 116, "point", "point")?;
        let a = self.placed(&e, parent)?;
        let mut p = self.params(&e)?;
        Ok(a.point(&Vec3::from(p.xyz()?)))
    }

    /// A direction entity (123), placed (linear part only), unit length.
    pub fn direction_entity(&mut self, ptr: i64, from: &DirEntry, parent: &Affine) -> Result<Vec3, IgesError> {
        let e = self.entry_of(ptr, from, 123, "direction", "direction")?;
        let a = self.placed(&e, parent)?;
        let mut p = self.params(&e)?;
        let d = a.vector(&Vec3::from(p.xyz()?));
        let n = d.norm();
        if !(n > 0.0 && n.is_finite()) {
            return Err(self.err(&e, "zero direction"));
        }
        Ok(d / n)
    }

    /// The location, axis and optional reference direction of an analytic
    /// surface entity `e` (190–198), placed by `a`: the point `loc`, the
    /// direction `ax` (`None`: the entity's own z axis, as a 196 sphere or a
    /// 198 torus may leave it) and the direction `rf` (`0`: none).
    fn located_axes(
        &mut self,
        e: &DirEntry,
        a: &Affine,
        loc: i64,
        ax: Option<i64>,
        rf: i64,
    ) -> Result<(Vec3, Vec3, Option<Vec3>), IgesError> {
        let o = self.point_entity(loc, e, a)?;
        let z = match ax {
            Some(ax) => self.direction_entity(ax, e, a)?,
            None => a.vector(&Vec3::z()).normalize(),
        };
        let x = if rf != 0 { Some(self.direction_entity(rf, e, a)?) } else { None };
        Ok((o, z, x))
    }

    /// Converts surface entity `e` placed with `parent`.
    pub fn surface_entity(&mut self, e: &DirEntry, parent: &Affine) -> Result<SurfaceDef, IgesError> {
        let a = self.placed(e, parent)?;
        let k = a.similarity();
        let mm = self.mm;
        let mut p = self.params(e)?;
        let def = match e.entity {
            128 => {
                let k1 = p.int()?;
                let k2 = p.int()?;
                let m1 = p.int()?;
                let m2 = p.int()?;
                for m in [m1, m2] {
                    if !(1..=crate::geom::MAX_DEGREE as i64).contains(&m) {
                        return Err(p.err(format!("B-spline degree {m} outside 1..={}", crate::geom::MAX_DEGREE)));
                    }
                }
                let nu = p.check_count(k1 + 1, 1, "u control point")?;
                let nv = p.check_count(k2 + 1, 1, "v control point")?;
                p.check_count((nu as i64).saturating_mul(nv as i64), 4, "control point")?;
                for _ in 0..5 {
                    p.int()?;
                }
                let (m1, m2) = (m1 as usize, m2 as usize);
                let ku = p.reals(nu + m1 + 1)?;
                let kv = p.reals(nv + m2 + 1)?;
                let w = p.reals(nu * nv)?;
                let mut cw: Vec<Hpoint> = vec![[0.0; 4]; nu * nv];
                for j in 0..nv {
                    for i in 0..nu {
                        let q = a.point(&Vec3::from(p.xyz()?));
                        let wt = w[j * nu + i];
                        cw[i * nv + j] = [q.x * wt, q.y * wt, q.z * wt, wt];
                    }
                }
                let s = NurbsSurface::try_from_homogeneous(m1, m2, ku, kv, nu, nv, cw)
                    .map_err(|g| self.err(e, format!("invalid B-spline surface: {g}")))?;
                let dom = s.domain();
                SurfaceDef {
                    surface: Surface::BSpline(s),
                    domain: Some(dom),
                    pmap: Map2::identity(),
                }
            }
            108 => {
                let n = Vec3::new(p.real()?, p.real()?, p.real()?);
                let d = p.real()?;
                let _ptr = p.opt_int()?;
                let xyz = [p.opt_real()?, p.opt_real()?, p.opt_real()?];
                let nn = n.norm_squared();
                if !(nn > 0.0 && nn.is_finite()) {
                    return Err(self.err(e, "plane with a zero normal"));
                }
                let on = n * (d / nn);
                let origin = match xyz {
                    [Some(x), Some(y), Some(z)] => {
                        let q = Vec3::new(x, y, z);
                        q - n * ((q - on).dot(&n) / nn)
                    }
                    _ => on,
                };
                self.plane(e, &a, a.point(&origin), a.vector(&n), None)?
            }
            190 => {
                let loc = p.int()?;
                let nrm = p.int()?;
                let rf = p.opt_int()?.unwrap_or(0);
                let (o, z, x) = self.located_axes(e, &a, loc, Some(nrm), rf)?;
                self.plane(e, &Affine::identity(), o, z, x)?
            }
            192 | 194 | 196 | 198 => {
                let kk = k.ok_or_else(|| self.err(e, "analytic surface under a non-similarity transform"))?;
                let (surf, pmap) = match e.entity {
                    192 | 194 => {
                        let loc = p.int()?;
                        let ax = p.int()?;
                        let r = p.real()?;
                        let ang = if e.entity == 194 { p.real()? } else { 0.0 };
                        let rf = p.opt_int()?.unwrap_or(0);
                        let (o, z, x) = self.located_axes(e, &a, loc, Some(ax), rf)?;
                        let frame = self.frame(e, o, z, x)?;
                        if e.entity == 192 {
                            let surf = Surface::Cylinder { frame, radius: r * kk };
                            (surf, Map2::scale(DEG, mm))
                        } else {
                            let sa = ang * DEG;
                            let surf = Surface::Cone {
                                frame,
                                radius: r * kk,
                                semi_angle: sa,
                            };
                            (surf, Map2::scale(DEG, mm / sa.cos()))
                        }
                    }
                    196 => {
                        let loc = p.int()?;
                        let r = p.real()?;
                        let ax = p.opt_int()?.filter(|&v| v != 0);
                        let rf = p.opt_int()?.unwrap_or(0);
                        let (o, z, x) = self.located_axes(e, &a, loc, ax, rf)?;
                        let frame = self.frame(e, o, z, x)?;
                        (Surface::Sphere { frame, radius: r * kk }, Map2::scale(DEG, DEG))
                    }
                    _ => {
                        let loc = p.int()?;
                        let ax = p.opt_int()?.filter(|&v| v != 0);
                        let r1 = p.real()?;
                        let r2 = p.real()?;
                        let rf = p.opt_int()?.unwrap_or(0);
                        let (o, z, x) = self.located_axes(e, &a, loc, ax, rf)?;
                        let frame = self.frame(e, o, z, x)?;
                        let surf = Surface::Torus {
                            frame,
                            major: r1 * kk,
                            minor: r2 * kk,
                        };
                        (surf, Map2::scale(DEG, DEG))
                    }
                };
                let domain = match &surf {
                    Surface::Sphere { .. } => Some(((0.0, TAU), (-PI / 2.0, PI / 2.0))),
                    Surface::Torus { .. } => Some(((0.0, TAU), (0.0, TAU))),
                    _ => None,
                };
                SurfaceDef {
                    surface: surf,
                    domain,
                    pmap,
                }
            }
            114 => self.spline_surface(&mut p, e, &a)?,
            118 => {
                let c1 = p.int()?;
                let c2 = p.int()?;
                let dirflg = p.int()?;
                let _devflg = p.opt_int()?;
                let s1 = self.curve(c1, e, &a)?;
                let s2 = self.curve(c2, e, &a)?;
                let n1 =
                    to_nurbs_rail(&s1).ok_or_else(|| self.err(e, "first rail cannot be converted to a B-spline"))?;
                let n2 =
                    to_nurbs_rail(&s2).ok_or_else(|| self.err(e, "second rail cannot be converted to a B-spline"))?;
                let n1 = if s1.forward { n1 } else { reverse(&n1) };
                let mut n2 = if s2.forward { n2 } else { reverse(&n2) };
                if dirflg == 1 {
                    n2 = reverse(&n2);
                }
                if e.form == 0 && ![&s1, &s2].iter().all(|c| matches!(c.curve, Curve::Line { .. })) {
                    self.notes.push(format!(
                        "118 DE {} is form 0 (rails joined at equal relative arc length): joined at equal normalised parameter instead, as Open CASCADE does",
                        e.de
                    ));
                }
                let s = ruled(&n1, &n2).ok_or_else(|| self.err(e, "ruled surface rails cannot be made compatible"))?;
                let dom = s.domain();
                SurfaceDef {
                    surface: Surface::BSpline(s),
                    domain: Some(dom),
                    pmap: Map2::identity(),
                }
            }
            120 => {
                let l = p.int()?;
                let c = p.int()?;
                let sa = p.real()?;
                let ta = p.real()?;
                let axis = self.curve(l, e, &a)?;
                let (axis_origin, axis_dir) = match &axis.curve {
                    Curve::Line { origin, dir } => (origin + dir * axis.t0, dir * (axis.t1 - axis.t0)),
                    _ => return Err(self.err(e, "axis of revolution is not a line (110)")),
                };
                let n = axis_dir.norm();
                if !(n > 0.0) {
                    return Err(self.err(e, "axis of revolution has zero length"));
                }
                let g = self.curve(c, e, &a)?;
                let (t0, t1) = (g.t0, g.t1);
                let mut dir = axis_dir / n;
                if a.is_reflection() {
                    // a reflection reverses the sense of rotation: flip the axis
                    dir = -dir;
                }
                let (u0, u1) = if ta > sa { (sa, ta) } else { (sa, sa + TAU) };
                SurfaceDef {
                    surface: Surface::Revolution {
                        profile: Box::new(g.curve),
                        axis_origin,
                        axis_dir: dir,
                    },
                    domain: Some(((u0, u1), (t0, t1))),
                    pmap: Map2::swap(),
                }
            }
            122 => {
                let c = p.int()?;
                let l = Vec3::from(p.xyz()?);
                let g = self.curve(c, e, &a)?;
                let start = eval_curve_start(&g).ok_or_else(|| self.err(e, "directrix cannot be evaluated"))?;
                let d = a.point(&l) - start;
                let len = d.norm();
                if !(len > 0.0) {
                    return Err(self.err(e, "tabulated cylinder with a zero generatrix"));
                }
                let (t0, t1) = (g.t0, g.t1);
                let mut pmap = Map2::scale(t1 - t0, len);
                pmap.t.x = t0;
                SurfaceDef {
                    surface: Surface::Extrusion {
                        profile: Box::new(g.curve),
                        direction: d / len,
                    },
                    domain: Some(((t0, t1), (0.0, len))),
                    pmap,
                }
            }
            140 => {
                let _n = p.xyz()?;
                let d = p.real()?;
                let s = p.int()?;
                let kk = k.ok_or_else(|| self.err(e, "offset surface under a non-similarity transform"))?;
                let b = self.surface(s, e, &a)?;
                let sign = if a.is_reflection() { -1.0 } else { 1.0 };
                SurfaceDef {
                    surface: Surface::Offset {
                        basis: Box::new(b.bounded()),
                        distance: d * kk * sign,
                    },
                    domain: b.domain,
                    pmap: b.pmap,
                }
            }
            t => return Err(self.err(e, format!("entity type {t} is not a supported surface"))),
        };
        Ok(def)
    }

    fn frame(&self, e: &DirEntry, o: Vec3, z: Vec3, x: Option<Vec3>) -> Result<Frame, IgesError> {
        Frame::from_axis_ref(o, z, x).ok_or_else(|| self.err(e, "degenerate frame (zero or non-finite axis)"))
    }

    fn plane(&self, e: &DirEntry, a: &Affine, o: Vec3, n: Vec3, x: Option<Vec3>) -> Result<SurfaceDef, IgesError> {
        let _ = a;
        let f = self.frame(e, o, n, x)?;
        Ok(SurfaceDef {
            surface: Surface::Plane { frame: f },
            domain: None,
            pmap: Map2::scale(self.mm, self.mm),
        })
    }

    /// IGES 114: bicubic patches, exactly as a C0 bicubic B-spline.
    #[allow(clippy::needless_range_loop)]
    fn spline_surface(
        &mut self,
        p: &mut super::params::Params,
        e: &DirEntry,
        a: &Affine,
    ) -> Result<SurfaceDef, IgesError> {
        let _ctype = p.int()?;
        let _ptype = p.int()?;
        let m = p.count(1, "u segment")?;
        let n = p.count(1, "v segment")?;
        if m == 0 || n == 0 {
            return Err(p.err("parametric spline surface with no patches"));
        }
        p.check_count((m as i64).saturating_mul(n as i64), 48, "patch")?;
        let tu = p.reals(m + 1)?;
        let tv = p.reals(n + 1)?;
        if tu.windows(2).any(|w| !(w[1] > w[0])) || tv.windows(2).any(|w| !(w[1] > w[0])) {
            return Err(self.err(e, "breakpoints of the spline surface are not increasing"));
        }
        let (nu, nv) = (3 * m + 1, 3 * n + 1);
        let mut pts = vec![Vec3::zeros(); nu * nv];
        for i in 0..m {
            for j in 0..n {
                let mut c = [[0.0; 16]; 3];
                for row in c.iter_mut() {
                    for v in row.iter_mut() {
                        *v = p.real()?;
                    }
                }
                let (hu, hv) = (tu[i + 1] - tu[i], tv[j + 1] - tv[j]);
                for (d, row) in c.iter().enumerate() {
                    // row[4*tp + sp]: coefficient of s^sp t^tp. Convert in s for each tp, then in t.
                    let mut mid = [[0.0; 4]; 4]; // mid[tp][a]: Bernstein in s, power in t
                    for tp in 0..4 {
                        let a4 = [row[4 * tp], row[4 * tp + 1], row[4 * tp + 2], row[4 * tp + 3]];
                        mid[tp] = cubic_power_to_bezier(a4, hu);
                    }
                    for ai in 0..4 {
                        let b4 = cubic_power_to_bezier([mid[0][ai], mid[1][ai], mid[2][ai], mid[3][ai]], hv);
                        for (bj, val) in b4.iter().enumerate() {
                            let gi = 3 * i + ai;
                            let gj = 3 * j + bj;
                            pts[gi * nv + gj][d] = *val;
                        }
                    }
                }
            }
            // the (i, N+1) patch of each row holds derivative data only
            if !p.at_end() {
                for _ in 0..48 {
                    if !p.skip()? {
                        break;
                    }
                }
            }
        }
        let cw: Vec<Hpoint> = pts
            .iter()
            .map(|q| {
                let r = a.point(q);
                [r.x, r.y, r.z, 1.0]
            })
            .collect();
        let s = NurbsSurface::try_from_homogeneous(
            3,
            3,
            cubic_breakpoint_knots(&tu),
            cubic_breakpoint_knots(&tv),
            nu,
            nv,
            cw,
        )
        .map_err(|g| self.err(e, format!("invalid spline surface: {g}")))?;
        let dom = s.domain();
        Ok(SurfaceDef {
            surface: Surface::BSpline(s),
            domain: Some(dom),
            pmap: Map2::identity(),
        })
    }
}

/// The start point of a curve segment (in its traversal direction).
pub fn eval_curve_start(s: &crate::import::model::CurveSegment) -> Option<Vec3> {
    let t = if s.forward { s.t0 } else { s.t1 };
    match &s.curve {
        Curve::Line { origin, dir } => Some(origin + dir * t),
        Curve::Polyline(p) => {
            let i = (t.max(0.0).floor() as usize).min(p.len().saturating_sub(1));
            p.get(i).copied()
        }
        Curve::Composite(parts) => parts.first().and_then(eval_curve_start),
        _ => {
            let n = to_nurbs(&crate::import::model::CurveSegment {
                forward: true,
                ..s.clone()
            })?;
            let (a, b) = n.domain();
            Some(n.eval(if s.forward { a } else { b }))
        }
    }
}

fn to_tg(c: &NurbsCurve) -> Option<tg::BSplineCurve<tg::Vector4>> {
    let kv = tg::KnotVec::from(c.knots.clone());
    let pts = c.cw.iter().map(|p| tg::Vector4::new(p[0], p[1], p[2], p[3])).collect();
    tg::BSplineCurve::try_new(kv, pts).ok()
}

/// The exact ruled surface `(1 − v) c1(u) + v c2(u)` (rails normalised to `u ∈ [0, 1]`).
pub fn ruled(c1: &NurbsCurve, c2: &NurbsCurve) -> Option<NurbsSurface> {
    let mut a = to_tg(c1)?;
    let mut b = to_tg(c2)?;
    a.knot_normalize();
    b.knot_normalize();
    a.syncro_degree(&mut b);
    a.syncro_knots(&mut b);
    let ka: Vec<f64> = a.knot_vec().iter().copied().collect();
    let pa = a.control_points();
    let pb = b.control_points();
    if pa.len() != pb.len() {
        return None;
    }
    let n = pa.len();
    let mut cw = Vec::with_capacity(2 * n);
    for i in 0..n {
        for q in [pa[i], pb[i]] {
            cw.push([q.x, q.y, q.z, q.w]);
        }
    }
    NurbsSurface::try_from_homogeneous(a.degree(), 1, ka, vec![0.0, 0.0, 1.0, 1.0], n, 2, cw).ok()
}

/// Keeps `map_segment` and `map_nurbs` reachable for p-curve maps.
pub fn map_pcurve(
    s: crate::import::model::CurveSegment,
    m: &Map2,
) -> Result<crate::import::model::CurveSegment, String> {
    if m.is_identity() {
        return Ok(s);
    }
    let _ = map_nurbs;
    map_segment(s, &m.to_affine())
}
