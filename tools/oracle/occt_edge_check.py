#!/usr/bin/env python3
"""Who is right where extrack and Open CASCADE disagree on a distance:
an independent brute-force check of both answers near the boundary.

For each query point q (boundary rows of the band test, or --points) it
takes extrack's answer (distance d, closest point c, from `extrack query
--json`) and Open CASCADE's (`BRepExtrema_DistShapeShape` from q to the
shape: distance d_occ, point p) and prints:

  occt        d_occ, the kind of support (vertex / edge / face), p
  parts       BRepExtrema from q to every face and edge whose box lies
              within d_occ + 1e-3 (the three nearest, with their curve or
              surface type and tolerance)
  edge brute  the nearest edge's 3-D curve (BRepAdaptor_Curve) sampled at
              20,001 parameters over its range, the best sample refined by
              golden section (f64); for a line, circle, ellipse, hyperbola
              or parabola also a 40-digit minimisation (mpmath) on the
              analytic curve from Open CASCADE's own gp_ conic
  face brute  each of the three nearest faces' surface sampled on a
              grid over the face's parameter box (GRID × GRID, refined
              around the best sample by shrinking grids), the samples
              kept only where BRepClass_FaceClassifier says IN or ON:
              the least distance of a point of that face found by search
              alone (an upper bound of the face's true distance)
  ours        |q − c| − d_occ, c's distance to Open CASCADE's shape
              (BRepExtrema from c), to each of the nearest faces' surfaces
              (GeomAPI_ProjectPointOnSurf; and at c's parameters by
              ShapeAnalysis_Surface.ValueOfUV, with the classifier's state
              there) and to the nearest edge

A point is decided for Open CASCADE when its d_occ equals a brute-force
distance of an edge or face (a point of its shape) and our c lies off its
shape; for us when a brute-force IN point or our c (on Open CASCADE's
surface, classified IN) is nearer than d_occ.

Usage:

    python3 tools/oracle/occt_edge_check.py FILE --extrack target/release/extrack \\
        --boundary-rows 18,64 [--grid 201] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "oracle")))

import occt_common as C  # noqa: E402
from occt_sign_segment import boundary_table, extrack_answers  # noqa: E402
from OCP.Bnd import Bnd_Box  # noqa: E402
from OCP.BRepBndLib import BRepBndLib  # noqa: E402
from OCP.BRep import BRep_Tool  # noqa: E402
from OCP.BRepAdaptor import BRepAdaptor_Curve, BRepAdaptor_Surface  # noqa: E402
from OCP.BRepBuilderAPI import BRepBuilderAPI_MakeVertex  # noqa: E402
from OCP.BRepClass import BRepClass_FaceClassifier  # noqa: E402
from OCP.BRepExtrema import BRepExtrema_DistShapeShape, BRepExtrema_IsVertex, BRepExtrema_IsOnEdge  # noqa: E402
from OCP.BRepTools import BRepTools  # noqa: E402
from OCP.ShapeAnalysis import ShapeAnalysis_Surface  # noqa: E402
from OCP.GeomAbs import (  # noqa: E402
    GeomAbs_Circle, GeomAbs_Ellipse, GeomAbs_Hyperbola, GeomAbs_Line, GeomAbs_Parabola,
)
from OCP.GeomAPI import GeomAPI_ProjectPointOnSurf  # noqa: E402
from OCP.TopAbs import TopAbs_EDGE, TopAbs_IN, TopAbs_ON  # noqa: E402
from OCP.TopoDS import TopoDS  # noqa: E402
from OCP.gp import gp_Pnt, gp_Pnt2d  # noqa: E402

CURVE_KINDS = {GeomAbs_Line: "line", GeomAbs_Circle: "circle", GeomAbs_Ellipse: "ellipse",
               GeomAbs_Hyperbola: "hyperbola", GeomAbs_Parabola: "parabola"}


def vertex(p):
    return BRepBuilderAPI_MakeVertex(gp_Pnt(*p)).Vertex()


def dist(a, b):
    d = BRepExtrema_DistShapeShape(a, b)
    d.Perform()
    if not d.IsDone() or d.NbSolution() == 0:
        return math.inf, None, None
    p = d.PointOnShape2(1)
    return d.Value(), (p.X(), p.Y(), p.Z()), d


def box_dist(shape, q):
    b = Bnd_Box()
    BRepBndLib.Add_s(shape, b)
    lo, hi = b.CornerMin(), b.CornerMax()
    x0, y0, z0, x1, y1, z1 = lo.X(), lo.Y(), lo.Z(), hi.X(), hi.Y(), hi.Z()
    dx = max(x0 - q[0], 0.0, q[0] - x1)
    dy = max(y0 - q[1], 0.0, q[1] - y1)
    dz = max(z0 - q[2], 0.0, q[2] - z1)
    return math.sqrt(dx * dx + dy * dy + dz * dz)


def golden(f, a, b, iters=200):
    g = (math.sqrt(5.0) - 1.0) / 2.0
    x1, x2 = b - g * (b - a), a + g * (b - a)
    f1, f2 = f(x1), f(x2)
    for _ in range(iters):
        if f1 < f2:
            b, x2, f2 = x2, x1, f1
            x1 = b - g * (b - a)
            f1 = f(x1)
        else:
            a, x1, f1 = x1, x2, f2
            x2 = a + g * (b - a)
            f2 = f(x2)
    return (x1, f1) if f1 < f2 else (x2, f2)


def edge_brute(edge, q):
    """f64 dense sampling + golden of the edge's 3-D curve; mpmath on conics."""
    c = BRepAdaptor_Curve(edge)
    t0, t1 = c.FirstParameter(), c.LastParameter()

    def f(t):
        p = c.Value(t)
        return math.dist((p.X(), p.Y(), p.Z()), q)

    n = 20000
    ts = [t0 + (t1 - t0) * k / n for k in range(n + 1)]
    k = min(range(n + 1), key=lambda i: f(ts[i]))
    a, b = ts[max(k - 1, 0)], ts[min(k + 1, n)]
    t, d = golden(f, a, b)
    kind = CURVE_KINDS.get(c.GetType(), "other")
    dmp = conic_mp(c, q, t, t0, t1) if kind != "other" else None
    return kind, t, d, dmp, (t0, t1)


