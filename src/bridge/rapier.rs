//! rapier, checked in process: a `rapier3d-f64` world after
//! `PhysicsPipeline::step` becomes the crate's velocity-level Coulomb problem at rapier's
//! active contacts, and rapier's impulses of that step are judged against it with
//! [`crate::check::check`] (feature `rapier`; chapter *The rapier bridge*).
//!
//! **The problem.** For every contact point the solver used (each solver contact of each
//! solver manifold, [`RigidPairContacts::solver_manifolds`]), the frame is
//! `[n, t1, t2]` with `n` rapier's manifold normal (from collider 1 towards collider 2),
//! and the unknown `r_c` is the impulse on the body of collider 2 (the body of collider 1
//! receives `-r_c`): a positive `r_n` separates, and `u_c = [n, t1, t2]ᵀ (v₂(p₂) - v₁(p₁))`
//! is the relative velocity of collider 2's contact point with respect to collider 1's.
//! The Jacobian `J` uses rapier's own lever arms (`ContactData::solver_dp1`,
//! `solver_dp2`: the contact point relative to each body's centre of mass, world frame),
//! and the bodies' world-frame inverse masses and inverse inertia tensors
//! (`RigidBodyMassProps::effective_inv_mass`, `effective_world_inv_inertia`) after the
//! step. Then `W = J M⁻¹ Jᵀ` (`3nc x 3nc`, m/s per N s), `mu_c` is the manifold's combined
//! friction coefficient (`ContactManifoldData::friction`), and
//! `q = J v_free = J v⁺ - W r` (m/s), where `v⁺` are the bodies' velocities after the step
//! and `r` rapier's impulses: `v_free = v⁺ - M⁻¹ Jᵀ r` is the velocity the bodies would have
//! had without the contact impulses, so `W r + q = J v⁺` holds exactly.
//!
//! **rapier's impulses** (rapier3d-f64 0.36.1, `src/dynamics/solver/contact_constraint/
//! contact_with_coulomb_friction.rs`, `writeback_impulses`): after the step each manifold
//! point `points[k].data` holds `impulse` (normal) and `tangent_impulse` (two components)
//! as `total_impulse()` = the sum over the step's substeps
//! (`IntegrationParameters::num_solver_iterations` of them) of what each substep applied,
//! warm start and relaxation pass included (`contact_constraint_element.rs`:
//! `impulse_accumulator + impulse`). The whole step's impulse is therefore compared, with
//! no summing here. rapier applies `impulse` to body 1 along `-n` (its `dir1`) and the
//! tangent impulse to body 1 along its tangents `τ1 = dir1.orthonormal_vector()`,
//! `τ2 = dir1 × τ1` (`compute_tangent_contact_directions` in
//! `src/dynamics/solver/contact_constraint/mod.rs`, a basis fixed by the normal alone).
//! The bridge uses the same basis, turned to act on body 2: `t1 = -τ1`, `t2 = -τ2`, so
//! `r_c = [impulse, tangent_impulse[0], tangent_impulse[1]]`, rapier's numbers unchanged.
//!
//! **Assumptions.** [`FrictionModel::Coulomb`] (one friction impulse per point; the default
//! `Simplified` model keeps one friction impulse per manifold and writes no per-point
//! friction, so it is refused). No multibody joints on the contacting bodies (rapier solves
//! those with other constraints). A side is world-attached (no inverse mass, no velocity in
//! `J`) when rapier makes it so: a dominated side (`relative_dominance`); a fixed,
//! kinematic or sleeping body has zero inverse mass (its velocity stays in `J`).
//! Manifolds whose two sides both lack inverse mass, whose solver flags exclude impulses,
//! or that are soft-body contacts are skipped: rapier did not solve them in this step.
//! `W` uses the inverse inertia tensors after the step; rapier's constraints, built once
//! per step, keep those of its start (the identity `W r + q = J v⁺` holds either way).
//! What rapier solves differs from this problem: its contacts are soft (`cfm_factor`), it
//! targets a bias velocity that corrects penetration instead of `u_n = 0`, and speculative
//! points (positive separation) may approach; the chapter says what that means for the
//! comparison.

use std::collections::BTreeMap;

