//! Malformed STEP input: every case is a clear error naming the line and the
//! instance `#N`, never a panic.

use extrack::import::step::{read_step, At, StepError};

use super::step_text::{BODY, HEAD, TAIL};

/// The file with instance `#id`'s line replaced by `with` (or all lines kept).
fn file_with(id: u64, with: &str) -> String {
    let mut s = String::from(HEAD);
    for l in BODY {
        if l.starts_with(&format!("#{id}=")) {
            s.push_str(with);
        } else {
            s.push_str(l);
        }
        s.push('\n');
    }
    s.push_str(TAIL);
    s
}

/// 1-based line of the first line starting with `prefix`.
fn line_of(text: &str, prefix: &str) -> usize {
    text.lines().position(|l| l.starts_with(prefix)).unwrap() + 1
}

fn expect_at(text: &str, line: usize, id: u64) -> StepError {
    let e = read_step(text.as_bytes(), "bad.step").expect_err("malformed input was accepted");
    assert_eq!(e.at(), Some(At { line, id: Some(id) }), "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains(&format!("line {line}")) && msg.contains(&format!("#{id}")),
        "{msg}"
    );
    e
}

#[test]
fn the_valid_base_file_imports() {
    let m = read_step(file_with(0, "").as_bytes(), "ok.step").unwrap();
    assert_eq!(
        (m.bodies.len(), m.faces.len(), m.edges.len(), m.vertices.len()),
        (1, 1, 1, 1)
    );
    let e = &m.edges[0];
    assert!((e.t1 - e.t0 - std::f64::consts::TAU).abs() < 1e-12);
}

#[test]
fn truncated_file() {
    let full = file_with(0, "");
    let cut = &full[..full.find("#11=CIRCLE('',#12,").unwrap() + 17];
    let e = expect_at(cut, line_of(cut, "#11="), 11);
    assert!(matches!(e, StepError::Unterminated { .. }), "{e}");
    // cut after a complete instance: the DATA section never ends
    let cut = &full[..full.find("#12=").unwrap()];
    let e = read_step(cut.as_bytes(), "t.step").unwrap_err();
    assert!(matches!(e, StepError::Unterminated { .. }), "{e}");
    assert!(e.to_string().contains("line "), "{e}");
}

#[test]
fn unterminated_string() {
    let t = file_with(20, "#20=PLANE('abc,#12);");
    let e = expect_at(&t, line_of(&t, "#20="), 20);
    assert!(matches!(e, StepError::Unterminated { what: "string", .. }), "{e}");
}

#[test]
fn unterminated_comment() {
    let t = file_with(20, "#20=PLANE('' /* no end ,#12);");
    let e = expect_at(&t, line_of(&t, "#20="), 20);
    assert!(matches!(e, StepError::Unterminated { what: "comment", .. }), "{e}");
}

#[test]
fn dangling_reference() {
    let t = file_with(20, "#20=PLANE('',#77);");
    let e = expect_at(&t, line_of(&t, "#20="), 20);
    assert!(matches!(e, StepError::Dangling { target: 77, .. }), "{e}");
}

#[test]
fn cyclic_reference() {
    // an offset surface whose basis is itself (through a second one)
    let t = file_with(
        20,
        "#20=OFFSET_SURFACE('',#21,1.,.F.);\n#21=OFFSET_SURFACE('',#20,1.,.F.);",
    );
    let e = read_step(t.as_bytes(), "c.step").unwrap_err();
    assert!(matches!(e, StepError::Cycle { .. }), "{e}");
    let at = e.at().unwrap();
    assert!(at.id == Some(20) || at.id == Some(21), "{e}");
    assert_eq!(at.line, line_of(&t, &format!("#{}=", at.id.unwrap())), "{e}");
}

#[test]
fn wrong_parameter_type() {
    let t = file_with(10, "#10=CARTESIAN_POINT('',(1.,'x',0.));");
    let e = expect_at(&t, line_of(&t, "#10="), 10);
    assert!(matches!(e, StepError::Param { .. }), "{e}");
    let t = file_with(11, "#11=CIRCLE('',#12,.T.);");
    let e = expect_at(&t, line_of(&t, "#11="), 11);
    assert!(e.to_string().contains("expected a real"), "{e}");
}

#[test]
fn wrong_parameter_count() {
    let t = file_with(4, "#4=ADVANCED_FACE('',(#5));");
    let e = expect_at(&t, line_of(&t, "#4="), 4);
    assert!(e.to_string().contains("parameter 3 missing"), "{e}");
}

