//! Type-checked references, completely (issue 29): for every pair of type
//! classes the mutation campaign can produce (`CLASSES` in
//! `tools/mutate.py`, read from there), every reference of a small solid
//! that uses each referring class moved to an instance of another class is
//! an error or a warning naming both instances, never accepted silently.
//!
//! The solid has three faces (a plane bounded by a circle with a p-curve, a
//! B-spline surface and an extrusion bounded by a line, a B-spline curve, a
//! trimmed line and a polyline); one foreign instance of every entity type of
//! `CLASSES` is appended (ids from 900,000) as the moved references' targets.

use extrack::import::import_bytes;
use std::collections::BTreeMap;
use std::path::PathBuf;

use super::step_text::{HEAD, TAIL};

/// The solid (one instance a line).
const BODY: &[&str] = &[
    "#1=SHAPE_REPRESENTATION('',(#2),#100);",
    "#2=MANIFOLD_SOLID_BREP('',#3);",
    "#3=CLOSED_SHELL('',(#4,#40,#70));",
    "#4=ADVANCED_FACE('',(#5),#20,.T.);",
    "#5=FACE_OUTER_BOUND('',#6,.T.);",
    "#6=EDGE_LOOP('',(#7));",
    "#7=ORIENTED_EDGE('',*,*,#8,.T.);",
    "#8=EDGE_CURVE('',#9,#9,#30,.T.);",
    "#9=VERTEX_POINT('',#10);",
    "#10=CARTESIAN_POINT('',(1.,0.,0.));",
    "#11=CIRCLE('',#12,1.);",
    "#12=AXIS2_PLACEMENT_3D('',#13,#14,#15);",
    "#13=CARTESIAN_POINT('',(0.,0.,0.));",
    "#14=DIRECTION('',(0.,0.,1.));",
    "#15=DIRECTION('',(1.,0.,0.));",
    "#20=PLANE('',#12);",
    "#30=SURFACE_CURVE('',#11,(#31),.PCURVE_S1.);",
    "#31=PCURVE('',#20,#32);",
    "#32=DEFINITIONAL_REPRESENTATION('',(#33),#102);",
    "#33=CIRCLE('',#34,1.);",
    "#34=AXIS2_PLACEMENT_2D('',#35,#36);",
    "#35=CARTESIAN_POINT('',(0.,0.));",
    "#36=DIRECTION('',(1.,0.));",
    "#40=ADVANCED_FACE('',(#41),#60,.T.);",
    "#41=FACE_BOUND('',#42,.T.);",
    "#42=EDGE_LOOP('',(#43,#44));",
    "#43=ORIENTED_EDGE('',*,*,#45,.T.);",
    "#44=ORIENTED_EDGE('',*,*,#46,.F.);",
    "#45=EDGE_CURVE('',#47,#48,#50,.T.);",
    "#46=EDGE_CURVE('',#47,#48,#53,.T.);",
    "#47=VERTEX_POINT('',#13);",
    "#48=VERTEX_POINT('',#49);",
    "#49=CARTESIAN_POINT('',(1.,1.,0.));",
    "#50=LINE('',#13,#51);",
    "#51=VECTOR('',#52,1.);",
    "#52=DIRECTION('',(1.,1.,0.));",
    "#53=B_SPLINE_CURVE_WITH_KNOTS('',1,(#13,#10,#49),.UNSPECIFIED.,.F.,.F.,(2,1,2),(0.,0.5,1.),.UNSPECIFIED.);",
    "#60=B_SPLINE_SURFACE_WITH_KNOTS('',1,1,((#13,#61),(#10,#49)),.UNSPECIFIED.,.F.,.F.,.F.,(2,2),(2,2),(0.,1.),(0.,1.),.UNSPECIFIED.);",
    "#61=CARTESIAN_POINT('',(0.,1.,0.));",
    "#70=ADVANCED_FACE('',(#71),#72,.T.);",
    "#71=FACE_OUTER_BOUND('',#73,.T.);",
    "#72=SURFACE_OF_LINEAR_EXTRUSION('',#11,#51);",
    "#73=EDGE_LOOP('',(#74,#75));",
    "#74=ORIENTED_EDGE('',*,*,#76,.T.);",
    "#75=ORIENTED_EDGE('',*,*,#77,.F.);",
    "#76=EDGE_CURVE('',#47,#48,#78,.T.);",
    "#77=EDGE_CURVE('',#47,#48,#79,.T.);",
    "#78=TRIMMED_CURVE('',#50,(#13),(#49),.T.,.CARTESIAN.);",
    "#79=POLYLINE('',(#13,#61,#49));",
    "#100=( GEOMETRIC_REPRESENTATION_CONTEXT(3) GLOBAL_UNIT_ASSIGNED_CONTEXT((#101)) REPRESENTATION_CONTEXT('','') );",
    "#101=( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.) );",
    "#102=( GEOMETRIC_REPRESENTATION_CONTEXT(2) PARAMETRIC_REPRESENTATION_CONTEXT() REPRESENTATION_CONTEXT('','') );",
];

