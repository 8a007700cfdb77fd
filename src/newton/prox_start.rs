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

use std::ops::ControlFlow;

use nalgebra::DVector;
use serde::{Deserialize, Serialize};

use super::invalid_option;
use crate::newton::{ConeNewtonOptions, ConeNewtonStats, cone_newton};
use crate::problem::{FrictionContact, check_len};
use crate::prox::{ProxOptions, ProxProblem, ProxStats, Scheme, prox_solve};
use crate::solver::{Iterate, NonExhaustive, Params, SolveError, Solved};

/// Options of [`cone_newton_prox_start`] (`prox-nsn` on the command line). Build with
/// `ProxNsnOptions { switch_tol: 1e-3, ..Default::default() }`. Serialised with the field
/// names (the keys of `key=value` settings), every field optional, unknown ones refused;
/// `prox` and `newton` are nested objects (`prox` with the field names of [`ProxOptions`],
/// its r-factor as a string such as `"local"` or `"global=5"`, fields not given taking
/// [`ProxOptions::default`]'s values).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProxNsnOptions {
    /// PROX stops, and Newton takes over, when the error (Siconos 4.4 normalisation, in
    /// `params.measure`) is at most `max(switch_tol, params.tol)`. Default `1e-2`; `>= 0`,
    /// dimensionless for the relative measures. On the shared Siconos problems, switching
    /// later (at `1e-3` to `1e-6`) made Newton slower or stall on `BoxesStack1` and
    /// `Capsules` files (the book's *Newton on the friction cone* shows the measurement).
    pub switch_tol: f64,
    /// Sweep cap of the PROX phase; when it is reached Newton starts from the last accepted
    /// PROX iterate anyway. Default 1000.
    pub max_sweeps: usize,
    /// The PROX options (Erleben 2017, Algorithm 2). Default
    /// [`ProxOptions::recommended`]`(Scheme::GaussSeidel)`: local r-factors `1/W_ii`,
    /// nonmonotone divergence test over 1000 sweeps (the configuration that converges on
    /// all 28 shared Siconos files, see `examples/prox_shared.rs`). Their ranges are
    /// checked by the PROX phase ([`ProblemError::Unsupported`](crate::problem::ProblemError)).
    #[serde(with = "prox_options_serde")]
    pub prox: ProxOptions,
    /// The Newton options. Default [`ConeNewtonOptions::default`] (ranges there).
    pub newton: ConeNewtonOptions,
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
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

impl ProxNsnOptions {
    /// Checks `switch_tol` and the Newton options against their ranges (the PROX options
    /// are checked when the PROX phase starts).
    ///
    /// # Errors
    /// [`ProblemError::InvalidOption`](crate::problem::ProblemError::InvalidOption) naming
    /// the first value out of range.
    pub fn check(&self) -> Result<(), crate::problem::ProblemError> {
        if !(self.switch_tol >= 0.0) {
            return Err(invalid_option(
                "prox-nsn",
                "switch_tol",
                format!("{} must be non-negative", self.switch_tol),
            ));
        }
        self.newton.check()
    }
}

/// Serde for [`ProxOptions`] inside [`ProxNsnOptions`]: the field names, the r-factor as
/// its command-line string.
mod prox_options_serde {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::prox::{Blocks, ProxOptions, RFactor, Scheme};

    #[derive(Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    struct Fields {
        scheme: Scheme,
        r_factor: String,
        nu: Option<f64>,
        adaptive: bool,
        omega: f64,
        blocks: Blocks,
        window: usize,
        step_abs_tol: f64,
        step_rel_tol: f64,
    }

    impl From<&ProxOptions> for Fields {
        fn from(o: &ProxOptions) -> Self {
            Fields {
                scheme: o.scheme,
                r_factor: match o.r_factor {
                    RFactor::Global { r } => format!("global={r}"),
                    other => other.name().into(),
                },
                nu: o.nu,
                adaptive: o.adaptive,
                omega: o.omega,
                blocks: o.blocks,
                window: o.window,
                step_abs_tol: o.step_abs_tol,
                step_rel_tol: o.step_rel_tol,
            }
        }
    }

    impl Default for Fields {
        fn default() -> Self {
            Fields::from(&ProxOptions::default())
        }
    }

    pub(super) fn serialize<S: Serializer>(o: &ProxOptions, s: S) -> Result<S::Ok, S::Error> {
        Fields::from(o).serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ProxOptions, D::Error> {
        let f = Fields::deserialize(d)?;
        Ok(ProxOptions {
            scheme: f.scheme,
            r_factor: f.r_factor.parse().map_err(serde::de::Error::custom)?,
            nu: f.nu,
            adaptive: f.adaptive,
            omega: f.omega,
            blocks: f.blocks,
            window: f.window,
            step_abs_tol: f.step_abs_tol,
            step_rel_tol: f.step_rel_tol,
            ..ProxOptions::default()
        })
    }
}

