//! # nonsmooth
//!
//! The verified reference for the numerical methods that compute contact forces in
//! rigid-body simulation: each method derived in the book, written here once, and checked
//! by property tests and on real problems made by other people's software.
//!
//! ## Map: modules, book chapters, papers
//!
//! | module | what | book chapter | source |
//! |---|---|---|---|
//! | [`problem`] | the problem model: `Lcp`, `BoxedLcp`, `FrictionContact` (Coulomb, CCP), `GlobalFrictionContact` with its `MassMatrix` (validated and factorised once), `AnyProblem`, `Provenance`, the contact laws (`ContactLaw`, the natural map); depends on no solver | *From Newton-Euler to the contact problem*; *Friction laws as convex sets and proximal operators* | Erleben 2007 §2; Erleben 2009 slides eq. 1-20; Erleben 2017 §3 |
//! | [`multibody`] | rigid bodies, contact Jacobians, generated scenes | *From Newton-Euler to the contact problem* | Erleben 2007 eq. 1-26; Erleben 2017 app. A |
//! | [`world`] | shapes, materials, ground; collision detection (parry3d-f64) to contacts with gap and identity; the step's problem | *The world and collision detection* | Erleben 2007 eq. 2, 6, 16-26, 45 |
//! | [`implicit`] | position-level implicit time stepping by non-smooth Newton: rows of joints, contacts, friction (the compliance `W`), Neo-Hookean tetrahedra; the complementarity preconditioner, the Schur complement, PCR and other inner solvers, geometric stiffness; its scenes | *Implicit time stepping at the position level* and its sub-chapters | Macklin et al. 2019 (NOTES 2) |
//! | [`ncp`] | minimum map, Fischer-Burmeister, nested boxed form, B-subdifferentials | *Complementarity and its reformulations* | Erleben 2009 slides eq. 23-34; Silcowitz et al. 2009 eq. 21-31 |
//! | [`merit`] | LCP error, fc3d natural-map error (both normalisations), CCP error, merits | *Reading real problems and judging an answer* | Siconos 4.4; Acary et al. 2018 |
//! | [`splitting`] | projected Jacobi / Gauss-Seidel / SOR, blocked Gauss-Seidel, velocity-space Gauss-Seidel | *Splitting methods and projected Gauss-Seidel* | Erleben 2009 slides eq. 20-37; Erleben 2007 eq. 28-33 |
//! | [`newton`] | Fischer-Newton, minimum-map Newton, NNCG; B-subdifferential assembly, GMRES, line search, semi-staggered start; semismooth Newton on the friction cone (Alart-Curnier), optionally PROX-started | *Newton's method for nonsmooth equations* and its sub-chapters, *Newton on the friction cone* | Silcowitz et al. 2009; Niebe and Erleben 2015; Silcowitz-Hansen et al. 2010; Acary, Bremond, Huber 2018 |
//! | [`generic`] | solvers of the generic mechanical problem (equality, limit, friction-loss and elliptic-cone contact blocks of any dimension): semismooth Newton on the scaled natural map (`gmp-newton`), projected block Gauss-Seidel (`gmp-pgs`); the second-order cone projection of any dimension and its B-subdifferential | *The generic mechanical problem* | Acary, Brémond, Huber 2018 §2; Fukushima, Luo, Tseng 2001; Hayashi, Yamashita, Fukushima 2005 |
//! | [`proximal_point`] | the proximal-point method of Siconos (`ppa`): outer regularisation `W + ρ I`, `q - ρ r^k`, inner semismooth Newton on the cone, `ρ` adapted to the error | *The proximal-point method* | Rockafellar 1976; Acary, Bremond, Huber 2018; Siconos 4.4 `fc3d_proximal` |
//! | [`pivoting`] | Lemke's method (lexicographic) | *Pivoting: Lemke's method* | Lemke 1965; Cottle, Pang, Stone 1992 §4.4 |
//! | [`friction`] | the friction cone and its projection; friction laws as convex sets (half-line, box, disk, ellipse, Coulomb-Contensou ellipsoid) and the closest point on an ellipsoid | *Friction laws as convex sets and proximal operators*; *The closest point on an ellipsoid* | Acary et al. 2018; Erleben 2017 §3, §4.1 |
//! | [`prox`] | the proximal view of any problem (`ProxProblem`, borrowing it); PROX Jacobi and Gauss-Seidel, r-factor strategies | *Friction laws as convex sets and proximal operators*; *PROX schemes and r-factors*; *PROX experiments* | Erleben 2017 §3-4.2 |
//! | [`check`] | judging an engine's answer: `check` gives the verdict, the field's error measures overall and per contact (with labels), and the distance `‖r - r*‖` to a reference solved to 1e-12 (uniqueness stated), in the data's units (velocity or acceleration level) | *Reading real problems and judging an answer* | Siconos 4.4; Acary et al. 2018 |
//! | [`bridge`] | engines checked in process (feature `rapier`: a `rapier3d-f64` step's contacts as the velocity-level Coulomb problem, rapier's impulses judged by `check`) | *The rapier bridge* | rapier3d-f64 0.36.1 source |
//! | [`io`] | Siconos `.dat`, FCLIB HDF5, OpenTissue `.dlm`, MuJoCo JSON, the project's JSON | *Reading real problems and judging an answer* | `data/README.md` |
//! | [`policy`] | what wraps an iteration: warm starting (by contact identity), the semi-staggered start, PROX's rollback test, the cone Newton's hybrid fallback | *The solver interface* | Erleben 2007 §3; Silcowitz et al. 2009 §3; Erleben 2017 Alg. 1-2; Acary et al. 2018 |
//! | [`composite`] | two methods in turn: NSGS then the cone Newton (`gs-nsn`), PROX then the cone Newton (`prox-nsn`) | *Newton on the friction cone*; *Warm starting* | Acary, Bremond, Huber 2018 |
//! | [`solver`] | the one interface: the `Method` trait (prepare, start, one iteration), the loop `solve`, `Params`, `Solved`, `SolveError`, observers | *The solver interface* | — |
//! | [`registry`] | every method by name with its options, `auto`, and the one `solve` the command line and Python call | *The solver interface*; *The command line* | — |
//! | [`error`], [`norm`], [`rng`] | `ProblemError`; norms without overflow (`SumSquares`, `scaled_norm`); the SplitMix64 generator | — | LAPACK `dnrm2`; Steele, Lea, Flood 2014 |
//! | [`fuzz`] | the fuzz targets' bodies, replayed by `tests/fuzz_replay.rs` | *Reliability* | — |
//!
//! ## Calling a solver
//! Every method implements [`solver::Method`] (prepare, start, one iteration) and runs in
//! one loop, [`solver::solve`]; the [`registry`] calls any of them by name, the
//! same way for every method and problem type (what the command line does):
//!
//! ```
//! use nalgebra::{DMatrix, DVector};
//! use nonsmooth::problem::AnyProblem;
//! use nonsmooth::problem::{FrictionContact, FrictionKind};
//! use nonsmooth::registry::{Choice, solve};
//! use nonsmooth::solver::{Params, no_observer};
//! // One contact pressed into the ground and pushed sideways: it sticks, r = -W⁻¹ q.
//! let w = DMatrix::from_row_slice(3, 3, &[2.0, 0.1, 0.0, 0.1, 1.0, 0.0, 0.0, 0.0, 1.0]);
//! let q = DVector::from_vec(vec![-1.0, 0.2, 0.0]);
//! let mu = DVector::from_vec(vec![0.5]);
//! let problem = AnyProblem::Friction(
//!     FrictionContact::new(w.into(), q, mu, FrictionKind::Coulomb).unwrap());
//! let params = Params { tol: 1e-10, ..Default::default() };
//! for method in ["nsgs", "prox-gs", "nsn"] {
//!     let choice: Choice = method.parse().unwrap();
//!     let out = solve(&problem, &choice, DVector::zeros(3), &params, &mut no_observer());
//!     assert_eq!(out.status(), "converged");
//!     assert!((out.x[0] - 1.02 / 1.99).abs() < 1e-8);
//! }
//! ```
//!
//! ## Architecture
//!
//! The modules stand on floors: a module imports from its own floor and the floors below,
//! never from above, and no two modules import each other, directly or through others.
//! `tests/architecture.rs` reads this table, draws the imports of every file under `src/`
//! (`crate::module` paths outside comments and test modules) and fails on a module missing
//! from the table, an import from a higher floor, or a circle; it writes the drawing to
//! the book (`generated/architecture.txt`). There are no exceptions.
//!
//! | floor | modules | what they hold |
//! |---|---|---|
//! | 0 | `error` `names` `norm` `rng` `friction` | errors, names of choices, norms, random numbers, the friction cone and its projections: nothing from the crate |
//! | 1 | `matrix` `linalg` | dense and sparse matrices, factorisations |
//! | 2 | `problem` | the problem model |
//! | 3 | `ncp` `merit` `certificate` `multibody` `policy` | reformulations, error measures, certificates, rigid bodies, leaf policies |
//! | 4 | `solver` | the vocabulary every method uses: `Method`, the loop, `Params`, `Solved` |
//! | 5 | `splitting` `pivoting` `newton` `prox` `generic` `proximal_point` | the method families |
//! | 6 | `composite` `registry` | methods made of methods; every method by name |
//! | 7 | `check` `world` `implicit` `stepping` | judging answers, worlds and collision, time stepping |
//! | 8 | `io` `bridge` | reading and writing problems; engines' steps in process |
//! | 9 | `cli` `fuzz` | the front ends |
//!
//! ## Conventions
//! Rows `[n, t1, t2]` per contact; a positive normal velocity separates; units and signs
//! are stated once in [`problem`].

