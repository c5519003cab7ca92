//! Exact rational NURBS constructions of the analytic curves and surfaces the
//! importers produce (The NURBS Book, §7.3 circles, §8.5 surfaces of
//! revolution, §8.3 extrusions).
//!
//! Parameterisations are Open CASCADE's (`docs/architecture.md` "Conventions",
//! `import::model::Surface`):
//!
//! | primitive | point |
//! |---|---|
//! | circle arc | `o + r(cos t·x + sin t·y)` |
//! | line | `o + t·d` |
//! | plane | `o + u·x + v·y` |
//! | cylinder | `o + r(cos u·x + sin u·y) + v·z` |
//! | cone | `o + (r + v sin a)(cos u·x + sin u·y) + v cos a·z` |
//! | sphere | `o + r cos v (cos u·x + sin u·y) + r sin v·z` |
//! | torus | `o + (R + r cos v)(cos u·x + sin u·y) + r sin v·z` |
//! | revolution | profile `c(v)` rotated by `u` about the axis |
//! | extrusion | `c(u) + v·d` |
//!
//! # Angles versus NURBS parameters
//!
//! A rational quadratic arc is not parameterised by angle. Every angular
//! direction is split into `n = ⌈sweep / 90°⌉` equal spans of angle `Δ`, and the
//! knots are put at the span-boundary **angles** `θ₀, θ₀+Δ, …, θ₁` (each
//! interior knot doubled). So at span boundaries the NURBS parameter `s` *equals*
//! the angle, and inside span `k` (local `t = (s − s_k)/Δ ∈ [0,1]`)
//!
//! ```text
//! θ(s) = s_k + Δ/2 + 2·atan(c·(2t − 1)),   c = tan(Δ/4)
//! t(θ) = ½·(1 + tan((θ − s_k − Δ/2)/2) / c)
//! ```
//!
//! (the middle pole of each span has weight `cos(Δ/2)`; with these weights
//! `tan((θ − mid)/2) = tan(Δ/4)(2t − 1)`). [`ArcMap`] implements both
//! directions and `dθ/ds`, `d²θ/ds²`; [`ParamMap`] is that or the identity
//! (straight directions use the analytic parameter as NURBS parameter).

use super::{Frame, GeomError, Hpoint, NurbsCurve, NurbsSurface, Vec3};
use std::f64::consts::FRAC_PI_2;

/// Map between the angle of an arc direction and its NURBS parameter (see the
/// module docs): `n_spans` spans of angle `span_angle`, starting at `start`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ArcMap {
    /// First angle (= first knot), radians.
    pub start: f64,
    /// Angle of one span `Δ` (≤ π/2), radians.
    pub span_angle: f64,
    /// Number of rational quadratic spans.
    pub n_spans: usize,
}

impl ArcMap {
    /// Number of spans for a positive `sweep`: `⌈sweep/(π/2)⌉` (at least one).
    fn for_sweep(start: f64, sweep: f64) -> Self {
        // tolerance so that exactly 90°, 180°, … do not get an extra span
        let n = ((sweep / FRAC_PI_2) * (1.0 - 1e-12)).ceil().max(1.0) as usize;
        Self {
            start,
            span_angle: sweep / n as f64,
            n_spans: n,
        }
    }

    /// Last angle (= last knot).
    pub fn end(&self) -> f64 {
        self.start + self.span_angle * self.n_spans as f64
    }

    /// Knot / span-boundary value `k` (`0..=n_spans`).
    pub fn boundary(&self, k: usize) -> f64 {
        if k >= self.n_spans {
            self.end()
        } else {
            self.start + self.span_angle * k as f64
        }
    }

    /// Span index and span start for a value (angle or parameter — they agree
    /// at span boundaries), clamped to the arc.
    fn span_of(&self, x: f64) -> (usize, f64) {
        let k = ((x - self.start) / self.span_angle).floor();
        let k = if k.is_nan() {
            0
        } else {
            (k.max(0.0) as usize).min(self.n_spans - 1)
        };
        (k, self.boundary(k))
    }

    fn c(&self) -> f64 {
        (self.span_angle * 0.25).tan()
    }

