//! Unit tests of the world's laws that need no collision detection (see also
//! `tests/world/collision.rs` and `tests/world/problem.rs`).

use proptest::prelude::*;

use super::*;

proptest! {
    /// The combination rule is symmetric, returns `mu` and `e` of two equal materials,
    /// and stays within the two inputs.
    #[test]
    fn material_combination_is_symmetric_and_between(
        mu_a in 0.0..2.0f64, mu_b in 0.0..2.0f64, e_a in 0.0..=1.0f64, e_b in 0.0..=1.0f64,
    ) {
        let a = Material::new(mu_a, e_a).unwrap();
        let b = Material::new(mu_b, e_b).unwrap();
        prop_assert_eq!(a.combine(&b), b.combine(&a));
        let c = a.combine(&b);
        prop_assert!(c.friction >= mu_a.min(mu_b) * (1.0 - 1e-15));
        prop_assert!(c.friction <= mu_a.max(mu_b) * (1.0 + 1e-15));
        prop_assert_eq!(c.restitution, e_a.max(e_b));
        let same = a.combine(&a);
        prop_assert!((same.friction - mu_a).abs() <= 1e-15 * mu_a);
        prop_assert!(c.validate().is_ok());
    }
}

#[test]
fn pair_overrides_are_unordered() {
    let mut t = Materials::default();
    let a = t.add(Material::new(0.2, 0.0).unwrap()).unwrap();
    let b = t.add(Material::new(0.8, 0.5).unwrap()).unwrap();
    let o = Material::new(1.2, 0.3).unwrap();
    t.set_pair(b, a, o).unwrap();
    assert_eq!(t.pair(a, b), o);
    assert_eq!(t.pair(b, a), o);
    assert_eq!(t.pair(a, a), Material::new(0.2, 0.0).unwrap());
    assert!(t.set_pair(a, MaterialId(9), o).is_err());
}

#[test]
fn capsule_inertia_tends_to_a_sphere_and_a_rod() {
    let m = 2.0;
    // A very short capsule is a sphere.
    let short = Shape::capsule(1e-9, 0.5).unwrap().inertia(m);
    let ball = Shape::sphere(0.5).unwrap().inertia(m);
    assert!((short - ball).amax() < 1e-8);
    // A very thin one is a rod of length h: m h^2 / 12 across.
    let h = 2.0;
    let thin = Shape::capsule(h / 2.0, 1e-6).unwrap().inertia(m);
    assert!((thin[(0, 0)] - m * h * h / 12.0).abs() < 1e-6);
}
