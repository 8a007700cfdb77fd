//! PROX Gauss-Seidel as the warm start of the semismooth Newton method on the cone.
//!
//! Acary, Bremond and Huber (2018) compare every solver of Siconos on the FCLIB collection
//! and find that, at tolerance `1e-8`, the most robust combination starts with a cheap
//! first-order method and hands its iterate to a Newton method: the first-order sweeps
//! find the contact states (take-off, stick, slide) that Newton's local model cannot see
//! from far away, and Newton then converges in a few steps where the sweeps would need
//! thousands. [`cone_newton_prox_start`] is that combination with this crate's pieces:
//! PROX Gauss-Seidel (Erleben 2017, Algorithm 2, with adaptive r-factors) down to a loose
//! tolerance, then [`cone_newton`] to the requested one. Whether it pays depends on how
//! good Newton's own globalisation is: the book measures it on the shared problems.

use crate::solver::MethodOptions;
use std::ops::ControlFlow;

use nalgebra::DVector;

use crate::newton::{ConeNewtonOptions, ConeNewtonStats, cone_newton};
use crate::problem::{FrictionContact, ProblemError, check_len};
use crate::prox::{ProxOptions, ProxProblem, ProxStats, Scheme, prox_solve};
use serde::{Deserialize, Serialize};

use crate::solver::{Iterate, NonExhaustive, Params, SolveError, Solved};

/// Options of [`cone_newton_prox_start`] (`prox-nsn` in the registry). Build with
/// `ProxNsnOptions { switch_tol: 1e-3, ..Default::default() }`; serialised with the field
/// names, every field optional (`prox` and `newton` as nested objects).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProxNsnOptions {
    /// PROX stops, and Newton takes over, when the error (Siconos 4.4 normalisation) is at
    /// most this. Default `1e-2`: on the shared Siconos problems, switching later (at
    /// `1e-3` to `1e-6`) made Newton slower or stall on `BoxesStack1` and `Capsules` files
    /// (the book's *Newton on the friction cone* shows the measurement).
    pub switch_tol: f64,
    /// Sweep cap of the PROX phase; when it is reached Newton starts from the last accepted
    /// PROX iterate anyway. Default 1000.
    pub max_sweeps: usize,
    /// The PROX options. Default [`ProxOptions::recommended`]`(Scheme::GaussSeidel)`:
    /// local r-factors `1/W_ii`, nonmonotone divergence test over 1000 sweeps (the
    /// configuration that converges on all 28 shared Siconos files, see
    /// `examples/prox_shared.rs`).
    pub prox: ProxOptions,
    /// The Newton options. Default [`ConeNewtonOptions::default`].
    pub newton: ConeNewtonOptions,
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
}

impl MethodOptions for ProxNsnOptions {
    /// `switch_tol >= 0`, then the PROX and the Newton options.
    fn check(&self) -> Result<(), ProblemError> {
        if !(self.switch_tol >= 0.0) {
            return Err(ProblemError::InvalidOption {
                method: "prox-nsn".into(),
                option: "switch_tol".into(),
                reason: format!("{} must be >= 0", crate::error::fmt_num(self.switch_tol)),
            });
        }
        self.newton.check()?;
        self.prox.check()
    }
}

