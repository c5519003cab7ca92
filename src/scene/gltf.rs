//! glTF 2.0 export of a scene's pieces for looking at the decomposition: a
//! grid tessellation of every piece in world coordinates (body placements
//! applied), one mesh primitive per convexity class with its own colour, and
//! the binary buffer embedded as a base64 data URI (a single `.gltf` file).
//!
//! Triangles of trimmed pieces whose centre lies outside the piece's trim
//! loops ([`Piece::trim_contains`]) are left out; reversed pieces have their
//! triangles flipped so that the front faces point outward.

use super::data::{ConvexityClass, Piece, SceneData, IDENTITY_PLACEMENT};
use crate::geom::NurbsSurface;
use serde_json::{json, Value};

/// Display colour (linear RGB) of a convexity class, shared by the OBJ and glTF exports.
pub fn class_colour(c: ConvexityClass) -> [f64; 3] {
    match c {
        ConvexityClass::Planar => [0.7, 0.7, 0.7],
        ConvexityClass::Convex => [0.2, 0.5, 0.9],
        ConvexityClass::Concave => [0.9, 0.4, 0.2],
        ConvexityClass::Saddle => [0.3, 0.8, 0.3],
        ConvexityClass::Mixed => [0.9, 0.2, 0.8],
    }
}

/// A triangle mesh of the pieces of one convexity class.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClassMesh {
    /// World-space vertex positions.
    pub positions: Vec<[f32; 3]>,
    /// Triangles as indices into `positions`.
    pub triangles: Vec<[u32; 3]>,
}

/// Tessellates `piece` (of a body with `placement`) on an `n × n` grid into `mesh`.
fn tessellate_piece(piece: &Piece, placement: &[f64; 12], n: usize, mesh: &mut ClassMesh) {
    let Ok(s) = NurbsSurface::bezier(piece.degree_u as usize, piece.degree_v as usize, piece.poles.clone()) else {
        return;
    };
    let Ok(base) = u32::try_from(mesh.positions.len()) else {
        return;
    };
    let pl = placement;
    for i in 0..=n {
        for j in 0..=n {
            let q = s.eval(i as f64 / n as f64, j as f64 / n as f64);
            let w: [f32; 3] = std::array::from_fn(|r| {
                (pl[4 * r] * q.x + pl[4 * r + 1] * q.y + pl[4 * r + 2] * q.z + pl[4 * r + 3]) as f32
            });
            mesh.positions.push(w);
        }
    }
    let m = (n + 1) as u32;
    for i in 0..n {
        for j in 0..n {
            if piece.trimmed && !piece.trim_contains((i as f64 + 0.5) / n as f64, (j as f64 + 0.5) / n as f64) {
                continue;
            }
            let a = base + i as u32 * m + j as u32;
            let (b, c, d) = (a + m, a + m + 1, a + 1);
            let (b, d) = if piece.reversed { (d, b) } else { (b, d) };
            mesh.triangles.push([a, b, c]);
            mesh.triangles.push([a, c, d]);
        }
    }
}

/// Tessellates every piece of `scene` on an `n × n` grid (clamped to
/// `1..=256`), grouped by class in the order of [`ConvexityClass::ALL`].
pub fn tessellate(scene: &SceneData, n: usize) -> Vec<(ConvexityClass, ClassMesh)> {
    let n = n.clamp(1, 256);
    let mut out: Vec<(ConvexityClass, ClassMesh)> =
        ConvexityClass::ALL.iter().map(|&c| (c, ClassMesh::default())).collect();
    for p in &scene.pieces {
        let pl = scene
            .bodies
            .get(p.body as usize)
            .map_or(IDENTITY_PLACEMENT, |b| b.placement);
        if let Some((_, mesh)) = out.iter_mut().find(|(c, _)| *c == p.class) {
            tessellate_piece(p, &pl, n, mesh);
        }
    }
    out
}

