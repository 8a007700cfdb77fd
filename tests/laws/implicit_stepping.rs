//! Laws of the implicit position-level stepper over many steps (Macklin et al. 2019,
//! Algorithm 1; `src/implicit/step.rs`):
//!
//! * a box resting on the ground does not drift (constraints are enforced on positions,
//!   with no stabilisation term);
//! * a free body in zero gravity spinning about a principal axis keeps its linear momentum
//!   and kinetic energy;
//! * a pendulum on a ball joint keeps its joint closed and never gains energy (implicit
//!   Euler dissipates);
//! * an undamped hyperelastic block never gains energy, loses less than half of it over
//!   the run, and loses less with half the time step (first-order numerical dissipation).

use nalgebra::{UnitQuaternion, Vector3};
use nonsmooth::implicit::linear::{InnerOptions, InnerSolver};
use nonsmooth::implicit::step::step;
use nonsmooth::implicit::tet_mesh::{box_mesh, lumped_masses};
use nonsmooth::implicit::{Anchor, ImplicitOptions, Joint, Model, Node, Particle};
use nonsmooth::world::scenes::box_stack::{self, BoxStackParams};
use nonsmooth::world::{MaterialId, Shape, World};

fn body_kinetic(world: &World, i: usize) -> f64 {
    let b = &world.bodies()[i].body;
    let w = b.angular_velocity;
    0.5 * b.mass * b.linear_velocity.norm_squared() + 0.5 * w.dot(&(b.inertia_world() * w))
}

#[test]
fn resting_box_does_not_drift() {
    let mut world = box_stack::build(&BoxStackParams {
        count: 1,
        ..Default::default()
    })
    .unwrap();
    let mut model = Model::default();
    let z0 = world.bodies()[0].body.position.z;
    let opts = ImplicitOptions::default();
    let mut worst = 0.0f64;
    for k in 0..500 {
        let contacts = world.contacts().unwrap();
        step(&mut world, &mut model, &contacts, 0.01, &opts)
            .unwrap_or_else(|e| panic!("step {k}: {e}"));
        let dz = (world.bodies()[0].body.position.z - z0).abs();
        worst = worst.max(dz);
        assert!(dz < 1e-6, "step {k}: the box moved {dz} m");
    }
    let b = &world.bodies()[0].body;
    println!(
        "resting box: worst |dz| {worst:.3e} m, final |v| {:.3e}, |ω| {:.3e}",
        b.linear_velocity.norm(),
        b.angular_velocity.norm()
    );
}

#[test]
fn free_spinning_body_keeps_momentum_and_energy() {
    let mut world = World::new()
        .with_gravity(Vector3::zeros())
        .unwrap()
        .with_ground(None)
        .unwrap();
    let shape = Shape::cuboid(0.3, 0.5, 0.7).unwrap();
    world
        .add(
            shape,
            800.0,
            Vector3::new(0.0, 0.0, 5.0),
            UnitQuaternion::identity(),
            MaterialId(0),
        )
        .unwrap();
    {
        let b = &mut world.body_mut(0).unwrap().body;
        b.linear_velocity = Vector3::new(1.5, -0.7, 0.3);
        // About the body's (and, at the identity, the world's) y axis: a principal axis.
        b.angular_velocity = Vector3::new(0.0, 4.0, 0.0);
    }
    let mut model = Model::default();
    let p0 = world.bodies()[0].body.linear_velocity * world.bodies()[0].body.mass;
    let e0 = body_kinetic(&world, 0);
    let opts = ImplicitOptions::default();
    let (mut worst_p, mut worst_e) = (0.0f64, 0.0f64);
    for k in 0..100 {
        let contacts = world.contacts().unwrap();
        step(&mut world, &mut model, &contacts, 0.01, &opts)
            .unwrap_or_else(|e| panic!("step {k}: {e}"));
        let b = &world.bodies()[0].body;
        let dp = (b.linear_velocity * b.mass - p0).norm();
        let de = (body_kinetic(&world, 0) - e0).abs() / e0;
        worst_p = worst_p.max(dp);
        worst_e = worst_e.max(de);
        assert!(
            dp <= 1e-12 * p0.norm(),
            "step {k}: momentum changed by {dp}"
        );
        assert!(
            de <= 1e-10,
            "step {k}: kinetic energy changed by {de} (relative)"
        );
    }
    // It did spin: the orientation moved by 100 h ω = 4 rad about y.
    let q = world.bodies()[0].body.orientation;
    let expected = UnitQuaternion::from_scaled_axis(Vector3::new(0.0, 4.0, 0.0));
    assert!(
        q.angle_to(&expected) < 1e-9,
        "orientation off by {}",
        q.angle_to(&expected)
    );
    println!("free body: worst |Δp| {worst_p:.3e} N s, worst relative ΔE {worst_e:.3e}");
}

