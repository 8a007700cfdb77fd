//! Collision detection of `nonsmooth::world`: contacts, normals and gaps of simple
//! configurations, the gap law of two spheres (property test), determinism and stable
//! identities.

use nalgebra::{UnitQuaternion, Vector3};
use nonsmooth::multibody::{BodyRef, MultibodyError};
use nonsmooth::world::{GroundPlane, Material, MaterialId, Shape, World, WorldContact};
use proptest::prelude::*;

const M0: MaterialId = MaterialId(0);

fn id() -> UnitQuaternion<f64> {
    UnitQuaternion::identity()
}

fn v(x: f64, y: f64, z: f64) -> Vector3<f64> {
    Vector3::new(x, y, z)
}

fn assert_ground_contact(c: &WorldContact, body: usize) {
    assert_eq!(c.contact.a(), BodyRef::World);
    assert_eq!(c.contact.b(), body);
    assert_eq!(c.id.a, None);
    assert_eq!(c.id.b, body);
    assert!((c.contact.normal() - Vector3::z()).amax() < 1e-15);
}

#[test]
fn box_resting_on_the_ground_has_four_contacts_at_its_corners() {
    let depth = 1e-4;
    let h = v(0.4, 0.3, 0.2);
    let mut w = World::new();
    let shape = Shape::cuboid(h.x, h.y, h.z).unwrap();
    w.add(shape, 500.0, v(1.0, -2.0, h.z - depth), id(), M0)
        .unwrap();
    let cs = w.contacts().unwrap();
    assert_eq!(cs.len(), 4);
    let mut corners = Vec::new();
    for c in &cs {
        assert_ground_contact(c, 0);
        assert!((c.gap + depth).abs() < 1e-12, "gap {}", c.gap);
        // midway between the plane and the sunken corner
        assert!((c.contact.point().z + depth / 2.0).abs() < 1e-12);
        let p = c.contact.point() - v(1.0, -2.0, 0.0);
        corners.push(((p.x / h.x).round() as i32, (p.y / h.y).round() as i32));
    }
    corners.sort();
    assert_eq!(corners, vec![(-1, -1), (-1, 1), (1, -1), (1, 1)]);
}

#[test]
fn sphere_on_the_ground_has_one_contact_with_gap_height_minus_radius() {
    for (height, r) in [(0.5, 0.5), (0.4995, 0.5), (0.1005, 0.1)] {
        let mut w = World::new().with_margin(0.01).unwrap();
        w.add(
            Shape::sphere(r).unwrap(),
            1000.0,
            v(0.3, 0.1, height),
            id(),
            M0,
        )
        .unwrap();
        let cs = w.contacts().unwrap();
        assert_eq!(cs.len(), 1);
        assert_ground_contact(&cs[0], 0);
        assert!((cs[0].gap - (height - r)).abs() < 1e-12);
    }
}

#[test]
fn ground_height_is_respected() {
    let ground = GroundPlane::new(-1.0, M0).unwrap();
    let mut w = World::new().with_ground(Some(ground)).unwrap();
    w.add(
        Shape::sphere(0.5).unwrap(),
        1.0,
        v(0.0, 0.0, -0.5005),
        id(),
        M0,
    )
    .unwrap();
    let cs = w.contacts().unwrap();
    assert_eq!(cs.len(), 1);
    assert!((cs[0].gap + 0.0005).abs() < 1e-12);
}

#[test]
fn capsule_lying_on_the_ground_has_two_contacts() {
    let (hh, r, depth) = (0.6, 0.2, 2e-4);
    let mut w = World::new();
    // Rotate the capsule's axis (local z) onto the world x axis.
    let lying = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), std::f64::consts::FRAC_PI_2);
    w.add(
        Shape::capsule(hh, r).unwrap(),
        800.0,
        v(0.0, 0.0, r - depth),
        lying,
        M0,
    )
    .unwrap();
    let cs = w.contacts().unwrap();
    assert_eq!(cs.len(), 2);
    let mut xs = Vec::new();
    for c in &cs {
        assert_ground_contact(c, 0);
        assert!((c.gap + depth).abs() < 1e-12, "gap {}", c.gap);
        xs.push(c.contact.point().x);
    }
    xs.sort_by(f64::total_cmp);
    assert!(
        (xs[0] + hh).abs() < 1e-12 && (xs[1] - hh).abs() < 1e-12,
        "{xs:?}"
    );
}

