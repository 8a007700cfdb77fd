//! The laws of the time steppers (`src/stepping/`): conservation for a free body, rest
//! for a resting box, Newton's impact law, and determinism.

use nalgebra::{UnitQuaternion, Vector3};
use nonsmooth::stepping::{Settings, Simulation, StepRecord, Stepper};
use nonsmooth::world::{Material, MaterialId, Shape, World};
use proptest::prelude::*;

fn settings(stepper: Stepper, dt: f64) -> Settings {
    Settings {
        dt,
        stepper,
        ..Settings::default()
    }
}

fn run(world: World, s: Settings, steps: usize) -> (Simulation, Vec<StepRecord>) {
    let mut sim = Simulation::new(world, s).unwrap();
    let records = sim
        .run(steps, |_, _| std::ops::ControlFlow::Continue(()))
        .unwrap();
    (sim, records)
}

/// A box without ground or gravity, translating and spinning about a principal axis.
fn free_box(gravity: Vector3<f64>) -> World {
    let mut w = World::new()
        .with_ground(None)
        .unwrap()
        .with_gravity(gravity)
        .unwrap();
    let shape = Shape::cuboid(0.3, 0.2, 0.1).unwrap();
    let body = shape
        .body_with_density(500.0, Vector3::new(0.0, 0.0, 2.0))
        .unwrap()
        .with_orientation(UnitQuaternion::from_euler_angles(0.3, -0.2, 0.5))
        .with_velocity(Vector3::new(1.0, -2.0, 0.5), Vector3::new(0.0, 0.0, 0.0));
    w.add_body(body, shape, MaterialId::default()).unwrap();
    w
}

#[test]
fn free_body_keeps_its_linear_momentum_exactly() {
    for stepper in Stepper::ALL {
        let (sim, rec) = run(free_box(Vector3::zeros()), settings(stepper, 0.01), 200);
        let p0 = rec[0].momentum;
        for r in &rec {
            assert_eq!(r.contacts, 0);
            for (m, m0) in r.momentum.iter().zip(&p0) {
                assert!((m - m0).abs() <= 1e-12 * m0.abs().max(1.0));
            }
        }
        assert!(sim.world().bodies()[0].body.position.x > 1.9);
    }
}

/// The mid-point scheme moves a body falling freely under gravity along the exact
/// parabola, so its energy is kept to rounding; the velocity-based scheme (semi-implicit
/// Euler) loses `g^2 dt t / 2` per unit mass, first order in `dt`.
#[test]
fn free_fall_energy_midpoint_exact_velocity_first_order() {
    let g = Vector3::new(0.0, 0.0, -9.81);
    let energy = |r: &StepRecord| r.kinetic_energy + r.potential_energy;
    let mass = free_box(g).bodies()[0].body.mass;
    let e0 = {
        let w = free_box(g);
        let b = &w.bodies()[0].body;
        0.5 * mass * b.linear_velocity.norm_squared() + mass * 9.81 * b.position.z
    };
    let (_, rec) = run(free_box(g), settings(Stepper::Moreau, 0.01), 100);
    for r in &rec {
        assert!((energy(r) - e0).abs() <= 1e-9 * e0, "{} vs {e0}", energy(r));
    }
    let mut drift = Vec::new();
    for dt in [0.01, 0.005] {
        let steps = (1.0 / dt) as usize;
        let (_, rec) = run(free_box(g), settings(Stepper::Velocity, dt), steps);
        let d = energy(rec.last().unwrap()) - e0;
        // Exactly -m g^2 dt t / 2 up to rounding.
        let expected = -mass * 9.81 * 9.81 * dt * 1.0 / 2.0;
        assert!(
            (d - expected).abs() <= 1e-6 * expected.abs(),
            "{d} vs {expected}"
        );
        drift.push(d);
    }
    assert!((drift[0] / drift[1] - 2.0).abs() < 1e-6);
}

/// Spinning about a principal axis, the angular momentum and the spin are kept (the
/// gyroscopic term vanishes there); about a general axis the explicit gyroscopic term
/// keeps `|L|` to first order in `dt`.
#[test]
fn free_spin_keeps_angular_momentum() {
    let mut w = free_box(Vector3::zeros());
    w.body_mut(0).unwrap().body.orientation = UnitQuaternion::identity();
    w.body_mut(0).unwrap().body.angular_velocity = Vector3::new(0.0, 0.0, 3.0);
    let (_, rec) = run(w, settings(Stepper::Velocity, 0.01), 300);
    let l0 = Vector3::from(rec[0].angular_momentum);
    for r in &rec {
        assert!((Vector3::from(r.angular_momentum) - l0).norm() <= 1e-10 * l0.norm());
    }
    let mut errs = Vec::new();
    for dt in [0.002, 0.001] {
        let mut w = free_box(Vector3::zeros());
        w.body_mut(0).unwrap().body.angular_velocity = Vector3::new(1.0, 2.0, 0.5);
        let steps = (0.5 / dt) as usize;
        let (_, rec) = run(w, settings(Stepper::Velocity, dt), steps);
        let l0 = Vector3::from(rec[0].angular_momentum).norm();
        let l1 = Vector3::from(rec.last().unwrap().angular_momentum).norm();
        errs.push((l1 - l0).abs() / l0);
    }
    assert!(errs[0] < 0.05, "{errs:?}");
    // First order: halving dt roughly halves the error.
    assert!(errs[1] < 0.7 * errs[0], "{errs:?}");
}

