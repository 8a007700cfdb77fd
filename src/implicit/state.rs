//! The generalised coordinates of one time step: which entries of `u` belong to which
//! node, the positions as functions of `u`, the mass matrix and the unconstrained
//! velocity (Macklin et al. 2019 §5, NOTES 2.5).
//!
//! * A free rigid body owns 6 entries `[v, ω]` of `u` (m/s, rad/s, `ω` in the world
//!   frame) and 7 of `q`: its centre of mass `x` and orientation quaternion `Q`. The
//!   kinematic map `G(q)` takes `u` to `q̇ = [v, ½ [0, ω] Q]`. A particle owns 3 entries
//!   `v` and its position; its `G` is the identity. Fixed bodies own none.
//! * The positions are implicit in the end-of-step velocity (eq. (q+)):
//!   `x(u) = x⁻ + h v` and `Q(u) = exp(h ω) Q⁻`, the exact integral of `Q̇ = ½ [0, ω] Q`
//!   for constant `ω` over the step, so `Q` stays a unit quaternion.
//! * `M` is block diagonal: `m I` and the world inertia `I(Q⁻)` at the start of the step
//!   ("evaluated at the beginning of the time-step", §6), `m I` for a particle.
//! * `ũ = u⁻ + h M⁻¹ f_ext(q⁻, u⁻)` with gravity and applied loads. The paper takes the
//!   gyroscopic torque `-ω × I ω` explicitly; here it is taken implicitly
//!   ([`crate::multibody::RigidBody::implicit_gyroscopic_torque`]), because with the
//!   explicit term the bodies of a falling pile spun up without bound.

use nalgebra::{DVector, Matrix3, Rotation3, UnitQuaternion, Vector3};

use super::model::{Anchor, Model, Node};
use crate::multibody::Gyroscopic;
use crate::world::World;

/// The layout and start state of a step.
#[derive(Debug, Clone)]
pub struct Dofs {
    /// Offset of each world body's 6 entries in `u` (`None` for a fixed body).
    pub body_offset: Vec<Option<usize>>,
    /// Offset of each particle's 3 entries in `u`.
    pub particle_offset: Vec<usize>,
    /// Length of `u`.
    pub n: usize,
    /// The time step in s.
    pub h: f64,
    body_x0: Vec<Vector3<f64>>,
    body_q0: Vec<UnitQuaternion<f64>>,
    particle_x0: Vec<Vector3<f64>>,
    /// The diagonal of the mass blocks' translational part and particle masses, and the
    /// world inertia of each body, by offset: `mass[k]` for every entry of `u` that is a
    /// translation, `inertia[i]` for body `i`.
    mass: Vec<f64>,
    inertia: Vec<Option<Matrix3<f64>>>,
    /// The velocity at the start of the step.
    pub u0: DVector<f64>,
    /// The unconstrained velocity `ũ`.
    pub u_tilde: DVector<f64>,
}

