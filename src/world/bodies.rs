//! The [`World`]: bodies with shapes and materials, the ground, gravity and the contact
//! margin, and the collision detection that turns them into the contacts of the step
//! (the first stage of the time step of Erleben 2007 eq. 45).
//!
//! Each body is a [`RigidBody`] of [`crate::multibody`] (mass, inertia, position,
//! orientation quaternion `Q`, velocities: Erleben 2007 eq. 16-18, 23-26) with a
//! [`Shape`] and a [`MaterialId`]; the world adds nothing to the dynamics.

use nalgebra::{UnitQuaternion, Vector3};

use super::broad_phase::{Aabb, near_ground, overlapping_pairs};
use super::contact::WorldContact;
use super::convert::{
    body_pose, from_parry_vec, ground_pose, ground_shape, to_parry_shape, to_parry_vec,
};
use super::ground::GroundPlane;
use super::material::{Material, MaterialId, Materials};
use super::narrow_phase::{Side, pair_contacts};
use super::shape::Shape;
use crate::multibody::{MultibodyError, RigidBody, check_finite};

/// The default contact margin in m: contacts are reported while the surfaces are at
/// most this far apart.
pub const DEFAULT_MARGIN: f64 = 1e-3;

/// The contacts one collision pass ([`World::contacts`]) may find, and the candidate
/// pairs of its broad phase: this many, plus [`MAX_CONTACTS_PER_BODY`] per body.
pub const MAX_CONTACTS_BASE: usize = 1_000_000;

/// The contacts (and candidate pairs) one collision pass may find per body, besides
/// [`MAX_CONTACTS_BASE`]. Bodies at rest side by side have far fewer: a cube inside a
/// grid of touching cubes has 28 contacts with its 26 neighbours, counted once per pair.
pub const MAX_CONTACTS_PER_BODY: usize = 50;

/// The coupling one collision pass may find: the sum over the moving bodies of the square
/// of their numbers of contacts, an upper bound on the nonzero 3 x 3 blocks of the
/// Delassus operator `W = J M^-1 J^T` the step assembles (two contacts give a block when
/// they share a moving body): this many, plus [`MAX_COUPLING_PER_BODY`] per body.
pub const MAX_COUPLING_BASE: usize = 2_000_000;

/// The coupling one collision pass may find per body, besides [`MAX_COUPLING_BASE`]: about
/// the square of 70 contacts on every body.
pub const MAX_COUPLING_PER_BODY: usize = 5_000;

/// A body of the world: its dynamics, its geometry and its surface.
#[derive(Debug, Clone, PartialEq)]
pub struct WorldBody {
    /// Mass, inertia, pose, velocity, applied load, fixed or not.
    pub body: RigidBody,
    /// The geometry, centred at the centre of mass, in the body frame.
    pub shape: Shape,
    /// The surface.
    pub material: MaterialId,
}

/// A world body lends its rigid body to [`crate::multibody::Assembly::new`], which then
/// reads the world's bodies in place.
impl AsRef<RigidBody> for WorldBody {
    fn as_ref(&self) -> &RigidBody {
        &self.body
    }
}

/// Bodies, ground, gravity, materials and the contact margin.
///
/// Bodies are numbered in the order they are added; the number is the body index of
/// the contacts, of [`crate::multibody::Assembly`] and of the contact identities.
/// Bodies can be edited between steps ([`World::body_mut`]); everything is checked again
/// by [`World::contacts`].
#[derive(Debug, Clone, PartialEq)]
pub struct World {
    bodies: Vec<WorldBody>,
    gravity: Vector3<f64>,
    ground: Option<GroundPlane>,
    materials: Materials,
    margin: f64,
}

impl Default for World {
    fn default() -> Self {
        World::new()
    }
}

