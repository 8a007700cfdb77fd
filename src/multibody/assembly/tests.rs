//! Unit tests of the assembly: the Delassus operator against the dense product, the
//! errors that name the culprit, restitution, torsion rows and moving fixed bodies.

use super::*;
use crate::multibody::contact::Contact;

fn two_boxes() -> (Vec<RigidBody>, Vec<Contact>) {
    let h = Vector3::new(0.5, 0.5, 0.5);
    let b0 = RigidBody::solid_box(h, 1.0, Vector3::new(0.0, 0.0, 0.5)).unwrap();
    let b1 = RigidBody::solid_box(h, 2.0, Vector3::new(0.1, 0.0, 1.5)).unwrap();
    let mut contacts = Vec::new();
    for (x, y) in [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)] {
        let p = Vector3::new(x, y, 0.0);
        contacts.push(Contact::new(BodyRef::World, 0, p, Vector3::z(), 0.3).unwrap());
        let p = Vector3::new(x * 0.8 + 0.05, y, 1.0);
        contacts.push(Contact::new(BodyRef::Body(0), 1, p, Vector3::z(), 0.3).unwrap());
    }
    (vec![b0, b1], contacts)
}

#[test]
fn delassus_matches_dense_product() {
    let (bodies, contacts) = two_boxes();
    let a = Assembly::new(&bodies, &contacts, &StepParams::default()).unwrap();
    let j = a.jacobian().to_dense();
    let minv = a.inverse_mass_matrix().to_dense();
    let w_dense = &j * &minv * j.transpose();
    let w = a.delassus();
    assert_eq!(w.relative_asymmetry(), 0.0);
    assert!((w.to_dense() - &w_dense).amax() <= 1e-14 * w_dense.amax());
    let m = a.mass_matrix().to_dense();
    assert!((&m * &minv - nalgebra::DMatrix::identity(12, 12)).amax() < 1e-14);
}

#[test]
fn scene_errors_name_the_culprit() {
    let (mut bodies, contacts) = two_boxes();
    let step = StepParams::default();
    let bad = vec![Contact::new(BodyRef::Body(7), 1, Vector3::zeros(), Vector3::z(), 0.1).unwrap()];
    assert_eq!(
        Assembly::new(&bodies, &bad, &step).unwrap_err(),
        MultibodyError::UnknownBody {
            contact: 0,
            body: 7,
            bodies: 2
        }
    );
    bodies[1].mass = -1.0;
    assert_eq!(
        Assembly::new(&bodies, &contacts, &step).unwrap_err(),
        MultibodyError::NonPositiveMass {
            body: Some(1),
            mass: -1.0
        }
    );
    bodies[1].mass = 1.0;
    bodies[0].fixed = true;
    let fixed_pair = vec![contacts[0].clone()];
    assert_eq!(
        Assembly::new(&bodies, &fixed_pair, &step).unwrap_err(),
        MultibodyError::NoDynamicBody { contact: 0 }
    );
    let bad_step = StepParams {
        dt: 0.0,
        ..StepParams::default()
    };
    assert!(matches!(
        Assembly::new(&bodies, &contacts, &bad_step),
        Err(MultibodyError::NonPositive { .. })
    ));
}

#[test]
fn restitution_bounces_approaching_contacts_only() {
    let h = Vector3::new(0.5, 0.5, 0.5);
    let falling = RigidBody::solid_box(h, 1.0, Vector3::new(0.0, 0.0, 0.5))
        .unwrap()
        .with_velocity(Vector3::new(0.0, 0.0, -2.0), Vector3::zeros());
    let c = Contact::new(
        BodyRef::World,
        0,
        Vector3::new(0.5, 0.5, 0.0),
        Vector3::z(),
        0.3,
    )
    .unwrap()
    .with_restitution(0.5)
    .unwrap();
    let a = Assembly::new(
        std::slice::from_ref(&falling),
        std::slice::from_ref(&c),
        &StepParams::default(),
    )
    .unwrap();
    assert_eq!(a.b_restitution()[0], 0.5 * -2.0);
    assert_eq!(a.b_restitution().rows(1, 2).amax(), 0.0);
    let rising = falling.with_velocity(Vector3::new(0.0, 0.0, 2.0), Vector3::zeros());
    let a = Assembly::new(&[rising], &[c], &StepParams::default()).unwrap();
    assert_eq!(a.b_restitution()[0], 0.0);
}

