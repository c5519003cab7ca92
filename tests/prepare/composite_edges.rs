//! Composite edges with conic parts (issue 25, exactness): a STEP plane
//! face bounded by a composite of a line, a parabola arc and a line (used
//! from inside its first and last lines), and a STEP cone face bounded by a
//! composite of a hyperbola arc and a circle arc split into two edges (one
//! starting inside the hyperbola). Before, each such edge was a 17-point
//! polyline with a warning, the plane's composite trim a fit and the cone's
//! trims fitted at `k/n` fractions of unevenly sampled ranges. Now: exact
//! edges on their conics (1e-12 relative), the plane's trim its exact image,
//! the cone's fitted trims within 1e-6 of the size, the self-check passes and
//! closest points near the conic edges have the analytic distance (1e-9).

use extrack::geom::{NurbsCurve, Pose, Vec3};
use extrack::import::eval::FaceTrim;
use extrack::import::model::Model;
use extrack::prepare::{prepare_with_stats, trim, PrepareOptions};
use extrack::scene::data::SceneData;
use extrack::track::{closest_points, Target, TrackScene};

/// A Part 21 file of the instance lines `data` in millimetres and radians.
/// One face (#4, surface #20, one loop of the edges #30, #31, …) in an
/// open shell, the world axes #21 (#22 origin, #23 z, #24 x).
fn step(edges: usize, data: &[String]) -> String {
    let mut s = String::from(
        "ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION((''),'2;1');\nFILE_NAME('t','',(''),(''),'','','');\nFILE_SCHEMA(('AUTOMOTIVE_DESIGN'));\nENDSEC;\nDATA;\n",
    );
    let oriented: Vec<String> = (0..edges).map(|k| format!("#{}", 7 + k)).collect();
    let mut head = vec![
        "#1=SHAPE_REPRESENTATION('',(#2),#100);".to_string(),
        "#2=SHELL_BASED_SURFACE_MODEL('',(#3));".to_string(),
        "#3=OPEN_SHELL('',(#4));".to_string(),
        "#4=ADVANCED_FACE('',(#5),#20,.T.);".to_string(),
        "#5=FACE_OUTER_BOUND('',#6,.T.);".to_string(),
        format!("#6=EDGE_LOOP('',({}));", oriented.join(",")),
        "#21=AXIS2_PLACEMENT_3D('',#22,#23,#24);".to_string(),
        pt(22, [0.0, 0.0, 0.0]),
        dir(23, [0.0, 0.0, 1.0]),
        dir(24, [1.0, 0.0, 0.0]),
    ];
    head.extend((0..edges).map(|k| format!("#{}=ORIENTED_EDGE('',*,*,#{},.T.);", 7 + k, 30 + k)));
    for l in head.iter().chain(data) {
        s.push_str(l);
        s.push('\n');
    }
    s.push_str("#100=( GEOMETRIC_REPRESENTATION_CONTEXT(3) GLOBAL_UNIT_ASSIGNED_CONTEXT((#101,#102)) REPRESENTATION_CONTEXT('','') );\n");
    s.push_str("#101=( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.) );\n");
    s.push_str("#102=( NAMED_UNIT(*) PLANE_ANGLE_UNIT() SI_UNIT($,.RADIAN.) );\n");
    s.push_str("ENDSEC;\nEND-ISO-10303-21;\n");
    s
}

fn pt(id: u32, p: [f64; 3]) -> String {
    format!("#{id}=CARTESIAN_POINT('',({:.17e},{:.17e},{:.17e}));", p[0], p[1], p[2])
}

fn dir(id: u32, d: [f64; 3]) -> String {
    format!("#{id}=DIRECTION('',({:.17e},{:.17e},{:.17e}));", d[0], d[1], d[2])
}

