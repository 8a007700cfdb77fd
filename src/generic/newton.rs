//! `gmp-newton`: semismooth Newton on the scaled natural map of a [`GenericMechanical`]
//! problem ([`super::natural`]), with an Armijo line search on `ψ = ½ ‖F‖²`.
//!
//! One iteration: `F(r̃)` and `H = I - D + C W̃` at `r̃ = S⁺ r`; the direction solves
//! `H Δ = -F` (dense LU from nalgebra up to [`GmpNewtonOptions::dense_max`] unknowns,
//! faer's sparse LU above, its symbolic analysis kept and reused while the pattern of `H`
//! repeats); when the factorisation fails or gives a non-finite answer, `H`
//! is regularised (`H + ε I`, `ε` growing, counted in [`GmpNewtonStats::regularised`]).
//! If `Δ` is not a descent direction of `ψ` (`Δ · Hᵀ F >= 0`) or no step passes the
//! non-monotone Armijo test `ψ(r̃ + τ Δ) <= (1 - 2 σ τ) max(last `window` merits)`
//! (Silcowitz, Niebe, Erleben 2009 eq. 38; Grippo, Lampariello, Lucidi 1986),
//! the iteration takes a few sweeps of projected block Gauss-Seidel instead (`gmp-pgs`, the
//! hybrid globalisation of `nsn`), or, when those are switched off or refused, a gradient
//! step along `-Hᵀ F`. The loop stops on the
//! problem's own error ([`GenericMechanical::error`]) at `r = S r̃`.
//!
//! # Source
//! Qi, Sun 1993 (semismooth Newton); Acary, Brémond, Huber 2018 (natural-map Newton on
//! the generic mechanical problem); Fukushima, Luo, Tseng 2001 (the SOC projection's
//! derivative).

use crate::solver::MethodOptions;
use nalgebra::DVector;
use serde::{Deserialize, Serialize};

use super::natural::{BlockJacobians, Scaled};
use super::pgs::{GmpPgs, GmpPgsOptions, GmpPgsPrepared, GmpPgsStats};
use crate::linalg::PatternLu;
use crate::merit::Residual;
use crate::problem::ProblemError;
use crate::problem::generic::GenericMechanical;
use crate::solver::{Method, NonExhaustive, SolveError, Step};

/// Options of [`GmpNewton`] (`gmp-newton`). Serialised with the field names, every field
/// optional, unknown ones refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GmpNewtonOptions {
    /// Armijo constant `σ` (default `1e-4`; in `(0, 1/2)`).
    pub armijo: f64,
    /// Step shrink factor per backtrack (default `0.5`; in `(0, 1)`).
    pub shrink: f64,
    /// Backtracks per iteration before the gradient fallback (default 30).
    pub max_backtracks: usize,
    /// Largest system solved by dense LU; larger ones use faer's sparse LU (default 200).
    pub dense_max: usize,
    /// Non-monotone window: a step is accepted against the largest of the last `window`
    /// merits (Grippo, Lampariello, Lucidi 1986). Default 1, the monotone Armijo rule: on the
    /// book's example with thin torsional and rolling cones, with the Gauss-Seidel fallback,
    /// window 5 took 14 to 23 iterations and window 1 took 10 to 19
    /// (`book/src/generated/generic_mechanical.txt`). `>= 1`.
    pub window: usize,
    /// Sweeps of projected block Gauss-Seidel (`gmp-pgs`) taken when no Newton step passes
    /// the line search (the hybrid globalisation of Acary, Brémond, Huber 2018, as `nsn`'s;
    /// default 10). 0, or a problem `gmp-pgs` refuses (a diagonal entry `<= 0`), takes the
    /// gradient step instead.
    pub gs_sweeps: usize,
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
}

