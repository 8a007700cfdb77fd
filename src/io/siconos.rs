//! Siconos numerics text files (`.dat`): LCP, local 3D friction (fc3d) and global 3D
//! friction (gfc3d) problems.
//!
//! # Format (source: `../shared/data/README.md`, Siconos numerics 4.4)
//!
//! Tokens are separated by whitespace; line breaks carry no meaning.
//!
//! | kind | tokens |
//! |---|---|
//! | LCP | `n`, NumericsMatrix `M` (`n x n`), `q[n]`; anything after is a free comment |
//! | fc3d | `d` (= 3), `nc`, NumericsMatrix `W` (`3nc x 3nc`), `q[3nc]`, `mu[nc]`; trailing tokens ignored |
//! | gfc3d | `d` (= 3), `nc`, NumericsMatrix `M` (`ndof x ndof`), NumericsMatrix `H` (`ndof x 3nc`), `q[ndof]`, `b[3nc]`, `mu[nc]`; trailing tokens ignored |
//!
//! Siconos' `M, q` of an LCP are our [`Lcp`]'s `A, b` (`w = M z + q`). A gfc3d file poses
//! `M v = q + H r`, `u = H^T v + b`, exactly our [`GlobalFrictionContact`]. Both friction
//! kinds are read as [`FrictionKind::Coulomb`] (the De Saxce problem Siconos solves).
//!
//! A NumericsMatrix is `storageType size0 size1` followed by
//! * storage `0` (dense): `size0 size1` again, then `size0 * size1` values **column-major**
//!   (each printed "row" of numbers in the file is a column of the matrix);
//! * storage `1` (sparse block, SBM): `nbblocks` (if 0: an all-zero matrix, nothing
//!   follows), `blocknumber0`, `blocknumber1`, the cumulative row block offsets
//!   `[blocknumber0]`, the cumulative column block offsets `[blocknumber1]`, `filled1`
//!   (= `blocknumber0 + 1`), `filled2` (= `nbblocks`), the block-row pointers `[filled1]`,
//!   the block column indices `[filled2]`, then block by block (in block-row order) the
//!   block's number followed by its entries column-major;
//! * storage `2` (CSparse text) is rejected with [`IoErrorKind::Unsupported`]: Siconos
//!   writes it with 6 significant digits, which loses data, and none of the shared
//!   problems use it.
//!
//! Dense storage is read into [`Matrix::Dense`], SBM into [`Matrix::Sparse`] (every entry
//! of every stored block is kept, zeros included).
//!
//! # Telling the kinds apart
//! The first tokens do not say which kind a file holds (`3 1 0 3 3 ...` starts both a
//! 3-unknown LCP and a one-contact fc3d problem). [`read_any`] parses the file as each
//! kind; a kind qualifies when every size is consistent and enough tokens remain. When
//! several qualify (a gfc3d file with `ndof = 3nc` also reads as an fc3d problem followed
//! by ignored tokens), the file or folder name breaks the tie (`gfc3d`, then `fc3d` or
//! `FrictionContact`, then `lcp`, case-insensitive, nearest path component first), and
//! without a name hint the kind that leaves the fewest tokens unread wins.
//!
//! # Writing
//! [`lcp_to_string`], [`fc3d_to_string`] and [`gfc3d_to_string`] (and the `write_*`
//! functions) write dense matrices with storage 0 and sparse ones with storage 1 (3x3
//! blocks for `W`, `1 x 3` blocks for `H`, scalar blocks otherwise). Numbers are written
//! with Rust's shortest round-trip formatting (`{:e}`), so the readers read back exactly
//! the same `f64` values; Siconos' `fscanf("%le")` reads them too.
//!
//! # Errors
//! Malformed input gives an [`IoError`] naming the file and the token (with its line):
//! a missing or non-numeric token, a negative size, inconsistent sizes, an SBM structure
//! that does not add up. NaN, infinities and negative friction coefficients are rejected
//! by the problem constructors ([`IoErrorKind::Problem`]). No count read from the file is
//! used to allocate before the tokens it announces are known to be there.