impl Default for ProxNsnOptions {
    fn default() -> Self {
        ProxNsnOptions {
            switch_tol: 1e-2,
            max_sweeps: 1000,
            prox: ProxOptions::recommended(Scheme::GaussSeidel),
            newton: ConeNewtonOptions::default(),
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

/// What [`cone_newton_prox_start`] did in each phase.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProxNsnStats {
    /// The PROX phase.
    pub prox: ProxStats,
    /// The error when Newton took over.
    pub switch_error: f64,
    /// The Newton phase.
    pub newton: ConeNewtonStats,
}

/// Solves a local [`FrictionContact`] (Coulomb or CCP, `3 nc` unknowns in the crate's
/// `[n, t1, t2]` layout) by PROX Gauss-Seidel down to `options.switch_tol`, then the
/// semismooth Newton method ([`cone_newton`]) down to `params.tol`.
///
/// `r` is the start and receives the answer. The returned [`Solved`] is Newton's: its
/// `iterations` are Newton iterations (the PROX sweeps are in [`ProxNsnStats`]), its
/// `error` is measured on the returned `r`, and its `seconds` cover both phases. The
/// observer sees the Newton iterations only.
///
/// # Errors
/// [`SolveError::Problem`] for a wrong `r` length or invalid options; otherwise the
/// errors of [`cone_newton`] (a PROX phase that does not reach `switch_tol` is not an
/// error: Newton starts from its last accepted iterate).
///
/// # Reference
/// Acary, Bremond, Huber 2018 (PROX followed by NSN at `1e-8`); Erleben 2017, Algorithm 2.
///
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::composite::prox_then_newton::{ProxNsnOptions, cone_newton_prox_start};
/// use nonsmooth::problem::{FrictionContact, FrictionKind};
/// use nonsmooth::solver::{Params, no_observer};
/// // One contact pushed into the ground, sliding: r_t is on the cone's boundary.
/// let fc = FrictionContact::new(DMatrix::<f64>::identity(3, 3).into(),
///     DVector::from_vec(vec![-1.0, 2.0, 0.0]), DVector::from_vec(vec![0.5]),
///     FrictionKind::Coulomb).unwrap();
/// let mut r = DVector::zeros(3);
/// let params = Params { tol: 1e-12, ..Default::default() };
/// let info = cone_newton_prox_start(&fc, &mut r, &params, &ProxNsnOptions::default(),
///                                        &mut no_observer()).unwrap();
/// assert!(info.error.rel <= 1e-12);
/// assert!((r[0] - 1.0).abs() < 1e-10 && (r[1] + 0.5).abs() < 1e-10);
/// ```
pub fn cone_newton_prox_start(
    fc: &FrictionContact,
    r: &mut DVector<f64>,
    params: &Params,
    options: &ProxNsnOptions,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<Solved<ProxNsnStats>, SolveError<ProxNsnStats>> {
    check_len("r", fc.dim(), r.len())?;
    if !(options.switch_tol >= 0.0) {
        return Err(ProblemError::InvalidOption {
            method: "prox-nsn".into(),
            option: "switch_tol".into(),
            reason: format!("{} must be non-negative", options.switch_tol),
        }
        .into());
    }
    let started = std::time::Instant::now();
    let pp = ProxProblem::from_friction_contact(fc);
    // The switch is a heuristic, not a convergence test: it reads the natural-map error
    // alone (the normal condition, which `Residual::meets` also requires, is left to
    // Newton). PROX runs with tolerance 0 and the observer stops it at the switch.
    let switch = options.switch_tol.max(params.tol);
    let prox_params = Params {
        tol: 0.0,
        max_iter: options.max_sweeps,
        ..params.clone()
    };
    let mut prox_stats = ProxStats::default();
    if crate::merit::friction_error(fc, r).get(params.measure) > switch {
        // On any PROX outcome but invalid input, `r` holds the last accepted iterate.
        match prox_solve(
            &pp,
            r,
            &prox_params,
            &options.prox,
            &mut |it: &Iterate| match it.error {
                Some(e) if e.get(params.measure) <= switch => ControlFlow::Break(()),
                _ => ControlFlow::Continue(()),
            },
        ) {
            Ok(info) => prox_stats = info.stats,
            Err(SolveError::NoConvergence(info)) => prox_stats = info.stats,
            Err(SolveError::Diverged { .. }) => {}
            Err(e) => return Err(e.drop_stats().lift()),
        }
    }
    let switch_error = crate::merit::friction_error(fc, r).rel;
    let stats = |newton: ConeNewtonStats| ProxNsnStats {
        prox: prox_stats.clone(),
        switch_error,
        newton,
    };
    // the whole solve's time, both phases (Newton's report times its own phase only)
    match cone_newton(fc, r, params, &options.newton, observer) {
        Ok(info) => Ok(Solved {
            seconds: started.elapsed().as_secs_f64(),
            ..info.map_stats(stats)
        }),
        Err(SolveError::NoConvergence(info)) => Err(SolveError::NoConvergence(Box::new(Solved {
            seconds: started.elapsed().as_secs_f64(),
            ..info.map_stats(stats)
        }))),
        Err(e) => Err(e.map_stats(stats)),
    }
}
