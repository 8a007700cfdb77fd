//! The options of PROX ([`ProxOptions`]), what a solve counts ([`ProxStats`]) and why it
//! stopped ([`StopReason`]).

use crate::solver::MethodOptions;
use serde::{Deserialize, Serialize};

use super::rfactor::RFactor;
use crate::problem::ProblemError;
use crate::solver::NonExhaustive;

/// Jacobi (Algorithm 1) or Gauss-Seidel (Algorithm 2) of Erleben 2017 §4. Serialised as
/// `"jacobi"` or `"gauss-seidel"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scheme {
    /// Every contact reads the previous iterate `λ^k` (eq. 22-23); the friction set is
    /// scaled by the previous normal value `λ_N^k`.
    Jacobi,
    /// Contacts in order, each reading the latest values (eq. 24-26); the friction set is
    /// scaled by the new normal value `λ_N^{k+1}`.
    #[default]
    GaussSeidel,
}

impl Scheme {
    /// `"prox-jacobi"` or `"prox-gs"`: the method's name on the command line and in errors.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Jacobi => "prox-jacobi",
            Scheme::GaussSeidel => "prox-gs",
        }
    }
}

/// The blocks a Gauss-Seidel sweep updates one at a time. Serialised as `"contact"` or
/// `"factor"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Blocks {
    /// One contact at a time: `z_I = λ_I - R_I v_I` for all its rows, then project
    /// (Algorithm 2 as printed).
    #[default]
    Contact,
    /// One factor of the contact's set at a time ([`crate::prox::ContactLaw::factors`]):
    /// the friction part reads the normal value just computed. For the box law the factors
    /// are single rows, and with fixed local r-factors this sweep *is* projected
    /// Gauss-Seidel ([`crate::splitting::sweep_boxed`]). Ignored by Jacobi.
    Factor,
}

/// The window of the nonmonotone divergence test in [`ProxOptions::recommended`], in
/// accepted sweeps.
pub const RECOMMENDED_WINDOW: usize = 1000;

/// The options of a PROX solve (the loop's tolerance and iteration cap are in
/// [`crate::solver::Params`]). Build with
/// `ProxOptions { r_factor: RFactor::Local, ..Default::default() }`.
///
/// Serialised with the field names (`r_factor`, `step_abs_tol`: the keys of `--set`), every field
/// optional (missing ones take the default below) and unknown ones refused; the r-factor is
/// its command-line string (`"local"`, `"global=5"`, see [`RFactor`]):
///
/// ```
/// use nonsmooth::prox::{ProxOptions, RFactor};
/// let o: ProxOptions = serde_json::from_str(r#"{"r_factor": "local", "window": 1000}"#).unwrap();
/// assert_eq!((o.r_factor, o.window, o.nu), (RFactor::Local, 1000, None));
/// assert!(serde_json::from_str::<ProxOptions>(r#"{"windw": 3}"#).is_err());
/// ```
///
/// # Two settings: the paper's and the recommended one
/// [`ProxOptions::default`] (the same as [`ProxOptions::paper`]) is Erleben 2017 exactly:
/// Gauss-Seidel, `Global { r: 5 }`, `ν = 0.5`, and the divergence test against the last
/// step (window 1). The crate's experiments are written as "the paper's scheme with one
/// thing changed" (`ProxOptions { r_factor, ..Default::default() }`), so the default stays
/// the paper's. It is **not** the setting to use on real problems: on the shared Siconos
/// fc3d files it converges on 19 of 27 (`book/src/generated/prox_shared.txt`).
///
/// [`ProxOptions::recommended`] is the measured best setting per scheme, and what the
/// method registry ([`crate::registry`]) and the command line run for `prox-gs` and
/// `prox-jacobi`: Gauss-Seidel with Local r-factors and a nonmonotone window of
/// [`RECOMMENDED_WINDOW`] sweeps (27 of 27 shared `.dat` files), Jacobi with Blocked
/// r-factors and the same window (23 of 27). The two schemes need different r-factors,
/// which is why the recommended setting is a function of the scheme rather than the
/// `Default`.
///
/// # Validity
/// [`crate::solver::Method::prepare`] of [`crate::prox::ProxMethod`] (and [`crate::prox::Prox::new`])
/// refuses an option out of the range given below with
/// [`ProblemError::InvalidOption`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProxOptions {
    /// Jacobi (Algorithm 1) or Gauss-Seidel (Algorithm 2). Default Gauss-Seidel.
    pub scheme: Scheme,
    /// The initial r-factors (§4.2, eq. 39-40). Default `Global { r: 5.0 }`, the paper's
    /// hardwired value (see [`ProxOptions::recommended`] for the setting that converges on
    /// more problems). A global `r` must be positive and finite, in the units of `1/A` (kg
    /// for velocity-level problems); the other strategies divide by the diagonal of `A` and
    /// need it positive (checked when a problem is loaded).
    pub r_factor: RFactor,
    /// Backtracking factor `ν` in `(0, 1)`, dimensionless: a rolled-back sweep multiplies
    /// every r-factor by it (Algorithms 1-2, lines 12-13; §4.2). `None` (default) takes the
    /// strategy's ([`RFactor::default_nu`]: the paper's 0.9 for Local, 0.5 otherwise).
    pub nu: Option<f64>,
    /// Roll back and shrink `R` when the step grows (Algorithms 1-2, lines 11-15). Default
    /// `true`. `false` keeps `R` fixed: the classical projected schemes (a non-finite
    /// iterate is then [`crate::solver::SolveError::Diverged`]).
    pub adaptive: bool,
    /// The initial `R` is multiplied by `omega`, dimensionless, positive and finite
    /// (default 1). With `Local` on the box law `omega` is the relaxation of projected SOR
    /// (§4.2, the remark after eq. 39: `r_i = γ / A_ii`).
    pub omega: f64,
    /// Gauss-Seidel blocks. Default [`Blocks::Contact`] (Algorithm 2 as printed). Ignored by
    /// Jacobi.
    pub blocks: Blocks,
    /// Divergence test window `W >= 1`, in accepted sweeps: a sweep is rolled back when its
    /// step exceeds the largest of the last `W` accepted steps. Default 1, the paper's test
    /// `r^{k+1} > r^k` (Algorithms 1-2 line 11-12, eq. 27; with equality counted as growth,
    /// see [`crate::prox::ProxMethod`]). A wider window is a nonmonotone test (Grippo,
    /// Lampariello, Lucidi 1986) that lets a convergent but nonmonotone Gauss-Seidel
    /// sequence keep its r-factors; it is not in Erleben 2017 (see the book's *PROX
    /// experiments* for why it matters). `usize::MAX` compares with every accepted step:
    /// only a step larger than all before it counts as divergence.
    pub window: usize,
    /// Stop (status `Stopped`, [`StopReason::StepAbsolute`]) when the step
    /// `‖λ^{k+1} - λ^k‖_∞ <= step_abs_tol` (the paper's absolute test on the residual of
    /// eq. 27, §4), in the units of `λ` (N s at the velocity level). `>= 0`; default 0: off.
    pub step_abs_tol: f64,
    /// Stop (status `Stopped`, [`StopReason::StepRelative`]) when
    /// `|r^{k+1} - r^k| <= step_rel_tol r^k` for the steps `r` of eq. 27 (the paper's
    /// relative test, §4), dimensionless. `>= 0`; default 0: off.
    pub step_rel_tol: f64,
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
}