def conic_mp(c, q, t_start, t0, t1):
    """40-digit distance from q to the analytic conic on [t0, t1] (Newton on the derivative)."""
    from mpmath import mp, mpf, sqrt, cosh, sinh, cos, sin, findroot
    mp.dps = 40
    kind = c.GetType()
    if kind == GeomAbs_Line:
        g = c.Line()
        o, dx = g.Location(), g.Direction()
        O, X = [mpf(o.X()), mpf(o.Y()), mpf(o.Z())], [mpf(dx.X()), mpf(dx.Y()), mpf(dx.Z())]

        def P(t):
            return [O[i] + t * X[i] for i in range(3)]
    else:
        g = {GeomAbs_Circle: c.Circle, GeomAbs_Ellipse: c.Ellipse,
             GeomAbs_Hyperbola: c.Hyperbola, GeomAbs_Parabola: c.Parabola}[kind]()
        ax = g.Position()
        o, xd, yd = ax.Location(), ax.XDirection(), ax.YDirection()
        O = [mpf(o.X()), mpf(o.Y()), mpf(o.Z())]
        X = [mpf(xd.X()), mpf(xd.Y()), mpf(xd.Z())]
        Y = [mpf(yd.X()), mpf(yd.Y()), mpf(yd.Z())]
        if kind == GeomAbs_Circle:
            r = mpf(g.Radius())
            fx, fy = (lambda t: r * cos(t)), (lambda t: r * sin(t))
        elif kind == GeomAbs_Ellipse:
            a, b = mpf(g.MajorRadius()), mpf(g.MinorRadius())
            fx, fy = (lambda t: a * cos(t)), (lambda t: b * sin(t))
        elif kind == GeomAbs_Hyperbola:
            a, b = mpf(g.MajorRadius()), mpf(g.MinorRadius())
            fx, fy = (lambda t: a * cosh(t)), (lambda t: b * sinh(t))
        else:
            fl = mpf(g.Focal())
            fx, fy = (lambda t: t * t / (4 * fl)), (lambda t: t)

        def P(t):
            return [O[i] + fx(t) * X[i] + fy(t) * Y[i] for i in range(3)]
    Q = [mpf(x) for x in q]

    def d2(t):
        p = P(t)
        return sum((p[i] - Q[i]) ** 2 for i in range(3))

    try:
        t = findroot(lambda t: mp.diff(d2, t), mpf(t_start))
    except (ValueError, ZeroDivisionError):
        t = mpf(t_start)
    t = min(max(t, mpf(t0)), mpf(t1))
    return float(sqrt(d2(t))), float(t)


