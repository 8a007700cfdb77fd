//! One box resting on the ground: assemble the contact Jacobian `J`, the mass matrix `M`,
//! and the local problem `W = J M^-1 J^T`, `q = J (v + h M^-1 f)` of one time step, and
//! print them (the book's chapter "From Newton-Euler to the contact problem").
//!
//! ```text
//! cargo run --release --example resting_box
//! ```
//!
//! Writes `book/src/generated/resting_box.txt`; its test checks the committed file.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nalgebra::{DMatrix, DVector};
use nonsmooth::multibody::scenes;

/// Prints a matrix with one row per line, entries in a fixed width.
fn matrix(out: &mut String, name: &str, m: &DMatrix<f64>) {
    writeln!(out, "{name} ({} x {}):", m.nrows(), m.ncols()).unwrap();
    for i in 0..m.nrows() {
        let row: Vec<String> = (0..m.ncols())
            .map(|j| {
                let v = m[(i, j)];
                // print an exact zero (and rounding noise that small) as a plain 0
                if v.abs() < 1e-12 {
                    "0".to_string()
                } else {
                    format!("{v:.4}")
                }
            })
            .map(|s| format!("{s:>8}"))
            .collect();
        writeln!(out, "  {}", row.join("")).unwrap();
    }
}

fn vector(out: &mut String, name: &str, v: &DVector<f64>) {
    let entries: Vec<String> = v.iter().map(|x| format!("{x:.4}")).collect();
    // Six entries a line, so that a long vector fits the book's column.
    let lines: Vec<String> = entries.chunks(6).map(|c| c.join(", ")).collect();
    let head = format!("{name} ({}): [", v.len());
    let indent = format!(",\n{:w$}", "", w = head.chars().count());
    writeln!(out, "{head}{}]", lines.join(&indent)).unwrap();
}

fn report() -> String {
    // ANCHOR: assemble
    // One cube (side 0.1 m, 1 kg) resting on the ground: four contacts at its bottom
    // corners, normal +z, tangents +x and +y; time step 0.01 s, gravity -9.81 m/s^2 in z.
    let scene = scenes::box_stack(1).expect("a valid scene");
    let assembly = scene.assemble().expect("a valid assembly");
    let j = assembly.jacobian().to_dense(); // 12 x 6, rows [n, t1, t2] per contact
    let m = assembly.mass_matrix().to_dense(); // 6 x 6, diag(m 1, I)
    let problem = assembly.local().expect("a valid local problem");
    let w = problem.w().to_dense(); // W = J M^-1 J^T, 12 x 12, in 1/kg
    let q = problem.q(); // q = J (v + h M^-1 f), 12, in m/s

    // The same two quantities from their definitions, by dense algebra.
    let m_inv = m.clone().try_inverse().expect("M is positive definite");
    let w_direct = &j * &m_inv * j.transpose();
    let q_direct = &j * assembly.free_velocity();
    // ANCHOR_END: assemble

    let mut out = String::new();
    matrix(&mut out, "J", &j);
    matrix(&mut out, "M", &m);
    matrix(&mut out, "W = J M^-1 J^T", &w);
    vector(&mut out, "q = J (v + h M^-1 f)", q);
    writeln!(
        out,
        "max |W - J M^-1 J^T| = {:.1e}, max |q - J v_free| = {:.1e}",
        (&w - &w_direct).amax(),
        (q - &q_direct).amax()
    )
    .unwrap();
    let eig = w.clone().symmetric_eigenvalues();
    let rank = eig.iter().filter(|l| l.abs() > 1e-10 * eig.amax()).count();
    writeln!(out, "rank of W: {rank} (of {})", w.nrows()).unwrap();
    out
}

fn main() {
    let out = report();
    print!("{out}");
    support::publish("generated/resting_box.txt", &out);
}

#[test]
fn output_matches_the_book() {
    main();
}
