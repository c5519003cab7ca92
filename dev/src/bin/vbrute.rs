//! Development harness for the self-check's triage (issue 25): an
//! independent brute force on the failing faces of `extrack verify`.
//!
//! For each failing face (or the faces named on the command line) and each
//! of its non-seam coedges, points along the file's 3-D edge curve (`e3`) and
//! along the image of its p-curve (`pc`) are located on the face's pieces:
//! the nearest foot on each piece (grid + Newton, `track::brute`), then a
//! fine parameter grid round the foot tells the 3-D distance to the nearest
//! point the piece's runtime trim keeps (`in`). Also printed: how far the
//! p-curve image lies from the 3-D curve (`pc~e3`, the file's own
//! disagreement) and how far the 3-D curve lies from the face's surface
//! (`e3~S`).
//!
//! `cargo run --release -p extrack-dev --bin vbrute -- FILE [FACE_ID...]`
use extrack::geom::Vec3;
use extrack::import::eval::{distance_to_curve_range, project, project_surface, FaceTrim};
use extrack::import::model::{CurveSegment, Face, Model};
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::brute::closest_on_patch;
use extrack::track::TrackScene;

fn surface_distance(face: &Face, q: &Vec3) -> f64 {
    let s = &face.surface;
    if let Some((u, v)) = s.analytic_params(q) {
        return (s.eval(if u.is_nan() { 0.0 } else { u }, v) - q).norm();
    }
    match s.domain() {
        Some(b) => project_surface(s, q, b, 24).distance,
        None => f64::NAN,
    }
}

/// Distance from `q` to the boundary of the kept part of the face's pieces:
/// grid points round each piece's foot that are kept and have a neighbour
/// that is not (or lie on a side of the piece).
fn kept_boundary_distance(ts: &TrackScene, body: usize, pieces: &[usize], q: &Vec3) -> f64 {
    let b = &ts.bodies[body];
    let mut best = f64::INFINITY;
    for &k in pieces {
        let p = &b.pieces[k];
        let c = closest_on_patch(&p.surface, q, 24, 4);
        if c.distance > best {
            continue;
        }
        let n = 60i64;
        for w in [0.002, 0.02, 0.2] {
            let at = |i: i64, j: i64| {
                let u = c.uv[0] + w * (2.0 * i as f64 / n as f64 - 1.0);
                let v = c.uv[1] + w * (2.0 * j as f64 / n as f64 - 1.0);
                (u, v)
            };
            let kept = |i: i64, j: i64| {
                let (u, v) = at(i, j);
                (0.0..=1.0).contains(&u) && (0.0..=1.0).contains(&v) && b.piece_keeps(k as u32, u, v)
            };
            for i in 0..=n {
                for j in 0..=n {
                    if !kept(i, j) {
                        continue;
                    }
                    let edge = [(1, 0), (-1, 0), (0, 1), (0, -1)]
                        .iter()
                        .any(|&(a, c)| !kept(i + a, j + c));
                    if edge {
                        let (u, v) = at(i, j);
                        best = best.min((p.surface.eval(u, v) - q).norm());
                    }
                }
            }
        }
    }
    best
}

/// Distance from `q` to the kept part of the face's pieces (`pieces`: body
/// piece indices), and its distance to the pieces' surfaces.
fn kept_distance(ts: &TrackScene, body: usize, pieces: &[usize], q: &Vec3) -> (f64, f64) {
    let b = &ts.bodies[body];
    let mut best = f64::INFINITY;
    let mut surf = f64::INFINITY;
    for &k in pieces {
        let p = &b.pieces[k];
        let c = closest_on_patch(&p.surface, q, 24, 4);
        surf = surf.min(c.distance);
        if c.distance > best {
            continue;
        }
        if b.piece_keeps(k as u32, c.uv[0], c.uv[1]) {
            best = best.min(c.distance);
            continue;
        }
        let n = 60;
        for w in [0.002, 0.02, 0.2] {
            for i in 0..=n {
                for j in 0..=n {
                    let u = (c.uv[0] + w * (2.0 * i as f64 / n as f64 - 1.0)).clamp(0.0, 1.0);
                    let v = (c.uv[1] + w * (2.0 * j as f64 / n as f64 - 1.0)).clamp(0.0, 1.0);
                    if b.piece_keeps(k as u32, u, v) {
                        best = best.min((p.surface.eval(u, v) - q).norm());
                    }
                }
            }
        }
    }
    (best, surf)
}

