//! The standing adversarial corpus (see `corpus.rs`) and its runner (see `run.rs`).
#![allow(dead_code)]

pub mod args;
pub mod corpus;
pub mod documents;
pub mod judge;
pub mod rng;
pub mod run;
pub mod seeds;
