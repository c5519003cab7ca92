//! Shared helpers of the IGES integration tests: fixture paths, oracle JSON,
//! and the "closest point lies on the imported geometry, inside the trims" check.
#![allow(dead_code)]

use extrack::geom::Vec3;
use extrack::import::eval::project;
use extrack::import::model::{Coedge, CurveSegment, Face, Loop, Model, Surface};
use std::path::PathBuf;

/// `../shared/fixtures`, or `None` (with a printed skip message) when absent.
pub fn fixtures() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures");
    if p.join("corpus").is_dir() && p.join("oracle").is_dir() {
        Some(p)
    } else {
        println!("SKIP: {} not found; fixture tests skipped", p.display());
        None
    }
}

/// The CAD files (STEP and IGES by extension) of folders `dirs` under
/// `root`, sorted; `None` when a folder cannot be read.
pub fn cad_files_in(root: &std::path::Path, dirs: &[&str], exts: &[&str]) -> Option<Vec<PathBuf>> {
    let mut v = Vec::new();
    for dir in dirs {
        for e in std::fs::read_dir(root.join(dir)).ok()?.flatten() {
            let p = e.path();
            let ext = p
                .extension()
                .and_then(|x| x.to_str())
                .unwrap_or("")
                .to_ascii_lowercase();
            if exts.contains(&ext.as_str()) {
                v.push(p);
            }
        }
    }
    v.sort();
    Some(v)
}

/// STEP and IGES extensions.
pub const CAD_EXTENSIONS: &[&str] = &["step", "stp", "igs", "iges"];

/// All IGES files of corpus/, wave2/corpus/ and generated/.
pub fn iges_files(root: &std::path::Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = ["corpus", "wave2/corpus", "generated"]
        .iter()
        .filter_map(|d| cad_files_in(root, &[d], &["igs", "iges"]))
        .flatten()
        .collect();
    v.sort();
    v
}

/// The oracle inspect JSON of an IGES file (`counts.faces` …), if any.
pub fn oracle_inspect(root: &std::path::Path, file: &str) -> Option<serde_json::Value> {
    let o = root.join("oracle");
    if let Some(model) = file
        .strip_suffix(".brep.igs")
        .or_else(|| file.strip_suffix(".faces.igs"))
    {
        let key = if file.ends_with(".brep.igs") {
            "iges_brep"
        } else {
            "iges_faces"
        };
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(o.join(format!("{model}.inspect.json"))).ok()?).ok()?;
        return v.get(key).cloned();
    }
    oracle_file(root, &format!("{file}.inspect.json"))
}

/// A parsed oracle file of `oracle/` or, failing that, `wave2/oracle/`.
fn oracle_file(root: &std::path::Path, name: &str) -> Option<serde_json::Value> {
    let text = std::fs::read_to_string(root.join("oracle").join(name))
        .or_else(|_| std::fs::read_to_string(root.join("wave2/oracle").join(name)))
        .ok()?;
    serde_json::from_str(&text).ok()
}

/// The oracle closest-point JSON that applies to an IGES file, if any.
pub fn oracle_closest(root: &std::path::Path, file: &str) -> Option<serde_json::Value> {
    let name = match file
        .strip_suffix(".brep.igs")
        .or_else(|| file.strip_suffix(".faces.igs"))
    {
        Some(model) => format!("{model}.closest.json"),
        None => format!("{file}.closest.json"),
    };
    oracle_file(root, &name)
}

/// Precomputed trim data of one face.
pub struct FaceTrim {
    /// Parameter box used for projection.
    pub bx: ((f64, f64), (f64, f64)),
    /// uv polygons of the outer loop (if any) and the holes.
    pub outer: Option<Vec<(f64, f64)>>,
    /// Holes.
    pub inner: Vec<Vec<(f64, f64)>>,
    /// 3-D polylines of all boundary curves (edges / model-space trims / surface∘pcurve).
    pub boundary3d: Vec<Vec<Vec3>>,
    /// 3-D boundary curves for exact projection.
    pub curves3d: Vec<CurveSegment>,
    /// Parameter-space boundary curves.
    pub pcurves: Vec<CurveSegment>,
    /// 3-D bounding box of surface samples (grown).
    pub bbox: (Vec3, Vec3),
}

