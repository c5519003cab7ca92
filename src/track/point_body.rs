//! Point–body runtime: the closest point of a scene body to a moving point,
//! globally, every update (PG-2004 §V, PG-2005 §IV–V, PG-GUAS §II.C–D,
//! NJC-1999 §3–4).
//!
//! Each update first tracks the *active feature* with the low-level
//! controller of the tracking core (a piece with the point–patch tracker,
//! an edge with the point–curve tracker, a vertex by its position) and
//! applies the Lin–Canny switches the precomputed Voronoi data gives
//! directly: a witness saturated on a seam moves into the neighbouring
//! piece (parameters mapped through the face rectangle), one saturated on a
//! side that is a crease moves onto that edge (1-D tracking along it), an
//! edge witness at an end moves onto the vertex there. Each switch must
//! lower the distance or keep it. Then the far phase ([`FarState`]) checks
//! globally, starting from the tracked distance, and takes over when some
//! other cell is closer (a far-phase switch, e.g. across a medial axis when
//! the point is inside, or to another part of a non-convex body).
//!
//! A point inside a solid gets its closest boundary point (penetration
//! depth = −signed distance). The sign comes from the outward normal at a
//! piece witness, the edge pseudo-normal (sum of the two adjacent normals)
//! at an edge, and the vertex normal-cone axis at a vertex.

use super::body::{BodyError, BodyGeom, Item, TrackScene};
use super::config::{ControlLaw, Mode, TrackError, TrackerConfig};
use super::curves::PointCurveTracker;
use super::batch_order::hilbert_order;
use super::cold::cold_search_below;
use super::far::{
    cell_config, cold_search, solve_edge, solve_piece, solve_trim, trim_start, Candidate, FarState, Skip,
};
use super::motion::{BodyState, PointState};
use super::point_patch::PointPatchTracker;
use super::orient::orient;
use super::status::AnswerStatus;
use crate::geom::{CurveEval, Pose, Vec3};
use crate::scene::data::{BodyKind, Boundary, ConvexityClass, FeatureRef, NONE};

/// The answer of one point–body update (world coordinates).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointBodyResult {
    /// Body index in the scene.
    pub body: u32,
    /// Distance to the body's boundary, mm.
    pub distance: f64,
    /// Positive outside, negative inside; `None` for open shells and loose faces.
    pub signed_distance: Option<f64>,
    /// Closest boundary point, world.
    pub point: Vec3,
    /// Outward unit normal at the closest point, world (for edges and
    /// vertices the direction from the closest point towards an outside query).
    pub normal: Vec3,
    /// Active feature (absolute scene indices).
    pub feature: FeatureRef,
    /// Source face entity id of the piece (for edges and vertices: of an adjacent piece; 0 if none).
    pub face: u64,
    /// Absolute piece index ([`NONE`] when no piece is adjacent).
    pub piece: u32,
    /// Witness parameters: piece `(u, v)` in `[0,1]²`, edge `(t, 0)`, vertex `(0, 0)`.
    pub params: [f64; 2],
    /// Controller mode of the active feature.
    pub mode: Mode,
    /// Controller iterations in this update (tracking plus far phase).
    pub iterations: u32,
    /// Feature switches in this update.
    pub switches: u32,
    /// Far-phase cells solved in this update.
    pub cells_solved: u32,
    /// How far the answer can be trusted: the self-check of its face and
    /// body ([`AnswerStatus::UNKNOWN`] when the scene carries no self-check).
    pub status: AnswerStatus,
}

/// The status of an answer on candidate `c`: its piece's entry of the body's
/// table (an edge: both adjacent pieces'; a trim curve: its piece's), and
/// [`AnswerStatus::UNCONVERGED`] when the solve that found `c` did not
/// converge. Table lookups only.
#[inline]
pub fn status_of(body: &BodyGeom, c: &Candidate) -> AnswerStatus {
    face_status(body, c).converged(c.proven())
}

