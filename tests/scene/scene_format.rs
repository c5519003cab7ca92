//! The .exs format: round trips, golden dump, corruption and hostile scenes.

use crate::common::scene_fixture as fixture;

use extrack::scene::checksum::{header_crc, reseal};
use extrack::scene::records::*;
use extrack::scene::*;
use fixture::{grid_scene, small_scene};

fn aligned(bytes: &[u8]) -> AlignedBytes {
    AlignedBytes::from_slice(bytes)
}

fn load(bytes: &[u8]) -> Result<SceneData, SceneError> {
    let a = aligned(bytes);
    SceneView::from_bytes(a.as_bytes()).map(|v| v.to_data())
}

/// Table entry of a known section in writer-made bytes.
fn entry(bytes: &[u8], id: SectionId) -> (usize, SectionEntry) {
    let n = u32::from_le_bytes(bytes[20..24].try_into().unwrap()) as usize;
    (0..n)
        .map(|k| {
            let at = 40 + 40 * k;
            (at, bytemuck::pod_read_unaligned::<SectionEntry>(&bytes[at..at + 40]))
        })
        .find(|(_, e)| e.id == id as u32)
        .unwrap()
}

/// Applies `f` to record `index` of section `id` (as type `T`) and reseals the checksums.
fn patch<T: bytemuck::Pod>(bytes: &[u8], id: SectionId, index: usize, f: impl FnOnce(&mut T)) -> Vec<u8> {
    let mut b = bytes.to_vec();
    let (_, e) = entry(&b, id);
    let at = e.offset as usize + index * size_of::<T>();
    let mut rec: T = bytemuck::pod_read_unaligned(&b[at..at + size_of::<T>()]);
    f(&mut rec);
    b[at..at + size_of::<T>()].copy_from_slice(bytemuck::bytes_of(&rec));
    reseal(&mut b).unwrap();
    b
}

/// Applies `f` to the table entry of `id` and fixes the header checksum only.
fn patch_entry(bytes: &[u8], id: SectionId, f: impl FnOnce(&mut SectionEntry)) -> Vec<u8> {
    let mut b = bytes.to_vec();
    let (at, mut e) = entry(&b, id);
    f(&mut e);
    b[at..at + 40].copy_from_slice(bytemuck::bytes_of(&e));
    fix_header(&mut b);
    b
}

