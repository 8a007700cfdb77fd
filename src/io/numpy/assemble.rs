//! A problem from named arrays and a problem as named arrays: the one layout the NumPy
//! folder ([`super::folder`], `NAME.npy` files) and the `.npz` archive ([`super::npz`],
//! `NAME.npy` members) share (the table is in the [module docs](super)). Reading goes
//! through the `Arrays` trait each container implements; writing gives the list
//! `layout` each container stores in its own way.

use std::borrow::Cow;
use std::path::Path;

use nalgebra::DVector;

use super::header::show;
use crate::io::{AnyProblem, IoError, IoErrorKind};
use crate::matrix::Matrix;
use crate::problem::{
    Block, BoxedLcp, EngineAnswer, FrictionContact, FrictionKind, GenericMechanical,
    GlobalFrictionContact, Lcp,
};

/// The codes of the `blocks` array of a gmp problem, by law name: `blocks[b]` is the
/// index of block `b`'s law in this list.
pub const BLOCK_CODES: [&str; 4] = ["equality", "unilateral", "interval", "contact"];

/// Named `float64` / `int64` arrays a problem is assembled from: the `.npy` files of a
/// NumPy folder, or the members of a NumPy `.npz` archive ([`super::npz`]). Names are
/// given without `.npy`.
pub(crate) trait Arrays {
    /// Whether the array is present.
    fn has(&self, name: &str) -> bool;
    /// Whether the matrix is present, in whatever storage the container allows.
    fn has_matrix(&self, name: &str) -> bool {
        self.has(name)
    }
    /// A 2-D `float64` array (or a sparse matrix, where the container stores one).
    fn matrix(&mut self, name: &str) -> Result<Matrix, IoError>;
    /// A 1-D `float64` array.
    fn vector(&mut self, name: &str) -> Result<DVector<f64>, IoError>;
    /// A 1-D `int64` array.
    fn ints(&mut self, name: &str) -> Result<Vec<i64>, IoError>;
    /// The arrays present, by name (a sparse matrix's four parts `X_data`, ... as `X`;
    /// metadata not included).
    fn names(&self) -> Vec<String>;
}

/// The arrays a problem of `problem`'s type takes (with the answer's `r` and `u`).
fn arrays_of(problem: &AnyProblem) -> &'static [&'static str] {
    match problem {
        AnyProblem::Friction(_) => &["W", "q", "mu", "r", "u"],
        AnyProblem::Generic(_) => &["W", "q", "blocks", "lo", "hi", "mu", "mu_len", "r", "u"],
        AnyProblem::Global(_) => &["M", "H", "q", "b", "mu", "r", "u"],
        AnyProblem::Lcp(_) => &["A", "b", "r", "u"],
        AnyProblem::Boxed(_) => &["A", "b", "lo", "hi", "dep", "factor", "r", "u"],
    }
}

/// Refuses an array the problem read does not use: it would be dropped silently (an
/// `fc3d` archive holding `A` and `b` too, a `gmp` one that lost its `blocks` and reads as
/// `fc3d`).
fn refuse_stray(arrays: &impl Arrays, problem: &AnyProblem, path: &Path) -> Result<(), IoError> {
    let allowed = arrays_of(problem);
    let mut names = arrays.names();
    names.sort();
    if let Some(stray) = names.iter().find(|n| !allowed.contains(&n.as_str())) {
        let hint = if matches!(problem, AnyProblem::Friction(_))
            && ["blocks", "lo", "hi", "mu_len"].contains(&stray.as_str())
        {
            "; a generic mechanical problem (gmp) needs `blocks` beside `W`"
        } else {
            ""
        };
        return Err(IoError::parse(
            path,
            format!("{stray}.npy"),
            format!(
                "the array `{}` does not belong to {} (its arrays: {}), and would be ignored; \
                 remove it or store the problem it belongs to{hint}",
                show(stray.as_bytes(), 40),
                problem.noun(),
                allowed.join(", ")
            ),
        ));
    }
    Ok(())
}