/// The plane z = 0 face `{y²/4 ≤ x ≤ 3, |y| ≤ 2}`: edge #30 from (3, 2) to
/// (3, −2) on the composite of the line (4, 2) → (1, 2), the parabola
/// `x = y²/4` from y = 2 to y = −2 (run backwards) and the line (1, −2) →
/// (4, −2) (composite range 1/3 .. 8/3), closed by the line edge #31.
fn plane_file() -> String {
    let l = |s: &str| s.to_string();
    step(
        2,
        &[
            l("#20=PLANE('',#21);"),
            l("#30=EDGE_CURVE('',#40,#42,#50,.T.);"),
            l("#31=EDGE_CURVE('',#42,#40,#90,.T.);"),
            l("#40=VERTEX_POINT('',#41);"),
            pt(41, [3.0, 2.0, 0.0]),
            l("#42=VERTEX_POINT('',#43);"),
            pt(43, [3.0, -2.0, 0.0]),
            l("#50=COMPOSITE_CURVE('',(#51,#52,#53),.F.);"),
            l("#51=COMPOSITE_CURVE_SEGMENT(.CONTINUOUS.,.T.,#60);"),
            l("#52=COMPOSITE_CURVE_SEGMENT(.CONTINUOUS.,.T.,#70);"),
            l("#53=COMPOSITE_CURVE_SEGMENT(.CONTINUOUS.,.T.,#80);"),
            l("#60=TRIMMED_CURVE('',#61,(PARAMETER_VALUE(0.)),(PARAMETER_VALUE(3.)),.T.,.PARAMETER.);"),
            l("#61=LINE('',#62,#63);"),
            pt(62, [4.0, 2.0, 0.0]),
            l("#63=VECTOR('',#64,1.);"),
            dir(64, [-1.0, 0.0, 0.0]),
            l("#70=TRIMMED_CURVE('',#71,(PARAMETER_VALUE(2.)),(PARAMETER_VALUE(-2.)),.F.,.PARAMETER.);"),
            l("#71=PARABOLA('',#21,1.);"),
            l("#80=TRIMMED_CURVE('',#81,(PARAMETER_VALUE(0.)),(PARAMETER_VALUE(3.)),.T.,.PARAMETER.);"),
            l("#81=LINE('',#82,#83);"),
            pt(82, [1.0, -2.0, 0.0]),
            l("#83=VECTOR('',#84,1.);"),
            dir(84, [1.0, 0.0, 0.0]),
            l("#90=LINE('',#91,#92);"),
            pt(91, [3.0, -2.0, 0.0]),
            l("#92=VECTOR('',#93,1.);"),
            dir(93, [0.0, 1.0, 0.0]),
        ],
    )
}

/// Half-width of the hyperbola arc: `cosh T = 4` (z = 1 on the cone).
fn big_t() -> f64 {
    4f64.acosh()
}

/// The hyperbola `(0.5 sinh t, 0.5, −1 + 0.5 cosh t)`: the cone
/// `x² + y² = (1 + z)²` cut by the plane y = 0.5.
fn hyperbola(t: f64) -> Vec3 {
    Vec3::new(0.5 * t.sinh(), 0.5, -1.0 + 0.5 * t.cosh())
}

/// The cone (radius 1 at z = 0, 45°, axis z) face `{y ≥ 0.5, z ≤ 1}`,
/// bounded by the hyperbola and the circle of radius 2 at z = 1: edges #30
/// (A → P) and #31 (P → Q) on the composite of the hyperbola from t = T to
/// −T and the circle arc from angle π − θ₁ to π/2 (A = H(T), P at
/// composite parameter 0.9, i.e. H(−0.8 T), Q = (0, 2, 1)), and #32, the
/// circle from Q back to A (θ₁ = asin 0.25).
fn cone_file() -> String {
    let l = |s: &str| s.to_string();
    let t = big_t();
    let th1 = 0.25f64.asin();
    let (a, p, q) = (hyperbola(t), hyperbola(-0.8 * t), Vec3::new(0.0, 2.0, 1.0));
    step(
        3,
        &[
            l("#20=CONICAL_SURFACE('',#21,1.,0.78539816339744828);"),
            l("#30=EDGE_CURVE('',#40,#42,#50,.T.);"),
            l("#31=EDGE_CURVE('',#42,#44,#50,.T.);"),
            l("#32=EDGE_CURVE('',#44,#40,#81,.F.);"),
            l("#40=VERTEX_POINT('',#41);"),
            pt(41, [a.x, a.y, a.z]),
            l("#42=VERTEX_POINT('',#43);"),
            pt(43, [p.x, p.y, p.z]),
            l("#44=VERTEX_POINT('',#45);"),
            pt(45, [q.x, q.y, q.z]),
            l("#50=COMPOSITE_CURVE('',(#51,#52),.F.);"),
            l("#51=COMPOSITE_CURVE_SEGMENT(.CONTINUOUS.,.T.,#70);"),
            l("#52=COMPOSITE_CURVE_SEGMENT(.CONTINUOUS.,.T.,#80);"),
            format!(
                "#70=TRIMMED_CURVE('',#71,(PARAMETER_VALUE({t:.17e})),(PARAMETER_VALUE({:.17e})),.F.,.PARAMETER.);",
                -t
            ),
            l("#71=HYPERBOLA('',#72,0.5,0.5);"),
            l("#72=AXIS2_PLACEMENT_3D('',#73,#74,#75);"),
            pt(73, [0.0, 0.5, -1.0]),
            dir(74, [0.0, 1.0, 0.0]),
            dir(75, [0.0, 0.0, 1.0]),
            format!(
                "#80=TRIMMED_CURVE('',#81,(PARAMETER_VALUE({:.17e})),(PARAMETER_VALUE({:.17e})),.F.,.PARAMETER.);",
                std::f64::consts::PI - th1,
                std::f64::consts::FRAC_PI_2
            ),
            l("#81=CIRCLE('',#82,2.);"),
            l("#82=AXIS2_PLACEMENT_3D('',#83,#23,#24);"),
            pt(83, [0.0, 0.0, 1.0]),
        ],
    )
}