impl Default for GmpNewtonOptions {
    fn default() -> Self {
        GmpNewtonOptions {
            armijo: 1e-4,
            shrink: 0.5,
            max_backtracks: 30,
            dense_max: 200,
            window: 1,
            gs_sweeps: 10,
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

impl MethodOptions for GmpNewtonOptions {
    /// Checks every value against its range.
    ///
    /// # Errors
    /// [`ProblemError::InvalidOption`] naming the first value out of range.
    fn check(&self) -> Result<(), ProblemError> {
        let bad = |option: &str, reason: String| {
            Err(crate::newton::invalid_option("gmp-newton", option, reason))
        };
        if !(self.armijo > 0.0 && self.armijo < 0.5) {
            return bad("armijo", format!("{} is outside (0, 1/2)", self.armijo));
        }
        if !(self.shrink > 0.0 && self.shrink < 1.0) {
            return bad("shrink", format!("{} is outside (0, 1)", self.shrink));
        }
        if self.window == 0 {
            return bad("window", "0 is out of range (at least 1)".into());
        }
        Ok(())
    }
}

/// What a `gmp-newton` solve counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GmpNewtonStats {
    /// Newton matrices that had to be regularised (`H + ε I`).
    pub regularised: usize,
    /// Iterations that took the gradient step instead of the Newton step.
    pub gradient_steps: usize,
    /// Total backtracking steps.
    pub backtracks: usize,
    /// Gauss-Seidel sweeps taken by the hybrid fallback.
    pub gs_sweeps: usize,
}

/// Semismooth Newton on the scaled natural map of a [`GenericMechanical`] problem as a
/// [`Method`] (see the [module docs](self)); `x` is the reaction `r` (`n`).
#[derive(Debug, Clone, Copy)]
pub struct GmpNewton;

/// What [`GmpNewton`] keeps between iterations.
#[derive(Debug)]
pub struct GmpNewtonPrepared {
    options: GmpNewtonOptions,
    scaled: Option<Scaled>,
    jac: BlockJacobians,
    /// The last merits, at most `window`.
    history: Vec<f64>,
    /// The Gauss-Seidel of the hybrid fallback, prepared when first needed (`None` inside
    /// when `gmp-pgs` refuses the problem).
    gs: Option<Option<GmpPgsPrepared>>,
    /// The symbolic LU of the last sparse Newton matrix, reused while its pattern repeats
    /// (across iterations and across problems solved with this preparation).
    lu_cache: Option<PatternLu>,
}

/// Solves `(H + eps I) x = rhs` from the entries of `H + eps I` by the crate's
/// fixed-pattern LU ([`PatternLu`]: dense up to `dense_max` unknowns), whose analysis is
/// kept in `cache` and reused while the pattern repeats; `None` if singular or not finite.
fn solve_system(
    n: usize,
    t: &[(usize, usize, f64)],
    rhs: &DVector<f64>,
    dense_max: usize,
    cache: &mut Option<PatternLu>,
) -> Option<DVector<f64>> {
    let pattern = || t.iter().map(|&(i, j, _)| (i, j));
    let same = cache
        .as_ref()
        .is_some_and(|lu| lu.is_sparse() == (n > dense_max) && lu.has_pattern(n, pattern()));
    if !same {
        *cache = None;
        let p: Vec<(usize, usize)> = pattern().collect();
        *cache = Some(PatternLu::new(n, &p, dense_max).ok()?);
    }
    let vals: Vec<f64> = t.iter().map(|e| e.2).collect();
    cache.as_ref()?.solve(&vals, rhs).ok()
}

/// `Hᵀ v` from the entries of `H`.
fn transpose_times(n: usize, t: &[(usize, usize, f64)], v: &DVector<f64>) -> DVector<f64> {
    let mut g = DVector::zeros(n);
    for &(i, j, h) in t {
        g[j] += h * v[i];
    }
    g
}

impl Method for GmpNewton {
    type Problem = GenericMechanical;
    type Options = GmpNewtonOptions;
    type Prepared = GmpNewtonPrepared;
    type Stats = GmpNewtonStats;

    /// A Newton method: the best error has not halved in 150 steps ([`crate::solver::StallRule::NEWTON`]).
    fn stall_rule(_: &Self::Prepared) -> crate::solver::StallRule {
        crate::solver::StallRule::NEWTON
    }

    fn prepare(
        _: &GenericMechanical,
        options: &GmpNewtonOptions,
    ) -> Result<GmpNewtonPrepared, SolveError> {
        options.check()?;
        Ok(GmpNewtonPrepared {
            options: options.clone(),
            scaled: None,
            jac: Vec::new(),
            history: Vec::new(),
            gs: None,
            lu_cache: None,
        })
    }

    fn start(
        prepared: &mut GmpNewtonPrepared,
        p: &GenericMechanical,
        _: &DVector<f64>,
    ) -> Result<(), SolveError> {
        prepared.scaled = Some(Scaled::new(p));
        prepared.history.clear();
        prepared.gs = None;
        Ok(())
    }

    fn step(
        prepared: &mut GmpNewtonPrepared,
        p: &GenericMechanical,
        r: &mut DVector<f64>,
        stats: &mut GmpNewtonStats,
    ) -> Result<Step, SolveError> {
        let o = &prepared.options;
        let sc = prepared.scaled.get_or_insert_with(|| Scaled::new(p));
        let n = p.dim();
        let rt = sc.to_scaled(r);
        let mut f = DVector::zeros(n);
        sc.eval(p, &rt, &mut f, Some(&mut prepared.jac));
        let psi = 0.5 * f.norm_squared();
        if psi == 0.0 {
            return Ok(Step::Moved);
        }
        prepared.history.push(psi);
        if prepared.history.len() > o.window {
            prepared.history.remove(0);
        }
        let psi_ref = prepared.history.iter().copied().fold(psi, f64::max);
        // ANCHOR: gmp_newton_step
        let h = sc.jacobian_triplets(p, &prepared.jac, 0.0);
        let grad = transpose_times(n, &h, &f);
        let rhs = -&f;
        let mut dir = solve_system(n, &h, &rhs, o.dense_max, &mut prepared.lu_cache);
        if dir.is_none() {
            // H singular: Levenberg-Marquardt regularisation, eps tied to ‖F‖, growing
            stats.regularised += 1;
            let mut eps = f.norm().clamp(1e-12, 1e-4);
            for _ in 0..8 {
                let he = sc.jacobian_triplets(p, &prepared.jac, eps);
                dir = solve_system(n, &he, &rhs, o.dense_max, &mut prepared.lu_cache);
                if dir.is_some() {
                    break;
                }
                eps *= 100.0;
            }
        }
        let mut trial_f = DVector::zeros(n);
        let mut accepted = None;
        if let Some(d) = dir.filter(|d| d.dot(&grad) < 0.0) {
            let mut tau = 1.0;
            for _ in 0..=o.max_backtracks {
                let trial = &rt + tau * &d;
                sc.eval(p, &trial, &mut trial_f, None);
                if 0.5 * trial_f.norm_squared() <= (1.0 - 2.0 * o.armijo * tau) * psi_ref {
                    accepted = Some(trial);
                    break;
                }
                tau *= o.shrink;
                stats.backtracks += 1;
            }
        }
        if accepted.is_none() && o.gs_sweeps > 0 {
            let gs = prepared.gs.get_or_insert_with(|| {
                GmpPgs::prepare(p, &GmpPgsOptions::default())
                    .ok()
                    .and_then(|mut g| GmpPgs::start(&mut g, p, r).ok().map(|()| g))
            });
            if let Some(gs) = gs {
                // hybrid globalisation: a few projected block Gauss-Seidel sweeps
                let mut gs_stats = GmpPgsStats::default();
                for _ in 0..o.gs_sweeps {
                    GmpPgs::step(gs, p, r, &mut gs_stats)?;
                }
                stats.gs_sweeps += o.gs_sweeps;
                prepared.history.clear();
                return Ok(Step::Moved);
            }
        }
        if accepted.is_none() {
            // gradient fallback along -Hᵀ F, with sufficient decrease
            stats.gradient_steps += 1;
            let gn = grad.norm_squared();
            if gn > 0.0 && gn.is_finite() {
                let mut tau = psi / gn;
                for _ in 0..=o.max_backtracks {
                    let trial = &rt - tau * &grad;
                    sc.eval(p, &trial, &mut trial_f, None);
                    if 0.5 * trial_f.norm_squared() <= psi - o.armijo * tau * gn {
                        accepted = Some(trial);
                        break;
                    }
                    tau *= o.shrink;
                    stats.backtracks += 1;
                }
            }
        }
        // ANCHOR_END: gmp_newton_step
        if let Some(t) = accepted {
            let next = sc.from_scaled(&t);
            // an accepted step decreased ψ, so it is finite; kept as a guard
            if next.iter().all(|v| v.is_finite()) {
                r.copy_from(&next);
                return Ok(Step::Moved);
            }
        }
        Ok(Step::Rejected)
    }

    fn error(_: &GmpNewtonPrepared, p: &GenericMechanical, r: &DVector<f64>) -> Residual {
        p.error(r)
    }
}
