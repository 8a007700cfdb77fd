//! Globalisation: the descent test and Armijo backtracking (Silcowitz, Niebe, Erleben 2009
//! eq. 35-39; Nocedal and Wright 1999 §3.1; Niebe and Erleben 2015 for the projected form).

/// Armijo backtracking: starting from a step `alpha_0`, accept the first
/// `alpha = alpha_0 shrink^t` with
///
/// ```text
/// merit(x(alpha)) <= merit(x) + c alpha slope,     slope = grad merit(x)^T d < 0,
/// ```
///
/// where `x(alpha) = x + alpha d` (Fischer-Newton, Silcowitz et al. 2009 eq. 37) or its
/// projection onto the bounds (minimum-map Newton, Niebe and Erleben 2015).
///
/// ```
/// use nonsmooth::newton::Armijo;
/// let a = Armijo { max_iter: 7, ..Default::default() };
/// assert_eq!((a.c, a.shrink), (1e-4, 0.5));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Armijo {
    /// Sufficient-decrease constant `c` in `(0, 1)`. Default `1e-4` (Nocedal and Wright;
    /// num4lcp's fluid code uses `1e-4`, its LCP code `1e-3`).
    pub c: f64,
    /// Factor `alpha <- shrink alpha` per rejected trial, in `(0, 1)`. Default `0.5`.
    pub shrink: f64,
    /// Trials per direction (`>= 1`). Default 40. The paper's preset uses 7.
    pub max_iter: usize,
    /// Smallest step tried (`>= 0`). Default `1e-14` (num4lcp stops at `tau² < 1e-28`).
    pub min_step: f64,
}

impl Default for Armijo {
    fn default() -> Self {
        Armijo {
            c: 1e-4,
            shrink: 0.5,
            max_iter: 40,
            min_step: 1e-14,
        }
    }
}

impl Armijo {
    pub(crate) fn check(&self) -> Result<(), String> {
        let valid = self.c > 0.0
            && self.c < 1.0
            && self.shrink > 0.0
            && self.shrink < 1.0
            && self.max_iter != 0
            && self.min_step >= 0.0;
        if !valid {
            return Err(format!(
                "Armijo line search needs 0 < c < 1, 0 < shrink < 1, max_iter >= 1, \
                 min_step >= 0 (got {}, {}, {}, {})",
                self.c, self.shrink, self.max_iter, self.min_step
            ));
        }
        Ok(())
    }
}

/// Whether and how a Newton method searches along its direction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LineSearch {
    /// Take the full step `alpha = 1` (the undamped generalised Newton method,
    /// Silcowitz et al. 2009 eq. 32). A gradient step, taken when the Newton direction
    /// fails the descent test, uses its Cauchy length.
    None,
    /// Backtrack until the Armijo condition holds.
    Armijo(Armijo),
}

impl Default for LineSearch {
    fn default() -> Self {
        LineSearch::Armijo(Armijo::default())
    }
}

/// Which direction an iteration took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// The (generalised) Newton direction.
    Newton,
    /// Steepest descent of the merit, `-grad merit`: the Newton direction failed the
    /// descent test, its inner solve failed (a singular system), or its line search did.
    Gradient,
    /// No step was taken: neither direction decreased the merit.
    None,
}

/// The end of one backtracking search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Search {
    /// The accepted step (0 when none was).
    pub alpha: f64,
    /// The merit there (the starting merit when none was accepted).
    pub merit: f64,
    /// Trials made.
    pub trials: usize,
    /// `true` if the Armijo condition held at `alpha`.
    pub armijo: bool,
}

/// Backtracks from `alpha0`: `trial(alpha)` returns the merit of `x(alpha)` (and may
/// remember the point). Non-finite merits are rejected.
pub(crate) fn backtrack(
    merit0: f64,
    slope: f64,
    alpha0: f64,
    rule: &Armijo,
    trial: &mut dyn FnMut(f64) -> f64,
) -> Search {
    let mut alpha = alpha0;
    for t in 1..=rule.max_iter {
        let m = trial(alpha);
        if m.is_finite() && m <= merit0 + rule.c * alpha * slope {
            return Search {
                alpha,
                merit: m,
                trials: t,
                armijo: true,
            };
        }
        alpha *= rule.shrink;
        if alpha < rule.min_step {
            return Search {
                alpha: 0.0,
                merit: merit0,
                trials: t,
                armijo: false,
            };
        }
    }
    Search {
        alpha: 0.0,
        merit: merit0,
        trials: rule.max_iter,
        armijo: false,
    }
}
