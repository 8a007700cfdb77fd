//! Writing Siconos `.dat` text: dense matrices with NumericsMatrix storage 0, sparse ones
//! with storage 1 (3x3 blocks for `W`, `1 x 3` blocks for `H`, scalar blocks otherwise),
//! numbers with Rust's shortest round-trip formatting (`{:e}`) so the readers read back
//! exactly the same `f64` values.

use std::fmt::Write as _;
use std::path::Path;

use super::super::IoError;
use crate::matrix::Matrix;
use crate::problem::{FrictionContact, GlobalFrictionContact, Lcp};

fn push_f64(out: &mut String, v: f64) {
    // `{:e}` is the shortest representation that parses back to the same f64.
    let _ = write!(out, "{v:e}");
}

fn push_vec(out: &mut String, v: &[f64]) {
    for (k, x) in v.iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        push_f64(out, *x);
    }
    out.push('\n');
}

/// Appends a NumericsMatrix: storage 0 for dense, storage 1 with `br x bc` blocks for
/// sparse (scalar blocks if the sizes are not multiples).
fn push_numerics_matrix(out: &mut String, m: &Matrix, br: usize, bc: usize) {
    let (rows, cols) = (m.nrows(), m.ncols());
    match m {
        Matrix::Dense(d) => {
            let _ = writeln!(out, "0\n{rows}\n{cols}\n{rows}\t{cols}");
            for j in 0..cols {
                push_vec(out, d.column(j).as_slice());
            }
        }
        Matrix::Sparse(s) => {
            let br = if br > 0 && rows % br == 0 { br } else { 1 };
            let bc = if bc > 0 && cols % bc == 0 { bc } else { 1 };
            let (nb0, nb1) = (rows / br, cols / bc);
            // Per block row: block column -> dense block, column-major.
            let mut block_rows: Vec<std::collections::BTreeMap<usize, Vec<f64>>> =
                vec![Default::default(); nb0];
            for (i, row) in s.row_iter().enumerate() {
                let blocks = &mut block_rows[i / br];
                for (&j, &v) in row.col_indices().iter().zip(row.values()) {
                    let block = blocks.entry(j / bc).or_insert_with(|| vec![0.0; br * bc]);
                    // A valid CSR has no duplicates: assign (keeps the sign of -0.0).
                    block[(j % bc) * br + i % br] = v;
                }
            }
            let nbblocks: usize = block_rows.iter().map(|b| b.len()).sum();
            let _ = writeln!(out, "1\n{rows}\n{cols}\n{nbblocks}");
            if nbblocks == 0 {
                return;
            }
            let _ = writeln!(out, "{nb0}\n{nb1}");
            let offsets = |nb: usize, b: usize| {
                (1..=nb)
                    .map(|k| (k * b).to_string())
                    .collect::<Vec<_>>()
                    .join("\t")
            };
            let _ = writeln!(out, "{}", offsets(nb0, br));
            let _ = writeln!(out, "{}", offsets(nb1, bc));
            let _ = writeln!(out, "{}\n{nbblocks}", nb0 + 1);
            let mut ptr = vec![0usize];
            for b in &block_rows {
                ptr.push(ptr[ptr.len() - 1] + b.len());
            }
            let ptr: Vec<String> = ptr.iter().map(|p| p.to_string()).collect();
            let _ = writeln!(out, "{}", ptr.join("\t"));
            let cols_idx: Vec<String> = block_rows
                .iter()
                .flat_map(|b| b.keys().map(|k| k.to_string()))
                .collect();
            let _ = writeln!(out, "{}", cols_idx.join("\t"));
            let mut number = 0;
            for b in &block_rows {
                for values in b.values() {
                    let _ = writeln!(out, "{number}");
                    push_vec(out, values);
                    number += 1;
                }
            }
        }
    }
}

/// The Siconos text of an LCP: `n`, `M = A` (dense storage 0 column-major, or sparse
/// block storage 1 with scalar blocks), `q = b`.
pub fn lcp_to_string(lcp: &Lcp) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", lcp.dim());
    push_numerics_matrix(&mut out, lcp.a(), 1, 1);
    push_vec(&mut out, lcp.b().as_slice());
    out
}

/// The Siconos text of a local friction problem: `3`, `nc`, `W` (dense, or sparse block
/// with 3x3 blocks), `q`, `mu`. The friction kind is not part of the format (a reader
/// poses Coulomb).
pub fn fc3d_to_string(fc: &FrictionContact) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "3\n{}", fc.contacts());
    push_numerics_matrix(&mut out, fc.w(), 3, 3);
    push_vec(&mut out, fc.q().as_slice());
    push_vec(&mut out, fc.mu().as_slice());
    out
}

/// The Siconos text of a global friction problem: `3`, `nc`, `M`, `H` (sparse: scalar
/// blocks for `M`, `1 x 3` blocks for `H`), `q`, `b`, `mu`.
pub fn gfc3d_to_string(g: &GlobalFrictionContact) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "3\n{}", g.contacts());
    push_numerics_matrix(&mut out, g.m(), 1, 1);
    push_numerics_matrix(&mut out, g.h(), 1, 3);
    push_vec(&mut out, g.q().as_slice());
    push_vec(&mut out, g.b().as_slice());
    push_vec(&mut out, g.mu().as_slice());
    out
}

fn write_text(path: &Path, text: String) -> Result<(), IoError> {
    super::super::write_atomic(path, text.as_bytes())
}

/// Writes [`lcp_to_string`] to `path`; [`read_lcp`](super::read_lcp) reads it back exactly.
pub fn write_lcp(path: impl AsRef<Path>, lcp: &Lcp) -> Result<(), IoError> {
    write_text(path.as_ref(), lcp_to_string(lcp))
}

/// Writes [`fc3d_to_string`] to `path`; [`read_fc3d`](super::read_fc3d) reads it back exactly.
pub fn write_fc3d(path: impl AsRef<Path>, fc: &FrictionContact) -> Result<(), IoError> {
    write_text(path.as_ref(), fc3d_to_string(fc))
}

/// Writes [`gfc3d_to_string`] to `path`; [`read_gfc3d`](super::read_gfc3d) reads it back exactly.
pub fn write_gfc3d(path: impl AsRef<Path>, g: &GlobalFrictionContact) -> Result<(), IoError> {
    write_text(path.as_ref(), gfc3d_to_string(g))
}
