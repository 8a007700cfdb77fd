//! [`MethodOptions`]: what every method's options struct is, so that the
//! [registry](crate::registry) can read it by name from text or JSON and check it.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::problem::ProblemError;

/// The options struct of a method: serde both ways (every field optional, unknown keys
/// refused), a default, and a range check written beside the struct.
///
/// The registry reads a method's settings over its defaults as this type and calls
/// [`MethodOptions::check`] once, when the choice is made; the method's own free function
/// (`nsgs`, `cone_newton`, ...) calls it again before it runs.
pub trait MethodOptions:
    Serialize + DeserializeOwned + Default + Clone + std::fmt::Debug + Send + Sync + 'static
{
    /// Checks every value against its range (see the fields of the struct).
    ///
    /// # Errors
    /// [`ProblemError::InvalidOption`] naming the method and the first value out of range.
    fn check(&self) -> Result<(), ProblemError> {
        Ok(())
    }
}
