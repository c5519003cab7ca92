//! PG-GUAS experiments on the Table I patch: global convergence of the
//! switching controller from a 41×41 grid of initial parameters, Newton's
//! fragmented basin (Fig. 6), monotone Lyapunov function, gain window (Fig. 7).

use crate::common;

use extrack::geom::Vec3;
use extrack::track::brute::closest_on_patch;
use extrack::track::{ControlLaw, Integrator, Mode, PointPatchTracker, TrackerConfig};

/// Query points on the convex side (above the dome): one whose closest point
/// is interior, one whose closest point lies on the boundary curve v = 0
/// (x ≈ 0 edge... chosen so brute force confirms a unique answer).
fn queries() -> Vec<(Vec3, bool)> {
    vec![(Vec3::new(4.0, 6.0, 11.0), false), (Vec3::new(-6.0, 5.0, 9.0), true)]
}

fn gc_cfg() -> TrackerConfig {
    TrackerConfig {
        law: ControlLaw::GloballyConvergent,
        integrator: Integrator::Euler,
        gain_k: 500.0,
        h: 1e-3,
        tol: 1e-13,
        max_iters: 1,
        precondition: true,
        feed_forward: false,
        ..TrackerConfig::default()
    }
}

#[test]
fn brute_force_answers_are_unique_and_of_the_intended_kind() {
    let patch = common::table1();
    for (q, on_boundary) in queries() {
        let b = closest_on_patch(&patch, &q, 201, 20);
        assert!(b.runner_up > b.distance + 1e-3, "not unique: {b:?}");
        let at_bd = b.uv.iter().any(|&t| t <= 1e-12 || t >= 1.0 - 1e-12);
        assert_eq!(at_bd, on_boundary, "{q:?} -> {b:?}");
    }
}

#[test]
fn globally_convergent_controller_converges_from_every_initial_point() {
    let patch = common::table1();
    for (q, _) in queries() {
        let b = closest_on_patch(&patch, &q, 201, 20);
        let mut worst = 0.0f64;
        let mut max_iters = 0;
        for i in 0..41 {
            for j in 0..41 {
                let uv0 = [i as f64 / 40.0, j as f64 / 40.0];
                let mut t = PointPatchTracker::new(gc_cfg(), uv0).unwrap();
                let mut v_prev = f64::INFINITY;
                let mut iters = 0;
                loop {
                    let w = t.solve(&patch, &q, &Vec3::zeros(), 0.0).unwrap();
                    // invariance: never leaves [0,1]²
                    assert!(w.uv.iter().all(|&x| (0.0..=1.0).contains(&x)));
                    // Lyapunov V = |ΔR| − E never increases (small hK)
                    assert!(w.distance <= v_prev * (1.0 + 1e-14), "V increased at {uv0:?}");
                    v_prev = w.distance;
                    iters += 1;
                    if w.converged || iters > 20000 {
                        break;
                    }
                }
                let err = (t.solve(&patch, &q, &Vec3::zeros(), 0.0).unwrap().point - b.point).norm();
                worst = worst.max(err);
                max_iters = max_iters.max(iters);
            }
        }
        println!("q={q:?}: worst error {worst:e}, max iterations {max_iters}");
        assert!(worst <= 1e-9, "worst error {worst:e}");
    }
}

fn basin_fraction(law: ControlLaw, q: &Vec3, target: &Vec3) -> f64 {
    let patch = common::table1();
    let cfg = TrackerConfig {
        law,
        max_iters: 100,
        tol: 1e-13,
        feed_forward: false,
        ..TrackerConfig::default()
    };
    let mut ok = 0;
    for i in 0..41 {
        for j in 0..41 {
            let mut t = PointPatchTracker::new(cfg, [i as f64 / 40.0, j as f64 / 40.0]).unwrap();
            let w = t.solve(&patch, q, &Vec3::zeros(), 0.0).unwrap();
            if w.converged && (w.point - target).norm() <= 1e-9 {
                ok += 1;
            }
        }
    }
    ok as f64 / 1681.0
}

