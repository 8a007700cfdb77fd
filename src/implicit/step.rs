//! One implicit time step of a world and a model (Macklin et al. 2019 Algorithm 1):
//! collision detection once at the start, the Newton iteration, then the new state.
//!
//! Checked by `tests/laws/implicit_energy.rs`, `tests/laws/implicit_stepping.rs` and
//! `tests/laws/implicit_stick_slip.rs`.

use nalgebra::{DVector, UnitQuaternion, Vector3};

use super::model::{Anchor, Joint, Model, Node};
use super::newton::{self, ImplicitError, ImplicitOptions, NewtonReport};
use super::rows::PointContact;
use super::state::Dofs;
use crate::multibody::BodyRef;
use crate::world::{ContactId, Shape, World, WorldContact};

/// The point contacts of a step: the world's contacts between bodies that are not joined,
/// each particle within the margin of the ground, and each particle within the margin of
/// a rigid body (deformable-rigid contact).
///
/// Each contact's anchors are core points fixed in their bodies ([`PointContact`]): a
/// box's surface point, a sphere's centre, the nearest point of a capsule's segment, a
/// particle's centre. The gap at the step's positions is then `n^T (p_b - p_a) - d` with
/// `d` chosen so that it equals the detected gap at the start.
///
/// A contact that starts the step overlapping (`gap < 0`) gets the thickness `gap`: it is
/// closed at its start overlap, `C_n >= min(gap, 0)`, so the step stops further
/// penetration but does not push the overlap out ([`point_contacts_with`] lets it recover
/// at a bounded speed). Demanding `C_n >= 0` at the end of the step would remove an
/// overlap `d` within one step, an outward velocity `d / h` kept as kinetic energy (a
/// Baumgarte term with factor 1). Contacts are inelastic (Macklin et al. 2019 §3.3): a
/// step must not add energy.
pub fn point_contacts(
    world: &World,
    model: &Model,
    contacts: &[WorldContact],
) -> Vec<PointContact> {
    point_contacts_with(world, model, contacts, 0.0, world.margin())
}

/// The core point of a body's surface point `p` (world frame, m) and the distance from it
/// to the surface: `(p, 0)` for a box or the world, the centre and radius of a sphere, the
/// nearest point of a capsule's segment and its radius.
fn core_point(world: &World, body: Option<usize>, p: &Vector3<f64>) -> (Vector3<f64>, f64) {
    let Some(i) = body else { return (*p, 0.0) };
    let wb = &world.bodies()[i];
    let b = &wb.body;
    match wb.shape {
        Shape::Box { .. } => (*p, 0.0),
        Shape::Sphere { radius } => (b.position, radius),
        Shape::Capsule {
            half_height,
            radius,
        } => {
            let local = b.orientation.inverse() * (p - b.position);
            let z = local.z.clamp(-half_height, half_height);
            (
                b.position + b.orientation * Vector3::new(0.0, 0.0, z),
                radius,
            )
        }
    }
}

/// [`point_contacts`], with each overlap allowed to shrink by up to `recovery` m
/// (`>= 0`) over the step: a contact that starts overlapping by `d` is closed at
/// `C_n = min(0, recovery - d)`. [`step`] passes `h v_r`
/// ([`ImplicitOptions::recovery_speed`]). Particles count as touching the ground or a
/// body when their surface is within `margin` m of it ([`speculative_margin`]). Each
/// particle is tested against every body's bounding sphere: the cost is proportional to
/// particles times bodies (fine for a deformable body among tens of rigid ones; a broad
/// phase would be needed for thousands of both).
pub fn point_contacts_with(
    world: &World,
    model: &Model,
    contacts: &[WorldContact],
    recovery: f64,
    margin: f64,
) -> Vec<PointContact> {
    point_contacts_keyed(world, model, contacts, recovery, margin).0
}

