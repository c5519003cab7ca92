//! The cold query's tangent-cone exclusion (`track::body::CellCones`,
//! issue 27): a piece cell on which the distance is strictly monotone in `u`
//! or `v` towards a side inside its piece holds no minimum of the body, so
//! the cold query does not solve it. Checked on real files: at the Open
//! CASCADE oracle points and a 10³ grid over the body's box grown by 20 %,
//! every cell the cones exclude (whose box is nearer than the answer) is
//! solved from its centre and must hold no point kept by the trims nearer
//! than the cold answer (1e-9 relative), and the cones must exclude cells
//! on the freeform impeller (the test asserts that the exclusion is used).
//! Cells excluded towards a *seam* (a piece side shared with a neighbouring
//! piece of the face, `CellCones::across`, issue 27 session 32) are counted
//! apart, and must be used on the bladex blade (one trimmed surface in 6,484
//! pieces, where most cells lie beside a seam). Edge spans excluded towards
//! an interior breakpoint (`CellCones::of_span`) are solved over their span
//! and checked the same way.
//! Skipped (with a message) when `../shared/fixtures` is absent.

use crate::common;

use common::points::oracle_points;
use extrack::geom::{Pose, Vec3};
use extrack::track::body::{box_dist2, Item};
use extrack::track::far::{cell_config, solve_edge, solve_piece};
use extrack::track::point_body::body_pose;
use extrack::track::{closest_point, Target, TrackScene, TrackerConfig};

/// `(file, least excluded cells per query, least of them excluded towards
/// a seam only)`: a freeform impeller of 4,788 pieces (15.9 of 26.6 cells
/// per cold query excluded when measured), the bladex blade (6,484 pieces of
/// one surface), a median part (none expected).
const FILES: [(&str, f64, f64); 4] = [
    ("iges_sw2010_impeller.igs", 1.0, 0.0),
    ("iges_bladex_blade_upper.iges", 10.0, 5.0),
    ("iges_inventor2011_spring.igs", 0.0, 0.0),
    ("step_proe2004_pump_carter.stp", 0.0, 0.0),
];

/// Whether `excludes` decided only because of a seam: the distance is
/// monotone towards no side inside the piece (the rule without seams).
fn by_seam_only(cones: &extrack::track::body::CellCones, rect: &[f64; 4], q: &Vec3) -> bool {
    let m = cones.monotone(q);
    !(0..2).any(|k| match m[k] {
        Some(true) => rect[2 * k + 1] < 1.0,
        Some(false) => rect[2 * k] > 0.0,
        None => false,
    })
}

fn largest_body(scene: &TrackScene) -> u32 {
    (0..scene.bodies.len())
        .max_by_key(|&b| scene.bodies[b].pieces.len())
        .unwrap_or(0) as u32
}

#[test]
fn cells_excluded_by_tangent_cones_hold_no_nearer_point() {
    let Some(root) = common::fixtures() else { return };
    let cfg = cell_config(&TrackerConfig::default());
    for (file, least, least_seam) in FILES {
        let model =
            extrack::import::import_file(root.join("corpus").join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let scene = crate::point_body_corpus::prepared_scene(&model).unwrap_or_else(|e| panic!("{file}: {e}"));
        let b = largest_body(&scene);
        let geom = &scene.bodies[b as usize];
        let pose = body_pose(geom, &Pose::identity());
        let js = common::oracle_closest(&root, file).unwrap_or_else(|| panic!("{file}: no oracle"));
        let mut qs: Vec<Vec3> = oracle_points(&js).iter().map(|o| o.q).collect();
        let (lo, hi) = (pose.transform_point(&geom.lo), pose.transform_point(&geom.hi));
        let (c, h) = (0.5 * (lo + hi), 0.6 * (hi - lo));
        let n = 10;
        for i in 0..n * n * n {
            let t = |k: usize| -1.0 + 2.0 * (k as f64 + 0.5) / n as f64;
            qs.push(c + Vec3::new(t(i % n) * h.x, t((i / n) % n) * h.y, t(i / (n * n)) * h.z));
        }
        let target = Target::Body {
            index: b,
            pose: Pose::identity(),
        };
        let (mut excluded, mut seam, mut spans) = (0usize, 0usize, 0usize);
        for (i, qw) in qs.iter().enumerate() {
            let r = closest_point(&scene, &target, *qw).unwrap_or_else(|e| panic!("{file} point {i}: {e}"));
            let d = r.distance.abs();
            let q = pose.inverse_transform_point(qw);
            for (k, cell) in geom.cells.iter().enumerate() {
                if let Item::Edge(e) = cell.item {
                    // an edge span excluded towards an interior breakpoint
                    let r = &cell.rect;
                    if box_dist2(&cell.lo, &cell.hi, &q).sqrt() >= d || !geom.cell_cones[k].excludes(r, &q) {
                        continue;
                    }
                    spans += 1;
                    let (m, ..) = solve_edge(geom, &cfg, e, r[0], r[1], 0.5 * (r[0] + r[1]), &q);
                    assert!(
                        m >= d - 1e-9 * (1.0 + d),
                        "{file} point {i} {qw:?}: excluded span {k} (edge {e}, {r:?}) holds {m}, the answer is {d}"
                    );
                    continue;
                }
                let Item::Piece(p) = cell.item else { continue };
                if box_dist2(&cell.lo, &cell.hi, &q).sqrt() >= d || !geom.cell_cones[k].excludes(&cell.rect, &q) {
                    continue;
                }
                excluded += 1;
                seam += usize::from(by_seam_only(&geom.cell_cones[k], &cell.rect, &q));
                let rc = &cell.rect;
                let centre = [0.5 * (rc[0] + rc[1]), 0.5 * (rc[2] + rc[3])];
                let (m, _, x, ..) = solve_piece(geom, &cfg, p, rc, centre, &q);
                assert!(
                    m >= d - 1e-9 * (1.0 + d) || !geom.piece_keeps(p, x[0], x[1]),
                    "{file} point {i} {qw:?}: excluded cell {k} (piece {p}, {rc:?}) holds {m} at {x:?}, the answer is {d}"
                );
            }
        }
        let per = excluded as f64 / qs.len() as f64;
        let per_seam = seam as f64 / qs.len() as f64;
        eprintln!(
            "{file}: {} queries, {per:.2} excluded cells per query ({per_seam:.2} towards a seam only), {:.2} edge spans",
            qs.len(),
            spans as f64 / qs.len() as f64
        );
        assert!(
            per >= least,
            "{file}: {per} excluded cells per query, expected at least {least}"
        );
        assert!(
            per_seam >= least_seam,
            "{file}: {per_seam} cells per query excluded towards a seam, expected at least {least_seam}"
        );
    }
}