def face_brute(face, q, grid, levels=6):
    """Least distance from q over grid samples of the face's surface classified IN/ON."""
    surf = BRepAdaptor_Surface(face)
    u0, u1, v0, v1 = BRepTools.UVBounds_s(face)
    tol = BRep_Tool.Tolerance_s(face)
    best = (math.inf, None)
    box = (u0, u1, v0, v1)
    for _ in range(levels):
        cand = []
        for i in range(grid + 1):
            u = box[0] + (box[1] - box[0]) * i / grid
            for j in range(grid + 1):
                v = box[2] + (box[3] - box[2]) * j / grid
                p = surf.Value(u, v)
                cand.append((math.dist((p.X(), p.Y(), p.Z()), q), u, v))
        cand.sort()
        found = None
        for dd, u, v in cand[:2000]:
            st = BRepClass_FaceClassifier(face, gp_Pnt2d(u, v), 1e-9).State()
            if st in (TopAbs_IN, TopAbs_ON):
                found = (dd, u, v)
                break
        if found is None:
            break
        if found[0] < best[0]:
            best = (found[0], (found[1], found[2]))
        du, dv = (box[1] - box[0]) * 4 / grid, (box[3] - box[2]) * 4 / grid
        box = (max(u0, found[1] - du), min(u1, found[1] + du), max(v0, found[2] - dv), min(v1, found[2] + dv))
    return best[0], best[1], tol


def surface_dist(face, p):
    proj = GeomAPI_ProjectPointOnSurf(gp_Pnt(*p), BRep_Tool.Surface_s(face))
    return proj.LowerDistance() if proj.NbPoints() else math.inf