/// Imports and prepares `text`: Model, scene, prepare warnings.
fn load(text: &str, name: &str) -> (Model, SceneData, Vec<String>) {
    let model = extrack::import::import_bytes(text.as_bytes(), name).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(model.faces.len(), 1, "{name}: {:?}", model.warnings);
    let (scene, stats) = prepare_with_stats(&model, &PrepareOptions::default()).expect("prepares");
    (model, scene, stats.warnings)
}

/// The scene edge of source `id` as a NURBS curve.
fn scene_edge(scene: &SceneData, id: u64) -> NurbsCurve {
    let e = scene
        .edges
        .iter()
        .find(|e| e.source_id == id)
        .unwrap_or_else(|| panic!("no edge #{id}"));
    NurbsCurve::try_from_homogeneous(e.curve_degree as usize, e.knots.clone(), e.poles.clone()).expect("a NURBS")
}

/// Largest `residual` over 2001 points of `c`, and how many points had
/// `on_conic` true.
fn worst_on(c: &NurbsCurve, residual: &dyn Fn(Vec3) -> f64, on_conic: &dyn Fn(Vec3) -> bool) -> (f64, usize) {
    let (k0, k1) = c.domain();
    let mut worst = 0.0f64;
    let mut conic = 0;
    for i in 0..=2000 {
        let p = c.eval(k0 + (k1 - k0) * i as f64 / 2000.0);
        worst = worst.max(residual(p));
        conic += usize::from(on_conic(p));
    }
    (worst, conic)
}

/// The root of the increasing function `g` on `[a, b]` by bisection (an
/// end where `g` does not change sign).
fn root(g: &dyn Fn(f64) -> f64, mut a: f64, mut b: f64) -> f64 {
    if g(a) >= 0.0 {
        return a;
    }
    if g(b) <= 0.0 {
        return b;
    }
    for _ in 0..200 {
        let m = 0.5 * (a + b);
        if g(m) <= 0.0 {
            a = m;
        } else {
            b = m;
        }
    }
    0.5 * (a + b)
}

/// Distance from `q` to the curve `c` on `[a, b]`: the best of 4000
/// samples refined by bisection on the derivative of the squared distance.
fn curve_distance(c: &dyn Fn(f64) -> Vec3, q: &Vec3, a: f64, b: f64) -> f64 {
    let n = 4000;
    let h = (b - a) / n as f64;
    let best = (0..=n)
        .map(|i| a + h * i as f64)
        .min_by(|x, y| (c(*x) - q).norm().total_cmp(&(c(*y) - q).norm()))
        .expect("samples");
    let d2 = |t: f64| (c(t) - q).norm_squared();
    let g = |t: f64| {
        let e = 1e-7 * (b - a);
        (d2(t + e) - d2(t - e)) / (2.0 * e)
    };
    let (lo, hi) = ((best - h).max(a), (best + h).min(b));
    let t = root(&g, lo, hi);
    [lo, hi, t, best]
        .into_iter()
        .map(|t| (c(t) - q).norm())
        .fold(f64::INFINITY, f64::min)
}

