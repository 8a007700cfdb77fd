//! Law: `J u` (plus the prescribed motion of fixed bodies) is the relative velocity of
//! the contact points, `(v_b + w_b x r_b) - (v_a + w_a x r_a)`, in the contact frame
//! `[n, t1, t2]` (Erleben 2007 eq. 2, 6, 11-13).

use crate::bodies;

use nalgebra::Vector3;
use nonsmooth::multibody::{Assembly, BodyRef, RigidBody};
use proptest::prelude::*;

/// The velocity of the material point `p` of `body`, written out here rather than
/// taken from the library.
fn point_velocity(body: &RigidBody, p: &Vector3<f64>) -> Vector3<f64> {
    let r = p - body.position;
    body.linear_velocity + body.angular_velocity.cross(&r)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn jacobian_gives_relative_contact_velocity(sys in bodies::system(6, 12)) {
        let asm = Assembly::new(&sys.bodies, &sys.contacts, &sys.step).unwrap();
        // u as the assembly laid it out, checked against the bodies through the map.
        let u = asm.velocity();
        for (i, body) in sys.bodies.iter().enumerate() {
            match asm.dof_map().offset(i) {
                Some(o) => {
                    prop_assert_eq!(u.fixed_rows::<3>(o).into_owned(), body.linear_velocity);
                    prop_assert_eq!(u.fixed_rows::<3>(o + 3).into_owned(), body.angular_velocity);
                }
                None => prop_assert!(body.fixed),
            }
        }
        let ju = asm.contact_velocity(u);
        for (k, c) in sys.contacts.iter().enumerate() {
            let p = c.point();
            let vb = point_velocity(&sys.bodies[c.b()], p);
            let va = match c.a() {
                BodyRef::World => Vector3::zeros(),
                BodyRef::Body(i) => point_velocity(&sys.bodies[i], p),
            };
            let rel = vb - va;
            let expected = [c.normal().dot(&rel), c.t1().dot(&rel), c.t2().dot(&rel)];
            let scale = 1.0 + vb.norm() + va.norm();
            for i in 0..3 {
                prop_assert!(
                    (ju[3 * k + i] - expected[i]).abs() <= 1e-13 * scale,
                    "contact {} row {}: J u = {}, direct = {}", k, i, ju[3 * k + i], expected[i]
                );
            }
        }
    }
}