#[test]
fn box_on_box_normal_points_from_lower_to_upper_index() {
    // Body 0 on top of body 1: the normal from a = 0 to b = 1 points down. parry reports
    // each corner twice (a vertex of either box on the other's face); the world merges
    // them.
    let mut w = World::new().with_ground(None).unwrap();
    let s = Shape::cuboid(0.5, 0.5, 0.5).unwrap();
    w.add(s, 1.0, v(0.0, 0.0, 1.9995), id(), M0).unwrap();
    w.add(s, 1.0, v(0.0, 0.0, 1.0), id(), M0).unwrap();
    let cs = w.contacts().unwrap();
    assert_eq!(cs.len(), 4);
    for c in &cs {
        assert_eq!(c.contact.a(), BodyRef::Body(0));
        assert_eq!(c.contact.b(), 1);
        assert!((c.contact.normal() + Vector3::z()).amax() < 1e-12);
        assert!((c.gap + 0.0005).abs() < 1e-12);
    }
}

#[test]
fn fixed_bodies_collide_with_moving_ones_but_not_with_each_other() {
    let mut w = World::new();
    let s = Shape::cuboid(0.5, 0.5, 0.5).unwrap();
    // Two fixed blocks resting on (and touching) the ground and each other.
    w.add_fixed(s, v(0.0, 0.0, 0.5), id(), M0).unwrap();
    w.add_fixed(s, v(1.0, 0.0, 0.5), id(), M0).unwrap();
    // A ball on the first block.
    w.add(
        Shape::sphere(0.25).unwrap(),
        1.0,
        v(0.0, 0.0, 1.25),
        id(),
        M0,
    )
    .unwrap();
    let cs = w.contacts().unwrap();
    assert_eq!(cs.len(), 1);
    assert_eq!((cs[0].id.a, cs[0].id.b), (Some(0), 2));
    assert!((cs[0].contact.normal() - Vector3::z()).amax() < 1e-12);
    // The assembly accepts it: the fixed block owns no degrees of freedom.
    let step = w.contact_problem(0.01).unwrap();
    assert_eq!(step.assembly.dofs(), 6);
}

#[test]
fn pair_materials_combine_and_can_be_overridden() {
    let mut w = World::new().with_ground(None).unwrap();
    let ice = w.add_material(Material::new(0.0, 0.1).unwrap()).unwrap();
    let rubber = w.add_material(Material::new(0.9, 0.8).unwrap()).unwrap();
    let wood = w.add_material(Material::new(0.4, 0.3).unwrap()).unwrap();
    let s = Shape::sphere(0.5).unwrap();
    w.add(s, 1.0, v(0.0, 0.0, 0.0), id(), rubber).unwrap();
    w.add(s, 1.0, v(0.9995, 0.0, 0.0), id(), wood).unwrap();
    w.add(s, 1.0, v(0.0, 0.9995, 0.0), id(), ice).unwrap();
    let cs = w.contacts().unwrap();
    assert_eq!(cs.len(), 2);
    let (rw, ri) = (&cs[0].contact, &cs[1].contact);
    assert_eq!((cs[0].id.b, cs[1].id.b), (1, 2));
    assert_eq!(rw.mu(), (0.9f64 * 0.4).sqrt());
    assert_eq!(rw.restitution(), 0.8);
    assert_eq!(ri.mu(), 0.0);
    w.set_pair_material(wood, rubber, Material::new(1.5, 0.0).unwrap())
        .unwrap();
    let cs = w.contacts().unwrap();
    assert_eq!(
        (cs[0].contact.mu(), cs[0].contact.restitution()),
        (1.5, 0.0)
    );
}

#[test]
fn bad_input_is_a_typed_error() {
    let mut w = World::new();
    assert!(matches!(
        Shape::cuboid(1.0, 0.0, 1.0),
        Err(MultibodyError::NonPositive { .. })
    ));
    assert!(matches!(
        Shape::sphere(-1.0),
        Err(MultibodyError::NonPositive { .. })
    ));
    assert!(matches!(
        Shape::capsule(f64::NAN, 1.0),
        Err(MultibodyError::NonFinite { .. })
    ));
    let s = Shape::sphere(1.0).unwrap();
    assert!(matches!(
        w.add_with_mass(s, 0.0, Vector3::zeros(), id(), M0),
        Err(MultibodyError::NonPositiveMass { .. })
    ));
    assert!(matches!(
        w.add(s, 1.0, v(f64::NAN, 0.0, 0.0), id(), M0),
        Err(MultibodyError::NonFinite { .. })
    ));
    assert!(matches!(
        w.add(s, 1.0, Vector3::zeros(), id(), MaterialId(7)),
        Err(MultibodyError::UnknownMaterial { material: 7, .. })
    ));
    assert!(matches!(
        Material::new(-0.1, 0.0),
        Err(MultibodyError::NegativeFriction { .. })
    ));
    assert!(matches!(
        Material::new(0.1, 1.5),
        Err(MultibodyError::InvalidRestitution { .. })
    ));
    // A body edited into a bad state is caught by the next collision detection.
    let i = w.add(s, 1.0, v(0.0, 0.0, 1.0), id(), M0).unwrap();
    w.body_mut(i).unwrap().body.position.z = f64::INFINITY;
    assert!(matches!(
        w.contacts(),
        Err(MultibodyError::NonFinite { body: Some(0), .. })
    ));
    w.body_mut(i).unwrap().shape = Shape::Sphere { radius: -2.0 };
    w.body_mut(i).unwrap().body.position.z = 1.0;
    assert!(matches!(
        w.contacts(),
        Err(MultibodyError::NonPositive { .. })
    ));
}

