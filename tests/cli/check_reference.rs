//! `nonsmooth check`'s distance to the reference, its units, and trajectories (issue 13),
//! run through the built binary on problems with a known solution.

use crate::common;
use crate::program::{stderr, stdout};

use std::path::{Path, PathBuf};

use nalgebra::{DMatrix, DVector};
use nonsmooth::io::AnyProblem;
use nonsmooth::problem::{EngineAnswer, FrictionContact, FrictionKind, Provenance};

/// Two contacts, CCP, `W` positive definite; both stick, so `r* = -W⁻¹ q`.
fn two_contacts() -> (AnyProblem, Vec<f64>, Provenance) {
    let mut w = DMatrix::<f64>::identity(6, 6) * 2.0;
    w[(0, 3)] = 0.5;
    w[(3, 0)] = 0.5;
    w[(1, 4)] = 0.2;
    w[(4, 1)] = 0.2;
    let rstar = DVector::from_vec(vec![1.0, 0.1, -0.1, 2.0, 0.2, 0.0]);
    let q = -(&w * &rstar);
    let mu = DVector::from_vec(vec![0.5, 0.5]);
    let p = AnyProblem::Friction(FrictionContact::new(w.into(), q, mu, FrictionKind::Ccp).unwrap());
    let mut prov = Provenance::default();
    prov.units.insert("r".into(), "N s".into());
    prov.units.insert("u".into(), "m/s".into());
    prov.labels = vec!["box_a/floor".into(), "box_b/floor".into()];
    (p, rstar.as_slice().to_vec(), prov)
}

/// Writes the problem with `answer` embedded.
fn write(path: &Path, answer: &[f64]) {
    let (p, _, prov) = two_contacts();
    std::fs::write(path, line(&p, answer, &prov) + "\n").unwrap();
}

fn line(p: &AnyProblem, answer: &[f64], prov: &Provenance) -> String {
    let ans = EngineAnswer {
        source: "test engine".into(),
        r: answer.to_vec(),
        u: None,
    };
    nonsmooth::io::json::to_string("two_contacts", p, Some(&ans), prov)
}

fn off(by: f64) -> Vec<f64> {
    let (_, mut r, _) = two_contacts();
    r[3] += by; // contact 1's normal force
    r
}

