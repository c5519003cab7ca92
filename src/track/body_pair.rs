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
//! is zero along the intersection curve; what a haptic host needs is the
//! local maximum-penetration pair, which also satisfies `Ψ = 0` (the two
//! witnesses' normals anti-parallel). It is tracked continuously with the
//! feedback-linearised law `ẋ = M⁻¹(−KΨ − b)` (which follows a critical
//! point of either kind, where gradient descent would slide into the
//! intersection curve: NJC-1999 Fig. 2), entered from the exact contact of
//! the separated tracker when the bodies move into each other. A cold start
//! (or a jump) into an interpenetrating configuration seeds the pair from
//! the deepest point of one body's cell centres inside the other (point–body
//! queries) and converges it with the same law. Penetration is a local
//! answer: the far phase is not run while penetrating.

use super::body::{BodyError, BodyGeom, CellTrim, Item, NodeKind, TrackScene};
use super::config::{ControlLaw, Mode, TrackError, TrackerConfig};
use super::core::{
    clamp_box, feed_forward_rate, newton_step, normalized_error, step_length, track_loop, Local, LoopOut, DIST_FLOOR,
};
use super::far::{cell_config, trim_domain, trim_point, Candidate, FarState};
use super::motion::BodyState;
use super::patch_pair::{coherent_step, lock, pair_local, to_world, Frame, PairState};
use super::point_body::{body_pose, feature_of, orient};
use super::point_patch::{mode_of, point_patch_local, taylor};
use crate::geom::{CurvePoint, Pose, SurfacePoint, Twist, Vec3};
use crate::scene::data::{BodyKind, Boundary, ConvexityClass, FeatureRef, NONE};
use nalgebra::{Matrix3, Vector2, Vector4};

/// The answer of one body–body update (world coordinates).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyPairResult {
    /// `|point_b − point_a|`, mm: the separation, or the penetration depth
    /// when [`penetrating`](Self::penetrating).
    pub distance: f64,
    /// `distance` when apart, `−distance` when penetrating.
    pub signed_distance: f64,
    /// The bodies interpenetrate (both must be solids).
    pub penetrating: bool,
    /// Witness on body A, world.
    pub point_a: Vec3,
    /// Witness on body B, world.
    pub point_b: Vec3,
    /// Unit contact normal, world: the direction in which B must move to
    /// increase the separation (A's outward normal at a face contact):
    /// `(point_b − point_a)/distance` when apart, the opposite when penetrating.
    pub normal: Vec3,
    /// Active feature on A (absolute scene indices; an edge witness at an end is its vertex).
    pub feature_a: FeatureRef,
    /// Active feature on B.
    pub feature_b: FeatureRef,
    /// Source face entity id of A's piece (edges: an adjacent piece's; 0 if none).
    pub face_a: u64,
    /// Source face entity id of B's piece.
    pub face_b: u64,
    /// Absolute piece index on A ([`NONE`] when no piece is adjacent).
    pub piece_a: u32,
    /// Absolute piece index on B.
    pub piece_b: u32,
    /// Witness parameters on A: piece `(u, v)` in `[0,1]²`, edge `(t, 0)`, vertex `(0, 0)`.
    pub params_a: [f64; 2],
    /// Witness parameters on B.
    pub params_b: [f64; 2],
    /// Controller mode on A's feature.
    pub mode_a: Mode,
    /// Controller mode on B's feature.
    pub mode_b: Mode,
    /// Controller iterations in this update (tracking, switches, far phase).
    pub iterations: u32,
    /// Feature-pair switches in this update.
    pub switches: u32,
    /// Far-phase cell pairs solved in this update.
    pub cells_solved: u32,
}

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

/// A feature pair and its witnesses, in A's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairCandidate {
    /// `|pb − pa|`.
    pub d: f64,
    /// Witness on A (A's frame).
    pub pa: Vec3,
    /// Witness on B (A's frame).
    pub pb: Vec3,
    /// Item of A.
    pub ia: Item,
    /// Item of B.
    pub ib: Item,
    /// Parameters `(u, v, r, s)` (curves use `u` / `r` only).
    pub x: [f64; 4],
    /// Mode on A's item (w.r.t. the whole item).
    pub mode_a: Mode,
    /// Mode on B's item.
    pub mode_b: Mode,
    /// The controller met its tolerance.
    pub converged: bool,
    /// Outward unit normal of A's piece at `pa` (zero for curves), A's frame.
    pub na: Vec3,
    /// Outward unit normal of B's piece at `pb` (zero for curves), A's frame.
    pub nb: Vec3,
}

impl PairCandidate {
    /// No answer yet.
    pub const NONE: PairCandidate = PairCandidate {
        d: f64::INFINITY,
        pa: Vec3::new(0.0, 0.0, 0.0),
        pb: Vec3::new(0.0, 0.0, 0.0),
        ia: Item::Piece(0),
        ib: Item::Piece(0),
        x: [0.0; 4],
        mode_a: Mode::Interior,
        mode_b: Mode::Interior,
        converged: false,
        na: Vec3::new(0.0, 0.0, 0.0),
        nb: Vec3::new(0.0, 0.0, 0.0),
    };

    /// Both witnesses are converged piece witnesses inside their pieces, each
    /// in the outer half-space of the other's tangent plane: a local minimum
    /// of a unimodal pair (two planar or convex pieces seen from outside).
    fn facing(&self) -> bool {
        let dr = self.pb - self.pa;
        self.na.dot(&dr) >= 0.0 && self.nb.dot(&dr) <= 0.0
    }
}

/// Relative placement of B in A's frame.
#[derive(Debug, Clone, Copy)]
struct Rel {
    frame: Frame,
    /// `|R|` (component-wise), for box bounds.
    abs_r: Matrix3<f64>,
    /// B's motion relative to A, expressed in A's frame.
    state_b: BodyState,
}

impl Rel {
    fn new(pose_a: &Pose, pose_b: &Pose, twist_a: &Twist, twist_b: &Twist) -> Self {
        let t = pose_a.iso.inverse() * pose_b.iso;
        let r = t.rotation.to_rotation_matrix().into_inner();
        let ra = pose_a.iso.rotation;
        let ta = pose_a.iso.translation.vector;
        let dw = twist_b.omega - twist_a.omega;
        let dv = twist_b.v - twist_a.v;
        // a point x of A's frame (world R_A x + t_A) sees B move with
        // R_Aᵀ(Δv + Δω × t_A) + (R_Aᵀ Δω) × x
        let twist = Twist {
            omega: ra.inverse_transform_vector(&dw),
            v: ra.inverse_transform_vector(&(dv + dw.cross(&ta))),
        };
        Self {
            frame: Frame {
                r,
                t: t.translation.vector,
            },
            abs_r: r.abs(),
            state_b: BodyState {
                pose: Pose::identity(),
                twist,
            },
        }
    }

    /// Distance bound between box `[lo_a, hi_a]` of A and box `[lo_b, hi_b]`
    /// of B (B's box mapped into A's frame as the box of its image): the
    /// larger of the gap between the boxes and their gap along the unit
    /// direction `n` (projection onto a line is 1-Lipschitz, so any `n`
    /// gives a valid bound; the direction of the best pair so far makes it
    /// tight near the contact: a slab bound).
    #[inline]
    fn box_bound(&self, lo_a: &Vec3, hi_a: &Vec3, lo_b: &Vec3, hi_b: &Vec3, n: &Vec3) -> f64 {
        let cb = (lo_b + hi_b) * 0.5;
        let eb = (hi_b - lo_b) * 0.5;
        let c = self.frame.r * cb + self.frame.t;
        let e = self.abs_r * eb;
        let ca = (lo_a + hi_a) * 0.5;
        let ea = (hi_a - lo_a) * 0.5;
        let mut s = 0.0;
        let mut slab = n.dot(&(c - ca));
        for k in 0..3 {
            let g = ((c[k] - ca[k]).abs() - ea[k] - e[k]).max(0.0);
            s += g * g;
            slab -= n[k].abs() * (ea[k] + e[k]);
        }
        s.sqrt().max(slab)
    }

    /// Distance bound between an item of A in the hull of `ha` and an item
    /// of B in the hull of `hb` (B's frame): their gap along the unit
    /// direction `n` (A's frame), `min n·B − max n·A`. Along the direction
    /// of the pair's own last witnesses it is the pair's distance for two
    /// planar pieces and stays within second order of it while they move,
    /// where a box bound loses the pieces' tilt. `−∞` without hulls.
    #[inline]
    fn hull_bound(&self, ha: &[Vec3], hb: &[Vec3], n: &Vec3) -> f64 {
        if ha.is_empty() || hb.is_empty() {
            return f64::NEG_INFINITY;
        }
        let nb = self.frame.r.tr_mul(n);
        let max_a = ha.iter().fold(f64::NEG_INFINITY, |m, p| m.max(n.dot(p)));
        let min_b = hb.iter().fold(f64::INFINITY, |m, p| m.min(nb.dot(p)));
        min_b + n.dot(&self.frame.t) - max_a
    }
}

/// Boxes of every item of a body (union of its cells), indexed pieces,
/// then edges, then trim curves.
#[derive(Debug, Clone)]
struct ItemBoxes {
    lo: Vec<Vec3>,
    hi: Vec<Vec3>,
    /// Per item: whether a converged local minimum against another such item,
    /// seen from outside, is the pair's minimum ([`unimodal_item`]).
    unimodal: Vec<bool>,
    /// Per item: whether it is an affine image of its parameter box (a
    /// planar parallelogram patch, a straight edge): between two such items
    /// the squared distance is convex, so any converged minimum is the
    /// pair's, facing or not ([`affine_item`]).
    affine: Vec<bool>,
    /// Per item: a trim curve linked to a B-rep edge of the body. The edge is
    /// the exact curve (a projected trim is only within 1e-8 of the trim's
    /// size of it), so the far phase takes the edge and skips the trim.
    redundant: Vec<bool>,
    /// Per item: the range of `hull` holding its control points (a trim
    /// curve uses its piece's, which contain it); empty when a weight is
    /// not positive (no convex-hull property, no hull bound).
    hull_range: Vec<(u32, u32)>,
    /// Control points of the pieces and edges (body-local, Euclidean): each
    /// item lies in their convex hull.
    hull: Vec<Vec3>,
    /// Per piece: its parallelogram when the piece is affine ([`affine_item`]).
    flat: Vec<Option<Flat>>,
    /// Per edge: when the edge is straight, its unit direction and up to
    /// [`EDGE_FACES`] affine pieces that may have a side along it (the
    /// pieces the edge separates and those whose adjacency names it).
    edge_faces: Vec<Option<(Vec3, [u32; EDGE_FACES])>>,
    edges0: u32,
    trims0: u32,
}

/// Affine pieces remembered per straight edge ([`ItemBoxes::edge_faces`]).
const EDGE_FACES: usize = 4;

/// An affine piece: the parallelogram `o + u·e1 + v·e2`, `(u, v) ∈ [0,1]²`
/// (body-local), with its outward unit normal.
#[derive(Debug, Clone, Copy)]
struct Flat {
    o: Vec3,
    e1: Vec3,
    e2: Vec3,
    n: Vec3,
}

impl Flat {
    /// Whether the parallelogram's own minimum against the other body's
    /// witness is met at `p` to first order: `p` lies on the parallelogram's
    /// border (within `tol`, mm), every parameter at a bound has its
    /// Karush–Kuhn–Tucker sign for moving towards `q` (`w = q − p`: the
    /// distance grows into the parallelogram), a parameter strictly inside
    /// runs along the unit direction `along` (where the caller's witness is
    /// stationary: the tracked edge), and the piece faces `q` (`n·w ≥ 0`).
    fn kkt_at(&self, p: &Vec3, w: &Vec3, along: &Vec3, tol: f64) -> bool {
        let r = p - self.o;
        let (g11, g12, g22) = (self.e1.dot(&self.e1), self.e1.dot(&self.e2), self.e2.dot(&self.e2));
        let det = g11 * g22 - g12 * g12;
        if !(det > 0.0) || self.n.dot(w) < 0.0 {
            return false;
        }
        let (b1, b2) = (self.e1.dot(&r), self.e2.dot(&r));
        let x = [(b1 * g22 - b2 * g12) / det, (b2 * g11 - b1 * g12) / det];
        if (self.o + self.e1 * x[0] + self.e2 * x[1] - p).norm() > tol {
            return false;
        }
        let mut on_border = false;
        for (k, e) in [self.e1, self.e2].iter().enumerate() {
            let t = tol / e.norm();
            let (lo, hi) = (x[k].abs() <= t, (x[k] - 1.0).abs() <= t);
            if lo || hi {
                on_border = true;
                // at u = 0 the distance must not fall as u grows (w·e ≤ 0), at u = 1 as it shrinks
                if (lo && w.dot(e) > 0.0) || (hi && w.dot(e) < 0.0) {
                    return false;
                }
            } else if x[k] < 0.0 || x[k] > 1.0 || e.cross(along).norm() > 1e-9 * e.norm() {
                return false;
            }
        }
        on_border
    }
}

impl ItemBoxes {
    fn new(body: &BodyGeom) -> Self {
        let n = body.pieces.len() + body.edges.len() + body.trims.len();
        let mut lo = vec![Vec3::repeat(f64::INFINITY); n];
        let mut hi = vec![Vec3::repeat(f64::NEG_INFINITY); n];
        let (edges0, trims0) = (body.pieces.len() as u32, (body.pieces.len() + body.edges.len()) as u32);
        let index = |it: Item| match it {
            Item::Piece(k) => k,
            Item::Edge(k) => edges0 + k,
            Item::Trim(k) => trims0 + k,
        };
        for c in &body.cells {
            let i = index(c.item) as usize;
            lo[i] = lo[i].inf(&c.lo);
            hi[i] = hi[i].sup(&c.hi);
        }
        let pieces = (0..body.pieces.len() as u32).map(Item::Piece);
        let edges = (0..body.edges.len() as u32).map(Item::Edge);
        let trims = (0..body.trims.len() as u32).map(Item::Trim);
        let all: Vec<Item> = pieces.chain(edges).chain(trims).collect();
        let unimodal = all.iter().map(|&it| unimodal_item(body, it)).collect();
        let affine: Vec<bool> = all.iter().map(|&it| affine_item(body, it)).collect();
        let (hull_range, hull) = control_hulls(body);
        // pieces come first in `all`: `affine[k]` is piece k's flag
        let flat: Vec<Option<Flat>> = (0..body.pieces.len() as u32)
            .map(|k| if affine[k as usize] { flat_of(body, k) } else { None })
            .collect();
        let edge_faces = (0..body.edges.len() as u32)
            .map(|e| {
                let dir = straight_dir(body, e)?;
                let mut faces = [NONE; EDGE_FACES];
                let mut n = 0;
                let named = body.pieces.iter().enumerate().filter_map(|(k, p)| {
                    p.adjacency
                        .iter()
                        .any(|&(_, f)| f == FeatureRef::Edge(e))
                        .then_some(k as u32)
                });
                for k in body.edges[e as usize].pieces.into_iter().chain(named) {
                    if flat.get(k as usize).is_some_and(Option::is_some) && n < EDGE_FACES && !faces[..n].contains(&k) {
                        faces[n] = k;
                        n += 1;
                    }
                }
                Some((dir, faces))
            })
            .collect();
        let mut boxes = Self {
            lo,
            hi,
            unimodal,
            affine,
            redundant: Vec::new(),
            hull_range,
            hull,
            flat,
            edge_faces,
            edges0,
            trims0,
        };
        boxes.redundant = all
            .iter()
            .map(|&it| matches!(it, Item::Trim(t) if (body.trims[t as usize].edge as usize) < body.edges.len()))
            .collect();
        boxes
    }

