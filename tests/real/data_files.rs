//! The problem files shipped in `data/` are exactly what the scene code makes today,
//! so they can never drift from it. If this fails after a deliberate change to the
//! scenes or the JSON writer, regenerate with
//! `cargo run --release --example generate_data` and commit the files.

use std::collections::BTreeSet;
use std::path::PathBuf;

use nonsmooth::io::reference::reference_files;
use nonsmooth::io::{self, AnyProblem};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data")
}

#[test]
fn shipped_files_match_the_code() {
    let files = reference_files().unwrap();
    for f in &files {
        let path = data_dir().join(f.file_name);
        let shipped = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}; run the generate_data example", path.display()));
        assert!(
            shipped == f.to_json(),
            "{} differs from what the code makes; run `cargo run --release --example generate_data`",
            path.display()
        );
        // And it reads back as the same problem.
        let loaded = io::load(&path).unwrap();
        assert_eq!(loaded.name, f.name);
        match (&loaded.problem, &f.problem) {
            (AnyProblem::Friction(a), AnyProblem::Friction(b)) => assert_eq!(a, b),
            (AnyProblem::Global(a), AnyProblem::Global(b)) => {
                assert_eq!(a.m(), b.m());
                assert_eq!(a.h(), b.h());
                assert_eq!(a.q(), b.q());
                assert_eq!(a.b(), b.b());
                assert_eq!(a.mu(), b.mu());
            }
            _ => panic!("{}: wrong problem type", path.display()),
        }
    }
}

#[test]
fn data_folder_holds_only_the_listed_files_and_stays_small() {
    let listed: BTreeSet<String> = reference_files()
        .unwrap()
        .iter()
        .map(|f| f.file_name.to_string())
        .collect();
    let mut total = 0;
    let mut json = BTreeSet::new();
    for entry in std::fs::read_dir(data_dir()).unwrap() {
        let entry = entry.unwrap();
        total += entry.metadata().unwrap().len();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".json") {
            json.insert(name);
        }
    }
    assert_eq!(
        json, listed,
        "data/ has JSON files the code does not make (or lacks some)"
    );
    assert!(total < 500 * 1024, "data/ is {total} bytes, over 500 KB");
}
