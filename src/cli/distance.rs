//! `extrack distance SCENE --bodies I J [--scene-b OTHER] [--json]`: the
//! global minimum distance (or the penetration) between two bodies at their
//! placements (a cold body–body query).

use crate::geom::{Pose, Vec3};
use crate::scene::data::FeatureRef;
use crate::track::{body_distance, BodyPairResult, TrackScene};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `extrack distance`.
#[derive(Args)]
pub struct DistanceArgs {
    /// A scene (.exs) written by `extrack import`, or a STEP/IGES file (imported and prepared first).
    pub scene: PathBuf,
    /// The two bodies: body I of SCENE and body J of SCENE (or of `--scene-b`). I = J in one scene is allowed (distance 0).
    #[arg(long, num_args = 2, value_names = ["I", "J"], required = true, allow_negative_numbers = true)]
    pub bodies: Vec<String>,
    /// Take body J from this scene (.exs, STEP or IGES) instead of SCENE.
    #[arg(long)]
    pub scene_b: Option<PathBuf>,
    /// JSON output: `{"distance", "penetrating", "point_a", "point_b", "normal", "signed_distance", "feature_a", "feature_b", "face_a", "face_b", "params_a", "params_b", "verified", "status"}`
    /// (`verified` and `status` as `extrack query` gives them: both witnesses' faces and bodies passed the scene's self-check and the solve converged; the names of the answer's status bits).
    #[arg(long)]
    pub json: bool,
}

/// Parses the two `--bodies` values (one readable line on bad input).
pub fn parse_bodies(values: &[String]) -> Result<(u32, u32), String> {
    let parse = |s: &String| {
        s.trim()
            .parse::<u32>()
            .map_err(|_| format!("--bodies: `{s}` is not a body index (a non-negative integer)"))
    };
    match values {
        [a, b] => Ok((parse(a)?, parse(b)?)),
        _ => Err(format!("--bodies takes two body indices, got {}", values.len())),
    }
}

