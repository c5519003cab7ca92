"""Checks Open CASCADE's face classifier against its own p-curves: each point
(one `x y z` line, as `KEPT_POINTS=PATH kept_area FILE FACE` writes them,
body-local) is projected onto the surface of the face Open CASCADE transfers
from the same entity (GeomAPI_ProjectPointOnSurf), classified there by
BRepClass_FaceClassifier, and, independently, by a crossing-number test
against the polygon of that face's own p-curves (every edge of every wire,
`N` points per edge, in the wire explorer's order and orientation). Prints how
many points the classifier puts OUT and how many of those lie inside the
p-curve polygon: a point the classifier calls OUT although it lies on the
surface inside the face's own boundary is a classifier fault, not ours.

    python3 tools/oracle/occt_face_polygon.py FILE FACE_ID POINTS [N]

The witness for a nearer answer that Open CASCADE's BRepExtrema (which
classifies the same way) measures as off the face (issue 25).
"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import occt_face_area as A
from OCP.BRep import BRep_Tool
from OCP.BRepClass import BRepClass_FaceClassifier
from OCP.BRepTools import BRepTools_WireExplorer
from OCP.GeomAPI import GeomAPI_ProjectPointOnSurf
from OCP.TopAbs import TopAbs_REVERSED, TopAbs_WIRE
from OCP.TopExp import TopExp_Explorer
from OCP.TopLoc import TopLoc_Location
from OCP.TopoDS import TopoDS
from OCP.gp import gp_Pnt, gp_Pnt2d


def polygons(fa, n):
    """The face's wires as closed uv polygons of their p-curves."""
    out = []
    wires = TopExp_Explorer(fa, TopAbs_WIRE)
    while wires.More():
        ex = BRepTools_WireExplorer(TopoDS.Wire(wires.Current()), fa)
        wires.Next()
        poly = []
        while ex.More():
            e = ex.Current()
            ex.Next()
            c2 = BRep_Tool.CurveOnSurface_s(e, fa, 0.0, 1.0)
            a, b = BRep_Tool.Range_s(e)
            ts = [a + (b - a) * i / n for i in range(n + 1)]
            if e.Orientation() == TopAbs_REVERSED:
                ts.reverse()
            poly += [(c2.Value(t).X(), c2.Value(t).Y()) for t in ts]
        out.append(poly)
    return out


def crossings(poly, u, v):
    """Crossing number parity of a ray from (u, v) towards +u."""
    inside = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
        if (y1 > v) != (y2 > v) and u < x1 + (v - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


if __name__ == '__main__':
    f, fid, pts = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 400
    cf, by = A.load(os.path.basename(f))
    faces = by.get(fid, [])
    if len(faces) != 1:
        sys.exit('face #%d: %d Open CASCADE faces' % (fid, len(faces)))
    fa = TopoDS.Face(faces[0].Located(TopLoc_Location()))
    surf = BRep_Tool.Surface_s(fa)
    polys = polygons(fa, n)
    total = out = inside_poly = 0
    worst_off = 0.0
    for line in open(pts):
        x, y, z = map(float, line.split()[:3])
        pr = GeomAPI_ProjectPointOnSurf(gp_Pnt(x, y, z), surf)
        u, v = pr.LowerDistanceParameters()
        worst_off = max(worst_off, pr.LowerDistance())
        total += 1
        state = str(BRepClass_FaceClassifier(fa, gp_Pnt2d(u, v), 1e-7).State())
        if state.endswith('OUT'):
            out += 1
            inside_poly += sum(crossings(p, u, v) for p in polys) % 2
    print('face #%d: %d points (at most %.2e mm off the surface), %d wires of %d p-curve '
          'points; classifier OUT %d, of which inside the p-curve polygons %d'
          % (fid, total, worst_off, len(polys), sum(map(len, polys)), out, inside_poly))
