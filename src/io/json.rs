//! The project's own JSON format: one problem per file, with its kind, provenance, units
//! and optionally an engine's answer.
//!
//! ```json
//! {
//!   "format": "nonsmooth-problem",
//!   "version": 1,
//!   "name": "box_stack_3",
//!   "type": "fc3d",
//!   "law": "coulomb",
//!   "provenance": { "source": "nonsmooth::multibody", "description": "...",
//!                   "units": { "r": "N s", "u": "m/s" } },
//!   "data": {
//!     "W": { "storage": "triplets", "nrows": 3, "ncols": 3, "entries": [[0, 0, 1.5]] },
//!     "q": [-0.0196, 0.0, 0.0],
//!     "mu": [0.5]
//!   },
//!   "answer": { "source": "some engine", "r": [0.0131, 0.0, 0.0] }
//! }
//! ```
//!
//! * `type` is `"lcp"` (data `A`, `b`), `"boxed-lcp"` (`A`, `b`, `lo`, `hi`, `dep`,
//!   `factor`; `dep[i] = -1` for fixed bounds, `null` for an infinite bound), `"fc3d"`
//!   (`W`, `q`, `mu`), `"gfc3d"` (`M`, `H`, `q`, `b`, `mu`) or `"gmp"` (`W`, `q`,
//!   `blocks`: a [generic mechanical problem](crate::problem::GenericMechanical)).
//! * `law` is `"coulomb"` (default) or `"ccp"` for the friction types (for `gmp`, the law
//!   of its contact blocks).
//! * A `gmp` problem's `blocks` list its blocks in row order, each an object with the key
//!   `law` and the law's own keys, nothing else ([`BlockJson`]):
//!   `{"law": "equality"}` (1 row), `{"law": "unilateral"}` (1 row),
//!   `{"law": "interval", "lo": -1.0, "hi": 1.0}` (1 row; both keys required, `null` for
//!   an infinite bound, `lo <= hi`), `{"law": "contact", "mu": [0.5, 0.5, 0.01]}`
//!   (`1 + mu.len()` rows `[n, t_1, ..]`, `mu` not empty, each `>= 0`). The blocks' rows
//!   add up to the length of `q`. Errors name the block (`data.blocks[2]`).
//! * Matrices are `{"storage": "triplets", "nrows", "ncols", "entries": [[i, j, v], ...]}`
//!   (duplicates summed) or `{"storage": "dense", "nrows", "ncols", "rows": [[...], ...]}`.
//! * Numbers are written with the shortest representation that reads back to the same
//!   `f64`, so a write-read round trip is exact.

use std::path::Path;

use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};

use super::{AnyProblem, Format, IoError, IoErrorKind, LoadedProblem, Provenance};
use crate::matrix::Matrix;
use crate::problem::{
    Block, BoxedLcp, EngineAnswer, FrictionContact, FrictionKind, GenericMechanical,
    GlobalFrictionContact, Lcp, RowBound,
};

/// The value of the `format` key.
pub const FORMAT_TAG: &str = "nonsmooth-problem";
/// The version written.
pub const VERSION: u32 = 1;

/// A matrix in JSON.
///
/// Read with a hand-written [`Deserialize`] that streams the keys into typed vectors
/// (about 24 bytes per triplet, 8 per dense entry): serde's derived form of an internally
/// tagged enum first copies the whole object into a tree of generic values, several times
/// the size of the triplets (issue 14: large walls needed gigabytes). The accepted input
/// and the messages are those of the derived form (`missing field`, `unknown variant`,
/// `duplicate field`, `unknown field`); a key of the other storage (`rows` beside
/// `"storage": "triplets"`) is an error wherever it stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "storage", rename_all = "lowercase")]
pub enum MatrixJson {
    /// Coordinate list `[i, j, v]` (zero-based; duplicates summed).
    Triplets {
        /// Rows.
        nrows: usize,
        /// Columns.
        ncols: usize,
        /// Entries.
        entries: Vec<(usize, usize, f64)>,
    },
    /// Dense, row by row.
    Dense {
        /// Rows.
        nrows: usize,
        /// Columns.
        ncols: usize,
        /// `nrows` rows of `ncols` values.
        rows: Vec<Vec<f64>>,
    },
}

impl<'de> Deserialize<'de> for MatrixJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(MatrixVisitor)
    }
}

struct MatrixVisitor;

/// The value of `storage` (derived, so that its messages are serde's: `unknown variant
/// `x`, expected `triplets` or `dense``).
#[derive(Deserialize, PartialEq, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Storage {
    Triplets,
    Dense,
}

