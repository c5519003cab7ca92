//! Content validation of a scene (step 3 of the [module docs](super)):
//! every record's enum codes, reserved fields, indices, ranges, sizes,
//! ownership and floats, on a view whose layout is already valid.

use super::{sub, SceneView};
use crate::geom::MAX_DEGREE;
use crate::scene::data::{BodyKind, Boundary, ConvexityClass, EdgeKind, SourceKind};
use crate::scene::records::*;
use crate::scene::SceneError;
use bytemuck::Zeroable;

/// The record checks of one view.
pub(super) struct Checker<'v, 'a> {
    pub(super) v: &'v SceneView<'a>,
}

fn finite(xs: &[f64]) -> bool {
    xs.iter().all(|x| x.is_finite())
}

impl Checker<'_, '_> {
    fn span<'p, T>(
        &self,
        pool: &'p [T],
        s: Span,
        what: &'static str,
        index: usize,
        target: &'static str,
    ) -> Result<&'p [T], SceneError> {
        s.range().and_then(|r| pool.get(r)).ok_or(SceneError::Range {
            what,
            index,
            first: s.first,
            count: s.count,
            target,
            len: pool.len(),
        })
    }

    fn index(
        &self,
        value: u32,
        len: usize,
        what: &'static str,
        index: usize,
        target: &'static str,
    ) -> Result<(), SceneError> {
        if (value as usize) < len {
            Ok(())
        } else {
            Err(SceneError::Index {
                what,
                index,
                value,
                target,
                len,
            })
        }
    }

    fn string(&self, s: StrRef, what: &'static str, index: usize) -> Result<(), SceneError> {
        let bytes = self.span(self.v.strings, Span::new(s.offset, s.len), what, index, "strings")?;
        std::str::from_utf8(bytes).map(|_| ()).map_err(|_| SceneError::Invalid {
            what,
            index,
            reason: "string is not valid UTF-8".into(),
        })
    }

    fn zero(&self, value: u32, what: &'static str, index: usize) -> Result<(), SceneError> {
        if value == 0 {
            Ok(())
        } else {
            Err(SceneError::Reserved {
                what: format!("{what} {index}"),
                value: value as u64,
            })
        }
    }

    fn invalid(what: &'static str, index: usize, reason: impl Into<String>) -> SceneError {
        SceneError::Invalid {
            what,
            index,
            reason: reason.into(),
        }
    }

    fn bbox(&self, b: &Aabb, what: &'static str, index: usize) -> Result<(), SceneError> {
        if !finite(&b.min) || !finite(&b.max) {
            return Err(SceneError::NonFinite { what, index });
        }
        if (0..3).any(|k| b.min[k] > b.max[k]) {
            return Err(Self::invalid(what, index, "bounding box min > max"));
        }
        Ok(())
    }

    fn cone(&self, c: &NormalCone, what: &'static str, index: usize) -> Result<(), SceneError> {
        if !finite(&c.axis) || !c.half_angle.is_finite() {
            return Err(SceneError::NonFinite { what, index });
        }
        let n = (c.axis[0] * c.axis[0] + c.axis[1] * c.axis[1] + c.axis[2] * c.axis[2]).sqrt();
        if (n - 1.0).abs() > 1e-6 {
            return Err(Self::invalid(
                what,
                index,
                format!("normal-cone axis has length {n}, not 1"),
            ));
        }
        if !(0.0..=std::f64::consts::PI).contains(&c.half_angle) {
            return Err(Self::invalid(what, index, "normal-cone half-angle outside [0, π]"));
        }
        Ok(())
    }

    fn hpoints(&self, pts: &[[f64; 4]], what: &'static str, index: usize) -> Result<(), SceneError> {
        for p in pts {
            if !finite(p) {
                return Err(SceneError::NonFinite { what, index });
            }
            if p[3] <= 0.0 {
                return Err(Self::invalid(what, index, "control-point weight not positive"));
            }
        }
        Ok(())
    }

    fn degree(&self, d: u32, what: &'static str, index: usize) -> Result<(), SceneError> {
        if d == 0 || d as usize > MAX_DEGREE {
            return Err(Self::invalid(
                what,
                index,
                format!("degree {d} outside 1..={MAX_DEGREE}"),
            ));
        }
        Ok(())
    }

    /// A boundary of `piece`.
    fn boundary(
        &self,
        b: &BoundaryRecord,
        piece: &PieceRecord,
        what: &'static str,
        index: usize,
    ) -> Result<(), SceneError> {
        self.zero(b.reserved, what, index)?;
        let Some(bd) = Boundary::from_codes(b.side, b.trim_loop, b.trim_curve) else {
            return Err(Self::invalid(what, index, format!("bad boundary side code {}", b.side)));
        };
        if let Boundary::Trim { trim_loop, curve } = bd {
            let loops = sub(self.v.trim_loops, piece.trim_loops);
            let Some(lp) = loops.get(trim_loop as usize) else {
                return Err(Self::invalid(
                    what,
                    index,
                    format!("trim loop {trim_loop} not in the piece"),
                ));
            };
            if curve >= lp.curves.count {
                return Err(Self::invalid(
                    what,
                    index,
                    format!("trim curve {curve} not in loop {trim_loop}"),
                ));
            }
        }
        Ok(())
    }

    /// A valid feature of body `body`.
    fn feature(&self, f: &FeatureRecord, body: u32, what: &'static str, index: usize) -> Result<(), SceneError> {
        let v = self.v;
        let owner = match f.kind {
            FEATURE_PIECE => {
                self.index(f.index, v.pieces.len(), what, index, "pieces")?;
                v.pieces.get(f.index as usize).map(|p| p.body)
            }
            FEATURE_EDGE => {
                self.index(f.index, v.edges.len(), what, index, "edges")?;
                v.edges.get(f.index as usize).map(|e| e.body)
            }
            FEATURE_VERTEX => {
                self.index(f.index, v.vertices.len(), what, index, "vertices")?;
                v.vertices.get(f.index as usize).map(|x| x.body)
            }
            k => return Err(Self::invalid(what, index, format!("bad feature kind {k}"))),
        };
        self.same_body(owner, body, what, index)
    }

    /// Features only refer to features of their own body.
    fn same_body(&self, owner: Option<u32>, body: u32, what: &'static str, index: usize) -> Result<(), SceneError> {
        match owner {
            Some(b) if b == body => Ok(()),
            _ => Err(Self::invalid(
                what,
                index,
                format!("refers to a feature outside its body {body}"),
            )),
        }
    }

    /// `index` lies in `bodies[body].<field>`.
    fn owned(
        &self,
        body: u32,
        index: usize,
        field: fn(&BodyRecord) -> Span,
        what: &'static str,
    ) -> Result<(), SceneError> {
        self.index(body, self.v.bodies.len(), what, index, "bodies")?;
        let span = self.v.bodies.get(body as usize).map(field).unwrap_or_default();
        if span.range().is_some_and(|r| r.contains(&index)) {
            Ok(())
        } else {
            Err(Self::invalid(
                what,
                index,
                format!("not in the range of its body {body}"),
            ))
        }
    }

    /// Checks every record (the first failure is returned).
    /// The self-check sections (optional since 2.2): known bits, body
    /// indices in range (`NONE` allowed for a face of no body), body records
    /// in strictly increasing body order, measures `>= 0`, `+∞` or NaN.
    fn checks(&self) -> Result<(), SceneError> {
        let v = self.v;
        for (i, c) in v.face_checks.iter().enumerate() {
            const W: &str = "face check";
            if c.body != NONE {
                self.index(c.body, v.bodies.len(), W, i, "bodies")?;
            }
            if c.failed & !FACE_CHECK_BITS != 0 {
                return Err(Self::invalid(W, i, format!("unknown failure bits {:#x}", c.failed)));
            }
            let measures = [c.model_area, c.piece_area, c.worst_containment, c.worst_boundary];
            if measures.iter().any(|&x| x < 0.0) {
                return Err(Self::invalid(W, i, "negative measure"));
            }
        }
        let mut previous: Option<u32> = None;
        for (i, c) in v.body_checks.iter().enumerate() {
            const W: &str = "body check";
            self.index(c.body, v.bodies.len(), W, i, "bodies")?;
            if c.failed & !BODY_CHECK_BITS != 0 {
                return Err(Self::invalid(W, i, format!("unknown failure bits {:#x}", c.failed)));
            }
            if previous.is_some_and(|p| c.body <= p) {
                return Err(Self::invalid(W, i, "body records not in increasing body order"));
            }
            previous = Some(c.body);
        }
        Ok(())
    }

    pub(super) fn run(&self) -> Result<(), SceneError> {
        let v = self.v;
        // meta and strings
        let metas: usize = v
            .table
            .iter()
            .find(|e| e.id == SectionId::Meta as u32)
            .map_or(0, |e| e.record_count as usize);
        if metas != 1 {
            return Err(Self::invalid("meta section", 0, format!("{metas} records, expected 1")));
        }
        let m = &v.meta;
        self.zero(m.reserved, "meta", 0)?;
        self.string(m.source_name, "meta source name", 0)?;
        self.string(m.producer, "meta producer", 0)?;
        if SourceKind::from_code(m.source_format).is_none() {
            return Err(Self::invalid(
                "meta",
                0,
                format!("bad source format {}", m.source_format),
            ));
        }
        self.span(v.str_refs, m.warnings, "meta warnings", 0, "str_refs")?;
        self.span(v.tolerances, m.tolerances, "meta tolerances", 0, "tolerances")?;
        for (i, s) in v.str_refs.iter().enumerate() {
            self.string(*s, "str_ref", i)?;
        }
        for (i, t) in v.tolerances.iter().enumerate() {
            self.string(t.name, "tolerance name", i)?;
            if !t.value.is_finite() {
                return Err(SceneError::NonFinite {
                    what: "tolerance",
                    index: i,
                });
            }
        }
        // bodies
        for (i, b) in v.bodies.iter().enumerate() {
            const W: &str = "body";
            self.string(b.name, "body name", i)?;
            if BodyKind::from_code(b.kind).is_none() {
                return Err(Self::invalid(W, i, format!("bad body kind {}", b.kind)));
            }
            self.zero(b.reserved, W, i)?;
            self.zero(b.reserved2, W, i)?;
            if !finite(&b.placement) {
                return Err(SceneError::NonFinite {
                    what: "body placement",
                    index: i,
                });
            }
            self.bbox(&b.bbox, W, i)?;
            self.span(v.pieces, b.pieces, "body pieces", i, "pieces")?;
            self.span(v.edges, b.edges, "body edges", i, "edges")?;
            self.span(v.vertices, b.vertices, "body vertices", i, "vertices")?;
            self.span(v.bvh_nodes, b.bvh, "body bvh", i, "bvh_nodes")?;
            // the body's ranges hold only its own features (so bodies never share one)
            let mine = sub(v.pieces, b.pieces).iter().all(|p| p.body == i as u32)
                && sub(v.edges, b.edges).iter().all(|e| e.body == i as u32)
                && sub(v.vertices, b.vertices).iter().all(|x| x.body == i as u32);
            if !mine {
                return Err(Self::invalid(W, i, "its ranges hold features of another body"));
            }
            let root_ok = if b.bvh.count == 0 {
                b.bvh_root == NONE
            } else {
                b.bvh.range().is_some_and(|r| r.contains(&(b.bvh_root as usize)))
            };
            if !root_ok {
                return Err(Self::invalid(
                    W,
                    i,
                    format!("BVH root {} not in its node range", b.bvh_root),
                ));
            }
        }
        // trim loops and curves (all records)
        for (i, l) in v.trim_loops.iter().enumerate() {
            self.span(v.trim_curves, l.curves, "trim loop curves", i, "trim_curves")?;
            if l.flags & !LOOP_OUTER != 0 {
                return Err(SceneError::Reserved {
                    what: format!("trim loop {i} flags"),
                    value: l.flags as u64,
                });
            }
            self.zero(l.reserved, "trim loop", i)?;
        }
        for (i, c) in v.trim_curves.iter().enumerate() {
            const W: &str = "trim curve";
            let pts = self.span(v.trim_points, c.points, "trim curve points", i, "trim_points")?;
            if pts.iter().any(|p| !finite(p)) {
                return Err(SceneError::NonFinite { what: W, index: i });
            }
            match c.kind {
                TRIM_POLYLINE => {
                    if c.degree != 1 || pts.len() < 2 || pts.iter().any(|p| p[2] != 1.0) {
                        return Err(Self::invalid(W, i, "polyline needs degree 1, ≥ 2 points, weights 1"));
                    }
                }
                TRIM_BEZIER => {
                    self.degree(c.degree, W, i)?;
                    if pts.len() != c.degree as usize + 1 || pts.iter().any(|p| p[2] <= 0.0) {
                        return Err(Self::invalid(
                            W,
                            i,
                            "Bézier needs degree + 1 points with positive weights",
                        ));
                    }
                }
                k => return Err(Self::invalid(W, i, format!("bad trim curve kind {k}"))),
            }
        }
        // pieces
        for (i, p) in v.pieces.iter().enumerate() {
            const W: &str = "piece";
            self.owned(p.body, i, |b| b.pieces, W)?;
            if ConvexityClass::from_code(p.class).is_none() {
                return Err(Self::invalid(W, i, format!("bad convexity class {}", p.class)));
            }
            self.degree(p.degree_u, W, i)?;
            self.degree(p.degree_v, W, i)?;
            let poles = self.span(v.poles, p.poles, "piece poles", i, "poles")?;
            let n = (p.degree_u as usize + 1) * (p.degree_v as usize + 1);
            if poles.len() != n {
                return Err(Self::invalid(
                    W,
                    i,
                    format!("{} poles for degree {}×{}", poles.len(), p.degree_u, p.degree_v),
                ));
            }
            self.hpoints(poles, "piece poles", i)?;
            if p.flags & !PIECE_FLAGS_ALL != 0 {
                return Err(SceneError::Reserved {
                    what: format!("piece {i} flags"),
                    value: p.flags as u64,
                });
            }
            self.zero(p.reserved, W, i)?;
            if !finite(&p.domain) {
                return Err(SceneError::NonFinite {
                    what: "piece domain",
                    index: i,
                });
            }
            if !(p.domain[0] < p.domain[1] && p.domain[2] < p.domain[3]) {
                return Err(Self::invalid(
                    W,
                    i,
                    "empty parameter sub-rectangle (need u0 < u1, v0 < v1)",
                ));
            }
            self.cone(&p.cone, W, i)?;
            self.bbox(&p.bbox, W, i)?;
            self.span(v.trim_loops, p.trim_loops, "piece trim loops", i, "trim_loops")?;
            for a in self.span(v.adjacency, p.adjacency, "piece adjacency", i, "adjacency")? {
                self.boundary(&a.boundary, p, "piece adjacency", i)?;
                self.feature(&a.feature, p.body, "piece adjacency", i)?;
            }
        }
        // surfaces and piece origins (optional sections of 2.1)
        for (i, f) in v.surfaces.iter().enumerate() {
            const W: &str = "surface";
            self.degree(f.degree_u, W, i)?;
            self.degree(f.degree_v, W, i)?;
            let poles = self.span(v.poles, f.poles, "surface poles", i, "poles")?;
            let (nu, nv) = (f.count_u as u64, f.count_v as u64);
            if nu <= f.degree_u as u64 || nv <= f.degree_v as u64 || nu * nv != poles.len() as u64 {
                return Err(Self::invalid(
                    W,
                    i,
                    format!(
                        "{} poles for {}×{} poles of degree {}×{}",
                        poles.len(),
                        nu,
                        nv,
                        f.degree_u,
                        f.degree_v
                    ),
                ));
            }
            self.hpoints(poles, "surface poles", i)?;
            for (knots, n, p) in [(f.knots_u, nu, f.degree_u), (f.knots_v, nv, f.degree_v)] {
                let k = self.span(v.knots, knots, "surface knots", i, "knots")?;
                if !finite(k) {
                    return Err(SceneError::NonFinite {
                        what: "surface knots",
                        index: i,
                    });
                }
                let (n, p) = (n as usize, p as usize);
                let ok = k.len() == n + p + 1
                    && k.windows(2).all(|w| w[0] <= w[1])
                    && k.get(p).zip(k.get(n)).is_some_and(|(a, b)| a < b);
                if !ok {
                    return Err(Self::invalid(
                        W,
                        i,
                        "knot count is not poles + degree + 1, knots decrease, or the domain is empty",
                    ));
                }
            }
        }
        if !v.piece_origins.is_empty() && v.piece_origins.len() != v.pieces.len() {
            return Err(Self::invalid(
                "piece origins",
                0,
                format!("{} records for {} pieces", v.piece_origins.len(), v.pieces.len()),
            ));
        }
        for (i, o) in v.piece_origins.iter().enumerate() {
            const W: &str = "piece origin";
            self.zero(o.reserved, W, i)?;
            if o.surface != NONE {
                self.index(o.surface, v.surfaces.len(), W, i, "surfaces")?;
            }
            if !finite(&o.rect) {
                return Err(SceneError::NonFinite { what: W, index: i });
            }
            let r = o.rect;
            if !(0.0 <= r[0] && r[0] < r[1] && r[1] <= 1.0 && 0.0 <= r[2] && r[2] < r[3] && r[3] <= 1.0) {
                return Err(Self::invalid(W, i, "rectangle not inside [0,1]² or empty"));
            }
        }
        self.checks()?;
        // edges
        for (i, e) in v.edges.iter().enumerate() {
            const W: &str = "edge";
            if EdgeKind::from_code(e.kind).is_none() {
                return Err(Self::invalid(W, i, format!("bad edge kind {}", e.kind)));
            }
            self.zero(e.reserved, W, i)?;
            self.owned(e.body, i, |b| b.edges, W)?;
            self.degree(e.curve_degree, W, i)?;
            let poles = self.span(v.poles, e.poles, "edge poles", i, "poles")?;
            let knots = self.span(v.knots, e.knots, "edge knots", i, "knots")?;
            let p = e.curve_degree as usize;
            if poles.len() < p + 1 || knots.len() != poles.len() + p + 1 {
                return Err(Self::invalid(
                    W,
                    i,
                    format!("{} poles and {} knots for degree {p}", poles.len(), knots.len()),
                ));
            }
            self.hpoints(poles, "edge poles", i)?;
            if !finite(knots) {
                return Err(SceneError::NonFinite {
                    what: "edge knots",
                    index: i,
                });
            }
            let domain_ok = knots.windows(2).all(|w| w[0] <= w[1])
                && knots.get(p).zip(knots.get(poles.len())).is_some_and(|(a, b)| a < b);
            if !domain_ok {
                return Err(Self::invalid(W, i, "knots decreasing or empty domain"));
            }
            for vtx in e.vertices {
                if vtx != NONE {
                    self.index(vtx, v.vertices.len(), "edge vertex", i, "vertices")?;
                    self.same_body(v.vertices.get(vtx as usize).map(|x| x.body), e.body, "edge vertex", i)?;
                }
            }
            let samples = self.span(v.edge_samples, e.samples, "edge samples", i, "edge_samples")?;
            let mut last = 0.0;
            for s in samples {
                let all = [s.t]
                    .iter()
                    .chain(&s.normal_a)
                    .chain(&s.normal_b)
                    .all(|x| x.is_finite());
                if !all {
                    return Err(SceneError::NonFinite {
                        what: "edge sample",
                        index: i,
                    });
                }
                if !(last..=1.0).contains(&s.t) {
                    return Err(Self::invalid(W, i, "sample parameters not increasing in [0,1]"));
                }
                last = s.t;
            }
            let kind = EdgeKind::from_code(e.kind).unwrap_or_default();
            for (k, s) in e.sides.iter().enumerate() {
                if !(finite(&s.uv_start) && finite(&s.uv_end)) {
                    return Err(SceneError::NonFinite {
                        what: "edge side map",
                        index: i,
                    });
                }
                if !matches!(s.map, MAP_LINEAR | MAP_CURVE | MAP_CURVE_REVERSED) {
                    return Err(Self::invalid(W, i, format!("bad parameter map code {}", s.map)));
                }
                if s.piece == NONE {
                    if k == 0 || kind != EdgeKind::Boundary {
                        return Err(Self::invalid(W, i, format!("side {k} has no piece")));
                    }
                    continue;
                }
                if k == 1 && kind == EdgeKind::Boundary {
                    return Err(Self::invalid(W, i, "boundary edge with a second piece"));
                }
                self.index(s.piece, v.pieces.len(), "edge side piece", i, "pieces")?;
                self.same_body(
                    v.pieces.get(s.piece as usize).map(|p| p.body),
                    e.body,
                    "edge side piece",
                    i,
                )?;
                let piece = v
                    .pieces
                    .get(s.piece as usize)
                    .copied()
                    .unwrap_or_else(PieceRecord::zeroed);
                self.boundary(&s.boundary, &piece, "edge side", i)?;
                if s.map != MAP_LINEAR && s.boundary.side != SIDE_TRIM {
                    return Err(Self::invalid(
                        W,
                        i,
                        "curve parameter map on a side that is not a trim curve",
                    ));
                }
            }
        }
        // vertices
        for (i, x) in v.vertices.iter().enumerate() {
            const W: &str = "vertex";
            self.owned(x.body, i, |b| b.vertices, W)?;
            self.zero(x.reserved, W, i)?;
            if !finite(&x.point) {
                return Err(SceneError::NonFinite { what: W, index: i });
            }
            self.cone(&x.cone, W, i)?;
            for &e in self.span(v.indices, x.edges, "vertex edges", i, "indices")? {
                self.index(e, v.edges.len(), "vertex edge", i, "edges")?;
                self.same_body(v.edges.get(e as usize).map(|e| e.body), x.body, "vertex edge", i)?;
            }
            for &p in self.span(v.indices, x.pieces, "vertex pieces", i, "indices")? {
                self.index(p, v.pieces.len(), "vertex piece", i, "pieces")?;
                self.same_body(v.pieces.get(p as usize).map(|p| p.body), x.body, "vertex piece", i)?;
            }
        }
        // BVH nodes: every node belongs to the body whose range holds it
        let mut owner = vec![NONE; v.bvh_nodes.len()];
        for (bi, b) in v.bodies.iter().enumerate() {
            for slot in owner.get_mut(b.bvh.range().unwrap_or(0..0)).unwrap_or(&mut []) {
                if *slot != NONE {
                    return Err(Self::invalid("body", bi, "BVH node range overlaps another body's"));
                }
                *slot = bi as u32;
            }
        }
        for (i, n) in v.bvh_nodes.iter().enumerate() {
            const W: &str = "bvh node";
            self.bbox(&n.bbox, W, i)?;
            self.zero(n.reserved, W, i)?;
            let Some(body) = v.bodies.get(owner.get(i).copied().unwrap_or(NONE) as usize) else {
                return Err(Self::invalid(W, i, "not in any body's node range"));
            };
            match n.kind {
                BVH_INTERIOR => {
                    let nodes = body.bvh.range().unwrap_or(0..0);
                    for c in [n.a, n.b] {
                        if (c as usize) <= i || !nodes.contains(&(c as usize)) {
                            return Err(Self::invalid(W, i, format!("child {c} not after the node in its body")));
                        }
                    }
                }
                BVH_LEAF => {
                    let pieces = body.pieces.range().unwrap_or(0..0);
                    for &p in self.span(v.indices, Span::new(n.a, n.b), "bvh leaf pieces", i, "indices")? {
                        if !pieces.contains(&(p as usize)) {
                            return Err(Self::invalid(W, i, format!("leaf piece {p} not in its body")));
                        }
                    }
                }
                k => return Err(Self::invalid(W, i, format!("bad node kind {k}"))),
            }
        }
        Ok(())
    }
}
