//! PROX Jacobi and Gauss-Seidel (Erleben 2017 §4, Algorithms 1 and 2) with adaptive
//! r-factors, as a [`Method`]: one iteration is one sweep and its divergence test.
//!
//! Checked by `tests/laws/prox_solvers.rs`.

use std::ops::ControlFlow;

use nalgebra::DVector;

use super::operator::{Op, spectral_extremes};
use super::options::{ProxOptions, ProxStats, StopReason};
use super::problem::{Form, ProxProblem};
use super::rfactor::{RBlock, RFactor, initial_blocks};
use super::sweep::{ProxState, sweep};
use crate::merit::Residual;
use crate::policy::rollback::DivergenceTest;
use crate::problem::{ProblemError, check_len, fmt_num};
use crate::solver::MethodOptions;
use crate::solver::{
    Iterate, Method, Params, SolveError, Solved, Status, Step, solve, solve_started,
};

/// What PROX keeps between iterations and across problems of one structure: the options,
/// the operator of the problem last loaded (the local form's block layout is reused by the
/// next problem with the same contacts and sparsity), that problem's initial r-factors,
/// and, during a solve, the iteration's state (the current r-factors, the last steps of the
/// divergence test). It does not borrow the problem.
#[derive(Debug, Clone)]
pub struct ProxPrepared {
    options: ProxOptions,
    /// `None` until a problem is loaded (the local form's layout is built by `prepare`).
    op: Option<Op>,
    /// The initial r-factors of the loaded problem (after `omega`).
    r0: Vec<RBlock>,
    /// `‖v(0)‖` of the loaded problem.
    free_norm: f64,
    /// The constant of the global strategies, 0 for the others.
    global_r: f64,
    /// The iteration's state, from `start`.
    run: Option<Run>,
}

/// The state of one solve: `λ^k`'s [`ProxState`], the trial sweep's, and the steps.
#[derive(Debug, Clone)]
struct Run {
    st: ProxState,
    trial: DVector<f64>,
    trial_st: ProxState,
    scratch: Vec<f64>,
    /// `r^k`, the last accepted step (infinite before the first).
    step: f64,
    /// The largest of the last `window` accepted steps.
    recent: DivergenceTest,
    /// The paper's step test that fired on the last accepted sweep.
    test: Option<StopReason>,
}

impl ProxPrepared {
    /// The symbolic part: checks the options and, for the local form, builds the block
    /// layout of `A` (a block CSR by contact, the layout a per-contact sweep reads).
    ///
    /// # Errors
    /// [`ProblemError::InvalidOption`] for an option out of range ([`ProxOptions::check`]).
    pub fn new(problem: &ProxProblem, options: &ProxOptions) -> Result<Self, ProblemError> {
        options.check()?;
        let op = match &problem.form {
            Form::Local(_) => Some(Op::load(problem, None)),
            Form::Global { .. } => None,
        };
        Ok(ProxPrepared {
            options: options.clone(),
            op,
            r0: Vec::new(),
            free_norm: 0.0,
            global_r: 0.0,
            run: None,
        })
    }

    /// The numeric part for `problem`: the values of `A` into the layout (or, for the global
    /// form, `H^T`, `M^-1 H` and `M^-1 q` by sparse solves against `M`'s factor), the
    /// diagonal blocks, the initial r-factors of [`ProxOptions::r_factor`] (§4.2,
    /// eq. 39-40) times [`ProxOptions::omega`], and `‖v(0)‖` for the error.
    ///
    /// # Errors
    /// [`ProblemError::InvalidOption`] (option `r-factor`) when the strategy does not fit
    /// the problem: a strategy that divides by `A_ii` (all but the global ones) meets
    /// `A_ii <= 0`, `BlockedMatrix` a singular friction block, `GlobalSpectral` a zero `A`.
    pub fn load(&mut self, problem: &ProxProblem) -> Result<(), ProblemError> {
        self.run = None;
        let op = Op::load(problem, self.op.take());
        let blocks = op.diag_blocks(problem);
        let strategy = self.options.r_factor;
        let global_r = match strategy {
            RFactor::Global { r } => r,
            RFactor::GlobalSpectral => {
                let (lo, hi) = spectral_extremes(problem, &op);
                let s = lo.abs() + hi.abs();
                if !(s > 0.0 && s.is_finite()) {
                    return Err(self.options.invalid(
                        "r_factor",
                        format!(
                            "global-spectral takes r = 1 / (|λ_min| + |λ_max|) of A, and \
                             |λ_min| + |λ_max| = {} (the Delassus operator is zero)",
                            fmt_num(s)
                        ),
                    ));
                }
                1.0 / s
            }
            _ => 0.0,
        };
        let mut r0 = initial_blocks(&problem.laws, &problem.offsets, &blocks, strategy, global_r)
            .map_err(|e| self.strategy_error(e))?;
        for r in &mut r0 {
            r.scale(self.options.omega);
        }
        self.free_norm = op.free_norm(problem);
        self.op = Some(op);
        self.r0 = r0;
        self.global_r = global_r;
        Ok(())
    }

