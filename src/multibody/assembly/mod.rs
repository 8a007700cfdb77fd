//! Assembly of the contact problem from bodies and contacts: the contact Jacobian `J`,
//! the block-diagonal mass matrix `M`, the external and gyroscopic forces, and from them
//! the global and local friction problems (Erleben 2007 eq. 10-22; Erleben 2017 eq.
//! 17-18 and appendix A, eq. 52-62).
//!
//! # The derivation in brief
//!
//! For contact `k` between bodies `i` (side `a`) and `j` (side `b`) with frame
//! `C = [n t1 t2]` and lever arms `r_i`, `r_j` (contact point minus centre of mass),
//! the relative velocity in the contact frame is
//!
//! ```text
//! C^T ((v_j + w_j x r_j) - (v_i + w_i x r_i))
//!   = [-C^T  -(r_i x C)^T  C^T  (r_j x C)^T] [v_i; w_i; v_j; w_j]        (eq. 2, 6, 11-12)
//! ```
//!
//! where `(r x C)^T` has rows `(r x n)^T, (r x t1)^T, (r x t2)^T`. Placing the two
//! `3 x 6` blocks in the columns of bodies `i` and `j` gives the `3nc x 6nb` Jacobian
//! (eq. 13). Newton-Euler (eq. 16) with an explicit Euler step (eq. 19),
//!
//! ```text
//! M u^{t+1} = M u^t + dt f_ext + J^T r,      f_ext = [m g + f; tau - w x I w]   (eq. 17-19)
//! ```
//!
//! is the global problem with `H = J^T`; multiplying `u^{t+1} = u^t + dt M^-1 f_ext +
//! M^-1 J^T r` by `J` gives the local one, `J u^{t+1} = W r + q`, with
//! `W = J M^-1 J^T` and `q = J (u^t + dt M^-1 f_ext) + b` (eq. 20).
//!
//! # Layout
//! [`Assembly`] is here; the step parameters are in `step.rs`, the [`DofMap`] in
//! `dof_map.rs`, the Jacobian builders in `jacobian.rs`, the mass matrix in `mass.rs`
//! and the Delassus builder in `delassus.rs`.

mod delassus;
mod dof_map;
mod jacobian;
mod mass;
mod step;
#[cfg(test)]
mod tests;

pub use dof_map::DofMap;
pub use step::StepParams;

use std::ops::AddAssign;

use nalgebra::{DVector, Matrix3, Vector3};

use self::delassus::build_delassus;
use self::jacobian::{SideBlock, build_jacobian, build_torsion_jacobian};
use self::mass::{InvMass, block_diagonal};
use super::MultibodyError;
use super::body::RigidBody;
use super::contact::{BodyRef, Contact};
use crate::matrix::Matrix;
use crate::problem::{FrictionContact, FrictionKind, GlobalFrictionContact};

