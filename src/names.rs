//! The names of the crate's choices (scenes, steppers, corrections, inner solvers, ...)
//! written once: [`named!`] turns one table of `Variant => "name"` pairs of a field-less
//! enum into its `ALL`, `name` and `from_name`, which the command line's help texts and
//! errors list.

/// Writes `ALL` (every value, in the table's order), `name` (the name on the command line
/// and in files) and `from_name` (its inverse, `None` for any other text) for a field-less
/// enum from one table of `Variant => "name"` pairs.
macro_rules! named {
    ($ty:ident { $($variant:ident => $name:expr),+ $(,)? }) => {
        impl $ty {
            /// Every value, in the order of its table of names.
            pub const ALL: [$ty; [$($name),+].len()] = [$($ty::$variant),+];

            /// The name on the command line and in files.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }

            /// The value called `name` (as [`Self::name`] gives it), `None` for any other
            /// text.
            pub fn from_name(name: &str) -> Option<$ty> {
                Self::ALL.into_iter().find(|v| v.name() == name)
            }
        }
    };
}

pub(crate) use named;