    /// [`ProblemError::InvalidOption`] for an r-factor strategy that does not fit the
    /// loaded problem.
    fn strategy_error(&self, e: ProblemError) -> ProblemError {
        let name = self.options.r_factor.name();
        let reason = match e {
            ProblemError::NonPositiveDiagonal { what, row, value } => format!(
                "the {name} r-factors divide by the diagonal of A (Erleben 2017 eq. 39-40), \
                 and {what} has the non-positive diagonal entry {} in row {row}; a constant \
                 r-factor (global=R) does not divide",
                fmt_num(value)
            ),
            ProblemError::SingularBlock { contact } => format!(
                "the {name} r-factors invert each contact's friction block A_FF (eq. 40), \
                 and that of contact {contact} is singular"
            ),
            e => return e,
        };
        self.options.invalid("r_factor", reason)
    }

    /// A fresh solve from `λ` (the loaded problem's initial r-factors; `v = M^-1 (q + H λ)`
    /// for the global form).
    fn begin(&mut self, lam: &DVector<f64>) {
        let st = self.state(lam);
        self.run = Some(Run {
            trial_st: st.clone(),
            st,
            trial: lam.clone(),
            scratch: Vec::new(),
            step: f64::INFINITY,
            recent: DivergenceTest::new(self.options.window),
            test: None,
        });
    }

    fn op(&self) -> &Op {
        self.op
            .as_ref()
            .expect("a problem is loaded (Method::start)")
    }

    /// The options in effect.
    pub fn options(&self) -> &ProxOptions {
        &self.options
    }

    /// The constant of the global strategies (the `r` of `Global`, or the spectral
    /// `1 / (|λ_min| + |λ_max|)`); 0 for the others.
    pub fn global_r(&self) -> f64 {
        self.global_r
    }

    /// A fresh state for the iterate `λ` (`m` entries) of the loaded problem: its initial
    /// r-factors, and `v = M^-1 (q + H λ)` for the global form.
    ///
    /// # Panics
    /// Before a problem is loaded.
    pub fn state(&self, lam: &DVector<f64>) -> ProxState {
        ProxState::new(self.op(), &self.r0, lam.as_slice())
    }

    /// One sweep (Algorithm 1 lines 3-9, or Algorithm 2 lines 3-10) of the loaded
    /// `problem` with the state's r-factors, in place: `λ^{k+1}` from `λ^k`. `scratch` is
    /// used by Jacobi (`m` entries) and may be empty for Gauss-Seidel.
    ///
    /// # Panics
    /// Before a problem is loaded.
    pub fn sweep(
        &self,
        problem: &ProxProblem,
        lam: &mut DVector<f64>,
        st: &mut ProxState,
        scratch: &mut Vec<f64>,
    ) {
        let o = &self.options;
        sweep(
            self.op(),
            problem,
            o.scheme,
            o.blocks,
            lam.as_mut_slice(),
            st,
            scratch,
        );
    }

    /// The error of `λ` with its state, in the measure of
    /// [`ProxProblem::error_with_velocity`].
    ///
    /// # Panics
    /// Before a problem is loaded.
    pub fn error(&self, problem: &ProxProblem, lam: &DVector<f64>, st: &ProxState) -> Residual {
        let mut v = vec![0.0; lam.len()];
        self.op()
            .velocity_into(problem.b.as_slice(), lam.as_slice(), &st.v, &mut v);
        problem.error_with_velocity(lam.as_slice(), &v, self.free_norm)
    }
}

