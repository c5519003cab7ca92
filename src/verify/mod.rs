//! Self-check of a prepared scene against the imported Model (issue 25).
//!
//! [`verify`] checks, per Model face and independently of the way the
//! preparation built the pieces' trims (nothing here calls `prepare::trim`
//! or the importer's `FaceTrim`; only the Model's surface/curve evaluation
//! and point projection in `import::eval` are shared):
//!
//! * **accounting**: every face of every Model body has pieces in the scene,
//!   else it is reported `DROPPED` with the reason (the preparation's
//!   `face #N skipped` warning, or "no piece survived the trim"); every face
//!   entity of the file that the importer could not make a Model face
//!   ([`Model::dropped`](crate::import::model::Model::dropped)) is a
//!   `DROPPED` record too, with the importer's reason; a body whose closed
//!   shell lost a face (in either way) gets `SHELL_INCOMPLETE`;
//! * **coverage**: the area of the face's pieces (each piece's Bézier area
//!   element integrated over the part its trim keeps, by this module's own
//!   even-odd test on the trim curves) equals the face's trimmed area computed
//!   from the Model's own boundary by Green's theorem (`region`);
//! * **containment**: points sampled on each piece, inside it and along its
//!   trim, lie on the face's surface and inside the face (this module's own
//!   point-in-face test on the Model's 3-D edges);
//! * **boundary**: points along every Model edge of the face (seams excepted)
//!   lie on the boundary of the face's pieces.
//!
//! Each face is checked under a work budget derived from its size
//! ([`budget`]); a face over it is reported [`NOT_CHECKED`] (its answers are
//! unverified, as on a failing face), never passed.
//!
//! The records ([`FaceReport`], [`BodyReport`]) are those of
//! `notes/SELFCHECK.md`, mirrored by the scene format.

mod boundary;
pub mod budget;
pub mod cost;
mod nearest;
mod piece;
mod region;
mod sampled_curves;

use crate::import::model::Model;
use crate::scene::data::{BodyCheck, FaceCheck, SceneData, NONE};
use crate::scene::records;
use piece::Patch;
use rayon::prelude::*;
use region::Region;
use serde::Serialize;
use std::collections::HashMap;

/// Face bit: a face of the file that is not in the scene.
pub const DROPPED: u32 = records::FACE_DROPPED;
/// Face bit: the pieces' area differs from the face's trimmed area.
pub const COVERAGE: u32 = records::FACE_COVERAGE;
/// Face bit: a piece sample lies off the face (off its surface or outside its boundary).
pub const CONTAINMENT: u32 = records::FACE_CONTAINMENT;
/// Face bit: a Model edge of the face is not on the boundary of its pieces.
pub const BOUNDARY: u32 = records::FACE_BOUNDARY;
/// Face bit: the check could not run on this face.
pub const NOT_CHECKED: u32 = records::FACE_NOT_CHECKED;

/// Body bit: a closed shell lost a face (signed distance unreliable).
pub const SHELL_INCOMPLETE: u32 = records::BODY_SHELL_INCOMPLETE;
/// Body bit: some face of the body failed.
pub const FACES_FAILED: u32 = records::BODY_FACES_FAILED;

/// The check of one face (`notes/SELFCHECK.md`, `FaceCheck`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FaceReport {
    /// The face's entity id in the file (STEP `#N`, IGES DE number).
    pub source_face: u64,
    /// Scene body index (`u32::MAX` when the face belongs to no body).
    pub body: u32,
    /// Bitset of [`DROPPED`], [`COVERAGE`], [`CONTAINMENT`], [`BOUNDARY`], [`NOT_CHECKED`] (0 = verified).
    pub failed: u32,
    /// mm², the face's trimmed area from the Model's own boundary (NaN if not computed).
    pub model_area: f64,
    /// mm², total area of the face's pieces.
    pub piece_area: f64,
    /// mm, largest distance of a sample of the face's pieces from the source face; 0 if none.
    pub worst_containment: f64,
    /// mm, largest distance of a Model edge sample from the boundary of the face's pieces.
    pub worst_boundary: f64,
}

