//! One implicit time step of a world and a model (Macklin et al. 2019 Algorithm 1):
//! collision detection once at the start, the Newton iteration, then the new state.
//!
//! Checked by `tests/laws/implicit_energy.rs`, `tests/laws/implicit_stepping.rs` and
//! `tests/laws/implicit_stick_slip.rs`.

use nalgebra::{DVector, UnitQuaternion, Vector3};

use super::model::{Anchor, Model, Node};
use super::newton::{self, ImplicitError, ImplicitOptions, NewtonReport};
use super::rows::PointContact;
use super::state::Dofs;
use crate::multibody::BodyRef;
use crate::world::{World, WorldContact};

/// The point contacts of a step: the world's contacts between bodies that are not joined,
/// with their surface points as anchors fixed in the bodies (so that `C_n = gap` at the
/// start and follows the bodies through the Newton iterates), and each particle within
/// the margin of the ground.
///
/// A contact that starts the step overlapping (`gap < 0`) gets the thickness `gap`: it is
/// closed at its start overlap, `C_n >= min(gap, 0)`, so the step stops further
/// penetration but does not push the overlap out ([`point_contacts_with`] lets it recover
/// at a bounded speed). Demanding `C_n >= 0` at the end of the
/// step would remove an overlap `d` within one step, an outward velocity `d / h` kept as
/// kinetic energy (a Baumgarte term with factor 1); with anchors fixed in the bodies the
/// Newton iteration could also meet it by spinning a body until its anchor rose, and a
/// falling pile gained energy without bound. Contacts are inelastic (Macklin et al. 2019
/// §3.3): a step must not add energy.
pub fn point_contacts(
    world: &World,
    model: &Model,
    contacts: &[WorldContact],
) -> Vec<PointContact> {
    point_contacts_with(world, model, contacts, 0.0)
}

/// [`point_contacts`], with each overlap allowed to shrink by up to `recovery` m
/// (`>= 0`) over the step: a contact that starts overlapping by `d` is closed at
/// `C_n = min(0, recovery - d)`. [`step`] passes `h v_r`
/// ([`ImplicitOptions::recovery_speed`]).
pub fn point_contacts_with(
    world: &World,
    model: &Model,
    contacts: &[WorldContact],
    recovery: f64,
) -> Vec<PointContact> {
    let mut out = Vec::with_capacity(contacts.len());
    let local = |body: usize, p: Vector3<f64>| {
        let b = &world.bodies()[body].body;
        if b.fixed {
            Anchor::World(p)
        } else {
            Anchor::On(Node::Body(body), b.orientation.inverse() * (p - b.position))
        }
    };
    for c in contacts {
        let k = &c.contact;
        let b = k.b();
        if let BodyRef::Body(a) = k.a() {
            if model.joined(a, b) {
                continue;
            }
        }
        let n = *k.normal();
        let pa = k.point() - n * (c.gap / 2.0);
        let pb = k.point() + n * (c.gap / 2.0);
        let a = match k.a() {
            BodyRef::World => Anchor::World(pa),
            BodyRef::Body(i) => local(i, pa),
        };
        out.push(PointContact {
            a,
            b: local(b, pb),
            normal: n,
            thickness: (c.gap + recovery).min(0.0),
            mu: k.mu(),
        });
    }
    if let Some(ground) = world.ground() {
        for (j, p) in model.particles.iter().enumerate() {
            let gap = p.position.z - p.radius - ground.height;
            if gap <= world.margin() {
                out.push(PointContact {
                    a: Anchor::World(Vector3::new(p.position.x, p.position.y, ground.height)),
                    b: Anchor::On(Node::Particle(j), Vector3::zeros()),
                    normal: Vector3::z(),
                    // As for bodies: an overlap at the start is kept, not pushed out.
                    thickness: p.radius + (gap + recovery).min(0.0),
                    mu: p.mu,
                });
            }
        }
    }
    out
}

// ANCHOR: step
/// Advances `world` and `model` by `h` s with the contacts `contacts` found at the start
/// of the step. On error nothing is changed.
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
    let points = point_contacts_with(world, model, contacts, h * opts.recovery_speed);
    let (u, report) = newton::solve(&dofs, model, &points, opts)?;
    commit(world, model, &dofs, &u);
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
