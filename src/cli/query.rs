//! `extrack query SCENE --points PTS.json [--body N] [--json]`: cold-start
//! closest-point queries for a list of points (in parallel).

use crate::geom::{Pose, Vec3};
use crate::track::{closest_points_with, AnswerStatus, PointBodyResult, Target, TrackScene, TrackerConfig};
use clap::Args;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Arguments of `extrack query`.
#[derive(Args)]
pub struct QueryArgs {
    /// A scene (.exs) written by `extrack import`, or a STEP/IGES file (imported and prepared first).
    pub scene: PathBuf,
    /// Points as JSON: `{"points": [[x,y,z], …]}` or the oracle files' `{"points": [{"q": [x,y,z], …}]}`.
    #[arg(long)]
    pub points: PathBuf,
    /// Query one body (index); default: every body at its placement (the nearest answers, inside any solid counts as inside).
    #[arg(long)]
    pub body: Option<u32>,
    /// JSON output: `{"results": [{"q", "distance", "signed_distance", "point", "normal", "face", "feature", "verified", "status"}, …]}`
    /// (`verified`: the scene's self-check passed for the answer's face and body and its solve converged; `status`: the names of the answer's status bits).
    #[arg(long)]
    pub json: bool,
    /// Controller settings.
    #[command(flatten)]
    pub controller: ControllerArgs,
}

/// Controller settings of `query` and `track` (point mode), as
/// `ext_point_tracker_set_tolerance` takes them: the defaults of
/// [`TrackerConfig`] unless given. A solve that cannot meet them within its
/// iterations answers with the status bit `unconverged`.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct ControllerArgs {
    /// Convergence: the normalised projection error (sine of the angle between the offset and the normal) below which a witness is converged (> 0; default 1e-12).
    #[arg(long, value_name = "SIN")]
    pub tol: Option<f64>,
    /// Convergence: a Newton step shorter than this is accepted as converged (mm, > 0; default 1e-5).
    #[arg(long, value_name = "MM")]
    pub step_tol: Option<f64>,
    /// Most controller iterations per tracker update (>= 1; default 64; a far-phase cell solve runs at least 48).
    #[arg(long, value_name = "N")]
    pub max_iters: Option<u32>,
}

impl ControllerArgs {
    /// The tracker configuration: the defaults with the given settings, validated.
    pub fn config(&self) -> Result<TrackerConfig, String> {
        let d = TrackerConfig::default();
        let cfg = TrackerConfig {
            tol: self.tol.unwrap_or(d.tol),
            step_tol: self.step_tol.unwrap_or(d.step_tol),
            max_iters: self.max_iters.unwrap_or(d.max_iters),
            ..d
        };
        cfg.validate().map_err(|e| e.to_string())?;
        Ok(cfg)
    }
}

/// Loads a scene file, or imports and prepares a STEP/IGES file, into runtime geometry.
///
/// A STEP/IGES file is self-checked as `extrack import` checks the scenes it
/// writes (`verify::verify_into`), so its answers carry the same status bits
/// (an unverified face, a closed shell that lost a face and whose sign is then
/// unreliable) as those of its scene would.
pub fn load_scene(path: &Path) -> Result<TrackScene, String> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    if matches!(ext.as_str(), "step" | "stp" | "igs" | "iges") {
        let model = crate::import::import_file(path).map_err(|e| err(&e))?;
        let mut data =
            crate::prepare::prepare(&model, &crate::prepare::PrepareOptions::default()).map_err(|e| err(&e))?;
        crate::verify::verify_into(&model, &mut data);
        TrackScene::from_data(&data).map_err(|e| err(&e))
    } else {
        let file = crate::scene::SceneFile::open(path).map_err(|e| err(&e))?;
        TrackScene::new(&file.view()).map_err(|e| err(&e))
    }
}

/// Parses the points file (both accepted layouts).
pub fn parse_points(path: &Path) -> Result<Vec<Vec3>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
    let list = v
        .get("points")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{}: expected an object with a \"points\" array", path.display()))?;
    list.iter()
        .enumerate()
        .map(|(i, p)| {
            let xyz = p.get("q").unwrap_or(p);
            let a = xyz.as_array().filter(|a| a.len() == 3).ok_or_else(|| {
                format!(
                    "{}: point {i}: expected [x, y, z] or {{\"q\": [x, y, z]}}",
                    path.display()
                )
            })?;
            let c: Vec<f64> = a.iter().filter_map(Value::as_f64).collect();
            if c.len() != 3 || !c.iter().all(|x| x.is_finite()) {
                return Err(format!(
                    "{}: point {i}: coordinates must be finite numbers",
                    path.display()
                ));
            }
            Ok(Vec3::new(c[0], c[1], c[2]))
        })
        .collect()
}

