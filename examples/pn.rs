use extrack::geom::{Pose, Vec3};
use nalgebra::UnitQuaternion;
fn main() {
    let m = extrack::import::import_file(std::path::Path::new("fixtures/sculpted.step")).unwrap();
    let s = extrack::prepare::prepare(&m, &Default::default()).unwrap();
    let t = extrack::track::TrackScene::from_data(&s).unwrap();
    let b = &t.bodies[0];
    println!("kind {:?} lo {:?} hi {:?}", b.kind, b.lo, b.hi);
    let radius = 4.0 + 0.6 * (b.hi - b.lo).norm();
    let n = 300usize;
    for i in [0usize, 30, 60] {
        let tt = i as f64 / n as f64 * std::f64::consts::TAU;
        let pose = Pose::from_parts(
            Vec3::new(radius * tt.cos(), radius * tt.sin(), 0.8 * (2.0 * tt).sin()),
            UnitQuaternion::from_scaled_axis(Vec3::new(0.3, -0.5, 1.0).normalize() * (1.5 * tt)),
        );
        let r =
            extrack::track::closest_point(&t, &extrack::track::Target::Body { index: 0, pose }, Vec3::zeros()).unwrap();
        println!("step {i}: origin signed distance to B {:?}", r.signed_distance);
    }
}