/// The face's trim paths (one per coedge) and its fitted coedges' deviations.
fn trims(model: &Model) -> (Vec<trim::TrimPath>, Vec<trim::CoedgeDeviation>) {
    let face = &model.faces[0];
    let t = FaceTrim::new(model, face);
    let ex = trim::exact_loops(model, face, &t);
    let paths = ex.paths.iter().flatten().copied().collect();
    (paths, trim::fitted_deviations(model, face, &t, &ex))
}

#[test]
fn a_plane_bounded_by_a_line_parabola_line_composite_is_exact() {
    let (model, scene, warnings) = load(&plane_file(), "parabola.step");
    assert!(!warnings.iter().any(|w| w.contains("polyline")), "{warnings:?}");
    let e = model.edges.iter().find(|e| e.source == 30).expect("edge #30");
    assert!(
        (e.t0 - 1.0 / 3.0).abs() < 1e-9 && (e.t1 - 8.0 / 3.0).abs() < 1e-9,
        "{} {}",
        e.t0,
        e.t1
    );
    // the edge: from (3, 2) to (3, −2), every point on y = ±2 or on x = y²/4
    let c = scene_edge(&scene, 30);
    assert_eq!(c.degree, 2, "an exact quadratic, not a polyline");
    let (k0, k1) = c.domain();
    assert!((c.eval(k0) - Vec3::new(3.0, 2.0, 0.0)).norm() < 1e-12);
    assert!((c.eval(k1) - Vec3::new(3.0, -2.0, 0.0)).norm() < 1e-12);
    let residual = |p: Vec3| {
        let line = |y: f64| {
            if p.x >= 1.0 - 1e-12 && p.x <= 3.0 + 1e-12 {
                (p.y - y).abs()
            } else {
                f64::INFINITY
            }
        };
        let parabola = if p.y.abs() <= 2.0 + 1e-12 {
            (p.x - p.y * p.y / 4.0).abs()
        } else {
            f64::INFINITY
        };
        p.z.abs().max(line(2.0).min(line(-2.0)).min(parabola))
    };
    let (worst, on) = worst_on(&c, &residual, &|p| {
        p.y.abs() < 1.99 && (p.x - p.y * p.y / 4.0).abs() <= 1e-12 * 3.0
    });
    assert!(worst <= 1e-12 * 3.0, "edge off its curves by {worst:e}");
    assert!(on > 500, "only {on} of 2001 points on the parabola");
    // the trim: the composite's exact image on the plane, nothing fitted
    let (paths, fitted) = trims(&model);
    assert!(paths.iter().all(|p| *p == trim::TrimPath::PlaneImage), "{paths:?}");
    assert!(fitted.is_empty());
    let report = extrack::verify::verify(&model, &scene);
    assert!(report.passed(), "{}", report.to_text());
    let f = &report.faces[0];
    assert!((f.model_area - 32.0 / 3.0).abs() <= 1e-9, "area {}", f.model_area);
    // closest points beside the parabola (outside the face): on the arc,
    // at the distance of its cubic's root (s³/4 + (2 − x)s − 2y = 0)
    let scene = TrackScene::from_data(&scene).expect("a scene");
    let qs = [
        Vec3::new(0.2, 1.3, 0.3),
        Vec3::new(-0.5, 0.0, 0.1),
        Vec3::new(0.5, -1.7, -0.4),
        Vec3::new(0.0, 0.4, 0.0),
        Vec3::new(-2.0, -1.0, 1.0),
    ];
    let rs = closest_points(&scene, &Target::All { pose: Pose::identity() }, &qs);
    for (q, r) in qs.iter().zip(rs) {
        let r = r.expect("an answer");
        let g = |s: f64| s * s * s / 4.0 + (2.0 - q.x) * s - 2.0 * q.y;
        let s = root(&g, -2.0, 2.0);
        let d = q.z.hypot((s * s / 4.0 - q.x).hypot(s - q.y));
        assert!(
            (r.distance - d).abs() <= 1e-9,
            "{q:?}: {} vs {d} ({:e})",
            r.distance,
            r.distance - d
        );
        assert!(
            (r.point - Vec3::new(s * s / 4.0, s, 0.0)).norm() <= 1e-6,
            "{q:?}: {:?}",
            r.point
        );
    }
}

