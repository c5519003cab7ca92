//! Points, directions, placements, curves and surfaces: STEP geometry mapped to
//! the Model's [`Curve`] and [`Surface`] with Open CASCADE's parameterisations.
//!
//! Lengths are multiplied by the context's length factor (mm per file unit),
//! plane angles (cone semi-angles, trimming parameters of conics) by the angle
//! factor. While a p-curve is built, 2-D points are scaled per parameter axis
//! (`uv_scale`) instead: both axes of a plane, the v axis of a cylinder or
//! cone, nothing on angular or B-spline parameters.

use super::access::Args;
use super::arena::Param;
use super::builder::Builder;
use super::error::StepError;
use crate::geom::Frame;
use crate::geom::{NurbsCurve, NurbsSurface, Vec3, MAX_DEGREE};
use crate::import::model::{Curve, CurveSegment, Surface};

/// Largest number of poles (per direction) or knots accepted from one entity.
pub const MAX_POLES: i64 = 1 << 20;

fn unit(a: &Args<'_, '_>, v: Vec3) -> Result<Vec3, StepError> {
    let n = v.norm();
    if n.is_finite() && n > 1e-300 {
        Ok(v / n)
    } else {
        Err(a.geom_err("zero or non-finite direction"))
    }
}

impl<'e, 'a> Builder<'e, 'a> {
    /// CARTESIAN_POINT → point (mm; 2-D points get z = 0).
    pub fn point(&mut self, idx: usize) -> Result<Vec3, StepError> {
        let a = self.simple(idx);
        if !a.entity.eq_ignore_ascii_case(b"CARTESIAN_POINT") {
            return Err(a.err("expected a CARTESIAN_POINT"));
        }
        let (c, n) = a.reals3(1)?;
        if n == 0 || n > 3 {
            return Err(a.count_err("coordinate count", n as i64));
        }
        let g = |k: usize| c[k];
        let p = match (n, self.uv_scale) {
            (2, Some((su, sv))) => Vec3::new(g(0) * su, g(1) * sv, 0.0),
            _ => Vec3::new(g(0), g(1), g(2)) * self.scale,
        };
        if p.iter().all(|x| x.is_finite()) {
            Ok(p)
        } else {
            Err(a.geom_err("non-finite coordinates"))
        }
    }

    /// DIRECTION → unit vector.
    pub fn direction(&mut self, idx: usize) -> Result<Vec3, StepError> {
        let a = self.simple(idx);
        if !a.entity.eq_ignore_ascii_case(b"DIRECTION") {
            return Err(a.err("expected a DIRECTION"));
        }
        let (c, n) = a.reals3(1)?;
        if n == 0 || n > 3 {
            return Err(a.count_err("direction ratio count", n as i64));
        }
        let g = |k: usize| c[k];
        unit(&a, Vec3::new(g(0), g(1), g(2)))
    }

    /// VECTOR → (unit direction, magnitude in file units), or a DIRECTION (magnitude 1).
    pub fn vector(&mut self, idx: usize) -> Result<(Vec3, f64), StepError> {
        let a = self.simple(idx);
        if a.entity.eq_ignore_ascii_case(b"DIRECTION") {
            return Ok((self.direction(idx)?, 1.0));
        }
        if !a.entity.eq_ignore_ascii_case(b"VECTOR") {
            return Err(a.err("expected a VECTOR"));
        }
        let d = self.direction(a.reference_to(1, super::access::DIRECTION)?)?;
        Ok((d, a.real(2)?))
    }

