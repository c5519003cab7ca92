//! Hand-written STEP snippets for the exactness fixes of issue 25: strings
//! never stop an import, bare surfaces of geometric sets are faces, vertex
//! loops and FACE_BOUND-only faces keep their meaning, p-curves get their own
//! parameter range.

use super::{read_step, StepError};
use crate::geom::Vec3;
use crate::import::model::{Body, Model, Surface};

/// A Part 21 file around `data` (instance lines) with the FILE_NAME `name`.
fn file(name: &str, data: &[&str]) -> String {
    let mut s = format!(
        "ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION((''),'2;1');\nFILE_NAME('{name}','',(''),(''),'','','');\nFILE_SCHEMA(('CONFIG_CONTROL_DESIGN'));\nENDSEC;\nDATA;\n"
    );
    for l in data {
        s.push_str(l);
        s.push('\n');
    }
    s.push_str("ENDSEC;\nEND-ISO-10303-21;\n");
    s
}

const MM_CONTEXT: &[&str] = &[
    "#100=( GEOMETRIC_REPRESENTATION_CONTEXT(3) GLOBAL_UNIT_ASSIGNED_CONTEXT((#101,#102)) REPRESENTATION_CONTEXT('','') );",
    "#101=( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.) );",
    "#102=( NAMED_UNIT(*) PLANE_ANGLE_UNIT() SI_UNIT($,.RADIAN.) );",
];

fn read(text: &str) -> Model {
    read_step(text.as_bytes(), "t.step").expect("import")
}

fn body_faces(m: &Model, b: &Body) -> usize {
    let _ = m;
    b.face_indices().count()
}

/// A one-face solid: a disc bounded by a circle (the smallest valid body).
const DISC: &[&str] = &[
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
];

// ---- class 1: strings ----------------------------------------------------

#[test]
fn windows_path_in_the_header_does_not_stop_the_import() {
    let data: Vec<&str> = DISC.iter().chain(MM_CONTEXT).copied().collect();
    let t = file("C:\\Users\\Nate\\Desktop\\U Joint 2.stp", &data);
    let m = read(&t);
    assert_eq!(m.faces.len(), 1);
    let w = m
        .warnings
        .iter()
        .find(|w| w.contains("unknown escape"))
        .unwrap_or_else(|| panic!("{:?}", m.warnings));
    assert!(w.starts_with("line 4:") && w.contains("kept literally"), "{w}");
}

#[test]
fn stray_backslash_in_an_entity_name_is_kept() {
    let mut data: Vec<&str> = DISC.iter().chain(MM_CONTEXT).copied().collect();
    data[1] = "#2=MANIFOLD_SOLID_BREP('D:\\parts\\X\\E9t\\X2\\00C4\\X0\\',#3);";
    let t = file("t", &data);
    let m = read(&t);
    assert_eq!(m.bodies[0].name, "D:\\parts\u{e9}t\u{c4}");
    assert!(m.warnings.iter().any(|w| w.contains("line 9, #2")), "{:?}", m.warnings);
}

// ---- class 2: surface models without topology -----------------------------

