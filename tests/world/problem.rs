//! The step problem of a world: assembled by `multibody::Assembly`, solved by the
//! registry, written by the JSON writer, warm-started by identity.

use std::ops::ControlFlow;

use nalgebra::{DVector, UnitQuaternion, Vector3};
use nonsmooth::io::json;
use nonsmooth::policy::warm_start::by_identity;
use nonsmooth::problem::Provenance;
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::Params;
use nonsmooth::world::{MaterialId, Shape, World};

fn resting_box() -> (World, f64) {
    let mut w = World::new();
    let m = 3.0;
    w.add_with_mass(
        Shape::cuboid(0.5, 0.3, 0.2).unwrap(),
        m,
        Vector3::new(0.0, 0.0, 0.2 - 1e-4),
        UnitQuaternion::identity(),
        MaterialId::default(),
    )
    .unwrap();
    (w, m)
}

/// The impulses of a resting box, solved by `method`, add up to the weight times `dt`.
#[test]
fn resting_box_total_normal_impulse_is_m_g_dt() {
    let (w, m) = resting_box();
    let dt = 0.01;
    let step = w.contact_problem(dt).unwrap();
    assert_eq!(step.contacts.len(), 4);
    let p = step.any_local().unwrap();
    let params = Params {
        tol: 1e-10,
        max_iter: 1000,
        ..Default::default()
    };
    for method in ["nsn", "nsgs"] {
        let choice: Choice = method.parse().unwrap();
        let o = solve(&p, &choice, DVector::zeros(p.dim()), &params, &mut |_| {
            ControlFlow::Continue(())
        });
        assert_eq!(o.status(), "converged", "{method}: {:?}", o.result);
        let total: f64 = (0..4).map(|k| o.x[3 * k]).sum();
        let weight = m * 9.81 * dt;
        assert!(
            (total - weight).abs() <= 1e-8 * weight,
            "{method}: {total} vs {weight}"
        );
        // The body ends at rest. (The four contacts leave the impulses underdetermined:
        // friction impulses that cancel each other are allowed, so they are not checked
        // one by one.)
        let u = step.assembly.velocity_after(&o.x);
        assert!(u.amax() <= 1e-8, "{method}: {u}");
    }
}

#[test]
fn step_problems_are_written_like_any_other_problem() {
    let (w, _) = resting_box();
    let step = w.contact_problem(0.01).unwrap();
    for (name, p) in [
        ("local", step.any_local().unwrap()),
        ("global", step.any_global().unwrap()),
    ] {
        let text = json::to_string(name, &p, None, &Provenance::default());
        assert!(text.contains(name));
        let again = json::to_string(name, &p, None, &Provenance::default());
        assert_eq!(text, again);
    }
    // The global problem has the box's 6 velocities; the local one 4 contacts.
    assert_eq!(step.any_global().unwrap().dim(), 12);
    assert_eq!(step.gaps().len(), 4);
}

#[test]
fn warm_start_by_identity_carries_impulses_of_persisting_contacts() {
    let (mut w, _) = resting_box();
    let first = w.contact_problem(0.01).unwrap();
    let r_prev = DVector::from_fn(12, |i, _| i as f64 + 1.0);
    w.body_mut(0).unwrap().body.position.x += 1e-3;
    let second = w.contact_problem(0.01).unwrap();
    let r0 = by_identity(&first.ids(), r_prev.as_slice(), &second.ids(), 3).unwrap();
    assert_eq!(r0, r_prev);
}

#[test]
fn non_positive_dt_is_an_error() {
    let (w, _) = resting_box();
    assert!(w.contact_problem(0.0).is_err());
    assert!(w.contact_problem(f64::NAN).is_err());
}