impl Default for ProxOptions {
    /// Erleben 2017's setting, [`ProxOptions::paper`]`(Scheme::GaussSeidel)`; not the
    /// recommended one ([`ProxOptions::recommended`]).
    fn default() -> Self {
        ProxOptions {
            scheme: Scheme::GaussSeidel,
            r_factor: RFactor::default(),
            nu: None,
            adaptive: true,
            omega: 1.0,
            blocks: Blocks::Contact,
            window: 1,
            step_abs_tol: 0.0,
            step_rel_tol: 0.0,
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

impl ProxOptions {
    /// Erleben 2017's setting exactly (the same as [`ProxOptions::default`]): `scheme`,
    /// `Global { r: 5 }` (§4.2, the hardwired value of the paper's experiments), `ν = 0.5`,
    /// and a sweep rolled back when its step is not shorter than the last (window 1;
    /// eq. 27 with equality counted as growth, see [`crate::prox::ProxMethod`]).
    pub fn paper(scheme: Scheme) -> Self {
        ProxOptions {
            scheme,
            ..Default::default()
        }
    }

    /// The setting that converges on the most problems, measured per scheme; what
    /// [`crate::registry::solve`] and `nonsmooth solve --method prox-gs` / `prox-jacobi`
    /// run. Both use the nonmonotone divergence test with a window of
    /// [`RECOMMENDED_WINDOW`] sweeps (Grippo, Lampariello, Lucidi 1986; not in Erleben 2017):
    ///
    /// * Gauss-Seidel: [`RFactor::Local`] (eq. 39, `ν = 0.9`). On the 27 shared Siconos
    ///   fc3d `.dat` files at tolerance 1e-8 it converges on all 27 (the paper's setting: 19),
    ///   the slowest (`BoxesStack1`) in 261 346 sweeps, which is why the command line's
    ///   default sweep cap for PROX is [`crate::registry::PROX_DEFAULT_MAX_ITER`]
    ///   (`book/src/generated/prox_shared.txt`); on the 45
    ///   generated scenes at 1e-6 it converges on as many as any Gauss-Seidel setting (36)
    ///   with the fewest rollbacks (`book/src/generated/prox_schemes.txt`).
    /// * Jacobi: [`RFactor::Blocked`] (`ν = 0.5`). On the generated scenes it converges on
    ///   39 of 45, as many as any Jacobi setting, where Local with the window converges on
    ///   only 26 (a truly divergent Jacobi sweep is accepted until it beats the largest
    ///   recent step); on the shared files it converges on 23 of 27 within 10^5 sweeps,
    ///   where Local with the paper's test converges on 20 (its rollbacks shrink `R` until
    ///   the iterates stop moving). Jacobi does not converge everywhere Gauss-Seidel does.
    pub fn recommended(scheme: Scheme) -> Self {
        let r_factor = match scheme {
            Scheme::GaussSeidel => RFactor::Local,
            Scheme::Jacobi => RFactor::Blocked,
        };
        ProxOptions {
            scheme,
            r_factor,
            window: RECOMMENDED_WINDOW,
            ..Default::default()
        }
    }

    /// `ν` in effect.
    pub fn nu(&self) -> f64 {
        self.nu.unwrap_or(self.r_factor.default_nu())
    }

    /// The error for option `option` of this method, `reason` saying why.
    pub(crate) fn invalid(&self, option: &str, reason: String) -> ProblemError {
        ProblemError::InvalidOption {
            method: self.scheme.name().into(),
            option: option.into(),
            reason,
        }
    }
}

impl MethodOptions for ProxOptions {
    /// Checks every option against its range.
    ///
    /// # Errors
    /// [`ProblemError::InvalidOption`] naming the first option out of range.
    fn check(&self) -> Result<(), ProblemError> {
        let bad = |option: &str, range: &str, v: f64| {
            Err(self.invalid(
                option,
                format!("{} is out of range ({range})", crate::error::fmt_num(v)),
            ))
        };
        let nu = self.nu();
        if !(nu > 0.0 && nu < 1.0) {
            return bad("nu", "it must lie in (0, 1)", nu);
        }
        if !(self.omega > 0.0 && self.omega.is_finite()) {
            return bad("omega", "it must be positive and finite", self.omega);
        }
        if self.window == 0 {
            return bad("window", "it must be at least 1", 0.0);
        }
        if !(self.step_abs_tol >= 0.0) {
            return bad("step_abs_tol", "it must be >= 0", self.step_abs_tol);
        }
        if !(self.step_rel_tol >= 0.0) {
            return bad("step_rel_tol", "it must be >= 0", self.step_rel_tol);
        }
        if let RFactor::Global { r } = self.r_factor
            && !(r > 0.0 && r.is_finite())
        {
            return bad("r_factor", "a global r must be positive and finite", r);
        }
        Ok(())
    }
}

/// Why a PROX solve stopped ([`ProxStats::stop`]). Serialised in kebab-case
/// (`"step-absolute"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// The measured error met `Params::tol` (status `Converged`).
    Converged,
    /// The step met [`ProxOptions::step_abs_tol`] (status `Stopped`).
    StepAbsolute,
    /// The step stagnated: [`ProxOptions::step_rel_tol`] (status `Stopped`).
    StepRelative,
    /// The sweep cap `Params::max_iter` was reached (status `MaxIterations`).
    MaxIterations,
    /// The observer asked to stop (status `Stopped`).
    Observer,
    /// The stall rule fired: the error did not fall by 1 % over the window (status
    /// `Stalled`, [`crate::solver::StallRule`]).
    Stalled,
    /// The time limit ran out (status `TimeLimit`).
    TimeLimit,
}

/// What a PROX solve counted, in [`crate::solver::Solved::stats`] (and in the report of
/// [`crate::solver::SolveError::NoConvergence`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProxStats {
    /// Sweeps done, accepted or rolled back (the `iterations` of the report).
    pub sweeps: usize,
    /// Sweeps accepted (`k` of Algorithms 1-2).
    pub accepted: usize,
    /// Sweeps rolled back because the step grew (`r^{k+1} >= r^k`, or over the window).
    pub rollbacks: usize,
    /// The factor `ν^rollbacks` by which `R` was shrunk in the end.
    pub r_scale: f64,
    /// `‖λ^{k+1} - λ^k‖_∞` of the last accepted sweep, in the units of `λ` (infinite before
    /// the first).
    pub last_step: f64,
    /// Why it stopped (`None` before a solve ends).
    pub stop: Option<StopReason>,
}

impl Default for ProxStats {
    fn default() -> Self {
        ProxStats {
            sweeps: 0,
            accepted: 0,
            rollbacks: 0,
            r_scale: 1.0,
            last_step: f64::INFINITY,
            stop: None,
        }
    }
}
