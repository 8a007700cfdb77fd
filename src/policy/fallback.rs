//! The hybrid fallback of the semismooth Newton method on the friction cone: what a Newton
//! iteration does when its line search finds no acceptable step.
//!
//! The cone Newton method ([`crate::newton::cone_newton`]) has no global convergence
//! guarantee: far from the answer its local model may point nowhere useful, and the line
//! search then rejects every step length. Acary, Bremond and Huber (2018) make it robust by
//! a *hybrid* globalisation: a few sweeps of the blocked (nonsmooth) Gauss-Seidel method,
//! which always make progress on these problems, then Newton again. The other choice is
//! the classical one: a backtracking step along the gradient of the merit function
//! `ψ = ½‖Φ‖²`. [`Fallback::of`] reads the choice from
//! [`crate::newton::ConeNewtonOptions::gs_sweeps`].

/// What the cone Newton method does in an iteration whose line search failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// `sweeps` exact blocked Gauss-Seidel sweeps from the current iterate (the hybrid
    /// globalisation of Acary, Bremond, Huber 2018), after which the line search's memory
    /// is cleared: the merit values before the sweeps no longer compare.
    GaussSeidel {
        /// Sweeps per failed iteration (`>= 1`).
        sweeps: usize,
    },
    /// A backtracking step along `-∇ψ = -H^T Φ` with the Armijo test (Nocedal and Wright
    /// 2006 §3.1).
    Gradient,
}

impl Fallback {
    /// The fallback of `gs_sweeps` Gauss-Seidel sweeps, or the gradient step for `0`.
    pub fn of(gs_sweeps: usize) -> Fallback {
        match gs_sweeps {
            0 => Fallback::Gradient,
            sweeps => Fallback::GaussSeidel { sweeps },
        }
    }
}
