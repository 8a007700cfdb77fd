//! The command line on generic mechanical problems (`gmp`): `info`, `convert` between the
//! project's JSON, `.npz` and NumPy folders (bit for bit), malformed files, and
//! `check --no-reference`. The problem is written by the test: every kind of block, a
//! condim-4 and an anisotropic condim-6 contact, `W = I` so that the answer is known
//! exactly (the blocks decouple).

use crate::program::{stderr, stdout};
use std::path::{Path, PathBuf};

use nonsmooth::problem::generic::project_on_isotropic_cone;

const BLOCKS: &str = r#"[
    {"law": "equality"},
    {"law": "unilateral"},
    {"law": "interval", "lo": null, "hi": 2.0},
    {"law": "interval", "lo": -0.5, "hi": 0.5},
    {"law": "contact", "mu": [0.5, 0.5]},
    {"law": "contact", "mu": [0.8, 0.8, 0.01]},
    {"law": "contact", "mu": [0.9, 0.4, 0.02, 0.001, 0.0]}
]"#;

const N: usize = 17;

/// `q` and the exact CCP answer for `W = I`: `-q` on the equality, `max(0, -q)`,
/// `clamp(-q, lo, hi)`, the projection of `-q` onto the isotropic cone, and `-q` for the
/// two contacts whose `-q` lies inside their cone (they stick).
fn q_and_answer() -> (Vec<f64>, Vec<f64>) {
    let q = vec![
        0.3, -0.7, -5.0, 0.2, -1.0, 0.9, 0.1, -1.0, 0.1, 0.2, 0.001, -2.0, 0.5, -0.2, 0.01, 0.0005,
        0.0,
    ];
    let mut r: Vec<f64> = q.iter().map(|v| -v).collect();
    r[1] = 0.7;
    r[2] = 2.0;
    let x = r[4..7].to_vec();
    project_on_isotropic_cone(&x, 0.5, &mut r[4..7]);
    (q, r)
}

fn list(v: &[f64]) -> String {
    let items: Vec<String> = v.iter().map(|x| format!("{x:?}")).collect();
    format!("[{}]", items.join(", "))
}

/// The problem as the project's JSON, with `blocks` and `answer` given (text); `W = I`
/// stored as triplets.
fn problem_json(blocks: &str, q: &[f64], answer: Option<&[f64]>) -> String {
    let entries: Vec<String> = (0..q.len()).map(|i| format!("[{i}, {i}, 1.0]")).collect();
    let w = format!(
        r#"{{"storage": "triplets", "nrows": {n}, "ncols": {n}, "entries": [{}]}}"#,
        entries.join(", "),
        n = q.len()
    );
    problem_json_w(&w, blocks, q, answer)
}

/// The same with `W` given as JSON.
fn problem_json_w(w: &str, blocks: &str, q: &[f64], answer: Option<&[f64]>) -> String {
    let answer = answer
        .map(|r| {
            format!(
                r#", "answer": {{"source": "test engine", "r": {}}}"#,
                list(r)
            )
        })
        .unwrap_or_default();
    let labels: Vec<String> = (0..7).map(|b| format!("\"row-block-{b}\"")).collect();
    format!(
        r#"{{"format": "nonsmooth-problem", "version": 1, "name": "every_block", "type": "gmp",
  "law": "ccp",
  "provenance": {{"source": "tests/cli/generic.rs", "units": {{"r": "N s", "u": "m/s"}},
                  "labels": [{}]}},
  "data": {{"W": {w}, "q": {}, "blocks": {blocks}}}{answer}}}"#,
        labels.join(", "),
        list(q),
    )
}

fn write_problem(dir: &Path) -> PathBuf {
    let (q, r) = q_and_answer();
    let path = dir.join("every_block.json");
    std::fs::write(&path, problem_json(BLOCKS, &q, Some(&r))).unwrap();
    path
}

