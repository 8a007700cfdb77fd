//! The non-smooth Newton iteration of one time step (Macklin et al. 2019 §5-8,
//! Algorithm 1; NOTES 2.5-2.11).
//!
//! The discrete equations in `(u, λ)` (NOTES 2.5):
//!
//! ```text
//! M (u - ũ) - h J_b^T λ_b - h J_n^T λ_n - h J_f^T λ_f = 0
//! C_b(q(u)) + E λ_b = 0
//! φ_n(r_n λ_n, C_n(q(u))) = 0
//! D^T u + W λ_f = 0        (λ_n > 0; λ_f = 0 otherwise)
//! ```
//!
//! with `q(u)` the implicit position update ([`super::state`]). Constraints are enforced
//! on positions, so no stabilisation term is needed. Each iteration evaluates the rows at
//! `q(u)`, assembles the Newton system ([`super::system`]), solves its Schur complement
//! with an inner linear solver ([`super::linear`]), and takes the damped step
//! `u += α Δu`, `λ += α Δλ̂ / h` (§8.1), optionally with a backtracking line search on
//! the residual, and updates the geometric stiffness ([`super::geometric_stiffness`]).

use nalgebra::DVector;
use serde::Serialize;

use super::geometric_stiffness::GeometricStiffness;
use super::linear::{self, InnerError, InnerOptions};
use super::model::Model;
use super::rows::{self, PointContact, Row};
use super::state::Dofs;
use super::system::{self, FrictionForm, Ncp, NewtonSystem};

/// Options of the implicit Newton stepper. Every field has a default; build with
/// `ImplicitOptions { alpha: 0.7, ..Default::default() }`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImplicitOptions {
    /// The NCP function of normal and friction rows. Default [`Ncp::Fb`].
    pub ncp: Ncp,
    /// The complementarity preconditioner (§7). Default on.
    pub preconditioner: bool,
    /// The inner linear solver and its iterations (§8.2). Default PCR, 20 iterations
    /// (the paper's fixed count; Table 2 uses 10 to 80).
    pub inner: InnerOptions,
    /// Newton iterations at most (`>= 1`). Default 20.
    pub newton_iterations: usize,
    /// Stop when the residual ([`NewtonSystem::residual`], m/s) is at most this (`>= 0`;
    /// 0 runs all `newton_iterations`, as the paper's fixed count). Default `1e-6` m/s.
    pub tol: f64,
    /// The damping fraction `α` in `(0, 1]` of each Newton step (§8.1). Default 1.
    pub alpha: f64,
    /// Backtracking line search from `α` (halving, at most 10 times) until the merit
    /// [`NewtonSystem::merit`] decreases sufficiently (Armijo) — the option the paper
    /// found to stall with friction (§8.1). Default off.
    pub line_search: bool,
    /// The identity shift `ε` of the Schur complement (§8.4), `>= 0`, in the units of
    /// `J M~⁻¹ J^T` (1/kg for translation rows). Default `1e-9`.
    pub regularisation: f64,
    /// A Levenberg-Marquardt shift of the Schur complement's contact rows relative to
    /// their scale: `damping · (J M~⁻¹ J^T)_ii` is added to the diagonal entry of each
    /// normal and friction row (dimensionless, `>= 0`; [`system::schur_damped`]). Not in
    /// the paper. It bounds the step of multipliers of redundant contacts (a box face
    /// resting on four corners has more contact rows than the body has degrees of
    /// freedom, and `J M~⁻¹ J^T` is singular), which the absolute `regularisation` of
    /// `1e-9` leaves free to grow by `1e9` per iteration. Joint and element rows are not
    /// shifted: they are independent by construction, and a long chain's are badly
    /// conditioned, so a shift there would slow every step to a crawl. It changes the
    /// step, not the equations: a converged answer is exact. Default 0.
    pub damping: f64,
    /// The diagonal geometric stiffness approximation (§8.3). Default on.
    pub geometric_stiffness: bool,
    /// The fastest a contact that starts the step overlapping is pushed apart (m/s,
    /// finite, `>= 0`): an overlap `d` is closed at `C_n = min(0, h v_r - d)`
    /// ([`super::step::point_contacts_with`]). Removing the whole overlap within the step
    /// (`v_r` unbounded: the paper's `C_n >= 0`) leaves the bodies with the outward
    /// velocity `d / h`, energy the contact adds; 0 never removes an overlap. Not in the
    /// paper. Default `0.01` m/s.
    pub recovery_speed: f64,
    /// How friction is linearised ([`FrictionForm`]). Default [`FrictionForm::Compliance`],
    /// the paper's; [`FrictionForm::NaturalMap`] needs an inner solver for matrices that
    /// are not symmetric (GMRES or direct).
    pub friction: FrictionForm,
    /// Start each step from the last step's velocities and multipliers (matched by
    /// contact identity) instead of `u = 0`, `λ = 0` ([`super::step::WarmStart`]).
    /// Default on.
    pub warm_start: bool,
}

