//! Development probe of single band-test points (`tests/track/point_body_band.rs`):
//! for each index of a decompressed `*.boundary.csv`, the cold answer, the
//! oracle distance, the Model face's projection (grid 48 / 256) of our
//! closest point and a dense sampling of the face's surface over its trim
//! box (the brute-force judge), nearest to the query and to our point.
//! `cargo run --release -p extrack-dev --bin band_probe -- MODEL CSV I [I ...]`
use extrack::geom::{Pose, Vec3};
use extrack::import::eval::{project_surface, FaceTrim};
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{closest_points, Target, TrackScene};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 4 {
        return Err("usage: band_probe MODEL CSV I [I ...]".into());
    }
    let m = extrack::import::import_file(std::path::Path::new(&a[1]))?;
    let scene = TrackScene::from_data(&prepare(&m, &PrepareOptions::default())?)?;
    let text = std::fs::read_to_string(&a[2])?;
    let rows: Vec<Vec<String>> = text
        .lines()
        .skip(2)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    if std::env::var("PROBE_GEOM").is_ok() {
        for (fi, f) in m.faces.iter().enumerate() {
            if let extrack::import::model::Surface::BSpline(b) = &f.surface {
                println!(
                    "face {fi} source {} sense {} deg {} {} n {} {} ku {:?} kv {:?}",
                    f.source, f.same_sense, b.degree_u, b.degree_v, b.n_u, b.n_v, b.knots_u, b.knots_v
                );
                for (k, h) in b.cw.iter().enumerate() {
                    println!("  pole {k} ({},{}) {h:?}", k / b.n_v, k % b.n_v);
                }
            }
        }
    }
    let n: usize = std::env::var("PROBE_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    for s in &a[3..] {
        let i: usize = s.parse()?;
        let r = &rows[i];
        let q = Vec3::new(r[1].parse()?, r[2].parse()?, r[3].parse()?);
        let c = closest_points(&scene, &Target::All { pose: Pose::identity() }, &[q]);
        let c = c[0].as_ref().map_err(|e| e.to_string())?;
        println!(
            "point {i} q {q:?}: ours {:.9} signed {:?} face {} piece {} params {:?} at {:?}; occt {} inside {} face {}",
            c.distance, c.signed_distance, c.face, c.piece, c.params, c.point, r[4], r[5], r[7]
        );
        if std::env::var("PROBE_PIECES").is_ok() {
            let cfg = extrack::track::TrackerConfig::default();
            for (bi, b) in scene.bodies.iter().enumerate() {
                for (k, pg) in b.pieces.iter().enumerate() {
                    let br = extrack::track::brute::closest_on_patch(&pg.surface, &q, 80, 8);
                    if br.distance >= c.distance {
                        continue;
                    }
                    println!(
                        "  body {bi} piece {k} (face {}, {:?}) brute {:.9} at {:?} keeps {}",
                        pg.face,
                        pg.class,
                        br.distance,
                        br.uv,
                        b.piece_keeps(k as u32, br.uv[0], br.uv[1])
                    );
                    for cc in pg.cells.clone() {
                        let cell = &b.cells[cc as usize];
                        let r = cell.rect;
                        let centre = [0.5 * (r[0] + r[1]), 0.5 * (r[2] + r[3])];
                        let sv = extrack::track::far::solve_piece(b, &cfg, k as u32, &r, centre, &q);
                        println!(
                            "    cell {cc} rect {r:?} trim {:?} solve from centre: d {:.9} x {:?} mode {:?} iters {} conv {}",
                            cell.trim, sv.0, sv.2, sv.3, sv.4, sv.5
                        );
                        let e = pg.surface.eval_derivs(sv.2[0], sv.2[1]);
                        println!(
                            "      end |su| {:.3e} |sv| {:.3e} |su x sv| {:.3e}",
                            e.su.norm(),
                            e.sv.norm(),
                            e.su.cross(&e.sv).norm()
                        );
                        for (a, bq) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                            let x = [r[0] + a * (r[1] - r[0]), r[2] + bq * (r[3] - r[2])];
                            let t = extrack::track::far::solve_piece(b, &cfg, k as u32, &r, x, &q);
                            println!("      from {x:?}: d {:.9} x {:?} iters {} conv {}", t.0, t.2, t.4, t.5);
                        }
                    }
                }
            }
        }
        for (fi, f) in m.faces.iter().enumerate() {
            let trim = FaceTrim::new(&m, f);
            let ((u0, u1), (v0, v1)) = trim.bounds;
            // dense sampling of the surface over the trim box, kept points only
            let (mut bq, mut bp) = ((f64::INFINITY, 0.0, 0.0), (f64::INFINITY, 0.0, 0.0));
            for ii in 0..=n {
                let u = u0 + (u1 - u0) * ii as f64 / n as f64;
                for jj in 0..=n {
                    let v = v0 + (v1 - v0) * jj as f64 / n as f64;
                    if !trim.contains(u, v) {
                        continue;
                    }
                    let x = f.surface.eval(u, v);
                    let (dq, dp) = ((x - q).norm(), (x - c.point).norm());
                    if dq < bq.0 {
                        bq = (dq, u, v);
                    }
                    if dp < bp.0 {
                        bp = (dp, u, v);
                    }
                }
            }
            let src = f.source == c.face;
            if !src && bq.0 > c.distance * 1.5 + 1.0 {
                continue;
            }
            let (nu, nv) = f.surface.natural_bounds();
            let b = (nu.unwrap_or((-1e9, 1e9)), nv.unwrap_or((-1e9, 1e9)));
            let p48 = project_surface(&f.surface, &c.point, b, 48);
            let p256 = project_surface(&f.surface, &c.point, b, 256);
            println!(
                "  model face {fi} (source {}{}) box u {u0}..{u1} v {v0}..{v1}: dense min to q {:.9} at ({:.6},{:.6}); to our point {:.3e} at ({:.6},{:.6}); projection of our point grid48 {:.3e} at ({:.6},{:.6}) in {} grid256 {:.3e}",
                f.source,
                if src { ", ours" } else { "" },
                bq.0,
                bq.1,
                bq.2,
                bp.0,
                bp.1,
                bp.2,
                p48.distance,
                p48.u,
                p48.v,
                trim.contains(p48.u, p48.v),
                p256.distance
            );
        }
    }
    Ok(())
}