    /// The control points whose convex hull holds item `i`.
    #[inline]
    fn hull_of(&self, i: u32) -> &[Vec3] {
        let (s, e) = self.hull_range[i as usize];
        &self.hull[s as usize..e as usize]
    }

    #[inline]
    fn index(&self, it: Item) -> usize {
        (match it {
            Item::Piece(k) => k,
            Item::Edge(k) => self.edges0 + k,
            Item::Trim(k) => self.trims0 + k,
        }) as usize
    }

    #[inline]
    fn item(&self, i: u32) -> Item {
        if i < self.edges0 {
            Item::Piece(i)
        } else if i < self.trims0 {
            Item::Edge(i - self.edges0)
        } else {
            Item::Trim(i - self.trims0)
        }
    }
}

/// The parallelogram of an affine piece (see [`affine_item`]) with its
/// outward normal; `None` when degenerate.
fn flat_of(body: &BodyGeom, k: u32) -> Option<Flat> {
    let s = &body.pieces[k as usize].surface;
    let o = s.eval(0.0, 0.0);
    let (e1, e2) = (s.eval(1.0, 0.0) - o, s.eval(0.0, 1.0) - o);
    let n = body.piece_normal(k, [0.5, 0.5]);
    (n != Vec3::zeros()).then_some(Flat { o, e1, e2, n })
}

/// The unit direction of a straight edge ([`unimodal_item`]), else `None`.
fn straight_dir(body: &BodyGeom, e: u32) -> Option<Vec3> {
    if !unimodal_item(body, Item::Edge(e)) {
        return None;
    }
    let mut pts = euclidean_poles(&body.edges[e as usize].curve.cw)?;
    let first = pts.next()?;
    let d = pts.last()? - first;
    let l = d.norm();
    (l > 0.0).then(|| d / l)
}

/// Euclidean control points of homogeneous poles, `None` when a weight is
/// not positive (the curve or patch then need not lie in their hull).
fn euclidean_poles(cw: &[crate::geom::Hpoint]) -> Option<impl Iterator<Item = Vec3> + '_> {
    cw.iter()
        .all(|p| p[3] > 0.0 && p.iter().all(|c| c.is_finite()))
        .then(|| cw.iter().map(|p| Vec3::new(p[0] / p[3], p[1] / p[3], p[2] / p[3])))
}

/// The control-point hulls of a body's items, indexed like [`ItemBoxes`]:
/// a piece's patch and an edge's curve lie in the convex hull of their
/// control points (positive weights); a trim curve lies on its piece's
/// patch, so its piece's points serve.
fn control_hulls(body: &BodyGeom) -> (Vec<(u32, u32)>, Vec<Vec3>) {
    let mut hull = Vec::new();
    let mut range = Vec::with_capacity(body.pieces.len() + body.edges.len() + body.trims.len());
    let add = |hull: &mut Vec<Vec3>, cw: &[crate::geom::Hpoint]| {
        let s = hull.len() as u32;
        if let Some(pts) = euclidean_poles(cw) {
            hull.extend(pts);
        }
        (s, hull.len() as u32)
    };
    for p in &body.pieces {
        range.push(add(&mut hull, &p.surface.cw));
    }
    for e in &body.edges {
        range.push(add(&mut hull, &e.curve.cw));
    }
    for t in &body.trims {
        range.push(range.get(t.piece as usize).copied().unwrap_or((0, 0)));
    }
    (range, hull)
}

/// Control points of the four quarters of each piece cell's sub-patch
/// (the cell lies in the union of their convex hulls: positive weights; a
/// quarter's net lies about four times closer to the surface than the
/// cell's), made on first use: edge and trim cells, and cells with a
/// non-positive weight, get none.
#[derive(Debug, Clone)]
struct CellHulls {
    /// Per cell: its range of `pts` (`u32::MAX`: not made yet).
    range: Vec<(u32, u32)>,
    pts: Vec<Vec3>,
}

impl CellHulls {
    fn new(body: &BodyGeom) -> Self {
        Self {
            range: vec![(u32::MAX, 0); body.cells.len()],
            pts: Vec::new(),
        }
    }

    /// Cell `c`'s control points (made now when new).
    fn of(&mut self, body: &BodyGeom, c: u32) -> (u32, u32) {
        let r = self.range[c as usize];
        if r.0 != u32::MAX {
            return r;
        }
        let s = self.pts.len();
        let cell = &body.cells[c as usize];
        if let Item::Piece(k) = cell.item {
            let sf = &body.pieces[k as usize].surface;
            let r = cell.rect;
            let (um, vm) = (0.5 * (r[0] + r[1]), 0.5 * (r[2] + r[3]));
            let quarters = [
                [r[0], um, r[2], vm],
                [um, r[1], r[2], vm],
                [r[0], um, vm, r[3]],
                [um, r[1], vm, r[3]],
            ];
            for q in &quarters {
                let sub = super::body::sub_patch(&sf.cw, sf.degree_u, sf.degree_v, q);
                let ok = euclidean_poles(&sub).map(|p| self.pts.extend(p)).is_some();
                if !ok {
                    self.pts.truncate(s);
                    break;
                }
            }
        }
        let r = (s as u32, self.pts.len() as u32);
        self.range[c as usize] = r;
        r
    }

    fn get(&self, r: (u32, u32)) -> &[Vec3] {
        &self.pts[r.0 as usize..r.1 as usize]
    }
}

#[inline]
fn curve_point(c: CurvePoint) -> SurfacePoint {
    let z = Vec3::zeros();
    SurfacePoint {
        p: c.p,
        su: c.d1,
        sv: z,
        suu: c.d2,
        suv: z,
        svv: z,
    }
}

/// Point and derivatives of an item at parameters `(x0, x1)` (curves: `x0`), body-local.
#[inline]
fn eval_item(body: &BodyGeom, item: Item, x0: f64, x1: f64) -> SurfacePoint {
    match item {
        Item::Piece(k) => body.pieces[k as usize].surface.eval_derivs(x0, x1),
        Item::Edge(k) => curve_point(body.edges[k as usize].curve.eval_derivs(x0)),
        Item::Trim(k) => curve_point(trim_point(body, k, x0).0),
    }
}

/// The whole parameter box of an item `[a0, a1, b0, b1]` (curves: `[t0, t1, 0, 0]`).
fn item_domain(body: &BodyGeom, item: Item) -> [f64; 4] {
    match item {
        Item::Piece(_) => [0.0, 1.0, 0.0, 1.0],
        Item::Edge(k) => {
            let (a, b) = body.edges[k as usize].curve.domain();
            [a, b, 0.0, 0.0]
        }
        Item::Trim(k) => {
            let (a, b) = trim_domain(body, k);
            [a, b, 0.0, 0.0]
        }
    }
}

/// Mode of a witness w.r.t. its whole item (not the cell it was solved in).
fn item_mode(item: Item, dom: &[f64; 4], x0: f64, x1: f64, active: [bool; 2]) -> Mode {
    match item {
        Item::Piece(_) => {
            let on = |a: f64| a <= 0.0 || a >= 1.0;
            mode_of(
                &Vector2::new(x0, x1),
                &[active[0] && on(x0), active[1] && on(x1)],
                &Vector2::zeros(),
            )
        }
        Item::Edge(_) | Item::Trim(_) => {
            if x0 <= dom[0] {
                Mode::U0
            } else if x0 >= dom[1] {
                Mode::U1
            } else {
                Mode::Interior
            }
        }
    }
}

/// One side of a pair solve: the body, the item and the parameter box.
#[derive(Clone, Copy)]
struct SideRef<'a> {
    body: &'a BodyGeom,
    item: Item,
    rect: [f64; 4],
}

/// The side of a whole item.
fn side(body: &BodyGeom, item: Item) -> SideRef<'_> {
    SideRef {
        body,
        item,
        rect: item_domain(body, item),
    }
}

/// What a pair solve returns besides the candidate: iterations and local data.
struct PairSolve {
    cand: PairCandidate,
    iterations: u32,
    loc: Local<4>,
    lo: Vector4<f64>,
    hi: Vector4<f64>,
    feed_forward: Option<Vector4<f64>>,
}

/// The settings of the far phase's pair solves: near contact the Hessian
/// of ½|f − h|² is positive definite only by the relative curvature (an
/// eigenvalue of order d), so Newton steps are accepted wherever it is
/// positive definite at all; otherwise the globally convergent law crawls
/// and a cell's answer stays an iterate.
fn pair_cell_config(cfg: &TrackerConfig) -> TrackerConfig {
    TrackerConfig {
        max_iters: 400,
        pd_margin: 1e-9,
        ..cell_config(cfg)
    }
}

/// Solves the feature pair `(a.item, b.item)` within the boxes `a.rect ×
/// b.rect`, started at `x0`, with `cfg`'s law.
fn solve_pair(cfg: &TrackerConfig, a: SideRef, b: SideRef, rel: &Rel, x0: [f64; 4]) -> PairSolve {
    let lo = Vector4::new(a.rect[0], a.rect[2], b.rect[0], b.rect[2]);
    let hi = Vector4::new(a.rect[1], a.rect[3], b.rect[1], b.rect[3]);
    let (ca, cb) = (!matches!(a.item, Item::Piece(_)), !matches!(b.item, Item::Piece(_)));
    let rest = BodyState::default();
    let out = track_loop(
        cfg,
        clamp_box(&Vector4::new(x0[0], x0[1], x0[2], x0[3]), &lo, &hi),
        &lo,
        &hi,
        &mut |x: &Vector4<f64>| PairState {
            a: eval_item(a.body, a.item, x[0], x[1]),
            b: to_world(&eval_item(b.body, b.item, x[2], x[3]), &rel.frame),
        },
        &|st: &PairState| {
            let mut l = pair_local(st, &rest, &rel.state_b);
            if ca {
                lock(&mut l, 1);
            }
            if cb {
                lock(&mut l, 3);
            }
            l
        },
        &|st: &PairState, d: &Vector4<f64>| PairState {
            a: taylor(&st.a, &Vector2::new(d[0], d[1])),
            b: taylor(&st.b, &Vector2::new(d[2], d[3])),
        },
    );
    finish_pair(a, b, rel, lo, hi, out)
}

/// [`solve_pair`] for the tracked pair of a coherent update: under the
/// hybrid law, first one coherent step from `x0` (one evaluation, one
/// Cholesky factor for the step and the next feed-forward; see
/// [`coherent_step`]), for any pair of pieces, edges and trim curves (a
/// curve's unused parameter locked); the general loop runs when it is refused.
fn solve_pair_coherent(cfg: &TrackerConfig, a: SideRef, b: SideRef, rel: &Rel, x0: [f64; 4]) -> PairSolve {
    if cfg.law == ControlLaw::Hybrid {
        let lo = Vector4::new(a.rect[0], a.rect[2], b.rect[0], b.rect[2]);
        let hi = Vector4::new(a.rect[1], a.rect[3], b.rect[1], b.rect[3]);
        let (ca, cb) = (!matches!(a.item, Item::Piece(_)), !matches!(b.item, Item::Piece(_)));
        let locked = [false, ca, false, cb];
        let x = Vector4::new(x0[0], x0[1], x0[2], x0[3]);
        // a witness held on a piece side (its rate there is zero, so the
        // warm start is still exactly on the bound) stays there while the
        // gradient pushes it out
        let mut bound = [false; 4];
        for i in 0..4 {
            bound[i] = !locked[i] && (x[i] == lo[i] || x[i] == hi[i]);
        }
        if (0..4).all(|i| locked[i] || bound[i] || (x[i] > lo[i] && x[i] < hi[i])) {
            let st = PairState {
                a: eval_item(a.body, a.item, x[0], x[1]),
                b: to_world(&eval_item(b.body, b.item, x[2], x[3]), &rel.frame),
            };
            if let Some(c) = coherent_step(
                cfg,
                &st,
                &BodyState::default(),
                &rel.state_b,
                &x,
                &lo,
                &hi,
                locked,
                bound,
            ) {
                let out = LoopOut {
                    x: c.x,
                    state: c.state,
                    loc: c.loc,
                    active: bound,
                    iterations: 1,
                    evaluations: 1,
                    converged: true,
                    left_domain: false,
                    feed_forward: cfg.feed_forward.then_some(c.feed_forward),
                };
                return finish_pair(a, b, rel, lo, hi, out);
            }
        }
    }
    solve_pair(cfg, a, b, rel, x0)
}

/// The candidate of a finished pair solve: witnesses, modes, outward normals.
fn finish_pair(
    a: SideRef,
    b: SideRef,
    rel: &Rel,
    lo: Vector4<f64>,
    hi: Vector4<f64>,
    out: LoopOut<4, PairState>,
) -> PairSolve {
    let x = [out.x[0], out.x[1], out.x[2], out.x[3]];
    let (da, db) = (item_domain(a.body, a.item), item_domain(b.body, b.item));
    let mode_a = item_mode(a.item, &da, x[0], x[1], [out.active[0], out.active[1]]);
    let mode_b = item_mode(b.item, &db, x[2], x[3], [out.active[2], out.active[3]]);
    let (sa, sb) = (&out.state.a, &out.state.b);
    let na = match a.item {
        Item::Piece(k) => a.body.outward_from(k, &sa.su.cross(&sa.sv), [x[0], x[1]]),
        _ => Vec3::zeros(),
    };
    let nb = match b.item {
        Item::Piece(k) => {
            let raw = rel.frame.r.transpose() * sb.su.cross(&sb.sv);
            rel.frame.r * b.body.outward_from(k, &raw, [x[2], x[3]])
        }
        _ => Vec3::zeros(),
    };
    PairSolve {
        cand: PairCandidate {
            d: (sb.p - sa.p).norm(),
            pa: sa.p,
            pb: sb.p,
            ia: a.item,
            ib: b.item,
            x,
            mode_a,
            mode_b,
            converged: out.converged,
            na,
            nb,
        },
        iterations: out.iterations,
        loc: out.loc,
        lo,
        hi,
        feed_forward: out.feed_forward,
    }
}