/// What a point contact is across steps: its world contact's identity, or a particle
/// on the ground or on a body. The keys of [`WarmStart`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContactKey {
    /// A contact between bodies (or a body and the ground) found by collision detection.
    World(ContactId),
    /// Particle `j` on the ground.
    Ground(usize),
    /// Particle `j` on body `i`.
    Body(usize, usize),
}

/// [`point_contacts_with`], with each contact's [`ContactKey`].
pub fn point_contacts_keyed(
    world: &World,
    model: &Model,
    contacts: &[WorldContact],
    recovery: f64,
    margin: f64,
) -> (Vec<PointContact>, Vec<ContactKey>) {
    let mut out = Vec::with_capacity(contacts.len());
    let mut keys = Vec::with_capacity(contacts.len());
    let anchor = |body: Option<usize>, p: Vector3<f64>| match body {
        Some(i) if !world.bodies()[i].body.fixed => {
            let b = &world.bodies()[i].body;
            Anchor::On(Node::Body(i), b.orientation.inverse() * (p - b.position))
        }
        _ => Anchor::World(p),
    };
    // The gap `n^T (c_b - c_a) - d` of core points `c` equals `gap - allowance` at the start.
    let mut push = |a: Option<usize>,
                    pa: Vector3<f64>,
                    b: Option<usize>,
                    pb: Vector3<f64>,
                    n: Vector3<f64>,
                    gap: f64,
                    mu: f64| {
        let (ca, radius_a) = core_point(world, a, &pa);
        let (cb, radius_b) = core_point(world, b, &pb);
        let allowance = (gap + recovery).min(0.0);
        out.push(PointContact {
            a: anchor(a, ca),
            b: anchor(b, cb),
            normal: n,
            thickness: n.dot(&(cb - ca)) - gap + allowance,
            mu,
            radius_a,
            radius_b,
        });
    };
    for c in contacts {
        let k = &c.contact;
        let b = k.b();
        let a = match k.a() {
            BodyRef::Body(a) => {
                if model.joined(a, b) {
                    continue;
                }
                Some(a)
            }
            BodyRef::World => None,
        };
        let n = *k.normal();
        let pa = k.point() - n * (c.gap / 2.0);
        let pb = k.point() + n * (c.gap / 2.0);
        push(a, pa, Some(b), pb, n, c.gap, k.mu());
        keys.push(ContactKey::World(c.id));
    }
    let particle = |j: usize| Anchor::On(Node::Particle(j), Vector3::zeros());
    for (j, p) in model.particles.iter().enumerate() {
        if let Some(ground) = world.ground() {
            let gap = p.position.z - p.radius - ground.height;
            if gap <= margin {
                let foot = Vector3::new(p.position.x, p.position.y, ground.height);
                out.push(PointContact {
                    a: Anchor::World(foot),
                    b: particle(j),
                    normal: Vector3::z(),
                    // As for bodies: an overlap at the start is kept, not pushed out.
                    thickness: p.radius + (gap + recovery).min(0.0),
                    mu: p.mu,
                    radius_a: 0.0,
                    radius_b: p.radius,
                });
                keys.push(ContactKey::Ground(j));
            }
        }
        for (i, wb) in world.bodies().iter().enumerate() {
            let reach = wb.shape.bounding_radius() + p.radius + margin;
            if (p.position - wb.body.position).norm() > reach {
                continue;
            }
            let Some((q, inside)) = world.surface_point(i, &p.position) else {
                continue;
            };
            let d = p.position - q;
            let dist = d.norm();
            if dist == 0.0 {
                // On the surface exactly: no direction to push along; the next step
                // (or the ground) decides.
                continue;
            }
            let (n, gap) = if inside {
                (-d / dist, -dist - p.radius)
            } else {
                (d / dist, dist - p.radius)
            };
            if gap > margin {
                continue;
            }
            let (cq, radius_a) = core_point(world, Some(i), &q);
            let allowance = (gap + recovery).min(0.0);
            out.push(PointContact {
                a: anchor(Some(i), cq),
                b: particle(j),
                normal: n,
                thickness: n.dot(&(p.position - cq)) - gap + allowance,
                mu: p.mu,
                radius_a,
                radius_b: p.radius,
            });
            keys.push(ContactKey::Body(j, i));
        }
    }
    (out, keys)
}