/// The check of one body (`notes/SELFCHECK.md`, `BodyCheck`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BodyReport {
    /// Scene body index.
    pub body: u32,
    /// Bitset of [`SHELL_INCOMPLETE`], [`FACES_FAILED`].
    pub failed: u32,
    /// Faces of the body not in the scene.
    pub dropped_faces: u32,
    /// Faces of the body that failed a check (dropped ones included).
    pub failed_faces: u32,
}

/// What the checks of one face compared against (same order as [`VerifyReport::faces`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FaceContext {
    /// Linear tolerance used, mm.
    pub tolerance: f64,
    /// Area tolerance used, mm².
    pub area_tolerance: f64,
    /// Why a face was dropped or not checked (empty otherwise).
    pub note: String,
}

/// Totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub struct Summary {
    /// Faces checked (records).
    pub faces: usize,
    /// Faces with a failure bit other than [`NOT_CHECKED`].
    pub failed: usize,
    /// Dropped faces.
    pub dropped: usize,
    /// Faces the check could not run on.
    pub not_checked: usize,
    /// Bodies with [`SHELL_INCOMPLETE`].
    pub incomplete_bodies: usize,
    /// Failed faces whose file contradicts itself beyond the tolerance (a
    /// p-curve against its 3-D curve: [`FILE_CONTRADICTORY`] notes them).
    pub file_contradictory: usize,
}

/// The note of a failed face whose file contradicts itself: a p-curve's
/// image lies farther from its coedge's 3-D curve than the face's
/// tolerance, so no trim follows both (the scene follows one of them); the
/// face still fails (its answers are unverified).
pub const FILE_CONTRADICTORY: &str = "file-contradictory";

/// The result of [`verify`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerifyReport {
    /// One record per face (Model faces per body, then stray pieces' faces).
    pub faces: Vec<FaceReport>,
    /// Tolerances and notes, parallel to `faces`.
    pub context: Vec<FaceContext>,
    /// One record per scene body.
    pub bodies: Vec<BodyReport>,
    /// Totals.
    pub summary: Summary,
}

/// Which face bits count as a failure (everything but [`NOT_CHECKED`]).
pub const FAILURE_BITS: u32 = DROPPED | COVERAGE | CONTAINMENT | BOUNDARY;

impl VerifyReport {
    /// True when no face failed.
    pub fn passed(&self) -> bool {
        self.summary.failed == 0
    }

    /// The failing and unchecked faces (one line each: entity id, what
    /// failed, by how much, or why it was not checked) and a summary line.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for (f, c) in self.faces.iter().zip(&self.context) {
            if f.failed == 0 {
                continue;
            }
            s.push_str(&face_line(f, c));
            s.push('\n');
        }
        for b in &self.bodies {
            if b.failed & SHELL_INCOMPLETE != 0 {
                s.push_str(&format!(
                    "body {}: closed shell lost {} face(s): signed distance unreliable\n",
                    b.body, b.dropped_faces
                ));
            }
        }
        let m = &self.summary;
        let contradictory = if m.file_contradictory > 0 {
            format!(", {} file-contradictory", m.file_contradictory)
        } else {
            String::new()
        };
        s.push_str(&format!(
            "verify: {} faces, {} failed ({} dropped), {} not checked, {} incomplete bodies{}: {}\n",
            m.faces,
            m.failed,
            m.dropped,
            m.not_checked,
            m.incomplete_bodies,
            contradictory,
            if self.passed() { "PASS" } else { "FAIL" }
        ));
        s
    }
}

impl VerifyReport {
    /// The per-face records of the scene format (section `face_checks`).
    pub fn face_checks(&self) -> Vec<FaceCheck> {
        self.faces
            .iter()
            .map(|f| FaceCheck {
                source_face: f.source_face,
                body: if f.body == u32::MAX { NONE } else { f.body },
                failed: f.failed,
                model_area: f.model_area,
                piece_area: f.piece_area,
                worst_containment: f.worst_containment,
                worst_boundary: f.worst_boundary,
            })
            .collect()
    }