    /// AXIS2_PLACEMENT_3D / AXIS2_PLACEMENT_2D / AXIS1_PLACEMENT → frame.
    pub fn placement(&mut self, idx: usize) -> Result<Frame, StepError> {
        let a = self.simple(idx);
        let o = self.point(a.reference_to(1, super::access::POINT)?)?;
        let name = super::access::upper(a.entity);
        let (axis, reference) = match &*name {
            b"AXIS2_PLACEMENT_3D" => {
                let z = match a.opt_reference_to(2, super::access::DIRECTION)? {
                    Some(r) => self.direction(r)?,
                    None => Vec3::z(),
                };
                let x = match a.opt_reference_to(3, super::access::DIRECTION)? {
                    Some(r) => Some(self.direction(r)?),
                    None => None,
                };
                (z, x)
            }
            b"AXIS2_PLACEMENT_2D" => {
                let x = match a.opt_reference_to(2, super::access::DIRECTION)? {
                    Some(r) => Some(self.direction(r)?),
                    None => None,
                };
                (Vec3::z(), x.or(Some(Vec3::x())))
            }
            b"AXIS1_PLACEMENT" => {
                let z = match a.opt_reference_to(2, super::access::DIRECTION)? {
                    Some(r) => self.direction(r)?,
                    None => Vec3::z(),
                };
                (z, None)
            }
            _ => return Err(a.err("expected an AXIS2_PLACEMENT_3D, AXIS2_PLACEMENT_2D or AXIS1_PLACEMENT")),
        };
        Frame::from_axis_ref(o, axis, reference).ok_or_else(|| a.geom_err("degenerate placement"))
    }

    fn length(&self, a: &Args<'_, '_>, k: usize) -> Result<f64, StepError> {
        let r = a.real(k)?;
        let s = match self.uv_scale {
            Some((su, _)) => su,
            None => self.scale,
        };
        Ok(r * s)
    }

    fn positive_length(&self, a: &Args<'_, '_>, k: usize) -> Result<f64, StepError> {
        let r = self.length(a, k)?;
        if r.is_finite() && r > 0.0 {
            Ok(r)
        } else {
            Err(a.geom_err(format!("parameter {} must be a positive length, is {r}", k + 1)))
        }
    }

    /// Any curve. TRIMMED_CURVE maps to its basis curve (the trim is carried by
    /// the edge's vertices or the composite segment), SURFACE_CURVE /
    /// SEAM_CURVE / INTERSECTION_CURVE to their 3-D curve.
    ///
    /// Only curves the file references more than once are cached (a curve
    /// with one referrer is asked for once), so most are built without a copy.
    pub fn curve(&mut self, idx: usize) -> Result<Curve, StepError> {
        let shared = self.ex.ref_count(idx) > 1;
        let key = self.key(idx);
        if shared {
            if let Some(c) = self.curves.get(&key).cloned() {
                self.records(idx);
                return Ok(c);
            }
        }
        self.enter(idx, "curve definition")?;
        let r = self.curve_uncached(idx);
        self.leave(idx);
        let c = r?;
        if shared {
            self.curves.insert(key, c.clone());
        }
        Ok(c)
    }

