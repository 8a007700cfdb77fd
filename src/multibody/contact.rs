//! A point contact between two bodies and its contact frame `[n, t1, t2]`
//! (Erleben 2007 eq. 2, 6; Erleben 2017 eq. 52-53).
//!
//! Checked by `tests/laws/tangent_basis.rs`.

use nalgebra::{Matrix3, Vector3};

use super::{MultibodyError, check_finite};

/// Normals whose largest component is smaller than this are rejected as zero.
const MIN_NORMAL_NORM: f64 = 1e-12;

/// One side of a contact: a body of the scene (by index) or the static world.
///
/// The world is an immovable body with no position: it never moves, so it adds nothing
/// to the contact velocity and owns no column of `J`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BodyRef {
    /// The static world (for example the ground plane).
    World,
    /// Body `i` of the scene (which may itself be fixed).
    Body(usize),
}

/// A point contact.
///
/// * `a`: the first body (a body of the scene, possibly fixed, or [`BodyRef::World`]);
///   `b`: the second body (a body of the scene).
/// * `point`: the contact point in world coordinates (m). The lever arms are
///   `r_a = point - x_a`, `r_b = point - x_b`.
/// * `normal`: the unit normal `n`, pointing **from `a` to `b`**. The relative
///   velocity of `b` with respect to `a` at the point, `v_rel = (v_b + w_b x r_b) -
///   (v_a + w_a x r_a)`, then has `n . v_rel > 0` when the bodies separate (the sign
///   convention of [`crate::problem`]).
/// * `t1`, `t2`: the tangent basis from [`tangent_basis`]: orthonormal, `t1 x t2 = n`.
/// * `mu >= 0`: the Coulomb friction coefficient (dimensionless).
/// * `restitution` `e` in `[0, 1]` (default 0): Newton's impact law, Erleben 2007
///   eq. 21-22 (see [`super::Assembly`]).
/// * `mu_tau >= 0` (default 0): the torsional friction coefficient of Coulomb-Contensou
///   friction, a length in m (Erleben 2017 eq. 15b-16: the torsional friction torque is
///   bounded by `mu_tau λ_N`). It only matters for the optional fourth (torsion) row, see
///   [`super::Assembly::torsion_jacobian`].
///
/// The contact velocity in the frame is `[n, t1, t2]^T v_rel`, the three rows of `J`
/// the contact owns.
#[derive(Debug, Clone, PartialEq)]
pub struct Contact {
    a: BodyRef,
    b: usize,
    point: Vector3<f64>,
    normal: Vector3<f64>,
    t1: Vector3<f64>,
    t2: Vector3<f64>,
    mu: f64,
    restitution: f64,
    mu_tau: f64,
}

impl Contact {
    /// A contact between `a` and body `b` at `point` (m) with normal `normal` (from `a`
    /// to `b`; any finite length, normalised here) and friction coefficient `mu`.
    /// Restitution 0.
    ///
    /// # Errors
    /// [`MultibodyError::NonFinite`] for NaN or infinity, [`MultibodyError::ZeroNormal`]
    /// for a normal whose largest component is below `1e-12`, [`MultibodyError::NegativeFriction`] for
    /// `mu < 0`, [`MultibodyError::SelfContact`] if `a` is body `b`. Whether the body
    /// indices exist is checked when the scene is assembled.
    pub fn new(
        a: BodyRef,
        b: usize,
        point: Vector3<f64>,
        normal: Vector3<f64>,
        mu: f64,
    ) -> Result<Self, MultibodyError> {
        check_finite("contact point", point.as_slice())?;
        check_finite("contact normal", normal.as_slice())?;
        check_finite("friction coefficient", &[mu])?;
        if a == BodyRef::Body(b) {
            return Err(MultibodyError::SelfContact {
                contact: None,
                body: b,
            });
        }
        let largest = normal.amax();
        if largest < MIN_NORMAL_NORM {
            return Err(MultibodyError::ZeroNormal { contact: None });
        }
        if mu < 0.0 {
            return Err(MultibodyError::NegativeFriction { contact: None, mu });
        }
        // Scale first so that neither huge nor small normals overflow or underflow.
        let scaled = normal / largest;
        let n = scaled / scaled.norm();
        let (t1, t2) = tangent_basis(&n);
        Ok(Contact {
            a,
            b,
            point,
            normal: n,
            t1,
            t2,
            mu,
            restitution: 0.0,
            mu_tau: 0.0,
        })
    }

    /// The same contact with coefficient of restitution `e` (dimensionless).
    ///
    /// # Errors
    /// [`MultibodyError::InvalidRestitution`] unless `0 <= e <= 1`.
    pub fn with_restitution(mut self, e: f64) -> Result<Self, MultibodyError> {
        if !(0.0..=1.0).contains(&e) {
            return Err(MultibodyError::InvalidRestitution {
                contact: None,
                value: e,
            });
        }
        self.restitution = e;
        Ok(self)
    }

    /// The same contact with torsional friction coefficient `mu_tau` (m): the torsional
    /// friction torque about the normal is bounded by `mu_tau λ_N` (Coulomb-Contensou,
    /// Erleben 2017 eq. 15b-16).
    ///
    /// # Errors
    /// [`MultibodyError::NonFinite`] or [`MultibodyError::NegativeFriction`] unless
    /// `mu_tau` is finite and `>= 0`.
    pub fn with_torsion(mut self, mu_tau: f64) -> Result<Self, MultibodyError> {
        check_finite("torsional friction coefficient", &[mu_tau])?;
        if mu_tau < 0.0 {
            return Err(MultibodyError::NegativeFriction {
                contact: None,
                mu: mu_tau,
            });
        }
        self.mu_tau = mu_tau;
        Ok(self)
    }