    /// NURBS parameter of angle `theta` (clamped to the arc).
    pub fn angle_to_param(&self, theta: f64) -> f64 {
        let theta = theta.clamp(self.start, self.end());
        let (_, s0) = self.span_of(theta);
        let t = 0.5 * (1.0 + ((theta - s0 - 0.5 * self.span_angle) * 0.5).tan() / self.c());
        s0 + t * self.span_angle
    }

    /// Angle at NURBS parameter `s` (clamped to the arc).
    pub fn param_to_angle(&self, s: f64) -> f64 {
        self.param_to_angle_derivs(s)[0]
    }

    /// `[θ(s), dθ/ds, d²θ/ds²]` at NURBS parameter `s` (clamped to the arc).
    pub fn param_to_angle_derivs(&self, s: f64) -> [f64; 3] {
        let s = s.clamp(self.start, self.end());
        let (_, s0) = self.span_of(s);
        let d = self.span_angle;
        let c = self.c();
        let t = (s - s0) / d;
        let x = c * (2.0 * t - 1.0);
        let q = 1.0 + x * x;
        let theta = s0 + 0.5 * d + 2.0 * x.atan();
        // dθ/dt = 4c/(1+x²), d²θ/dt² = −16c²x/(1+x²)²
        let dt = 4.0 * c / q;
        let dtt = -16.0 * c * c * x / (q * q);
        [theta, dt / d, dtt / (d * d)]
    }

    /// Poles `(cos, sin)`-coefficients and weights of the unit arc:
    /// `Σ wᵢ Bᵢ (aᵢ, bᵢ) / Σ wᵢ Bᵢ = (cos θ, sin θ)`, plus the knots.
    fn unit_poles(&self) -> (Vec<[f64; 2]>, Vec<f64>, Vec<f64>) {
        let n = self.n_spans;
        let half = 0.5 * self.span_angle;
        let wm = half.cos();
        let mut ab = Vec::with_capacity(2 * n + 1);
        let mut w = Vec::with_capacity(2 * n + 1);
        let mut knots = Vec::with_capacity(2 * n + 4);
        knots.extend([self.start; 3]);
        for k in 0..n {
            let a0 = self.boundary(k);
            if k == 0 {
                ab.push([a0.cos(), a0.sin()]);
                w.push(1.0);
            }
            let am = a0 + half;
            ab.push([am.cos() / wm, am.sin() / wm]);
            w.push(wm);
            let a1 = self.boundary(k + 1);
            ab.push([a1.cos(), a1.sin()]);
            w.push(1.0);
            if k + 1 < n {
                knots.extend([a1; 2]);
            }
        }
        knots.extend([self.end(); 3]);
        (ab, w, knots)
    }
}

/// How an analytic parameter maps to the NURBS parameter in one direction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ParamMap {
    /// The NURBS parameter is the analytic parameter.
    Identity,
    /// Angular direction built from rational quadratic arcs.
    Arc(ArcMap),
}

impl ParamMap {
    /// NURBS parameter of the analytic parameter `x`.
    pub fn to_param(&self, x: f64) -> f64 {
        match self {
            ParamMap::Identity => x,
            ParamMap::Arc(m) => m.angle_to_param(x),
        }
    }
    /// Analytic parameter at NURBS parameter `s`.
    pub fn to_analytic(&self, s: f64) -> f64 {
        match self {
            ParamMap::Identity => s,
            ParamMap::Arc(m) => m.param_to_angle(s),
        }
    }
    /// `[x(s), dx/ds, d²x/ds²]` of the analytic parameter `x` at NURBS parameter `s`.
    pub fn analytic_derivs(&self, s: f64) -> [f64; 3] {
        match self {
            ParamMap::Identity => [s, 1.0, 0.0],
            ParamMap::Arc(m) => m.param_to_angle_derivs(s),
        }
    }
}

/// An exact NURBS curve with the map from its analytic parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct MappedCurve {
    /// The curve.
    pub curve: NurbsCurve,
    /// Analytic parameter ↔ NURBS parameter.
    pub map: ParamMap,
}

/// An exact NURBS surface with the maps from its analytic `(u, v)`.
#[derive(Debug, Clone, PartialEq)]
pub struct MappedSurface {
    /// The surface.
    pub surface: NurbsSurface,
    /// Map in u.
    pub u_map: ParamMap,
    /// Map in v.
    pub v_map: ParamMap,
}

