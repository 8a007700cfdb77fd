//! Reading a Siconos NumericsMatrix (`storageType size0 size1 ...`): storage 0 (dense,
//! column-major) and storage 1 (sparse block, SBM); storage 2 (CSparse text) is refused.
//! The layout is the one described in the [parent module](super) (source:
//! `data/README.md`, Siconos numerics 4.4).

use std::path::Path;

use nalgebra::DMatrix;

use super::super::text::Tokens;
use super::super::{IoError, IoErrorKind};
use crate::matrix::Matrix;

/// A NumericsMatrix as read, before it is turned into a [`Matrix`] (which happens only
/// once the vectors that follow it have confirmed its sizes).
pub(super) enum RawMatrix {
    /// Column-major values.
    Dense {
        rows: usize,
        cols: usize,
        values: Vec<f64>,
    },
    /// Entries of the stored blocks.
    Sparse {
        rows: usize,
        cols: usize,
        triplets: Vec<(usize, usize, f64)>,
    },
}

impl RawMatrix {
    pub(super) fn shape(&self) -> (usize, usize) {
        match self {
            RawMatrix::Dense { rows, cols, .. } | RawMatrix::Sparse { rows, cols, .. } => {
                (*rows, *cols)
            }
        }
    }

    pub(super) fn storage(&self) -> &'static str {
        match self {
            RawMatrix::Dense { .. } => "dense",
            RawMatrix::Sparse { .. } => "sparse block",
        }
    }

    pub(super) fn build(self, path: &Path, what: &str) -> Result<Matrix, IoError> {
        match self {
            RawMatrix::Dense { rows, cols, values } => {
                Ok(Matrix::Dense(DMatrix::from_vec(rows, cols, values)))
            }
            RawMatrix::Sparse {
                rows,
                cols,
                triplets,
            } => Matrix::from_triplets(rows, cols, &triplets).ok_or_else(|| {
                IoError::parse(
                    path,
                    what,
                    "a block lies outside the matrix (internal check)",
                )
            }),
        }
    }
}

/// Reads a NumericsMatrix (`storageType size0 size1 ...`).
pub(super) fn read_numerics_matrix(t: &mut Tokens, what: &str) -> Result<RawMatrix, IoError> {
    let start = t.pos();
    let storage = t.next_usize(&format!("the storage type of {what}"))?;
    let rows = t.next_usize(&format!("the row count (size0) of {what}"))?;
    let cols = t.next_usize(&format!("the column count (size1) of {what}"))?;
    match storage {
        0 => {
            let r_idx = t.pos();
            let r2 = t.next_usize(&format!("the repeated row count of dense {what}"))?;
            let c2 = t.next_usize(&format!("the repeated column count of dense {what}"))?;
            if (r2, c2) != (rows, cols) {
                return Err(t.err_at(
                    r_idx,
                    format!(
                        "dense {what} is declared {rows} x {cols} but its data header says {r2} x {c2}"
                    ),
                ));
            }
            let count = rows.checked_mul(cols).ok_or_else(|| {
                t.err_at(start, format!("{what}: {rows} x {cols} is too large"))
            })?;
            let values = t.f64_vec(count, &format!("dense {what} ({rows} x {cols})"))?;
            Ok(RawMatrix::Dense { rows, cols, values })
        }
        1 => read_sbm(t, what, rows, cols),
        2 => Err(IoError::new(
            t.path(),
            IoErrorKind::Unsupported(format!(
                "{}: {what} uses NumericsMatrix storage 2 (CSparse text), which this reader does not \
                 support: Siconos writes it with 6 significant digits, so it loses data; \
                 rewrite the file with storage 0 (dense) or 1 (sparse block)",
                t.at(start)
            )),
        )),
        other => Err(t.err_at(
            start,
            format!(
                "unknown storage type {other} for {what} (expected 0 dense, 1 sparse block or 2 CSparse)"
            ),
        )),
    }
}

/// Checks cumulative block offsets: strictly increasing, positive, ending at `total`.
fn check_offsets(
    t: &Tokens,
    idx: usize,
    offsets: &[usize],
    total: usize,
    what: &str,
) -> Result<(), IoError> {
    let mut prev = 0;
    for (k, &o) in offsets.iter().enumerate() {
        if o <= prev {
            return Err(t.err_at(
                idx + k,
                format!(
                    "{what}: cumulative block offset {o} does not increase (previous {prev}); every block has a positive size"
                ),
            ));
        }
        prev = o;
    }
    if prev != total {
        return Err(t.err_at(
            idx,
            format!("{what}: the block offsets end at {prev}, but the matrix size is {total}"),
        ));
    }
    Ok(())
}