#[test]
fn pendulum_keeps_its_joint_and_never_gains_energy() {
    let mut world = World::new();
    let shape = Shape::cuboid(0.5, 0.05, 0.05).unwrap();
    let pivot = Vector3::new(0.0, 0.0, 5.0);
    // Released horizontal: the box's centre 0.5 m from the pivot along x.
    world
        .add(
            shape,
            1000.0,
            pivot + Vector3::new(0.5, 0.0, 0.0),
            UnitQuaternion::identity(),
            MaterialId(0),
        )
        .unwrap();
    let mut model = Model {
        joints: vec![Joint::Ball {
            a: Anchor::World(pivot),
            b: Anchor::On(Node::Body(0), Vector3::new(-0.5, 0.0, 0.0)),
        }],
        ..Default::default()
    };
    let g = 9.81;
    let energy = |w: &World| {
        let b = &w.bodies()[0].body;
        body_kinetic(w, 0) + b.mass * g * b.position.z
    };
    let opts = ImplicitOptions {
        tol: 1e-10,
        ..Default::default()
    };
    let e_start = energy(&world);
    let mut e_prev = e_start;
    let (mut worst_joint, mut worst_rise, mut max_its) = (0.0f64, f64::NEG_INFINITY, 0);
    let mut lowest = f64::INFINITY;
    for k in 0..200 {
        let contacts = world.contacts().unwrap();
        let report = step(&mut world, &mut model, &contacts, 0.01, &opts)
            .unwrap_or_else(|e| panic!("step {k}: {e}"));
        assert!(report.converged, "step {k}: {:?}", report.residuals);
        max_its = max_its.max(report.iterations);
        worst_joint = worst_joint.max(report.bilateral_error);
        assert!(
            report.bilateral_error < 1e-8,
            "step {k}: joint error {} m",
            report.bilateral_error
        );
        let e = energy(&world);
        worst_rise = worst_rise.max(e - e_prev);
        assert!(
            e - e_prev <= 1e-9,
            "step {k}: energy rose by {} J",
            e - e_prev
        );
        e_prev = e;
        lowest = lowest.min(world.bodies()[0].body.position.z);
    }
    // It did swing: the centre went well below the pivot.
    assert!(lowest < pivot.z - 0.4, "lowest centre {lowest}");
    println!(
        "pendulum: worst joint error {worst_joint:.3e} m, largest step-to-step rise {worst_rise:.3e} J, \
         energy {e_start:.6} -> {e_prev:.6} J, max Newton its {max_its}"
    );
}

