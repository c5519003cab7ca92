"""Brute-force coverage triage of one face (issue 25): a uniform grid of
points on the face's *untrimmed* surface, each with Open CASCADE's distance
to the trimmed face (BRepExtrema; 0 on the face, > 0 in a hole or beyond the
trim). Query the same points with `extrack query SCENE --points OUT --json`:
a scene whose pieces cover the face exactly gives the same distances, so
grid points with 0 on one side and > 0 on the other are area the scene has
and the face has not (or the reverse).

    python3 tools/oracle/occt_face_grid.py FILE FACE_INDEX N OUT.json
    extrack query FILE --points OUT.json --json > ours.json
    python3 tools/oracle/occt_face_grid.py --compare OUT.json ours.json

FACE_INDEX is the face's position in Open CASCADE's face list of the file
(0 for a one-face file).
"""
import sys, os, json
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../shared/oracle'))


def grid(path, index, n, out):
    import occt_common as C
    from OCP.BRep import BRep_Tool
    from OCP.BRepExtrema import BRepExtrema_DistShapeShape
    from OCP.BRepBuilderAPI import BRepBuilderAPI_MakeVertex
    C.quiet_occt()
    face = C.face_list(C.CadFile(path).shape)[index]
    s = BRep_Tool.Surface_s(face)
    u0, u1, v0, v1 = s.Bounds()
    pts, occ = [], []
    for i in range(n):
        for j in range(n):
            p = s.Value(u0 + (u1 - u0) * (i + 0.5) / n, v0 + (v1 - v0) * (j + 0.5) / n)
            d = BRepExtrema_DistShapeShape(BRepBuilderAPI_MakeVertex(p).Vertex(), face)
            pts.append([p.X(), p.Y(), p.Z()])
            occ.append(d.Value())
    json.dump({'points': pts, 'occ': occ}, open(out, 'w'))
    print(f'{n * n} grid points, {sum(d < 1e-6 for d in occ)} on the face (Open CASCADE, < 1e-6 mm)')


def compare(grid_json, ours_json, on=1e-6):
    occ = json.load(open(grid_json))['occ']
    ours = [r['distance'] for r in json.load(open(ours_json))['results']]
    extra = sum(o >= on and e < on for o, e in zip(occ, ours))
    missing = sum(o < on and e >= on for o, e in zip(occ, ours))
    worst = max(abs(o - e) for o, e in zip(occ, ours))
    print(f'{len(occ)} points: on our pieces but off the face {extra}, on the face but off our pieces {missing}, '
          f'largest distance difference {worst:.3g} mm')


if __name__ == '__main__':
    if sys.argv[1] == '--compare':
        compare(sys.argv[2], sys.argv[3])
    else:
        grid(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
