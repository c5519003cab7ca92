//! The packed container's codec 2 (Zstandard over the residual image, see
//! `formats/scene.md`, "Packed container"): prepared scenes pack with it and
//! unpack byte for byte; it takes less than compressing the plain bytes;
//! every changed byte is rejected; a scene whose derivations do not invert
//! falls back to codec 1; hostile residual images never panic.

use crate::common::scene_fixture as fixture;

use extrack::prepare::{prepare, PrepareOptions};
use extrack::scene::packed::{self, CODEC_ZSTD, CODEC_ZSTD_DERIVED, DEFAULT_LEVEL};
use extrack::scene::records::{SectionId, SurfaceRecord};
use extrack::scene::{assemble, derived, AlignedBytes, RawSection, SceneView};
use proptest::prelude::*;

fn prepared(name: &str) -> Vec<u8> {
    let path = format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let model = extrack::import::import_file(&path).unwrap();
    prepare(&model, &PrepareOptions::default()).unwrap().write()
}

fn codec(packed: &[u8]) -> u16 {
    u16::from_le_bytes([packed[10], packed[11]])
}

fn load(bytes: &[u8]) -> Result<(), extrack::scene::SceneError> {
    let a = packed::load(bytes)?;
    SceneView::from_bytes(a.as_bytes()).map(|_| ())
}

#[test]
fn prepared_scenes_pack_with_derived_data_and_unpack_exactly() {
    // analytic faces (planes, cylinders, tori), B-spline faces, trims, assemblies
    // (file, largest packed size of the residual relative to the plain
    // bytes': B-spline faces' poles are most of sculpted and torus_nurbs)
    for (name, ratio) in [
        ("tiled_convex.step", 0.99),
        ("sculpted.step", 0.65),
        ("torus_nurbs.step", 0.75),
        ("rounded_box.step", 0.99),
        ("assembly.step", 0.99),
        ("holed_plate.brep.igs", 0.99),
    ] {
        let plain = prepared(name);
        let p = packed::pack(&plain, DEFAULT_LEVEL).unwrap();
        assert_eq!(codec(&p), CODEC_ZSTD_DERIVED, "{name}");
        assert_eq!(packed::unpack(&p).unwrap().as_bytes(), &plain[..], "{name}");
        assert_eq!(
            packed::pack(&plain, DEFAULT_LEVEL).unwrap(),
            p,
            "{name}: not deterministic"
        );
        // every derived field is exact: the residual holds zeros there, so it
        // compresses better than the plain bytes
        let residual = derived::encode(&plain);
        let mut back = residual.clone();
        derived::decode(&mut back);
        assert_eq!(back, plain, "{name}");
        let z_plain = zstd::bulk::compress(&plain, DEFAULT_LEVEL).unwrap().len();
        let z_res = zstd::bulk::compress(&residual, DEFAULT_LEVEL).unwrap().len();
        println!("{name}: residual packs to {z_res} bytes, plain to {z_plain}");
        assert!(
            (z_res as f64) < ratio * z_plain as f64,
            "{name}: residual packs to {z_res} bytes, plain to {z_plain}"
        );
    }
}

#[test]
fn derived_poles_boxes_and_bvhs_are_exact() {
    // with every derivation exact, the residual image of a prepared scene is
    // zero at every piece pole, box and BVH node
    let plain = prepared("sculpted.step");
    let residual = derived::encode(&plain);
    let a = AlignedBytes::from_slice(&plain);
    let v = SceneView::from_bytes(a.as_bytes()).unwrap();
    let base = a.as_bytes().as_ptr() as usize;
    let offset = |x: *const u8| x as usize - base;
    let zero = |from: usize, len: usize| residual[from..from + len].iter().all(|&b| b == 0);
    assert!(!v.pieces().is_empty());
    for (i, p) in v.pieces().iter().enumerate() {
        let poles = v.piece_poles(p);
        assert!(zero(offset(poles.as_ptr().cast()), poles.len() * 32), "piece {i} poles");
        let at = offset((p as *const _ as *const u8).cast());
        assert!(zero(at + 104, 48), "piece {i} box");
        // the normal cone is stored as it is
        assert_eq!(&residual[at + 72..at + 104], &plain[at + 72..at + 104]);
    }
    for n in v.bvh_nodes() {
        let at = offset((n as *const _ as *const u8).cast());
        assert!(zero(at, 64), "bvh node");
        let leaf = v.leaf_pieces(n);
        if !leaf.is_empty() {
            assert!(zero(offset(leaf.as_ptr().cast()), leaf.len() * 4), "bvh leaf list");
        }
    }
}

#[test]
fn every_changed_byte_of_a_derived_pack_is_rejected() {
    let plain = prepared("table1_patch.step");
    let p = packed::pack(&plain, DEFAULT_LEVEL).unwrap();
    assert_eq!(codec(&p), CODEC_ZSTD_DERIVED);
    for i in 0..p.len() {
        for flip in [0x01u8, 0x80, 0xff] {
            let mut b = p.clone();
            b[i] ^= flip;
            assert!(load(&b).is_err(), "byte {i} ^ {flip:#x} accepted");
        }
    }
    for n in 0..p.len() {
        assert!(packed::unpack(&p[..n]).is_err(), "truncated to {n} accepted");
    }
}

#[test]
fn a_scene_whose_derivations_do_not_invert_packs_with_codec_1() {
    // the corner's floor surface made to share its poles with the piece it
    // derives: the residual then overwrites the surface it is derived from
    let plain = fixture::small_scene().write();
    let a = AlignedBytes::from_slice(&plain);
    let v = SceneView::from_bytes(a.as_bytes()).unwrap();
    let piece0 = v.pieces()[0].poles;
    let sections: Vec<RawSection> = v
        .sections()
        .iter()
        .map(|e| {
            let mut bytes = v.section_bytes(e.id).unwrap().to_vec();
            if e.id == SectionId::Surfaces as u32 {
                let mut s: SurfaceRecord = bytemuck::pod_read_unaligned(&bytes[..40]);
                s.poles = piece0;
                bytes[..40].copy_from_slice(bytemuck::bytes_of(&s));
            }
            RawSection {
                id: e.id,
                flags: e.flags,
                record_size: e.record_size,
                record_count: e.record_count,
                bytes,
            }
        })
        .collect();
    let shared = assemble(2, 1, &sections);
    load(&shared).unwrap();
    let p = packed::pack(&shared, DEFAULT_LEVEL).unwrap();
    assert_eq!(codec(&p), CODEC_ZSTD);
    assert_eq!(packed::unpack(&p).unwrap().as_bytes(), &shared[..]);
    // the unmodified scene derives fine
    let p = packed::pack(&plain, DEFAULT_LEVEL).unwrap();
    assert_eq!(codec(&p), CODEC_ZSTD_DERIVED);
    assert_eq!(packed::unpack(&p).unwrap().as_bytes(), &plain[..]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// Residual images with random bytes overwritten (header, table, any
    /// record) decode without panicking, and what decodes is then either
    /// rejected or a valid scene.
    #[test]
    fn hostile_residual_images_never_panic(
        writes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..12),
    ) {
        thread_local! {
            static RESIDUAL: Vec<u8> = derived::encode(&prepared("table1_patch.step"));
        }
        let mut img = RESIDUAL.with(|r| r.clone());
        for (at, byte) in writes {
            let i = at.index(img.len());
            img[i] = byte;
        }
        derived::decode(&mut img);
        let a = AlignedBytes::from_slice(&img);
        let _ = SceneView::from_bytes(a.as_bytes());
    }
}