impl MappedSurface {
    /// NURBS parameters of the analytic parameters `(u, v)`.
    pub fn to_param(&self, u: f64, v: f64) -> (f64, f64) {
        (self.u_map.to_param(u), self.v_map.to_param(v))
    }
    /// Analytic parameters at NURBS parameters `(s, t)`.
    pub fn to_analytic(&self, s: f64, t: f64) -> (f64, f64) {
        (self.u_map.to_analytic(s), self.v_map.to_analytic(t))
    }
}

fn check_range(r: (f64, f64), what: &'static str) -> Result<(), GeomError> {
    if !(r.0.is_finite() && r.1.is_finite()) {
        return Err(GeomError::NonFinite(what));
    }
    if r.1 <= r.0 {
        return Err(GeomError::Primitive(what));
    }
    Ok(())
}

fn check_positive(x: f64, what: &'static str) -> Result<(), GeomError> {
    if !x.is_finite() {
        return Err(GeomError::NonFinite(what));
    }
    if x <= 0.0 {
        return Err(GeomError::Primitive(what));
    }
    Ok(())
}

fn hp(p: Vec3, w: f64) -> Hpoint {
    [p.x * w, p.y * w, p.z * w, w]
}

fn arc_map(range: (f64, f64), what: &'static str) -> Result<ArcMap, GeomError> {
    check_range(range, what)?;
    Ok(ArcMap::for_sweep(range.0, range.1 - range.0))
}

/// Circle arc `center + r(cos t·x + sin t·y)` for `t ∈ [t0, t1]` (any positive
/// sweep), as rational quadratic spans of at most 90°.
pub fn circle_arc(center: Vec3, x: Vec3, y: Vec3, radius: f64, t: (f64, f64)) -> Result<MappedCurve, GeomError> {
    Frame {
        origin: center,
        x,
        y,
        z: x.cross(&y),
    }
    .check()?;
    check_positive(radius, "arc radius must be positive")?;
    let map = arc_map(t, "arc angle range must increase")?;
    let (ab, w, knots) = map.unit_poles();
    let cw = ab
        .iter()
        .zip(&w)
        .map(|(c, &wi)| hp(center + (x * c[0] + y * c[1]) * radius, wi))
        .collect();
    Ok(MappedCurve {
        curve: NurbsCurve::try_from_homogeneous(2, knots, cw)?,
        map: ParamMap::Arc(map),
    })
}

/// Line segment `origin + t·dir` for `t ∈ [t0, t1]` (degree 1, parameter = `t`).
pub fn line_segment(origin: Vec3, dir: Vec3, t: (f64, f64)) -> Result<MappedCurve, GeomError> {
    if !origin.iter().chain(dir.iter()).all(|c| c.is_finite()) {
        return Err(GeomError::NonFinite("line"));
    }
    if dir.norm() == 0.0 {
        return Err(GeomError::Primitive("line direction is zero"));
    }
    check_range(t, "line parameter range must increase")?;
    let cw = vec![hp(origin + dir * t.0, 1.0), hp(origin + dir * t.1, 1.0)];
    Ok(MappedCurve {
        curve: NurbsCurve::try_from_homogeneous(1, vec![t.0, t.0, t.1, t.1], cw)?,
        map: ParamMap::Identity,
    })
}

/// Plane patch `o + u·x + v·y` on `u × v` (bilinear).
pub fn plane_patch(axes: &Frame, u: (f64, f64), v: (f64, f64)) -> Result<MappedSurface, GeomError> {
    axes.check()?;
    check_range(u, "plane u range must increase")?;
    check_range(v, "plane v range must increase")?;
    let mut cw = Vec::with_capacity(4);
    for uu in [u.0, u.1] {
        for vv in [v.0, v.1] {
            cw.push(hp(axes.origin + axes.x * uu + axes.y * vv, 1.0));
        }
    }
    Ok(MappedSurface {
        surface: NurbsSurface::try_from_homogeneous(
            1,
            1,
            vec![u.0, u.0, u.1, u.1],
            vec![v.0, v.0, v.1, v.1],
            2,
            2,
            cw,
        )?,
        u_map: ParamMap::Identity,
        v_map: ParamMap::Identity,
    })
}

