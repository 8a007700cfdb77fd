//! Random multibody systems for the property tests.

#![allow(dead_code)]

use nalgebra::{Quaternion, UnitQuaternion, Vector3};
use nonsmooth::multibody::{BodyRef, Contact, RigidBody, StepParams};
use nonsmooth::problem::FrictionKind;
use proptest::prelude::*;

/// A random system: bodies (some fixed, body 0 never), contacts between them or with
/// the world, and step parameters.
#[derive(Debug, Clone)]
pub struct System {
    pub bodies: Vec<RigidBody>,
    pub contacts: Vec<Contact>,
    pub step: StepParams,
}

fn vec3(lo: f64, hi: f64) -> impl Strategy<Value = Vector3<f64>> {
    (lo..hi, lo..hi, lo..hi).prop_map(|(x, y, z)| Vector3::new(x, y, z))
}

fn unit_quaternion() -> impl Strategy<Value = UnitQuaternion<f64>> {
    (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64)
        .prop_filter("not too short", |(w, i, j, k)| {
            w * w + i * i + j * j + k * k > 0.01
        })
        .prop_map(|(w, i, j, k)| UnitQuaternion::new_normalize(Quaternion::new(w, i, j, k)))
}

fn direction() -> impl Strategy<Value = Vector3<f64>> {
    vec3(-1.0, 1.0).prop_filter("not too short", |v| v.norm() > 0.1)
}

/// A random body: a box of mass 0.1..10 kg, half extents 0.05..1 m, random pose and
/// velocities, an applied load, fixed with probability 1/4.
pub fn body() -> impl Strategy<Value = RigidBody> {
    (
        0.1..10.0f64,
        vec3(0.05, 1.0),
        vec3(-2.0, 2.0),
        unit_quaternion(),
        vec3(-3.0, 3.0),
        vec3(-3.0, 3.0),
        vec3(-5.0, 5.0),
        vec3(-5.0, 5.0),
        0..4u8,
    )
        .prop_map(|(m, h, x, q, v, w, f, t, fixed)| {
            let b = RigidBody::solid_box_with_mass(h, m, x)
                .expect("valid box")
                .with_orientation(q)
                .with_velocity(v, w)
                .with_load(f, t);
            if fixed == 0 { b.into_fixed() } else { b }
        })
}

/// Raw contact data: side indices (resolved against the bodies), point, normal, mu.
type RawContact = (usize, usize, Vector3<f64>, Vector3<f64>, f64);

fn raw_contact() -> impl Strategy<Value = RawContact> {
    (
        0..100usize,
        0..100usize,
        vec3(-3.0, 3.0),
        direction(),
        0.0..1.0f64,
    )
}

/// Turns raw data into a valid contact: `b` is a body that is not fixed (body 0 if the
/// drawn one is), `a` the world or another body.
fn resolve(bodies: &[RigidBody], raw: &RawContact) -> Contact {
    let nb = bodies.len();
    let (ra, rb, p, n, mu) = *raw;
    let mut b = rb % nb;
    if bodies[b].fixed {
        b = 0;
    }
    let a = if ra % (nb + 1) == nb || ra % (nb + 1) == b {
        BodyRef::World
    } else {
        BodyRef::Body(ra % (nb + 1))
    };
    Contact::new(a, b, p, n, mu).expect("valid contact")
}

/// A random system of 1..`max_bodies` bodies and 0..`max_contacts` contacts.
pub fn system(max_bodies: usize, max_contacts: usize) -> impl Strategy<Value = System> {
    (
        prop::collection::vec(body(), 1..=max_bodies),
        prop::collection::vec(raw_contact(), 0..=max_contacts),
        1e-3..0.1f64,
        vec3(-10.0, 10.0),
        any::<bool>(),
    )
        .prop_map(|(mut bodies, raw, dt, gravity, ccp)| {
            bodies[0].fixed = false;
            let contacts = raw.iter().map(|r| resolve(&bodies, r)).collect();
            System {
                bodies,
                contacts,
                step: StepParams {
                    dt,
                    gravity,
                    kind: if ccp {
                        FrictionKind::Ccp
                    } else {
                        FrictionKind::Coulomb
                    },
                    ..StepParams::default()
                },
            }
        })
}