fn fix_header(b: &mut [u8]) {
    let n = u32::from_le_bytes(b[20..24].try_into().unwrap()) as usize;
    let crc = header_crc(&b[..40], &b[40..40 + 40 * n]);
    b[36..40].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn small_scene_is_valid() {
    small_scene().check().unwrap();
    grid_scene(100).check().unwrap();
    grid_scene(0).check().unwrap();
    SceneData::default().check().unwrap();
}

#[test]
fn write_read_write_is_byte_identical() {
    for data in [small_scene(), grid_scene(37), SceneData::default()] {
        let bytes = data.write();
        assert_eq!(bytes.len() % 8, 0);
        let back = load(&bytes).unwrap();
        assert_eq!(back, data);
        assert_eq!(back.write(), bytes);
        assert_eq!(data.write(), bytes, "writer must be deterministic");
    }
}

#[test]
fn view_accessors_copy_nothing() {
    let bytes = aligned(&small_scene().write());
    let v = SceneView::from_bytes(bytes.as_bytes()).unwrap();
    let range = bytes.as_bytes().as_ptr_range();
    let p4 = &v.pieces()[4];
    let poles = v.piece_poles(p4);
    assert_eq!(poles.len(), 12);
    assert!(range.contains(&(poles.as_ptr() as *const u8)));
    assert!(range.contains(&(v.pieces().as_ptr() as *const u8)));
    assert_eq!(v.source_name(), "corner_and_sheet.step");
    assert_eq!(v.tolerance("linear_mm"), Some(1e-6));
    assert_eq!(v.tolerance("nope"), None);
    assert_eq!(v.warnings().count(), 2);
    let loops = v.piece_trim_loops(p4);
    assert_eq!(loops.len(), 2);
    assert_eq!(v.loop_curves(&loops[0]).len(), 2);
    assert_eq!(v.trim_curve_points(&v.loop_curves(&loops[0])[1]).len(), 3);
    let b0 = &v.bodies()[0];
    assert_eq!(v.body_pieces(b0).len(), 4);
    assert_eq!(v.body_bvh(b0).len(), 3);
    assert_eq!(v.leaf_pieces(&v.bvh_nodes()[1]), &[0, 1]);
    assert_eq!(v.leaf_pieces(&v.bvh_nodes()[0]), &[] as &[u32]);
    assert_eq!(v.vertex_pieces(&v.vertices()[0]), &[0, 1]);
    assert_eq!(v.edge_knots(&v.edges()[3]).len(), 6);
    assert_eq!(v.edge_samples(&v.edges()[3]).len(), 3);
    assert_eq!(v.version(), (2, 1));
    // the optional sections of 2.1: one surface, one origin per piece
    assert_eq!(v.surfaces().len(), 1);
    assert_eq!(v.piece_origins().len(), v.pieces().len());
    assert_eq!(v.piece_origins()[0].surface, 0);
    assert!(v.piece_origins()[1..].iter().all(|o| o.surface == NONE));
    let (ku, kv) = v.surface_knots(&v.surfaces()[0]);
    assert_eq!((ku.len(), kv.len()), (4, 4));
    assert_eq!(v.surface_poles(&v.surfaces()[0]), v.piece_poles(&v.pieces()[0]));
}

#[test]
fn dump_snapshot() {
    let bytes = aligned(&small_scene().write());
    let v = SceneView::from_bytes(bytes.as_bytes()).unwrap();
    let text = dump(&v);
    assert_eq!(text, dump(&SceneView::from_bytes(bytes.as_bytes()).unwrap()));
    insta::assert_snapshot!("small_scene_dump", text);
}

#[test]
fn every_single_byte_flip_is_detected() {
    let bytes = small_scene().write();
    for i in 0..bytes.len() {
        for mask in [0x01u8, 0x80, 0xFF] {
            let mut b = bytes.clone();
            b[i] ^= mask;
            assert!(
                load(&b).is_err(),
                "flip {mask:#04x} of byte {i} of {} accepted",
                bytes.len()
            );
        }
    }
}

#[test]
fn every_truncation_is_detected() {
    let bytes = small_scene().write();
    for len in 0..bytes.len() {
        let err = load(&bytes[..len]).unwrap_err();
        assert!(
            matches!(err, SceneError::TooShort { .. } | SceneError::LengthMismatch { .. }),
            "truncation at {len}: {err}"
        );
    }
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0; 8]);
    assert!(matches!(load(&longer), Err(SceneError::LengthMismatch { .. })));
}

fn raw_sections(bytes: &[u8]) -> Vec<RawSection> {
    let a = aligned(bytes);
    let v = SceneView::from_bytes(a.as_bytes()).unwrap();
    v.sections()
        .iter()
        .map(|e| RawSection {
            id: e.id,
            flags: e.flags,
            record_size: e.record_size,
            record_count: e.record_count,
            bytes: v.section_bytes(e.id).unwrap().to_vec(),
        })
        .collect()
}

