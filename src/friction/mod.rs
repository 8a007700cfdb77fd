//! Friction sets and projections onto them.
//!
//! * [`cone`](project_on_cone): the second-order (Coulomb) cone
//!   `K_mu = { r : ‖r_t‖ <= mu r_n }` and its dual, used by the natural-map error measures
//!   and the cone complementarity problem;
//! * [`sets`]: friction laws as convex sets with their proximal operators (Erleben 2017):
//!   the half-line of normal reactions, the box, the disk (isotropic Coulomb), the ellipse
//!   (anisotropic) and the Coulomb-Contensou ellipsoid; the closest point on an ellipsoid
//!   (Erleben 2017 §4.1) by the paper's bisection or by a safeguarded Newton method
//!   ([`project_on_ellipsoid_with`]).

mod cone;
mod ellipsoid;
pub mod sets;

pub use cone::{in_cone, in_dual_cone, project_on_cone, project_on_dual_cone};
pub use sets::{
    BoxSet, ConvexSet, Disk, Ellipsoid, EllipsoidCase, EllipsoidMethod, EllipsoidReport,
    FrictionLaw, HalfLine, ellipsoid_g, project_on_ellipsoid, project_on_ellipsoid_with,
};
