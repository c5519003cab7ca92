//! **Creases**: the parameter lines across which a surface is only C0, so
//! that its derivative in the crossing direction may jump there: a
//! B-spline's knots of multiplicity at least its degree, and the corners of
//! a swept surface's profile (a B-spline profile's C0 knots, a composite's
//! joints, a polyline's inner vertices). Geometrically a crease may be a
//! real kink or smooth with a jump of the parameter speed only (an IGES 122
//! directrix of Bézier spans of unequal speeds); either way a curve on the
//! surface is smooth in space across it and kinked in parameters.

use crate::import::model::{Curve, Surface};

/// The interior values of the clamped knot vector `knots` whose
/// multiplicity is at least `degree`, ascending: where the curve or surface
/// is only C0 (the end knots are not listed).
pub fn c0_knots(knots: &[f64], degree: usize) -> Vec<f64> {
    let (Some(&first), Some(&last)) = (knots.first(), knots.last()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < knots.len() {
        let j = i + knots[i..].iter().take_while(|&&x| x == knots[i]).count();
        if j - i >= degree.max(1) && knots[i] != first && knots[i] != last {
            out.push(knots[i]);
        }
        i = j;
    }
    out
}

/// The parameters of `curve`'s corners, ascending: a B-spline's C0 knots
/// ([`c0_knots`]), a composite's joints (part `k` runs over `[k, k + 1]`),
/// a polyline's inner vertices (vertex `k` at `k`); none for the smooth
/// kinds.
pub fn curve_corners(curve: &Curve) -> Vec<f64> {
    match curve {
        Curve::BSpline(b) => c0_knots(&b.knots, b.degree),
        Curve::Composite(parts) => (1..parts.len()).map(|k| k as f64).collect(),
        Curve::Polyline(p) => (1..p.len().saturating_sub(1)).map(|k| k as f64).collect(),
        _ => Vec::new(),
    }
}

/// The creases of `surface` in parameter `k` (0: the values of `u` of its
/// crease lines `u = c`, 1: of `v`), ascending, in the surface's own
/// (unwrapped: one period) parameters; through a trimmed or offset
/// surface's basis.
pub fn surface_creases(surface: &Surface, k: usize) -> Vec<f64> {
    match surface {
        Surface::BSpline(b) if k == 0 => c0_knots(&b.knots_u, b.degree_u),
        Surface::BSpline(b) => c0_knots(&b.knots_v, b.degree_v),
        Surface::Trimmed { basis, .. } | Surface::Offset { basis, .. } => surface_creases(basis, k),
        Surface::Revolution { profile, .. } if k == 1 => curve_corners(profile),
        Surface::Extrusion { profile, .. } if k == 0 => curve_corners(profile),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c0_knots_are_the_interior_knots_of_full_multiplicity() {
        let k = [0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 3.0, 3.0, 4.0, 4.0, 4.0];
        assert_eq!(c0_knots(&k, 2), vec![1.0, 3.0]);
        assert_eq!(c0_knots(&k, 3), Vec::<f64>::new());
        // degree 1: every interior knot
        assert_eq!(c0_knots(&k, 1), vec![1.0, 2.0, 3.0]);
    }

    #[test]
    fn an_extrusions_creases_are_its_directrixs_corners_in_u_only() {
        let pts = vec![
            crate::geom::Vec3::new(0.0, 0.0, 0.0),
            crate::geom::Vec3::new(1.0, 0.0, 0.0),
            crate::geom::Vec3::new(1.0, 1.0, 0.0),
            crate::geom::Vec3::new(2.0, 1.0, 0.0),
        ];
        let s = Surface::Extrusion {
            profile: Box::new(Curve::Polyline(pts)),
            direction: crate::geom::Vec3::z(),
        };
        assert_eq!(surface_creases(&s, 0), vec![1.0, 2.0]);
        assert!(surface_creases(&s, 1).is_empty());
    }
}
