//! Import + prepare every generated STEP fixture (and the corpus STEP files
//! that import): the scene validates, convex pieces are nice and their class
//! is confirmed by sampled curvature, and the pieces cover each face (area):
//! every face, trimmed or not, within [`AREA_TOL`] (1e-6 relative) of Open
//! CASCADE's adaptively integrated area (`fixtures/oracle/*.areas.json`, made
//! by `tools/oracle_areas.py`), and untrimmed B-spline faces also of an
//! independent quadrature of the imported surface.

// `!(x < limit)` is meant: a NaN must fail the check too.
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::collapsible_if)]

use crate::common;
use extrack::geom::Vec3;
use extrack::prepare::{piece_normal, piece_surface, prepare, PrepareOptions};
use extrack::scene::data::{ConvexityClass, Piece, SceneData, TrimCurve};
use extrack::scene::SceneView;
use std::collections::BTreeMap;
use std::path::Path;

const GL: [(f64, f64); 8] = [
    (-0.960_289_856_497_536_3, 0.101_228_536_290_376_26),
    (-0.796_666_477_413_626_7, 0.222_381_034_453_374_47),
    (-0.525_532_409_916_329, 0.313_706_645_877_887_3),
    (-0.183_434_642_495_649_8, 0.362_683_783_378_362),
    (0.183_434_642_495_649_8, 0.362_683_783_378_362),
    (0.525_532_409_916_329, 0.313_706_645_877_887_3),
    (0.796_666_477_413_626_7, 0.222_381_034_453_374_47),
    (0.960_289_856_497_536_3, 0.101_228_536_290_376_26),
];

fn fixtures() -> Option<std::path::PathBuf> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures");
    if d.is_dir() {
        Some(d)
    } else {
        println!("skipping: ../shared/fixtures is absent");
        None
    }
}

/// Gauss–Legendre 8-point integral of `f` over `[a, b]`.
fn gl8(a: f64, b: f64, f: impl Fn(f64) -> f64) -> f64 {
    let (m, h) = (0.5 * (a + b), 0.5 * (b - a));
    GL.iter().map(|&(x, w)| w * f(m + h * x)).sum::<f64>() * h
}

/// The area element `|S_s × S_t|` integrated over `s ∈ [a, b]` at `t`
/// (composite 8-point Gauss–Legendre, 4 panels: the element is smooth on a piece).
fn row_integral(s: &extrack::geom::NurbsSurface, t: f64, a: f64, b: f64) -> f64 {
    let k = 4;
    (0..k)
        .map(|i| {
            let (x0, x1) = (
                a + (b - a) * i as f64 / k as f64,
                a + (b - a) * (i + 1) as f64 / k as f64,
            );
            gl8(x0, x1, |u| s.eval_derivs(u, t).normal_raw().norm())
        })
        .sum()
}

/// Area of a piece. Untrimmed: Gauss–Legendre 8×8 on a 4×4 split of
/// `[0,1]²`. Trimmed: the region of the stored polyline loops (even–odd),
/// integrated exactly up to quadrature rounding: between consecutive loop
/// vertex heights `t` the crossings of a row with the loops move linearly,
/// so the row integral is smooth there and 8-point Gauss–Legendre in `t` on
/// each such band (split in 2) and in `s` on each inside interval is
/// accurate to ~1e-12.
fn piece_area(p: &Piece) -> f64 {
    use extrack::geom::bez2;
    let s = piece_surface(p).expect("valid piece");
    if p.trimmed {
        // the loops as y-monotone rational Bézier pieces (segments have two points)
        let mut mono: Vec<Vec<[f64; 3]>> = Vec::new();
        for l in &p.trim_loops {
            for c in &l.curves {
                match c {
                    TrimCurve::Polyline(v) => mono.extend(
                        v.windows(2)
                            .map(|w| vec![[w[0][0], w[0][1], 1.0], [w[1][0], w[1][1], 1.0]]),
                    ),
                    TrimCurve::Bezier(h) => mono.extend(bez2::monotone_in_y(h)),
                }
            }
        }
        let ends = |h: &[[f64; 3]]| -> (f64, f64) {
            let (a, b) = (h[0], h[h.len() - 1]);
            (a[1] / a[2], b[1] / b[2])
        };
        let mut ts: Vec<f64> = mono
            .iter()
            .flat_map(|h| {
                let (a, b) = ends(h);
                [a, b]
            })
            .chain([0.0, 1.0])
            .collect();
        ts.retain(|t| (0.0..=1.0).contains(t));
        ts.sort_by(|a, b| a.partial_cmp(b).unwrap());
        ts.dedup_by(|a, b| (*a - *b).abs() < 1e-15);
        let row = |t: f64| -> f64 {
            let mut xs: Vec<f64> = Vec::new();
            for h in &mono {
                let (a, b) = ends(h);
                if (a > t) == (b > t) {
                    continue;
                }
                let x = if h.len() == 2 {
                    let (p, q) = ([h[0][0], h[0][1]], [h[1][0], h[1][1]]);
                    p[0] + (t - p[1]) / (q[1] - p[1]) * (q[0] - p[0])
                } else {
                    let r = bez2::line_crossings(h, 1, t);
                    match r.first() {
                        Some(&u) => bez2::eval(h, u)[0],
                        None => bez2::eval(h, if (a - t).abs() < (b - t).abs() { 0.0 } else { 1.0 })[0],
                    }
                };
                xs.push(x);
            }
            xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
            xs.chunks(2)
                .filter(|c| c.len() == 2)
                .map(|c| row_integral(&s, t, c[0], c[1]))
                .sum()
        };
        // between consecutive heights the crossings move smoothly, with square-root
        // ends where a curve turns: panels graded geometrically towards both ends
        let mut grade: Vec<f64> = vec![0.0];
        for k in (1..=16).rev() {
            grade.push(0.5f64.powi(k));
        }
        for k in 2..=16 {
            grade.push(1.0 - 0.5f64.powi(k));
        }
        grade.push(1.0);
        // each panel adaptive, to 1e-10 of the untrimmed piece's area: the
        // row integral can change steeply inside a band
        // (`iges_harmonyware_torus.igs`'s degree-12 torus piece spanning
        // most of the tube: 5e-4 off with the graded panels alone)
        let tol = 1e-10 * untrimmed_area(&s);
        let mut a = 0.0;
        for w in ts.windows(2) {
            for g in grade.windows(2) {
                let (x0, x1) = (w[0] + (w[1] - w[0]) * g[0], w[0] + (w[1] - w[0]) * g[1]);
                a += gl8_adaptive(x0, x1, &row, tol);
            }
        }
        return a;
    }
    untrimmed_area(&s)
}