/// Checks that `body` exists in `scene` (read from `path`), naming the scene on failure.
pub fn check_body(scene: &TrackScene, body: u32, path: &std::path::Path) -> Result<(), String> {
    scene
        .body(body)
        .map(|_| ())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// A feature as text: `piece:12`, `edge:3`, `vertex:7`.
pub fn feature_text(f: FeatureRef) -> String {
    match f {
        FeatureRef::Piece(i) => format!("piece:{i}"),
        FeatureRef::Edge(i) => format!("edge:{i}"),
        FeatureRef::Vertex(i) => format!("vertex:{i}"),
    }
}

fn v3(v: &Vec3) -> [f64; 3] {
    [v.x, v.y, v.z]
}

/// The JSON object of a body–body answer: the five keys first, in
/// this order (serde writes struct fields in declaration order).
#[derive(serde::Serialize)]
pub struct ResultJson {
    /// Separation or penetration depth, mm.
    pub distance: f64,
    /// The bodies interpenetrate.
    pub penetrating: bool,
    /// Witness on A, world.
    pub point_a: [f64; 3],
    /// Witness on B, world.
    pub point_b: [f64; 3],
    /// Unit normal: the direction B must move to increase the separation.
    pub normal: [f64; 3],
    /// `distance`, negative when penetrating.
    pub signed_distance: f64,
    /// A's feature, `piece:N` / `edge:N` / `vertex:N`.
    pub feature_a: String,
    /// B's feature.
    pub feature_b: String,
    /// Source face entity id of A's piece (0 if none).
    pub face_a: u64,
    /// Source face entity id of B's piece.
    pub face_b: u64,
    /// A's witness parameters.
    pub params_a: [f64; 2],
    /// B's witness parameters.
    pub params_b: [f64; 2],
    /// The scene's self-check passed for both witnesses' faces and bodies
    /// and the solve converged (`extrack query`'s field).
    pub verified: bool,
    /// The names of the answer's status bits (`checked`, `unverified_face`,
    /// `shell_incomplete`, `unconverged`).
    pub status: Vec<&'static str>,
}

impl From<&BodyPairResult> for ResultJson {
    fn from(r: &BodyPairResult) -> Self {
        Self {
            distance: r.distance,
            penetrating: r.penetrating,
            point_a: v3(&r.point_a),
            point_b: v3(&r.point_b),
            normal: v3(&r.normal),
            signed_distance: r.signed_distance,
            feature_a: feature_text(r.feature_a),
            feature_b: feature_text(r.feature_b),
            face_a: r.face_a,
            face_b: r.face_b,
            params_a: r.params_a,
            params_b: r.params_b,
            verified: r.status.is_verified(),
            status: r.status.names(),
        }
    }
}

/// The readable text block of a body–body answer; the first line ends with
/// the answer's status mark as `extrack query` prints it (`  UNVERIFIED
/// (unverified_face, …)`, nothing for a verified or unchecked converged answer).
pub fn result_text(r: &BodyPairResult, a: u32, b: u32) -> String {
    let state = if r.penetrating {
        "penetrating"
    } else if r.distance == 0.0 {
        "touching"
    } else {
        "apart"
    };
    // values that print as zero print without a sign ("0.000000", not "-0.000000")
    let z = |x: f64, digits: i32| if x.abs() < 0.5 * 10f64.powi(-digits) { 0.0 } else { x };
    let p = |v: &Vec3| format!("({:.9}, {:.9}, {:.9})", z(v.x, 9), z(v.y, 9), z(v.z, 9));
    format!(
        "bodies {a} and {b}: {state}{}\n  distance         {:.9} mm\n  signed distance  {:.9} mm\n  point on A       {}  {} (face #{})  params ({:.6}, {:.6})\n  point on B       {}  {} (face #{})  params ({:.6}, {:.6})\n  normal (B away)  ({:.6}, {:.6}, {:.6})\n",
        super::query::status_text(r.status),
        r.distance,
        r.signed_distance,
        p(&r.point_a),
        r.feature_a.label(),
        r.face_a,
        r.params_a[0],
        r.params_a[1],
        p(&r.point_b),
        r.feature_b.label(),
        r.face_b,
        r.params_b[0],
        r.params_b[1],
        z(r.normal.x, 6),
        z(r.normal.y, 6),
        z(r.normal.z, 6),
    )
}

/// The answer for body `a` against itself: the bodies coincide, so the
/// distance is 0 (touching everywhere); the witnesses are one point of the
/// body (its answer to a point query from its box corner).
fn self_distance(scene: &TrackScene, a: u32) -> Result<BodyPairResult, String> {
    let body = scene.body(a).map_err(|e| e.to_string())?;
    let corner = body.placement.transform_point(&(body.hi + (body.hi - body.lo)));
    let r = crate::track::closest_point(
        scene,
        &crate::track::Target::Body {
            index: a,
            pose: Pose::identity(),
        },
        corner,
    )
    .map_err(|e| e.to_string())?;
    Ok(BodyPairResult {
        distance: 0.0,
        signed_distance: 0.0,
        penetrating: false,
        point_a: r.point,
        point_b: r.point,
        normal: r.normal,
        feature_a: r.feature,
        feature_b: r.feature,
        face_a: r.face,
        face_b: r.face,
        piece_a: r.piece,
        piece_b: r.piece,
        params_a: r.params,
        params_b: r.params,
        mode_a: r.mode,
        mode_b: r.mode,
        iterations: r.iterations,
        switches: 0,
        cells_solved: r.cells_solved,
        status: r.status,
    })
}

/// Runs `distance`.
pub fn run(args: DistanceArgs) -> Result<(), String> {
    let (a, b) = parse_bodies(&args.bodies)?;
    let scene_a = super::query::load_scene(&args.scene)?;
    check_body(&scene_a, a, &args.scene)?;
    let scene_b = match &args.scene_b {
        Some(p) => Some(super::query::load_scene(p)?),
        None => None,
    };
    let (sb, sb_path) = match (&scene_b, &args.scene_b) {
        (Some(s), Some(p)) => (s, p),
        _ => (&scene_a, &args.scene),
    };
    check_body(sb, b, sb_path)?;
    let r = if scene_b.is_none() && a == b {
        self_distance(&scene_a, a)?
    } else {
        body_distance(&scene_a, a, &Pose::identity(), sb, b, &Pose::identity()).map_err(|e| e.to_string())?
    };
    let text = if args.json {
        let mut s = serde_json::to_string_pretty(&ResultJson::from(&r)).map_err(|e| e.to_string())?;
        s.push('\n');
        s
    } else {
        result_text(&r, a, b)
    };
    super::write_stdout(&text)
}
