//! Materials: a friction coefficient and a coefficient of restitution per body, the rule
//! that combines two materials into the `mu` and `e` of a contact, and a table of
//! per-pair overrides.
//!
//! The contact problem needs one `mu` per contact (Coulomb's law, Erleben 2007 eq. 5-9)
//! and one `e` (Newton's impact law, eq. 21-22); a body only knows its own surface. The
//! combination rule is a modelling choice, not physics, so it is documented here and
//! can be replaced pair by pair ([`Materials::set_pair`]).

use std::collections::BTreeMap;

use crate::multibody::MultibodyError;

/// The surface of a body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Material {
    /// Coulomb friction coefficient `mu >= 0` (dimensionless).
    pub friction: f64,
    /// Coefficient of restitution `e` in `[0, 1]` (dimensionless; 0 = plastic impact).
    pub restitution: f64,
}

impl Default for Material {
    /// `mu = 0.5`, `e = 0`.
    fn default() -> Self {
        Material {
            friction: 0.5,
            restitution: 0.0,
        }
    }
}

impl Material {
    /// A material with friction `mu` and restitution `e`.
    ///
    /// # Errors
    /// As [`Material::validate`].
    pub fn new(friction: f64, restitution: f64) -> Result<Self, MultibodyError> {
        let m = Material {
            friction,
            restitution,
        };
        m.validate().map(|_| m)
    }

    /// Checks `mu` finite and `>= 0`, `e` in `[0, 1]`.
    ///
    /// # Errors
    /// [`MultibodyError::NonFinite`], [`MultibodyError::NegativeFriction`],
    /// [`MultibodyError::InvalidRestitution`] (with `contact: None`).
    pub fn validate(&self) -> Result<(), MultibodyError> {
        if !self.friction.is_finite() {
            return Err(MultibodyError::NonFinite {
                what: "friction coefficient",
                body: None,
                contact: None,
            });
        }
        if self.friction < 0.0 {
            return Err(MultibodyError::NegativeFriction {
                contact: None,
                mu: self.friction,
            });
        }
        if !(0.0..=1.0).contains(&self.restitution) {
            return Err(MultibodyError::InvalidRestitution {
                contact: None,
                value: self.restitution,
            });
        }
        Ok(())
    }

    // ANCHOR: combine
    /// The material of a contact between surfaces `self` and `other`:
    ///
    /// * friction: the **geometric mean** `sqrt(mu_a mu_b)`. It returns `mu` when both
    ///   surfaces agree, and 0 when either is frictionless (ice is slippery against
    ///   anything), which the arithmetic mean would not; unlike the minimum it still lets
    ///   a rough surface make a smooth one grip a little (the rule of Box2D and Bullet).
    /// * restitution: the **maximum** `max(e_a, e_b)`. A rubber ball bounces on a
    ///   concrete floor and on a wooden one; with the minimum a single plastic ground
    ///   (`e = 0`) would silence every bouncing body of a scene.
    ///
    /// Both rules are symmetric, so the order of the two bodies does not matter.
    pub fn combine(&self, other: &Material) -> Material {
        Material {
            friction: (self.friction * other.friction).sqrt(),
            restitution: self.restitution.max(other.restitution),
        }
    }
    // ANCHOR_END: combine
}

/// The index of a material in a [`Materials`] table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MaterialId(pub usize);

/// The materials of a world, and the pairs whose contact material is given explicitly
/// instead of by [`Material::combine`].
///
/// Material `0` ([`MaterialId::default`]) always exists: [`Material::default`].
#[derive(Debug, Clone, PartialEq)]
pub struct Materials {
    list: Vec<Material>,
    pairs: BTreeMap<(MaterialId, MaterialId), Material>,
}

impl Default for MaterialId {
    /// Material `0`, the table's default material.
    fn default() -> Self {
        MaterialId(0)
    }
}

impl Default for Materials {
    fn default() -> Self {
        Materials {
            list: vec![Material::default()],
            pairs: BTreeMap::new(),
        }
    }
}

impl Materials {
    /// Adds a material and returns its id.
    ///
    /// # Errors
    /// As [`Material::validate`].
    pub fn add(&mut self, m: Material) -> Result<MaterialId, MultibodyError> {
        m.validate()?;
        self.list.push(m);
        Ok(MaterialId(self.list.len() - 1))
    }

    /// The material `id`, if it exists.
    pub fn get(&self, id: MaterialId) -> Option<&Material> {
        self.list.get(id.0)
    }

    /// How many materials there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Always `false`: material 0 always exists.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Checks that `id` names a material.
    ///
    /// # Errors
    /// [`MultibodyError::UnknownMaterial`].
    pub fn check(&self, id: MaterialId) -> Result<(), MultibodyError> {
        if id.0 < self.list.len() {
            Ok(())
        } else {
            Err(MultibodyError::UnknownMaterial {
                material: id.0,
                materials: self.list.len(),
            })
        }
    }

    /// Replaces material `id` (for example material 0, the default of every body that
    /// names no other).
    ///
    /// # Errors
    /// [`MultibodyError::UnknownMaterial`], or as [`Material::validate`].
    pub fn set(&mut self, id: MaterialId, m: Material) -> Result<(), MultibodyError> {
        self.check(id)?;
        m.validate()?;
        self.list[id.0] = m;
        Ok(())
    }

    /// The materials with their ids, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (MaterialId, &Material)> {
        self.list
            .iter()
            .enumerate()
            .map(|(i, m)| (MaterialId(i), m))
    }

    /// The per-pair overrides set by [`Materials::set_pair`], as `(a, b, material)` with
    /// `a <= b`, sorted.
    pub fn pairs(&self) -> impl Iterator<Item = (MaterialId, MaterialId, &Material)> {
        self.pairs.iter().map(|(&(a, b), m)| (a, b, m))
    }

    /// Overrides the contact material of the (unordered) pair `a`, `b`.
    ///
    /// # Errors
    /// [`MultibodyError::UnknownMaterial`], or as [`Material::validate`].
    pub fn set_pair(
        &mut self,
        a: MaterialId,
        b: MaterialId,
        m: Material,
    ) -> Result<(), MultibodyError> {
        self.check(a)?;
        self.check(b)?;
        m.validate()?;
        self.pairs.insert(key(a, b), m);
        Ok(())
    }

    /// The contact material of `a` against `b`: the override if one was set, otherwise
    /// [`Material::combine`]. Symmetric in `a` and `b`. Assumes both ids exist
    /// ([`Materials::check`]); an unknown id falls back to [`Material::default`].
    pub fn pair(&self, a: MaterialId, b: MaterialId) -> Material {
        if let Some(m) = self.pairs.get(&key(a, b)) {
            return *m;
        }
        let ma = self.get(a).copied().unwrap_or_default();
        let mb = self.get(b).copied().unwrap_or_default();
        ma.combine(&mb)
    }
}

fn key(a: MaterialId, b: MaterialId) -> (MaterialId, MaterialId) {
    if a <= b { (a, b) } else { (b, a) }
}