fn wrap_into(x: f64, lo: f64, period: Option<f64>) -> f64 {
    match period {
        Some(p) => lo + (x - lo).rem_euclid(p),
        None => x,
    }
}

fn coedge_3d(m: &Model, c: &Coedge) -> Option<CurveSegment> {
    if let Some(c3) = &c.curve {
        return Some(c3.clone());
    }
    let e = &m.edges[c.edge?];
    Some(CurveSegment {
        curve: e.curve.clone(),
        t0: e.t0,
        t1: e.t1,
        forward: c.forward,
    })
}

fn loop_uv(m: &Model, f: &Face, lp: &Loop, bx: ((f64, f64), (f64, f64))) -> Vec<(f64, f64)> {
    let (pu, pv) = f.surface.periods();
    let mut out: Vec<(f64, f64)> = Vec::new();
    for c in &lp.coedges {
        let mut pts: Vec<(f64, f64)> = if let Some(pc) = &c.pcurve {
            let mut s = pc.sample(48).into_iter().map(|p| (p.x, p.y)).collect::<Vec<_>>();
            if !c.forward {
                s.reverse();
            }
            s
        } else if let Some(c3) = coedge_3d(m, c) {
            let mut s = c3.sample(48);
            if c.curve.is_some() && !c.forward {
                s.reverse();
            }
            s.iter()
                .map(|q| {
                    let pr = project(&f.surface, q, bx, 24, 1e-13);
                    pr.uv
                })
                .collect()
        } else {
            Vec::new()
        };
        // unwrap periodic jumps of projected 3-D trims relative to the previous point
        let projected = c.pcurve.is_none();
        for p in pts.iter_mut() {
            if let (true, Some(&(lu, lv))) = (projected, out.last()) {
                if let Some(per) = pu {
                    p.0 += per * ((lu - p.0) / per).round();
                }
                if let Some(per) = pv {
                    p.1 += per * ((lv - p.1) / per).round();
                }
            }
            out.push(*p);
        }
    }
    out
}

fn inside_polygon(poly: &[(f64, f64)], q: (f64, f64)) -> bool {
    let mut inside = false;
    let n = poly.len();
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if (a.1 > q.1) != (b.1 > q.1) {
            let x = a.0 + (q.1 - a.1) / (b.1 - a.1) * (b.0 - a.0);
            if q.0 < x {
                inside = !inside;
            }
        }
    }
    inside
}

fn poly_box(polys: &[&Vec<(f64, f64)>]) -> Option<((f64, f64), (f64, f64))> {
    let mut b = ((f64::INFINITY, f64::NEG_INFINITY), (f64::INFINITY, f64::NEG_INFINITY));
    for p in polys {
        for &(u, v) in p.iter() {
            b.0 .0 = b.0 .0.min(u);
            b.0 .1 = b.0 .1.max(u);
            b.1 .0 = b.1 .0.min(v);
            b.1 .1 = b.1 .1.max(v);
        }
    }
    (b.0 .0.is_finite() && b.0 .1 > b.0 .0 && b.1 .1 > b.1 .0).then_some(b)
}