/// The self-check part of [`status_of`].
#[inline]
fn face_status(body: &BodyGeom, c: &Candidate) -> AnswerStatus {
    let t = &body.status;
    match c.item {
        Item::Piece(k) => t.local(k),
        Item::Edge(k) => match body.edges.get(k as usize) {
            Some(e) => match e.pieces {
                [NONE, NONE] => t.local(NONE),
                [a, NONE] | [NONE, a] => t.local(a),
                [a, b] => t.local(a) | t.local(b),
            },
            None => t.local(NONE),
        },
        Item::Trim(k) => t.local(body.trims.get(k as usize).map_or(NONE, |tr| tr.piece)),
    }
}

/// The pose of the body's geometry: the given pose composed with the body's scene placement.
#[inline]
pub fn body_pose(body: &BodyGeom, pose: &Pose) -> Pose {
    Pose {
        iso: pose.iso * body.placement.iso,
    }
}

fn check_dt(dt: f64) -> Result<(), BodyError> {
    if dt.is_finite() && dt >= 0.0 {
        Ok(())
    } else {
        Err(TrackError::NonFinite("dt").into())
    }
}

/// Builds the world result of a body-local candidate.
fn result(body_index: u32, body: &BodyGeom, pose: &Pose, c: &Candidate, q: &Vec3) -> PointBodyResult {
    let o = orient(body, c, q);
    let signed = (body.kind == BodyKind::Solid).then(|| if o.inside { -c.d } else { c.d });
    PointBodyResult {
        body: body_index,
        distance: c.d,
        signed_distance: signed,
        point: pose.transform_point(&c.point),
        normal: pose.transform_vector(&o.normal),
        feature: o.feature,
        face: o.face,
        piece: o.piece,
        params: o.params,
        mode: c.mode,
        iterations: 0,
        switches: 0,
        cells_solved: 0,
        status: status_of(body, c),
    }
}

/// Tracks the closest point of one scene body to a moving point, coherently
/// from update to update; the first update (and the first after
/// [`reset`](Self::reset)) is a cold start. Holds per-body far-phase memory
/// sized at creation: updates allocate nothing. One tracker belongs to one
/// thread at a time; the [`TrackScene`] may be shared.
#[derive(Debug, Clone)]
pub struct PointBodyTracker {
    /// Settings of the low-level controller.
    pub cfg: TrackerConfig,
    body: u32,
    far: FarState,
    active: Option<Candidate>,
    patch: PointPatchTracker,
    curve: PointCurveTracker,
    last_q: Option<Vec3>,
}

impl PointBodyTracker {
    /// A tracker for body `body` of `scene`.
    pub fn new(scene: &TrackScene, body: u32, cfg: TrackerConfig) -> Result<Self, BodyError> {
        cfg.validate()?;
        let b = scene.body(body)?;
        if b.pieces.is_empty() {
            return Err(BodyError::EmptyBody(body));
        }
        Ok(Self {
            cfg,
            body,
            far: FarState::new(b),
            active: None,
            patch: PointPatchTracker::new(cfg, [0.5, 0.5])?,
            curve: PointCurveTracker::new(cfg, 0.0)?,
            last_q: None,
        })
    }

    /// The tracked body.
    pub fn body(&self) -> u32 {
        self.body
    }

    /// Forgets all history: the next update is a cold start.
    pub fn reset(&mut self, scene: &TrackScene) -> Result<(), BodyError> {
        let b = scene.body(self.body)?;
        self.far.reset(b);
        self.active = None;
        self.last_q = None;
        Ok(())
    }

    /// Changes the controller settings (validated), keeping the history.
    pub fn set_config(&mut self, cfg: TrackerConfig) -> Result<(), BodyError> {
        cfg.validate()?;
        self.cfg = cfg;
        self.patch.cfg = cfg;
        self.curve.cfg = cfg;
        Ok(())
    }

