//! Development harness: explains oracle mismatches of `oracle_check`.
//! For each bad point: the oracle's face (index, type, entity), our answer,
//! a trim-aware brute force over our pieces and edges, and how far the
//! oracle's closest point is from our geometry (0 = our geometry has it).
//! `cargo run --release -p extrack-dev --bin triage -- NAME_FILTER [MAX]`
use extrack::geom::{Pose, Vec3};
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::brute::{closest_on_curve, closest_on_patch};
use extrack::track::point_body::body_pose;
use extrack::track::{closest_point, Target, TrackScene};
use std::path::Path;

/// Trim-aware brute force: (distance, body, piece, face id) of the nearest kept sample/edge point.
fn brute(ts: &TrackScene, q: &Vec3) -> (f64, usize, i64, u64) {
    let mut best = (f64::INFINITY, 0, -1, 0);
    for (bi, b) in ts.bodies.iter().enumerate() {
        let ql = body_pose(b, &Pose::identity()).inverse_transform_point(q);
        for (k, p) in b.pieces.iter().enumerate() {
            let c = closest_on_patch(&p.surface, &ql, 24, 4);
            if b.piece_keeps(k as u32, c.uv[0], c.uv[1]) && c.distance < best.0 {
                best = (c.distance, bi, k as i64, p.face);
            }
            if !p.trims.is_empty() {
                let n = 60;
                for i in 0..=n {
                    for j in 0..=n {
                        let (u, v) = (i as f64 / n as f64, j as f64 / n as f64);
                        if b.piece_keeps(k as u32, u, v) {
                            let d = (p.surface.eval(u, v) - ql).norm();
                            if d < best.0 {
                                best = (d, bi, k as i64, p.face);
                            }
                        }
                    }
                }
            }
        }
        for e in &b.edges {
            let (_, _, d) = closest_on_curve(&e.curve, &ql, 200);
            if d < best.0 {
                best = (d, bi, -2, 0);
            }
        }
    }
    best
}

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let max: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures");
    let mut names: Vec<_> = std::fs::read_dir(root.join("oracle"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".closest.json") && n.contains(&filter))
        .collect();
    names.sort();
    for n in names {
        let js: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(root.join("oracle").join(&n)).unwrap()).unwrap();
        let file = js["file"].as_str().unwrap();
        let Some(path) = [root.join("generated").join(file), root.join("corpus").join(file)]
            .into_iter()
            .find(|p| p.exists())
        else {
            continue;
        };
        let model = extrack::import::import_file(&path).unwrap();
        if let Ok(spec) = std::env::var("TRIAGE_UV") {
            let x: Vec<f64> = spec.split(',').map(|t| t.parse().unwrap()).collect();
            let f = &model.faces[x[0] as usize];
            let t = extrack::import::eval::FaceTrim::new(&model, f);
            println!(
                "contains {:?}: {} (p {:?})",
                &x[1..],
                t.contains(x[1], x[2]),
                f.surface.eval(x[1], x[2])
            );
        }
        if std::env::var("TRIAGE_FACES").is_ok() {
            for (fi, f) in model.faces.iter().enumerate() {
                let r = extrack::prepare::nurbs::face_range(&model, f);
                let t = extrack::import::eval::FaceTrim::new(&model, f);
                let lv: Vec<String> = t
                    .loops
                    .iter()
                    .map(|l| {
                        let (a, b) = l
                            .iter()
                            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.0), b.max(p.0)));
                        let (c, d) = l
                            .iter()
                            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.1), b.max(p.1)));
                        format!("u[{a:.3},{b:.3}] v[{c:.3},{d:.3}]")
                    })
                    .collect();
                println!(
                    "  face {fi} #{} {} same_sense {} range {:?} loops {:?}",
                    f.source,
                    f.surface.type_name(),
                    f.same_sense,
                    r,
                    lv
                );
            }
        }
        let scene = prepare(&model, &PrepareOptions::default()).unwrap();
        let ts = TrackScene::from_data(&scene).unwrap();
        if let Ok(fid) = std::env::var("TRIAGE_FACE") {
            let fid: u64 = fid.parse().unwrap();
            for (k, p) in scene.pieces.iter().enumerate() {
                if p.source_face == fid {
                    let npts: Vec<usize> = p
                        .trim_loops
                        .iter()
                        .map(|l| {
                            l.curves
                                .iter()
                                .map(|c| match c {
                                    extrack::scene::data::TrimCurve::Polyline(v) => v.len(),
                                    extrack::scene::data::TrimCurve::Bezier(h) => h.len(),
                                })
                                .sum()
                        })
                        .collect();
                    println!(
                        "  piece {k} dom {:?} class {:?} rev {} trimmed {} full {} loops {:?}",
                        p.domain, p.class, p.reversed, p.trimmed, p.fully_inside, npts
                    );
                }
            }
        }
        println!("== {file}: {} bodies", ts.bodies.len());
        for (bi, b) in ts.bodies.iter().enumerate() {
            let pose = body_pose(b, &Pose::identity());
            let c = pose.transform_point(&((b.lo + b.hi) * 0.5));
            println!("  body {bi} world centre {:?}", c.as_slice());
            println!(
                "  body {bi} {:?} pieces {} edges {} trims {} box {:?}..{:?}",
                b.kind,
                b.pieces.len(),
                b.edges.len(),
                b.trims.len(),
                b.lo.as_slice(),
                b.hi.as_slice()
            );
        }
        let faces = js["faces"].as_array().unwrap();
        let mut shown = 0;
        for (i, p) in js["points"].as_array().unwrap().iter().enumerate() {
            let v = |x: &serde_json::Value| {
                let a = x.as_array().unwrap();
                Vec3::new(a[0].as_f64().unwrap(), a[1].as_f64().unwrap(), a[2].as_f64().unwrap())
            };
            let q = v(&p["q"]);
            let d = p["dist"].as_f64().unwrap();
            let r = closest_point(&ts, &Target::All { pose: Pose::identity() }, q).unwrap();
            let tol = 1e-6 * d.max(1.0);
            let dbad = (r.distance - d).abs() > tol;
            let sbad = match (r.signed_distance, p["sdist"].as_f64()) {
                (Some(a), Some(b)) => (a - b).abs() > tol && !dbad,
                _ => false,
            };
            if !(dbad || sbad) || shown >= max {
                continue;
            }
            shown += 1;
            let fi = p["face"].as_u64().unwrap_or(0) as usize;
            let f = &faces[fi];
            let (bd, bb, bp, bf) = brute(&ts, &q);
            let cov = p["closest"]
                .as_array()
                .map(|_| brute(&ts, &v(&p["closest"])).0)
                .unwrap_or(f64::NAN);
            println!(
                "  #{i} {} {}: ours {:.6} (sd {:?}, body {} face {} {:?}) oracle {:.6} sd {} face {fi} {} {} support {} | brute {:.6} body {bb} piece {bp} face {bf} | oracle pt off ours {:.2e}",
                p["kind"],
                if dbad { "DIST" } else { "SIGN" },
                r.distance,
                r.signed_distance,
                r.body,
                r.face,
                r.feature,
                d,
                p["sdist"],
                f["type"],
                f["entity"],
                p["support"],
                bd,
                cov
            );
        }
    }
}
