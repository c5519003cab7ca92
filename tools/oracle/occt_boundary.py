#!/usr/bin/env python3
"""Ground-truth closest points concentrated where errors hide: near edges,
trim boundaries, seams, poles, vertices and thin walls.

A variant of ../shared/oracle/occt_closest.py (same answers: the distance is
BRepExtrema_DistShapeShape(vertex, compound of the unique faces),
Extrema_ExtFlag_MIN, deflection 1e-9; the sign from BRepClass3d on the solids
or closed shells), with other query points and another default seed:

  en  35%  a point on a face's edge (the face surface evaluated at the edge's
           p-curve, so seam and degenerate (pole) edges count), moved along the
           surface normal by +/- d
  ei  20%  the same edge point moved *into* the face along the surface by e
           (checked inside the trim), then along the normal by +/- d
  eo  20%  the edge point moved *out of* the face along the surface by e (the
           surface's extension past the trim, where pieces must not reach),
           then along the normal by +/- d
  vx  10%  a vertex moved by d in a random direction
  fn  15%  a random point inside a face's trim moved along the normal by +/- d

d and e are log-uniform in [0.001, 5] mm. Edges are picked uniformly over the
edge uses of all faces (not by length), so short edges, small faces and thin
features get as many points as long ones.

Query points are rounded to 1e-6 mm before they are answered, so the file
holds the exact query. Output (one file per input, `--out-dir`):
`<name>.boundary.csv.zst`, zstd-compressed CSV with a `#` header line
(`file`, `seed`, `ocp`, `diag`, `max_tolerance`, `inside_basis`) and rows

    kind,x,y,z,dist,inside,support,face

inside = 1/0 ('' for open shapes, a point classified ON, or a file whose
classifier puts a far point inside: `inside_basis=unreliable`), support = f/e/v,
face = the file entity of Open CASCADE's answer face (STEP: rank of the
instance in the DATA section, as in occt_closest.py; IGES: DE number).

Usage (needs `pip install cadquery-ocp`):

    nice -n 10 python3 tools/oracle/occt_boundary.py FILE... --points 1000 --seed 7 \
        --out-dir fixtures/oracle_boundary [--skip-existing]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("EXTRACK_ORACLE_DIR", os.path.join(HERE, "..", "..", "..", "shared", "oracle"))
sys.path.insert(0, SHARED)

import occt_common as C  # noqa: E402
from occt_closest import ClosestOracle, FaceSampler  # noqa: E402
from OCP.BRep import BRep_Tool  # noqa: E402
from OCP.BRepAdaptor import BRepAdaptor_Curve2d, BRepAdaptor_Surface  # noqa: E402
from OCP.BRepLib import BRepLib  # noqa: E402
from OCP.IntTools import IntTools_FClass2d  # noqa: E402
from OCP.TopAbs import TopAbs_EDGE, TopAbs_IN, TopAbs_OUT, TopAbs_VERTEX  # noqa: E402
from OCP.TopExp import TopExp_Explorer  # noqa: E402
from OCP.TopoDS import TopoDS  # noqa: E402
from OCP.gp import gp_Pnt, gp_Pnt2d, gp_Vec, gp_Vec2d  # noqa: E402

KINDS = (("en", 0.35), ("ei", 0.20), ("eo", 0.20), ("vx", 0.10), ("fn", 0.15))
D_MIN, D_MAX = 1e-3, 5.0


def log_uniform(rng: random.Random) -> float:
    return math.exp(rng.uniform(math.log(D_MIN), math.log(D_MAX)))


class EdgeUse:
    """One edge of one face with its p-curve on that face."""

    def __init__(self, face, edge, surf, cls):
        self.face, self.edge, self.surf, self.cls = face, edge, surf, cls
        try:
            self.pcurve = BRepAdaptor_Curve2d(edge, face)
            self.t0, self.t1 = self.pcurve.FirstParameter(), self.pcurve.LastParameter()
        except Exception:  # no p-curve on this face
            self.pcurve, self.t0, self.t1 = None, math.nan, math.nan
        # the surface's own domain (BRepAdaptor_Surface's is the face's uv box)
        self.domain = BRep_Tool.Surface_s(face).Bounds()


class BoundarySampler:
    """Query points near the edges and vertices of a shape's faces."""

    def __init__(self, faces):
        self.faces = faces
        self.uses: list[EdgeUse] = []
        self.vertices = []
        for f in faces:
            BRepLib.BuildCurves3d_s(f)
            surf = BRepAdaptor_Surface(f)
            cls = IntTools_FClass2d(f, 1e-9)
            ex = TopExp_Explorer(f, TopAbs_EDGE)
            while ex.More():
                e = TopoDS.Edge(ex.Current())
                u = EdgeUse(f, e, surf, cls)
                if u.pcurve is not None:
                    self.uses.append(u)
                ex.Next()
            ex = TopExp_Explorer(f, TopAbs_VERTEX)
            while ex.More():
                p = BRep_Tool.Pnt_s(TopoDS.Vertex(ex.Current()))
                self.vertices.append((p.X(), p.Y(), p.Z()))
                ex.Next()
        self.face_sampler = FaceSampler(faces)

    @staticmethod
    def _frame(surf, u, v):
        p, du, dv = gp_Pnt(), gp_Vec(), gp_Vec()
        surf.D1(u, v, p, du, dv)
        n = du.Crossed(dv)
        return p, du, dv, n

    def edge_point(self, rng: random.Random, kind: str):
        """A point near an edge use: None when this try did not work out."""
        eu = self.uses[rng.randrange(len(self.uses))]
        if not (math.isfinite(eu.t0) and math.isfinite(eu.t1)):
            return None
        t = eu.t0 + (eu.t1 - eu.t0) * rng.random()
        uv, duv = gp_Pnt2d(), gp_Vec2d()
        eu.pcurve.D1(t, uv, duv)
        u, v = uv.X(), uv.Y()
        p, su, sv, n = self._frame(eu.surf, u, v)
        if kind != "en":
            # move across the edge along the surface: the uv direction normal
            # to the p-curve, scaled to a 3-D step e, to the side asked for
            e = log_uniform(rng)
            perp = (-duv.Y(), duv.X())
            step3 = gp_Vec(su.X() * perp[0] + sv.X() * perp[1],
                           su.Y() * perp[0] + sv.Y() * perp[1],
                           su.Z() * perp[0] + sv.Z() * perp[1]).Magnitude()
            if step3 < 1e-12:
                return None
            s = e / step3
            cand = []
            for sign in (1.0, -1.0):
                uu, vv = u + sign * s * perp[0], v + sign * s * perp[1]
                st = eu.cls.Perform(gp_Pnt2d(uu, vv))
                cand.append((st, uu, vv))
            want = TopAbs_IN if kind == "ei" else TopAbs_OUT
            ok = [c for c in cand if c[0] == want]
            if len(ok) != 1:
                return None
            _, u, v = ok[0]
            if kind == "eo":
                # stay on the surface's own domain (its natural extension)
                a0, a1, b0, b1 = eu.domain
                if not (eu.surf.IsUPeriodic() or a0 <= u <= a1) or not (eu.surf.IsVPeriodic() or b0 <= v <= b1):
                    return None
            p, su, sv, n = self._frame(eu.surf, u, v)
        m = n.Magnitude()
        if m < 1e-12:
            # a pole: any direction will do
            nx, ny, nz = _unit(rng)
        else:
            nx, ny, nz = n.X() / m, n.Y() / m, n.Z() / m
        d = log_uniform(rng) * rng.choice((-1.0, 1.0))
        return (p.X() + d * nx, p.Y() + d * ny, p.Z() + d * nz)

    def sample(self, rng: random.Random, kind: str):
        for _ in range(200):
            if kind in ("en", "ei", "eo") and self.uses:
                q = self.edge_point(rng, kind)
            elif kind == "vx" and self.vertices:
                c = self.vertices[rng.randrange(len(self.vertices))]
                r = log_uniform(rng)
                d = _unit(rng)
                q = tuple(c[k] + r * d[k] for k in range(3))
            else:
                s = self.face_sampler.sample(rng)
                if s is None:
                    continue
                _, p, nrm = s
                d = log_uniform(rng) * rng.choice((-1.0, 1.0))
                q = tuple(p[k] + d * nrm[k] for k in range(3))
            if q is not None and all(math.isfinite(x) for x in q):
                return tuple(round(x, 6) for x in q)
        return None


