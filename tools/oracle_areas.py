#!/usr/bin/env python3
"""Face areas of STEP files from Open CASCADE, integrated to a requested
relative accuracy, as ground truth for the offline stage's area check
(tests/prepare/prepare_fixtures.rs).

Open CASCADE's default `BRepGProp::SurfaceProperties(face, props)` uses a
fixed Gauss order: on a plane bounded by a B-spline edge (sculpted's side
faces) or on a B-spline face it is off by up to 1e-4 relative. The adaptive
overload `SurfaceProperties(face, props, eps)` integrates until the estimated
relative error is below `eps` and reports the estimate; this script records
both the area and that estimate per face.

Usage (needs `pip install cadquery-ocp`; reads the oracle helpers of
../shared/oracle for the file entity of each face):

    python3 tools/oracle_areas.py fixtures/sculpted.step [more.step|.igs ...] --out-dir fixtures/oracle

writes `<stem>.areas.json` per file (`<name>.areas.json` with `--keep-ext`):
`{"file", "ocp_version", "eps", "faces": [{"step_id" | "iges_de", "type", "area", "error",
"perimeter", "edge_tolerance"}]}`
(`step_id` = the face's `#N` label in the file, `iges_de` = its directory-entry number),
one record per face instance (an instanced part's faces repeat their entity).
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared", "oracle"))

import occt_common as C  # noqa: E402
from OCP.BRepAdaptor import BRepAdaptor_Surface  # noqa: E402
from OCP.BRepGProp import BRepGProp  # noqa: E402
from OCP.BRep import BRep_Tool  # noqa: E402
from OCP.BRepAdaptor import BRepAdaptor_Curve  # noqa: E402
from OCP.GCPnts import GCPnts_AbscissaPoint  # noqa: E402
from OCP.GProp import GProp_GProps  # noqa: E402
from OCP.TopAbs import TopAbs_EDGE  # noqa: E402
from OCP.TopExp import TopExp_Explorer  # noqa: E402
from OCP.TopoDS import TopoDS  # noqa: E402


def boundary(face) -> tuple:
    """(perimeter, largest edge tolerance) of a face's edges: a file whose
    p-curves and 3-D edges disagree gets edge tolerances that cover the gap,
    so the area is only defined to about perimeter × tolerance."""
    per, tol = 0.0, 0.0
    ex = TopExp_Explorer(face, TopAbs_EDGE)
    while ex.More():
        e = TopoDS.Edge(ex.Current())
        tol = max(tol, BRep_Tool.Tolerance_s(e))
        if not BRep_Tool.Degenerated_s(e):
            try:
                per += GCPnts_AbscissaPoint.Length_s(BRepAdaptor_Curve(e))
            except Exception:  # an edge without a 3-D curve: no length
                pass
        ex.Next()
    return per, tol


def step_labels(path: str) -> list:
    """The `#N` labels of a STEP file's DATA section in file order: Open
    CASCADE numbers entities 1, 2, ... in this order (the oracle helpers'
    `step_id` is that ordinal, equal to the label only in files labelled
    1, 2, ...)."""
    text = open(path, encoding="latin-1").read()
    labels, i, n = [], text.find("DATA;") + 5, len(text)
    stmt_start = True
    while 4 < i < n:
        ch = text[i]
        if ch == "'":
            j = i + 1
            while j < n:
                if text[j] == "'":
                    if j + 1 < n and text[j + 1] == "'":
                        j += 2
                        continue
                    break
                j += 1
            i, stmt_start = j + 1, False
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if ch == ";":
            stmt_start = True
        elif stmt_start and ch == "#":
            j = i + 1
            while j < n and text[j].isdigit():
                j += 1
            labels.append(int(text[i + 1:j]))
            i, stmt_start = j, False
            continue
        elif stmt_start and text.startswith("ENDSEC", i):
            break
        elif not ch.isspace():
            stmt_start = False
        i += 1
    return labels


def areas(path: str, eps: float) -> dict:
    cf = C.CadFile(path)
    faces = C.face_list(cf.shape)
    ents = cf.face_entities(faces)
    labels = step_labels(path) if cf.format == "step" else None
    out = []
    for f, e in zip(faces, ents):
        props = GProp_GProps()
        err = BRepGProp.SurfaceProperties_s(f, props, eps)
        per, tol = boundary(f)
        ent = {k: v for k, v in (e or {}).items() if k in ("step_id", "iges_de")}
        if labels is not None and "step_id" in ent:
            ent["step_id"] = labels[ent["step_id"] - 1]
        out.append({
            **ent,
            "type": str(BRepAdaptor_Surface(f).GetType()).split(".")[-1].replace("GeomAbs_", ""),
            "area": props.Mass(),
            "error": err,
            "perimeter": per,
            "edge_tolerance": tol,
        })
    return {"file": os.path.basename(path), "ocp_version": C.ocp_version(), "eps": eps, "faces": out}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out-dir", default=".")
    ap.add_argument("--eps", type=float, default=1e-10)
    ap.add_argument("--keep-ext", action="store_true", help="name outputs <file name>.areas.json")
    a = ap.parse_args()
    for p in a.files:
        base = os.path.basename(p)
        stem = base if a.keep_ext else os.path.splitext(base)[0]
        dst = os.path.join(a.out_dir, f"{stem}.areas.json")
        with open(dst, "w") as fh:
            json.dump(areas(p, a.eps), fh, indent=1)
            fh.write("\n")
        print(dst)


if __name__ == "__main__":
    main()