// `!(x > 0.0)` is written on purpose throughout: unlike `x <= 0.0` it is also true for NaN,
// so a check that guards a division rejects NaN too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
#![warn(missing_docs)]

pub mod bridge;
pub mod certificate;
pub mod check;
#[doc(hidden)]
pub mod cli;
pub mod composite;
pub mod error;
pub mod friction;
pub mod fuzz;
pub mod generic;
pub mod implicit;
pub mod io;
pub mod linalg;
pub mod matrix;
pub mod merit;
pub mod multibody;
mod names;
pub mod ncp;
pub mod newton;
pub mod norm;
pub mod pivoting;
pub mod policy;
pub mod problem;
pub mod prox;
pub mod proximal_point;
pub mod registry;
pub mod rng;
pub mod solver;
pub mod splitting;
pub mod stepping;
pub mod world;

// The book's chapters, compiled as doctests so that any Rust block in them is checked by
// `cargo test` (GUIDE section 4). Tag non-Rust fences (`text`, `toml`, `console`); show
// listings from compiled examples with `{{#include}}` inside `rust,ignore` blocks.
// `tests/book/sources.rs` fails if a chapter with a runnable Rust block is missing here.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct Readme;
#[cfg(doctest)]
#[doc = include_str!("../book/src/introduction.md")]
pub struct BookIntroduction;
#[cfg(doctest)]
#[doc = include_str!("../book/src/conventions.md")]
pub struct BookConventions;
#[cfg(doctest)]
#[doc = include_str!("../book/src/contact-problem.md")]
pub struct BookContactProblem;
#[cfg(doctest)]
#[doc = include_str!("../book/src/complementarity.md")]
pub struct BookComplementarity;
#[cfg(doctest)]
#[doc = include_str!("../book/src/splitting.md")]
pub struct BookSplitting;
#[cfg(doctest)]
#[doc = include_str!("../book/src/newton-cone.md")]
pub struct BookNewtonCone;
#[cfg(doctest)]
#[doc = include_str!("../book/src/real-problems.md")]
pub struct BookRealProblems;
#[cfg(doctest)]
#[doc = include_str!("../book/src/command-line.md")]
pub struct BookCommandLine;
#[cfg(doctest)]
#[doc = include_str!("../book/src/proximal-operators.md")]
pub struct BookProximalOperators;
#[cfg(doctest)]
#[doc = include_str!("../book/src/prox-schemes.md")]
pub struct BookProxSchemes;
#[cfg(doctest)]
#[doc = include_str!("../book/src/prox-experiments.md")]
pub struct BookProxExperiments;
