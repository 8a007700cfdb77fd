//! Friction laws as convex sets, each with its Euclidean projection (its proximal operator,
//! Erleben 2017 eq. 1).
//!
//! A contact's reaction is `[λ_N, λ_F]`: the normal part lies in the half-line
//! `N = { γ >= 0 }` (eq. 15a) and the friction part in a set `F(λ_N)` that scales with the
//! normal force (eq. 15b-16). The sets here are those of the book's chapter "Friction laws as
//! convex sets":
//!
//! | law | set `F(λ_N)` | rows per contact |
//! |---|---|---|
//! | [`FrictionLaw::Box`] | `|γ_s| <= μ_s λ_N`, `|γ_t| <= μ_t λ_N` (the outer pyramid of the box model) | 3 |
//! | [`FrictionLaw::Disk`] | `‖γ‖ <= μ λ_N` (isotropic Coulomb, eq. 5) | 3 |
//! | [`FrictionLaw::Ellipse`] | `(γ_s/a)² + (γ_t/b)² <= 1`, `a = μ_s λ_N`, `b = μ_t λ_N` (anisotropic) | 3 |
//! | [`FrictionLaw::Ellipsoid`] | `(γ_s/a)² + (γ_t/b)² + (γ_τ/c)² <= 1`, `c = μ_τ λ_N` (Coulomb-Contensou, eq. 15b-16: friction and torsion) | 4 |
//!
//! Parameters that are negative or NaN (a half width, a radius, a semi-axis) are read as 0:
//! the set shrinks to a point or a flat set, and the projection never panics. An infinite
//! one leaves its coordinates free. [`FrictionLaw::is_valid`] tells a caller whether the
//! coefficients are meaningful before solving.
//!
//! Checked by `tests/laws/maximal_dissipation.rs`, `tests/laws/projection_boundary.rs`,
//! `tests/laws/projection_idempotent.rs`, `tests/laws/projection_in_set.rs`,
//! `tests/laws/projection_nonexpansive.rs`, `tests/laws/projection_oracle.rs` and
//! `tests/laws/projection_variational_inequality.rs`.

pub use super::ellipsoid::{
    EllipsoidCase, EllipsoidMethod, EllipsoidReport, ellipsoid_g, project_on_ellipsoid,
    project_on_ellipsoid_with,
};

/// A closed convex set in `R^d` with its Euclidean projection.
pub trait ConvexSet {
    /// The dimension `d`.
    fn dim(&self) -> usize;

    /// `out = prox_C(z) = argmin_{x ∈ C} ‖z - x‖` (Erleben 2017 eq. 1). `z` and `out` have
    /// `dim()` entries (at least; the rest is ignored). Never NaN for finite `z`.
    ///
    /// # Panics
    /// If `z` or `out` has fewer than `dim()` entries.
    fn project(&self, z: &[f64], out: &mut [f64]);

    /// `true` if `x` lies in the set, allowing an absolute slack `tol` on each coordinate.
    fn contains(&self, x: &[f64], tol: f64) -> bool;
}

/// The half-line `N = { γ >= 0 }` of normal reactions (Erleben 2017 eq. 15a); its
/// projection is `max(0, z)` (eq. 21a).
///
/// ```
/// use nonsmooth::friction::{ConvexSet, HalfLine};
/// let mut x = [0.0];
/// HalfLine.project(&[-2.0], &mut x);
/// assert_eq!(x, [0.0]);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct HalfLine;

impl ConvexSet for HalfLine {
    fn dim(&self) -> usize {
        1
    }
    fn project(&self, z: &[f64], out: &mut [f64]) {
        out[0] = z[0].max(0.0);
    }
    fn contains(&self, x: &[f64], tol: f64) -> bool {
        x[0] >= -tol
    }
}

/// The box `|γ_i| <= h_i` (each `h_i >= 0`), projected componentwise by clamping.
///
/// A negative or NaN half width is read as 0.
///
/// ```
/// use nonsmooth::friction::{BoxSet, ConvexSet};
/// let b = BoxSet { half: vec![1.0, 0.5] };
/// let mut x = [0.0; 2];
/// b.project(&[3.0, -0.25], &mut x);
/// assert_eq!(x, [1.0, -0.25]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct BoxSet {
    /// Half widths, `>= 0`.
    pub half: Vec<f64>,
}