/// The pieces incident to a witness point and their parameters there, kept
/// between updates so that a coherent update re-projects instead of
/// searching (fixed size: no allocation per update).
#[derive(Debug, Clone, Copy)]
struct Incident {
    item: Option<Item>,
    n: usize,
    at: [(u32, [f64; 2]); 8],
    /// The last change of each projection's parameters: the next update's
    /// projection starts extrapolated by it (so on a smooth path its first
    /// Newton step is short enough to be accepted).
    vel: [[f64; 2]; 8],
}

impl Incident {
    const NONE: Incident = Incident {
        item: None,
        n: 0,
        at: [(0, [0.0; 2]); 8],
        vel: [[0.0; 2]; 8],
    };
}

/// Whether `v` lies in the cone spanned by the unit vectors `ns`, to an
/// angle of 1e-5 (non-negative least squares by cyclic coordinate descent).
/// The slack covers witnesses on projected trim curves (1e-8 of the trim
/// size off the true crease) and the controller's tolerance; a direction
/// that far outside the cone moves the minimum by O(1e-10) of the radius
/// of curvature.
fn in_cone(ns: &[Vec3], v: &Vec3) -> bool {
    let l = v.norm();
    if !(l > 0.0) || ns.is_empty() {
        return false;
    }
    let mut r = v / l;
    if let [n1, n2] = ns {
        // two normals (a crease or a seam): the exact non-negative least
        // squares, from the two-vector and one-vector solutions (the
        // coordinate descent below zigzags when the normals are nearly
        // parallel); near-parallel pairs (ill-conditioned) go on below
        let (a11, a12, a22) = (n1.dot(n1), n1.dot(n2), n2.dot(n2));
        let (b1, b2) = (n1.dot(&r), n2.dot(&r));
        let det = a11 * a22 - a12 * a12;
        if det > 1e-6 * a11 * a22 {
            let (w1, w2) = ((a22 * b1 - a12 * b2) / det, (a11 * b2 - a12 * b1) / det);
            let res = if w1 >= 0.0 && w2 >= 0.0 {
                (r - n1 * w1 - n2 * w2).norm()
            } else {
                let one = |n: &Vec3, b: f64, a: f64| (r - n * (b / a).max(0.0)).norm();
                one(n1, b1, a11).min(one(n2, b2, a22))
            };
            return res <= 1e-5;
        }
    }
    let mut w = [0.0; 8];
    for _ in 0..200 {
        for (i, n) in ns.iter().enumerate() {
            let a = (w[i] + n.dot(&r)).max(0.0);
            r -= n * (a - w[i]);
            w[i] = a;
        }
        if r.norm() <= 1e-5 {
            return true;
        }
    }
    false
}

/// Lin–Canny's local test on a convex solid, as a normal-cone test: the
/// direction `v` from the witness `p` (body-local) to the other body's
/// witness lies in the body's normal cone at `p` (the cone of the outward
/// normals of every face through `p`: one at a piece's interior, two on a
/// crease or seam, all of them at a vertex). When it holds on both bodies,
/// the planes through the witnesses normal to `v` separate two convex
/// bodies, so the pair is the global minimum. The incident pieces are the
/// pieces passing within 1e-6 of the body's size of `p` whose trimmed face
/// holds that point (kept at it or next to it), found by projecting `p`
/// onto the pieces near it; `cache` keeps them for the next update.
#[allow(clippy::too_many_arguments)]
fn cone_ok(
    body: &BodyGeom,
    boxes: &ItemBoxes,
    item: Item,
    mode: Mode,
    x: &[f64; 2],
    n: &Vec3,
    p: &Vec3,
    v: &Vec3,
    scale: f64,
    cache: &mut Incident,
    iterations: &mut u32,
) -> bool {
    if matches!(item, Item::Piece(_)) && mode == Mode::Interior {
        return in_cone(&[*n], v);
    }
    if matches!(item, Item::Trim(_)) {
        // a trim curve without a linked edge may be a projection (within
        // 1e-8 of the trim's size of the true border): its witness is not
        // exact enough to end the search; the far phase decides
        return false;
    }
    let cfg = cell_config(&TrackerConfig::default());
    let tol = 1e-6 * (1.0 + scale);
    let mut ns = [Vec3::zeros(); 8];
    let mut m = 0;
    // re-project onto last update's incident pieces
    if cache.item == Some(item) && cache.n > 0 {
        for i in 0..cache.n {
            let (k, x0) = cache.at[i];
            if item == Item::Piece(k) {
                // the witness's own piece: `p` is its point at `x`, `n` its
                // outward normal there
                cache.vel[i] = [x[0] - x0[0], x[1] - x0[1]];
                cache.at[i].1 = *x;
                ns[m] = *n;
                m += 1;
                continue;
            }
            let v = cache.vel[i];
            let xs = [(x0[0] + v[0]).clamp(0.0, 1.0), (x0[1] + v[1]).clamp(0.0, 1.0)];
            let (dk, xk, nk) = match reproject(body, &cfg, k, xs, p) {
                Some(r) => {
                    *iterations += 1;
                    r
                }
                None => {
                    let (dk, _, xk, _, it, _, nk) =
                        super::far::solve_piece(body, &cfg, k, &[0.0, 1.0, 0.0, 1.0], xs, p);
                    *iterations += it;
                    (dk, xk, nk)
                }
            };
            if dk > tol {
                m = 0;
                break;
            }
            cache.vel[i] = [xk[0] - x0[0], xk[1] - x0[1]];
            cache.at[i].1 = xk;
            ns[m] = nk;
            m += 1;
        }
    }
    if m == 0 {
        cache.item = Some(item);
        cache.n = 0;
        for (k, piece) in body.pieces.iter().enumerate() {
            let i = boxes.index(Item::Piece(k as u32));
            if super::body::box_dist2(&boxes.lo[i], &boxes.hi[i], p) > tol * tol {
                continue;
            }
            let s = &piece.surface;
            let mut x0 = ([0.5, 0.5], f64::INFINITY);
            for a in 0..=4 {
                for b in 0..=4 {
                    let uv = [a as f64 * 0.25, b as f64 * 0.25];
                    let e = (s.eval(uv[0], uv[1]) - p).norm_squared();
                    if e < x0.1 {
                        x0 = (uv, e);
                    }
                }
            }
            let (dk, _, xk, _, it, _, nk) =
                super::far::solve_piece(body, &cfg, k as u32, &[0.0, 1.0, 0.0, 1.0], x0.0, p);
            *iterations += it;
            let h = 1e-7;
            let kept = [[0.0, 0.0], [h, 0.0], [-h, 0.0], [0.0, h], [0.0, -h]]
                .iter()
                .any(|d| body.piece_keeps(k as u32, xk[0] + d[0], xk[1] + d[1]));
            if dk <= tol && kept && m < ns.len() {
                ns[m] = nk;
                cache.at[m] = (k as u32, xk);
                cache.vel[m] = [0.0; 2];
                m += 1;
            }
        }
        cache.n = m;
    }
    in_cone(&ns[..m], v)
}

/// [`super::far::solve_piece`]'s projection of `p` onto piece `k` from
/// `xs` when it ends at its first evaluation (converged there, or a free
/// Newton step shorter than `step_tol` that stays in the piece, answered by
/// second-order Taylor expansion): `(distance, params, outward unit
/// normal)`; `None` otherwise (then the caller runs the full solve). Used
/// where the start is extrapolated along a smooth path, so one evaluation
/// is the rule.
fn reproject(body: &BodyGeom, cfg: &TrackerConfig, k: u32, xs: [f64; 2], p: &Vec3) -> Option<(f64, [f64; 2], Vec3)> {
    let sp = body.pieces[k as usize].surface.eval_derivs(xs[0], xs[1]);
    let loc = point_patch_local(&sp, p, &Vec3::zeros());
    let free = [false; 2];
    let (sp, x) = if normalized_error(&loc, &free, DIST_FLOOR) <= cfg.tol {
        (sp, xs)
    } else {
        let (d, _) = newton_step(cfg, &loc, &free)?;
        let x = [xs[0] + d[0], xs[1] + d[1]];
        if !(x.iter().all(|c| (0.0..=1.0).contains(c)) && step_length(&loc, &d) <= cfg.step_tol) {
            return None;
        }
        (taylor(&sp, &d), x)
    };
    Some(((sp.p - p).norm(), x, body.outward_from(k, &sp.su.cross(&sp.sv), x)))
}

/// How far B-rep edge `e` of `body` strays from the patches of the pieces
/// it borders (a model tolerance: an edge's exact curve and its faces'
/// surfaces agree only to the file's precision, up to a few 1e-6 on some
/// models): twice the largest distance of 17 samples of the edge from the
/// nearest bordering patch, plus what the projections leave (a sampled
/// bound with a factor 2 of margin for the deviation between samples).
fn edge_gap(body: &BodyGeom, e: u32) -> f64 {
    let cfg = cell_config(&TrackerConfig::default());
    let pieces: Vec<u32> = body
        .pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.adjacency.iter().any(|(_, f)| *f == FeatureRef::Edge(e)))
        .map(|(k, _)| k as u32)
        .collect();
    if pieces.is_empty() {
        return 0.0;
    }
    let curve = &body.edges[e as usize].curve;
    let (t0, t1) = curve.domain();
    let n = 16;
    let mut worst = 0.0f64;
    for i in 0..=n {
        let q = curve.eval(t0 + (t1 - t0) * i as f64 / n as f64);
        let mut near = f64::INFINITY;
        for &k in &pieces {
            let s = &body.pieces[k as usize].surface;
            let mut x0 = ([0.5, 0.5], f64::INFINITY);
            for a in 0..=4 {
                for b in 0..=4 {
                    let uv = [a as f64 * 0.25, b as f64 * 0.25];
                    let e2 = (s.eval(uv[0], uv[1]) - q).norm_squared();
                    if e2 < x0.1 {
                        x0 = (uv, e2);
                    }
                }
            }
            let (dk, ..) = super::far::solve_piece(body, &cfg, k, &[0.0, 1.0, 0.0, 1.0], x0.0, &q);
            near = near.min(dk);
        }
        worst = worst.max(near);
    }
    2.0 * worst
}

/// Segments per stray edge in [`LooseEdge`]: a tree of balls over the
/// polyline, `LOOSE_FAN` children per ball (`LOOSE_SEGS = LOOSE_FAN³`).
const LOOSE_FAN: usize = 8;
const LOOSE_SEGS: usize = LOOSE_FAN * LOOSE_FAN * LOOSE_FAN;

/// An edge that strays from its faces ([`edge_gap`]) as a polyline of
/// `LOOSE_SEGS + 1` points at equal parameter steps `h`: the curve lies
/// within `sag = M₂ h² / 8` of its chords (`M₂` twice the largest sampled
/// `|c''|`). `balls[0]` holds the edge's ball, `balls[1]` the balls of
/// `LOOSE_FAN` runs of segments, `balls[2]` those of `LOOSE_FAN²` runs.
#[derive(Debug, Clone)]
struct LooseEdge {
    sag: f64,
    balls: [Vec<(Vec3, f64)>; 3],
    pts: Vec<Vec3>,
}

/// The edges of a body that stray from their faces by more than `1e-12`
/// of `scale` and the largest gap (computed once per body, at the first
/// Lin–Canny exit).
#[derive(Debug, Clone, Default)]
struct LooseEdges {
    edges: Vec<LooseEdge>,
    max: f64,
    /// A ball around every polyline point of every edge.
    centre: Vec3,
    radius: f64,
    /// `(n₀, max over the edges' polyline points x of n₀·x + sag)` for the
    /// last direction `n₀` the test passed with (see [`loose_edge_near_cached`]).
    top: Option<(Vec3, f64)>,
}

impl LooseEdges {
    fn of(body: &BodyGeom, scale: f64) -> Self {
        let mut l = LooseEdges::default();
        for e in 0..body.edges.len() as u32 {
            let gap = edge_gap(body, e);
            if gap <= 1e-12 * scale {
                continue;
            }
            let curve = &body.edges[e as usize].curve;
            let (t0, t1) = curve.domain();
            let h = (t1 - t0) / LOOSE_SEGS as f64;
            let cps: Vec<_> = (0..=LOOSE_SEGS).map(|i| curve.eval_derivs(t0 + h * i as f64)).collect();
            let m2 = 2.0 * cps.iter().map(|c| c.d2.norm()).fold(0.0, f64::max);
            let pts: Vec<Vec3> = cps.iter().map(|c| c.p).collect();
            let level = |runs: usize| -> Vec<(Vec3, f64)> {
                let len = LOOSE_SEGS / runs;
                (0..runs)
                    .map(|g| {
                        let q = &pts[g * len..=(g + 1) * len];
                        let c = q.iter().sum::<Vec3>() / q.len() as f64;
                        (c, q.iter().map(|x| (x - c).norm()).fold(0.0, f64::max))
                    })
                    .collect()
            };
            let balls = [level(1), level(LOOSE_FAN), level(LOOSE_FAN * LOOSE_FAN)];
            l.edges.push(LooseEdge {
                sag: m2 * h * h / 8.0,
                balls,
                pts,
            });
            l.max = l.max.max(gap);
        }
        let all = || l.edges.iter().flat_map(|e| e.pts.iter());
        let count = all().count();
        if count > 0 {
            l.centre = all().sum::<Vec3>() / count as f64;
            l.radius = all().map(|x| (x - l.centre).norm()).fold(0.0, f64::max);
        }
        l
    }

    /// The largest `n·x + sag` over the edges' polyline points `x` (branch
    /// and bound over the balls).
    fn top(&self, n: &Vec3) -> f64 {
        let mut best = f64::NEG_INFINITY;
        for e in &self.edges {
            let above = |(c, r): &(Vec3, f64), best: f64| n.dot(c) + r + e.sag > best;
            if !above(&e.balls[0][0], best) {
                continue;
            }
            for i in 0..LOOSE_FAN {
                if !above(&e.balls[1][i], best) {
                    continue;
                }
                for j in i * LOOSE_FAN..(i + 1) * LOOSE_FAN {
                    if !above(&e.balls[2][j], best) {
                        continue;
                    }
                    for x in &e.pts[j * LOOSE_FAN..=(j + 1) * LOOSE_FAN] {
                        best = best.max(n.dot(x) + e.sag);
                    }
                }
            }
        }
        best
    }
}

/// [`loose_edge_near`] with a certificate kept between updates: with `n₀`
/// and `m₀ = max (n₀·x + sag)` from an update where the test passed, every
/// point has `n·x + sag ≤ m₀ + (n − n₀)·c + |n − n₀| ρ` (`c`, `ρ` the ball
/// around all the points), so when that is at or below the level the test
/// passes without visiting the edges; otherwise the full test runs and, when
/// it passes, `m₀` is recomputed for `n`.
fn loose_edge_near_cached(loose: &mut LooseEdges, p: &Vec3, n: &Vec3, other_gap: f64) -> bool {
    if loose.edges.is_empty() {
        return false;
    }
    let level = n.dot(p) - other_gap;
    if let Some((n0, m0)) = loose.top {
        let dn = n - n0;
        if m0 + dn.dot(&loose.centre) + dn.norm() * loose.radius <= level {
            return false;
        }
    }
    let near = loose_edge_near(loose, p, n, other_gap);
    if !near {
        loose.top = Some((*n, loose.top(n)));
    }
    near
}

