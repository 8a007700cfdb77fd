//! Helpers shared by the integration tests (`mod common;` in a test file).
#![allow(dead_code)]

use std::path::PathBuf;

/// The shared third-party data folder: `$NONSMOOTH_SHARED_DATA` if set, else
/// `<CARGO_MANIFEST_DIR>/../shared/data`. `None` (after printing a skip notice) when it
/// is absent, as in a user's fresh clone: tests that need it then return early.
pub fn shared_data() -> Option<PathBuf> {
    let dir = match std::env::var_os("NONSMOOTH_SHARED_DATA") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
    };
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "skipping: shared data folder {} not found (set NONSMOOTH_SHARED_DATA)",
            dir.display()
        );
        None
    }
}

/// `shared_data()/rel` if that file or folder exists; prints a skip notice otherwise.
pub fn shared_file(rel: &str) -> Option<PathBuf> {
    let p = shared_data()?.join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipping: {} not found", p.display());
        None
    }
}