impl<'de> serde::de::Visitor<'de> for MatrixVisitor {
    type Value = MatrixJson;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("internally tagged enum MatrixJson")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<MatrixJson, A::Error> {
        use serde::de::Error;
        let mut storage: Option<Storage> = None;
        let mut nrows: Option<usize> = None;
        let mut ncols: Option<usize> = None;
        let mut entries: Option<Vec<(usize, usize, f64)>> = None;
        let mut rows: Option<Vec<Vec<f64>>> = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match key.as_ref() {
                "storage" => {
                    if storage.is_some() {
                        return Err(A::Error::duplicate_field("storage"));
                    }
                    storage = Some(map.next_value::<Storage>()?);
                }
                "nrows" => {
                    if nrows.is_some() {
                        return Err(A::Error::duplicate_field("nrows"));
                    }
                    nrows = Some(map.next_value()?);
                }
                "ncols" => {
                    if ncols.is_some() {
                        return Err(A::Error::duplicate_field("ncols"));
                    }
                    ncols = Some(map.next_value()?);
                }
                "entries" if storage != Some(Storage::Dense) => {
                    if entries.is_some() {
                        return Err(A::Error::duplicate_field("entries"));
                    }
                    // Grown by doubling while read: give back the unused part before
                    // the compressed rows are built beside it.
                    let mut e: Vec<(usize, usize, f64)> = map.next_value()?;
                    e.shrink_to_fit();
                    entries = Some(e);
                }
                "rows" if storage != Some(Storage::Triplets) => {
                    if rows.is_some() {
                        return Err(A::Error::duplicate_field("rows"));
                    }
                    rows = Some(map.next_value()?);
                }
                "entries" | "rows" => {
                    return Err(A::Error::custom(format!(
                        "`{}` does not belong to a matrix stored as {} (triplets take \
                         `entries`, dense matrices `rows`)",
                        key.as_ref(),
                        if storage == Some(Storage::Dense) {
                            "dense"
                        } else {
                            "triplets"
                        }
                    )));
                }
                other => {
                    return Err(A::Error::unknown_field(
                        other,
                        &["storage", "nrows", "ncols", "entries", "rows"],
                    ));
                }
            }
        }
        finish(storage, nrows, ncols, entries, rows)
    }

    /// The sequence form `[storage, nrows, ncols, entries or rows]` that the derived
    /// form also accepts.
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<MatrixJson, A::Error> {
        use serde::de::Error;
        let storage: Storage = seq
            .next_element()?
            .ok_or_else(|| A::Error::missing_field("storage"))?;
        let len = |i| A::Error::invalid_length(i, &"a matrix with 3 fields after its storage");
        let nrows: usize = seq.next_element()?.ok_or_else(|| len(0))?;
        let ncols: usize = seq.next_element()?.ok_or_else(|| len(1))?;
        match storage {
            Storage::Triplets => Ok(MatrixJson::Triplets {
                nrows,
                ncols,
                entries: seq.next_element()?.ok_or_else(|| len(2))?,
            }),
            Storage::Dense => Ok(MatrixJson::Dense {
                nrows,
                ncols,
                rows: seq.next_element()?.ok_or_else(|| len(2))?,
            }),
        }
    }
}

/// The matrix from the keys read, or the derived form's error for a missing one.
fn finish<E: serde::de::Error>(
    storage: Option<Storage>,
    nrows: Option<usize>,
    ncols: Option<usize>,
    entries: Option<Vec<(usize, usize, f64)>>,
    rows: Option<Vec<Vec<f64>>>,
) -> Result<MatrixJson, E> {
    let nrows = nrows.ok_or_else(|| E::missing_field("nrows"));
    let ncols = ncols.ok_or_else(|| E::missing_field("ncols"));
    let other = |key: &str, kind: &str| {
        E::custom(format!(
            "`{key}` does not belong to a matrix stored as {kind} (triplets take `entries`, \
             dense matrices `rows`)"
        ))
    };
    match storage {
        Some(Storage::Triplets) if rows.is_some() => Err(other("rows", "triplets")),
        Some(Storage::Dense) if entries.is_some() => Err(other("entries", "dense")),
        None => Err(E::missing_field("storage")),
        Some(Storage::Triplets) => Ok(MatrixJson::Triplets {
            nrows: nrows?,
            ncols: ncols?,
            entries: entries.ok_or_else(|| E::missing_field("entries"))?,
        }),
        Some(Storage::Dense) => Ok(MatrixJson::Dense {
            nrows: nrows?,
            ncols: ncols?,
            rows: rows.ok_or_else(|| E::missing_field("rows"))?,
        }),
    }
}

