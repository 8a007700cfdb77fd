//! Macklin, Erleben, Müller, Chentanez, Jeschke, Makoviychuk 2019, *Non-smooth Newton
//! methods for deformable multi-body dynamics*: implicit time stepping at the position
//! level, solved by a non-smooth Newton method.
//!
//! The paper's equations were lost in the text this project has; `NOTES.md` section 2
//! rebuilds them, and every rebuilt piece is checked by a property test (the book chapter
//! *Implicit time stepping at the position level* lists which and how).
//!
//! | file | idea | paper |
//! |---|---|---|
//! | [`state`] | `u`, `q(u) = q⁻ + h G u`, `M`, `ũ` | §5, §9.4 |
//! | [`model`] | particles, joints, elements beside the world's rigid bodies | §3, §9 |
//! | [`rows`] | constraint values and Jacobians at an iterate | §3, §5 |
//! | [`friction`] | smooth isotropic friction as a fixed point: the compliance `W` | §4.3, app. A |
//! | [`preconditioner`] | the complementarity preconditioner `r_n`, `r_f` | §7 |
//! | [`system`] | the Newton system, its Schur complement, the stiffness form | §6 |
//! | [`linear`] | inner solvers: PCR, CG, Jacobi, Gauss-Seidel, direct | §8.2 |
//! | [`geometric_stiffness`] | the diagonal secant approximation of `K` | §8.3 |
//! | [`neo_hookean`] | tetrahedra with a hyperelastic energy in compliance form | §9.1 |
//! | [`newton`] | the damped Newton iteration of one step | §6, §8, Alg. 1 |
//! | [`step`] | a time step of a world and a model | Alg. 1 |

pub mod friction;
pub mod geometric_stiffness;
pub mod linear;
pub mod model;
pub mod neo_hookean;
pub mod newton;
pub mod preconditioner;
pub mod rows;
pub mod scenes;
pub mod state;
pub mod step;
pub mod system;
pub mod tet_mesh;

pub use model::{Anchor, Hinge, Joint, Model, Node, Particle};
pub use newton::{ImplicitError, ImplicitOptions, NewtonReport};
pub use system::{FrictionForm, Ncp};
