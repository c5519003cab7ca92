//! Body–body runtime: the minimum distance (or the local maximum
//! penetration) between two moving scene bodies, every update (PG-2002,
//! PG-2004 §III–V, PG-2005 §IV–V, NJC-1999 §3.5–3.6).
//!
//! Everything is computed in body A's frame, where B moves with the relative
//! pose `T = pose_A⁻¹ · pose_B` and the relative twist. A *feature pair* is a
//! pair of items (piece, edge or trim curve of each body); its witness
//! parameters are `x = (u, v, r, s)`, a curve using only its first
//! parameter (the second is locked, so one 4-parameter controller of the
//! tracking core serves piece–piece, piece–edge and edge–edge pairs; a vertex
//! is an edge witness saturated at the edge's end).
//!
//! Each update:
//! 1. the *active pair* is tracked by the patch–patch controller (hybrid
//!    law with the motion feed-forward `b` from both twists), followed by
//!    the Lin–Canny switches of each side: a witness saturated on a seam
//!    moves into the neighbouring piece, one on a crease side onto the edge,
//!    an edge witness at an end onto the vertex's other edges and pieces;
//!    each switch must not increase the distance;
//! 2. when both bodies are convex solids and the pair is *settled* (two
//!    converged interior piece witnesses, each in the other's outer
//!    half-space), the local answer is the global one (Lin–Canny) and the
//!    update ends;
//! 3. otherwise the pair far phase ([`PairFar`]) searches both BVHs for a
//!    closer pair, starting from the tracked distance, and takes over when
//!    one exists. Its *front* (the frontier of the bounding-volume test
//!    tree where the last search stopped) keeps each entry's lower bound as
//!    a key `bound + S`, with `S` the accumulated bound on how far any point
//!    of B moved relative to A, so coherent updates revisit only entries
//!    whose decayed bound is below the tracked distance, warm-started.
//!
//! **Penetration.** When two solids interpenetrate, the minimum of `|f − h|`
//! is zero along the intersection curve; what a haptic host needs is a
//! maximum-penetration pair, which satisfies `Ψ = 0` (the two witnesses'
//! normals anti-parallel). There can be several; the answer is the one
//! defined in `formats/motion.md` as a function of the pose only: seeded
//! from the deepest sampled boundary point of either body inside the other
//! (point–body queries) and converged by the feedback-linearised law
//! `ẋ = M⁻¹(−KΨ − b)` (which follows a critical point of either kind, where
//! gradient descent would slide into the intersection curve: NJC-1999
//! Fig. 2), else that seed pair itself. An update in or at contact is
//! therefore a cold query (the far phase stops at the first pair within the
//! contact tolerance), so the tracked answer equals the cold one.

//! One concept per file:
//! - [`candidate`]: the feature pair and its witnesses ([`PairCandidate`]);
//! - [`relative`]: B's pose and twist in A's frame, box and hull bounds;
//! - [`items`], [`classes`], [`hulls`]: per-item boxes, item classes
//!   (unimodal, affine), control-point hulls;
//! - [`item_eval`] and [`solve`]: evaluating items and solving a pair of them
//!   (the 4-parameter patch–patch controller);
//! - [`far`]: the pair far phase over both BVHs ([`PairFar`]);
//! - [`dominated`] and [`ties`]: item pairs bounded by the tracked pair;
//! - [`switching`]: the Lin–Canny feature switches of the tracked pair;
//! - [`certify`] and [`loose_edges`]: Lin–Canny's normal-cone exit on convex
//!   solids and the edges it does not cover;
//! - [`convexity`]: the convex-solid test;
//! - [`penetration`]: the interpenetration seed and containment;
//! - [`result`]: the world-frame answer ([`BodyPairResult`]).

mod candidate;
mod certify;
mod classes;
mod convexity;
mod dominated;
mod far;
mod hulls;
mod item_eval;
mod items;
internal! {
    mod kept;
}
mod loose_edges;
mod penetration;
mod relative;
mod result;
mod seeds;
mod solve;
mod switching;
mod ties;