impl MatrixJson {
    /// Stores `m` as triplets (sparse) or rows (dense).
    pub fn from_matrix(m: &Matrix) -> Self {
        match m {
            Matrix::Dense(d) => MatrixJson::Dense {
                nrows: d.nrows(),
                ncols: d.ncols(),
                rows: (0..d.nrows())
                    .map(|i| d.row(i).iter().copied().collect())
                    .collect(),
            },
            Matrix::Sparse(s) => {
                let mut entries = Vec::with_capacity(s.nnz());
                for (i, row) in s.row_iter().enumerate() {
                    for (j, v) in row.col_indices().iter().zip(row.values()) {
                        entries.push((i, *j, *v));
                    }
                }
                MatrixJson::Triplets {
                    nrows: s.nrows(),
                    ncols: s.ncols(),
                    entries,
                }
            }
        }
    }

    /// The declared `(nrows, ncols)`.
    pub fn shape(&self) -> (usize, usize) {
        match self {
            MatrixJson::Triplets { nrows, ncols, .. } | MatrixJson::Dense { nrows, ncols, .. } => {
                (*nrows, *ncols)
            }
        }
    }

    /// Builds the matrix, checking shapes and indices.
    pub fn to_matrix(&self, what: &str) -> Result<Matrix, String> {
        match self {
            MatrixJson::Triplets {
                nrows,
                ncols,
                entries,
            } => Matrix::from_triplets(*nrows, *ncols, entries).ok_or_else(|| {
                format!("{what}: a triplet index is outside the {nrows} x {ncols} shape")
            }),
            MatrixJson::Dense { nrows, ncols, rows } => {
                if rows.len() != *nrows || rows.iter().any(|r| r.len() != *ncols) {
                    return Err(format!(
                        "{what}: dense rows do not match the {nrows} x {ncols} shape"
                    ));
                }
                Ok(Matrix::Dense(DMatrix::from_fn(*nrows, *ncols, |i, j| {
                    rows[i][j]
                })))
            }
        }
    }
}

/// The `data` object: which keys are present depends on `type` ([`DataJson::keys`]); a key
/// this format does not know, or one that does not belong to the type, is an error.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataJson {
    /// LCP / boxed LCP matrix.
    #[serde(rename = "A", default, skip_serializing_if = "Option::is_none")]
    pub a: Option<MatrixJson>,
    /// Delassus operator.
    #[serde(rename = "W", default, skip_serializing_if = "Option::is_none")]
    pub w: Option<MatrixJson>,
    /// Mass matrix (global).
    #[serde(rename = "M", default, skip_serializing_if = "Option::is_none")]
    pub m: Option<MatrixJson>,
    /// `H` (global).
    #[serde(rename = "H", default, skip_serializing_if = "Option::is_none")]
    pub h: Option<MatrixJson>,
    /// Right-hand side `b` (LCP) or contact offset `b` (global).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b: Option<Vec<f64>>,
    /// `q` (fc3d free velocity, or global momentum right-hand side).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub q: Option<Vec<f64>>,
    /// Friction coefficients.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mu: Option<Vec<f64>>,
    /// Boxed: lower bounds (`null` = -inf).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lo: Option<Vec<Option<f64>>>,
    /// Boxed: upper bounds (`null` = +inf).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hi: Option<Vec<Option<f64>>>,
    /// Boxed: the row a friction bound depends on, `-1` for fixed bounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dep: Option<Vec<i64>>,
    /// Boxed: friction factors.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub factor: Option<Vec<f64>>,
    /// Generic mechanical problem: the blocks, in row order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocks: Option<Vec<BlockJson>>,
}

/// One block of a `gmp` problem in JSON: `law` (`"equality"`, `"unilateral"`,
/// `"interval"`, `"contact"`) and that law's keys: `lo` and `hi` for an interval (`null`
/// for an infinite bound), `mu` for a contact. A key that does not belong to the law is an
/// error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockJson {
    /// The law's name ([`Block::name`]).
    pub law: String,
    /// Interval: lower bound (`Some(None)` is written `null`: `-inf`).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub lo: Option<Option<f64>>,
    /// Interval: upper bound (`Some(None)` is written `null`: `+inf`).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub hi: Option<Option<f64>>,
    /// Contact: one friction coefficient per tangential row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mu: Option<Vec<f64>>,
}

/// A key that is present, `null` included (`Some(None)`); an absent key is `None` (by
/// `default`).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<f64>>, D::Error> {
    Option::<f64>::deserialize(d).map(Some)
}