#[test]
fn newton_has_a_fragmented_basin_and_the_hybrid_is_global() {
    let patch = common::table1();
    for (q, _) in queries() {
        let b = closest_on_patch(&patch, &q, 201, 20);
        let newton = basin_fraction(ControlLaw::Newton, &q, &b.point);
        let newton_sat = basin_fraction(ControlLaw::NewtonSaturated, &q, &b.point);
        let hybrid = basin_fraction(ControlLaw::Hybrid, &q, &b.point);
        println!(
            "q={q:?}: converged fraction Newton {newton:.3}, Newton+saturation {newton_sat:.3}, hybrid {hybrid:.3}"
        );
        assert!(newton < 1.0, "plain Newton should fail from some initial points");
        assert!(newton_sat >= newton);
        assert_eq!(hybrid, 1.0);
    }
}

#[test]
fn boundary_answer_is_reached_through_a_saturated_mode() {
    let patch = common::table1();
    let (q, _) = queries()[1];
    let cfg = TrackerConfig {
        max_iters: 200,
        ..gc_cfg()
    };
    let mut t = PointPatchTracker::new(cfg, [0.9, 0.9]).unwrap();
    let w = t.solve(&patch, &q, &Vec3::zeros(), 0.0).unwrap();
    assert!(w.converged);
    assert!(
        matches!(w.mode, Mode::U0 | Mode::U1 | Mode::V0 | Mode::V1),
        "{:?}",
        w.mode
    );
}

#[test]
fn gain_window_rk2_at_1ms() {
    use extrack::track::gains::stable_gain_window;
    let patch = common::table1();
    let (q, _) = queries()[0];
    let b = closest_on_patch(&patch, &q, 201, 20);
    let (_, kmax) = stable_gain_window(1e-3, Integrator::Rk2);
    let run = |k: f64| {
        let cfg = TrackerConfig {
            law: ControlLaw::FeedbackLinearized,
            integrator: Integrator::Rk2,
            gain_k: k,
            h: 1e-3,
            max_iters: 1,
            feed_forward: false,
            ..TrackerConfig::default()
        };
        // start close to the answer so the linearised dynamics govern
        let mut t = PointPatchTracker::new(cfg, [b.uv[0] + 0.02, b.uv[1] - 0.02]).unwrap();
        let mut last = 0.0;
        for _ in 0..300 {
            last = (t.solve(&patch, &q, &Vec3::zeros(), 0.0).unwrap().point - b.point).norm();
        }
        last
    };
    let inside = run(0.8 * kmax);
    let beyond = run(1.15 * kmax);
    println!(
        "RK2 h=1ms: K={} error {inside:e}; K={} error {beyond:e}",
        0.8 * kmax,
        1.15 * kmax
    );
    assert!(inside < 1e-9);
    assert!(beyond > 1e-3, "beyond the window the tracker must not settle");
}

/// The switching controller exactly as printed (eq. 1, no preconditioning):
/// `ẋ = −KΨ` with a gain scaled to the patch (hK·λ_max(M) < 2) still
/// converges from every initial point of an 11×11 grid, only more slowly.
#[test]
fn unpreconditioned_eq1_converges_from_every_initial_point() {
    let patch = common::table1();
    for (q, _) in queries() {
        let b = closest_on_patch(&patch, &q, 201, 20);
        let cfg = TrackerConfig {
            precondition: false,
            gain_k: 5.0,
            max_iters: 200_000,
            ..gc_cfg()
        };
        let mut worst = 0.0f64;
        for i in 0..11 {
            for j in 0..11 {
                let mut t = PointPatchTracker::new(cfg, [i as f64 / 10.0, j as f64 / 10.0]).unwrap();
                let w = t.solve(&patch, &q, &Vec3::zeros(), 0.0).unwrap();
                assert!(w.converged);
                worst = worst.max((w.point - b.point).norm());
            }
        }
        println!("eq. (1) unpreconditioned, K h = 0.005: worst error {worst:e}");
        assert!(worst <= 1e-9);
    }
}
