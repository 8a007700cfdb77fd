//! A contact found by collision detection: the [`Contact`] of the contact problem
//! (point, normal from `a` to `b`, tangents, `mu`, `e`: Erleben 2007 eq. 2, 6) together
//! with its gap and an identity that persists across time steps.
//!
//! The gap is the signed distance of the two surfaces along the normal (m): positive
//! when they are apart, negative when they overlap (then `-gap` is the penetration
//! depth, the right-hand side of the position correction of Erleben 2007 eq. 46).
//!
//! The identity names the contact by what touches, not by where it is stored: the two
//! bodies and the features (vertex, edge, face) of their shapes that meet. A contact
//! keeps its identity while the same features touch, so the impulses of the previous
//! step can warm-start the next ([`crate::policy::warm_start::by_identity`]).

use crate::multibody::{BodyRef, Contact};

// ANCHOR: contact_id
/// The identity of a contact across time steps.
///
/// Ordered field by field (derived `Ord`), which is the order of the contact list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ContactId {
    /// The first body: `None` for the ground, `Some(i)` for body `i`. For two bodies,
    /// `a < b`.
    pub a: Option<usize>,
    /// The second body (never the ground).
    pub b: usize,
    /// Which contact manifold of the pair (0 for two convex shapes, the only case of
    /// [`super::Shape`]).
    pub manifold: u32,
    /// The feature of `a`'s shape at the contact (parry's packed feature id: a vertex,
    /// edge or face number tagged with its kind; the ground is face 0).
    pub feature_a: u32,
    /// The feature of `b`'s shape at the contact.
    pub feature_b: u32,
    /// 0, or `k` for the `k`-th further point of the same manifold with the same pair of
    /// features (so that identities are unique).
    pub ordinal: u32,
}
// ANCHOR_END: contact_id

/// A packed feature id read aloud: `v3` (vertex 3), `e7` (edge 7), `f0` (face 0), or
/// `?` (unknown). parry keeps the kind in the two high bits (01 vertex, 10 edge, 11 face)
/// and the number in the other 30.
pub fn feature_name(feature: u32) -> String {
    let code = feature & 0x3fff_ffff;
    match feature >> 30 {
        0b01 => format!("v{code}"),
        0b10 => format!("e{code}"),
        0b11 => format!("f{code}"),
        _ => "?".to_string(),
    }
}

impl ContactId {
    /// The first side as a [`BodyRef`] (the ground is [`BodyRef::World`]).
    pub fn body_a(&self) -> BodyRef {
        match self.a {
            None => BodyRef::World,
            Some(i) => BodyRef::Body(i),
        }
    }
}

/// A contact of the world: the problem's [`Contact`], its gap and its identity.
#[derive(Debug, Clone, PartialEq)]
pub struct WorldContact {
    /// The contact as the assembly sees it: `a`, `b`, point (midway between the two
    /// surfaces), unit normal from `a` to `b`, tangents, `mu` and `e` of the pair.
    pub contact: Contact,
    /// Signed distance of the surfaces along the normal, in m (negative = overlap).
    pub gap: f64,
    /// The identity across steps.
    pub id: ContactId,
}

/// The identities of `contacts`, in order: the keys of
/// [`crate::policy::warm_start::by_identity`].
pub fn identities(contacts: &[WorldContact]) -> Vec<ContactId> {
    contacts.iter().map(|c| c.id).collect()
}