/// Runs the block for `steps` steps of `h`; returns the energy after each step (the
/// first entry is the start).
fn block_energies(h: f64, steps: usize) -> Vec<f64> {
    let mesh = box_mesh(Vector3::new(0.5, 0.5, 0.5), [2, 2, 2], Vector3::zeros()).unwrap();
    let masses = lumped_masses(&mesh, 1000.0);
    let elements = mesh.elements(1e4, 0.3).unwrap();
    let mut world = World::new()
        .with_gravity(Vector3::zeros())
        .unwrap()
        .with_ground(None)
        .unwrap();
    let mut model = Model {
        particles: mesh
            .positions
            .iter()
            .zip(&masses)
            .map(|(x, &m)| Particle {
                position: *x,
                velocity: x * 0.5,
                mass: m,
                radius: 0.0,
                mu: 0.0,
            })
            .collect(),
        tetrahedra: elements,
        ..Default::default()
    };
    let energy = |model: &Model| {
        let elastic: f64 = model
            .tetrahedra
            .iter()
            .map(|t| t.energy_above_rest(&t.nodes.map(|j| model.particles[j].position)))
            .sum();
        model.kinetic_energy() + elastic
    };
    let opts = ImplicitOptions {
        tol: 1e-10,
        newton_iterations: 50,
        inner: InnerOptions {
            solver: InnerSolver::Direct,
            ..Default::default()
        },
        ..Default::default()
    };
    let mut out = vec![energy(&model)];
    for k in 0..steps {
        let report = step(&mut world, &mut model, &[], h, &opts)
            .unwrap_or_else(|e| panic!("h {h} step {k}: {e}"));
        assert!(report.converged, "h {h} step {k}: {:?}", report.residuals);
        out.push(energy(&model));
    }
    out
}

#[test]
fn hyperelastic_block_dissipates_at_first_order() {
    let h = 0.005;
    let coarse = block_energies(h, 50);
    let fine = block_energies(h / 2.0, 100);
    for (name, e) in [("h", &coarse), ("h/2", &fine)] {
        for (k, w) in e.windows(2).enumerate() {
            assert!(
                w[1] - w[0] <= 1e-9 * e[0],
                "{name} step {k}: energy rose from {} to {}",
                w[0],
                w[1]
            );
        }
    }
    let loss = |e: &Vec<f64>| 1.0 - e.last().unwrap() / e[0];
    let (lc, lf) = (loss(&coarse), loss(&fine));
    println!(
        "block: E0 {:.6} J, loss over 0.25 s at h = {h}: {:.4} %, at h/2: {:.4} % (ratio {:.3})",
        coarse[0],
        100.0 * lc,
        100.0 * lf,
        lf / lc
    );
    assert!(lc > 0.0 && lc < 0.5, "loss {lc}");
    assert!(lf < lc, "halving h did not reduce the loss: {lf} vs {lc}");
}

/// A free box spinning about a non-principal axis, where the gyroscopic torque does not
/// vanish: the implicit step (gyroscopic term taken implicitly) never adds kinetic
/// energy, keeps the linear momentum exactly, and its drift of the world angular
/// momentum `L = I(Q) ω` is first order in `h` (halving `h` halves it, within 25 %).
#[test]
fn non_principal_spin_dissipates_and_drifts_at_first_order() {
    let run = |h: f64| {
        let mut world = World::new()
            .with_gravity(Vector3::zeros())
            .unwrap()
            .with_ground(None)
            .unwrap();
        let shape = Shape::cuboid(0.3, 0.5, 0.7).unwrap();
        world
            .add(
                shape,
                800.0,
                Vector3::new(0.0, 0.0, 5.0),
                UnitQuaternion::from_euler_angles(0.3, -0.2, 0.5),
                MaterialId(0),
            )
            .unwrap();
        {
            let b = &mut world.body_mut(0).unwrap().body;
            b.linear_velocity = Vector3::new(0.4, 0.0, -0.2);
            b.angular_velocity = Vector3::new(1.0, 4.0, 2.0);
        }
        let momentum = |w: &World| {
            let b = &w.bodies()[0].body;
            b.inertia_world() * b.angular_velocity
        };
        let mut model = Model::default();
        let l0 = momentum(&world);
        let p0 = world.bodies()[0].body.linear_velocity * world.bodies()[0].body.mass;
        let mut e_prev = body_kinetic(&world, 0);
        let e0 = e_prev;
        let steps = (1.0 / h).round() as usize;
        let opts = ImplicitOptions {
            tol: 1e-12,
            ..Default::default()
        };
        for k in 0..steps {
            let contacts = world.contacts().unwrap();
            let report = step(&mut world, &mut model, &contacts, h, &opts)
                .unwrap_or_else(|e| panic!("step {k}: {e}"));
            assert!(report.converged, "step {k}: residual {}", report.residual);
            let e = body_kinetic(&world, 0);
            assert!(
                e <= e_prev * (1.0 + 1e-12),
                "step {k}: kinetic energy rose from {e_prev} to {e} J"
            );
            e_prev = e;
            let b = &world.bodies()[0].body;
            assert!((b.linear_velocity * b.mass - p0).norm() <= 1e-12 * p0.norm());
        }
        let drift = (momentum(&world) - l0).norm() / l0.norm();
        (drift, (e0 - e_prev) / e0)
    };
    let (d1, loss1) = run(0.01);
    let (d2, loss2) = run(0.005);
    println!(
        "non-principal spin over 1 s: |ΔL|/|L| {d1:.3e} (h = 0.01), {d2:.3e} (h = 0.005); \
         energy lost {loss1:.3e}, {loss2:.3e} (relative)"
    );
    assert!(d1 > 1e-6, "the gyroscopic term should act: drift {d1}");
    let ratio = d1 / d2;
    assert!(
        (1.5..=2.5).contains(&ratio),
        "drift ratio {ratio} (first order: 2)"
    );
    assert!(
        loss1 > loss2 && loss2 > 0.0,
        "energy losses {loss1}, {loss2}"
    );
}

