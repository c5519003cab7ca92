fn main() {
    let m = extrack::import::import_file(std::path::Path::new("fixtures/tiled_convex.step")).unwrap();
    let s = extrack::prepare::prepare(&m, &Default::default()).unwrap();
    let t = extrack::track::TrackScene::from_data(&s).unwrap();
    let b = &t.bodies[0];
    for (tt, p, n) in &b.edges[4].pseudo_normals {
        println!("t {tt:.3} p {:.3?} n {:.3?}", p.as_slice(), n.as_slice());
    }
}
