fn main() {
    let m = extrack::import::import_file(std::path::Path::new("fixtures/tiled_convex.step")).unwrap();
    let s = extrack::prepare::prepare(&m, &Default::default()).unwrap();
    let t = extrack::track::TrackScene::from_data(&s).unwrap();
    let b = &t.bodies[0];
    let p = &b.pieces[2];
    println!("piece 2 trims {:?} domain {:?}", p.trims.len(), p.domain);
    for uv in [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, 0.9], [1.0, 0.5]] {
        println!(
            "{uv:?} {:?} keeps {}",
            p.surface.eval(uv[0], uv[1]),
            b.piece_keeps(2, uv[0], uv[1])
        );
    }
    let q = extrack::geom::Vec3::new(-8.024494277527761, 0.7940871108785863, 0.5115767151463562);
    let cfg = extrack::track::far::cell_config(&Default::default());
    for x0 in [[1.0, 1.0], [0.99, 0.9], [0.5, 0.5]] {
        let r = extrack::track::far::solve_piece(b, &cfg, 2, &[0.0, 1.0, 0.0, 1.0], x0, &q);
        println!(
            "from {x0:?}: d {} x {:?} mode {:?} it {} conv {}",
            r.0, r.2, r.3, r.4, r.5
        );
    }
}