/// The problem held by `arrays` (an fc3d problem if `W` is present, else a gfc3d problem
/// if `M` is, else an LCP, boxed when any of `lo`, `hi`, `dep`, `factor` is present) and
/// the answer `r` (with its velocity `u`, if present), as the NumPy folder and the `.npz`
/// archive both lay them out (see the module docs). `None` when no problem matrix is
/// present. `path` names the container in problem errors; `answer_source` is the answer's
/// source (default `"r.npy"`).
pub(crate) fn assemble(
    arrays: &mut impl Arrays,
    law: FrictionKind,
    path: &Path,
    answer_source: Option<&str>,
) -> Result<Option<(AnyProblem, Option<EngineAnswer>)>, IoError> {
    let prob = |e| IoError::new(path, IoErrorKind::Problem(e));
    let problem = if arrays.has_matrix("W") && arrays.has("blocks") {
        let w = arrays.matrix("W")?;
        let q = arrays.vector("q")?;
        let blocks = read_blocks(arrays, path)?;
        AnyProblem::Generic(GenericMechanical::new(w, q, blocks, law).map_err(prob)?)
    } else if arrays.has_matrix("W") {
        let w = arrays.matrix("W")?;
        let (q, mu) = (arrays.vector("q")?, arrays.vector("mu")?);
        AnyProblem::Friction(FrictionContact::new(w, q, mu, law).map_err(prob)?)
    } else if arrays.has_matrix("M") {
        let (m, h) = (arrays.matrix("M")?, arrays.matrix("H")?);
        let (q, b, mu) = (
            arrays.vector("q")?,
            arrays.vector("b")?,
            arrays.vector("mu")?,
        );
        AnyProblem::Global(GlobalFrictionContact::new(m, h, q, b, mu, law).map_err(prob)?)
    } else if arrays.has_matrix("A") {
        let a = arrays.matrix("A")?;
        let b = arrays.vector("b")?;
        if ["lo", "hi", "dep", "factor"].iter().any(|n| arrays.has(n)) {
            let lo = arrays.vector("lo")?;
            let hi = arrays.vector("hi")?;
            let dep = arrays.ints("dep")?;
            let factor = arrays.vector("factor")?;
            let (lo, hi, factor) = (lo.as_slice(), hi.as_slice(), factor.as_slice());
            AnyProblem::Boxed(BoxedLcp::from_opentissue(a, b, lo, hi, &dep, factor).map_err(prob)?)
        } else {
            AnyProblem::Lcp(Lcp::new(a, b).map_err(prob)?)
        }
    } else {
        return Ok(None);
    };
    refuse_stray(arrays, &problem, path)?;
    let answer = if arrays.has("r") {
        let r = arrays.vector("r")?.as_slice().to_vec();
        let u = if arrays.has("u") {
            Some(arrays.vector("u")?.as_slice().to_vec())
        } else {
            None
        };
        let source = answer_source.unwrap_or("r.npy").to_string();
        let ans = EngineAnswer { source, r, u };
        ans.validate(problem.dim()).map_err(prob)?;
        Some(ans)
    } else {
        None
    };
    Ok(Some((problem, answer)))
}