/// Whether an edge that strays from its faces ([`edge_gap`]) may hold a
/// point closer to the other body than a Lin–Canny pair with witness `p`
/// (body-local) and unit direction `n` (body-local, from `p` towards the
/// other witness). The exit's separating planes bound the faces, not such
/// an edge: the other body's points `y` (its edges within `other_gap` of
/// its faces) have `n·(y − p) ≥ d − other_gap`, so a point `x` of the edge
/// with `|x − y| < d` has `n·(x − p) > −other_gap`. The edge's balls, then
/// its chords ([`LooseEdge`]), bound `n·x` from above; an edge that stays
/// at or below that level cannot be closer.
fn loose_edge_near(loose: &LooseEdges, p: &Vec3, n: &Vec3, other_gap: f64) -> bool {
    let level = n.dot(p) - other_gap;
    loose.edges.iter().any(|e| {
        let above = |(c, r): &(Vec3, f64)| n.dot(c) + r + e.sag > level;
        above(&e.balls[0][0])
            && (0..LOOSE_FAN).any(|i| {
                above(&e.balls[1][i])
                    && (i * LOOSE_FAN..(i + 1) * LOOSE_FAN).any(|j| {
                        above(&e.balls[2][j])
                            && e.pts[j * LOOSE_FAN..=(j + 1) * LOOSE_FAN]
                                .iter()
                                .any(|x| n.dot(x) + e.sag > level)
                    })
            })
    })
}

/// Whether the trims keep a witness (piece sides only).
#[inline]
fn keeps(body: &BodyGeom, item: Item, x0: f64, x1: f64) -> bool {
    match item {
        Item::Piece(k) => body.piece_keeps(k, x0, x1),
        _ => true,
    }
}

#[inline]
fn unimodal_class(body: &BodyGeom, item: Item) -> bool {
    match item {
        Item::Piece(k) => matches!(
            body.pieces[k as usize].class,
            ConvexityClass::Planar | ConvexityClass::Convex
        ),
        _ => false,
    }
}

/// Whether an item is an affine map of its parameter box: a planar piece
/// whose patch is bilinear with equal weights and a parallelogram of control
/// points (to 1e-12 of its size), or a straight edge (see [`unimodal_item`]:
/// collinear control points in order make the distance along it unimodal).
fn affine_item(body: &BodyGeom, item: Item) -> bool {
    match item {
        Item::Piece(k) => {
            let s = &body.pieces[k as usize].surface;
            if s.degree_u != 1 || s.degree_v != 1 || s.n_u != 2 || s.n_v != 2 || s.cw.len() != 4 {
                return false;
            }
            let w = s.cw[0][3];
            if !(w > 0.0) || s.cw.iter().any(|h| h[3] != w) {
                return false;
            }
            let p = |i: usize| Vec3::new(s.cw[i][0], s.cw[i][1], s.cw[i][2]) / w;
            let size = (p(3) - p(0)).norm() + (p(1) - p(2)).norm();
            // bilinear is affine exactly when P00 + P11 = P10 + P01
            (p(0) + p(3) - p(1) - p(2)).norm() <= 1e-12 * size
        }
        Item::Edge(_) => unimodal_item(body, item),
        Item::Trim(_) => false,
    }
}

/// Whether an item's converged, facing local minimum against another such
/// item is that pair's minimum: planar and convex pieces (PG-2005's nice
/// pieces seen from outside), and straight edges — a segment is a convex
/// set, so the distance from a point running along it to a convex piece
/// seen from outside has one minimum. An edge counts as straight when its
/// control points lie on the chord between its ends (to 1e-12 of its
/// length) in order, so the parameterisation runs monotonically along it.
fn unimodal_item(body: &BodyGeom, item: Item) -> bool {
    match item {
        Item::Piece(_) => unimodal_class(body, item),
        Item::Edge(k) => {
            let cw = &body.edges[k as usize].curve.cw;
            let pt = |h: &crate::geom::Hpoint| Vec3::new(h[0] / h[3], h[1] / h[3], h[2] / h[3]);
            let (Some(first), Some(last)) = (cw.first(), cw.last()) else {
                return false;
            };
            let (p0, p1) = (pt(first), pt(last));
            let chord = p1 - p0;
            let len = chord.norm();
            if !(len > 0.0) || cw.iter().any(|h| !(h[3] > 0.0)) {
                return false;
            }
            let dir = chord / len;
            let mut along = 0.0;
            cw.iter().all(|h| {
                let q = pt(h) - p0;
                let t = q.dot(&dir);
                let ok = (q - dir * t).norm() <= 1e-12 * len && t >= along - 1e-12 * len;
                along = along.max(t);
                ok
            })
        }
        Item::Trim(_) => false,
    }
}

/// What the far phase leaves to the caller's tracker.
#[derive(Debug, Clone, Copy, PartialEq)]
enum PairSkip {
    /// The whole item pair (unimodal: two planar/convex pieces facing each other).
    Items(Item, Item),
    /// The whole item pair (unimodal, its converged minimum proven as in
    /// the far phase's item solves, e.g. a straight edge and a convex piece);
    /// unlike [`PairSkip::Items`], items on the same patches are not skipped.
    Proven(Item, Item),
    /// The cell pair holding the witness parameters.
    Basin(Item, Item, [f64; 4]),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EntryKind {
    Nodes,
    Items,
}

/// One entry of the far-phase front: a node pair or an item pair whose
/// lower bound (as a key `bound + S`) is known. An item pair's bound is the
/// smallest of its cell pairs' bounds (box bounds, or solved minima where
/// the pair is unimodal).
#[derive(Debug, Clone, Copy)]
struct Entry {
    kind: EntryKind,
    a: u32,
    b: u32,
    /// Depth in the test tree (the root pair is 0).
    depth: u32,
    key: f64,
    /// An item pair's warm data (witness, direction, retry count).
    warm: Warm,
}

/// An item pair's warm data.
#[derive(Debug, Clone, Copy)]
struct Warm {
    /// Last witness parameters (NaN: none), the warm start of the next
    /// whole-item solve (extrapolated with `xp`, see [`Warm::start`]).
    x: [f64; 4],
    /// The witness parameters of the two solves before (NaN: none).
    xp: [f64; 4],
    xpp: [f64; 4],
    /// The far-phase searches (`PairFar::searches`) that found `x`, `xp`
    /// and `xpp`.
    t: u32,
    tp: u32,
    tpp: u32,
    /// Last witness direction `(pb − pa)/d` (A's frame; NaN: none), the
    /// direction of the pair's hull bound ([`Rel::hull_bound`]).
    n: Vec3,
    /// Expansions left before a whole-item solve is tried again, after one
    /// proved nothing (a non-facing local minimum): the pair then goes cell
    /// by cell directly instead of repeating a solve that likely lands on the
    /// same witness saturated on a piece side ([`ITEM_RETRY`]).
    wait: u32,
}

/// No warm data.
const WARM_NONE: Warm = Warm {
    x: [f64::NAN; 4],
    xp: [f64::NAN; 4],
    xpp: [f64::NAN; 4],
    t: 0,
    tp: 0,
    tpp: 0,
    n: Vec3::new(f64::NAN, f64::NAN, f64::NAN),
    wait: 0,
};

impl Warm {
    /// The warm start of a whole-item solve in search `now`: the last
    /// witness `x` extrapolated along the parabola through the last three
    /// solves' witnesses (`xpp`, `xp`, `x` at searches `tpp`, `tp`, `t`;
    /// the line through the last two when there are two) when they are
    /// recent, so that a pair re-solved while it moves starts within a
    /// Newton step of its minimum (one evaluation) instead of one update's
    /// motion away from it (two or three). Only a warm start: the solve
    /// decides the answer.
    fn start(&self, now: u32) -> [f64; 4] {
        let age = |t: u32| now.wrapping_sub(t);
        let recent = |x: &[f64; 4], t: u32| !x[0].is_nan() && age(t) <= WARM_SPAN;
        if now == self.t || !recent(&self.xp, self.tp) || age(self.tp) <= age(self.t) {
            return self.x;
        }
        // times relative to `now` (negative: the past)
        let (s0, s1) = (-f64::from(age(self.t)), -f64::from(age(self.tp)));
        let mut x = [0.0; 4];
        if recent(&self.xpp, self.tpp) && age(self.tpp) > age(self.tp) {
            // Lagrange weights at 0 of the nodes s0, s1, s2
            let s2 = -f64::from(age(self.tpp));
            let w0 = s1 * s2 / ((s0 - s1) * (s0 - s2));
            let w1 = s0 * s2 / ((s1 - s0) * (s1 - s2));
            let w2 = s0 * s1 / ((s2 - s0) * (s2 - s1));
            for i in 0..4 {
                x[i] = w0 * self.x[i] + w1 * self.xp[i] + w2 * self.xpp[i];
            }
        } else {
            let f = s0 / (s1 - s0);
            for i in 0..4 {
                x[i] = self.x[i] + f * (self.xp[i] - self.x[i]);
            }
        }
        x
    }
}

/// Searches over which a whole-item witness is extrapolated ([`Warm::start`]).
const WARM_SPAN: u32 = 16;

/// After a whole-item solve of a unimodal pair proves nothing, the pair's
/// next `ITEM_RETRY` expansions go cell by cell without it (the cell pairs
/// are the sound fallback either way: this only saves solves that would
/// prove nothing again).
const ITEM_RETRY: u32 = 8;

/// Updates a refused side switch of a Lin–Canny pair is skipped before it
/// is tried again (`BodyPairTracker::refused`).
const REFUSED_RETRY: u32 = 16;

/// The front's order: a min-heap on the key, so an update visits only the
/// entries whose bound fell below the best distance.
#[derive(Debug, Clone, Copy)]
struct ByKey {
    key: f64,
    slot: u32,
}

impl PartialEq for ByKey {
    fn eq(&self, other: &Self) -> bool {
        self.key.total_cmp(&other.key).is_eq()
    }
}
impl Eq for ByKey {}
impl PartialOrd for ByKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for ByKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // reversed: the smallest key on top of `BinaryHeap` (the key alone,
        // so the heap moves exactly as a heap of whole entries would)
        other.key.total_cmp(&self.key)
    }
}

/// The front: a min-heap of `(key, slot)` over an arena of entries, so a
/// sift moves 16 bytes instead of a whole [`Entry`].
#[derive(Debug, Clone, Default)]
struct Front {
    heap: std::collections::BinaryHeap<ByKey>,
    slots: Vec<Entry>,
    free: Vec<u32>,
}

impl Front {
    fn with_capacity(n: usize) -> Self {
        Self {
            heap: std::collections::BinaryHeap::with_capacity(n),
            slots: Vec::with_capacity(n),
            free: Vec::with_capacity(n),
        }
    }

    fn push(&mut self, e: Entry) {
        let slot = match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = e;
                i
            }
            None => {
                self.slots.push(e);
                (self.slots.len() - 1) as u32
            }
        };
        self.heap.push(ByKey { key: e.key, slot });
    }

    fn peek_key(&self) -> Option<f64> {
        self.heap.peek().map(|k| k.key)
    }

    fn pop(&mut self) -> Option<Entry> {
        let k = self.heap.pop()?;
        self.free.push(k.slot);
        Some(self.slots[k.slot as usize])
    }

    fn len(&self) -> usize {
        self.heap.len()
    }

    fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    fn clear(&mut self) {
        self.heap.clear();
        self.slots.clear();
        self.free.clear();
    }

    fn min_key(&self) -> f64 {
        self.heap.iter().fold(f64::INFINITY, |m, e| m.min(e.key))
    }
}

/// Depth of the test tree down to which the front keeps entries (at most
/// about `2^FRONT_DEPTH` of them); deeper pairs are summarised by their
/// ancestor at this depth.
const FRONT_DEPTH: u32 = 24;

/// Entries beyond which the front is folded back into the root pair (with
/// the smallest key: the minimum of the bounds of a partition bounds the whole).
const FRONT_CAP: usize = 1 << 15;

/// The far phase over two BVHs: a depth-first branch and bound over the
/// bounding-volume test tree, remembered between updates as its front.
/// Sized once; coherent updates allocate nothing (the front's buffers grow
/// to their working size during the first searches and are then reused).
#[derive(Debug, Clone)]
pub struct PairFar {
    front: Front,
    next: Vec<Entry>,
    /// Entries bounded by a tie ([`Ties`]), kept out of the front while the
    /// tied set stays `tied_set` (each search re-proves it): a tie's bound is
    /// the tracked distance, below the best one after any motion, so in the
    /// front it would be popped and pushed back on every update.
    tied: Vec<Entry>,
    tied_set: Ties,
    /// Each cell's last witness parameters on its side (warm starts).
    xa: Vec<[f64; 2]>,
    xb: Vec<[f64; 2]>,
    /// Each unimodal item's last witness parameters (warm starts of whole-item solves; NaN: none).
    ya: Vec<[f64; 2]>,
    yb: Vec<[f64; 2]>,
    /// Accumulated bound on B's motion relative to A since the bounds were made.
    s: f64,
    /// Each solved cell pair's last witness direction `(pb − pa)/d` (A's
    /// frame): the direction of its hull bound before it is solved again.
    dirs: std::collections::HashMap<(u32, u32), Vec3>,
    /// The cells' control hulls (made for cell pairs solved after the first
    /// search: a single query does not pay for them).
    hulls_a: CellHulls,
    hulls_b: CellHulls,
    /// Searches since the last reset.
    searches: u32,
    /// Cell pairs solved in the last search.
    pub solved: u32,
    /// Controller iterations of the last search.
    pub iterations: u32,
}

/// Whether a far-phase answer replaces the best pair so far: lower by more
/// than a rounding tie (1e-12 relative). Equal answers of different feature
/// pairs (a witness on a crease is also a piece witness saturated on its
/// side) keep the tracked pair instead of switching back and forth.
#[inline]
fn improves(c: &PairCandidate, best: &PairCandidate) -> bool {
    c.d < best.d - 1e-12 * (1.0 + c.d)
}

/// Whether a pair whose distance is at least `lb` cannot replace `best`
/// ([`improves`]: any answer `d ≥ lb` has `d + 1e-12 (1 + d) ≥ best.d`), so
/// it need not be solved: a pair tied with the best one to rounding is
/// settled by a bound instead of a solve that could not change the answer.
#[inline]
fn beaten(lb: f64, best: &PairCandidate) -> bool {
    lb + 1e-12 * (1.0 + lb) >= best.d
}