/// The text report names the level, the reference, uniqueness, the distance and the
/// worst contact with its label; the JSON has the same fields; --no-reference drops them.
#[test]
fn distance_to_the_reference() {
    let dir = tmp!("distance");
    let exact = dir.join("exact.json");
    let wrong = dir.join("wrong.json");
    write(&exact, &off(0.0));
    write(&wrong, &off(0.5));

    let o = run!("check", &exact);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}{}", stderr(&o));
    assert!(text.contains("  level       velocity (r in N s)"), "{text}");
    assert!(
        text.contains("  uniqueness  unique: W is positive definite"),
        "{text}"
    );
    assert!(text.contains("  max penetration velocity"), "{text}");
    assert!(
        text.contains("  grade       consistent: forces within "),
        "{text}"
    );
    assert!(text.contains("box_b/floor"), "{text}");

    let o = run!("check", &wrong);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}{}", stderr(&o));
    assert!(
        text.contains("  distance    5.000e-1 N s (relative "),
        "{text}"
    );
    assert!(
        text.contains("worst contact 1 (box_b/floor), 5.000e-1 N s"),
        "{text}"
    );
    // the grade is wrapped at 100 columns, its continuation lines indented under its value
    let grade = text.replace("\n              ", " ");
    assert!(
        grade.contains("worst contact 1 (box_b/floor) is 5.0e-01 N s off"),
        "{text}"
    );
    assert!(
        text.contains("  grade       inconsistent: not converged"),
        "{text}"
    );

    // --worst 1 --sort distance: the one row is contact 1
    let o = run!("check", &wrong, "--worst", "1", "--sort", "distance");
    let text = stdout(&o);
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("contact"))
        .skip(1)
        .collect();
    assert_eq!(rows.len(), 1, "{text}");
    assert!(rows[0].trim_start().starts_with("1 "), "{text}");
    assert!(rows[0].contains("5.000e-1"), "{text}");

    // JSON: the summary, then one record per contact
    let o = run!("check", &wrong, "--json");
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    let s = &lines[0];
    assert_eq!(s["verdict"], "inconsistent");
    assert_eq!(s["level"], "velocity");
    assert_eq!(s["force_unit"], "N s");
    assert_eq!(s["kind"], "ccp");
    assert_eq!(s["reference"]["unique"], true);
    assert_eq!(s["reference"]["found"], true);
    assert_eq!(s["reference"]["worst_contact"], 1);
    assert_eq!(s["reference"]["worst_label"], "box_b/floor");
    assert!((s["reference"]["distance"].as_f64().unwrap() - 0.5).abs() < 1e-9);
    assert!(s["grade"].as_str().unwrap().starts_with("inconsistent: "));
    assert!(s.get("contacts").is_none());
    assert_eq!(lines[2]["contact"], 1);
    assert_eq!(lines[2]["label"], "box_b/floor");
    assert!((lines[2]["distance"].as_f64().unwrap() - 0.5).abs() < 1e-9);
    assert!(lines[1]["distance"].as_f64().unwrap() < 1e-9);

    // --no-reference: no distance, the same verdict and exit status
    let o = run!("check", &wrong, "--json", "--no-reference");
    assert_eq!(o.status.code(), Some(1));
    let s: serde_json::Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert_eq!(s["reference"], serde_json::Value::Null);
    assert!(s["grade"].as_str().unwrap().contains("not computed"));
    let o = run!("check", &wrong, "--no-reference");
    assert!(
        !stdout(&o).lines().any(|l| l.starts_with("  distance ")),
        "{}",
        stdout(&o)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// MuJoCo files are at the acceleration level: forces in N, "penetration acceleration".
#[test]
fn acceleration_wording_on_mujoco_data() {
    let mut files = vec![PathBuf::from(
        "tests/fixtures/mujoco/condim13_spheres_elliptic.json",
    )];
    match common::shared_file("mujoco/mujoco_sliding_slab_elliptic.json") {
        Some(p) => files.push(p),
        None => eprintln!("skipping the shared MuJoCo file (absent)"),
    }
    for f in files {
        let o = run!("check", &f);
        let text = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{text}{}", stderr(&o));
        assert!(
            text.contains("  level       acceleration (r in N)"),
            "{text}"
        );
        assert!(text.contains("  max penetration acceleration "), "{text}");
        assert!(!text.contains("penetration velocity"), "{text}");
        assert!(
            text.contains("  grade       consistent: forces within "),
            "{text}"
        );
        assert!(text.contains(" N (relative"), "{text}");
        let o = run!("check", &f, "--json");
        let s: serde_json::Value =
            serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
        assert_eq!(s["level"], "acceleration");
        assert_eq!(s["penetration_name"], "penetration acceleration");
    }
}

/// A folder of steps (natural name order) and the same steps as JSON Lines: one row per
/// step, the worst step named, exit status 1 when a step is inconsistent; --json gives
/// one object per step; --plot writes an SVG.
#[test]
fn trajectories() {
    let dir = tmp!("trajectory");
    let folder = dir.join("steps");
    std::fs::create_dir_all(&folder).unwrap();
    // step_10 sorts after step_2 by number, before it by characters
    write(&folder.join("step_1.json"), &off(0.0));
    write(&folder.join("step_2.json"), &off(1e-3));
    write(&folder.join("step_10.json"), &off(0.0));
    let (p, _, prov) = two_contacts();
    let jsonl = dir.join("rollout.jsonl");
    let lines = [
        line(&p, &off(0.0), &prov),
        line(&p, &off(1e-3), &prov),
        String::new(), // blank lines are skipped
        line(&p, &off(0.0), &prov),
    ];
    std::fs::write(&jsonl, lines.join("\n") + "\n").unwrap();

    let from_lines: Vec<String> = [1, 2, 4]
        .iter()
        .map(|l| format!("{}:{l}", jsonl.display()))
        .collect();
    let from_files: Vec<String> = ["step_1.json", "step_2.json", "step_10.json"]
        .map(String::from)
        .to_vec();
    for (path, names) in [(&folder, from_files), (&jsonl, from_lines)] {
        let o = run!("check", path);
        let text = stdout(&o);
        assert_eq!(o.status.code(), Some(1), "{text}{}", stderr(&o));
        let rows: Vec<&str> = text.lines().skip(1).take(3).collect();
        for (i, (row, name)) in rows.iter().zip(&names).enumerate() {
            assert!(row.trim_start().starts_with(&format!("{i} ")), "{text}");
            assert!(row.contains(name.as_str()), "{name}: {text}");
        }
        assert!(rows[0].ends_with("consistent"), "{text}");
        assert!(rows[1].contains("1.000e-3"), "{text}");
        assert!(rows[1].contains("1 (box_b/floor)"), "{text}");
        assert!(rows[1].ends_with("inconsistent"), "{text}");
        assert!(
            text.contains("3 steps, 2 consistent, 1 inconsistent or invalid"),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "worst steps by distance: step 1 ({}) 1.000e-3",
                names[1]
            )),
            "{text}"
        );

        let o = run!("check", path, "--json");
        assert_eq!(o.status.code(), Some(1));
        let steps: Vec<serde_json::Value> = stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(steps.len(), 3);
        for (i, s) in steps.iter().enumerate() {
            assert_eq!(s["step"], i);
            assert_eq!(s["contacts"], 2);
            assert_eq!(s["file"], names[i].as_str());
            assert_eq!(s["answer_source"], "test engine");
        }
        assert_eq!(steps[1]["verdict"], "inconsistent");
        assert!((steps[1]["reference"]["distance"].as_f64().unwrap() - 1e-3).abs() < 1e-10);

        let svg = dir.join("plot.svg");
        let _ = std::fs::remove_file(&svg);
        let o = run!("check", path, "--plot", &svg);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let drawn = std::fs::read_to_string(&svg).unwrap();
        assert!(drawn.starts_with("<svg"), "{drawn}");
        assert!(drawn.contains("polyline"), "no line drawn");
        assert!(drawn.contains("step"), "no axis label");
    }

    // Every step exact to rounding (errors 1e-17 .. 1e-16): the axis still has labels,
    // one per decade (plotters' logarithmic axis drew none on such a range).
    let tiny = dir.join("tiny");
    std::fs::create_dir_all(&tiny).unwrap();
    for k in 1..=3 {
        let mut r = off(0.0);
        r[1] += k as f64 * 1e-17; // a tangential force inside the cone, off by 1e-17
        write(&tiny.join(format!("s{k}.json")), &r);
    }
    let svg = dir.join("tiny.svg");
    let o = run!("check", &tiny, "--plot", &svg);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let drawn = std::fs::read_to_string(&svg).unwrap();
    let labels: Vec<&str> = drawn
        .split("</text>")
        .filter_map(|t| t.rsplit('>').next())
        .map(str::trim)
        .filter(|t| t.starts_with("1e"))
        .collect();
    assert!(labels.len() >= 3, "decade labels {labels:?} in {drawn}");
    assert!(labels.contains(&"1e-16"), "{labels:?}");

    // all consistent: exit 0
    let good = dir.join("good");
    std::fs::create_dir_all(&good).unwrap();
    write(&good.join("a.json"), &off(0.0));
    write(&good.join("b.json"), &off(0.0));
    let o = run!("check", &good);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