/// `∫∫ |S_u × S_v|` over the piece's `[0,1]²`: Gauss–Legendre 8×8 on a cell
/// against the sum over its four quarters, recursing into the quarters until
/// the two agree to 1e-11 of the whole square's area (absolute, so that
/// rounding noise cannot drive the recursion; at most 8 levels). The area
/// element is smooth on most pieces (one level), but not where the patch
/// folds (`iges_hm_nentity.igs` DE 655, `iges_ansa9_occ131_2.igs` #1: the
/// element has a kink along the fold, and a fixed 4×4 split was 5e-4 off).
fn untrimmed_area(s: &extrack::geom::NurbsSurface) -> f64 {
    let cell = |c: [f64; 4]| -> f64 {
        let (hu, hv) = (0.5 * (c[1] - c[0]), 0.5 * (c[3] - c[2]));
        let mut a = 0.0;
        for (xi, wi) in GL {
            for (xj, wj) in GL {
                let (u, v) = (c[0] + hu * (xi + 1.0), c[2] + hv * (xj + 1.0));
                a += wi * wj * hu * hv * s.eval_derivs(u, v).normal_raw().norm();
            }
        }
        a
    };
    fn rec(cell: &dyn Fn([f64; 4]) -> f64, c: [f64; 4], whole: f64, tol: f64, depth: u32) -> f64 {
        let (um, vm) = (0.5 * (c[0] + c[1]), 0.5 * (c[2] + c[3]));
        let quarters = [
            [c[0], um, c[2], vm],
            [um, c[1], c[2], vm],
            [c[0], um, vm, c[3]],
            [um, c[1], vm, c[3]],
        ];
        let parts = quarters.map(cell);
        let sum: f64 = parts.iter().sum();
        if depth >= 8 || (whole - sum).abs() <= tol {
            return sum;
        }
        quarters
            .iter()
            .zip(parts)
            .map(|(&q, w)| rec(cell, q, w, tol, depth + 1))
            .sum()
    }
    let square = [0.0, 1.0, 0.0, 1.0];
    let whole = cell(square);
    rec(&cell, square, whole, 1e-11 * whole.abs(), 0)
}

/// `∫ f` over `[a, b]` to within about `tol` (absolute): the 8-point
/// Gauss–Legendre value when the 4-point rule agrees with it within `tol`,
/// else the sum over the two halves, recursively (at most 16 levels). An
/// absolute tolerance (a fraction of the whole integral, not of the panel)
/// keeps rounding noise from driving the recursion.
fn gl8_adaptive(a: f64, b: f64, f: &dyn Fn(f64) -> f64, tol: f64) -> f64 {
    let whole = gl8(a, b, f);
    let (m, h) = (0.5 * (a + b), 0.5 * (b - a));
    let four = GL4.iter().map(|&(x, w)| w * f(m + h * x)).sum::<f64>() * h;
    if (whole - four).abs() <= tol {
        return whole;
    }
    // the halves, each against its own 4-point rule
    fn rec(a: f64, b: f64, f: &dyn Fn(f64) -> f64, tol: f64, depth: u32) -> f64 {
        let whole = gl8(a, b, f);
        let (m, h) = (0.5 * (a + b), 0.5 * (b - a));
        let four = GL4.iter().map(|&(x, w)| w * f(m + h * x)).sum::<f64>() * h;
        if depth >= 16 || (whole - four).abs() <= tol {
            return whole;
        }
        rec(a, m, f, tol, depth + 1) + rec(m, b, f, tol, depth + 1)
    }
    rec(a, m, f, tol, 1) + rec(m, b, f, tol, 1)
}

/// 4-point Gauss–Legendre nodes and weights on [-1, 1].
const GL4: [(f64, f64); 4] = [
    (-0.861_136_311_594_052_6, 0.347_854_845_137_453_85),
    (-0.339_981_043_584_856_26, 0.652_145_154_862_546_1),
    (0.339_981_043_584_856_26, 0.652_145_154_862_546_1),
    (0.861_136_311_594_052_6, 0.347_854_845_137_453_85),
];

