//! Hand-built scenes for the scene-format tests and the load benchmark.
#![allow(dead_code)]

use extrack::scene::*;

const H: f64 = std::f64::consts::FRAC_1_SQRT_2;

fn unit(v: [f64; 3]) -> [f64; 3] {
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    [v[0] / n, v[1] / n, v[2] / n]
}

fn cone(axis: [f64; 3], half_angle: f64) -> NormalCone {
    NormalCone {
        axis: unit(axis),
        half_angle,
    }
}

fn bb(min: [f64; 3], max: [f64; 3]) -> Aabb {
    Aabb { min, max }
}

fn line(a: [f64; 3], b: [f64; 3]) -> (Vec<f64>, Vec<[f64; 4]>) {
    (
        vec![0.0, 0.0, 1.0, 1.0],
        vec![[a[0], a[1], a[2], 1.0], [b[0], b[1], b[2], 1.0]],
    )
}

fn linear(start: [f64; 2], end: [f64; 2]) -> ParamMap {
    ParamMap::Linear { start, end }
}

fn sample(t: f64, a: [f64; 3], b: [f64; 3]) -> EdgeSample {
    EdgeSample {
        t,
        normal_a: a,
        normal_b: b,
    }
}

fn plane_piece(body: u32, face: u64, corners: [[f64; 3]; 4], normal: [f64; 3], adjacency: Vec<Adjacency>) -> Piece {
    let mut min = [f64::INFINITY; 3];
    let mut max = [f64::NEG_INFINITY; 3];
    for c in &corners {
        for k in 0..3 {
            min[k] = min[k].min(c[k]);
            max[k] = max[k].max(c[k]);
        }
    }
    Piece {
        body,
        source_face: face,
        degree_u: 1,
        degree_v: 1,
        poles: corners.iter().map(|c| [c[0], c[1], c[2], 1.0]).collect(),
        class: ConvexityClass::Planar,
        reversed: false,
        trimmed: false,
        fully_inside: true,
        domain: [0.0, 10.0, 0.0, 10.0],
        cone: cone(normal, 0.0),
        bbox: bb(min, max),
        trim_loops: vec![],
        adjacency,
        origin: None,
    }
}

