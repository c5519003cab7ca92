#!/usr/bin/env python3
"""Writes fixtures/inch_block.step: a 2 x 1 x 0.5 inch block (6 planes) in an
AP214 file whose length unit is CONVERSION_BASED_UNIT('INCH'), as a product
'inch_block' with a MANIFOLD_SOLID_BREP. Usage: tools/make_inch_block.py OUT"""
import sys

X, Y, Z = 2.0, 1.0, 0.5
lines = []
n = [0]


def e(text):
    n[0] += 1
    lines.append(f"#{n[0]}={text};")
    return n[0]


def pt(p):
    return e("CARTESIAN_POINT('',(%s))" % ",".join(f"{c:.6g}." if c == int(c) else f"{c}" for c in p))


def dr(d):
    return e("DIRECTION('',(%s))" % ",".join(f"{float(c)}" for c in d))


app = e("APPLICATION_CONTEXT('core data for automotive mechanical design processes')")
e(f"APPLICATION_PROTOCOL_DEFINITION('international standard','automotive_design',2000,#{app})")
pc = e(f"PRODUCT_CONTEXT('',#{app},'mechanical')")
prod = e(f"PRODUCT('inch_block','inch_block','',(#{pc}))")
form = e(f"PRODUCT_DEFINITION_FORMATION('','',#{prod})")
pdc = e(f"PRODUCT_DEFINITION_CONTEXT('part definition',#{app},'design')")
pd = e(f"PRODUCT_DEFINITION('design','',#{form},#{pdc})")
pds = e(f"PRODUCT_DEFINITION_SHAPE('','',#{pd})")
mm = e("( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.) )")
dim = e("DIMENSIONAL_EXPONENTS(1.,0.,0.,0.,0.,0.,0.)")
mwu = e(f"LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE(25.4),#{mm})")
inch = e(f"( CONVERSION_BASED_UNIT('INCH',#{mwu}) LENGTH_UNIT() NAMED_UNIT(#{dim}) )")
rad = e("( NAMED_UNIT(*) PLANE_ANGLE_UNIT() SI_UNIT($,.RADIAN.) )")
unc = e(f"UNCERTAINTY_MEASURE_WITH_UNIT(LENGTH_MEASURE(1.E-06),#{inch},'distance_accuracy_value','')")
ctx = e(f"( GEOMETRIC_REPRESENTATION_CONTEXT(3) GLOBAL_UNCERTAINTY_ASSIGNED_CONTEXT((#{unc})) "
        f"GLOBAL_UNIT_ASSIGNED_CONTEXT((#{inch},#{rad})) REPRESENTATION_CONTEXT('','') )")

corners = {}
for i in (0, 1):
    for j in (0, 1):
        for k in (0, 1):
            p = pt((i * X, j * Y, k * Z))
            corners[(i, j, k)] = e(f"VERTEX_POINT('',#{p})")
edges = {}


def edge(a, b):
    key = (a, b)
    if key in edges:
        return edges[key], True
    if (b, a) in edges:
        return edges[(b, a)], False
    pa = [a[0] * X, a[1] * Y, a[2] * Z]
    pb = [b[0] * X, b[1] * Y, b[2] * Z]
    d = [pb[t] - pa[t] for t in range(3)]
    ln = sum(c * c for c in d) ** 0.5
    o = pt(pa)
    v = e(f"VECTOR('',#{dr([c / ln for c in d])},{ln})")
    line = e(f"LINE('',#{o},#{v})")
    ec = e(f"EDGE_CURVE('',#{corners[a]},#{corners[b]},#{line},.T.)")
    edges[key] = ec
    return ec, True


faces = []
# each face: corner cycle counter-clockwise seen from outside, and the outward normal
quads = [
    ([(0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 0, 0)], (0, 0, -1)),
    ([(0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)], (0, 0, 1)),
    ([(0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1)], (0, -1, 0)),
    ([(0, 1, 0), (0, 1, 1), (1, 1, 1), (1, 1, 0)], (0, 1, 0)),
    ([(0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 0)], (-1, 0, 0)),
    ([(1, 0, 0), (1, 1, 0), (1, 1, 1), (1, 0, 1)], (1, 0, 0)),
]
for cyc, nrm in quads:
    oes = []
    for t in range(4):
        ec, fwd = edge(cyc[t], cyc[(t + 1) % 4])
        oes.append(e(f"ORIENTED_EDGE('',*,*,#{ec},{'.T.' if fwd else '.F.'})"))
    loop = e("EDGE_LOOP('',(%s))" % ",".join(f"#{o}" for o in oes))
    bound = e(f"FACE_OUTER_BOUND('',#{loop},.T.)")
    c = cyc[0]
    origin = pt((c[0] * X, c[1] * Y, c[2] * Z))
    ref = [1, 0, 0] if nrm[0] == 0 else [0, 1, 0]
    ax = e(f"AXIS2_PLACEMENT_3D('',#{origin},#{dr(nrm)},#{dr(ref)})")
    plane = e(f"PLANE('',#{ax})")
    faces.append(e(f"ADVANCED_FACE('',(#{bound}),#{plane},.T.)"))
shell = e("CLOSED_SHELL('',(%s))" % ",".join(f"#{f}" for f in faces))
solid = e(f"MANIFOLD_SOLID_BREP('block',#{shell})")
o = pt((0, 0, 0))
ax0 = e(f"AXIS2_PLACEMENT_3D('',#{o},#{dr((0, 0, 1))},#{dr((1, 0, 0))})")
rep = e(f"ADVANCED_BREP_SHAPE_REPRESENTATION('',(#{ax0},#{solid}),#{ctx})")
e(f"SHAPE_DEFINITION_REPRESENTATION(#{pds},#{rep})")

out = open(sys.argv[1], "w")
out.write("ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION(('inch block, hand-made test fixture'),'2;1');\n"
          "FILE_NAME('inch_block.step','2026-01-01T00:00:00',('extrack'),('extrack'),"
          "'extrack tools/make_inch_block.py','extrack fixture writer','');\n"
          "FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'));\nENDSEC;\nDATA;\n")
out.write("\n".join(lines))
out.write("\nENDSEC;\nEND-ISO-10303-21;\n")
