//! Snapshot of the dump of a small prepared model (fixtures/tiled_convex.step),
//! and write → read → write byte identity of the prepared scene.

use extrack::prepare::{prepare, PrepareOptions};
use extrack::scene::{dump, AlignedBytes, SceneView};
use std::path::Path;

#[test]
fn tiled_convex_scene_dump() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/tiled_convex.step");
    let model = extrack::import::import_file(&path).expect("import");
    let scene = prepare(&model, &PrepareOptions::default()).expect("prepare");
    let bytes = scene.write();
    let buf = AlignedBytes::from_slice(&bytes);
    let view = SceneView::from_bytes(buf.as_bytes()).expect("valid scene");
    assert_eq!(
        view.to_data().write(),
        bytes,
        "write → read → write must be byte-identical"
    );
    assert!(scene
        .pieces
        .iter()
        .all(|p| p.class != extrack::scene::ConvexityClass::Convex || p.cone.half_angle < 1.5));
    insta::assert_snapshot!("tiled_convex_dump", dump(&view));
}