/// A pile of mixed shapes near the ground and each other.
fn pile(offset: f64) -> World {
    let mut w = World::new().with_margin(0.01).unwrap();
    let shapes = [
        Shape::cuboid(0.3, 0.2, 0.25).unwrap(),
        Shape::sphere(0.22).unwrap(),
        Shape::capsule(0.3, 0.12).unwrap(),
    ];
    for k in 0..18 {
        let (i, j, l) = ((k % 3) as f64, ((k / 3) % 3) as f64, (k / 9) as f64);
        let pos = v(0.45 * i + 0.01 * j, 0.45 * j, 0.24 + 0.44 * l + offset);
        let q = UnitQuaternion::from_euler_angles(0.1 * k as f64, 0.05 * k as f64, 0.3 * k as f64);
        w.add(shapes[k % 3], 700.0, pos, q, M0).unwrap();
    }
    w
}

#[test]
fn the_same_world_gives_bit_identical_contacts() {
    let a = pile(0.0).contacts().unwrap();
    let b = pile(0.0).contacts().unwrap();
    assert!(a.len() > 18, "{} contacts", a.len());
    assert_eq!(a, b); // PartialEq on f64: bit-identical up to the sign of zero
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.gap.to_bits(), y.gap.to_bits());
        for d in 0..3 {
            assert_eq!(
                x.contact.point()[d].to_bits(),
                y.contact.point()[d].to_bits()
            );
            assert_eq!(
                x.contact.normal()[d].to_bits(),
                y.contact.normal()[d].to_bits()
            );
        }
    }
    // sorted by identity, identities unique
    assert!(a.windows(2).all(|p| p[0].id < p[1].id));
}

