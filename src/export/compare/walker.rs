//! The state of the parallel walk over two Models: the one-to-one
//! correspondences of faces, edges and vertices built as the walk goes, the
//! differences found, and the value-by-value comparisons (reals, vectors,
//! frames, poles and weights) within `tol · max(1, |x|, |y|)`.

use super::{CompareOptions, Comparison, Difference};
use crate::geom::Frame;
use crate::import::model::Model;

/// The comparison in progress: both Models, the options, the result so far
/// and the correspondences (`*_map`: `a` → `b`, `*_rev`: `b` → `a`).
pub(super) struct Cmp<'a> {
    pub(super) a: &'a Model,
    pub(super) b: &'a Model,
    pub(super) o: CompareOptions,
    pub(super) out: Comparison,
    pub(super) face_map: Vec<Option<usize>>,
    pub(super) face_rev: Vec<Option<usize>>,
    pub(super) edge_map: Vec<Option<usize>>,
    pub(super) edge_rev: Vec<Option<usize>>,
    pub(super) vert_map: Vec<Option<usize>>,
    pub(super) vert_rev: Vec<Option<usize>>,
}

/// Pairs `i ↔ j` in a one-to-one map; false when either side is already paired elsewhere.
pub(super) fn pair(map: &mut [Option<usize>], rev: &mut [Option<usize>], i: usize, j: usize) -> Result<bool, String> {
    let (Some(mi), Some(rj)) = (map.get(i).copied(), rev.get(j).copied()) else {
        return Err(format!("index {i} / {j} out of range"));
    };
    match (mi, rj) {
        (None, None) => {
            map[i] = Some(j);
            rev[j] = Some(i);
            Ok(true)
        }
        (Some(x), Some(y)) if x == j && y == i => Ok(false),
        (x, y) => Err(format!(
            "a {i} ↔ b {j}, but a {i} already ↔ b {x:?} and b {j} ↔ a {y:?}"
        )),
    }
}

impl<'a> Cmp<'a> {
    pub(super) fn diff(&mut self, path: &str, what: impl Into<String>) {
        self.out.differences.push(Difference {
            path: path.to_string(),
            what: what.into(),
        });
    }

    pub(super) fn real(&mut self, path: &str, name: &str, x: f64, y: f64) {
        let d = (x - y).abs();
        let scale = 1f64.max(x.abs()).max(y.abs());
        if d <= self.o.tol * scale || (x == y) {
            if d.is_finite() {
                self.out.max_deviation = self.out.max_deviation.max(d / scale);
            }
        } else {
            self.diff(path, format!("{name} {x:?} vs {y:?} (Δ {d:e})"));
        }
    }

    pub(super) fn vec(&mut self, path: &str, name: &str, x: &crate::geom::Vec3, y: &crate::geom::Vec3) {
        let d = (x - y).norm();
        let scale = 1f64.max(x.norm()).max(y.norm());
        if d <= self.o.tol * scale {
            if d.is_finite() {
                self.out.max_deviation = self.out.max_deviation.max(d / scale);
            }
        } else {
            self.diff(
                path,
                format!(
                    "{name} [{}, {}, {}] vs [{}, {}, {}] (Δ {d:e})",
                    x.x, x.y, x.z, y.x, y.y, y.z
                ),
            );
        }
    }

    pub(super) fn reals(&mut self, path: &str, name: &str, x: &[f64], y: &[f64]) {
        if x.len() != y.len() {
            self.diff(path, format!("{name} count {} vs {}", x.len(), y.len()));
            return;
        }
        let n = self.out.differences.len();
        for (k, (p, q)) in x.iter().zip(y).enumerate() {
            self.real(path, &format!("{name}[{k}]"), *p, *q);
            if self.out.differences.len() > n + 3 {
                break;
            }
        }
    }

    pub(super) fn frame(&mut self, path: &str, x: &Frame, y: &Frame) {
        self.vec(path, "origin", &x.origin, &y.origin);
        self.vec(path, "x axis", &x.x, &y.x);
        self.vec(path, "z axis", &x.z, &y.z);
    }

    pub(super) fn poles(&mut self, path: &str, p: &[[f64; 4]], q: &[[f64; 4]]) {
        if p.len() != q.len() {
            self.diff(path, format!("pole count {} vs {}", p.len(), q.len()));
            return;
        }
        let n = self.out.differences.len();
        for (k, (x, y)) in p.iter().zip(q).enumerate() {
            // Euclidean poles and weights
            let ex = crate::geom::Vec3::new(x[0] / x[3], x[1] / x[3], x[2] / x[3]);
            let ey = crate::geom::Vec3::new(y[0] / y[3], y[1] / y[3], y[2] / y[3]);
            self.vec(path, &format!("pole {k}"), &ex, &ey);
            self.real(path, &format!("weight {k}"), x[3], y[3]);
            if self.out.differences.len() > n + 3 {
                break;
            }
        }
    }
}

/// A walker over `m` against itself with empty correspondences (unit tests
/// of single geometry comparisons).
#[cfg(test)]
pub(super) fn cmp<'m>(m: &'m Model, relax: super::Relaxations) -> Cmp<'m> {
    Cmp {
        a: m,
        b: m,
        o: CompareOptions { tol: 1e-12, relax },
        out: Comparison::default(),
        face_map: Vec::new(),
        face_rev: Vec::new(),
        edge_map: Vec::new(),
        edge_rev: Vec::new(),
        vert_map: Vec::new(),
        vert_rev: Vec::new(),
    }
}