/// The assembled multibody system at one time step: everything needed to pose the
/// contact problem.
///
/// Shapes, with `nb` bodies that are not fixed and `nc` contacts:
///
/// | item | shape | unit |
/// |---|---|---|
/// | `J` ([`Assembly::jacobian`]) | `3nc x 6nb`, sparse CSR, at most 12 entries a row | 1 (linear columns), m (angular columns) |
/// | `M` ([`Assembly::mass_matrix`]) | `6nb x 6nb`, block diagonal `diag(m 1, R I_body R^T)` | kg, kg m^2 |
/// | `u` ([`Assembly::velocity`]) | `6nb`: `[v, omega]` per body | m/s, rad/s |
/// | `f_ext` ([`Assembly::external_force`]) | `6nb`: `[m g + f, tau - w x I w]` per body | N, N m |
/// | `b` ([`Assembly::b`]) | `3nc`: prescribed motion of fixed bodies plus restitution | m/s |
/// | `mu` ([`Assembly::mu`]) | `nc` | 1 |
///
/// # The constant term `b`
///
/// `b` collects what the contact velocity gets from outside the unknowns:
///
/// * **Fixed bodies that move.** A fixed body's velocity is prescribed; its part of the
///   contact velocity, `C^T (+-(v + w x r))`, is a constant ([`Assembly::b_kinematic`]).
///   Zero for fixed bodies at rest and for the world.
/// * **Restitution** (Erleben 2007 eq. 21-22, Newton's impact law): with `e` the
///   contact's coefficient and `v_n^-` its normal velocity before the step (`(J u + b_kin)_n`),
///   the normal row gets `e min(v_n^-, 0)`, so that `u_n >= 0` becomes
///   `u_n^{t+1} >= -e v_n^-`. The `min` applies the law to approaching contacts only (eq.
///   21 as printed would also let a separating contact approach; this is the usual
///   reading). Zero when `e = 0`, the default ([`Assembly::b_restitution`]).
///
/// # Errors
/// [`Assembly::new`] validates every body it reads ([`RigidBody::validate`], with the
/// body index): the bodies that are not fixed and the bodies of the contacts (a fixed
/// body no contact touches does not enter the assembly), every contact (indices in range, no self-contact, at least one side not
/// fixed: [`MultibodyError::UnknownBody`], [`MultibodyError::SelfContact`],
/// [`MultibodyError::NoDynamicBody`]) and the step parameters.
#[derive(Debug, Clone)]
pub struct Assembly {
    dofs: DofMap,
    /// Per contact, its one or two sides with dynamic bodies, sorted by block index.
    sides: Vec<([Option<SideBlock>; 2], usize)>,
    inv_mass: Vec<InvMass>,
    mass: Vec<(f64, Matrix3<f64>)>,
    j: Matrix,
    u: DVector<f64>,
    f_ext: DVector<f64>,
    b_kin: DVector<f64>,
    b_rest: DVector<f64>,
    mu: DVector<f64>,
    j_tau: Matrix,
    b_tau: DVector<f64>,
    mu_tau: DVector<f64>,
    dt: f64,
    kind: FrictionKind,
}