#[test]
fn a_cone_bounded_by_a_hyperbola_circle_composite_is_exact() {
    let (model, scene, warnings) = load(&cone_file(), "hyperbola.step");
    assert!(!warnings.iter().any(|w| w.contains("polyline")), "{warnings:?}");
    let range = |id: u64| {
        let e = model.edges.iter().find(|e| e.source == id).expect("edge");
        (e.t0, e.t1)
    };
    let (r30, r31) = (range(30), range(31));
    assert!(r30.0.abs() < 1e-9 && (r30.1 - 0.9).abs() < 1e-9, "{r30:?}");
    assert!((r31.0 - 0.9).abs() < 1e-9 && (r31.1 - 2.0).abs() < 1e-9, "{r31:?}");
    // both composite edges on the hyperbola (y = 0.5, (1 + z)² − x² = 0.25)
    // or on the circle (z = 1, x² + y² = 4); #31 on both
    let hyp = |p: Vec3| (p.y - 0.5).abs().max(((p.x * p.x + 0.25).sqrt() - (1.0 + p.z)).abs());
    let circ = |p: Vec3| (p.z - 1.0).abs().max((p.x.hypot(p.y) - 2.0).abs());
    let (a, pp, q) = (hyperbola(big_t()), hyperbola(-0.8 * big_t()), Vec3::new(0.0, 2.0, 1.0));
    for (id, from, to, on_hyperbola) in [(30, a, pp, 2001), (31, pp, q, 100)] {
        let c = scene_edge(&scene, id);
        assert_eq!(c.degree, 2, "#{id}: an exact quadratic, not a polyline");
        let (k0, k1) = c.domain();
        assert!(
            (c.eval(k0) - from).norm() < 1e-12 && (c.eval(k1) - to).norm() < 1e-12,
            "#{id}: ends"
        );
        let (worst, on) = worst_on(&c, &|p| hyp(p).min(circ(p)), &|p| hyp(p) <= 4e-12);
        assert!(worst <= 1e-12 * 4.0, "#{id}: off its conics by {worst:e}");
        assert!(
            on >= on_hyperbola.min(2001) && (id == 30 || on < 2001),
            "#{id}: {on} points on the hyperbola"
        );
    }
    // the trims: projected (no p-curves), within 1e-6 of the size; #31's
    // range starts inside the hyperbola (16 samples on 0.1 of it, 88 on the rest)
    let (paths, fitted) = trims(&model);
    assert!(paths.iter().all(|p| *p == trim::TrimPath::Projected), "{paths:?}");
    let size = 2.0 * (4.0f64 + 4.0 + 2.25).sqrt();
    for d in &fitted {
        assert!(d.deviation <= 1e-6 * size, "{:?}: {:e}", d.edge, d.deviation);
    }
    assert_eq!(fitted.len(), 3);
    let report = extrack::verify::verify(&model, &scene);
    assert!(report.passed(), "{}", report.to_text());
    // closest points beside the hyperbola, outside the face (y < 0.5 on
    // the cone, 0.05 outward): the nearest of the two boundary arcs
    let scene = TrackScene::from_data(&scene).expect("a scene");
    let on_cone = |u: f64, z: f64, out: f64| {
        let r = 1.0 + z;
        let n = Vec3::new(u.cos(), u.sin(), -1.0) / 2f64.sqrt();
        Vec3::new(r * u.cos(), r * u.sin(), z) + n * out
    };
    let qs = [
        on_cone(0.1, 0.2, 0.05),
        on_cone(2.9, -0.2, 0.05),
        on_cone(0.15, -0.45, 0.0),
        on_cone(1.2, -0.6, 0.02),
        on_cone(-0.3, 0.6, 0.1),
    ];
    let th1 = 0.25f64.asin();
    let circle = |t: f64| Vec3::new(2.0 * t.cos(), 2.0 * t.sin(), 1.0);
    let rs = closest_points(&scene, &Target::All { pose: Pose::identity() }, &qs);
    for (q, r) in qs.iter().zip(rs) {
        let r = r.expect("an answer");
        let d = curve_distance(&hyperbola, q, -big_t(), big_t()).min(curve_distance(
            &circle,
            q,
            th1,
            std::f64::consts::PI - th1,
        ));
        assert!(
            (r.distance - d).abs() <= 1e-9,
            "{q:?}: {} vs {d} ({:e})",
            r.distance,
            r.distance - d
        );
    }
}