impl ConvexSet for BoxSet {
    fn dim(&self) -> usize {
        self.half.len()
    }
    fn project(&self, z: &[f64], out: &mut [f64]) {
        for (i, h) in self.half.iter().enumerate() {
            out[i] = clamp_sym(z[i], *h);
        }
    }
    fn contains(&self, x: &[f64], tol: f64) -> bool {
        self.half
            .iter()
            .enumerate()
            .all(|(i, h)| x[i].abs() <= h.max(0.0) + tol)
    }
}

/// `v` clamped to `[-h, h]`, with a negative or NaN `h` read as 0 (`f64::clamp` would
/// panic on those).
#[inline]
fn clamp_sym(v: f64, h: f64) -> f64 {
    let h = h.max(0.0); // NaN.max(0) = 0
    v.max(-h).min(h)
}

/// The disk `‖γ‖ <= radius` in `R^2` (isotropic Coulomb friction with radius `μ λ_N`,
/// Erleben 2017 eq. 5).
///
/// A negative or NaN radius is read as 0.
///
/// ```
/// use nonsmooth::friction::{ConvexSet, Disk};
/// let mut x = [0.0; 2];
/// Disk { radius: 1.0 }.project(&[3.0, 4.0], &mut x);
/// assert!((x[0] - 0.6).abs() < 1e-15 && (x[1] - 0.8).abs() < 1e-15);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Disk {
    /// Radius, `>= 0`.
    pub radius: f64,
}

impl ConvexSet for Disk {
    fn dim(&self) -> usize {
        2
    }
    fn project(&self, z: &[f64], out: &mut [f64]) {
        let r = self.radius.max(0.0);
        let n = z[0].hypot(z[1]);
        if n <= r {
            out[0] = z[0];
            out[1] = z[1];
        } else {
            // n > r >= 0, so z != 0. out = r (z / ‖z‖), with the direction formed on z
            // divided by its largest entry: (r / n) z would underflow for n / r > 1e308, and
            // n itself overflows for entries near the largest float.
            let m = z[0].abs().max(z[1].abs());
            let (u0, u1) = (z[0] / m, z[1] / m);
            let nu = u0.hypot(u1); // in [1, sqrt 2]
            out[0] = r * (u0 / nu);
            out[1] = r * (u1 / nu);
        }
    }
    fn contains(&self, x: &[f64], tol: f64) -> bool {
        x[0].hypot(x[1]) <= self.radius.max(0.0) + tol
    }
}

/// An axis-aligned ellipsoid `Σ (x_i / a_i)² <= 1` in `R^d` (`d` = 2: an ellipse, `d` = 3:
/// the Coulomb-Contensou set), semi-axes `a_i >= 0`; a zero semi-axis flattens the set
/// (that coordinate is zero in it), an infinite one leaves its coordinate free.
///
/// The projection follows Erleben 2017 §4.1 (see [`project_on_ellipsoid_with`]).
///
/// ```
/// use nonsmooth::friction::{ConvexSet, Ellipsoid};
/// let e = Ellipsoid { axes: vec![2.0, 1.0] };
/// let mut x = [0.0; 2];
/// e.project(&[0.0, 3.0], &mut x);
/// assert_eq!(x, [0.0, 1.0]);
/// assert!(e.contains(&x, 0.0));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Ellipsoid {
    /// Semi-axes, `>= 0`.
    pub axes: Vec<f64>,
}

impl ConvexSet for Ellipsoid {
    fn dim(&self) -> usize {
        self.axes.len()
    }
    fn project(&self, z: &[f64], out: &mut [f64]) {
        project_on_ellipsoid(&self.axes, z, out);
    }
    fn contains(&self, x: &[f64], tol: f64) -> bool {
        in_ellipsoid(&self.axes, x, tol)
    }
}

/// `true` if `x` is within a slack `tol` on each coordinate of the ellipsoid with `axes`:
/// `Σ (max(|x_i| - tol, 0) / a_i)² <= 1`, and `|x_i| <= tol` along zero semi-axes.
fn in_ellipsoid(axes: &[f64], x: &[f64], tol: f64) -> bool {
    let mut s = 0.0;
    for (a, v) in axes.iter().zip(x) {
        let excess = (v.abs() - tol).max(0.0);
        if *a > 0.0 {
            let q = excess / a; // 0 for an infinite axis
            s += q * q;
        } else if excess > 0.0 {
            return false;
        }
    }
    s <= 1.0
}

