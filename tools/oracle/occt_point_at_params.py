"""Whether our closest point is a point of Open CASCADE's own face (issue 25,
OCC_MISSES evidence), where Open CASCADE's projection cannot find it (near a
collapsed side, a pole).

For each `FACE:U,V:X,Y,Z` (the face's entity id, our closest point's surface
parameters and the point, body-local, as `band_probe` prints them) it
evaluates the surface Open CASCADE transfers from that entity at (U, V),
prints the distance of that point to ours, `BRepClass_FaceClassifier`
(tolerance 1e-9) at (U, V), and `BRepExtrema_DistShapeShape`'s distance from
our point to the face. Our point on Open CASCADE's surface and classified IN
is a point of its face: a farther `BRepExtrema` answer is then its miss.

    python3 tools/oracle/occt_point_at_params.py FILE FACE:U,V:X,Y,Z [...]
"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import occt_face_area as A
from OCP.BRep import BRep_Tool
from OCP.BRepBuilderAPI import BRepBuilderAPI_MakeVertex
from OCP.BRepClass import BRepClass_FaceClassifier
from OCP.BRepExtrema import BRepExtrema_DistShapeShape
from OCP.gp import gp_Pnt, gp_Pnt2d

if __name__ == '__main__':
    cf, by = A.load(os.path.basename(sys.argv[1]))
    for arg in sys.argv[2:]:
        face, uv, xyz = arg.split(':')
        u, v = map(float, uv.split(','))
        p = gp_Pnt(*map(float, xyz.split(',')))
        for fa in by.get(int(face), []):
            s = BRep_Tool.Surface_s(fa)
            at = s.Value(u, v)
            st = str(BRepClass_FaceClassifier(fa, gp_Pnt2d(u, v), 1e-9).State()).split('_')[-1]
            d = BRepExtrema_DistShapeShape(BRepBuilderAPI_MakeVertex(p).Vertex(), fa).Value()
            print('face #%s at (%.9g, %.9g): its surface there is %.2e mm from our point, classifier %s; '
                  'BRepExtrema from our point to the face %.3e mm' % (face, u, v, at.Distance(p), st, d))
