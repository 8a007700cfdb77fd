//! Regenerates the project's own problem files in `data/` from the scene code.
//!
//! ```text
//! cargo run --release --example generate_data            # writes ./data/
//! cargo run --release --example generate_data -- DIR     # writes DIR/
//! ```
//!
//! The list of files is `nonsmooth::io::reference::reference_files`; the test
//! `tests/real/data_files.rs` checks that the shipped files are exactly what it makes.

use std::path::PathBuf;
use std::process::ExitCode;

use nonsmooth::io::reference::reference_files;

fn main() -> ExitCode {
    let dir = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data"));
    let files = match reference_files() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot build the reference scenes: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("error: cannot create {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    for f in &files {
        if let Err(e) = f.write_to(&dir) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
        println!(
            "{}: {} ({} contacts, {} unknowns)",
            dir.join(f.file_name).display(),
            f.problem.type_name(),
            f.problem.contacts(),
            f.problem.dim()
        );
    }
    ExitCode::SUCCESS
}