/// A bilinear B-spline patch over [0,1]² (in feet) in a GEOMETRIC_SET of a
/// GEOMETRICALLY_BOUNDED_SURFACE_SHAPE_REPRESENTATION, linked to the
/// product's SHAPE_REPRESENTATION (the layout of step_blank_fuselage_ap203).
const FOOT_SET: &[&str] = &[
    "#1=PRODUCT('p','p','',(#2));",
    "#2=PRODUCT_CONTEXT('',#3,'mechanical');",
    "#3=APPLICATION_CONTEXT('');",
    "#4=PRODUCT_DEFINITION_FORMATION('','',#1);",
    "#5=PRODUCT_DEFINITION('','',#4,#6);",
    "#6=PRODUCT_DEFINITION_CONTEXT('',#3,'design');",
    "#7=PRODUCT_DEFINITION_SHAPE('','',#5);",
    "#8=SHAPE_DEFINITION_REPRESENTATION(#7,#9);",
    "#9=SHAPE_REPRESENTATION('',(#12),#30);",
    "#10=GEOMETRICALLY_BOUNDED_SURFACE_SHAPE_REPRESENTATION('',(#11),#30);",
    "#11=GEOMETRIC_SET('wing',(#20));",
    "#12=AXIS2_PLACEMENT_3D('',#13,#14,#15);",
    "#13=CARTESIAN_POINT('',(0.,0.,0.));",
    "#14=DIRECTION('',(0.,0.,1.));",
    "#15=DIRECTION('',(1.,0.,0.));",
    "#16=SHAPE_REPRESENTATION_RELATIONSHIP('','',#9,#10);",
    "#20=B_SPLINE_SURFACE_WITH_KNOTS('',1,1,((#21,#22),(#23,#24)),.UNSPECIFIED.,.F.,.F.,.F.,(2,2),(2,2),(0.,1.),(0.,1.),.UNSPECIFIED.);",
    "#21=CARTESIAN_POINT('',(0.,0.,0.));",
    "#22=CARTESIAN_POINT('',(0.,1.,0.));",
    "#23=CARTESIAN_POINT('',(1.,0.,0.));",
    "#24=CARTESIAN_POINT('',(1.,1.,0.5));",
    "#30=( GEOMETRIC_REPRESENTATION_CONTEXT(3) GLOBAL_UNIT_ASSIGNED_CONTEXT((#33,#34)) REPRESENTATION_CONTEXT('','') );",
    "#31=( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.) );",
    "#32=LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE(304.8),#31);",
    "#33=( CONVERSION_BASED_UNIT('FOOT',#32) LENGTH_UNIT() NAMED_UNIT(#35) );",
    "#34=( NAMED_UNIT(*) PLANE_ANGLE_UNIT() SI_UNIT($,.RADIAN.) );",
    "#35=DIMENSIONAL_EXPONENTS(1.,0.,0.,0.,0.,0.,0.);",
];

#[test]
fn geometric_set_surfaces_are_untrimmed_faces_in_context_units() {
    let m = read(&file("t", FOOT_SET));
    assert_eq!(m.bodies.len(), 1, "{:?}", m.warnings);
    assert_eq!(body_faces(&m, &m.bodies[0]), 1);
    assert_eq!(m.bodies[0].source, 11);
    let f = &m.faces[0];
    assert!(f.outer.is_none() && f.inner.is_empty(), "natural boundary");
    assert_eq!(f.source, 20);
    assert!((m.units.mm_per_unit - 304.8).abs() < 1e-9, "{:?}", m.units);
    let Surface::BSpline(s) = &f.surface else {
        panic!("{:?}", f.surface)
    };
    let far = s.eval(1.0, 1.0);
    assert!((far - Vec3::new(304.8, 304.8, 152.4)).norm() < 1e-9, "{far:?}");
}

#[test]
fn a_file_without_faces_is_an_error_not_an_empty_scene() {
    // the same product with the set holding only a point
    let mut data: Vec<&str> = FOOT_SET.to_vec();
    data[10] = "#11=GEOMETRIC_SET('wing',(#21));";
    let e = read_step(file("t", &data).as_bytes(), "t.step").expect_err("no face must be an error");
    assert!(matches!(e, StepError::NoGeometry { .. }), "{e}");
}

// ---- class 3: vertex loops and FACE_BOUND-only faces -----------------------