/// The feature of a result as JSON.
pub fn feature_json(r: &PointBodyResult) -> Value {
    let (kind, id) = match r.feature {
        crate::scene::data::FeatureRef::Piece(i) => ("piece", i),
        crate::scene::data::FeatureRef::Edge(i) => ("edge", i),
        crate::scene::data::FeatureRef::Vertex(i) => ("vertex", i),
    };
    json!({
        "kind": kind,
        "id": id,
        "body": r.body,
        "piece": (r.piece != crate::scene::data::NONE).then_some(r.piece),
        "params": r.params,
    })
}

/// The status of a result as JSON fields: `verified` (checked, neither
/// the face nor the body failed, and the solve converged; `false` when the
/// scene carries no self-check) and `status` (names of the set bits:
/// `checked`, `unverified_face`, `shell_incomplete`, `unconverged`; empty
/// when the self-check's status is unknown and the solve converged).
pub fn status_json(s: AnswerStatus) -> (Value, Value) {
    (json!(s.is_verified()), json!(s.names()))
}

/// The text mark of an answer with a failure bit (`  UNVERIFIED
/// (unverified_face, …)`; `unconverged` too in a scene without a
/// self-check); empty for verified answers and for the converged answers of
/// scenes without a self-check, so their output is unchanged.
pub fn status_text(s: AnswerStatus) -> String {
    let why: Vec<&str> = s.names().into_iter().filter(|n| *n != "checked").collect();
    if why.is_empty() {
        return String::new();
    }
    format!("  UNVERIFIED ({})", why.join(", "))
}

fn v3(v: &Vec3) -> [f64; 3] {
    [v.x, v.y, v.z]
}

/// Runs `query`.
pub fn run(args: QueryArgs) -> Result<(), String> {
    let scene = load_scene(&args.scene)?;
    let points = parse_points(&args.points)?;
    let target = match args.body {
        Some(index) => {
            scene.body(index).map_err(|e| e.to_string())?;
            Target::Body {
                index,
                pose: Pose::identity(),
            }
        }
        None => Target::All { pose: Pose::identity() },
    };
    let results = closest_points_with(&scene, &target, &points, &args.controller.config()?);
    let mut rows = Vec::with_capacity(results.len());
    for (i, (q, r)) in points.iter().zip(results).enumerate() {
        let r = r.map_err(|e| format!("point {i}: {e}"))?;
        rows.push((q, r));
    }
    let text = if args.json {
        let results: Vec<Value> = rows
            .iter()
            .map(|(q, r)| {
                let (verified, status) = status_json(r.status);
                json!({
                    "q": v3(q),
                    "distance": r.distance,
                    "signed_distance": r.signed_distance,
                    "point": v3(&r.point),
                    "normal": v3(&r.normal),
                    "face": r.face,
                    "feature": feature_json(r),
                    "verified": verified,
                    "status": status,
                })
            })
            .collect();
        let mut s = serde_json::to_string_pretty(&json!({ "results": results })).map_err(|e| e.to_string())?;
        s.push('\n');
        s
    } else {
        let mut s = String::new();
        for (i, (q, r)) in rows.iter().enumerate() {
            let sd = r.signed_distance.map_or("n/a".to_string(), |x| format!("{x:.9}"));
            s += &format!(
                "{i}: q ({:.6}, {:.6}, {:.6})  distance {:.9}  signed {sd}  point ({:.9}, {:.9}, {:.9})  normal ({:.6}, {:.6}, {:.6})  face #{}  {} params ({:.6}, {:.6}){}\n",
                q.x, q.y, q.z, r.distance, r.point.x, r.point.y, r.point.z, r.normal.x, r.normal.y, r.normal.z,
                r.face, r.feature.label(), r.params[0], r.params[1], status_text(r.status)
            );
        }
        s
    };
    super::write_stdout(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unconverged_answer_is_marked_in_text_and_json() {
        let u = AnswerStatus(AnswerStatus::UNCONVERGED);
        assert_eq!(status_text(u), "  UNVERIFIED (unconverged)");
        assert_eq!(status_json(u), (json!(false), json!(["unconverged"])));
        let cu = AnswerStatus::VERIFIED | u;
        assert_eq!(status_text(cu), "  UNVERIFIED (unconverged)");
        assert_eq!(status_json(cu), (json!(false), json!(["checked", "unconverged"])));
        // unchanged: a verified answer, an answer of an unchecked scene
        assert_eq!(status_text(AnswerStatus::VERIFIED), "");
        assert_eq!(status_text(AnswerStatus::UNKNOWN), "");
        assert_eq!(status_json(AnswerStatus::UNKNOWN), (json!(false), json!([])));
    }
}