use nalgebra::{DMatrix, DVector};
use rapier3d_f64::dynamics::{FrictionModel, IntegrationParameters, RigidBodyHandle, RigidBodySet};
use rapier3d_f64::geometry::{
    ColliderHandle, ColliderSet, NarrowPhase, PairContacts, RigidPairContacts, SolverFlags,
};
use rapier3d_f64::math::Vector;
use rapier3d_f64::utils::OrthonormalBasis;

use crate::check::{CheckError, CheckOptions, CheckReport, check};
use crate::matrix::Matrix;
use crate::problem::{AnyProblem, FrictionContact, FrictionKind, ProblemError, Provenance};

/// The rapier version whose source this bridge reads (Cargo.lock pins it).
pub const RAPIER_VERSION: &str = "rapier3d-f64 0.36.1";

/// The largest number of contacts the bridge assembles (`W` is dense: `3nc x 3nc`).
pub const MAX_CONTACTS: usize = 3000;

/// Why a step could not be turned into a problem, or judged.
#[derive(Debug, Clone, PartialEq)]
pub enum BridgeError {
    /// The step has no contact rapier solved: nothing to judge.
    NoContacts,
    /// More contacts than [`MAX_CONTACTS`].
    TooManyContacts {
        /// The contacts found.
        contacts: usize,
    },
    /// `IntegrationParameters::friction_model` is `Simplified`: no per-point friction.
    SimplifiedFriction,
    /// A number the bridge reads is NaN or infinite.
    NonFinite {
        /// What it is (for example `"linear velocity of body 2"`).
        what: String,
    },
    /// The step's parameters cannot describe a step (`dt` not positive).
    Parameters {
        /// Why.
        reason: String,
    },
    /// A handle in the narrow phase does not resolve in the sets given (sets from another
    /// world), or a solver contact names a manifold point that does not exist.
    Inconsistent {
        /// What did not resolve.
        what: String,
    },
    /// The assembled problem was refused by [`FrictionContact::new`].
    Problem(ProblemError),
    /// [`crate::check::check`] refused the answer.
    Check(CheckError),
}

impl std::fmt::Display for BridgeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BridgeError::NoContacts => write!(
                f,
                "rapier solved no contact in this step: there is no contact problem to judge"
            ),
            BridgeError::TooManyContacts { contacts } => write!(
                f,
                "{contacts} contacts: more than the {MAX_CONTACTS} the dense bridge assembles"
            ),
            BridgeError::SimplifiedFriction => write!(
                f,
                "IntegrationParameters::friction_model is Simplified: rapier keeps one friction \
                 impulse per manifold, not one per contact point; use FrictionModel::Coulomb"
            ),
            BridgeError::NonFinite { what } => write!(f, "{what} is not a finite number"),
            BridgeError::Parameters { reason } => write!(f, "integration parameters: {reason}"),
            BridgeError::Inconsistent { what } => write!(f, "inconsistent world: {what}"),
            BridgeError::Problem(e) => write!(f, "{e}"),
            BridgeError::Check(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BridgeError {}

impl From<ProblemError> for BridgeError {
    fn from(e: ProblemError) -> Self {
        BridgeError::Problem(e)
    }
}

impl From<CheckError> for BridgeError {
    fn from(e: CheckError) -> Self {
        BridgeError::Check(e)
    }
}

/// One contact of the problem: where it is and what it acts on (world frame, metres).
#[derive(Debug, Clone, PartialEq)]
pub struct RapierContact {
    /// The first collider of the pair (its body receives `-r`).
    pub collider1: ColliderHandle,
    /// The second collider (its body receives `+r`).
    pub collider2: ColliderHandle,
    /// The body of collider 1, if it has one and the side is not world-attached.
    pub body1: Option<RigidBodyHandle>,
    /// The body of collider 2, likewise.
    pub body2: Option<RigidBodyHandle>,
    /// The point of body 1 where `J` reads its velocity: its centre of mass plus rapier's
    /// lever arm `solver_dp1` (meaningless when `body1` is `None`).
    pub point1: [f64; 3],
    /// The point of body 2 likewise (`solver_dp2`).
    pub point2: [f64; 3],
    /// The contact point of the label: the middle of rapier's two solver contact points
    /// (`ContactManifoldData::solver_contact_world_points`).
    pub point: [f64; 3],
    /// The frame's rows `[n, t1, t2]` (unit vectors).
    pub frame: [[f64; 3]; 3],
    /// Separation along `n` at rapier's last full contact update (m; negative: penetration).
    pub dist: f64,
}

/// A rapier step as the crate's problem, with rapier's answer.
#[derive(Debug)]
pub struct RapierStep {
    /// The velocity-level Coulomb problem `u = W r + q` ([`FrictionContact`]): `W` dense
    /// `3nc x 3nc` in m/s per N s, `q` in m/s, `mu` per contact.
    pub problem: AnyProblem,
    /// rapier's impulses `[r_n, r_t1, r_t2]` per contact (`3nc` entries, N s).
    pub answer: Vec<f64>,
    /// Source, description, units (`r` in N s, `u` and `q` in m/s) and the labels.
    pub provenance: Provenance,
    /// One label per contact: `"collider 3/collider 0 at (0.10, 0.00, 0.05)"`.
    pub labels: Vec<String>,
    /// The contacts, in the problem's order.
    pub contacts: Vec<RapierContact>,
    /// `J v⁺`: the relative velocities after the step at the contacts (`3nc`, m/s), which
    /// `W r + q` reproduces.
    pub velocity: Vec<f64>,
}

fn v3(v: Vector) -> [f64; 3] {
    [v.x, v.y, v.z]
}

fn finite(what: impl FnOnce() -> String, v: &[f64]) -> Result<(), BridgeError> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(BridgeError::NonFinite { what: what() })
    }
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn mat_vec(m: &[[f64; 3]; 3], v: [f64; 3]) -> [f64; 3] {
    [dot(m[0], v), dot(m[1], v), dot(m[2], v)]
}