/// Rotates a profile given in the frame's (ρ, z) half-plane about `axes.z`:
/// profile pole `j` is `(ρⱼ, zⱼ)` with weight `wⱼ`; the surface point is
/// `o + ρ(v)(cos u·x + sin u·y) + z(v)·z`.
fn revolve_in_axes(
    axes: &Frame,
    u_map: ArcMap,
    profile: &[(f64, f64, f64)],
    degree_v: usize,
    knots_v: Vec<f64>,
    v_map: ParamMap,
) -> Result<MappedSurface, GeomError> {
    let (ab, wu, knots_u) = u_map.unit_poles();
    let mut cw = Vec::with_capacity(ab.len() * profile.len());
    for (c, &wi) in ab.iter().zip(&wu) {
        for &(rho, z, wj) in profile {
            let p = axes.origin + (axes.x * c[0] + axes.y * c[1]) * rho + axes.z * z;
            cw.push(hp(p, wi * wj));
        }
    }
    Ok(MappedSurface {
        surface: NurbsSurface::try_from_homogeneous(2, degree_v, knots_u, knots_v, ab.len(), profile.len(), cw)?,
        u_map: ParamMap::Arc(u_map),
        v_map,
    })
}

/// A profile in the (ρ, z) half-plane: poles `(ρⱼ, zⱼ, wⱼ)`, knots and angle map.
type ArcProfile = (Vec<(f64, f64, f64)>, Vec<f64>, ArcMap);

/// Unit-circle arc profile `(cos t, sin t)` on `t`, scaled by `r` and shifted
/// by `(rho0, 0)`: poles `(rho0 + r aⱼ, r bⱼ, wⱼ)`.
fn arc_profile(rho0: f64, r: f64, t: (f64, f64), what: &'static str) -> Result<ArcProfile, GeomError> {
    let m = arc_map(t, what)?;
    let (ab, w, knots) = m.unit_poles();
    let prof = ab
        .iter()
        .zip(&w)
        .map(|(c, &wj)| (rho0 + r * c[0], r * c[1], wj))
        .collect();
    Ok((prof, knots, m))
}

/// Cylinder `o + r(cos u·x + sin u·y) + v·z` on `u × v` (u angular, v axial).
pub fn cylinder(axes: &Frame, radius: f64, u: (f64, f64), v: (f64, f64)) -> Result<MappedSurface, GeomError> {
    axes.check()?;
    check_positive(radius, "cylinder radius must be positive")?;
    check_range(v, "cylinder v range must increase")?;
    let um = arc_map(u, "cylinder u range must increase")?;
    let prof = [(radius, v.0, 1.0), (radius, v.1, 1.0)];
    revolve_in_axes(axes, um, &prof, 1, vec![v.0, v.0, v.1, v.1], ParamMap::Identity)
}

/// Cone `o + (r + v sin a)(cos u·x + sin u·y) + v cos a·z` on `u × v`
/// (`|a| < π/2`; the radius may reach zero at the apex).
pub fn cone(
    axes: &Frame,
    radius: f64,
    semi_angle: f64,
    u: (f64, f64),
    v: (f64, f64),
) -> Result<MappedSurface, GeomError> {
    axes.check()?;
    if !(radius.is_finite() && semi_angle.is_finite()) {
        return Err(GeomError::NonFinite("cone"));
    }
    if radius < 0.0 || semi_angle.abs() >= FRAC_PI_2 {
        return Err(GeomError::Primitive("cone needs radius >= 0 and |semi-angle| < pi/2"));
    }
    check_range(v, "cone v range must increase")?;
    let um = arc_map(u, "cone u range must increase")?;
    let (s, c) = semi_angle.sin_cos();
    let prof = [(radius + v.0 * s, v.0 * c, 1.0), (radius + v.1 * s, v.1 * c, 1.0)];
    revolve_in_axes(axes, um, &prof, 1, vec![v.0, v.0, v.1, v.1], ParamMap::Identity)
}

