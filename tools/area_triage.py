#!/usr/bin/env python3
"""Independent references for one face's area, to decide who is right when
our piece areas and Open CASCADE's adaptive area disagree
(tests/prepare/prepare_fixtures.rs `corpus_face_areas`).

For each face of FILE whose entity (STEP `#N` label or IGES DE) is one of
the given ids (first instance only), prints:
  * adaptive: `BRepGProp::SurfaceProperties(face, props, 1e-10)` (the oracle);
  * default:  the fixed-order overload;
  * grid:     a midpoint grid of N x N cells over the face's UV bounds, each
              point classified by `BRepClass_FaceClassifier` (Open CASCADE's
              own p-curves), weighted by |Su x Sv|; the cells crossed by the
              boundary are refined 8 x 8 (error ~ perimeter x cell² size);
  * mesh:     the area of a fine `BRepMesh_IncrementalMesh` (relative
              deflection given by --mesh);
  * green_sphere: for a sphere, |∮ −R² sin v du| over the 3-D edges
              (independent of the p-curves, see `green_sphere`);
  * green_cylindrical: where the area element depends on one parameter only
              (extrusions, B-splines that are extrusions in disguise), Green's
              theorem over the 3-D edges projected onto the surface (see
              `green_cylindrical`; NaN on other surfaces);
  * slices:   the same kind of face from its p-curves: the integral over the
              one parameter of the area element times the face's chord length
              along the other, panels per knot span (see `slices`);
  * green:    for a plane (or a flat B-spline surface: normal at the
              centre), 1/2 |∮ p × dp · n| over the 3-D edges, holes
              subtracted by their orientation (independent of the p-curves).

Usage: python3 tools/area_triage.py FILE ID [ID ...] [--grid N] [--mesh D]
"""
import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared", "oracle"))
sys.path.insert(0, HERE)

import occt_common as C  # noqa: E402
from oracle_areas import step_labels  # noqa: E402
from OCP.BRep import BRep_Tool  # noqa: E402
from OCP.BRepAdaptor import BRepAdaptor_Curve, BRepAdaptor_Surface  # noqa: E402
from OCP.BRepClass import BRepClass_FaceClassifier  # noqa: E402
from OCP.BRepGProp import BRepGProp  # noqa: E402
from OCP.BRepMesh import BRepMesh_IncrementalMesh  # noqa: E402
from OCP.BRepTools import BRepTools  # noqa: E402
from OCP.GeomAbs import GeomAbs_Plane  # noqa: E402
from OCP.GProp import GProp_GProps  # noqa: E402
from OCP.TopAbs import TopAbs_EDGE, TopAbs_IN, TopAbs_REVERSED  # noqa: E402
from OCP.TopExp import TopExp_Explorer  # noqa: E402
from OCP.TopLoc import TopLoc_Location  # noqa: E402
from OCP.TopoDS import TopoDS  # noqa: E402
from OCP.gp import gp_Pnt, gp_Pnt2d, gp_Vec  # noqa: E402


def grid_area(face, n: int) -> float:
    s = BRepAdaptor_Surface(face)
    u0, u1, v0, v1 = BRepTools.UVBounds_s(face)
    tol = 1e-9 * max(u1 - u0, v1 - v0)
    du, dv = (u1 - u0) / n, (v1 - v0) / n

    def jac(u, v):
        p, su, sv = gp_Pnt(), gp_Vec(), gp_Vec()
        s.D1(u, v, p, su, sv)
        return su.Crossed(sv).Magnitude()

    def inside(u, v):
        c = BRepClass_FaceClassifier(face, gp_Pnt2d(u, v), tol)
        return c.State() == TopAbs_IN

    # coarse classification at cell corners, refine cells whose corners differ
    corner = [[inside(u0 + i * du, v0 + j * dv) for j in range(n + 1)] for i in range(n + 1)]
    area = 0.0
    m = 8
    for i in range(n):
        for j in range(n):
            cs = {corner[i][j], corner[i + 1][j], corner[i][j + 1], corner[i + 1][j + 1]}
            if cs == {False}:
                # may still hold a small island: the centre decides too
                if not inside(u0 + (i + 0.5) * du, v0 + (j + 0.5) * dv):
                    continue
                cs = {True, False}
            if cs == {True}:
                # 2x2 Gauss on the cell
                g = 0.5 / math.sqrt(3.0)
                a = 0.0
                for x in (0.5 - g, 0.5 + g):
                    for y in (0.5 - g, 0.5 + g):
                        a += jac(u0 + (i + x) * du, v0 + (j + y) * dv)
                area += 0.25 * a * du * dv
                continue
            for a in range(m):
                for b in range(m):
                    u = u0 + (i + (a + 0.5) / m) * du
                    v = v0 + (j + (b + 0.5) / m) * dv
                    if inside(u, v):
                        area += jac(u, v) * du * dv / (m * m)
    return area