    /// The torsional friction coefficient `mu_tau` in m (0 unless set by
    /// [`Contact::with_torsion`]).
    pub fn mu_tau(&self) -> f64 {
        self.mu_tau
    }

    /// The first body (the normal points away from it).
    pub fn a(&self) -> BodyRef {
        self.a
    }

    /// The second body (the normal points towards it).
    pub fn b(&self) -> usize {
        self.b
    }

    /// The contact point in world coordinates (m).
    pub fn point(&self) -> &Vector3<f64> {
        &self.point
    }

    /// The unit normal `n`, from `a` to `b`.
    pub fn normal(&self) -> &Vector3<f64> {
        &self.normal
    }

    /// The first tangent `t1`.
    pub fn t1(&self) -> &Vector3<f64> {
        &self.t1
    }

    /// The second tangent `t2 = n x t1`.
    pub fn t2(&self) -> &Vector3<f64> {
        &self.t2
    }

    /// The friction coefficient `mu`.
    pub fn mu(&self) -> f64 {
        self.mu
    }

    /// The coefficient of restitution `e`.
    pub fn restitution(&self) -> f64 {
        self.restitution
    }

    /// The contact frame `C = [n t1 t2]` as columns (Erleben 2017 eq. 53): `C^T v` gives
    /// a world vector's components `[n, t1, t2]`.
    pub fn frame(&self) -> Matrix3<f64> {
        Matrix3::from_columns(&[self.normal, self.t1, self.t2])
    }
}

/// A deterministic orthonormal tangent basis `(t1, t2)` for the unit normal `n`, with
/// `t1 x t2 = n` (so `[n, t1, t2]` is a right-handed frame).
///
/// The construction is the branch-on-sign formula of Duff, Burgess, Christensen, Hery,
/// Kensler, Liani and Villemin 2017 (*Building an orthonormal basis, revisited*, JCGT
/// 6(1)): with `s = sign(n_z)` (`+1` for `n_z = +0`), `a = -1 / (s + n_z)` and
/// `c = n_x n_y a`,
///
/// ```text
/// t1 = (1 + s n_x^2 a,  s c,  -s n_x),    t2 = (c,  s + n_y^2 a,  -n_y).
/// ```
///
/// It has no near-singular case (`s + n_z` is at least 1 in magnitude) and depends only
/// on `n`. For `n = +z` it gives `t1 = x`, `t2 = y`; for `n = -z`, `t1 = x`, `t2 = -y`.
/// `n` is assumed to have unit length (as [`Contact::new`] makes sure).
pub fn tangent_basis(n: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
    let s = 1.0f64.copysign(n.z);
    let a = -1.0 / (s + n.z);
    let c = n.x * n.y * a;
    let t1 = Vector3::new(1.0 + s * n.x * n.x * a, s * c, -s * n.x);
    let t2 = Vector3::new(c, s + n.y * n.y * a, -n.y);
    (t1, t2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_normals_give_axis_tangents() {
        let (t1, t2) = tangent_basis(&Vector3::z());
        assert_eq!((t1, t2), (Vector3::x(), Vector3::y()));
        let (t1, t2) = tangent_basis(&-Vector3::z());
        assert_eq!((t1, t2), (Vector3::x(), -Vector3::y()));
        for n in [Vector3::x(), -Vector3::x(), Vector3::y(), -Vector3::y()] {
            let (t1, t2) = tangent_basis(&n);
            assert!((t1.cross(&t2) - n).norm() < 1e-15);
            assert!(t1.dot(&n).abs() < 1e-15 && t2.dot(&n).abs() < 1e-15);
        }
    }

    #[test]
    fn constructor_normalises_and_validates() {
        let c = Contact::new(
            BodyRef::World,
            0,
            Vector3::zeros(),
            Vector3::new(0.0, 0.0, 2.0),
            0.5,
        )
        .unwrap();
        assert_eq!(c.normal(), &Vector3::z());
        let f = c.frame();
        assert!((f.transpose() * f - Matrix3::identity()).amax() < 1e-15);
        assert!(matches!(
            Contact::new(BodyRef::World, 0, Vector3::zeros(), Vector3::zeros(), 0.5),
            Err(MultibodyError::ZeroNormal { .. })
        ));
        assert!(matches!(
            Contact::new(BodyRef::World, 0, Vector3::zeros(), Vector3::z(), -0.1),
            Err(MultibodyError::NegativeFriction { .. })
        ));
        assert!(matches!(
            Contact::new(BodyRef::Body(1), 1, Vector3::zeros(), Vector3::z(), 0.1),
            Err(MultibodyError::SelfContact { .. })
        ));
        assert!(matches!(
            Contact::new(
                BodyRef::World,
                0,
                Vector3::new(f64::NAN, 0.0, 0.0),
                Vector3::z(),
                0.1
            ),
            Err(MultibodyError::NonFinite { .. })
        ));
        assert!(matches!(
            c.clone().with_restitution(1.5),
            Err(MultibodyError::InvalidRestitution { .. })
        ));
        assert_eq!(c.with_restitution(0.5).unwrap().restitution(), 0.5);
    }
}
