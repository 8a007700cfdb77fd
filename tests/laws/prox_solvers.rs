//! Laws of the PROX schemes (Erleben 2017 §4, Algorithms 1-2):
//!
//! 1. What they return solves the problem: on random CCP problems (one solution for SPD
//!    `W`) PROX Gauss-Seidel and Jacobi land on the answer of the blocked Gauss-Seidel with
//!    an exact local solver. Without backtracking they converge wherever the initial
//!    r-factors guarantee it; a run that does not converge (a cycle outside the guarantee,
//!    or backtracking that shrank `R` until the iterates stopped moving) must report so; on
//!    Coulomb problems a converged answer has a small natural-map error measured by
//!    `merit::fc3d_error` (Siconos's formula, not the solver's own).
//! 2. The global form (`w = M^-1 J^T λ` kept up to date, `W` never formed) makes the same
//!    iterates as the local form with `W = J M^-1 J^T` formed, with and without torsion rows.
//! 3. Backtracking: every accepted step is no longer than the one before (the paper's test,
//!    window 1), a rolled-back sweep leaves `λ` unchanged, and the counts add up.
//! 4. The Newton impact law: the answer has `v_N^+ >= -ε v_N^-`, with equality where the
//!    contact pushes.
//! 5. Coulomb-Contensou: on spinning boxes the torsional friction torque is bounded by
//!    `μ_τ λ_N` and opposes the spin where it saturates.
//! 6. The paper's Blocked strategy with a matrix r (eq. 40) converges, on one sliding contact
//!    with anisotropic `A_FF`, to the radial projection of the stick force onto the disk:
//!    a fixed point that is not Coulomb's law.

use crate::bodies;
use crate::strategies;

use std::ops::ControlFlow;

use nalgebra::{DMatrix, DVector, Vector3};
use nonsmooth::friction::FrictionLaw;
use nonsmooth::matrix::Matrix;
use nonsmooth::merit::fc3d_error;
use nonsmooth::multibody::{Assembly, BodyRef, Contact, RigidBody, StepParams, scenes};
use nonsmooth::problem::{FrictionContact, FrictionKind, ProblemError};
use nonsmooth::prox::{
    ContactLaw, Prox, ProxOptions, ProxProblem, ProxStats, RFactor, Scheme, StopReason, prox_solve,
};
use nonsmooth::solver::{Iterate, Params, SolveError, Status, no_observer};
use nonsmooth::splitting::blocked_gauss_seidel;
use proptest::prelude::*;
use strategies::friction_problem;

/// The strategies whose initial r is scaled to `A` (a constant `r` may be too large for a
/// given `A`; see `a_two_cycle_is_rolled_back`).
fn strategy() -> impl Strategy<Value = RFactor> {
    prop_oneof![
        Just(RFactor::GlobalSpectral),
        Just(RFactor::Local),
        Just(RFactor::Blocked),
    ]
}