/// A friction law: the set `F(λ_N)` the friction part of a contact's reaction must lie in,
/// for a given normal reaction `λ_N >= 0` (Erleben 2017 eq. 15b-16).
///
/// ```
/// use nonsmooth::friction::FrictionLaw;
/// let law = FrictionLaw::Ellipsoid { mu: [0.5, 0.3, 0.01] };
/// let mut f = [0.0; 3];
/// law.project(2.0, &[0.0, 0.0, 1.0], &mut f); // pure torsion: clamped at μ_τ λ_N
/// assert!((f[2] - 0.02).abs() < 1e-17);
/// assert!(law.contains(2.0, &f, 1e-15));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FrictionLaw {
    /// The box model: `|γ_s| <= μ_s λ_N`, `|γ_t| <= μ_t λ_N` (Erleben 2007 eq. 29).
    Box {
        /// `[μ_s, μ_t]`.
        mu: [f64; 2],
    },
    /// Isotropic Coulomb: `‖γ‖ <= μ λ_N` (Erleben 2017 eq. 5).
    Disk {
        /// `μ`.
        mu: f64,
    },
    /// Anisotropic Coulomb: an ellipse with semi-axes `μ_s λ_N`, `μ_t λ_N`.
    Ellipse {
        /// `[μ_s, μ_t]`.
        mu: [f64; 2],
    },
    /// Coulomb-Contensou: friction and torsional friction in one ellipsoid with semi-axes
    /// `μ_s λ_N`, `μ_t λ_N`, `μ_τ λ_N` (Erleben 2017 eq. 15b-16). `μ_τ` is a length (m): it
    /// turns a normal force into a torque.
    Ellipsoid {
        /// `[μ_s, μ_t, μ_τ]`.
        mu: [f64; 3],
    },
}

impl FrictionLaw {
    /// Number of friction rows (2, or 3 with torsion).
    pub fn friction_dim(&self) -> usize {
        match self {
            FrictionLaw::Ellipsoid { .. } => 3,
            _ => 2,
        }
    }

    /// `true` if every coefficient is finite and `>= 0`.
    pub fn is_valid(&self) -> bool {
        let ok = |m: f64| m.is_finite() && m >= 0.0;
        match *self {
            FrictionLaw::Box { mu } | FrictionLaw::Ellipse { mu } => mu.iter().all(|m| ok(*m)),
            FrictionLaw::Disk { mu } => ok(mu),
            FrictionLaw::Ellipsoid { mu } => mu.iter().all(|m| ok(*m)),
        }
    }

    /// Projects the friction part `z` (`friction_dim()` entries) onto `F(λ_N)`, into `out`.
    /// `λ_N` is clamped at 0 first (a negative normal value gives the set `{0}`); invalid
    /// coefficients (negative, NaN) are read as 0, see the module docs.
    ///
    /// # Panics
    /// If `z` or `out` has fewer than `friction_dim()` entries.
    // ANCHOR: friction_law_project
    pub fn project(&self, normal: f64, z: &[f64], out: &mut [f64]) {
        let n = normal.max(0.0);
        match *self {
            FrictionLaw::Box { mu } => {
                out[0] = clamp_sym(z[0], mu[0] * n);
                out[1] = clamp_sym(z[1], mu[1] * n);
            }
            FrictionLaw::Disk { mu } => Disk { radius: mu * n }.project(z, out),
            FrictionLaw::Ellipse { mu } => project_on_ellipsoid(&[mu[0] * n, mu[1] * n], z, out),
            FrictionLaw::Ellipsoid { mu } => {
                project_on_ellipsoid(&[mu[0] * n, mu[1] * n, mu[2] * n], z, out)
            }
        }
    }
    // ANCHOR_END: friction_law_project

    /// `true` if the friction part `x` lies in `F(λ_N)` up to an absolute slack `tol` on each
    /// coordinate (`λ_N` clamped at 0 as in [`project`](Self::project)).
    pub fn contains(&self, normal: f64, x: &[f64], tol: f64) -> bool {
        let n = normal.max(0.0);
        match *self {
            FrictionLaw::Box { mu } => {
                x[0].abs() <= (mu[0] * n).max(0.0) + tol && x[1].abs() <= (mu[1] * n).max(0.0) + tol
            }
            FrictionLaw::Disk { mu } => Disk { radius: mu * n }.contains(x, tol),
            FrictionLaw::Ellipse { mu } => in_ellipsoid(&[mu[0] * n, mu[1] * n], x, tol),
            FrictionLaw::Ellipsoid { mu } => {
                in_ellipsoid(&[mu[0] * n, mu[1] * n, mu[2] * n], x, tol)
            }
        }
    }
}
