#!/usr/bin/env python3
"""Small files of exporter classes the corpora lack, written by Open CASCADE,
with Open CASCADE's closest points as ground truth (issue 25).

Models (lengths in mm; the IGES files are written in inches, unit flag 1):
  rev_inch     a solid of revolution of a B-spline profile over 270 degrees
               (end caps planar), with a cylindrical hole through its wall:
               IGES 120 surfaces of revolution trimmed by 144/142
  tabcyl_inch  a prism of a closed B-spline profile with a slanted
               cylindrical hole: IGES 122 tabulated cylinders trimmed by
               144/142

For each NAME this writes into OUTDIR: NAME.faces.igs (faces mode,
write.iges.brep.mode = 0, inches), NAME.closest.json (occt_closest on the
IGES file as read back, --points N, --seed S). For the models of BREP it
also writes NAME.brep.igs (B-rep mode: a 186 solid of 514 shells and 510
faces on the same 120 / 122 surfaces, whose sense flags and loop directions
are taken against the IGES surfaces' own normals) and NAME.brep.closest.json.

Usage:  make_class_fixtures.py OUTDIR [--oracle DIR] [--points 200] [--seed 7]
  --oracle DIR  where ../shared/oracle (occt_common, occt_closest) lives
"""
from __future__ import annotations

import argparse
import math
import os
import re
import sys

from OCP.BRepAlgoAPI import BRepAlgoAPI_Cut
from OCP.BRepBuilderAPI import (BRepBuilderAPI_MakeEdge, BRepBuilderAPI_MakeFace,
                                BRepBuilderAPI_MakeWire)
from OCP.BRepCheck import BRepCheck_Analyzer
from OCP.BRepPrimAPI import BRepPrimAPI_MakeCylinder, BRepPrimAPI_MakePrism, BRepPrimAPI_MakeRevol
from OCP.GeomAPI import GeomAPI_Interpolate
from OCP.gp import gp_Ax1, gp_Ax2, gp_Dir, gp_Pnt, gp_Vec
from OCP.IGESControl import IGESControl_Writer
from OCP.Interface import Interface_Static
from OCP.collections import HArray1_gp_Pnt


def _interp(points, closed):
    arr = HArray1_gp_Pnt(1, len(points))
    for i, p in enumerate(points, 1):
        arr.SetValue(i, gp_Pnt(*p))
    it = GeomAPI_Interpolate(arr, closed, 1e-9)
    it.Perform()
    return it.Curve()


def model_rev_inch():
    # profile in the xz plane: a bulging wall from z = 0 to z = 60, closed by
    # lines along the axis side (x = 8) so the revolution is a thick shell
    outer = [(20.0, 0.0, 0.0), (26.0, 0.0, 15.0), (24.0, 0.0, 30.0), (18.0, 0.0, 45.0), (22.0, 0.0, 60.0)]
    curve = _interp(outer, False)
    e1 = BRepBuilderAPI_MakeEdge(curve).Edge()
    e2 = BRepBuilderAPI_MakeEdge(gp_Pnt(22, 0, 60), gp_Pnt(8, 0, 60)).Edge()
    e3 = BRepBuilderAPI_MakeEdge(gp_Pnt(8, 0, 60), gp_Pnt(8, 0, 0)).Edge()
    e4 = BRepBuilderAPI_MakeEdge(gp_Pnt(8, 0, 0), gp_Pnt(20, 0, 0)).Edge()
    wire = BRepBuilderAPI_MakeWire(e1, e2, e3, e4).Wire()
    face = BRepBuilderAPI_MakeFace(wire, True).Face()
    solid = BRepPrimAPI_MakeRevol(face, gp_Ax1(gp_Pnt(0, 0, 0), gp_Dir(0, 0, 1)), math.radians(270)).Shape()
    hole = BRepPrimAPI_MakeCylinder(gp_Ax2(gp_Pnt(-40, -5, 30), gp_Dir(1, 0, 0)), 6.0, 80.0).Shape()
    return BRepAlgoAPI_Cut(solid, hole).Shape()


def model_tabcyl_inch():
    pts = [(30.0, 0.0, 0.0), (18.0, 20.0, 0.0), (-10.0, 24.0, 0.0), (-28.0, 4.0, 0.0),
           (-16.0, -20.0, 0.0), (12.0, -18.0, 0.0)]
    curve = _interp(pts, True)
    wire = BRepBuilderAPI_MakeWire(BRepBuilderAPI_MakeEdge(curve).Edge()).Wire()
    face = BRepBuilderAPI_MakeFace(wire, True).Face()
    prism = BRepPrimAPI_MakePrism(face, gp_Vec(0, 0, 40)).Shape()
    hole = BRepPrimAPI_MakeCylinder(gp_Ax2(gp_Pnt(-50, 2, 10), gp_Dir(1, 0.1, 0.5)), 5.0, 120.0).Shape()
    return BRepAlgoAPI_Cut(prism, hole).Shape()


MODELS = {"rev_inch": model_rev_inch, "tabcyl_inch": model_tabcyl_inch}


BREP = ("rev_inch",)


def write_iges_inch(shape, path, brep=False):
    Interface_Static.SetIVal_s("write.iges.brep.mode", 1 if brep else 0)
    Interface_Static.SetCVal_s("write.iges.unit", "IN")
    w = IGESControl_Writer("IN", 1 if brep else 0)
    if not w.AddShape(shape):
        raise RuntimeError(f"IGES AddShape failed for {path}")
    w.ComputeModel()
    if not w.Write(path):
        raise RuntimeError(f"IGES write failed for {path}")
    text = open(path, encoding="latin-1").read()
    text = re.sub(r"15H\d{8}\.\d{6}", "15H20000101.000000", text)
    open(path, "w", encoding="latin-1").write(text)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--oracle", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "oracle"))
    ap.add_argument("--points", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args(argv)
    sys.path.insert(0, os.path.abspath(a.oracle))
    import occt_common as C
    import occt_closest
    os.makedirs(a.outdir, exist_ok=True)
    for name, make in MODELS.items():
        shape = make()
        if not BRepCheck_Analyzer(shape).IsValid():
            raise RuntimeError(f"{name}: Open CASCADE built an invalid shape")
        for brep in (False, True) if name in BREP else (False,):
            path = os.path.join(a.outdir, f"{name}.{'brep' if brep else 'faces'}.igs")
            write_iges_inch(shape, path, brep)
            res = occt_closest.closest_file(path, a.points, a.seed)
            res.pop("elapsed_s", None)
            C.dump_json(res, os.path.join(a.outdir, f"{name}{'.brep' if brep else ''}.closest.json"))
            kinds = sorted({f["type"] for f in res["faces"]})
            print(f"{name}{' (brep)' if brep else ''}: {res['face_count']} faces {kinds}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