/// The blocks of a gmp problem from the arrays `blocks`, `lo`, `hi`, `mu`, `mu_len` (see
/// the [module docs](super)); errors name the array and the block.
fn read_blocks(arrays: &mut impl Arrays, path: &Path) -> Result<Vec<Block>, IoError> {
    let codes = arrays.ints("blocks")?;
    let lo = arrays.vector("lo")?;
    let hi = arrays.vector("hi")?;
    let mu = arrays.vector("mu")?;
    let mu_len = arrays.ints("mu_len")?;
    let nb = codes.len();
    for (name, len) in [("lo", lo.len()), ("hi", hi.len()), ("mu_len", mu_len.len())] {
        if len != nb {
            return Err(IoError::parse(
                path,
                format!("{name}.npy"),
                format!("{name} has {len} entries for {nb} blocks; give one per block"),
            ));
        }
    }
    let mut blocks = Vec::with_capacity(nb);
    let mut next = 0usize;
    for b in 0..nb {
        let at = |name: &str| format!("{name}.npy[{b}]");
        let (l, h, k) = (lo[b], hi[b], mu_len[b]);
        let code = codes[b];
        let law = usize::try_from(code)
            .ok()
            .and_then(|c| BLOCK_CODES.get(c))
            .ok_or_else(|| {
                IoError::parse(
                    path,
                    at("blocks"),
                    format!(
                        "block {b} has the law code {code}; the codes are 0 equality, \
                         1 unilateral, 2 interval, 3 contact"
                    ),
                )
            })?;
        let contact = *law == "contact";
        if contact && k < 1 || !contact && k != 0 {
            return Err(IoError::parse(
                path,
                at("mu_len"),
                format!(
                    "block {b} ({law}) has mu_len = {k}; a contact has at least one \
                     tangential row, the other blocks none (mu_len = 0)"
                ),
            ));
        }
        let implied = match *law {
            "equality" => Some((f64::NEG_INFINITY, f64::INFINITY)),
            "unilateral" | "contact" => Some((0.0, f64::INFINITY)),
            _ => None,
        };
        match implied {
            Some((il, ih)) if l != il || h != ih => {
                return Err(IoError::parse(
                    path,
                    at("lo"),
                    format!(
                        "block {b} ({law}) has lo = {l:?}, hi = {h:?}; a {law} block stores \
                         the bounds its law implies, lo = {il:?}, hi = {ih:?}"
                    ),
                ));
            }
            Some(_) => {}
            None if l.is_nan() || h.is_nan() || l > h => {
                return Err(IoError::parse(
                    path,
                    at("lo"),
                    format!(
                        "block {b} (interval) has lo = {l:?}, hi = {h:?}; an interval needs \
                         lo <= hi (either may be infinite, neither NaN)"
                    ),
                ));
            }
            None => {}
        }
        let k = k as usize; // >= 0, checked above
        let end = next
            .checked_add(k)
            .filter(|e| *e <= mu.len())
            .ok_or_else(|| {
                IoError::parse(
                    path,
                    "mu.npy",
                    format!(
                        "mu has {} entries, fewer than the blocks' mu_len ask for (block {b} \
                         needs entries {next}..{})",
                        mu.len(),
                        next.saturating_add(k)
                    ),
                )
            })?;
        blocks.push(match *law {
            "equality" => Block::Equality,
            "unilateral" => Block::Unilateral,
            "interval" => Block::Interval { lo: l, hi: h },
            _ => {
                let m = mu.as_slice()[next..end].to_vec();
                if let Some((i, v)) = m
                    .iter()
                    .enumerate()
                    .find(|(_, v)| !(v.is_finite() && **v >= 0.0))
                {
                    return Err(IoError::parse(
                        path,
                        format!("mu.npy[{}]", next + i),
                        format!(
                            "block {b} (contact) has the friction coefficient {v:?}; \
                             coefficients are finite and >= 0"
                        ),
                    ));
                }
                Block::Contact { mu: m }
            }
        });
        next = end;
    }
    if next != mu.len() {
        return Err(IoError::parse(
            path,
            "mu.npy",
            format!(
                "mu has {} entries, but the blocks' mu_len add up to {next}",
                mu.len()
            ),
        ));
    }
    Ok(blocks)
}

/// The arrays `blocks`, `lo`, `hi`, `mu`, `mu_len` of a gmp problem.
pub(crate) type BlockArrays = (Vec<i64>, Vec<f64>, Vec<f64>, Vec<f64>, Vec<i64>);

/// The arrays of a gmp problem's blocks: `blocks`, `lo`, `hi`, `mu`, `mu_len`.
pub(crate) fn block_arrays(blocks: &[Block]) -> BlockArrays {
    let (mut codes, mut lo, mut hi, mut mu, mut mu_len) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for block in blocks {
        let code = BLOCK_CODES
            .iter()
            .position(|n| *n == block.name())
            .unwrap_or_default();
        codes.push(code as i64);
        let (l, h) = match block {
            Block::Equality => (f64::NEG_INFINITY, f64::INFINITY),
            Block::Unilateral | Block::Contact { .. } => (0.0, f64::INFINITY),
            Block::Interval { lo, hi } => (*lo, *hi),
        };
        lo.push(l);
        hi.push(h);
        match block {
            Block::Contact { mu: m } => {
                mu.extend_from_slice(m);
                mu_len.push(m.len() as i64);
            }
            _ => mu_len.push(0),
        }
    }
    (codes, lo, hi, mu, mu_len)
}

