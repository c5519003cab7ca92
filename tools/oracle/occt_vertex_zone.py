"""Whether Open CASCADE's answer near a face corner is the distance to the
face or to the classifier's tolerance zone round a vertex (issue 25,
OCC_MISSES evidence).

For each POINT (our closest point, body-local) it looks at every face of
Open CASCADE's shape whose surface holds the point (within 1e-9 mm; the
face may be split or renumbered by Open CASCADE, so faces are not matched
by entity id) and prints:
- BRepExtrema's distance from the point to that face, and the face's
  nearest vertex with its tolerance;
- BRepClass_FaceClassifier (tolerance 1e-9) at the point's parameters;
- the classifier on rings of radius r round the point, 24 directions per
  ring, with the ring's radius in mm (directions scaled by the surface's
  first derivatives, so the ring is round in 3-D).

A point in a face's interior (the rings at r >= its distance to the vertex
all IN, in every direction) for which the classifier still answers ON has
fallen in the classifier's zone round a vertex; BRepExtrema then measures
to the vertex, so its distance is the distance to the vertex, not to the
face.

    python3 tools/oracle/occt_vertex_zone.py FILE X,Y,Z [X,Y,Z ...]
"""
import sys, os, math
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import occt_face_area as A
import occt_common as C
from OCP.BRep import BRep_Tool
from OCP.BRepBuilderAPI import BRepBuilderAPI_MakeVertex
from OCP.BRepClass import BRepClass_FaceClassifier
from OCP.BRepExtrema import BRepExtrema_DistShapeShape
from OCP.GeomAPI import GeomAPI_ProjectPointOnSurf
from OCP.TopAbs import TopAbs_VERTEX
from OCP.TopExp import TopExp_Explorer
from OCP.TopoDS import TopoDS
from OCP.gp import gp_Pnt, gp_Pnt2d, gp_Vec


def state(fa, u, v):
    return str(BRepClass_FaceClassifier(fa, gp_Pnt2d(u, v), 1e-9).State()).split('_')[-1]


def nearest_vertex(fa, p):
    best = (math.inf, 0.0)
    e = TopExp_Explorer(fa, TopAbs_VERTEX)
    while e.More():
        vx = TopoDS.Vertex(e.Current())
        best = min(best, (BRep_Tool.Pnt_s(vx).Distance(p), BRep_Tool.Tolerance_s(vx)))
        e.Next()
    return best


if __name__ == '__main__':
    f = sys.argv[1]
    cf, _ = A.load(os.path.basename(f))
    faces = C.face_list(cf.shape)
    for arg in sys.argv[2:]:
        p = gp_Pnt(*map(float, arg.split(',')))
        print('point (%s)' % arg)
        for fa in faces:
            s = BRep_Tool.Surface_s(fa)
            pr = GeomAPI_ProjectPointOnSurf(p, s)
            if pr.NbPoints() == 0 or pr.LowerDistance() > 1e-9:
                continue
            u, v = pr.LowerDistanceParameters()
            d = BRepExtrema_DistShapeShape(BRepBuilderAPI_MakeVertex(p).Vertex(), fa).Value()
            dv, tv = nearest_vertex(fa, p)
            print('  face %s area %.3f: off-surface %.1e, distance to the face %.3e, classifier %s; '
                  'nearest vertex %.3e away (tolerance %.1e)'
                  % (C.surface_type_name(fa), A.area(fa), pr.LowerDistance(), d, state(fa, u, v), dv, tv))
            su, sv = gp_Pnt(), gp_Pnt()
            du, dvv = gp_Vec(), gp_Vec()
            s.D1(u, v, su, du, dvv)
            gu, gv = max(du.Magnitude(), 1e-300), max(dvv.Magnitude(), 1e-300)
            for r in (0.25 * dv, 0.5 * dv, dv, 2 * dv, 4 * dv):
                row = []
                for k in range(24):
                    a = 2 * math.pi * k / 24
                    row.append(state(fa, u + r * math.cos(a) / gu, v + r * math.sin(a) / gv)[:2])
                print('    ring %.2e mm: %s' % (r, ' '.join(row)))