impl Dofs {
    /// The layout of `world` and `model` for a step of `h` s.
    pub fn new(world: &World, model: &Model, h: f64) -> Dofs {
        let mut n = 0;
        let mut body_offset = Vec::with_capacity(world.bodies().len());
        for b in world.bodies() {
            if b.body.fixed {
                body_offset.push(None);
            } else {
                body_offset.push(Some(n));
                n += 6;
            }
        }
        let mut particle_offset = Vec::with_capacity(model.particles.len());
        for _ in &model.particles {
            particle_offset.push(n);
            n += 3;
        }
        let mut mass = vec![0.0; n];
        let mut inertia = vec![None; world.bodies().len()];
        let mut u0 = DVector::zeros(n);
        let mut u_tilde = DVector::zeros(n);
        let g = *world.gravity();
        for (i, b) in world.bodies().iter().enumerate() {
            let Some(o) = body_offset[i] else { continue };
            let rb = &b.body;
            let iw = rb.inertia_world();
            // The gyroscopic torque is taken implicitly (one Newton step on
            // `I (w' - w) + h w' x I w' = 0`), not explicitly as the paper does: with
            // the explicit term spinning bodies of a pile gain energy without bound
            // (the same finding as for the velocity-level steppers, `Gyroscopic`).
            let (f, tau) = rb.external_wrench_with(&g, Gyroscopic::Implicit, h);
            let dw = rb.inverse_inertia_world() * tau * h;
            for k in 0..3 {
                mass[o + k] = rb.mass;
                u0[o + k] = rb.linear_velocity[k];
                u0[o + 3 + k] = rb.angular_velocity[k];
                u_tilde[o + k] = rb.linear_velocity[k] + h * f[k] / rb.mass;
                u_tilde[o + 3 + k] = rb.angular_velocity[k] + dw[k];
            }
            inertia[i] = Some(iw);
        }
        for (j, p) in model.particles.iter().enumerate() {
            let o = particle_offset[j];
            for k in 0..3 {
                mass[o + k] = p.mass;
                u0[o + k] = p.velocity[k];
                u_tilde[o + k] = p.velocity[k] + h * g[k];
            }
        }
        Dofs {
            body_offset,
            particle_offset,
            n,
            h,
            body_x0: world.bodies().iter().map(|b| b.body.position).collect(),
            body_q0: world.bodies().iter().map(|b| b.body.orientation).collect(),
            particle_x0: model.particles.iter().map(|p| p.position).collect(),
            mass,
            inertia,
            u0,
            u_tilde,
        }
    }

    /// The offset of `node`'s entries in `u`, and whether it rotates (`None`: static).
    pub fn offset(&self, node: Node) -> Option<(usize, bool)> {
        match node {
            Node::Body(i) => self
                .body_offset
                .get(i)
                .copied()
                .flatten()
                .map(|o| (o, true)),
            Node::Particle(j) => self.particle_offset.get(j).map(|&o| (o, false)),
        }
    }

    // ANCHOR: pose
    /// The pose of `node` at velocity `u`: `x⁻ + h v` and `exp(h ω) Q⁻` (a static node
    /// keeps its start pose; a particle has the identity rotation).
    pub fn pose(&self, node: Node, u: &DVector<f64>) -> (Vector3<f64>, UnitQuaternion<f64>) {
        let (x0, q0) = match node {
            Node::Body(i) => (self.body_x0[i], self.body_q0[i]),
            Node::Particle(j) => (self.particle_x0[j], UnitQuaternion::identity()),
        };
        match self.offset(node) {
            None => (x0, q0),
            Some((o, rotates)) => {
                let v = u.fixed_rows::<3>(o).into_owned();
                let x = x0 + v * self.h;
                if rotates {
                    let w = u.fixed_rows::<3>(o + 3).into_owned();
                    (x, UnitQuaternion::from_scaled_axis(w * self.h) * q0)
                } else {
                    (x, q0)
                }
            }
        }
    }
    // ANCHOR_END: pose

    // ANCHOR: angular_map
    /// `J_l(h ω)^T` for the body whose entries start at offset `o` of `u`: it maps a
    /// spatial derivative `w` (the change of a function of the body's pose under a small
    /// turn `ε` of its orientation, `w^T ε`) to the derivative with respect to `ω`
    /// divided by `h`, through `Q(u) = exp(h ω) Q⁻`. With `φ = h ω`, `θ = |φ|`,
    /// `exp(φ + δ) = exp(J_l(φ) δ) exp(φ)` to first order, and
    /// `J_l(φ) = I + (1 - cos θ)/θ² [φ]× + (θ - sin θ)/θ³ [φ]×²` (the left Jacobian of
    /// SO(3)); at `ω = 0` it is the identity, the kinematic map `G` of §5.
    pub fn angular_map(&self, o: usize, u: &DVector<f64>) -> Matrix3<f64> {
        let phi = u.fixed_rows::<3>(o + 3).into_owned() * self.h;
        left_jacobian(&phi).transpose()
    }
    // ANCHOR_END: angular_map

    /// The world point of `anchor` at velocity `u`, and its lever arm (point minus
    /// centre of mass, world frame).
    pub fn point(&self, anchor: &Anchor, u: &DVector<f64>) -> (Vector3<f64>, Vector3<f64>) {
        match anchor {
            Anchor::World(p) => (*p, Vector3::zeros()),
            Anchor::On(node @ Node::Body(_), local) => {
                let (x, q) = self.pose(*node, u);
                let r = q * local;
                (x + r, r)
            }
            Anchor::On(node, _) => (self.pose(*node, u).0, Vector3::zeros()),
        }
    }

