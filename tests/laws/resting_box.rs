//! Law: a single box resting on the ground on its four bottom corners has the known
//! solution of its local problem: every normal impulse `m g dt / 4` (together `m g dt`,
//! what stops one step of gravity), no friction, and all contact velocities zero.
//!
//! The solution is computed, not assumed: the minimum-norm solution of `W r = -q`
//! (sticking everywhere, `u = 0`) by a dense symmetric eigen-decomposition. It is the physical one because the
//! symmetric impulse lies in the range of `J` (a pure upward translation).

use nalgebra::{DVector, UnitQuaternion, Vector3};
use nonsmooth::multibody::{Assembly, Scene};
use nonsmooth::multibody::{BodyRef, Contact, RigidBody, StepParams};
use proptest::prelude::*;

fn resting_box(
    half: Vector3<f64>,
    density: f64,
    yaw: f64,
    xy: (f64, f64),
    mu: f64,
    step: StepParams,
    fixed_ground: bool,
) -> Scene {
    let mut bodies = Vec::new();
    let ground = if fixed_ground {
        let slab = Vector3::new(10.0, 10.0, 0.5);
        bodies.push(
            RigidBody::solid_box(slab, 1000.0, Vector3::new(0.0, 0.0, -0.5))
                .unwrap()
                .into_fixed(),
        );
        BodyRef::Body(0)
    } else {
        BodyRef::World
    };
    let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), yaw);
    let centre = Vector3::new(xy.0, xy.1, half.z);
    let b = bodies.len();
    bodies.push(
        RigidBody::solid_box(half, density, centre)
            .unwrap()
            .with_orientation(q),
    );
    let mut contacts = Vec::new();
    for (sx, sy) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
        let corner = centre + q * Vector3::new(sx * half.x, sy * half.y, -half.z);
        contacts.push(Contact::new(ground, b, corner, Vector3::z(), mu).unwrap());
    }
    Scene {
        name: "resting_box".into(),
        description: String::new(),
        bodies,
        half_extents: vec![],
        contacts,
        step,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn resting_box_has_the_static_solution(
        hx in 0.02..1.0f64, hy in 0.02..1.0f64, hz in 0.02..1.0f64,
        density in 10.0..5000.0f64,
        yaw in -3.2..3.2f64,
        x in -5.0..5.0f64, y in -5.0..5.0f64,
        mu in 0.0..1.5f64,
        dt in 1e-4..0.05f64,
        g in 0.5..20.0f64,
        fixed_ground in any::<bool>(),
    ) {
        let step = StepParams { dt, gravity: Vector3::new(0.0, 0.0, -g), ..StepParams::default() };
        let scene = resting_box(Vector3::new(hx, hy, hz), density, yaw, (x, y), mu, step, fixed_ground);
        let body = scene.bodies.last().unwrap();
        let fc = scene.local_problem().unwrap();
        let w = fc.w().to_dense();
        let q = fc.q();

        // The minimum-norm solution of W r = -q, by the eigen-decomposition of the
        // symmetric positive semi-definite W (eigenvalues below 1e-10 of the largest count
        // as zero: W has rank 6 and 12 rows).
        let eig = w.clone().symmetric_eigen();
        let top = eig.eigenvalues.amax();
        let coeffs = eig.eigenvectors.transpose() * (-q);
        let scaled = DVector::from_fn(coeffs.len(), |i, _| {
            let l = eig.eigenvalues[i];
            if l > 1e-10 * top { coeffs[i] / l } else { 0.0 }
        });
        let r = &eig.eigenvectors * scaled;

        // The direct small computation: one step of gravity on this body, shared by 4.
        let total = body.mass * g * dt;
        let scale = total;
        for c in 0..4 {
            prop_assert!((r[3 * c] - total / 4.0).abs() <= 1e-9 * scale,
                "normal impulse {} = {}, expected {}", c, r[3 * c], total / 4.0);
            prop_assert!(r[3 * c + 1].abs() <= 1e-9 * scale && r[3 * c + 2].abs() <= 1e-9 * scale,
                "friction at contact {}: {} {}", c, r[3 * c + 1], r[3 * c + 2]);
        }
        let sum: f64 = (0..4).map(|c| r[3 * c]).sum();
        prop_assert!((sum - total).abs() <= 1e-9 * scale);

        // It solves the problem: u = W r + q = 0 (sticking, in the cone since r_t = 0).
        let u = fc.velocity(&r);
        let vscale = g * dt;
        prop_assert!(u.amax() <= 1e-9 * vscale, "|u| = {:e}", u.amax());

        // And through the global problem the body is at rest after the step.
        let asm: Assembly = scene.assemble().unwrap();
        let v = asm.velocity_after(&DVector::from_column_slice(r.as_slice()));
        prop_assert!(v.amax() <= 1e-9 * vscale * (1.0 + 1.0 / hx.min(hy).min(hz)));
    }
}