impl Assembly {
    /// Assembles `J`, `M`, `u`, `f_ext` and `b` for `bodies` and `contacts`. `bodies`
    /// is any slice whose items lend a [`RigidBody`] (a world's bodies are read in
    /// place, not copied).
    ///
    /// Linear in the number of free bodies and contacts; the fixed bodies cost one flag
    /// read each, so a stack layer of a large world (everything fixed but the layer's
    /// top) assembles in time proportional to the layer.
    ///
    /// # Errors
    /// See the [type documentation](Assembly#errors).
    pub fn new<B: AsRef<RigidBody>>(
        bodies: &[B],
        contacts: &[Contact],
        step: &StepParams,
    ) -> Result<Self, MultibodyError> {
        step.validate()?;
        let dofs = DofMap::new(bodies);
        for k in 0..dofs.blocks() {
            let i = dofs.body(k);
            bodies[i].as_ref().validate().map_err(|e| e.at_body(i))?;
        }
        for c in contacts {
            let ids = [c.a(), BodyRef::Body(c.b())];
            for i in ids.into_iter().filter_map(|s| match s {
                BodyRef::Body(i) => Some(i),
                _ => None,
            }) {
                if let Some(b) = bodies.get(i).map(AsRef::as_ref)
                    && b.fixed
                {
                    b.validate().map_err(|e| e.at_body(i))?;
                }
            }
        }
        let nb = dofs.blocks();
        let nc = contacts.len();

        // Per-body data.
        let mut inv_mass = Vec::with_capacity(nb);
        let mut mass = Vec::with_capacity(nb);
        let mut u = DVector::zeros(6 * nb);
        let mut f_ext = DVector::zeros(6 * nb);
        for k in 0..nb {
            let body = bodies[dofs.body(k)].as_ref();
            let i_world = body.inertia_world();
            inv_mass.push(InvMass {
                inv_m: 1.0 / body.mass,
                inv_i: body.inverse_inertia_world(),
            });
            mass.push((body.mass, i_world));
            let (f, tau) = body.external_wrench_with(&step.gravity, step.gyroscopic, step.dt);
            u.fixed_rows_mut::<3>(6 * k)
                .copy_from(&body.linear_velocity);
            u.fixed_rows_mut::<3>(6 * k + 3)
                .copy_from(&body.angular_velocity);
            f_ext.fixed_rows_mut::<3>(6 * k).copy_from(&f);
            f_ext.fixed_rows_mut::<3>(6 * k + 3).copy_from(&tau);
        }

        // Per-contact blocks (eq. 11-12) and the prescribed-motion term.
        let mut sides = Vec::with_capacity(nc);
        let mut b_kin = DVector::zeros(3 * nc);
        let mut mu = DVector::zeros(nc);
        let mut b_tau = DVector::zeros(nc);
        let mut mu_tau = DVector::zeros(nc);
        for (c, contact) in contacts.iter().enumerate() {
            check_contact(contact, c, bodies.len())?;
            let frame_t = contact.frame().transpose();
            let mut found: [Option<SideBlock>; 2] = [None, None];
            let mut count = 0;
            let mut kin = Vector3::zeros();
            let side_refs = [(contact.a(), -1.0), (BodyRef::Body(contact.b()), 1.0)];
            for (side, sign) in side_refs {
                let BodyRef::Body(i) = side else { continue };
                let body = bodies[i].as_ref();
                let r = contact.point() - body.position;
                match dofs.block(i) {
                    Some(k) => {
                        let ang = Matrix3::from_rows(&[
                            r.cross(contact.normal()).transpose(),
                            r.cross(contact.t1()).transpose(),
                            r.cross(contact.t2()).transpose(),
                        ]);
                        found[count] = Some(SideBlock {
                            k,
                            lin: frame_t * sign,
                            ang: ang * sign,
                        });
                        count += 1;
                    }
                    None => {
                        kin += frame_t * body.velocity_at(contact.point()) * sign;
                        b_tau[c] += sign * contact.normal().dot(&body.angular_velocity);
                    }
                }
            }
            if count == 0 {
                return Err(MultibodyError::NoDynamicBody { contact: c });
            }
            if let [Some(x), Some(y)] = found
                && y.k < x.k
            {
                found.swap(0, 1);
            }
            b_kin.fixed_rows_mut::<3>(3 * c).copy_from(&kin);
            mu[c] = contact.mu();
            mu_tau[c] = contact.mu_tau();
            sides.push((found, count));
        }

        let j = build_jacobian(&sides, nc, nb);
        let j_tau = build_torsion_jacobian(&sides, nc, nb);

        // Restitution (eq. 21-22), on approaching contacts.
        let mut b_rest = DVector::zeros(3 * nc);
        if contacts.iter().any(|c| c.restitution() > 0.0) {
            for (c, contact) in contacts.iter().enumerate() {
                let e = contact.restitution();
                if e > 0.0 {
                    let vn = j.row_dot(3 * c, u.as_slice()) + b_kin[3 * c];
                    b_rest[3 * c] = e * vn.min(0.0);
                }
            }
        }

        Ok(Assembly {
            dofs,
            sides,
            inv_mass,
            mass,
            j,
            u,
            f_ext,
            b_kin,
            b_rest,
            mu,
            j_tau,
            b_tau,
            mu_tau,
            dt: step.dt,
            kind: step.kind,
        })
    }

    /// Where each body's velocity lives in `u`.
    pub fn dof_map(&self) -> &DofMap {
        &self.dofs
    }

    /// Number of contacts `nc`.
    pub fn contacts(&self) -> usize {
        self.mu.len()
    }

    /// Number of velocity unknowns `6 nb`.
    pub fn dofs(&self) -> usize {
        self.dofs.dofs()
    }

    /// The contact Jacobian `J` (`3nc x 6nb`, sparse CSR; entries that are exactly zero
    /// are not stored). Row `3k + i` is `[n, t1, t2][i]` of contact `k` (Erleben 2007
    /// eq. 11-13).
    pub fn jacobian(&self) -> &Matrix {
        &self.j
    }

    /// The generalised velocity `u^t` (`6nb`): `[v, omega]` per body.
    pub fn velocity(&self) -> &DVector<f64> {
        &self.u
    }

    /// The external and gyroscopic forces `f_ext` (`6nb`, Erleben 2007 eq. 18):
    /// `[m g + f, tau - w x I w]` per body, in N and N m.
    pub fn external_force(&self) -> &DVector<f64> {
        &self.f_ext
    }