/// Area of a piece by Green's theorem in its parameter square: with
/// `F(u, v) = ∫₀ᵘ |S_s × S_t|(s, v) ds` (composite Gauss–Legendre, 4 panels),
/// the area inside a loop is `±∮ F dv` (+ for a counter-clockwise loop), and
/// the even–odd region is the alternating sum over loops by nesting depth.
/// Every trim curve is integrated in
/// its own parameter (8 panels of 8-point Gauss–Legendre: exact p-curves are smooth on each curve). Costs
/// O(curves), unlike [`piece_area`]'s bands (O(curves²)); used for the
/// corpus on pieces with more than 64 trim curves ([`corpus_piece_area`]),
/// cross-checked against [`piece_area`] on the generated fixtures. Loops are
/// assumed not to overlap (runs of two loops along one side of the square
/// break the nesting test).
fn piece_area_green(p: &Piece) -> f64 {
    use extrack::geom::bez2;
    let s = piece_surface(p).expect("valid piece");
    if !p.trimmed {
        return piece_area(p);
    }
    let f = |u: f64, v: f64| -> f64 {
        if u == 0.0 {
            return 0.0;
        }
        row_integral(&s, v, 0.0, u)
    };
    // ∮ g(u, v) dv over one loop, and a sample polyline of the loop
    let loop_integral = |curves: &[TrimCurve], g: &dyn Fn(f64, f64) -> f64| -> f64 {
        let mut acc = 0.0;
        for c in curves {
            match c {
                TrimCurve::Polyline(pts) => {
                    for w in pts.windows(2) {
                        let (a, b) = (w[0], w[1]);
                        let dv = b[1] - a[1];
                        if dv != 0.0 {
                            acc += gl8(0.0, 1.0, |t| g(a[0] + t * (b[0] - a[0]), a[1] + t * dv)) * dv;
                        }
                    }
                }
                TrimCurve::Bezier(h) => {
                    for k in 0..8 {
                        let (t0, t1) = (k as f64 / 8.0, (k + 1) as f64 / 8.0);
                        acc += gl8(t0, t1, |t| {
                            let (q, d) = bez2::eval_d1(h, t);
                            g(q[0], q[1]) * d[1]
                        });
                    }
                }
            }
        }
        acc
    };
    let polyline = |curves: &[TrimCurve]| -> Vec<[f64; 2]> {
        let mut out = Vec::new();
        for c in curves {
            match c {
                TrimCurve::Polyline(pts) => out.extend(pts.iter().copied()),
                TrimCurve::Bezier(h) => out.extend((0..=16).map(|i| bez2::eval(h, i as f64 / 16.0))),
            }
        }
        out
    };
    let inside = |poly: &[[f64; 2]], q: [f64; 2]| -> bool {
        let mut c = false;
        for i in 0..poly.len() {
            let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
            if (a[1] > q[1]) != (b[1] > q[1]) && q[0] < a[0] + (q[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]) {
                c = !c;
            }
        }
        c
    };
    let polys: Vec<Vec<[f64; 2]>> = p.trim_loops.iter().map(|l| polyline(&l.curves)).collect();
    let mut area = 0.0;
    for (i, l) in p.trim_loops.iter().enumerate() {
        let orient = loop_integral(&l.curves, &|u, _| u).signum();
        let q = polys[i][polys[i].len() / 2];
        let depth = (0..polys.len()).filter(|&j| j != i && inside(&polys[j], q)).count();
        let sign = if depth % 2 == 0 { 1.0 } else { -1.0 };
        area += sign * orient * loop_integral(&l.curves, &f);
    }
    area
}

/// Piece area for the corpus check: the band integration ([`piece_area`]:
/// exact even–odd, also where loops run along one side of the square) for
/// pieces with at most 64 trim curves, Green's theorem
/// ([`piece_area_green`], linear in the curves) above.
fn corpus_piece_area(p: &Piece) -> f64 {
    let curves: usize = p.trim_loops.iter().map(|l| l.curves.len()).sum();
    if curves <= 64 {
        piece_area(p)
    } else {
        piece_area_green(p)
    }
}

/// Area of an untrimmed face from the importer's own surface evaluator
/// (independent of the NURBS conversion and the pieces): composite 8×8
/// Gauss–Legendre on a 24×24 grid of the face's parameter range.
fn face_area_quadrature(model: &extrack::import::model::Model, source: u64) -> Option<f64> {
    let face = model.faces.iter().find(|f| f.source == source)?;
    let ((u0, u1), (v0, v1)) = extrack::prepare::nurbs::face_nurbs(model, face).ok()?.range;
    let k = 24;
    let (hu, hv) = ((u1 - u0) / k as f64, (v1 - v0) / k as f64);
    let mut a = 0.0;
    for i in 0..k {
        for j in 0..k {
            for (xi, wi) in GL {
                for (xj, wj) in GL {
                    let u = u0 + (i as f64 + 0.5 * (xi + 1.0)) * hu;
                    let v = v0 + (j as f64 + 0.5 * (xj + 1.0)) * hv;
                    let d = face.surface.eval_derivs(u, v);
                    a += wi * wj * 0.25 * hu * hv * d.su.cross(&d.sv).norm();
                }
            }
        }
    }
    Some(a)
}