/// Unit direction of the best pair so far (zero while there is none): the
/// slab direction of [`Rel::box_bound`].
#[inline]
fn slab_dir(best: &PairCandidate) -> Vec3 {
    if best.d.is_finite() && best.d > 0.0 {
        (best.pb - best.pa) / best.d
    } else {
        Vec3::zeros()
    }
}

/// The items (indices of [`ItemBoxes`]) that lie on one piece's patch: the
/// piece, its trim curves and the B-rep edges along it. Any pair of such
/// items of two pieces has a distance at least the pieces' minimum (each is
/// a subset of its patch), so while the tracker holds that minimum the far
/// phase need not solve them (they tie with it along parallel faces).
#[derive(Debug, Clone, Copy)]
struct Dominated {
    n: usize,
    items: [u32; DOMINATED_MAX],
}

/// At most this many items are remembered per piece (the rest are solved as usual).
const DOMINATED_MAX: usize = 16;

impl Dominated {
    #[inline]
    fn has(&self, i: u32) -> bool {
        self.items[..self.n].contains(&i)
    }

    /// The items on piece `k`'s patch. An adjacent edge counts when its
    /// points at five parameters lie on the patch within 1e-9 of the body's
    /// size (an edge may run on past the piece, onto a neighbour).
    fn of(body: &BodyGeom, boxes: &ItemBoxes, k: u32, scale: f64) -> Self {
        let mut d = Dominated {
            n: 0,
            items: [0; DOMINATED_MAX],
        };
        let add = |d: &mut Dominated, i: usize| {
            if d.n < DOMINATED_MAX && !d.has(i as u32) {
                d.items[d.n] = i as u32;
                d.n += 1;
            }
        };
        add(&mut d, boxes.index(Item::Piece(k)));
        for (t, tr) in body.trims.iter().enumerate() {
            if tr.piece == k {
                add(&mut d, boxes.index(Item::Trim(t as u32)));
            }
        }
        let piece = &body.pieces[k as usize];
        for &(_, f) in &piece.adjacency {
            let FeatureRef::Edge(e) = f else { continue };
            let Some(edge) = body.edges.get(e as usize) else {
                continue;
            };
            let (t0, t1) = edge.curve.domain();
            let on = [0.0, 0.25, 0.5, 0.75, 1.0].iter().all(|&f| {
                let q = edge.curve.eval(t0 + f * (t1 - t0));
                super::patch_foot::closest_on_patch(&piece.surface, &q, 5, 2).distance <= 1e-9 * scale
            });
            if on {
                add(&mut d, boxes.index(Item::Edge(e)));
            }
        }
        d
    }
}

/// Item pairs whose minimum is the tracked pair's distance `d`: with a tracked
/// straight edge, the affine pieces beside it that meet the Karush–Kuhn–Tucker
/// conditions at the tracked witness (Lin–Canny's Voronoi test of the edge
/// against each face: the witness direction does not point into the face),
/// paired with the other side's tracked item and its own such pieces. Each
/// such pair has a converged local minimum at the tracked witnesses, facing
/// or between affine items, so (like the tracked pair, [`PairSkip::Proven`])
/// that is its minimum, and it need not be solved: the far phase bounds it by `d`.
///
/// Against a convex solid also whole rows of pairs ([`BodyPairTracker::ties`]):
/// when B is a convex solid ([`convex_solid`]) and the tracked witness on B is
/// inside a piece (converged, kept by the trim, A's witness on the outer side
/// of B's tangent plane there), B lies behind that plane, so B's witness is
/// the projection of A's witness onto B; and each affine item `X` of A among
/// the tied items (the tracked item, the pieces beside a tracked edge) holds
/// A's witness as the projection of B's witness onto `X` (a converged
/// minimum over a parallelogram or segment). Two convex sets whose points
/// are each other's projections lie on either side of the slab between them,
/// so `X` is at least `d` from all of B, and every pair of `X` with a piece
/// of B is bounded by `d` (`any_a`; B's edges and trim curves are left out:
/// they lie on B's faces only to the file's precision). The same with the
/// bodies exchanged (`any_b`).
#[derive(Debug, Clone, Copy)]
struct Ties {
    n: usize,
    pairs: [(Item, Item); TIES_MAX],
    d: f64,
    /// Items of A at least `d` from every piece of B (and `n_any_a` of them).
    any_a: [Item; EDGE_FACES + 1],
    n_any_a: usize,
    /// Items of B at least `d` from every piece of A.
    any_b: [Item; EDGE_FACES + 1],
    n_any_b: usize,
}

/// At most the tracked items and [`EDGE_FACES`] pieces on each side, less the tracked pair.
const TIES_MAX: usize = (EDGE_FACES + 1) * (EDGE_FACES + 1) - 1;

impl Ties {
    const NONE: Ties = Ties {
        n: 0,
        pairs: [(Item::Piece(0), Item::Piece(0)); TIES_MAX],
        d: f64::INFINITY,
        any_a: [Item::Piece(0); EDGE_FACES + 1],
        n_any_a: 0,
        any_b: [Item::Piece(0); EDGE_FACES + 1],
        n_any_b: 0,
    };

    /// Whether `other` ties the same pairs (whatever the distance).
    fn same_set(&self, other: &Ties) -> bool {
        self.pairs[..self.n] == other.pairs[..other.n]
            && self.any_a[..self.n_any_a] == other.any_a[..other.n_any_a]
            && self.any_b[..self.n_any_b] == other.any_b[..other.n_any_b]
    }

    /// Whether any pair is tied.
    #[inline]
    fn some(&self) -> bool {
        self.n + self.n_any_a + self.n_any_b > 0
    }

    #[inline]
    fn has(&self, a: Item, b: Item) -> bool {
        self.pairs[..self.n].contains(&(a, b))
            || (matches!(b, Item::Piece(_)) && self.any_a[..self.n_any_a].contains(&a))
            || (matches!(a, Item::Piece(_)) && self.any_b[..self.n_any_b].contains(&b))
    }
}

/// One side of a tied pair: the item, whether it is affine, unimodal, and
/// faces the other witness (curves always do).
type TieSide = (Item, bool, bool, bool);

/// The tracked item of one body and, when it is a straight edge whose witness
/// lies inside it, the affine pieces beside it that pass [`Flat::kkt_at`] at
/// the witness `p` against the other witness `q` (body-local); `facing`: the
/// tracked item faces `q`.
#[allow(clippy::too_many_arguments)]
fn tie_side(
    boxes: &ItemBoxes,
    item: Item,
    mode: Mode,
    p: &Vec3,
    q: &Vec3,
    facing: bool,
    tol: f64,
    out: &mut [TieSide; EDGE_FACES + 1],
) -> usize {
    let i = boxes.index(item);
    out[0] = (item, boxes.affine[i], boxes.unimodal[i], facing);
    let mut n = 1;
    if let (Item::Edge(e), Mode::Interior) = (item, mode) {
        if let Some(Some((dir, faces))) = boxes.edge_faces.get(e as usize) {
            let w = q - p;
            for &k in faces.iter().filter(|&&k| k != NONE) {
                if let Some(Some(f)) = boxes.flat.get(k as usize) {
                    if f.kkt_at(p, &w, dir, tol) {
                        out[n] = (Item::Piece(k), true, true, true);
                        n += 1;
                    }
                }
            }
        }
    }
    n
}

struct Ctx<'a> {
    a: &'a BodyGeom,
    b: &'a BodyGeom,
    boxes_a: &'a ItemBoxes,
    boxes_b: &'a ItemBoxes,
    rel: &'a Rel,
    cfg: TrackerConfig,
    skip: Option<PairSkip>,
    /// With `skip = Items(pa, pb)`: the items on `pa`'s and on `pb`'s patch.
    dom: Option<(&'a Dominated, &'a Dominated)>,
    /// Item pairs tied with the tracked pair ([`Ties`]).
    ties: &'a Ties,
}

fn centres(body: &BodyGeom) -> Vec<[f64; 2]> {
    body.cells
        .iter()
        .map(|c| [0.5 * (c.rect[0] + c.rect[1]), 0.5 * (c.rect[2] + c.rect[3])])
        .collect()
}

/// Whether a converged local minimum of items `ia`, `ib` (indices of
/// [`ItemBoxes`]) is the pair's minimum: both affine, or both unimodal and
/// seen from outside (facing).
#[inline]
fn proves_minimum(ctx: &Ctx, ia: usize, ib: usize, c: &PairCandidate) -> bool {
    c.converged
        && ((ctx.boxes_a.affine[ia] && ctx.boxes_b.affine[ib])
            || (ctx.boxes_a.unimodal[ia] && ctx.boxes_b.unimodal[ib] && c.facing()))
}

impl PairFar {
    /// An empty front for bodies `a` and `b` (the first search is cold).
    pub fn new(a: &BodyGeom, b: &BodyGeom) -> Self {
        Self {
            front: Front::with_capacity(1024),
            next: Vec::with_capacity(1024),
            tied: Vec::with_capacity(256),
            tied_set: Ties::NONE,
            xa: centres(a),
            xb: centres(b),
            ya: vec![[f64::NAN; 2]; a.pieces.len() + a.edges.len() + a.trims.len()],
            yb: vec![[f64::NAN; 2]; b.pieces.len() + b.edges.len() + b.trims.len()],
            s: 0.0,
            dirs: std::collections::HashMap::new(),
            hulls_a: CellHulls::new(a),
            hulls_b: CellHulls::new(b),
            searches: 0,
            solved: 0,
            iterations: 0,
        }
    }

    /// Forgets every bound and warm start: the next search is cold.
    pub fn forget(&mut self) {
        self.front.clear();
        self.next.clear();
        self.tied.clear();
        self.xa.fill([f64::NAN; 2]);
        self.xb.fill([f64::NAN; 2]);
        self.ya.fill([f64::NAN; 2]);
        self.yb.fill([f64::NAN; 2]);
        self.dirs.clear();
        self.searches = 0;
        self.s = 0.0;
    }

    /// B moved by at most `delta` relative to A since the last search.
    pub fn advance(&mut self, delta: f64) {
        self.s += delta;
    }

    /// Searches since the last reset.
    pub fn searches(&self) -> u32 {
        self.searches
    }

    /// Entries in the front (a measure of the work a cold search did).
    pub fn front_len(&self) -> usize {
        self.front.len()
    }

    fn search(&mut self, ctx: &Ctx, best: &mut PairCandidate) {
        self.solved = 0;
        self.iterations = 0;
        self.searches = self.searches.saturating_add(1);
        if ctx.a.nodes.is_empty() || ctx.b.nodes.is_empty() {
            return;
        }
        if !self.tied.is_empty() && !ctx.ties.same_set(&self.tied_set) {
            // the ties changed: their entries go back to the front with
            // their keys (a bound made at accumulated motion `S₀` as
            // `bound + S₀`, valid as before)
            for e in self.tied.drain(..) {
                self.front.push(e);
            }
        }
        if self.tied.is_empty() {
            self.tied_set = *ctx.ties;
        }
        if self.front.is_empty() && self.tied.is_empty() {
            self.front.push(Entry {
                kind: EntryKind::Nodes,
                a: ctx.a.root,
                b: ctx.b.root,
                depth: 0,
                key: f64::NEG_INFINITY,
                warm: WARM_NONE,
            });
        }
        self.next.clear();
        // every entry below the best distance is expanded once; what the
        // expansions make goes back in afterwards (it may lie below too,
        // where a bound is only a box bound, and waits for the next update)
        while let Some(key) = self.front.peek_key() {
            if beaten(key - self.s, best) {
                break;
            }
            let Some(e) = self.front.pop() else { break };
            self.expand(ctx, e, best);
        }
        for e in self.next.drain(..) {
            self.front.push(e);
        }
        if self.front.len() > FRONT_CAP {
            let k = self.front.min_key();
            self.front.clear();
            self.tied.clear();
            self.front.push(Entry {
                kind: EntryKind::Nodes,
                a: ctx.a.root,
                b: ctx.b.root,
                depth: 0,
                key: k,
                warm: WARM_NONE,
            });
        }
    }

    fn push(&mut self, kind: EntryKind, a: u32, b: u32, depth: u32, bound: f64) {
        self.push_warm(kind, a, b, depth, bound, WARM_NONE);
    }

    fn push_warm(&mut self, kind: EntryKind, a: u32, b: u32, depth: u32, bound: f64, warm: Warm) {
        self.next.push(Entry {
            kind,
            a,
            b,
            depth,
            key: bound + self.s,
            warm,
        });
    }

    fn expand(&mut self, ctx: &Ctx, e: Entry, best: &mut PairCandidate) {
        match e.kind {
            EntryKind::Nodes => self.expand_nodes(ctx, e.a, e.b, e.depth, best),
            EntryKind::Items => self.expand_items(ctx, e.a, e.b, e.depth, e.warm, best),
        };
    }

    /// Bounds node pair `(na, nb)` at `depth` of the test tree, descending
    /// where its box bound is below the best distance; returns a lower bound
    /// of its subtree. Entries are kept at depth ≤ [`FRONT_DEPTH`]: a pair
    /// at that depth is remembered as one entry whose key summarises its
    /// subtree (the smallest bound found in it), so the front stays small.
    fn expand_nodes(&mut self, ctx: &Ctx, na: u32, nb: u32, depth: u32, best: &mut PairCandidate) -> f64 {
        let (a, b) = (&ctx.a.nodes[na as usize], &ctx.b.nodes[nb as usize]);
        let lb = ctx.rel.box_bound(&a.lo, &a.hi, &b.lo, &b.hi, &slab_dir(best));
        if beaten(lb, best) {
            if depth <= FRONT_DEPTH {
                self.push(EntryKind::Nodes, na, nb, depth, lb);
            }
            return lb;
        }
        let size = |lo: &Vec3, hi: &Vec3| (hi - lo).norm_squared();
        let below = depth.saturating_add(1);
        let k = match (a.kind, b.kind) {
            (NodeKind::Leaf(fa, ea), NodeKind::Leaf(fb, eb)) => {
                let mut k = f64::INFINITY;
                for i in fa..ea {
                    let ia = ctx.boxes_a.index(ctx.a.leaf_items[i as usize]) as u32;
                    for j in fb..eb {
                        let ib = ctx.boxes_b.index(ctx.b.leaf_items[j as usize]) as u32;
                        // item pairs below the front are summarised by their ancestor
                        k = k.min(self.expand_items(ctx, ia, ib, below, WARM_NONE, best));
                    }
                }
                k
            }
            (NodeKind::Interior(l, r), NodeKind::Leaf(..)) => self.split(ctx, [l, r], [nb, nb], below, best),
            (NodeKind::Leaf(..), NodeKind::Interior(l, r)) => self.split(ctx, [na, na], [l, r], below, best),
            (NodeKind::Interior(la, ra), NodeKind::Interior(lb_, rb)) => {
                if size(&a.lo, &a.hi) >= size(&b.lo, &b.hi) {
                    self.split(ctx, [la, ra], [nb, nb], below, best)
                } else {
                    self.split(ctx, [na, na], [lb_, rb], below, best)
                }
            }
        };
        let k = k.max(lb);
        if depth == FRONT_DEPTH {
            self.push(EntryKind::Nodes, na, nb, depth, k);
        }
        k
    }