pub use candidate::PairCandidate;
pub use convexity::convex_solid;
pub use far::{FarCounts, PairFar};
pub use result::BodyPairResult;

use certify::Incident;
use classes::unimodal_class;
use dominated::Dominated;
use far::{Ctx, PairSkip};
use item_eval::{evaluate, item_domain, keeps};
use items::ItemBoxes;
use loose_edges::LooseEdges;
use seeds::SeedBounds;
use penetration::{contained, inside_pair};
use relative::{rotation_angle_bound, Rel};
use solve::{pair_cell_config, side, solve_pair, solve_pair_coherent, SideRef};
use switching::REFUSED_RETRY;
use ties::Ties;

use super::body::{BodyError, BodyGeom, Item, TrackScene};
use super::config::{Mode, TrackError, TrackerConfig};
use super::core::feed_forward_rate;
use super::far::{cell_config, FarState};
use super::motion::BodyState;
use super::point_body::body_pose;
use crate::geom::{Pose, Vec3};
use crate::scene::data::BodyKind;
use nalgebra::{Matrix3, Vector4};

/// What [`BodyPairTracker::step`] leaves for the answer besides the active
/// pair: the bodies, A's placed pose and this update's counters.
struct Step<'s> {
    a: &'s BodyGeom,
    b: &'s BodyGeom,
    pose_a: Pose,
    iterations: u32,
    switches: u32,
    cells_solved: u32,
}

/// Tracks the minimum distance (or the local maximum penetration) between
/// two scene bodies, coherently from update to update; the first update
/// (and the first after [`reset`](Self::reset)) is a cold start. The two
/// bodies may come from one scene or from two. Sized at creation: coherent
/// updates allocate nothing. One tracker belongs to one thread at a time;
/// the scenes may be shared.
#[derive(Debug, Clone)]
pub struct BodyPairTracker {
    /// Settings of the low-level controller.
    pub cfg: TrackerConfig,
    body_a: u32,
    body_b: u32,
    sized: [usize; 4],
    boxes_a: ItemBoxes,
    boxes_b: ItemBoxes,
    convex: bool,
    /// Each body is a convex solid ([`convex_solid`]; [`Ties`]' rows);
    /// `None` until known (B's is sampled at the first coherent update when
    /// A is not convex, so that a cold query does not pay for it).
    convex_ab: [Option<bool>; 2],
    solid: bool,
    radius_b: f64,
    centre_b: Vec3,
    scale: f64,
    far: PairFar,
    probe_a: FarState,
    probe_b: FarState,
    /// Pieces incident to the last witnesses (Lin–Canny's cone test).
    incident: [Incident; 2],
    active: Option<PairCandidate>,
    penetrating: bool,
    x_ff: Vector4<f64>,
    /// Per piece of A / of B, the items on its patch ([`Dominated`]), filled
    /// when the piece is first part of a settled tracked pair.
    dom_a: Vec<Option<Dominated>>,
    dom_b: Vec<Option<Dominated>>,
    /// The parameter acceleration of the tracked pair, by differences of the
    /// feed-forward rates of consecutive updates (zero when not known): the
    /// warm start is extrapolated to second order, so a coherent step is
    /// short enough to be accepted after one evaluation.
    x_acc: Vector4<f64>,
    /// `x_ff` belongs to the tracked pair of the previous update.
    ff_valid: bool,
    last: Option<(Matrix3<f64>, Vec3)>,
    /// The tracked pair and modes whose side switches were all refused on
    /// the last update, and the updates it has skipped them since.
    refused: Option<((Item, Item, Mode, Mode), u32)>,
    /// The edges of A and of B that stray from their faces ([`LooseEdges`]),
    /// computed at the first Lin–Canny exit.
    loose: Option<Box<[LooseEdges; 2]>>,
    /// Kept depth bounds of the penetration seeds (B's cell centres, then A's;
    /// then the 4×4 grids of B's cells, then of A's).
    seeds: SeedBounds,
    /// The last penetration probe's work ([`Self::penetration_work`]).
    pen_work: [u32; 5],
}