/// Whether the initial r-factors make a CCP sweep provably convergent. On the CCP, PROX is
/// a projected gradient method on `1/2 λᵀWλ + qᵀλ` over the cones, scaled by `R`: Jacobi
/// converges when `2 R⁻¹ - W` is positive definite, that is `λ_max(R^½ W R^½) < 2`, and
/// Gauss-Seidel when the same holds for each contact's own block (each block step then
/// decreases the objective). GlobalSpectral always qualifies; Local and Blocked need not.
fn convergence_guaranteed(fc: &FrictionContact, prox: &Prox, scheme: Scheme) -> bool {
    let w = fc.w().to_dense();
    let n = w.nrows();
    let s = DVector::from_fn(n, |i, _| prox.initial_r(i).sqrt());
    let scaled = DMatrix::from_fn(n, n, |i, j| s[i] * w[(i, j)] * s[j]);
    let lambda_max = |m: DMatrix<f64>| m.symmetric_eigenvalues().max();
    match scheme {
        Scheme::Jacobi => lambda_max(scaled) < 2.0 * (1.0 - 1e-9),
        Scheme::GaussSeidel => (0..n / 3).all(|c| {
            lambda_max(scaled.view((3 * c, 3 * c), (3, 3)).into_owned()) < 2.0 * (1.0 - 1e-9)
        }),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn ccp_answers_agree_with_nsgs(
        fc in friction_problem(4, FrictionKind::Ccp),
        r_factor in strategy(),
        jacobi in any::<bool>(),
    ) {
        let p = ProxProblem::from_friction_contact(&fc);
        let scheme = if jacobi { Scheme::Jacobi } else { Scheme::GaussSeidel };
        let options = ProxOptions { scheme, r_factor, ..Default::default() };
        let guaranteed = convergence_guaranteed(&fc, &Prox::new(&p, options.clone()).unwrap(), scheme);
        let mut nsgs = DVector::zeros(12);
        blocked_gauss_seidel(&fc, &mut nsgs, &Params { tol: 1e-13, max_iter: 1_000_000, ..Default::default() }, &mut no_observer()).unwrap();
        let params = Params { tol: 1e-11, max_iter: 400_000, ..Default::default() };
        // The paper's solver (with backtracking), and the plain iteration with the initial r.
        for adaptive in [true, false] {
            let mut lam = DVector::zeros(12);
            let options = ProxOptions { adaptive, ..options.clone() };
            let result = prox_solve(&p, &mut lam, &params, &options, &mut no_observer());
            let stats: ProxStats = match &result {
                Ok(info) => info.stats.clone(),
                Err(e) => e.stats().cloned().unwrap_or_default(),
            };
            match result {
                Ok(info) => {
                    prop_assert_eq!(stats.stop, Some(StopReason::Converged));
                    prop_assert!((&lam - &nsgs).amax() <= 1e-6 * (1.0 + nsgs.amax()), "{} vs {}", lam, nsgs);
                    prop_assert!(info.error.rel <= 1e-11);
                }
                // Where the initial r guarantees convergence, the plain iteration must
                // converge. Elsewhere the plain iteration may diverge or cycle
                // (`a_two_cycle_is_rolled_back`), and the step test may roll back a
                // convergent run until `R` is too small to move (see the chapter): each must
                // then say so, with the error it reached.
                Err(SolveError::NoConvergence(info)) if adaptive || !guaranteed => {
                    prop_assert!(
                        matches!(stats.stop, Some(StopReason::MaxIterations | StopReason::Stalled)),
                        "{:?}", stats.stop
                    );
                    prop_assert!(info.error.rel > 1e-11 && info.error.rel.is_finite());
                }
                Err(SolveError::Diverged { error, .. }) if !adaptive && !guaranteed => {
                    prop_assert!(error.rel.is_finite());
                }
                Err(e) => prop_assert!(false, "{r_factor:?} {scheme:?} adaptive {adaptive} (guaranteed {guaranteed}): {e} {stats:?}"),
            }
        }
    }

    #[test]
    fn coulomb_answers_have_a_small_natural_map(
        fc in friction_problem(3, FrictionKind::Coulomb),
        r_factor in strategy(),
    ) {
        let p = ProxProblem::from_friction_contact(&fc);
        let options = ProxOptions { r_factor, ..Default::default() };
        let params = Params { tol: 1e-10, max_iter: 200_000, ..Default::default() };
        let mut lam = DVector::zeros(9);
        // Coulomb friction may have no convergent PROX sequence; judge what converged.
        if let Ok(info) = prox_solve(&p, &mut lam, &params, &options, &mut no_observer()) {
            let e = fc3d_error(&fc, &lam);
            prop_assert!((e.rel - info.error.rel).abs() <= 1e-12, "{} vs {}", e.rel, info.error.rel);
            prop_assert!(e.rel <= 1e-10 + 1e-12);
        }
    }

    #[test]
    fn global_and_local_forms_make_the_same_iterates(
        sys in bodies::system(4, 6),
        torsion in any::<bool>(),
        mu_tau in 0.001..0.05f64,
        r_factor in strategy(),
        jacobi in any::<bool>(),
    ) {
        prop_assume!(!sys.contacts.is_empty());
        let contacts: Vec<Contact> = sys.contacts.iter().map(|c| c.clone().with_torsion(mu_tau).unwrap()).collect();
        let step = StepParams { kind: FrictionKind::Coulomb, ..sys.step.clone() };
        let asm = Assembly::new(&sys.bodies, &contacts, &step).unwrap();
        let local = ProxProblem::from_assembly(&asm, torsion).unwrap();
        let global = ProxProblem::global_from_assembly(&asm, torsion).unwrap();
        prop_assert_eq!(local.dim(), contacts.len() * if torsion { 4 } else { 3 });
        let scheme = if jacobi { Scheme::Jacobi } else { Scheme::GaussSeidel };
        let options = ProxOptions { scheme, r_factor, adaptive: false, ..Default::default() };
        let a = Prox::new(&local, options.clone()).unwrap();
        let b = Prox::new(&global, options).unwrap();
        prop_assert!((a.initial_r(0) - b.initial_r(0)).abs() <= 1e-9 * a.initial_r(0));
        let (mut la, mut lb) = (DVector::zeros(local.dim()), DVector::zeros(local.dim()));
        let (mut sa, mut sb) = (a.state(&la), b.state(&lb));
        let mut scratch = Vec::new();
        for _ in 0..5 {
            a.sweep(&mut la, &mut sa, &mut scratch);
            b.sweep(&mut lb, &mut sb, &mut scratch);
            let scale = 1.0 + la.amax();
            prop_assert!((&la - &lb).amax() <= 1e-8 * scale, "{} vs {}", la, lb);
        }
        let (ea, eb) = (a.error(&la, &sa), b.error(&lb, &sb));
        prop_assert!((ea.abs - eb.abs).abs() <= 1e-7 * (1.0 + ea.abs), "{} vs {}", ea.abs, eb.abs);
    }

    #[test]
    fn backtracking_accepts_only_shorter_steps(
        fc in friction_problem(4, FrictionKind::Coulomb),
        r in 0.5..50.0f64,
        jacobi in any::<bool>(),
    ) {
        let p = ProxProblem::from_friction_contact(&fc);
        let scheme = if jacobi { Scheme::Jacobi } else { Scheme::GaussSeidel };
        let options = ProxOptions { scheme, r_factor: RFactor::Global { r }, ..Default::default() };
        let params = Params { tol: 1e-9, max_iter: 3000, ..Default::default() };
        let mut lam = DVector::zeros(12);
        let mut seen: Vec<(usize, DVector<f64>)> = vec![(0, lam.clone())];
        let mut observer = |it: &Iterate| { seen.push((it.iteration, it.x.clone())); ControlFlow::Continue(()) };
        let stats = match prox_solve(&p, &mut lam, &params, &options, &mut observer) {
            Ok(info) => info.stats,
            Err(e) => e.stats().cloned().expect("no other failure"),
        };
        let steps: Vec<f64> = seen.windows(2).map(|w| (&w[1].1 - &w[0].1).amax()).collect();
        for w in steps.windows(2) {
            prop_assert!(w[1] <= w[0], "step grew from {} to {}", w[0], w[1]);
        }
        // Each observed iterate is one accepted sweep; the gaps in the sweep count are the
        // rolled-back sweeps, during which λ did not change.
        let last = seen.last().unwrap().0;
        prop_assert_eq!(stats.accepted, seen.len() - 1);
        prop_assert!(last <= stats.sweeps);
        prop_assert_eq!(stats.accepted + stats.rollbacks, stats.sweeps);
        prop_assert!((stats.r_scale - 0.5f64.powi(stats.rollbacks as i32)).abs() <= 1e-12);
    }
}

/// One box falling onto the ground with restitution: the answer bounces.
#[test]
fn newton_impact_law_bounces() {
    for e in [0.0, 0.3, 0.8] {
        let h = Vector3::new(0.5, 0.5, 0.5);
        let body = RigidBody::solid_box(h, 1.0, Vector3::new(0.0, 0.0, 0.5))
            .unwrap()
            .with_velocity(Vector3::new(0.4, 0.0, -2.0), Vector3::zeros());
        let contacts: Vec<Contact> = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
            .iter()
            .map(|(x, y)| {
                Contact::new(
                    BodyRef::World,
                    0,
                    Vector3::new(*x, *y, 0.0),
                    Vector3::z(),
                    0.5,
                )
                .unwrap()
            })
            .collect();
        let asm = Assembly::new(&[body], &contacts, &StepParams::default()).unwrap();
        let before = asm.contact_velocity(asm.velocity());
        let vn: Vec<f64> = (0..4).map(|c| before[3 * c]).collect();
        let p = ProxProblem::from_assembly(&asm, false)
            .unwrap()
            .with_restitution(&[e; 4], &vn)
            .unwrap();
        let mut lam = DVector::zeros(12);
        let options = ProxOptions {
            r_factor: RFactor::Local,
            ..Default::default()
        };
        let params = Params {
            tol: 1e-12,
            max_iter: 100_000,
            ..Default::default()
        };
        prox_solve(&p, &mut lam, &params, &options, &mut no_observer()).unwrap();
        // The real post-impact velocity, from the body's new velocity.
        let u = asm.velocity_after(&lam);
        let after = asm.contact_velocity(&u);
        for c in 0..4 {
            assert!(
                after[3 * c] >= -e * vn[c] - 1e-9,
                "{e}: {} {}",
                after[3 * c],
                vn[c]
            );
            if lam[3 * c] > 1e-9 {
                assert!((after[3 * c] + e * vn[c]).abs() <= 1e-9);
            }
        }
        assert!((u[2] - 2.0 * e).abs() <= 0.1 + 1e-9, "{e}: bounce {}", u[2]);
    }
}

/// Spinning boxes in a stack (Coulomb-Contensou): the torsion rows carry a torque bounded by
/// `μ_τ λ_N` (the ellipsoid's third semi-axis) that opposes the spin where it saturates.
#[test]
fn torsional_friction_is_bounded_and_opposes_spin() {
    let mu_tau = 0.02;
    let mut scene = scenes::box_stack(3).unwrap().with_torsion(mu_tau).unwrap();
    for (i, b) in scene.bodies.iter_mut().enumerate() {
        b.angular_velocity = Vector3::new(0.0, 0.0, 2.0 + i as f64);
    }
    let asm = scene.assemble().unwrap();
    let p = ProxProblem::from_assembly(&asm, true).unwrap();
    assert_eq!(p.dim(), 4 * 12);
    assert!(matches!(
        p.laws()[0],
        ContactLaw::Friction(FrictionLaw::Ellipsoid { .. })
    ));
    let mut lam = DVector::zeros(p.dim());
    let options = ProxOptions {
        r_factor: RFactor::Local,
        window: usize::MAX,
        ..Default::default()
    };
    let params = Params {
        tol: 1e-10,
        max_iter: 200_000,
        ..Default::default()
    };
    let info = prox_solve(&p, &mut lam, &params, &options, &mut no_observer()).unwrap();
    assert!(info.error.rel <= 1e-10);
    let v = p.velocity(&lam);
    let mut saturated = 0;
    for c in 0..12 {
        let k = 4 * c;
        let (n, tau, spin) = (lam[k], lam[k + 3], v[k + 3]);
        // Inside the ellipsoid with semi-axes (μ n, μ n, μ_τ n):
        let q = (lam[k + 1] / (0.5 * n)).powi(2)
            + (lam[k + 2] / (0.5 * n)).powi(2)
            + (tau / (mu_tau * n)).powi(2);
        assert!(q <= 1.0 + 1e-8, "contact {c}: {q}");
        if spin.abs() > 1e-6 {
            saturated += 1;
            assert!(tau * spin < 0.0, "contact {c}: torque {tau} spin {spin}");
        }
    }
    assert!(saturated > 0, "some contacts keep spinning in one step");
}

/// Eq. 40 with one contact: R = diag(1 / A_nn, A_FF^-1). Gauss-Seidel with that R reaches
/// `λ_F = P_disk(-A_FF^-1 (A_FN λ_N + b_F))`, the stick force pulled radially onto the disk,
/// which is not Coulomb's law when `A_FF` is not a multiple of the identity.
#[test]
fn blocked_matrix_reaches_the_radial_projection_of_the_stick_force() {
    let a = DMatrix::from_row_slice(3, 3, &[1.0, 0.0, 0.0, 0.0, 1.0, 0.6, 0.0, 0.6, 3.0]);
    let q = DVector::from_vec(vec![-1.0, 2.0, -1.0]);
    let mu = 0.3;
    let fc = FrictionContact::new(
        Matrix::Dense(a.clone()),
        q.clone(),
        DVector::from_vec(vec![mu]),
        FrictionKind::Coulomb,
    )
    .unwrap();
    let p = ProxProblem::from_friction_contact(&fc);
    let params = Params {
        tol: 0.0,
        max_iter: 500,
        ..Default::default()
    };
    let mut lam = DVector::zeros(3);
    let options = ProxOptions {
        r_factor: RFactor::BlockedMatrix,
        step_abs_tol: 1e-15,
        ..Default::default()
    };
    let info = prox_solve(&p, &mut lam, &params, &options, &mut no_observer()).unwrap();
    assert_eq!(info.status, Status::Stopped);
    assert_eq!(info.stats.stop, Some(StopReason::StepAbsolute), "{info:?}");
    // The normal force is 1 (A_NF = 0); the stick force is -A_FF^-1 b_F.
    let aff = a.fixed_view::<2, 2>(1, 1).into_owned();
    let stick = -aff.try_inverse().unwrap() * q.fixed_rows::<2>(1);
    let radial = stick * (mu * lam[0] / stick.norm());
    assert!((lam[0] - 1.0).abs() < 1e-12);
    assert!((lam[1] - radial[0]).abs() < 1e-10 && (lam[2] - radial[1]).abs() < 1e-10);
    // Not the law: its natural-map error is far from zero, and Local finds the solution.
    assert!(fc3d_error(&fc, &lam).rel > 1e-3);
    let mut good = DVector::zeros(3);
    prox_solve(
        &p,
        &mut good,
        &Params {
            tol: 1e-12,
            max_iter: 10_000,
            ..Default::default()
        },
        &ProxOptions {
            r_factor: RFactor::Local,
            ..Default::default()
        },
        &mut no_observer(),
    )
    .unwrap();
    assert!(fc3d_error(&fc, &good).rel <= 1e-12);
    assert!((&good - &lam).amax() > 1e-3);
}

/// The paper's divergence test `r^{k+1} > r^k` compares consecutive steps, so taken strictly
/// it cannot see a two-cycle, whose steps are equal. One frictionless contact with `A = 1`,
/// `b = -1` and the paper's `r = 5`: `T(λ) = max(0, λ - 5 (λ - 1))` maps 0 to 5 and 5 to 0
/// forever. Without backtracking the cycle is there to see; the solver counts a step as long
/// as the last one as growth, rolls back, shrinks `r` until the step falls, and converges to
/// `λ = 1`. (Local, `r = 1 / A = 1`, solves it in one sweep.)
#[test]
fn a_two_cycle_is_rolled_back() {
    let p = ProxProblem::new(
        Matrix::Dense(DMatrix::from_element(1, 1, 1.0)),
        DVector::from_element(1, -1.0),
        vec![ContactLaw::Frictionless],
    )
    .unwrap();
    let params = Params {
        tol: 1e-8,
        max_iter: 1000,
        ..Default::default()
    };
    // The plain iteration with the initial r cycles.
    let mut lam = DVector::zeros(1);
    let mut seen = Vec::new();
    let mut observer = |it: &Iterate| {
        seen.push(it.x[0]);
        ControlFlow::Continue(())
    };
    let plain = ProxOptions {
        adaptive: false,
        ..Default::default()
    };
    let result = prox_solve(&p, &mut lam, &params, &plain, &mut observer);
    assert!(result.is_err());
    assert!(seen.chunks(2).all(|c| c == [5.0, 0.0]), "{:?}", &seen[..6]);
    // The solver with backtracking sees it and converges.
    let mut lam = DVector::zeros(1);
    let info = prox_solve(
        &p,
        &mut lam,
        &params,
        &ProxOptions::default(),
        &mut no_observer(),
    )
    .unwrap();
    let stats = &info.stats;
    assert!(stats.rollbacks > 0, "{stats:?}");
    assert!(stats.r_scale * 5.0 < 2.0, "{stats:?}");
    assert!((lam[0] - 1.0).abs() <= 1e-7, "{lam}");
    assert!(info.error.rel <= 1e-8);
    let mut lam = DVector::zeros(1);
    let local = ProxOptions {
        r_factor: RFactor::Local,
        ..Default::default()
    };
    let info = prox_solve(&p, &mut lam, &params, &local, &mut no_observer()).unwrap();
    assert_eq!((info.iterations, lam[0]), (1, 1.0));
}

/// Bad input gives errors, not panics or NaN.
#[test]
fn bad_input_is_an_error() {
    let fc = FrictionContact::new(
        Matrix::Dense(DMatrix::from_row_slice(
            3,
            3,
            &[0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
        )),
        DVector::from_vec(vec![-1.0, 0.0, 0.0]),
        DVector::from_vec(vec![0.5]),
        FrictionKind::Coulomb,
    )
    .unwrap();
    let p = ProxProblem::from_friction_contact(&fc);
    // Each invalid option is named: out of range, or a strategy that does not fit (the
    // local r-factors divide by W_nn = 0).
    let invalid = |options: ProxOptions| match Prox::new(&p, options.clone()) {
        Err(ProblemError::InvalidOption {
            method,
            option,
            reason,
        }) => {
            assert_eq!(method, "prox-gs");
            assert!(!reason.is_empty());
            let via_solve = prox_solve(
                &p,
                &mut DVector::zeros(3),
                &Params::default(),
                &options,
                &mut no_observer(),
            );
            assert!(matches!(
                via_solve,
                Err(SolveError::Problem(ProblemError::InvalidOption { .. }))
            ));
            option
        }
        other => panic!("{options:?}: {other:?}"),
    };
    let local = ProxOptions {
        r_factor: RFactor::Local,
        ..Default::default()
    };
    assert_eq!(invalid(local), "r_factor");
    assert_eq!(
        invalid(ProxOptions {
            nu: Some(1.5),
            ..Default::default()
        }),
        "nu"
    );
    assert_eq!(
        invalid(ProxOptions {
            window: 0,
            ..Default::default()
        }),
        "window"
    );
    let zero_r = ProxOptions {
        r_factor: RFactor::Global { r: 0.0 },
        ..Default::default()
    };
    assert_eq!(invalid(zero_r), "r_factor");
    assert_eq!(
        invalid(ProxOptions {
            omega: -1.0,
            ..Default::default()
        }),
        "omega"
    );
    let prox = Prox::new(&p, ProxOptions::default()).unwrap();
    let mut wrong = DVector::zeros(4);
    assert!(
        prox.solve(&mut wrong, &Params::default(), &mut no_observer())
            .is_err()
    );
    assert!(
        ProxProblem::new(
            Matrix::Dense(DMatrix::identity(3, 3)),
            DVector::zeros(3),
            vec![ContactLaw::Cone { mu: -0.1 }]
        )
        .is_err()
    );
    assert!(
        ProxProblem::new(
            Matrix::Dense(DMatrix::identity(4, 4)),
            DVector::zeros(4),
            vec![ContactLaw::Cone { mu: 0.1 }]
        )
        .is_err()
    );
}

/// One preparation serves consecutive problems (the contact problems of consecutive time
/// steps): the local form's block layout is refilled with the next problem's values, or
/// built anew when its sparsity does not fit, and every solve makes the sweeps and the
/// answer of a fresh `prox_solve`.
#[test]
fn a_preparation_serves_the_next_problem() {
    use nonsmooth::prox::ProxMethod;
    use nonsmooth::solver::{Method, solve_prepared};
    let make = |w: DMatrix<f64>, q: [f64; 6]| {
        FrictionContact::new(
            Matrix::Dense(w),
            DVector::from_row_slice(&q),
            DVector::from_vec(vec![0.5, 0.3]),
            FrictionKind::Coulomb,
        )
        .unwrap()
    };
    // Diagonally dominant, so positive definite; the two contacts coupled, or not.
    let coupled = DMatrix::from_fn(6, 6, |i, j| match (i == j, (i + j) % 2 == 0) {
        (true, _) => 2.0,
        (false, true) => 0.3,
        _ => 0.0,
    });
    let q1 = [-1.0, 0.4, -0.2, -0.5, 0.1, 0.3];
    let q2 = [-0.3, -0.2, 0.6, -1.2, 0.0, 0.05];
    let (diagonal, first, scaled) = (
        make(DMatrix::from_diagonal_element(6, 6, 1.5), q2),
        make(coupled.clone(), q1),
        make(coupled * 1.3, q2),
    );
    // Views of the three problems: nothing copied.
    let diagonal = ProxProblem::from_friction_contact(&diagonal);
    let first = ProxProblem::from_friction_contact(&first);
    let scaled = ProxProblem::from_friction_contact(&scaled);
    let params = Params {
        tol: 1e-10,
        max_iter: 100_000,
        ..Default::default()
    };
    for options in [
        ProxOptions::recommended(Scheme::GaussSeidel),
        ProxOptions::recommended(Scheme::Jacobi),
        ProxOptions::default(),
    ] {
        let mut prepared = ProxMethod::prepare(&diagonal, &options).unwrap();
        for p in [&diagonal, &first, &scaled, &diagonal] {
            let (mut x, mut y) = (DVector::zeros(6), DVector::zeros(6));
            let reused =
                solve_prepared::<ProxMethod>(&mut prepared, p, &mut x, &params, &mut no_observer());
            let fresh = prox_solve(p, &mut y, &params, &options, &mut no_observer());
            let (a, b) = (reused.unwrap(), fresh.unwrap());
            assert_eq!(
                (a.iterations, &a.stats),
                (b.iterations, &b.stats),
                "{options:?}"
            );
            assert_eq!(x, y, "{options:?}");
        }
    }
}