    fn curve_uncached(&mut self, idx: usize) -> Result<Curve, StepError> {
        let a = self.simple(idx);
        let name = super::access::upper(a.entity);
        if self.has(idx, b"B_SPLINE_CURVE")
            || matches!(
                &*name,
                b"B_SPLINE_CURVE_WITH_KNOTS" | b"BEZIER_CURVE" | b"UNIFORM_CURVE" | b"QUASI_UNIFORM_CURVE"
            )
        {
            return self.bspline_curve(idx);
        }
        match &*name {
            b"LINE" => {
                let origin = self.point(a.reference_to(1, super::access::POINT)?)?;
                let (d, _mag) = self.vector(a.reference_to(2, super::access::VECTOR)?)?;
                Ok(Curve::Line { origin, dir: d })
            }
            b"CIRCLE" => {
                let frame = self.placement(a.reference_to(1, super::access::PLACEMENT)?)?;
                let radius = self.positive_length(&a, 2)?;
                Ok(Curve::Circle { frame, radius })
            }
            b"ELLIPSE" => {
                let frame = self.placement(a.reference_to(1, super::access::PLACEMENT)?)?;
                let semi_x = self.positive_length(&a, 2)?;
                let semi_y = self.positive_length(&a, 3)?;
                Ok(Curve::Ellipse { frame, semi_x, semi_y })
            }
            b"PARABOLA" => {
                let frame = self.placement(a.reference_to(1, super::access::PLACEMENT)?)?;
                let focal = self.positive_length(&a, 2)?;
                Ok(Curve::Parabola { frame, focal })
            }
            b"HYPERBOLA" => {
                let frame = self.placement(a.reference_to(1, super::access::PLACEMENT)?)?;
                let semi_x = self.positive_length(&a, 2)?;
                let semi_y = self.positive_length(&a, 3)?;
                Ok(Curve::Hyperbola { frame, semi_x, semi_y })
            }
            b"POLYLINE" => {
                let pts = a.refs_to(1, super::access::POINT)?;
                if pts.len() < 2 {
                    return Err(a.count_err("point count", pts.len() as i64));
                }
                let p = pts.into_iter().map(|r| self.point(r)).collect::<Result<Vec<_>, _>>()?;
                Ok(Curve::Polyline(p))
            }
            b"TRIMMED_CURVE" => {
                // the trims are carried by the user (edge vertices, composite
                // segment); their points are still checked
                for k in [2, 3] {
                    for p in a.list(k)? {
                        if let Param::Ref(id) = *p {
                            if let Some(r) = a.ex.index.get(id) {
                                a.check(r, super::access::POINT)?;
                            }
                        }
                    }
                }
                self.curve(a.reference_to(1, super::access::CURVE)?)
            }
            b"SURFACE_CURVE" | b"SEAM_CURVE" | b"INTERSECTION_CURVE" | b"BOUNDED_SURFACE_CURVE" => {
                self.curve(a.reference_to(1, super::access::CURVE)?)
            }
            b"COMPOSITE_CURVE" | b"COMPOSITE_CURVE_ON_SURFACE" | b"BOUNDED_CURVE" => {
                let segs = a.refs_to(1, super::access::COMPOSITE_SEGMENT)?;
                if segs.is_empty() {
                    return Err(a.count_err("segment count", 0));
                }
                let mut out = Vec::with_capacity(segs.len());
                for s in segs {
                    out.push(self.composite_segment(s)?);
                }
                Ok(Curve::Composite(out))
            }
            b"DEFINITIONAL_REPRESENTATION" => {
                let items = a.refs(1)?;
                match items.first() {
                    Some(&c) => self.curve(a.check(c, super::access::CURVE)?),
                    None => Err(a.count_err("item count", 0)),
                }
            }
            _ => Err(a.err("unsupported curve type")),
        }
    }

    fn composite_segment(&mut self, idx: usize) -> Result<CurveSegment, StepError> {
        let a = self.simple(idx);
        if !a.entity.eq_ignore_ascii_case(b"COMPOSITE_CURVE_SEGMENT")
            && !a.entity.eq_ignore_ascii_case(b"REPARAMETRISED_COMPOSITE_CURVE_SEGMENT")
        {
            return Err(a.err("expected a COMPOSITE_CURVE_SEGMENT"));
        }
        let same = a.boolean(1, true)?;
        let parent = a.reference_to(2, super::access::CURVE)?;
        let mut seg = self.trimmed_segment(parent)?;
        if !same {
            seg.forward = !seg.forward;
        }
        Ok(seg)
    }

    /// A curve with its used range: TRIMMED_CURVE trims, else the bounded
    /// curve's natural domain.
    pub fn trimmed_segment(&mut self, idx: usize) -> Result<CurveSegment, StepError> {
        let a = self.simple(idx);
        if a.entity.eq_ignore_ascii_case(b"TRIMMED_CURVE") {
            let curve = self.curve(a.reference_to(1, super::access::CURVE)?)?;
            let t1 = self.trim_value(&a, 2, &curve)?;
            let t2 = self.trim_value(&a, 3, &curve)?;
            let sense = a.boolean(4, true)?;
            let (mut lo, mut hi) = if sense { (t1, t2) } else { (t2, t1) };
            if !(lo.is_finite() && hi.is_finite() && lo.abs() < 1e12 && hi.abs() < 1e12) {
                return Err(a.geom_err(format!("trimming parameters {t1} / {t2}")));
            }
            if let Some(p) = curve_period(&curve) {
                if hi <= lo {
                    hi += ((lo - hi) / p).floor() * p + p;
                }
            } else if hi < lo {
                std::mem::swap(&mut lo, &mut hi);
            }
            return Ok(CurveSegment {
                curve,
                t0: lo,
                t1: hi,
                forward: sense,
            });
        }
        let curve = self.curve(idx)?;
        let (t0, t1) = curve
            .natural_range()
            .ok_or_else(|| a.geom_err("unbounded curve used as a segment"))?;
        Ok(CurveSegment {
            curve,
            t0,
            t1,
            forward: true,
        })
    }

