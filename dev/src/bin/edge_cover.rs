//! Development probe (issue 25, untrimmed-boundary → check-corner): for one
//! untrimmed face, the prepared pieces' face rectangles; then for `N` points
//! along each side of the surface's natural domain, the distance to the
//! nearest piece side found by brute force (4001 samples per side, golden
//! section around the nearest; `robust`) and by the self-check's search
//! (`verify::sampled_curves`: 25 samples per piece side, Gauss–Newton that
//! stops at a zero derivative; `gn`, reimplemented here since the check's
//! modules are private), with the sides where `gn` exceeds `TOL` (env, mm).
//! `TOL=0.0173 cargo run --release -p extrack-dev --bin edge_cover -- FILE FACE_ID [N]`
use extrack::prepare::{piece_surface, prepare, PrepareOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: edge_cover FILE FACE_ID [N]");
        std::process::exit(2);
    }
    let id: u64 = args[2].parse()?;
    let n: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(200);
    let model = extrack::import::import_file(&args[1])?;
    let scene = prepare(&model, &PrepareOptions::default())?;
    let face = model.faces.iter().find(|f| f.source == id).ok_or("no such face")?;
    println!("surface domain {:?}", face.surface.domain());
    let pieces: Vec<_> = scene.pieces.iter().filter(|p| p.source_face == id).collect();
    let mut bnd = Vec::new();
    for p in &pieces {
        println!("piece domain {:?} class {:?} trimmed {}", p.domain, p.class, p.trimmed);
        let s = piece_surface(p).ok_or("piece")?;
        for k in 0..=n {
            let x = k as f64 / n as f64;
            for (a, b) in [(x, 0.0), (x, 1.0), (0.0, x), (1.0, x)] {
                bnd.push(s.eval(a, b));
            }
        }
    }
    let ((u0, u1), (v0, v1)) = face.surface.domain().ok_or("no domain")?;
    let surfs: Vec<_> = pieces.iter().map(|p| piece_surface(p).unwrap()).collect();
    // per piece side: dense samples (point, piece, side, x)
    let m = 4000;
    let mut dense = Vec::new();
    for (k, s) in surfs.iter().enumerate() {
        for side in 0..4 {
            for i in 0..=m {
                let x = i as f64 / m as f64;
                let st = match side {
                    0 => (x, 0.0),
                    1 => (1.0, x),
                    2 => (x, 1.0),
                    _ => (0.0, x),
                };
                dense.push((s.eval(st.0, st.1), k, side, x));
            }
        }
    }
    let side_eval = |k: usize, side: usize, x: f64| {
        let st = match side {
            0 => (x, 0.0),
            1 => (1.0, x),
            2 => (x, 1.0),
            _ => (0.0, x),
        };
        let d = surfs[k].eval_derivs(st.0, st.1);
        let dst = match side {
            0 | 2 => d.su,
            _ => d.sv,
        };
        (d.p, dst)
    };
    for (name, f) in [
        (
            "v=v0",
            Box::new(|x: f64| (u0 + (u1 - u0) * x, v0)) as Box<dyn Fn(f64) -> (f64, f64)>,
        ),
        ("v=v1", Box::new(|x: f64| (u0 + (u1 - u0) * x, v1))),
        ("u=u0", Box::new(|x: f64| (u0, v0 + (v1 - v0) * x))),
        ("u=u1", Box::new(|x: f64| (u1, v0 + (v1 - v0) * x))),
    ] {
        let mut worst = (0.0f64, 0.0, 0.0f64);
        for k in 0..n {
            let x = (k as f64 + 0.377) / n as f64;
            let (u, v) = f(x);
            let q = face.surface.eval(u, v);
            let (mut best, mut at) = (f64::INFINITY, 0);
            for (i, b) in dense.iter().enumerate() {
                let d = (b.0 - q).norm();
                if d < best {
                    best = d;
                    at = i;
                }
            }
            // golden refinement on that side around the dense sample
            let (_, pk, ps, px) = dense[at];
            let (mut a, mut b) = ((px - 1.0 / m as f64).max(0.0), (px + 1.0 / m as f64).min(1.0));
            for _ in 0..100 {
                let (c, d) = (a + (b - a) * 0.382, a + (b - a) * 0.618);
                if (side_eval(pk, ps, c).0 - q).norm() < (side_eval(pk, ps, d).0 - q).norm() {
                    b = d
                } else {
                    a = c
                }
            }
            let robust = (side_eval(pk, ps, 0.5 * (a + b)).0 - q).norm();
            // the check's search (verify::sampled_curves): 25 samples per
            // piece side, Gauss-Newton (12 steps, stop at zero speed) on the
            // nearest sample's side, then on every side whose lower bound
            // (nearest sample less the side's reach) is below the best
            let gn_from = |k: usize, side: usize, x0: f64| {
                let mut out = f64::INFINITY;
                let mut xx: f64 = x0;
                for _ in 0..12 {
                    let (p0, c1) = side_eval(k, side, xx);
                    out = out.min((p0 - q).norm());
                    let l2 = c1.norm_squared();
                    if l2.is_nan() || l2 <= 0.0 {
                        return out;
                    }
                    let nx = (xx + (q - p0).dot(&c1) / l2).clamp(0.0, 1.0);
                    if (nx - xx).abs() < 1e-14 {
                        break;
                    }
                    xx = nx;
                }
                out.min((side_eval(k, side, xx).0 - q).norm())
            };
            let mut curves = Vec::new();
            for kk in 0..surfs.len() {
                for side in 0..4 {
                    let pts: Vec<_> = (0..=24).map(|i| side_eval(kk, side, i as f64 / 24.0).0).collect();
                    let reach = pts.windows(2).map(|w| (w[1] - w[0]).norm()).fold(0.0, f64::max);
                    let (d, i) = pts
                        .iter()
                        .enumerate()
                        .map(|(i, p)| ((p - q).norm(), i))
                        .fold((f64::INFINITY, 0), |a, b| if b.0 < a.0 { b } else { a });
                    curves.push((d, reach, kk, side, i as f64 / 24.0));
                }
            }
            let c0 = curves
                .iter()
                .cloned()
                .fold((f64::INFINITY, 0.0, 0, 0, 0.0), |a, b| if b.0 < a.0 { b } else { a });
            let tol: f64 = std::env::var("TOL").ok().and_then(|t| t.parse().ok()).unwrap_or(0.0173);
            let mut gn = c0.0;
            if gn > tol {
                gn = gn.min(gn_from(c0.2, c0.3, c0.4));
            }
            let mut rest: Vec<_> = curves
                .iter()
                .filter(|c| !(c.2 == c0.2 && c.3 == c0.3))
                .map(|c| (c.0 - c.1, c.2, c.3, c.4))
                .collect();
            rest.sort_by(|a, b| a.0.total_cmp(&b.0));
            for r in rest {
                if r.0 >= gn || gn <= tol {
                    break;
                }
                gn = gn.min(gn_from(r.1, r.2, r.3));
            }
            let bs = c0.0;
            let (bk, bside, bx) = (c0.2, c0.3, c0.4);
            if robust > worst.0 || gn > worst.2 {
                worst = (worst.0.max(robust), x, worst.2.max(gn));
            }
            if gn > tol {
                println!("  {name} x={x:.5} robust {robust:.3e} gn {gn:.3e} nearest24 {bs:.3e} piece {bk} side {bside} x0 {bx}");
            }
        }
        println!("{name}: worst robust {:.3e}, worst gn {:.3e}", worst.0, worst.2);
    }
    Ok(())
}
