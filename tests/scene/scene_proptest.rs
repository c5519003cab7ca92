//! Property: any consistent SceneData survives write → read → write exactly.

use extrack::scene::*;
use proptest::prelude::*;

/// Deterministic float source (splitmix64) so each case is reproducible from its seed.
struct Floats(u64);

impl Floats {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// In `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Mixed magnitudes, including subnormal-ish tiny values and negative zero.
    fn any(&mut self) -> f64 {
        match self.next_u64() % 8 {
            0 => -0.0,
            1 => f64::MIN_POSITIVE * self.unit(),
            2 => (self.unit() - 0.5) * 1e12,
            _ => (self.unit() - 0.5) * 200.0,
        }
    }
    fn weight(&mut self) -> f64 {
        0.01 + self.unit() * 10.0
    }
    fn pt3(&mut self) -> [f64; 3] {
        [self.any(), self.any(), self.any()]
    }
    fn hpt(&mut self) -> [f64; 4] {
        let w = self.weight();
        [self.any(), self.any(), self.any(), w]
    }
    fn index(&mut self, n: usize) -> u32 {
        (self.next_u64() % n as u64) as u32
    }
    fn aabb(&mut self) -> Aabb {
        let a = self.pt3();
        let b = self.pt3();
        Aabb {
            min: [a[0].min(b[0]), a[1].min(b[1]), a[2].min(b[2])],
            max: [a[0].max(b[0]), a[1].max(b[1]), a[2].max(b[2])],
        }
    }
    fn cone(&mut self) -> NormalCone {
        let mut a = [self.unit() - 0.5, self.unit() - 0.5, self.unit() + 0.1];
        let n = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
        a.iter_mut().for_each(|x| *x /= n);
        NormalCone {
            axis: a,
            half_angle: self.unit() * std::f64::consts::PI,
        }
    }
}

#[derive(Debug, Clone)]
struct BodySpec {
    pieces: Vec<(u32, u32, Vec<Vec<u8>>, u8)>, // degrees, loops (curve kinds/degrees), adjacency count
    edges: Vec<(u8, u32, u8)>,                 // kind, curve degree, samples
    vertices: usize,
}

fn body_spec() -> impl Strategy<Value = BodySpec> {
    let piece = (
        1u32..=4,
        1u32..=4,
        prop::collection::vec(prop::collection::vec(0u8..5, 1..4), 0..3),
        0u8..5,
    );
    (
        prop::collection::vec(piece, 0..4),
        prop::collection::vec((0u8..3, 1u32..=3, 0u8..4), 0..4),
        0usize..3,
    )
        .prop_map(|(pieces, edges, vertices)| BodySpec {
            pieces,
            edges,
            vertices,
        })
}

