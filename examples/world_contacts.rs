//! Collision detection in a small world (the book's chapter "The world and collision
//! detection"): a box, a sphere and a lying capsule on the ground and a sphere on the
//! box; their contacts with gaps and identities; the contacts again after a small motion;
//! and the resting box's step problem solved.
//!
//! ```text
//! cargo run --release --example world_contacts
//! ```
//!
//! Writes `book/src/generated/world_contacts.txt`; its test checks the committed file.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;
use std::ops::ControlFlow;

use nalgebra::{DVector, UnitQuaternion, Vector3};
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::Params;
use nonsmooth::world::{Material, Shape, World, WorldContact, feature_name};

fn table(out: &mut String, contacts: &[WorldContact]) {
    writeln!(
        out,
        "  {:>6} {:>3} {:>4} {:>9} {:>9} {:>7} {:>10}  {:>26}  {:>18}  {:>5} {:>4}",
        "a",
        "b",
        "man",
        "feature a",
        "feature b",
        "ordinal",
        "gap (m)",
        "point (m)",
        "normal",
        "mu",
        "e"
    )
    .unwrap();
    for c in contacts {
        let a = match c.id.a {
            None => "ground".to_string(),
            Some(i) => i.to_string(),
        };
        let p = c.contact.point();
        let n = c.contact.normal();
        writeln!(
            out,
            "  {a:>6} {:>3} {:>4} {:>9} {:>9} {:>7} {:>10.2e}  ({:>6.3}, {:>6.3}, {:>8.5})  ({:>4.2}, {:>4.2}, {:>4.2})  {:>5.3} {:>4.2}",
            c.id.b,
            c.id.manifold,
            feature_name(c.id.feature_a),
            feature_name(c.id.feature_b),
            c.id.ordinal,
            c.gap,
            p.x,
            p.y,
            p.z,
            n.x + 0.0, // + 0.0 prints -0 as 0
            n.y + 0.0,
            n.z + 0.0,
            c.contact.mu(),
            c.contact.restitution()
        )
        .unwrap();
    }
}

fn report() -> String {
    // ANCHOR: build
    let mut world = World::new(); // ground z = 0, gravity -9.81 z, margin 1 mm
    let wood = world
        .add_material(Material::new(0.4, 0.1).expect("valid"))
        .expect("valid");
    let rubber = world
        .add_material(Material::new(0.9, 0.6).expect("valid"))
        .expect("valid");
    let upright = UnitQuaternion::identity();
    let lying = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), std::f64::consts::FRAC_PI_2);
    let sunk = 1e-4; // every body 0.1 mm into what it rests on
    let cube = Shape::cuboid(0.5, 0.5, 0.5).expect("valid");
    let ball = Shape::sphere(0.25).expect("valid");
    let capsule = Shape::capsule(0.4, 0.2).expect("valid");
    let b0 = world.add_with_mass(cube, 2.0, Vector3::new(0.0, 0.0, 0.5 - sunk), upright, wood);
    let b1 = world.add(
        ball,
        1000.0,
        Vector3::new(0.0, 0.0, 1.25 - 2.0 * sunk),
        upright,
        rubber,
    );
    let b2 = world.add(
        capsule,
        1000.0,
        Vector3::new(2.0, 0.0, 0.2 - sunk),
        lying,
        wood,
    );
    let b3 = world.add(
        ball,
        1000.0,
        Vector3::new(-2.0, 0.0, 0.25 + 5e-4),
        upright,
        rubber,
    );
    for b in [b0, b1, b2, b3] {
        b.expect("a valid body");
    }
    let contacts = world.contacts().expect("collision detection");
    // ANCHOR_END: build

    let mut out = String::new();
    writeln!(
        out,
        "bodies: 0 box, 1 sphere on the box, 2 lying capsule, 3 sphere 0.5 mm above the ground"
    )
    .unwrap();
    writeln!(out, "{} contacts, sorted by identity:", contacts.len()).unwrap();
    table(&mut out, &contacts);

    // ANCHOR: moved
    // Move every body a little: the same features touch, so the identities are the same.
    for i in 0..world.bodies().len() {
        let body = &mut world.body_mut(i).expect("exists").body;
        body.position += Vector3::new(2e-4, -1e-4, 0.0);
        body.orientation = UnitQuaternion::from_euler_angles(0.0, 0.0, 1e-3) * body.orientation;
    }
    let moved = world.contacts().expect("collision detection");
    let same = moved.iter().map(|c| c.id).eq(contacts.iter().map(|c| c.id));
    // ANCHOR_END: moved
    writeln!(
        out,
        "after a small motion: {} contacts, identities unchanged: {same}",
        moved.len()
    )
    .unwrap();

    // ANCHOR: solve
    // The step problem of a box alone on the ground, solved by the cone Newton.
    let mut alone = World::new();
    let mass = 2.0;
    alone
        .add_with_mass(
            cube,
            mass,
            Vector3::new(0.0, 0.0, 0.5 - sunk),
            upright,
            Default::default(),
        )
        .expect("a valid body");
    let dt = 0.01;
    let step = alone.contact_problem(dt).expect("assembled");
    let problem = step.any_local().expect("a local problem");
    let params = Params {
        tol: 1e-10,
        ..Default::default()
    };
    let choice: Choice = "nsn".parse().expect("a method");
    let outcome = solve(
        &problem,
        &choice,
        DVector::zeros(problem.dim()),
        &params,
        &mut |_| ControlFlow::Continue(()),
    );
    let normal_total: f64 = (0..step.contacts.len()).map(|k| outcome.x[3 * k]).sum();
    // ANCHOR_END: solve
    writeln!(
        out,
        "resting box: {} contacts, method {}, {}; total normal impulse {:.6} N s, m g dt = {:.6} N s",
        step.contacts.len(),
        outcome.method.name(),
        outcome.status(),
        normal_total,
        mass * 9.81 * dt
    )
    .unwrap();
    out
}

fn main() {
    let out = report();
    print!("{out}");
    support::publish("generated/world_contacts.txt", &out);
}

#[test]
fn output_matches_the_book() {
    main();
}