impl BlockJson {
    /// The JSON form of `block`.
    pub fn from_block(block: &Block) -> Self {
        let finite = |v: f64| if v.is_finite() { Some(v) } else { None };
        let mut out = BlockJson {
            law: block.name().to_string(),
            lo: None,
            hi: None,
            mu: None,
        };
        match block {
            Block::Interval { lo, hi } => {
                out.lo = Some(finite(*lo));
                out.hi = Some(finite(*hi));
            }
            Block::Contact { mu } => out.mu = Some(mu.clone()),
            Block::Equality | Block::Unilateral => {}
        }
        out
    }

    /// The block, or a message saying what is wrong with it (block `b`, for messages).
    pub fn to_block(&self, b: usize) -> Result<Block, String> {
        let law = self.law.as_str();
        let extra = |key: &str| {
            format!(
                "block {b} ({law}) has a `{key}`, which a {law} block does not take \
                 (interval blocks take lo and hi, contact blocks mu)"
            )
        };
        let no = |present: bool, key: &str| if present { Err(extra(key)) } else { Ok(()) };
        match law {
            "equality" | "unilateral" => {
                no(self.lo.is_some(), "lo")?;
                no(self.hi.is_some(), "hi")?;
                no(self.mu.is_some(), "mu")?;
                Ok(if law == "equality" {
                    Block::Equality
                } else {
                    Block::Unilateral
                })
            }
            "interval" => {
                no(self.mu.is_some(), "mu")?;
                let need = |v: Option<Option<f64>>, key: &str| {
                    v.ok_or_else(|| {
                        format!(
                            "block {b} (interval) needs `{key}` (a number, or null for an \
                             infinite bound)"
                        )
                    })
                };
                let lo = need(self.lo, "lo")?.unwrap_or(f64::NEG_INFINITY);
                let hi = need(self.hi, "hi")?.unwrap_or(f64::INFINITY);
                if lo > hi {
                    return Err(format!(
                        "block {b} (interval) has lo = {lo:?} above hi = {hi:?}; an interval \
                         needs lo <= hi"
                    ));
                }
                Ok(Block::Interval { lo, hi })
            }
            "contact" => {
                no(self.lo.is_some(), "lo")?;
                no(self.hi.is_some(), "hi")?;
                let mu = self.mu.clone().ok_or_else(|| {
                    format!(
                        "block {b} (contact) needs `mu`, one friction coefficient per \
                         tangential row (for example [0.5, 0.5])"
                    )
                })?;
                if mu.is_empty() {
                    return Err(format!(
                        "block {b} (contact) has an empty `mu`: a contact has at least one \
                         tangential row (a contact with only a normal row is a unilateral \
                         block)"
                    ));
                }
                if let Some((i, m)) = mu
                    .iter()
                    .enumerate()
                    .find(|(_, m)| !(m.is_finite() && **m >= 0.0))
                {
                    return Err(format!(
                        "block {b} (contact) has mu[{i}] = {m:?}; friction coefficients are \
                         finite and >= 0"
                    ));
                }
                Ok(Block::Contact { mu })
            }
            other => Err(format!(
                "block {b} has the unknown law `{}` (expected equality, unilateral, interval \
                 or contact)",
                super::numpy::header::show(other.as_bytes(), 40)
            )),
        }
    }
}

/// A whole file. A key this format does not know (at any level: `"Law"`, `"kind"`, a
/// misspelt `"provenence"`) is an error, never ignored: a file that meant `"law": "ccp"`
/// must not be solved as Coulomb.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemFile {
    /// Always [`FORMAT_TAG`].
    pub format: String,
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// Short name.
    pub name: String,
    /// `"lcp"`, `"boxed-lcp"`, `"fc3d"`, `"gfc3d"` or `"gmp"`.
    #[serde(rename = "type")]
    pub problem_type: String,
    /// Friction law for the friction types.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub law: Option<FrictionKind>,
    /// Where it came from.
    #[serde(default)]
    pub provenance: Provenance,
    /// The numbers.
    pub data: DataJson,
    /// An engine's answer, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<EngineAnswer>,
}

fn vec_of(v: &DVector<f64>) -> Vec<f64> {
    v.iter().copied().collect()
}

