//! Open CASCADE's point-query answers (`*.closest.json`, written by
//! `../shared/oracle/occt_closest.py`) for the point–body tests, and the
//! greedy path through them that the coherent-tracker tests follow.
#![allow(dead_code)]

use extrack::geom::Vec3;

/// One oracle query point and Open CASCADE's answer.
#[derive(Clone, Copy)]
pub struct OraclePoint {
    /// Query point.
    pub q: Vec3,
    /// Minimum distance.
    pub dist: f64,
    /// Signed distance (`None` for open shapes).
    pub sdist: Option<f64>,
    /// Closest point (`None` where the oracle file was corrected).
    pub closest: Option<Vec3>,
    /// True when the answer is unique (`nsol` = 1).
    pub unique: bool,
}

/// The points of a parsed `*.closest.json`.
pub fn oracle_points(js: &serde_json::Value) -> Vec<OraclePoint> {
    let v3 = |v: &serde_json::Value| {
        v.as_array()
            .map(|a| Vec3::new(a[0].as_f64().unwrap(), a[1].as_f64().unwrap(), a[2].as_f64().unwrap()))
    };
    js["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| OraclePoint {
            q: v3(&p["q"]).unwrap(),
            dist: p["dist"].as_f64().unwrap(),
            sdist: p["sdist"].as_f64(),
            closest: v3(&p["closest"]),
            unique: p["nsol"].as_u64() == Some(1),
        })
        .collect()
}

/// The points in greedy nearest-neighbour order from the first: a path
/// through them for a coherent tracker.
pub fn greedy_path(mut pts: Vec<OraclePoint>) -> Vec<OraclePoint> {
    if pts.is_empty() {
        return pts;
    }
    let mut path = vec![pts.swap_remove(0)];
    while !pts.is_empty() {
        let last = path.last().unwrap().q;
        let k = (0..pts.len())
            .min_by(|&a, &b| (pts[a].q - last).norm().total_cmp(&(pts[b].q - last).norm()))
            .unwrap();
        path.push(pts.swap_remove(k));
    }
    path
}