/// Standard base64 (RFC 4648, with padding).
fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for ch in bytes.chunks(3) {
        let b = [ch[0], ch.get(1).copied().unwrap_or(0), ch.get(2).copied().unwrap_or(0)];
        let v = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= ch.len() {
                s.push(char::from(A[((v >> (18 - 6 * k)) & 63) as usize]));
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// The glTF 2.0 document (JSON text) of `scene`'s pieces tessellated on an
/// `n × n` grid per piece. Classes without triangles are left out; a scene
/// with no triangle at all gives a valid document with an empty scene.
pub fn to_gltf(scene: &SceneData, n: usize) -> String {
    const FLOAT: u32 = 5126;
    const UINT: u32 = 5125;
    const ARRAY_BUFFER: u32 = 34962;
    const ELEMENT_ARRAY_BUFFER: u32 = 34963;
    let mut bin: Vec<u8> = Vec::new();
    let (mut views, mut accessors, mut meshes, mut materials, mut nodes) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (class, mesh) in tessellate(scene, n) {
        if mesh.triangles.is_empty() {
            continue;
        }
        let mut lo = [f32::INFINITY; 3];
        let mut hi = [f32::NEG_INFINITY; 3];
        // positions (4-byte aligned: every earlier view is a multiple of 4 bytes)
        let pos_offset = bin.len();
        for p in &mesh.positions {
            for k in 0..3 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
                bin.extend_from_slice(&p[k].to_le_bytes());
            }
        }
        let idx_offset = bin.len();
        for t in &mesh.triangles {
            for &i in t {
                bin.extend_from_slice(&i.to_le_bytes());
            }
        }
        let view_pos = views.len();
        views.push(json!({"buffer": 0, "byteOffset": pos_offset, "byteLength": idx_offset - pos_offset, "target": ARRAY_BUFFER}));
        views.push(json!({"buffer": 0, "byteOffset": idx_offset, "byteLength": bin.len() - idx_offset, "target": ELEMENT_ARRAY_BUFFER}));
        let acc_pos = accessors.len();
        accessors.push(json!({"bufferView": view_pos, "componentType": FLOAT, "count": mesh.positions.len(), "type": "VEC3", "min": lo, "max": hi}));
        accessors.push(json!({"bufferView": view_pos + 1, "componentType": UINT, "count": 3 * mesh.triangles.len(), "type": "SCALAR"}));
        let [r, g, b] = class_colour(class);
        materials.push(json!({
            "name": class.name(),
            "pbrMetallicRoughness": {"baseColorFactor": [r, g, b, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.8},
            "doubleSided": true
        }));
        meshes.push(json!({
            "name": class.name(),
            "primitives": [{"attributes": {"POSITION": acc_pos}, "indices": acc_pos + 1, "material": materials.len() - 1, "mode": 4}]
        }));
        nodes.push(json!({"name": class.name(), "mesh": meshes.len() - 1}));
    }
    let node_ids: Vec<usize> = (0..nodes.len()).collect();
    let mut doc = json!({
        "asset": {"version": "2.0", "generator": format!("extrack {}", env!("CARGO_PKG_VERSION"))},
        "scene": 0,
        "scenes": [{"name": scene.meta.source_name, "nodes": node_ids}],
        "nodes": nodes,
    });
    if !meshes.is_empty() {
        let extra = [
            ("meshes", Value::from(meshes)),
            ("materials", Value::from(materials)),
            ("accessors", Value::from(accessors)),
            ("bufferViews", Value::from(views)),
            (
                "buffers",
                json!([{"byteLength": bin.len(), "uri": format!("data:application/octet-stream;base64,{}", base64(&bin))}]),
            ),
        ];
        if let Value::Object(m) = &mut doc {
            for (k, v) in extra {
                m.insert(k.to_string(), v);
            }
        }
    }
    doc.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648_vectors() {
        for (i, o) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(i.as_bytes()), o);
        }
    }

    #[test]
    fn empty_scene_is_a_valid_document() {
        let v: Value = serde_json::from_str(&to_gltf(&SceneData::default(), 4)).unwrap();
        assert_eq!(v["asset"]["version"], "2.0");
        assert_eq!(v["scenes"][0]["nodes"].as_array().map(Vec::len), Some(0));
    }
}