#[test]
fn wrong_entity_where_a_reference_points() {
    // located at the referring instance, naming the one it refers to
    let t = file_with(8, "#8=EDGE_CURVE('',#10,#9,#11,.T.);");
    let e = expect_at(&t, line_of(&t, "#8="), 8);
    let msg = e.to_string();
    assert!(
        msg.contains("VERTEX_POINT") && msg.contains("#10 (CARTESIAN_POINT)"),
        "{msg}"
    );
}

#[test]
fn absurd_counts() {
    let t = file_with(
        20,
        "#20=B_SPLINE_SURFACE_WITH_KNOTS('',1000,1,((#13,#10),(#10,#13)),.UNSPECIFIED.,.F.,.F.,.F.,(2),(2),(0.,1.),(0.,1.),.UNSPECIFIED.);",
    );
    let e = expect_at(&t, line_of(&t, "#20="), 20);
    assert!(
        matches!(
            e,
            StepError::Count {
                what: "degree",
                count: 1000,
                ..
            }
        ),
        "{e}"
    );
    let t = file_with(
        20,
        "#20=B_SPLINE_SURFACE_WITH_KNOTS('',1,1,((#13,#10),(#10,#13)),.UNSPECIFIED.,.F.,.F.,.F.,(2,999999999999),(2,2),(0.,1.),(0.,1.),.UNSPECIFIED.);",
    );
    let e = expect_at(&t, line_of(&t, "#20="), 20);
    assert!(
        matches!(
            e,
            StepError::Count {
                what: "knot multiplicity",
                ..
            }
        ),
        "{e}"
    );
}

/// A malformed escape never stops an import (issue 25): the string is kept
/// literally and the warning names the line and the instance.
#[test]
fn invalid_encoding() {
    for bad in [
        "#2=MANIFOLD_SOLID_BREP('\\X2\\00G1\\X0\\',#3);",
        "#2=MANIFOLD_SOLID_BREP('\\X2\\00C4',#3);",
    ] {
        let t = file_with(2, bad);
        let m = read_step(t.as_bytes(), "bad.step").expect("a bad string must not stop the import");
        assert_eq!(m.bodies.len(), 1);
        let line = line_of(&t, "#2=");
        assert!(
            m.warnings
                .iter()
                .any(|w| w.contains(&format!("line {line}, #2")) && w.contains("kept literally")),
            "{:?}",
            m.warnings
        );
    }
}

#[test]
fn nested_list_bomb() {
    // 10 levels of nesting where a list of point references is expected
    let poles = format!("{}#13{}", "(".repeat(10), ")".repeat(10));
    let t = file_with(
        20,
        &format!("#20=B_SPLINE_SURFACE_WITH_KNOTS('',1,1,{poles},.UNSPECIFIED.,.F.,.F.,.F.,(2),(2),(0.,1.),(0.,1.),.UNSPECIFIED.);"),
    );
    let e = expect_at(&t, line_of(&t, "#20="), 20);
    assert!(matches!(e, StepError::Param { .. } | StepError::Count { .. }), "{e}");
    // and far deeper than any real file: rejected by the parser
    let deep = format!("#20=PLANE('',{}#12{});", "(".repeat(100_000), ")".repeat(100_000));
    let t = file_with(20, &deep);
    let e = expect_at(&t, line_of(&t, "#20="), 20);
    assert!(matches!(e, StepError::Nesting { .. }), "{e}");
}

#[test]
fn duplicate_ids() {
    let t = file_with(15, "#15=DIRECTION('',(1.,0.,0.));\n#14=DIRECTION('',(0.,1.,0.));");
    let lines: Vec<&str> = t.lines().collect();
    let second = lines.iter().rposition(|l| l.starts_with("#14=")).unwrap() + 1;
    let e = expect_at(&t, second, 14);
    assert!(
        matches!(e, StepError::Duplicate { first_line, .. } if first_line == line_of(&t, "#14=")),
        "{e}"
    );
}

#[test]
fn memory_is_bounded_by_the_file_size() {
    // a pole grid claimed huge but given small: rejected before allocating
    let t = file_with(
        20,
        "#20=B_SPLINE_SURFACE_WITH_KNOTS('',1,1,((#13,#10),(#10,#13)),.UNSPECIFIED.,.F.,.F.,.F.,(2),(2000000000),(0.,1.),(0.,1.),.UNSPECIFIED.);",
    );
    let e = expect_at(&t, line_of(&t, "#20="), 20);
    assert!(
        matches!(
            e,
            StepError::Count { .. } | StepError::Geometry { .. } | StepError::Param { .. }
        ),
        "{e}"
    );
}

#[test]
fn not_step_at_all() {
    assert!(matches!(read_step(b"hello", "x"), Err(StepError::NotStep)));
    assert!(read_step(b"", "x").is_err());
}
