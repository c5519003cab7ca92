//! Development probe of inside/outside signs (issue 25): for each query
//! point, the cold answer and what the sign at its witness rests on (the
//! piece's orientation flag and normal, the cusp edge through it, every
//! piece's normal at its own closest point).
//! `cargo run --release -p extrack-dev --bin sign_probe -- MODEL X,Y,Z [X,Y,Z ...]`
use extrack::geom::{Pose, Vec3};
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{closest_points, Target, TrackScene};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 3 {
        return Err("usage: sign_probe MODEL X,Y,Z [X,Y,Z ...]".into());
    }
    let m = extrack::import::import_file(std::path::Path::new(&a[1]))?;
    for f in &m.faces {
        println!("model face {} same_sense {}", f.source, f.same_sense);
    }
    let scene = TrackScene::from_data(&prepare(&m, &PrepareOptions::default())?)?;
    for b in &scene.bodies {
        for p in &b.pieces {
            println!(
                "piece {} face {} reversed {} class {:?} domain {:?} normal(.5,.5) {:?}",
                p.id,
                p.face,
                p.reversed,
                p.class,
                p.domain,
                b.piece_normal(p.id, [0.5, 0.5])
            );
        }
    }
    for s in &a[2..] {
        let v: Vec<f64> = s.split(',').map(str::parse).collect::<Result<_, _>>()?;
        let q = Vec3::new(v[0], v[1], v[2]);
        let c = closest_points(&scene, &Target::All { pose: Pose::identity() }, &[q]);
        let c = c[0].as_ref().map_err(|e| e.to_string())?;
        println!(
            "q {q:?}: d {:.9} signed {:?} face {} piece {} params {:?} at {:?} normal {:?} feature {:?}",
            c.distance, c.signed_distance, c.face, c.piece, c.params, c.point, c.normal, c.feature
        );
        println!(
            "  bodies {} answer body {} status {:?}",
            scene.bodies.len(),
            c.body,
            c.status
        );
        for bi in 0..scene.bodies.len() {
            let r = extrack::track::closest_point(
                &scene,
                &Target::Body {
                    index: bi as u32,
                    pose: Pose::identity(),
                },
                q,
            );
            if let Ok(r) = r {
                println!(
                    "  body {bi} ({:?}): d {:.9} signed {:?} face {} piece {} feature {:?}",
                    scene.bodies[bi].kind, r.distance, r.signed_distance, r.face, r.piece, r.feature
                );
            }
        }
        let b = &scene.bodies[c.body as usize];
        if (c.piece as usize) < b.pieces.len() {
            let n = b.piece_normal(c.piece, c.params);
            let dr = q - c.point;
            println!(
                "  piece normal {n:?} n·(q−c)/d {:.6} cusp {:?}",
                n.dot(&dr) / dr.norm(),
                b.cusp_through(c.piece, &c.point)
            );
        }
    }
    Ok(())
}