    fn trim_value(&mut self, a: &Args<'_, '_>, k: usize, curve: &Curve) -> Result<f64, StepError> {
        let l = a.list(k)?;
        // prefer the parameter value when both are given
        for p in l {
            if let Param::Typed { name, value } = *p {
                if name.of(a.ex.src).eq_ignore_ascii_case(b"PARAMETER_VALUE") {
                    let v =
                        a.ex.params
                            .get(value as usize)
                            .copied()
                            .and_then(super::access::real_of);
                    let v = v.ok_or_else(|| a.err(format!("parameter {}: PARAMETER_VALUE is not a number", k + 1)))?;
                    return Ok(match curve {
                        Curve::Circle { .. } | Curve::Ellipse { .. } => v * self.angle,
                        Curve::Line { .. } => v * self.scale,
                        _ => v,
                    });
                }
            }
        }
        for p in l {
            if let Param::Ref(id) = *p {
                let r =
                    a.ex.index
                        .get(id)
                        .ok_or_else(|| StepError::Dangling { at: a.at(), target: id })?;
                a.check(r, super::access::POINT)?;
                let pt = self.point(r)?;
                return Ok(crate::import::eval::curve_param_of(curve, &pt));
            }
        }
        Err(a.err(format!("parameter {}: empty trimming select", k + 1)))
    }

    fn knot_vector(a: &Args<'_, '_>, mults: &[i64], knots: &[f64], n: usize, p: usize) -> Result<Vec<f64>, StepError> {
        if mults.len() != knots.len() {
            return Err(a.err(format!("{} knot multiplicities for {} knots", mults.len(), knots.len())));
        }
        let mut total: i64 = 0;
        for &m in mults {
            if !(1..=MAX_POLES).contains(&m) {
                return Err(a.count_err("knot multiplicity", m));
            }
            total += m;
        }
        let want = (n + p + 1) as i64;
        if total != want {
            return Err(a.geom_err(format!(
                "knot multiplicities sum to {total}, expected poles + degree + 1 = {want}"
            )));
        }
        let mut out = Vec::with_capacity(total as usize);
        for (&m, &k) in mults.iter().zip(knots) {
            out.extend(std::iter::repeat(k).take(m as usize));
        }
        Ok(out)
    }

    fn degree(a: &Args<'_, '_>, k: usize) -> Result<usize, StepError> {
        let d = a.int(k)?;
        if d < 1 || d > MAX_DEGREE as i64 {
            return Err(a.count_err("degree", d));
        }
        Ok(d as usize)
    }

    /// Knots for the B-spline flavour of instance `idx` (with knots, Bézier,
    /// uniform, quasi-uniform) for `n` poles of degree `p`; `dir` 0 = u / curve, 1 = v.
    fn flavour_knots(
        &mut self,
        idx: usize,
        n: usize,
        p: usize,
        dir: usize,
        surface: bool,
    ) -> Result<Vec<f64>, StepError> {
        let with_knots: &[u8] = if surface {
            b"B_SPLINE_SURFACE_WITH_KNOTS"
        } else {
            b"B_SPLINE_CURVE_WITH_KNOTS"
        };
        if let Some(k) = self.part(idx, with_knots) {
            // inherited attributes come first in a simple instance
            let off = if k.args.len() >= if surface { 12 } else { 8 } {
                if surface {
                    8
                } else {
                    6
                }
            } else {
                0
            };
            let (mi, ki) = if surface {
                (off + dir, off + 2 + dir)
            } else {
                (off, off + 1)
            };
            let mults = k.ints(mi)?;
            let knots = k.reals(ki)?;
            return Self::knot_vector(&k, &mults, &knots, n, p);
        }
        let bez: &[u8] = if surface { b"BEZIER_SURFACE" } else { b"BEZIER_CURVE" };
        let quasi: &[u8] = if surface {
            b"QUASI_UNIFORM_SURFACE"
        } else {
            b"QUASI_UNIFORM_CURVE"
        };
        let uniform: &[u8] = if surface { b"UNIFORM_SURFACE" } else { b"UNIFORM_CURVE" };
        if self.has(idx, bez) {
            self.part(idx, bez);
            if n != p + 1 {
                // piecewise Bézier: one span per p poles
                if (n - 1) % p != 0 {
                    return Err(self.simple(idx).geom_err("Bézier pole count does not fit the degree"));
                }
                let spans = (n - 1) / p;
                let mut k = vec![0.0; p + 1];
                for s in 1..spans {
                    k.extend(std::iter::repeat(s as f64).take(p));
                }
                k.extend(std::iter::repeat(spans as f64).take(p + 1));
                return Ok(k);
            }
            return Ok(crate::geom::surface::bezier_knots(p));
        }
        if self.has(idx, quasi) {
            self.part(idx, quasi);
            let spans = n - p;
            let mut k = vec![0.0; p + 1];
            for s in 1..spans {
                k.push(s as f64);
            }
            k.extend(std::iter::repeat(spans as f64).take(p + 1));
            return Ok(k);
        }
        if self.has(idx, uniform) {
            self.part(idx, uniform);
            return Ok((0..n + p + 1).map(|i| i as f64 - p as f64).collect());
        }
        Err(self
            .simple(idx)
            .err("B-spline without knots, Bézier, uniform or quasi-uniform form"))
    }

