//! Smooth isotropic friction at a converged Newton point (Macklin et al. 2019 §4.3,
//! eq. 15-16): a particle on a plane sticks exactly while the tangential load is below
//! `μ λ_n` and slides with `|λ_f| = μ λ_n` above it, with both NCP functions.

use nalgebra::Vector3;
use nonsmooth::implicit::step::step;
use nonsmooth::implicit::{ImplicitOptions, Model, Ncp, Particle};
use nonsmooth::world::World;

/// One particle of mass `m` resting on the ground under gravity `g` tilted by `angle`
/// (rad) in the x-z plane: tangential load `m g sin(angle)`, normal `m g cos(angle)`.
fn scene(angle: f64, mu: f64, m: f64) -> (World, Model) {
    let g = 9.81;
    let world = World::new()
        .with_gravity(Vector3::new(g * angle.sin(), 0.0, -g * angle.cos()))
        .unwrap();
    let model = Model {
        particles: vec![Particle {
            position: Vector3::new(0.0, 0.0, 0.1),
            velocity: Vector3::zeros(),
            mass: m,
            radius: 0.1,
            mu,
        }],
        ..Default::default()
    };
    (world, model)
}

fn run(
    angle: f64,
    mu: f64,
    ncp: Ncp,
    steps: usize,
) -> (Model, Vec<nonsmooth::implicit::NewtonReport>) {
    run_with(
        angle,
        mu,
        steps,
        ImplicitOptions {
            ncp,
            tol: 1e-10,
            newton_iterations: 50,
            ..Default::default()
        },
    )
}

fn run_with(
    angle: f64,
    mu: f64,
    steps: usize,
    opts: ImplicitOptions,
) -> (Model, Vec<nonsmooth::implicit::NewtonReport>) {
    let (mut world, mut model) = scene(angle, mu, 2.0);
    let mut reports = Vec::new();
    for _ in 0..steps {
        let contacts = world.contacts().unwrap();
        reports.push(step(&mut world, &mut model, &contacts, 0.01, &opts).unwrap());
    }
    (model, reports)
}

#[test]
fn sticks_below_the_bound_and_slides_above_it() {
    let mu: f64 = 0.5;
    let critical = mu.atan();
    for ncp in [Ncp::Min, Ncp::Fb] {
        for (angle, sticks) in [(critical * 0.9, true), (critical * 1.1, false)] {
            let (model, reports) = run(angle, mu, ncp, 20);
            let p = &model.particles[0];
            let last = reports.last().unwrap();
            assert!(
                last.converged,
                "{ncp:?} angle {angle}: {:?}",
                last.residuals
            );
            let ln = last.lambda[0];
            let lf = last.lambda[1].hypot(last.lambda[2]);
            let m = 2.0;
            let g = 9.81;
            assert!(
                (ln - m * g * angle.cos()).abs() < 1e-6 * ln,
                "{ncp:?}: normal {ln}"
            );
            if sticks {
                assert!(
                    p.velocity.norm() < 1e-8,
                    "{ncp:?}: sticking particle moves at {}",
                    p.velocity.norm()
                );
                assert!(
                    (lf - m * g * angle.sin()).abs() < 1e-6 * ln,
                    "{ncp:?}: friction {lf}"
                );
            } else {
                assert!(
                    (lf - mu * ln).abs() < 1e-6 * ln,
                    "{ncp:?}: sliding friction {lf} vs {}",
                    mu * ln
                );
                let expected = 20.0 * 0.01 * g * (angle.sin() - mu * angle.cos());
                assert!(
                    (p.velocity.x - expected).abs() < 1e-6,
                    "{ncp:?}: speed {} vs {expected}",
                    p.velocity.x
                );
            }
            let exact_friction = if sticks { m * g * angle.sin() } else { mu * ln };
            let exact_speed = if sticks {
                0.0
            } else {
                20.0 * 0.01 * g * (angle.sin() - mu * angle.cos())
            };
            println!(
                "{ncp:?} {}: Newton iterations {}, |lambda_f| error against exact Coulomb {:.1e} N (of {:.2} N), speed error {:.1e} m/s",
                if sticks { "stick" } else { "slip" },
                last.iterations,
                (lf - exact_friction).abs(),
                exact_friction,
                (p.velocity.norm() - exact_speed.abs()).abs()
            );
        }
    }
}