/// Reads the body of a sparse block matrix (storage 1) of declared size `rows x cols`.
fn read_sbm(t: &mut Tokens, what: &str, rows: usize, cols: usize) -> Result<RawMatrix, IoError> {
    let nbblocks = t.next_usize(&format!("nbblocks of sparse block {what}"))?;
    if nbblocks == 0 {
        // Siconos writes nothing more for a matrix without blocks.
        return Ok(RawMatrix::Sparse {
            rows,
            cols,
            triplets: Vec::new(),
        });
    }
    let nb0 = t.next_usize(&format!("blocknumber0 of {what}"))?;
    let nb1 = t.next_usize(&format!("blocknumber1 of {what}"))?;
    let ro_idx = t.pos();
    let row_off = t.usize_vec(nb0, &format!("the row block offsets of {what}"))?;
    check_offsets(t, ro_idx, &row_off, rows, &format!("{what} rows"))?;
    let co_idx = t.pos();
    let col_off = t.usize_vec(nb1, &format!("the column block offsets of {what}"))?;
    check_offsets(t, co_idx, &col_off, cols, &format!("{what} columns"))?;
    let f1_idx = t.pos();
    let filled1 = t.next_usize(&format!("filled1 of {what}"))?;
    if Some(filled1) != nb0.checked_add(1) {
        return Err(t.err_at(
            f1_idx,
            format!("{what}: filled1 = {filled1}, expected blocknumber0 + 1 = {nb0} + 1"),
        ));
    }
    let f2_idx = t.pos();
    let filled2 = t.next_usize(&format!("filled2 of {what}"))?;
    if filled2 != nbblocks {
        return Err(t.err_at(
            f2_idx,
            format!("{what}: filled2 = {filled2}, expected nbblocks = {nbblocks}"),
        ));
    }
    let rp_idx = t.pos();
    let row_ptr = t.usize_vec(filled1, &format!("the block-row pointers of {what}"))?;
    if row_ptr.first() != Some(&0)
        || row_ptr.windows(2).any(|w| w[0] > w[1])
        || row_ptr.last() != Some(&filled2)
    {
        return Err(t.err_at(
            rp_idx,
            format!(
                "{what}: block-row pointers must start at 0, never decrease and end at nbblocks = {nbblocks}"
            ),
        ));
    }
    let ci_idx = t.pos();
    let col_idx = t.usize_vec(filled2, &format!("the block column indices of {what}"))?;
    if let Some(k) = col_idx.iter().position(|&c| c >= nb1) {
        return Err(t.err_at(
            ci_idx + k,
            format!(
                "{what}: block column index {} is out of range (blocknumber1 = {nb1})",
                col_idx[k]
            ),
        ));
    }
    // The entries the blocks hold, counted before anything is allocated for them (and
    // checked against the tokens left, so that a header cannot make us allocate more
    // than the file backs): one exact allocation instead of a growing vector.
    let mut stored = 0usize;
    for bi in 0..nb0 {
        let r0 = if bi == 0 { 0 } else { row_off[bi - 1] };
        let nr = row_off[bi] - r0;
        for &bj in &col_idx[row_ptr[bi]..row_ptr[bi + 1]] {
            let c0 = if bj == 0 { 0 } else { col_off[bj - 1] };
            stored = stored.saturating_add(nr.saturating_mul(col_off[bj] - c0));
        }
    }
    let mut triplets = Vec::with_capacity(if stored <= t.remaining() { stored } else { 0 });
    for bi in 0..nb0 {
        let r0 = if bi == 0 { 0 } else { row_off[bi - 1] };
        let nr = row_off[bi] - r0;
        for (k, &bj) in col_idx
            .iter()
            .enumerate()
            .take(row_ptr[bi + 1])
            .skip(row_ptr[bi])
        {
            let c0 = if bj == 0 { 0 } else { col_off[bj - 1] };
            let nc = col_off[bj] - c0;
            let num_idx = t.pos();
            let num = t.next_usize_lazy(|| format!("the number of block {k} of {what}"))?;
            if num != k {
                return Err(t.err_at(
                    num_idx,
                    format!("{what}: expected block number {k}, found {num}"),
                ));
            }
            let count = nr
                .checked_mul(nc)
                .ok_or_else(|| t.err_at(num_idx, format!("{what}: block {k} is too large")))?;
            if t.remaining() < count {
                t.need(count, &format!("block {k} ({nr} x {nc}) of {what}"))?;
            }
            for c in 0..nc {
                for r in 0..nr {
                    let v =
                        t.next_f64_lazy(|| format!("entry ({r}, {c}) of block {k} of {what}"))?;
                    triplets.push((r0 + r, c0 + c, v));
                }
            }
        }
    }
    Ok(RawMatrix::Sparse {
        rows,
        cols,
        triplets,
    })
}
