//! Issue 28, "silent wrong answers": every input key or array the readers do not use is
//! an error that names it, never dropped; values are read as written (no truncation), and
//! the command-line lists and messages come from one source. Each case failed before.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use nalgebra::{DMatrix, DVector};
use nonsmooth::io::{self, AnyProblem};
use nonsmooth::problem::{FrictionContact, FrictionKind, Provenance};

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nonsmooth-strict-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nonsmooth"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the nonsmooth binary runs")
}

macro_rules! run {
    ($($a:expr),* $(,)?) => { run(&[$(std::ffi::OsStr::new($a)),*]) };
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The shipped box stack as a JSON value, to damage.
fn stack() -> serde_json::Value {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("data/box_stack_5.json"),
    )
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

fn load_value(v: &serde_json::Value) -> Result<io::LoadedProblem, String> {
    io::json::from_bytes(Path::new("x.json"), v.to_string().as_bytes()).map_err(|e| e.to_string())
}

#[test]
fn unknown_keys_of_the_problem_json_are_errors() {
    let base = stack();
    assert!(load_value(&base).is_ok());
    // "Law" (a capital) and "kind" were ignored and the problem solved as Coulomb
    for (key, value) in [("Law", "ccp"), ("kind", "ccp"), ("provenence", "x")] {
        let mut v = base.clone();
        v[key] = value.into();
        let e = load_value(&v).unwrap_err();
        assert!(e.contains(&format!("unknown field `{key}`")), "{key}: {e}");
    }
    let mut v = base.clone();
    v["provenance"]["author"] = "me".into();
    assert!(
        load_value(&v)
            .unwrap_err()
            .contains("unknown field `author`")
    );
    let mut v = base.clone();
    v["data"]["W"]["note"] = "x".into();
    assert!(load_value(&v).unwrap_err().contains("unknown field `note`"));
    let mut v = base.clone();
    v["data"]["W"]["rows"] = serde_json::json!([[1.0]]);
    assert!(
        load_value(&v)
            .unwrap_err()
            .contains("`rows` does not belong")
    );
    // data of another type: an fc3d problem with an LCP's A and b
    let mut v = base.clone();
    v["data"]["A"] = v["data"]["W"].clone();
    let e = load_value(&v).unwrap_err();
    assert!(
        e.contains("`data.A` does not belong to a `fc3d` problem"),
        "{e}"
    );
    // a law for an LCP
    let mut v = serde_json::json!({"format": "nonsmooth-problem", "version": 1, "name": "l",
        "type": "lcp", "law": "ccp", "data": {"A": {"storage": "dense", "nrows": 1,
        "ncols": 1, "rows": [[1.0]]}, "b": [-1.0]}});
    assert!(load_value(&v).unwrap_err().contains("has no friction law"));
    v.as_object_mut().unwrap().remove("law");
    assert!(load_value(&v).is_ok());
}

#[test]
fn gmp_json_stray_mu_and_label_counts_are_errors() {
    let v = serde_json::json!({"format": "nonsmooth-problem", "version": 1, "name": "g",
        "type": "gmp", "provenance": {"labels": ["only one"]},
        "data": {"W": {"storage": "dense", "nrows": 4, "ncols": 4,
            "rows": [[1.0,0,0,0],[0,1.0,0,0],[0,0,1.0,0],[0,0,0,1.0]]},
            "q": [-1.0, -1.0, 0.0, 0.0],
            "blocks": [{"law": "unilateral"}, {"law": "contact", "mu": [0.5, 0.5]}]}});
    let e = load_value(&v).unwrap_err();
    assert!(e.contains("1 labels for 2 blocks"), "{e}");
    let mut ok = v.clone();
    ok["provenance"]["labels"] = serde_json::json!(["a", "b"]);
    assert!(load_value(&ok).is_ok());
    let mut stray = ok.clone();
    stray["data"]["mu"] = serde_json::json!([0.5]);
    let e = load_value(&stray).unwrap_err();
    assert!(
        e.contains("`data.mu` does not belong to a `gmp` problem"),
        "{e}"
    );
    assert!(e.contains("contact blocks' `mu`"), "{e}");
}

#[test]
fn a_boxed_dep_below_minus_one_is_an_error() {
    let v = serde_json::json!({"format": "nonsmooth-problem", "version": 1, "name": "b",
        "type": "boxed-lcp", "data": {"A": {"storage": "dense", "nrows": 2, "ncols": 2,
        "rows": [[2.0, 0.0], [0.0, 2.0]]}, "b": [-1.0, 0.5], "lo": [0.0, -1.0],
        "hi": [null, 1.0], "dep": [-1, -2], "factor": [0.0, 0.5]}});
    let e = load_value(&v).unwrap_err();
    assert!(e.contains("row 1 has dep = -2"), "{e}");
}

fn fc3d() -> AnyProblem {
    AnyProblem::Friction(
        FrictionContact::new(
            DMatrix::<f64>::identity(3, 3).into(),
            DVector::from_vec(vec![-1.0, 0.0, 0.0]),
            DVector::from_vec(vec![0.5]),
            FrictionKind::Ccp,
        )
        .unwrap(),
    )
}

/// Appends members (name, .npy bytes) to an `.npz` archive.
fn append(path: &Path, members: &[(&str, Vec<u8>)]) {
    let f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .unwrap();
    let mut z = zip::ZipWriter::new_append(f).unwrap();
    for (name, bytes) in members {
        z.start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap();
}

#[test]
fn npz_arrays_that_do_not_belong_are_errors() {
    let d = tmp("npz");
    let p = d.join("p.npz");
    io::numpy::npz::write(
        &p,
        "p",
        &fc3d(),
        None,
        &Provenance::default(),
        io::numpy::npz::Compression::Stored,
    )
    .unwrap();
    assert!(io::load(&p).is_ok());
    let a = io::numpy::header::vector_to_npy(&[1.0, 2.0]);
    append(&p, &[("A.npy", a.clone()), ("b.npy", a)]);
    let e = io::load(&p).unwrap_err().to_string();
    assert!(
        e.contains("the array `A` does not belong to a local friction problem"),
        "{e}"
    );
    // and `convert` refuses it rather than writing the problem without them
    let out = d.join("out.json");
    let o = run!("convert", &p, "-o", &out);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(!out.exists());
    // a gmp archive that lost blocks.npy reads as fc3d and names the stray arrays
    let g = d.join("g.npz");
    io::numpy::npz::write(
        &g,
        "g",
        &fc3d(),
        None,
        &Provenance::default(),
        io::numpy::npz::Compression::Stored,
    )
    .unwrap();
    append(
        &g,
        &[("mu_len.npy", io::numpy::header::vector_to_npy(&[2.0]))],
    );
    let e = io::load(&g).unwrap_err().to_string();
    assert!(
        e.contains("`mu_len`") && e.contains("needs `blocks`"),
        "{e}"
    );
}

/// An archive whose members declare more than 1 GiB in all (each under the 1 GiB per
/// member) is refused from its central directory, before anything is inflated.
#[test]
fn npz_total_unpacked_size_is_bounded() {
    let d = tmp("npz-total");
    let p = d.join("big.npz");
    io::numpy::npz::write(
        &p,
        "p",
        &fc3d(),
        None,
        &Provenance::default(),
        io::numpy::npz::Compression::Stored,
    )
    .unwrap();
    // raise the declared uncompressed size (central directory, offset 24) of every member
    let mut bytes = std::fs::read(&p).unwrap();
    let mut i = 0;
    let mut patched = 0;
    while i + 46 <= bytes.len() {
        if bytes[i..i + 4] == [0x50, 0x4b, 0x01, 0x02] {
            bytes[i + 24..i + 28].copy_from_slice(&(600u32 << 20).to_le_bytes());
            patched += 1;
            i += 46;
        } else {
            i += 1;
        }
    }
    assert!(patched >= 2);
    std::fs::write(&p, &bytes).unwrap();
    let e = io::load(&p).unwrap_err().to_string();
    assert!(e.contains("unpack to") && e.contains("1 GiB"), "{e}");
}

#[test]
fn campaign_records_are_checked_and_paths_normalised() {
    let d = tmp("profile");
    let rec = |problem: &str, solver: &str, status: &str, seconds: f64| {
        serde_json::json!({"problem": problem, "solver": solver, "contacts": 1, "tol": 1e-8,
            "seconds": seconds, "status": status, "iterations": 1, "error": 1e-9,
            "repeat": 1, "timeout": null})
        .to_string()
    };
    let great = d.join("great.jsonl");
    std::fs::write(&great, rec("p.dat", "nsgs", "great", 1.0) + "\n").unwrap();
    let o = run!("bench", "profile", &great);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("unknown status \"great\""), "{}", err(&o));
    // one problem under two spellings is one problem
    let two = d.join("two.jsonl");
    std::fs::write(
        &two,
        rec("probs/X.dat", "nsgs", "converged", 1.0)
            + "\n"
            + &rec("./probs/X.dat", "nsn", "converged", 2.0)
            + "\n",
    )
    .unwrap();
    let o = run!("bench", "profile", &two);
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(text.contains("performance profile: 1 problems"), "{text}");
    // times whose ratio overflows: refused at once (the plot never ended before)
    let huge = d.join("huge.jsonl");
    std::fs::write(
        &huge,
        rec("a.dat", "nsgs", "converged", 1e308)
            + "\n"
            + &rec("a.dat", "nsn", "converged", 1e-10)
            + "\n",
    )
    .unwrap();
    let o = run!("bench", "profile", &huge, "--plot", &d.join("h.svg"));
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("measured solve time"), "{}", err(&o));
    let tiny = d.join("tiny.jsonl");
    std::fs::write(
        &tiny,
        rec("a.dat", "nsgs", "converged", 1.0)
            + "\n"
            + &rec("a.dat", "nsn", "converged", 5e-324)
            + "\n",
    )
    .unwrap();
    let o = run!("bench", "profile", &tiny, "--plot", &d.join("t.svg"));
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn bench_scene_with_paths_and_generate_kind() {
    let o = run!("bench", "data", "--scene", "box-stack", "--contacts", "10");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("--scene times generated scenes and reads no files"),
        "{}",
        err(&o)
    );
    let d = tmp("generate");
    let out = d.join("g.json");
    let o = run!("generate", "box-stack", "--kind", "ccp", "-o", &out);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["law"], "ccp");
    let desc = v["provenance"]["description"].as_str().unwrap();
    assert!(
        desc.contains("law ccp;") && !desc.contains("law coulomb"),
        "{desc}"
    );
}