/// Sphere `o + r cos v (cos u·x + sin u·y) + r sin v·z` on `u × v`
/// (`v ⊂ [−π/2, π/2]`; both directions angular).
pub fn sphere(axes: &Frame, radius: f64, u: (f64, f64), v: (f64, f64)) -> Result<MappedSurface, GeomError> {
    axes.check()?;
    check_positive(radius, "sphere radius must be positive")?;
    check_range(v, "sphere v range must increase")?;
    if v.0 < -FRAC_PI_2 * (1.0 + 1e-12) || v.1 > FRAC_PI_2 * (1.0 + 1e-12) {
        return Err(GeomError::Primitive("sphere v range must lie in [-pi/2, pi/2]"));
    }
    let um = arc_map(u, "sphere u range must increase")?;
    let (prof, kv, vm) = arc_profile(0.0, radius, v, "sphere v range must increase")?;
    revolve_in_axes(axes, um, &prof, 2, kv, ParamMap::Arc(vm))
}

/// Torus `o + (R + r cos v)(cos u·x + sin u·y) + r sin v·z` on `u × v`.
pub fn torus(axes: &Frame, major: f64, minor: f64, u: (f64, f64), v: (f64, f64)) -> Result<MappedSurface, GeomError> {
    axes.check()?;
    check_positive(major, "torus major radius must be positive")?;
    check_positive(minor, "torus minor radius must be positive")?;
    let um = arc_map(u, "torus u range must increase")?;
    let (prof, kv, vm) = arc_profile(major, minor, v, "torus v range must increase")?;
    revolve_in_axes(axes, um, &prof, 2, kv, ParamMap::Arc(vm))
}

/// Surface of revolution: `profile(v)` rotated by angle `u ∈ [u0, u1]`
/// right-handedly about the axis through `axis_origin` along `axis_dir`
/// (`u = 0` is the profile itself). The v parameter is the profile's.
pub fn revolve(
    profile: &NurbsCurve,
    axis_origin: Vec3,
    axis_dir: Vec3,
    u: (f64, f64),
) -> Result<MappedSurface, GeomError> {
    if !axis_origin.iter().chain(axis_dir.iter()).all(|c| c.is_finite()) {
        return Err(GeomError::NonFinite("revolution axis"));
    }
    let n = axis_dir.norm();
    if n == 0.0 {
        return Err(GeomError::Primitive("revolution axis is zero"));
    }
    let d = axis_dir / n;
    let um = arc_map(u, "revolution u range must increase")?;
    let (ab, wu, knots_u) = um.unit_poles();
    let nv = profile.cw.len();
    let mut cw = Vec::with_capacity(ab.len() * nv);
    for (c, &wi) in ab.iter().zip(&wu) {
        for (j, h) in profile.cw.iter().enumerate() {
            let p = profile.pole(j) - axis_origin;
            let along = p.dot(&d);
            let e = p - d * along;
            let f = d.cross(&e);
            let q = axis_origin + d * along + e * c[0] + f * c[1];
            cw.push(hp(q, wi * h[3]));
        }
    }
    Ok(MappedSurface {
        surface: NurbsSurface::try_from_homogeneous(
            2,
            profile.degree,
            knots_u,
            profile.knots.clone(),
            ab.len(),
            nv,
            cw,
        )?,
        u_map: ParamMap::Arc(um),
        v_map: ParamMap::Identity,
    })
}