    /// The per-body records of the scene format (section `body_checks`).
    pub fn body_checks(&self) -> Vec<BodyCheck> {
        self.bodies
            .iter()
            .map(|b| BodyCheck {
                body: b.body,
                failed: b.failed,
                dropped_faces: b.dropped_faces,
                failed_faces: b.failed_faces,
            })
            .collect()
    }
}

/// Checks `scene` against `model` and stores the records in the scene
/// (`face_checks`, `body_checks`), so that answers on a failed face carry
/// the `UNVERIFIED_FACE` status.
pub fn verify_into(model: &Model, scene: &mut SceneData) -> VerifyReport {
    let report = verify(model, scene);
    scene.face_checks = report.face_checks();
    scene.body_checks = report.body_checks();
    report
}

/// CPU nanoseconds of the calling thread (Linux; for the budget trace).
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// One line for a failing or unchecked face.
pub fn face_line(f: &FaceReport, c: &FaceContext) -> String {
    let mut what = Vec::new();
    if f.failed & DROPPED != 0 {
        what.push(format!("dropped ({})", c.note));
    }
    if f.failed & COVERAGE != 0 {
        what.push(format!(
            "coverage: pieces {:.6} mm² vs face {:.6} mm² (diff {:.3e} > {:.1e})",
            f.piece_area,
            f.model_area,
            (f.piece_area - f.model_area).abs(),
            c.area_tolerance
        ));
    }
    if f.failed & CONTAINMENT != 0 {
        what.push(format!(
            "containment: a piece point {:.3e} mm off the face (> {:.1e})",
            f.worst_containment, c.tolerance
        ));
    }
    if f.failed & BOUNDARY != 0 {
        what.push(format!(
            "boundary: an edge point {:.3e} mm from the pieces (> {:.1e})",
            f.worst_boundary, c.tolerance
        ));
    }
    if f.failed & NOT_CHECKED != 0 {
        what.push(format!("not checked ({})", c.note));
    } else if f.failed & DROPPED == 0 && c.note.starts_with(FILE_CONTRADICTORY) {
        what.push(c.note.clone());
    }
    let body = if f.body == u32::MAX {
        "-".to_string()
    } else {
        f.body.to_string()
    };
    format!("face #{} (body {body}): {}", f.source_face, what.join("; "))
}

/// The linear tolerance of a face, mm: the file's tolerance (1e-3 mm when
/// the file gives none), at least 1e-6 of the face's size (the arithmetic
/// of the check and of the scene's f64 poles cannot do better) and at most
/// 1e-3 of the Model's diagonal (a file stating a coarser tolerance than that
/// would let whole features pass).
pub fn linear_tolerance(file_tol: Option<f64>, face_size: f64, model_diag: f64) -> f64 {
    let t = file_tol.filter(|t| t.is_finite() && *t > 0.0).unwrap_or(1e-3);
    let t = t.min(1e-3 * model_diag.max(1e-9));
    t.max(1e-6 * face_size)
}

/// The area tolerance of a face, mm²: the linear tolerance times the face's
/// perimeter (a band of the tolerance's width along the boundary), plus the
/// estimated quadrature error of both areas (`quadrature`, taken 4 times)
/// and 1e-9 of the face's area (rounding).
pub fn area_tolerance(tol: f64, perimeter: f64, area: f64, quadrature: f64) -> f64 {
    tol * perimeter + 4.0 * quadrature + 1e-9 * area.abs()
}

/// Checks `scene` against `model` (the Model it was prepared from). See the
/// module documentation for the four checks.
pub fn verify(model: &Model, scene: &SceneData) -> VerifyReport {
    verify_capped(model, scene, budget::MAX_UNITS)
}