/// Builds the file structure for a problem.
pub fn to_file(
    name: &str,
    problem: &AnyProblem,
    answer: Option<&EngineAnswer>,
    provenance: &Provenance,
) -> ProblemFile {
    let mut data = DataJson::default();
    let mut law = None;
    match problem {
        AnyProblem::Generic(p) => {
            data.w = Some(MatrixJson::from_matrix(p.w()));
            data.q = Some(vec_of(p.q()));
            data.blocks = Some(p.blocks().iter().map(BlockJson::from_block).collect());
            law = Some(p.kind());
        }
        AnyProblem::Lcp(p) => {
            data.a = Some(MatrixJson::from_matrix(p.a()));
            data.b = Some(vec_of(p.b()));
        }
        AnyProblem::Boxed(p) => {
            data.a = Some(MatrixJson::from_matrix(p.a()));
            data.b = Some(vec_of(p.b()));
            let (mut lo, mut hi, mut dep, mut factor) = (vec![], vec![], vec![], vec![]);
            let finite = |v: f64| if v.is_finite() { Some(v) } else { None };
            for bound in p.row_bounds() {
                match *bound {
                    RowBound::Fixed { lo: l, hi: h } => {
                        lo.push(finite(l));
                        hi.push(finite(h));
                        dep.push(-1);
                        factor.push(0.0);
                    }
                    RowBound::Friction { dep: d, factor: f } => {
                        lo.push(Some(0.0));
                        hi.push(Some(0.0));
                        dep.push(d as i64);
                        factor.push(f);
                    }
                }
            }
            data.lo = Some(lo);
            data.hi = Some(hi);
            data.dep = Some(dep);
            data.factor = Some(factor);
        }
        AnyProblem::Friction(p) => {
            data.w = Some(MatrixJson::from_matrix(p.w()));
            data.q = Some(vec_of(p.q()));
            data.mu = Some(vec_of(p.mu()));
            law = Some(p.kind());
        }
        AnyProblem::Global(p) => {
            data.m = Some(MatrixJson::from_matrix(p.m()));
            data.h = Some(MatrixJson::from_matrix(p.h()));
            data.q = Some(vec_of(p.q()));
            data.b = Some(vec_of(p.b()));
            data.mu = Some(vec_of(p.mu()));
            law = Some(p.kind());
        }
    }
    ProblemFile {
        format: FORMAT_TAG.to_string(),
        version: VERSION,
        name: name.to_string(),
        problem_type: problem.type_name().to_string(),
        law,
        provenance: provenance.clone(),
        data,
        answer: answer.cloned(),
    }
}

/// Serialises a problem to a JSON string.
pub fn to_string(
    name: &str,
    problem: &AnyProblem,
    answer: Option<&EngineAnswer>,
    provenance: &Provenance,
) -> String {
    serde_json::to_string(&to_file(name, problem, answer, provenance))
        .expect("serialising plain data to JSON cannot fail")
}

/// Writes a problem to `path`.
pub fn write(
    path: impl AsRef<Path>,
    name: &str,
    problem: &AnyProblem,
    answer: Option<&EngineAnswer>,
    provenance: &Provenance,
) -> Result<(), IoError> {
    let path = path.as_ref();
    super::write_atomic(
        path,
        (to_string(name, problem, answer, provenance) + "\n").as_bytes(),
    )
}

/// Parses a file's bytes (`path` is only used in messages and for the default name).
pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<LoadedProblem, IoError> {
    let file: ProblemFile =
        serde_json::from_slice(bytes).map_err(|e| super::json_error(path, bytes, &e))?;
    from_file(path, file)
}

impl DataJson {
    /// The keys present, by their names in the file.
    pub fn keys(&self) -> Vec<&'static str> {
        let present = [
            ("A", self.a.is_some()),
            ("W", self.w.is_some()),
            ("M", self.m.is_some()),
            ("H", self.h.is_some()),
            ("b", self.b.is_some()),
            ("q", self.q.is_some()),
            ("mu", self.mu.is_some()),
            ("lo", self.lo.is_some()),
            ("hi", self.hi.is_some()),
            ("dep", self.dep.is_some()),
            ("factor", self.factor.is_some()),
            ("blocks", self.blocks.is_some()),
        ];
        present
            .iter()
            .filter(|(_, p)| *p)
            .map(|(k, _)| *k)
            .collect()
    }

    /// The keys a problem of type `ty` takes (`None` for an unknown type).
    pub fn keys_of(ty: &str) -> Option<&'static [&'static str]> {
        Some(match ty {
            "lcp" => &["A", "b"],
            "boxed-lcp" => &["A", "b", "lo", "hi", "dep", "factor"],
            "fc3d" => &["W", "q", "mu"],
            "gfc3d" => &["M", "H", "q", "b", "mu"],
            "gmp" => &["W", "q", "blocks"],
            _ => return None,
        })
    }
}