/// Checks that the provenance's labels are one per contact (per block of a gmp problem)
/// or none; `at` names the file that holds them.
pub(crate) fn check_labels(
    labels: &[String],
    pyramid: Option<&crate::problem::Pyramid>,
    problem: &AnyProblem,
    file: &Path,
) -> Result<(), IoError> {
    let prov = crate::problem::Provenance {
        pyramid: pyramid.cloned(),
        ..Default::default()
    };
    prov.check_pyramid(problem)
        .map_err(|e| IoError::parse(file, "`pyramid`", e.to_string()))?;
    let contacts = prov.contacts_of(problem);
    if !labels.is_empty() && labels.len() != contacts {
        let what = if matches!(problem, AnyProblem::Generic(_)) {
            "blocks"
        } else {
            "contacts"
        };
        return Err(IoError::parse(
            file,
            "`labels`",
            format!(
                "{} labels for {} {what}; give one per {} or none",
                labels.len(),
                contacts,
                &what[..what.len() - 1]
            ),
        ));
    }
    Ok(())
}

/// One array of a problem's [`layout`]: a matrix in its own storage (each container
/// decides how to store it), `float64` numbers or `int64` numbers.
pub(crate) enum Array<'a> {
    /// A 2-D `float64` array.
    Matrix(&'a Matrix),
    /// A 1-D `float64` array.
    Floats(Cow<'a, [f64]>),
    /// A 1-D `int64` array.
    Ints(Vec<i64>),
}

/// The arrays of `problem` (and of `answer`: `r`, then `u`) by name, without `.npy`, in
/// the order both containers write them (see the [module docs](super)), and the friction
/// law the metadata states (`None` for an LCP or a boxed LCP). The inverse of
/// [`assemble`].
pub(crate) fn layout<'a>(
    problem: &'a AnyProblem,
    answer: Option<&'a EngineAnswer>,
) -> (Vec<(&'static str, Array<'a>)>, Option<FrictionKind>) {
    let v = |x: &'a DVector<f64>| Array::Floats(Cow::Borrowed(x.as_slice()));
    let owned = |x: Vec<f64>| Array::Floats(Cow::Owned(x));
    let (mut arrays, law) = match problem {
        AnyProblem::Generic(p) => {
            let (codes, lo, hi, mu, mu_len) = block_arrays(p.blocks());
            (
                vec![
                    ("W", Array::Matrix(p.w())),
                    ("q", v(p.q())),
                    ("blocks", Array::Ints(codes)),
                    ("lo", owned(lo)),
                    ("hi", owned(hi)),
                    ("mu", owned(mu)),
                    ("mu_len", Array::Ints(mu_len)),
                ],
                Some(p.kind()),
            )
        }
        AnyProblem::Lcp(p) => (vec![("A", Array::Matrix(p.a())), ("b", v(p.b()))], None),
        AnyProblem::Boxed(p) => {
            let (lo, hi, dep, factor) = p.to_opentissue();
            (
                vec![
                    ("A", Array::Matrix(p.a())),
                    ("b", v(p.b())),
                    ("lo", owned(lo)),
                    ("hi", owned(hi)),
                    ("dep", Array::Ints(dep)),
                    ("factor", owned(factor)),
                ],
                None,
            )
        }
        AnyProblem::Friction(p) => (
            vec![
                ("W", Array::Matrix(p.w())),
                ("q", v(p.q())),
                ("mu", v(p.mu())),
            ],
            Some(p.kind()),
        ),
        AnyProblem::Global(p) => (
            vec![
                ("M", Array::Matrix(p.m())),
                ("H", Array::Matrix(p.h())),
                ("q", v(p.q())),
                ("b", v(p.b())),
                ("mu", v(p.mu())),
            ],
            Some(p.kind()),
        ),
    };
    if let Some(a) = answer {
        arrays.push(("r", Array::Floats(Cow::Borrowed(&a.r))));
        if let Some(u) = &a.u {
            arrays.push(("u", Array::Floats(Cow::Borrowed(u))));
        }
    }
    (arrays, law)
}