/// Containment by brute force: a grid of kept points of every piece of the
/// face, each projected onto the Model surface (`project`, a box round the
/// importer's loop samples) and tested by the importer's point-in-face
/// (`FaceTrim`); a point outside counts by its distance to the face's 3-D
/// edges. Returns the worst such distance and its point.
fn containment(model: &Model, face: &Face, ts: &TrackScene, body: usize, pieces: &[usize]) -> (f64, Vec3, bool) {
    let t = FaceTrim::new(model, face);
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for l in &t.loops {
        for p in l {
            lo = [lo[0].min(p.0), lo[1].min(p.1)];
            hi = [hi[0].max(p.0), hi[1].max(p.1)];
        }
    }
    let bx = match face.surface.domain() {
        Some(d) if !lo[0].is_finite() => d,
        _ => {
            let (du, dv) = ((hi[0] - lo[0]) * 0.05 + 1e-9, (hi[1] - lo[1]) * 0.05 + 1e-9);
            ((lo[0] - du, hi[0] + du), (lo[1] - dv, hi[1] + dv))
        }
    };
    let edges: Vec<CurveSegment> = face
        .outer
        .iter()
        .chain(&face.inner)
        .flat_map(|l| l.coedges.iter())
        .filter_map(|ce| {
            ce.edge
                .and_then(|e| model.edges.get(e))
                .map(|e| CurveSegment {
                    curve: e.curve.clone(),
                    t0: e.t0.min(e.t1),
                    t1: e.t0.max(e.t1),
                    forward: true,
                })
                .or_else(|| ce.curve.clone())
        })
        .collect();
    let b = &ts.bodies[body];
    let mut worst = (0.0, Vec3::zeros(), true);
    let n = 16;
    for &k in pieces {
        for i in 0..n {
            for j in 0..n {
                let (u, v) = ((i as f64 + 0.5) / n as f64, (j as f64 + 0.5) / n as f64);
                if !b.piece_keeps(k as u32, u, v) {
                    continue;
                }
                let q = b.pieces[k].surface.eval(u, v);
                let pr = project(&face.surface, &q, bx, 24, 1e-12);
                let inside = t.contains(pr.uv.0, pr.uv.1);
                let mut e = pr.distance;
                if !inside {
                    let de = edges
                        .iter()
                        .map(|s| distance_to_curve_range(&s.curve, s.t0, s.t1, &q))
                        .fold(f64::INFINITY, f64::min);
                    e = e.max(de);
                }
                if e > worst.0 {
                    worst = (e, q, inside);
                }
            }
        }
    }
    worst
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 2 {
        eprintln!("usage: vbrute FILE [FACE_ID...]");
        std::process::exit(2);
    }
    let model: Model = extrack::import::import_file(&args[1]).expect("import");
    let scene = prepare(&model, &PrepareOptions::default()).expect("prepare");
    let report = extrack::verify::verify(&model, &scene);
    let ts = TrackScene::from_data(&scene).expect("scene");
    let wanted: Vec<u64> = args[2..].iter().filter_map(|a| a.parse().ok()).collect();
    for (f, c) in report.faces.iter().zip(&report.context) {
        let pick = if wanted.is_empty() {
            f.failed & extrack::verify::FAILURE_BITS != 0
        } else {
            wanted.contains(&f.source_face)
        };
        if !pick || f.body == u32::MAX {
            continue;
        }
        let Some(face) = model.faces.iter().find(|x| x.source == f.source_face) else {
            continue;
        };
        let sb = &scene.bodies[f.body as usize];
        let pieces: Vec<usize> = (0..sb.pieces.count as usize)
            .filter(|&k| scene.pieces[sb.pieces.first as usize + k].source_face == f.source_face)
            .collect();
        println!(
            "face #{} {} failed {:#x} tol {:.2e} worst_b {:.3e} worst_c {:.3e} area model {:.4} pieces {:.4} ({} pieces)",
            f.source_face,
            face.surface.type_name(),
            f.failed,
            c.tolerance,
            f.worst_boundary,
            f.worst_containment,
            f.model_area,
            f.piece_area,
            pieces.len()
        );
        if std::env::var_os("CONT").is_some() {
            let (e, q, inside) = containment(&model, face, &ts, f.body as usize, &pieces);
            println!(
                "  brute containment {e:.3e} at {:?} (foot inside by FaceTrim: {inside})",
                q.as_slice()
            );
        }
        let mut uses = std::collections::HashMap::new();
        for l in face.outer.iter().chain(&face.inner) {
            for ce in &l.coedges {
                if let Some(e) = ce.edge {
                    *uses.entry(e).or_insert(0) += 1;
                }
            }
        }
        for (li, l) in face.outer.iter().chain(&face.inner).enumerate() {
            for (ci, ce) in l.coedges.iter().enumerate() {
                if ce.edge.is_some_and(|e| uses[&e] >= 2) {
                    continue;
                }
                let e3: Option<CurveSegment> = ce
                    .edge
                    .and_then(|e| model.edges.get(e))
                    .map(|e| CurveSegment {
                        curve: e.curve.clone(),
                        t0: e.t0.min(e.t1),
                        t1: e.t0.max(e.t1),
                        forward: true,
                    })
                    .or_else(|| ce.curve.clone());
                let n = 24;
                let (mut w3, mut wp, mut dis, mut off, mut s3) = (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
                let (mut b3, mut bp) = (0.0f64, 0.0f64);
                for i in 0..=n {
                    let x = i as f64 / n as f64;
                    if let Some(seg) = &e3 {
                        let q = seg.eval_unit(x).p;
                        let (d, s) = kept_distance(&ts, f.body as usize, &pieces, &q);
                        w3 = w3.max(d);
                        b3 = b3.max(kept_boundary_distance(&ts, f.body as usize, &pieces, &q));
                        s3 = s3.max(s);
                        off = off.max(surface_distance(face, &q));
                    }
                    if let Some(pc) = &ce.pcurve {
                        let uv = pc.eval_unit(x).p;
                        let q = face.surface.eval(uv.x, uv.y);
                        wp = wp.max(kept_distance(&ts, f.body as usize, &pieces, &q).0);
                        bp = bp.max(kept_boundary_distance(&ts, f.body as usize, &pieces, &q));
                        if let Some(seg) = &e3 {
                            dis = dis.max(distance_to_curve_range(&seg.curve, seg.t0, seg.t1, &q));
                        }
                    }
                }
                let bad = w3 > c.tolerance || wp > c.tolerance || b3 > c.tolerance || bp > c.tolerance;
                if bad || std::env::var_os("ALL").is_some() {
                    println!(
                        "  loop {li} coedge {ci} {} {}: e3 in {w3:.3e} bd {b3:.3e} (surf {s3:.1e}) | pc in {} bd {bp:.3e} | pc~e3 {} | e3~S {off:.3e}",
                        e3.as_ref().map_or("-", |s| s.curve.type_name()),
                        ce.pcurve.as_ref().map_or("no pcurve", |s| s.curve.type_name()),
                        if ce.pcurve.is_some() { format!("{wp:.3e}") } else { "-".into() },
                        if ce.pcurve.is_some() { format!("{dis:.3e}") } else { "-".into() },
                    );
                }
            }
        }
    }
}
