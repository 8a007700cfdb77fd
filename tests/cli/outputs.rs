//! Issue 28: no option that writes a file may write over an input, over another output, or
//! half a file; every such output is checked before anything runs (`cli::output::plan`).
//! Each case is a command line that destroyed an input or lost an output before.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nonsmooth-outputs-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nonsmooth"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the nonsmooth binary runs")
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// Runs `args` in `dir` and requires a usage error (exit 2) whose message says `says`,
/// with every file of `keep` byte for byte as before and no file named in `absent`.
fn refused(dir: &Path, args: &[&str], says: &str, keep: &[&str], absent: &[&str]) {
    let before: Vec<Vec<u8>> = keep
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap())
        .collect();
    let o = run(args, dir);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err}");
    for (f, b) in keep.iter().zip(&before) {
        assert_eq!(
            &std::fs::read(dir.join(f)).unwrap(),
            b,
            "{args:?} changed {f}"
        );
    }
    for f in absent {
        assert!(!dir.join(f).exists(), "{args:?} wrote {f}");
    }
}

/// Simulates two steps of a two-box stack into `dir/traj`: a trajectory of problems, each
/// with its answer.
fn trajectory(dir: &Path) -> Output {
    run(
        &[
            "simulate",
            "box-stack",
            "--n",
            "2",
            "--steps",
            "2",
            "-q",
            "-m",
            "nsgs",
            "--dump-problems",
            "traj",
        ],
        dir,
    )
}

fn scene(dir: &Path) {
    let o = run(
        &[
            "simulate",
            "box-stack",
            "--n",
            "2",
            "--steps",
            "1",
            "-q",
            "--save-scene",
            "scene.json",
        ],
        dir,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn bench_jsonl_over_a_problem_is_refused() {
    let d = tmp("bench");
    std::fs::copy(data("box_stack_5.json"), d.join("victim.json")).unwrap();
    refused(
        &d,
        &[
            "bench",
            "victim.json",
            "-m",
            "nsgs",
            "--jsonl",
            "victim.json",
        ],
        "is the input",
        &["victim.json"],
        &[],
    );
    // also through a folder: the problem inside it
    std::fs::create_dir(d.join("probs")).unwrap();
    std::fs::copy(data("box_stack_5.json"), d.join("probs/a.json")).unwrap();
    refused(
        &d,
        &[
            "bench",
            "probs",
            "-m",
            "nsgs",
            "--jsonl",
            "./probs/../probs/a.json",
        ],
        "is the input",
        &["probs/a.json"],
        &[],
    );
}

#[test]
fn profile_and_trajectory_plots_over_their_input_are_refused() {
    let d = tmp("plots");
    std::fs::copy(data("box_stack_5.json"), d.join("p.json")).unwrap();
    let o = run(
        &["bench", "p.json", "-m", "nsgs,pgs", "--jsonl", "c.jsonl"],
        &d,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    refused(
        &d,
        &["bench", "profile", "c.jsonl", "--plot", "c.jsonl"],
        "is the input",
        &["c.jsonl"],
        &[],
    );
    // a trajectory of two steps, each with its answer
    let o = trajectory(&d);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let first = std::fs::read_dir(d.join("traj"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let first = format!("traj/{}", first.file_name().unwrap().to_string_lossy());
    refused(
        &d,
        &["check", "traj", "--plot", &first],
        "is the input",
        &[&first],
        &[],
    );
    refused(
        &d,
        &["check", "traj", "--plot", "traj"],
        "is the input",
        &[&first],
        &[],
    );
}

#[test]
fn simulate_outputs_over_the_scene_or_each_other_are_refused() {
    let d = tmp("simulate");
    scene(&d);
    refused(
        &d,
        &[
            "simulate",
            "scene.json",
            "--steps",
            "1",
            "--save-scene",
            "scene.json",
        ],
        "is the input",
        &["scene.json"],
        &[],
    );
    refused(
        &d,
        &[
            "simulate",
            "scene.json",
            "--steps",
            "1",
            "--save-scene",
            "k.json",
            "--out",
            "k.json",
        ],
        "same path",
        &["scene.json"],
        &["k.json"],
    );
    refused(
        &d,
        &[
            "simulate",
            "scene.json",
            "--steps",
            "1",
            "--out",
            "same.jsonl",
            "--records",
            "./same.jsonl",
        ],
        "same path",
        &["scene.json"],
        &["same.jsonl"],
    );
    refused(
        &d,
        &[
            "simulate",
            "scene.json",
            "--steps",
            "1",
            "--animate",
            "a.svg",
            "--out",
            "./a.svg",
        ],
        "same path",
        &[],
        &["a.svg"],
    );
    // the dump folder holds the input scene
    std::fs::create_dir(d.join("dumps")).unwrap();
    std::fs::copy(d.join("scene.json"), d.join("dumps/step-000001.json")).unwrap();
    refused(
        &d,
        &[
            "simulate",
            "dumps/step-000001.json",
            "--steps",
            "1",
            "--dump-problems",
            "dumps",
        ],
        "holds the input",
        &["dumps/step-000001.json"],
        &[],
    );
    // every output path is checked before the first step
    refused(
        &d,
        &[
            "simulate",
            "scene.json",
            "--steps",
            "100000",
            "--animate",
            "no/such/folder/a.svg",
        ],
        "does not exist",
        &[],
        &[],
    );
    refused(
        &d,
        &[
            "simulate",
            "scene.json",
            "--steps",
            "1",
            "--dump-problems",
            "scene.json",
        ],
        "is the input",
        &["scene.json"],
        &[],
    );
}

#[test]
fn solve_convert_generate_outputs_are_checked() {
    let d = tmp("solve");
    std::fs::copy(data("box_stack_5.json"), d.join("p.json")).unwrap();
    refused(
        &d,
        &["solve", "p.json", "--out", "p.json"],
        "is the input",
        &["p.json"],
        &[],
    );
    refused(
        &d,
        &["solve", "p.json", "--history", "./p.json"],
        "is the input",
        &["p.json"],
        &[],
    );
    refused(
        &d,
        &["solve", "p.json", "--out", "a.json", "--history", "a.json"],
        "same path",
        &["p.json"],
        &["a.json"],
    );
    let o = run(&["solve", "p.json", "--out", "w.json"], &d);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    refused(
        &d,
        &[
            "solve",
            "p.json",
            "--warm-start",
            "w.json",
            "--out",
            "w.json",
        ],
        "is the input",
        &["p.json", "w.json"],
        &[],
    );
    refused(
        &d,
        &["convert", "p.json", "-o", "p.json"],
        "is the input",
        &["p.json"],
        &[],
    );
    refused(
        &d,
        &["convert", "p.json", "--to", "numpy", "-o", "."],
        "holds the input",
        &["p.json"],
        &[],
    );
    refused(
        &d,
        &["generate", "box-stack", "-o", "no/such/g.json"],
        "does not exist",
        &[],
        &[],
    );
}

/// The plots are drawn in memory and written whole: a finished `check --plot` leaves the
/// SVG and no temporary file beside it.
#[test]
fn plots_are_written_whole() {
    let d = tmp("whole");
    let o = trajectory(&d);
    assert_eq!(o.status.code(), Some(0));
    let o = run(&["check", "traj", "--plot", "t.svg"], &d);
    assert!(
        o.status.code() == Some(0) || o.status.code() == Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let svg = std::fs::read_to_string(d.join("t.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    let names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().all(|n| !n.contains("nonsmooth-tmp")),
        "{names:?}"
    );
}
