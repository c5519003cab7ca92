"""Shared helpers of the body-pair oracle scripts (Open CASCADE through OCP).

Reading, writing and the small pieces of geometry both make_pair_fixtures.py
and make_pair_oracle.py use. Lengths are millimetres throughout.
"""

from __future__ import annotations

import math
import os
import re
import sys

from OCP.BRepCheck import BRepCheck_Analyzer
from OCP.IFSelect import IFSelect_RetDone
from OCP.Interface import Interface_Static
from OCP.Message import Message, Message_Gravity
from OCP.STEPControl import STEPControl_AsIs, STEPControl_Reader, STEPControl_Writer
from OCP.TopAbs import TopAbs_SOLID, TopAbs_FACE
from OCP.TopExp import TopExp
from OCP.TopoDS import TopoDS
from OCP.collections import IndexedMap_TopoDS_Shape_TopTools_ShapeMapHasher
from OCP.gp import gp_Trsf

FIXED_STAMP_STEP = "2000-01-01T00:00:00"


def quiet_occt() -> None:
    """Silence OCCT's messenger (set OCCT_ORACLE_VERBOSE=1 to keep it)."""
    if os.environ.get("OCCT_ORACLE_VERBOSE"):
        return
    for printer in Message.DefaultMessenger_s().Printers():
        printer.SetTraceLevel(Message_Gravity.Message_Fail)


quiet_occt()


def ocp_version() -> str:
    try:
        from importlib.metadata import version
        return version("cadquery-ocp")
    except Exception:  # pragma: no cover - best effort
        return "unknown"


def _map(shape, kind):
    m = IndexedMap_TopoDS_Shape_TopTools_ShapeMapHasher()
    TopExp.MapShapes_s(shape, kind, m)
    return [m.FindKey(i) for i in range(1, m.Extent() + 1)]


def solids(shape) -> list:
    """Unique solids in TopExp order (each carries its placement as Location)."""
    return [TopoDS.Solid_s(s) if hasattr(TopoDS, "Solid_s") else TopoDS.Solid(s)
            for s in _map(shape, TopAbs_SOLID)]


def faces(shape) -> list:
    """Unique faces in TopExp order."""
    return [TopoDS.Face_s(s) if hasattr(TopoDS, "Face_s") else TopoDS.Face(s)
            for s in _map(shape, TopAbs_FACE)]


def read_step(path: str):
    r = STEPControl_Reader()
    if r.ReadFile(path) != IFSelect_RetDone:
        raise RuntimeError(f"STEP reader failed on {path}")
    r.TransferRoots()
    shape = r.OneShape()
    if shape is None or shape.IsNull():
        raise RuntimeError(f"no shape in {path}")
    return shape


def write_step(shape, path: str, name: str | None = None) -> None:
    """STEP AP214, mm, with a fixed time stamp (regenerating does not churn).
    With `name`, the shape goes through an XCAF document so the product is
    called `name` (instead of OCCT's "Open CASCADE STEP translator ...")."""
    if not BRepCheck_Analyzer(shape).IsValid():
        raise RuntimeError(f"refusing to write an invalid shape to {path}")
    Interface_Static.SetCVal_s("write.step.schema", "AP214IS")
    Interface_Static.SetCVal_s("write.step.unit", "MM")
    if name is None:
        w = STEPControl_Writer()
        if w.Transfer(shape, STEPControl_AsIs) != IFSelect_RetDone:
            raise RuntimeError(f"STEP transfer failed for {path}")
        if w.Write(path) != IFSelect_RetDone:
            raise RuntimeError(f"STEP write failed for {path}")
    else:
        from OCP.STEPCAFControl import STEPCAFControl_Writer
        from OCP.TCollection import TCollection_ExtendedString
        from OCP.TDataStd import TDataStd_Name
        from OCP.TDocStd import TDocStd_Document
        from OCP.XCAFApp import XCAFApp_Application
        from OCP.XCAFDoc import XCAFDoc_DocumentTool
        app = XCAFApp_Application.GetApplication_s()
        doc = TDocStd_Document(TCollection_ExtendedString("MDTV-XCAF"))
        app.InitDocument(doc)
        tool = XCAFDoc_DocumentTool.ShapeTool_s(doc.Main())
        label = tool.AddShape(shape, False)
        TDataStd_Name.Set_s(label, TCollection_ExtendedString(name))
        w = STEPCAFControl_Writer()
        if not w.Transfer(doc, STEPControl_AsIs):
            raise RuntimeError(f"STEPCAF transfer failed for {path}")
        if w.Write(path) != IFSelect_RetDone:
            raise RuntimeError(f"STEP write failed for {path}")
    with open(path, "r", newline="") as fh:
        text = fh.read()
    text = re.sub(r"(FILE_NAME\('[^']*',')\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d'",
                  lambda m: m.group(1) + FIXED_STAMP_STEP + "'", text, count=1)
    with open(path, "w", newline="") as fh:
        fh.write(text)


def trsf_from_rows(m) -> gp_Trsf:
    """gp_Trsf from 16 numbers (row-major 4x4, last row 0 0 0 1)."""
    t = gp_Trsf()
    t.SetValues(m[0], m[1], m[2], m[3],
                m[4], m[5], m[6], m[7],
                m[8], m[9], m[10], m[11])
    return t


def rows_from_trsf(t: gp_Trsf) -> list:
    out = []
    for i in range(1, 4):
        out += [t.Value(i, 1), t.Value(i, 2), t.Value(i, 3), t.Value(i, 4)]
    return out + [0.0, 0.0, 0.0, 1.0]


def quat_matrix(q):
    w, x, y, z = q
    n = math.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]


def pose_rows(rot, t) -> list:
    """16 numbers row-major of [rot t; 0 0 0 1]."""
    return [rot[0][0], rot[0][1], rot[0][2], t[0],
            rot[1][0], rot[1][1], rot[1][2], t[1],
            rot[2][0], rot[2][1], rot[2][2], t[2],
            0.0, 0.0, 0.0, 1.0]


def die(msg: str) -> None:
    print(msg, file=sys.stderr)
    sys.exit(1)
