//! The command-line program `nonsmooth`, run as a child process: its commands, outputs and
//! the console sessions the book shows.

#[path = "../common/mod.rs"]
mod common;
#[path = "../../examples/support/mod.rs"]
mod support;

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
