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
    let (mut world, mut model) = scene(angle, mu, 2.0);
    let opts = ImplicitOptions {
        ncp,
        tol: 1e-10,
        newton_iterations: 50,
        ..Default::default()
    };
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
