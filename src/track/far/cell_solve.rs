//! A far-phase cell's solve ([`solve_cell`]): its bound ([`cell_bound`]),
//! the warm-started solve restricted to the cell's rectangle (span for
//! edges) with its floor and pole certificates, and the tests of a witness
//! held on a side or inside a cell that decide a restart from the centre.

use super::*;

/// How near a piece's side (in parameter units) a cell witness counts as
/// held on it: a warm start of dtmb5415_bow sat at `u = 1 − 2e-16`.
pub(super) const SIDE: f64 = 1e-9;

/// Whether the warm-started solve of cell `c` (from `x0` to `x`, distance
/// `d`, new bound `bound`) may have kept a second minimum hidden, so that
/// the cell is solved again from its centre (the cold query's start): the
/// cell is a piece's and not unimodal (`bound < d`), the best answer is on
/// an edge, both the start and the end are on the piece's side (a witness
/// held on that edge), and the end ties with the best answer (it re-found
/// the tracked edge's point, so a lower minimum inside the cell would
/// change the answer). dtmb5415_bow point 520: a saddle cell beside the
/// tracked edge held at 1.907 mm while its interior minimum is 1.800 mm.
/// Restarting every cell held on a side doubled p99 instructions on
/// nist_144 and bladex; this guard costs +1.6 % median, +0 % p99 there.
#[inline]
pub(super) fn held_on_side(body: &BodyGeom, c: u32, x0: &[f64; 2], x: &[f64; 2], bound: f64, d: f64, best: &Candidate) -> bool {
    let side = |x: &[f64; 2]| x.iter().any(|&a| !(SIDE..=1.0 - SIDE).contains(&a));
    matches!(body.cells[c as usize].item, Item::Piece(_))
        && matches!(best.item, Item::Edge(_))
        && bound < d
        && side(x0)
        && side(x)
        && d <= best.d * (1.0 + 1e-9) + 1e-12
}

/// Whether the warm-started solve of cell `c` (from `x0` to `x`) may have
/// slid along a side of the cell's rectangle past the cell's minimum, so
/// that the cell is solved again from its centre (the cold query's start):
/// the cell belongs to the piece holding the best answer, and the start
/// and the end lie on the same side of the rectangle, a side inside the
/// piece that does not face the answer's witness (the answer's parameter is
/// not beyond it). The answer across such a side is the usual case (the
/// cell's constrained minimum is the point nearest the answer's basin:
/// nothing is hidden, and restarting those cells raised iterations per
/// update by 25 % on nist_144); a start held on a side turned away from
/// the answer is the case of iges_ansa9_occ131_2 point 284: cell 126's
/// last witness held on its side v = 0.75 slid along it to 2.214 mm while
/// the answer on the same piece, at v = 0.5, and the cell's own minimum
/// (2.042 mm, the cold answer) lay the other way.
#[inline]
pub(super) fn held_inside(body: &BodyGeom, c: u32, x0: &[f64; 2], x: &[f64; 2], best: &Candidate) -> bool {
    let cell = &body.cells[c as usize];
    if !matches!(cell.item, Item::Piece(_)) || cell.item != best.item {
        return false;
    }
    held_away(&cell.rect, x0, x, &best.x)
}

/// Whether `x0` and `x` lie on the same side of the rectangle `r`
/// (`[u0, u1, v0, v1]`), a side inside the piece's `[0,1]²` (not on its
/// border) that does not face `w` (`w` is not on the far side of it).
#[inline]
pub(super) fn held_away(r: &[f64; 4], x0: &[f64; 2], x: &[f64; 2], w: &[f64; 2]) -> bool {
    (0..4).any(|s| {
        let (i, v) = (s / 2, r[s]);
        let faces = if s % 2 == 0 { w[i] <= v } else { w[i] >= v };
        !faces && (SIDE..=1.0 - SIDE).contains(&v) && (x0[i] - v).abs() <= SIDE && (x[i] - v).abs() <= SIDE
    })
}