/// A unit sphere face bounded by a VERTEX_LOOP at the north pole and a
/// FACE_BOUND circle round the +x axis (in the plane x = 0.6, across the
/// seam u = 0, like the holes of step_abc_onshape_0_13 #179), with
/// FACE_BOUND orientation `orient`: `.T.` runs the circle counter-clockwise
/// about +x, i.e. the face (normal outward) is the small cap inside it;
/// `.F.` makes the circle a hole.
fn sphere_face(orient: &str) -> String {
    let face_bound = format!("#7=FACE_BOUND('',#8,{orient});");
    let mut data = vec![
        "#1=SHAPE_REPRESENTATION('',(#2),#100);",
        "#2=SHELL_BASED_SURFACE_MODEL('',(#3));",
        "#3=OPEN_SHELL('',(#4));",
        "#4=ADVANCED_FACE('',(#5,#7),#20,.T.);",
        "#5=FACE_BOUND('',#6,.T.);",
        "#6=VERTEX_LOOP('',#30);",
        "#8=EDGE_LOOP('',(#9));",
        "#9=ORIENTED_EDGE('',*,*,#10,.T.);",
        "#10=EDGE_CURVE('',#11,#11,#13,.T.);",
        "#11=VERTEX_POINT('',#12);",
        "#12=CARTESIAN_POINT('',(0.6,0.8,0.));",
        "#13=CIRCLE('',#24,0.8);",
        "#24=AXIS2_PLACEMENT_3D('',#25,#26,#27);",
        "#25=CARTESIAN_POINT('',(0.6,0.,0.));",
        "#26=DIRECTION('',(1.,0.,0.));",
        "#27=DIRECTION('',(0.,1.,0.));",
        "#14=AXIS2_PLACEMENT_3D('',#15,#16,#17);",
        "#15=CARTESIAN_POINT('',(0.,0.,0.));",
        "#16=DIRECTION('',(0.,0.,1.));",
        "#17=DIRECTION('',(1.,0.,0.));",
        "#20=SPHERICAL_SURFACE('',#14,1.);",
        "#30=VERTEX_POINT('',#31);",
        "#31=CARTESIAN_POINT('',(0.,0.,1.));",
    ];
    data.extend(MM_CONTEXT);
    data.push(&face_bound);
    file("t", &data)
}

#[test]
fn vertex_loops_are_kept() {
    let m = read(&sphere_face(".T."));
    assert_eq!(m.vertex_loops.len(), 1);
    let vl = m.vertex_loops[0];
    assert_eq!((vl.face, vl.source), (0, 5));
    assert!((m.vertices[vl.vertex].point - Vec3::new(0.0, 0.0, 1.0)).norm() < 1e-12);
}

#[test]
fn face_bound_roles_follow_the_orientation() {
    // counter-clockwise about the normal: the circle is the outer loop
    let m = read(&sphere_face(".T."));
    let f = &m.faces[0];
    assert_eq!(f.outer.as_ref().map(|l| l.source), Some(7));
    assert!(f.inner.is_empty());
    // clockwise: a hole, never promoted to the outer loop; the face is the
    // sphere minus the cap (it reaches the pole of the vertex loop)
    let m = read(&sphere_face(".F."));
    let f = &m.faces[0];
    assert!(f.outer.is_none(), "a hole was promoted to the outer loop");
    assert_eq!(f.inner.len(), 1);
    assert_eq!(f.inner[0].source, 7);
}

// ---- class 4: p-curve ranges -------------------------------------------------