#[test]
fn versions() {
    let data = small_scene();
    let bytes = data.write();
    let sections = raw_sections(&bytes);
    assert_eq!(assemble(2, 1, &sections), bytes);

    // a 2.0 file (no optional sections of 2.1): accepted, reads as having none
    let mut v20 = sections.clone();
    v20.retain(|s| s.id != SectionId::Surfaces as u32 && s.id != SectionId::PieceOrigins as u32);
    assert_eq!(v20.len() + 2, sections.len());
    let b = assemble(2, 0, &v20);
    let a = aligned(&b);
    let v = SceneView::from_bytes(a.as_bytes()).unwrap();
    assert!(v.surfaces().is_empty() && v.piece_origins().is_empty());
    let mut plain = data.clone();
    plain.surfaces.clear();
    plain.pieces.iter_mut().for_each(|p| p.origin = None);
    assert_eq!(v.to_data(), plain);
    // what a 2.0 reader sees of a 2.1 file: the same sections marked optional are skippable
    assert!(sections
        .iter()
        .filter(|s| s.id == SectionId::Surfaces as u32 || s.id == SectionId::PieceOrigins as u32)
        .all(|s| s.flags & SECTION_REQUIRED == 0));
    // piece origins must come one per piece
    let mut short = sections.clone();
    for s in short.iter_mut().filter(|s| s.id == SectionId::PieceOrigins as u32) {
        s.record_count -= 1;
        s.bytes.truncate(s.bytes.len() - 48);
    }
    let err = load(&assemble(2, 1, &short)).unwrap_err();
    assert!(err.to_string().contains("piece origins"), "{err}");

    // major version change: rejected (with or without a valid checksum)
    for major in [0u16, 1, 3, 0xFFFF] {
        let b = assemble(major, 0, &sections);
        let err = load(&b).unwrap_err();
        assert!(
            matches!(err, SceneError::UnsupportedVersion { major: m, .. } if m == major),
            "{err}"
        );
        assert!(err.to_string().contains("unsupported scene format version"));
    }
    // an edited version field without re-sealing: also rejected
    let mut b = bytes.clone();
    b[10] = 3;
    assert!(matches!(load(&b), Err(SceneError::HeaderChecksum { .. })));

    // newer minor version with an unknown optional section (in the middle and at the end): accepted
    let extra = RawSection {
        id: 4242,
        flags: 0,
        record_size: 4,
        record_count: 3,
        bytes: vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    };
    let mut with_extra = sections.clone();
    with_extra.insert(3, extra.clone());
    with_extra.push(RawSection {
        id: 4243,
        ..extra.clone()
    });
    let b = assemble(2, 7, &with_extra);
    let a = aligned(&b);
    let v = SceneView::from_bytes(a.as_bytes()).unwrap();
    assert_eq!(v.version(), (2, 7));
    assert_eq!(v.section_bytes(4242), Some(&extra.bytes[..]));
    assert_eq!(v.to_data(), data);
    assert_eq!(v.to_data().write(), bytes);

    // unknown required section: rejected
    let mut with_required = sections.clone();
    with_required.push(RawSection {
        flags: SECTION_REQUIRED,
        ..extra.clone()
    });
    let err = load(&assemble(2, 7, &with_required)).unwrap_err();
    assert!(matches!(err, SceneError::UnknownRequiredSection { id: 4242 }), "{err}");

    // a missing known section or a duplicated one: rejected
    let mut missing = sections.clone();
    missing.retain(|s| s.id != SectionId::Knots as u32);
    assert!(matches!(
        load(&assemble(2, 0, &missing)),
        Err(SceneError::MissingSection { section: "knots" })
    ));
    let mut dup = sections.clone();
    dup.push(sections[5].clone());
    assert!(matches!(
        load(&assemble(2, 0, &dup)),
        Err(SceneError::DuplicateSection { .. })
    ));
}

#[test]
fn misaligned_buffer_and_non_scenes() {
    let bytes = small_scene().write();
    let mut words = vec![0u64; bytes.len() / 8 + 1];
    let buf: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
    buf[1..1 + bytes.len()].copy_from_slice(&bytes);
    let err = SceneView::from_bytes(&buf[1..1 + bytes.len()]).unwrap_err();
    assert!(matches!(err, SceneError::Misaligned { rem: 1 }), "{err}");
    assert!(err.to_string().contains("AlignedBytes"));

    let err = load(b"ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION(('x'),'2;1');\nENDSEC;\n").unwrap_err();
    assert!(matches!(err, SceneError::BadMagic { .. }), "{err}");
    assert!(err.to_string().starts_with("not an extrack scene"));
    assert!(matches!(load(&[]), Err(SceneError::TooShort { .. })));
}

fn expect_err(bytes: &[u8], pred: impl Fn(&SceneError) -> bool, what: &str) {
    match load(bytes) {
        Ok(_) => panic!("{what}: hostile scene accepted"),
        Err(e) => assert!(pred(&e), "{what}: unexpected error {e}"),
    }
}

