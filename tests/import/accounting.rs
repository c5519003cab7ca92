//! Face accounting (issue 25): every face entity of the file becomes a Model
//! face or a `Model::dropped` record with a warning naming its entity id and
//! why; a face that cannot be read drops that face, not the file, unless no
//! face at all could be read (then its error is the import's error).

use extrack::import::import_file;
use extrack::import::step::read_step;
use std::path::Path;

fn fixture(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(rel)
}

/// A closed shell of two faces: #4 (a disc) and #40, whose cone has a zero
/// semi-angle (no surface); and #50, a face no shell uses.
#[test]
fn step_face_whose_surface_cannot_be_read_is_dropped_with_a_warning() {
    let m = import_file(fixture("accounting/lost_face.step")).expect("the file imports");
    assert_eq!(m.faces.len(), 1);
    assert_eq!(m.faces[0].source, 4);
    assert_eq!(m.dropped.len(), 2, "{:?}", m.dropped);
    let d40 = m.dropped.iter().find(|d| d.source == 40).expect("#40 recorded");
    assert_eq!(d40.body, Some(0));
    assert!(d40.closed_shell);
    assert!(d40.reason.contains("semi-angle"), "{}", d40.reason);
    let d50 = m.dropped.iter().find(|d| d.source == 50).expect("#50 recorded");
    assert_eq!(d50.body, None);
    assert!(!d50.closed_shell);
    // each is named by a warning, with why
    assert!(
        m.warnings
            .iter()
            .any(|w| w.contains("face #40") && w.contains("closed shell") && w.contains("#42")),
        "{:?}",
        m.warnings
    );
    assert!(
        m.warnings
            .iter()
            .any(|w| w.contains("#50") && w.contains("not in any solid")),
        "{:?}",
        m.warnings
    );
}

/// With no face left, the first face's error is the import's error.
#[test]
fn step_file_whose_only_face_fails_is_an_error_naming_it() {
    let text = std::fs::read_to_string(fixture("accounting/lost_face.step")).unwrap();
    let only_cone = text.replace("#3=CLOSED_SHELL('',(#4,#40));", "#3=CLOSED_SHELL('',(#40));");
    let e = read_step(only_cone.as_bytes(), "cone.step").expect_err("no face could be read");
    let msg = e.to_string();
    assert!(msg.contains("#42") && msg.contains("semi-angle"), "{msg}");
}

/// A 514 shell of a 186 solid whose 510 face DE 7 points to a curve for its
/// surface: the other 8 faces are read, DE 7 is recorded from a closed shell.
#[test]
fn iges_shell_that_lost_a_face() {
    let m = import_file(fixture("hostile/holed_plate_curve_for_surface.igs")).expect("the file imports");
    assert_eq!(m.faces.len(), 8);
    assert_eq!(m.dropped.len(), 1, "{:?}", m.dropped);
    let d = &m.dropped[0];
    assert_eq!((d.source, d.body, d.closed_shell), (7, Some(0), true));
    assert!(d.reason.contains("should be a surface"), "{}", d.reason);
    assert!(
        m.warnings.iter().any(|w| w.contains("DE 7") && w.contains("dropped")),
        "{:?}",
        m.warnings
    );
    // the lost face's edges are not left pointing at a face index it never got
    for e in &m.edges {
        assert!(e.faces.iter().all(|&f| f < m.faces.len()), "{e:?}");
    }
}

/// An ORIENTED_FACE with `.F.` is its face element reversed.
#[test]
fn step_oriented_face_is_read() {
    let text = std::fs::read_to_string(fixture("accounting/lost_face.step")).unwrap();
    let oriented = text
        .replace("#3=CLOSED_SHELL('',(#4,#40));", "#3=OPEN_SHELL('',(#60));")
        .replace(
            "#50=ADVANCED_FACE",
            "#60=ORIENTED_FACE('',*,#4,.F.);\n#50=ADVANCED_FACE",
        );
    let m = read_step(oriented.as_bytes(), "o.step").expect("imports");
    assert_eq!(m.faces.len(), 1);
    assert_eq!(m.faces[0].source, 4);
    assert!(!m.faces[0].same_sense, "reversed by the ORIENTED_FACE");
    // #40 and #50 are in no placed shell now
    let mut ids: Vec<u64> = m.dropped.iter().map(|d| d.source).collect();
    ids.sort_unstable();
    assert_eq!(ids, vec![40, 50]);
}