    /// One update: `point` is the query (world position and velocity),
    /// `body_state` the body's pose (composed with its scene placement: the
    /// identity pose leaves the body where the scene put it) and twist, `dt`
    /// the time since the previous update.
    pub fn update(
        &mut self,
        scene: &TrackScene,
        point: &PointState,
        body_state: &BodyState,
        dt: f64,
    ) -> Result<PointBodyResult, BodyError> {
        self.update_impl(scene, point, body_state, dt, true)
    }

    /// One update that follows the active feature and its Voronoi neighbours
    /// only (no far phase): the answer is the local closest point, which is
    /// what a haptic proxy must keep while the device pushes through a thin
    /// wall. The first update (no active feature yet) is still global.
    pub fn update_local(
        &mut self,
        scene: &TrackScene,
        point: &PointState,
        body_state: &BodyState,
        dt: f64,
    ) -> Result<PointBodyResult, BodyError> {
        self.update_impl(scene, point, body_state, dt, false)
    }

    fn update_impl(
        &mut self,
        scene: &TrackScene,
        point: &PointState,
        body_state: &BodyState,
        dt: f64,
        global: bool,
    ) -> Result<PointBodyResult, BodyError> {
        point.validate()?;
        body_state.validate()?;
        check_dt(dt)?;
        let body = scene.body(self.body)?;
        if self.far_len_mismatch(body) {
            return Err(BodyError::UnknownBody {
                body: self.body,
                count: scene.bodies.len(),
            });
        }
        let pose = body_pose(body, &body_state.pose);
        let q = pose.inverse_transform_point(&point.q);
        let rel = point.q_dot - body_state.twist.velocity_at(&point.q);
        let q_dot = pose.inverse_transform_vector(&rel);
        let moved = self.last_q.map_or(f64::INFINITY, |last| (q - last).norm());
        if moved.is_finite() {
            self.far.advance(moved);
        }
        self.last_q = Some(q);
        let mut switches = 0u32;
        let mut iterations = 0u32;
        let previous = self.active;
        let mut best = match previous {
            Some(a) => self.track_active(body, &a, &q, &q_dot, dt, &mut switches, &mut iterations),
            None => Candidate::NONE,
        };
        let tracked_item = (best.d.is_finite()).then_some(best.item);
        let tracked_x = best.x;
        // the tracked item is left to the tracker: whole when it is unimodal
        // for the distance, else the witness's basin
        // what the tracker answered for is left out of the far phase: a whole
        // planar or convex piece seen from outside at a converged interior
        // witness (unimodal), else only the cell holding a converged interior
        // witness; a witness saturated on a side proves nothing
        let settled = best.converged && best.mode == Mode::Interior;
        let skip = tracked_item.filter(|_| settled).map(|it| match it {
            Item::Piece(k)
                if matches!(
                    body.pieces[k as usize].class,
                    ConvexityClass::Planar | ConvexityClass::Convex
                ) && best.normal.dot(&(q - best.point)) >= 0.0 =>
            {
                Skip::Item(it)
            }
            _ => Skip::Basin(it, best.x),
        });
        // the first update and a jump across the body take the BVH best
        // first, as the cold query does (the depth-first search would solve
        // the first leaves' cells while its best answer is still far off);
        // the far phase's keys stay valid, decayed, lower bounds
        let fresh = match previous {
            None => self.far.best_first,
            Some(a) => global && self.far.is_jump(body, moved, a.d),
        };
        if fresh {
            let (solved, iters) = cold_search(body, &self.cfg, &q, &mut best);
            self.far.note_cold(solved, iters);
            iterations += iters;
        } else if global || !best.d.is_finite() {
            self.far.search(body, &self.cfg, &q, skip, &mut best);
            iterations += self.far.iterations;
        } else {
            self.far.solved = 0;
        }
        if !best.d.is_finite() {
            return Err(BodyError::EmptyBody(self.body));
        }
        if tracked_item != Some(best.item) {
            // the far phase found a closer feature: restart the low-level tracker there
            if previous.is_some() {
                switches += 1;
            }
            self.restart_at(&best);
        } else if best.x != tracked_x {
            // a closer point of the tracked item (another basin of it, or the
            // minimum beside a saddle the tracker stopped at): from there
            self.restart_at(&best);
        }
        self.active = Some(best);
        let mut r = result(self.body, body, &pose, &best, &q);
        r.iterations = iterations;
        r.switches = switches;
        r.cells_solved = self.far.solved;
        Ok(r)
    }

