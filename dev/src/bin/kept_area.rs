//! Development probe: the area the tracker's pieces of one source face keep,
//! by brute force (an `n × n` midpoint grid per piece, `|S_s × S_t|` where
//! `BodyGeom::piece_keeps` keeps the point). Independent of the self-check's
//! area (`src/verify`): it asks the tracker which points are on the face.
//! `cargo run --release -p extrack-dev --bin kept_area -- FILE FACE_ID [N]`
//! With `KEPT_POINTS=PATH` the kept grid points are also written there, one
//! `x y z piece s t` line each (body-local), for an independent distance to the face
//! (`tools/oracle/occt_face_reach.py`).
use extrack::track::TrackScene;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: kept_area FILE FACE_ID [N]");
        std::process::exit(2);
    }
    let id: u64 = args[2].parse()?;
    let n: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(400);
    let model = extrack::import::import_file(&args[1])?;
    let bytes = extrack::prepare::prepare(&model, &Default::default())?.write();
    let aligned = extrack::scene::AlignedBytes::from_slice(&bytes);
    let view = extrack::scene::SceneView::from_bytes(aligned.as_bytes())?;
    let ts = TrackScene::new(&view)?;
    let mut total = 0.0;
    let mut centroid = [0.0; 3];
    let mut dump = std::env::var_os("KEPT_POINTS")
        .map(std::fs::File::create)
        .transpose()?
        .map(std::io::BufWriter::new);
    for (bi, b) in ts.bodies.iter().enumerate() {
        for (k, p) in b.pieces.iter().enumerate().filter(|(_, p)| p.face == id) {
            let (mut kept, mut all) = (0.0, 0.0);
            let h = 1.0 / n as f64;
            for i in 0..n {
                for j in 0..n {
                    let (s, t) = ((i as f64 + 0.5) * h, (j as f64 + 0.5) * h);
                    let d = p.surface.eval_d1(s, t);
                    let da = d.normal_raw().norm() * h * h;
                    all += da;
                    if b.piece_keeps(k as u32, s, t) {
                        kept += da;
                        let q = d.p;
                        centroid[0] += q.x * da;
                        centroid[1] += q.y * da;
                        centroid[2] += q.z * da;
                        if let Some(w) = dump.as_mut() {
                            use std::io::Write;
                            writeln!(w, "{:.17e} {:.17e} {:.17e} {k} {s} {t}", q.x, q.y, q.z)?;
                        }
                    }
                }
            }
            println!("body {bi} piece {k}: kept {kept:.6} of {all:.6} mm2");
            total += kept;
        }
    }
    println!(
        "face {id}: kept area {total:.6} mm2, centroid {:.4} {:.4} {:.4}",
        centroid[0] / total,
        centroid[1] / total,
        centroid[2] / total
    );
    Ok(())
}
