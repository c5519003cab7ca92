"""Brute-force side of the self-check's containment points (issue 25): each
`LUNE8 face x y z a b e` line of DUMP (a failing containment sample: the
point, body-local, and the check's distance e) is measured against the face
Open CASCADE transfers from the same entity: distance to the face
(BRepExtrema_DistShapeShape), distance to its surface and
BRepClass_FaceClassifier at the point's projection (tolerance 1e-7).
The dump lines came from a temporary eprintln in src/verify/mod.rs's
containment loop (session 22, lune8; not committed).

    python3 tools/oracle/occt_face_classify.py FILE DUMP
"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import occt_face_area as A
from OCP.BRepBuilderAPI import BRepBuilderAPI_MakeVertex
from OCP.BRepExtrema import BRepExtrema_DistShapeShape
from OCP.BRepClass import BRepClass_FaceClassifier
from OCP.BRep import BRep_Tool
from OCP.GeomAPI import GeomAPI_ProjectPointOnSurf
from OCP.gp import gp_Pnt, gp_Pnt2d
from OCP.TopLoc import TopLoc_Location
from OCP.TopoDS import TopoDS
from OCP.TopAbs import TopAbs_IN, TopAbs_ON, TopAbs_OUT
f, dump = sys.argv[1], sys.argv[2]
cf, by = A.load(os.path.basename(f))
names = {TopAbs_IN:'IN', TopAbs_ON:'ON', TopAbs_OUT:'OUT'}
for line in open(dump):
    w = line.split()
    if w[0] != 'LUNE8': continue
    fid = int(''.join(c for c in w[1] if c.isdigit()))
    x, y, z = map(float, w[2:5]); e = float(w[7])
    fa = TopoDS.Face(by[fid][0].Located(TopLoc_Location()))
    p = gp_Pnt(x, y, z)
    d = BRepExtrema_DistShapeShape(BRepBuilderAPI_MakeVertex(p).Vertex(), fa).Value()
    s = BRep_Tool.Surface_s(fa)
    pr = GeomAPI_ProjectPointOnSurf(p, s)
    u, v = pr.LowerDistanceParameters(); ds = pr.LowerDistance()
    st = BRepClass_FaceClassifier(fa, gp_Pnt2d(u, v), 1e-7).State()
    print('#%d ours %.3e  OCC dist-to-face %.3e  off-surface %.1e  classifier %s' % (fid, e, d, ds, names.get(st, st)))