/// Bad input: a line that is not a problem is an invalid step named by its line; an empty
/// JSON Lines file, --answer or --plot where they do not apply, and a missing file are
/// refused with a message.
#[test]
fn bad_trajectories() {
    let dir = tmp!("bad-trajectory");
    let (p, _, prov) = two_contacts();
    let jsonl = dir.join("bad.jsonl");
    std::fs::write(
        &jsonl,
        format!("{}\n{{\"format\": 3}}\n", line(&p, &off(0.0), &prov)),
    )
    .unwrap();
    let o = run!("check", &jsonl);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(text.lines().nth(2).unwrap().ends_with("invalid"), "{text}");
    assert!(
        stderr(&o).contains(&format!("{}:2", jsonl.display())),
        "{}",
        stderr(&o)
    );

    // a problem without an answer
    let bare = dir.join("bare.jsonl");
    std::fs::write(
        &bare,
        nonsmooth::io::json::to_string("x", &p, None, &prov) + "\n",
    )
    .unwrap();
    let o = run!("check", &bare);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("carries no answer"), "{}", stderr(&o));

    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "\n\n").unwrap();
    let o = run!("check", &empty);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no problems"), "{}", stderr(&o));

    let o = run!("check", &jsonl, "--answer", &jsonl);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--answer is for one problem"),
        "{}",
        stderr(&o)
    );

    let one = dir.join("one.json");
    write(&one, &off(0.0));
    let o = run!("check", &one, "--plot", &dir.join("x.svg"));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--plot draws a trajectory"),
        "{}",
        stderr(&o)
    );

    let o = run!("check", &dir.join("missing.jsonl"));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    std::fs::remove_dir_all(&dir).ok();
}

