#!/usr/bin/env python3
"""Decides a sign dispute between extrack and Open CASCADE's classifier.

When both agree on a point's distance d but not on its side, let c be the
closest point (extrack's answer, at Open CASCADE's distance). Every point of
the open segment (c, q] has the same closest point c and distance t·d, so it
cannot cross the boundary: all of them lie on the same side as q. This script
classifies 20 points of that segment with the oracle's own inside tester
(`occt_common.InsideTester`, the one that made `oracle/` and
`oracle_boundary/`) and with the local geometry at c (the outward normals of
the faces Open CASCADE finds within 1e-7 mm of c: the point is outside when
q − c has a non-negative component along every one of them, inside when
non-positive along every one):

  consistent   the classifier gives one side along the whole segment
  inconsistent the classifier changes its answer along a segment that cannot
               change side: its answer at q is not evidence
  local        'out' / 'in' from the outward normals at c (components below
               1e-6 of d count as zero); 'mixed' where faces with opposite
               normals meet at c (an internal double wall); 'tangent' where
               q − c is tangent to every face found there

Usage (extrack's answers from `extrack query --json`):

    python3 tools/oracle/occt_sign_segment.py FILE --extrack target/release/extrack \
        --points '[[x,y,z], …]'

or `--boundary-rows 780,873` to take the query points from the file's
`fixtures/oracle_boundary/<file>.boundary.csv.zst` (row numbers from 0, as the
band test prints them), or `--disputes` to take every row of that file whose
side differs from extrack's while the distances agree (1e-6 relative).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "oracle"))
sys.path.insert(0, SHARED)

import occt_common as C  # noqa: E402
from OCP.BRep import BRep_Tool  # noqa: E402
from OCP.BRepBuilderAPI import BRepBuilderAPI_MakeVertex  # noqa: E402
from OCP.BRepExtrema import BRepExtrema_DistShapeShape  # noqa: E402
from OCP.BRepLProp import BRepLProp_SLProps  # noqa: E402
from OCP.BRepAdaptor import BRepAdaptor_Surface  # noqa: E402
from OCP.GeomAPI import GeomAPI_ProjectPointOnSurf  # noqa: E402
from OCP.TopAbs import TopAbs_REVERSED  # noqa: E402
from OCP.gp import gp_Pnt  # noqa: E402


def boundary_table(path: str) -> list[list[str]]:
    """The rows of the file's boundary points (kind,x,y,z,dist,inside,support,face)."""
    name = os.path.basename(path)
    csv = os.path.join(HERE, "..", "..", "fixtures", "oracle_boundary", f"{name}.boundary.csv.zst")
    text = subprocess.run(["zstd", "-dc", csv], check=True, capture_output=True, text=True).stdout
    return [line.split(",") for line in text.splitlines() if line and not line.startswith(("#", "kind"))]


def disputes(exe: str, path: str) -> list[list[float]]:
    """Boundary rows where the distances agree and the sides do not."""
    rows = boundary_table(path)
    pts = [[float(x) for x in r[1:4]] for r in rows]
    out = []
    for row, q, r in zip(rows, pts, extrack_answers(exe, path, pts)):
        d, inside = float(row[4]), row[5]
        if inside == "" or abs(r["distance"] - d) > 1e-6 * max(1.0, d):
            continue
        if (r["signed_distance"] < 0) != (inside == "1"):
            out.append(q)
    return out


def extrack_answers(exe: str, path: str, points: list[list[float]]) -> list[dict]:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"points": points}, f)
    out = subprocess.run([exe, "query", "--json", "--points", f.name, path],
                         check=True, capture_output=True, text=True).stdout
    os.unlink(f.name)
    return json.loads(out)["results"]


def outward_normals(faces, c) -> list[tuple[float, float, float]]:
    """Outward unit normals of the faces within 1e-7 mm of c."""
    v = BRepBuilderAPI_MakeVertex(gp_Pnt(*c)).Vertex()
    out = []
    for face in faces:
        d = BRepExtrema_DistShapeShape(v, face)
        d.Perform()
        if not d.IsDone() or d.Value() > 1e-7:
            continue
        surf = BRep_Tool.Surface_s(face)
        proj = GeomAPI_ProjectPointOnSurf(gp_Pnt(*c), surf)
        if proj.NbPoints() == 0:
            continue
        u, w = proj.LowerDistanceParameters()
        props = BRepLProp_SLProps(BRepAdaptor_Surface(face), u, w, 1, 1e-9)
        if not props.IsNormalDefined():
            continue
        n = props.Normal()
        s = -1.0 if face.Orientation() == TopAbs_REVERSED else 1.0
        out.append((s * n.X(), s * n.Y(), s * n.Z()))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--extrack", required=True)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--points")
    g.add_argument("--boundary-rows")
    g.add_argument("--disputes", action="store_true")
    a = ap.parse_args()
    if a.points:
        pts = json.loads(a.points)
    elif a.disputes:
        pts = disputes(a.extrack, a.file)
    else:
        rows = boundary_table(a.file)
        pts = [[float(x) for x in rows[int(k)][1:4]] for k in a.boundary_rows.split(",")]
    cf = C.CadFile(a.file)
    tester = C.InsideTester(cf.shape)
    faces = C.face_list(cf.shape)
    for q, r in zip(pts, extrack_answers(a.extrack, a.file, pts)):
        c = r["point"]
        sides = []
        for k in range(1, 21):
            t = k / 20.0
            sides.append(tester.classify([c[i] + t * (q[i] - c[i]) for i in range(3)]))
        verdict = "consistent" if len(set(sides)) == 1 else "inconsistent"
        dq = [q[i] - c[i] for i in range(3)]
        dots = [sum(n[i] * dq[i] for i in range(3)) for n in outward_normals(faces, c)]
        # components below 1e-6 of the distance count as tangent (zero)
        tiny = 1e-6 * max(1.0, r["distance"])
        signs = [0 if abs(x) <= tiny else (1 if x > 0 else -1) for x in dots]
        local = ("no face" if not dots else "tangent" if all(x == 0 for x in signs) else
                 "out" if all(x >= 0 for x in signs) else
                 "in" if all(x <= 0 for x in signs) else "mixed")
        ours = "in" if r["signed_distance"] < 0 else "out"
        print(json.dumps({"q": q, "d": r["distance"], "extrack": ours,
                          "occt_at_q": sides[-1], "occt_segment": verdict,
                          "occt_sides": "".join(s[0] if s else "-" for s in sides),
                          "local": local, "normal_dots": [round(x, 9) for x in dots]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
