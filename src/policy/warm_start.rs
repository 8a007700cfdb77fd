//! Warm starting: the first iterate of a solve taken from an earlier answer.
//!
//! In a simulation the contact problems of consecutive time steps are close: most contacts
//! persist, and their impulses change little. Starting each solve from the previous step's
//! impulses of the contacts that persist (Erleben 2007 §3, Silcowitz et al. 2009 §3: "a
//! previous solution" as the start) saves most of the iterations a cold start (zeros)
//! spends finding the contact states. A contact that is new starts at zero, the cold start
//! of its rows; a contact that ended is dropped.
//!
//! Contacts are matched by a stable identity (the pair of bodies and the features that
//! touch, as the collision detection reports it), never by position in the list: contact
//! lists are reordered between steps.
//!
//! Checked by `tests/laws/warm_start.rs`.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;

use nalgebra::DVector;

use crate::problem::{ProblemError, check_finite_vec, check_len};

/// A warm start given as a whole vector (`dim` entries: an answer file, the answer a
/// problem file carries): checked to have the problem's length and finite entries.
///
/// # Errors
/// [`ProblemError::DimensionMismatch`] for a wrong length, [`ProblemError::NonFinite`] for
/// a NaN or an infinity (a start that is not finite would make every method's first
/// iterate meaningless).
pub fn given(x: Vec<f64>, dim: usize) -> Result<DVector<f64>, ProblemError> {
    check_len("the warm start", dim, x.len())?;
    check_finite_vec("the warm start", &x)?;
    Ok(DVector::from_vec(x))
}

/// The warm start of the current step from the previous step's answer, contact by contact.
///
/// `previous[c]` is the identity of contact `c` of the previous step, whose `rows` entries
/// `r_prev[rows c .. rows (c + 1)]` are its impulse; `current` lists the identities of the
/// current step's contacts. Returns `rows * current.len()` entries: a persisting contact
/// gets its previous impulse unchanged, a new contact zeros.
///
/// `rows` is the number of rows per contact (3 for `[n, t1, t2]`, 1 for frictionless
/// contacts, 4 with a torsion row). An identity that appears twice in `previous` takes the
/// last impulse given for it.
///
/// # Errors
/// [`ProblemError::DimensionMismatch`] if `r_prev` does not have `rows * previous.len()`
/// entries; [`ProblemError::NonFinite`] if it has a NaN or an infinity.
///
/// # Example
/// ```
/// use nonsmooth::policy::warm_start::by_identity;
/// // Contact "a" persists (now second), "b" ended, "c" is new.
/// let r = by_identity(&["a", "b"], &[1.0, 0.1, 0.2, 2.0, 0.0, 0.0], &["c", "a"], 3).unwrap();
/// assert_eq!(r.as_slice(), &[0.0, 0.0, 0.0, 1.0, 0.1, 0.2]);
/// ```
pub fn by_identity<K: Eq + Hash>(
    previous: &[K],
    r_prev: &[f64],
    current: &[K],
    rows: usize,
) -> Result<DVector<f64>, ProblemError> {
    check_len("the previous answer", rows * previous.len(), r_prev.len())?;
    check_finite_vec("the previous answer", r_prev)?;
    let at: HashMap<&K, usize> = previous.iter().enumerate().map(|(c, k)| (k, c)).collect();
    Ok(by_index(&at, r_prev, current, rows))
}

/// [`by_identity`] with the previous contacts already indexed: `at` maps the identity of
/// each previous contact to its place `p`, whose impulse is `r_prev[rows p .. rows (p + 1)]`
/// (a simulation keeps this index from step to step instead of rebuilding it for every
/// solve). Returns `rows * current.len()` entries, zeros for identities `at` does not hold.
///
/// # Panics
/// If `at` holds a place beyond `r_prev` (`rows (p + 1) > r_prev.len()`); [`by_identity`]
/// checks its inputs and cannot build such an index.
pub fn by_index<K, Q>(
    at: &HashMap<K, usize>,
    r_prev: &[f64],
    current: &[Q],
    rows: usize,
) -> DVector<f64>
where
    K: Borrow<Q> + Eq + Hash,
    Q: Eq + Hash,
{
    // ANCHOR: by_identity
    let mut r = DVector::zeros(rows * current.len());
    for (c, k) in current.iter().enumerate() {
        if let Some(&p) = at.get(k) {
            r.rows_mut(rows * c, rows)
                .copy_from_slice(&r_prev[rows * p..rows * (p + 1)]);
        }
    }
    // ANCHOR_END: by_identity
    r
}
