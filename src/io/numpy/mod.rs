//! NumPy exchange: a problem as named `float64` / `int64` arrays, for Python.
//!
//! A Python user writes the arrays with `numpy.save` into a folder, or with `numpy.savez`
//! into one `.npz` archive, and points `nonsmooth` at it; the writers produce the same
//! layouts for a problem the crate made, read back with `numpy.load`. Arrays are `float64`
//! (`dep`, `blocks`, `mu_len` are `int64`), little- or big-endian, C or Fortran order.
//!
//! | file | holds |
//! |---|---|
//! | [`header`] | the `.npy` format: the header lexer, the array decoders and writer |
//! | [`meta`] | the metadata object (`meta.json`, the `meta` member): one serde schema |
//! | [`assemble`] | a problem from named arrays and a problem as named arrays: the layout below, written once |
//! | [`folder`] | the NumPy folder (`W.npy`, `q.npy`, ..., `meta.json`): reader and writer |
//! | [`npz`] | the `.npz` archive, sparse matrices as CSR members: reader and writer |
//!
//! The layout (in a folder each array `X` is the file `X.npy`; in an archive the member
//! `X.npy`, or for a sparse matrix the four CSR members of [`npz`]):
//!
//! | problem | files | shapes |
//! |---|---|---|
//! | fc3d | `W.npy`, `q.npy`, `mu.npy` | `(3nc, 3nc)`, `(3nc,)`, `(nc,)` |
//! | gfc3d | `M.npy`, `H.npy`, `q.npy`, `b.npy`, `mu.npy` | `(ndof, ndof)`, `(ndof, 3nc)`, `(ndof,)`, `(3nc,)`, `(nc,)` |
//! | LCP | `A.npy`, `b.npy` | `(n, n)`, `(n,)` |
//! | boxed LCP | `A.npy`, `b.npy`, `lo.npy`, `hi.npy`, `dep.npy`, `factor.npy` | `(n, n)`, then `(n,)` each; `±inf` bounds allowed; `dep = -1` for fixed bounds |
//! | gmp | `W.npy`, `q.npy`, `blocks.npy`, `lo.npy`, `hi.npy`, `mu.npy`, `mu_len.npy` | `(n, n)`, `(n,)`, then `(nb,)` for `blocks`, `lo`, `hi`, `mu_len`, and `(Σ mu_len,)` for `mu` |
//!
//! A generic mechanical problem ([`GenericMechanical`](crate::problem::GenericMechanical), `nb` blocks) stores its blocks as
//! arrays, one entry per block: `blocks` (`int64`) holds the law's code, `0` equality,
//! `1` unilateral, `2` interval, `3` contact ([`BLOCK_CODES`](assemble::BLOCK_CODES)); `lo` and `hi` the bounds on
//! `r` (an interval's own, `±inf` allowed; the others hold the bounds their law implies
//! and the reader checks them: `-inf, +inf` for an equality, `0, +inf` for a unilateral
//! block and a contact's normal row); `mu_len` (`int64`) the number of tangential rows
//! (`0` for all but contacts, at least `1` for a contact), and `mu` every contact's
//! coefficients one after the other (`Σ mu_len` entries). A contact block holds
//! `1 + mu_len` rows, the others one. The presence of `blocks.npy` beside `W.npy` makes the
//! folder a gmp problem.
//!
//! Optional: `r.npy` (an engine's answer, `(3nc,)` or `(n,)`), `u.npy` (its velocity), and
//! `meta.json`, a JSON object with any of the keys `name` (default: the folder's
//! name), `law` (`"coulomb"` or `"ccp"`, the friction law of an fc3d, gfc3d or gmp
//! problem), `source` (who made it; also the answer's source when there is no
//! `answer_source`), `description`, `answer_source` (who computed `r`), `units` (an object
//! of strings, for example `{"r": "N s", "u": "m/s"}`) and `labels` (one string per
//! contact, or per block of a gmp problem). Any other key is an
//! error, so that a misspelt `law` is not silently read as Coulomb. A friction problem
//! without a `law` (no `meta.json`, or one without the key, or `null`) is read as Coulomb
//! with a warning in [`LoadedProblem::warnings`](crate::io::LoadedProblem::warnings) that says so; a `law` in the folder of an
//! LCP or a boxed LCP is ignored with a warning.

pub mod assemble;
pub mod folder;
pub mod header;
pub mod meta;
pub mod npz;
pub mod rollout;

#[cfg(test)]
mod tests;