    /// The rotation of a rigid body (or the world, identity) at velocity `u`.
    pub fn rotation(&self, body: Option<usize>, u: &DVector<f64>) -> Rotation3<f64> {
        match body {
            None => Rotation3::identity(),
            Some(i) => self.pose(Node::Body(i), u).1.to_rotation_matrix(),
        }
    }

    /// `M v` (N s for `v` in m/s).
    pub fn mass_times(&self, v: &DVector<f64>) -> DVector<f64> {
        let mut out = v.clone();
        self.for_blocks(|o, rotational, m, inertia| {
            for k in 0..3 {
                out[o + k] = m * v[o + k];
            }
            if rotational {
                let w = inertia * v.fixed_rows::<3>(o + 3);
                out.fixed_rows_mut::<3>(o + 3).copy_from(&w);
            }
        });
        out
    }

    /// The inverse of the blocks of `M~ = M + diag(shift)` (the geometric stiffness
    /// shift, [`super::geometric_stiffness`]; zero for `M`), as 3x3 blocks by offset:
    /// `(offset, block)`.
    pub fn inverse_blocks(&self, shift: &DVector<f64>) -> Vec<(usize, Matrix3<f64>)> {
        let mut out = Vec::with_capacity(self.n / 3);
        self.for_blocks(|o, rotational, m, inertia| {
            let lin = Matrix3::from_diagonal(&Vector3::new(
                1.0 / (m + shift[o]),
                1.0 / (m + shift[o + 1]),
                1.0 / (m + shift[o + 2]),
            ));
            out.push((o, lin));
            if rotational {
                let mut i = *inertia;
                for k in 0..3 {
                    i[(k, k)] += shift[o + 3 + k];
                }
                let inv = i.try_inverse().unwrap_or_else(Matrix3::zeros);
                out.push((o + 3, inv));
            }
        });
        out
    }

    /// The diagonal of `M` (kg and kg m²).
    pub fn mass_diagonal(&self) -> DVector<f64> {
        let mut d = DVector::zeros(self.n);
        self.for_blocks(|o, rotational, m, inertia| {
            for k in 0..3 {
                d[o + k] = m;
                if rotational {
                    d[o + 3 + k] = inertia[(k, k)];
                }
            }
        });
        d
    }

    fn for_blocks(&self, mut f: impl FnMut(usize, bool, f64, &Matrix3<f64>)) {
        let zero = Matrix3::zeros();
        for (i, o) in self.body_offset.iter().enumerate() {
            if let (Some(o), Some(inertia)) = (o, &self.inertia[i]) {
                f(*o, true, self.mass[*o], inertia);
            }
        }
        for &o in &self.particle_offset {
            f(o, false, self.mass[o], &zero);
        }
    }
}

/// Applies inverse blocks (from [`Dofs::inverse_blocks`]) to `v`.
pub fn apply_blocks(blocks: &[(usize, Matrix3<f64>)], v: &DVector<f64>) -> DVector<f64> {
    let mut out = DVector::zeros(v.len());
    for (o, b) in blocks {
        let w = b * v.fixed_rows::<3>(*o);
        out.fixed_rows_mut::<3>(*o).copy_from(&w);
    }
    out
}

/// The left Jacobian of SO(3) at the rotation vector `phi` (rad); a series below
/// `θ = 1e-4` rad, where the closed form loses digits.
pub fn left_jacobian(phi: &Vector3<f64>) -> Matrix3<f64> {
    let theta = phi.norm();
    let k = phi.cross_matrix();
    let (a, b) = if theta < 1e-4 {
        let t2 = theta * theta;
        (0.5 - t2 / 24.0, 1.0 / 6.0 - t2 / 120.0)
    } else {
        (
            (1.0 - theta.cos()) / (theta * theta),
            (theta - theta.sin()) / (theta * theta * theta),
        )
    };
    Matrix3::identity() + k * a + k * k * b
}