    fn bspline_curve(&mut self, idx: usize) -> Result<Curve, StepError> {
        // simple instance: name, degree, poles, form, closed, self_int [, mults, knots, spec]
        let (b, off) = match self.part(idx, b"B_SPLINE_CURVE") {
            Some(b) => (b, 0),
            None => (self.simple(idx), 1),
        };
        let p = Self::degree(&b, off)?;
        let pole_refs = b.refs(off + 1)?;
        let n = pole_refs.len();
        if n < p + 1 || n as i64 > MAX_POLES {
            return Err(b.count_err("pole count", n as i64));
        }
        let mut pts = Vec::with_capacity(n);
        for r in pole_refs {
            b.check(r, super::access::POINT)?;
            let v = self.point(r)?;
            pts.push([v.x, v.y, v.z]);
        }
        let knots = self.flavour_knots(idx, n, p, 0, false)?;
        let weights = match self.part(idx, b"RATIONAL_B_SPLINE_CURVE") {
            Some(w) => {
                let ws = w.reals(if w.args.len() > 1 { w.args.len() - 1 } else { 0 })?;
                if ws.len() != n {
                    return Err(w.err(format!("{} weights for {n} poles", ws.len())));
                }
                Some(ws)
            }
            None => None,
        };
        NurbsCurve::try_new(p, knots, &pts, weights.as_deref())
            .map(Curve::BSpline)
            .map_err(|e| b.geom_err(e.to_string()))
    }

    /// Any surface.
    pub fn surface(&mut self, idx: usize) -> Result<Surface, StepError> {
        let s = self.surface_for(idx, true)?;
        Ok(s)
    }

    /// A surface; `cache` false when the caller stores it in a face and
    /// registers that face with [`Builder::surface_in_face`] (no copy kept).
    pub fn surface_for(&mut self, idx: usize, cache: bool) -> Result<Surface, StepError> {
        let key = self.key(idx);
        if let Some(s) = self.surfaces.get(&key).cloned() {
            self.records(idx);
            return Ok(s);
        }
        if let Some(s) = self
            .surface_faces
            .get(&key)
            .and_then(|&f| self.model.faces.get(f))
            .map(|f| f.surface.clone())
        {
            self.records(idx);
            return Ok(s);
        }
        self.enter(idx, "surface definition")?;
        let r = self.surface_uncached(idx);
        self.leave(idx);
        let s = r?;
        if cache && self.ex.ref_count(idx) > 1 {
            self.surfaces.insert(key, s.clone());
        }
        Ok(s)
    }

    /// Records that Model face `face` holds surface instance `idx` built
    /// under the current unit factors (later requests copy it from there).
    pub fn surface_in_face(&mut self, idx: usize, face: usize) {
        let key = self.key(idx);
        if self.ex.ref_count(idx) > 1 && !self.surfaces.contains_key(&key) {
            self.surface_faces.entry(key).or_insert(face);
        }
    }