/// `--by distance` judges by the distance: an answer 0.5 N s off fails at --tol 0.1 and
/// passes at --tol 0.5 (relative distance about 0.2); the report says what it judged by,
/// the JSON carries `by`; `--by distance --no-reference` is a usage error (exit 2).
#[test]
fn judged_by_distance() {
    let dir = tmp!("by");
    let wrong = dir.join("wrong.json");
    write(&wrong, &off(0.5));
    let o = run!("check", &wrong, "--by", "distance", "--tol", "0.1");
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}{}", stderr(&o));
    assert!(text.contains("(by distance, tolerance 1.000e-1)"), "{text}");
    assert!(text.contains("of the largest contact force"), "{text}");
    let o = run!(
        "check", &wrong, "--by", "distance", "--tol", "0.5", "--json"
    );
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(summary["by"], "distance");
    assert_eq!(summary["verdict"], "consistent");
    let o = run!("check", &wrong, "--by", "distance", "--no-reference");
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("--no-reference"), "{}", stderr(&o));
    let o = run!("check", &wrong, "--by", "force");
    assert_eq!(o.status.code(), Some(2));
}

/// `convert --rollout` packs a trajectory into one `.npz` archive, and `check` judges the
/// archive step by step exactly as it judges the folder and the JSON Lines file it came
/// from (same errors, distances and worst contacts, in the same order).
#[test]
fn rollout_archives_check_like_their_steps() {
    let dir = tmp!("rollout");
    let folder = dir.join("steps");
    std::fs::create_dir_all(&folder).unwrap();
    write(&folder.join("step_1.json"), &off(0.0));
    write(&folder.join("step_2.json"), &off(1e-3));
    write(&folder.join("step_10.json"), &off(0.5));
    let npz = dir.join("roll.npz");
    let o = run!("convert", "--rollout", &folder, "-o", &npz);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("3 steps, 3 with an answer"),
        "{}",
        stderr(&o)
    );
    let rows = |path: &Path| -> Vec<(f64, Option<f64>, Option<String>)> {
        let o = run!("check", path, "--json");
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        stdout(&o)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|v| v.get("error").is_some())
            .map(|v| {
                let rf = &v["reference"];
                (
                    v["error"].as_f64().unwrap(),
                    rf["distance"].as_f64(),
                    rf["worst_label"].as_str().map(String::from),
                )
            })
            .collect()
    };
    let a = rows(&folder);
    let b = rows(&npz);
    assert_eq!(a.len(), 3);
    // (a dense W stored as compressed rows sums u = W r + q in another order: rounding)
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-12 * x.abs().max(y.abs()).max(1e-300);
    for (x, y) in a.iter().zip(&b) {
        assert!(close(x.0, y.0), "{a:?} {b:?}");
        assert!(
            close(x.1.unwrap(), y.1.unwrap()) || x.1 == y.1,
            "{a:?} {b:?}"
        );
        assert_eq!(x.2, y.2);
    }
    assert_eq!(b[2].2.as_deref(), Some("box_b/floor"));
    // the text table of the archive names its steps
    let text = stdout(&run!("check", &npz));
    assert!(
        text.contains("3 steps, 1 consistent, 2 inconsistent"),
        "{text}"
    );

    // refused: an output not named .npz, an input that is not a trajectory; a rollout
    // read as one problem says what it is
    let o = run!(
        "convert",
        "--rollout",
        &folder,
        "-o",
        &dir.join("roll.json")
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("FILE.npz"), "{}", stderr(&o));
    let o = run!("convert", "--rollout", &npz, "-o", &dir.join("again.npz"));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("a folder of problem files or a .jsonl file"));
    let o = run!("info", &npz);
    assert_ne!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("rollout archive"), "{}", stderr(&o));
}