impl Default for ImplicitOptions {
    fn default() -> Self {
        ImplicitOptions {
            ncp: Ncp::Fb,
            preconditioner: true,
            inner: InnerOptions::default(),
            newton_iterations: 20,
            tol: 1e-6,
            alpha: 1.0,
            line_search: false,
            regularisation: 1e-9,
            damping: 0.0,
            geometric_stiffness: true,
            recovery_speed: 0.01,
            friction: FrictionForm::Compliance,
            warm_start: true,
        }
    }
}

impl ImplicitOptions {
    /// Checks the numbers.
    ///
    /// # Errors
    /// A message naming the option: no Newton or inner iteration, `α` outside `(0, 1]`,
    /// a negative or non-finite tolerance, regularisation or recovery speed.
    pub fn validate(&self) -> Result<(), String> {
        if self.newton_iterations == 0 {
            return Err("newton_iterations must be at least 1".into());
        }
        if self.inner.iterations == 0 {
            return Err("the inner solver needs at least 1 iteration".into());
        }
        if !(self.alpha > 0.0 && self.alpha <= 1.0) {
            return Err(format!("alpha must be in (0, 1], not {}", self.alpha));
        }
        if !(self.tol >= 0.0 && self.tol.is_finite()) {
            return Err(format!("tol must be finite and >= 0, not {}", self.tol));
        }
        if !(self.regularisation >= 0.0 && self.regularisation.is_finite()) {
            return Err(format!(
                "regularisation must be finite and >= 0, not {}",
                self.regularisation
            ));
        }
        if !(self.damping >= 0.0 && self.damping.is_finite()) {
            return Err(format!(
                "damping must be finite and >= 0, not {}",
                self.damping
            ));
        }
        if !(self.recovery_speed >= 0.0 && self.recovery_speed.is_finite()) {
            return Err(format!(
                "recovery_speed must be finite and >= 0, not {}",
                self.recovery_speed
            ));
        }
        if self.friction == FrictionForm::NaturalMap && !self.inner.solver.handles_nonsymmetric() {
            return Err(format!(
                "the natural-map friction gives a Newton system that is not symmetric; the \
                 inner solver {} assumes a symmetric one: use gmres or direct, or the \
                 compliance friction",
                self.inner.solver.name()
            ));
        }
        if !(self.inner.rel_tol >= 0.0 && self.inner.rel_tol.is_finite()) {
            return Err(format!(
                "the inner relative tolerance must be finite and >= 0, not {}",
                self.inner.rel_tol
            ));
        }
        Ok(())
    }
}

/// What one step's Newton iteration did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NewtonReport {
    /// Newton iterations taken.
    pub iterations: usize,
    /// Inner iterations summed over the Newton iterations.
    pub inner_iterations: usize,
    /// The residual (m/s) at the start and after each iteration. The step returns the
    /// iterate with the smallest of them ([`NewtonReport::residual`]).
    pub residuals: Vec<f64>,
    /// The residual of the returned iterate (m/s): the smallest of `residuals`.
    pub residual: f64,
    /// The point contacts of the step (rigid and particle contacts).
    pub contacts: usize,
    /// Whether the residual reached the tolerance (with `tol = 0`: whether every
    /// iteration ran; the residual says how far it got).
    pub converged: bool,
    /// The worst violation of a bilateral row at the end (m or rad, or the element
    /// rows' unit), compliance included: `max |C + α λ|`.
    pub bilateral_error: f64,
    /// The worst penetration at the end, `max(0, -C_n)` over contacts and limits (m or rad),
    /// beyond the overlap a contact was allowed to keep
    /// ([`super::step::point_contacts_with`]); collision detection at the new poses
    /// measures the true overlap.
    pub penetration: f64,
    /// The worst friction-law residual at the end (m/s).
    pub friction_error: f64,
    /// The multipliers at the end (N), one per row.
    #[serde(skip)]
    pub lambda: DVector<f64>,
    /// The rows at the end.
    #[serde(skip)]
    pub rows: Vec<Row>,
}