// ANCHOR: warm_start
/// What one implicit step leaves for the next to start its Newton iteration from: the
/// multipliers of each contact (normal and two friction rows, N) by [`ContactKey`], and
/// those of the rows that do not come and go (joints and elements) by position. With the
/// velocities the bodies end the step with, the next step starts at the last solution:
/// a structure at rest starts at its answer, instead of at `u = 0`, `λ = 0` (§8.1),
/// where the Newton iteration must build every resting force again from nothing.
#[derive(Debug, Clone, Default)]
pub struct WarmStart {
    contacts: std::collections::HashMap<ContactKey, [f64; 3]>,
    fixed_head: Vec<f64>,
    fixed_tail: Vec<f64>,
}

impl WarmStart {
    /// The start `λ` for rows of `joint_rows` joint rows, the contacts `keys` (three rows
    /// each) and `tail` element rows: remembered values, 0 for a new contact.
    fn start(&self, joint_rows: usize, keys: &[ContactKey], tail: usize) -> DVector<f64> {
        let mut l = DVector::zeros(joint_rows + 3 * keys.len() + tail);
        if self.fixed_head.len() == joint_rows {
            l.rows_mut(0, joint_rows).copy_from_slice(&self.fixed_head);
        }
        for (c, key) in keys.iter().enumerate() {
            if let Some(v) = self.contacts.get(key) {
                l.rows_mut(joint_rows + 3 * c, 3).copy_from_slice(v);
            }
        }
        if self.fixed_tail.len() == tail {
            l.rows_mut(joint_rows + 3 * keys.len(), tail)
                .copy_from_slice(&self.fixed_tail);
        }
        l
    }

    /// Remembers the multipliers `lambda` of a step (layout as [`WarmStart::start`]).
    fn remember(&mut self, joint_rows: usize, keys: &[ContactKey], lambda: &DVector<f64>) {
        let tail = lambda.len() - joint_rows - 3 * keys.len();
        self.fixed_head = lambda.rows(0, joint_rows).iter().copied().collect();
        self.fixed_tail = lambda
            .rows(joint_rows + 3 * keys.len(), tail)
            .iter()
            .copied()
            .collect();
        self.contacts = keys
            .iter()
            .enumerate()
            .map(|(c, k)| {
                let o = joint_rows + 3 * c;
                (*k, [lambda[o], lambda[o + 1], lambda[o + 2]])
            })
            .collect();
    }
}
// ANCHOR_END: warm_start

/// The contact margin of an implicit step of `h` s (m): the world's margin, plus how far
/// two things can approach within the step at their current speeds,
/// `2 h (s_max + h |g|)`, `s_max` the largest speed of a particle or of a point of a
/// moving body (`|v| + |ω| ρ`, `ρ` its bounding radius). Contacts found within it are
/// posed as gaps at the step's end positions, closed or open, so that a body falling
/// `|v| h` in a step meets the surface it reaches instead of passing into it
/// (Macklin et al. 2019 §3.3 detect once at the start of the step).
pub fn speculative_margin(world: &World, model: &Model, h: f64) -> f64 {
    let mut s_max = 0.0f64;
    for wb in world.bodies() {
        let b = &wb.body;
        if !b.fixed {
            let s =
                b.linear_velocity.norm() + b.angular_velocity.norm() * wb.shape.bounding_radius();
            s_max = s_max.max(s);
        }
    }
    for p in &model.particles {
        s_max = s_max.max(p.velocity.norm());
    }
    let speculative = 2.0 * h * (s_max + h * world.gravity().norm());
    world.margin()
        + if speculative.is_finite() {
            speculative
        } else {
            0.0
        }
}

