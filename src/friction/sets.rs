//! Friction laws as convex sets, each with its Euclidean projection (its proximal operator,
//! Erleben 2017 eq. 1).
//!
//! A contact's reaction is `[λ_N, λ_F]`: the normal part lies in the half-line
//! `N = { γ >= 0 }` (eq. 15a) and the friction part in a set `F(λ_N)` that scales with the
//! normal force (eq. 15b-16). The sets here are those of the book's chapter on friction laws:
//!
//! | law | set `F(λ_N)` | rows per contact |
//! |---|---|---|
//! | [`FrictionLaw::Box`] | `|γ_s| <= μ_s λ_N`, `|γ_t| <= μ_t λ_N` (the outer pyramid of the box model) | 3 |
//! | [`FrictionLaw::Disk`] | `‖γ‖ <= μ λ_N` (isotropic Coulomb, eq. 5) | 3 |
//! | [`FrictionLaw::Ellipse`] | `(γ_s/a)² + (γ_t/b)² <= 1`, `a = μ_s λ_N`, `b = μ_t λ_N` (anisotropic) | 3 |
//! | [`FrictionLaw::Ellipsoid`] | `(γ_s/a)² + (γ_t/b)² + (γ_τ/c)² <= 1`, `c = μ_τ λ_N` (Coulomb-Contensou, eq. 15b-16: friction and torsion) | 4 |

/// A closed convex set in `R^d` with its Euclidean projection.
pub trait ConvexSet {
    /// The dimension `d`.
    fn dim(&self) -> usize;

    /// `out = prox_C(z) = argmin_{x ∈ C} ‖z - x‖` (Erleben 2017 eq. 1). `z` and `out` have
    /// `dim()` entries. Never NaN for finite `z`.
    fn project(&self, z: &[f64], out: &mut [f64]);

    /// `true` if `x` lies in the set, allowing an absolute slack `tol`.
    fn contains(&self, x: &[f64], tol: f64) -> bool;
}

/// The half-line `N = { γ >= 0 }` of normal reactions (Erleben 2017 eq. 15a); its
/// projection is `max(0, z)` (eq. 21a).
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
            out[i] = z[i].clamp(-h, *h);
        }
    }
    fn contains(&self, x: &[f64], tol: f64) -> bool {
        self.half
            .iter()
            .enumerate()
            .all(|(i, h)| x[i].abs() <= h + tol)
    }
}

/// The disk `‖γ‖ <= radius` in `R^2` (isotropic Coulomb friction with radius `μ λ_N`).
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
        let n = z[0].hypot(z[1]);
        if n <= self.radius {
            out[0] = z[0];
            out[1] = z[1];
        } else {
            // n > radius >= 0, so n > 0
            let s = self.radius / n;
            out[0] = s * z[0];
            out[1] = s * z[1];
        }
    }
    fn contains(&self, x: &[f64], tol: f64) -> bool {
        x[0].hypot(x[1]) <= self.radius + tol
    }
}

/// An axis-aligned ellipsoid `Σ (x_i / a_i)² <= 1` in `R^d` (`d` = 2: an ellipse, `d` = 3:
/// the Coulomb-Contensou set), semi-axes `a_i >= 0`; a zero semi-axis flattens the set
/// (that coordinate is zero in it).
///
/// The projection follows Erleben 2017 §4.1 (see [`project_on_ellipsoid`]).
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
        // distance-like test: scale the slack by each axis
        self.axes
            .iter()
            .zip(x)
            .all(|(a, v)| *a > 0.0 || v.abs() <= tol)
            && {
                let s: f64 = self
                    .axes
                    .iter()
                    .zip(x)
                    .filter(|(a, _)| **a > 0.0)
                    .map(|(a, v)| {
                        let q = (v.abs() - tol).max(0.0) / a;
                        q * q
                    })
                    .sum();
                s <= 1.0
            }
    }
}

