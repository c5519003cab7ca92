//! Deterministic text dump of a scene (for `extrack dump`, golden files and
//! eyeballing): header, section table, metadata, then every body, piece, edge,
//! vertex and BVH node with all of its data, the surfaces and the self-check
//! records (when present). Floats print in Rust's shortest
//! round-trip form, so equal scenes give equal dumps on every platform.

use super::data::{BodyKind, Boundary, ConvexityClass, EdgeKind, FeatureRef};
use super::records::*;
use super::view::SceneView;
use std::fmt::Write;

fn f(x: f64) -> String {
    format!("{x:?}")
}

fn fs(xs: &[f64]) -> String {
    let parts: Vec<String> = xs.iter().map(|x| f(*x)).collect();
    format!("[{}]", parts.join(", "))
}

fn bbox(b: &Aabb) -> String {
    format!("{} .. {}", fs(&b.min), fs(&b.max))
}

fn cone(c: &NormalCone) -> String {
    format!("axis {} half-angle {}", fs(&c.axis), f(c.half_angle))
}

fn span(s: Span) -> String {
    format!("{}+{}", s.first, s.count)
}

fn opt(i: u32) -> String {
    if i == NONE {
        "none".into()
    } else {
        i.to_string()
    }
}

fn boundary(b: &BoundaryRecord) -> String {
    Boundary::from_codes(b.side, b.trim_loop, b.trim_curve).map_or_else(|| format!("side#{}", b.side), |b| b.label())
}

fn feature(fr: &FeatureRecord) -> String {
    FeatureRef::from_codes(fr.kind, fr.index).map_or_else(|| format!("feature#{}", fr.kind), |x| x.label())
}