/// PROX Jacobi and Gauss-Seidel (Erleben 2017 §4, Algorithms 1 and 2) with adaptive
/// r-factors, as a [`Method`] on a [`ProxProblem`] (the proximal model of LCPs, boxed LCPs,
/// local and global friction problems); options [`ProxOptions`], statistics
/// [`ProxStats`]. [`prox_solve`] runs it.
///
/// * `prepare` ([`ProxPrepared::new`]) checks the options and builds the local form's
///   block layout;
/// * `start` ([`ProxPrepared::load`]) loads the problem's values and its initial
///   r-factors, and starts the divergence test from the warm start;
/// * `step` is one sweep: if its step `‖λ^{k+1} - λ^k‖_∞` (eq. 27) grew, the sweep is
///   rolled back, `λ^k` kept and every r-factor shrunk, `R <- ν R` ([`Step::Rejected`]:
///   it counts towards `params.max_iter` and in the iterations, but is neither measured nor
///   observed); otherwise it is accepted ([`Step::Moved`]), or, when one of the paper's
///   step tests is set and fires ([`ProxOptions::step_abs_tol`],
///   [`ProxOptions::step_rel_tol`]), accepted and the end ([`Step::Finished`] with status
///   `Stopped`: the loop's own tests on that iterate, the tolerance first, take precedence).
///
/// The loop ([`crate::solver::solve`]) measures the error
/// ([`ProxProblem::error_with_velocity`]) of the accepted iterates every
/// `params.check_every` sweeps and stops at `params.tol`; [`ProxStats::stop`] says why it
/// stopped.
///
/// # Errors
/// [`SolveError::Problem`] for a wrong `x` length or an invalid option
/// ([`ProblemError::InvalidOption`]: out of range, or an r-factor strategy that does not fit
/// the problem, see [`ProxPrepared::load`]); [`SolveError::NoConvergence`] at the sweep cap
/// (with the measured error of the last accepted iterate and the statistics);
/// [`SolveError::Diverged`] if an iterate overflows without backtracking.
///
/// # Reference
/// Erleben 2017 §4, Algorithms 1-2 (the Gauss-Seidel variant uses the `w = M^-1 J^T λ`
/// factorisation of Erleben 2007, eq. 25-26); r-factor strategies §4.2, eq. 39-40.
///
/// The lifetime is the one of the [`ProxProblem`] view it works on (inferred: call it as
/// `solve::<ProxMethod>`).
#[derive(Debug, Clone, Copy)]
pub struct ProxMethod<'a>(std::marker::PhantomData<&'a ()>);

impl<'a> Method for ProxMethod<'a> {
    type Problem = ProxProblem<'a>;
    type Options = ProxOptions;
    type Prepared = ProxPrepared;
    type Stats = ProxStats;

    /// PROX rests on plateaus while its r-factors adapt ([`crate::solver::StallRule::PROX`]).
    fn stall_rule(_: &Self::Prepared) -> crate::solver::StallRule {
        crate::solver::StallRule::PROX
    }

    fn prepare(problem: &ProxProblem, options: &ProxOptions) -> Result<ProxPrepared, SolveError> {
        Ok(ProxPrepared::new(problem, options)?)
    }

    fn start(
        prepared: &mut ProxPrepared,
        problem: &ProxProblem,
        x: &DVector<f64>,
    ) -> Result<(), SolveError> {
        prepared.load(problem)?;
        prepared.begin(x);
        Ok(())
    }