impl World {
    /// An empty world: gravity `(0, 0, -9.81)` m/s², the ground plane `z = 0` with
    /// material 0, margin [`DEFAULT_MARGIN`], one material ([`Material::default`]).
    pub fn new() -> Self {
        World {
            bodies: Vec::new(),
            gravity: Vector3::new(0.0, 0.0, -9.81),
            ground: Some(GroundPlane::default()),
            materials: Materials::default(),
            margin: DEFAULT_MARGIN,
        }
    }

    /// The same world with gravity `g` (m/s²).
    ///
    /// # Errors
    /// [`MultibodyError::NonFinite`].
    pub fn with_gravity(mut self, g: Vector3<f64>) -> Result<Self, MultibodyError> {
        check_finite("gravity", g.as_slice())?;
        self.gravity = g;
        Ok(self)
    }

    /// The same world with the ground `ground`, or none.
    ///
    /// # Errors
    /// [`MultibodyError::NonFinite`] for a non-finite height,
    /// [`MultibodyError::UnknownMaterial`].
    pub fn with_ground(mut self, ground: Option<GroundPlane>) -> Result<Self, MultibodyError> {
        if let Some(g) = &ground {
            GroundPlane::new(g.height, g.material)?;
            self.materials.check(g.material)?;
        }
        self.ground = ground;
        Ok(self)
    }

    /// The same world with contact margin `margin` (m, `>= 0`).
    ///
    /// # Errors
    /// [`MultibodyError::NonFinite`], or [`MultibodyError::NonPositive`] for a negative
    /// margin.
    pub fn with_margin(mut self, margin: f64) -> Result<Self, MultibodyError> {
        check_finite("margin", &[margin])?;
        if margin < 0.0 {
            return Err(MultibodyError::NonPositive {
                what: "margin",
                value: margin,
            });
        }
        self.margin = margin;
        Ok(self)
    }

    /// Gravity in m/s².
    pub fn gravity(&self) -> &Vector3<f64> {
        &self.gravity
    }

    /// The ground, if any.
    pub fn ground(&self) -> Option<&GroundPlane> {
        self.ground.as_ref()
    }

    /// The contact margin in m.
    pub fn margin(&self) -> f64 {
        self.margin
    }

    /// The materials.
    pub fn materials(&self) -> &Materials {
        &self.materials
    }

    /// Adds a material.
    ///
    /// # Errors
    /// As [`Material::validate`].
    pub fn add_material(&mut self, m: Material) -> Result<MaterialId, MultibodyError> {
        self.materials.add(m)
    }

    /// Replaces material `id` (material 0 is the default of every body and of the
    /// ground).
    ///
    /// # Errors
    /// As [`Materials::set`].
    pub fn set_material(&mut self, id: MaterialId, m: Material) -> Result<(), MultibodyError> {
        self.materials.set(id, m)
    }

    /// Overrides the contact material of materials `a` and `b` (either order).
    ///
    /// # Errors
    /// As [`Materials::set_pair`].
    pub fn set_pair_material(
        &mut self,
        a: MaterialId,
        b: MaterialId,
        m: Material,
    ) -> Result<(), MultibodyError> {
        self.materials.set_pair(a, b, m)
    }

    /// Adds a body and returns its index.
    ///
    /// # Errors
    /// As [`RigidBody::validate`], [`Shape::validate`], and
    /// [`MultibodyError::UnknownMaterial`]; body errors carry the index the body would
    /// have had.
    pub fn add_body(
        &mut self,
        body: RigidBody,
        shape: Shape,
        material: MaterialId,
    ) -> Result<usize, MultibodyError> {
        let i = self.bodies.len();
        let b = WorldBody {
            body,
            shape,
            material,
        };
        self.check_body(&b).map_err(|e| e.at_body(i))?;
        self.bodies.push(b);
        Ok(i)
    }