/// One well-formed foreign instance per entity type (`#ID` stands for its id).
const FOREIGN: &[(&str, &str)] = &[
    ("CARTESIAN_POINT", "CARTESIAN_POINT('',(5.,5.,5.))"),
    ("DIRECTION", "DIRECTION('',(0.,1.,0.))"),
    ("VECTOR", "VECTOR('',#14,2.)"),
    ("AXIS2_PLACEMENT_3D", "AXIS2_PLACEMENT_3D('',#13,#14,#15)"),
    ("AXIS2_PLACEMENT_2D", "AXIS2_PLACEMENT_2D('',#35,#36)"),
    ("AXIS1_PLACEMENT", "AXIS1_PLACEMENT('',#13,#14)"),
    ("LINE", "LINE('',#13,#51)"),
    ("CIRCLE", "CIRCLE('',#12,2.)"),
    ("ELLIPSE", "ELLIPSE('',#12,2.,1.)"),
    (
        "B_SPLINE_CURVE_WITH_KNOTS",
        "B_SPLINE_CURVE_WITH_KNOTS('',1,(#13,#49),.UNSPECIFIED.,.F.,.F.,(2,2),(0.,1.),.UNSPECIFIED.)",
    ),
    ("SURFACE_CURVE", "SURFACE_CURVE('',#11,(#31),.PCURVE_S1.)"),
    ("SEAM_CURVE", "SEAM_CURVE('',#11,(#31,#31),.PCURVE_S1.)"),
    ("TRIMMED_CURVE", "TRIMMED_CURVE('',#50,(#13),(#49),.T.,.CARTESIAN.)"),
    ("POLYLINE", "POLYLINE('',(#13,#49))"),
    ("PCURVE", "PCURVE('',#20,#32)"),
    ("COMPOSITE_CURVE", "COMPOSITE_CURVE('',(#999999),.F.)"),
    ("INTERSECTION_CURVE", "INTERSECTION_CURVE('',#11,(#31),.PCURVE_S1.)"),
    ("PLANE", "PLANE('',#12)"),
    ("CYLINDRICAL_SURFACE", "CYLINDRICAL_SURFACE('',#12,1.)"),
    ("CONICAL_SURFACE", "CONICAL_SURFACE('',#12,1.,0.5)"),
    ("SPHERICAL_SURFACE", "SPHERICAL_SURFACE('',#12,1.)"),
    ("TOROIDAL_SURFACE", "TOROIDAL_SURFACE('',#12,3.,1.)"),
    (
        "B_SPLINE_SURFACE_WITH_KNOTS",
        "B_SPLINE_SURFACE_WITH_KNOTS('',1,1,((#13,#61),(#10,#49)),.UNSPECIFIED.,.F.,.F.,.F.,(2,2),(2,2),(0.,1.),(0.,1.),.UNSPECIFIED.)",
    ),
    ("SURFACE_OF_REVOLUTION", "SURFACE_OF_REVOLUTION('',#50,#900005)"),
    ("SURFACE_OF_LINEAR_EXTRUSION", "SURFACE_OF_LINEAR_EXTRUSION('',#11,#51)"),
    ("VERTEX_POINT", "VERTEX_POINT('',#10)"),
    ("EDGE_CURVE", "EDGE_CURVE('',#9,#9,#11,.T.)"),
    ("ORIENTED_EDGE", "ORIENTED_EDGE('',*,*,#8,.T.)"),
    ("EDGE_LOOP", "EDGE_LOOP('',(#7))"),
    ("VERTEX_LOOP", "VERTEX_LOOP('',#9)"),
    ("POLY_LOOP", "POLY_LOOP('',(#13,#10,#49))"),
    ("FACE_BOUND", "FACE_BOUND('',#6,.T.)"),
    ("FACE_OUTER_BOUND", "FACE_OUTER_BOUND('',#6,.T.)"),
    ("ADVANCED_FACE", "ADVANCED_FACE('',(#5),#20,.T.)"),
    ("FACE_SURFACE", "FACE_SURFACE('',(#5),#20,.T.)"),
    ("CLOSED_SHELL", "CLOSED_SHELL('',(#4))"),
    ("OPEN_SHELL", "OPEN_SHELL('',(#4))"),
];

/// The composite curve's segment (not a class of the campaign).
const SEGMENT: &str = "#999999=COMPOSITE_CURVE_SEGMENT(.CONTINUOUS.,.T.,#78);";