def mesh_area(face, defl: float) -> float:
    BRepMesh_IncrementalMesh(face, defl, True, 0.05, False)
    loc = TopLoc_Location()
    tri = BRep_Tool.Triangulation_s(face, loc)
    if tri is None:
        return float("nan")
    a = 0.0
    for k in range(1, tri.NbTriangles() + 1):
        i, j, l = tri.Triangle(k).Get()
        p, q, r = tri.Node(i), tri.Node(j), tri.Node(l)
        a += 0.5 * gp_Vec(p, q).Crossed(gp_Vec(p, r)).Magnitude()
    return a


def green_plane(face, n: int = 4000) -> float:
    s = BRepAdaptor_Surface(face)
    if s.GetType() == GeomAbs_Plane:
        nrm = s.Plane().Axis().Direction()
    else:
        # a flat B-spline (bilinear) surface: its normal at the centre;
        # the value means nothing on a curved surface
        u0, u1, v0, v1 = BRepTools.UVBounds_s(face)
        p, su, sv = gp_Pnt(), gp_Vec(), gp_Vec()
        s.D1(0.5 * (u0 + u1), 0.5 * (v0 + v1), p, su, sv)
        nrm = su.Crossed(sv)
        nrm.Normalize()
    def f(p, d):
        cr = gp_Vec(p.X(), p.Y(), p.Z()).Crossed(d)
        return 0.5 * (cr.X() * nrm.X() + cr.Y() * nrm.Y() + cr.Z() * nrm.Z())

    return abs(edge_integral(face, n, f))


def edge_integral(face, n: int, f) -> float:
    """∮ f(p, dp/dt) dt over the face's (non-degenerate) 3-D edges, each
    oriented as in the face, by 3-point Gauss–Legendre on n sub-intervals."""
    xs = [-math.sqrt(0.6), 0.0, math.sqrt(0.6)]
    ws = [5 / 9, 8 / 9, 5 / 9]
    tot = 0.0
    ex = TopExp_Explorer(face, TopAbs_EDGE)
    while ex.More():
        e = TopoDS.Edge(ex.Current())
        if not BRep_Tool.Degenerated_s(e):
            c = BRepAdaptor_Curve(e)
            t0, t1 = c.FirstParameter(), c.LastParameter()
            sg = -1.0 if e.Orientation() == TopAbs_REVERSED else 1.0
            h = (t1 - t0) / n
            for k in range(n):
                for x, w in zip(xs, ws):
                    t = t0 + (k + 0.5 + 0.5 * x) * h
                    p, d = gp_Pnt(), gp_Vec()
                    c.D1(t, p, d)
                    tot += sg * w * 0.5 * h * f(p, d)
        ex.Next()
    return tot


def green_sphere(face, n: int = 2000) -> float:
    """Area of a face on a sphere from its 3-D edges alone: with
    S(u, v) = c + R (cos v cos u, cos v sin u, sin v) the area element is
    R² cos v du dv = d(−R² sin v du), so the area is |∮ −R² sin v du| over
    the boundary (u, v of each edge point computed from the sphere's frame,
    du/dt = (x y' − y x') / (x² + y²), Gauss–Legendre per sub-interval). A
    loop that winds around the axis is closed over the pole the face holds
    (classified with Open CASCADE's p-curves)."""
    from OCP.GeomAbs import GeomAbs_Sphere

    s = BRepAdaptor_Surface(face)
    if s.GetType() != GeomAbs_Sphere:
        return float("nan")
    sph = s.Sphere()
    r = sph.Radius()
    ax = sph.Position()
    o, dx, dy, dz = ax.Location(), ax.XDirection(), ax.YDirection(), ax.Direction()

    def local(p, d):
        q = gp_Vec(o, p)
        x, y, z = q.Dot(gp_Vec(dx)), q.Dot(gp_Vec(dy)), q.Dot(gp_Vec(dz))
        xd, yd = d.Dot(gp_Vec(dx)), d.Dot(gp_Vec(dy))
        return x, y, z, xd, yd

    def dudt(p, d):
        lx, ly, _, xd, yd = local(p, d)
        return (lx * yd - ly * xd) / (lx * lx + ly * ly)

    def sin_v(p, d):
        return max(-1.0, min(1.0, local(p, d)[2] / r))

    integral = edge_integral(face, n, lambda p, d: -sin_v(p, d) * dudt(p, d))
    winding = edge_integral(face, n, dudt)
    turns = round(winding / (2 * math.pi))
    if turns != 0:
        u0, u1, v0, v1 = BRepTools.UVBounds_s(face)
        um = 0.5 * (u0 + u1)
        tol = 1e-9
        north = BRepClass_FaceClassifier(face, gp_Pnt2d(um, 0.5 * math.pi - 1e-7), tol).State() == TopAbs_IN
        # close the loop along the pole's parallel: v = ±pi/2, u back by -winding
        integral += (1.0 if north else -1.0) * winding
    return abs(integral) * r * r