/// The plane z = 0 face `[0, 2]²` bounded by two edges on one closed
/// composite of four lines, (0, 0) → (2, 0) → (2, 2) → (0, 2) → (0, 0): #30
/// from the closing point (0, 0) to (2, 2), #31 from (2, 2) back to the
/// closing point. The closing point is both ends of the composite; the edge
/// arriving there ends at the composite's last parameter (before, both ends
/// read as parameter 0 and #31 became #30's half again, reversed).
fn closed_composite_file() -> String {
    let l = |s: &str| s.to_string();
    let corners = [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]];
    let mut data = vec![
        l("#20=PLANE('',#21);"),
        l("#30=EDGE_CURVE('',#40,#42,#50,.T.);"),
        l("#31=EDGE_CURVE('',#42,#40,#50,.T.);"),
        l("#40=VERTEX_POINT('',#41);"),
        pt(41, [0.0, 0.0, 0.0]),
        l("#42=VERTEX_POINT('',#43);"),
        pt(43, [2.0, 2.0, 0.0]),
        l("#50=COMPOSITE_CURVE('',(#51,#52,#53,#54),.F.);"),
    ];
    for k in 0..4u32 {
        let (a, b) = (corners[k as usize], corners[(k as usize + 1) % 4]);
        let base = 60 + 10 * k;
        data.push(format!(
            "#{}=COMPOSITE_CURVE_SEGMENT(.CONTINUOUS.,.T.,#{base});",
            51 + k
        ));
        data.push(format!(
            "#{base}=TRIMMED_CURVE('',#{},(PARAMETER_VALUE(0.)),(PARAMETER_VALUE(2.)),.T.,.PARAMETER.);",
            base + 1
        ));
        data.push(format!("#{}=LINE('',#{},#{});", base + 1, base + 2, base + 3));
        data.push(pt(base + 2, [a[0], a[1], 0.0]));
        data.push(format!("#{}=VECTOR('',#{},1.);", base + 3, base + 4));
        data.push(dir(base + 4, [(b[0] - a[0]) / 2.0, (b[1] - a[1]) / 2.0, 0.0]));
    }
    step(2, &data)
}

#[test]
fn an_edge_arriving_at_a_closed_composites_closing_point_ends_at_its_last_parameter() {
    let (model, scene, warnings) = load(&closed_composite_file(), "closed_composite.step");
    let range = |id: u64| {
        let e = model.edges.iter().find(|e| e.source == id).expect("edge");
        (e.t0, e.t1)
    };
    let ((a0, a1), (b0, b1)) = (range(30), range(31));
    assert!(a0.abs() <= 1e-12 && (a1 - 2.0).abs() <= 1e-12, "#30 on [{a0}, {a1}]");
    assert!(
        (b0 - 2.0).abs() <= 1e-12 && (b1 - 4.0).abs() <= 1e-12,
        "#31 on [{b0}, {b1}]"
    );
    let report = extrack::verify::verify(&model, &scene);
    assert!(report.passed(), "{}\n{warnings:?}", report.to_text());
    let f = &report.faces[0];
    assert!((f.model_area - 4.0).abs() <= 1e-9, "area {}", f.model_area);
    // a point above the face's far corner is 1 mm above it; one beside the
    // upper edge (on #31) 1 mm from it
    let scene = TrackScene::from_data(&scene).expect("a scene");
    let target = Target::Body {
        index: 0,
        pose: Pose::identity(),
    };
    let rs = closest_points(&scene, &target, &[Vec3::new(1.9, 1.9, 1.0), Vec3::new(1.0, 3.0, 0.0)]);
    let d: Vec<f64> = rs.iter().map(|r| r.as_ref().expect("an answer").distance).collect();
    assert!((d[0] - 1.0).abs() <= 1e-9 && (d[1] - 1.0).abs() <= 1e-9, "{d:?}");
}