/// Trim data of every face.
pub fn face_trims(m: &Model) -> Vec<FaceTrim> {
    m.faces
        .iter()
        .map(|f| {
            // parameter box: the surface's domain, else from the p-curves, else from 3D trims
            let pc_polys: Vec<Vec<(f64, f64)>> = f
                .outer
                .iter()
                .chain(f.inner.iter())
                .filter(|l| l.coedges.iter().all(|c| c.pcurve.is_some()))
                .map(|l| loop_uv(m, f, l, ((0.0, 1.0), (0.0, 1.0))))
                .collect();
            let pc_box = poly_box(&pc_polys.iter().collect::<Vec<_>>());
            let bx = f
                .surface
                .domain()
                .or(pc_box)
                .unwrap_or(((-1.0e3, 1.0e3), (-1.0e3, 1.0e3)));
            let outer = f.outer.as_ref().map(|l| loop_uv(m, f, l, bx));
            let inner: Vec<_> = f.inner.iter().map(|l| loop_uv(m, f, l, bx)).collect();
            let mut boundary3d = Vec::new();
            let mut curves3d = Vec::new();
            let mut pcurves = Vec::new();
            for l in f.outer.iter().chain(f.inner.iter()) {
                for c in &l.coedges {
                    if let Some(c3) = coedge_3d(m, c) {
                        boundary3d.push(c3.sample(64));
                        curves3d.push(c3);
                    }
                    if let Some(pc) = &c.pcurve {
                        pcurves.push(pc.clone());
                        boundary3d.push(pc.sample(64).iter().map(|p| f.surface.eval(p.x, p.y)).collect());
                    }
                }
            }
            // 3D box of the face: boundary samples plus surface samples over the uv box
            let ubx = outer.as_ref().and_then(|o| poly_box(&[o])).unwrap_or(bx);
            let mut lo = Vec3::repeat(f64::INFINITY);
            let mut hi = Vec3::repeat(f64::NEG_INFINITY);
            let g = 24;
            for i in 0..=g {
                for j in 0..=g {
                    let u = ubx.0 .0 + (ubx.0 .1 - ubx.0 .0) * i as f64 / g as f64;
                    let v = ubx.1 .0 + (ubx.1 .1 - ubx.1 .0) * j as f64 / g as f64;
                    let p = f.surface.eval(u, v);
                    lo = lo.inf(&p);
                    hi = hi.sup(&p);
                }
            }
            for b in &boundary3d {
                for p in b {
                    lo = lo.inf(p);
                    hi = hi.sup(p);
                }
            }
            let grow = (hi - lo).norm() * 0.05 + 1e-3;
            FaceTrim {
                bx,
                outer,
                inner,
                boundary3d,
                curves3d,
                pcurves,
                bbox: (lo - Vec3::repeat(grow), hi + Vec3::repeat(grow)),
            }
        })
        .collect()
}

/// Distance from `q` to a curve segment (sampling + golden section).
pub fn curve_distance(c: &CurveSegment, q: &Vec3) -> f64 {
    fn_distance(&|s| c.point_at(s), q)
}

/// Distance from `q` to the image of a p-curve on a surface.
pub fn pcurve_distance(s: &Surface, c: &CurveSegment, q: &Vec3) -> f64 {
    fn_distance(
        &|t| {
            let p = c.point_at(t);
            s.eval(p.x, p.y)
        },
        q,
    )
}

fn fn_distance(c: &dyn Fn(f64) -> Vec3, q: &Vec3) -> f64 {
    let n = 400;
    let mut best = (f64::INFINITY, 0.0);
    for i in 0..=n {
        let s = i as f64 / n as f64;
        let d = (c(s) - q).norm();
        if d < best.0 {
            best = (d, s);
        }
    }
    // golden-section refinement around the best sample
    let (mut a, mut b) = ((best.1 - 1.0 / n as f64).max(0.0), (best.1 + 1.0 / n as f64).min(1.0));
    let g = 0.618_033_988_749_895;
    for _ in 0..80 {
        let x1 = b - g * (b - a);
        let x2 = a + g * (b - a);
        if (c(x1) - q).norm() < (c(x2) - q).norm() {
            b = x2;
        } else {
            a = x1;
        }
    }
    best.0.min((c(0.5 * (a + b)) - q).norm())
}

/// Outcome of checking one oracle point against one face.
#[derive(Debug, Clone, Copy)]
pub struct Hit {
    /// Distance from the point to the face's surface.
    pub surface_distance: f64,
    /// Inside the trim loops (or within `boundary_tol` of them).
    pub inside: bool,
    /// Distance to the nearest 3-D boundary curve of the face.
    pub boundary_distance: f64,
}

