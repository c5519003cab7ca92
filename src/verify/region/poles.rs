//! The ends of traced 3-D curves that lie on a pole of the surface (a side
//! collapsed to one 3-D point): [`Region::pole_ends`].

use super::{Node, Region};

impl Region<'_> {
    /// The ends of a traced 3-D curve (its `nodes`, from `x = 0` to `x = 1`)
    /// that lie on a pole of the surface (a collapsed side whose points are
    /// all one 3-D point, not periodic): the projection of the pole's point
    /// leaves the coordinate along the pole line undefined (it keeps the
    /// previous node's), so each such end takes the curve's own limit there,
    /// extrapolated from its end interval's three Gauss nodes (and so does
    /// `db/dx` at any end on a pole, where the least squares are singular).
    /// The stretch along the pole line between two curves then shows in
    /// `(a, b)`, where the area integrates it ([`area`](super::area)) and the polygon of
    /// the point-in-face test follows it.
    pub(super) fn pole_ends(&self, nodes: &mut [Node]) {
        let n = nodes.len();
        if n < 5 {
            return;
        }
        for (end, inner) in [(0, [1, 2, 3]), (n - 1, [n - 4, n - 3, n - 2])] {
            let at = nodes[end];
            let free = self.collapsed(at.ab);
            if !(free[0] || free[1]) || inner.iter().any(|&i| nodes[i].wg == 0.0) {
                continue;
            }
            // Lagrange through the three Gauss nodes, at the end's x
            let g = inner.map(|i| nodes[i]);
            let lagrange = |y: &dyn Fn(&Node) -> f64| -> f64 {
                (0..3)
                    .map(|i| {
                        let w: f64 = (0..3)
                            .filter(|&j| j != i)
                            .map(|j| (at.x - g[j].x) / (g[i].x - g[j].x))
                            .product();
                        w * y(&g[i])
                    })
                    .sum()
            };
            // `db` by least squares is singular at the pole (|S_a × S_b| = 0):
            // the curve's own limit
            let db = lagrange(&|nd: &Node| nd.db);
            if db.is_finite() {
                nodes[end].db = db;
                nodes[end].db_before = db;
            }
            for k in 0..2 {
                if !free[k] || self.period[k].is_some() {
                    continue;
                }
                let lim = lagrange(&|nd: &Node| nd.ab[k]);
                let mut ab = at.ab;
                ab[k] = lim;
                // the same 3-D point: the pole line, not a point where a
                // derivative vanishes alone
                let gap = |ab: [f64; 2]| {
                    let (u, v) = self.to_uv(ab);
                    (self.face.surface.eval(u, v) - at.p).norm()
                };
                if lim.is_finite() && gap(ab) <= gap(at.ab) + 1e-9 * (1.0 + at.p.norm()) {
                    nodes[end].ab = ab;
                }
            }
        }
    }
}
