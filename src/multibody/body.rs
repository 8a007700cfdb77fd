//! A rigid body: mass, inertia, pose and velocity, and the per-body pieces of the
//! Newton-Euler equations (Erleben 2007 eq. 16-18, 23-26; Erleben 2017 eq. 58-67).

use nalgebra::{Matrix3, Quaternion, UnitQuaternion, Vector3};

use super::{MultibodyError, check_finite, check_positive};

/// Relative asymmetry above which a body-frame inertia tensor is rejected.
const INERTIA_SYMMETRY_TOL: f64 = 1e-12;
/// How far from 1 the norm of an orientation quaternion may be.
const UNIT_TOL: f64 = 1e-9;

/// A rigid body.
///
/// All quantities are SI and, except `inertia_body`, given in world coordinates:
///
/// | field | meaning | unit |
/// |---|---|---|
/// | `mass` | `m` | kg |
/// | `inertia_body` | inertia tensor about the centre of mass, in the body frame | kg m^2 |
/// | `position` | centre of mass `x` | m |
/// | `orientation` | rotation `R` from body to world frame | — |
/// | `linear_velocity` | `v`, velocity of the centre of mass | m/s |
/// | `angular_velocity` | `omega`, world frame | rad/s |
/// | `force` | applied force besides gravity, through the centre of mass | N |
/// | `torque` | applied torque about the centre of mass | N m |
/// | `fixed` | the body does not respond to forces (infinite mass) | — |
///
/// A fixed body owns no degrees of freedom. Its velocities are taken as prescribed
/// (normally zero): contacts see it move, nothing moves it.
///
/// The fields are public so that a scene can be edited; [`RigidBody::validate`] (which
/// [`super::Assembly::new`] calls for every body it reads) checks them again.
#[derive(Debug, Clone, PartialEq)]
pub struct RigidBody {
    /// Mass `m` in kg (`> 0` unless the body is fixed).
    pub mass: f64,
    /// Body-frame inertia tensor `I_body` in kg m^2 (symmetric positive definite unless
    /// the body is fixed).
    pub inertia_body: Matrix3<f64>,
    /// Centre of mass in m.
    pub position: Vector3<f64>,
    /// Body-to-world rotation.
    pub orientation: UnitQuaternion<f64>,
    /// Velocity of the centre of mass in m/s.
    pub linear_velocity: Vector3<f64>,
    /// Angular velocity in rad/s, world frame.
    pub angular_velocity: Vector3<f64>,
    /// Applied force in N besides gravity (default zero).
    pub force: Vector3<f64>,
    /// Applied torque about the centre of mass in N m, world frame (default zero).
    pub torque: Vector3<f64>,
    /// `true` for a body with infinite mass (the ground, a wall, a kinematic platform).
    pub fixed: bool,
}

/// So that [`super::Assembly::new`] takes a slice of rigid bodies as well as a slice of
/// anything that holds one.
impl AsRef<RigidBody> for RigidBody {
    fn as_ref(&self) -> &RigidBody {
        self
    }
}

impl RigidBody {
    /// A body at rest at `position` with identity orientation.
    ///
    /// # Errors
    /// As [`RigidBody::validate`]: `mass <= 0`, an inertia tensor that is not symmetric
    /// positive definite, NaN or infinity anywhere.
    pub fn new(
        mass: f64,
        inertia_body: Matrix3<f64>,
        position: Vector3<f64>,
    ) -> Result<Self, MultibodyError> {
        let body = RigidBody {
            mass,
            inertia_body,
            position,
            orientation: UnitQuaternion::identity(),
            linear_velocity: Vector3::zeros(),
            angular_velocity: Vector3::zeros(),
            force: Vector3::zeros(),
            torque: Vector3::zeros(),
            fixed: false,
        };
        body.validate()?;
        Ok(body)
    }

