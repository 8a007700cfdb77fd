//! A generated [`Scene`]: its bodies, box shapes, contacts and step parameters, and the
//! problems and provenance made from it.

use std::collections::BTreeMap;

use nalgebra::Vector3;

use super::super::MultibodyError;
use super::super::assembly::{Assembly, StepParams};
use super::super::body::RigidBody;
use super::super::contact::Contact;
use crate::problem::Provenance;
use crate::problem::{FrictionContact, GlobalFrictionContact};

/// A multibody scene: bodies, their box shapes, contacts and the step parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// A short name, for example `"box_stack_5"`.
    pub name: String,
    /// What the scene is and its parameters, in words (with units).
    pub description: String,
    /// The bodies (a fixed ground, if any, is body 0).
    pub bodies: Vec<RigidBody>,
    /// The half extents (m) of each body's box, in its body frame (same order as
    /// `bodies`).
    pub half_extents: Vec<Vector3<f64>>,
    /// The contacts.
    pub contacts: Vec<Contact>,
    /// Time step, gravity, friction law.
    pub step: StepParams,
}

impl Scene {
    /// Assembles `J`, `M`, `f_ext`, ... ([`Assembly::new`]).
    ///
    /// # Errors
    /// As [`Assembly::new`].
    pub fn assemble(&self) -> Result<Assembly, MultibodyError> {
        Assembly::new(&self.bodies, &self.contacts, &self.step)
    }

    /// The same scene with torsional friction coefficient `mu_tau` (m) on every contact
    /// ([`Contact::with_torsion`]), for Coulomb-Contensou problems with a fourth row per
    /// contact ([`Assembly::torsion_jacobian`]).
    ///
    /// # Errors
    /// As [`Contact::with_torsion`].
    pub fn with_torsion(mut self, mu_tau: f64) -> Result<Scene, MultibodyError> {
        for c in &mut self.contacts {
            *c = c.clone().with_torsion(mu_tau)?;
        }
        self.description = format!("{}; torsional friction mu_tau {mu_tau} m", self.description);
        Ok(self)
    }

    /// The local problem `u = W r + q` ([`Assembly::local`]).
    ///
    /// # Errors
    /// As [`Assembly::new`] and [`Assembly::local`].
    pub fn local_problem(&self) -> Result<FrictionContact, MultibodyError> {
        self.assemble()?.local()
    }

    /// The global problem `M v = q + H r`, `u = H^T v + b` ([`Assembly::global`]).
    ///
    /// # Errors
    /// As [`Assembly::new`] and [`Assembly::global`].
    pub fn global_problem(&self) -> Result<GlobalFrictionContact, MultibodyError> {
        self.assemble()?.global()
    }

    /// The provenance to store with a problem made from this scene (source
    /// `"nonsmooth::multibody"`, the description, and the units of `r`, `u`, `W`, `q`
    /// for the local problem or `M`, `H`, `q`, `v`, `b` for the global one).
    pub fn provenance(&self, global: bool) -> Provenance {
        let mut units = BTreeMap::new();
        units.insert("r".to_string(), "N s".to_string());
        units.insert("u".to_string(), "m/s".to_string());
        units.insert("mu".to_string(), "1".to_string());
        if global {
            units.insert("M".to_string(), "kg (linear), kg m^2 (angular)".to_string());
            units.insert("H".to_string(), "1 (linear), m (angular)".to_string());
            units.insert("q".to_string(), "N s (linear), N m s (angular)".to_string());
            units.insert("v".to_string(), "m/s (linear), rad/s (angular)".to_string());
            units.insert("b".to_string(), "m/s".to_string());
        } else {
            units.insert("W".to_string(), "m/(N s^2) = 1/kg".to_string());
            units.insert("q".to_string(), "m/s".to_string());
        }
        Provenance {
            source: "nonsmooth::multibody".to_string(),
            description: format!(
                "{}. Contact rows [n, t1, t2], normal from the lower (left) body to the \
                 upper (right) one, positive normal velocity separates; ground at z = 0, \
                 z up. Generalised velocity [v, omega] per non-fixed body.",
                self.description
            ),
            units,
            ..Default::default()
        }
    }
}
