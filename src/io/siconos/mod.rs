//! Siconos numerics text files (`.dat`): LCP, local 3D friction (fc3d) and global 3D
//! friction (gfc3d) problems.
//!
//! # Format (source: `data/README.md`, Siconos numerics 4.4)
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
//! kinds are read as [`FrictionKind::Coulomb`](crate::problem::FrictionKind::Coulomb) (the De Saxce problem Siconos solves).
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
//! Dense storage is read into [`Matrix::Dense`](crate::matrix::Matrix::Dense), SBM into [`Matrix::Sparse`](crate::matrix::Matrix::Sparse) (every entry
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
//!
//! # Layout
//! This module holds [`Kind`], its detection and the public readers; the NumericsMatrix
//! reader is in `numerics_matrix.rs`, the per-kind part parsers in `parse.rs`, the
//! writers in `write.rs`.

mod numerics_matrix;
mod parse;
#[cfg(test)]
mod tests;
mod write;

pub use write::{
    fc3d_to_string, gfc3d_to_string, lcp_to_string, write_fc3d, write_gfc3d, write_lcp,
};

use std::path::Path;

use self::parse::{Parts, build, parse_parts};
use super::text::Tokens;
use super::{AnyProblem, Format, IoError, IoErrorKind, LoadedProblem, Provenance};
use crate::problem::{FrictionContact, GlobalFrictionContact, Lcp};

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
/// [`FrictionKind::Coulomb`](crate::problem::FrictionKind::Coulomb).
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
            ..Default::default()
        },
        elliptic: None,
    })
}