/// A box resting on the ground with an exact solver stays where it is over 10 000 steps.
#[test]
fn resting_box_stays_put_for_10000_steps() {
    // VSP splits the step into a solve over `a dt` whose right-hand side is `a` times
    // smaller; at 1e-12 that solve sits at the rounding floor of its normalised error,
    // so VSP's resting law is `tests/laws/shock_propagation.rs`'s, at 1e-10.
    for stepper in [Stepper::Velocity, Stepper::Moreau] {
        let mut w = World::new();
        w.add(
            Shape::cuboid(0.5, 0.3, 0.2).unwrap(),
            700.0,
            Vector3::new(0.1, -0.2, 0.2),
            UnitQuaternion::identity(),
            MaterialId::default(),
        )
        .unwrap();
        let start = w.bodies()[0].body.clone();
        // An exact solver: the cone Newton to 1e-12 (quadratic convergence makes this
        // one step more than 1e-8). At 1e-8 the box sinks about 1e-8 m in 100 s: the
        // error of each solve is a small velocity that the positions integrate.
        let mut s = settings(stepper, 0.01);
        s.params.tol = 1e-12;
        let mut sim = Simulation::new(w, s).unwrap();
        for _ in 0..10_000 {
            let r = sim.step().unwrap();
            assert_eq!(r.status, "converged", "{stepper:?} at step {}", r.step);
        }
        let b = &sim.world().bodies()[0].body;
        assert!(
            (b.position - start.position).norm() < 1e-9,
            "{stepper:?}: {:?}",
            b.position
        );
        assert!(b.orientation.angle_to(&start.orientation) < 1e-9);
        assert!(b.linear_velocity.norm() < 1e-9);
    }
}

fn ball(e: f64, height: f64) -> World {
    let mut w = World::new();
    let m = w.add_material(Material::new(0.3, e).unwrap()).unwrap();
    w.add(
        Shape::sphere(0.1).unwrap(),
        1000.0,
        Vector3::new(0.0, 0.0, 0.1 + height),
        UnitQuaternion::identity(),
        m,
    )
    .unwrap();
    w
}

/// The apex height after the first bounce, above the resting height.
fn first_rebound(e: f64, h: f64, stepper: Stepper, dt: f64) -> f64 {
    let mut sim = Simulation::new(ball(e, h), settings(stepper, dt)).unwrap();
    let z = |s: &Simulation| s.world().bodies()[0].body.position.z - 0.1;
    let vz = |s: &Simulation| s.world().bodies()[0].body.linear_velocity.z;
    // Fall until moving up, then rise until moving down.
    let mut bounced = false;
    let mut apex = 0.0_f64;
    for _ in 0..(10.0 / dt) as usize {
        sim.step().unwrap();
        if !bounced && vz(&sim) > 0.0 {
            bounced = true;
        }
        if bounced {
            apex = apex.max(z(&sim));
            if vz(&sim) < 0.0 {
                return apex;
            }
        }
    }
    panic!("no rebound")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Newton's impact law: a ball dropped from `h` with restitution `e` rebounds to
    /// `e^2 h`, to the accuracy of the time step (the impact is seen up to one step
    /// late or early, `O(v dt)` in height).
    #[test]
    fn ball_rebounds_to_e_squared_of_its_height(e in 0.2f64..0.95, h in 0.3f64..1.5, moreau in any::<bool>()) {
        let stepper = if moreau { Stepper::Moreau } else { Stepper::Velocity };
        let dt = 1e-3;
        let apex = first_rebound(e, h, stepper, dt);
        let v = (2.0 * 9.81 * h).sqrt();
        prop_assert!((apex - e * e * h).abs() <= 3.0 * v * dt, "apex {apex} for e^2 h = {}", e * e * h);
    }
}