/// The dump of a validated scene.
pub fn dump(v: &SceneView<'_>) -> String {
    let mut o = String::new();
    // `write!` into a String cannot fail; the results are ignored on purpose.
    let (major, minor) = v.version();
    let _ = writeln!(
        o,
        "extrack scene {major}.{minor}, {} bytes, {} sections",
        v.bytes().len(),
        v.sections().len()
    );
    let _ = writeln!(o, "sections:");
    for e in v.sections() {
        let name = SectionId::from_code(e.id).map_or("(unknown)", |s| s.name());
        let req = if e.flags & SECTION_REQUIRED != 0 {
            "required"
        } else {
            "optional"
        };
        let _ = writeln!(
            o,
            "  {:>3} {:<13} {req} offset {} length {} records {}×{} crc {:08x}",
            e.id, name, e.offset, e.length, e.record_count, e.record_size, e.crc
        );
    }
    let _ = writeln!(o, "meta:");
    let _ = writeln!(o, "  source: {:?} ({})", v.source_name(), v.source_format().name());
    let _ = writeln!(o, "  producer: {:?}", v.producer());
    let _ = writeln!(o, "  warnings: {}", v.warnings().len());
    for w in v.warnings() {
        let _ = writeln!(o, "    - {w:?}");
    }
    let _ = writeln!(o, "  tolerances:");
    for t in v.tolerances() {
        let _ = writeln!(o, "    {} = {}", v.str(t.name), f(t.value));
    }
    let mut classes = [0usize; 5];
    for p in v.pieces() {
        if let Some(c) = ConvexityClass::from_code(p.class) {
            classes[c.code() as usize] += 1;
        }
    }
    let by_class: Vec<String> = ConvexityClass::ALL
        .iter()
        .zip(classes)
        .map(|(c, n)| format!("{} {n}", c.name()))
        .collect();
    let _ = writeln!(
        o,
        "counts: bodies {} pieces {} ({}) edges {} vertices {} bvh nodes {}",
        v.bodies().len(),
        v.pieces().len(),
        by_class.join(", "),
        v.edges().len(),
        v.vertices().len(),
        v.bvh_nodes().len()
    );

    for (i, b) in v.bodies().iter().enumerate() {
        let kind = BodyKind::from_code(b.kind).map_or("?", |k| k.name());
        let _ = writeln!(o, "body {i} {:?} {kind} source #{}", v.str(b.name), b.source_id);
        let _ = writeln!(o, "  placement {}", fs(&b.placement));
        let _ = writeln!(o, "  bbox {}", bbox(&b.bbox));
        let _ = writeln!(
            o,
            "  pieces {} edges {} vertices {} bvh {} root {}",
            span(b.pieces),
            span(b.edges),
            span(b.vertices),
            span(b.bvh),
            opt(b.bvh_root)
        );
    }
    for (i, p) in v.pieces().iter().enumerate() {
        let class = ConvexityClass::from_code(p.class).map_or("?", |c| c.name());
        let mut flags = Vec::new();
        for (bit, name) in [
            (PIECE_REVERSED, "reversed"),
            (PIECE_TRIMMED, "trimmed"),
            (PIECE_FULLY_INSIDE, "fully-inside"),
        ] {
            if p.flags & bit != 0 {
                flags.push(name);
            }
        }
        let _ = writeln!(
            o,
            "piece {i} body {} face #{} {class} degree {}x{} flags [{}]",
            p.body,
            p.source_face,
            p.degree_u,
            p.degree_v,
            flags.join(" ")
        );
        let _ = writeln!(
            o,
            "  domain u {} .. {} v {} .. {}",
            f(p.domain[0]),
            f(p.domain[1]),
            f(p.domain[2]),
            f(p.domain[3])
        );
        if let Some(og) = v.piece_origins().get(i).filter(|og| og.surface != NONE) {
            let _ = writeln!(
                o,
                "  origin surface {} span ({}, {}) rect {}",
                og.surface,
                og.span_u,
                og.span_v,
                fs(&og.rect)
            );
        }
        let _ = writeln!(o, "  cone {}", cone(&p.cone));
        let _ = writeln!(o, "  bbox {}", bbox(&p.bbox));
        for (k, q) in v.piece_poles(p).iter().enumerate() {
            let nv = p.degree_v as usize + 1;
            let _ = writeln!(o, "  pole ({},{}) {}", k / nv, k % nv, fs(q));
        }
        for (l, lp) in v.piece_trim_loops(p).iter().enumerate() {
            let kind = if lp.flags & LOOP_OUTER != 0 { "outer" } else { "inner" };
            let _ = writeln!(o, "  trim loop {l} {kind}");
            for (c, cv) in v.loop_curves(lp).iter().enumerate() {
                let pts: Vec<String> = v.trim_curve_points(cv).iter().map(|q| fs(q)).collect();
                let kind = if cv.kind == TRIM_POLYLINE {
                    "polyline".to_owned()
                } else {
                    format!("bezier degree {}", cv.degree)
                };
                let _ = writeln!(o, "    curve {c} {kind}: {}", pts.join(" "));
            }
        }
        for a in v.piece_adjacency(p) {
            let _ = writeln!(o, "  across {} -> {}", boundary(&a.boundary), feature(&a.feature));
        }
    }
    for (i, e) in v.edges().iter().enumerate() {
        let kind = EdgeKind::from_code(e.kind).map_or("?", |k| k.name());
        let _ = writeln!(
            o,
            "edge {i} {kind} body {} source #{} vertices {} {}",
            e.body,
            e.source_id,
            opt(e.vertices[0]),
            opt(e.vertices[1])
        );
        let _ = writeln!(o, "  curve degree {} knots {}", e.curve_degree, fs(v.edge_knots(e)));
        for q in v.edge_poles(e) {
            let _ = writeln!(o, "  pole {}", fs(q));
        }
        for (k, s) in e.sides.iter().enumerate() {
            let map = match s.map {
                MAP_LINEAR => format!("linear {} -> {}", fs(&s.uv_start), fs(&s.uv_end)),
                MAP_CURVE => "along the trim curve".into(),
                MAP_CURVE_REVERSED => "along the trim curve, reversed".into(),
                m => format!("map#{m}"),
            };
            if s.piece == NONE {
                let _ = writeln!(o, "  side {k}: none");
            } else {
                let _ = writeln!(o, "  side {k}: piece {} {} {map}", s.piece, boundary(&s.boundary));
            }
        }
        for s in v.edge_samples(e) {
            let _ = writeln!(
                o,
                "  sample t {} normals {} {}",
                f(s.t),
                fs(&s.normal_a),
                fs(&s.normal_b)
            );
        }
    }
    for (i, x) in v.vertices().iter().enumerate() {
        let _ = writeln!(
            o,
            "vertex {i} body {} source #{} point {}",
            x.body,
            x.source_id,
            fs(&x.point)
        );
        let _ = writeln!(o, "  cone {}", cone(&x.cone));
        let _ = writeln!(o, "  edges {:?} pieces {:?}", v.vertex_edges(x), v.vertex_pieces(x));
    }
    for (i, n) in v.bvh_nodes().iter().enumerate() {
        if n.kind == BVH_LEAF {
            let _ = writeln!(o, "bvh {i} leaf pieces {:?} bbox {}", v.leaf_pieces(n), bbox(&n.bbox));
        } else {
            let _ = writeln!(o, "bvh {i} children {} {} bbox {}", n.a, n.b, bbox(&n.bbox));
        }
    }
    for (i, sf) in v.surfaces().iter().enumerate() {
        let (ku, kv) = v.surface_knots(sf);
        let _ = writeln!(
            o,
            "surface {i} degree {}x{} poles {}x{}",
            sf.degree_u, sf.degree_v, sf.count_u, sf.count_v
        );
        let _ = writeln!(o, "  knots u {}", fs(ku));
        let _ = writeln!(o, "  knots v {}", fs(kv));
        let nv = sf.count_v.max(1) as usize;
        for (k, h) in v.surface_poles(sf).iter().enumerate() {
            let (a, b) = (k / nv, k % nv);
            let _ = writeln!(o, "  pole ({a},{b}) {}", fs(h));
        }
    }
    // the self-check (2.2): nothing is printed for a scene without one
    for (i, c) in v.face_checks().iter().enumerate() {
        let _ = writeln!(
            o,
            "face check {i} face #{} body {} failed {} model area {} piece area {} worst containment {} worst boundary {}",
            c.source_face,
            opt(c.body),
            bits(c.failed, &FACE_CHECK_NAMES),
            f(c.model_area),
            f(c.piece_area),
            f(c.worst_containment),
            f(c.worst_boundary)
        );
    }
    for (i, c) in v.body_checks().iter().enumerate() {
        let _ = writeln!(
            o,
            "body check {i} body {} failed {} dropped faces {} failed faces {}",
            c.body,
            bits(c.failed, &BODY_CHECK_NAMES),
            c.dropped_faces,
            c.failed_faces
        );
    }
    o
}

/// `none` or the bit names joined by `|`.
fn bits(b: u32, names: &[(u32, &'static str)]) -> String {
    if b == 0 {
        "none".into()
    } else {
        bit_names(b, names).join("|")
    }
}
