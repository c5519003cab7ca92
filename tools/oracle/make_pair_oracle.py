#!/usr/bin/env python3
"""Ground truth for body-body minimum distance at moved poses (Open CASCADE).

For each pair set (file A, body i; file B, body j) this writes
fixtures/oracle/NAME.pairs.json (format: formats/oracle_pairs.md): cases of
two rigid poses applied on top of the bodies' own placements
(world = pose . placement . local) with Open CASCADE's
BRepExtrema_DistShapeShape distance, witness points, number of solutions and
InnerSolution flag: between the compounds of the two bodies' faces for
separated cases (the solid-solid distance, without the solid classification
that makes BRepExtrema between solids ~25x slower; each witness is checked
to lie outside the other solid, so no body is nested in the other), between
the two solids for the overlap cases.

Poses (deterministic for the set's seed): each body is rotated about its own
bounding-box centre by a random rotation (uniform quaternion; about z only in
`planar` sets), A is shifted by up to 0.2 of its diagonal, and B is placed
along a random direction from A's centre at the distance that gives a chosen
gap (within 30% for "near", 10% for "apart"): starting beyond the bounding
spheres, s <- s - (d(s) - gap) steps (d is 1-Lipschitz in s, so they never
overshoot) then bracketed secant steps; the case is always a separated
evaluation. Gaps:
about 1e-4, 1e-3 and 1e-2 of the smaller diagonal ("near", nearly touching)
and log-uniform in [0.02, 0.6] of it ("apart"). Multi-body files also get the
identity poses ("placed"), and every set gets two "overlap" cases where B is
pushed 5% of the smaller diagonal past contact (distance <= 1e-9; checked
by a non-empty boolean common).

Cross-check of every non-overlap case against dense meshes: each body is
meshed with BRepMesh (linear deflection 2e-4 of its diagonal, angular 0.1)
and every triangle is subdivided into a grid of points at most h = 4e-3 of
the diagonal apart; with cKDTree the minimum point-point distance d_mesh
between the two clouds is found. Mesh points lie on the surface (planes) or
at most the deflection inside it (curved faces), so a correct exact answer
satisfies  d - 2(defl_a + defl_b) <= d_mesh <= d + h_a + h_b + 2(defl_a + defl_b).
Also |p1 - p2| = d and p1 (p2) within h + defl of A's (B's) cloud. Cases
failing a check are dropped (and listed on stderr and in the JSON's
`dropped`); generation continues until the set has its count.

Usage: make_pair_oracle.py [--repo DIR] [--corpus DIR] [--extrack BIN] [--only NAME ...]
Needs numpy and scipy (pip install scipy).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
from scipy.spatial import cKDTree  # noqa: E402

import pair_common as P  # noqa: E402
from OCP.BRep import BRep_Tool  # noqa: E402
from OCP.BRepAlgoAPI import BRepAlgoAPI_Common  # noqa: E402
from OCP.BRepBndLib import BRepBndLib  # noqa: E402
from OCP.BRepClass3d import BRepClass3d_SolidClassifier  # noqa: E402
from OCP.TopAbs import TopAbs_IN  # noqa: E402
from OCP.gp import gp_Pnt  # noqa: E402
from OCP.BRepExtrema import BRepExtrema_DistShapeShape  # noqa: E402
from OCP.BRepGProp import BRepGProp  # noqa: E402
from OCP.BRepMesh import BRepMesh_IncrementalMesh  # noqa: E402
from OCP.Bnd import Bnd_Box  # noqa: E402
from OCP.Extrema import Extrema_ExtFlag  # noqa: E402
from OCP.GProp import GProp_GProps  # noqa: E402
from OCP.TopLoc import TopLoc_Location  # noqa: E402

DSS_TOL = 1e-9

# name: (file A, where, body A, file B, where, body B, mode, seed)
#   where: "fixtures" (the repository's fixtures/) or "corpus"
#   (../shared/fixtures/corpus, not copied into the repository)
#   mode: "space" (3-D rotations), "planar" (rotations about z, moves in xy),
#   "groove" (like space, but a third of the directions point from A's
#   centre up +z into pair_notch's V-groove)
SETS = {
    "assembly": ("assembly.step", "fixtures", 0, "assembly.step", "fixtures", 1, "space", 7001),
    "corpus_autocad2000_as1": ("step_autocad2000_as1.stp", "corpus", 0,
                               "step_autocad2000_as1.stp", "corpus", 1, "space", 7002),
    "corpus_sdev_wrenchnut": ("step_sdev_wrenchnut.stp", "corpus", 0,
                              "step_sdev_wrenchnut.stp", "corpus", 1, "space", 7003),
    "ellipsoid_ellipsoid_b": ("ellipsoid.step", "fixtures", 0, "pair_ellipsoid_b.step", "fixtures", 0,
                              "space", 7004),
    "lens_lens": ("pair_lens.step", "fixtures", 0, "pair_lens.step", "fixtures", 0, "space", 7005),
    "tri_prism_tri_prism": ("pair_tri_prism.step", "fixtures", 0, "pair_tri_prism.step", "fixtures", 0,
                            "planar", 7006),
    "notch_ellipsoid": ("pair_notch.step", "fixtures", 0, "ellipsoid.step", "fixtures", 0, "groove", 7007),
    "tiled_convex_tiled_convex": ("tiled_convex.step", "fixtures", 0, "tiled_convex.step", "fixtures", 0,
                                  "space", 7008),
}

N_NEAR = 6      # 2 each at 1e-4, 1e-3, 1e-2 of the smaller diagonal
N_APART = 16
N_OVERLAP = 2
MESH_DEFL = 2e-4
MESH_H = 4e-3


# --------------------------------------------------------------------------
# bodies
# --------------------------------------------------------------------------

class Body:
    """One solid of a file, placed (its Location is the file's placement)."""

    def __init__(self, path: str, index: int, extrack: str | None):
        self.path, self.index = path, index
        shape = P.read_step(path)
        sols = P.solids(shape)
        if index >= len(sols):
            raise RuntimeError(f"{path}: body {index} requested, Open CASCADE found {len(sols)} solids")
        self.solid = sols[index]
        self.skin = faces_compound(self.solid)
        self.nfaces = len(P.faces(self.solid))
        tr = self.solid.Location().Transformation().TranslationPart()
        self.origin = [tr.X(), tr.Y(), tr.Z()]
        self._check_importer(extrack, len(sols))
        box = Bnd_Box()
        BRepBndLib.AddOptimal_s(self.solid, box, False, False)
        lo, hi = box.CornerMin(), box.CornerMax()
        self.lo = np.array([lo.X(), lo.Y(), lo.Z()])
        self.hi = np.array([hi.X(), hi.Y(), hi.Z()])
        self.centre = 0.5 * (self.lo + self.hi)
        self.diag = float(np.linalg.norm(self.hi - self.lo))
        self.defl = MESH_DEFL * self.diag
        self.h = MESH_H * self.diag
        self.points = None
        self._tree = None

    def _check_importer(self, extrack: str | None, nsolids: int) -> None:
        """Our importer must list the same body at the same index (face count
        and placement origin), or the JSON's body indices would be wrong."""
        if not extrack:
            print(f"  (no extrack binary: body order of {self.path} not checked)", file=sys.stderr)
            return
        out = subprocess.run([extrack, "inspect", "--json", self.path], check=True,
                             capture_output=True, text=True).stdout
        bodies = json.loads(out)["body_list"]
        if len(bodies) != nsolids:
            raise RuntimeError(f"{self.path}: extrack lists {len(bodies)} bodies, Open CASCADE {nsolids} solids")
        b = bodies[self.index]
        scale = max(1.0, max(abs(x) for x in self.origin))
        if b["faces"] != self.nfaces or any(abs(x - y) > 1e-6 * scale for x, y in zip(b["origin"], self.origin)):
            raise RuntimeError(f"{self.path}: body {self.index} is {b} in extrack but has {self.nfaces} faces "
                               f"and origin {self.origin} in Open CASCADE")
        self.name = b["name"]

    def cloud(self) -> np.ndarray:
        """Dense points on the (placed) boundary: BRepMesh triangles subdivided."""
        if self.points is not None:
            return self.points
        BRepMesh_IncrementalMesh(self.solid, self.defl, False, 0.1, False)
        chunks = []
        for f in P.faces(self.solid):
            loc = TopLoc_Location()
            tri = BRep_Tool.Triangulation_s(f, loc)
            if tri is None:
                raise RuntimeError(f"{self.path}: a face has no triangulation")
            tr = loc.Transformation()
            nodes = []
            for k in range(1, tri.NbNodes() + 1):
                p = tri.Node(k).Transformed(tr)
                nodes.append((p.X(), p.Y(), p.Z()))
            nodes = np.asarray(nodes)
            tris = np.asarray([tri.Triangle(k).Get() for k in range(1, tri.NbTriangles() + 1)]) - 1
            chunks.append(nodes)
            a, b, c = nodes[tris[:, 0]], nodes[tris[:, 1]], nodes[tris[:, 2]]
            edge = np.maximum(np.maximum(np.linalg.norm(b - a, axis=1), np.linalg.norm(c - b, axis=1)),
                              np.linalg.norm(a - c, axis=1))
            n_sub = np.ceil(edge / self.h).astype(int)
            for n in np.unique(n_sub):
                if n <= 1:
                    continue
                sel = n_sub == n
                ij = np.array([(i, j) for i in range(n + 1) for j in range(n + 1 - i)], dtype=float) / n
                wa, wb = ij[:, 0], ij[:, 1]
                wc = 1.0 - wa - wb
                pts = (a[sel][:, None, :] * wa[None, :, None] + b[sel][:, None, :] * wb[None, :, None]
                       + c[sel][:, None, :] * wc[None, :, None])
                chunks.append(pts.reshape(-1, 3))
        self.points = np.unique(np.concatenate(chunks), axis=0)
        return self.points

    def tree(self) -> cKDTree:
        """k-d tree of the cloud (placed coordinates, built once)."""
        if self._tree is None:
            self._tree = cKDTree(self.cloud())
        return self._tree


def faces_compound(solid):
    """Compound of the solid's faces: BRepExtrema between two of these gives
    the boundary-boundary distance, equal to the solid-solid distance for
    separated bodies and some 25x faster (no solid classification)."""
    from OCP.BRep import BRep_Builder
    from OCP.TopoDS import TopoDS_Compound
    comp = TopoDS_Compound()
    b = BRep_Builder()
    b.MakeCompound(comp)
    for f in P.faces(solid):
        b.Add(comp, f)
    return comp


def moved(solid, rows):
    return solid.Moved(TopLoc_Location(P.trsf_from_rows(rows)))


def dss(sa, sb):
    d = BRepExtrema_DistShapeShape(sa, sb, DSS_TOL, Extrema_ExtFlag.Extrema_ExtFlag_MIN)
    if not d.IsDone() or d.NbSolution() == 0:
        raise RuntimeError("BRepExtrema_DistShapeShape failed")
    return d


def apply(rows, pts: np.ndarray) -> np.ndarray:
    m = np.asarray(rows).reshape(4, 4)
    return pts @ m[:3, :3].T + m[:3, 3]


def rot_about(rot, centre, shift) -> list:
    """Pose x -> rot (x - centre) + centre + shift, as 16 row-major numbers."""
    r = np.asarray(rot)
    t = np.asarray(centre) + np.asarray(shift) - r @ np.asarray(centre)
    return P.pose_rows(rot, t.tolist())


def random_rot(rng: random.Random, planar: bool):
    if planar:
        a = rng.uniform(-math.pi, math.pi)
        return [[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0], [0.0, 0.0, 1.0]]
    return P.quat_matrix([rng.gauss(0, 1) for _ in range(4)])


def random_dir(rng: random.Random, mode: str, k: int):
    if mode == "planar":
        a = rng.uniform(-math.pi, math.pi)
        return np.array([math.cos(a), math.sin(a), 0.0])
    if mode == "groove" and k % 3 == 0:
        v = np.array([rng.uniform(-0.15, 0.15), rng.uniform(-0.3, 0.3), 1.0])
        return v / np.linalg.norm(v)
    while True:
        v = np.array([rng.uniform(-1, 1) for _ in range(3)])
        n = np.linalg.norm(v)
        if 1e-3 < n <= 1:
            return v / n


# --------------------------------------------------------------------------
# cases
# --------------------------------------------------------------------------

def record(kind, pa, pb, d) -> dict:
    p1, p2 = d.PointOnShape1(1), d.PointOnShape2(1)
    return {"kind": kind, "pose_a": pa, "pose_b": pb, "dist": d.Value(),
            "p1": [p1.X(), p1.Y(), p1.Z()], "p2": [p2.X(), p2.Y(), p2.Z()],
            "nsol": d.NbSolution(), "inner": bool(d.InnerSolution())}


def place_at_gap(A: Body, B: Body, pa, rot_b, direction, gap, rel_tol):
    """Pose of B (rotated by rot_b about its centre) along `direction` from
    A's moved centre with the surface gap within rel_tol of `gap`, found from
    above: first s <- s - (d(s) - gap) steps (d is 1-Lipschitz in s, so they
    never overshoot), then secant steps kept inside the bracket (bisection
    when the secant leaves it). Returns the last separated evaluation."""
    sa = moved(A.skin, pa)
    ca = apply(pa, A.centre[None, :])[0]

    def at(s):
        pb = rot_about(rot_b, B.centre, ca + s * direction - B.centre)
        return pb, dss(sa, moved(B.skin, pb))

    s = 0.5 * (A.diag + B.diag) + gap + 1e-3 * max(A.diag, B.diag)
    hi = (s, *at(s))            # d(s) > gap
    lo = None                   # d(s) < gap (possibly overlapping)
    prev = None
    for _ in range(25):
        s_hi, pb_hi, d_hi = hi
        err = d_hi.Value() - gap
        if err <= rel_tol * gap:
            break
        step = err
        if prev is not None and prev[0] != s_hi:
            slope = (prev[1] - d_hi.Value()) / (prev[0] - s_hi)
            step = err / min(max(slope, 0.05), 1.0)
        s = s_hi - step
        if lo is not None and s <= lo[0]:
            s = 0.5 * (s_hi + lo[0])
        pb, d = at(s)
        if d.Value() > gap:
            prev = (s_hi, d_hi.Value())
            hi = (s, pb, d)
        else:
            if d.Value() >= gap * (1 - rel_tol) and d.Value() > 0:
                return pb, d, s
            lo = (s, pb, d)
            prev = None
    return hi[1], hi[2], hi[0]


def inverse(rows) -> list:
    m = np.asarray(rows, dtype=float).reshape(4, 4)
    r, t = m[:3, :3], m[:3, 3]
    out = np.eye(4)
    out[:3, :3] = r.T
    out[:3, 3] = -r.T @ t
    return out.reshape(-1).tolist()


def compose(a, b) -> list:
    return (np.asarray(a, dtype=float).reshape(4, 4) @ np.asarray(b, dtype=float).reshape(4, 4)).reshape(-1).tolist()


def mesh_check(A: Body, B: Body, case) -> str | None:
    """None when the case agrees with the mesh clouds, else the reason."""
    d = case["dist"]
    margin_lo = 2 * (A.defl + B.defl)
    margin_hi = A.h + B.h + 2 * (A.defl + B.defl)
    # A's points in B's placed frame and B's in A's; only those within
    # d + margin of the other body's box can beat d + margin; the smaller
    # selection is queried against the other body's k-d tree
    reach = d + margin_hi
    a_in_b = apply(compose(inverse(case["pose_b"]), case["pose_a"]), A.cloud())
    b_in_a = apply(compose(inverse(case["pose_a"]), case["pose_b"]), B.cloud())
    sel_a = np.all((a_in_b >= B.lo - reach) & (a_in_b <= B.hi + reach), axis=1)
    sel_b = np.all((b_in_a >= A.lo - reach) & (b_in_a <= A.hi + reach), axis=1)
    if not sel_a.any() or not sel_b.any():
        return f"no mesh point within {reach:g} of the other body's box"
    if sel_a.sum() <= sel_b.sum():
        dm, _ = B.tree().query(a_in_b[sel_a], k=1, distance_upper_bound=reach * 1.001)
    else:
        dm, _ = A.tree().query(b_in_a[sel_b], k=1, distance_upper_bound=reach * 1.001)
    dmesh = float(dm.min())
    case["check"] = {"mesh_dist": dmesh, "lo": d - margin_lo, "hi": d + margin_hi}
    if dmesh < d - margin_lo - 1e-9:
        return f"mesh distance {dmesh:.9g} < exact {d:.9g} - {margin_lo:.3g}: Open CASCADE missed a closer pair"
    if dmesh > d + margin_hi + 1e-9:
        return f"mesh distance {dmesh:.9g} > exact {d:.9g} + {margin_hi:.3g}: exact answer not on the meshes"
    if abs(math.dist(case["p1"], case["p2"]) - d) > 1e-7 * max(1.0, d):
        return f"|p1 - p2| = {math.dist(case['p1'], case['p2']):.12g} != dist {d:.12g}"
    for p, pose, body, name in ((case["p1"], case["pose_a"], A, "p1"), (case["p2"], case["pose_b"], B, "p2")):
        local = apply(inverse(pose), np.asarray(p)[None, :])
        near = float(body.tree().query(local, k=1)[0][0])
        if near > body.h + body.defl:
            return f"{name} is {near:g} from its body's mesh points (> {body.h + body.defl:g})"
    # separated, not nested: each witness lies outside the other solid
    for p, other, pose, name in ((case["p1"], B, case["pose_b"], "p1"), (case["p2"], A, case["pose_a"], "p2")):
        cls = BRepClass3d_SolidClassifier(moved(other.solid, pose), gp_Pnt(*p), 1e-7)
        if cls.State() == TopAbs_IN:
            return f"{name} lies inside the other solid (nested bodies)"
    return None


def overlap_volume(sa, sb) -> float:
    c = BRepAlgoAPI_Common(sa, sb)
    if not c.IsDone():
        return float("nan")
    g = GProp_GProps()
    BRepGProp.VolumeProperties_s(c.Shape(), g)
    return g.Mass()


def make_set(name: str, repo: str, corpus: str, extrack: str | None) -> dict:
    fa, wa, ia, fb, wb, ib, mode, seed = SETS[name]
    root = {"fixtures": os.path.join(repo, "fixtures"), "corpus": corpus}
    A = Body(os.path.join(root[wa], fa), ia, extrack)
    B = A if (fa, wa, ia) == (fb, wb, ib) else Body(os.path.join(root[wb], fb), ib, extrack)
    rng = random.Random(seed)
    small = min(A.diag, B.diag)
    planar = mode == "planar"
    cases, dropped = [], []
    t0 = time.perf_counter()

    def keep(case):
        reason = mesh_check(A, B, case)
        if reason is None:
            cases.append(case)
        else:
            case["reason"] = reason
            dropped.append(case)
            print(f"  [{name}] dropped a {case['kind']} case: {reason}", file=sys.stderr)

    ident = P.pose_rows([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [0, 0, 0])
    if fa == fb and wa == wb and ia != ib:
        keep(record("placed", ident, ident, dss(A.skin, B.skin)))
    gaps = [("near", f * small) for f in (1e-4, 1e-3, 1e-2) for _ in range(N_NEAR // 3)]
    want_apart = N_APART
    k = 0
    while gaps or want_apart > 0:
        if gaps:
            kind, gap = gaps[0]
        else:
            kind, gap = "apart", small * math.exp(rng.uniform(math.log(0.02), math.log(0.6)))
        rot_a, rot_b = random_rot(rng, planar), random_rot(rng, planar)
        shift = np.array([rng.uniform(-1, 1) for _ in range(3)]) * 0.2 * A.diag / math.sqrt(3)
        if planar:
            shift[2] = 0.0
        pa = rot_about(rot_a, A.centre, shift)
        direction = random_dir(rng, mode, k)
        k += 1
        pb, d, _ = place_at_gap(A, B, pa, rot_b, direction, gap, 0.3 if kind == "near" else 0.1)
        if kind == "near" and d.Value() > 3 * gap:
            print(f"  [{name}] near case did not converge (d {d.Value():g}, gap {gap:g}); retrying",
                  file=sys.stderr)
            continue
        before = len(cases)
        keep(record(kind, pa, pb, d))
        if len(cases) > before:
            if gaps:
                gaps.pop(0)
            else:
                want_apart -= 1
        if k > 200:
            raise RuntimeError(f"{name}: too many dropped cases")
    n_ov = 0
    while n_ov < N_OVERLAP:
        rot_a, rot_b = random_rot(rng, planar), random_rot(rng, planar)
        pa = rot_about(rot_a, A.centre, [0.0, 0.0, 0.0])
        direction = random_dir(rng, mode, k)
        k += 1
        pb, d, s = place_at_gap(A, B, pa, rot_b, direction, 0.01 * small, 0.5)
        ca = apply(pa, A.centre[None, :])[0]
        s -= d.Value() + 0.05 * small
        pb = rot_about(rot_b, B.centre, ca + s * direction - B.centre)
        sa, sb = moved(A.solid, pa), moved(B.solid, pb)
        d = dss(sa, sb)
        vol = overlap_volume(sa, sb)
        case = record("overlap", pa, pb, d)
        case["check"] = {"common_volume": vol}
        if d.Value() <= 1e-9 and vol > 0.0:
            cases.append(case)
            n_ov += 1
        else:
            case["reason"] = f"overlap case: dist {d.Value():g}, common volume {vol:g}"
            dropped.append(case)
            print(f"  [{name}] dropped: {case['reason']}", file=sys.stderr)
    elapsed = time.perf_counter() - t0
    print(f"[make_pair_oracle] {name}: {len(cases)} cases, {len(dropped)} dropped, {elapsed:.1f} s",
          file=sys.stderr)
    return {
        "a": fa, "a_in": wa, "body_a": ia,
        "b": fb, "b_in": wb, "body_b": ib,
        "mode": mode,
        "ocp_version": P.ocp_version(),
        "method": "BRepExtrema_DistShapeShape, Extrema_ExtFlag_MIN, deflection "
                  f"{DSS_TOL:g}: between the two bodies' face compounds (separated cases: equals the "
                  "solid-solid distance, the witnesses are checked to lie outside the other solid), "
                  "between the solids for overlap cases",
        "seed": seed,
        "bodies": [
            {"faces": A.nfaces, "origin": A.origin, "diag": A.diag, "mesh_deflection": A.defl,
             "mesh_spacing": A.h},
            {"faces": B.nfaces, "origin": B.origin, "diag": B.diag, "mesh_deflection": B.defl,
             "mesh_spacing": B.h},
        ],
        "cases": cases,
        "dropped": dropped,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap.add_argument("--repo", default=repo, help="crate root (default %(default)s)")
    ap.add_argument("--corpus", default=os.path.join(repo, "..", "shared", "fixtures", "corpus"))
    tgt = os.environ.get("CARGO_TARGET_DIR", os.path.join(repo, "target"))
    ap.add_argument("--extrack", default=os.path.join(tgt, "release", "extrack"),
                    help="extrack binary for the body-order check ('' to skip)")
    ap.add_argument("--only", nargs="+", choices=sorted(SETS))
    a = ap.parse_args(argv)
    extrack = a.extrack if a.extrack and os.path.exists(a.extrack) else None
    outdir = os.path.join(a.repo, "fixtures", "oracle")
    for name in a.only or list(SETS):
        res = make_set(name, a.repo, os.path.abspath(a.corpus), extrack)
        with open(os.path.join(outdir, f"{name}.pairs.json"), "w") as fh:
            json.dump(res, fh, indent=1)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