/// Violations of the class claims (at most one per piece): a convex piece
/// not nice, a sampled normal outside the cone, a sampled curvature against the class.
fn class_violations(scene: &SceneData, name: &str) -> Vec<String> {
    let mut bad = Vec::new();
    'piece: for (k, p) in scene.pieces.iter().enumerate() {
        let s = piece_surface(p).expect("valid piece");
        if p.class == ConvexityClass::Convex {
            if !(p.cone.half_angle < std::f64::consts::FRAC_PI_2) {
                bad.push(format!("{name}: piece {k} not nice"));
                continue 'piece;
            };
        }
        let axis = Vec3::from(p.cone.axis);
        let diag2 = (0..3).map(|k| (p.bbox.max[k] - p.bbox.min[k]).powi(2)).sum::<f64>();
        // the round-off of a sampled normal: the derivatives are differences of
        // poles whose coordinates carry `ε·M` each, so the evaluated `f_u`
        // turns by up to about `deg·ε·M / |f_u|` (ujoint's sliver pieces are
        // 1e-12 mm across in `u` at coordinates of 19 mm: 3e-3 rad of noise)
        let coord = p
            .poles
            .iter()
            .flat_map(|w| (0..3).map(move |k| (w[k] / w[3]).abs()))
            .fold(0.0, f64::max);
        let noise = 16.0 * f64::from(p.degree_u.max(p.degree_v)) * f64::EPSILON * coord;
        for i in 0..=6 {
            for j in 0..=6 {
                let (u, v) = (0.02 + 0.96 * i as f64 / 6.0, 0.02 + 0.96 * j as f64 / 6.0);
                let d = s.eval_derivs(u, v);
                let n = piece_normal(&s, p.reversed, u, v);
                // skip degenerate points (collapsed pole rows): their normal is rounding noise
                if n.norm() == 0.0 || d.normal_raw().norm() <= 1e-9 * diag2 {
                    continue;
                }
                let rounding = noise * (1.0 / d.su.norm() + 1.0 / d.sv.norm());
                if !(n.dot(&axis) >= (p.cone.half_angle + 1e-7 + rounding).min(std::f64::consts::PI).cos() - 1e-9) {
                    bad.push(format!("{name}: piece {k} ({:?}, cone {}) normal outside cone: dot {} at ({u},{v}), |n|/(|fu||fv|) = {:e}",
                    p.class,
                    p.cone.half_angle,
                    n.dot(&axis),
                    d.normal_raw().norm() / (d.su.norm() * d.sv.norm())));
                    continue 'piece;
                };
                let scale = d.su.norm().max(d.sv.norm()).max(1e-300);
                let (l, m, nn) = (d.suu.dot(&n), d.suv.dot(&n), d.svv.dot(&n));
                // (second differences of the poles: `deg` times the first's noise)
                let tol = 1e-6 * (d.suu.norm() + d.suv.norm() + d.svv.norm())
                    + 1e-9 * scale
                    + noise * f64::from(p.degree_u.max(p.degree_v));
                match p.class {
                    ConvexityClass::Convex => {
                        if !(l <= tol && nn <= tol && l * nn - m * m >= -tol * tol.max(l.abs() + nn.abs()) * 10.0) {
                            bad.push(format!("{name}: piece {k} not convex at ({u},{v}): {l} {m} {nn}"));
                            continue 'piece;
                        }
                    }
                    ConvexityClass::Concave => {
                        if !(l >= -tol && nn >= -tol && l * nn - m * m >= -tol * tol.max(l.abs() + nn.abs()) * 10.0) {
                            bad.push(format!(
                                "{name}: piece {k} not concave at ({u},{v}): L {l:e} M {m:e} N {nn:e} tol {tol:e}"
                            ));
                            continue 'piece;
                        }
                    }
                    ConvexityClass::Planar => {
                        if !(l.abs() <= tol && m.abs() <= tol && nn.abs() <= tol) {
                            bad.push(format!(
                                "{name}: piece {k} not planar at ({u},{v}): L {l:e} M {m:e} N {nn:e} tol {tol:e}"
                            ));
                            continue 'piece;
                        }
                    }
                    ConvexityClass::Saddle => {
                        if !(l * nn - m * m <= tol * (l.abs() + nn.abs() + m.abs() + tol) * 10.0) {
                            bad.push(format!(
                                "{name}: piece {k} not saddle at ({u},{v}): L {l:e} M {m:e} N {nn:e} tol {tol:e}"
                            ));
                            continue 'piece;
                        }
                    }
                    ConvexityClass::Mixed => {}
                }
            }
        }
    }
    bad
}

/// Precise Open CASCADE face areas by STEP id, with "is a B-spline face":
/// `fixtures/oracle/<stem>.areas.json` (`tools/oracle_areas.py`: the
/// adaptive `BRepGProp::SurfaceProperties(face, props, 1e-10)`; its default
/// fixed-order overload, used for `../shared/fixtures/oracle/*.inspect.json`,
/// is off by up to 1e-4 relative on sculpted's planes bounded by a B-spline
/// edge and by up to 0.5 % on B-spline faces: ellipsoid 58.0239 vs the exact
/// 57.8121). Each file also records Open CASCADE's error estimate, asserted
/// here to be far below the tolerance.
fn precise_areas(path: &Path) -> BTreeMap<u64, (f64, bool)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let j: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = BTreeMap::new();
    for f in j["faces"].as_array().expect("faces") {
        let id = f["step_id"].as_u64().expect("step_id");
        let a = f["area"].as_f64().expect("area");
        let err = f["error"].as_f64().expect("error estimate");
        assert!(
            err < 1e-3 * AREA_TOL,
            "{}: face #{id}: Open CASCADE's error estimate {err:e}",
            path.display()
        );
        out.insert(id, (a, f["type"].as_str().is_some_and(|t| t.contains("BSpline"))));
    }
    out
}

/// The `*.areas.json` files of a directory (`tools/oracle_areas.py`), sorted.
fn area_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".areas.json"))
        .collect();
    names.sort();
    names
}

/// Relative area tolerance of every face (issue 5: "total area equals the
/// face area within 1e-6 relative"). Trimmed faces store their exact p-curves
/// (rational Bézier spans clipped exactly to the pieces, see
/// formats/scene.md), and the pieces' regions are integrated with graded
/// Gauss–Legendre panels (`piece_area`).
const AREA_TOL: f64 = 1e-6;

