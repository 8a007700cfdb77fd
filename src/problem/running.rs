//! The book's running example: a heavy box pushed sideways on a light box that rests on the
//! ground, reduced to one contact per pair of touching bodies and to the boxes'
//! translations. Every method chapter of the book solves this one problem and shows its
//! iterates (`examples/running_example.rs`).
//!
//! # The physical picture and its numbers
//!
//! * A light box of mass `m = 1` kg rests on the ground; a heavy box of mass `M = 4` kg
//!   rests on it. Both are at rest at the start of a step of `h = 0.1` s, under gravity
//!   `g = 10` m/s² (rounded, so that `g h = 1` m/s).
//! * A horizontal push on the heavy box gives it the impulse `(1.2, 1.6)` N s over the
//!   step (magnitude 2 N s), so its free velocity gains `(0.3, 0.4)` m/s.
//! * Contact 1 is the light box on the ground (`mu_1 = 0.5`), contact 2 the heavy box on the
//!   light box (`mu_2 = 0.2`). Each has the normal `+z` and the tangents `x`, `y`; contact
//!   2's relative velocity is the heavy box's velocity minus the light box's, and its
//!   impulse acts on the heavy box (the light box gets its opposite).
//! * The boxes only translate (their rotations are left out), so with the body velocities
//!   `v = (v_light, v_heavy)` the contact Jacobian is `H^T = [[I, 0], [-I, I]]` (3x3 blocks)
//!   and the Delassus operator `W = H^T M^-1 H` is
//!   `[[1/m, -1/m], [-1/m, 1/m + 1/M]] ⊗ I_3 = [[1, -1], [-1, 1.25]] ⊗ I_3` (1/kg).
//! * The free velocity is `q = [-1, 0, 0, 0, 0.3, 0.4]` m/s: the light box falls at
//!   `g h = 1` m/s into the ground; the two boxes fall together, so contact 2's free normal
//!   velocity is 0, and its tangential one is the push.
//!
//! # The solution (by hand)
//!
//! The push (2 N s) exceeds what friction on the light box can hold (`mu_2 r_n2 = 0.8` N s
//! with `r_n2 = M g h = 4` N s), so the heavy box slides; the light box is then pulled by
//! 0.8 N s, less than the ground holds (`mu_1 r_n1 = 2.5` N s with `r_n1 = (m + M) g h = 5`
//! N s), so it sticks. The slide opposes the slip direction `(0.6, 0.8)`:
//!
//! ```text
//! r = [5, -0.48, -0.64,   4, -0.48, -0.64]   (N s)
//! u = [0,  0,     0,      0,  0.18,  0.24]   (m/s)
//! ```
//!
//! Contact 1 sticks with `||r_t1|| = 0.8 < 2.5`, contact 2 slides at 0.3 m/s with
//! `||r_t2|| = 0.8 = mu_2 r_n2`. [`running_example_solution`] returns this `r`;
//! `tests/laws/running_example.rs` checks that it solves the problem and that every method
//! of the book ends there.

use nalgebra::{DMatrix, DVector};

use super::{FrictionContact, FrictionKind};

/// The running example's problem: 2 contacts, 6 unknowns, `W` (6x6, 1/kg), `q` (6, m/s),
/// `mu = [0.5, 0.2]`, Coulomb friction in De Saxcé's form. See the [module docs](self) for
/// where each number comes from.
///
/// ```
/// let p = nonsmooth::problem::running_example();
/// assert_eq!((p.contacts(), p.dim()), (2, 6));
/// ```
pub fn running_example() -> FrictionContact {
    // [[1/m, -1/m], [-1/m, 1/m + 1/M]] with m = 1 kg, M = 4 kg, times the 3x3 identity
    let a = [[1.0, -1.0], [-1.0, 1.25]];
    let w = DMatrix::from_fn(
        6,
        6,
        |i, j| {
            if i % 3 == j % 3 { a[i / 3][j / 3] } else { 0.0 }
        },
    );
    let q = DVector::from_row_slice(&[-1.0, 0.0, 0.0, 0.0, 0.3, 0.4]);
    let mu = DVector::from_row_slice(&[0.5, 0.2]);
    FrictionContact::new(w.into(), q, mu, FrictionKind::Coulomb)
        .expect("the running example is a valid problem")
}

/// The exact solution of [`running_example`], worked out by hand in the [module docs](self):
/// `r = [5, -0.48, -0.64, 4, -0.48, -0.64]` N s (contact 1 sticks, contact 2 slides).
pub fn running_example_solution() -> DVector<f64> {
    DVector::from_row_slice(&[5.0, -0.48, -0.64, 4.0, -0.48, -0.64])
}