/// `CLASSES` and `ALSO` of `tools/mutate.py`: class → entity names, and
/// class → classes allowed where it is required.
fn campaign_classes() -> (BTreeMap<String, Vec<String>>, BTreeMap<String, Vec<String>>) {
    let src = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools/mutate.py")).unwrap();
    let block = |start: &str| -> String {
        let k = src
            .find(start)
            .unwrap_or_else(|| panic!("{start} not in tools/mutate.py"));
        let rest = &src[k + start.len()..];
        rest[..rest.find("\n}").unwrap()].to_string()
    };
    // `"class": [b"NAME", ...]` / `"class": {"other", ...}`
    let entries = |text: &str, open: char, close: char| -> BTreeMap<String, Vec<String>> {
        let mut out = BTreeMap::new();
        let mut rest = text;
        while let Some(q) = rest.find('"') {
            let after = &rest[q + 1..];
            let e = after.find('"').unwrap();
            let key = after[..e].to_string();
            let after = &after[e + 1..];
            let o = after.find(open).unwrap();
            let c = after.find(close).unwrap();
            let names = after[o + 1..c]
                .split(',')
                .map(|s| s.trim().trim_start_matches('b').trim_matches('"').to_string())
                .filter(|s| !s.is_empty())
                .collect();
            out.insert(key, names);
            rest = &after[c + 1..];
        }
        out
    };
    let classes = entries(&block("CLASSES = {"), '[', ']');
    let also = src
        .lines()
        .find(|l| l.starts_with("ALSO = "))
        .map(|l| entries(l.trim_start_matches("ALSO = {"), '{', '}'))
        .unwrap_or_default();
    (classes, also)
}

fn type_of(line: &str) -> &str {
    let body = &line[line.find('=').unwrap() + 1..];
    &body[..body.find('(').unwrap()]
}

fn id_of(line: &str) -> u64 {
    line[1..line.find('=').unwrap()].parse().unwrap()
}

/// `#id` in `text`, not followed by a digit.
fn names(text: &str, id: u64) -> bool {
    let pat = format!("#{id}");
    text.match_indices(&pat)
        .any(|(k, _)| !text[k + pat.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

fn file(body: &[String], foreign: &[String]) -> Vec<u8> {
    let mut s = String::from(HEAD);
    for l in body.iter().chain(foreign) {
        s.push_str(l);
        s.push('\n');
    }
    s.push_str(SEGMENT);
    s.push('\n');
    s.push_str(TAIL);
    s.into_bytes()
}

#[test]
fn every_reference_moved_to_another_class_is_reported_naming_both() {
    let (classes, also) = campaign_classes();
    let class_of: BTreeMap<&str, &str> = classes
        .iter()
        .flat_map(|(c, ns)| ns.iter().map(move |n| (n.as_str(), c.as_str())))
        .collect();
    let allowed =
        |want: &str, found: &str| found == want || also.get(want).is_some_and(|a| a.iter().any(|x| x == found));
    // one foreign instance per type of every class, ids 900001..
    let mut foreign = Vec::new();
    let mut of_class: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
    for (k, (ty, body)) in FOREIGN.iter().enumerate() {
        let Some(c) = class_of.get(ty) else {
            panic!("{ty} is in no class of tools/mutate.py");
        };
        let id = 900_001 + k as u64;
        foreign.push(format!("#{id}={body};"));
        of_class.entry(c).or_default().push(id);
    }
    for n in class_of.keys() {
        assert!(
            FOREIGN.iter().any(|(t, _)| t == n),
            "no foreign instance of {n} (a type of tools/mutate.py)"
        );
    }
    let body: Vec<String> = BODY.iter().map(|s| s.to_string()).collect();
    // the solid itself reads without a type message
    let m = import_bytes(&file(&body, &foreign), "t.step").unwrap();
    assert_eq!(m.faces.len(), 3);
    assert!(!m.warnings.iter().any(|w| w.contains("refers to")), "{:?}", m.warnings);
    let types: BTreeMap<u64, &str> = BODY.iter().map(|l| (id_of(l), type_of(l))).collect();
    let mut pairs = std::collections::BTreeSet::new();
    let mut cases = 0;
    let mut failures = Vec::new();
    for (li, line) in BODY.iter().enumerate() {
        let from = id_of(line);
        if from == 1 {
            continue; // representation items: any item is allowed
        }
        let args = &line[line.find('(').unwrap()..];
        for (k, _) in args.match_indices('#') {
            let digits: String = args[k + 1..].chars().take_while(char::is_ascii_digit).collect();
            let old: u64 = digits.parse().unwrap();
            let Some(want) = types.get(&old).and_then(|t| class_of.get(t)) else {
                continue;
            };
            for (found, ids) in &of_class {
                if allowed(want, found) {
                    continue;
                }
                for &to in ids {
                    let at = line.find('(').unwrap() + k;
                    let moved = format!("{}#{to}{}", &line[..at], &line[at + 1 + digits.len()..]);
                    let mut b = body.clone();
                    b[li] = moved.clone();
                    match import_bytes(&file(&b, &foreign), "t.step") {
                        Err(e) => {
                            let e = e.to_string();
                            if !(names(&e, from) && names(&e, to)) {
                                failures.push(format!("{moved}: error names not both: {e}"));
                            }
                        }
                        Ok(m) => {
                            if !m.warnings.iter().any(|w| names(w, from) && names(w, to)) {
                                failures.push(format!("{moved}: accepted without a message naming both"));
                            }
                        }
                    }
                    pairs.insert((want.to_string(), found.to_string()));
                    cases += 1;
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases}:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // every class of the campaign was required somewhere and found elsewhere
    for c in classes.keys() {
        assert!(pairs.iter().any(|(w, _)| w == c), "no reference requiring {c}");
        assert!(pairs.iter().any(|(_, f)| f == c), "no reference moved to {c}");
    }
    assert!(cases > 1000, "{cases} cases");
}