    /// Adds a body of `shape` filled with `density` (kg/m³) at `position` (m) with
    /// orientation `orientation`, at rest.
    ///
    /// # Errors
    /// As [`Shape::body_with_density`] and [`World::add_body`].
    pub fn add(
        &mut self,
        shape: Shape,
        density: f64,
        position: Vector3<f64>,
        orientation: UnitQuaternion<f64>,
        material: MaterialId,
    ) -> Result<usize, MultibodyError> {
        let body = shape
            .body_with_density(density, position)?
            .with_orientation(orientation);
        self.add_body(body, shape, material)
    }

    /// Adds a body of `shape` with total `mass` (kg); otherwise as [`World::add`].
    ///
    /// # Errors
    /// As [`Shape::body_with_mass`] and [`World::add_body`].
    pub fn add_with_mass(
        &mut self,
        shape: Shape,
        mass: f64,
        position: Vector3<f64>,
        orientation: UnitQuaternion<f64>,
        material: MaterialId,
    ) -> Result<usize, MultibodyError> {
        let body = shape
            .body_with_mass(mass, position)?
            .with_orientation(orientation);
        self.add_body(body, shape, material)
    }

    /// Adds a fixed body (a wall, a bin, an obstacle: infinite mass, at rest).
    ///
    /// # Errors
    /// As [`Shape::validate`] and [`World::add_body`].
    pub fn add_fixed(
        &mut self,
        shape: Shape,
        position: Vector3<f64>,
        orientation: UnitQuaternion<f64>,
        material: MaterialId,
    ) -> Result<usize, MultibodyError> {
        // The mass of a fixed body is never used; 1 kg keeps the body valid if unfixed.
        let body = shape
            .body_with_mass(1.0, position)?
            .with_orientation(orientation)
            .into_fixed();
        self.add_body(body, shape, material)
    }

    /// The bodies, in index order.
    pub fn bodies(&self) -> &[WorldBody] {
        &self.bodies
    }

    /// Body `i`, to edit its pose or velocity between steps (checked again by
    /// [`World::contacts`]).
    pub fn body_mut(&mut self, i: usize) -> Option<&mut WorldBody> {
        self.bodies.get_mut(i)
    }

    /// The rigid bodies alone, in index order (what [`crate::multibody::Assembly`] takes).
    pub fn rigid_bodies(&self) -> Vec<RigidBody> {
        self.bodies.iter().map(|b| b.body.clone()).collect()
    }

    /// Checks every body, shape and material, the ground and the margin.
    ///
    /// # Errors
    /// The first problem found, located at its body index.
    pub fn validate(&self) -> Result<(), MultibodyError> {
        check_finite("gravity", self.gravity.as_slice())?;
        check_finite("margin", &[self.margin])?;
        if let Some(g) = &self.ground {
            GroundPlane::new(g.height, g.material)?;
            self.materials.check(g.material)?;
        }
        for (i, b) in self.bodies.iter().enumerate() {
            self.check_body(b).map_err(|e| e.at_body(i))?;
        }
        Ok(())
    }

    fn check_body(&self, b: &WorldBody) -> Result<(), MultibodyError> {
        b.body.validate()?;
        b.shape.validate()?;
        self.materials.check(b.material)
    }

    // ANCHOR: contacts
    /// Collision detection: every contact of the current poses whose gap is at most the
    /// margin, sorted by [`ContactId`](super::ContactId).
    ///
    /// 1. broad phase: sweep and prune over the bodies' boxes grown by the margin, and
    ///    the boxes that reach the ground (see `broad_phase.rs`);
    /// 2. narrow phase: parry's contact manifolds of each candidate pair, converted to
    ///    [`WorldContact`]s (see `narrow_phase.rs`), with the pair's material
    ///    ([`Materials::pair`]);
    /// 3. the list sorted by identity.
    ///
    /// The result depends only on the world: the same world gives bit-identical
    /// contacts, in the same order.
    ///
    /// The pass is capped so that its memory, and that of the step it feeds, stays
    /// proportional to the number of bodies `n` ([`World::caps`]): at most
    /// [`MAX_CONTACTS_BASE`] + [`MAX_CONTACTS_PER_BODY`] `n` candidate pairs and as many
    /// contacts, and a coupling (the sum over moving bodies of their contacts squared, a
    /// bound on the blocks of `W`) of at most [`MAX_COUPLING_BASE`] +
    /// [`MAX_COUPLING_PER_BODY`] `n`. Bodies at rest stay far below; bodies sunk into one
    /// another (a file of 500 coincident boxes) reach a cap within the first few bodies,
    /// and the pass stops there with an error naming the count and the cap.
    ///
    /// # Errors
    /// As [`World::validate`]; [`MultibodyError::Collision`] if parry refuses a pair or a
    /// cap is exceeded.
    pub fn contacts(&self) -> Result<Vec<WorldContact>, MultibodyError> {
        self.contacts_within(self.margin)
    }
    // ANCHOR_END: contacts

