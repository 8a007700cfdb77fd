//! The semi-staggered start (Silcowitz, Niebe, Erleben 2009 §3): a first phase that solves
//! the problem with friction switched off, then the full problem from there.
//!
//! Friction bounds depend on the normal impulses (`|x_t| <= μ x_n`). From a cold start the
//! normal impulses are wrong, so the friction bounds are too, and Newton's first steps on
//! the full problem chase bounds that move under them. Solving the frictionless problem
//! first (every friction row pinned to zero) settles the normal impulses; switching
//! friction on then starts the full solve from good bounds. [`Start`] is the choice (in
//! [`crate::newton::FischerNewtonOptions::start`]), [`FirstPhase`] the first phase as it
//! runs: it ends when its residual reaches the threshold, when it stalls, or at its cap.
//!
//! Checked by `tests/laws/semi_staggered.rs`.

/// Where a Fischer-Newton solve starts.
///
/// In options files and `key=value` settings: `"given"`, or
/// `{"semi-staggered": {"threshold": 1e-6, "max_iter": 30}}` (both fields required: the
/// threshold is absolute and has no scale-free default).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Start {
    /// From the `x` passed in: zeros for a cold start, a previous solution (the last time
    /// step's) for a warm start. The default.
    Given,
    /// Semi-staggered (Silcowitz et al. 2009 §3): from the `x` passed in, first solve with
    /// every friction row pinned to zero ([`Rows::without_friction`](crate::newton::Rows::without_friction)) until the Fischer
    /// residual of that problem `‖Phi‖` is at most `threshold` (absolute, in the units of
    /// `x` and `w`) or `max_iter` iterations were spent on it, then switch friction on and
    /// solve the full problem from there. Iterations of both phases count toward
    /// [`Params::max_iter`](crate::solver::Params::max_iter). For an LCP (no friction rows) it is the same as `Given`.
    SemiStaggered {
        /// Absolute threshold on `‖Phi‖` of the frictionless problem (`>= 0`, in the units
        /// of `x` and `w`; the book uses `1e-6 ‖b‖`).
        threshold: f64,
        /// Iteration cap of the first phase (the book uses 30).
        max_iter: usize,
    },
}

impl std::str::FromStr for Start {
    type Err = String;

    /// `given`; the semi-staggered start needs its fields (see [`Start`]).
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "given" => Ok(Start::Given),
            "semi-staggered" => Err("the semi-staggered start needs its threshold and \
                 iteration cap: {\"semi-staggered\": {\"threshold\": T, \"max_iter\": N}}"
                .into()),
            other => Err(format!(
                "unknown start `{other}` (expected given or semi-staggered)"
            )),
        }
    }
}

/// The first phase of a semi-staggered start, as it runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FirstPhase {
    threshold: f64,
    max_iter: usize,
    spent: usize,
}

impl FirstPhase {
    /// The first phase `start` asks for, if there is one: only a semi-staggered start of a
    /// problem that has friction rows has it (without friction it is the whole problem).
    pub fn of(start: Start, has_friction: bool) -> Option<FirstPhase> {
        match start {
            Start::SemiStaggered {
                threshold,
                max_iter,
            } if has_friction => Some(FirstPhase {
                threshold,
                max_iter,
                spent: 0,
            }),
            _ => None,
        }
    }

    /// Counts one iteration of the first phase, after which the frictionless residual is
    /// `residual` (`‖Phi‖`, absolute) and the iteration `stalled` or not; `true` when the
    /// phase ends there: the residual is at most the threshold, the iteration stalled (a
    /// stall of the first phase is not the end of the solve), or the cap is spent.
    pub fn ends_after(&mut self, residual: f64, stalled: bool) -> bool {
        self.spent += 1;
        residual <= self.threshold || stalled || self.spent >= self.max_iter
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_phase_ends_at_threshold_stall_or_cap() {
        let start = Start::SemiStaggered {
            threshold: 1e-6,
            max_iter: 3,
        };
        assert_eq!(
            FirstPhase::of(start, false),
            None,
            "no friction, no first phase"
        );
        assert_eq!(FirstPhase::of(Start::Given, true), None);
        let mut p = FirstPhase::of(start, true).unwrap();
        assert!(!p.ends_after(1.0, false) && !p.ends_after(1.0, false));
        assert!(p.ends_after(1.0, false), "the cap of 3");
        let mut p = FirstPhase::of(start, true).unwrap();
        assert!(
            p.ends_after(1e-7, false) && FirstPhase::of(start, true).unwrap().ends_after(1.0, true)
        );
    }
}