    /// A solid box of uniform `density` (kg/m^3) with half extents `(a, b, c)` (m) along
    /// its body axes, centred at `position`, at rest, identity orientation.
    ///
    /// Mass `m = 8 a b c density`; inertia from [`RigidBody::box_inertia`].
    ///
    /// # Errors
    /// [`MultibodyError::NonPositive`] for a half extent or density `<= 0`;
    /// [`MultibodyError::NonFinite`] for NaN or infinity.
    pub fn solid_box(
        half_extents: Vector3<f64>,
        density: f64,
        position: Vector3<f64>,
    ) -> Result<Self, MultibodyError> {
        check_positive("density", density)?;
        check_half_extents(&half_extents)?;
        let volume = 8.0 * half_extents.x * half_extents.y * half_extents.z;
        Self::solid_box_with_mass(half_extents, volume * density, position)
    }

    /// A solid box of total `mass` (kg) with half extents `(a, b, c)` (m), centred at
    /// `position`, at rest, identity orientation.
    ///
    /// # Errors
    /// [`MultibodyError::NonPositive`] for a half extent `<= 0`,
    /// [`MultibodyError::NonPositiveMass`] for `mass <= 0`, and
    /// [`MultibodyError::NonFinite`] for NaN or infinity.
    pub fn solid_box_with_mass(
        half_extents: Vector3<f64>,
        mass: f64,
        position: Vector3<f64>,
    ) -> Result<Self, MultibodyError> {
        check_half_extents(&half_extents)?;
        if !mass.is_finite() {
            return Err(MultibodyError::NonFinite {
                what: "mass",
                body: None,
                contact: None,
            });
        }
        if mass <= 0.0 {
            return Err(MultibodyError::NonPositiveMass { body: None, mass });
        }
        Self::new(mass, Self::box_inertia(half_extents, mass), position)
    }

    /// The body-frame inertia tensor of a solid box of mass `m` and half extents
    /// `(a, b, c)`: `diag(b^2 + c^2, a^2 + c^2, a^2 + b^2) m / 3` (kg m^2). (With full
    /// side lengths `2a, 2b, 2c` this is the familiar `m (h^2 + d^2) / 12`.)
    pub fn box_inertia(half_extents: Vector3<f64>, mass: f64) -> Matrix3<f64> {
        let [a2, b2, c2] = [
            half_extents.x * half_extents.x,
            half_extents.y * half_extents.y,
            half_extents.z * half_extents.z,
        ];
        Matrix3::from_diagonal(&Vector3::new(b2 + c2, a2 + c2, a2 + b2)) * (mass / 3.0)
    }

    /// The same body with orientation `q`.
    pub fn with_orientation(mut self, q: UnitQuaternion<f64>) -> Self {
        self.orientation = q;
        self
    }

    /// The same body with linear velocity `v` (m/s) and angular velocity `omega`
    /// (rad/s, world frame).
    pub fn with_velocity(mut self, v: Vector3<f64>, omega: Vector3<f64>) -> Self {
        self.linear_velocity = v;
        self.angular_velocity = omega;
        self
    }

    /// The same body with an applied force (N) and torque (N m) besides gravity.
    pub fn with_load(mut self, force: Vector3<f64>, torque: Vector3<f64>) -> Self {
        self.force = force;
        self.torque = torque;
        self
    }

    /// The same body, fixed (infinite mass; velocities kept as prescribed motion).
    pub fn into_fixed(mut self) -> Self {
        self.fixed = true;
        self
    }

    /// Checks the body.
    ///
    /// Every field must be finite and the orientation a unit quaternion (to `1e-9`). A
    /// body that is not fixed also needs `mass > 0` and a symmetric (relative asymmetry
    /// at most `1e-12`) positive definite `inertia_body`.
    ///
    /// # Errors
    /// [`MultibodyError::NonFinite`], [`MultibodyError::NonUnitOrientation`],
    /// [`MultibodyError::NonPositiveMass`], [`MultibodyError::InvalidInertia`], with
    /// `body: None` (the assembly fills in the index).
    pub fn validate(&self) -> Result<(), MultibodyError> {
        check_finite("mass", &[self.mass])?;
        check_finite("inertia_body", self.inertia_body.as_slice())?;
        check_finite("position", self.position.as_slice())?;
        check_finite("orientation", self.orientation.as_ref().coords.as_slice())?;
        check_finite("linear_velocity", self.linear_velocity.as_slice())?;
        check_finite("angular_velocity", self.angular_velocity.as_slice())?;
        check_finite("force", self.force.as_slice())?;
        check_finite("torque", self.torque.as_slice())?;
        let norm = self.orientation.as_ref().norm();
        if (norm - 1.0).abs() > UNIT_TOL {
            return Err(MultibodyError::NonUnitOrientation { body: None, norm });
        }
        if self.fixed {
            return Ok(());
        }
        if self.mass <= 0.0 {
            return Err(MultibodyError::NonPositiveMass {
                body: None,
                mass: self.mass,
            });
        }
        let i = &self.inertia_body;
        let scale = i.amax();
        let asym = (i - i.transpose()).amax();
        if scale <= 0.0 || asym > INERTIA_SYMMETRY_TOL * scale || i.cholesky().is_none() {
            return Err(MultibodyError::InvalidInertia { body: None });
        }
        Ok(())
    }