/// Three boxes in a chain of hinges about the world `y` axis, each hinge limited to
/// `[-0.4, 0.4]` rad, released horizontal under gravity: the first hinge's angle (the
/// world is its first side) and the relative angles of the others stay inside their
/// limits at every step (position-level unilateral rows), and the limits are reached.
#[test]
fn hinge_chain_reaches_and_holds_its_limits() {
    use nonsmooth::implicit::Hinge;
    let mut world = World::new().with_ground(None).unwrap();
    let half = 0.25;
    let shape = Shape::cuboid(half, 0.05, 0.05).unwrap();
    let top = Vector3::new(0.0, 0.0, 3.0);
    for k in 0..3 {
        world
            .add(
                shape,
                500.0,
                top + Vector3::new((2 * k + 1) as f64 * half, 0.0, 0.0),
                UnitQuaternion::identity(),
                MaterialId(0),
            )
            .unwrap();
    }
    let poses = |i: usize| {
        let b = &world.bodies()[i].body;
        (b.position, b.rotation())
    };
    let limit = 0.4;
    let mut joints = Vec::new();
    for k in 0..3 {
        let mut h = Hinge::at(
            if k == 0 { None } else { Some(k - 1) },
            k,
            top + Vector3::new(2.0 * k as f64 * half, 0.0, 0.0),
            Vector3::y(),
            &poses,
        );
        h.limit = Some((-limit, limit));
        joints.push(Joint::Hinge(h));
    }
    let mut model = Model {
        joints,
        ..Default::default()
    };
    let angle = |w: &World, k: usize| {
        let q = w.bodies()[k].body.orientation;
        let rel = if k == 0 {
            q
        } else {
            w.bodies()[k - 1].body.orientation.inverse() * q
        };
        rel.scaled_axis().y
    };
    let opts = ImplicitOptions {
        tol: 1e-9,
        inner: InnerOptions {
            solver: InnerSolver::Direct,
            ..Default::default()
        },
        ..Default::default()
    };
    let mut reached = [0.0f64; 3];
    let mut worst_over = 0.0f64;
    for k in 0..150 {
        let contacts = world.contacts().unwrap();
        let report = step(&mut world, &mut model, &contacts, 0.01, &opts)
            .unwrap_or_else(|e| panic!("step {k}: {e}"));
        assert!(
            report.bilateral_error < 1e-6,
            "step {k}: joint error {}",
            report.bilateral_error
        );
        for (j, r) in reached.iter_mut().enumerate() {
            let a = angle(&world, j).abs();
            *r = r.max(a);
            worst_over = worst_over.max(a - limit);
            assert!(
                a <= limit + 1e-6,
                "step {k}: hinge {j} at {a} rad, limit {limit}"
            );
        }
    }
    println!(
        "hinge chain: largest angles {reached:?} rad (limit {limit}), worst excess {worst_over:.2e} rad"
    );
    assert!(
        reached.iter().any(|&a| a >= limit - 1e-6),
        "no limit reached: {reached:?}"
    );
}
