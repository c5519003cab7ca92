//! The trim test of a witness by its cell's sixteenths (`BodyGeom::cell_keeps`)
//! gives the even-odd test's answer (`BodyGeom::piece_keeps`) at every point
//! of a 33 × 33 grid over every trimmed cell of corpus parts (pump_carter,
//! nist_pmi1, rhino_fusee; the grid holds the sixteenths' sides and the
//! cells' sides), and it decides a share of them by the sixteenths' classes
//! alone (kept and cut away both occur). Skipped with a message when
//! `../shared/fixtures/corpus` is absent.

use crate::common;
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::body::{CellTrim, Item, SubTrim};
use extrack::track::TrackScene;

#[test]
fn cell_keeps_is_piece_keeps_on_the_trimmed_cells_of_corpus_parts() {
    let Some(root) = common::fixtures() else { return };
    let (mut points, mut kept, mut away) = (0usize, 0usize, 0usize);
    for f in [
        "corpus/step_proe2004_pump_carter.stp",
        "corpus/step_nist_pmi1_ap203.stp",
        "corpus/step_rhino_fusee.stp",
    ] {
        let m = extrack::import::import_file(root.join(f)).unwrap();
        let s = TrackScene::from_data(&prepare(&m, &PrepareOptions::default()).unwrap()).unwrap();
        let b = &s.bodies[0];
        for (c, cell) in b.cells.iter().enumerate() {
            let Item::Piece(k) = cell.item else { continue };
            if cell.trim != CellTrim::Partial {
                continue;
            }
            let r = cell.rect;
            for i in 0..=32 {
                for j in 0..=32 {
                    let u = r[0] + (r[1] - r[0]) * i as f64 / 32.0;
                    let v = r[2] + (r[3] - r[2]) * j as f64 / 32.0;
                    let want = b.piece_keeps(k, u, v);
                    assert_eq!(b.cell_keeps(c as u32, u, v), want, "{f} cell {c} at ({u}, {v})");
                    points += 1;
                    let nudge = |x: f64| x + (0.5 - x) * 1e-9;
                    match cell.sixteenths.at(&r, nudge(u), nudge(v)) {
                        Some(SubTrim::Kept) => kept += 1,
                        Some(SubTrim::Away) => away += 1,
                        _ => {}
                    }
                }
            }
        }
    }
    println!("{points} points, {kept} decided kept and {away} cut away by their sixteenth");
    // (2,350,062 points, 946,881 kept and 102,111 cut away when written)
    assert!(kept > points / 10 && away > points / 50, "{points} {kept} {away}");
}
