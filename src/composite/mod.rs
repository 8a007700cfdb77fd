//! Composite methods: two methods of the crate run in turn, a cheap first-order method
//! that finds the contact states and a Newton method that converges from where it
//! stopped. They sit above both families they combine ([`crate::newton`],
//! [`crate::splitting`], [`crate::prox`]); the leaf policies they share with those
//! families (warm starting, rollback, fallback) stay in [`crate::policy`].
//!
//! | method | what runs | the switch | registry name | source |
//! |---|---|---|---|---|
//! | [`gs_then_newton`] | NSGS sweeps, then the cone Newton | when a sweep no longer halves the error (the observed rate) | `gs-nsn` | Acary, Bremond, Huber 2018; Jean 1999 |
//! | [`prox_then_newton`] | PROX Gauss-Seidel, then the cone Newton | at a loose tolerance | `prox-nsn` | Acary, Bremond, Huber 2018; Erleben 2017 Alg. 2 |

pub mod gs_then_newton;
pub mod prox_then_newton;