/// Runs on the project's copies of the generated fixtures (`fixtures/*.step`,
/// with `fixtures/oracle/*.areas.json`), so it needs no `../shared`.
#[test]
fn generated_step_fixtures_prepare() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let names = area_files(&dir.join("oracle"));
    assert!(
        names.len() >= 9,
        "expected the 9 generated fixtures' area files, found {}",
        names.len()
    );
    let mut report = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    for areas in names {
        let file = areas.file_name().unwrap().to_string_lossy().to_string();
        let stem = file.trim_end_matches(".areas.json").to_string();
        let path = dir.join(format!("{stem}.step"));
        let model = extrack::import::import_file(&path).unwrap_or_else(|e| panic!("{stem}: import: {e}"));
        let scene = prepare(&model, &PrepareOptions::default()).unwrap_or_else(|e| panic!("{stem}: prepare: {e}"));
        let bytes = scene.write();
        let buf = extrack::scene::AlignedBytes::from_slice(&bytes);
        SceneView::from_bytes(buf.as_bytes()).unwrap_or_else(|e| panic!("{stem}: scene invalid: {e}"));
        let bad = class_violations(&scene, &stem);
        assert!(bad.is_empty(), "{}", bad.join("\n"));
        // areas per face
        let oracle = precise_areas(&areas);
        assert!(!oracle.is_empty(), "{stem}: no faces in {file}");
        let mut ours: BTreeMap<u64, (f64, bool)> = BTreeMap::new();
        for p in &scene.pieces {
            let e = ours.entry(p.source_face).or_insert((0.0, false));
            let a = piece_area(p);
            let g = piece_area_green(p);
            assert!(
                (a - g).abs() <= 1e-8 * a.abs().max(1e-12),
                "{stem}: piece area by bands {a} and by Green's theorem {g} differ"
            );
            e.0 += a;
            e.1 |= p.trimmed;
        }
        let (mut untrimmed, mut trimmed_faces, mut worst_untrimmed, mut worst_trimmed) = (0, 0, 0.0f64, 0.0f64);
        for (id, &(a, bspline)) in &oracle {
            let Some(&(b, trimmed)) = ours.get(id) else {
                panic!("{stem}: face #{id} has no piece")
            };
            let rel = (a - b).abs() / a.abs().max(1e-300);
            if std::env::var_os("PREP_AREA_DETAIL").is_some() {
                println!(
                    "  {stem} #{id}: ours {b:.9} reference {a:.9} rel {rel:.1e} trimmed {trimmed} bspline {bspline}"
                );
            }
            if !(rel < AREA_TOL) {
                failures.push(format!(
                    "{stem}: face #{id} (trimmed {trimmed}): area {b} vs Open CASCADE {a} (rel {rel:.1e})"
                ));
            }
            if trimmed {
                trimmed_faces += 1;
                worst_trimmed = worst_trimmed.max(rel);
            } else {
                untrimmed += 1;
                worst_untrimmed = worst_untrimmed.max(rel);
                // a second, independent reference for untrimmed B-spline faces:
                // quadrature of the importer's own surface
                if bspline {
                    let q = face_area_quadrature(&model, *id).expect("face of the model");
                    let rq = (q - b).abs() / q.abs().max(1e-300);
                    if !(rq < AREA_TOL) {
                        failures.push(format!(
                            "{stem}: face #{id}: area {b} vs own quadrature {q} (rel {rq:.1e})"
                        ));
                    }
                }
            }
        }
        report.push(format!("{stem}: {} pieces, {untrimmed} untrimmed faces (worst rel {worst_untrimmed:.1e}), {trimmed_faces} trimmed (worst {worst_trimmed:.1e})", scene.pieces.len()));
    }
    println!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Corpus and wave2 files whose packed scene (what `extrack import` writes) is still
/// larger than the source file — issue 5's size target, not met for these
/// (no corpus file since session 13; two wave2 files). A ratchet: a file not listed here must be no
/// larger than its source, and a listed file that gets there must be
/// removed from the list.
const SIZE_OVER_SOURCE: [&str; 2] = [
    // wave2: 17 trimmed surfaces of revolution of 106/12 polylines (50,059 vs 37,745 bytes)
    "iges_nist_144_example2.igs",
    // wave2: 36,499 vs 36,474 bytes
    "step_fusion_atf11_mov.step",
];

/// Files with prepared pieces whose class (convex / concave / saddle and
/// their normal cones) sampling does not confirm: (file, most such pieces,
/// reason). A ratchet (`common::band::ratchet`).
const CLASS_VIOLATIONS: &[(&str, usize, &str)] = &[];

#[test]
fn corpus_files_prepare() {
    let Some(dir) = fixtures() else { return };
    let names: Vec<_> = common::band::corpora(&dir)
        .iter()
        .flat_map(common::band::cad_files)
        .collect();
    let (mut prepared, mut skipped, mut class_counts) = (0, Vec::new(), Vec::new());
    let mut sizes: Vec<(String, usize, u64)> = Vec::new();
    for path in names {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let model = match extrack::import::import_file(&path) {
            Ok(m) => m,
            Err(e) => {
                skipped.push(format!("{name} (import: {e})"));
                continue;
            }
        };
        let scene = prepare(&model, &PrepareOptions::default()).unwrap_or_else(|e| panic!("{name}: prepare: {e}"));
        let bytes = scene.write();
        let buf = extrack::scene::AlignedBytes::from_slice(&bytes);
        SceneView::from_bytes(buf.as_bytes()).unwrap_or_else(|e| panic!("{name}: scene invalid: {e}"));
        let packed = extrack::scene::packed::pack(&bytes, extrack::scene::packed::DEFAULT_LEVEL)
            .unwrap_or_else(|e| panic!("{name}: pack: {e}"));
        assert_eq!(
            extrack::scene::packed::unpack(&packed).unwrap().as_bytes(),
            &bytes[..],
            "{name}: packed scene does not unpack to the plain bytes"
        );
        sizes.push((name.clone(), packed.len(), std::fs::metadata(&path).unwrap().len()));
        // every prepared scene derives its poles, boxes and BVHs (codec 2)
        assert_eq!(
            u16::from_le_bytes([packed[10], packed[11]]),
            extrack::scene::packed::CODEC_ZSTD_DERIVED,
            "{name}: packed without derived data"
        );
        let bad = class_violations(&scene, &name);
        if !bad.is_empty() {
            println!(
                "{name}: {} of {} pieces violate their class: {}",
                bad.len(),
                scene.pieces.len(),
                bad.iter().take(3).cloned().collect::<Vec<_>>().join(" | ")
            );
        }
        class_counts.push(common::band::Count {
            file: name.clone(),
            wrong: bad.len(),
            total: scene.pieces.len(),
        });
        prepared += 1;
    }
    println!("prepared {prepared} corpus and wave2 STEP and IGES files; skipped: {skipped:?}");
    assert!(prepared > 0);
    // issue 5's size target: the packed scene no larger than the source file
    let over: Vec<&(String, usize, u64)> = sizes.iter().filter(|(_, n, src)| *n as u64 > *src).collect();
    for (name, n, src) in &over {
        println!(
            "scene larger than source: {name}: {n} vs {src} bytes ({:.2})",
            *n as f64 / *src as f64
        );
    }
    let new_over: Vec<String> = over
        .iter()
        .filter(|(name, _, _)| !SIZE_OVER_SOURCE.contains(&name.as_str()))
        .map(|(name, n, src)| format!("{name}: {n} > {src}"))
        .collect();
    assert!(new_over.is_empty(), "scenes larger than their source: {new_over:?}");
    let now_under: Vec<&str> = SIZE_OVER_SOURCE
        .iter()
        .copied()
        .filter(|k| sizes.iter().any(|(n, _, _)| n == k) && !over.iter().any(|(n, _, _)| n == k))
        .collect();
    assert!(
        now_under.is_empty(),
        "no longer larger than their source, remove from SIZE_OVER_SOURCE: {now_under:?}"
    );
    // every piece's class is confirmed by sampling its curvature (session 12:
    // bow and impeller had thin pieces passed as concave / saddle by a
    // Gaussian-curvature tolerance scaled by the square of a loose bound)
    let class_failures = common::band::ratchet("pieces violating their class", &class_counts, CLASS_VIOLATIONS);
    assert!(class_failures.is_empty(), "{}", class_failures.join("\n"));
}

