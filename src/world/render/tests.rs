//! Unit tests of the renderer's pieces (see also `tests/world/render.rs`).

use nalgebra::{UnitQuaternion, Vector3};

use super::draw::{nice_step, num};
use super::*;
use crate::world::Shape;

#[test]
fn view_axes_are_right_handed_orthonormal() {
    for v in [View::Isometric, View::Front, View::Side, View::Top] {
        let (r, u, f) = v.axes();
        for a in [r, u, f] {
            assert!((a.norm() - 1.0).abs() < 1e-15, "{v:?}");
        }
        assert!(r.dot(&u).abs() < 1e-15 && r.dot(&f).abs() < 1e-15 && u.dot(&f).abs() < 1e-15);
        assert!((f.cross(&u) - r).norm() < 1e-15, "{v:?}");
        if v != View::Top {
            assert!(u.z > 0.0, "{v:?}: z must point up on screen");
        }
    }
    // The isometric direction foreshortens the three axes equally.
    let (_, _, f) = View::Isometric.axes();
    assert!((f.x.abs() - f.y.abs()).abs() < 1e-15 && (f.y.abs() - f.z.abs()).abs() < 1e-15);
}

#[test]
fn bounding_boxes_are_exact() {
    let pose = |shape, q| BodyPose {
        shape,
        position: Vector3::new(1.0, 2.0, 3.0),
        orientation: q,
        fixed: false,
    };
    // A box turned 90 degrees about z swaps its x and y extents.
    let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_2);
    let (lo, hi) = pose(Shape::cuboid(0.1, 0.2, 0.3).unwrap(), q).aabb();
    assert!((hi - lo - Vector3::new(0.4, 0.2, 0.6)).norm() < 1e-12);
    // A capsule lying along x.
    let q = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), std::f64::consts::FRAC_PI_2);
    let (lo, hi) = pose(Shape::capsule(0.4, 0.2).unwrap(), q).aabb();
    assert!((hi - lo - Vector3::new(1.2, 0.4, 0.4)).norm() < 1e-12);
    let (lo, hi) = pose(Shape::sphere(0.5).unwrap(), q).aabb();
    assert_eq!(lo, Vector3::new(0.5, 1.5, 2.5));
    assert_eq!(hi, Vector3::new(1.5, 2.5, 3.5));
}

#[test]
fn numbers_have_two_decimals_and_no_negative_zero() {
    assert_eq!(num(1.0), "1.00");
    assert_eq!(num(-0.001), "0.00");
    assert_eq!(num(-0.0), "0.00");
    assert_eq!(num(-1.239), "-1.24");
}

#[test]
fn grid_steps_are_one_two_five() {
    assert_eq!(nice_step(0.3), Some(0.2));
    assert_eq!(nice_step(1.0), Some(1.0));
    assert_eq!(nice_step(7.0), Some(5.0));
    assert_eq!(nice_step(25.0), Some(20.0));
    assert_eq!(nice_step(0.0), None);
    assert_eq!(nice_step(f64::NAN), None);
    assert_eq!(nice_step(f64::INFINITY), None);
}

#[test]
fn the_ground_is_in_the_bounds_only_when_near() {
    let ball = BodyPose {
        shape: Shape::sphere(0.5).unwrap(),
        position: Vector3::new(0.0, 0.0, 1.0),
        orientation: UnitQuaternion::identity(),
        fixed: false,
    };
    let near = Frame {
        time: 0.0,
        ground: Some(0.0),
        bodies: vec![ball],
    };
    let (lo, hi) = auto_bounds(std::slice::from_ref(&near)).unwrap();
    assert!(lo.z < 0.0 && hi.z == 1.5 && lo.x < -0.5);
    let far = Frame {
        ground: Some(-100.0),
        ..near
    };
    let (lo, hi) = auto_bounds(&[far]).unwrap();
    assert_eq!(
        (lo, hi),
        (Vector3::new(-0.5, -0.5, 0.5), Vector3::new(0.5, 0.5, 1.5))
    );
}