    /// The constant term of the contact velocity, `b_kinematic + b_restitution` (`3nc`).
    pub fn b(&self) -> DVector<f64> {
        &self.b_kin + &self.b_rest
    }

    /// The part of `b` from fixed bodies with a prescribed velocity (`3nc`, m/s).
    pub fn b_kinematic(&self) -> &DVector<f64> {
        &self.b_kin
    }

    /// The restitution part of `b` (`3nc`, m/s; only normal rows, Erleben 2007 eq. 22).
    pub fn b_restitution(&self) -> &DVector<f64> {
        &self.b_rest
    }

    /// The friction coefficients (`nc`).
    pub fn mu(&self) -> &DVector<f64> {
        &self.mu
    }

    /// The torsion rows (`nc x 6nb`, sparse CSR), one per contact: row `k` is
    /// `[0, -n^T, 0, n^T]` in the columns `[v_a, ω_a, v_b, ω_b]` of the contact's two bodies,
    /// so `(J_τ u)_k = n · (ω_b - ω_a)` is the relative spin about the normal in rad/s
    /// (Erleben 2017 eq. 52, the fourth row). With these rows a contact has four rows
    /// `[n, t1, t2, τ]`, the layout of Coulomb-Contensou friction (see `crate::prox`).
    /// The three-row problems ([`Assembly::local`], [`Assembly::global`]) do not use them.
    pub fn torsion_jacobian(&self) -> &Matrix {
        &self.j_tau
    }

    /// The constant part of the torsion rows (`nc`, rad/s): the prescribed spin of fixed
    /// bodies about the normal, `± n · ω_fixed` (zero for the world and for fixed bodies at
    /// rest).
    pub fn b_torsion(&self) -> &DVector<f64> {
        &self.b_tau
    }

    /// The torsional friction coefficients `mu_tau` (`nc`, m), from
    /// [`Contact::with_torsion`].
    pub fn mu_torsion(&self) -> &DVector<f64> {
        &self.mu_tau
    }

    /// The time step in s.
    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// The friction law the problems pose.
    pub fn kind(&self) -> FrictionKind {
        self.kind
    }

    /// The contact velocity `J u + b_kinematic` (`3nc`, m/s) of a generalised velocity
    /// `u` (`6nb`): the relative velocity of the contact points in the contact frames.
    pub fn contact_velocity(&self, u: &DVector<f64>) -> DVector<f64> {
        self.j.mul_vec(u) + &self.b_kin
    }

    /// The mass matrix `M` (`6nb x 6nb`, sparse CSR, block diagonal with blocks
    /// `diag(m 1_3, R I_body R^T)`; Erleben 2007 eq. 17, Erleben 2017 eq. 59-60).
    pub fn mass_matrix(&self) -> Matrix {
        block_diagonal(self.mass.iter().map(|(m, i)| (*m, *i)))
    }

    /// The inverse mass `1/m` (1/kg) of block `k` of the [`DofMap`] (`k < nb`).
    pub fn inverse_mass(&self, k: usize) -> f64 {
        self.inv_mass[k].inv_m
    }

    /// The inverse mass matrix `M^-1` (`6nb x 6nb`, sparse CSR, blocks
    /// `diag(1/m 1_3, R I_body^-1 R^T)`).
    pub fn inverse_mass_matrix(&self) -> Matrix {
        block_diagonal(self.inv_mass.iter().map(|b| (b.inv_m, b.inv_i)))
    }

    /// `M^-1 x` for a vector `x` of `6nb` entries, block by block.
    pub fn apply_inverse_mass(&self, x: &DVector<f64>) -> DVector<f64> {
        let mut y = DVector::zeros(x.len());
        for (k, b) in self.inv_mass.iter().enumerate() {
            let f = x.fixed_rows::<3>(6 * k) * b.inv_m;
            let t = b.inv_i * x.fixed_rows::<3>(6 * k + 3);
            y.fixed_rows_mut::<3>(6 * k).copy_from(&f);
            y.fixed_rows_mut::<3>(6 * k + 3).copy_from(&t);
        }
        y
    }

