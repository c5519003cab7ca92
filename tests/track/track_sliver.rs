//! The globally convergent law on a sliver patch: piece 14 of
//! `iges_bladex_blade_upper.iges` (a cubic × quadratic Bézier 0.004 mm wide
//! in u and 16 mm long in v, its tangents 83° apart), with the query of
//! that file's oracle point 87. The preconditioned step overshoots u by
//! orders of magnitude; saturated at u = 0 it turns uphill in v, so the
//! line search must halve the unsaturated step, not the saturated one.
//! Before, the controller crept by 1e-10 per iteration and stopped 2.2e-3 mm
//! short of the minimum (6.892891… at u = 0, v = 0.86444) after 64
//! iterations.

use extrack::geom::{NurbsSurface, Vec3};
use extrack::track::brute::closest_on_patch;
use extrack::track::{ControlLaw, PointPatchTracker, TrackerConfig};

/// Poles (u-major, 4 × 3), weights 1.
const POLES: [[f64; 3]; 12] = [
    [3.329708333878451, 1.4708336576928942, -124.14322254296744],
    [-0.23687944500000002, -5.9852704994999995, -125.081722089],
    [-3.264656828, -13.36602767, -124.283342827],
    [3.331859717506831, 1.469773598556066, -124.14321345253535],
    [-0.23527615150000014, -5.9860319335, -125.08163873125],
    [-3.2637567665000002, -13.366571166, -124.2832843785],
    [3.333867121497203, 1.4685688428126484, -124.14320686219394],
    [-0.23374308982653647, -5.986879615998802, -125.0815493177125],
    [-3.262863141726113, -13.367124066353771, -124.28322491420329],
    [3.3357458248399556, 1.4672365131988938, -124.14320266792909],
    [-0.23227406385169536, -5.987804193248982, -125.08145483657123],
    [-3.2619757195243544, -13.36768596810368, -124.28316447729692],
];

#[test]
fn globally_convergent_law_reaches_the_side_minimum_of_a_sliver() {
    let ku = vec![0., 0., 0., 0., 1., 1., 1., 1.];
    let kv = vec![0., 0., 0., 1., 1., 1.];
    let patch = NurbsSurface::try_new(3, 2, ku, kv, 4, 3, &POLES, None).unwrap();
    let q = Vec3::new(-6.259957243442749, -9.34950298774352, -119.09978217981634);
    let b = closest_on_patch(&patch, &q, 400, 8);
    assert!(b.uv[0] == 0.0 && (b.distance - 6.892891493215659).abs() < 1e-9, "{b:?}");
    for law in [ControlLaw::GloballyConvergent, ControlLaw::Hybrid] {
        let cfg = TrackerConfig {
            law,
            feed_forward: false,
            max_iters: 64,
            ..TrackerConfig::default()
        };
        let mut t = PointPatchTracker::new(cfg, [0.125, 0.875]).unwrap();
        let w = t.solve(&patch, &q, &Vec3::zeros(), 0.0).unwrap();
        assert!(w.converged, "{law:?}: {w:?}");
        assert!(
            (w.distance - b.distance).abs() < 1e-9 * b.distance,
            "{law:?}: {w:?} vs {b:?}"
        );
        assert!((w.uv[1] - b.uv[1]).abs() < 1e-7, "{law:?}: {w:?} vs {b:?}");
    }
}