/// The lower bound of cell `c` for `q`: `Err(bound)` when it is not below
/// `best` (the cell cannot hold a closer point), else `Ok(bound)`. The
/// axis-aligned box first (cheapest), then the cell's oriented box.
#[inline]
pub fn cell_bound(body: &BodyGeom, c: u32, q: &Vec3, best: f64) -> Result<f64, f64> {
    let cell = &body.cells[c as usize];
    let lb = box_dist2(&cell.lo, &cell.hi, q).sqrt();
    if lb >= best {
        return Err(lb);
    }
    let ob = body.cell_boxes.get(c as usize).map_or(0.0, |b| b.dist2(q).sqrt());
    let lb = max_of(lb, ob);
    if lb >= best {
        return Err(lb);
    }
    // the quarters of a piece cell (it lies in their union)
    let Some(qs) = body.cell_quarters.get(c as usize) else {
        return Ok(lb);
    };
    let qb = min_of(min_of(qs[0].dist2(q), qs[1].dist2(q)), min_of(qs[2].dist2(q), qs[3].dist2(q))).sqrt();
    let lb = max_of(lb, qb);
    if lb >= best {
        Err(lb)
    } else {
        Ok(lb)
    }
}

/// What [`solve_cell`] found.
#[derive(Debug, Clone, Copy)]
pub struct CellSolve {
    /// Witness parameters.
    pub x: [f64; 2],
    /// The cell's new lower bound (`lb` on entry; the minimum itself where
    /// the distance is unimodal on the cell).
    pub bound: f64,
    /// Controller iterations.
    pub iters: u32,
    /// Distance of the cell's minimum.
    pub d: f64,
    /// The witness is a [`singular`] point of its piece.
    pub singular: bool,
    /// `d` is the minimum of the whole piece ([`piece_minimum`]).
    pub piece_min: bool,
    /// The controller met its tolerance at the witness.
    pub converged: bool,
    /// The solve stopped (or skipped its re-solves) because the cell's
    /// minimum is proven above the answer it was given ([`cell_floor`]):
    /// `bound` is the proven lower bound, `x` and `d` an iterate.
    pub floor: bool,
}

impl CellSolve {
    /// The solve leaves its cell open: it stopped unconverged (at its
    /// iteration cap, stalled, or at a stationary point that is no minimum)
    /// with no floor proving the cell above the answer, so the cell's
    /// minimum is known only to be at least its bound ([`OpenCells`]).
    #[inline]
    pub fn open(&self) -> bool {
        !self.converged && !self.floor
    }
}

/// Whether a cell solve found the minimum of its whole piece: the distance
/// is unimodal there (a planar or convex piece seen from its outer side at
/// a converged regular witness, `unimodal`) and the witness is a KKT point
/// of the distance on the piece's square that no side of the cell's
/// rectangle inside the piece holds (`free`). The far phase's bound of a
/// unimodal cell (its solved minimum is the minimum over its rectangle)
/// rests on the same property of planar and convex pieces seen from
/// outside, applied here to the rectangle `[0,1]²`; the tracker's
/// `Skip::Item` leaves a whole piece to itself on it. It bounds the piece's
/// other cells by `d` without solving them (issue 27: on bladex the cells
/// beside a convex piece's minimum tie with it, and were each solved again).
#[inline]
pub(super) fn piece_minimum(unimodal: bool, free: bool) -> bool {
    unimodal && free
}