    // ANCHOR: prox_loop
    /// One sweep and the divergence test of Algorithms 1-2 (lines 10-15): sweep; if the
    /// step `‖λ^{k+1} - λ^k‖_∞` grew (or is not finite), roll back to `λ^k` and shrink
    /// `R <- ν R`; otherwise accept.
    fn step(
        prepared: &mut ProxPrepared,
        problem: &ProxProblem,
        x: &mut DVector<f64>,
        stats: &mut ProxStats,
    ) -> Result<Step, SolveError> {
        let ProxPrepared {
            options, op, run, ..
        } = prepared;
        let op = op.as_ref().expect("started");
        let run = run.as_mut().expect("started");
        run.trial.copy_from(x);
        run.trial_st.v.copy_from_slice(&run.st.v);
        let (scheme, blocks) = (options.scheme, options.blocks);
        let trial = run.trial.as_mut_slice();
        sweep(
            op,
            problem,
            scheme,
            blocks,
            trial,
            &mut run.trial_st,
            &mut run.scratch,
        );
        stats.sweeps += 1;
        let new_step = (&run.trial - &*x).amax();
        // The paper's test `r^{k+1} > r^k`, over the last `window` accepted steps.
        let grew = run.recent.grew(new_step, x.amax().max(run.trial.amax()));
        if options.adaptive && grew {
            // Divergence detected: keep λ^k, shrink every r-factor.
            let nu = options.nu();
            stats.rollbacks += 1;
            stats.r_scale *= nu;
            for (r, r_trial) in run.st.r.iter_mut().zip(run.trial_st.r.iter_mut()) {
                r.scale(nu);
                *r_trial = *r;
            }
            return Ok(Step::Rejected);
        }
        std::mem::swap(x, &mut run.trial);
        std::mem::swap(&mut run.st, &mut run.trial_st);
        let old_step = std::mem::replace(&mut run.step, new_step);
        run.recent.accept(new_step);
        stats.accepted += 1;
        stats.last_step = new_step;
        // The paper's step tests (off unless set): a short step, or one as long as the last.
        run.test = if options.step_abs_tol > 0.0 && new_step <= options.step_abs_tol {
            Some(StopReason::StepAbsolute)
        } else if old_step.is_finite()
            && (old_step - new_step).abs() <= options.step_rel_tol * old_step
            && options.step_rel_tol > 0.0
        {
            Some(StopReason::StepRelative)
        } else {
            None
        };
        Ok(match run.test {
            Some(_) => Step::Finished(Status::Stopped),
            None => Step::Moved,
        })
    }
    // ANCHOR_END: prox_loop

    fn error(prepared: &ProxPrepared, problem: &ProxProblem, x: &DVector<f64>) -> Residual {
        let run = prepared.run.as_ref().expect("started");
        prepared.error(problem, x, &run.st)
    }

    fn ended(prepared: &ProxPrepared, stats: &mut ProxStats, status: Status, claimed: bool) {
        let test = prepared.run.as_ref().and_then(|r| r.test);
        stats.stop = Some(match (claimed, status, test) {
            (true, _, Some(test)) => test,
            (_, Status::Converged, _) => StopReason::Converged,
            (_, Status::MaxIterations, _) => StopReason::MaxIterations,
            // PROX's sweeps never claim a stall: the loop's stall rule does
            (_, Status::Stalled, _) => StopReason::Stalled,
            (_, Status::TimeLimit, _) => StopReason::TimeLimit,
            (_, Status::Stopped, _) => StopReason::Observer,
        });
    }
}

/// PROX for one borrowed [`ProxProblem`], its options checked and the problem loaded: a
/// thin wrapper of [`ProxPrepared`] for sweeping by hand (tests, benchmarks) and for
/// inspecting the initial r-factors. [`Prox::solve`] is [`prox_solve`] without the
/// preparation.
///
/// # Reference
/// Erleben 2017 §4, Algorithms 1-2; r-factor strategies §4.2.
#[derive(Debug, Clone)]
pub struct Prox<'a> {
    problem: &'a ProxProblem<'a>,
    prepared: ProxPrepared,
}

impl<'a> Prox<'a> {
    /// Checks the options and loads the problem ([`ProxPrepared::new`], then
    /// [`ProxPrepared::load`]).
    ///
    /// # Errors
    /// [`ProblemError::InvalidOption`] for an option out of range, or an r-factor strategy
    /// that does not fit the problem.
    pub fn new(problem: &'a ProxProblem<'a>, options: ProxOptions) -> Result<Self, ProblemError> {
        let mut prepared = ProxPrepared::new(problem, &options)?;
        prepared.load(problem)?;
        Ok(Prox { problem, prepared })
    }

    /// The options in effect.
    pub fn options(&self) -> &ProxOptions {
        self.prepared.options()
    }