    fn surface_uncached(&mut self, idx: usize) -> Result<Surface, StepError> {
        let a = self.simple(idx);
        let name = super::access::upper(a.entity);
        if self.has(idx, b"B_SPLINE_SURFACE")
            || matches!(
                &*name,
                b"B_SPLINE_SURFACE_WITH_KNOTS" | b"BEZIER_SURFACE" | b"UNIFORM_SURFACE" | b"QUASI_UNIFORM_SURFACE"
            )
        {
            return self.bspline_surface(idx);
        }
        match &*name {
            b"PLANE" => Ok(Surface::Plane {
                frame: self.placement(a.reference_to(1, super::access::PLACEMENT)?)?,
            }),
            b"CYLINDRICAL_SURFACE" => {
                let frame = self.placement(a.reference_to(1, super::access::PLACEMENT)?)?;
                let radius = self.positive_length(&a, 2)?;
                Ok(Surface::Cylinder { frame, radius })
            }
            b"CONICAL_SURFACE" => {
                let frame = self.placement(a.reference_to(1, super::access::PLACEMENT)?)?;
                let radius = self.length(&a, 2)?;
                let semi_angle = a.real(3)? * self.angle;
                if !(radius >= 0.0 && semi_angle.abs() > 1e-12 && semi_angle.abs() < std::f64::consts::FRAC_PI_2) {
                    return Err(a.geom_err(format!("cone radius {radius} / semi-angle {semi_angle} rad")));
                }
                Ok(Surface::Cone {
                    frame,
                    radius,
                    semi_angle,
                })
            }
            b"SPHERICAL_SURFACE" => {
                let frame = self.placement(a.reference_to(1, super::access::PLACEMENT)?)?;
                let radius = self.positive_length(&a, 2)?;
                Ok(Surface::Sphere { frame, radius })
            }
            b"TOROIDAL_SURFACE" | b"DEGENERATE_TOROIDAL_SURFACE" => {
                let frame = self.placement(a.reference_to(1, super::access::PLACEMENT)?)?;
                let major = self.length(&a, 2)?;
                let minor = self.positive_length(&a, 3)?;
                if !(major.is_finite() && major >= 0.0) {
                    return Err(a.geom_err(format!("torus major radius {major}")));
                }
                Ok(Surface::Torus { frame, major, minor })
            }
            b"SURFACE_OF_REVOLUTION" => {
                let profile = self.curve(a.reference_to(1, super::access::CURVE)?)?;
                let ax = self.placement(a.reference_to(2, super::access::PLACEMENT)?)?;
                Ok(Surface::Revolution {
                    profile: Box::new(profile),
                    axis_origin: ax.origin,
                    axis_dir: ax.z,
                })
            }
            b"SURFACE_OF_LINEAR_EXTRUSION" => {
                let profile = self.curve(a.reference_to(1, super::access::CURVE)?)?;
                let (d, _mag) = self.vector(a.reference_to(2, super::access::VECTOR)?)?;
                Ok(Surface::Extrusion {
                    profile: Box::new(profile),
                    direction: d,
                })
            }
            b"OFFSET_SURFACE" => {
                let basis = self.surface(a.reference_to(1, super::access::SURFACE)?)?;
                let distance = self.length(&a, 2)?;
                if !distance.is_finite() {
                    return Err(a.geom_err("non-finite offset distance"));
                }
                Ok(Surface::Offset {
                    basis: Box::new(basis),
                    distance,
                })
            }
            b"RECTANGULAR_TRIMMED_SURFACE" => {
                let basis = self.surface(a.reference_to(1, super::access::SURFACE)?)?;
                let (fu, fv) = param_factors(&basis, self.scale, self.angle);
                let (u1, u2, v1, v2) = (a.real(2)? * fu, a.real(3)? * fu, a.real(4)? * fv, a.real(5)? * fv);
                let u = (u1.min(u2), u1.max(u2));
                let v = (v1.min(v2), v1.max(v2));
                Ok(Surface::Trimmed {
                    basis: Box::new(basis),
                    u,
                    v,
                })
            }
            _ => Err(a.err("unsupported surface type")),
        }
    }