def surface_foot(face, p):
    """(distance from p to the surface point at p's parameters, state of those parameters) by
    ShapeAnalysis_Surface.ValueOfUV (more robust than GeomAPI_ProjectPointOnSurf near trims)."""
    sas = ShapeAnalysis_Surface(BRep_Tool.Surface_s(face))
    uv = sas.ValueOfUV(gp_Pnt(*p), 1e-9)
    sp = BRepAdaptor_Surface(face).Value(uv.X(), uv.Y())
    st = BRepClass_FaceClassifier(face, uv, 1e-9).State()
    name = {TopAbs_IN: "IN", TopAbs_ON: "ON"}.get(st, "OUT")
    return math.dist((sp.X(), sp.Y(), sp.Z()), p), name


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--extrack", required=True)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--points")
    g.add_argument("--boundary-rows")
    ap.add_argument("--grid", type=int, default=201)
    ap.add_argument("--json")
    a = ap.parse_args()
    if a.points:
        pts, docc_rows, names = json.loads(a.points), None, None
    else:
        rows = boundary_table(a.file)
        names = a.boundary_rows.split(",")
        pts = [[float(x) for x in rows[int(k)][1:4]] for k in names]
        docc_rows = [float(rows[int(k)][4]) for k in names]
    cf = C.CadFile(a.file)
    shape = cf.shape
    faces = C.face_list(shape)
    edges = C.map_list(C.indexed_map(shape, TopAbs_EDGE))
    out = []
    for n, (q, r) in enumerate(zip(pts, extrack_answers(a.extrack, a.file, pts))):
        name = names[n] if names else str(n)
        d_occ, p_occ, ext = dist(vertex(q), shape)
        support = {BRepExtrema_IsVertex: "vertex", BRepExtrema_IsOnEdge: "edge"}.get(
            ext.SupportTypeShape2(1), "face") if ext else "?"
        near = d_occ + 1e-3
        parts = []
        for kind, lst in (("face", faces), ("edge", edges)):
            for i, s in enumerate(lst):
                if box_dist(s, q) > near:
                    continue
                s = s if kind == "face" else TopoDS.Edge(s)
                dd, pp, _ = dist(vertex(q), s)
                parts.append((dd, kind, i, s, pp))
        parts.sort(key=lambda x: x[0])
        rec = {"row": name, "q": q, "d_occ": d_occ, "d_occ_file": docc_rows[n] if docc_rows else None,
               "occ_support": support, "occ_point": p_occ, "ours": r["distance"], "our_point": r["point"],
               "our_face": r["face"], "parts": [], "edge_brute": None, "face_brute": []}
        c = r["point"]
        rec["c_to_occ_shape"] = dist(vertex(c), shape)[0]
        for dd, kind, i, s, pp in parts[:3]:
            info = {"kind": kind, "index": i, "d": dd}
            if kind == "edge":
                info["tolerance"] = BRep_Tool.Tolerance_s(s)
                info["curve"] = CURVE_KINDS.get(BRepAdaptor_Curve(s).GetType(), "other")
                info["c_to_edge"] = dist(vertex(c), s)[0]
            else:
                info["tolerance"] = BRep_Tool.Tolerance_s(s)
                info["surface"] = C.surface_type_name(s)
                info["c_to_surface"] = surface_dist(s, c)
                info["c_foot"], info["c_state"] = surface_foot(s, c)
                info["c_to_face"] = dist(vertex(c), s)[0]
            rec["parts"].append(info)
        e = next((p for p in parts if p[1] == "edge"), None)
        if e is not None:
            kind, t, d, dmp, rng = edge_brute(e[3], q)
            rec["edge_brute"] = {"index": e[2], "curve": kind, "t": t, "d_f64": d,
                                 "d_mp": dmp[0] if dmp else None, "range": rng}
        for dd, kind, i, s, pp in [p for p in parts if p[1] == "face"][:3]:
            fb, uv, tol = face_brute(s, q, a.grid)
            rec["face_brute"].append({"index": i, "d": fb, "uv": uv, "tolerance": tol})
        out.append(rec)
        eb = rec["edge_brute"] or {}
        fbs = [f["d"] for f in rec["face_brute"]]
        print(f"row {name}: ours {r['distance']:.15g} occ {d_occ:.15g} (file {rec['d_occ_file']}) "
              f"ours−occ {r['distance'] - d_occ:.2e}; occ support {support}")
        print(f"    edge #{eb.get('index')} {eb.get('curve')}: brute f64 {eb.get('d_f64', math.nan):.15g}"
              f" mp {eb.get('d_mp')} (−occ {(eb.get('d_mp') or eb.get('d_f64', math.nan)) - d_occ:.2e});"
              f" faces brute (IN/ON grid) {', '.join(f'{x:.12g}' for x in fbs)}")
        print(f"    our c to occ shape {rec['c_to_occ_shape']:.2e}; " + "; ".join(
            f"{p['kind']} {p['index']} d {p['d']:.12g} tol {p['tolerance']:.1e}"
            + (f" c→surf {p['c_to_surface']:.1e} (at c's uv {p['c_foot']:.1e}, {p['c_state']})"
               f" c→face {p['c_to_face']:.1e}" if p["kind"] == "face"
               else f" c→edge {p['c_to_edge']:.1e} {p['curve']}")
            for p in rec["parts"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
