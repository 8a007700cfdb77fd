//! Splitting methods: projected Jacobi, Gauss-Seidel and SOR for the LCP and the boxed
//! LCP, the blocked (per-contact) nonsmooth Gauss-Seidel for frictional contact, and its
//! velocity-space form for global problems.
//!
//! # The derivation (Erleben 2009 slides eq. 20-37)
//!
//! Split `A = M - N` with `M` easy to invert. With `c^k = b - N x^k`, the LCP
//! `0 <= x ⊥ A x + b >= 0` becomes the fixed-point problem "`x^{k+1}` solves
//! `LCP(M, c^k)`" (eq. 21). By the minimum map, `min(x, M x + c) = 0`; subtracting `x` and
//! negating gives `x = max(0, x - M x - c)` (eq. 26-28), and for triangular `M` the
//! subproblem is solved exactly by one forward pass that projects each component as soon
//! as it is computed (eq. 29-34). Writing `A = L + D + U` (strictly lower, diagonal,
//! strictly upper):
//!
//! | method | `M` | `N` | one row of the sweep |
//! |---|---|---|---|
//! | projected Jacobi | `D / ω` | `M - A` | `x_i ← P_i(x_i - ω (A x^k + b)_i / A_ii)`, all rows from the old `x^k` |
//! | projected Gauss-Seidel | `D + L` | `-U` | `x_i ← P_i(x_i - (A x + b)_i / A_ii)`, rows above already updated |
//! | projected SOR | `D / ω + L` | `(1/ω - 1) D - U` | `x_i ← P_i(x_i - ω (A x + b)_i / A_ii)`, rows above already updated |
//!
//! `P_i` projects onto row `i`'s feasible interval: `[0, ∞)` for the LCP, `[lo_i, hi_i]`
//! for the boxed LCP, where a friction row's interval follows the current value of its
//! normal row (Erleben 2007 eq. 28-30). (The slides write `A = D - L - U` and scale the SOR
//! splitting by `ω`; the sweep is the same.)
//!
//! The blocked Gauss-Seidel ([`blocked_gauss_seidel`]) takes one contact (three rows) at a
//! time and solves its 3x3 frictional problem exactly ([`solve_contact`]) instead of
//! projecting row by row.
//!
//! Its velocity-space form ([`VelocityGaussSeidel`], [`Vgs`]) also sweeps in parallel:
//! [`ContactColouring`] colours blocks of consecutive contacts so that no two blocks of one
//! colour share a body, and [`VgsPrepared::sweep_coloured`] sweeps the blocks of a colour at
//! once (option `parallel` of [`VgsOptions`]).

mod blocked;
mod colour;
pub mod contact;
mod lcp;
mod packed;
mod velocity;

pub(crate) use blocked::{BlockRows, SeenMatrix};
pub use blocked::{BlockedGaussSeidel, Nsgs, NsgsOptions, NsgsPrepared, blocked_gauss_seidel};
pub use colour::{Colouring, ContactColouring, MAX_MASK_COLOURS};
pub use contact::{ContactCase, ContactSolution, solve_contact};
pub use lcp::{
    PgsOptions, PjOptions, ProjectedSplitting, PsorOptions, Splitting, SplittingOptions,
    SplittingPrepared, SweptProblem, solve_boxed, solve_lcp, splitting_matrices, sweep_boxed,
    sweep_lcp,
};
pub use velocity::{
    DEFAULT_COLOUR_BLOCK, VelocityGaussSeidel, Vgs, VgsOptions, VgsPrepared, VgsState,
    velocity_gauss_seidel,
};