/// Two bodies: a box corner (two planar faces and a quarter cylinder split into
/// two pieces by a seam) and a trimmed open sheet with a hole.
pub fn small_scene() -> SceneData {
    use Boundary::*;
    // body 0 --------------------------------------------------------------
    let mut p0 = plane_piece(
        0,
        101,
        [[0.0, 0.0, 0.0], [0.0, 10.0, 0.0], [10.0, 0.0, 0.0], [10.0, 10.0, 0.0]],
        [0.0, 0.0, -1.0],
        vec![
            Adjacency {
                boundary: U0,
                feature: FeatureRef::Edge(0),
            },
            Adjacency {
                boundary: U1,
                feature: FeatureRef::Edge(1),
            },
        ],
    );
    // the corner's floor also records the surface it was cut from (format 2.1)
    p0.origin = Some(PieceOrigin {
        surface: 0,
        span: [0, 0],
        rect: [0.0, 1.0, 0.0, 1.0],
    });
    let floor = SurfaceNet {
        degree_u: 1,
        degree_v: 1,
        count_u: 2,
        count_v: 2,
        knots_u: vec![0.0, 0.0, 1.0, 1.0],
        knots_v: vec![0.0, 0.0, 1.0, 1.0],
        poles: p0.poles.clone(),
    };
    let p1 = plane_piece(
        0,
        102,
        [[0.0, 0.0, 0.0], [0.0, 0.0, 10.0], [0.0, 10.0, 0.0], [0.0, 10.0, 10.0]],
        [-1.0, 0.0, 0.0],
        vec![Adjacency {
            boundary: V0,
            feature: FeatureRef::Edge(0),
        }],
    );
    // quarter cylinder of radius 5 about the axis x = 15, z = 0 (parallel to y), from
    // angle 180° at (10, y, 0) to 90° at (15, y, 5), split at 135° by a seam
    let arc = |a0: f64, a1: f64, adj: Vec<Adjacency>| {
        let (m, half) = ((a0 + a1) / 2.0, (a1 - a0).abs() / 2.0);
        let w = half.cos();
        let r_mid = 5.0 / w;
        let mut poles = Vec::new();
        for (ang, r, wt) in [(a0, 5.0, 1.0), (m, r_mid, w), (a1, 5.0, 1.0)] {
            let (x, z) = (15.0 + r * ang.cos(), r * ang.sin());
            for y in [0.0, 10.0] {
                poles.push([x * wt, y * wt, z * wt, wt]);
            }
        }
        let mut min = [f64::INFINITY; 3];
        let mut max = [f64::NEG_INFINITY; 3];
        for q in &poles {
            for k in 0..3 {
                min[k] = min[k].min(q[k] / q[3]);
                max[k] = max[k].max(q[k] / q[3]);
            }
        }
        Piece {
            body: 0,
            source_face: 103,
            degree_u: 2,
            degree_v: 1,
            poles,
            class: ConvexityClass::Convex,
            reversed: true,
            trimmed: false,
            fully_inside: true,
            domain: [a0.min(a1), a0.max(a1), 0.0, 10.0],
            cone: cone([m.cos(), 0.0, m.sin()], half),
            bbox: bb(min, max),
            trim_loops: vec![],
            adjacency: adj,
            origin: None,
        }
    };
    let deg = std::f64::consts::PI / 180.0;
    let p2 = arc(
        180.0 * deg,
        135.0 * deg,
        vec![
            Adjacency {
                boundary: U0,
                feature: FeatureRef::Edge(1),
            },
            Adjacency {
                boundary: U1,
                feature: FeatureRef::Edge(2),
            },
        ],
    );
    let p3 = arc(
        135.0 * deg,
        90.0 * deg,
        vec![Adjacency {
            boundary: U0,
            feature: FeatureRef::Edge(2),
        }],
    );
    let (k0, c0) = line([0.0, 0.0, 0.0], [0.0, 10.0, 0.0]);
    let e0 = Edge {
        kind: EdgeKind::Crease,
        source_id: 201,
        body: 0,
        vertices: [0, NONE],
        curve_degree: 1,
        knots: k0,
        poles: c0,
        sides: [
            EdgeSide {
                piece: 0,
                boundary: U0,
                map: linear([0.0, 0.0], [0.0, 1.0]),
            },
            EdgeSide {
                piece: 1,
                boundary: V0,
                map: linear([0.0, 0.0], [1.0, 0.0]),
            },
        ],
        samples: vec![
            sample(0.0, [0.0, 0.0, -1.0], [-1.0, 0.0, 0.0]),
            sample(1.0, [0.0, 0.0, -1.0], [-1.0, 0.0, 0.0]),
        ],
    };
    let (k1, c1) = line([10.0, 0.0, 0.0], [10.0, 10.0, 0.0]);
    let e1 = Edge {
        kind: EdgeKind::Crease,
        source_id: 202,
        body: 0,
        vertices: [NONE, NONE],
        curve_degree: 1,
        knots: k1,
        poles: c1,
        sides: [
            EdgeSide {
                piece: 0,
                boundary: U1,
                map: linear([1.0, 0.0], [1.0, 1.0]),
            },
            EdgeSide {
                piece: 2,
                boundary: U0,
                map: linear([0.0, 0.0], [0.0, 1.0]),
            },
        ],
        samples: vec![sample(0.5, [0.0, 0.0, -1.0], [0.0, 0.0, -1.0])],
    };
    let seam_x = 15.0 - 5.0 * H;
    let seam_z = 5.0 * H;
    let (k2, c2) = line([seam_x, 0.0, seam_z], [seam_x, 10.0, seam_z]);
    let e2 = Edge {
        kind: EdgeKind::Seam,
        source_id: 0,
        body: 0,
        vertices: [NONE, NONE],
        curve_degree: 1,
        knots: k2,
        poles: c2,
        sides: [
            EdgeSide {
                piece: 2,
                boundary: U1,
                map: linear([1.0, 0.0], [1.0, 1.0]),
            },
            EdgeSide {
                piece: 3,
                boundary: U0,
                map: linear([0.0, 0.0], [0.0, 1.0]),
            },
        ],
        samples: vec![],
    };
    let v0 = Vertex {
        body: 0,
        source_id: 301,
        point: [0.0, 0.0, 0.0],
        cone: cone([-1.0, 0.0, -1.0], std::f64::consts::FRAC_PI_4),
        edges: vec![0],
        pieces: vec![0, 1],
    };
    let b0 = Body {
        name: "corner".into(),
        kind: BodyKind::Solid,
        source_id: 11,
        placement: IDENTITY_PLACEMENT,
        bbox: bb([0.0, 0.0, 0.0], [15.0, 10.0, 10.0]),
        pieces: Span::new(0, 4),
        edges: Span::new(0, 3),
        vertices: Span::new(0, 1),
        bvh: Span::new(0, 3),
        bvh_root: 0,
    };
    let n0 = BvhNode {
        bbox: b0.bbox,
        kind: BvhKind::Interior(1, 2),
    };
    let n1 = BvhNode {
        bbox: bb([0.0, 0.0, 0.0], [10.0, 10.0, 10.0]),
        kind: BvhKind::Leaf(vec![0, 1]),
    };
    let n2 = BvhNode {
        bbox: bb([10.0, 0.0, 0.0], [15.0, 10.0, 5.0]),
        kind: BvhKind::Leaf(vec![2, 3]),
    };

    // body 1 --------------------------------------------------------------
    let w = 0.8;
    let poles4: Vec<[f64; 4]> = (0..4)
        .flat_map(|i| {
            (0..3).map(move |j| {
                let (x, y) = (i as f64 * 2.0, j as f64 * 3.0);
                [x, y, 0.25 * (x - 3.0) * (y - 3.0), 1.0]
            })
        })
        .collect();
    let p4 = Piece {
        body: 1,
        source_face: 104,
        degree_u: 3,
        degree_v: 2,
        poles: poles4,
        class: ConvexityClass::Saddle,
        reversed: false,
        trimmed: true,
        fully_inside: false,
        domain: [-1.0, 1.0, 0.5, 2.5],
        cone: cone([0.0, 0.0, 1.0], 1.2),
        bbox: bb([0.0, 0.0, -2.25], [6.0, 6.0, 2.25]),
        trim_loops: vec![
            TrimLoop {
                outer: true,
                curves: vec![
                    TrimCurve::Polyline(vec![[0.1, 0.1], [0.9, 0.1], [0.9, 0.9]]),
                    TrimCurve::Bezier(vec![[0.9, 0.9, 1.0], [0.9 * w, 0.1 * w, w], [0.1, 0.1, 1.0]]),
                ],
            },
            TrimLoop {
                outer: false,
                curves: vec![TrimCurve::Polyline(vec![
                    [0.6, 0.3],
                    [0.7, 0.3],
                    [0.7, 0.4],
                    [0.6, 0.3],
                ])],
            },
        ],
        adjacency: vec![
            Adjacency {
                boundary: Trim { trim_loop: 0, curve: 1 },
                feature: FeatureRef::Edge(3),
            },
            Adjacency {
                boundary: Trim { trim_loop: 0, curve: 0 },
                feature: FeatureRef::Vertex(1),
            },
        ],
        origin: None,
    };
    let e3 = Edge {
        kind: EdgeKind::Boundary,
        source_id: 203,
        body: 1,
        vertices: [1, 1],
        curve_degree: 2,
        knots: vec![0.0, 0.0, 0.0, 2.0, 2.0, 2.0],
        poles: vec![[5.4, 5.4, 1.0, 1.0], [5.4 * w, 0.6 * w, 0.0, w], [0.6, 0.6, 1.0, 1.0]],
        sides: [
            EdgeSide {
                piece: 4,
                boundary: Trim { trim_loop: 0, curve: 1 },
                map: ParamMap::Curve,
            },
            EdgeSide::NONE,
        ],
        samples: vec![
            sample(0.0, [0.0, 0.0, 1.0], [0.0; 3]),
            sample(0.5, [0.0, 0.0, 1.0], [0.0; 3]),
            sample(1.0, [0.0, 0.0, 1.0], [0.0; 3]),
        ],
    };
    let v1 = Vertex {
        body: 1,
        source_id: 302,
        point: [0.6, 0.6, 1.0],
        cone: cone([0.0, 0.0, 1.0], 0.3),
        edges: vec![3],
        pieces: vec![4],
    };
    let b1 = Body {
        name: "sheet".into(),
        kind: BodyKind::OpenShell,
        source_id: 12,
        placement: [0.0, -1.0, 0.0, 100.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, -5.5],
        bbox: p4.bbox,
        pieces: Span::new(4, 1),
        edges: Span::new(3, 1),
        vertices: Span::new(1, 1),
        bvh: Span::new(3, 1),
        bvh_root: 3,
    };
    let n3 = BvhNode {
        bbox: p4.bbox,
        kind: BvhKind::Leaf(vec![4]),
    };

    SceneData {
        meta: Meta {
            source_name: "corner_and_sheet.step".into(),
            producer: "extrack tests".into(),
            source_format: SourceKind::Step,
            warnings: vec![
                "#57: unsupported entity DRAUGHTING_MODEL ignored".into(),
                "sheet: open shell".into(),
            ],
            tolerances: vec![
                Tolerance {
                    name: "linear_mm".into(),
                    value: 1e-6,
                },
                Tolerance {
                    name: "angular_rad".into(),
                    value: 1e-9,
                },
                Tolerance {
                    name: "min_piece_size".into(),
                    value: 1e-3,
                },
            ],
        },
        bodies: vec![b0, b1],
        pieces: vec![p0, p1, p2, p3, p4],
        edges: vec![e0, e1, e2, e3],
        vertices: vec![v0, v1],
        bvh_nodes: vec![n0, n1, n2, n3],
        surfaces: vec![floor],
        face_checks: vec![],
        body_checks: vec![],
    }
}

