//! The book and the README: includes, listings, figures, numbers quoted in prose, "Try it"
//! commands, and the README's result tables.

#[path = "../common/mod.rs"]
mod common;

mod aids;
mod geometry_figures;
mod listings;
mod numbers;
mod order;
mod readme;
mod sources;
mod text;
mod try_it;