impl BodyPairTracker {
    /// A tracker between body `body_a` of `scene_a` and body `body_b` of `scene_b`.
    pub fn new(
        scene_a: &TrackScene,
        body_a: u32,
        scene_b: &TrackScene,
        body_b: u32,
        cfg: TrackerConfig,
    ) -> Result<Self, BodyError> {
        cfg.validate()?;
        let (a, b) = (scene_a.body(body_a)?, scene_b.body(body_b)?);
        if a.pieces.is_empty() {
            return Err(BodyError::EmptyBody(body_a));
        }
        if b.pieces.is_empty() {
            return Err(BodyError::EmptyBody(body_b));
        }
        // B's box centre (body-local) and the radius of its box about it
        let centre_b = (b.lo + b.hi) * 0.5;
        let radius_b = 0.5 * (b.hi - b.lo).norm();
        let ca = convex_solid(a);
        let convex_ab = [Some(ca), ca.then(|| convex_solid(b))];
        Ok(Self {
            cfg,
            body_a,
            body_b,
            sized: [a.nodes.len(), a.cells.len(), b.nodes.len(), b.cells.len()],
            boxes_a: ItemBoxes::new(a),
            boxes_b: ItemBoxes::new(b),
            convex: convex_ab[0] == Some(true) && convex_ab[1] == Some(true),
            convex_ab,
            solid: a.kind == BodyKind::Solid && b.kind == BodyKind::Solid,
            radius_b,
            centre_b,
            scale: 1.0 + (a.hi - a.lo).norm().max((b.hi - b.lo).norm()),
            far: PairFar::new(a, b),
            probe_a: FarState::new(a),
            incident: [Incident::NONE; 2],
            probe_b: FarState::new(b),
            active: None,
            penetrating: false,
            x_ff: Vector4::zeros(),
            dom_a: vec![None; a.pieces.len()],
            dom_b: vec![None; b.pieces.len()],
            x_acc: Vector4::zeros(),
            ff_valid: false,
            last: None,
            refused: None,
            loose: None,
            seeds: SeedBounds::new(17 * (a.cells.len() + b.cells.len())),
            pen_work: [0; 5],
        })
    }

    /// The tracked bodies `(a, b)`.
    pub fn bodies(&self) -> (u32, u32) {
        (self.body_a, self.body_b)
    }

    /// Both bodies are convex solids (see `convex_solid`): a settled
    /// feature pair is then the global answer and the far phase is skipped.
    pub fn convex(&self) -> bool {
        self.convex
    }

    /// The active feature pair (A's frame), `None` before the first update.
    pub fn active(&self) -> Option<PairCandidate> {
        self.active
    }

    /// Entries of the far phase's front.
    pub fn front_len(&self) -> usize {
        self.far.front_len()
    }

    /// Warm-data slots of the far phase's front entries in use (at most
    /// [`BodyPairTracker::front_len`]).
    pub fn warm_slots(&self) -> usize {
        self.far.warm_slots()
    }

    /// Work counters of the last update's far-phase search (all zero when
    /// the update made none).
    pub fn far_counts(&self) -> FarCounts {
        self.far.counts
    }

    /// Counts one penetration test ([`FarCounts::probes`]); always true.
    fn count_probe(&mut self) -> bool {
        self.far.counts.probes += 1;
        true
    }

    /// Forgets all history: the next update is a cold start.
    pub fn reset(&mut self) {
        self.restart();
        self.seeds.forget();
    }