    /// The far phase's memory and the counts of its last search (development probes).
    #[cfg(feature = "reference")]
    pub fn far_state(&self) -> &FarState {
        &self.far
    }

    /// The far phase's memory, mutable (development probes: its settings).
    #[cfg(feature = "reference")]
    pub fn far_state_mut(&mut self) -> &mut FarState {
        &mut self.far
    }

    fn far_len_mismatch(&self, body: &BodyGeom) -> bool {
        // a tracker must be used with the scene it was made for
        self.far.sized_for() != (body.wide.nodes.len(), body.cells.len())
    }

    fn restart_at(&mut self, c: &Candidate) {
        match c.item {
            Item::Piece(_) => self.patch.reset(c.x),
            Item::Edge(_) | Item::Trim(_) => self.curve.reset(c.x[0]),
        }
    }

    /// Tracks the active feature and applies the local Voronoi switches.
    #[allow(clippy::too_many_arguments)]
    fn track_active(
        &mut self,
        body: &BodyGeom,
        a: &Candidate,
        q: &Vec3,
        q_dot: &Vec3,
        dt: f64,
        switches: &mut u32,
        iterations: &mut u32,
    ) -> Candidate {
        let cell_cfg = cell_config(&self.cfg);
        match a.item {
            Item::Piece(k) => {
                let surf = &body.pieces[k as usize].surface;
                let Ok(w) = self.patch.solve(surf, q, q_dot, dt) else {
                    return Candidate::NONE;
                };
                *iterations += w.iterations;
                let mut c = Candidate {
                    d: w.distance,
                    point: w.point,
                    item: a.item,
                    x: w.uv,
                    mode: w.mode,
                    converged: w.converged,
                    normal: if body.pieces[k as usize].reversed {
                        -w.normal
                    } else {
                        w.normal
                    },
                    open: f64::INFINITY,
                };
                // seams and creases on the sides: Lin–Canny switches
                for _ in 0..4 {
                    let Item::Piece(k) = c.item else { break };
                    let Some(next) = self.side_switch(body, &cell_cfg, k, &c, q, iterations) else {
                        break;
                    };
                    *switches += 1;
                    self.restart_at(&next);
                    c = next;
                    if matches!(c.item, Item::Edge(_)) {
                        break;
                    }
                }
                if let Item::Piece(k) = c.item {
                    if !body.piece_keeps(k, c.x[0], c.x[1]) {
                        // left the trimmed face: the far phase finds the edge
                        return Candidate::NONE;
                    }
                }
                c
            }
            Item::Edge(k) => {
                let curve = &body.edges[k as usize].curve;
                let st = PointState { q: *q, q_dot: *q_dot };
                let Ok(w) = self.curve.update(curve, &st, &BodyState::default(), dt) else {
                    return Candidate::NONE;
                };
                *iterations += w.iterations;
                Candidate {
                    d: w.distance,
                    point: w.point,
                    item: a.item,
                    x: [w.t, 0.0],
                    mode: w.mode,
                    converged: w.converged,
                    normal: Vec3::zeros(),
                    open: f64::INFINITY,
                }
            }
            Item::Trim(k) => {
                // from the far phase's start for the curve (`trim_start`), not
                // the last witness: the curve is one cell whose minimum the
                // far phase, skipping it, takes from here (the body's samples
                // of the curve: 17 distances, no evaluation)
                let s0 = trim_start(body, k, q);
                let (d, point, s, mode, it, converged) = solve_trim(body, &cell_cfg, k, s0, q);
                *iterations += it;
                Candidate {
                    d,
                    point,
                    item: a.item,
                    x: [s, 0.0],
                    mode,
                    converged,
                    normal: Vec3::zeros(),
                    open: f64::INFINITY,
                }
            }
        }
    }