def one_parameter_element(face):
    """Whether the face's area element |Su x Sv| depends on u only, on v
    only (compared at 9 x 9 parameters of its UV bounds, to 1e-12 of the
    largest), and the element as a function of (u, v)."""
    loc = TopLoc_Location()
    surf = BRep_Tool.Surface_s(face, loc)
    u0, u1, v0, v1 = BRepTools.UVBounds_s(face)

    def element(u, v):
        pt, su, sv = gp_Pnt(), gp_Vec(), gp_Vec()
        surf.D1(u, v, pt, su, sv)
        return su.Crossed(sv).Magnitude()

    grid = [[element(u0 + (u1 - u0) * i / 8, v0 + (v1 - v0) * j / 8) for j in range(9)] for i in range(9)]
    top = max(max(r) for r in grid)
    along_u = all(abs(grid[i][j] - grid[i][0]) <= 1e-12 * top for i in range(9) for j in range(9))
    along_v = all(abs(grid[i][j] - grid[0][j]) <= 1e-12 * top for i in range(9) for j in range(9))
    return along_u, along_v, element


def green_cylindrical(face, n: int = 2000) -> float:
    """Area of a face on a surface whose area element |Su x Sv| depends on
    one parameter only (a surface of linear extrusion; a B-spline that is
    one in disguise, such as a degree-1 ruling between two translated copies
    of a curve), from its 3-D edges alone, by Green's theorem: |∮ -v g(u) du|
    when g = |Su x Sv| depends on u only, |∮ u g(v) dv| when on v only. Each
    edge point is projected onto the surface (`GeomAPI_ProjectPointOnSurf`)
    for (u, v), and (du/dt, dv/dt) solve Su du + Sv dv = dp/dt (least
    squares). The dependence is checked at 9 × 9 parameters (NaN otherwise)."""
    from OCP.GeomAPI import GeomAPI_ProjectPointOnSurf

    loc = TopLoc_Location()
    surf = BRep_Tool.Surface_s(face, loc)
    inv = loc.Transformation().Inverted()
    u0, u1, v0, v1 = BRepTools.UVBounds_s(face)
    along_u, along_v, _ = one_parameter_element(face)
    if not (along_u or along_v):
        return float("nan")
    proj = GeomAPI_ProjectPointOnSurf()
    du_, dv_ = 0.01 * (u1 - u0), 0.01 * (v1 - v0)

    def f(p, d):
        q = p.Transformed(inv)
        dq = d.Transformed(inv)
        proj.Init(q, surf, u0 - du_, u1 + du_, v0 - dv_, v1 + dv_)
        if proj.NbPoints() == 0:
            raise RuntimeError("projection failed")
        u, v = proj.LowerDistanceParameters()
        pt, su, sv = gp_Pnt(), gp_Vec(), gp_Vec()
        surf.D1(u, v, pt, su, sv)
        a, b, c = su.Dot(su), su.Dot(sv), sv.Dot(sv)
        r0, r1 = su.Dot(dq), sv.Dot(dq)
        det = a * c - b * b
        dudt, dvdt = (c * r0 - b * r1) / det, (a * r1 - b * r0) / det
        g = su.Crossed(sv).Magnitude()
        return -v * g * dudt if along_u else u * g * dvdt

    return abs(edge_integral(face, n, f))