/// What [`cone_newton_prox_start`] did in each phase, in [`Solved::stats`] (and in the
/// report of [`SolveError::NoConvergence`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProxNsnStats {
    /// The PROX phase (sweeps, rollbacks, why it stopped; all zero when the start already
    /// met the switch tolerance).
    pub prox: ProxStats,
    /// The error when Newton took over (relative, Siconos 4.4 normalisation).
    pub switch_error: f64,
    /// The Newton phase.
    pub newton: ConeNewtonStats,
}

/// Solves a local [`FrictionContact`] (Coulomb or CCP, `3 nc` unknowns in the crate's
/// `[n, t1, t2]` layout) by PROX Gauss-Seidel down to `options.switch_tol`, then the
/// semismooth Newton method ([`cone_newton`]) down to `params.tol`: the composition of two
/// solves, PROX's ([`prox_solve`]) and [`crate::solver::solve`]`::<`[`super::ConeNewton`]`>`.
///
/// `r` is the start and receives the answer. The returned [`Solved`] is Newton's: its
/// `iterations` are Newton iterations (the PROX sweeps are in [`ProxNsnStats::prox`]), its
/// `error` is measured on the returned `r`, and its `seconds` cover both phases. The
/// observer sees the Newton iterations only.
///
/// # Errors
/// [`SolveError::Problem`] for a wrong `r` length or an option out of range
/// ([`ProblemError::InvalidOption`](crate::problem::ProblemError::InvalidOption) for
/// `switch_tol` and the Newton options, `Unsupported` for the PROX options); otherwise the
/// errors of [`cone_newton`], [`SolveError::NoConvergence`] carrying both phases'
/// statistics (a PROX phase that does not reach `switch_tol` is not an error: Newton
/// starts from its last accepted iterate).
///
/// # Reference
/// Acary, Bremond, Huber 2018 (PROX followed by NSN at `1e-8`); Erleben 2017, Algorithm 2.
///
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::newton::{ProxNsnOptions, cone_newton_prox_start};
/// use nonsmooth::problem::{FrictionContact, FrictionKind};
/// use nonsmooth::solver::{Params, no_observer};
/// // One contact pushed into the ground, sliding: r_t is on the cone's boundary.
/// let fc = FrictionContact::new(DMatrix::<f64>::identity(3, 3).into(),
///     DVector::from_vec(vec![-1.0, 2.0, 0.0]), DVector::from_vec(vec![0.5]),
///     FrictionKind::Coulomb).unwrap();
/// let mut r = DVector::zeros(3);
/// let params = Params { tol: 1e-12, ..Default::default() };
/// let info = cone_newton_prox_start(&fc, &mut r, &params, &ProxNsnOptions::default(),
///                                   &mut no_observer()).unwrap();
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
    options.check()?;
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
            options.prox.clone(),
            &prox_params,
            &mut prox_stats,
            &mut |it: &Iterate| match it.error {
                Some(e) if e.get(params.measure) <= switch => ControlFlow::Break(()),
                _ => ControlFlow::Continue(()),
            },
        ) {
            Ok(_) | Err(SolveError::NoConvergence(_)) | Err(SolveError::Diverged { .. }) => {}
            Err(e) => return Err(e.lift()),
        }
    }
    let switch_error = crate::merit::friction_error(fc, r).rel;
    let stats = |newton: ConeNewtonStats| ProxNsnStats {
        prox: prox_stats,
        switch_error,
        newton,
    };
    match cone_newton(fc, r, params, &options.newton, observer) {
        Ok(info) => Ok(Solved {
            seconds: started.elapsed().as_secs_f64(),
            ..info.map_stats(stats)
        }),
        Err(SolveError::NoConvergence(info)) => Err(SolveError::NoConvergence(Box::new(Solved {
            seconds: started.elapsed().as_secs_f64(),
            ..info.map_stats(stats)
        }))),
        Err(e) => Err(e.drop_stats().lift()),
    }
}
