#!/usr/bin/env python3
"""Writes the body-pair scenario fixtures (one body per STEP file) with Open CASCADE.

  pair_lens.step          spatial convex body of exactly three faces, three
                          edges and two vertices (the shape of body C in
                          PG-2004 Fig. 14 and of bodies A, B in PG-2005
                          Figs. 19-20): the common part of three spheres of
                          radius 12 whose centres lie at distance 6 from the
                          z axis, 120 degrees apart. Each face is a spherical
                          lune from (0,0,-h) to (0,0,+h), h = sqrt(12^2-6^2);
                          the faces are converted to rational B-spline
                          surfaces (BRepBuilderAPI_NurbsConvert). About 12 mm
                          wide, 20.8 mm tall.
  pair_tri_prism.step     planar convex body of three circular arcs bulging
                          outward (PG-2004 Figs. 12-13): the common part of
                          three discs of radius 12, centres 6 from the origin
                          at 90, 210, 330 degrees, extruded from z = 0 to
                          z = 2 (three cylinder faces and two planes, analytic).
  pair_ellipsoid_b.step   second NURBS ellipsoid, semi-axes (4, 2.5, 2), made
                          like fixtures/ellipsoid.step (sphere ->
                          NurbsConvert -> non-uniform scale; (3, 2, 1.5)).
  pair_notch.step         non-convex block 30 x 20 x 12 (x in [-15,15],
                          y in [-10,10], z in [0,12]) with a V-groove along y
                          across the top (opening 12 at z = 12, bottom at
                          z = 6, 90 degrees), its bottom edge filleted
                          with radius 1.5 (concave cylinder face).

Usage: make_pair_fixtures.py OUTDIR   (the repository's fixtures/)
"""

from __future__ import annotations

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pair_common as P  # noqa: E402
from OCP.BRepAlgoAPI import BRepAlgoAPI_Common, BRepAlgoAPI_Cut  # noqa: E402
from OCP.BRepBuilderAPI import (BRepBuilderAPI_GTransform,  # noqa: E402
                                BRepBuilderAPI_MakeEdge,
                                BRepBuilderAPI_MakeFace,
                                BRepBuilderAPI_MakePolygon,
                                BRepBuilderAPI_MakeWire,
                                BRepBuilderAPI_NurbsConvert)
from OCP.BRepFilletAPI import BRepFilletAPI_MakeFillet  # noqa: E402
from OCP.BRepPrimAPI import (BRepPrimAPI_MakeBox,  # noqa: E402
                             BRepPrimAPI_MakePrism, BRepPrimAPI_MakeSphere)
from OCP.BRepGProp import BRepGProp  # noqa: E402
from OCP.GC import GC_MakeArcOfCircle  # noqa: E402
from OCP.GProp import GProp_GProps  # noqa: E402
from OCP.ShapeUpgrade import ShapeUpgrade_UnifySameDomain  # noqa: E402
from OCP.TopAbs import TopAbs_EDGE, TopAbs_VERTEX  # noqa: E402
from OCP.TopExp import TopExp  # noqa: E402
from OCP.TopoDS import TopoDS  # noqa: E402
from OCP.collections import IndexedMap_TopoDS_Shape_TopTools_ShapeMapHasher  # noqa: E402
from OCP.gp import gp_Ax2, gp_Dir, gp_GTrsf, gp_Mat, gp_Pnt, gp_Vec  # noqa: E402

LENS_R, LENS_D = 12.0, 6.0
PRISM_R, PRISM_D, PRISM_T = 12.0, 6.0, 2.0


def _count(shape, kind) -> int:
    m = IndexedMap_TopoDS_Shape_TopTools_ShapeMapHasher()
    TopExp.MapShapes_s(shape, kind, m)
    return m.Extent()


def _nurbs(shape):
    return BRepBuilderAPI_NurbsConvert(shape, True).Shape()


def _unify(shape):
    u = ShapeUpgrade_UnifySameDomain(shape, True, True, True)
    u.Build()
    return u.Shape()


def _centres(d: float, start_deg: float):
    return [(d * math.cos(math.radians(start_deg + 120 * k)),
             d * math.sin(math.radians(start_deg + 120 * k))) for k in range(3)]


def model_lens():
    body = None
    for cx, cy in _centres(LENS_D, 0.0):
        # sphere axis along z (poles at z = +-12, outside the lune, which
        # only reaches |z| = h < 12), seam (local x axis) pointing from the
        # centre away from its lune, so the seam is not inside the face
        xdir = gp_Dir(cx, cy, 0.0)
        sph = BRepPrimAPI_MakeSphere(gp_Ax2(gp_Pnt(cx, cy, 0.0), gp_Dir(0, 0, 1), xdir),
                                     LENS_R).Shape()
        body = sph if body is None else BRepAlgoAPI_Common(body, sph).Shape()
    return _nurbs(_unify(body))


