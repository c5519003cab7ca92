#!/usr/bin/env python3
"""Writes OUTDIR/void_block.brep.igs (IGES 5.3, B-rep mode: a 186 with a void
shell) and OUTDIR/void_block.step (BREP_WITH_VOIDS) with Open CASCADE: a
40 x 30 x 20 mm box at the origin with two cavities, a 10 x 8 x 6 mm box at
(5, 5, 5) and a sphere of radius 4 at (28, 18, 10).
Usage: tools/make_void_block.py fixtures/voids   (needs `pip install cadquery-ocp`)"""
import os
import re
import sys

from OCP.BRep import BRep_Builder
from OCP.BRepPrimAPI import BRepPrimAPI_MakeBox, BRepPrimAPI_MakeSphere
from OCP.gp import gp_Pnt
from OCP.IFSelect import IFSelect_RetDone
from OCP.IGESControl import IGESControl_Writer
from OCP.Interface import Interface_Static
from OCP.STEPControl import STEPControl_AsIs, STEPControl_Writer
from OCP.TopoDS import TopoDS_Solid

out = sys.argv[1]
outer = BRepPrimAPI_MakeBox(40.0, 30.0, 20.0).Shell()
cavity = BRepPrimAPI_MakeBox(gp_Pnt(5.0, 5.0, 5.0), 10.0, 8.0, 6.0).Shell()
ball = BRepPrimAPI_MakeSphere(gp_Pnt(28.0, 18.0, 10.0), 4.0).Shell()
b = BRep_Builder()
solid = TopoDS_Solid()
b.MakeSolid(solid)
b.Add(solid, outer)
# a void shell is the cavity's boundary used reversed (material outside it)
b.Add(solid, cavity.Reversed())
b.Add(solid, ball.Reversed())

Interface_Static.SetIVal_s("write.iges.brep.mode", 1)
Interface_Static.SetCVal_s("write.iges.unit", "MM")
w = IGESControl_Writer("MM", 1)
assert w.AddShape(solid)
w.ComputeModel()
igs = os.path.join(out, "void_block.brep.igs")
assert w.Write(igs)

Interface_Static.SetCVal_s("write.step.schema", "AP214IS")
Interface_Static.SetCVal_s("write.step.unit", "MM")
sw = STEPControl_Writer()
sw.Transfer(solid, STEPControl_AsIs)
stp = os.path.join(out, "void_block.step")
assert sw.Write(stp) == IFSelect_RetDone

# fixed time stamps: the files are committed
for path, pat, rep in [
    (igs, r"15H\d{8}\.\d{6}", "15H20000101.000000"),
    (stp, r"'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d'", "'2000-01-01T00:00:00'"),
]:
    with open(path, encoding="latin-1") as f:
        text = f.read()
    with open(path, "w", encoding="latin-1") as f:
        f.write(re.sub(pat, rep, text))