    /// The free velocity `u^t + dt M^-1 f_ext` (`6nb`): the velocity after the step if no
    /// contact pushed (Erleben 2007 eq. 19 with `r = 0`).
    pub fn free_velocity(&self) -> DVector<f64> {
        &self.u + self.apply_inverse_mass(&self.f_ext) * self.dt
    }

    /// The velocity after the step for contact impulses `r` (`3nc`, N s):
    /// `u^{t+1} = u^t + dt M^-1 f_ext + M^-1 J^T r` (Erleben 2007 eq. 19).
    pub fn velocity_after(&self, r: &DVector<f64>) -> DVector<f64> {
        self.free_velocity() + self.apply_inverse_mass(&self.j.tr_mul_vec(r))
    }

    /// The Delassus operator `W = J M^-1 J^T` (`3nc x 3nc`, sparse CSR, in 1/kg), formed
    /// block by block from the block-diagonal `M^-1` without any factorisation.
    ///
    /// The `3 x 3` block of contacts `c` and `d` is
    /// `sum_k J_ck M_k^-1 J_dk^T` over the bodies `k` they share. Each pair is computed
    /// once (for `c <= d`, upper triangle within diagonal blocks) and mirrored, so `W` is
    /// exactly symmetric. Entries that are exactly zero are not stored. Time and memory
    /// are linear in the number of pairs of contacts that share a body.
    pub fn delassus(&self) -> Matrix {
        Matrix::Sparse(build_delassus(
            &self.sides,
            &self.inv_mass,
            self.dofs.blocks(),
        ))
    }

    /// The local problem `u = W r + q` with `W = J M^-1 J^T` ([`Assembly::delassus`])
    /// and `q = J (u^t + dt M^-1 f_ext) + b` (Erleben 2007 eq. 20, 22).
    ///
    /// # Errors
    /// [`MultibodyError::Problem`] if the data is rejected by [`FrictionContact::new`]
    /// (only possible for non-finite results of extreme inputs).
    pub fn local(&self) -> Result<FrictionContact, MultibodyError> {
        let q = self.j.mul_vec(&self.free_velocity()) + self.b();
        Ok(FrictionContact::new(
            self.delassus(),
            q,
            self.mu.clone(),
            self.kind,
        )?)
    }

    /// The global problem `M v = q + H r`, `u = H^T v + b` with `H = J^T` and
    /// `q = M u^t + dt f_ext` (Erleben 2007 eq. 16-19; Siconos `gfc3d`).
    ///
    /// # Errors
    /// [`MultibodyError::Problem`] if [`GlobalFrictionContact::new`] rejects the data.
    pub fn global(&self) -> Result<GlobalFrictionContact, MultibodyError> {
        let mut q = self.f_ext.clone() * self.dt;
        for (k, (m, i)) in self.mass.iter().enumerate() {
            let lin = self.u.fixed_rows::<3>(6 * k) * *m;
            let ang = i * self.u.fixed_rows::<3>(6 * k + 3);
            q.fixed_rows_mut::<3>(6 * k).add_assign(&lin);
            q.fixed_rows_mut::<3>(6 * k + 3).add_assign(&ang);
        }
        let h = Matrix::Sparse(self.j.to_csr().transpose());
        Ok(GlobalFrictionContact::new(
            self.mass_matrix(),
            h,
            q,
            self.b(),
            self.mu.clone(),
            self.kind,
        )?)
    }
}

fn check_contact(contact: &Contact, c: usize, nbodies: usize) -> Result<(), MultibodyError> {
    let unknown = |body| MultibodyError::UnknownBody {
        contact: c,
        body,
        bodies: nbodies,
    };
    if contact.b() >= nbodies {
        return Err(unknown(contact.b()));
    }
    if let BodyRef::Body(a) = contact.a()
        && a >= nbodies
    {
        return Err(unknown(a));
    }
    Ok(())
}

fn push_nonzero(cols: &mut Vec<usize>, vals: &mut Vec<f64>, j: usize, v: f64) {
    if v != 0.0 {
        cols.push(j);
        vals.push(v);
    }
}