/// [`verify`] with every face's work budget ([`budget::face_budget`]) capped
/// at `max_units` (to see which faces a smaller budget would leave
/// unchecked; [`verify`] caps at [`budget::MAX_UNITS`]; a cap above that
/// lifts the budgets).
pub fn verify_capped(model: &Model, scene: &SceneData, max_units: u64) -> VerifyReport {
    // Model body → scene body (the preparation skips faceless bodies)
    let mut body_map = Vec::with_capacity(model.bodies.len());
    let mut next = 0u32;
    for b in &model.bodies {
        if b.face_indices().count() == 0 || next as usize >= scene.bodies.len() {
            body_map.push(None);
        } else {
            body_map.push(Some(next));
            next += 1;
        }
    }
    let mut by_face: HashMap<(u32, u64), Vec<usize>> = HashMap::new();
    for (i, p) in scene.pieces.iter().enumerate() {
        by_face.entry((p.body, p.source_face)).or_default().push(i);
    }
    let skipped: HashMap<u64, String> = scene
        .meta
        .warnings
        .iter()
        .filter_map(|w| {
            let r = w.strip_prefix("prepare: face #")?;
            let (id, why) = r.split_once(" skipped: ")?;
            Some((id.parse().ok()?, why.to_string()))
        })
        .collect();
    // the model's diagonal
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for v in &model.vertices {
        for k in 0..3 {
            lo[k] = lo[k].min(v.point[k]);
            hi[k] = hi[k].max(v.point[k]);
        }
    }
    for p in &scene.pieces {
        for k in 0..3 {
            lo[k] = lo[k].min(p.bbox.min[k]);
            hi[k] = hi[k].max(p.bbox.max[k]);
        }
    }
    let diag = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f64>().sqrt();
    let diag = if diag.is_finite() { diag } else { 1.0 };

    let mut jobs: Vec<(usize, usize, Option<u32>)> = Vec::new();
    for (bi, b) in model.bodies.iter().enumerate() {
        for fi in b.face_indices() {
            jobs.push((bi, fi, body_map[bi]));
        }
    }
    // EXTRACK_BUDGET_TRACE: what every face's check spent, by stage, and
    // its thread's CPU time, on stderr (as the preparation's budget trace;
    // `=calibrate`: with no budget, to see what the faces would spend)
    let trace = std::env::var_os("EXTRACK_BUDGET_TRACE").is_some();
    let max_units = if std::env::var_os("EXTRACK_BUDGET_TRACE").is_some_and(|v| v == "calibrate") {
        u64::MAX / 4
    } else {
        max_units
    };
    let results: Vec<(FaceReport, FaceContext)> = jobs
        .par_iter()
        .map(|&(_, fi, sb)| {
            let face = &model.faces[fi];
            let pieces: &[usize] = sb
                .and_then(|b| by_face.get(&(b, face.source)))
                .map_or(&[], |v| v.as_slice());
            let cpu0 = trace.then(thread_cpu_ns).flatten();
            let (rep, ctx, spent, stages) = check_face(model, fi, sb, pieces, scene, &skipped, diag, max_units);
            if trace {
                let cpu = cpu0.zip(thread_cpu_ns()).map_or(0, |(a, b)| b.saturating_sub(a) / 1000);
                eprintln!(
                    "verify budget: face #{} spent {} of {} units{} (trims {}, boundary trace {}, containment {}, \
                     boundary {}; {} us CPU)",
                    face.source,
                    spent.units,
                    budget::face_budget(&model.edges, face, pieces.len()),
                    if spent.exceeded { " (exceeded)" } else { "" },
                    stages[0],
                    stages[1] - stages[0],
                    stages[2] - stages[1],
                    spent.units - stages[2],
                    cpu
                );
            }
            (rep, ctx)
        })
        .collect();
    let mut faces = Vec::with_capacity(results.len() + 1);
    let mut context = Vec::with_capacity(results.len() + 1);
    for (f, c) in results {
        faces.push(f);
        context.push(c);
    }
    // pieces whose face is not in the Model
    let known: std::collections::HashSet<(u32, u64)> = jobs
        .iter()
        .filter_map(|&(_, fi, sb)| sb.map(|b| (b, model.faces[fi].source)))
        .collect();
    let mut stray: Vec<(u32, u64)> = by_face.keys().filter(|k| !known.contains(k)).copied().collect();
    stray.sort_unstable();
    for (b, src) in stray {
        faces.push(FaceReport {
            source_face: src,
            body: b,
            failed: CONTAINMENT,
            model_area: f64::NAN,
            piece_area: by_face[&(b, src)]
                .iter()
                .filter_map(|&i| Patch::new(&scene.pieces[i]).map(|p| p.area().0))
                .sum(),
            worst_containment: f64::INFINITY,
            worst_boundary: 0.0,
        });
        context.push(FaceContext {
            tolerance: 0.0,
            area_tolerance: 0.0,
            note: "pieces of a face that is not in the Model".into(),
        });
    }
    // face entities of the file that the importer could not make Model faces
    let mut incomplete = Vec::new();
    for d in &model.dropped {
        let sb = d.body.and_then(|b| body_map.get(b).copied().flatten());
        let body = sb.unwrap_or(u32::MAX);
        if faces.iter().any(|f| f.source_face == d.source && f.body == body) {
            continue;
        }
        if d.closed_shell {
            incomplete.extend(sb);
        }
        faces.push(FaceReport {
            source_face: d.source,
            body,
            failed: DROPPED,
            model_area: f64::NAN,
            piece_area: 0.0,
            worst_containment: 0.0,
            worst_boundary: 0.0,
        });
        context.push(FaceContext {
            tolerance: 0.0,
            area_tolerance: 0.0,
            note: format!("not imported: {}", d.reason),
        });
    }
    // bodies
    let mut bodies: Vec<BodyReport> = (0..scene.bodies.len() as u32)
        .map(|body| BodyReport {
            body,
            failed: 0,
            dropped_faces: 0,
            failed_faces: 0,
        })
        .collect();
    for (bi, b) in model.bodies.iter().enumerate() {
        let Some(sb) = body_map[bi] else { continue };
        let Some(rep) = bodies.get_mut(sb as usize) else {
            continue;
        };
        for sh in &b.shells {
            let lost = sh.faces.iter().any(|&fi| {
                faces
                    .iter()
                    .any(|f| f.body == sb && f.source_face == model.faces[fi].source && f.failed & DROPPED != 0)
            });
            if lost && (sh.closed || b.kind == crate::import::model::BodyKind::Solid) {
                rep.failed |= SHELL_INCOMPLETE;
            }
        }
    }
    for b in incomplete {
        if let Some(rep) = bodies.get_mut(b as usize) {
            rep.failed |= SHELL_INCOMPLETE;
        }
    }
    for f in &faces {
        if let Some(rep) = bodies.get_mut(f.body as usize) {
            if f.failed & DROPPED != 0 {
                rep.dropped_faces += 1;
            }
            if f.failed & FAILURE_BITS != 0 {
                rep.failed_faces += 1;
                rep.failed |= FACES_FAILED;
            }
        }
    }
    let summary = Summary {
        faces: faces.len(),
        failed: faces.iter().filter(|f| f.failed & FAILURE_BITS != 0).count(),
        dropped: faces.iter().filter(|f| f.failed & DROPPED != 0).count(),
        not_checked: faces.iter().filter(|f| f.failed & NOT_CHECKED != 0).count(),
        incomplete_bodies: bodies.iter().filter(|b| b.failed & SHELL_INCOMPLETE != 0).count(),
        file_contradictory: faces
            .iter()
            .zip(&context)
            .filter(|(f, c)| f.failed & FAILURE_BITS != 0 && c.note.starts_with(FILE_CONTRADICTORY))
            .count(),
    };
    VerifyReport {
        faces,
        context,
        bodies,
        summary,
    }
}