/// Two decimals, a coordinate that rounds to zero written 0.00 whatever its sign (the
/// labels' rule, as in the MuJoCo bridge).
fn coordinate(v: f64) -> String {
    match format!("{v:.2}") {
        z if z == "-0.00" => "0.00".to_string(),
        z => z,
    }
}

/// `"collider 3"`: a collider by its index in the set.
fn collider_name(h: ColliderHandle) -> String {
    format!("collider {}", h.into_raw_parts().0)
}

/// A body as `J` sees it.
struct Body {
    /// Linear and angular velocity after the step.
    v: [f64; 3],
    w: [f64; 3],
    /// Inverse mass per axis and world inverse inertia; `None`: no inverse mass.
    inv: Option<([f64; 3], [[f64; 3]; 3])>,
    com: [f64; 3],
}

fn body(bodies: &RigidBodySet, h: RigidBodyHandle) -> Result<Body, BridgeError> {
    let rb = bodies.get(h).ok_or_else(|| BridgeError::Inconsistent {
        what: format!(
            "rigid body {} of a contact is not in the set",
            h.into_raw_parts().0
        ),
    })?;
    let name = || format!("body {}", h.into_raw_parts().0);
    let v = v3(rb.linvel());
    let w = v3(rb.angvel());
    let com = v3(rb.center_of_mass());
    finite(
        || format!("the velocity or centre of mass of {}", name()),
        &[v, w, com].concat(),
    )?;
    let inv = if rb.is_dynamic() && !rb.is_sleeping() {
        let mp = rb.mass_properties();
        let im = v3(mp.effective_inv_mass);
        let i = &mp.effective_world_inv_inertia;
        let ii = [
            [i.m11, i.m12, i.m13],
            [i.m12, i.m22, i.m23],
            [i.m13, i.m23, i.m33],
        ];
        finite(
            || format!("the inverse mass or inertia of {}", name()),
            &[im, ii[0], ii[1], ii[2]].concat(),
        )?;
        Some((im, ii))
    } else {
        None
    };
    Ok(Body { v, w, inv, com })
}

/// A body's part in a contact: the contact, the sign of its block, its lever arm.
type Row = (usize, f64, [f64; 3]);

/// The linear and angular parts of a column of `M⁻¹ Jᵀ` for one body.
type LinAng = ([f64; 3], [f64; 3]);