    /// Visits the two child pairs `(a[0], b[0])`, `(a[1], b[1])`, nearer first.
    fn split(&mut self, ctx: &Ctx, a: [u32; 2], b: [u32; 2], depth: u32, best: &mut PairCandidate) -> f64 {
        let n = slab_dir(best);
        let bound = |i: usize| {
            let (x, y) = (&ctx.a.nodes[a[i] as usize], &ctx.b.nodes[b[i] as usize]);
            ctx.rel.box_bound(&x.lo, &x.hi, &y.lo, &y.hi, &n)
        };
        let (f, g) = if bound(0) <= bound(1) { (0, 1) } else { (1, 0) };
        let kf = self.expand_nodes(ctx, a[f], b[f], depth, best);
        let kg = self.expand_nodes(ctx, a[g], b[g], depth, best);
        kf.min(kg)
    }

    fn expand_items(&mut self, ctx: &Ctx, ia: u32, ib: u32, depth: u32, warm: Warm, best: &mut PairCandidate) -> f64 {
        let (ba, bb) = (ctx.boxes_a, ctx.boxes_b);
        if ba.redundant[ia as usize] || bb.redundant[ib as usize] {
            // a trim curve along a B-rep edge: the edge (exact) stands for it
            return f64::INFINITY;
        }
        let mut lb = ctx.rel.box_bound(
            &ba.lo[ia as usize],
            &ba.hi[ia as usize],
            &bb.lo[ib as usize],
            &bb.hi[ib as usize],
            &slab_dir(best),
        );
        if !beaten(lb, best) && ctx.ties.some() && ctx.ties.has(ba.item(ia), bb.item(ib)) {
            // its minimum is at least the tracked distance (the box bound,
            // when higher, keeps the entry from being popped again soon)
            let k = ctx.ties.d.max(lb);
            if depth <= FRONT_DEPTH {
                self.tied.push(Entry {
                    kind: EntryKind::Items,
                    a: ia,
                    b: ib,
                    depth,
                    key: k + self.s,
                    warm: WARM_NONE,
                });
            }
            return k;
        }
        if !beaten(lb, best) {
            // along the best pair's direction (a pair tied with it, e.g. a
            // face beside its edge, has that gap: exact between affine items),
            // then along the pair's own last witness direction
            let (ha, hb) = (ba.hull_of(ia), bb.hull_of(ib));
            let n = slab_dir(best);
            if n != Vec3::zeros() {
                lb = lb.max(ctx.rel.hull_bound(ha, hb, &n));
            }
            if !beaten(lb, best) && !warm.n[0].is_nan() {
                lb = lb.max(ctx.rel.hull_bound(ha, hb, &warm.n));
            }
        }
        let keep = depth <= FRONT_DEPTH;
        if beaten(lb, best) {
            if keep {
                self.push_warm(EntryKind::Items, ia, ib, depth, lb, warm);
            }
            return lb;
        }
        let (item_a, item_b) = (ba.item(ia), bb.item(ib));
        if ctx.skip == Some(PairSkip::Items(item_a, item_b))
            || ctx.skip == Some(PairSkip::Proven(item_a, item_b))
            || ctx.dom.is_some_and(|(da, db)| da.has(ia) && db.has(ib))
        {
            // tracked by the caller, unimodal: its minimum is `best.d`
            // (items on the two pieces' patches: at least that)
            let k = best.d.max(lb);
            if keep {
                self.push(EntryKind::Items, ia, ib, depth, k);
            }
            return k;
        }
        let mut wait = 0;
        if ba.unimodal[ia as usize] && bb.unimodal[ib as usize] {
            if warm.wait > 0 {
                // the last whole-item solve proved nothing: cell by cell
                wait = warm.wait - 1;
            } else if let Some((k, w)) = self.solve_items(ctx, ia, ib, &warm, best) {
                let k = k.max(lb);
                if keep {
                    self.push_warm(EntryKind::Items, ia, ib, depth, k, w);
                }
                return k;
            } else {
                wait = ITEM_RETRY;
            }
        }
        let cells = |body: &BodyGeom, it: Item| match it {
            Item::Piece(p) => body.pieces[p as usize].cells.clone(),
            Item::Edge(x) => body.edges[x as usize].cells.clone(),
            Item::Trim(t) => {
                let c = body.trims[t as usize].cell;
                c..c + 1
            }
        };
        let mut bound = f64::INFINITY;
        for ca in cells(ctx.a, item_a) {
            for cb in cells(ctx.b, item_b) {
                bound = bound.min(self.visit_cells(ctx, ca, cb, best));
            }
        }
        let k = bound.max(lb);
        if keep {
            self.push_warm(EntryKind::Items, ia, ib, depth, k, Warm { wait, ..WARM_NONE });
        }
        k
    }

    /// Solves a pair of unimodal items (planar or convex pieces, straight
    /// edges) over their whole parameter boxes, warm-started from the pair's
    /// last witness (else each item's), instead of cell pair by cell pair. A converged minimum
    /// seen from outside is the pair's minimum over the untrimmed boxes, so
    /// it bounds the pair (points of the trimmed regions are among them;
    /// trimmed-away witnesses are not taken as answers: their boundaries are
    /// items of their own). `None` when the answer proves nothing (the
    /// caller then goes cell by cell).
    fn solve_items(
        &mut self,
        ctx: &Ctx,
        ia: u32,
        ib: u32,
        warm: &Warm,
        best: &mut PairCandidate,
    ) -> Option<(f64, Warm)> {
        let (item_a, item_b) = (ctx.boxes_a.item(ia), ctx.boxes_b.item(ib));
        let (ra, rb) = (item_domain(ctx.a, item_a), item_domain(ctx.b, item_b));
        let centre = |r: &[f64; 4]| [0.5 * (r[0] + r[1]), 0.5 * (r[2] + r[3])];
        // the pair's own last witness, else each item's last witness
        let (ya, yb) = if warm.x[0].is_nan() {
            (self.ya[ia as usize], self.yb[ib as usize])
        } else {
            let x = warm.start(self.searches);
            ([x[0], x[1]], [x[2], x[3]])
        };
        let ya = if ya[0].is_nan() { centre(&ra) } else { ya };
        let yb = if yb[0].is_nan() { centre(&rb) } else { yb };
        self.solved += 1;
        let sol = solve_pair(
            &ctx.cfg,
            SideRef {
                body: ctx.a,
                item: item_a,
                rect: ra,
            },
            SideRef {
                body: ctx.b,
                item: item_b,
                rect: rb,
            },
            ctx.rel,
            [ya[0], ya[1], yb[0], yb[1]],
        );
        self.iterations += sol.iterations;
        let c = sol.cand;
        if !proves_minimum(ctx, ia as usize, ib as usize, &c) {
            return None;
        }
        self.ya[ia as usize] = [c.x[0], c.x[1]];
        self.yb[ib as usize] = [c.x[2], c.x[3]];
        if improves(&c, best) && keeps(ctx.a, item_a, c.x[0], c.x[1]) && keeps(ctx.b, item_b, c.x[2], c.x[3]) {
            *best = c;
        }
        let n = if c.d > 0.0 { (c.pb - c.pa) / c.d } else { WARM_NONE.n };
        Some((
            c.d,
            Warm {
                x: c.x,
                xp: warm.x,
                xpp: warm.xp,
                t: self.searches,
                tp: warm.t,
                tpp: warm.tp,
                n,
                wait: 0,
            },
        ))
    }

    /// Lower bound of cell pair `(ca, cb)`, solving it when its box bound is
    /// below the best distance (and improving `best`).
    fn visit_cells(&mut self, ctx: &Ctx, ca: u32, cb: u32, best: &mut PairCandidate) -> f64 {
        let (a, b) = (&ctx.a.cells[ca as usize], &ctx.b.cells[cb as usize]);
        let mut lb = ctx.rel.box_bound(&a.lo, &a.hi, &b.lo, &b.hi, &slab_dir(best));
        if beaten(lb, best) {
            return lb;
        }
        // the gap of the cells' control hulls along the pair's last witness
        // direction: a pair whose last solve ended on a witness saturated on
        // a side (proving nothing) keeps about its distance there instead of
        // the box bound, and is not solved again while that stays above
        let hulls = if self.searches > 1 {
            Some((self.hulls_a.of(ctx.a, ca), self.hulls_b.of(ctx.b, cb)))
        } else {
            None
        };
        if let (Some((ra, rb)), Some(n)) = (hulls, self.dirs.get(&(ca, cb))) {
            lb = lb.max(ctx.rel.hull_bound(self.hulls_a.get(ra), self.hulls_b.get(rb), n));
            if beaten(lb, best) {
                return lb;
            }
        }
        if let Some(PairSkip::Basin(ia, ib, x)) = ctx.skip {
            let inside = |r: &[f64; 4], u: f64, v: f64| u >= r[0] && u <= r[1] && v >= r[2] && v <= r[3];
            if ia == a.item && ib == b.item && inside(&a.rect, x[0], x[1]) && inside(&b.rect, x[2], x[3]) {
                // the tracker's basin: its answer is `best`
                return best.d.max(lb);
            }
        }
        self.solved += 1;
        // warm start from each cell's last witness (its centre after a reset)
        let centre = |r: &[f64; 4]| [0.5 * (r[0] + r[1]), 0.5 * (r[2] + r[3])];
        let (xa, xb) = (self.xa[ca as usize], self.xb[cb as usize]);
        let xa = if xa[0].is_nan() { centre(&a.rect) } else { xa };
        let xb = if xb[0].is_nan() { centre(&b.rect) } else { xb };
        let (sa, sb) = (
            SideRef {
                body: ctx.a,
                item: a.item,
                rect: a.rect,
            },
            SideRef {
                body: ctx.b,
                item: b.item,
                rect: b.rect,
            },
        );
        let mut sol = solve_pair(&ctx.cfg, sa, sb, ctx.rel, [xa[0], xa[1], xb[0], xb[1]]);
        self.iterations += sol.iterations;
        let (ma, mb) = (centre(&a.rect), centre(&b.rect));
        if !sol.cand.converged && (xa != ma || xb != mb) {
            // a safety net: a warm start mixed from other cell pairs'
            // witnesses stalled the controller short of a critical point on
            // two arcs of tiled_convex (unguarded hybrid Newton steps cycling
            // uphill, fixed in `track_loop`); an unconverged solve is started
            // again from the cells' centres
            self.solved += 1;
            let again = solve_pair(&ctx.cfg, sa, sb, ctx.rel, [ma[0], ma[1], mb[0], mb[1]]);
            self.iterations += again.iterations;
            if again.cand.converged || again.cand.d < sol.cand.d {
                sol = again;
            }
        }
        let c = sol.cand;
        self.xa[ca as usize] = [c.x[0], c.x[1]];
        self.xb[cb as usize] = [c.x[2], c.x[3]];
        let keep = (a.trim == CellTrim::Inside || keeps(ctx.a, a.item, c.x[0], c.x[1]))
            && (b.trim == CellTrim::Inside || keeps(ctx.b, b.item, c.x[2], c.x[3]));
        if keep && improves(&c, best) {
            *best = c;
        }
        if let Some((ra, rb)) = hulls {
            let (ha, hb) = (self.hulls_a.get(ra), self.hulls_b.get(rb));
            if !(ha.is_empty() || hb.is_empty()) && c.d > 0.0 && c.d.is_finite() {
                let n = (c.pb - c.pa) / c.d;
                self.dirs.insert((ca, cb), n);
                lb = lb.max(ctx.rel.hull_bound(ha, hb, &n));
            }
        }
        let unimodal = proves_minimum(ctx, ctx.boxes_a.index(a.item), ctx.boxes_b.index(b.item), &c);
        if unimodal {
            c.d.max(lb)
        } else {
            lb
        }
    }
}

/// Whether a body is a convex solid: a solid with no concave or saddle
/// piece whose sampled surface points all lie on the inner side of
/// every sampled tangent plane (so a concave crease between convex pieces
/// is caught). Sampled (3×3 per convex piece, 6×6 per mixed one), not a proof; bodies with more than
/// 4,000 samples are treated as non-convex (the far phase then runs).
pub fn convex_solid(body: &BodyGeom) -> bool {
    // concave and saddle pieces are not convex; a mixed piece (a class the
    // offline bounds could not decide, e.g. at a degenerate pole) is left to
    // a denser sampled test
    if body.kind != BodyKind::Solid
        || body.pieces.is_empty()
        || body
            .pieces
            .iter()
            .any(|p| matches!(p.class, ConvexityClass::Concave | ConvexityClass::Saddle))
    {
        return false;
    }
    const COARSE: [f64; 3] = [0.1, 0.5, 0.9];
    const DENSE: [f64; 6] = [0.02, 0.2, 0.4, 0.6, 0.8, 0.98];
    let mut samples: Vec<(Vec3, Vec3)> = Vec::new();
    for (k, p) in body.pieces.iter().enumerate() {
        let grid: &[f64] = if matches!(p.class, ConvexityClass::Planar | ConvexityClass::Convex) {
            &COARSE
        } else {
            &DENSE
        };
        for &u in grid {
            for &v in grid {
                if !body.piece_keeps(k as u32, u, v) {
                    continue;
                }
                let n = body.piece_normal(k as u32, [u, v]);
                if n != Vec3::zeros() {
                    samples.push((p.surface.eval(u, v), n));
                }
            }
        }
        if samples.len() > 4000 {
            return false;
        }
    }
    let eps = 1e-7 * (1.0 + (body.hi - body.lo).norm());
    samples
        .iter()
        .all(|(p, n)| samples.iter().all(|(q, _)| n.dot(&(q - p)) <= eps))
}

