//! [`Choice`]: a method with its options, set from text or JSON and checked as it is set;
//! [`OptionError`]: why a method or an option was refused.

use std::fmt;
use std::str::FromStr;

use serde_json::{Map, Value};

use std::sync::Arc;

use super::options::Configured;
use super::{MethodSpec, find, names};
use crate::problem::{AnyProblem, ProblemError};

/// Why a method or one of its options was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionError {
    /// No method has this name.
    UnknownMethod {
        /// The name given.
        name: String,
    },
    /// The method has no option of this name (it would be ignored).
    UnknownOption {
        /// The method.
        method: &'static str,
        /// The option given.
        option: String,
        /// The options the method has.
        expected: Vec<String>,
    },
    /// The value cannot be read as the option's type, or is out of its range.
    InvalidValue {
        /// The method.
        method: &'static str,
        /// The option.
        option: String,
        /// Why, with what is expected.
        reason: String,
    },
    /// A `key=value` setting without `=`.
    Malformed {
        /// The text given.
        text: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::UnknownMethod { name } => write!(
                f,
                "unknown method `{name}` (expected one of {})",
                names().join(", ")
            ),
            OptionError::UnknownOption { method, option, .. } if *method == "auto" => write!(
                f,
                "`auto` picks a method per problem and takes no options; name a method \
                 (--method NAME) to set `{option}`"
            ),
            OptionError::UnknownOption {
                method,
                option,
                expected,
            } if expected.is_empty() => write!(
                f,
                "method `{method}` has no option `{option}` (it has no options)"
            ),
            OptionError::UnknownOption {
                method,
                option,
                expected,
            } => write!(
                f,
                "method `{method}` has no option `{option}` (its options: {})",
                expected.join(", ")
            ),
            OptionError::InvalidValue {
                method,
                option,
                reason,
            } => write!(f, "option `{option}` of method `{method}`: {reason}"),
            OptionError::Malformed { text } => {
                write!(f, "`{text}` is not an option setting (expected key=value)")
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// A method of the registry with its options: what a solve runs.
#[derive(Debug, Clone)]
pub struct Choice {
    pub(super) spec: &'static MethodSpec,
    pub(super) settings: Map<String, Value>,
    /// `settings` read as the method's options struct (defaults for the rest), checked:
    /// the method, ready to run.
    pub(super) options: Arc<dyn Configured>,
}

/// `settings` read as `spec`'s options and checked; a refusal names `key` when the
/// method's check names no option.
fn read(
    spec: &'static MethodSpec,
    settings: &Map<String, Value>,
    key: &str,
) -> Result<Arc<dyn Configured>, OptionError> {
    (spec.read)(settings).map_err(|e| {
        let (option, reason) = match e {
            ProblemError::InvalidOption { option, reason, .. } => (option, reason),
            e => (String::new(), e.to_string()),
        };
        OptionError::InvalidValue {
            method: spec.name,
            option: if option.is_empty() {
                key.into()
            } else {
                option
            },
            reason,
        }
    })
}

impl PartialEq for Choice {
    fn eq(&self, other: &Self) -> bool {
        self.spec.name == other.spec.name && self.settings == other.settings
    }
}

impl FromStr for Choice {
    type Err = OptionError;
    fn from_str(s: &str) -> Result<Self, OptionError> {
        Choice::new(s)
    }
}

impl Choice {
    /// The method called `name` with its default options.
    ///
    /// # Errors
    /// [`OptionError::UnknownMethod`].
    pub fn new(name: &str) -> Result<Choice, OptionError> {
        let spec = find(name)?;
        let settings = Map::new();
        let options = read(spec, &settings, "")?;
        Ok(Choice {
            spec,
            settings,
            options,
        })
    }

    /// The method.
    pub fn spec(&self) -> &'static MethodSpec {
        self.spec
    }

    /// The method's name.
    pub fn name(&self) -> &'static str {
        self.spec.name
    }

    /// The options set (the others have their defaults).
    pub fn settings(&self) -> &Map<String, Value> {
        &self.settings
    }

    /// All the method's options, defaults with the settings over them.
    pub fn options(&self) -> Value {
        let mut all = match self.spec.default_options() {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        for (k, v) in &self.settings {
            all.insert(k.clone(), v.clone());
        }
        Value::Object(all)
    }

    /// With option `key` (a field of the method's options; `-` may stand for `_`) set to
    /// the JSON `value`.
    ///
    /// # Errors
    /// [`OptionError::UnknownOption`] for a field the method does not have,
    /// [`OptionError::InvalidValue`] for a value of the wrong type or out of range.
    pub fn set(mut self, key: &str, value: Value) -> Result<Choice, OptionError> {
        let key = key.replace('-', "_");
        let expected = self.spec.option_names();
        if !expected.contains(&key) {
            return Err(OptionError::UnknownOption {
                method: self.spec.name,
                option: key,
                expected,
            });
        }
        let mut settings = self.settings.clone();
        settings.insert(key.clone(), value);
        self.options = read(self.spec, &settings, &key)?;
        self.settings = settings;
        Ok(self)
    }

    /// [`Choice::set`] from text: JSON if it reads as JSON (`1.5`, `true`, `null`,
    /// `"text"`), otherwise the text as a string (`global=5`, `gmres`).
    ///
    /// # Errors
    /// As [`Choice::set`].
    pub fn set_text(self, key: &str, text: &str) -> Result<Choice, OptionError> {
        let value =
            serde_json::from_str::<Value>(text).unwrap_or_else(|_| Value::String(text.into()));
        self.set(key, value)
    }

    /// [`Choice::set_text`] from `key=value`.
    ///
    /// # Errors
    /// [`OptionError::Malformed`] without `=`, and as [`Choice::set`].
    pub fn set_pair(self, pair: &str) -> Result<Choice, OptionError> {
        let (k, v) = pair.split_once('=').ok_or_else(|| OptionError::Malformed {
            text: pair.to_string(),
        })?;
        self.set_text(k.trim(), v.trim())
    }

    /// The method that runs on `problem`: the choice itself (`auto` is a strategy of its
    /// own, [`super::auto`], whose statistics name the methods it ran).
    pub fn resolve(&self, problem: &AnyProblem) -> Choice {
        let _ = problem;
        self.clone()
    }

    /// The iteration cap when none is given ([`MethodSpec::default_max_iter`]).
    pub fn default_max_iter(&self) -> usize {
        self.spec.default_max_iter
    }
}
