//! What can go wrong in a simulation step.

use std::fmt;

use crate::multibody::MultibodyError;

/// A simulation step that could not be taken. The world is left as it was before the
/// step (nothing is half-updated).
#[derive(Debug, Clone, PartialEq)]
pub enum SimulationError {
    /// A setting is out of range.
    Settings {
        /// Which setting and why.
        reason: String,
    },
    /// The world is invalid, collision detection failed, or the assembly refused it.
    World {
        /// The step (0-based) that failed.
        step: usize,
        /// What the world reported.
        source: MultibodyError,
    },
    /// A solver refused the step's problem or broke down (a singular system, a
    /// non-finite iterate); a solve that only reached its cap is not an error.
    Solve {
        /// The step (0-based) that failed.
        step: usize,
        /// `"contact solve"`, `"correction"` or `"stack layers"` (a malformed contact graph,
        /// [`GraphError`](super::shock::GraphError)).
        stage: &'static str,
        /// The solver's message.
        message: String,
    },
}

impl fmt::Display for SimulationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimulationError::Settings { reason } => write!(f, "invalid setting: {reason}"),
            SimulationError::World { step, source } => write!(f, "step {step}: {source}"),
            SimulationError::Solve {
                step,
                stage,
                message,
            } => write!(f, "step {step}: the {stage} failed: {message}"),
        }
    }
}

impl std::error::Error for SimulationError {}

impl SimulationError {
    /// A world error at step `step`.
    pub(crate) fn world(step: usize) -> impl FnOnce(MultibodyError) -> SimulationError {
        move |source| SimulationError::World { step, source }
    }
}