#[test]
fn info_describes_the_blocks() {
    let dir = tmp!("info");
    let p = write_problem(&dir);
    let o = run!("info", &p);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(out.contains("type       gmp (ccp)"), "{out}");
    assert!(
        out.contains(&format!("unknowns   {N}   contacts 7")),
        "{out}"
    );
    assert!(
        out.contains(
            "blocks     1 contact-3, 1 contact-4, 1 contact-6, 1 equality, 2 interval, \
             1 unilateral"
        ),
        "{out}"
    );
    assert!(out.contains("mu         0.0000e0 .. 9.0000e-1"), "{out}");
    let o = run!("info", "--json", &p);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["type"], "gmp");
    assert_eq!(v["n"], N);
    assert_eq!(v["blocks"]["interval"], 2);
    assert_eq!(v["blocks"]["contact-6"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// JSON -> npz (stored, deflated) -> NumPy folder -> JSON, with `W` sparse (kept sparse by
/// JSON and npz; a NumPy folder stores matrices dense, so it is left out) and dense (every
/// route).
#[test]
fn convert_round_trips_bit_for_bit() {
    let dir = tmp!("convert-sparse");
    let p = write_problem(&dir);
    round_trips(&dir, &p, false);
    let _ = std::fs::remove_dir_all(&dir);
    let dir = tmp!("convert-dense");
    let (q, r) = q_and_answer();
    let rows: Vec<String> = (0..N)
        .map(|i| {
            list(
                &(0..N)
                    .map(|j| if i == j { 1.5 } else { 0.1 + 0.2 })
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    let w = format!(
        r#"{{"storage": "dense", "nrows": {N}, "ncols": {N}, "rows": [{}]}}"#,
        rows.join(", ")
    );
    let p = dir.join("dense.json");
    std::fs::write(&p, problem_json_w(&w, BLOCKS, &q, Some(&r))).unwrap();
    round_trips(&dir, &p, true);
    let _ = std::fs::remove_dir_all(&dir);
}

fn round_trips(dir: &Path, p: &Path, dense: bool) {
    // JSON -> JSON gives the canonical text; every route back to JSON gives it again.
    let canon = dir.join("canon.json");
    let o = run!("convert", p, "-o", &canon);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let want = std::fs::read(&canon).unwrap();
    let npz = dir.join("p.npz");
    let npz_z = dir.join("pz.npz");
    let folder = dir.join("folder");
    let o = run!("convert", &canon, "-o", &npz);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run!("convert", &canon, "-o", &npz_z, "--compress");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run!("convert", &npz, "--to", "numpy", "-o", &folder);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let routes = if dense {
        vec![&npz, &npz_z, &folder]
    } else {
        vec![&npz, &npz_z]
    };
    for (i, src) in routes.into_iter().enumerate() {
        let back = dir.join(format!("back{i}.json"));
        let o = run!("convert", src, "-o", &back);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}: {}",
            src.display(),
            stderr(&o)
        );
        assert!(
            stderr(&o).lines().all(|l| !l.contains("warning")),
            "{}",
            stderr(&o)
        );
        let got = std::fs::read(&back).unwrap();
        assert!(
            got == want,
            "{} differs:\n{}\n{}",
            src.display(),
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&want)
        );
    }
    if dense {
        // npz -> folder -> npz: the same archive bytes
        let again = dir.join("again.npz");
        let o = run!("convert", &folder, "-o", &again);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&npz).unwrap());
    }
    // Siconos has no such format: refused, naming what can be written.
    let o = run!("convert", p, "--to", "siconos", "-o", &dir.join("x.dat"));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("a generic mechanical problem cannot be written as Siconos .dat"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn malformed_files_are_refused_with_the_block_named() {
    let dir = tmp!("bad");
    let (q, _) = q_and_answer();
    let cases = [
        (
            BLOCKS.replace(r#"{"law": "unilateral"}"#, r#"{"law": "limit"}"#),
            "data.blocks[1]: block 1 has the unknown law `limit` (expected equality, \
             unilateral, interval or contact)",
        ),
        (
            BLOCKS.replace("[0.5, 0.5]", "[]"),
            "data.blocks[4]: block 4 (contact) has an empty `mu`",
        ),
        (
            BLOCKS.replace("[0.8, 0.8, 0.01]", "[0.8, -0.8, 0.01]"),
            "data.blocks[5]: block 5 (contact) has mu[1] = -0.8; friction coefficients are \
             finite and >= 0",
        ),
        (
            BLOCKS.replace(r#""lo": -0.5, "hi": 0.5"#, r#""lo": 0.5, "hi": -0.5"#),
            "data.blocks[3]: block 3 (interval) has lo = 0.5 above hi = -0.5",
        ),
        (
            BLOCKS.replace("[0.9, 0.4, 0.02, 0.001, 0.0]", "[0.9, 0.4, 0.02, 0.001]"),
            "data.blocks: the 7 blocks hold 16 rows, but data.q has 17 entries",
        ),
    ];
    for (i, (blocks, want)) in cases.iter().enumerate() {
        let path = dir.join(format!("bad{i}.json"));
        std::fs::write(&path, problem_json(blocks, &q, None)).unwrap();
        for cmd in ["info", "solve", "convert"] {
            let o = match cmd {
                "convert" => run!(cmd, &path, "-o", &dir.join("out.npz")),
                _ => run!(cmd, &path),
            };
            let err = stderr(&o);
            // an unreadable problem is exit status 1 (src/cli/mod.rs), never a panic
            assert_eq!(o.status.code(), Some(1), "{cmd} {i}: {err}");
            assert!(
                err.contains(want),
                "{cmd} {i}:\n  got: {err}\n  want: {want}"
            );
            assert!(!err.contains("panicked"), "{err}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_without_reference_judges_every_block() {
    let dir = tmp!("check");
    let p = write_problem(&dir);
    let o = run!("check", &p, "--no-reference");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(out.contains("  law         ccp"), "{out}");
    assert!(out.contains("  level       velocity (r in N s)"), "{out}");
    assert!(out.contains("  verdict     consistent"), "{out}");
    let header = out
        .lines()
        .find(|l| l.trim_start().starts_with("contact"))
        .unwrap_or_else(|| panic!("no table: {out}"));
    assert!(header.contains("law") && header.contains("dim") && header.contains("label"));
    assert!(out.contains("row-block-6"), "{out}");
    // --json: a summary, then one object per block with the fc3d fields plus law and dim
    let o = run!("check", &p, "--no-reference", "--json");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[0]["type"], "gmp");
    assert_eq!(lines[0]["verdict"], "consistent");
    let laws: Vec<(String, u64)> = lines[1..]
        .iter()
        .map(|v| {
            (
                v["law"].as_str().unwrap().to_string(),
                v["dim"].as_u64().unwrap(),
            )
        })
        .collect();
    let want: Vec<(String, u64)> = [
        ("equality", 1),
        ("unilateral", 1),
        ("interval", 1),
        ("interval", 1),
        ("contact", 3),
        ("contact", 4),
        ("contact", 6),
    ]
    .iter()
    .map(|(l, d)| (l.to_string(), *d))
    .collect();
    assert_eq!(laws, want);
    for key in [
        "contact",
        "label",
        "r_n",
        "u_n",
        "slip",
        "penetration",
        "cone_violation",
        "dual_violation",
        "complementarity",
        "dissipation",
        "error",
        "distance",
    ] {
        assert!(lines[5].get(key).is_some(), "{key}: {}", lines[5]);
    }
    // A wrong answer: the unilateral row pulls; rejected (exit 1), the block shows it.
    let (_, mut r) = q_and_answer();
    r[1] = -0.1;
    let ans = dir.join("bad.json");
    std::fs::write(&ans, list(&r)).unwrap();
    let o = run!("check", &p, "--no-reference", "--json", "--answer", &ans);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["verdict"], "inconsistent");
    assert_eq!(lines[2]["law"], "unilateral");
    assert!((lines[2]["penetration"].as_f64().unwrap() - 0.8).abs() < 1e-15);
    // --kind applies to gmp (its contact blocks): the sliding contact is not De Saxcé's
    let o = run!("check", &p, "--no-reference", "--kind", "coulomb");
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("  law         coulomb"),
        "{}",
        stdout(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