def _unit(rng: random.Random):
    while True:
        x, y, z = (rng.uniform(-1, 1) for _ in range(3))
        r = math.sqrt(x * x + y * y + z * z)
        if 1e-3 < r <= 1.0:
            return x / r, y / r, z / r


class LastClassification:
    """An inside tester that keeps its last answer ('in', 'on', 'out' or
    None), so that a point classified ON is told apart without classifying
    it twice."""

    def __init__(self, tester):
        self.tester, self.basis, self.last = tester, tester.basis, None

    def classify(self, xyz):
        self.last = self.tester.classify(xyz)
        return self.last


def max_tolerance(shape) -> float:
    t = 0.0
    for kind, fn in ((TopAbs_VERTEX, lambda s: BRep_Tool.Tolerance_s(TopoDS.Vertex(s))),
                     (TopAbs_EDGE, lambda s: BRep_Tool.Tolerance_s(TopoDS.Edge(s)))):
        for s in C.map_list(C.indexed_map(shape, kind)):
            t = max(t, fn(s))
    return t


def boundary_file(path: str, npoints: int, seed: int) -> tuple[str, int, float]:
    """The compressed-CSV text's lines for one file, its point count and seconds."""
    cf = C.CadFile(path)
    oracle = ClosestOracle(cf.shape)
    oracle.inside = LastClassification(oracle.inside)
    bb = C.bbox(cf.shape)
    # a classifier that puts a point a diagonal beyond the box inside (an
    # inverted solid: iges_c3d_bug33327's 40) gives no signs
    far = [bb["max"][k] + bb["diag"] for k in range(3)]
    if oracle.inside.classify(far) not in (None, "out"):
        oracle.inside.tester.classifiers = []
        oracle.inside.basis = "unreliable"
    ents = cf.face_entities(oracle.faces)
    sampler = BoundarySampler(oracle.faces)
    rng = random.Random(seed)
    counts = [int(round(npoints * f)) for _, f in KINDS]
    counts[0] += npoints - sum(counts)
    lines = [f"# file={os.path.basename(path)} seed={seed} ocp={C.ocp_version()} "
             f"diag={bb['diag']!r} max_tolerance={max_tolerance(cf.shape)!r} "
             f"inside_basis={oracle.inside.basis}",
             "kind,x,y,z,dist,inside,support,face"]
    t0 = time.perf_counter()
    n = 0
    # a kind that cannot be sampled (no trim to step out of on an untrimmed
    # face) hands its share to the edge-normal points
    plan = [kind for (kind, _), cnt in zip(KINDS, counts) for _ in range(cnt)]
    k = 0
    while k < len(plan):
        kind = plan[k]
        k += 1
        q = sampler.sample(rng, kind)
        if q is None:
            if kind != "en" and len(plan) < 2 * npoints:
                plan.append("en")
            continue
        try:
            r = oracle.query(q)
        except RuntimeError:  # BRepExtrema failed: another point of the kind
            if len(plan) < 2 * npoints:
                plan.append(kind)
            continue
        ins = "" if oracle.inside.last in (None, "on") else str(int(r["inside"]))
        ent = ents[r["face"]] if r["face"] is not None else None
        ent_id = "" if ent is None else ent.get("step_id", ent.get("iges_de", ""))
        lines.append(f"{kind},{q[0]!r},{q[1]!r},{q[2]!r},{r['dist']:.15g},{ins},"
                     f"{r['support'][0]},{ent_id}")
        n += 1
    return "\n".join(lines) + "\n", n, time.perf_counter() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="STEP or IGES files")
    ap.add_argument("--points", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--skip-existing", action="store_true")
    a = ap.parse_args(argv)
    os.makedirs(a.out_dir, exist_ok=True)
    for path in a.files:
        out = os.path.join(a.out_dir, os.path.basename(path) + ".boundary.csv.zst")
        if a.skip_existing and os.path.exists(out):
            continue
        try:
            text, n, secs = boundary_file(path, a.points, a.seed)
        except Exception as exc:  # a file Open CASCADE cannot read: say so, go on
            print(f"{os.path.basename(path)}: FAILED {exc!r}", flush=True)
            continue
        subprocess.run(["zstd", "-q", "-19", "-f", "-o", out], input=text.encode(), check=True)
        print(f"{os.path.basename(path)}: {n} points in {secs:.1f} s -> {out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
