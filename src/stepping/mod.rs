//! Simulation over time: the time steppers that move a [`crate::world::World`], the
//! error correction, constraint force mixing and the diagnostics of each step.
//!
//! | module | what | source |
//! |---|---|---|
//! | `settings` | [`Settings`], [`Stepper`], [`Correction`] | — |
//! | [`posed`] | the step's contact problem: `W + gamma I`, the free velocity, restitution, gaps | Erleben 2007 eq. 21-22, 41, 45a-b |
//! | [`dynamics`] | `dynamics()`: solve, `u^{t+1}` | Erleben 2007 eq. 45a-d |
//! | [`velocity`] | the velocity-based scheme | Erleben 2007 eq. 45; 2009 slides eq. 11-18 |
//! | [`moreau`] | Moreau's mid-point scheme | Erleben 2017 eq. 41-42 |
//! | [`correction`] | the position LCP; projection and post-stabilisation | Erleben 2007 eq. 46; 2017 eq. 43-51 |
//! | [`shock`] | stack layers, shock propagation, the VSP scheme | Erleben 2007 section 4, fig. 12-14 |
//! | [`cfm`] | damping / constraint force mixing `A + gamma I` | Erleben 2007 eq. 41-44 |
//! | [`diagnostics`] | energies, momentum, [`StepRecord`] (JSON Lines, CSV) | — |
//! | `simulation` | [`Simulation`]: the loop and the state between steps | — |
//!
//! Any method of the solver registry that solves a local friction problem is the
//! step's contact solver ([`Settings::method`]), warm-started from the previous step's
//! impulses of the contacts that persist.
//!
//! Checked by `tests/laws/time_stepping.rs`.

pub mod cfm;
pub mod correction;
pub mod diagnostics;
pub mod dynamics;
mod error;
pub mod moreau;
pub mod posed;
mod settings;
pub mod shock;
mod simulation;
pub mod velocity;

pub use diagnostics::StepRecord;
pub use error::SimulationError;
pub use settings::{AUTO_MAX_CONTACTS, Correction, Settings, Stepper};
pub use simulation::{Simulation, detect_at};