/// Why a step failed.
#[derive(Debug, Clone, PartialEq)]
pub enum ImplicitError {
    /// The options are out of range.
    Options(String),
    /// The model is invalid (a particle's mass, a joint naming a body that does not
    /// exist, ...); see [`super::Model::validate`].
    Model(String),
    /// The inner linear solver failed.
    Inner {
        /// The Newton iteration.
        iteration: usize,
        /// Its error.
        error: InnerError,
    },
    /// An iterate is not finite (divergence).
    Diverged {
        /// The Newton iteration.
        iteration: usize,
    },
}

impl std::fmt::Display for ImplicitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImplicitError::Options(m) => write!(f, "implicit Newton options: {m}"),
            ImplicitError::Model(m) => write!(f, "invalid model: {m}"),
            ImplicitError::Inner { iteration, error } => {
                write!(
                    f,
                    "Newton iteration {iteration}: the inner linear solver failed: {error}"
                )
            }
            ImplicitError::Diverged { iteration } => write!(
                f,
                "Newton iteration {iteration} diverged (a velocity or multiplier is not finite); \
                 try damping (alpha < 1), the line search, regularisation or a smaller time step"
            ),
        }
    }
}

impl std::error::Error for ImplicitError {}

// ANCHOR: newton
/// Solves one time step's discrete equations from `u = 0`, `λ = 0` (the paper's start,
/// §8.1). Returns the end-of-step velocity and the report.
///
/// # Errors
/// [`ImplicitError`] for bad options, a failed inner solve or a non-finite iterate.
pub fn solve(
    dofs: &Dofs,
    model: &Model,
    contacts: &[PointContact],
    opts: &ImplicitOptions,
) -> Result<(DVector<f64>, NewtonReport), ImplicitError> {
    solve_from(dofs, model, contacts, opts, None)
}