    /// The rotation matrix `R` of the orientation (body to world).
    pub fn rotation(&self) -> Matrix3<f64> {
        self.orientation.to_rotation_matrix().into_inner()
    }

    /// The world-frame inertia tensor `I = R I_body R^T` (Erleben 2017 eq. 58), made
    /// exactly symmetric by averaging with its transpose.
    pub fn inertia_world(&self) -> Matrix3<f64> {
        let r = self.rotation();
        symmetrize(r * self.inertia_body * r.transpose())
    }

    /// The inverse world-frame inertia tensor `R I_body^-1 R^T`, exactly symmetric.
    ///
    /// Meaningful for a validated body that is not fixed (then `I_body` is invertible);
    /// returns the zero matrix if `I_body` cannot be inverted.
    pub fn inverse_inertia_world(&self) -> Matrix3<f64> {
        let r = self.rotation();
        match self.inertia_body.cholesky() {
            Some(ch) => symmetrize(r * ch.inverse() * r.transpose()),
            None => Matrix3::zeros(),
        }
    }

    /// The velocity (m/s) of the material point of the body at world position `p` (m):
    /// `v + omega x (p - x)`.
    pub fn velocity_at(&self, p: &Vector3<f64>) -> Vector3<f64> {
        self.linear_velocity + self.angular_velocity.cross(&(p - self.position))
    }

    /// The external force and torque of Erleben 2007 eq. 18 (Erleben 2017 eq. 61):
    /// `(m g + force, torque - omega x I omega)` in N and N m, with `I` the world-frame
    /// inertia and `g` the gravitational acceleration (m/s^2).
    pub fn external_wrench(&self, gravity: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
        let w = &self.angular_velocity;
        let gyro = -w.cross(&(self.inertia_world() * w));
        (gravity * self.mass + self.force, self.torque + gyro)
    }

    /// As [`RigidBody::external_wrench`] with the gyroscopic torque taken as `gyroscopic`
    /// says for a step of `dt` s ([`RigidBody::implicit_gyroscopic_torque`] when
    /// implicit).
    pub fn external_wrench_with(
        &self,
        gravity: &Vector3<f64>,
        gyroscopic: Gyroscopic,
        dt: f64,
    ) -> (Vector3<f64>, Vector3<f64>) {
        match gyroscopic {
            Gyroscopic::Explicit => self.external_wrench(gravity),
            Gyroscopic::Implicit => (
                gravity * self.mass + self.force,
                self.torque + self.implicit_gyroscopic_torque(dt),
            ),
        }
    }

    /// The gyroscopic torque of a step of `dt` s taken implicitly (N m): with `I` the
    /// world-frame inertia, one Newton step on `f(w') = I (w' - w) + dt w' x I w' = 0`
    /// from `w' = w`, whose Jacobian is `I + dt ([w']_x I - [I w']_x)`, gives
    /// `w' = w - J^-1 dt (w x I w)`, and the torque `I (w' - w) / dt`. For small
    /// `dt |w|` it is `-w x I w`, the explicit term of Erleben 2007 eq. 18; unlike it, it
    /// never feeds energy into a fast spin. When `J` is singular (not for `dt > 0` and a
    /// valid inertia) the explicit term is returned.
    pub fn implicit_gyroscopic_torque(&self, dt: f64) -> Vector3<f64> {
        let w = self.angular_velocity;
        let i = self.inertia_world();
        let iw = i * w;
        let j = i + (w.cross_matrix() * i - iw.cross_matrix()) * dt;
        match j.try_inverse() {
            Some(j_inv) => {
                let w_new = w - j_inv * (w.cross(&iw) * dt);
                i * (w_new - w) / dt
            }
            None => -w.cross(&iw),
        }
    }