    fn bspline_surface(&mut self, idx: usize) -> Result<Surface, StepError> {
        // simple: name, du, dv, poles, form, uclosed, vclosed, self_int [, ...]
        let (b, off) = match self.part(idx, b"B_SPLINE_SURFACE") {
            Some(b) => (b, 0),
            None => (self.simple(idx), 1),
        };
        let du = Self::degree(&b, off)?;
        let dv = Self::degree(&b, off + 1)?;
        let rows = b.list(off + 2)?;
        let n_u = rows.len();
        if n_u < du + 1 || n_u as i64 > MAX_POLES {
            return Err(b.count_err("pole rows", n_u as i64));
        }
        let mut n_v = 0usize;
        let mut pts: Vec<[f64; 3]> = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let row =
                b.ex.list(row)
                    .ok_or_else(|| b.err("parameter poles: expected a list of lists"))?;
            if i == 0 {
                n_v = row.len();
                if n_v < dv + 1 || n_v as i64 > MAX_POLES || (n_u as i64) * (n_v as i64) > 4 * MAX_POLES {
                    return Err(b.count_err("pole columns", n_v as i64));
                }
                pts.reserve(n_u * n_v);
            } else if row.len() != n_v {
                return Err(b.err(format!("pole row {} has {} poles, row 1 has {n_v}", i + 1, row.len())));
            }
            for p in row {
                let Param::Ref(id) = *p else {
                    return Err(b.err(format!(
                        "parameter {}: expected references to points, found {}",
                        off + 3,
                        p.kind()
                    )));
                };
                let r =
                    b.ex.index
                        .get(id)
                        .ok_or_else(|| StepError::Dangling { at: b.at(), target: id })?;
                b.check(r, super::access::POINT)?;
                let v = self.point(r)?;
                pts.push([v.x, v.y, v.z]);
            }
        }
        let ku = self.flavour_knots(idx, n_u, du, 0, true)?;
        let kv = self.flavour_knots(idx, n_v, dv, 1, true)?;
        let weights = match self.part(idx, b"RATIONAL_B_SPLINE_SURFACE") {
            Some(w) => {
                let wl = w.list(if w.args.len() > 1 { w.args.len() - 1 } else { 0 })?;
                if wl.len() != n_u {
                    return Err(w.err(format!("{} weight rows for {n_u} pole rows", wl.len())));
                }
                let mut ws = Vec::with_capacity(n_u * n_v);
                for row in wl {
                    let row =
                        w.ex.list(row)
                            .ok_or_else(|| w.err("weights: expected a list of lists"))?;
                    if row.len() != n_v {
                        return Err(w.err(format!("weight row of {} for {n_v} pole columns", row.len())));
                    }
                    for x in row {
                        ws.push(super::access::real_of(*x).ok_or_else(|| w.err("weights: expected reals"))?);
                    }
                }
                Some(ws)
            }
            None => None,
        };
        NurbsSurface::try_new(du, dv, ku, kv, n_u, n_v, &pts, weights.as_deref())
            .map(Surface::BSpline)
            .map_err(|e| b.geom_err(e.to_string()))
    }
}

/// Period of a closed analytic curve.
pub fn curve_period(c: &Curve) -> Option<f64> {
    match c {
        Curve::Circle { .. } | Curve::Ellipse { .. } => Some(std::f64::consts::TAU),
        _ => None,
    }
}

/// Factors that convert file parameter values of a surface to Model ones
/// (length parameters scale, angles scale by the angle factor). A STEP
/// CONICAL_SURFACE's `v` is the height along the axis (ISO 10303-42:
/// `C + (R + v tan a)(cos u x + sin u y) + v z`), the Model cone's the
/// length along the generatrix: `v / cos a`.
pub fn param_factors(s: &Surface, scale: f64, angle: f64) -> (f64, f64) {
    match s {
        Surface::Plane { .. } => (scale, scale),
        Surface::Cylinder { .. } => (angle, scale),
        Surface::Cone { semi_angle, .. } => (angle, scale / semi_angle.cos()),
        Surface::Sphere { .. } | Surface::Torus { .. } => (angle, angle),
        Surface::Revolution { profile, .. } => (angle, curve_param_factor(profile, scale, angle)),
        Surface::Extrusion { profile, .. } => (curve_param_factor(profile, scale, angle), scale),
        Surface::Offset { basis, .. } | Surface::Trimmed { basis, .. } => param_factors(basis, scale, angle),
        Surface::BSpline(_) => (1.0, 1.0),
    }
}

fn curve_param_factor(c: &Curve, scale: f64, angle: f64) -> f64 {
    match c {
        Curve::Line { .. } => scale,
        Curve::Circle { .. } | Curve::Ellipse { .. } => angle,
        _ => 1.0,
    }
}
