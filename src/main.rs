//! `nonsmooth`: solve, inspect and check contact problems from the command line.
//!
//! ```text
//! nonsmooth solve PATH...   solve every problem found (files or folders)
//! nonsmooth info PATH...    size, sparsity, symmetry, mu range, conditioning
//! nonsmooth check PATH      how far an engine's answer is from the problem it solved
//! ```
//!
//! Results go to standard output (a table, or one JSON object per line with `--json`),
//! messages and the progress bar to standard error. The exit status is 0 when every
//! problem was solved (or every answer accepted), 1 when one was not, 2 on usage errors.
//! The program lives in the library (`nonsmooth::cli`) so that the fuzz targets can call
//! its argument parser.

fn main() -> std::process::ExitCode {
    nonsmooth::cli::main()
}