/// Solves cell `c` from `x0` and improves `best` with its minimum (when
/// kept by the trims).
pub fn solve_cell(
    body: &BodyGeom,
    cfg: &TrackerConfig,
    c: u32,
    x0: [f64; 2],
    lb: f64,
    q: &Vec3,
    best: &mut Candidate,
) -> CellSolve {
    let cell = &body.cells[c as usize];
    let zero = Vec3::zeros();
    let d_best = best.d;
    // a lower bound of the cell above `d_best` (`cell_floor`)
    let mut floor: Option<f64> = None;
    let ((d, point, x, mode, iters, conv, normal), singular, free) = match cell.item {
        Item::Piece(p) => {
            // a solve still running after `CHECK_AT` iterations stops when
            // the cell cannot beat the answer (`cell_floor`): its minimum
            // is not needed
            let mut asked = false;
            let mut s = solve_piece_checked(body, cfg, p, &cell.rect, x0, q, CHECK_AT, &mut |loc: &Local<2>| {
                asked = true;
                floor = if loc.dist >= d_best { cell_floor(body, c, q, d_best) } else { None };
                floor.is_some()
            });
            // a singular end that is no minimum of the surface (a side where
            // `f_u` vanishes: a doubled row of poles, a collapsed side): the
            // controller cannot leave it, so the cell is solved again from
            // its quarters' centres (iges_3dipsos320's fan caps), unless the
            // cell cannot beat the answer
            if s.1 && floor.is_none() && !apex_certified(body, c, &s.0 .2, q) {
                if !asked && s.0 .0 >= d_best {
                    floor = cell_floor(body, c, q, d_best);
                }
                if floor.is_none() {
                    let r = &cell.rect;
                    let mut iters = s.0 .4;
                    for (a, b) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                        let x = [r[0] + a * (r[1] - r[0]), r[2] + b * (r[3] - r[2])];
                        let t = solve_piece_checked(body, cfg, p, r, x, q, u32::MAX, &mut |_: &Local<2>| false);
                        iters += t.0 .4;
                        if t.0 .0 < s.0 .0 {
                            s = t;
                        }
                    }
                    s.0 .4 = iters;
                }
            }
            s
        }
        Item::Edge(e) => {
            let (d, point, t, mode, it, conv) = solve_edge(body, cfg, e, cell.rect[0], cell.rect[1], x0[0], q);
            ((d, point, [t, 0.0], mode, it, conv, zero), false, false)
        }
        Item::Trim(t) => {
            // (a trim curve is one cell: its start depends on `q` only, `trim_start`)
            let (d, point, s, mode, it, conv) = solve_trim(body, cfg, t, trim_start(body, t, q), q);
            ((d, point, [s, 0.0], mode, it, conv, zero), false, false)
        }
    };
    // the trim test only where the witness would matter (it is the costly part of a solve)
    // (by the cell's sixteenths where they decide: `BodyGeom::cell_keeps`)
    let keep = |x: &[f64; 2]| body.cell_keeps(c, x[0], x[1]);
    // the solved minimum bounds the cell only where the distance is
    // unimodal on it: a planar or convex piece seen from its outer side at
    // a regular witness (the query then lies on the witness's normal line,
    // outside the convex body: the witness is the body's nearest point);
    // elsewhere (inside the body, concave, saddle, mixed, or a singular
    // witness, where no normal says which side the query is on) the box bound
    let unimodal = match cell.item {
        Item::Piece(p) => {
            let pg = &body.pieces[p as usize];
            conv && !singular
                && matches!(pg.class, ConvexityClass::Planar | ConvexityClass::Convex)
                && normal.dot(&(q - point)) >= 0.0
        }
        Item::Edge(_) | Item::Trim(_) => false,
    };
    // (a converged solve also replaces an unconverged answer it ties with:
    // the tracker's capped update of the same witness, `AnswerStatus::UNCONVERGED`)
    let better = d < best.d || (conv && !best.converged && d <= best.d);
    if better && floor.is_none() && keep(&x) {
        *best = Candidate {
            d,
            point,
            item: cell.item,
            x,
            mode,
            converged: conv,
            normal,
            open: best.open,
        };
    }
    CellSolve {
        x,
        bound: if let Some(f) = floor {
            f.max(lb)
        } else if unimodal {
            d.max(lb)
        } else {
            lb
        },
        iters,
        d,
        singular,
        piece_min: piece_minimum(unimodal, free),
        converged: conv,
        floor: floor.is_some(),
    }
}

/// The cells of an item.
#[inline]
pub fn item_cells(body: &BodyGeom, item: Item) -> std::ops::Range<u32> {
    match item {
        Item::Piece(p) => body.pieces[p as usize].cells.clone(),
        Item::Edge(x) => body.edges[x as usize].cells.clone(),
        Item::Trim(t) => {
            let c = body.trims[t as usize].cell;
            c..c + 1
        }
    }
}

