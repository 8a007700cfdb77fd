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
fn lines_of_sight_enter_each_shape_at_its_near_surface() {
    use super::order::entry;
    let pose = |shape, q| BodyPose {
        shape,
        position: Vector3::new(1.0, 2.0, 3.0),
        orientation: q,
        fixed: false,
    };
    let id = UnitQuaternion::identity();
    // Down the z axis from z = 10, through the centre.
    let (o, d) = (Vector3::new(1.0, 2.0, 10.0), -Vector3::z());
    let hit = |b: &BodyPose| entry(b, o, d).unwrap();
    assert!((hit(&pose(Shape::cuboid(0.1, 0.2, 0.3).unwrap(), id)) - 6.7).abs() < 1e-12);
    assert!((hit(&pose(Shape::sphere(0.5).unwrap(), id)) - 6.5).abs() < 1e-12);
    // An upright capsule is entered at its top cap, a lying one on its side.
    let capsule = Shape::capsule(0.4, 0.2).unwrap();
    assert!((hit(&pose(capsule, id)) - 6.4).abs() < 1e-12);
    let lying = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 1.0);
    // The line meets the tilted axis at the centre, at an angle of 1 rad.
    assert!((hit(&pose(capsule, lying)) - (7.0 - 0.2 / 1f64.sin())).abs() < 1e-12);
    // A line beside the body misses it.
    let beside = Vector3::new(1.5, 2.0, 10.0);
    assert_eq!(
        entry(&pose(Shape::sphere(0.4).unwrap(), id), beside, d),
        None
    );
    assert_eq!(
        entry(&pose(Shape::cuboid(0.4, 0.4, 0.4).unwrap(), id), beside, d),
        None
    );
    assert_eq!(entry(&pose(capsule, id), beside, d), None);
}

#[test]
fn the_ground_is_not_in_the_bounds() {
    let ball = BodyPose {
        shape: Shape::sphere(0.5).unwrap(),
        position: Vector3::new(0.0, 0.0, 1.0),
        orientation: UnitQuaternion::identity(),
        fixed: false,
    };
    for ground in [None, Some(0.0), Some(-100.0)] {
        let f = Frame {
            time: 0.0,
            ground,
            bodies: vec![ball],
        };
        assert_eq!(
            auto_bounds(&[f]).unwrap(),
            (Vector3::new(-0.5, -0.5, 0.5), Vector3::new(0.5, 0.5, 1.5))
        );
    }
}

#[test]
fn captions_join_the_title_and_the_time() {
    let mut o = RenderOptions::default();
    assert_eq!(o.caption(0.5), "t = 0.50 s");
    o.title = Some("pile".into());
    assert_eq!(o.caption(0.5), "pile, t = 0.50 s");
    o.label = false;
    assert_eq!(o.caption(0.5), "pile");
    o.title = None;
    assert_eq!(o.caption(0.5), "");
    assert!(o.has_band(), "the scale bar keeps the band");
    o.scale_bar = false;
    assert!(!o.has_band());
}
