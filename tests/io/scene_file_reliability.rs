//! Scene files that used to be read wrong or to exhaust the machine (issue 28): a key given
//! twice is refused with its place, every number is checked against the documented range
//! where it is read (naming the field, the value and the unit), `simulate`'s `--dt` and
//! `--ratio` are bounded, and a scene of bodies piled into one another stops at the
//! contact caps of one collision pass within seconds, with exit status 1, instead of
//! allocating gigabytes.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use nonsmooth::multibody::MultibodyError;
use nonsmooth::world::scene_file::{MAX_LENGTH, MAX_MASS, MIN_MASS};
use nonsmooth::world::{
    MAX_CONTACTS_BASE, MAX_CONTACTS_PER_BODY, MAX_COUPLING_BASE, MAX_COUPLING_PER_BODY,
    SceneFileError, read_scene,
};

fn nonsmooth() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nonsmooth"))
}

/// A fresh folder for `name`.
fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "nonsmooth-scene-reliability-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs the binary: exit status, standard output, standard error, wall time.
fn run(args: &[&str]) -> (i32, String, String, Duration) {
    let t = Instant::now();
    let o = nonsmooth().args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
        t.elapsed(),
    )
}

/// The error of reading `text`.
fn error(text: &str) -> SceneFileError {
    match read_scene(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e,
    }
}

fn assert_error(text: &str, expected: &[&str]) -> SceneFileError {
    let e = error(text);
    let message = e.to_string();
    for s in expected {
        assert!(message.contains(s), "{message:?} lacks {s:?}");
    }
    e
}

const SPHERE: &str = r#"{"shape": {"sphere": 0.5}, "position": [0, 0, 1], "density": 1000}"#;

