"""Two solids with a cusp edge (faces meeting tangentially with opposite
outward normals), written with Open CASCADE for tests/track/cusp_edges.rs.

- fin.step: the horn between the line y = 0 and the circle of radius R
  through the origin centred on (0, R), for 0 <= x <= A, extruded 1 mm
  along z: a zero-angle fin whose tip is the edge x = y = 0.
- groove.step: the box [-B, A] x [-B, B] x [0, 1] less that horn: a
  zero-angle groove whose bottom is the same edge.

Usage: python3 tools/oracle/make_cusp_fixtures.py OUTDIR
"""
import math
import sys

from OCP.BRepAlgoAPI import BRepAlgoAPI_Cut
from OCP.BRepBuilderAPI import (BRepBuilderAPI_MakeEdge, BRepBuilderAPI_MakeFace,
                                BRepBuilderAPI_MakeWire)
from OCP.BRepPrimAPI import BRepPrimAPI_MakeBox, BRepPrimAPI_MakePrism
from OCP.GC import GC_MakeArcOfCircle
from OCP.gp import gp_Pnt, gp_Vec
from OCP.IFSelect import IFSelect_RetDone
from OCP.STEPControl import STEPControl_AsIs, STEPControl_Writer

R, A, B = 4.0, 2.0, 3.0


def horn():
    ya = R - math.sqrt(R * R - A * A)
    xm = A / 2.0
    ym = R - math.sqrt(R * R - xm * xm)
    line = BRepBuilderAPI_MakeEdge(gp_Pnt(0, 0, 0), gp_Pnt(A, 0, 0)).Edge()
    side = BRepBuilderAPI_MakeEdge(gp_Pnt(A, 0, 0), gp_Pnt(A, ya, 0)).Edge()
    arc = GC_MakeArcOfCircle(gp_Pnt(A, ya, 0), gp_Pnt(xm, ym, 0), gp_Pnt(0, 0, 0)).Value()
    arc = BRepBuilderAPI_MakeEdge(arc).Edge()
    wire = BRepBuilderAPI_MakeWire(line, side, arc).Wire()
    face = BRepBuilderAPI_MakeFace(wire, True).Face()
    return BRepPrimAPI_MakePrism(face, gp_Vec(0, 0, 1)).Shape()


def write(shape, path):
    w = STEPControl_Writer()
    w.Transfer(shape, STEPControl_AsIs)
    assert w.Write(path) == IFSelect_RetDone, path


def main(out):
    fin = horn()
    write(fin, f"{out}/fin.step")
    box = BRepPrimAPI_MakeBox(gp_Pnt(-B, -B, 0), gp_Pnt(A, B, 1)).Shape()
    write(BRepAlgoAPI_Cut(box, fin).Shape(), f"{out}/groove.step")


if __name__ == "__main__":
    main(sys.argv[1])