#[test]
fn method_lists_come_from_the_registry() {
    let o = run!("solve", "--help");
    let help = String::from_utf8_lossy(&o.stdout).replace(['\n', ' '], "");
    for name in nonsmooth::registry::names() {
        assert!(
            help.contains(&format!("{name},")) || help.contains(&format!("{name}(")),
            "solve --help misses {name}"
        );
    }
    let o = run!("simulate", "box-stack", "-m", "lemke", "--steps", "1");
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    for name in nonsmooth::registry::names_for(nonsmooth::registry::ProblemType::Fc3d) {
        assert!(e.contains(name), "{name} missing from: {e}");
    }
    assert!(e.contains("ppa") && e.contains("gs-nsn"), "{e}");
}

#[test]
fn control_characters_in_names_are_shown_not_printed() {
    let d = tmp("rtl");
    let bad = d.join("evil\u{202e}txt.json");
    std::fs::write(&bad, "{ not json").unwrap();
    let o = run!("solve", &bad);
    let e = err(&o);
    assert!(e.contains("<U+202E right-to-left override>"), "{e}");
    assert!(!e.contains('\u{202e}'), "{e}");
}

#[test]
fn a_doubtful_w_is_warned_on_the_command_line() {
    let d = tmp("doubt");
    let mut w = DMatrix::<f64>::identity(3, 3);
    w[(0, 1)] = 0.5; // not symmetric
    let p = AnyProblem::Friction(
        FrictionContact::new(
            w.into(),
            DVector::from_vec(vec![-1.0, 0.0, 0.0]),
            DVector::from_vec(vec![0.5]),
            FrictionKind::Coulomb,
        )
        .unwrap(),
    );
    let f = d.join("asym.json");
    io::json::write(&f, "asym", &p, None, &Provenance::default()).unwrap();
    let o = run!("solve", &f);
    assert!(err(&o).contains("W is not symmetric"), "{}", err(&o));
    assert_eq!(p.data_warnings().len(), 1);
    assert!(fc3d().data_warnings().is_empty());
}