    /// See [`ProxPrepared::global_r`].
    pub fn global_r(&self) -> f64 {
        self.prepared.global_r()
    }

    /// The initial r-factor of row `i`'s diagonal (after `omega`; for inspection and
    /// tests).
    pub fn initial_r(&self, row: usize) -> f64 {
        let c = self.problem.offsets.partition_point(|&o| o <= row) - 1;
        let k = row - self.problem.offsets[c];
        let r = &self.prepared.r0[c];
        r.m[k * r.d + k]
    }

    /// A fresh state for the iterate `λ` (see [`ProxPrepared::state`]).
    pub fn state(&self, lam: &DVector<f64>) -> ProxState {
        self.prepared.state(lam)
    }

    /// The error of `λ` with its state (see [`ProxPrepared::error`]).
    pub fn error(&self, lam: &DVector<f64>, st: &ProxState) -> Residual {
        self.prepared.error(self.problem, lam, st)
    }

    /// One sweep in place (see [`ProxPrepared::sweep`]).
    pub fn sweep(&self, lam: &mut DVector<f64>, st: &mut ProxState, scratch: &mut Vec<f64>) {
        self.prepared.sweep(self.problem, lam, st, scratch);
    }

    /// Solves from the warm start `x` (`m` entries), which receives the answer: the loop of
    /// [`crate::solver::solve`] over [`ProxMethod`], without preparing again.
    ///
    /// # Errors
    /// As [`prox_solve`].
    pub fn solve(
        &self,
        x: &mut DVector<f64>,
        params: &Params,
        observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
    ) -> Result<Solved<ProxStats>, SolveError<ProxStats>> {
        check_len("x", self.problem.dim(), x.len())?;
        let mut prepared = self.prepared.clone();
        prepared.begin(x);
        solve_started::<ProxMethod>(&mut prepared, self.problem, x, params, observer)
    }
}

/// Solves a [`ProxProblem`] by PROX Jacobi or Gauss-Seidel ([`ProxMethod`]) from the warm
/// start `x` (`m` entries, zeros for a cold start), which receives the answer, or on
/// failure the last accepted iterate. `params` holds the tolerance on the error of
/// [`ProxProblem::error_with_velocity`] and the sweep cap (every sweep counts, rolled
/// back or not); `options` the scheme, r-factors and divergence test. The report's
/// `stats` (also in [`SolveError::NoConvergence`]) count the sweeps, rollbacks and the
/// shrinking of `R`, and say why it stopped.
///
/// # Errors
/// See [`ProxMethod`].
///
/// # Reference
/// Erleben 2017 §4, Algorithms 1-2, §4.2.
///
/// # Example
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::problem::{FrictionContact, FrictionKind};
/// use nonsmooth::prox::{ProxOptions, ProxProblem, RFactor, StopReason, prox_solve};
/// use nonsmooth::solver::{Params, no_observer};
/// // One contact pushed into the ground with a small tangential velocity: it sticks.
/// let fc = FrictionContact::new(DMatrix::<f64>::identity(3, 3).into(),
///     DVector::from_vec(vec![-1.0, 0.1, 0.0]), DVector::from_vec(vec![0.5]),
///     FrictionKind::Coulomb).unwrap();
/// let p = ProxProblem::from_friction_contact(&fc);
/// let mut r = DVector::zeros(3);
/// let opts = ProxOptions { r_factor: RFactor::Local, ..Default::default() };
/// let info = prox_solve(&p, &mut r, &Params { tol: 1e-12, ..Default::default() }, &opts,
///                       &mut no_observer()).unwrap();
/// assert!(info.error.rel <= 1e-12 && (r[0] - 1.0).abs() < 1e-12 && (r[1] + 0.1).abs() < 1e-12);
/// assert_eq!(info.stats.stop, Some(StopReason::Converged));
/// assert_eq!(info.stats.sweeps, info.iterations);
/// ```
pub fn prox_solve(
    problem: &ProxProblem,
    x: &mut DVector<f64>,
    params: &Params,
    options: &ProxOptions,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<Solved<ProxStats>, SolveError<ProxStats>> {
    solve::<ProxMethod>(problem, x, params, options, observer)
}
