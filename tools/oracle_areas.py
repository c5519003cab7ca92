#!/usr/bin/env python3
"""Face areas of STEP files from Open CASCADE, integrated to a requested
relative accuracy, as ground truth for the offline stage's area check
(tests/prepare_fixtures.rs).

Open CASCADE's default `BRepGProp::SurfaceProperties(face, props)` uses a
fixed Gauss order: on a plane bounded by a B-spline edge (sculpted's side
faces) or on a B-spline face it is off by up to 1e-4 relative. The adaptive
overload `SurfaceProperties(face, props, eps)` integrates until the estimated
relative error is below `eps` and reports the estimate; this script records
both the area and that estimate per face.

Usage (needs `pip install cadquery-ocp`; reads the oracle helpers of
../shared/oracle for the STEP entity ids):

    python3 tools/oracle_areas.py fixtures/sculpted.step [more.step ...] --out-dir fixtures/oracle

writes `<stem>.areas.json` per file:
`{"file", "ocp_version", "eps", "faces": [{"step_id", "type", "area", "error"}]}`.
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
from OCP.GProp import GProp_GProps  # noqa: E402


def areas(path: str, eps: float) -> dict:
    cf = C.CadFile(path)
    faces = C.face_list(cf.shape)
    ents = cf.face_entities(faces)
    out = []
    for f, e in zip(faces, ents):
        props = GProp_GProps()
        err = BRepGProp.SurfaceProperties_s(f, props, eps)
        out.append({
            "step_id": e["step_id"] if e else None,
            "type": str(BRepAdaptor_Surface(f).GetType()).split(".")[-1].replace("GeomAbs_", ""),
            "area": props.Mass(),
            "error": err,
        })
    return {"file": os.path.basename(path), "ocp_version": C.ocp_version(), "eps": eps, "faces": out}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out-dir", default=".")
    ap.add_argument("--eps", type=float, default=1e-10)
    a = ap.parse_args()
    for p in a.files:
        stem = os.path.splitext(os.path.basename(p))[0]
        dst = os.path.join(a.out_dir, f"{stem}.areas.json")
        with open(dst, "w") as fh:
            json.dump(areas(p, a.eps), fh, indent=1)
            fh.write("\n")
        print(dst)


if __name__ == "__main__":
    main()
