//! glTF export: the document of a prepared fixture parses, its embedded
//! buffer decodes to `byteLength` bytes, every accessor fits its buffer
//! view, every index addresses a vertex, positions lie in their min/max, and
//! the triangle counts per class follow the pieces; the CLI writes the same
//! document.

use extrack::prepare::{prepare, PrepareOptions};
use extrack::scene::gltf::{tessellate, to_gltf};
use serde_json::Value;
use std::path::Path;

fn fixture(name: &str) -> Option<std::path::PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/fixtures/generated")
        .join(name);
    if p.is_file() {
        Some(p)
    } else {
        println!("skipping: {} is absent", p.display());
        None
    }
}

fn decode_base64(s: &str) -> Vec<u8> {
    let val = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("bad base64 byte {c}"),
        }
    };
    let mut out = Vec::new();
    for ch in s.as_bytes().chunks(4) {
        let n = ch.iter().filter(|&&c| c != b'=').count();
        let v = ch
            .iter()
            .take(n)
            .enumerate()
            .fold(0u32, |acc, (k, &c)| acc | (val(c) << (18 - 6 * k)));
        for k in 0..n - 1 {
            out.push((v >> (16 - 8 * k)) as u8);
        }
    }
    out
}

fn check_document(text: &str) -> (usize, Vec<(String, usize)>) {
    let doc: Value = serde_json::from_str(text).expect("valid JSON");
    assert_eq!(doc["asset"]["version"], "2.0");
    let buffer = &doc["buffers"][0];
    let uri = buffer["uri"].as_str().expect("uri");
    let prefix = "data:application/octet-stream;base64,";
    assert!(uri.starts_with(prefix));
    let bin = decode_base64(&uri[prefix.len()..]);
    assert_eq!(bin.len() as u64, buffer["byteLength"].as_u64().unwrap());
    let views = doc["bufferViews"].as_array().unwrap();
    for v in views {
        let (off, len) = (v["byteOffset"].as_u64().unwrap(), v["byteLength"].as_u64().unwrap());
        assert!(off + len <= bin.len() as u64);
        assert_eq!(off % 4, 0, "views are 4-byte aligned");
    }
    let accessors = doc["accessors"].as_array().unwrap();
    let mut per_mesh = Vec::new();
    for mesh in doc["meshes"].as_array().unwrap() {
        let prim = &mesh["primitives"][0];
        assert_eq!(prim["mode"], 4);
        let pos = &accessors[prim["attributes"]["POSITION"].as_u64().unwrap() as usize];
        let idx = &accessors[prim["indices"].as_u64().unwrap() as usize];
        assert_eq!(pos["type"], "VEC3");
        assert_eq!(pos["componentType"], 5126);
        assert_eq!(idx["type"], "SCALAR");
        assert_eq!(idx["componentType"], 5125);
        let pv = &views[pos["bufferView"].as_u64().unwrap() as usize];
        let iv = &views[idx["bufferView"].as_u64().unwrap() as usize];
        let n_vert = pos["count"].as_u64().unwrap() as usize;
        let n_idx = idx["count"].as_u64().unwrap() as usize;
        assert_eq!(pv["byteLength"].as_u64().unwrap() as usize, 12 * n_vert);
        assert_eq!(iv["byteLength"].as_u64().unwrap() as usize, 4 * n_idx);
        assert_eq!(n_idx % 3, 0);
        let f32_at = |o: usize| f32::from_le_bytes(bin[o..o + 4].try_into().unwrap());
        let po = pv["byteOffset"].as_u64().unwrap() as usize;
        for k in 0..n_vert {
            for c in 0..3 {
                let x = f32_at(po + 12 * k + 4 * c);
                let lo = pos["min"][c].as_f64().unwrap() as f32;
                let hi = pos["max"][c].as_f64().unwrap() as f32;
                assert!(x >= lo && x <= hi, "position outside min/max");
            }
        }
        let io = iv["byteOffset"].as_u64().unwrap() as usize;
        for k in 0..n_idx {
            let i = u32::from_le_bytes(bin[io + 4 * k..io + 4 * k + 4].try_into().unwrap());
            assert!((i as usize) < n_vert, "index out of range");
        }
        let mat = &doc["materials"][prim["material"].as_u64().unwrap() as usize];
        assert_eq!(mat["name"], mesh["name"]);
        assert_eq!(
            mat["pbrMetallicRoughness"]["baseColorFactor"].as_array().unwrap().len(),
            4
        );
        per_mesh.push((mesh["name"].as_str().unwrap().to_string(), n_idx / 3));
    }
    assert_eq!(doc["scenes"][0]["nodes"].as_array().unwrap().len(), per_mesh.len());
    (bin.len(), per_mesh)
}

#[test]
fn gltf_of_prepared_fixtures_is_well_formed() {
    for name in ["rounded_box.step", "holed_plate.step", "torus.step"] {
        let Some(path) = fixture(name) else { return };
        let model = extrack::import::import_file(&path).unwrap();
        let scene = prepare(&model, &PrepareOptions::default()).unwrap();
        let grid = 6;
        let (_, meshes) = check_document(&to_gltf(&scene, grid));
        assert!(!meshes.is_empty(), "{name}: no mesh");
        // triangle counts equal the tessellation's, class by class
        let tess = tessellate(&scene, grid);
        for (cname, tris) in &meshes {
            let (_, m) = tess.iter().find(|(c, _)| c.name() == cname).unwrap();
            assert_eq!(m.triangles.len(), *tris, "{name}: {cname}");
        }
        // an untrimmed piece gives a full grid: 2·grid² triangles
        let untrimmed = scene.pieces.iter().filter(|p| !p.trimmed).count();
        let total: usize = meshes.iter().map(|m| m.1).sum();
        assert!(total >= untrimmed * 2 * grid * grid, "{name}");
    }
}

#[test]
fn cli_writes_gltf() {
    let Some(path) = fixture("rounded_box.step") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let exs = dir.path().join("box.exs");
    let out = dir.path().join("box.gltf");
    let bin = env!("CARGO_BIN_EXE_extrack");
    let st = std::process::Command::new(bin)
        .args(["import", path.to_str().unwrap(), "-o", exs.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
    let st = std::process::Command::new(bin)
        .args([
            "export",
            exs.to_str().unwrap(),
            "--format",
            "gltf",
            "-o",
            out.to_str().unwrap(),
            "--grid",
            "4",
        ])
        .output()
        .unwrap();
    assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let (bytes, meshes) = check_document(&text);
    assert!(bytes > 0);
    assert!(meshes.iter().any(|m| m.0 == "planar") && meshes.iter().any(|m| m.0 == "convex"));
}
