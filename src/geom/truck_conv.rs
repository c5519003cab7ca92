//! Conversions between extrack's flat NURBS types and truck-geometry's types.
//!
//! truck-geometry is used offline (knot insertion, splitting, degree
//! elevation) and as the reference in tests; never on the runtime path (it
//! allocates on every evaluation).

use super::{GeomError, Hpoint, NurbsCurve, NurbsSurface};
use truck_geometry::prelude as tg;

fn knots_of(k: &tg::KnotVec) -> Vec<f64> {
    k.iter().copied().collect()
}

impl TryFrom<&tg::BSplineSurface<tg::Point3>> for NurbsSurface {
    type Error = GeomError;
    fn try_from(s: &tg::BSplineSurface<tg::Point3>) -> Result<Self, GeomError> {
        let (ku, kv) = s.knot_vecs();
        let cp = s.control_points();
        let n_u = cp.len();
        let n_v = cp.first().map_or(0, |r| r.len());
        let cw: Vec<Hpoint> = cp
            .iter()
            .flat_map(|row| row.iter().map(|p| [p.x, p.y, p.z, 1.0]))
            .collect();
        let (du, dv) = s.degrees();
        NurbsSurface::try_from_homogeneous(du, dv, knots_of(ku), knots_of(kv), n_u, n_v, cw)
    }
}

impl TryFrom<&tg::NurbsSurface<tg::Vector4>> for NurbsSurface {
    type Error = GeomError;
    fn try_from(s: &tg::NurbsSurface<tg::Vector4>) -> Result<Self, GeomError> {
        let b = s.non_rationalized();
        let (ku, kv) = b.knot_vecs();
        let cp = b.control_points();
        let n_u = cp.len();
        let n_v = cp.first().map_or(0, |r| r.len());
        let cw: Vec<Hpoint> = cp
            .iter()
            .flat_map(|row| row.iter().map(|p| [p.x, p.y, p.z, p.w]))
            .collect();
        let (du, dv) = b.degrees();
        NurbsSurface::try_from_homogeneous(du, dv, knots_of(ku), knots_of(kv), n_u, n_v, cw)
    }
}

impl TryFrom<&tg::BSplineCurve<tg::Point3>> for NurbsCurve {
    type Error = GeomError;
    fn try_from(c: &tg::BSplineCurve<tg::Point3>) -> Result<Self, GeomError> {
        let cw = c.control_points().iter().map(|p| [p.x, p.y, p.z, 1.0]).collect();
        NurbsCurve::try_from_homogeneous(c.degree(), knots_of(c.knot_vec()), cw)
    }
}

impl TryFrom<&tg::NurbsCurve<tg::Vector4>> for NurbsCurve {
    type Error = GeomError;
    fn try_from(c: &tg::NurbsCurve<tg::Vector4>) -> Result<Self, GeomError> {
        let b = c.non_rationalized();
        let cw = b.control_points().iter().map(|p| [p.x, p.y, p.z, p.w]).collect();
        NurbsCurve::try_from_homogeneous(b.degree(), knots_of(b.knot_vec()), cw)
    }
}

impl NurbsSurface {
    /// The same surface as a truck-geometry rational NURBS (homogeneous poles).
    pub fn to_truck(&self) -> tg::NurbsSurface<tg::Vector4> {
        let rows: Vec<Vec<tg::Vector4>> = (0..self.n_u)
            .map(|i| {
                (0..self.n_v)
                    .map(|j| {
                        let c = self.cw[i * self.n_v + j];
                        tg::Vector4::new(c[0], c[1], c[2], c[3])
                    })
                    .collect()
            })
            .collect();
        let b = tg::BSplineSurface::new_unchecked(
            (
                tg::KnotVec::from(self.knots_u.clone()),
                tg::KnotVec::from(self.knots_v.clone()),
            ),
            rows,
        );
        tg::NurbsSurface::new(b)
    }
}

impl NurbsCurve {
    /// The same curve as a truck-geometry rational NURBS (homogeneous poles).
    pub fn to_truck(&self) -> tg::NurbsCurve<tg::Vector4> {
        let pts = self
            .cw
            .iter()
            .map(|c| tg::Vector4::new(c[0], c[1], c[2], c[3]))
            .collect();
        tg::NurbsCurve::new(tg::BSplineCurve::new_unchecked(
            tg::KnotVec::from(self.knots.clone()),
            pts,
        ))
    }
}
