//! The contact problem of one time step: the world's contacts assembled by
//! [`crate::multibody::Assembly`] into `J`, `M`, `f_ext` and the free velocity, and from
//! them the local problem `u = W r + q` and the global one `M v = q + H r`
//! (Erleben 2007 eq. 10-22).
//!
//! The gaps are carried along but do not enter `q` here: the plain velocity-level
//! problem of eq. 20 asks only that touching contacts do not approach. How gaps and
//! penetrations enter (a `gap / dt` term, the correction of eq. 46, post-stabilisation)
//! is the time stepper's choice.

use nalgebra::DVector;

use super::bodies::World;
use super::contact::{ContactId, WorldContact, identities};
use crate::multibody::{Assembly, Contact, MultibodyError, StepParams};
use crate::problem::{AnyProblem, FrictionContact, FrictionKind, GlobalFrictionContact};

/// The contacts of a step and their assembly.
#[derive(Debug, Clone)]
pub struct StepProblem {
    /// The contacts, sorted by identity; contact `k` owns rows `3k..3k+3` of the problems.
    pub contacts: Vec<WorldContact>,
    /// `J`, `M`, `u`, `f_ext`, `b` of the step.
    pub assembly: Assembly,
}

impl StepProblem {
    /// The local problem (Erleben 2007 eq. 20): `W = J M^-1 J^T`, `q = J u_free + b`.
    ///
    /// # Errors
    /// As [`Assembly::local`].
    pub fn local(&self) -> Result<FrictionContact, MultibodyError> {
        self.assembly.local()
    }

    /// The global problem (Erleben 2007 eq. 16-19): `M v = q + J^T r`, `u = J v + b`.
    ///
    /// # Errors
    /// As [`Assembly::global`].
    pub fn global(&self) -> Result<GlobalFrictionContact, MultibodyError> {
        self.assembly.global()
    }

    /// The local problem as an [`AnyProblem`], ready for
    /// [`crate::registry::solve`] and the writers of [`crate::io`].
    ///
    /// # Errors
    /// As [`Assembly::local`].
    pub fn any_local(&self) -> Result<AnyProblem, MultibodyError> {
        Ok(AnyProblem::Friction(self.local()?))
    }

    /// The global problem as an [`AnyProblem`].
    ///
    /// # Errors
    /// As [`Assembly::global`].
    pub fn any_global(&self) -> Result<AnyProblem, MultibodyError> {
        Ok(AnyProblem::Global(self.global()?))
    }

    /// The identities of the contacts, in order (the keys of
    /// [`crate::policy::warm_start::by_identity`]).
    pub fn ids(&self) -> Vec<ContactId> {
        identities(&self.contacts)
    }

    /// The gaps of the contacts in m (negative = penetration).
    pub fn gaps(&self) -> DVector<f64> {
        DVector::from_iterator(self.contacts.len(), self.contacts.iter().map(|c| c.gap))
    }
}

impl World {
    // ANCHOR: contact_problem
    /// Collision detection ([`World::contacts`]) and the assembly of the step's contact
    /// problem with time step `dt` (s), the world's gravity and Coulomb friction.
    ///
    /// # Errors
    /// As [`World::contacts`] and [`Assembly::new`] ([`MultibodyError::NonPositive`] for
    /// `dt <= 0`).
    pub fn contact_problem(&self, dt: f64) -> Result<StepProblem, MultibodyError> {
        self.contact_problem_with(&StepParams {
            dt,
            gravity: *self.gravity(),
            kind: FrictionKind::Coulomb,
            ..StepParams::default()
        })
    }
    // ANCHOR_END: contact_problem

    /// As [`World::contact_problem`] with explicit step parameters (the friction law, or
    /// a gravity other than the world's).
    ///
    /// # Errors
    /// As [`World::contact_problem`].
    pub fn contact_problem_with(&self, step: &StepParams) -> Result<StepProblem, MultibodyError> {
        step.validate()?;
        let contacts = self.contacts()?;
        self.assemble(contacts, step)
    }

    /// The assembly of the step's contact problem from contacts already found (by
    /// [`World::contacts`] at the current poses): what [`World::contact_problem_with`]
    /// does after collision detection, for a time stepper that times the two apart or
    /// reuses the contacts found at the end of the previous step.
    ///
    /// # Errors
    /// As [`Assembly::new`].
    pub fn assemble(
        &self,
        contacts: Vec<WorldContact>,
        step: &StepParams,
    ) -> Result<StepProblem, MultibodyError> {
        let list: Vec<Contact> = contacts.iter().map(|c| c.contact.clone()).collect();
        let assembly = Assembly::new(self.bodies(), &list, step)?;
        Ok(StepProblem { contacts, assembly })
    }
}