    /// The explicit position update of Erleben 2007 eq. 23-26 (Erleben 2017 eq. 65-67)
    /// with the body's current velocities: `x += dt v` and `Q += dt G(Q) omega`, where
    /// `G(Q) omega = 1/2 [0, omega] Q` (quaternion product, world-frame `omega`) is the
    /// matrix of eq. 24; the quaternion is then renormalised. `dt` in s.
    pub fn integrate_position(&mut self, dt: f64) {
        self.displace(&(self.linear_velocity * dt), &(self.angular_velocity * dt));
    }

    /// A finite displacement: `x += dx` (m) and `Q += G(Q) dtheta` with the rotation
    /// vector `dtheta` (rad, world frame), then `Q` renormalised: the position update of
    /// Erleben 2007 eq. 45e and 46c (and Erleben 2017 eq. 51) for a displacement
    /// `[dx, dtheta]` of the body's generalised position.
    pub fn displace(&mut self, dx: &Vector3<f64>, dtheta: &Vector3<f64>) {
        self.position += dx;
        let q = *self.orientation.quaternion();
        let dq = Quaternion::from_imag(*dtheta) * q * 0.5;
        self.orientation = UnitQuaternion::new_normalize(q + dq);
    }
}

fn symmetrize(m: Matrix3<f64>) -> Matrix3<f64> {
    (m + m.transpose()) * 0.5
}

fn check_half_extents(h: &Vector3<f64>) -> Result<(), MultibodyError> {
    for &v in h.iter() {
        check_positive("box half extent", v)?;
    }
    Ok(())
}

