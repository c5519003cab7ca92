"""How far the points the pieces of one face keep reach past that face, by Open
CASCADE: each point (one `x y z` line, as `KEPT_POINTS=PATH kept_area FILE FACE`
writes them, body-local) is measured against the face Open CASCADE transfers
from the same entity, without its assembly placement (BRepExtrema_DistShapeShape,
vertex to face). Prints the count,
the largest distance and the farthest points. The brute-force witness of
the self-check's containment at poles (issue 25, pole-fit).

    python3 tools/oracle/occt_face_reach.py FILE FACE_ID POINTS [TOP]
"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import occt_face_area as A
from OCP.BRepBuilderAPI import BRepBuilderAPI_MakeVertex
from OCP.BRepExtrema import BRepExtrema_DistShapeShape
from OCP.gp import gp_Pnt
from OCP.TopLoc import TopLoc_Location

if __name__ == '__main__':
    f, fid, pts = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    cf, by = A.load(os.path.basename(f))
    faces = by.get(fid, [])
    if len(faces) != 1:
        sys.exit('face #%d: %d Open CASCADE faces' % (fid, len(faces)))
    # in the frame of the face's own definition (the pieces are body-local:
    # no assembly placement)
    fa = faces[0].Located(TopLoc_Location())
    out = []
    for line in open(pts):
        x, y, z = map(float, line.split()[:3])
        v = BRepBuilderAPI_MakeVertex(gp_Pnt(x, y, z)).Vertex()
        d = BRepExtrema_DistShapeShape(v, fa)
        if not d.IsDone():
            sys.exit('no distance at %r' % line)
        out.append((d.Value(), x, y, z))
    out.sort(reverse=True)
    print('face #%d: %d points, largest distance to the face %.3e mm (area %.9f mm2)'
          % (fid, len(out), out[0][0] if out else 0.0, A.area(fa)))
    for r in out[:top]:
        print('  %.3e at %.12f %.12f %.12f' % r)