    /// Forgets the history that a coherent update starts from (the next
    /// update is a cold query), but keeps the penetration seeds' depth
    /// bounds ([`SeedBounds`]): they hold at any pose, and only spare the
    /// probe the cell centres that cannot be its seed.
    fn restart(&mut self) {
        self.far.forget();
        self.active = None;
        self.penetrating = false;
        self.x_ff = Vector4::zeros();
        self.x_acc = Vector4::zeros();
        self.ff_valid = false;
        self.incident = [Incident::NONE; 2];
        self.last = None;
        self.refused = None;
    }

    /// The last update's penetration probe work (all zero without a probe):
    /// controller iterations of the seed queries (cell centres), of the
    /// rings and grid, of the depth ascent, of the law; and the cell
    /// centres not queried because their kept depth bound could not beat
    /// the deepest one (`SeedBounds`).
    pub fn penetration_work(&self) -> [u32; 5] {
        self.pen_work
    }

    /// Changes the controller settings (validated), keeping the history.
    pub fn set_config(&mut self, cfg: TrackerConfig) -> Result<(), BodyError> {
        cfg.validate()?;
        self.cfg = cfg;
        Ok(())
    }

    fn bodies_of<'s>(
        &self,
        scene_a: &'s TrackScene,
        scene_b: &'s TrackScene,
    ) -> Result<(&'s BodyGeom, &'s BodyGeom), BodyError> {
        let (a, b) = (scene_a.body(self.body_a)?, scene_b.body(self.body_b)?);
        if self.sized != [a.nodes.len(), a.cells.len(), b.nodes.len(), b.cells.len()] {
            // a tracker must be used with the scenes it was made for
            return Err(BodyError::UnknownBody {
                body: self.body_a,
                count: scene_a.bodies.len(),
            });
        }
        Ok((a, b))
    }

    /// One update. `state_a` / `state_b` are the bodies' poses (composed with
    /// their scene placements: identity poses leave them where their scenes
    /// put them) and twists; `dt` the time since the previous update.
    pub fn update(
        &mut self,
        scene_a: &TrackScene,
        state_a: &BodyState,
        scene_b: &TrackScene,
        state_b: &BodyState,
        dt: f64,
    ) -> Result<BodyPairResult, BodyError> {
        self.update_map(scene_a, state_a, scene_b, state_b, dt, |r| r)
    }

    /// [`update`](Self::update) handing the answer to `emit` as it is built,
    /// so that a caller converting it (the C ABI writes its own struct in
    /// place) makes no copy of the whole result. On error `emit` is not called.
    #[inline(always)]
    pub fn update_map<R>(
        &mut self,
        scene_a: &TrackScene,
        state_a: &BodyState,
        scene_b: &TrackScene,
        state_b: &BodyState,
        dt: f64,
        emit: impl FnOnce(BodyPairResult) -> R,
    ) -> Result<R, BodyError> {
        let s = self.step(scene_a, state_a, scene_b, state_b, dt)?;
        let Some(best) = self.active else {
            // unreachable: `step` leaves the answer's pair active
            return Err(BodyError::EmptyBody(self.body_a));
        };
        Ok(emit(self.result(
            s.a,
            s.b,
            &s.pose_a,
            &best,
            self.penetrating,
            s.iterations,
            s.switches,
            s.cells_solved,
        )))
    }

    /// The work of one update: leaves the answer's pair in `self.active` and
    /// its penetration flag in `self.penetrating`, and returns the rest of
    /// what the answer is made of. An update in or at contact is a cold
    /// query at its pose (the penetration pair is a function of the pose,
    /// `formats/motion.md`: the tracked answer is the cold one): after a
    /// penetrating update the history is dropped, and a coherent update that
    /// ends in contact or penetration is made again from scratch.
    fn step<'s>(
        &mut self,
        scene_a: &'s TrackScene,
        state_a: &BodyState,
        scene_b: &'s TrackScene,
        state_b: &BodyState,
        dt: f64,
    ) -> Result<Step<'s>, BodyError> {
        if self.penetrating {
            self.restart();
        }
        let coherent = self.active.is_some();
        let s = self.step_once(scene_a, state_a, scene_b, state_b, dt)?;
        let contact = self.active.is_some_and(|c| c.d <= 1e-9 * self.scale);
        if coherent && self.solid && (self.penetrating || contact) {
            self.restart();
            let mut cold = self.step_once(scene_a, state_a, scene_b, state_b, dt)?;
            cold.iterations += s.iterations;
            cold.switches += s.switches;
            cold.cells_solved += s.cells_solved;
            return Ok(cold);
        }
        Ok(s)
    }

    /// One update from the tracker's history (none: a cold query).
    fn step_once<'s>(
        &mut self,
        scene_a: &'s TrackScene,
        state_a: &BodyState,
        scene_b: &'s TrackScene,
        state_b: &BodyState,
        dt: f64,
    ) -> Result<Step<'s>, BodyError> {
        state_a.validate()?;
        state_b.validate()?;
        if !(dt.is_finite() && dt >= 0.0) {
            return Err(TrackError::NonFinite("dt").into());
        }
        let (a, b) = self.bodies_of(scene_a, scene_b)?;
        self.far.counts = FarCounts::default();
        let pose_a = body_pose(a, &state_a.pose);
        let pose_b = body_pose(b, &state_b.pose);
        let rel = Rel::new(&pose_a, &pose_b, &state_a.twist, &state_b.twist);
        // any point p = c + e of B (c its box centre, |e| ≤ r) moved in A's
        // frame by at most the displacement of c plus θ·r (θ the rotation angle)
        let moved = self.last.map_or(f64::INFINITY, |(r0, t0)| {
            let dr = rel.frame.r * r0.transpose();
            let c = &self.centre_b;
            ((rel.frame.r * c + rel.frame.t) - (r0 * c + t0)).norm() + rotation_angle_bound(&dr) * self.radius_b
        });
        if moved.is_finite() {
            self.far.advance(moved);
        }
        self.last = Some((rel.frame.r, rel.frame.t));
        let mut iterations = 0u32;
        let mut switches = 0u32;
        let mut cells_solved = 0u32;
        let tol = 1e-12 * self.scale;

        // 1. the active pair (never penetrating: `step` drops the history of a
        // penetrating update)
        let mut best = PairCandidate::NONE;
        // the Lin–Canny test of `best`, when already made
        let mut certified: Option<bool> = None;
        if let Some(prev) = self.active {
            let cfg = self.cfg;
            let mut x0 = prev.x;
            if cfg.feed_forward {
                for (i, xi) in x0.iter_mut().enumerate() {
                    *xi += (self.x_ff[i] + 0.5 * self.x_acc[i] * dt) * dt;
                }
            }
            let s = solve_pair_coherent(
                &cfg,
                SideRef {
                    body: a,
                    item: prev.ia,
                    rect: item_domain(a, prev.ia),
                },
                SideRef {
                    body: b,
                    item: prev.ib,
                    rect: item_domain(b, prev.ib),
                },
                &rel,
                x0,
            );
            iterations += s.iterations;
            let ff = s
                .feed_forward
                .unwrap_or_else(|| feed_forward_rate(&cfg, &s.loc, &Vector4::from(s.cand.x), &s.lo, &s.hi));
            self.x_acc = if self.ff_valid && dt > 0.0 && s.cand.converged {
                (ff - self.x_ff) / dt
            } else {
                Vector4::zeros()
            };
            self.x_ff = ff;
            self.ff_valid = s.cand.converged;
            best = s.cand;
            if !best.converged {
                // after a jump, or near contact where the Hessian is positive
                // definite only by O(d): finish with the far phase's settings
                let r = solve_pair(
                    &pair_cell_config(&self.cfg),
                    side(a, prev.ia),
                    side(b, prev.ib),
                    &rel,
                    best.x,
                );
                iterations += r.iterations;
                if r.cand.d <= best.d || r.cand.converged {
                    best = r.cand;
                }
            }
            // a switch refused on the last update (a saturated witness whose
            // neighbours were all farther) is not tried again while the pair
            // passes the Lin–Canny test, which proves it global whatever the
            // neighbours (retried every `REFUSED_RETRY` updates)
            let key = (best.ia, best.ib, best.mode_a, best.mode_b);
            if self.convex
                && best.converged
                && self.refused.is_some_and(|(k, n)| k == key && n < REFUSED_RETRY)
                && self.certified(a, b, &rel, &best, tol, &mut iterations)
            {
                certified = Some(true);
                if let Some((_, n)) = &mut self.refused {
                    *n += 1;
                }
            }
            if certified.is_none() {
                best = self.switch_sides(a, b, &rel, best, &mut switches, &mut iterations);
                let stayed = (best.ia, best.ib) == (key.0, key.1);
                let saturated = best.mode_a != Mode::Interior || best.mode_b != Mode::Interior;
                self.refused = (stayed && saturated).then_some(((best.ia, best.ib, best.mode_a, best.mode_b), 0));
                if (best.ia, best.ib) != (prev.ia, prev.ib) {
                    // the rates belong to the pair that was left
                    self.x_ff = Vector4::zeros();
                    self.x_acc = Vector4::zeros();
                    self.ff_valid = false;
                }
            }
            if !(keeps(a, best.ia, best.x[0], best.x[1]) && keeps(b, best.ib, best.x[2], best.x[3])) {
                // the tracked witness left a trimmed face: the previous
                // witnesses are still points of the two bodies, so their
                // distance at the new pose bounds the far phase from above
                best = PairCandidate {
                    converged: false,
                    ..evaluate(a, b, &rel, &prev)
                };
                certified = None;
            }
        }

        // 2. contact and penetration are decided after the global search (4.)
        let cfg_probe = cell_config(&self.cfg);
        let solid = self.solid;
        let inside = |c: &PairCandidate| solid && c.d > tol && c.d.is_finite() && inside_pair(a, b, &rel, c);

        // 3. global: Lin–Canny for convex pairs, the far phase otherwise
        let tracked = best.d.is_finite().then_some((best.ia, best.ib));
        let settled = best.converged
            && best.mode_a == Mode::Interior
            && best.mode_b == Mode::Interior
            && matches!((best.ia, best.ib), (Item::Piece(_), Item::Piece(_)))
            && best.facing()
            && best.d > tol;
        // Lin–Canny: on two convex solids a pair that is locally closest on
        // both boundaries is the global answer; a curve witness (edge or
        // trim curve) must be in its Voronoi region (no adjacent piece
        // closer to the other witness)
        let lin_canny = match certified {
            Some(c) => c,
            None => self.certified(a, b, &rel, &best, tol, &mut iterations),
        };
        if !lin_canny {
            // a converged pair of unimodal items (an edge, or a piece witness
            // on its border, too) that proves its own minimum over the whole
            // items (as a far-phase solve would): the far phase bounds that
            // item pair by the tracked distance instead of solving it again
            let proven = |ia: Item, ib: Item| {
                let (xa, xb) = (self.boxes_a.index(ia), self.boxes_b.index(ib));
                best.converged
                    && best.d > tol
                    && ((self.boxes_a.affine[xa] && self.boxes_b.affine[xb])
                        || (self.boxes_a.unimodal[xa] && self.boxes_b.unimodal[xb] && best.facing()))
            };
            let skip = tracked.and_then(|(ia, ib)| {
                if settled && unimodal_class(a, ia) && unimodal_class(b, ib) {
                    Some(PairSkip::Items(ia, ib))
                } else if proven(ia, ib) {
                    Some(PairSkip::Proven(ia, ib))
                } else if best.converged {
                    Some(PairSkip::Basin(ia, ib, best.x))
                } else {
                    // an unconverged pair proves nothing about its cells
                    None
                }
            });
            if let Some(PairSkip::Items(Item::Piece(pa), Item::Piece(pb))) = skip {
                // computed once per piece (a few projections), then kept
                let (pa, pb) = (pa as usize, pb as usize);
                if self.dom_a.get(pa).is_some_and(Option::is_none) {
                    self.dom_a[pa] = Some(Dominated::of(a, &self.boxes_a, pa as u32, self.scale));
                }
                if self.dom_b.get(pb).is_some_and(Option::is_none) {
                    self.dom_b[pb] = Some(Dominated::of(b, &self.boxes_b, pb as u32, self.scale));
                }
            }
            let dom = match skip {
                Some(PairSkip::Items(Item::Piece(pa), Item::Piece(pb))) => {
                    match (self.dom_a.get(pa as usize), self.dom_b.get(pb as usize)) {
                        (Some(Some(da)), Some(Some(db))) => Some((da, db)),
                        _ => None,
                    }
                }
                _ => None,
            };
            if self.convex_ab[1].is_none() && self.far.searches() > 0 {
                self.convex_ab[1] = Some(convex_solid(b));
            }
            let ties = match skip {
                Some(PairSkip::Proven(..) | PairSkip::Items(..)) => self.ties(a, b, &rel, &best),
                _ => Ties::NONE,
            };
            let ctx = Ctx {
                a,
                b,
                boxes_a: &self.boxes_a,
                boxes_b: &self.boxes_b,
                rel: &rel,
                contact: 1e-9 * self.scale,
                point: 1e-9 * self.scale,
                cfg: pair_cell_config(&self.cfg),
                skip,
                dom,
                ties: &ties,
            };
            self.far.search(&ctx, &mut best);
            iterations += self.far.iterations;
            cells_solved = self.far.solved;
        }
        if !best.d.is_finite() {
            return Err(BodyError::EmptyBody(self.body_a));
        }
        if tracked != Some((best.ia, best.ib)) {
            if tracked.is_some() {
                switches += 1;
            }
            self.x_ff = Vector4::zeros();
            self.x_acc = Vector4::zeros();
            self.ff_valid = false;
        }

        // 4. contact: touching, or interpenetrating (seed the penetration pair)
        let mut penetrating = false;
        self.pen_work = [0; 5];
        if self.solid {
            if best.d <= 1e-9 * self.scale {
                self.far.counts.probes += 1;
                if let Some(p) = self.probe_penetration(a, b, &rel, &best, &mut iterations) {
                    best = p;
                    penetrating = true;
                }
            } else if !lin_canny
                && inside(&best)
                && self.count_probe() && contained(a, b, &rel, &best, &mut self.probe_a, &mut self.probe_b, &cfg_probe)
            {
                // (a Lin–Canny exit proved a separating plane: no containment)
                // one body inside the other without touching
                penetrating = true;
            }
        }
        self.penetrating = penetrating;
        self.active = Some(best);
        Ok(Step {
            a,
            b,
            pose_a,
            iterations,
            switches,
            cells_solved,
        })
    }
}

/// Minimum distance (or penetration) between body `body_a` of `scene_a` at
/// `pose_a` and body `body_b` of `scene_b` at `pose_b`, from scratch (the
/// same search a tracker's first update makes). Poses compose with the
/// bodies' scene placements.
pub fn body_distance(
    scene_a: &TrackScene,
    body_a: u32,
    pose_a: &Pose,
    scene_b: &TrackScene,
    body_b: u32,
    pose_b: &Pose,
) -> Result<BodyPairResult, BodyError> {
    let mut t = BodyPairTracker::new(scene_a, body_a, scene_b, body_b, TrackerConfig::default())?;
    t.update(scene_a, &BodyState::at(*pose_a), scene_b, &BodyState::at(*pose_b), 0.0)
}