    /// [`World::contacts`] with the margin `margin` (m) in place of the world's: every
    /// contact whose gap is at most `margin`. The implicit stepper detects with a margin
    /// that covers the step's motion ([`crate::implicit::step::speculative_margin`]).
    ///
    /// # Errors
    /// As [`World::contacts`], and [`MultibodyError::InvalidScene`] for a margin that is
    /// not finite and `>= 0`.
    pub fn contacts_within(&self, margin: f64) -> Result<Vec<WorldContact>, MultibodyError> {
        self.validate()?;
        if !(margin.is_finite() && margin >= 0.0) {
            return Err(MultibodyError::InvalidScene {
                reason: format!("the contact margin must be finite and >= 0, got {margin}"),
            });
        }
        let n = self.bodies.len();
        let (max_contacts, max_coupling) = self.caps();
        let shapes: Vec<_> = self
            .bodies
            .iter()
            .map(|b| to_parry_shape(&b.shape))
            .collect();
        let poses: Vec<_> = self.bodies.iter().map(|b| body_pose(&b.body)).collect();
        let fixed: Vec<bool> = self.bodies.iter().map(|b| b.body.fixed).collect();
        let boxes: Vec<Aabb> = shapes
            .iter()
            .zip(&poses)
            .map(|(s, p)| {
                let bb = s.compute_aabb(p);
                let m = margin;
                Aabb {
                    lo: [bb.mins.x - m, bb.mins.y - m, bb.mins.z - m],
                    hi: [bb.maxs.x + m, bb.maxs.y + m, bb.maxs.z + m],
                }
            })
            .collect();
        let side = |i: usize| Side {
            who: Some(i),
            shape: &shapes[i],
            pose: poses[i],
        };
        let mut out = Vec::new();
        let mut tally = Tally::new(&fixed, max_contacts, max_coupling);
        if let Some(g) = &self.ground {
            let plane = ground_shape();
            let ground = Side {
                who: None,
                shape: &plane,
                pose: ground_pose(g.height),
            };
            for i in near_ground(&boxes, &fixed, g.height) {
                let mat = self.materials.pair(g.material, self.bodies[i].material);
                let start = out.len();
                pair_contacts(&ground, i, &side(i), margin, &mat, &mut out)?;
                tally.add(&out, start)?;
            }
        }
        let pairs = overlapping_pairs(&boxes, &fixed, max_contacts).ok_or_else(|| {
            MultibodyError::Collision {
                reason: format!(
                    "the broad phase found more than {max_contacts} pairs of {n} bodies whose \
                     bounding boxes overlap, the cap of one collision pass \
                     ({MAX_CONTACTS_BASE} + {MAX_CONTACTS_PER_BODY} per body); {OVERLAP}"
                ),
            }
        })?;
        for (i, j) in pairs {
            let mat = self
                .materials
                .pair(self.bodies[i].material, self.bodies[j].material);
            let start = out.len();
            pair_contacts(&side(i), j, &side(j), margin, &mat, &mut out)?;
            tally.add(&out, start)?;
        }
        out.sort_by_key(|c| c.id);
        Ok(out)
    }

