//! Bad models and options for the implicit stepper give clear errors, never a panic,
//! and leave the world and model unchanged.

use nalgebra::Vector3;
use nonsmooth::implicit::step::step;
use nonsmooth::implicit::{Anchor, ImplicitError, ImplicitOptions, Joint, Model, Node, Particle};
use nonsmooth::stepping::{Settings, Simulation, Stepper};
use nonsmooth::world::World;

fn particle(mass: f64) -> Particle {
    Particle {
        position: Vector3::new(0.0, 0.0, 1.0),
        velocity: Vector3::zeros(),
        mass,
        radius: 0.0,
        mu: 0.5,
    }
}

#[test]
fn bad_models_are_refused_with_their_reason() {
    let cases: Vec<(Model, &str)> = vec![
        (
            Model {
                particles: vec![particle(0.0)],
                ..Default::default()
            },
            "mass",
        ),
        (
            Model {
                particles: vec![particle(f64::NAN)],
                ..Default::default()
            },
            "mass",
        ),
        (
            Model {
                particles: vec![Particle {
                    mu: -1.0,
                    ..particle(1.0)
                }],
                ..Default::default()
            },
            "friction",
        ),
        (
            Model {
                particles: vec![Particle {
                    position: Vector3::new(f64::NAN, 0.0, 0.0),
                    ..particle(1.0)
                }],
                ..Default::default()
            },
            "not finite",
        ),
        (
            Model {
                joints: vec![Joint::Ball {
                    a: Anchor::World(Vector3::zeros()),
                    b: Anchor::On(Node::Body(3), Vector3::zeros()),
                }],
                ..Default::default()
            },
            "body 3 does not exist",
        ),
        (
            Model {
                particles: vec![particle(1.0)],
                joints: vec![Joint::Distance {
                    a: Anchor::World(Vector3::zeros()),
                    b: Anchor::On(Node::Particle(0), Vector3::zeros()),
                    rest: 0.0,
                    compliance: 0.0,
                }],
                ..Default::default()
            },
            "rest length",
        ),
        (
            Model {
                particles: vec![particle(1.0)],
                joints: vec![Joint::Distance {
                    a: Anchor::World(Vector3::zeros()),
                    b: Anchor::On(Node::Particle(5), Vector3::zeros()),
                    rest: 1.0,
                    compliance: 0.0,
                }],
                ..Default::default()
            },
            "particle 5 does not exist",
        ),
    ];
    for (model, needle) in cases {
        let mut world = World::new();
        let mut m = model.clone();
        let err = step(&mut world, &mut m, &[], 0.01, &ImplicitOptions::default()).unwrap_err();
        assert!(matches!(err, ImplicitError::Model(_)), "{err}");
        assert!(err.to_string().contains(needle), "{err}");
        assert_eq!(
            format!("{m:?}"),
            format!("{model:?}"),
            "a refused step changed the model"
        );
        let settings = Settings {
            stepper: Stepper::ImplicitNewton,
            ..Settings::default()
        };
        let e = Simulation::with_model(World::new(), model, settings).unwrap_err();
        assert!(e.to_string().contains(needle), "{e}");
    }
}

#[test]
fn bad_time_steps_and_options_are_refused() {
    let model = Model {
        particles: vec![particle(1.0)],
        ..Default::default()
    };
    for h in [0.0, -0.01, f64::NAN, f64::INFINITY] {
        let mut m = model.clone();
        let err = step(
            &mut World::new(),
            &mut m,
            &[],
            h,
            &ImplicitOptions::default(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("time step"), "{err}");
    }
    for opts in [
        ImplicitOptions {
            alpha: 0.0,
            ..Default::default()
        },
        ImplicitOptions {
            alpha: f64::NAN,
            ..Default::default()
        },
        ImplicitOptions {
            newton_iterations: 0,
            ..Default::default()
        },
        ImplicitOptions {
            regularisation: -1.0,
            ..Default::default()
        },
        ImplicitOptions {
            tol: f64::NAN,
            ..Default::default()
        },
        ImplicitOptions {
            recovery_speed: -0.01,
            ..Default::default()
        },
        ImplicitOptions {
            recovery_speed: f64::INFINITY,
            ..Default::default()
        },
    ] {
        let mut m = model.clone();
        let err = step(&mut World::new(), &mut m, &[], 0.01, &opts).unwrap_err();
        assert!(matches!(err, ImplicitError::Options(_)), "{err}");
        assert_eq!(m, model);
    }
    // A model with particles under another stepper is refused.
    let e = Simulation::with_model(World::new(), model, Settings::default()).unwrap_err();
    assert!(e.to_string().contains("implicit-newton"), "{e}");
}