/// Open CASCADE's adaptive face areas of a corpus file
/// (`fixtures/oracle/corpus/<file>.areas.json`, `tools/oracle_areas.py
/// --keep-ext`), summed per file entity (STEP id or IGES DE: instanced parts
/// repeat their faces): `(area, perimeter × edge tolerance, instances)`, the
/// second the band within which the file defines the face (its p-curves and
/// 3-D edges may disagree by up to the edge tolerance).
fn corpus_areas(path: &Path) -> BTreeMap<u64, (f64, f64, usize)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let j: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out: BTreeMap<u64, (f64, f64, usize)> = BTreeMap::new();
    for f in j["faces"].as_array().expect("faces") {
        let Some(id) = f["step_id"].as_u64().or(f["iges_de"].as_u64()) else {
            continue;
        };
        let e = out.entry(id).or_insert((0.0, 0.0, 0));
        e.2 += 1;
        e.0 += f["area"].as_f64().expect("area");
        e.1 += f["perimeter"].as_f64().expect("perimeter") * f["edge_tolerance"].as_f64().expect("edge_tolerance");
    }
    out
}

/// Corpus files with faces whose piece area is neither within [`AREA_TOL`]
/// of Open CASCADE's adaptive area nor within the file's own tolerance band
/// (perimeter × largest edge tolerance, see [`corpus_areas`]), with the
/// number of such file entities (session 10: 29 in 13 files; session 11:
/// 4 in 4, faces with an independent reference in [`AREA_REFERENCES`] are
/// checked against it instead). A ratchet: a listed file may not get more,
/// any other file must have none. Causes (README "Offline stage", Area):
/// * catia4_x28_tabcyl: Open CASCADE's error (session 13: Green's theorem
///   over its 3-D edges on the extrusion, now in [`AREA_REFERENCES`]);
/// * hm_nentity #623 / #655 and harmonyware: fixed in session 11 (see
///   [`AREA_REFERENCES`] and [`piece_area`]);
/// * fixed in session 11: faces bounded by curved edges were low by
///   1e-6..5e-5 (ideas11 #31/#39, ideas9 #356/#438/#501, ventilator
///   #171/#301, sw2013 #674, microstation #782): the face range came from
///   the trim samples, so a curve's extreme between two samples fell
///   outside it and its cap was cut off (`nurbs::face_range_within`);
/// * microstation #552 (sphere): Open CASCADE's error (session 12: Green's
///   theorem over its 3-D edges, `tools/area_triage.py` `green_sphere`,
///   agrees with ours to 1.7e-10; now in [`AREA_REFERENCES`]);
/// * sw2013 #2619 (B-spline): Open CASCADE's error (session 12: its grid
///   converges to ours; now in [`AREA_REFERENCES`]);
/// * vz387 #1 (2.0e-4): Open CASCADE's error (session 13: slices of the
///   p-curve region times the area element agree with ours to 1e-11, now in
///   [`AREA_REFERENCES`]).
///
/// Empty since session 13.
const KNOWN_AREA_MISMATCHES: [(&str, usize); 0] = [];