    /// The point of body `i`'s surface nearest to the world point `p` (m), and whether
    /// `p` lies inside the body (parry's point projection); `None` for an index out of
    /// range.
    pub fn surface_point(&self, i: usize, p: &Vector3<f64>) -> Option<(Vector3<f64>, bool)> {
        let b = self.bodies.get(i)?;
        let shape = to_parry_shape(&b.shape);
        let proj = shape.project_point(&body_pose(&b.body), to_parry_vec(p), false);
        Some((from_parry_vec(proj.point), proj.is_inside))
    }

    /// The caps of one collision pass over this world's `n` bodies: the most contacts
    /// (and candidate pairs), [`MAX_CONTACTS_BASE`] + [`MAX_CONTACTS_PER_BODY`] `n`, and
    /// the most coupling, [`MAX_COUPLING_BASE`] + [`MAX_COUPLING_PER_BODY`] `n` (see
    /// [`World::contacts`]).
    pub fn caps(&self) -> (usize, usize) {
        let n = self.bodies.len();
        (
            MAX_CONTACTS_BASE.saturating_add(MAX_CONTACTS_PER_BODY.saturating_mul(n)),
            MAX_COUPLING_BASE.saturating_add(MAX_COUPLING_PER_BODY.saturating_mul(n)),
        )
    }
}

/// The end of the messages of the caps of [`World::contacts`].
const OVERLAP: &str = "the bodies overlap far more than bodies in contact do (are many of \
                       them at the same place?)";

/// The count of contacts and of the coupling of one collision pass, against the caps.
struct Tally<'a> {
    fixed: &'a [bool],
    degree: Vec<usize>,
    contacts: usize,
    coupling: usize,
    max_contacts: usize,
    max_coupling: usize,
}

impl<'a> Tally<'a> {
    fn new(fixed: &'a [bool], max_contacts: usize, max_coupling: usize) -> Self {
        Tally {
            fixed,
            degree: vec![0; fixed.len()],
            contacts: 0,
            coupling: 0,
            max_contacts,
            max_coupling,
        }
    }

    /// Counts the contacts `out[start..]` of one pair; an error once a cap is exceeded.
    fn add(&mut self, out: &[WorldContact], start: usize) -> Result<(), MultibodyError> {
        let n = self.fixed.len();
        for c in &out[start..] {
            self.contacts += 1;
            for k in c.id.a.into_iter().chain([c.id.b]) {
                if !self.fixed[k] {
                    // (d + 1)^2 - d^2 more pairs of contacts share body k.
                    self.coupling = self.coupling.saturating_add(2 * self.degree[k] + 1);
                    self.degree[k] += 1;
                }
            }
        }
        if self.contacts > self.max_contacts {
            return Err(MultibodyError::Collision {
                reason: format!(
                    "more than {} contacts among {n} bodies, the cap of one collision pass \
                     ({MAX_CONTACTS_BASE} + {MAX_CONTACTS_PER_BODY} per body); {OVERLAP}",
                    self.max_contacts
                ),
            });
        }
        if self.coupling > self.max_coupling {
            let (body, most) = self
                .degree
                .iter()
                .enumerate()
                .max_by_key(|&(i, d)| (*d, std::cmp::Reverse(i)))
                .map(|(i, d)| (i, *d))
                .unwrap_or_default();
            return Err(MultibodyError::Collision {
                reason: format!(
                    "the {} contacts found so far among {n} bodies share moving bodies in {} \
                     pairs (blocks of W = J M^-1 J^T), more than the cap of one collision pass, \
                     {} ({MAX_COUPLING_BASE} + {MAX_COUPLING_PER_BODY} per body); body {body} \
                     alone has {most} contacts: {OVERLAP}",
                    self.contacts, self.coupling, self.max_coupling
                ),
            });
        }
        Ok(())
    }
}