#[test]
fn torsion_row_is_the_relative_spin_about_the_normal() {
    let (bodies, contacts) = two_boxes();
    let contacts: Vec<Contact> = contacts
        .into_iter()
        .map(|c| c.with_torsion(0.01).unwrap())
        .collect();
    let spin = [Vector3::new(0.3, -0.2, 1.5), Vector3::new(-0.1, 0.4, -0.7)];
    let bodies: Vec<RigidBody> = bodies
        .into_iter()
        .zip(spin)
        .map(|(b, w)| b.with_velocity(Vector3::new(1.0, 2.0, 3.0), w))
        .collect();
    let a = Assembly::new(&bodies, &contacts, &StepParams::default()).unwrap();
    let vt = a.torsion_jacobian().mul_vec(a.velocity());
    for (k, c) in contacts.iter().enumerate() {
        let wb = bodies[c.b()].angular_velocity;
        let wa = match c.a() {
            BodyRef::World => Vector3::zeros(),
            BodyRef::Body(i) => bodies[i].angular_velocity,
        };
        assert!((vt[k] - c.normal().dot(&(wb - wa))).abs() < 1e-15);
        assert_eq!(a.mu_torsion()[k], 0.01);
    }
    assert_eq!(a.b_torsion().amax(), 0.0);
}

#[test]
fn moving_fixed_body_enters_b() {
    let h = Vector3::new(0.5, 0.5, 0.5);
    let belt = RigidBody::solid_box(h, 1.0, Vector3::new(0.0, 0.0, -0.5))
        .unwrap()
        .with_velocity(Vector3::new(1.0, 0.0, 0.0), Vector3::zeros())
        .into_fixed();
    let boxy = RigidBody::solid_box(h, 1.0, Vector3::new(0.0, 0.0, 0.5)).unwrap();
    let c = Contact::new(BodyRef::Body(0), 1, Vector3::zeros(), Vector3::z(), 0.3).unwrap();
    let a = Assembly::new(&[belt, boxy], &[c], &StepParams::default()).unwrap();
    // b moves at rest relative to world; a (the belt) moves at +x: b slides at -x.
    assert_eq!(a.b_kinematic().as_slice(), &[0.0, -1.0, 0.0]);
    assert_eq!(a.dofs(), 6);
}

/// The assembly validates the bodies it reads (free bodies and the fixed bodies of its
/// contacts), and only those: a fixed body no contact touches does not enter it, so a
/// stack layer of a large world does not pay for the rest of the world.
#[test]
fn validation_covers_the_bodies_read_and_only_those() {
    let (mut bodies, contacts) = two_boxes();
    let h = Vector3::new(0.5, 0.5, 0.5);
    let mut far = RigidBody::solid_box(h, 1.0, Vector3::new(9.0, 0.0, 0.5)).unwrap();
    far.fixed = true;
    far.linear_velocity.x = f64::NAN;
    bodies.push(far);
    let step = StepParams::default();
    assert!(Assembly::new(&bodies, &contacts, &step).is_ok());

    // The same fixed body, once a contact touches it, is read and refused by index.
    let mut touching = contacts.clone();
    touching.push(Contact::new(BodyRef::Body(2), 1, Vector3::zeros(), Vector3::z(), 0.3).unwrap());
    assert!(matches!(
        Assembly::new(&bodies, &touching, &step).unwrap_err(),
        MultibodyError::NonFinite { body: Some(2), .. }
    ));

    // A free body is always read, contact or not.
    bodies[2].fixed = false;
    assert!(matches!(
        Assembly::new(&bodies, &contacts, &step).unwrap_err(),
        MultibodyError::NonFinite { body: Some(2), .. }
    ));
}
