//! `nonsmooth simulate`: the per-step JSON Lines, the files it writes, and the errors.

use std::path::PathBuf;
use std::process::Command;

fn nonsmooth() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nonsmooth"))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "nonsmooth-cli-simulate-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = nonsmooth().args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

#[test]
fn json_lines_have_the_documented_fields() {
    let (code, out, err) = run(&[
        "simulate",
        "box-stack",
        "--n",
        "3",
        "--steps",
        "15",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 15);
    for (k, r) in rows.iter().enumerate() {
        for f in [
            "step",
            "time",
            "contacts",
            "iterations",
            "error",
            "max_penetration",
            "kinetic_energy",
            "potential_energy",
            "status",
            "method",
            "momentum",
            "collision_seconds",
            "dynamics_seconds",
        ] {
            assert!(r.get(f).is_some(), "missing {f} in {r}");
        }
        assert_eq!(r["step"], k + 1);
        assert_eq!(r["contacts"], 12);
        assert!(r["error"].as_f64().unwrap().is_finite());
    }
}

/// The same command twice writes identical trajectories (the records differ only in
/// their timings).
#[test]
fn trajectories_are_reproducible_and_well_formed() {
    let d = tmp("traj");
    let mut outs = Vec::new();
    for k in 0..2 {
        let t = d.join(format!("t{k}.csv"));
        let r = d.join(format!("r{k}.jsonl"));
        let (code, _, err) = run(&[
            "simulate",
            "pile",
            "--n",
            "12",
            "--steps",
            "40",
            "--method",
            "nsgs",
            "-q",
            "--out",
            t.to_str().unwrap(),
            "--records",
            r.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        outs.push(std::fs::read_to_string(&t).unwrap());
        let recs = std::fs::read_to_string(&r).unwrap();
        assert_eq!(recs.lines().count(), 40);
    }
    assert_eq!(outs[0], outs[1]);
    let lines: Vec<&str> = outs[0].lines().collect();
    assert_eq!(
        lines[0],
        "step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz"
    );
    // 40 steps of 16 bodies (12 dropped, 4 fixed walls).
    assert_eq!(lines.len(), 1 + 40 * 16);
    for l in &lines[1..] {
        let cols: Vec<f64> = l.split(',').map(|c| c.parse().unwrap()).collect();
        assert_eq!(cols.len(), 16);
        let q = (cols[6].powi(2) + cols[7].powi(2) + cols[8].powi(2) + cols[9].powi(2)).sqrt();
        assert!((q - 1.0).abs() < 1e-12);
    }
}

/// Every problem `--dump-problems` writes is a real problem: the command line reads it
/// back and the cone Newton solves it.
#[test]
fn dumped_problems_are_read_back_and_solved() {
    let d = tmp("dump");
    let dir = d.join("problems");
    let (code, _, err) = run(&[
        "simulate",
        "box-stack",
        "--n",
        "2",
        "--steps",
        "10",
        "-q",
        "--dump-problems",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let files = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(files, 10);
    let (code, out, err) = run(&[
        "solve",
        dir.to_str().unwrap(),
        "--method",
        "nsn",
        "--json",
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 10);
    assert!(rows.iter().all(|r| r["status"] == "converged"), "{out}");
}

#[test]
fn scene_files_round_trip_through_the_command_line() {
    let d = tmp("scene");
    let scene = d.join("stack.json");
    let (code, a, err) = run(&[
        "simulate",
        "box-stack",
        "--n",
        "2",
        "--steps",
        "5",
        "--json",
        "--save-scene",
        scene.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, b, err) = run(&[
        "simulate",
        scene.to_str().unwrap(),
        "--steps",
        "5",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let strip = |s: &str| -> Vec<(u64, f64, f64)> {
        s.lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (
                    v["contacts"].as_u64().unwrap(),
                    v["kinetic_energy"].as_f64().unwrap(),
                    v["potential_energy"].as_f64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(strip(&a), strip(&b));
}

#[test]
fn an_animation_is_written() {
    let d = tmp("anim");
    let svg = d.join("a.svg");
    let (code, _, err) = run(&[
        "simulate",
        "heavy-on-light",
        "--steps",
        "20",
        "-q",
        "--animate",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("<animate"));
    // One frame at the start and one a step: 21 frames, each with its `<animate>`.
    assert_eq!(text.matches("<animate ").count(), 21, "{}", &text[..400]);
}

/// Long runs are subsampled to at most 100 frames (the first and one every
/// `ceil(steps / 99)` steps).
#[test]
fn an_animation_keeps_at_most_100_frames() {
    let d = tmp("anim-limit");
    for (steps, frames) in [(99, 100), (100, 51), (1000, 91)] {
        let svg = d.join(format!("a{steps}.svg"));
        let (code, _, err) = run(&[
            "simulate",
            "heavy-on-light",
            "--steps",
            &steps.to_string(),
            "-q",
            "--animate",
            svg.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let text = std::fs::read_to_string(&svg).unwrap();
        assert_eq!(text.matches("<animate ").count(), frames, "{steps} steps");
    }
}

/// Shock propagation on every named scene: the layer count is in the JSON records and
/// the table, and the final correction defaults to projection.
#[test]
fn shock_propagation_runs_on_every_scene_and_reports_its_layers() {
    for (scene, n, layers) in [
        ("box-stack", "4", 4),
        ("heavy-on-light", "", 2),
        ("wall", "3", 0),
        ("tower", "2", 0),
        ("ball-grid", "2", 0),
        ("pile", "6", 0),
        ("roof-tower", "2", 0),
        ("wall-push", "2", 0),
    ] {
        let mut args = vec![
            "simulate",
            scene,
            "--steps",
            "3",
            "--json",
            "--shock-propagation",
        ];
        if !n.is_empty() {
            args.extend(["--n", n]);
        }
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{scene}: {err}");
        for line in out.lines() {
            let r: serde_json::Value = serde_json::from_str(line).unwrap();
            let l = r["layers"].as_u64().unwrap() as usize;
            // Scenes whose layer count is fixed by construction are checked exactly.
            if layers > 0 {
                assert_eq!(l, layers, "{scene}: {line}");
            } else {
                assert!(l >= 1, "{scene}: {line}");
            }
        }
    }
    let table = [
        "simulate",
        "box-stack",
        "--n",
        "5",
        "--steps",
        "2",
        "--every",
        "1",
        "-q",
    ];
    let (code, _, err) = run(&[&table[..], &["--shock-propagation"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("vsp stepper (weight a = 0.005, whole-system budget 10 iterations)"),
        "{err}"
    );
    assert!(
        err.contains("the whole-system solve used its budget"),
        "{err}"
    );
    assert!(err.contains("correction projection"), "{err}");
    let (code, out, err) = run(&[
        &table[..],
        &[
            "--stepper",
            "vsp",
            "--vsp-weight",
            "0.01",
            "--correction",
            "none",
        ],
    ]
    .concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("weight a = 0.01") && err.contains("correction none"),
        "{err}"
    );
    let header = out.lines().next().unwrap();
    assert!(header.contains("layers"), "{out}");
    assert!(
        out.lines().nth(1).unwrap().split_whitespace().nth(3) == Some("5"),
        "{out}"
    );
}

/// The whole-system solve of a shock-propagation step stops at its budget and says so
/// apart from the layer solves; `--vsp-whole-budget` and `--vsp-layer-push` reach the
/// settings, and are refused without shock propagation.
#[test]
fn shock_propagation_reports_the_whole_system_solve_apart() {
    let base = [
        "simulate",
        "box-stack",
        "--n",
        "25",
        "--steps",
        "4",
        "--json",
        "--shock-propagation",
    ];
    for (budget, push) in [("3", "translating"), ("50", "turning")] {
        let (code, out, err) = run(&[
            &base[..],
            &["--vsp-whole-budget", budget, "--vsp-layer-push", push],
        ]
        .concat());
        assert_eq!(code, 0, "{err}");
        let cap: u64 = budget.parse().unwrap();
        for line in out.lines() {
            let r: serde_json::Value = serde_json::from_str(line).unwrap();
            let (status, iters) = (
                r["whole_status"].as_str().unwrap(),
                r["whole_iterations"].as_u64().unwrap(),
            );
            assert!(iters >= 1 && iters <= cap, "{line}");
            match status {
                "budget" => assert_eq!(iters, cap, "{line}"),
                "converged" => assert!(iters < cap || r["whole_error"].as_f64().unwrap() <= 1e-8),
                other => panic!("whole_status {other}: {line}"),
            }
            // The step's own status is the layer solves'.
            assert!(
                ["converged", "max-iterations", "stalled"].contains(&r["status"].as_str().unwrap()),
                "{line}"
            );
        }
    }
    // Without shock propagation the whole-system fields are empty.
    let (code, out, _) = run(&["simulate", "box-stack", "--steps", "1", "--json"]);
    assert_eq!(code, 0);
    let r: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(r["whole_status"].as_str(), Some(""));
    assert_eq!(r["whole_iterations"].as_u64(), Some(0));
    assert_eq!(r["inner_iterations"].as_u64(), Some(0));
    assert_eq!(r["joint_error"].as_f64(), Some(0.0));
    for flag in [["--vsp-whole-budget", "5"], ["--vsp-layer-push", "turning"]] {
        let (code, _, err) = run(&[&["simulate", "box-stack", "--steps", "1"][..], &flag].concat());
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("apply with --shock-propagation"), "{err}");
    }
    let (code, _, err) = run(&[&base[..], &["--vsp-layer-push", "sideways"]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("expected translating or turning"), "{err}");
}

#[test]
fn bad_command_lines_are_usage_errors() {
    for (args, needle) in [
        (vec!["simulate", "nope"], "neither a scene"),
        (
            vec!["simulate", "wall", "--method", "lemke"],
            "does not solve 3D friction",
        ),
        (vec!["simulate", "heavy-on-light", "--n", "3"], "--ratio"),
        (
            vec!["simulate", "wall", "--ratio", "10"],
            "heavy-on-light only",
        ),
        (vec!["simulate", "wall", "--dt", "0"], "finite number > 0"),
        (vec!["simulate", "wall", "--cfm", "-1"], ">= 0"),
        (
            vec!["simulate", "wall", "--stepper", "rk4"],
            "unknown stepper",
        ),
        (
            vec!["simulate", "wall", "--correction", "baumgarte"],
            "unknown correction",
        ),
        (vec!["simulate", "wall", "--set", "nope=1"], "nope"),
        (
            vec!["simulate", "box-stack", "--out", "x.txt"],
            ".jsonl or .csv",
        ),
        (vec!["simulate", "box-stack", "--animate", "x.gif"], ".svg"),
        (vec!["simulate", "wall", "--seed", "3"], "pile only"),
        (
            vec!["simulate", "wall", "--per-layer", "12"],
            "tower and roof-tower only",
        ),
        (
            vec!["simulate", "tower", "--per-layer", "2"],
            "per_layer must be at least 3",
        ),
        (
            vec!["simulate", "roof-tower", "--per-layer", "0"],
            "per_layer must be at least 3",
        ),
        (
            vec!["simulate", "tower", "--per-layer", "-3"],
            "--per-layer",
        ),
        (
            vec![
                "simulate",
                "wall",
                "--correction",
                "none",
                "--correction-iter",
                "5",
            ],
            "--correction projection",
        ),
        (
            vec!["simulate", "wall", "--json", "--every", "5"],
            "--json prints every step",
        ),
        (vec!["simulate", "wall", "--max-iter", "0"], "expected 1 to"),
        (
            vec!["simulate", "wall", "--vsp-weight", "0.01"],
            "--shock-propagation",
        ),
        (
            vec!["simulate", "wall", "--vsp-bottoms", "updated"],
            "--shock-propagation",
        ),
        (
            vec![
                "simulate",
                "wall",
                "--shock-propagation",
                "--vsp-weight",
                "1",
                "--vsp-bottoms",
                "updated",
            ],
            "no effect",
        ),
        (
            vec![
                "simulate",
                "wall",
                "--shock-propagation",
                "--vsp-bottoms",
                "moving",
            ],
            "unknown bottom velocity",
        ),
        (
            vec![
                "simulate",
                "wall",
                "--shock-propagation",
                "--vsp-weight",
                "1.5",
            ],
            "in [0, 1]",
        ),
        (
            vec![
                "simulate",
                "wall",
                "--shock-propagation",
                "--vsp-weight",
                "nan",
            ],
            "in [0, 1]",
        ),
        (
            vec![
                "simulate",
                "wall",
                "--shock-propagation",
                "--stepper",
                "moreau",
            ],
            "cannot be used with",
        ),
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn a_malformed_scene_file_is_an_input_error() {
    let d = tmp("bad");
    let f = d.join("bad.json");
    std::fs::write(
        &f,
        r#"{"bodies": [{"shape": {"cube": 1}, "position": [0,0,1], "density": 1}]}"#,
    )
    .unwrap();
    let (code, _, err) = run(&["simulate", f.to_str().unwrap(), "--steps", "1"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("bodies[0]"), "{err}");
}

#[test]
fn the_implicit_newton_stepper_runs_its_scenes() {
    for (scene, n) in [
        ("chain", "4"),
        ("gripper", ""),
        ("arch", "2"),
        ("deformable-slope", "2"),
        ("deformable-push", "2"),
        ("box-stack", "2"),
    ] {
        let mut args = vec![
            "simulate",
            scene,
            "--stepper",
            "implicit-newton",
            "--steps",
            "3",
            "--json",
        ];
        if !n.is_empty() {
            args.extend(["--n", n]);
        }
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{scene}: {err}");
        let lines: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 3, "{scene}");
        for l in &lines {
            assert_eq!(l["method"], "implicit-newton", "{scene}");
            assert!(l["error"].as_f64().unwrap().is_finite(), "{scene}");
            // The inner iterations and the joint error are in the records.
            assert!(l["inner_iterations"].as_u64().is_some(), "{scene}");
            assert!(l["joint_error"].as_f64().unwrap() >= 0.0, "{scene}");
        }
        if scene == "chain" {
            assert!(
                lines
                    .iter()
                    .any(|l| l["inner_iterations"].as_u64().unwrap() > 0)
            );
            assert!(
                lines
                    .iter()
                    .any(|l| l["joint_error"].as_f64().unwrap() > 0.0)
            );
        }
    }
    // The gripper holds its box: after 50 steps the box has moved less than a millimetre.
    let (code, out, err) = run(&[
        "simulate",
        "gripper",
        "--stepper",
        "implicit-newton",
        "--steps",
        "50",
        "--json",
        "--inner",
        "direct",
        "--ncp",
        "min",
        "--alpha",
        "1",
        "--newton-iter",
        "30",
        "--newton-tol",
        "1e-8",
        "--line-search",
        "--no-preconditioner",
        "--no-geometric-stiffness",
        "--regularisation",
        "1e-8",
        "--recovery-speed",
        "0.02",
        "--inner-iter",
        "5",
        "--inner-tol",
        "1e-10",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 50);
}

#[test]
fn implicit_usage_errors() {
    for (args, needle) in [
        (vec!["simulate", "chain"], "only --stepper implicit-newton"),
        (
            vec!["simulate", "box-stack", "--ncp", "min"],
            "apply with --stepper implicit-newton",
        ),
        (
            vec![
                "simulate",
                "box-stack",
                "--stepper",
                "implicit-newton",
                "--method",
                "nsgs",
            ],
            "implicit-newton has its own options",
        ),
        (
            vec![
                "simulate",
                "chain",
                "--stepper",
                "implicit-newton",
                "--alpha",
                "0",
            ],
            "alpha",
        ),
        (
            vec![
                "simulate",
                "chain",
                "--stepper",
                "implicit-newton",
                "--alpha",
                "nan",
            ],
            "alpha",
        ),
        (
            vec![
                "simulate",
                "chain",
                "--stepper",
                "implicit-newton",
                "--inner",
                "qr",
            ],
            "unknown inner solver",
        ),
        (
            vec![
                "simulate",
                "chain",
                "--stepper",
                "implicit-newton",
                "--ncp",
                "xx",
            ],
            "unknown NCP function",
        ),
        (
            vec![
                "simulate",
                "gripper",
                "--stepper",
                "implicit-newton",
                "--n",
                "3",
            ],
            "has no size",
        ),
        (
            vec![
                "simulate",
                "chain",
                "--stepper",
                "implicit-newton",
                "--regularisation",
                "-1",
            ],
            "regularisation",
        ),
        (
            vec![
                "simulate",
                "chain",
                "--stepper",
                "implicit-newton",
                "--recovery-speed",
                "-0.5",
            ],
            "recovery_speed",
        ),
        (
            vec![
                "simulate",
                "chain",
                "--stepper",
                "implicit-newton",
                "--damping",
                "-1",
            ],
            "damping",
        ),
        (
            vec!["simulate", "chain", "--recovery-speed", "0.1"],
            "--recovery-speed and --implicit-friction apply",
        ),
        (
            vec![
                "simulate",
                "arch",
                "--stepper",
                "implicit-newton",
                "--kind",
                "ccp",
            ],
            "--kind applies",
        ),
        (
            vec![
                "simulate",
                "arch",
                "--stepper",
                "implicit-newton",
                "--cfm",
                "0.1",
            ],
            "--cfm applies",
        ),
        (
            vec![
                "simulate",
                "arch",
                "--stepper",
                "implicit-newton",
                "--implicit-friction",
                "natural-map",
            ],
            "not symmetric",
        ),
        (
            vec![
                "simulate",
                "arch",
                "--stepper",
                "implicit-newton",
                "--dump-problems",
                "/tmp/nonsmooth-x",
            ],
            "--dump-problems",
        ),
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let d = tmp("implicit-save");
    let p = d.join("chain.json");
    let (code, _, err) = run(&[
        "simulate",
        "chain",
        "--stepper",
        "implicit-newton",
        "--save-scene",
        p.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("scene files hold rigid bodies"), "{err}");
}

/// Without options, `simulate` says what it picked: `auto` with the contact count up to
/// which it runs the cone Newton, and post-stabilisation, which leaves the resting
/// stack without penetration; `--correction none` is still there to ask for.
#[test]
fn defaults_are_stated_and_remove_penetration() {
    let (code, out, err) = run(&["simulate", "pile", "--n", "12", "--steps", "120", "--json"]);
    assert_eq!(code, 0, "{err}");
    let (_, _, header) = run(&["simulate", "pile", "--n", "12", "--steps", "1"]);
    assert!(
        header.contains("method auto (the auto strategy up to 100 contacts, nsgs above)")
            && header.contains("correction post-stabilisation"),
        "{header}"
    );
    let last: serde_json::Value = serde_json::from_str(
        out.lines()
            .filter(|l| l.contains("\"step\""))
            .last()
            .unwrap(),
    )
    .unwrap();
    let pen = last["max_penetration"].as_f64().unwrap();
    assert!(pen < 1e-5, "penetration {pen:.3e} m after 120 steps");
    let (code, _, header) = run(&[
        "simulate",
        "pile",
        "--n",
        "12",
        "--steps",
        "1",
        "--correction",
        "none",
    ]);
    assert_eq!(code, 0, "{header}");
    assert!(header.contains("correction none"), "{header}");
}

/// `--per-layer` sets the bricks per ring of tower and roof-tower: the bodies of the
/// trajectory are `n per_layer` bricks (and the roof and the ball).
#[test]
fn per_layer_sets_the_bricks_of_a_ring() {
    let d = tmp("per-layer");
    for (scene, per_layer, bodies) in [("tower", "5", 10), ("roof-tower", "6", 14)] {
        let out = d.join(format!("{scene}.jsonl"));
        let (code, _, err) = run(&[
            "simulate",
            scene,
            "--n",
            "2",
            "--per-layer",
            per_layer,
            "--steps",
            "1",
            "--every",
            "0",
            "-q",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{scene}: {err}");
        let text = std::fs::read_to_string(&out).unwrap();
        let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(
            first["bodies"].as_array().map(|b| b.len()),
            Some(bodies),
            "{scene}: {first}"
        );
    }
}

/// `--method vgs` steps with the problem posed in velocity space: its dumped problems
/// are global (gfc3d) and `solve --method vgs` reads them back and solves them; with
/// `--cfm` above 0 it is a usage error (the velocity-space problem has no CFM term).
#[test]
fn vgs_steps_in_velocity_space_and_refuses_cfm() {
    let d = tmp("vgs");
    let dir = d.join("problems");
    let (code, _, err) = run(&[
        "simulate",
        "box-stack",
        "--n",
        "2",
        "--steps",
        "5",
        "-q",
        "--method",
        "vgs",
        "--dump-problems",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let first = std::fs::read_to_string(dir.join("step-000001.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&first).unwrap();
    assert_eq!(v["type"], "gfc3d", "{first}");
    let (code, out, err) = run(&[
        "solve",
        dir.to_str().unwrap(),
        "--method",
        "vgs",
        "--json",
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 5);
    assert!(rows.iter().all(|r| r["status"] == "converged"), "{out}");
    let (code, _, err) = run(&[
        "simulate",
        "box-stack",
        "--steps",
        "1",
        "--method",
        "vgs",
        "--cfm",
        "0.001",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cfm"), "{err}");
}
