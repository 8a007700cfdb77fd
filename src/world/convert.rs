//! The boundary between the crate's nalgebra 0.35 types and parry3d-f64's glam types
//! (`DVec3`, `DQuat`, `DPose3`). Nothing else in the crate sees a glam type.
//!
//! parry 0.31 computes in `glam` (through `glamx`), the crate in `nalgebra`. The
//! conversions copy components; a quaternion keeps its `(x, y, z, w)` (nalgebra stores
//! `(i, j, k, w)` in the same order), so a body's orientation `Q` (Erleben 2007 eq.
//! 23-26) is the same rotation on both sides.

use nalgebra::{UnitQuaternion, Vector3};
use parry3d_f64::math::{Pose, Rotation, Vector};
use parry3d_f64::shape::SharedShape;

use super::shape::Shape;
use crate::multibody::RigidBody;

/// The parry shape of a [`Shape`] (a box is a `Cuboid`, a sphere a `Ball`, a capsule a
/// `Capsule` along local `z`).
pub(crate) fn to_parry_shape(shape: &Shape) -> SharedShape {
    match *shape {
        Shape::Box { half_extents: h } => SharedShape::cuboid(h.x, h.y, h.z),
        Shape::Sphere { radius } => SharedShape::ball(radius),
        Shape::Capsule {
            half_height,
            radius,
        } => SharedShape::capsule_z(half_height, radius),
    }
}

/// The parry shape of the ground: the half space with outward normal `+z`.
pub(crate) fn ground_shape() -> SharedShape {
    SharedShape::halfspace(Vector::Z)
}

/// The pose of the ground plane `z = height`.
pub(crate) fn ground_pose(height: f64) -> Pose {
    Pose::translation(0.0, 0.0, height)
}

/// A nalgebra vector as a parry (glam) vector.
pub(crate) fn to_parry_vec(v: &Vector3<f64>) -> Vector {
    Vector::new(v.x, v.y, v.z)
}

/// A parry (glam) vector as a nalgebra vector.
pub(crate) fn from_parry_vec(v: Vector) -> Vector3<f64> {
    Vector3::new(v.x, v.y, v.z)
}

/// A nalgebra unit quaternion as a parry (glam) rotation.
pub(crate) fn to_parry_rotation(q: &UnitQuaternion<f64>) -> Rotation {
    let c = &q.as_ref().coords; // [i, j, k, w]
    Rotation::from_xyzw(c[0], c[1], c[2], c[3])
}

/// The pose (centre of mass and orientation) of a body as a parry pose.
pub(crate) fn body_pose(body: &RigidBody) -> Pose {
    Pose::from_parts(
        to_parry_vec(&body.position),
        to_parry_rotation(&body.orientation),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_round_trip_acts_alike() {
        let q = UnitQuaternion::from_euler_angles(0.3, -1.1, 2.0);
        let p = nalgebra::Vector3::new(0.2, -0.7, 1.5);
        let on_nalgebra = q * p;
        let on_parry = from_parry_vec(to_parry_rotation(&q) * to_parry_vec(&p));
        assert!((on_nalgebra - on_parry).amax() < 1e-15);
    }

    /// The inertia formulas of `Shape::inertia` against parry's mass properties (an
    /// independent implementation), for a box, a sphere and a capsule.
    #[test]
    fn inertia_agrees_with_parry() {
        let shapes = [
            Shape::cuboid(0.3, 0.5, 0.7).unwrap(),
            Shape::sphere(0.4).unwrap(),
            Shape::capsule(0.6, 0.25).unwrap(),
        ];
        let density = 1300.0;
        for s in shapes {
            let mp = to_parry_shape(&s).mass_properties(density);
            let m = density * s.volume();
            assert!((mp.mass() - m).abs() <= 1e-12 * m, "{s:?} mass");
            let mut ours: Vec<f64> = s.inertia(m).diagonal().iter().copied().collect();
            let p = mp.principal_inertia();
            let mut theirs = vec![p.x, p.y, p.z];
            ours.sort_by(f64::total_cmp);
            theirs.sort_by(f64::total_cmp);
            for (a, b) in ours.iter().zip(&theirs) {
                assert!((a - b).abs() <= 1e-10 * b, "{s:?}: {ours:?} vs {theirs:?}");
            }
        }
    }
}