def slices(face, panels: int = 200, per_edge: int = 20000) -> float:
    """Area of a face whose area element g = |Su x Sv| depends on one
    parameter only (say v; an extrusion, or a B-spline that is one), from
    its p-curves: area = ∫ g(v) L(v) dv, L(v) the total length of the face's
    chords along the line v = const (the p-curves sampled at `per_edge`
    points per edge into polylines, the crossings sorted and paired
    even-odd), by 3-point Gauss–Legendre on `panels` panels per knot span of
    that direction (g may change by orders of magnitude from one span to the
    next). No classifier and no boundary antiderivative; NaN when g depends
    on both parameters."""
    import numpy as np
    from OCP.BRepAdaptor import BRepAdaptor_Curve2d
    from OCP.GeomAbs import GeomAbs_BSplineSurface, GeomAbs_SurfaceOfExtrusion, GeomAbs_BSplineCurve

    u0, u1, v0, v1 = BRepTools.UVBounds_s(face)
    on_u, on_v, element = one_parameter_element(face)
    if not (on_u or on_v):
        return float("nan")
    k = 1 if on_v else 0
    lo, hi = (v0, v1) if on_v else (u0, u1)
    # panel boundaries: the knots of the sliced direction inside the range
    ad = BRepAdaptor_Surface(face)
    knots = []
    if ad.GetType() == GeomAbs_BSplineSurface:
        bs = ad.BSpline()
        knots = [bs.VKnot(i) for i in range(1, bs.NbVKnots() + 1)] if on_v else [bs.UKnot(i) for i in range(1, bs.NbUKnots() + 1)]
    elif ad.GetType() == GeomAbs_SurfaceOfExtrusion and on_u and ad.BasisCurve().GetType() == GeomAbs_BSplineCurve:
        bc = ad.BasisCurve().BSpline()
        knots = [bc.Knot(i) for i in range(1, bc.NbKnots() + 1)]
    bounds = sorted({lo, hi, *[x for x in knots if lo < x < hi]})
    segs = []
    ex = TopExp_Explorer(face, TopAbs_EDGE)
    while ex.More():
        e = TopoDS.Edge(ex.Current())
        c = BRepAdaptor_Curve2d(e, face)
        ts = np.linspace(c.FirstParameter(), c.LastParameter(), per_edge + 1)
        pts = np.array([[c.Value(t).X(), c.Value(t).Y()] for t in ts])
        segs.append(np.stack([pts[:-1], pts[1:]], axis=1))
        ex.Next()
    segs = np.concatenate(segs)  # (m, 2, 2): segment, end, (u, v)
    a, b = segs[:, 0, :], segs[:, 1, :]
    xs = [-math.sqrt(0.6), 0.0, math.sqrt(0.6)]
    ws = [5 / 9, 8 / 9, 5 / 9]
    tot = 0.0
    for s0, s1 in zip(bounds, bounds[1:]):
        h = (s1 - s0) / panels
        for i in range(panels):
            for x, w in zip(xs, ws):
                c = s0 + (i + 0.5 + 0.5 * x) * h
                m = (a[:, k] > c) != (b[:, k] > c)
                t = (c - a[m, k]) / (b[m, k] - a[m, k])
                cross = np.sort(a[m, 1 - k] + t * (b[m, 1 - k] - a[m, 1 - k]))
                length = float(np.sum(cross[1::2] - cross[0::2])) if len(cross) % 2 == 0 else float("nan")
                g = element(0.5 * (u0 + u1), c) if on_v else element(c, 0.5 * (v0 + v1))
                tot += w * 0.5 * h * g * length
    return tot


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("ids", nargs="+", type=int)
    ap.add_argument("--grid", type=int, default=200)
    ap.add_argument("--mesh", type=float, default=0.0)
    a = ap.parse_args()
    cf = C.CadFile(a.file)
    faces = C.face_list(cf.shape)
    ents = cf.face_entities(faces)
    labels = step_labels(a.file) if cf.format == "step" else None
    seen = set()
    for f, e in zip(faces, ents):
        e = e or {}
        fid = e.get("step_id", e.get("iges_de"))
        if fid is None:
            continue
        if labels is not None and "step_id" in e:
            fid = labels[fid - 1]
        if fid not in a.ids or fid in seen:
            continue
        seen.add(fid)
        props = GProp_GProps()
        BRepGProp.SurfaceProperties_s(f, props, 1e-10)
        adaptive = props.Mass()
        props = GProp_GProps()
        BRepGProp.SurfaceProperties_s(f, props)
        default = props.Mass()
        typ = str(BRepAdaptor_Surface(f).GetType()).split(".")[-1]
        print(f"#{fid} {typ}: adaptive {adaptive:.9f} default {default:.9f}", flush=True)
        print(f"  green {green_plane(f):.9f}", flush=True)
        if typ == "GeomAbs_Sphere":
            print(f"  green_sphere {green_sphere(f):.12f}", flush=True)
        for n in (500, 2000):
            print(f"  green_cylindrical{n} {green_cylindrical(f, n):.9f}", flush=True)
        for n in (200, 800):
            print(f"  slices{n} {slices(f, n):.9f}", flush=True)
        if a.grid > 0:
            print(f"  grid{a.grid} {grid_area(f, a.grid):.9f}", flush=True)
        if a.mesh > 0:
            print(f"  mesh {mesh_area(f, a.mesh):.9f}", flush=True)


if __name__ == "__main__":
    main()