use std::fmt::Write as _;
use std::path::Path;

use nalgebra::{DMatrix, DVector};

use super::text::Tokens;
use super::{AnyProblem, Format, IoError, IoErrorKind, LoadedProblem, Provenance};
use crate::matrix::Matrix;
use crate::problem::{FrictionContact, FrictionKind, GlobalFrictionContact, Lcp};

/// Which Siconos problem a `.dat` file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A linear complementarity problem (`n`, `M`, `q`).
    Lcp,
    /// A local 3D frictional contact problem (`d`, `nc`, `W`, `q`, `mu`).
    Fc3d,
    /// A global 3D frictional contact problem (`d`, `nc`, `M`, `H`, `q`, `b`, `mu`).
    Gfc3d,
}

impl Kind {
    /// `"lcp"`, `"fc3d"` or `"gfc3d"`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Lcp => "lcp",
            Kind::Fc3d => "fc3d",
            Kind::Gfc3d => "gfc3d",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A NumericsMatrix as read, before it is turned into a [`Matrix`] (which happens only
/// once the vectors that follow it have confirmed its sizes).
enum RawMatrix {
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
    fn shape(&self) -> (usize, usize) {
        match self {
            RawMatrix::Dense { rows, cols, .. } | RawMatrix::Sparse { rows, cols, .. } => {
                (*rows, *cols)
            }
        }
    }

    fn storage(&self) -> &'static str {
        match self {
            RawMatrix::Dense { .. } => "dense",
            RawMatrix::Sparse { .. } => "sparse block",
        }
    }

    fn build(self, path: &Path, what: &str) -> Result<Matrix, IoError> {
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
fn read_numerics_matrix(t: &mut Tokens, what: &str) -> Result<RawMatrix, IoError> {
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
    let mut triplets = Vec::new();
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
            let num = t.next_usize(&format!("the number of block {k} of {what}"))?;
            if num != k {
                return Err(t.err_at(
                    num_idx,
                    format!("{what}: expected block number {k}, found {num}"),
                ));
            }
            let count = nr
                .checked_mul(nc)
                .ok_or_else(|| t.err_at(num_idx, format!("{what}: block {k} is too large")))?;
            t.need(count, &format!("block {k} ({nr} x {nc}) of {what}"))?;
            for c in 0..nc {
                for r in 0..nr {
                    let v = t.next_f64(&format!("entry ({r}, {c}) of block {k} of {what}"))?;
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

fn expect_shape(
    t: &Tokens,
    idx: usize,
    what: &str,
    got: (usize, usize),
    want: (usize, usize),
    why: &str,
) -> Result<(), IoError> {
    if got != want {
        return Err(t.err_at(
            idx,
            format!(
                "{what} is {} x {}, but {why} requires {} x {}",
                got.0, got.1, want.0, want.1
            ),
        ));
    }
    Ok(())
}

/// The pieces of a file of some kind, sizes checked, not yet validated as a problem.
enum Parts {
    Lcp {
        m: RawMatrix,
        q: Vec<f64>,
    },
    Fc3d {
        w: RawMatrix,
        q: Vec<f64>,
        mu: Vec<f64>,
    },
    Gfc3d {
        m: RawMatrix,
        h: RawMatrix,
        q: Vec<f64>,
        b: Vec<f64>,
        mu: Vec<f64>,
    },
}

impl Parts {
    fn storage(&self) -> &'static str {
        match self {
            Parts::Lcp { m, .. } | Parts::Gfc3d { m, .. } => m.storage(),
            Parts::Fc3d { w, .. } => w.storage(),
        }
    }
}

fn parse_lcp_parts(t: &mut Tokens) -> Result<Parts, IoError> {
    let n = t.next_usize("the LCP size n")?;
    let m_idx = t.pos();
    let m = read_numerics_matrix(t, "M")?;
    expect_shape(t, m_idx, "M", m.shape(), (n, n), &format!("n = {n}"))?;
    let q = t.f64_vec(n, "q")?;
    Ok(Parts::Lcp { m, q })
}

/// Reads `d` (must be 3) and `nc`; returns `(nc, 3 nc)`.
fn parse_friction_header(t: &mut Tokens) -> Result<(usize, usize), IoError> {
    let d_idx = t.pos();
    let d = t.next_usize("the contact dimension d")?;
    if d != 3 {
        return Err(t.err_at(
            d_idx,
            format!("contact dimension d = {d}: only 3D friction (d = 3) is supported"),
        ));
    }
    let nc_idx = t.pos();
    let nc = t.next_usize("the number of contacts nc")?;
    let dim = nc
        .checked_mul(3)
        .ok_or_else(|| t.err_at(nc_idx, format!("nc = {nc} is too large")))?;
    Ok((nc, dim))
}

fn parse_fc3d_parts(t: &mut Tokens) -> Result<Parts, IoError> {
    let (nc, dim) = parse_friction_header(t)?;
    let w_idx = t.pos();
    let w = read_numerics_matrix(t, "W")?;
    expect_shape(t, w_idx, "W", w.shape(), (dim, dim), &format!("nc = {nc}"))?;
    let q = t.f64_vec(dim, "q")?;
    let mu = t.f64_vec(nc, "mu")?;
    Ok(Parts::Fc3d { w, q, mu })
}

fn parse_gfc3d_parts(t: &mut Tokens) -> Result<Parts, IoError> {
    let (nc, dim) = parse_friction_header(t)?;
    let m_idx = t.pos();
    let m = read_numerics_matrix(t, "M")?;
    let (ndof, c) = m.shape();
    expect_shape(t, m_idx, "M", (ndof, c), (ndof, ndof), "a mass matrix")?;
    let h_idx = t.pos();
    let h = read_numerics_matrix(t, "H")?;
    expect_shape(
        t,
        h_idx,
        "H",
        h.shape(),
        (ndof, dim),
        &format!("ndof = {ndof} and nc = {nc}"),
    )?;
    let q = t.f64_vec(ndof, "q")?;
    let b = t.f64_vec(dim, "b")?;
    let mu = t.f64_vec(nc, "mu")?;
    Ok(Parts::Gfc3d { m, h, q, b, mu })
}

fn parse_parts(t: &mut Tokens, kind: Kind) -> Result<Parts, IoError> {
    t.rewind();
    match kind {
        Kind::Lcp => parse_lcp_parts(t),
        Kind::Fc3d => parse_fc3d_parts(t),
        Kind::Gfc3d => parse_gfc3d_parts(t),
    }
}

fn build(path: &Path, parts: Parts) -> Result<AnyProblem, IoError> {
    let prob = |e| IoError::new(path, IoErrorKind::Problem(e));
    let v = DVector::from_vec;
    Ok(match parts {
        Parts::Lcp { m, q } => AnyProblem::Lcp(Lcp::new(m.build(path, "M")?, v(q)).map_err(prob)?),
        Parts::Fc3d { w, q, mu } => AnyProblem::Friction(
            FrictionContact::new(w.build(path, "W")?, v(q), v(mu), FrictionKind::Coulomb)
                .map_err(prob)?,
        ),
        Parts::Gfc3d { m, h, q, b, mu } => AnyProblem::Global(
            GlobalFrictionContact::new(
                m.build(path, "M")?,
                h.build(path, "H")?,
                v(q),
                v(b),
                v(mu),
                FrictionKind::Coulomb,
            )
            .map_err(prob)?,
        ),
    })
}

fn empty_check(t: &Tokens) -> Result<(), IoError> {
    if t.len() == 0 {
        return Err(t.err("the file is empty"));
    }
    Ok(())
}

/// Reads a Siconos LCP file: `n`, NumericsMatrix `M` (`n x n`), `q[n]`; whatever
/// follows is a comment. Returns `Lcp(A = M, b = q)`.
///
/// `path` only names the file in error messages.
///
/// # Errors
/// [`IoErrorKind::Parse`] for malformed text or inconsistent sizes,
/// [`IoErrorKind::Unsupported`] for storage 2, [`IoErrorKind::Problem`] for NaN/inf.
pub fn read_lcp(path: &Path, bytes: &[u8]) -> Result<Lcp, IoError> {
    let mut t = Tokens::new(path, bytes);
    empty_check(&t)?;
    let parts = parse_parts(&mut t, Kind::Lcp)?;
    t.check_not_cut(t.pos())?;
    match build(path, parts)? {
        AnyProblem::Lcp(p) => Ok(p),
        _ => unreachable!("LCP parts build an LCP"),
    }
}

/// Reads a Siconos fc3d file: `d` (= 3), `nc`, NumericsMatrix `W` (`3nc x 3nc`),
/// `q[3nc]`, `mu[nc]`; trailing tokens are ignored. The problem is posed as
/// [`FrictionKind::Coulomb`].
///
/// # Errors
/// As [`read_lcp`]; also `d != 3` and a negative `mu` ([`IoErrorKind::Problem`]).
pub fn read_fc3d(path: &Path, bytes: &[u8]) -> Result<FrictionContact, IoError> {
    let mut t = Tokens::new(path, bytes);
    empty_check(&t)?;
    let parts = parse_parts(&mut t, Kind::Fc3d)?;
    t.check_not_cut(t.pos())?;
    match build(path, parts)? {
        AnyProblem::Friction(p) => Ok(p),
        _ => unreachable!("fc3d parts build an fc3d problem"),
    }
}

/// Reads a Siconos gfc3d file: `d` (= 3), `nc`, NumericsMatrix `M` (`ndof x ndof`),
/// NumericsMatrix `H` (`ndof x 3nc`), `q[ndof]`, `b[3nc]`, `mu[nc]`, posing
/// `M v = q + H r`, `u = H^T v + b` (Coulomb); trailing tokens are ignored.
///
/// # Errors
/// As [`read_fc3d`]; also an `M` that is not symmetric positive definite
/// ([`IoErrorKind::Problem`]).
pub fn read_gfc3d(path: &Path, bytes: &[u8]) -> Result<GlobalFrictionContact, IoError> {
    let mut t = Tokens::new(path, bytes);
    empty_check(&t)?;
    let parts = parse_parts(&mut t, Kind::Gfc3d)?;
    t.check_not_cut(t.pos())?;
    match build(path, parts)? {
        AnyProblem::Global(p) => Ok(p),
        _ => unreachable!("gfc3d parts build a gfc3d problem"),
    }
}

/// The kind the file or folder names suggest, nearest path component first:
/// `gfc3d` / `GlobalFrictionContact`, then `fc3d` / `FrictionContact`, then `lcp`.
pub fn kind_hint(path: &Path) -> Option<Kind> {
    for comp in path.iter().rev() {
        let s = comp.to_string_lossy().to_ascii_lowercase();
        if s.contains("gfc3d") || s.contains("globalfrictioncontact") {
            return Some(Kind::Gfc3d);
        }
        if s.contains("fc3d") || s.contains("frictioncontact") {
            return Some(Kind::Fc3d);
        }
        if s.contains("lcp") {
            return Some(Kind::Lcp);
        }
    }
    None
}

/// Which kinds the text parses as, with the number of tokens left unread by each
/// (see the [module docs](self) for the rule). Errors if it parses as none.
fn choose(path: &Path, bytes: &[u8]) -> Result<(Kind, Parts, Option<String>), IoError> {
    let mut t = Tokens::new(path, bytes);
    empty_check(&t)?;
    let hint = kind_hint(path);
    let mut ok: Vec<(Kind, Parts, usize)> = Vec::new();
    let mut errs: Vec<(Kind, IoError, usize)> = Vec::new();
    for kind in [Kind::Gfc3d, Kind::Fc3d, Kind::Lcp] {
        match parse_parts(&mut t, kind) {
            Ok(parts) => ok.push((kind, parts, t.remaining())),
            Err(e) => errs.push((kind, e, t.pos())),
        }
    }
    // A kind that failed only after reading further than a kind that succeeded (and
    // left tokens unread) is the likelier intent: a global file with a malformed `H`
    // must not be read as the local problem or LCP its first numbers also spell.
    // (The name alone does not decide: `GFC3D_TwoRods1-condensed.dat` is a local file.)
    let furthest_ok = ok.iter().map(|o| t.len() - o.2).max().unwrap_or(0);
    let beaten_by_failure = ok.iter().all(|o| o.2 > 0) && errs.iter().any(|e| e.2 > furthest_ok);
    if ok.is_empty() || beaten_by_failure {
        // Among the kinds that got past every success: the one the name suggests, else
        // the one that got furthest into the file (the likeliest intent).
        let candidates: Vec<usize> = (0..errs.len())
            .filter(|&i| ok.is_empty() || errs[i].2 > furthest_ok)
            .collect();
        let mut pick = candidates[0];
        for &i in &candidates {
            if errs[i].2 > errs[pick].2 {
                pick = i;
            }
        }
        if let Some(&i) = candidates.iter().find(|&&i| Some(errs[i].0) == hint) {
            pick = i;
        }
        let (kind, e, _) = errs.swap_remove(pick);
        let also = if ok.is_empty() {
            String::new()
        } else {
            let names: Vec<&str> = ok.iter().map(|o| o.0.name()).collect();
            format!(
                " (its first numbers also spell a {} problem followed by unread tokens, \
                 which is not what the file holds)",
                names.join(" or ")
            )
        };
        return Err(match e.kind {
            IoErrorKind::Parse { at, message } => IoError::parse(
                e.path,
                at,
                format!("read as a Siconos {kind} file: {message}{also}"),
            ),
            other => IoError::new(e.path, other),
        });
    }
    let pick = match ok.iter().position(|(k, _, _)| Some(*k) == hint) {
        Some(i) => i,
        None => {
            let mut best = 0;
            for (i, o) in ok.iter().enumerate() {
                if o.2 < ok[best].2 {
                    best = i;
                }
            }
            best
        }
    };
    let (kind, parts, remaining) = ok.swap_remove(pick);
    let warning = t.check_not_cut(t.len() - remaining)?;
    Ok((kind, parts, warning))
}

/// Detects the kind of a Siconos `.dat` file from its structure (and its name, to break
/// ties); see the [module docs](self).
///
/// # Errors
/// The error of the likeliest kind when the text parses as none.
pub fn detect(path: &Path, bytes: &[u8]) -> Result<Kind, IoError> {
    choose(path, bytes).map(|(k, _, _)| k)
}

/// Reads a Siconos `.dat` file of any kind, detecting which ([`detect`]).
///
/// # Errors
/// As [`read_lcp`], [`read_fc3d`] and [`read_gfc3d`].
pub fn read_any(path: &Path, bytes: &[u8]) -> Result<(Kind, AnyProblem), IoError> {
    let (kind, parts, _) = choose(path, bytes)?;
    Ok((kind, build(path, parts)?))
}

/// Reads a Siconos `.dat` file into a [`LoadedProblem`] (format [`Format::Siconos`], no
/// answer: these files carry none).
pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<LoadedProblem, IoError> {
    let (kind, parts, warning) = choose(path, bytes)?;
    let storage = parts.storage();
    let problem = build(path, parts)?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(LoadedProblem {
        path: path.to_path_buf(),
        name,
        format: Format::Siconos,
        problem,
        answer: None,
        warm_start: None,
        warnings: warning.into_iter().collect(),
        provenance: Provenance {
            source: "Siconos numerics .dat file".to_string(),
            description: format!(
                "Siconos {kind} text file, {storage} NumericsMatrix storage; units are not stated \
                 in the file (Siconos works at the velocity level: u in m/s, r in N s)"
            ),
            units: Default::default(),
        },
    })
}

// ---------------------------------------------------------------------------------------
// Writers
// ---------------------------------------------------------------------------------------

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
    super::write_atomic(path, text.as_bytes())
}

/// Writes [`lcp_to_string`] to `path`; [`read_lcp`] reads it back exactly.
pub fn write_lcp(path: impl AsRef<Path>, lcp: &Lcp) -> Result<(), IoError> {
    write_text(path.as_ref(), lcp_to_string(lcp))
}

/// Writes [`fc3d_to_string`] to `path`; [`read_fc3d`] reads it back exactly.
pub fn write_fc3d(path: impl AsRef<Path>, fc: &FrictionContact) -> Result<(), IoError> {
    write_text(path.as_ref(), fc3d_to_string(fc))
}

/// Writes [`gfc3d_to_string`] to `path`; [`read_gfc3d`] reads it back exactly.
pub fn write_gfc3d(path: impl AsRef<Path>, g: &GlobalFrictionContact) -> Result<(), IoError> {
    write_text(path.as_ref(), gfc3d_to_string(g))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> &'static Path {
        Path::new("test.dat")
    }

    const LCP_DENSE: &str = "2\n0\n2\n2\n2 2\n1 3\n2 4\n-1 -1\nfree comment here\n";
    // The same matrix [[1, 2], [3, 4]] as one 2x2 block.
    const LCP_SBM: &str = "2 1 2 2  1 1 1  2  2  2 1  0 1  0  0  1 3 2 4  -1 -1\n";

    #[test]
    fn dense_is_column_major() {
        let lcp = read_lcp(p(), LCP_DENSE.as_bytes()).unwrap();
        let a = lcp.a().to_dense();
        assert_eq!(a, DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0]));
        assert_eq!(lcp.b().as_slice(), &[-1.0, -1.0]);
    }

    #[test]
    fn sbm_matches_dense() {
        let d = read_lcp(p(), LCP_DENSE.as_bytes()).unwrap();
        let s = read_lcp(p(), LCP_SBM.as_bytes()).unwrap();
        assert!(s.a().is_sparse());
        assert_eq!(d.a().to_dense(), s.a().to_dense());
        assert_eq!(d.b(), s.b());
    }

    #[test]
    fn sbm_with_no_blocks_is_zero() {
        let lcp = read_lcp(p(), b"2 1 2 2 0 1 1\n").unwrap();
        assert_eq!(lcp.a().to_dense(), DMatrix::zeros(2, 2));
    }

    #[test]
    fn detection_uses_structure_then_name() {
        // 3 unknowns / one contact: "3 0 3 3 ..." is an LCP (an fc3d would need nc = 0).
        let lcp = "3 0 3 3 3 3 1 0 0 0 1 0 0 0 1 -1 -1 -1\n";
        assert_eq!(
            detect(Path::new("x.dat"), lcp.as_bytes()).unwrap(),
            Kind::Lcp
        );
        let fc = "3 1 0 3 3 3 3 1 0 0 0 1 0 0 0 1 -1 0 0 0.5\n";
        assert_eq!(
            detect(Path::new("x.dat"), fc.as_bytes()).unwrap(),
            Kind::Fc3d
        );
        // A gfc3d with ndof = 3 nc also parses as fc3d + ignored tokens.
        let g = "3 1 0 3 3 3 3 1 0 0 0 1 0 0 0 1 0 3 3 3 3 1 0 0 0 1 0 0 0 1 0 0 -1 0 0 0 0.5\n";
        assert_eq!(
            detect(Path::new("x.dat"), g.as_bytes()).unwrap(),
            Kind::Gfc3d
        );
        assert_eq!(
            detect(Path::new("some_fc3d.dat"), g.as_bytes()).unwrap(),
            Kind::Fc3d
        );
        assert_eq!(
            detect(Path::new("gfc3d/a.dat"), g.as_bytes()).unwrap(),
            Kind::Gfc3d
        );
    }

    #[test]
    fn malformed_inputs_are_errors() {
        let cases: &[&str] = &[
            "",
            "   \n ",
            "2\n",
            "2 0 2 2 2 2 1 2 3\n",                 // truncated matrix
            "2 0 2 2 2 2 1 2 3 4 -1\n",            // truncated q
            "2 0 3 3 3 3 1 2 3 4 5 6 7 8 9 1 1\n", // wrong size
            "2 0 2 3 2 3 1 2 3 4 5 6 1 1\n",       // non-square
            "2 0 2 2 2 2 1 nan 3 4 -1 -1\n",       // NaN
            "2 0 2 2 2 2 1 inf 3 4 -1 -1\n",       // inf
            "2 0 2 2 2 2 1 x 3 4 -1 -1\n",         // not a number
            "2 7 2 2 2 2 1 2 3 4 -1 -1\n",         // unknown storage
            "2 2 2 2 2 2 1 2 3 4 -1 -1\n",         // CSparse
            "-2 0 2 2 2 2 1 2 3 4 -1 -1\n",        // negative size
            "1000000000000 0 1000000000000 1000000000000 1000000000000 1000000000000 1\n",
            "18446744073709551615 0 18446744073709551615 18446744073709551615 18446744073709551615 18446744073709551615\n",
            "2 1 2 2 1 1 1 2 2 2 1 0 1 0 1 1 3 2 4 -1 -1\n", // wrong block number
            "2 1 2 2 1 1 1 3 2 2 1 0 1 0 0 1 3 2 4 -1 -1\n", // offsets past the size
            "2 1 2 2 1 1 1 2 2 3 1 0 1 0 0 1 3 2 4 -1 -1\n", // filled1
            "2 1 2 2 1 1 1 2 2 2 1 0 1 1 0 1 3 2 4 -1 -1\n", // column index out of range
            "2 1 2 2 2 1 1 2 2 2 2 0 2 0 0 0 1 3 2 4 -1 -1\n", // second block missing
            "2 1 2 2 1 1 1 0 2 2 1 0 1 0 0 1 3 2 4 -1 -1\n", // zero offset
            "2 1 1000000000000 1000000000000 1 1 1 1000000000000 1000000000000 2 1 0 1 0 0 1\n",
        ];
        for text in cases {
            let r = read_lcp(p(), text.as_bytes());
            assert!(r.is_err(), "accepted: {text:?}");
            assert!(read_any(p(), text.as_bytes()).is_err(), "{text:?}");
        }
        let nan = read_lcp(p(), b"2 0 2 2 2 2 1 nan 3 4 -1 -1\n").unwrap_err();
        assert!(matches!(nan.kind, IoErrorKind::Problem(_)), "{nan}");
        let csparse = read_lcp(p(), b"2 2 2 2 2 2 1 2 3 4 -1 -1\n").unwrap_err();
        assert!(
            matches!(csparse.kind, IoErrorKind::Unsupported(_)),
            "{csparse}"
        );
        let trunc = read_lcp(p(), b"2 0 2 2 2 2\n1 2\n3\n")
            .unwrap_err()
            .to_string();
        assert!(
            trunc.contains("test.dat") && trunc.contains("line 2") && trunc.contains("remain"),
            "{trunc}"
        );
        // fc3d: negative mu, d != 3, wrong mu count.
        let neg = read_fc3d(p(), b"3 1 0 3 3 3 3 1 0 0 0 1 0 0 0 1 -1 0 0 -0.5\n").unwrap_err();
        assert!(matches!(neg.kind, IoErrorKind::Problem(_)), "{neg}");
        assert!(read_fc3d(p(), b"2 1 0 2 2 2 2 1 0 0 1 -1 0 0.5\n").is_err());
        assert!(read_fc3d(p(), b"3 1 0 3 3 3 3 1 0 0 0 1 0 0 0 1 -1 0 0\n").is_err());
        // gfc3d: M not SPD.
        let g = "3 1 0 3 3 3 3 -1 0 0 0 1 0 0 0 1 0 3 3 3 3 1 0 0 0 1 0 0 0 1 0 0 -1 0 0 0 0.5\n";
        assert!(matches!(
            read_gfc3d(p(), g.as_bytes()).unwrap_err().kind,
            IoErrorKind::Problem(_)
        ));
    }

    fn bits(m: &Matrix) -> Vec<u64> {
        m.to_dense().iter().map(|v| v.to_bits()).collect()
    }

    #[test]
    fn writers_round_trip_exactly() {
        let vals = [
            0.1 + 0.2,
            -1.0 / 3.0,
            5e-324,
            -0.0,
            1.7976931348623157e308,
            2.2250738585072014e-308,
            123456789.12345679,
        ];
        let dense = DMatrix::from_fn(7, 7, |i, j| vals[(i + 2 * j) % 7] / (1.0 + i as f64));
        let b = DVector::from_fn(7, |i, _| vals[i]);
        for a in [
            Matrix::Dense(dense.clone()),
            Matrix::Dense(dense).to_csr().into(),
        ] {
            let lcp = Lcp::new(a, b.clone()).unwrap();
            let text = lcp_to_string(&lcp);
            let back = read_lcp(p(), text.as_bytes()).unwrap();
            assert_eq!(bits(back.a()), bits(lcp.a()));
            assert_eq!(back.a().is_sparse(), lcp.a().is_sparse());
            let bb: Vec<u64> = back.b().iter().map(|v| v.to_bits()).collect();
            let ob: Vec<u64> = lcp.b().iter().map(|v| v.to_bits()).collect();
            assert_eq!(bb, ob);
            assert_eq!(lcp_to_string(&back), text);
        }
        let w = Matrix::from_triplets(
            6,
            6,
            &[
                (0, 0, 1.0 / 7.0),
                (1, 1, 2.0),
                (2, 2, 3.0),
                (3, 3, 1.0),
                (4, 4, 1.0),
                (5, 5, 1.0),
                (0, 4, -0.25),
                (4, 0, -0.25),
            ],
        )
        .unwrap();
        let fc = FrictionContact::new(
            w,
            DVector::from_vec(vec![-1.0, 0.1, 0.2, -0.3, 1e-300, 0.0]),
            DVector::from_vec(vec![0.3, 1.0 / 3.0]),
            FrictionKind::Coulomb,
        )
        .unwrap();
        let text = fc3d_to_string(&fc);
        let back = read_fc3d(p(), text.as_bytes()).unwrap();
        assert_eq!(bits(back.w()), bits(fc.w()));
        assert_eq!(back.q(), fc.q());
        assert_eq!(back.mu(), fc.mu());
        assert_eq!(
            detect(Path::new("x.dat"), text.as_bytes()).unwrap(),
            Kind::Fc3d
        );
        // Zero matrix, sparse: no blocks.
        let z = Lcp::new(Matrix::from_triplets(2, 2, &[]).unwrap(), DVector::zeros(2)).unwrap();
        let back = read_lcp(p(), lcp_to_string(&z).as_bytes()).unwrap();
        assert_eq!(back.a().to_dense(), DMatrix::zeros(2, 2));
    }

    proptest::proptest! {
        /// Any finite values, dense or sparse, write and read back bit for bit.
        #[test]
        fn round_trip_any_finite_values(
            n in 1usize..7,
            raw in proptest::collection::vec(proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO, 49),
            sparse in proptest::bool::ANY,
        ) {
            let a = DMatrix::from_fn(n, n, |i, j| raw[i * 7 + j]);
            let a = if sparse { Matrix::Dense(a).to_csr().into() } else { Matrix::Dense(a) };
            let b = DVector::from_fn(n, |i, _| raw[(i * 3) % 49]);
            let lcp = Lcp::new(a, b).unwrap();
            let back = read_lcp(p(), lcp_to_string(&lcp).as_bytes()).unwrap();
            proptest::prop_assert_eq!(bits(back.a()), bits(lcp.a()));
            let bb: Vec<u64> = back.b().iter().map(|v| v.to_bits()).collect();
            let ob: Vec<u64> = lcp.b().iter().map(|v| v.to_bits()).collect();
            proptest::prop_assert_eq!(bb, ob);
        }
    }

    /// Regression (issue 8): a global file whose `H` has the wrong shape was read as the
    /// LCP its first numbers also spell, with the rest ignored.
    #[test]
    fn a_malformed_global_file_is_not_read_as_another_kind() {
        let text = "3 2\n0 2 2 2 2\n1 0 0 1\n0 2 3 2 3\n1 0 0 1 0 0\n0 0\n0 0 0 0 0 0\n0.5 0.5\n";
        let e = read_any(Path::new("x.dat"), text.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(e.contains("gfc3d") && e.contains("H is 2 x 3"), "{e}");
    }
}
