//! STEP text shared by the import stage's malformed-input tests: the file's
//! header and trailer, and a valid one-face solid to mutate.

pub const HEAD: &str = "ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION((''),'2;1');\nFILE_NAME('t','',(''),(''),'','','');\nFILE_SCHEMA(('AUTOMOTIVE_DESIGN'));\nENDSEC;\nDATA;\n";
pub const TAIL: &str = "ENDSEC;\nEND-ISO-10303-21;\n";

/// A valid one-face solid: a disc bounded by a circle.
pub const BODY: &[&str] = &[
    "#1=SHAPE_REPRESENTATION('',(#2),#100);",
    "#2=MANIFOLD_SOLID_BREP('',#3);",
    "#3=CLOSED_SHELL('',(#4));",
    "#4=ADVANCED_FACE('',(#5),#20,.T.);",
    "#5=FACE_OUTER_BOUND('',#6,.T.);",
    "#6=EDGE_LOOP('',(#7));",
    "#7=ORIENTED_EDGE('',*,*,#8,.T.);",
    "#8=EDGE_CURVE('',#9,#9,#11,.T.);",
    "#9=VERTEX_POINT('',#10);",
    "#10=CARTESIAN_POINT('',(1.,0.,0.));",
    "#11=CIRCLE('',#12,1.);",
    "#12=AXIS2_PLACEMENT_3D('',#13,#14,#15);",
    "#13=CARTESIAN_POINT('',(0.,0.,0.));",
    "#14=DIRECTION('',(0.,0.,1.));",
    "#15=DIRECTION('',(1.,0.,0.));",
    "#20=PLANE('',#12);",
    "#100=( GEOMETRIC_REPRESENTATION_CONTEXT(3) GLOBAL_UNIT_ASSIGNED_CONTEXT((#101)) REPRESENTATION_CONTEXT('','') );",
    "#101=( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.) );",
];
