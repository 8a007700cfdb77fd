//! Globalisation: the descent test and Armijo backtracking (Silcowitz, Niebe, Erleben 2009
//! eq. 35-39; Nocedal and Wright 1999 §3.1; Niebe and Erleben 2015 for the projected form).
//!
//! Checked by `tests/laws/armijo_steps.rs`.

use nalgebra::DVector;
use serde::{Deserialize, Serialize};

use super::report::{Direction, NewtonStep};

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
///
/// In options files an object `{"c": 1e-4, "shrink": 0.5, "max_iter": 40, "min_step":
/// 1e-14}`, every field optional.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Armijo {
    /// Sufficient-decrease constant `c` in `(0, 1)`, dimensionless. Default `1e-4`
    /// (Nocedal and Wright 1999 §3.1; num4lcp's fluid code uses `1e-4`, its LCP code
    /// `1e-3`); Silcowitz et al. 2009 eq. 38.
    pub c: f64,
    /// Factor `alpha <- shrink alpha` per rejected trial, in `(0, 1)`. Default `0.5`
    /// (Niebe and Erleben 2015's `alpha`).
    pub shrink: f64,
    /// Trials per direction (`>= 1`). Default 40. The paper's preset uses 7 (Silcowitz et
    /// al. 2009 figure 10).
    pub max_iter: usize,
    /// Smallest step tried (`>= 0`, in units of the direction's length). Default `1e-14`
    /// (num4lcp stops at `tau² < 1e-28`).
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
///
/// In options files and `key=value` settings: `"none"`, `"armijo"` (the default
/// [`Armijo`]), or `{"armijo": {"max_iter": 7}}` (fields not given take their defaults).
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

impl std::str::FromStr for LineSearch {
    type Err = String;

    /// `none`, or `armijo` with the default [`Armijo`].
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "none" => Ok(LineSearch::None),
            "armijo" => Ok(LineSearch::default()),
            other => Err(format!(
                "unknown line search `{other}` (expected none or armijo)"
            )),
        }
    }
}

impl LineSearch {
    pub(crate) fn check(&self) -> Result<(), String> {
        match self {
            LineSearch::None => Ok(()),
            LineSearch::Armijo(a) => a.check(),
        }
    }
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

// ANCHOR: globalise
/// One globalised step, the same for Fischer-Newton and minimum-map Newton (Silcowitz,
/// Niebe, Erleben 2009 eq. 35-39; Niebe and Erleben 2015):
///
/// 1. the Newton direction `d`, if it passes the descent test `grad^T d < 0`,
///    `grad^T d <= -descent_rho ‖d‖²`, searched from `alpha = 1`;
/// 2. otherwise, or if that search fails, `-grad`, searched from its Cauchy length
///    `‖grad‖² / ‖J grad‖²` (`J` the method's generalised Jacobian);
/// 3. otherwise no step ([`Direction::None`]), `x` unchanged.
///
/// `path.trial(x, d, alpha)` returns the point `x(alpha)` (`x + alpha d`, or its
/// projection onto the bounds) and the merit there; the accepted point is the last one
/// tried. Fills `step`'s direction, step length, slope, merit after, Armijo flag and
/// trials; each merit evaluation and each product with `J` adds one pass over `A`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn globalised_step(
    line_search: &LineSearch,
    descent_rho: f64,
    path: &dyn MeritPath,
    x: &mut DVector<f64>,
    newton: Option<DVector<f64>>,
    grad: &DVector<f64>,
    step: &mut NewtonStep,
    passes: &mut usize,
) {
    let merit = step.merit;
    if let Some(d) = newton {
        let slope = grad.dot(&d);
        let descent = slope < 0.0 && slope <= -descent_rho * d.norm_squared();
        if descent && search(line_search, path, x, &d, merit, slope, 1.0, step, passes) {
            step.direction = Direction::Newton;
            return;
        }
    }
    let g2 = grad.norm_squared();
    if g2 > 0.0 && g2.is_finite() {
        let jg2 = path.apply_jacobian(grad).norm_squared();
        *passes += 1;
        let alpha0 = if jg2 > 0.0 && jg2.is_finite() {
            g2 / jg2
        } else {
            1.0
        };
        let d = -grad;
        if search(line_search, path, x, &d, merit, -g2, alpha0, step, passes) {
            step.direction = Direction::Gradient;
        }
    }
}
// ANCHOR_END: globalise

/// What [`globalised_step`] needs of a method: its path of trial points with their merit,
/// and its generalised Jacobian.
pub(crate) trait MeritPath {
    /// The trial point `x(alpha)` along `d` and the merit there.
    fn trial(&self, x: &DVector<f64>, d: &DVector<f64>, alpha: f64) -> (DVector<f64>, f64);
    /// `J v`.
    fn apply_jacobian(&self, v: &DVector<f64>) -> DVector<f64>;
}

/// The line search along `d` from `x`; on success moves `x` to the accepted point, fills
/// the step's `alpha`, `slope`, `merit_after`, `armijo` and returns `true`.
#[allow(clippy::too_many_arguments)]
fn search(
    line_search: &LineSearch,
    path: &dyn MeritPath,
    x: &mut DVector<f64>,
    d: &DVector<f64>,
    merit: f64,
    slope: f64,
    alpha0: f64,
    step: &mut NewtonStep,
    passes: &mut usize,
) -> bool {
    let xs: &DVector<f64> = x;
    let mut last = None;
    let mut evaluate = |alpha: f64| {
        *passes += 1;
        let (xt, m) = path.trial(xs, d, alpha);
        last = Some(xt);
        m
    };
    let (alpha, merit_after, trials, armijo) = match line_search {
        LineSearch::None => {
            let m = evaluate(alpha0);
            let ok = m.is_finite();
            (
                if ok { alpha0 } else { 0.0 },
                if ok { m } else { merit },
                1,
                ok && m <= merit + 1e-4 * alpha0 * slope,
            )
        }
        LineSearch::Armijo(rule) => {
            let s = backtrack(merit, slope, alpha0, rule, &mut evaluate);
            (s.alpha, s.merit, s.trials, s.armijo)
        }
    };
    step.line_search_trials += trials;
    match last {
        // the accepted point is the last one evaluated
        Some(xt) if alpha > 0.0 => {
            *x = xt;
            step.alpha = alpha;
            step.slope = slope;
            step.merit_after = merit_after;
            step.armijo = armijo;
            true
        }
        _ => false,
    }
}