/// [`solve`] from the start `(u, λ)` given (`u` of length `dofs.n`, `λ` one per row in
/// the order of [`rows::evaluate`], N), or from `u = 0`, `λ = 0` for `None` or a start
/// of the wrong lengths.
///
/// # Errors
/// As [`solve`].
pub fn solve_from(
    dofs: &Dofs,
    model: &Model,
    contacts: &[PointContact],
    opts: &ImplicitOptions,
    start: Option<(DVector<f64>, DVector<f64>)>,
) -> Result<(DVector<f64>, NewtonReport), ImplicitError> {
    opts.validate().map_err(ImplicitError::Options)?;
    let h = dofs.h;
    let mut u = DVector::zeros(dofs.n);
    let mut rows = rows::evaluate(dofs, model, contacts, &u);
    let mut lambda = DVector::zeros(rows.len());
    if let Some((u0, l0)) = start {
        if u0.len() == u.len()
            && l0.len() == lambda.len()
            && u0.iter().chain(l0.iter()).all(|v| v.is_finite())
        {
            u = u0;
            lambda = l0;
            rows = rows::evaluate(dofs, model, contacts, &u);
        }
    }
    let mut stiffness = GeometricStiffness::new(dofs.n);
    if opts.geometric_stiffness {
        stiffness.update(&u, &system::csr(&rows, dofs.n, |_, v| v), &lambda, h);
    }
    let mut minv = dofs.inverse_blocks(&stiffness.shift);
    let mut sys = system::assemble_with(
        dofs,
        &rows,
        &u,
        &lambda,
        &minv,
        opts.ncp,
        opts.preconditioner,
        opts.friction,
    );
    let mut residuals = vec![sys.residual()];
    let (mut iterations, mut inner_iterations) = (0, 0);
    // The iterate with the smallest residual: what the step returns when the iteration
    // stops at its cap (Newton on redundant contacts can wander; the last iterate is not
    // always the best).
    let mut best = (
        sys.residual(),
        u.clone(),
        lambda.clone(),
        rows.clone(),
        sys.clone(),
    );
    while iterations < opts.newton_iterations && !(opts.tol > 0.0 && sys.residual() <= opts.tol) {
        iterations += 1;
        // The Schur complement (eq. 59) and the inner solve.
        let (a, rhs) = system::schur_damped(&sys, &minv, opts.regularisation, opts.damping);
        let mut d_impulse = DVector::zeros(rows.len());
        let report = linear::solve(&a, &rhs, &mut d_impulse, &opts.inner).map_err(|error| {
            ImplicitError::Inner {
                iteration: iterations,
                error,
            }
        })?;
        inner_iterations += report.iterations;
        let du = system::velocity_step(&sys, &minv, &d_impulse);
        // The damped update, with an optional backtracking line search on the merit.
        let mut alpha = opts.alpha;
        let before = sys.merit();
        loop {
            let u_try = &u + &du * alpha;
            let l_try = &lambda + &d_impulse * (alpha / h);
            if !(u_try.iter().all(|v| v.is_finite()) && l_try.iter().all(|v| v.is_finite())) {
                return Err(ImplicitError::Diverged {
                    iteration: iterations,
                });
            }
            let rows_try = rows::evaluate(dofs, model, contacts, &u_try);
            if opts.geometric_stiffness {
                stiffness.update(&u_try, &system::csr(&rows_try, dofs.n, |_, v| v), &l_try, h);
                minv = dofs.inverse_blocks(&stiffness.shift);
            }
            let sys_try = system::assemble_with(
                dofs,
                &rows_try,
                &u_try,
                &l_try,
                &minv,
                opts.ncp,
                opts.preconditioner,
                opts.friction,
            );
            // Armijo's sufficient decrease of the merit `|F|²`, whose slope along an
            // exact Newton step is `-2 |F|²`.
            let accept = !opts.line_search
                || sys_try.merit() <= (1.0 - 1e-4 * alpha) * before
                || alpha < opts.alpha / 1000.0;
            if accept {
                u = u_try;
                lambda = l_try;
                rows = rows_try;
                sys = sys_try;
                break;
            }
            alpha *= 0.5;
        }
        residuals.push(sys.residual());
        if sys.residual() <= best.0 {
            best = (
                sys.residual(),
                u.clone(),
                lambda.clone(),
                rows.clone(),
                sys.clone(),
            );
        }
    }
    let (_, u, lambda, rows, sys) = best;
    let converged = if opts.tol > 0.0 {
        sys.residual() <= opts.tol
    } else {
        true
    };
    let report = finish(
        &rows,
        &lambda,
        &sys,
        iterations,
        inner_iterations,
        residuals,
        converged,
    );
    Ok((u, report))
}
// ANCHOR_END: newton

fn finish(
    rows: &[Row],
    lambda: &DVector<f64>,
    sys: &NewtonSystem,
    iterations: usize,
    inner_iterations: usize,
    residuals: Vec<f64>,
    converged: bool,
) -> NewtonReport {
    use super::rows::RowKind;
    let (mut bilateral, mut penetration, mut friction) = (0.0f64, 0.0f64, 0.0f64);
    for (i, row) in rows.iter().enumerate() {
        match row.kind {
            RowKind::Bilateral { compliance } => {
                bilateral = bilateral.max((row.value + compliance * lambda[i]).abs())
            }
            RowKind::Unilateral { .. } => penetration = penetration.max(-row.value),
            RowKind::Friction { .. } => friction = friction.max(sys.row_residual[i]),
        }
    }
    NewtonReport {
        iterations,
        inner_iterations,
        residual: sys.residual(),
        contacts: rows
            .iter()
            .filter(|r| matches!(r.kind, RowKind::Unilateral { contact: Some(_) }))
            .count(),
        residuals,
        converged,
        bilateral_error: bilateral,
        penetration,
        friction_error: friction,
        lambda: lambda.clone(),
        rows: rows.to_vec(),
    }
}
