//! [`Held`]: data a problem view either borrows from the problem it views or owns.

use std::ops::Deref;

/// Borrowed from the problem a view was made from, or owned by the view (when the view
/// had to change it, or was built from parts). Like `std::borrow::Cow`, but for types
/// that cannot be cloned (a factorisation), so it never copies behind the user's back.
#[derive(Debug)]
pub(crate) enum Held<'a, T> {
    Borrowed(&'a T),
    Owned(T),
}

impl<T> Deref for Held<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        match self {
            Held::Borrowed(t) => t,
            Held::Owned(t) => t,
        }
    }
}

impl<T: Clone> Held<'_, T> {
    /// The data, made owned first (one copy) if it was borrowed.
    pub(crate) fn to_mut(&mut self) -> &mut T {
        if let Held::Borrowed(t) = *self {
            *self = Held::Owned(t.clone());
        }
        match self {
            Held::Owned(t) => t,
            Held::Borrowed(_) => unreachable!("made owned just above"),
        }
    }
}

impl<T> From<T> for Held<'_, T> {
    fn from(t: T) -> Self {
        Held::Owned(t)
    }
}