def model_tri_prism():
    cs = _centres(PRISM_D, 90.0)
    r = PRISM_R
    # verts[k]: the corner where the arcs of discs k+1 and k+2 meet, i.e. the
    # intersection of those two circles that lies inside disc k. With the
    # centres summing to zero it is on the ray from the origin through c_k:
    # midpoint of c_{k+1} c_{k+2} is -c_k/2, and the corner is `off` from it.
    verts = []
    for k in range(3):
        i, j = (k + 1) % 3, (k + 2) % 3
        half = math.dist(cs[i], cs[j]) / 2
        off = math.sqrt(r * r - half * half)
        n = math.hypot(*cs[k])
        ux, uy = cs[k][0] / n, cs[k][1] / n
        verts.append((-cs[k][0] / 2 + ux * off, -cs[k][1] / 2 + uy * off))
    # the arc of disc k runs from verts[k+1] to verts[k+2] through the point
    # of circle k opposite its centre's direction (-(r - |c_k|) along c_k)
    wire = BRepBuilderAPI_MakeWire()
    for k in range(3):
        a, b = verts[(k + 1) % 3], verts[(k + 2) % 3]
        cx, cy = cs[k]
        n = math.hypot(cx, cy)
        mid = (cx - cx / n * r, cy - cy / n * r)
        arc = GC_MakeArcOfCircle(gp_Pnt(a[0], a[1], 0), gp_Pnt(mid[0], mid[1], 0),
                                 gp_Pnt(b[0], b[1], 0)).Value()
        wire.Add(BRepBuilderAPI_MakeEdge(arc).Edge())
    face = BRepBuilderAPI_MakeFace(wire.Wire(), True).Face()
    return BRepPrimAPI_MakePrism(face, gp_Vec(0, 0, PRISM_T)).Shape()


def model_ellipsoid_b():
    sphere = BRepPrimAPI_MakeSphere(1.0).Shape()
    g = gp_GTrsf()
    g.SetVectorialPart(gp_Mat(4.0, 0, 0, 0, 2.5, 0, 0, 0, 2.0))
    return BRepBuilderAPI_GTransform(_nurbs(sphere), g, True).Shape()


def model_notch():
    block = BRepPrimAPI_MakeBox(gp_Pnt(-15, -10, 0), 30.0, 20.0, 12.0).Shape()
    # triangular prism along y: (-6, 12), (6, 12), (0, 6) in the xz plane,
    # extended above the block so the cut faces are clean
    poly = BRepBuilderAPI_MakePolygon()
    for x, z in [(-8.0, 14.0), (8.0, 14.0), (0.0, 6.0)]:
        poly.Add(gp_Pnt(x, -11.0, z))
    poly.Close()
    tri = BRepBuilderAPI_MakeFace(poly.Wire(), True).Face()
    wedge = BRepPrimAPI_MakePrism(tri, gp_Vec(0, 22.0, 0)).Shape()
    body = BRepAlgoAPI_Cut(block, wedge).Shape()
    body = _unify(body)
    # fillet the groove's bottom edge: the edge along y through x = 0, z = 6
    mk = BRepFilletAPI_MakeFillet(body)
    m = IndexedMap_TopoDS_Shape_TopTools_ShapeMapHasher()
    TopExp.MapShapes_s(body, TopAbs_EDGE, m)
    found = 0
    from OCP.BRepAdaptor import BRepAdaptor_Curve
    for i in range(1, m.Extent() + 1):
        e = TopoDS.Edge(m.FindKey(i))
        c = BRepAdaptor_Curve(e)
        p = c.Value(0.5 * (c.FirstParameter() + c.LastParameter()))
        if abs(p.X()) < 1e-6 and abs(p.Z() - 6.0) < 1e-6:
            mk.Add(1.5, e)
            found += 1
    if found != 1:
        raise RuntimeError(f"notch: expected one groove edge, found {found}")
    mk.Build()
    return mk.Shape()


MODELS = {
    "pair_lens": (model_lens, (3, 3, 2)),
    "pair_tri_prism": (model_tri_prism, (5, None, None)),
    "pair_ellipsoid_b": (model_ellipsoid_b, (1, None, None)),
    "pair_notch": (model_notch, (None, None, None)),
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--only", nargs="+", choices=sorted(MODELS))
    a = ap.parse_args(argv)
    os.makedirs(a.outdir, exist_ok=True)
    for name in a.only or list(MODELS):
        make, (nf, ne, nv) = MODELS[name]
        shape = make()
        got = (_count(shape, P.TopAbs_FACE), _count(shape, TopAbs_EDGE), _count(shape, TopAbs_VERTEX))
        for want, have, what in zip((nf, ne, nv), got, ("faces", "edges", "vertices")):
            if want is not None and want != have:
                raise RuntimeError(f"{name}: {have} {what}, expected {want}")
        props = GProp_GProps()
        BRepGProp.VolumeProperties_s(shape, props)
        path = os.path.join(a.outdir, f"{name}.step")
        P.write_step(shape, path, name)
        print(f"[make_pair_fixtures] {path}: faces/edges/vertices {got}, "
              f"volume {props.Mass():.4f} mm^3", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
