//! The narrow phase: the contact points of one pair of shapes, from parry's contact
//! manifolds, as [`WorldContact`]s.
//!
//! For a pair (shape 1 at pose `P1`, shape 2 at `P2`) parry returns manifolds in shape
//! 1's frame: a normal `n1` (outward from shape 1, towards shape 2) and points, each
//! with a point on either surface and their signed distance (negative = overlap), kept
//! when the distance is at most the margin ("prediction" in parry). The conversion:
//!
//! * normal `n = R1 n1` in world coordinates. It points from shape 1 to shape 2, so
//!   shape 1 is the contact's side `a` and shape 2 its side `b`: with this order a
//!   positive normal velocity `n . (v_b - v_a) > 0` separates (Erleben 2007 eq. 6, the
//!   crate's convention, see [`crate::multibody::Contact`]);
//! * point `(P1 p1 + P2 p2) / 2`, midway between the two surfaces (the lever arms of
//!   eq. 11-12 are measured to it);
//! * gap = parry's distance;
//! * identity `(a, b, manifold, feature of a, feature of b, ordinal)` ([`ContactId`]);
//! * points of a pair closer than `MERGE_DISTANCE` (1e-9 m) merged into the one with the
//!   smaller identity (aligned faces make parry report each corner twice).

use nalgebra::Vector3;
use parry3d_f64::math::Pose;
use parry3d_f64::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use parry3d_f64::shape::SharedShape;

use super::contact::{ContactId, WorldContact};
use super::convert::from_parry_vec;
use super::material::Material;
use crate::multibody::{BodyRef, Contact, MultibodyError};

/// One side of a pair: its parry shape and pose, and who it is (`None` = the ground).
pub(crate) struct Side<'a> {
    pub who: Option<usize>,
    pub shape: &'a SharedShape,
    pub pose: Pose,
}

// ANCHOR: manifolds
/// The contacts of side `s1` against body `b` (side `s2`), within `margin` (m), with
/// the pair's material, appended to `out`.
pub(crate) fn pair_contacts(
    s1: &Side<'_>,
    b: usize,
    s2: &Side<'_>,
    margin: f64,
    material: &Material,
    out: &mut Vec<WorldContact>,
) -> Result<(), MultibodyError> {
    let pos12 = s1.pose.inv_mul(&s2.pose);
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    DefaultQueryDispatcher
        .contact_manifolds(
            &pos12,
            s1.shape.as_ref(),
            s2.shape.as_ref(),
            margin,
            &mut manifolds,
            &mut None,
        )
        .map_err(|e| MultibodyError::Collision {
            reason: format!("{e:?}"),
        })?;
    let a_ref = match s1.who {
        None => BodyRef::World,
        Some(i) => BodyRef::Body(i),
    };
    let start = out.len();
    for (k, m) in manifolds.iter().enumerate() {
        let normal = from_parry_vec(s1.pose.rotation * m.local_n1);
        for p in m.points.iter().filter(|p| p.dist <= margin) {
            let p1 = from_parry_vec(s1.pose * p.local_p1);
            let p2 = from_parry_vec(s2.pose * p.local_p2);
            let point: Vector3<f64> = (p1 + p2) * 0.5;
            let contact = Contact::new(a_ref, b, point, normal, material.friction)?
                .with_restitution(material.restitution)?;
            let id = ContactId {
                a: s1.who,
                b,
                manifold: k as u32,
                feature_a: p.fid1.0,
                feature_b: p.fid2.0,
                ordinal: 0,
            };
            out.push(WorldContact {
                contact,
                gap: p.dist,
                id,
            });
        }
    }
    number_duplicates(&mut out[start..]);
    merge_coincident(out, start);
    Ok(())
}
// ANCHOR_END: manifolds

/// Two points of one pair closer than this (m) are one contact.
///
/// When faces are aligned (a box resting on a box) parry reports a corner twice: a
/// vertex of either shape lying on the other's face. Both would give the same rows of
/// `J`, making `W` singular without adding anything.
pub(crate) const MERGE_DISTANCE: f64 = 1e-9;

/// Drops from `out[start..]` (one pair, sorted by identity) every contact whose point is
/// within [`MERGE_DISTANCE`] of an earlier one of the same manifold; the earlier (smaller
/// identity) is kept.
fn merge_coincident(out: &mut Vec<WorldContact>, start: usize) {
    let pair = out.split_off(start);
    let mut kept: Vec<WorldContact> = Vec::with_capacity(pair.len());
    for c in pair {
        let dup = kept.iter().any(|k| {
            k.id.manifold == c.id.manifold
                && (k.contact.point() - c.contact.point()).norm() <= MERGE_DISTANCE
        });
        if !dup {
            kept.push(c);
        }
    }
    out.extend(kept);
}

/// Gives the points of one pair that share `(manifold, features)` the ordinals
/// `0, 1, 2, ...` in the order of their points (lexicographic in `x, y, z`, with
/// `total_cmp`), so that every identity is unique and the numbering does not depend on
/// the order parry produced them in.
fn number_duplicates(contacts: &mut [WorldContact]) {
    let key = |c: &WorldContact| (c.id.manifold, c.id.feature_a, c.id.feature_b);
    contacts.sort_by(|x, y| {
        key(x).cmp(&key(y)).then_with(|| {
            let (p, q) = (x.contact.point(), y.contact.point());
            (0..3)
                .map(|d| p[d].total_cmp(&q[d]))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    });
    for k in 1..contacts.len() {
        if key(&contacts[k]) == key(&contacts[k - 1]) {
            contacts[k].id.ordinal = contacts[k - 1].id.ordinal + 1;
        }
    }
}