/// Containment samples: an `n × n` grid per piece, and points per trim curve.
const GRID: usize = 4;
const PER_ARC: usize = 2;

/// Checks one face under its work budget ([`budget::face_budget`], at most
/// `max_units`): a face whose check spends it is reported [`NOT_CHECKED`]
/// (with whatever failed before), and what it spent.
#[allow(clippy::too_many_arguments)]
fn check_face(
    model: &Model,
    fi: usize,
    body: Option<u32>,
    pieces: &[usize],
    scene: &SceneData,
    skipped: &HashMap<u64, String>,
    diag: f64,
    max_units: u64,
) -> (FaceReport, FaceContext, budget::Spent, [u64; 3]) {
    let face = &model.faces[fi];
    let mut rep = FaceReport {
        source_face: face.source,
        body: body.unwrap_or(u32::MAX),
        failed: 0,
        model_area: f64::NAN,
        piece_area: 0.0,
        worst_containment: 0.0,
        worst_boundary: 0.0,
    };
    let mut ctx = FaceContext {
        tolerance: 0.0,
        area_tolerance: 0.0,
        note: String::new(),
    };
    if pieces.is_empty() {
        rep.failed |= DROPPED;
        ctx.note = skipped
            .get(&face.source)
            .cloned()
            .unwrap_or_else(|| "no piece in the scene".into());
        return (rep, ctx, budget::Spent::default(), [0; 3]);
    }
    // a cap above the largest budget lifts it (`EXTRACK_BUDGET_TRACE=calibrate`)
    let units = if max_units > budget::MAX_UNITS {
        max_units
    } else {
        budget::face_budget(&model.edges, face, pieces.len()).min(max_units)
    };
    let (stages, spent) = budget::run(units, || {
        let mut stages = [0; 3];
        check_pieces(model, face, pieces, scene, diag, &mut rep, &mut ctx, &mut stages);
        stages
    });
    if spent.exceeded {
        rep.failed |= NOT_CHECKED;
        ctx.note = format!(
            "self-check work budget of {units} units spent (the check is bounded per face, see README \"Limits\"); \
             its answers are unverified"
        );
    }
    (rep, ctx, spent, stages)
}

