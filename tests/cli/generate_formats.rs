//! `nonsmooth generate` writes the format its output's name gives (`.json`, `.dat`, `.npz`)
//! and refuses a name it cannot tell, and a CCP problem is never written as Siconos `.dat`
//! (the format has no friction law and would be read back as Coulomb), by `generate` or by
//! `convert`. Nothing is written when a command is refused.

use std::path::PathBuf;
use std::process::Command;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "nonsmooth-cli-generate-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_nonsmooth"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

/// The contacts and unknowns `nonsmooth info --json` reports for a file.
fn info(path: &str) -> (u64, u64, String) {
    let (code, out, err) = run(&["info", "--json", path]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let v = if v.is_array() { v[0].clone() } else { v };
    (
        v["contacts"].as_u64().unwrap(),
        v["n"].as_u64().unwrap(),
        v["type"].as_str().unwrap().to_string(),
    )
}

#[test]
fn each_extension_writes_its_format_and_the_same_problem() {
    let d = tmp("formats");
    let mut seen = Vec::new();
    for ext in ["json", "dat", "npz"] {
        let out = d.join(format!("wall.{ext}"));
        let out = out.to_str().unwrap();
        let (code, _, err) = run(&["generate", "wall", "--rows", "3", "--cols", "3", "-o", out]);
        assert_eq!(code, 0, "{err}");
        seen.push(info(out));
    }
    // Siconos text starts with numbers, not a JSON brace
    let dat = std::fs::read_to_string(d.join("wall.dat")).unwrap();
    assert!(!dat.trim_start().starts_with('{'), "{}", &dat[..40]);
    assert!(seen.iter().all(|s| *s == seen[0]), "{seen:?}");
    assert_eq!(seen[0].2, "fc3d");
    // the global form as .dat is Siconos's gfc3d
    let g = d.join("wall_global.dat");
    let (code, _, err) = run(&["generate", "wall", "--global", "-o", g.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(info(g.to_str().unwrap()).2, "gfc3d");
}

#[test]
fn unknown_names_and_ccp_as_siconos_are_refused_and_nothing_is_written() {
    let d = tmp("refused");
    let txt = d.join("wall.txt");
    let (code, _, err) = run(&["generate", "wall", "-o", txt.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(".json") && err.contains(".dat"), "{err}");
    assert!(!txt.exists());

    let dat = d.join("wall.dat");
    let (code, _, err) = run(&[
        "generate",
        "wall",
        "--kind",
        "ccp",
        "-o",
        dat.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no friction law"), "{err}");
    assert!(!dat.exists());

    let json = d.join("wall.json");
    let (code, _, err) = run(&[
        "generate",
        "wall",
        "--kind",
        "ccp",
        "-o",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&[
        "convert",
        json.to_str().unwrap(),
        "-o",
        dat.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("CCP") && err.contains("Coulomb"), "{err}");
    assert!(!dat.exists());
}