    /// The switch out of piece `k` when its witness is saturated on a side
    /// with a neighbour: into the adjacent piece across a seam, or onto the
    /// crease edge along the side. `None` when the witness stays.
    fn side_switch(
        &self,
        body: &BodyGeom,
        cfg: &TrackerConfig,
        k: u32,
        c: &Candidate,
        q: &Vec3,
        iterations: &mut u32,
    ) -> Option<Candidate> {
        let sides: [Option<Boundary>; 2] = match c.mode {
            Mode::Interior => return None,
            Mode::U0 => [Some(Boundary::U0), None],
            Mode::U1 => [Some(Boundary::U1), None],
            Mode::V0 => [Some(Boundary::V0), None],
            Mode::V1 => [Some(Boundary::V1), None],
            Mode::Corner => [
                Some(if c.x[0] <= 0.0 { Boundary::U0 } else { Boundary::U1 }),
                Some(if c.x[1] <= 0.0 { Boundary::V0 } else { Boundary::V1 }),
            ],
        };
        let piece = &body.pieces[k as usize];
        let tol = 1e-12 * (1.0 + c.d);
        let mut best: Option<Candidate> = None;
        for side in sides.into_iter().flatten() {
            for &(b, f) in &piece.adjacency {
                if b != side {
                    continue;
                }
                let cand = match f {
                    FeatureRef::Piece(n) if (n as usize) < body.pieces.len() => {
                        let other = &body.pieces[n as usize];
                        let (u, v) = (
                            piece.domain[0] + c.x[0] * (piece.domain[1] - piece.domain[0]),
                            piece.domain[2] + c.x[1] * (piece.domain[3] - piece.domain[2]),
                        );
                        let map = |x: f64, a: f64, b: f64| {
                            if b > a {
                                ((x - a) / (b - a)).clamp(0.0, 1.0)
                            } else {
                                0.5
                            }
                        };
                        let x0 = [
                            map(u, other.domain[0], other.domain[1]),
                            map(v, other.domain[2], other.domain[3]),
                        ];
                        let (d, point, x, mode, it, converged, normal) =
                            solve_piece(body, cfg, n, &[0.0, 1.0, 0.0, 1.0], x0, q);
                        *iterations += it;
                        // (the trim test last: only a witness that would be taken needs it)
                        let wins = d <= c.d + tol && best.map_or(true, |b: Candidate| d < b.d);
                        if !wins || !body.piece_keeps(n, x[0], x[1]) {
                            continue;
                        }
                        Candidate {
                            d,
                            point,
                            item: Item::Piece(n),
                            x,
                            mode,
                            converged,
                            normal,
                            open: f64::INFINITY,
                        }
                    }
                    FeatureRef::Edge(e) if (e as usize) < body.edges.len() => {
                        let curve = &body.edges[e as usize].spans;
                        let (t0, t1) = curve.domain();
                        // start at the curve point nearest the witness among a few samples
                        let t_start = (0..=8)
                            .map(|i| t0 + (t1 - t0) * i as f64 / 8.0)
                            .min_by(|&a, &b| {
                                let da = (curve.eval(a) - c.point).norm_squared();
                                let db = (curve.eval(b) - c.point).norm_squared();
                                da.total_cmp(&db)
                            })
                            .unwrap_or(t0);
                        let (d, point, t, mode, it, converged) = solve_edge(body, cfg, e, t0, t1, t_start, q);
                        *iterations += it;
                        Candidate {
                            d,
                            point,
                            item: Item::Edge(e),
                            x: [t, 0.0],
                            mode,
                            converged,
                            normal: Vec3::zeros(),
                            open: f64::INFINITY,
                        }
                    }
                    _ => continue,
                };
                if cand.d <= c.d + tol && best.map_or(true, |b| cand.d < b.d) {
                    best = Some(cand);
                }
            }
        }
        // a seam neighbour must actually move the witness off the shared side
        best.filter(|b| b.d < c.d - tol || matches!(b.item, Item::Edge(_)) || b.mode == Mode::Interior)
    }
}