/// Up to 8 neighbouring features of a saturated witness (Lin–Canny switch
/// targets) with starting parameters; returns their count.
fn neighbours(
    body: &BodyGeom,
    item: Item,
    x: [f64; 2],
    mode: Mode,
    point: &Vec3,
    out: &mut [(Item, [f64; 2]); 8],
) -> usize {
    let mut n = 0usize;
    let mut add = |it: Item, x: [f64; 2]| {
        if n < out.len() {
            out[n] = (it, x);
            n += 1;
        }
    };
    let edge_start = |e: u32, p: &Vec3| -> f64 {
        let curve = &body.edges[e as usize].curve;
        let (t0, t1) = curve.domain();
        (0..=8)
            .map(|i| t0 + (t1 - t0) * i as f64 / 8.0)
            .min_by(|&a, &b| {
                (curve.eval(a) - p)
                    .norm_squared()
                    .total_cmp(&(curve.eval(b) - p).norm_squared())
            })
            .unwrap_or(t0)
    };
    match item {
        Item::Piece(k) => {
            let sides: [Option<Boundary>; 2] = match mode {
                Mode::Interior => return 0,
                Mode::U0 => [Some(Boundary::U0), None],
                Mode::U1 => [Some(Boundary::U1), None],
                Mode::V0 => [Some(Boundary::V0), None],
                Mode::V1 => [Some(Boundary::V1), None],
                Mode::Corner => [
                    Some(if x[0] <= 0.0 { Boundary::U0 } else { Boundary::U1 }),
                    Some(if x[1] <= 0.0 { Boundary::V0 } else { Boundary::V1 }),
                ],
            };
            let piece = &body.pieces[k as usize];
            for side in sides.into_iter().flatten() {
                for &(b, f) in &piece.adjacency {
                    if b != side {
                        continue;
                    }
                    match f {
                        FeatureRef::Piece(m) if (m as usize) < body.pieces.len() => {
                            let other = &body.pieces[m as usize];
                            let (u, v) = (
                                piece.domain[0] + x[0] * (piece.domain[1] - piece.domain[0]),
                                piece.domain[2] + x[1] * (piece.domain[3] - piece.domain[2]),
                            );
                            let map = |x: f64, a: f64, b: f64| {
                                if b > a {
                                    ((x - a) / (b - a)).clamp(0.0, 1.0)
                                } else {
                                    0.5
                                }
                            };
                            add(
                                Item::Piece(m),
                                [
                                    map(u, other.domain[0], other.domain[1]),
                                    map(v, other.domain[2], other.domain[3]),
                                ],
                            );
                        }
                        FeatureRef::Edge(e) if (e as usize) < body.edges.len() => {
                            add(Item::Edge(e), [edge_start(e, point), 0.0]);
                        }
                        _ => {}
                    }
                }
            }
        }
        Item::Edge(k) => {
            let e = &body.edges[k as usize];
            let end = match mode {
                Mode::U0 => 0,
                Mode::U1 => 1,
                _ => return 0,
            };
            let v = e.vertices[end];
            if v == NONE || v as usize >= body.vertices.len() {
                return 0;
            }
            let vg = &body.vertices[v as usize];
            for &o in &vg.edges {
                if o != k && (o as usize) < body.edges.len() {
                    let (t0, t1) = body.edges[o as usize].curve.domain();
                    let c = &body.edges[o as usize].curve;
                    let t = if (c.eval(t0) - vg.point).norm_squared() <= (c.eval(t1) - vg.point).norm_squared() {
                        t0
                    } else {
                        t1
                    };
                    add(Item::Edge(o), [t, 0.0]);
                }
            }
            for &p in &vg.pieces {
                if (p as usize) < body.pieces.len() {
                    let s = &body.pieces[p as usize].surface;
                    let corner = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
                        .into_iter()
                        .min_by(|a, b| {
                            (s.eval(a[0], a[1]) - vg.point)
                                .norm_squared()
                                .total_cmp(&(s.eval(b[0], b[1]) - vg.point).norm_squared())
                        })
                        .unwrap_or([0.5, 0.5]);
                    // a hair inside the piece, so the controller starts in its interior
                    add(
                        Item::Piece(p),
                        [
                            corner[0] + (0.5 - corner[0]) * 1e-3,
                            corner[1] + (0.5 - corner[1]) * 1e-3,
                        ],
                    );
                }
            }
        }
        Item::Trim(_) => {}
    }
    n
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
        })
    }

    /// The tracked bodies `(a, b)`.
    pub fn bodies(&self) -> (u32, u32) {
        (self.body_a, self.body_b)
    }

    /// Both bodies are convex solids (see [`convex_solid`]): a settled
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

    /// Forgets all history: the next update is a cold start.
    pub fn reset(&mut self) {
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
    /// what the answer is made of.
    fn step<'s>(
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

        // 1. the active pair (penetration: feedback-linearised, local)
        let mut best = PairCandidate::NONE;
        // the Lin–Canny test of `best`, when already made
        let mut certified: Option<bool> = None;
        if let Some(prev) = self.active {
            let law = if self.penetrating {
                ControlLaw::FeedbackLinearized
            } else {
                self.cfg.law
            };
            let cfg = TrackerConfig { law, ..self.cfg };
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
            if !best.converged && !self.penetrating {
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
            if !self.penetrating
                && self.convex
                && best.converged
                && self.refused.is_some_and(|(k, n)| k == key && n < REFUSED_RETRY)
                && self.certified(a, b, &rel, &best, tol, &mut iterations)
            {
                certified = Some(true);
                if let Some((_, n)) = &mut self.refused {
                    *n += 1;
                }
            }
            if !self.penetrating && certified.is_none() {
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

        // 2. penetration: entered from the tracked contact, kept while the pair stays inside
        let cfg_probe = cell_config(&self.cfg);
        let solid = self.solid;
        let inside = |c: &PairCandidate| solid && c.d > tol && c.d.is_finite() && inside_pair(a, b, &rel, c);
        if self.penetrating {
            // still inside: two interior piece witnesses with anti-parallel
            // normals (the critical pair), else confirmed globally
            let anti = matches!((best.ia, best.ib), (Item::Piece(_), Item::Piece(_)))
                && best.mode_a == Mode::Interior
                && best.mode_b == Mode::Interior
                && best.na.dot(&(best.pb - best.pa)) < 0.0
                && best.nb.dot(&(best.pb - best.pa)) > 0.0;
            if best.d.is_finite()
                && inside(&best)
                && (anti || contained(a, b, &rel, &best, &mut self.probe_a, &mut self.probe_b, &cfg_probe))
            {
                self.active = Some(best);
                return Ok(Step {
                    a,
                    b,
                    pose_a,
                    iterations,
                    switches,
                    cells_solved: 0,
                });
            }
            // separated again (or lost): back to the global minimum
            self.penetrating = false;
        } else if best.d.is_finite()
            && best.converged
            && self.active.is_some_and(|p| p.d <= moved + tol)
            && inside(&best)
            && contained(a, b, &rel, &best, &mut self.probe_a, &mut self.probe_b, &cfg_probe)
        {
            // the tracked pair moved through the contact: it is now the
            // local maximum-penetration pair; follow it from here
            self.penetrating = true;
            self.active = Some(best);
            return Ok(Step {
                a,
                b,
                pose_a,
                iterations,
                switches,
                cells_solved: 0,
            });
        }

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
        if self.solid {
            if best.d <= 1e-9 * self.scale {
                if let Some(p) = self.probe_penetration(a, b, &rel, &best, &mut iterations) {
                    best = p;
                    penetrating = true;
                }
            } else if !lin_canny
                && inside(&best)
                && contained(a, b, &rel, &best, &mut self.probe_a, &mut self.probe_b, &cfg_probe)
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

    /// Lin–Canny's exit: on two convex solids a pair that is locally closest
    /// on both boundaries is the global answer (settled interior piece
    /// witnesses, else the normal-cone test of each witness, [`cone_ok`]),
    /// unless an edge that strays from its faces may be closer
    /// ([`Self::loose_edge_closer`]).
    fn certified(
        &mut self,
        a: &BodyGeom,
        b: &BodyGeom,
        rel: &Rel,
        best: &PairCandidate,
        tol: f64,
        iterations: &mut u32,
    ) -> bool {
        let settled = best.converged
            && best.mode_a == Mode::Interior
            && best.mode_b == Mode::Interior
            && matches!((best.ia, best.ib), (Item::Piece(_), Item::Piece(_)))
            && best.facing()
            && best.d > tol;
        let lin_canny = self.convex
            && (settled
                || best.converged && best.d > tol && {
                    let rt = rel.frame.r.transpose();
                    let [ia, ib] = &mut self.incident;
                    cone_ok(
                        a,
                        &self.boxes_a,
                        best.ia,
                        best.mode_a,
                        &[best.x[0], best.x[1]],
                        &best.na,
                        &best.pa,
                        &(best.pb - best.pa),
                        self.scale,
                        ia,
                        iterations,
                    ) && cone_ok(
                        b,
                        &self.boxes_b,
                        best.ib,
                        best.mode_b,
                        &[best.x[2], best.x[3]],
                        &(rt * best.nb),
                        &(rt * (best.pb - rel.frame.t)),
                        &(rt * (best.pa - best.pb)),
                        self.scale,
                        ib,
                        iterations,
                    )
                });
        // the separating planes bound the faces, not edges that stray from them
        lin_canny && !self.loose_edge_closer(a, b, rel, best)
    }

    /// Whether an edge of either body that strays from its faces may be
    /// closer than the Lin–Canny pair `c` ([`loose_edge_near`]; tested on the
    /// sides whose witness is on a piece).
    fn loose_edge_closer(&mut self, a: &BodyGeom, b: &BodyGeom, rel: &Rel, c: &PairCandidate) -> bool {
        let (pa_side, pb_side) = (matches!(c.ia, Item::Piece(_)), matches!(c.ib, Item::Piece(_)));
        if !(pa_side || pb_side) {
            return false;
        }
        let scale = self.scale;
        let loose = self
            .loose
            .get_or_insert_with(|| Box::new([LooseEdges::of(a, scale), LooseEdges::of(b, scale)]));
        let n = (c.pb - c.pa) / c.d;
        let (gap_a, gap_b) = (loose[0].max, loose[1].max);
        if pa_side && loose_edge_near_cached(&mut loose[0], &c.pa, &n, gap_b) {
            return true;
        }
        if pb_side {
            let rt = rel.frame.r.transpose();
            let p = rt * (c.pb - rel.frame.t);
            if loose_edge_near_cached(&mut loose[1], &p, &(-(rt * n)), gap_a) {
                return true;
            }
        }
        false
    }

    /// The item pairs tied with a proven tracked pair `c` ([`Ties`]).
    fn ties(&self, a: &BodyGeom, b: &BodyGeom, rel: &Rel, c: &PairCandidate) -> Ties {
        let mut t = Ties { d: c.d, ..Ties::NONE };
        let dr = c.pb - c.pa;
        // the tracked witness on a convex solid is inside a piece, kept by
        // its trim, with the other witness on the outer side of its tangent
        // plane: that solid lies behind the plane ([`Ties`]' rows)
        let behind = |convex: bool, item: Item, mode: Mode, outer: bool, body: &BodyGeom, x0: f64, x1: f64| {
            convex && c.converged && mode == Mode::Interior && outer && keeps(body, item, x0, x1)
        };
        let row_a = matches!(c.ib, Item::Piece(_))
            && behind(
                self.convex_ab[1] == Some(true),
                c.ib,
                c.mode_b,
                c.nb.dot(&dr) <= 0.0,
                b,
                c.x[2],
                c.x[3],
            );
        let row_b = matches!(c.ia, Item::Piece(_))
            && behind(
                self.convex_ab[0] == Some(true),
                c.ia,
                c.mode_a,
                c.na.dot(&dr) >= 0.0,
                a,
                c.x[0],
                c.x[1],
            );
        if !matches!(c.ia, Item::Edge(_)) && !matches!(c.ib, Item::Edge(_)) && !row_a && !row_b {
            return t;
        }
        // a witness within this of a piece's border is on it (the error it
        // allows is below the far phase's tie threshold, see `improves`)
        let tol = 1e-12 * (1.0 + c.d);
        let rt = rel.frame.r.transpose();
        let (pb, qa) = (rt * (c.pb - rel.frame.t), rt * (c.pa - rel.frame.t));
        let mut sa = [(Item::Piece(0), false, false, false); EDGE_FACES + 1];
        let mut sb = sa;
        let fa = !matches!(c.ia, Item::Piece(_)) || c.na.dot(&dr) >= 0.0;
        let fb = !matches!(c.ib, Item::Piece(_)) || c.nb.dot(&dr) <= 0.0;
        let na = tie_side(&self.boxes_a, c.ia, c.mode_a, &c.pa, &c.pb, fa, tol, &mut sa);
        let nb = tie_side(&self.boxes_b, c.ib, c.mode_b, &pb, &qa, fb, tol, &mut sb);
        for &(x, ax, ux, fx) in &sa[..na] {
            for &(y, ay, uy, fy) in &sb[..nb] {
                if (x, y) != (c.ia, c.ib) && ((ax && ay) || (ux && uy && fx && fy)) && t.n < TIES_MAX {
                    t.pairs[t.n] = (x, y);
                    t.n += 1;
                }
            }
        }
        if row_a {
            for &(x, ..) in sa[..na].iter().filter(|s| s.1) {
                t.any_a[t.n_any_a] = x;
                t.n_any_a += 1;
            }
        }
        if row_b {
            for &(y, ..) in sb[..nb].iter().filter(|s| s.1) {
                t.any_b[t.n_any_b] = y;
                t.n_any_b += 1;
            }
        }
        t
    }

    /// The Lin–Canny switches of the active pair: while a witness is
    /// saturated on a side (or an edge end), try the neighbouring features
    /// of that side with the other side fixed; take the best that does not
    /// increase the distance.
    fn switch_sides(
        &self,
        a: &BodyGeom,
        b: &BodyGeom,
        rel: &Rel,
        mut c: PairCandidate,
        switches: &mut u32,
        iterations: &mut u32,
    ) -> PairCandidate {
        let cfg = cell_config(&self.cfg);
        let mut nb = [(Item::Piece(0), [0.0; 2]); 8];
        for _ in 0..4 {
            let tol = 1e-12 * (1.0 + c.d);
            let mut next: Option<PairCandidate> = None;
            for side in 0..2 {
                let (body, item, x, mode, point) = if side == 0 {
                    (a, c.ia, [c.x[0], c.x[1]], c.mode_a, c.pa)
                } else {
                    (
                        b,
                        c.ib,
                        [c.x[2], c.x[3]],
                        c.mode_b,
                        rel.frame.r.transpose() * (c.pb - rel.frame.t),
                    )
                };
                let n = neighbours(body, item, x, mode, &point, &mut nb);
                for &(it, xn) in &nb[..n] {
                    let (sa, sb, x0) = if side == 0 {
                        (
                            SideRef {
                                body: a,
                                item: it,
                                rect: item_domain(a, it),
                            },
                            SideRef {
                                body: b,
                                item: c.ib,
                                rect: item_domain(b, c.ib),
                            },
                            [xn[0], xn[1], c.x[2], c.x[3]],
                        )
                    } else {
                        (
                            SideRef {
                                body: a,
                                item: c.ia,
                                rect: item_domain(a, c.ia),
                            },
                            SideRef {
                                body: b,
                                item: it,
                                rect: item_domain(b, it),
                            },
                            [c.x[0], c.x[1], xn[0], xn[1]],
                        )
                    };
                    let s = solve_pair(&cfg, sa, sb, rel, x0);
                    *iterations += s.iterations;
                    let k = s.cand;
                    if !(keeps(a, k.ia, k.x[0], k.x[1]) && keeps(b, k.ib, k.x[2], k.x[3])) {
                        continue;
                    }
                    if k.d <= c.d + tol && next.map_or(true, |n| k.d < n.d) {
                        next = Some(k);
                    }
                }
            }
            // a switch must move the witness off the shared side or lower the
            // distance: a piece saturated on a crease goes onto the curve at a
            // tie, but a curve at its end (a vertex) only onto another curve
            // whose witness leaves the vertex (else equal pairs at a vertex
            // would take turns)
            let onto_curve = |from: Item, mode: Mode, to: Item, to_mode: Mode| {
                !matches!(to, Item::Piece(_))
                    && mode != Mode::Interior
                    && (matches!(from, Item::Piece(_)) || to_mode == Mode::Interior)
            };
            match next.filter(|n| {
                n.d < c.d - tol
                    || (n.mode_a == Mode::Interior && n.mode_b == Mode::Interior)
                    || onto_curve(c.ia, c.mode_a, n.ia, n.mode_a)
                    || onto_curve(c.ib, c.mode_b, n.ib, n.mode_b)
            }) {
                Some(n) if (n.ia, n.ib) != (c.ia, c.ib) => {
                    *switches += 1;
                    c = n;
                }
                _ => break,
            }
        }
        c
    }

    /// Interpenetration seed: the deepest cell centre of each body inside
    /// the other (point–body queries), converged to the local
    /// maximum-penetration pair by the feedback-linearised law. `None` when
    /// no cell centre is inside (touching).
    fn probe_penetration(
        &mut self,
        a: &BodyGeom,
        b: &BodyGeom,
        rel: &Rel,
        contact: &PairCandidate,
        iterations: &mut u32,
    ) -> Option<PairCandidate> {
        let cfg = cell_config(&self.cfg);
        let tol = 1e-9 * self.scale;
        // (depth, item on A, x on A, item on B, x on B)
        type Seed = (f64, Item, [f64; 2], Item, [f64; 2]);
        let mut deepest: Option<Seed> = None;
        let rt = rel.frame.r.transpose();
        let (probe_a, probe_b) = (&mut self.probe_a, &mut self.probe_b);
        // whether the point of piece `k` of one body at `uv` lies inside the
        // other body; keeps the deepest such point with its nearest feature
        let mut try_point = |from_b: bool, k: u32, uv: [f64; 2], deepest: &mut Option<Seed>| {
            let (src, dst, probe) = if from_b {
                (b, a, &mut *probe_a)
            } else {
                (a, b, &mut *probe_b)
            };
            let uv = [uv[0].clamp(0.0, 1.0), uv[1].clamp(0.0, 1.0)];
            if !src.piece_keeps(k, uv[0], uv[1]) {
                return;
            }
            let p = src.pieces[k as usize].surface.eval(uv[0], uv[1]);
            // into the other body's frame
            let q = if from_b {
                rel.frame.r * p + rel.frame.t
            } else {
                rt * (p - rel.frame.t)
            };
            if (0..3).any(|i| q[i] < dst.lo[i] - tol || q[i] > dst.hi[i] + tol) {
                return;
            }
            probe.reset(dst);
            let mut c = Candidate::NONE;
            probe.search(dst, &cfg, &q, None, &mut c);
            *iterations += probe.iterations;
            if !c.d.is_finite() || c.d <= tol || !orient(dst, &c, &q).inside {
                return;
            }
            if deepest.map_or(true, |d| c.d > d.0) {
                *deepest = Some(if from_b {
                    (c.d, c.item, c.x, Item::Piece(k), uv)
                } else {
                    (c.d, Item::Piece(k), uv, c.item, c.x)
                });
            }
        };
        // 1. the centre of every piece cell
        for (from_b, src) in [(true, b), (false, a)] {
            for cell in &src.cells {
                if let Item::Piece(k) = cell.item {
                    let uv = [0.5 * (cell.rect[0] + cell.rect[1]), 0.5 * (cell.rect[2] + cell.rect[3])];
                    try_point(from_b, k, uv, &mut deepest);
                }
            }
        }
        // 2. a shallow overlap can miss every centre: rings of points around
        // the contact (where the two surfaces cross), widening
        if deepest.is_none() {
            let around = |body: &BodyGeom, item: Item, x: [f64; 2]| match item {
                Item::Piece(k) => Some((k, x)),
                Item::Trim(t) => {
                    let tr = &body.trims[t as usize];
                    Some((tr.piece, trim_point(body, t, x[0]).1))
                }
                Item::Edge(_) => None,
            };
            let sides = [
                (true, around(b, contact.ib, [contact.x[2], contact.x[3]])),
                (false, around(a, contact.ia, [contact.x[0], contact.x[1]])),
            ];
            'rings: for r in [1e-3, 4e-3, 1.6e-2, 6.4e-2, 0.256] {
                for (from_b, at) in sides {
                    let Some((k, x)) = at else { continue };
                    for j in 0..8 {
                        let th = j as f64 * std::f64::consts::FRAC_PI_4;
                        try_point(from_b, k, [x[0] + r * th.cos(), x[1] + r * th.sin()], &mut deepest);
                    }
                }
                if deepest.is_some() {
                    break 'rings;
                }
            }
        }
        // 3. last resort: a 4×4 grid on every piece cell
        if deepest.is_none() {
            for (from_b, src) in [(true, b), (false, a)] {
                for cell in &src.cells {
                    if let Item::Piece(k) = cell.item {
                        for i in 0..4 {
                            for j in 0..4 {
                                let f = |t: usize, lo: f64, hi: f64| lo + (hi - lo) * (t as f64 + 0.5) / 4.0;
                                let uv = [f(i, cell.rect[0], cell.rect[1]), f(j, cell.rect[2], cell.rect[3])];
                                try_point(from_b, k, uv, &mut deepest);
                            }
                        }
                    }
                }
            }
        }
        let (_, ia, xa, ib, xb) = deepest?;
        let fl = TrackerConfig {
            law: ControlLaw::FeedbackLinearized,
            feed_forward: false,
            max_iters: cfg.max_iters.max(64),
            ..self.cfg
        };
        let seed = [xa[0], xa[1], xb[0], xb[1]];
        let s = solve_pair(&fl, side(a, ia), side(b, ib), rel, seed);
        *iterations += s.iterations;
        let c = s.cand;
        if c.converged
            && c.d > tol
            && keeps(a, c.ia, c.x[0], c.x[1])
            && keeps(b, c.ib, c.x[2], c.x[3])
            && inside_pair(a, b, rel, &c)
        {
            return Some(c);
        }
        // not converged to a critical pair: report the seed pair itself
        let e = solve_pair(
            &TrackerConfig { max_iters: 1, ..fl },
            side(a, ia),
            side(b, ib),
            rel,
            seed,
        );
        Some(PairCandidate {
            converged: false,
            ..e.cand
        })
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn result(
        &self,
        a: &BodyGeom,
        b: &BodyGeom,
        pose_a: &Pose,
        c: &PairCandidate,
        penetrating: bool,
        iterations: u32,
        switches: u32,
        cells_solved: u32,
    ) -> BodyPairResult {
        let rt = self.last.map_or(Matrix3::identity(), |(r, _)| r.transpose());
        let tb = self.last.map_or(Vec3::zeros(), |(_, t)| t);
        let (ca, cb) = candidates(c, &rt, &tb);
        let (feature_a, face_a, piece_a, params_a) = feature_of(a, &ca);
        let (feature_b, face_b, piece_b, params_b) = feature_of(b, &cb);
        let dr = c.pb - c.pa;
        let normal = if c.d > 1e-12 * self.scale {
            if penetrating {
                -dr / c.d
            } else {
                dr / c.d
            }
        } else {
            // touching: A's outward normal at its witness (pseudo-normal on
            // a border)
            let oa = orient(a, &ca, &c.pb);
            if oa.normal.norm() > 0.0 {
                oa.normal / oa.normal.norm()
            } else {
                Vec3::z()
            }
        };
        BodyPairResult {
            distance: c.d,
            signed_distance: if penetrating { -c.d } else { c.d },
            penetrating,
            point_a: pose_a.transform_point(&c.pa),
            point_b: pose_a.transform_point(&c.pb),
            normal: pose_a.transform_vector(&normal),
            feature_a,
            feature_b,
            face_a,
            face_b,
            piece_a,
            piece_b,
            params_a,
            params_b,
            mode_a: c.mode_a,
            mode_b: c.mode_b,
            iterations,
            switches,
            cells_solved,
        }
    }
}

/// An upper bound of the rotation angle `θ` of the rotation matrix `dr`,
/// tight to `O(θ⁵)` for small angles, without a transcendental function
/// (this runs on every update): `|dr − I|_F = 2√2 sin(θ/2)`, and with
/// `x = sin(θ/2) < 0.5`, `asin x ≤ x + x³ / (6 (1 − x²))` (the series'
/// coefficients after the cubic one are below 1/6); larger angles by `acos`.
fn rotation_angle_bound(dr: &Matrix3<f64>) -> f64 {
    let x = (dr - Matrix3::identity()).norm() / (2.0 * std::f64::consts::SQRT_2);
    if x < 0.5 {
        let x2 = x * x;
        2.0 * (x + x * x2 / (6.0 * (1.0 - x2)))
    } else {
        ((dr.trace() - 1.0) * 0.5)
            .clamp(-1.0, 1.0)
            .acos()
            .max(2.0 * x.min(1.0).asin())
    }
}

/// The pair `c` (its items and parameters) re-evaluated at the relative placement `rel`.
fn evaluate(a: &BodyGeom, b: &BodyGeom, rel: &Rel, c: &PairCandidate) -> PairCandidate {
    let pa = eval_item(a, c.ia, c.x[0], c.x[1]).p;
    let pb = rel.frame.r * eval_item(b, c.ib, c.x[2], c.x[3]).p + rel.frame.t;
    PairCandidate {
        d: (pb - pa).norm(),
        pa,
        pb,
        na: Vec3::zeros(),
        nb: Vec3::zeros(),
        ..*c
    }
}

/// The pair's two sides as point–body candidates in their own bodies' frames
/// (inlined everywhere: a plain copy and two 3×3 products).
#[inline(always)]
fn candidates(c: &PairCandidate, rt: &Matrix3<f64>, tb: &Vec3) -> (Candidate, Candidate) {
    let ca = Candidate {
        d: c.d,
        point: c.pa,
        item: c.ia,
        x: [c.x[0], c.x[1]],
        mode: c.mode_a,
        converged: c.converged,
        normal: c.na,
    };
    let cb = Candidate {
        d: c.d,
        point: rt * (c.pb - tb),
        item: c.ib,
        x: [c.x[2], c.x[3]],
        mode: c.mode_b,
        converged: c.converged,
        normal: rt * c.nb,
    };
    (ca, cb)
}

/// The pair's witnesses are each inside the other body locally (B's
/// witness behind A's feature normal, or A's behind B's).
fn inside_pair(a: &BodyGeom, b: &BodyGeom, rel: &Rel, c: &PairCandidate) -> bool {
    let rt = rel.frame.r.transpose();
    let (ca, cb) = candidates(c, &rt, &rel.frame.t);
    orient(a, &ca, &c.pb).inside || orient(b, &cb, &(rt * (c.pa - rel.frame.t))).inside
}

/// Confirms a locally inside pair globally: B's witness is inside A, or A's
/// inside B, by the point–body far phase (its sign: the normal at the
/// global closest boundary point). The local test alone is fooled by a
/// witness saturated on a piece side, whose piece normal says nothing.
fn contained(
    a: &BodyGeom,
    b: &BodyGeom,
    rel: &Rel,
    c: &PairCandidate,
    probe_a: &mut FarState,
    probe_b: &mut FarState,
    cfg: &TrackerConfig,
) -> bool {
    let rt = rel.frame.r.transpose();
    let tol = 1e-9 * (1.0 + c.d);
    let inside = |body: &BodyGeom, probe: &mut FarState, q: Vec3| {
        probe.reset(body);
        let mut k = Candidate::NONE;
        probe.search(body, cfg, &q, None, &mut k);
        k.d.is_finite() && k.d > tol && orient(body, &k, &q).inside
    };
    inside(a, probe_a, c.pb) || inside(b, probe_b, rt * (c.pa - rel.frame.t))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference: the cone test by coordinate descent run to convergence.
    fn descent(ns: &[Vec3], v: &Vec3) -> f64 {
        let mut r = v / v.norm();
        let mut w = [0.0; 8];
        for _ in 0..100_000 {
            for (i, n) in ns.iter().enumerate() {
                let a = (w[i] + n.dot(&r)).max(0.0);
                r -= n * (a - w[i]);
                w[i] = a;
            }
        }
        r.norm()
    }

    #[test]
    fn rotation_angle_bound_is_above_the_angle_and_tight() {
        for &deg in &[
            0.0, 1e-6, 1e-3, 0.05, 1.0, 10.0, 59.0, 60.0, 61.0, 120.0, 150.0, 179.0, 180.0,
        ] {
            let th = f64::to_radians(deg);
            let axis = nalgebra::Unit::new_normalize(Vec3::new(0.3, -0.5, 0.8));
            let r = nalgebra::Rotation3::from_axis_angle(&axis, th).into_inner();
            let b = rotation_angle_bound(&r);
            assert!(b >= th - 1e-15, "{deg}°: bound {b} below {th}");
            assert!(
                b <= th * (1.0 + 0.02 * th * th) + 1e-12,
                "{deg}°: bound {b} loose for {th}"
            );
        }
    }

    #[test]
    fn two_normal_cone_test_is_the_exact_least_squares() {
        // pairs of unit normals at 1°–150° and directions inside, outside
        // and within ±1e-7 of the 1e-5 threshold
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        let (mut inside, mut outside) = (0, 0);
        for k in 0..4000 {
            let n1 = Vec3::new(rnd(), rnd(), rnd()).normalize();
            let axis = n1.cross(&Vec3::new(rnd(), rnd(), rnd())).normalize();
            let ang = (1.0 + 149.0 * (0.5 + 0.5 * rnd())).to_radians();
            let n2 = nalgebra::Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(axis), ang) * n1;
            let v = match k % 3 {
                0 => n1 * (0.5 + rnd().abs()) + n2 * rnd().abs(),
                1 => Vec3::new(rnd(), rnd(), rnd()),
                _ => {
                    // just outside or inside the slack, off a side of the cone
                    let off = axis.cross(&n1).normalize();
                    let s = if off.dot(&n2) > 0.0 { -1.0 } else { 1.0 };
                    n1 + off * s * (1e-5 + 2e-7 * rnd())
                }
            };
            let res = descent(&[n1, n2], &v);
            if (res - 1e-5).abs() < 1e-9 {
                continue; // too close to the threshold for the reference
            }
            let want = res <= 1e-5;
            assert_eq!(in_cone(&[n1, n2], &v), want, "case {k}: residual {res:e}");
            if want {
                inside += 1;
            } else {
                outside += 1;
            }
        }
        assert!(inside > 1000 && outside > 1000, "{inside} inside, {outside} outside");
    }
}