/// The four checks of a face with pieces (see the module documentation),
/// charging [`budget`] and stopping once it is spent; `stages`: the units
/// spent at the end of the trims, the boundary's trace and containment.
#[allow(clippy::too_many_arguments)]
fn check_pieces(
    model: &Model,
    face: &crate::import::model::Face,
    pieces: &[usize],
    scene: &SceneData,
    diag: f64,
    rep: &mut FaceReport,
    ctx: &mut FaceContext,
    stages: &mut [u64; 3],
) {
    // the trims' samples take memory: priced before they are built
    let arcs = pieces
        .iter()
        .map(|&i| budget::arc_units(&scene.pieces[i]))
        .fold(0u64, u64::saturating_add);
    let ok = arcs <= budget::MAX_ARC_UNITS && budget::charge(arcs);
    if !ok {
        budget::charge(u64::MAX);
    }
    *stages = [budget::spent_so_far(); 3];
    if !ok {
        return;
    }
    let patches: Vec<Patch> = pieces.iter().filter_map(|&i| Patch::new(&scene.pieces[i])).collect();
    let mut piece_err = 0.0;
    for p in &patches {
        let (a, e) = p.area();
        rep.piece_area += a;
        piece_err += e;
    }
    let Some(mut region) = Region::new(model, face) else {
        rep.failed |= NOT_CHECKED;
        ctx.note = "the face has no boundary and no bounded natural domain".into();
        return;
    };
    // tracing the boundary and its area walk the nodes
    let nodes: usize = region.loops.iter().map(|l| l.nodes.len()).sum();
    let ok = budget::charge(2 * nodes as u64);
    stages[1] = budget::spent_so_far();
    stages[2] = stages[1];
    if !ok {
        return;
    }
    if patches.len() != pieces.len() {
        rep.failed |= NOT_CHECKED;
        ctx.note = "a piece has an unsupported degree or trim".into();
    }
    // the face's size: its pieces' box
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for &i in pieces {
        let b = &scene.pieces[i].bbox;
        for k in 0..3 {
            lo[k] = lo[k].min(b.min[k]);
            hi[k] = hi[k].max(b.max[k]);
        }
    }
    let size = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f64>().sqrt();
    // the file's tolerance plus how far the face's own traced boundary lies
    // off its surface (pieces on the surface are at least that far from an
    // edge off it, and their trims still get the file's tolerance: with the
    // larger of the two alone, an edge 7.6e-4 mm off its cone failed by
    // 3e-8 mm, sw2017_russian_part), at most 1e-3 of the Model's diagonal
    let linear = linear_tolerance(model.tolerance, size, diag);
    let tol = (linear + region.uncertainty).min(1e-3 * diag).max(linear);
    ctx.tolerance = tol;
    region.follow_curves_within(tol);

    // coverage
    let (area, model_err) = region.area();
    rep.model_area = area;
    ctx.area_tolerance = area_tolerance(tol, region.perimeter, area, model_err + piece_err);
    if !area.is_finite() {
        rep.failed |= NOT_CHECKED;
        ctx.note = "the face's area could not be computed".into();
    } else if !((rep.piece_area - area).abs() <= ctx.area_tolerance) {
        rep.failed |= COVERAGE;
    }

    // containment: each sample projected from its piece's own parameters
    let sample = budget::sample_units(budget::evaluation_weight(&face.surface), nodes);
    let mut worst = 0.0f64;
    let mut scratch = sampled_curves::Scratch::default();
    'pieces: for p in &patches {
        let dom = p.piece.domain;
        for (st, q) in p.samples(GRID, PER_ARC) {
            if !budget::charge(sample) {
                break 'pieces;
            }
            let (u, v) = (dom[0] + st[0] * (dom[1] - dom[0]), dom[2] + st[1] * (dom[3] - dom[2]));
            let hint = region.to_ab(u, v);
            let (ab, d) = region.project_near(&q, Some(hint), tol);
            let mut e = d;
            if d <= tol && !region.contains(ab) {
                // a walk over every node, refining the nearer curves
                if !budget::charge(sample) {
                    break 'pieces;
                }
                e = e.max(region.boundary_distance(&q, tol, &mut scratch));
            }
            worst = worst.max(e);
        }
    }
    rep.worst_containment = worst;
    if !(worst <= tol) {
        rep.failed |= CONTAINMENT;
    }
    stages[2] = budget::spent_so_far();
    if budget::exceeded() {
        return;
    }

    // boundary: every Model edge point near the boundary of some piece
    let worst_b = boundary::worst_boundary(&region, &patches, tol);
    rep.worst_boundary = worst_b;
    // (a point found beyond the tolerance fails the face even when the
    // budget ran out before the last point)
    if !(worst_b <= tol) {
        rep.failed |= BOUNDARY;
    }
    // a failure where the file's p-curve and 3-D curve part by more than the
    // tolerance, and by as much as the failure: the file's own (the check
    // follows the p-curve, the scene may follow either), said so, still a
    // failure
    let gap = tol + region.contradiction;
    let explained = rep.worst_boundary <= gap
        && rep.worst_containment <= gap
        && (rep.piece_area - rep.model_area).abs() <= ctx.area_tolerance + region.contradiction * region.perimeter;
    if rep.failed & (COVERAGE | CONTAINMENT | BOUNDARY) != 0
        && region.contradiction > tol
        && explained
        && ctx.note.is_empty()
    {
        ctx.note = format!(
            "{FILE_CONTRADICTORY}: p-curve vs 3-D curve gap {:.3e} mm > tolerance {:.1e} mm",
            region.contradiction, tol
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_contradictory_face_says_so_and_still_fails() {
        let f = FaceReport {
            source_face: 7,
            body: 0,
            failed: BOUNDARY,
            model_area: 1.0,
            piece_area: 1.0,
            worst_containment: 0.0,
            worst_boundary: 5e-3,
        };
        let c = FaceContext {
            tolerance: 1e-3,
            area_tolerance: 1e-3,
            note: format!("{FILE_CONTRADICTORY}: p-curve vs 3-D curve gap 6.000e-3 mm > tolerance 1.0e-3 mm"),
        };
        let line = face_line(&f, &c);
        assert!(
            line.contains("boundary: an edge point 5.000e-3") && line.contains(FILE_CONTRADICTORY),
            "{line}"
        );
        let r = VerifyReport {
            faces: vec![f],
            context: vec![c],
            bodies: Vec::new(),
            summary: Summary {
                faces: 1,
                failed: 1,
                file_contradictory: 1,
                ..Summary::default()
            },
        };
        assert!(!r.passed());
        assert!(r.to_text().contains("1 file-contradictory: FAIL"), "{}", r.to_text());
    }
}
