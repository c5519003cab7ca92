"""Whether Open CASCADE's own face holds our nearer closest points (issue 25,
OCC_MISSES evidence). Reads the wrong-point lines that the band test prints
(`BAND_EXAMPLES=50 BAND_ONLY=FILE cargo test --release --test track
point_body_band -- --nocapture | grep 'point '`). For each point it projects
the query onto the surface Open CASCADE transfers from the same entity as our
face (GeomAPI_ProjectPointOnSurf) and classifies that foot on Open CASCADE's
face (BRepClass_FaceClassifier). Our distance equals the projection's distance,
with a foot that is IN or ON, whereas Open CASCADE's answer is farther: then
Open CASCADE has missed the minimum on its own face.

    python3 tools/oracle/occt_foot_check.py FILE LINES.txt [TOL]
"""
import sys, os, re
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import occt_face_area as A
from OCP.BRepClass import BRepClass_FaceClassifier
from OCP.gp import gp_Pnt
from OCP.BRep import BRep_Tool
from OCP.GeomAPI import GeomAPI_ProjectPointOnSurf

if __name__ == '__main__':
    f, lines = sys.argv[1], sys.argv[2]
    tol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-7
    cf, by = A.load(f)
    pat = re.compile(r'\s*point (\d+) at \[\[([-\d.e]+), ([-\d.e]+), ([-\d.e]+)\]\]: '
                     r'd ([-\d.e]+) vs occt ([-\d.e]+).*face (\d+)')
    for l in open(lines):
        m = pat.match(l)
        if not m:
            continue
        q = [float(m.group(k)) for k in (2, 3, 4)]
        d, fid = float(m.group(5)), int(m.group(7))
        res = []
        for fa in by.get(fid, []):
            pr = GeomAPI_ProjectPointOnSurf(gp_Pnt(*q), BRep_Tool.Surface_s(fa))
            if pr.NbPoints() == 0:
                continue
            p, dd = pr.NearestPoint(), pr.LowerDistance()
            state = BRepClass_FaceClassifier(fa, p, tol).State()
            res.append((abs(dd - d), dd, str(state).split('.')[-1]))
        if not res:
            print('point %s face #%d: no projection on Open CASCADE\'s face' % (m.group(1), fid))
            continue
        res.sort()
        print('point %s face #%d: ours %.6e occt %s | projection on its surface %.6e, '
              'classifier at the foot %s' % (m.group(1), fid, d, m.group(6), res[0][1], res[0][2]))