/// Checks `q` against face `fi`.
pub fn check_face(m: &Model, trims: &[FaceTrim], fi: usize, q: &Vec3, boundary_tol: f64) -> Hit {
    let f = &m.faces[fi];
    let t = &trims[fi];
    let pr = project(&f.surface, q, t.bx, 40, 1e-15);
    let (pu, pv) = f.surface.periods();
    let bnd = t
        .boundary3d
        .iter()
        .flat_map(|b| b.windows(2))
        .map(|w| seg_dist(q, &w[0], &w[1]))
        .fold(f64::INFINITY, f64::min);
    let inside_loop = |poly: &Vec<(f64, f64)>| {
        let b = poly_box(&[poly]);
        let lo = b.map_or((0.0, 0.0), |b| (b.0 .0, b.1 .0));
        let uv = (wrap_into(pr.uv.0, lo.0 - 1e-9, pu), wrap_into(pr.uv.1, lo.1 - 1e-9, pv));
        inside_polygon(poly, uv)
    };
    let in_outer = match &t.outer {
        Some(o) if o.len() >= 3 => inside_loop(o),
        _ => true,
    };
    let in_hole = t.inner.iter().any(|h| h.len() >= 3 && inside_loop(h));
    let mut inside = (in_outer && !in_hole) || bnd <= boundary_tol;
    if !inside {
        // at a degenerate row (a pole) every u (or v) of the row is the same
        // point: the projection's parameter along it is arbitrary, so the
        // point is on the face when any parameter of the row that gives the
        // same point lies inside the trims
        let ((u0, u1), (v0, v1)) = t.bx;
        let same = |uv: (f64, f64)| (f.surface.eval(uv.0, uv.1) - q).norm() <= 1e-9 * (1.0 + q.norm());
        let inside_at = |uv: (f64, f64)| {
            let at = |poly: &Vec<(f64, f64)>| {
                let b = poly_box(&[poly]);
                let lo = b.map_or((0.0, 0.0), |b| (b.0 .0, b.1 .0));
                inside_polygon(
                    poly,
                    (wrap_into(uv.0, lo.0 - 1e-9, pu), wrap_into(uv.1, lo.1 - 1e-9, pv)),
                )
            };
            let outer = match &t.outer {
                Some(o) if o.len() >= 3 => at(o),
                _ => true,
            };
            outer && !t.inner.iter().any(|h| h.len() >= 3 && at(h))
        };
        inside = (0..=64).any(|k| {
            let s = k as f64 / 64.0;
            let along_u = (u0 + s * (u1 - u0), pr.uv.1);
            let along_v = (pr.uv.0, v0 + s * (v1 - v0));
            (same(along_u) && inside_at(along_u)) || (same(along_v) && inside_at(along_v))
        });
    }
    Hit {
        surface_distance: pr.distance,
        inside,
        boundary_distance: bnd,
    }
}

fn seg_dist(q: &Vec3, a: &Vec3, b: &Vec3) -> f64 {
    let d = b - a;
    let l = d.norm_squared();
    let t = if l > 0.0 {
        ((q - a).dot(&d) / l).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + d * t - q).norm()
}

/// Whether a face's 3-D box contains `q`.
pub fn near(t: &FaceTrim, q: &Vec3) -> bool {
    (0..3).all(|k| q[k] >= t.bbox.0[k] && q[k] <= t.bbox.1[k])
}

/// Surface kind names of the model, for messages.
pub fn surface_name(s: &Surface) -> &'static str {
    s.type_name()
}

/// PG-GUAS Table I patch (see `extrack::geom::fixtures::table1_patch`).
pub fn table1() -> extrack::geom::NurbsSurface {
    extrack::geom::fixtures::table1_patch()
}

/// NURBS ellipsoid (see `extrack::geom::fixtures::ellipsoid`).
pub fn ellipsoid(a: f64, b: f64, c: f64, seam_x: f64) -> extrack::geom::NurbsSurface {
    extrack::geom::fixtures::ellipsoid(a, b, c, seam_x)
}

pub mod band;
pub mod checks;
pub mod pairs;
pub mod points;
pub mod scene_fixture;