/// The closest point of the ellipsoid `Σ (x_i/a_i)² <= 1` to `z` (Erleben 2017 §4.1,
/// eq. 28-38), written to `out`.
///
/// Inside points are returned unchanged. Outside, the optimality condition gives
/// `x_i = a_i² z_i / (a_i² + t)` for the `t > 0` that solves
/// `g(t) = Σ a_i² z_i² / (a_i² + t)² - 1 = 0` (eq. 34-35); `g` falls monotonically from
/// `g(0) > 0`, so its root is bracketed by `[0, t_max]` with `t_max = 1.5^k t_guess`,
/// `t_guess = max a_i ‖z‖` (eq. 36), and found by bisection on the problem scaled into the
/// unit cube (eq. 37-38). Degenerate cases: a zero semi-axis gives `x_i = 0`; all axes zero
/// gives the origin.
pub fn project_on_ellipsoid(axes: &[f64], z: &[f64], out: &mut [f64]) {
    let d = axes.len();
    // Inside (or on) the set: nothing to do. Coordinates along a zero axis must be zero.
    let flat_ok = axes.iter().zip(z).all(|(a, v)| *a > 0.0 || *v == 0.0);
    let f: f64 = axes
        .iter()
        .zip(z)
        .filter(|(a, _)| **a > 0.0)
        .map(|(a, v)| (v / a) * (v / a))
        .sum();
    if flat_ok && f <= 1.0 {
        out[..d].copy_from_slice(&z[..d]);
        return;
    }
    if axes.iter().all(|a| *a == 0.0) {
        out[..d].iter_mut().for_each(|v| *v = 0.0);
        return;
    }
    // Scale into the unit cube (eq. 37-38).
    let big = axes
        .iter()
        .chain(z.iter())
        .fold(1.0f64, |m, v| m.max(v.abs()));
    let s = 1.0 / big;
    let a: Vec<f64> = axes.iter().map(|v| v * s).collect();
    let zs: Vec<f64> = z.iter().map(|v| v * s).collect();
    let g = |t: f64| -> f64 {
        let mut sum = 0.0;
        for i in 0..d {
            let a2 = a[i] * a[i];
            if a2 > 0.0 {
                let q = a[i] * zs[i] / (a2 + t);
                sum += q * q;
            }
        }
        sum - 1.0
    };
    let znorm = zs.iter().map(|v| v * v).sum::<f64>().sqrt();
    let amax = a.iter().fold(0.0f64, |m, v| m.max(*v));
    let mut hi = (amax * znorm).max(f64::MIN_POSITIVE);
    let mut expansions = 0;
    while g(hi) >= 0.0 && expansions < 2000 {
        hi *= 1.5;
        expansions += 1;
    }
    let mut lo = 0.0;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = 0.5 * (lo + hi);
    for i in 0..d {
        let a2 = a[i] * a[i];
        out[i] = if a2 > 0.0 {
            a2 * zs[i] / (a2 + t) / s
        } else {
            0.0
        };
    }
}

/// A friction law: the set `F(λ_N)` the friction part of a contact's reaction must lie in,
/// for a given normal reaction `λ_N >= 0` (Erleben 2017 eq. 15b-16).
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

    /// Projects the friction part `z` onto `F(λ_N)` (`λ_N` is clamped at 0 first: a
    /// negative normal value gives the set `{0}`).
    pub fn project(&self, normal: f64, z: &[f64], out: &mut [f64]) {
        let n = normal.max(0.0);
        match *self {
            FrictionLaw::Box { mu } => {
                out[0] = z[0].clamp(-mu[0] * n, mu[0] * n);
                out[1] = z[1].clamp(-mu[1] * n, mu[1] * n);
            }
            FrictionLaw::Disk { mu } => Disk { radius: mu * n }.project(z, out),
            FrictionLaw::Ellipse { mu } => project_on_ellipsoid(&[mu[0] * n, mu[1] * n], z, out),
            FrictionLaw::Ellipsoid { mu } => {
                project_on_ellipsoid(&[mu[0] * n, mu[1] * n, mu[2] * n], z, out)
            }
        }
    }
}