/// The same scene run twice gives bit-identical trajectories.
#[test]
fn same_scene_twice_is_bit_identical() {
    let make = || {
        let mut w = World::new();
        for (i, z) in [0.3, 0.95, 1.6].iter().enumerate() {
            w.add(
                Shape::cuboid(0.3, 0.3, 0.3).unwrap(),
                500.0,
                Vector3::new(0.05 * i as f64, 0.02, *z),
                UnitQuaternion::from_euler_angles(0.0, 0.1 * i as f64, 0.2),
                MaterialId::default(),
            )
            .unwrap();
        }
        w.add(
            Shape::sphere(0.2).unwrap(),
            800.0,
            Vector3::new(0.6, 0.0, 0.5),
            UnitQuaternion::identity(),
            MaterialId::default(),
        )
        .unwrap();
        w
    };
    let s = Settings {
        method: nonsmooth::registry::Choice::new("nsgs").unwrap(),
        ..Settings::default()
    };
    let (a, ra) = run(make(), s.clone(), 150);
    let (b, rb) = run(make(), s, 150);
    assert_eq!(a.world().bodies(), b.world().bodies());
    for (x, y) in ra.iter().zip(&rb) {
        assert_eq!(
            (
                x.contacts,
                x.iterations,
                x.error.to_bits(),
                x.kinetic_energy.to_bits()
            ),
            (
                y.contacts,
                y.iterations,
                y.error.to_bits(),
                y.kinetic_energy.to_bits()
            )
        );
    }
    assert!(
        ra.iter().any(|r| r.contacts > 4),
        "the bodies touched each other"
    );
}

/// A thin box tumbling fast about an axis that is not principal: the explicit gyroscopic
/// term of Erleben 2007 eq. 18 feeds it energy every step, the implicit one does not; for a
/// small `dt |w|` the two torques agree to first order.
#[test]
fn implicit_gyroscopic_term_is_stable_and_consistent() {
    use nonsmooth::multibody::Gyroscopic;
    let tumbling = || {
        let mut w = World::new()
            .with_ground(None)
            .unwrap()
            .with_gravity(Vector3::zeros())
            .unwrap();
        let shape = Shape::cuboid(0.5, 0.1, 0.02).unwrap();
        let body = shape
            .body_with_density(1000.0, Vector3::zeros())
            .unwrap()
            .with_velocity(Vector3::zeros(), Vector3::new(30.0, 20.0, 40.0));
        w.add_body(body, shape, MaterialId::default()).unwrap();
        w
    };
    let energy_after = |g: Gyroscopic| {
        let s = Settings {
            gyroscopic: g,
            ..settings(Stepper::Velocity, 0.01)
        };
        let mut sim = Simulation::new(tumbling(), s).unwrap();
        let e0 = sim.step().unwrap().kinetic_energy;
        let mut e = e0;
        for _ in 0..300 {
            match sim.step() {
                Ok(r) => e = r.kinetic_energy,
                Err(_) => return f64::INFINITY,
            }
        }
        e / e0
    };
    let implicit = energy_after(Gyroscopic::Implicit);
    let explicit = energy_after(Gyroscopic::Explicit);
    assert!(implicit <= 1.0 + 1e-9, "implicit gained energy: {implicit}");
    assert!(
        explicit > 1.5,
        "explicit should gain energy here: {explicit}"
    );
    // Consistency: the implicit torque tends to -w x I w as dt -> 0.
    let w = tumbling();
    let b = &w.bodies()[0].body;
    let explicit_torque = -b
        .angular_velocity
        .cross(&(b.inertia_world() * b.angular_velocity));
    let e1 = (b.implicit_gyroscopic_torque(1e-4) - explicit_torque).norm();
    let e2 = (b.implicit_gyroscopic_torque(0.5e-4) - explicit_torque).norm();
    assert!(e1 < 1e-2 * explicit_torque.norm(), "{e1}");
    assert!((e1 / e2 - 2.0).abs() < 0.1, "first order: {e1} / {e2}");
}

/// The settings `nonsmooth simulate` starts from ([`Settings::recommended`]) leave a
/// falling pile of 30 bodies without penetration once it has come to rest, and
/// every step reports its solve; the papers' scheme as printed
/// ([`Settings::default`], no correction) leaves the penetration its inexact steps
/// made, which is what the recommended settings exist to remove.
#[test]
fn recommended_settings_leave_a_pile_without_penetration() {
    use nonsmooth::world::scenes::pile::{PileParams, build};
    let world = build(&PileParams {
        count: 30,
        ..PileParams::default()
    })
    .unwrap();
    let fast_plain = Settings {
        method: nonsmooth::registry::Choice::new("nsgs").unwrap(),
        ..Settings::default()
    };
    let (_, plain) = run(world.clone(), fast_plain, 150);
    let (_, recommended) = run(world, Settings::recommended(), 150);
    let last = |r: &[StepRecord]| r.last().unwrap().max_penetration;
    assert!(last(&recommended) < 1e-5, "{:.3e} m", last(&recommended));
    assert!(last(&plain) > 1e-3, "plain: {:.3e} m", last(&plain));
    for r in &recommended {
        assert!(r.error.is_finite() && !r.status.is_empty(), "{r:?}");
    }
}