/// Where a query looks: one body at a pose, or every body of the scene.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target {
    /// Body `index` with `pose` composed with its scene placement.
    Body {
        /// Body index.
        index: u32,
        /// Pose (identity = the scene placement).
        pose: Pose,
    },
    /// Every body at its scene placement, composed with `pose`. The answer
    /// is the nearest body's; the point counts as inside when it is inside
    /// any solid.
    All {
        /// Pose of the whole scene.
        pose: Pose,
    },
}

fn query_body(
    scene: &TrackScene,
    index: u32,
    pose: &Pose,
    q: &Vec3,
    cfg: &TrackerConfig,
    seed: Option<&mut Option<Vec3>>,
) -> Result<PointBodyResult, BodyError> {
    let body = scene.body(index)?;
    if body.pieces.is_empty() {
        return Err(BodyError::EmptyBody(index));
    }
    let pose = body_pose(body, pose);
    let ql = pose.inverse_transform_point(q);
    // the cold far phase needs no memory: nothing to allocate or reset per query
    let (mut solved, mut iterations) = (0, 0);
    // a batch's previous witness on this body bounds the answer from above
    // (inflated by 1e-9: a tie with it would find nothing below the ceiling)
    let seeded = seed.as_deref().copied().flatten().and_then(|w| {
        let ceiling = (ql - w).norm() * (1.0 + 1e-9);
        let (c, s, i) = cold_search_below(body, cfg, &ql, ceiling);
        solved += s;
        iterations += i;
        c
    });
    let best = seeded.unwrap_or_else(|| {
        let mut best = Candidate::NONE;
        let (s, i) = cold_search(body, cfg, &ql, &mut best);
        solved += s;
        iterations += i;
        best
    });
    if !best.d.is_finite() {
        return Err(BodyError::EmptyBody(index));
    }
    if let Some(seed) = seed {
        *seed = Some(best.point);
    }
    let mut r = result(index, body, &pose, &best, &ql);
    r.iterations = iterations;
    r.cells_solved = solved;
    Ok(r)
}

/// Closest point of a body (or of the whole scene) to `q`, from scratch
/// (the same search a tracker's first update makes).
pub fn closest_point(scene: &TrackScene, target: &Target, q: Vec3) -> Result<PointBodyResult, BodyError> {
    closest_point_with(scene, target, q, &TrackerConfig::default(), &mut [])
}