/// Linear extrusion `profile(u) + v·dir`, `v ∈ [v0, v1]` (u is the profile's parameter).
pub fn extrude(profile: &NurbsCurve, dir: Vec3, v: (f64, f64)) -> Result<MappedSurface, GeomError> {
    if !dir.iter().all(|c| c.is_finite()) {
        return Err(GeomError::NonFinite("extrusion direction"));
    }
    if dir.norm() == 0.0 {
        return Err(GeomError::Primitive("extrusion direction is zero"));
    }
    check_range(v, "extrusion v range must increase")?;
    let mut cw = Vec::with_capacity(profile.cw.len() * 2);
    for (i, h) in profile.cw.iter().enumerate() {
        let p = profile.pole(i);
        cw.push(hp(p + dir * v.0, h[3]));
        cw.push(hp(p + dir * v.1, h[3]));
    }
    Ok(MappedSurface {
        surface: NurbsSurface::try_from_homogeneous(
            profile.degree,
            1,
            profile.knots.clone(),
            vec![v.0, v.0, v.1, v.1],
            profile.cw.len(),
            2,
            cw,
        )?,
        u_map: ParamMap::Identity,
        v_map: ParamMap::Identity,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    #[test]
    fn arc_points_lie_on_circle_and_map_round_trips() {
        let c = Vec3::new(1.0, 2.0, 3.0);
        for &(t0, t1) in &[
            (0.0, 0.3),
            (-1.0, 2.0),
            (0.0, 2.0 * PI),
            (0.5, 0.5 + FRAC_PI_2),
            (0.0, 5.0 * PI),
        ] {
            let arc = circle_arc(c, Vec3::x(), Vec3::y(), 2.5, (t0, t1)).unwrap();
            let ParamMap::Arc(m) = arc.map else {
                panic!("arc map expected")
            };
            assert!(m.span_angle <= FRAC_PI_2 * (1.0 + 1e-12));
            assert_eq!(arc.curve.domain(), (t0, m.end()));
            assert!((m.end() - t1).abs() < 1e-12);
            for i in 0..=50 {
                let th = t0 + (t1 - t0) * i as f64 / 50.0;
                let s = arc.map.to_param(th);
                assert!((arc.map.to_analytic(s) - th).abs() < 1e-13, "round trip at {th}");
                let p = arc.curve.eval(s);
                let expect = c + Vec3::new(th.cos(), th.sin(), 0.0) * 2.5;
                assert!((p - expect).norm() < 1e-13, "{t0},{t1}: {p} vs {expect}");
            }
        }
    }

    #[test]
    fn arc_span_counts() {
        let n = |sw: f64| ArcMap::for_sweep(0.0, sw).n_spans;
        assert_eq!(n(0.1), 1);
        assert_eq!(n(FRAC_PI_2), 1);
        assert_eq!(n(PI), 2);
        assert_eq!(n(PI + 0.01), 3);
        assert_eq!(n(2.0 * PI), 4);
    }

    #[test]
    fn arc_param_derivatives_match_finite_differences() {
        let m = ArcMap::for_sweep(-0.4, 4.0);
        for i in 1..40 {
            let s = -0.4 + 4.0 * i as f64 / 40.0 + 0.013;
            let [_, d1, d2] = m.param_to_angle_derivs(s);
            let h = 1e-5;
            let fd1 = (m.param_to_angle(s + h) - m.param_to_angle(s - h)) / (2.0 * h);
            let fd2 = (m.param_to_angle_derivs(s + h)[1] - m.param_to_angle_derivs(s - h)[1]) / (2.0 * h);
            assert!(
                (d1 - fd1).abs() < 1e-8 && (d2 - fd2).abs() < 1e-7,
                "s={s}: {d1} {fd1} {d2} {fd2}"
            );
        }
    }

    fn check_surface(ms: &MappedSurface, f: impl Fn(f64, f64) -> Vec3, u: (f64, f64), v: (f64, f64)) {
        for i in 0..=12 {
            for j in 0..=12 {
                let uu = u.0 + (u.1 - u.0) * i as f64 / 12.0;
                let vv = v.0 + (v.1 - v.0) * j as f64 / 12.0;
                let (s, t) = ms.to_param(uu, vv);
                let p = ms.surface.eval(s, t);
                let e = f(uu, vv);
                assert!((p - e).norm() < 1e-12 * (1.0 + e.norm()), "({uu},{vv}): {p} vs {e}");
            }
        }
    }

    fn tilted() -> Frame {
        let z = Vec3::new(1.0, 2.0, 2.0).normalize();
        let x = Vec3::new(2.0, -1.0, 0.0).normalize();
        Frame {
            origin: Vec3::new(3.0, -1.0, 0.5),
            x,
            y: z.cross(&x),
            z,
        }
    }

    #[test]
    fn analytic_surfaces_are_exact() {
        let a = tilted();
        let dir = |u: f64| a.x * u.cos() + a.y * u.sin();
        let (u, v) = ((0.3, 5.9), (-1.0, 2.0));
        check_surface(
            &plane_patch(&a, u, v).unwrap(),
            |u, v| a.origin + a.x * u + a.y * v,
            u,
            v,
        );
        check_surface(
            &cylinder(&a, 2.0, u, v).unwrap(),
            |u, v| a.origin + dir(u) * 2.0 + a.z * v,
            u,
            v,
        );
        let sa: f64 = 0.4;
        check_surface(
            &cone(&a, 1.5, sa, u, v).unwrap(),
            |u, v| a.origin + dir(u) * (1.5 + v * sa.sin()) + a.z * (v * sa.cos()),
            u,
            v,
        );
        let vs = (-1.2, 1.5);
        check_surface(
            &sphere(&a, 3.0, u, vs).unwrap(),
            |u, v| a.origin + dir(u) * (3.0 * v.cos()) + a.z * (3.0 * v.sin()),
            u,
            vs,
        );
        let vt = (-2.0, 3.5);
        check_surface(
            &torus(&a, 4.0, 1.0, (0.0, 2.0 * PI), vt).unwrap(),
            |u, v| a.origin + dir(u) * (4.0 + v.cos()) + a.z * v.sin(),
            (0.0, 2.0 * PI),
            vt,
        );
    }

    #[test]
    fn revolution_and_extrusion_of_profiles() {
        // a parabola-like quadratic rational profile, revolved about a tilted axis
        let prof = NurbsCurve::try_new(
            2,
            vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
            &[[2.0, 0.0, 0.0], [3.0, 1.0, 1.0], [2.5, 0.5, 2.0]],
            Some(&[1.0, 0.6, 1.3]),
        )
        .unwrap();
        let o = Vec3::new(0.5, -0.2, 0.1);
        let d = Vec3::new(0.2, 0.1, 1.0);
        let ms = revolve(&prof, o, d, (0.2, 4.0)).unwrap();
        let dn = d.normalize();
        check_surface(
            &ms,
            |u, v| {
                let p = prof.eval(v) - o;
                let rot = nalgebra::Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(dn), u);
                o + rot * p
            },
            (0.2, 4.0),
            (0.0, 1.0),
        );
        let dir = Vec3::new(0.0, 1.0, -0.5);
        let ex = extrude(&prof, dir, (-1.0, 2.0)).unwrap();
        check_surface(&ex, |u, v| prof.eval(u) + dir * v, (0.0, 1.0), (-1.0, 2.0));
    }

    #[test]
    fn frames_from_an_axis_and_a_reference() {
        let a = Frame::from_axis_ref(Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.0, 0.0, 2.0), Some(Vec3::x()))
            .expect("valid frame");
        assert_eq!((a.x, a.y, a.z), (Vec3::x(), Vec3::y(), Vec3::z()));
        let cyl = cylinder(&a, 1.0, (0.0, 1.0), (0.0, 1.0)).unwrap();
        assert!((cyl.surface.eval(0.0, 0.5) - Vec3::new(2.0, 2.0, 3.5)).norm() < 1e-14);
    }

    #[test]
    fn bad_primitives_are_errors() {
        let a = Frame::world();
        assert!(cylinder(&a, 0.0, (0.0, 1.0), (0.0, 1.0)).is_err());
        assert!(cylinder(&a, f64::NAN, (0.0, 1.0), (0.0, 1.0)).is_err());
        assert!(cylinder(&a, 1.0, (1.0, 1.0), (0.0, 1.0)).is_err());
        assert!(sphere(&a, 1.0, (0.0, 1.0), (-2.0, 1.0)).is_err());
        assert!(cone(&a, 1.0, FRAC_PI_2, (0.0, 1.0), (0.0, 1.0)).is_err());
        assert!(torus(&a, 1.0, -1.0, (0.0, 1.0), (0.0, 1.0)).is_err());
        assert!(circle_arc(Vec3::zeros(), Vec3::x(), Vec3::y(), 1.0, (0.0, f64::INFINITY)).is_err());
        assert!(line_segment(Vec3::zeros(), Vec3::zeros(), (0.0, 1.0)).is_err());
        let bad = Frame {
            x: Vec3::zeros(),
            ..Frame::world()
        };
        assert!(plane_patch(&bad, (0.0, 1.0), (0.0, 1.0)).is_err());
    }
}
