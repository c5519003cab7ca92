"""Open CASCADE's area of the faces listed in a verify_known.tsv-style file
(file<TAB>face id per line): the face Open CASCADE transfers from the same STEP
entity (#id, through the reader's transfer map and the DATA section's order)
or IGES directory entry, area by BRepGProp. The independent witness of the
self-check's coverage triage (issue 25).

    python3 tools/oracle/occt_face_area.py tests/prepare/verify_known.tsv
"""
import sys, os
sys.path.insert(0,os.path.join(os.path.dirname(os.path.abspath(__file__)),'../../../shared/oracle'))
import occt_common as C
from OCP.GProp import GProp_GProps
from OCP.BRepGProp import BRepGProp
C.quiet_occt()
root=os.path.join(os.path.dirname(os.path.abspath(__file__)),'../../../shared/fixtures')
def path(f):
    p=os.path.join(root,'corpus',f)
    return p if os.path.exists(p) else os.path.join(root,'wave2/corpus',f)
def load(f):
    """(CadFile, {file face id: [TopoDS_Face]})"""
    cf=C.CadFile(path(f)); faces=C.face_list(cf.shape)
    tr=cf.reader.WS().TransferReader()
    by={}
    if cf.format=='iges':
        m=cf.reader.IGESModel()
        for fa in faces:
            e=tr.EntityFromShapeResult(fa,-1)
            if e is not None: by.setdefault(m.DNum(e),[]).append(fa)
    else:
        m=cf.reader.StepModel()
        import re
        txt=open(path(f),errors='replace').read()
        txt=txt[txt.find('DATA;'):]
        labels=[int(x) for x in re.findall(r'(?m)^\s*#(\d+)\s*=',txt)]
        assert len(labels)==m.NbEntities(), (len(labels), m.NbEntities())
        alive=[m.Value(k) for k in range(1,m.NbEntities()+1)]
        index={id(v):k for k,v in enumerate(alive,start=1)}
        for fa in faces:
            e=tr.EntityFromShapeResult(fa,-1)
            if e is None: continue
            k=index.get(id(e))
            if k is None: continue
            by.setdefault(labels[k-1],[]).append(fa)
        load.alive=alive
    return cf,by
def area(fa):
    g=GProp_GProps(); BRepGProp.SurfaceProperties_s(fa,g); return g.Mass()
if __name__=='__main__':
    rows=[l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if not l.startswith('#') and l.strip()]
    files={}
    for r in rows: files.setdefault(r[0],[]).append(int(r[1]))
    for f,ids in files.items():
        try: cf,by=load(f)
        except Exception as e: print(f,'ERR',e,flush=True); continue
        for i in ids:
            fs=by.get(i,[])
            print(f,i,' '.join('%.6f %s'%(area(fa),C.surface_type_name(fa)) for fa in fs) or 'none',flush=True)