fn closest_point_with(
    scene: &TrackScene,
    target: &Target,
    q: Vec3,
    cfg: &TrackerConfig,
    seeds: &mut [Option<Vec3>],
) -> Result<PointBodyResult, BodyError> {
    PointState::at(q).validate()?;
    let cfg = TrackerConfig {
        law: ControlLaw::Hybrid,
        ..*cfg
    };
    match target {
        Target::Body { index, pose } => {
            BodyState::at(*pose).validate()?;
            query_body(scene, *index, pose, &q, &cfg, seeds.first_mut())
        }
        Target::All { pose } => {
            BodyState::at(*pose).validate()?;
            let mut best: Option<PointBodyResult> = None;
            let mut inside_any = false;
            let mut shell = AnswerStatus::UNKNOWN;
            let mut any_solid = false;
            for (i, b) in scene.bodies.iter().enumerate() {
                if b.pieces.is_empty() {
                    continue;
                }
                let solid = b.kind == BodyKind::Solid;
                any_solid |= solid;
                // a body whose box is farther than the best answer and does not hold q cannot matter
                let ql = body_pose(b, pose).inverse_transform_point(&q);
                let outside_box = (0..3).any(|k| ql[k] < b.lo[k] || ql[k] > b.hi[k]);
                if let Some(r) = &best {
                    let lb = super::body::box_dist2(&b.lo, &b.hi, &ql).sqrt();
                    if lb >= r.distance && (outside_box || !solid) {
                        continue;
                    }
                }
                let r = query_body(scene, i as u32, pose, &q, &cfg, seeds.get_mut(i))?;
                inside_any |= r.signed_distance.is_some_and(|s| s < 0.0);
                // the sign comes from every solid asked: any incomplete shell makes it unreliable
                shell.0 |= r.status.0 & AnswerStatus::SHELL_INCOMPLETE;
                if best.as_ref().map_or(true, |b| r.distance < b.distance) {
                    best = Some(r);
                }
            }
            let mut r = best.ok_or(BodyError::EmptyBody(0))?;
            r.status |= shell;
            r.signed_distance = any_solid.then_some(if inside_any { -r.distance } else { r.distance });
            if inside_any && r.signed_distance.is_some() && r.normal.dot(&(q - r.point)) > 0.0 {
                r.normal = -r.normal;
            }
            Ok(r)
        }
    }
}

/// Closest points for many independent query points, in parallel with
/// rayon; results in input order, each equal to [`closest_point`]'s answer
/// for its point (only the work counters `iterations` and `cells_solved`
/// differ).
///
/// The points are taken along a Hilbert curve over their bounding box
/// (`batch_order`), split into contiguous runs per task, and each query of
/// a run starts its cold search under the distance from its point to the
/// previous answer's witness on the same body (`cold_search_below`), which
/// prunes the BVH walk and the cell solves; when nothing below that ceiling
/// is found, the plain cold search answers. One allocation per run, none
/// per point.
pub fn closest_points(scene: &TrackScene, target: &Target, qs: &[Vec3]) -> Vec<Result<PointBodyResult, BodyError>> {
    closest_points_with(scene, target, qs, &TrackerConfig::default())
}

/// [`closest_points`] with the controller settings `cfg` (the hybrid law
/// whatever `cfg.law`; the CLI's `--tol`, `--step-tol`, `--max-iters`).
pub(crate) fn closest_points_with(
    scene: &TrackScene,
    target: &Target,
    qs: &[Vec3],
    cfg: &TrackerConfig,
) -> Vec<Result<PointBodyResult, BodyError>> {
    use rayon::prelude::*;
    let cfg = *cfg;
    let order = hilbert_order(qs);
    // a few runs per thread balance the load; each run's first point is cold
    let runs = 4 * rayon::current_num_threads().max(1);
    let run = qs.len().div_ceil(runs).max(64);
    let slots = match target {
        Target::Body { .. } => 1,
        Target::All { .. } => scene.bodies.len(),
    };
    let answered: Vec<Result<PointBodyResult, BodyError>> = order
        .par_chunks(run)
        .flat_map_iter(|ids| {
            let mut seeds = vec![None; slots];
            ids.iter()
                .map(move |&i| closest_point_with(scene, target, qs[i as usize], &cfg, &mut seeds))
        })
        .collect();
    // back to input order (a scatter: the answers are large to sort)
    let mut out: Vec<Option<Result<PointBodyResult, BodyError>>> = Vec::with_capacity(qs.len());
    out.resize_with(qs.len(), || None);
    for (&i, r) in order.iter().zip(answered) {
        out[i as usize] = Some(r);
    }
    // `order` is a permutation: every slot is filled (a cold query otherwise)
    out.into_iter()
        .zip(qs)
        .map(|(r, q)| r.unwrap_or_else(|| closest_point_with(scene, target, *q, &cfg, &mut [])))
        .collect()
}
