//! The command-line program `nonsmooth`, run as a child process: its commands, outputs and
//! the console sessions the book shows.

#[path = "../common/mod.rs"]
mod common;
#[path = "../../examples/support/mod.rs"]
mod support;

/// Runs `nonsmooth` with string arguments and paths mixed.
macro_rules! run {
    ($($a:expr),* $(,)?) => {
        crate::program::nonsmooth(&[$(std::ffi::OsStr::new($a)),*])
    };
}

/// A fresh scratch folder for this test module and the case `tag`.
macro_rules! tmp {
    ($tag:expr) => {
        crate::program::tmp(module_path!(), $tag)
    };
}

mod program;

mod answer_out;
mod bench_campaign;
mod book;
mod check_reference;
mod generate_formats;
mod generic;
mod generic_solve;
mod outputs;
mod prox_defaults;
mod regress;
mod simulate;
mod solve_folder;
