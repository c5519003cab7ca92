#!/usr/bin/env python3
"""Open CASCADE timing peer for the body-body tracker: the cost of one
BRepExtrema_DistShapeShape per step while body B moves smoothly near body A.

For each pair set (fixtures/oracle/NAME.pairs.json; default: assembly and
the two corpus sets) the start poses are the set's "placed" case when its
gap is at least 5% of the smaller body diagonal, else its first "apart" case
with such a gap. Body B then moves through --steps poses of one smooth closed
motion: its centre on a small loop (radius 0.15 of the gap) while it rocks
about its centre (amplitude 0.15 of the gap over half its diagonal) about a
fixed axis, so the bodies never come closer than about a quarter of the gap.

Timed per step (Extrema_ExtFlag_MIN, deflection 1e-9, like the ground truth):
  fresh_solids  BRepExtrema_DistShapeShape(solid_a, moved solid_b), new each step
  fresh_faces   the same between the two bodies' face compounds (what
                ../shared/oracle/occt_timing.py's body_pair times)
  reused        one BRepExtrema_DistShapeShape object: LoadS1(solid_a) once,
                LoadS2(moved solid_b) + Perform() per step
The median over all steps of --repeats passes is printed in microseconds per
step, with the spread (p10..p90) and the distance range along the motion.

With --files A B (STEP or IGES parts, e.g. from ../shared/fixtures/corpus)
the pair is the first solid of each file (all faces when there is none),
B placed like the first sample of `extrack track --bodies --motion
builtin:orbit` (its bounding-box centre 1.2 (r_A + r_B) from A's along x,
r the half box diagonals) and moved along that orbit (spinning about
(1,1,1)); only fresh_solids is timed (benches/body_pair.rs stores it).

Usage: occt_pair_timing.py [NAME ...] [--steps 200] [--repeats 3] [--json OUT]
       occt_pair_timing.py --files A B [--steps 20] [--repeats 1]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import pair_common as P  # noqa: E402
from OCP.BRep import BRep_Builder  # noqa: E402
from OCP.BRepExtrema import BRepExtrema_DistShapeShape  # noqa: E402
from OCP.Extrema import Extrema_ExtFlag  # noqa: E402
from OCP.TopLoc import TopLoc_Location  # noqa: E402
from OCP.TopoDS import TopoDS_Compound  # noqa: E402

MIN = Extrema_ExtFlag.Extrema_ExtFlag_MIN
TOL = 1e-9
DEFAULT_SETS = ["assembly", "corpus_autocad2000_as1", "corpus_sdev_wrenchnut"]


def faces_compound(shape):
    comp = TopoDS_Compound()
    b = BRep_Builder()
    b.MakeCompound(comp)
    for f in P.faces(shape):
        b.Add(comp, f)
    return comp


def mat(rows):
    return np.asarray(rows, dtype=float).reshape(4, 4)


def axis_angle(axis, angle):
    x, y, z = axis / np.linalg.norm(axis)
    c, s = math.cos(angle), math.sin(angle)
    k = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]])
    return np.eye(3) + s * k + (1 - c) * (k @ k)


def bbox_centre(solid):
    from OCP.BRepBndLib import BRepBndLib
    from OCP.Bnd import Bnd_Box
    box = Bnd_Box()
    BRepBndLib.AddOptimal_s(solid, box, False, False)
    lo, hi = box.CornerMin(), box.CornerMax()
    return np.array([(lo.X() + hi.X()) / 2, (lo.Y() + hi.Y()) / 2, (lo.Z() + hi.Z()) / 2])


def motion(base_b, centre_b, gap, diag_b, steps):
    """Poses of B (16 numbers each) along the closed motion."""
    c = (mat(base_b) @ np.append(centre_b, 1.0))[:3]
    r = 0.15 * gap
    amp = 0.15 * gap / (0.5 * diag_b)
    axis = np.array([0.3, -0.5, 0.81])
    out = []
    for k in range(steps):
        t = 2 * math.pi * k / steps
        rot = axis_angle(axis, amp * math.sin(t))
        tr = r * np.array([math.cos(t) - 1.0, math.sin(t), 0.5 * math.sin(2 * t)])
        m = np.eye(4)
        m[:3, :3] = rot
        m[:3, 3] = c + tr - rot @ c
        out.append((m @ mat(base_b)).reshape(-1).tolist())
    return out


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def time_set(name: str, repo: str, corpus: str, steps: int, repeats: int) -> dict:
    with open(os.path.join(repo, "fixtures", "oracle", f"{name}.pairs.json")) as fh:
        ps = json.load(fh)
    root = {"fixtures": os.path.join(repo, "fixtures"), "corpus": corpus}
    sa0 = P.solids(P.read_step(os.path.join(root[ps["a_in"]], ps["a"])))[ps["body_a"]]
    sb0 = P.solids(P.read_step(os.path.join(root[ps["b_in"]], ps["b"])))[ps["body_b"]]
    small = min(b["diag"] for b in ps["bodies"])
    start = None
    for c in ps["cases"]:
        if c["kind"] in ("placed", "apart") and c["dist"] >= 0.05 * small:
            start = c
            break
    if start is None:
        raise RuntimeError(f"{name}: no case with a gap of 5% of the smaller diagonal")
    sa = sa0.Moved(TopLoc_Location(P.trsf_from_rows(start["pose_a"])))
    poses = motion(start["pose_b"], bbox_centre(sb0), start["dist"], ps["bodies"][1]["diag"], steps)
    moved_b = [sb0.Moved(TopLoc_Location(P.trsf_from_rows(p))) for p in poses]
    fa = faces_compound(sa)
    moved_fb = [faces_compound(b) for b in moved_b]

    def fresh(a, bs):
        ts, ds = [], []
        for b in bs:
            t0 = time.perf_counter_ns()
            d = BRepExtrema_DistShapeShape(a, b, TOL, MIN)
            v = d.Value()
            ts.append((time.perf_counter_ns() - t0) / 1e3)
            ds.append(v)
        return ts, ds

    def reused(a, bs):
        d = BRepExtrema_DistShapeShape()
        d.SetDeflection(TOL)
        d.SetFlag(MIN)
        d.LoadS1(a)
        ts, ds = [], []
        for b in bs:
            t0 = time.perf_counter_ns()
            d.LoadS2(b)
            d.Perform()
            v = d.Value()
            ts.append((time.perf_counter_ns() - t0) / 1e3)
            ds.append(v)
        return ts, ds

    out = {"set": name, "a": ps["a"], "body_a": ps["body_a"], "b": ps["b"], "body_b": ps["body_b"],
           "start_case": start["kind"], "start_dist": start["dist"], "steps": steps, "repeats": repeats}
    for label, fn, a, bs in (("fresh_solids", fresh, sa, moved_b), ("fresh_faces", fresh, fa, moved_fb),
                             ("reused", reused, sa, moved_b)):
        ts_all, ds = [], None
        for _ in range(repeats):
            ts, ds = fn(a, bs)
            ts_all += ts
        out[label] = {"median_us": statistics.median(ts_all), "p10_us": pct(ts_all, 0.1),
                      "p90_us": pct(ts_all, 0.9), "dist_min": min(ds), "dist_max": max(ds)}
    return out


def read_any(path: str):
    if path.lower().endswith((".igs", ".iges")):
        from OCP.IGESControl import IGESControl_Reader
        r = IGESControl_Reader()
        if r.ReadFile(path) != 1:
            raise RuntimeError(f"IGES reader failed on {path}")
        r.TransferRoots()
        return r.OneShape()
    return P.read_step(path)


def part(path: str):
    shape = read_any(path)
    ss = P.solids(shape)
    return ss[0] if ss else faces_compound(shape)


def radius(shape) -> float:
    from OCP.BRepBndLib import BRepBndLib
    from OCP.Bnd import Bnd_Box
    box = Bnd_Box()
    BRepBndLib.Add_s(shape, box)
    lo, hi = box.CornerMin(), box.CornerMax()
    return 0.5 * math.dist((lo.X(), lo.Y(), lo.Z()), (hi.X(), hi.Y(), hi.Z()))


def time_files(fa: str, fb: str, steps: int, repeats: int) -> dict:
    """fresh BRepExtrema_DistShapeShape between two parts along the orbit."""
    sa, sb = part(fa), part(fb)
    ca, cb = bbox_centre(sa), bbox_centre(sb)
    ra, rb = radius(sa), radius(sb)
    big = 1.2 * (ra + rb)
    poses = []
    for k in range(steps):
        th = 2 * math.pi * k / max(steps, 1) / 40.0  # the first 1/40 of the lap
        rot = axis_angle(np.array([1.0, 1.0, 1.0]), 3 * th)
        c = ca + np.array([big * math.cos(th), big * math.sin(th), 0.25 * ra * math.sin(2 * th)])
        m = np.eye(4)
        m[:3, :3] = rot
        m[:3, 3] = c - rot @ cb
        poses.append(m.reshape(-1).tolist())
    moved = [P_moved(sb, m) for m in poses]
    times, dists = [], []
    for _ in range(repeats):
        for b in moved:
            t0 = time.perf_counter()
            d = BRepExtrema_DistShapeShape(sa, b, TOL, MIN)
            d.Perform()
            times.append((time.perf_counter() - t0) * 1e6)
            dists.append(d.Value())
    return {"a": os.path.basename(fa), "b": os.path.basename(fb), "steps": steps,
            "fresh_solids": {"median_us": statistics.median(times), "p10_us": pct(times, 0.1),
                             "p90_us": pct(times, 0.9), "dist_min": min(dists), "dist_max": max(dists)}}


def P_moved(shape, rows):
    return shape.Moved(TopLoc_Location(P.trsf_from_rows(rows)))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap.add_argument("sets", nargs="*", default=DEFAULT_SETS)
    ap.add_argument("--repo", default=repo)
    ap.add_argument("--corpus", default=os.path.join(repo, "..", "shared", "fixtures", "corpus"))
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", help="also write the results here")
    ap.add_argument("--files", nargs=2, metavar=("A", "B"), help="two part files (see above)")
    a = ap.parse_args(argv)
    if a.files:
        r = time_files(a.files[0], a.files[1], a.steps, a.repeats)
        f = r["fresh_solids"]
        print(f"{r['a']} vs {r['b']}: fresh_solids median {f['median_us']:.0f} us "
              f"[{f['p10_us']:.0f}..{f['p90_us']:.0f}], dist {f['dist_min']:.4g}..{f['dist_max']:.4g}")
        if a.json:
            with open(a.json, "w") as fh:
                json.dump({"ocp_version": P.ocp_version(), "results": [r]}, fh, indent=1)
                fh.write("\n")
        return 0
    results = []
    print(f"Open CASCADE {P.ocp_version()}: BRepExtrema_DistShapeShape per step, "
          f"{a.steps} steps x {a.repeats} passes (median us [p10..p90])")
    for name in a.sets:
        r = time_set(name, a.repo, os.path.abspath(a.corpus), a.steps, a.repeats)
        results.append(r)
        cells = "  ".join(f"{k} {r[k]['median_us']:.0f} [{r[k]['p10_us']:.0f}..{r[k]['p90_us']:.0f}]"
                          for k in ("fresh_solids", "fresh_faces", "reused"))
        print(f"{name:28s} {r['a']}#{r['body_a']} vs {r['b']}#{r['body_b']}: {cells}  "
              f"dist {r['fresh_solids']['dist_min']:.4g}..{r['fresh_solids']['dist_max']:.4g}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"ocp_version": P.ocp_version(), "results": results}, fh, indent=1)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