/// One body of `n` bicubic pieces on a grid (`cols` wide), each with a trim
/// loop and four neighbours, seams between grid neighbours, a vertex per
/// interior grid corner and a balanced BVH: a stand-in for a prepared part.
pub fn grid_scene(n: usize) -> SceneData {
    let cols = ((n as f64).sqrt().ceil() as usize).max(1);
    let rows = n.div_ceil(cols);
    let at = |r: usize, c: usize| -> Option<u32> {
        let k = r * cols + c;
        (k < n).then_some(k as u32)
    };
    let mut pieces = Vec::with_capacity(n);
    let mut edges = Vec::new();
    // seams: horizontal neighbours then vertical ones
    let mut edge_of = std::collections::HashMap::new();
    for r in 0..rows {
        for c in 0..cols {
            let Some(p) = at(r, c) else { continue };
            for (dr, dc, b0, b1) in [(0, 1, Boundary::U1, Boundary::U0), (1, 0, Boundary::V1, Boundary::V0)] {
                if let Some(q) = at(r + dr, c + dc) {
                    let x = c as f64 * 10.0;
                    let y = r as f64 * 10.0;
                    let (a, b) = if dc == 1 {
                        ([x + 10.0, y, 0.0], [x + 10.0, y + 10.0, 0.0])
                    } else {
                        ([x, y + 10.0, 0.0], [x + 10.0, y + 10.0, 0.0])
                    };
                    let (knots, poles) = line(a, b);
                    edge_of.insert((p, b0), edges.len() as u32);
                    edge_of.insert((q, b1), edges.len() as u32);
                    let (s0, s1) = if dc == 1 {
                        (linear([1.0, 0.0], [1.0, 1.0]), linear([0.0, 0.0], [0.0, 1.0]))
                    } else {
                        (linear([0.0, 1.0], [1.0, 1.0]), linear([0.0, 0.0], [1.0, 0.0]))
                    };
                    edges.push(Edge {
                        kind: EdgeKind::Seam,
                        source_id: 0,
                        body: 0,
                        vertices: [NONE, NONE],
                        curve_degree: 1,
                        knots,
                        poles,
                        sides: [
                            EdgeSide {
                                piece: p,
                                boundary: b0,
                                map: s0,
                            },
                            EdgeSide {
                                piece: q,
                                boundary: b1,
                                map: s1,
                            },
                        ],
                        samples: (0..4)
                            .map(|k| {
                                let t = k as f64 / 3.0;
                                sample(t, [0.0, 0.0, 1.0], [0.0, 0.0, 1.0])
                            })
                            .collect(),
                    });
                }
            }
        }
    }
    for r in 0..rows {
        for c in 0..cols {
            let Some(p) = at(r, c) else { continue };
            let (x, y) = (c as f64 * 10.0, r as f64 * 10.0);
            let poles: Vec<[f64; 4]> = (0..4)
                .flat_map(|i| {
                    (0..4).map(move |j| {
                        let z = 0.1 * ((i + j) % 3) as f64;
                        [x + i as f64 * 10.0 / 3.0, y + j as f64 * 10.0 / 3.0, z, 1.0]
                    })
                })
                .collect();
            let adjacency = [Boundary::U0, Boundary::U1, Boundary::V0, Boundary::V1]
                .iter()
                .filter_map(|b| {
                    edge_of.get(&(p, *b)).map(|e| Adjacency {
                        boundary: *b,
                        feature: FeatureRef::Edge(*e),
                    })
                })
                .collect();
            pieces.push(Piece {
                body: 0,
                source_face: 1000 + p as u64,
                degree_u: 3,
                degree_v: 3,
                poles,
                class: ConvexityClass::ALL[p as usize % 5],
                reversed: false,
                trimmed: true,
                fully_inside: false,
                domain: [x, x + 10.0, y, y + 10.0],
                cone: cone([0.0, 0.0, 1.0], 0.2),
                origin: None,
                bbox: bb([x, y, 0.0], [x + 10.0, y + 10.0, 0.2]),
                trim_loops: vec![TrimLoop {
                    outer: true,
                    curves: vec![TrimCurve::Polyline(vec![
                        [0.0, 0.0],
                        [1.0, 0.0],
                        [1.0, 1.0],
                        [0.0, 1.0],
                        [0.0, 0.0],
                    ])],
                }],
                adjacency,
            });
        }
    }
    let mut vertices = Vec::new();
    for r in 1..rows {
        for c in 1..cols {
            let around: Vec<u32> = [(r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c)]
                .iter()
                .filter_map(|&(a, b)| at(a, b))
                .collect();
            if around.len() < 4 {
                continue;
            }
            vertices.push(Vertex {
                body: 0,
                source_id: 0,
                point: [c as f64 * 10.0, r as f64 * 10.0, 0.0],
                cone: cone([0.0, 0.0, 1.0], 0.2),
                edges: around
                    .iter()
                    .filter_map(|p| edge_of.get(&(*p, Boundary::U1)).copied())
                    .collect(),
                pieces: around,
            });
        }
    }
    // balanced BVH in pre-order: children always after their parent
    let mut nodes = Vec::new();
    fn build(nodes: &mut Vec<BvhNode>, pieces: &[Piece], ids: &[u32]) -> u32 {
        let mut b = Aabb {
            min: [f64::INFINITY; 3],
            max: [f64::NEG_INFINITY; 3],
        };
        for &i in ids {
            let p = &pieces[i as usize].bbox;
            for k in 0..3 {
                b.min[k] = b.min[k].min(p.min[k]);
                b.max[k] = b.max[k].max(p.max[k]);
            }
        }
        let me = nodes.len() as u32;
        if ids.len() <= 4 {
            nodes.push(BvhNode {
                bbox: b,
                kind: BvhKind::Leaf(ids.to_vec()),
            });
            return me;
        }
        nodes.push(BvhNode {
            bbox: b,
            kind: BvhKind::Interior(0, 0),
        });
        let (l, r) = ids.split_at(ids.len() / 2);
        let a = build(nodes, pieces, l);
        let c = build(nodes, pieces, r);
        nodes[me as usize].kind = BvhKind::Interior(a, c);
        me
    }
    let ids: Vec<u32> = (0..n as u32).collect();
    let root = if n > 0 { build(&mut nodes, &pieces, &ids) } else { NONE };
    let body = Body {
        name: format!("grid{n}"),
        kind: BodyKind::Faces,
        source_id: 1,
        placement: IDENTITY_PLACEMENT,
        bbox: nodes.first().map_or(
            Aabb {
                min: [0.0; 3],
                max: [0.0; 3],
            },
            |r| r.bbox,
        ),
        pieces: Span::new(0, n as u32),
        edges: Span::new(0, edges.len() as u32),
        vertices: Span::new(0, vertices.len() as u32),
        bvh: Span::new(0, nodes.len() as u32),
        bvh_root: root,
    };
    SceneData {
        meta: Meta {
            source_name: format!("grid{n}.step"),
            producer: "extrack bench".into(),
            source_format: SourceKind::Step,
            warnings: vec![],
            tolerances: vec![Tolerance {
                name: "linear_mm".into(),
                value: 1e-6,
            }],
        },
        bodies: vec![body],
        pieces,
        edges,
        vertices,
        bvh_nodes: nodes,
        surfaces: vec![],
        face_checks: vec![],
        body_checks: vec![],
    }
}