/// A disc sector of radius 2 on the plane z = 0: the arc (0°..150°) of a
/// CIRCLE, closed by a LINE (the chord). The arc's PCURVE on the plane
/// is a full rational B-spline circle of three 120° arcs (Euclid's
/// layout), whose parameter equals the angle only at its knots.
fn sector() -> String {
    let c = (std::f64::consts::PI / 3.0).cos();
    let s = (std::f64::consts::PI / 3.0).sin();
    // 120° arcs: middle poles at the tangent intersections (distance 2/cos 60° = 4), weight cos 60° = 0.5
    let pts = [
        (2.0, 0.0),
        (2.0, 4.0 * s),
        (2.0 * -c, 2.0 * s),
        (-4.0, 0.0),
        (2.0 * -c, -2.0 * s),
        (2.0, -4.0 * s),
        (2.0, 0.0),
    ];
    let mut data: Vec<String> = [
        "#1=SHAPE_REPRESENTATION('',(#2),#100);",
        "#2=SHELL_BASED_SURFACE_MODEL('',(#3));",
        "#3=OPEN_SHELL('',(#4));",
        "#4=ADVANCED_FACE('',(#5),#20,.T.);",
        "#5=FACE_OUTER_BOUND('',#6,.T.);",
        "#6=EDGE_LOOP('',(#7,#8));",
        "#7=ORIENTED_EDGE('',*,*,#9,.T.);",
        "#8=ORIENTED_EDGE('',*,*,#10,.T.);",
        "#9=EDGE_CURVE('',#11,#12,#40,.T.);",
        "#10=EDGE_CURVE('',#12,#11,#15,.T.);",
        "#11=VERTEX_POINT('',#13);",
        "#12=VERTEX_POINT('',#14);",
        "#13=CARTESIAN_POINT('',(2.,0.,0.));",
        "#14=CARTESIAN_POINT('',(-1.7320508075688772,1.,0.));",
        "#15=LINE('',#14,#16);",
        "#16=VECTOR('',#18,1.);",
        "#18=DIRECTION('',(0.9659258262890683,-0.25881904510252074,0.));",
        "#17=DIRECTION('',(1.,0.,0.));",
        "#20=PLANE('',#21);",
        "#21=AXIS2_PLACEMENT_3D('',#22,#23,#17);",
        "#22=CARTESIAN_POINT('',(0.,0.,0.));",
        "#23=DIRECTION('',(0.,0.,1.));",
        "#40=SURFACE_CURVE('',#41,(#42),.PCURVE_S1.);",
        "#41=CIRCLE('',#21,2.);",
        "#42=PCURVE('',#20,#43);",
        "#43=DEFINITIONAL_REPRESENTATION('',(#44),#46);",
        "#44=( BOUNDED_CURVE() B_SPLINE_CURVE(2,(#50,#51,#52,#53,#54,#55,#56),.UNSPECIFIED.,.F.,.F.) B_SPLINE_CURVE_WITH_KNOTS((3,2,2,3),(0.,2.0943951023931953,4.1887902047863905,6.283185307179586),.UNSPECIFIED.) CURVE() GEOMETRIC_REPRESENTATION_ITEM() RATIONAL_B_SPLINE_CURVE((1.,0.5,1.,0.5,1.,0.5,1.)) REPRESENTATION_ITEM('') );",
        "#46=( GEOMETRIC_REPRESENTATION_CONTEXT(2) PARAMETRIC_REPRESENTATION_CONTEXT() REPRESENTATION_CONTEXT('2D','') );",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for (k, (x, y)) in pts.iter().enumerate() {
        data.push(format!("#{}=CARTESIAN_POINT('',({x:?},{y:?}));", 50 + k));
    }
    let mut all: Vec<&str> = data.iter().map(String::as_str).collect();
    all.extend(MM_CONTEXT);
    file("t", &all)
}

#[test]
fn pcurve_range_is_found_on_the_pcurve() {
    let m = read(&sector());
    let f = &m.faces[0];
    let lp = f.outer.as_ref().unwrap();
    let arc = lp
        .coedges
        .iter()
        .find(|c| c.pcurve.is_some())
        .expect("the arc's p-curve");
    let pc = arc.pcurve.as_ref().unwrap();
    let e = &m.edges[arc.edge.unwrap()];
    // the 3-D circle's range is 0..5π/6; the rational p-curve is at 150°
    // at a parameter of its own (5π/6 is inside a 120° span, where the
    // rational parameter is not the angle)
    let (a, b) = (pc.curve.eval(pc.t0), pc.curve.eval(pc.t1));
    let (p0, p1) = (m.vertices[e.start.unwrap()].point, m.vertices[e.end.unwrap()].point);
    let ends = if pc.forward == arc.forward { (a, b) } else { (b, a) };
    assert!((ends.0 - p0).norm() < 1e-9, "{ends:?} vs {p0:?}");
    assert!((ends.1 - p1).norm() < 1e-9, "{ends:?} vs {p1:?}");
    assert!((pc.t1 - e.t1).abs() > 1e-3, "the 3-D range was copied");
    // the middle of the p-curve range lies on the arc
    let mid = pc.curve.eval(0.5 * (pc.t0 + pc.t1));
    assert!(mid.y > 1.0 && (mid.norm() - 2.0).abs() < 1e-9, "{mid:?}");
}