#[test]
fn identities_persist_under_a_small_motion() {
    let mut w = World::new();
    let s = Shape::cuboid(0.5, 0.4, 0.3).unwrap();
    w.add(s, 1.0, v(0.0, 0.0, 0.2995), id(), M0).unwrap();
    w.add(
        Shape::sphere(0.3).unwrap(),
        1.0,
        v(0.0, 0.0, 0.8995),
        id(),
        M0,
    )
    .unwrap();
    w.add(
        Shape::capsule(0.2, 0.1).unwrap(),
        1.0,
        v(3.0, 0.0, 0.0999),
        id(),
        M0,
    )
    .unwrap();
    let before: Vec<_> = w.contacts().unwrap().iter().map(|c| c.id).collect();
    for i in 0..3 {
        let b = &mut w.body_mut(i).unwrap().body;
        b.position += v(1e-4, -2e-4, 5e-5);
        b.orientation = UnitQuaternion::from_euler_angles(1e-3, -2e-3, 3e-3) * b.orientation;
    }
    let after: Vec<_> = w.contacts().unwrap().iter().map(|c| c.id).collect();
    assert_eq!(before.len(), 4 + 1 + 1);
    assert_eq!(before, after);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Two spheres: one contact, normal along the line of centres from `a` to `b`, and
    /// gap = distance - r1 - r2.
    #[test]
    fn two_spheres_gap_is_distance_minus_radii(
        x1 in -2.0..2.0f64, y1 in -2.0..2.0f64, z1 in 1.0..3.0f64,
        r1 in 0.05..1.0f64, r2 in 0.05..1.0f64,
        theta in 0.0..std::f64::consts::PI, phi in 0.0..std::f64::consts::TAU,
        gap in -0.04..0.05f64,
    ) {
        let p1 = v(x1, y1, z1);
        let dir = v(theta.sin() * phi.cos(), theta.sin() * phi.sin(), theta.cos());
        let d = r1 + r2 + gap;
        let p2 = p1 + dir * d;
        let mut w = World::new().with_ground(None).unwrap().with_margin(0.05).unwrap();
        w.add(Shape::sphere(r1).unwrap(), 1.0, p1, id(), M0).unwrap();
        w.add(Shape::sphere(r2).unwrap(), 1.0, p2, id(), M0).unwrap();
        let cs = w.contacts().unwrap();
        prop_assert_eq!(cs.len(), 1);
        let c = &cs[0];
        let exact = (p2 - p1).norm() - r1 - r2;
        prop_assert!((c.gap - exact).abs() < 1e-12, "gap {} vs {}", c.gap, exact);
        prop_assert!((c.contact.normal() - dir).amax() < 1e-9);
        prop_assert_eq!(c.contact.a(), BodyRef::Body(0));
        prop_assert_eq!(c.contact.b(), 1);
    }

    /// A sphere anywhere near the ground: gap = height - radius, normal +z.
    #[test]
    fn sphere_ground_gap(x in -5.0..5.0f64, y in -5.0..5.0f64, r in 0.05..2.0f64, gap in -0.05..0.01f64) {
        let mut w = World::new().with_margin(0.01).unwrap();
        w.add(Shape::sphere(r).unwrap(), 1.0, v(x, y, r + gap), id(), M0).unwrap();
        let cs = w.contacts().unwrap();
        prop_assert_eq!(cs.len(), 1);
        prop_assert!((cs[0].gap - gap).abs() < 1e-12);
        prop_assert!((cs[0].contact.normal() - Vector3::z()).amax() < 1e-15);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// A box turned about `z` and sunk a little: four contacts, all with gap `-depth`.
    #[test]
    fn yawed_box_on_the_ground(yaw in 0.0..std::f64::consts::TAU, depth in 0.0..5e-4f64,
                               a in 0.1..1.0f64, b in 0.1..1.0f64, c in 0.1..1.0f64) {
        let mut w = World::new();
        let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), yaw);
        w.add(Shape::cuboid(a, b, c).unwrap(), 100.0, v(0.0, 0.0, c - depth), q, M0).unwrap();
        let cs = w.contacts().unwrap();
        prop_assert_eq!(cs.len(), 4);
        for c in &cs {
            prop_assert!((c.gap + depth).abs() < 1e-12);
        }
    }

    /// A sphere above the top face of a box (well inside the face): one contact, normal
    /// from the box (body 0) to the sphere (body 1), gap = height above the face - r.
    #[test]
    fn sphere_over_box_face(x in -0.3..0.3f64, y in -0.3..0.3f64, r in 0.05..0.5f64, gap in -0.01..0.01f64) {
        let mut w = World::new().with_ground(None).unwrap().with_margin(0.02).unwrap();
        w.add(Shape::cuboid(0.5, 0.5, 0.5).unwrap(), 1.0, Vector3::zeros(), id(), M0).unwrap();
        w.add(Shape::sphere(r).unwrap(), 1.0, v(x, y, 0.5 + r + gap), id(), M0).unwrap();
        let cs = w.contacts().unwrap();
        prop_assert_eq!(cs.len(), 1);
        prop_assert!((cs[0].gap - gap).abs() < 1e-12, "{} vs {}", cs[0].gap, gap);
        prop_assert!((cs[0].contact.normal() - Vector3::z()).amax() < 1e-12);
        prop_assert_eq!((cs[0].id.a, cs[0].id.b), (Some(0), 1));
    }

    /// A sphere beside a capsule's side: gap = distance to the axis - r_s - r_c.
    #[test]
    fn sphere_beside_capsule(zc in -0.4..0.4f64, phi in 0.0..std::f64::consts::TAU,
                             rs in 0.05..0.5f64, rc in 0.05..0.5f64, gap in -0.01..0.01f64) {
        let mut w = World::new().with_ground(None).unwrap().with_margin(0.02).unwrap();
        w.add(Shape::capsule(0.5, rc).unwrap(), 1.0, Vector3::zeros(), id(), M0).unwrap();
        let d = rs + rc + gap;
        w.add(Shape::sphere(rs).unwrap(), 1.0, v(d * phi.cos(), d * phi.sin(), zc), id(), M0).unwrap();
        let cs = w.contacts().unwrap();
        prop_assert_eq!(cs.len(), 1);
        prop_assert!((cs[0].gap - gap).abs() < 1e-12, "{} vs {}", cs[0].gap, gap);
        let n = v(phi.cos(), phi.sin(), 0.0);
        prop_assert!((cs[0].contact.normal() - n).amax() < 1e-9);
    }
}