/// How the gyroscopic torque of a spinning body enters the step (Erleben 2007 eq. 18).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Gyroscopic {
    /// `-omega x I omega` at the start of the step, as eq. 18 writes it. Explicit Euler on
    /// Euler's equations: a body spinning fast about an axis that is not principal gains
    /// energy every step, and the spin can grow without bound (it grows quadratically in
    /// `omega`).
    #[default]
    Explicit,
    /// One Newton step of the implicit Euler update `I (omega' - omega) = -dt omega' x I
    /// omega'` from `omega' = omega`, entered as the torque `I (omega' - omega) / dt`
    /// ([`crate::multibody::RigidBody::implicit_gyroscopic_torque`]). Stable at any spin;
    /// the same to first order in `dt`.
    Implicit,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_mass_and_inertia() {
        let b = RigidBody::solid_box(Vector3::new(0.5, 1.0, 1.5), 2.0, Vector3::zeros()).unwrap();
        assert_eq!(b.mass, 2.0 * 1.0 * 2.0 * 3.0);
        // Side lengths 1, 2, 3: I_xx = m (2^2 + 3^2) / 12.
        assert!((b.inertia_body[(0, 0)] - b.mass * 13.0 / 12.0).abs() < 1e-12);
        assert!((b.inertia_body[(1, 1)] - b.mass * 10.0 / 12.0).abs() < 1e-12);
        assert!((b.inertia_body[(2, 2)] - b.mass * 5.0 / 12.0).abs() < 1e-12);
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let h = Vector3::new(1.0, 1.0, 1.0);
        let z = Vector3::zeros();
        assert!(matches!(
            RigidBody::solid_box(h, -1.0, z),
            Err(MultibodyError::NonPositive { .. })
        ));
        assert!(matches!(
            RigidBody::solid_box(Vector3::new(1.0, 0.0, 1.0), 1.0, z),
            Err(MultibodyError::NonPositive { .. })
        ));
        assert!(matches!(
            RigidBody::solid_box_with_mass(h, 0.0, z),
            Err(MultibodyError::NonPositiveMass { .. })
        ));
        assert!(matches!(
            RigidBody::solid_box(h, f64::NAN, z),
            Err(MultibodyError::NonFinite { .. })
        ));
        assert!(matches!(
            RigidBody::new(
                1.0,
                Matrix3::identity(),
                Vector3::new(0.0, f64::INFINITY, 0.0)
            ),
            Err(MultibodyError::NonFinite { .. })
        ));
        let mut skew = Matrix3::identity();
        skew[(0, 1)] = 0.5;
        assert!(matches!(
            RigidBody::new(1.0, skew, z),
            Err(MultibodyError::InvalidInertia { .. })
        ));
        assert!(matches!(
            RigidBody::new(1.0, -Matrix3::identity(), z),
            Err(MultibodyError::InvalidInertia { .. })
        ));
        let mut b = RigidBody::new(1.0, Matrix3::identity(), z).unwrap();
        b.orientation = UnitQuaternion::new_unchecked(Quaternion::new(2.0, 0.0, 0.0, 0.0));
        assert!(matches!(
            b.validate(),
            Err(MultibodyError::NonUnitOrientation { .. })
        ));
        // A fixed body needs no mass.
        let mut g = RigidBody::new(1.0, Matrix3::identity(), z)
            .unwrap()
            .into_fixed();
        g.mass = 0.0;
        assert!(g.validate().is_ok());
    }

    #[test]
    fn world_inertia_rotates() {
        let b = RigidBody::solid_box(Vector3::new(1.0, 0.5, 0.25), 1.0, Vector3::zeros())
            .unwrap()
            .with_orientation(UnitQuaternion::from_axis_angle(
                &Vector3::z_axis(),
                std::f64::consts::FRAC_PI_2,
            ));
        let i = b.inertia_world();
        // A quarter turn about z swaps the x and y moments.
        assert!((i[(0, 0)] - b.inertia_body[(1, 1)]).abs() < 1e-12);
        assert!((i[(1, 1)] - b.inertia_body[(0, 0)]).abs() < 1e-12);
        let prod = i * b.inverse_inertia_world();
        assert!((prod - Matrix3::identity()).amax() < 1e-12);
    }

    #[test]
    fn gyroscopic_torque_vanishes_about_a_principal_axis() {
        let b = RigidBody::solid_box(Vector3::new(1.0, 0.5, 0.25), 1.0, Vector3::zeros())
            .unwrap()
            .with_velocity(Vector3::zeros(), Vector3::new(0.0, 0.0, 3.0));
        let (f, t) = b.external_wrench(&Vector3::new(0.0, 0.0, -9.81));
        assert_eq!(f, Vector3::new(0.0, 0.0, -9.81 * b.mass));
        assert_eq!(t, Vector3::zeros());
        let b = b.with_velocity(Vector3::zeros(), Vector3::new(1.0, 1.0, 0.0));
        let (_, t) = b.external_wrench(&Vector3::zeros());
        let w = b.angular_velocity;
        assert!((t + w.cross(&(b.inertia_world() * w))).norm() < 1e-15);
        assert!(t.norm() > 0.0);
    }

    #[test]
    fn position_update_follows_the_angular_velocity() {
        // Spin about z at 1 rad/s for 1 s in small steps: about 1 rad of yaw.
        let mut b = RigidBody::solid_box(Vector3::new(1.0, 1.0, 1.0), 1.0, Vector3::zeros())
            .unwrap()
            .with_velocity(Vector3::new(1.0, 0.0, 0.0), Vector3::new(0.0, 0.0, 1.0));
        for _ in 0..10_000 {
            b.integrate_position(1e-4);
        }
        let (axis, angle) = b.orientation.axis_angle().unwrap();
        assert!((angle - 1.0).abs() < 1e-3, "{angle}");
        assert!((axis.into_inner() - Vector3::z()).norm() < 1e-9);
        assert!((b.position - Vector3::new(1.0, 0.0, 0.0)).norm() < 1e-9);
        assert!((b.orientation.as_ref().norm() - 1.0).abs() < 1e-12);
    }
}
