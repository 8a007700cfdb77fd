//! Law: for every unit normal `n`, `tangent_basis(n) = (t1, t2)` makes `[n, t1, t2]` an
//! orthonormal right-handed frame (`t1 x t2 = n`), and a contact uses exactly that frame.

use nalgebra::Vector3;
use nonsmooth::multibody::{BodyRef, Contact, tangent_basis};
use quickcheck::{TestResult, quickcheck};

fn frame_is_orthonormal_and_right_handed(x: f64, y: f64, z: f64) -> TestResult {
    let v = Vector3::new(x, y, z);
    // Contacts reject normals whose largest component is below 1e-12.
    if !v.iter().all(|c| c.is_finite()) || v.amax() < 1e-12 {
        return TestResult::discard();
    }
    let n = (v / v.amax()).normalize();
    let (t1, t2) = tangent_basis(&n);
    let tol = 1e-14;
    let ok = (t1.norm() - 1.0).abs() < tol
        && (t2.norm() - 1.0).abs() < tol
        && t1.dot(&n).abs() < tol
        && t2.dot(&n).abs() < tol
        && t1.dot(&t2).abs() < tol
        && (t1.cross(&t2) - n).norm() < 2.0 * tol;
    // The contact frame is the same basis (the contact normalises the normal itself).
    let c = Contact::new(BodyRef::World, 0, Vector3::zeros(), v, 0.5).unwrap();
    let same = (c.normal() - n).norm() < tol && (c.t1() - t1).norm() < 1e-12;
    TestResult::from_bool(ok && same)
}

#[test]
fn tangent_basis_is_an_orthonormal_right_handed_frame() {
    quickcheck(frame_is_orthonormal_and_right_handed as fn(f64, f64, f64) -> TestResult);
    // The axes and their signed zeros, which random draws rarely hit.
    for &(x, y, z) in &[
        (0.0, 0.0, 1.0),
        (0.0, 0.0, -1.0),
        (0.0, 0.0, -0.0),
        (1.0, 0.0, 0.0),
        (1.0, 0.0, -0.0),
        (-1.0, 0.0, 0.0),
        (0.0, -1.0, -0.0),
        (1e-300, 1e-300, -1.0),
        (1e300, -1e300, 1e300),
        (1e-11, 0.0, -3e-12),
    ] {
        let r = frame_is_orthonormal_and_right_handed(x, y, z);
        assert!(!r.is_failure(), "({x}, {y}, {z})");
    }
}
