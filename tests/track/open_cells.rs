//! Cells a far-phase search left open (`far::OpenCells`): a cell whose
//! solve stopped unconverged with no floor is proven away by its floor at
//! the final answer, or solved again from its quarters, else the answer
//! carries [`AnswerStatus::UNCONVERGED`] (never passed over silently).

use crate::unconverged::capped;
use extrack::geom::Vec3;
use extrack::track::body::Item;
use extrack::track::far::{cell_bound, cell_config, cold_search, solve_cell, Candidate, OpenCells};
use extrack::track::point_body::status_of;
use extrack::track::{AnswerStatus, TrackScene, TrackerConfig};

fn scene(name: &str) -> TrackScene {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name);
    let model = extrack::import::import_file(path).unwrap();
    TrackScene::from_data(&extrack::prepare::prepare(&model, &Default::default()).unwrap()).unwrap()
}

fn answer(d: f64) -> Candidate {
    Candidate {
        d,
        converged: true,
        ..Candidate::NONE
    }
}

#[test]
fn a_cell_left_open_below_the_answer_makes_it_unproven_unless_its_floor_clears_it() {
    // the NURBS ellipsoid seen from near its centre (a focal region,
    // where open cells occur): every cell's minimum is within a few
    // per cent of the answer
    let scene = scene("ellipsoid.brep.igs");
    let body = &scene.bodies[0];
    let root = &body.nodes[body.root as usize];
    let q = 0.5 * (root.lo + root.hi) + Vec3::new(0.01, 0.02, 0.03);
    let cfg = cell_config(&TrackerConfig::default());
    let mut exact = Candidate::NONE;
    cold_search(body, &cfg, &q, &mut exact);
    assert!(exact.proven(), "{exact:?}");
    let d = exact.d;
    let cells = 0..body.cells.len() as u32;
    let bound = |c: u32| cell_bound(body, c, &q, f64::INFINITY).expect("below +∞");

    // capped, a solve leaves its cell open
    let centre = |c: u32| {
        let r = body.cells[c as usize].rect;
        [0.5 * (r[0] + r[1]), 0.5 * (r[2] + r[3])]
    };
    let mut first = Candidate::NONE;
    let s = solve_cell(body, &capped(), 0, centre(0), bound(0), &q, &mut first);
    assert!(s.open(), "{s:?}");
    // with the far phase's settings it converges
    let mut first = Candidate::NONE;
    assert!(!solve_cell(body, &cfg, 0, centre(0), bound(0), &q, &mut first).open());

    let mut open = OpenCells::default();
    // the answer's own cell left open under a slightly larger answer: it
    // holds a nearer point, no floor proves it away, the answer is unproven
    let home = cells
        .clone()
        .find(|&c| {
            let cell = &body.cells[c as usize];
            let r = cell.rect;
            cell.item == exact.item && (r[0]..=r[1]).contains(&exact.x[0]) && (r[2]..=r[3]).contains(&exact.x[1])
        })
        .expect("a cell holds the answer");
    assert!(matches!(exact.item, Item::Piece(_)));
    // (solved again under the capped settings, it stays open)
    let mut best = answer(d * (1.0 + 1e-3));
    assert!(best.proven());
    open.note(home, bound(home), &mut best);
    let (solves, _) = open.close(body, &capped(), &q, &mut best);
    assert_eq!(solves, 4);
    assert_eq!(best.open, bound(home));
    assert!(!best.proven());
    assert!(status_of(body, &best).has(AnswerStatus::UNCONVERGED));
    // solved again under the far phase's settings, it converges and
    // gives the nearer point: the answer is mended, and proven
    let mut best = answer(d * (1.0 + 1e-3));
    open.note(home, bound(home), &mut best);
    let (solves, _) = open.close(body, &cfg, &q, &mut best);
    assert_eq!(solves, 1);
    assert!((best.d - d).abs() <= 1e-12 * d, "{} {d}", best.d);
    assert!(best.proven());

    // a cell below the answer by its bound whose floor proves it above:
    // cleared with no solve (under the capped settings every solve would
    // leave it open)
    let cleared = |c: u32| {
        let mut best = answer(d);
        let mut open = OpenCells::default();
        open.note(c, bound(c), &mut best);
        (open.close(body, &capped(), &q, &mut best), best)
    };
    let far = cells
        .clone()
        .find(|&c| bound(c) < d && cleared(c).0 == (0, 0))
        .expect("a cell whose floor clears it");
    let (_, best) = cleared(far);
    assert_eq!(best.open, f64::INFINITY);
    assert!(best.proven());
    assert!(!status_of(body, &best).has(AnswerStatus::UNCONVERGED));
    // a cell whose bound is not below the answer: nothing to prove
    let mut best = answer(bound(home));
    open.note(home, bound(home), &mut best);
    assert_eq!(open.close(body, &capped(), &q, &mut best), (0, 0));
    assert!(best.proven());

    // beyond the capacity a cell marks the answer at once
    let mut best = answer(d);
    for _ in 0..OpenCells::CAPACITY {
        open.note(far, bound(far), &mut best);
    }
    assert!(best.proven());
    open.note(home, bound(home), &mut best);
    assert_eq!(best.open, bound(home));
    open.clear();
}