/// The natural-map linearisation of friction with the complementarity preconditioner on
/// (its r-factor turns the slip into a force, `z = λ_f - D^T u / r_f`) reaches the same
/// exact Coulomb answers through the stepper, and in a few Newton iterations.
#[test]
fn the_natural_map_with_r_factors_reaches_the_exact_coulomb_answer() {
    use nonsmooth::implicit::FrictionForm;
    use nonsmooth::implicit::linear::{InnerOptions, InnerSolver};
    let mu: f64 = 0.5;
    let critical = mu.atan();
    let (m, g) = (2.0, 9.81);
    for ncp in [Ncp::Min, Ncp::Fb] {
        for (angle, sticks) in [(critical * 0.9, true), (critical * 1.1, false)] {
            let opts = ImplicitOptions {
                ncp,
                tol: 1e-10,
                newton_iterations: 50,
                friction: FrictionForm::NaturalMap,
                inner: InnerOptions {
                    solver: InnerSolver::Direct,
                    ..Default::default()
                },
                ..Default::default()
            };
            assert!(opts.preconditioner);
            let (model, reports) = run_with(angle, mu, 20, opts);
            let last = reports.last().unwrap();
            assert!(last.converged, "{ncp:?} {angle}: {:?}", last.residuals);
            // After the first step: warm started, a handful of iterations (to 1e-10 m/s).
            assert!(
                reports[1..].iter().all(|r| r.iterations <= 8),
                "{ncp:?} {angle}: {:?}",
                reports.iter().map(|r| r.iterations).collect::<Vec<_>>()
            );
            let (ln, lf) = (last.lambda[0], last.lambda[1].hypot(last.lambda[2]));
            let v = model.particles[0].velocity;
            if sticks {
                assert!((lf - m * g * angle.sin()).abs() < 1e-6 * ln, "{lf}");
                assert!(v.norm() < 1e-8, "{v:?}");
            } else {
                assert!((lf - mu * ln).abs() < 1e-6 * ln, "{lf} vs {}", mu * ln);
                let expected = 20.0 * 0.01 * g * (angle.sin() - mu * angle.cos());
                assert!((v.x - expected).abs() < 1e-6, "{} vs {expected}", v.x);
            }
        }
    }
}

/// The friction residual is the natural map's, `r_f |λ_f - P(λ_f - D^T u / r_f)|`: zero
/// for a contact that slides with no normal force and no friction force (whatever the
/// direction of a vanishing `λ_f`), and equal to `r_f |λ_f|` for a friction force
/// without normal force. (The direction residual `|D^T u + |D^T u| λ_f / |λ_f||` of
/// eq. 15 is `2 |D^T u|` for a vanishing `λ_f` pointing along the slip.)
#[test]
fn the_friction_residual_vanishes_with_the_force_and_only_then() {
    use nalgebra::DVector;
    use nonsmooth::implicit::rows;
    use nonsmooth::implicit::state::Dofs;
    use nonsmooth::implicit::step::point_contacts;
    use nonsmooth::implicit::system::{self, FrictionForm};
    let (world, mut model) = scene(0.0, 0.5, 2.0);
    model.particles[0].position.z = 0.1; // touching the ground
    let contacts = world.contacts().unwrap();
    let h = 0.01;
    let dofs = Dofs::new(&world, &model, h);
    let points = point_contacts(&world, &model, &contacts);
    assert_eq!(points.len(), 1);
    // Sliding along x at 1 m/s.
    let mut u = DVector::zeros(dofs.n);
    u[0] = 1.0;
    let rows = rows::evaluate(&dofs, &model, &points, &u);
    assert_eq!(rows.len(), 3);
    let slip = rows[1].value.hypot(rows[2].value);
    assert!((slip - 1.0).abs() < 1e-12, "{slip}");
    let minv = dofs.inverse_blocks(&DVector::zeros(dofs.n));
    for form in [FrictionForm::Compliance, FrictionForm::NaturalMap] {
        for ncp in [Ncp::Min, Ncp::Fb] {
            let at = |lambda: DVector<f64>| {
                system::assemble_with(&dofs, &rows, &u, &lambda, &minv, ncp, true, form)
            };
            // A vanishing friction force along the slip, no normal force.
            let tiny = at(DVector::from_vec(vec![
                0.0,
                1e-300 * rows[1].value,
                1e-300 * rows[2].value,
            ]));
            let friction = tiny.row_residual[1].max(tiny.row_residual[2]);
            assert!(friction < 1e-12, "{form:?} {ncp:?}: {friction}");
            // A friction force of 3 N with no normal force: off by r_f · 3 N.
            let off = at(DVector::from_vec(vec![0.0, 3.0, 0.0]));
            let expected = 3.0 * off.r[1];
            assert!(
                (off.row_residual[1].hypot(off.row_residual[2]) - expected).abs()
                    < 1e-12 * expected.max(1.0),
                "{form:?} {ncp:?}: {} vs {expected}",
                off.row_residual[1]
            );
            // A normal force whose disk is as small as a denormal: everything finite.
            let denormal = at(DVector::from_vec(vec![1e-320, 3.0, 0.0]));
            assert!(denormal.c.iter().all(|v| v.is_finite()), "{form:?} {ncp:?}");
            assert!(
                denormal.c_coupling.iter().all(|t| t.2.is_finite()),
                "{form:?} {ncp:?}"
            );
            assert!(denormal.h.iter().all(|v| v.is_finite()), "{form:?} {ncp:?}");
        }
    }
}
