//! The Fischer-Burmeister function evaluated two ways on points that approach the solution
//! set (the book's chapter "Complementarity and its reformulations"): the direct form
//! `a + b - sqrt(a^2 + b^2)` and the cancellation-free form the crate uses,
//! `2ab / (a + b + sqrt(a^2 + b^2))`.
//!
//! ```text
//! cargo run --release --example fischer_cancellation
//! ```
//!
//! Writes `book/src/generated/fischer_cancellation.txt`; its test checks the committed file.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nonsmooth::ncp::{FischerBurmeister, NcpFunction};

fn report() -> String {
    let mut out = String::new();
    writeln!(
        out,
        "{:>7}  {:>10}  {:>22}  {:>22}  {:>15}",
        "a", "b", "direct a+b-hypot(a,b)", "FischerBurmeister", "rel. error of direct"
    )
    .unwrap();
    for k in (0..=20).step_by(2) {
        // ANCHOR: forms
        let (a, b) = (1.0_f64, 10f64.powi(-k)); // approaches the solution (1, 0)
        let direct = a + b - a.hypot(b); // subtracts two nearly equal numbers
        let crate_value = FischerBurmeister::value(a, b); // 2ab / (a + b + hypot(a, b))
        // An independent cancellation-free form for a = 1: b - b^2 / (1 + sqrt(1 + b^2)).
        let reference = b - b * b / (1.0 + (1.0 + b * b).sqrt());
        // ANCHOR_END: forms
        assert!((crate_value - reference).abs() <= 4.0 * f64::EPSILON * reference.abs());
        let rel = (direct - crate_value).abs() / crate_value.abs();
        writeln!(
            out,
            "{a:>7.1}  {b:>10.0e}  {direct:>22.15e}  {crate_value:>22.15e}  {rel:>15.1e}"
        )
        .unwrap();
    }
    out
}

fn main() {
    let out = report();
    print!("{out}");
    support::publish("generated/fischer_cancellation.txt", &out);
}

#[test]
fn output_matches_the_book() {
    main();
}