// ANCHOR: step
/// Advances `world` and `model` by `h` s with the contacts `contacts` found at the start
/// of the step, from `u = 0`, `λ = 0` (the paper's start; [`step_warm`] starts from the
/// last step). On error nothing is changed.
///
/// The contacts should be found within [`speculative_margin`]
/// (`world.contacts_within(speculative_margin(world, model, h))`, as
/// [`crate::stepping::Simulation`] does): a pair missing from them is not seen until it
/// overlaps.
///
/// # Errors
/// [`ImplicitError::Model`] for a model that does not fit the world
/// ([`Model::validate`]), a time step that is not finite and positive, or a world that
/// does not validate; otherwise [`ImplicitError`] from the Newton iteration.
pub fn step(
    world: &mut World,
    model: &mut Model,
    contacts: &[WorldContact],
    h: f64,
    opts: &ImplicitOptions,
) -> Result<NewtonReport, ImplicitError> {
    step_warm(world, model, contacts, h, opts, &mut WarmStart::default())
}

/// [`step`], starting the Newton iteration from the end velocities of the last step and
/// the multipliers in `warm` when [`ImplicitOptions::warm_start`] is on (from `u = 0`,
/// `λ = 0` otherwise), and leaving this step's multipliers in `warm`.
///
/// # Errors
/// As [`step`]; `warm` is then unchanged.
pub fn step_warm(
    world: &mut World,
    model: &mut Model,
    contacts: &[WorldContact],
    h: f64,
    opts: &ImplicitOptions,
    warm: &mut WarmStart,
) -> Result<NewtonReport, ImplicitError> {
    model
        .validate(world.bodies().len())
        .map_err(ImplicitError::Model)?;
    if !(h.is_finite() && h > 0.0) {
        return Err(ImplicitError::Model(format!(
            "the time step must be finite and > 0, got {h}"
        )));
    }
    world
        .validate()
        .map_err(|e| ImplicitError::Model(e.to_string()))?;
    let dofs = Dofs::new(world, model, h);
    let margin = speculative_margin(world, model, h);
    let (points, keys) =
        point_contacts_keyed(world, model, contacts, h * opts.recovery_speed, margin);
    let joint_rows = model.joints.iter().map(Joint::row_count).sum::<usize>();
    // Each element has two rows ([`super::neo_hookean::Tetrahedron::rows`]).
    let tail = 2 * model.tetrahedra.len();
    let start = opts
        .warm_start
        .then(|| (dofs.u0.clone(), warm.start(joint_rows, &keys, tail)));
    let (u, report) = newton::solve_from(&dofs, model, &points, opts, start)?;
    commit(world, model, &dofs, &u);
    if report.lambda.len() == joint_rows + 3 * keys.len() + tail {
        warm.remember(joint_rows, &keys, &report.lambda);
    }
    Ok(report)
}
// ANCHOR_END: step

/// Writes the velocity `u` and the positions `q(u)` into the world and the model.
pub fn commit(world: &mut World, model: &mut Model, dofs: &Dofs, u: &DVector<f64>) {
    for i in 0..world.bodies().len() {
        let Some(o) = dofs.body_offset[i] else {
            continue;
        };
        let (x, q): (Vector3<f64>, UnitQuaternion<f64>) = dofs.pose(Node::Body(i), u);
        if let Some(b) = world.body_mut(i) {
            b.body.linear_velocity = u.fixed_rows::<3>(o).into_owned();
            b.body.angular_velocity = u.fixed_rows::<3>(o + 3).into_owned();
            b.body.position = x;
            b.body.orientation = q;
        }
    }
    for (j, p) in model.particles.iter_mut().enumerate() {
        let o = dofs.particle_offset[j];
        p.velocity = u.fixed_rows::<3>(o).into_owned();
        p.position = dofs.pose(Node::Particle(j), u).0;
    }
}

/// The worst penetration of a particle into the ground at height `ground` (m; 0 when
/// none touches).
pub fn particle_penetration(ground: f64, model: &Model) -> f64 {
    model
        .particles
        .iter()
        .map(|p| ground + p.radius - p.position.z)
        .fold(0.0, f64::max)
}
