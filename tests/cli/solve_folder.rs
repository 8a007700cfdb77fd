//! `nonsmooth solve FOLDER` on the shipped data: a file found inside a folder in a format
//! this build cannot read (FCLIB `.hdf5` without the `hdf5` feature) is listed as
//! `skipped`, with the reason on standard error, and does not fail the run; the same file
//! named on the command line is an error. With the feature, it is solved like the rest.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn nonsmooth(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nonsmooth"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap()
}

fn rows(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

const FOLDER: &str = "data/siconos/gfc3d";

#[test]
fn a_folder_with_fclib_files_is_solved_or_skips_them_with_a_reason() {
    assert!(Path::new(env!("CARGO_MANIFEST_DIR")).join(FOLDER).is_dir());
    let out = nonsmooth(&["solve", "--json", "--quiet", FOLDER]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let rows = rows(&out);
    let hdf5: Vec<&Value> = rows
        .iter()
        .filter(|r| r["file"].as_str().unwrap().ends_with(".hdf5"))
        .collect();
    assert!(!hdf5.is_empty(), "the folder holds FCLIB files");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    for r in &rows {
        let is_hdf5 = r["file"].as_str().unwrap().ends_with(".hdf5");
        let expected = if is_hdf5 && !cfg!(feature = "hdf5") {
            "skipped"
        } else {
            "converged"
        };
        assert_eq!(r["status"], expected, "{r}");
    }
    if !cfg!(feature = "hdf5") {
        for r in &hdf5 {
            let name = r["file"].as_str().unwrap();
            assert!(
                stderr.lines().any(|l| l.starts_with("nonsmooth: skipped:")
                    && l.contains(name)
                    && l.contains("--features hdf5")),
                "no reason given for {name}: {stderr}"
            );
        }
    }
}

#[test]
fn an_fclib_file_named_on_the_command_line_is_an_error_without_the_feature() {
    let file = format!("{FOLDER}/CubeH8.hdf5");
    let out = nonsmooth(&["solve", "--json", "--quiet", &file]);
    let rows = rows(&out);
    assert_eq!(rows.len(), 1);
    if cfg!(feature = "hdf5") {
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(rows[0]["status"], "converged");
    } else {
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(rows[0]["status"], "unreadable");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--features hdf5"));
    }
}
