//! The proximal operator model of contact and the PROX schemes (Erleben 2017, §3-4.2,
//! Algorithms 1-2).
//!
//! | item | what | source |
//! |---|---|---|
//! | [`ContactLaw`] | a contact's convex set (half-line, box, disk, ellipse, Coulomb-Contensou ellipsoid, CCP cone), its proximal map and natural map | eq. 1-10, 14-16, 20-21 |
//! | [`ProxProblem`] | `v = A λ + b` with one law per contact, local (`A` given) or global (`A = H^T M^-1 H` never formed); restitution in `b` | eq. 12-19 |
//! | [`ProxMethod`], [`prox_solve`] | PROX Jacobi and Gauss-Seidel with adaptive backtracking of the r-factors, one sweep per iteration of the crate's solver loop ([`crate::solver::Method`]); [`Prox`] sweeps by hand | Algorithms 1-2, eq. 22-27 |
//! | [`ProxOptions`], [`ProxStats`] | scheme, r-factors, `ν`, divergence window, step tests; sweeps, rollbacks, why it stopped | §4, §4.2 |
//! | [`RFactor`] | Global (constant, or spectral), Local, Blocked, and the paper's matrix Blocked | §4.2, eq. 39-40 |
//!
//! # The model in one paragraph
//! A contact's reaction satisfies its law exactly when it is a fixed point of the
//! projection onto the law's set, `λ = prox_C(λ - r v)` for any `r > 0` (eq. 3, 9, 20).
//! Iterating that map is the PROX scheme: Jacobi updates every contact from the previous
//! iterate, Gauss-Seidel one contact at a time from the latest values. A small `r`
//! converges slowly, a large one may diverge; the adaptive strategy rolls a sweep back and
//! shrinks `r` by `ν` whenever the step `‖λ^{k+1} - λ^k‖_∞` grows.
//!
//! # One scalar per set
//! The fixed point is the contact law only when each factor of the set
//! ([`ContactLaw::factors`]) carries a positive *scalar* `r`. Erleben 2017's Blocked
//! strategy (eq. 40) puts the matrix `A_FF^-1` on the friction rows; on a disk its fixed
//! point makes friction oppose `A_FF^-1 v_F` rather than the slip `v_F`, which is not
//! maximal dissipation. [`RFactor::Blocked`] is therefore one scalar per factor taken from
//! the factor's block; the paper's matrix version is [`RFactor::BlockedMatrix`], kept to
//! show what it converges to (the book chapter *PROX experiments*).
//!
//! # Relation to projected Gauss-Seidel
//! With the box law, fixed local r-factors `1 / A_ii` (or `ω / A_ii`) and Gauss-Seidel over
//! single rows ([`Blocks::Factor`]), a PROX sweep is a projected Gauss-Seidel (SOR) sweep
//! of the friction-box model ([`crate::splitting::sweep_boxed`]); `tests/laws/prox_pgs.rs`
//! checks that the iterates agree.
//!
//! Checked by `tests/laws/prox_pgs.rs`.

mod operator;
mod options;
mod problem;
mod rfactor;
mod solver;
mod sweep;

pub use crate::problem::ContactLaw;
pub use options::{Blocks, ProxOptions, ProxStats, RECOMMENDED_WINDOW, Scheme, StopReason};
pub use problem::ProxProblem;
pub use rfactor::RFactor;
pub use solver::{Prox, ProxMethod, ProxPrepared, prox_solve};
pub use sweep::ProxState;
