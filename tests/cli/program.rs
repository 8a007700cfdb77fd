//! Running the program `nonsmooth` as a child process, with scratch folders: the helpers
//! the command modules share (`run!`, `tmp!` in `main.rs` call these).

use std::path::PathBuf;
use std::process::{Command, Output};

/// A fresh scratch folder for the test module `module` and the case `tag` (unique per
/// process, module and tag, so tests running in parallel threads never share one).
pub fn tmp(module: &str, tag: &str) -> PathBuf {
    let module = module.rsplit("::").next().unwrap_or(module);
    let d = std::env::temp_dir().join(format!(
        "nonsmooth-cli-{module}-{tag}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `nonsmooth ARGS...` run from the crate's folder.
pub fn nonsmooth(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nonsmooth"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the nonsmooth binary runs")
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
