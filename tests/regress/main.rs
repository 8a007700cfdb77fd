//! Regressions: problems and inputs that once broke a solver, kept as tests. Proptest keeps
//! the failing cases of these modules in `tests/proptest-regressions/NAME.txt` (see
//! `tests/laws/main.rs`).

#[path = "../common/mod.rs"]
mod common;
#[path = "../exact_lemke/mod.rs"]
mod exact_lemke;
#[path = "../strategies/mod.rs"]
mod strategies;

mod dense_cap;
mod friction_degenerate;
mod huge_mu;
mod implicit_bad_input;
mod lemke_cycling;
mod nasty_problems;
mod newton_bad_input;
mod prox_lcp;
mod scale;