/// Faces whose Open CASCADE adaptive area (the oracle of
/// [`corpus_face_areas`]) is wrong, each with an independent reference area
/// per instance, the largest |ours − reference| accepted, and the evidence
/// (`tools/area_triage.py FILE ID --grid N`: Open CASCADE's default
/// fixed-order area, a grid of N × N cells classified by Open CASCADE's own
/// `BRepClass_FaceClassifier`, boundary cells refined 8 × 8; for flat faces
/// a Green's-theorem integral over the 3-D edges). Such a face is checked
/// against its reference, not against Open CASCADE.
const AREA_REFERENCES: [(&str, u64, f64, f64, &str); 20] = [
    // a degree 1×2 B-spline that is an extrusion in disguise (its two rows of
    // poles differ by a translation), so its area element depends on v only
    // and jumps ~1000× on the knot span [−1, 0]: ∫ g(v) L(v) dv with L(v) the
    // face's chord length along v = const from its p-curves (`area_triage.py`
    // `slices`): 167468.608219 (200 Gauss panels per knot span, 20,000
    // points per p-curve), 167468.608151 (800, 80,000). Open CASCADE's
    // adaptive area 167435.70 (2.0e-4 low), default 166994.99, grid and mesh
    // 4–7 % off: its uniform panels miss the spike
    (
        "iges_rhino2001_vz387.igs",
        1,
        167_468.608_151,
        2e-3,
        "slices of the p-curve region times the area element",
    ),
    // a surface of linear extrusion: |∮ −v |C'(u) × D| du| over its 3-D
    // edges projected onto the surface (`area_triage.py` `green_cylindrical`,
    // 500 and 2,000 panels per edge agree to all 12 digits). Ours uses the
    // file's p-curves on 18 of its 24 edges and projects the other 6; the
    // file lets p-curves and edges differ by its edge tolerance 1.2e-3 mm
    // (perimeter × tolerance = 0.55 mm²): ours is 0.0157 mm² (1.8e-6) below
    // the reference, 3 % of that band. Open CASCADE's adaptive area 7412.18
    // (16 % low) and default 8447.42 are wrong; its 300² grid 8811.9
    (
        "iges_catia4_x28_tabcyl.igs",
        1,
        8_831.837_609_074,
        0.02,
        "Green's theorem over the 3-D edges on the extrusion",
    ),
    // Open CASCADE's own surfaces, whole parameter square (a 200² grid with
    // its face classifier finds every point in), integrated by the adaptive
    // 8×8 Gauss–Legendre scheme of `untrimmed_area` in OCP (#655: a folded
    // patch, kink along the fold; its adaptive area 4116.85) and by 20-point
    // Gauss–Legendre on 8×8 cells (#623: the offset of a ruled B-spline,
    // fitted by `prepare::nurbs::offset_fit` within 1e-9 of its size; its
    // adaptive area 467.815)
    (
        "iges_hm_nentity.igs",
        655,
        4_057.317_257_249,
        4.1e-3,
        "adaptive quadrature of its surface",
    ),
    (
        "iges_hm_nentity.igs",
        623,
        469.145_186_039,
        4.7e-4,
        "Gauss-Legendre of its surface",
    ),
    // holes-only spheres: a cap cut by the plane of the big circle minus the
    // tiny cap of the small circle, 2πR(R + d) − 2πR(R − √(R² − r²)), with
    // R, d (plane offset from the centre) and r from the file; Open
    // CASCADE's adaptive area is 8.3e-5 / 8.6e-5 high (its grid agrees with the formula)
    (
        "step_alibre_s1.stp",
        1920,
        510.297_193_317_568_9,
        510.3e-6,
        "sphere caps, R 9.0000016, d 0.0240614, r 0.0228251",
    ),
    (
        "step_alibre_s1.stp",
        1931,
        510.297_193_317_568_9,
        510.3e-6,
        "same geometry as the face above",
    ),
    (
        "step_alibre_s1.stp",
        1922,
        629.910_311_031_746_8,
        629.9e-6,
        "sphere caps, R 10.0000016, d 0.0253630, r 0.0253614",
    ),
    (
        "step_alibre_s1.stp",
        1933,
        629.910_311_031_746_8,
        629.9e-6,
        "same geometry as the face above",
    ),
    // a sphere face: |∮ −R² sin v du| over its 3-D edges (`area_triage.py`
    // `green_sphere`, 2,000 and 8,000 panels per edge agree to 1e-12);
    // Open CASCADE's adaptive area 20.268242511 (2.8e-6 low), default 20.268261860
    (
        "step_microstation_k1.stp",
        552,
        20.268_299_167_53,
        20.3e-6,
        "Green's theorem over the 3-D edges on the sphere",
    ),
    // a B-spline face: grid 100: 215.154811, grid 300: 215.154681, grid 600:
    // 215.154693 (the grid's error at 600 ~1.3e-5, its change from 300);
    // Open CASCADE's adaptive area 215.154924 (2.3e-4 high), default 215.227472
    ("step_sw2013_featuretype.step", 2619, 215.154_693_337, 3e-5, "grid 600"),
    // surfaces of extrusion where the adaptive integration fails: default
    // 152.290168, grid 100: 152.279975, grid 300: 152.279993 (adaptive 150.895436)
    ("step_microstation_k1.stp", 828, 152.279_992_955, 152.3e-6, "grid 300"),
    // default 289.623049, grid 100: 289.624370, grid 300: 289.622607, mesh
    // 289.619811 (adaptive 289.502381); the grid's own error at 300 is
    // ~5e-4 (its change from 100), the file's perimeter × edge tolerance 7.5e-2
    ("step_microstation_k1.stp", 755, 289.622_606_540, 2e-3, "grid 300"),
    // default 76.122634, grid 100: 76.136528, grid 300: 76.136532 (adaptive 75.960397)
    (
        "step_proe2001_k1_facesurface.stp",
        1242,
        76.136_532_478,
        76.1e-6,
        "grid 300",
    ),
    (
        "step_proe2001_k1_facesurface.stp",
        1287,
        76.136_532_478,
        76.1e-6,
        "same geometry as the face above",
    ),
    // default 287.044158, grid 100: 286.332380, grid 400: 286.504670, mesh
    // 286.502632 (adaptive 280.727424); the file defines the face only to
    // its perimeter × edge tolerance, 0.43
    (
        "step_proe2001_k1_facesurface.stp",
        2153,
        286.504_670_420,
        0.43,
        "grid 400, file tolerance",
    ),
    // flat bilinear B-spline faces: Green's theorem over the 3-D edges gives
    // 221.460182405 per instance, default 221.456058, adaptive 221.459677
    (
        "step_ideas9_dm1_ap214.stp",
        1414,
        221.460_182_405,
        221.5e-6,
        "Green, 3-D edges",
    ),
    (
        "step_ideas9_dm1_ap214.stp",
        1445,
        221.460_182_405,
        221.5e-6,
        "same geometry as the face above",
    ),
    // circles on flat bilinear B-spline faces: Green = π r² (78.539816340 for
    // r 5); Open CASCADE's adaptive area is 6.5e-6 high on all three
    (
        "step_ideas9_dm1_ap214.stp",
        356,
        78.539_816_338,
        78.5e-6,
        "Green, 3-D edges",
    ),
    (
        "step_ideas9_dm1_ap214.stp",
        438,
        176.714_586_972,
        176.7e-6,
        "Green, 3-D edges",
    ),
    (
        "step_ideas9_dm1_ap214.stp",
        501,
        98.174_770_633,
        98.2e-6,
        "Green, 3-D edges",
    ),
];