fn need<T>(path: &Path, v: Option<T>, key: &str, ty: &str) -> Result<T, IoError> {
    v.ok_or_else(|| {
        IoError::parse(
            path,
            format!("data.{key}"),
            format!("a `{ty}` problem needs `data.{key}`"),
        )
    })
}

/// Turns a parsed [`ProblemFile`] into a validated problem.
pub fn from_file(path: &Path, file: ProblemFile) -> Result<LoadedProblem, IoError> {
    if file.format != FORMAT_TAG {
        return Err(IoError::parse(
            path,
            "format",
            format!("expected \"{FORMAT_TAG}\", found \"{}\"", file.format),
        ));
    }
    if file.version != VERSION {
        return Err(IoError::parse(
            path,
            "version",
            format!(
                "version {} is not supported (this build reads {VERSION})",
                file.version
            ),
        ));
    }
    let ty = file.problem_type.as_str();
    let d = file.data;
    if let Some(allowed) = DataJson::keys_of(ty) {
        if let Some(stray) = d.keys().into_iter().find(|k| !allowed.contains(k)) {
            let hint = if ty == "gmp" && stray == "mu" {
                "; a gmp problem's friction coefficients are its contact blocks' `mu`"
            } else {
                ""
            };
            return Err(IoError::parse(
                path,
                format!("data.{stray}"),
                format!(
                    "`data.{stray}` does not belong to a `{ty}` problem, whose data are {}{hint}",
                    allowed.join(", ")
                ),
            ));
        }
        if matches!(ty, "lcp" | "boxed-lcp") && file.law.is_some() {
            return Err(IoError::parse(
                path,
                "law",
                format!(
                    "a `{ty}` problem has no friction law; `law` applies to fc3d, gfc3d and gmp"
                ),
            ));
        }
    }
    let prob = |e| IoError::new(path, IoErrorKind::Problem(e));
    // Every matrix dimension equals the length of a vector stored in the file: check the
    // declared shape against it *before* building, so that a triplet matrix declaring
    // 10^12 rows with no entries is an error, not a 10^12-row allocation.
    // `vkey` names the vector whose length gives the expected size: when a square matrix
    // and that vector disagree, both are named (a short `q` is not `W`'s fault).
    let mat = |m: Option<MatrixJson>,
               key: &'static str,
               want: (usize, usize),
               vkey: &str|
     -> Result<Matrix, IoError> {
        let m = need(path, m, key, ty)?;
        let got = m.shape();
        if got != want {
            if key != "H" && got.0 != got.1 {
                return Err(prob(crate::problem::ProblemError::NotSquare {
                    what: key,
                    rows: got.0,
                    cols: got.1,
                }));
            }
            let (size, vkey) = if key == "H" && got.0 == want.0 {
                (want.1, "b")
            } else {
                (want.0, vkey)
            };
            return Err(IoError::parse(
                path,
                format!("data.{vkey}"),
                format!(
                    "data.{vkey} has {size} entries, but data.{key} is {} x {}; they must agree \
                     (one entry of {vkey} per {} of {key})",
                    got.0,
                    got.1,
                    if key == "H" && vkey == "b" {
                        "column"
                    } else {
                        "row"
                    }
                ),
            ));
        }
        m.to_matrix(key)
            .map_err(|msg| IoError::parse(path, format!("data.{key}"), msg))
    };
    let vect = |v: Option<Vec<f64>>, key: &str| -> Result<DVector<f64>, IoError> {
        Ok(DVector::from_vec(need(path, v, key, ty)?))
    };
    let law = file.law.unwrap_or_default();
    let problem = match ty {
        "lcp" => {
            let b = vect(d.b, "b")?;
            let n = b.len();
            AnyProblem::Lcp(Lcp::new(mat(d.a, "A", (n, n), "b")?, b).map_err(prob)?)
        }
        "boxed-lcp" => {
            let b = vect(d.b, "b")?;
            let n = b.len();
            let a = mat(d.a, "A", (n, n), "b")?;
            let lo: Vec<f64> = need(path, d.lo, "lo", ty)?
                .into_iter()
                .map(|v| v.unwrap_or(f64::NEG_INFINITY))
                .collect();
            let hi: Vec<f64> = need(path, d.hi, "hi", ty)?
                .into_iter()
                .map(|v| v.unwrap_or(f64::INFINITY))
                .collect();
            let dep = need(path, d.dep, "dep", ty)?;
            let factor = need(path, d.factor, "factor", ty)?;
            AnyProblem::Boxed(
                BoxedLcp::from_opentissue(a, b, &lo, &hi, &dep, &factor).map_err(prob)?,
            )
        }
        "fc3d" => {
            let q = vect(d.q, "q")?;
            let n = q.len();
            AnyProblem::Friction(
                FrictionContact::new(mat(d.w, "W", (n, n), "q")?, q, vect(d.mu, "mu")?, law)
                    .map_err(prob)?,
            )
        }
        "gfc3d" => {
            let q = vect(d.q, "q")?;
            let b = vect(d.b, "b")?;
            let (ndof, dim) = (q.len(), b.len());
            AnyProblem::Global(
                GlobalFrictionContact::new(
                    mat(d.m, "M", (ndof, ndof), "q")?,
                    mat(d.h, "H", (ndof, dim), "q")?,
                    q,
                    b,
                    vect(d.mu, "mu")?,
                    law,
                )
                .map_err(prob)?,
            )
        }
        "gmp" => {
            let q = vect(d.q, "q")?;
            let n = q.len();
            let list = need(path, d.blocks, "blocks", ty)?;
            let mut blocks = Vec::with_capacity(list.len());
            let mut rows = 0usize;
            for (b, bj) in list.iter().enumerate() {
                let block = bj
                    .to_block(b)
                    .map_err(|m| IoError::parse(path, format!("data.blocks[{b}]"), m))?;
                rows = rows.saturating_add(block.dim());
                blocks.push(block);
            }
            if rows != n {
                return Err(IoError::parse(
                    path,
                    "data.blocks",
                    format!(
                        "the {} blocks hold {rows} rows, but data.q has {n} entries; they \
                         must agree (a contact block holds 1 + mu.len() rows, the others 1)",
                        blocks.len()
                    ),
                ));
            }
            let w = mat(d.w, "W", (n, n), "q")?;
            AnyProblem::Generic(GenericMechanical::new(w, q, blocks, law).map_err(prob)?)
        }
        other => {
            return Err(IoError::parse(
                path,
                "type",
                format!(
                    "unknown problem type \"{other}\" (expected lcp, boxed-lcp, fc3d, gfc3d \
                     or gmp)"
                ),
            ));
        }
    };
    if let Some(ans) = &file.answer {
        ans.validate(problem.dim()).map_err(prob)?;
    }
    file.provenance
        .check_pyramid(&problem)
        .map_err(|e| IoError::parse(path, "provenance.pyramid", e.to_string()))?;
    let labels = file.provenance.labels.len();
    let contacts = file.provenance.contacts_of(&problem);
    if labels != 0 && labels != contacts {
        return Err(IoError::parse(
            path,
            "provenance.labels",
            format!(
                "{labels} labels for {} {}; give one label per {} or none",
                contacts,
                if ty == "gmp" { "blocks" } else { "contacts" },
                if ty == "gmp" { "block" } else { "contact" },
            ),
        ));
    }
    Ok(LoadedProblem {
        path: path.to_path_buf(),
        name: file.name,
        format: Format::Json,
        problem,
        answer: file.answer,
        warm_start: None,
        provenance: file.provenance,
        warnings: Vec::new(),
        elliptic: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_is_exact() {
        let w = Matrix::from_triplets(
            3,
            3,
            &[
                (0, 0, 0.1 + 0.2),
                (1, 1, 1.0 / 3.0),
                (2, 2, 2.0),
                (0, 2, -1e-300),
            ],
        )
        .unwrap();
        let fc = FrictionContact::new(
            w,
            DVector::from_vec(vec![-1.0, 0.25, 1e-17]),
            DVector::from_vec(vec![0.3]),
            FrictionKind::Ccp,
        )
        .unwrap();
        let answer = EngineAnswer {
            source: "test".into(),
            r: vec![1.0, 0.0, 0.0],
            u: None,
        };
        let s = to_string(
            "t",
            &AnyProblem::Friction(fc.clone()),
            Some(&answer),
            &Provenance::default(),
        );
        let back = from_bytes(Path::new("t.json"), s.as_bytes()).unwrap();
        match back.problem {
            AnyProblem::Friction(p) => assert_eq!(p, fc),
            _ => panic!("wrong type"),
        }
        assert_eq!(back.answer, Some(answer));
    }

    #[test]
    fn malformed_input_is_an_error() {
        for text in [
            "",
            "{",
            "{\"format\": 3}",
            "[1,2]",
            "{\"format\":\"nonsmooth-problem\",\"version\":1,\"name\":\"x\",\"type\":\"fc3d\",\"data\":{}}",
        ] {
            assert!(
                from_bytes(Path::new("x.json"), text.as_bytes()).is_err(),
                "{text}"
            );
        }
    }

    /// Issue 14: the hand-written matrix reader accepts what the derived one did (keys in
    /// any order, unknown keys ignored, the sequence form) and gives its messages.
    #[test]
    fn matrix_reader_keeps_the_derived_behaviour() {
        let read = |t: &str| serde_json::from_str::<MatrixJson>(t).map_err(|e| e.to_string());
        let want = MatrixJson::Triplets {
            nrows: 2,
            ncols: 2,
            entries: vec![(1, 0, 2.5)],
        };
        for t in [
            r#"{"storage": "triplets", "nrows": 2, "ncols": 2, "entries": [[1, 0, 2.5]]}"#,
            r#"{"entries": [[1, 0, 2.5]], "ncols": 2, "nrows": 2, "storage": "triplets"}"#,
            r#"["triplets", 2, 2, [[1, 0, 2.5]]]"#,
        ] {
            assert_eq!(read(t).as_ref(), Ok(&want), "{t}");
        }
        let dense = read(r#"{"storage": "dense", "nrows": 1, "ncols": 1, "rows": [[3]]}"#);
        assert_eq!(
            dense,
            Ok(MatrixJson::Dense {
                nrows: 1,
                ncols: 1,
                rows: vec![vec![3.0]]
            })
        );
        // issue 28: a key that does not belong is an error, never ignored (it was)
        for (t, msg) in [
            (
                r#"{"storage": "triplets", "rows": "ignored", "nrows": 2, "ncols": 2, "entries": [[1, 0, 2.5]]}"#,
                "`rows` does not belong to a matrix stored as triplets",
            ),
            (
                r#"{"storage": "triplets", "x": {}, "nrows": 2, "ncols": 2, "entries": [[1, 0, 2.5]]}"#,
                "unknown field `x`",
            ),
            (
                r#"{"storage": "dense", "entries": 7, "nrows": 1, "ncols": 1, "rows": [[3]]}"#,
                "`entries` does not belong to a matrix stored as dense",
            ),
            (
                r#"{"entries": [[0, 0, 1]], "nrows": 1, "ncols": 1, "rows": [[3]], "storage": "dense"}"#,
                "`entries` does not belong to a matrix stored as dense",
            ),
        ] {
            let e = read(t).unwrap_err();
            assert!(e.contains(msg), "{t}: {e}");
        }
        for (t, msg) in [
            (
                r#"{"nrows": 1, "ncols": 1, "rows": [[1]]}"#,
                "missing field `storage`",
            ),
            (
                r#"{"storage": "csr", "nrows": 1}"#,
                "unknown variant `csr`, expected `triplets` or `dense`",
            ),
            (
                r#"{"storage": "dense", "ncols": 1, "rows": [[1]]}"#,
                "missing field `nrows`",
            ),
            (
                r#"{"storage": "triplets", "nrows": 1, "ncols": 1}"#,
                "missing field `entries`",
            ),
            (
                r#"{"storage": "dense", "storage": "dense"}"#,
                "duplicate field `storage`",
            ),
            (
                r#"{"storage": "triplets", "nrows": 1, "ncols": 1, "entries": [[0, 0, "x"]]}"#,
                "invalid type: string \"x\", expected f64",
            ),
            (
                r#"{"storage": "triplets", "nrows": -1}"#,
                "invalid value: integer `-1`, expected usize",
            ),
            (
                "5",
                "invalid type: integer `5`, expected internally tagged enum MatrixJson",
            ),
        ] {
            let e = read(t).unwrap_err();
            assert!(e.contains(msg), "{t}: {e}");
        }
    }

    /// Regression (issue 8): a short `q` was blamed on `W`; `1e999` was not named.
    #[test]
    fn messages_name_the_field_at_fault() {
        let text = r#"{"format": "nonsmooth-problem", "version": 1, "name": "x", "type": "fc3d", "data": {"W": {"storage": "dense", "nrows": 3, "ncols": 3, "rows": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}, "q": [-1, 0.5], "mu": [0.3]}}"#;
        let e = from_bytes(Path::new("x.json"), text.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("data.q has 2 entries, but data.W is 3 x 3"),
            "{e}"
        );
        let text = r#"{"format": "nonsmooth-problem", "version": 1, "name": "x", "type": "lcp", "data": {"A": {"storage": "dense", "nrows": 1, "ncols": 1, "rows": [[1]]}, "b": [1e999]}}"#;
        let e = from_bytes(Path::new("x.json"), text.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(e.contains("`1e999` is beyond the largest"), "{e}");
    }
}
