//! Policies: what wraps an iteration. A method's iteration (a sweep, a Newton step, a
//! pivot) is the method's own; *when* to start it from where, when to undo it, when to
//! hand over to another method or fall back to a safer one are decisions that several
//! methods share and that a time stepper tunes. They live here, one per file, each with
//! its source. Methods that hand over to another method (PROX then Newton, Gauss-Seidel
//! then Newton) are methods of their own, in [`crate::composite`].
//!
//! | policy | what it decides | used by | source |
//! |---|---|---|---|
//! | [`warm_start`] | the first iterate: a given answer (checked), or the previous step's impulses of the contacts that persist, matched by identity | the command line's `--warm-start`; time steppers | Erleben 2007 §3; Silcowitz et al. 2009 §3 |
//! | [`staggered`] | the semi-staggered start: friction off until the normal impulses settle | Fischer-Newton ([`crate::newton::FischerNewtonOptions::start`]) | Silcowitz, Niebe, Erleben 2009 §3 |
//! | [`rollback`] | whether a PROX sweep is kept, or undone with the r-factors shrunk | PROX ([`crate::prox::ProxOptions::window`]) | Erleben 2017 Alg. 1-2; Grippo et al. 1986 |
//! | [`fallback`] | what a Newton iteration does when its line search fails: Gauss-Seidel sweeps (hybrid) or a gradient step | the cone Newton ([`crate::newton::ConeNewtonOptions::gs_sweeps`]) | Acary, Bremond, Huber 2018 |

pub mod fallback;
pub mod rollback;
pub mod staggered;
pub mod warm_start;