/// Issue 5: "the pieces of each face cover that face exactly (total area
/// equals the face area within 1e-6 relative)" on every corpus file, against
/// Open CASCADE's adaptive areas (`fixtures/oracle/corpus/*.areas.json`,
/// made by `tools/oracle_areas.py --keep-ext`; iges_pygeo_turbine_blade has
/// none: Open CASCADE transfers no shape from it). Piece areas by Green's
/// theorem or bands ([`corpus_piece_area`]). `AREA_FILTER=name` limits the files,
/// `PREP_AREA_DETAIL=1` prints every mismatch, `PREP_AREA_FACE=id` the
/// pieces of one face.
#[test]
fn corpus_face_areas() {
    let Some(dir) = fixtures() else { return };
    let odir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/oracle/corpus");
    let names = area_files(&odir);
    assert!(
        names.len() >= 47,
        "expected the corpus area files, found {}",
        names.len()
    );
    let only = std::env::var("AREA_FILTER").ok();
    let mut failures = Vec::new();
    for areas in names {
        let file = areas
            .file_name()
            .unwrap()
            .to_string_lossy()
            .trim_end_matches(".areas.json")
            .to_string();
        if only.as_ref().is_some_and(|f| !file.contains(f.as_str())) {
            continue;
        }
        let model = extrack::import::import_file(dir.join("corpus").join(&file))
            .unwrap_or_else(|e| panic!("{file}: import: {e}"));
        let scene = prepare(&model, &PrepareOptions::default()).unwrap_or_else(|e| panic!("{file}: prepare: {e}"));
        // per entity: area summed over instances, and the instances (bodies)
        let mut ours: BTreeMap<u64, (f64, std::collections::BTreeSet<u32>)> = BTreeMap::new();
        let face = std::env::var("PREP_AREA_FACE").ok().and_then(|f| f.parse::<u64>().ok());
        for (k, p) in scene.pieces.iter().enumerate() {
            let a = corpus_piece_area(p);
            if face == Some(p.source_face) {
                println!(
                    "  piece {k} of face #{}: area {a:.9} (bands {:.9}) domain {:?} body {}",
                    p.source_face,
                    piece_area(p),
                    p.domain,
                    p.body
                );
            }
            let e = ours.entry(p.source_face).or_default();
            e.0 += a;
            e.1.insert(p.body);
        }
        let occ = corpus_areas(&areas);
        let (mut n, mut bad, mut within_tol, mut worst, mut worst_id) = (0, 0, 0, 0.0f64, 0);
        let (mut instance_counts_differ, mut referenced) = (0, 0);
        for (id, &(a, band, count)) in &occ {
            // Open CASCADE drops a second assembly occurrence of a part under
            // the same parent (alibre_s1: two NEXT_ASSEMBLY_USAGE_OCCURRENCEs
            // of one child with different placements give 8 solids, we import
            // 11 bodies): compare the area per instance where the counts differ
            let (b, a, band) = match ours.get(id) {
                Some((b, bodies)) if bodies.len() != count => {
                    instance_counts_differ += 1;
                    (b / bodies.len() as f64, a / count as f64, band / count as f64)
                }
                Some((b, _)) => (*b, a, band),
                None => (0.0, a, band),
            };
            n += 1;
            // a face whose Open CASCADE area is wrong: against its independent reference
            if let Some(r) = AREA_REFERENCES.iter().find(|r| r.0 == file && r.1 == *id) {
                let per_instance = ours.get(id).map_or(0.0, |(b, bodies)| b / bodies.len().max(1) as f64);
                let d = (per_instance - r.2).abs();
                let ok = d <= r.3;
                if std::env::var_os("PREP_AREA_DETAIL").is_some() {
                    println!(
                        "  {file} #{id}: ours {per_instance:.9} per instance, reference {:.9} (Open CASCADE {a:.9}): |diff| {d:.1e} {} {:.1e}",
                        r.2,
                        if ok { "<=" } else { ">" },
                        r.3
                    );
                }
                referenced += 1;
                if !ok {
                    bad += 1;
                    let rel = d / r.2;
                    if rel > worst {
                        (worst, worst_id) = (rel, *id);
                    }
                }
                continue;
            }
            let rel = (a - b).abs() / a.abs().max(1e-300);
            if rel < AREA_TOL {
                continue;
            }
            let tolerated = (a - b).abs() <= band;
            if tolerated {
                within_tol += 1;
            } else {
                bad += 1;
                if rel > worst {
                    (worst, worst_id) = (rel, *id);
                }
            }
            if std::env::var_os("PREP_AREA_DETAIL").is_some() {
                println!("  {file} #{id}: ours {b:.9} occ {a:.9} rel {rel:.1e} |diff| {:.1e} perimeter x edge tol {band:.1e}{}", (a - b).abs(), if tolerated { " (within the file's tolerance)" } else { "" });
            }
        }
        println!("{file}: {n} faces, {within_tol} beyond {AREA_TOL:e} within the file's tolerance, {bad} beyond both, worst rel {worst:.1e} (#{worst_id}); {instance_counts_differ} with other instance counts than Open CASCADE's; {referenced} against AREA_REFERENCES");
        let known = KNOWN_AREA_MISMATCHES.iter().find(|k| k.0 == file).map_or(0, |k| k.1);
        if bad > known {
            failures.push(format!(
                "{file}: {bad} faces beyond {AREA_TOL:e} (known: {known}), worst rel {worst:.1e} (#{worst_id})"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