/// A scene of three spheres and `body` as `bodies[3]`.
fn with_body(body: &str) -> String {
    format!(r#"{{"bodies": [{SPHERE}, {SPHERE}, {SPHERE}, {body}]}}"#)
}

// ---------------------------------------------------------------------------------------
// 1. Duplicate keys.

#[test]
fn a_key_given_twice_is_refused_with_its_place() {
    // Top level: the second margin used to win silently.
    let e = assert_error(
        "{\n  \"margin\": 0.001,\n  \"margin\": 0.5,\n  \"bodies\": []\n}",
        &[
            r#"scene: the key "margin" appears twice"#,
            "line 3",
            "each key may be given once",
        ],
    );
    assert_eq!(e.place(), Some("scene"));
    assert!(matches!(e, SceneFileError::Invalid { .. }), "{e:?}");
    // In a body.
    let e = assert_error(
        &with_body(r#"{"shape": {"sphere": 1}, "position": [0, 0, 0], "mass": 1, "mass": 2}"#),
        &[r#"bodies[3]: the key "mass" appears twice"#],
    );
    assert_eq!(e.place(), Some("bodies[3]"));
    // In a material, a pair, the ground, a shape, a capsule.
    assert_error(
        r#"{"materials": [{"name": "a", "friction": 0.5, "restitution": 0},
                          {"name": "b", "friction": 0.5, "friction": 0.9, "restitution": 0}]}"#,
        &[r#"materials[1]: the key "friction" appears twice"#],
    );
    assert_error(
        r#"{"materials": [{"name": "a", "friction": 0.5, "restitution": 0}],
            "pairs": [{"a": "a", "b": "a", "b": "a", "friction": 1, "restitution": 0}]}"#,
        &[r#"pairs[0]: the key "b" appears twice"#],
    );
    assert_error(
        r#"{"ground": {"height": 0, "height": 1}}"#,
        &[r#"ground: the key "height" appears twice"#],
    );
    assert_error(
        &with_body(r#"{"shape": {"sphere": 1, "sphere": 2}, "position": [0, 0, 0], "mass": 1}"#),
        &[r#"bodies[3].shape: the key "sphere" appears twice"#],
    );
    assert_error(
        &with_body(
            r#"{"shape": {"capsule": {"radius": 1, "half_height": 1, "radius": 2}}, "position": [0, 0, 0], "mass": 1}"#,
        ),
        &[r#"bodies[3].shape.capsule: the key "radius" appears twice"#],
    );
    // Unknown keys are still refused, and distinct keys are still read.
    assert_error(
        &with_body(r#"{"shape": {"sphere": 1}, "position": [0, 0, 0], "mass": 1, "masss": 2}"#),
        &["bodies[3]: unknown field `masss`"],
    );
    let w = read_scene(r#"{"margin": 0.002, "bodies": [{"shape": {"sphere": 1}, "position": [0, 0, 3], "mass": 2}]}"#)
        .unwrap();
    assert_eq!(w.margin(), 0.002);
    assert_eq!(w.bodies()[0].body.mass, 2.0);
    // Syntax errors keep their line and column.
    assert_error("{\"bodies\": [1, 2,]}", &["line 1, column 18"]);
    assert_error("{} x", &["line 1, column 4: trailing characters"]);
}

#[test]
fn a_key_given_twice_is_an_input_error_of_simulate() {
    let d = tmp("duplicate");
    let f = d.join("twice.json");
    std::fs::write(
        &f,
        r#"{"bodies": [{"shape": {"sphere": 0.5}, "position": [0, 0, 0.5], "density": 1000, "density": 1}]}"#,
    )
    .unwrap();
    let (code, _, err, _) = run(&["simulate", f.to_str().unwrap(), "--steps", "1", "-q"]);
    std::fs::remove_dir_all(&d).unwrap();
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(r#"bodies[0]: the key "density" appears twice"#),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------
// 2. Values out of range, named where they are read.

#[test]
fn huge_and_tiny_values_are_named_with_field_value_and_unit() {
    let body = |fields: &str| {
        with_body(&format!(
            r#"{{"shape": {{"sphere": 1}}, "position": [0, 0, 0], {fields}}}"#
        ))
    };
    // Each used to surface later as a non-finite q, a non-unit quaternion, a zero-length
    // normal or a bad inertia tensor.
    let cases: Vec<(String, &str)> = vec![
        (
            body(r#""mass": 1e308"#),
            "bodies[3].mass = 1e308 kg is out of range: a mass lies in [1e-9, 1e9] kg",
        ),
        (
            body(r#""mass": 5e-324"#),
            "bodies[3].mass = 5e-324 kg is out of range",
        ),
        (
            body(r#""density": 1e308"#),
            "bodies[3].density = 1e308 kg/m^3 is out of range: a density lies in [1e-9, 1e9] kg/m^3",
        ),
        (
            body(r#""mass": 1, "angular_velocity": [1e300, 0, 0]"#),
            "bodies[3].angular_velocity = [1e300, 0, 0] rad/s is out of range: each component lies in [-1e6, 1e6] rad/s",
        ),
        (
            body(r#""mass": 1, "velocity": [0, -1e300, 0]"#),
            "bodies[3].velocity = [0, -1e300, 0] m/s is out of range",
        ),
        (
            body(r#""mass": 1, "force": [0, 0, 1e300]"#),
            "bodies[3].force = [0, 0, 1e300] N is out of range",
        ),
        (
            body(r#""mass": 1, "torque": [1e300, 0, 0]"#),
            "bodies[3].torque = [1e300, 0, 0] N m is out of range",
        ),
        (
            with_body(r#"{"shape": {"sphere": 1}, "position": [1e308, 0, 0], "mass": 1}"#),
            "bodies[3].position = [1e308, 0, 0] m is out of range: each component lies in [-1e6, 1e6] m",
        ),
        (
            with_body(r#"{"shape": {"sphere": 1e154}, "position": [0, 0, 0], "density": 1}"#),
            "bodies[3].shape.sphere = 1e154 m is out of range: a radius lies in [1e-6, 1e6] m",
        ),
        (
            with_body(r#"{"shape": {"sphere": 1e-300}, "position": [0, 0, 0], "mass": 1}"#),
            "bodies[3].shape.sphere = 1e-300 m is out of range",
        ),
        (
            with_body(r#"{"shape": {"box": [1, 1e300, 1]}, "position": [0, 0, 0], "mass": 1}"#),
            "bodies[3].shape.box = [1, 1e300, 1] m is out of range: each half extent lies in [1e-6, 1e6] m",
        ),
        (
            with_body(
                r#"{"shape": {"capsule": {"half_height": 1e200, "radius": 1}}, "position": [0, 0, 0], "mass": 1}"#,
            ),
            "bodies[3].shape.capsule.half_height = 1e200 m is out of range",
        ),
        (
            r#"{"gravity": [0, 0, -1e308]}"#.to_string(),
            "gravity = [0, 0, -1e308] m/s^2 is out of range: each component lies in [-1e6, 1e6] m/s^2",
        ),
        (
            r#"{"ground": {"height": 1e308}}"#.to_string(),
            "ground.height = 1e308 m is out of range: a height lies in [-1e6, 1e6] m",
        ),
        (
            r#"{"margin": 1e300}"#.to_string(),
            "margin = 1e300 m is out of range: a margin lies in [0, 1e6] m",
        ),
    ];
    for (text, expected) in &cases {
        let e = assert_error(text, &[expected]);
        assert!(
            matches!(e, SceneFileError::OutOfRange { .. }),
            "{expected}: {e:?}"
        );
        let field = expected.split(" = ").next().unwrap();
        assert_eq!(e.place(), Some(field));
    }
    // A density in range can still give a mass out of range: named with both.
    assert_error(
        &with_body(
            r#"{"shape": {"box": [1e5, 1e5, 1e5]}, "position": [0, 0, 0], "density": 1000}"#,
        ),
        &[
            "bodies[3].density: 1000 kg/m^3 gives the 8e15 m^3 of the shape a mass of 8e18 kg",
            "a mass lies in [1e-9, 1e9] kg",
        ],
    );
    // The bounds themselves are accepted, and zero or negative values keep the world's
    // messages.
    let w = read_scene(&format!(
        r#"{{"gravity": [0, 0, -1e6], "margin": 0, "bodies": [
            {{"shape": {{"sphere": 1e-6}}, "position": [1e6, -1e6, 0], "mass": {MIN_MASS:e},
              "velocity": [1e6, 0, 0], "angular_velocity": [0, 0, -1e6]}},
            {{"shape": {{"box": [1e6, 1, 1]}}, "position": [0, 0, {MAX_LENGTH:e}], "mass": {MAX_MASS:e},
              "force": [1e15, 0, 0], "torque": [0, 0, 1e21]}}]}}"#
    ))
    .unwrap();
    assert_eq!(w.bodies().len(), 2);
    assert_error(
        &with_body(r#"{"shape": {"sphere": 1}, "position": [0, 0, 0], "mass": -2}"#),
        &["bodies[3]: mass must be positive"],
    );
    assert_error(
        r#"{"margin": -1}"#,
        &["margin: margin must be positive, found -1"],
    );
    // An axis with huge components is a direction, not an error.
    let w = read_scene(&with_body(
        r#"{"shape": {"sphere": 1}, "position": [0, 0, 0], "mass": 1, "axis_angle": [1e300, 1e300, 0, 1]}"#,
    ))
    .unwrap();
    let q = w.bodies()[3].body.orientation;
    assert!((q.angle() - 1.0).abs() < 1e-12);
}

#[test]
fn simulate_names_the_value_out_of_range_and_bounds_dt_and_ratio() {
    let d = tmp("range");
    let f = d.join("heavy.json");
    std::fs::write(
        &f,
        r#"{"bodies": [{"shape": {"sphere": 0.5}, "position": [0, 0, 0.5], "mass": 1e308}]}"#,
    )
    .unwrap();
    let (code, _, err, _) = run(&["simulate", f.to_str().unwrap(), "--steps", "1", "-q"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("bodies[0].mass = 1e308 kg is out of range"),
        "{err}"
    );
    assert!(!err.contains("non-finite"), "{err}");
    std::fs::remove_dir_all(&d).unwrap();
    for (args, needle) in [
        (vec!["--dt", "1e308"], "is not a time step"),
        (vec!["--dt", "10.5"], "at most 10"),
        (vec!["--dt", "0"], "finite number > 0"),
    ] {
        let mut all = vec!["simulate", "box-stack", "--steps", "1", "-q"];
        all.extend(&args);
        let (code, _, err, _) = run(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    for r in ["1e308", "1e-300", "2e6", "0"] {
        let (code, _, err, _) = run(&[
            "simulate",
            "heavy-on-light",
            "--ratio",
            r,
            "--steps",
            "1",
            "-q",
        ]);
        assert_eq!(code, 2, "--ratio {r}: {err}");
        assert!(err.contains("is not a mass ratio"), "--ratio {r}: {err}");
    }
    let (code, _, err, _) = run(&[
        "simulate",
        "heavy-on-light",
        "--ratio",
        "1e6",
        "--dt",
        "10",
        "--steps",
        "1",
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
}

// ---------------------------------------------------------------------------------------
// 3. Memory bounded by the input: the caps of one collision pass.

/// `n` copies of `body` as a scene file.
fn copies(n: usize, body: &str) -> String {
    let bodies = vec![body; n].join(",\n");
    format!("{{\"bodies\": [\n{bodies}\n]}}")
}

const BOX: &str =
    r#"{"shape": {"box": [0.5, 0.5, 0.5]}, "position": [0, 0, 0.5], "density": 1000}"#;
const BALL: &str = r#"{"shape": {"sphere": 0.5}, "position": [0, 0, 0.5], "density": 1000}"#;

/// The scene `text` through `simulate`: it must stop within seconds with status 1 and the
/// message `needles`.
fn simulate_stops(name: &str, text: &str, needles: &[&str]) {
    let d = tmp(name);
    let f = d.join(format!("{name}.json"));
    std::fs::write(&f, text).unwrap();
    let (code, _, err, took) = run(&["simulate", f.to_str().unwrap(), "--steps", "3", "-q"]);
    std::fs::remove_dir_all(&d).unwrap();
    assert_eq!(code, 1, "{name}: {err}");
    for s in needles {
        assert!(err.contains(s), "{name}: {err:?} lacks {s:?}");
    }
    assert!(took < Duration::from_secs(20), "{name}: took {took:?}");
}

#[test]
fn five_hundred_coincident_boxes_stop_at_the_coupling_cap() {
    let text = copies(500, BOX);
    let world = read_scene(&text).unwrap();
    let (_, max_coupling) = world.caps();
    assert_eq!(
        max_coupling,
        MAX_COUPLING_BASE + 500 * MAX_COUPLING_PER_BODY
    );
    let t = Instant::now();
    let e = world.contacts().unwrap_err();
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    assert!(matches!(e, MultibodyError::Collision { .. }), "{e:?}");
    let message = e.to_string();
    assert!(
        message.contains(&format!(
            "more than the cap of one collision pass, {max_coupling}"
        )),
        "{message}"
    );
    simulate_stops(
        "boxes500",
        &text,
        &[
            "collision detection failed",
            &max_coupling.to_string(),
            "blocks of W",
            "the bodies overlap far more than bodies in contact do",
        ],
    );
}

#[test]
fn two_thousand_coincident_spheres_stop_at_the_contact_cap() {
    let text = copies(2000, BALL);
    let world = read_scene(&text).unwrap();
    let (max_contacts, _) = world.caps();
    assert_eq!(
        max_contacts,
        MAX_CONTACTS_BASE + 2000 * MAX_CONTACTS_PER_BODY
    );
    let t = Instant::now();
    let e = world.contacts().unwrap_err();
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    assert!(
        e.to_string()
            .contains(&format!("more than {max_contacts} pairs of 2000 bodies")),
        "{e}"
    );
    simulate_stops(
        "spheres2000",
        &text,
        &[
            "collision detection failed",
            &format!("more than {max_contacts} pairs"),
        ],
    );
}

#[test]
fn three_thousand_overlapping_spheres_stop_within_seconds() {
    // Spheres of radius 0.5 m scattered through a 3 m cube: each overlaps hundreds.
    let mut seed = 12345u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64 * 3.0
    };
    let bodies: Vec<String> = (0..3000)
        .map(|_| {
            format!(
                r#"{{"shape": {{"sphere": 0.5}}, "position": [{}, {}, {}], "density": 1000}}"#,
                next(),
                next(),
                next() + 0.5
            )
        })
        .collect();
    let text = format!("{{\"bodies\": [{}]}}", bodies.join(",\n"));
    simulate_stops(
        "spheres3000",
        &text,
        &["collision detection failed", "cap of one collision pass"],
    );
}

#[test]
fn scenes_at_rest_stay_far_below_the_caps() {
    // Fifty coincident boxes are still taken (the caps are about absurd overlap, not
    // about every overlap), and so is a stack of boxes at rest.
    let world = read_scene(&copies(50, BOX)).unwrap();
    assert_eq!(world.contacts().unwrap().len(), 50 * 49 / 2 * 4 + 50 * 4);
    let stack: Vec<String> = (0..200)
        .map(|k| {
            format!(
                r#"{{"shape": {{"box": [0.5, 0.5, 0.5]}}, "position": [0, 0, {}], "density": 1000}}"#,
                0.5 + k as f64
            )
        })
        .collect();
    let world = read_scene(&format!("{{\"bodies\": [{}]}}", stack.join(","))).unwrap();
    assert_eq!(world.contacts().unwrap().len(), 200 * 4);
}
