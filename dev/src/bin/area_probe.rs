//! Development harness for the face-area checks: prints a face's surface,
//! its trim loops (samples) and the exact / projected trim chains.
//! `cargo run --release -p extrack-dev --bin area_probe -- FILE FACE_ID`
use extrack::geom::bez2;
use extrack::import::eval::FaceTrim;
use extrack::prepare::{piece_surface, prepare, trim, PrepareOptions};
use extrack::scene::data::TrimCurve;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: area_probe FILE FACE_ID");
        std::process::exit(2);
    }
    let model = match extrack::import::import_file(&args[1]) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let id: u64 = args[2].parse().unwrap_or(0);
    let Some(face) = model.faces.iter().find(|f| f.source == id) else {
        eprintln!("no face #{id}");
        std::process::exit(1);
    };
    if std::env::var_os("PIECES").is_some() {
        // each piece's trim loops: signed parameter area by a fine polyline,
        // times |S_u × S_v| at the centre (exact for a flat bilinear piece)
        let scene = match prepare(&model, &PrepareOptions::default()) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        };
        for (k, p) in scene.pieces.iter().enumerate().filter(|(_, p)| p.source_face == id) {
            let Some(s) = piece_surface(p) else { continue };
            let jac = s.eval_derivs(0.5, 0.5).normal_raw().norm();
            let mut total = 0.0;
            for l in &p.trim_loops {
                let mut a = 0.0;
                for c in &l.curves {
                    let pts: Vec<[f64; 2]> = match c {
                        TrimCurve::Polyline(v) => v.clone(),
                        TrimCurve::Bezier(h) => (0..=20000).map(|i| bez2::eval(h, i as f64 / 20000.0)).collect(),
                    };
                    for w in pts.windows(2) {
                        a += 0.5 * (w[0][0] * w[1][1] - w[1][0] * w[0][1]);
                    }
                }
                let kinds: Vec<String> = l
                    .curves
                    .iter()
                    .map(|c| match c {
                        TrimCurve::Polyline(v) => format!("poly{}", v.len()),
                        TrimCurve::Bezier(h) => format!("bez{}", h.len() - 1),
                    })
                    .collect();
                println!("piece {k} loop outer={} uv area {a:.12} curves {:?}", l.outer, kinds);
                total += a;
            }
            println!(
                "piece {k}: trimmed {} domain {:?} jac {jac:.9} loops x jac {:.9}",
                p.trimmed,
                p.domain,
                total * jac
            );
        }
    }
    println!("surface {:?}", face.surface);
    println!("same_sense {}", face.same_sense);
    let t = FaceTrim::new(&model, face);
    println!("bounds {:?} periods {:?}", t.bounds, t.periods);
    let ex = trim::exact_loops(&model, face, &t);
    println!("projected {} approximated {}", ex.projected, ex.approximated);
    for (li, l) in t.loops.iter().enumerate() {
        println!("loop {li}: {} samples", l.len());
        let floops: Vec<_> = face.outer.iter().chain(face.inner.iter()).collect();
        for sp in t.coedge_spans.get(li).into_iter().flatten() {
            let c = floops.get(sp.face_loop).and_then(|fl| fl.coedges.get(sp.coedge));
            let pc = c
                .and_then(|c| c.pcurve.as_ref())
                .map(|p| format!("{:?}", p.curve).chars().take(300).collect::<String>());
            let e = c
                .and_then(|c| c.edge)
                .and_then(|e| model.edges.get(e))
                .map(|e| format!("{:?}", e.curve).chars().take(200).collect::<String>());
            println!(
                "  span {:?} loop {} coedge {}: pcurve {:?} edge {:?}",
                sp.samples, sp.face_loop, sp.coedge, pc, e
            );
        }
        if std::env::var_os("SAMPLES").is_some() {
            for p in l {
                println!("   {:.6} {:.6}", p.0, p.1);
            }
        }
        if let Some(c) = ex.chains.get(li) {
            // signed area of the chain in the parameter plane
            let mut a = 0.0;
            for h in c {
                let n = 200;
                for i in 0..n {
                    let p = bez2::eval(h, i as f64 / n as f64);
                    let q = bez2::eval(h, (i + 1) as f64 / n as f64);
                    a += 0.5 * (p[0] * q[1] - q[0] * p[1]);
                }
            }
            println!("  chain {} curves, uv area {a:.9}", c.len());
            // distance of the chain (on the surface) from a circle edge
            let circle = t.coedge_spans.get(li).and_then(|v| v.first()).and_then(|sp| {
                let floops: Vec<_> = face.outer.iter().chain(face.inner.iter()).collect();
                let c = floops.get(sp.face_loop)?.coedges.get(sp.coedge)?;
                let e = model.edges.get(c.edge?)?;
                match &e.curve {
                    extrack::import::model::Curve::Circle { frame, radius } => Some((*frame, *radius)),
                    _ => None,
                }
            });
            if let Some((fr, r)) = circle {
                for (k, h) in c.iter().enumerate() {
                    let mut worst = 0.0f64;
                    for i in 0..=50 {
                        let p = bez2::eval(h, i as f64 / 50.0);
                        let x = face.surface.eval(p[0], p[1]) - fr.origin;
                        let z = x.dot(&fr.z);
                        let rad = (x - fr.z * z).norm();
                        worst = worst.max(z.hypot(rad - r));
                    }
                    if worst > 1e-6 {
                        println!("   curve {k}: {worst:.3e} from the circle");
                    }
                }
            }
            if std::env::var_os("CHAIN").is_some() {
                for h in c {
                    let p = bez2::eval(h, 0.0);
                    let q = bez2::eval(h, 1.0);
                    println!(
                        "   deg {} ({:.6},{:.6}) -> ({:.6},{:.6})",
                        h.len() - 1,
                        p[0],
                        p[1],
                        q[0],
                        q[1]
                    );
                }
            }
        }
    }
}
