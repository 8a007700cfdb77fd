//! The per-kind parsers of a Siconos `.dat` file (LCP, fc3d, gfc3d): each reads its
//! sizes, NumericsMatrices and vectors into [`Parts`], checking that the sizes agree, and
//! [`build`] turns the parts into a validated problem.

use std::path::Path;

use nalgebra::DVector;

use super::super::text::Tokens;
use super::super::{AnyProblem, IoError, IoErrorKind};
use super::Kind;
use super::numerics_matrix::{RawMatrix, read_numerics_matrix};
use crate::problem::{FrictionContact, FrictionKind, GlobalFrictionContact, Lcp};

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
pub(super) enum Parts {
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
    pub(super) fn storage(&self) -> &'static str {
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

pub(super) fn parse_parts(t: &mut Tokens, kind: Kind) -> Result<Parts, IoError> {
    t.rewind();
    match kind {
        Kind::Lcp => parse_lcp_parts(t),
        Kind::Fc3d => parse_fc3d_parts(t),
        Kind::Gfc3d => parse_gfc3d_parts(t),
    }
}

pub(super) fn build(path: &Path, parts: Parts) -> Result<AnyProblem, IoError> {
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