#[test]
fn hostile_scenes_are_rejected() {
    let bytes = small_scene().write();
    let range = |e: &SceneError| matches!(e, SceneError::Range { .. });
    let index = |e: &SceneError| matches!(e, SceneError::Index { .. });
    let invalid = |e: &SceneError| matches!(e, SceneError::Invalid { .. });
    let layout = |e: &SceneError| matches!(e, SceneError::SectionLayout { .. });
    let shape = |e: &SceneError| matches!(e, SceneError::RecordShape { .. });

    // ranges: out of bounds, overflowing, huge
    for (first, count) in [
        (u32::MAX, u32::MAX),
        (1, u32::MAX),
        (u32::MAX, 1),
        (0, 1_000_000),
        (100_000, 1),
    ] {
        let s = Span::new(first, count);
        let b = patch::<PieceRecord>(&bytes, SectionId::Pieces, 0, |p| p.poles = s);
        expect_err(&b, range, "piece poles");
        let b = patch::<PieceRecord>(&bytes, SectionId::Pieces, 4, |p| p.trim_loops = s);
        expect_err(&b, range, "piece trim loops");
        let b = patch::<BodyRecord>(&bytes, SectionId::Bodies, 1, |x| x.pieces = s);
        expect_err(&b, range, "body pieces");
        let b = patch::<EdgeRecord>(&bytes, SectionId::Edges, 3, |x| x.knots = s);
        expect_err(&b, range, "edge knots");
        let b = patch::<VertexRecord>(&bytes, SectionId::Vertices, 0, |x| x.edges = s);
        expect_err(&b, range, "vertex edges");
        let b = patch::<TrimCurveRecord>(&bytes, SectionId::TrimCurves, 0, |x| x.points = s);
        expect_err(&b, range, "trim curve points");
        let b = patch::<MetaRecord>(&bytes, SectionId::Meta, 0, |x| x.warnings = s);
        expect_err(&b, range, "meta warnings");
        let b = patch::<StrRef>(&bytes, SectionId::StrRefs, 0, |x| {
            *x = StrRef {
                offset: first,
                len: count,
            }
        });
        expect_err(&b, range, "str ref");
        let b = patch::<BvhNodeRecord>(&bytes, SectionId::BvhNodes, 1, |x| (x.a, x.b) = (first, count));
        expect_err(&b, range, "bvh leaf");
    }
    // indices out of range
    let b = patch::<EdgeRecord>(&bytes, SectionId::Edges, 0, |x| x.sides[1].piece = 5);
    expect_err(&b, index, "edge side piece");
    let b = patch::<EdgeRecord>(&bytes, SectionId::Edges, 0, |x| x.vertices[0] = 2);
    expect_err(&b, index, "edge vertex");
    let b = patch::<u32>(&bytes, SectionId::Indices, 0, |x| *x = 4);
    expect_err(&b, index, "vertex edge index");
    let b = patch::<AdjacencyRecord>(&bytes, SectionId::Adjacency, 0, |x| x.feature.index = 99);
    expect_err(&b, index, "adjacency feature");
    let b = patch::<PieceRecord>(&bytes, SectionId::Pieces, 2, |x| x.body = 7);
    expect_err(&b, invalid, "piece body");
    // references across bodies
    let b = patch::<EdgeRecord>(&bytes, SectionId::Edges, 0, |x| x.sides[1].piece = 4);
    expect_err(&b, invalid, "edge side piece of another body");
    let b = patch::<AdjacencyRecord>(&bytes, SectionId::Adjacency, 0, |x| x.feature.index = 3);
    expect_err(&b, invalid, "adjacency to another body's edge");
    let b = patch::<EdgeRecord>(&bytes, SectionId::Edges, 0, |x| x.vertices[1] = 1);
    expect_err(&b, invalid, "edge vertex of another body");
    let b = patch::<BodyRecord>(&bytes, SectionId::Bodies, 1, |x| x.pieces = Span::new(3, 2));
    expect_err(&b, invalid, "body range holding another body's piece");
    // ownership, codes, structure
    let b = patch::<PieceRecord>(&bytes, SectionId::Pieces, 2, |x| x.body = 1);
    expect_err(&b, invalid, "piece outside its body");
    let b = patch::<BvhNodeRecord>(&bytes, SectionId::BvhNodes, 0, |x| x.a = 0);
    expect_err(&b, invalid, "bvh cycle");
    let b = patch::<BvhNodeRecord>(&bytes, SectionId::BvhNodes, 0, |x| x.b = 3);
    expect_err(&b, invalid, "bvh child in another body");
    let b = patch::<BodyRecord>(&bytes, SectionId::Bodies, 0, |x| x.bvh_root = 3);
    expect_err(&b, invalid, "bvh root");
    let b = patch::<PieceRecord>(&bytes, SectionId::Pieces, 0, |x| x.class = 9);
    expect_err(&b, invalid, "class code");
    let b = patch::<PieceRecord>(&bytes, SectionId::Pieces, 0, |x| x.degree_u = 0);
    expect_err(&b, invalid, "degree 0");
    let b = patch::<PieceRecord>(&bytes, SectionId::Pieces, 0, |x| x.degree_u = 2);
    expect_err(&b, invalid, "pole count");
    let b = patch::<PieceRecord>(&bytes, SectionId::Pieces, 0, |x| x.degree_v = u32::MAX);
    expect_err(&b, invalid, "huge degree");
    let b = patch::<AdjacencyRecord>(&bytes, SectionId::Adjacency, 6, |x| x.boundary.trim_curve = 2);
    expect_err(&b, invalid, "trim curve reference");
    let b = patch::<EdgeRecord>(&bytes, SectionId::Edges, 0, |x| x.sides[0].map = MAP_CURVE);
    expect_err(&b, invalid, "curve map on a side");
    let b = patch::<EdgeRecord>(&bytes, SectionId::Edges, 3, |x| x.curve_degree = 3);
    expect_err(&b, invalid, "knot count");
    let b = patch::<f64>(&bytes, SectionId::Knots, 5, |x| *x = -5.0);
    expect_err(&b, invalid, "knot order");
    let b = patch::<[f64; 4]>(&bytes, SectionId::Poles, 3, |x| x[3] = 0.0);
    expect_err(&b, invalid, "zero weight");
    let b = patch::<[f64; 4]>(&bytes, SectionId::Poles, 3, |x| x[1] = f64::NAN);
    expect_err(&b, |e| matches!(e, SceneError::NonFinite { .. }), "NaN pole");
    let b = patch::<PieceRecord>(&bytes, SectionId::Pieces, 1, |x| x.cone.axis = [0.0; 3]);
    expect_err(&b, invalid, "zero cone axis");
    let b = patch::<PieceRecord>(&bytes, SectionId::Pieces, 1, |x| x.bbox.min[0] = 1e9);
    expect_err(&b, invalid, "inverted box");
    let b = patch::<u8>(&bytes, SectionId::Strings, 0, |x| *x = 0xFF);
    expect_err(&b, invalid, "bad UTF-8");
    let b = patch::<PieceRecord>(&bytes, SectionId::Pieces, 0, |x| x.reserved = 1);
    expect_err(&b, |e| matches!(e, SceneError::Reserved { .. }), "reserved field");

    // section table: offsets past the end, overflowing lengths, record shapes
    let b = patch_entry(&bytes, SectionId::Pieces, |e| e.offset = u64::MAX - 7);
    expect_err(&b, layout, "offset past the end");
    let b = patch_entry(&bytes, SectionId::BvhNodes, |e| e.length = u64::MAX);
    expect_err(&b, layout, "length past the end");
    let b = patch_entry(&bytes, SectionId::Pieces, |e| e.offset += 4);
    expect_err(&b, layout, "misaligned section");
    let b = patch_entry(&bytes, SectionId::Pieces, |e| e.offset -= 8);
    expect_err(&b, layout, "overlapping sections");
    let b = patch_entry(&bytes, SectionId::Pieces, |e| e.record_count = u32::MAX);
    expect_err(&b, shape, "count × size ≠ length");
    let b = patch_entry(&bytes, SectionId::Pieces, |e| {
        e.record_size = 1;
        e.record_count = e.length as u32;
    });
    expect_err(&b, shape, "wrong record size");
    // a section count whose table does not fit: rejected before the table is read
    let mut b = bytes.clone();
    b[20..24].copy_from_slice(&u32::MAX.to_le_bytes());
    expect_err(&b, |e| matches!(e, SceneError::TooShort { .. }), "section count");
}

#[test]
fn files_read_and_mapped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("small.exs");
    let data = small_scene();
    data.write_to_path(&path).unwrap();
    let f = SceneFile::open(&path).unwrap();
    assert_eq!(f.view().to_data(), data);
    assert_eq!(f.bytes(), &data.write()[..]);
    // SAFETY: the temporary file is not modified while the map lives.
    let m = unsafe { SceneFile::open_mmap(&path) }.unwrap();
    assert_eq!(dump(&m.view()), dump(&f.view()));
    let missing = SceneFile::open(dir.path().join("missing.exs")).unwrap_err();
    assert!(matches!(missing, SceneError::Io { .. }), "{missing}");
}