/// One side of a contact in `J`: the body, the sign of its block and its lever arm.
struct Side {
    body: RigidBodyHandle,
    sign: f64,
    arm: [f64; 3],
}

/// Builds the velocity-level Coulomb problem at rapier's contacts after a step, with
/// rapier's impulses as the answer (see the [module documentation](self) for the frame,
/// the units and where the impulses are read).
///
/// Arguments: the sets and narrow phase of the world right after `PhysicsPipeline::step`,
/// the `params` and `gravity` that step used (gravity and `dt` go into the description;
/// `friction_model` must be `Coulomb`).
///
/// Shapes: `nc` contacts; `problem` has `3nc` unknowns, `answer` and `velocity` `3nc`
/// entries, `labels` and `contacts` `nc`.
///
/// # Errors
/// [`BridgeError::SimplifiedFriction`] for the default friction model;
/// [`BridgeError::Parameters`] for `dt ≤ 0` or not finite;
/// [`BridgeError::NonFinite`] for NaN/inf in gravity, a velocity, a mass property, a
/// normal, a lever arm, an impulse or a friction coefficient;
/// [`BridgeError::Inconsistent`] for a handle that does not resolve;
/// [`BridgeError::NoContacts`] when rapier solved no contact; [`BridgeError::TooManyContacts`];
/// [`BridgeError::Problem`] if [`FrictionContact::new`] refuses the data (`mu < 0`).
///
/// # Source
/// rapier3d-f64 0.36.1: `src/geometry/contact_pair.rs` (`ContactData`,
/// `ContactManifoldData`, `RigidPairContacts::solver_manifolds`),
/// `src/dynamics/solver/contact_constraint/contact_with_coulomb_friction.rs` (`generate`,
/// `writeback_impulses`).
pub fn contact_problem(
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    params: &IntegrationParameters,
    gravity: Vector,
) -> Result<RapierStep, BridgeError> {
    if params.friction_model != FrictionModel::Coulomb {
        return Err(BridgeError::SimplifiedFriction);
    }
    if !(params.dt > 0.0) || !params.dt.is_finite() {
        return Err(BridgeError::Parameters {
            reason: format!("dt = {} is not a positive step length", params.dt),
        });
    }
    finite(|| "gravity".to_string(), &v3(gravity))?;

    let mut contacts: Vec<RapierContact> = Vec::new();
    let mut sides: Vec<[Option<Side>; 2]> = Vec::new();
    let mut answer: Vec<f64> = Vec::new();
    let mut mu: Vec<f64> = Vec::new();
    let mut body_cache: BTreeMap<(u32, u32), Body> = BTreeMap::new();

    for pair in narrow_phase.contact_pairs() {
        let PairContacts::Rigid(rigid) = &pair.contacts else {
            continue;
        };
        let rigid: &RigidPairContacts = rigid;
        for c in [pair.collider1, pair.collider2] {
            if colliders.get(c).is_none() {
                return Err(BridgeError::Inconsistent {
                    what: format!("{} of a contact pair is not in the set", collider_name(c)),
                });
            }
        }
        for manifold in rigid.solver_manifolds() {
            let data = &manifold.data;
            if data.solver_contacts.is_empty()
                || !data
                    .solver_flags
                    .contains(SolverFlags::COMPUTE_RIGID_IMPULSES)
            {
                continue;
            }
            // rapier's dominance: the dominant side is world-attached (contact_with_
            // coulomb_friction.rs, `generate`: ids1 / ids2).
            let attached = [data.relative_dominance > 0, data.relative_dominance < 0];
            let mut handles = [None, None];
            for (s, h) in [data.rigid_body1, data.rigid_body2].into_iter().enumerate() {
                if let (Some(h), false) = (h, attached[s]) {
                    let key = h.into_raw_parts();
                    if let std::collections::btree_map::Entry::Vacant(e) = body_cache.entry(key) {
                        e.insert(body(bodies, h)?);
                    }
                    handles[s] = Some(h);
                }
            }
            let mobile = |s: usize| {
                handles[s]
                    .and_then(|h| body_cache.get(&h.into_raw_parts()))
                    .is_some_and(|b| b.inv.is_some())
            };
            if !mobile(0) && !mobile(1) {
                continue;
            }
            let n = v3(data.normal);
            finite(
                || {
                    format!(
                        "the normal of {}/{}",
                        collider_name(pair.collider1),
                        collider_name(pair.collider2)
                    )
                },
                &n,
            )?;
            if !data.friction.is_finite() {
                return Err(BridgeError::NonFinite {
                    what: format!(
                        "the friction coefficient of {}/{}",
                        collider_name(pair.collider1),
                        collider_name(pair.collider2)
                    ),
                });
            }
            // rapier's tangent basis (contact_constraint/mod.rs,
            // `compute_tangent_contact_directions`), turned to act on body 2.
            let dir1 = -data.normal;
            let tau1 = dir1.orthonormal_vector();
            let tau2 = dir1.cross(tau1);
            let frame = [n, v3(-tau1), v3(-tau2)];
            for sc in &data.solver_contacts {
                let id = sc.contact_indices()[0] as usize;
                let Some(point) = manifold.points.get(id) else {
                    return Err(BridgeError::Inconsistent {
                        what: format!(
                            "solver contact of {}/{} names manifold point {id} of {}",
                            collider_name(pair.collider1),
                            collider_name(pair.collider2),
                            manifold.points.len()
                        ),
                    });
                };
                let pd = &point.data;
                let label_pair = || {
                    format!(
                        "{}/{}",
                        collider_name(pair.collider1),
                        collider_name(pair.collider2)
                    )
                };
                let r = [pd.impulse, pd.tangent_impulse[0], pd.tangent_impulse[1]];
                finite(|| format!("rapier's impulse at {}", label_pair()), &r)?;
                let arms = [v3(pd.solver_dp1), v3(pd.solver_dp2)];
                let (w1, w2) = data.solver_contact_world_points(sc, bodies);
                let mid = v3((w1 + w2) * 0.5);
                finite(
                    || format!("a lever arm or contact point at {}", label_pair()),
                    &[arms[0], arms[1], mid].concat(),
                )?;
                let mut s: [Option<Side>; 2] = [None, None];
                let mut points = [[0.0; 3]; 2];
                for k in 0..2 {
                    if let Some(h) = handles[k] {
                        let b = &body_cache[&h.into_raw_parts()];
                        points[k] = [
                            b.com[0] + arms[k][0],
                            b.com[1] + arms[k][1],
                            b.com[2] + arms[k][2],
                        ];
                        s[k] = Some(Side {
                            body: h,
                            sign: if k == 0 { -1.0 } else { 1.0 },
                            arm: arms[k],
                        });
                    }
                }
                contacts.push(RapierContact {
                    collider1: pair.collider1,
                    collider2: pair.collider2,
                    body1: handles[0],
                    body2: handles[1],
                    point1: points[0],
                    point2: points[1],
                    point: mid,
                    frame,
                    dist: sc.dist,
                });
                sides.push(s);
                answer.extend_from_slice(&r);
                mu.push(data.friction);
                if contacts.len() > MAX_CONTACTS {
                    return Err(BridgeError::TooManyContacts {
                        contacts: contacts.len(),
                    });
                }
            }
        }
    }
    let nc = contacts.len();
    if nc == 0 {
        return Err(BridgeError::NoContacts);
    }

    // J v⁺ and W = J M⁻¹ Jᵀ, body by body: the rows of contact c for a body on side s are
    // sign_s [e_kᵀ, (arm × e_k)ᵀ].
    let mut velocity = vec![0.0; 3 * nc];
    // per body: (contact, sign, lever arm)
    let mut by_body: BTreeMap<(u32, u32), Vec<Row>> = BTreeMap::new();
    for (c, s) in sides.iter().enumerate() {
        for side in s.iter().flatten() {
            let b = &body_cache[&side.body.into_raw_parts()];
            let vp = [
                b.v[0] + b.w[1] * side.arm[2] - b.w[2] * side.arm[1],
                b.v[1] + b.w[2] * side.arm[0] - b.w[0] * side.arm[2],
                b.v[2] + b.w[0] * side.arm[1] - b.w[1] * side.arm[0],
            ];
            for k in 0..3 {
                velocity[3 * c + k] += side.sign * dot(contacts[c].frame[k], vp);
            }
            if b.inv.is_some() {
                by_body
                    .entry(side.body.into_raw_parts())
                    .or_default()
                    .push((c, side.sign, side.arm));
            }
        }
    }
    let mut w = DMatrix::<f64>::zeros(3 * nc, 3 * nc);
    for (key, list) in &by_body {
        let Some((im, ii)) = &body_cache[key].inv else {
            continue;
        };
        // M⁻¹ Jᵀ column by column for this body's contacts: linear and angular parts.
        let cols: Vec<[LinAng; 3]> = list
            .iter()
            .map(|&(c, sign, arm)| {
                std::array::from_fn(|k| {
                    let e = contacts[c].frame[k];
                    let lin = [
                        sign * im[0] * e[0],
                        sign * im[1] * e[1],
                        sign * im[2] * e[2],
                    ];
                    let ang = mat_vec(ii, cross(arm, e)).map(|x| sign * x);
                    (lin, ang)
                })
            })
            .collect();
        for &(c, sign, arm) in list {
            for k in 0..3 {
                let e = contacts[c].frame[k];
                let ak = cross(arm, e);
                for (b, &(d, _, _)) in list.iter().enumerate() {
                    for l in 0..3 {
                        let (lin, ang) = cols[b][l];
                        w[(3 * c + k, 3 * d + l)] += sign * (dot(e, lin) + dot(ak, ang));
                    }
                }
            }
        }
    }
    let r = DVector::from_column_slice(&answer);
    let q = DVector::from_column_slice(&velocity) - &w * &r;
    finite(|| "the assembled W or q".to_string(), q.as_slice())?;
    let labels: Vec<String> = contacts
        .iter()
        .map(|c| {
            format!(
                "{}/{} at ({}, {}, {})",
                collider_name(c.collider1),
                collider_name(c.collider2),
                coordinate(c.point[0]),
                coordinate(c.point[1]),
                coordinate(c.point[2])
            )
        })
        .collect();
    let units: BTreeMap<String, String> = [
        ("r", "N s"),
        ("u", "m/s"),
        ("q", "m/s"),
        ("W", "m/s per N s"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let provenance = Provenance {
        source: RAPIER_VERSION.to_string(),
        description: format!(
            "one PhysicsPipeline::step (dt = {} s, {} substeps, gravity = ({}, {}, {}) m/s^2): \
             the velocity-level Coulomb problem at rapier's {nc} solver contacts, W = J M^-1 J^T \
             with rapier's lever arms, q = J v+ - W r; the answer is rapier's impulses summed \
             over the substeps",
            params.dt, params.num_solver_iterations, gravity.x, gravity.y, gravity.z
        ),
        units,
        labels: labels.clone(),
        pyramid: None,
    };
    let problem = FrictionContact::new(
        Matrix::Dense(w),
        q,
        DVector::from_vec(mu),
        FrictionKind::Coulomb,
    )?;
    Ok(RapierStep {
        problem: AnyProblem::Friction(problem),
        answer,
        provenance,
        labels,
        contacts,
        velocity,
    })
}

/// Judges rapier's impulses of the step: [`contact_problem`], then
/// [`crate::check::check`] with `opts` (the residual of rapier's answer, and the distance
/// `‖r - r*‖` in N s to the reference solution, the worst contact named by its label).
///
/// # Errors
/// Those of [`contact_problem`], and [`BridgeError::Check`] if the check refuses.
pub fn check_step(
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    params: &IntegrationParameters,
    gravity: Vector,
    opts: &CheckOptions,
) -> Result<CheckReport, BridgeError> {
    let step = contact_problem(bodies, colliders, narrow_phase, params, gravity)?;
    Ok(check(&step.problem, &step.answer, &step.provenance, opts)?)
}

/// The scenes of the chapter, the tests and `examples/rapier_bridge.rs`: rapier worlds
/// (`PhysicsWorld`, gravity `(0, -9.81, 0)` m/s², `dt` 1/60 s) on a fixed ground whose top
/// face is the plane `y = 0`, with [`FrictionModel::Coulomb`], friction coefficient 0.5 on
/// every collider (rapier combines two by their average: 0.5), and bodies that never sleep
/// (a sleeping body's contacts are not solved, so there would be nothing to judge).
pub mod scenes {
    use rapier3d_f64::dynamics::{FrictionModel, RigidBodyBuilder};
    use rapier3d_f64::geometry::ColliderBuilder;
    use rapier3d_f64::math::Vector;
    use rapier3d_f64::pipeline::PhysicsWorld;

    /// The friction coefficient of every collider.
    pub const FRICTION: f64 = 0.5;

    /// An empty world with the ground (collider 0) and `num_solver_iterations` substeps.
    pub fn ground(num_solver_iterations: usize) -> PhysicsWorld {
        let mut world = PhysicsWorld::new();
        world.integration_parameters.friction_model = FrictionModel::Coulomb;
        world.integration_parameters.num_solver_iterations = num_solver_iterations;
        world.insert_collider(
            ColliderBuilder::cuboid(10.0, 0.1, 10.0)
                .translation(Vector::new(0.0, -0.1, 0.0))
                .friction(FRICTION),
            None,
        );
        world
    }

    /// Adds a dynamic box of half extents `h` (m) and density `density` (kg/m³) at `at`.
    pub fn add_box(world: &mut PhysicsWorld, h: [f64; 3], density: f64, at: [f64; 3]) {
        world.insert(
            RigidBodyBuilder::dynamic()
                .translation(Vector::new(at[0], at[1], at[2]))
                .can_sleep(false),
            ColliderBuilder::cuboid(h[0], h[1], h[2])
                .density(density)
                .friction(FRICTION),
        );
    }

    /// Adds a dynamic ball of radius `radius` (m) and density `density` at `at`.
    pub fn add_ball(world: &mut PhysicsWorld, radius: f64, density: f64, at: [f64; 3]) {
        world.insert(
            RigidBodyBuilder::dynamic()
                .translation(Vector::new(at[0], at[1], at[2]))
                .can_sleep(false),
            ColliderBuilder::ball(radius)
                .density(density)
                .friction(FRICTION),
        );
    }

    /// A 1 kg unit box (half extent 0.5 m, density 1) resting on the ground.
    pub fn resting_box(num_solver_iterations: usize) -> PhysicsWorld {
        let mut world = ground(num_solver_iterations);
        add_box(&mut world, [0.5; 3], 1.0, [0.0, 0.5, 0.0]);
        world
    }

    /// `n` unit boxes of 1 kg stacked on the ground.
    pub fn box_stack(n: usize, num_solver_iterations: usize) -> PhysicsWorld {
        let mut world = ground(num_solver_iterations);
        for i in 0..n {
            add_box(&mut world, [0.5; 3], 1.0, [0.0, 0.5 + i as f64, 0.0]);
        }
        world
    }

    /// A pile: a 3 x 3 layer of boxes (half extent 0.25 m) with a 2 x 2 layer of balls
    /// (radius 0.25 m) dropped on it from just above, then a second 2 x 2 layer of boxes.
    pub fn pile(num_solver_iterations: usize) -> PhysicsWorld {
        let mut world = ground(num_solver_iterations);
        for i in 0..3 {
            for k in 0..3 {
                let (x, z) = (0.52 * (i as f64 - 1.0), 0.52 * (k as f64 - 1.0));
                add_box(&mut world, [0.25; 3], 1000.0, [x, 0.25, z]);
            }
        }
        for i in 0..2 {
            for k in 0..2 {
                let (x, z) = (0.52 * (i as f64 - 0.5), 0.52 * (k as f64 - 0.5));
                add_ball(&mut world, 0.25, 1000.0, [x, 0.76, z]);
                add_box(&mut world, [0.25; 3], 1000.0, [x + 0.05, 1.30, z - 0.05]);
            }
        }
        world
    }

    /// Heavy on light: a 1000 kg box (half extent 0.5 m, density 1000) on a 1 kg box of the
    /// same size (density 1): a mass ratio of 1000 to 1.
    pub fn heavy_on_light(num_solver_iterations: usize) -> PhysicsWorld {
        let mut world = ground(num_solver_iterations);
        add_box(&mut world, [0.5; 3], 1.0, [0.0, 0.5, 0.0]);
        add_box(&mut world, [0.5; 3], 1000.0, [0.0, 1.5, 0.0]);
        world
    }
}