fn build(seed: u64, bodies: &[BodySpec], names: &[String]) -> SceneData {
    let mut r = Floats(seed);
    let name = |k: usize| names.get(k % names.len().max(1)).cloned().unwrap_or_default();
    let mut d = SceneData {
        meta: Meta {
            source_name: name(0),
            producer: name(1),
            source_format: [SourceKind::Unknown, SourceKind::Iges, SourceKind::Step][seed as usize % 3],
            warnings: names.iter().skip(2).cloned().collect(),
            tolerances: names
                .iter()
                .map(|n| Tolerance {
                    name: n.clone(),
                    value: (seed % 7) as f64 * 1e-7,
                })
                .collect(),
        },
        ..Default::default()
    };
    for (bi, b) in bodies.iter().enumerate() {
        let bi = bi as u32;
        let first_piece = d.pieces.len() as u32;
        let first_edge = d.edges.len() as u32;
        let first_vertex = d.vertices.len() as u32;
        // features refer only to features of their own body; an edge needs a piece on side 0
        let n_pieces = b.pieces.len();
        let n_edges = if n_pieces == 0 { 0 } else { b.edges.len() };
        let n_vertices = b.vertices;
        let pick = |r: &mut Floats, first: u32, n: usize| first + r.index(n);
        for (du, dv, loops, n_adj) in &b.pieces {
            let trim_loops: Vec<TrimLoop> = loops
                .iter()
                .map(|curves| TrimLoop {
                    outer: r.next_u64() % 2 == 0,
                    curves: curves
                        .iter()
                        .map(|&k| {
                            if k == 0 {
                                TrimCurve::Polyline((0..2 + r.index(4)).map(|_| [r.any(), r.any()]).collect())
                            } else {
                                TrimCurve::Bezier(
                                    (0..=k)
                                        .map(|_| {
                                            let w = r.weight();
                                            [r.any(), r.any(), w]
                                        })
                                        .collect(),
                                )
                            }
                        })
                        .collect(),
                })
                .collect();
            let adjacency = (0..*n_adj)
                .map(|_| {
                    let boundary = match (r.index(5), trim_loops.is_empty()) {
                        (0, _) => Boundary::U0,
                        (1, _) => Boundary::U1,
                        (2, _) => Boundary::V0,
                        (3, _) | (_, true) => Boundary::V1,
                        _ => {
                            let l = r.index(trim_loops.len());
                            Boundary::Trim {
                                trim_loop: l,
                                curve: r.index(trim_loops[l as usize].curves.len()),
                            }
                        }
                    };
                    let feature = match (r.index(3), n_edges, n_vertices) {
                        (1, e, _) if e > 0 => FeatureRef::Edge(pick(&mut r, first_edge, e)),
                        (2, _, v) if v > 0 => FeatureRef::Vertex(pick(&mut r, first_vertex, v)),
                        _ => FeatureRef::Piece(pick(&mut r, first_piece, n_pieces)),
                    };
                    Adjacency { boundary, feature }
                })
                .collect();
            let u0 = r.any();
            let v0 = r.any();
            let flags = r.next_u64();
            d.pieces.push(Piece {
                body: bi,
                source_face: r.next_u64(),
                degree_u: *du,
                degree_v: *dv,
                poles: (0..(du + 1) * (dv + 1)).map(|_| r.hpt()).collect(),
                class: ConvexityClass::ALL[r.index(5) as usize],
                reversed: flags & 1 != 0,
                trimmed: flags & 2 != 0,
                fully_inside: flags & 4 != 0,
                domain: [u0, u0 + 0.5 + r.unit(), v0, v0 + 0.5 + r.unit()],
                cone: r.cone(),
                bbox: r.aabb(),
                trim_loops,
                adjacency,
                origin: None,
            });
        }
        for &(kind, deg, n_samples) in &b.edges {
            let kind = [EdgeKind::Crease, EdgeKind::Seam, EdgeKind::Boundary][kind as usize];
            let n_poles = deg as usize + 1 + r.index(3) as usize;
            let mut knots: Vec<f64> = (0..n_poles + deg as usize + 1).map(|_| r.any()).collect();
            knots.sort_by(f64::total_cmp);
            // a non-empty domain [knots[deg], knots[n_poles]] that keeps the order
            for k in knots.iter_mut().take(deg as usize + 1) {
                *k = k.min(-1.0);
            }
            for k in knots.iter_mut().skip(n_poles) {
                *k = k.max(1.0);
            }
            let mut side = |present: bool| {
                if !present || n_pieces == 0 {
                    return EdgeSide::NONE;
                }
                EdgeSide {
                    piece: pick(&mut r, first_piece, n_pieces),
                    boundary: [Boundary::U0, Boundary::U1, Boundary::V0, Boundary::V1][r.index(4) as usize],
                    map: ParamMap::Linear {
                        start: [r.any(), r.any()],
                        end: [r.any(), r.any()],
                    },
                }
            };
            if n_pieces == 0 {
                continue; // an edge needs a piece on side 0
            }
            let sides = [side(true), side(kind != EdgeKind::Boundary)];
            let mut ts: Vec<f64> = (0..n_samples).map(|_| r.unit()).collect();
            ts.sort_by(f64::total_cmp);
            let opt_vertex = |r: &mut Floats| {
                if n_vertices > 0 && r.next_u64() % 3 != 0 {
                    pick(r, first_vertex, n_vertices)
                } else {
                    NONE
                }
            };
            d.edges.push(Edge {
                kind,
                source_id: r.next_u64(),
                body: bi,
                vertices: [opt_vertex(&mut r), opt_vertex(&mut r)],
                curve_degree: deg,
                knots,
                poles: (0..n_poles).map(|_| r.hpt()).collect(),
                sides,
                samples: ts
                    .into_iter()
                    .map(|t| EdgeSample {
                        t,
                        normal_a: r.pt3(),
                        normal_b: r.pt3(),
                    })
                    .collect(),
            });
        }
        for _ in 0..b.vertices {
            let ne = (r.index(3)) as usize;
            d.vertices.push(Vertex {
                body: bi,
                source_id: r.next_u64(),
                point: r.pt3(),
                cone: r.cone(),
                edges: if n_edges > 0 {
                    (0..ne).map(|_| pick(&mut r, first_edge, n_edges)).collect()
                } else {
                    vec![]
                },
                pieces: if n_pieces > 0 {
                    (0..ne).map(|_| pick(&mut r, first_piece, n_pieces)).collect()
                } else {
                    vec![]
                },
            });
        }
        // a chain-shaped BVH: interior nodes each with a leaf child and the next node
        let first_node = d.bvh_nodes.len() as u32;
        let np = b.pieces.len() as u32;
        if np > 0 {
            for k in 0..np {
                let here = d.bvh_nodes.len() as u32;
                if k + 1 < np {
                    d.bvh_nodes.push(BvhNode {
                        bbox: r.aabb(),
                        kind: BvhKind::Interior(here + 1, here + 2),
                    });
                }
                d.bvh_nodes.push(BvhNode {
                    bbox: r.aabb(),
                    kind: BvhKind::Leaf(vec![first_piece + k]),
                });
            }
        }
        let nodes = d.bvh_nodes.len() as u32 - first_node;
        d.bodies.push(Body {
            name: name(bi as usize + 3),
            kind: [BodyKind::Solid, BodyKind::OpenShell, BodyKind::Faces][r.index(3) as usize],
            source_id: r.next_u64(),
            placement: std::array::from_fn(|_| r.any()),
            bbox: r.aabb(),
            pieces: Span::new(first_piece, np),
            edges: Span::new(first_edge, d.edges.len() as u32 - first_edge),
            vertices: Span::new(first_vertex, d.vertices.len() as u32 - first_vertex),
            bvh: Span::new(first_node, nodes),
            bvh_root: if nodes > 0 { first_node } else { NONE },
        });
    }
    d
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn random_scenes_round_trip(
        seed in any::<u64>(),
        bodies in prop::collection::vec(body_spec(), 0..4),
        names in prop::collection::vec("\\PC{0,12}", 0..5),
    ) {
        let data = build(seed, &bodies, &names);
        let bytes = data.write();
        let aligned = AlignedBytes::from_slice(&bytes);
        let view = SceneView::from_bytes(aligned.as_bytes());
        prop_assert!(view.is_ok(), "rejected: {}", view.unwrap_err());
        let back = view.unwrap().to_data();
        prop_assert_eq!(&back, &data);
        prop_assert_eq!(back.write(), bytes);
    }
}
