//! Contact laws as proximal fixed points (Erleben 2017 §3, eq. 1-10, 14-16, 20-21).
//!
//! A contact's reaction `λ = [λ_N, λ_F]` satisfies its law exactly when it is a fixed point
//! of the proximal map of the law's set,
//!
//! ```text
//! λ_N = prox_N(λ_N - r_N v_N),        λ_F = prox_{F(μ λ_N)}(λ_F - r_F v_F),        (eq. 3, 9)
//! ```
//!
//! for one (equivalently every) `r_N, r_F > 0`, where `prox_C` is the Euclidean projection
//! onto `C` (eq. 1), `N = [0, ∞)` and `v = A λ + b` the contact velocity. The first equation
//! is the Signorini complementarity `0 <= λ_N ⊥ v_N >= 0` (eq. 2), the second the
//! variational inequality of maximal dissipation `(γ - λ_F) · v_F >= 0` for all
//! `γ ∈ F(μ λ_N)` (eq. 8). A [`ContactLaw`] names the set; [`ContactLaw::project`] is its
//! proximal map and [`ContactLaw::natural_map`] the fixed-point residual with `r = 1`.
//!
//! # One scalar `r` per set, not a matrix
//! The equivalence needs `r_F` to be a positive **scalar** on a set that is not a product
//! of intervals. Projection characterises `p = prox_C(x)` by `(γ - p)·(x - p) <= 0` for all
//! `γ ∈ C`; with `x = λ - r v` and `p = λ` this is `r (γ - λ)·v >= 0`, the dissipation
//! inequality, for any `r > 0`. With a matrix `R` it reads `(γ - λ)·R v >= 0`: the friction
//! force opposes `R v`, not `v`. Only for a product of intervals (the box) may each factor
//! have its own `r`, because the projection is then computed factor by factor. The
//! *factors* of a law ([`ContactLaw::factors`]) are exactly the pieces that may carry their
//! own scalar: `[n]`, `[s]`, `[t]` for the box; `[n]` and the friction part for the disk,
//! ellipse and ellipsoid; the whole reaction for the cone of the CCP, whose set couples
//! the normal and tangential parts.

use super::FrictionKind;
use crate::friction::{FrictionLaw, project_on_cone};

/// The law of one contact: the convex set its reaction lies in.
///
/// | variant | rows | set | source |
/// |---|---|---|---|
/// | [`ContactLaw::Frictionless`] | `[n]` | `λ_N ∈ N = [0, ∞)` | eq. 2-3, 50 |
/// | [`ContactLaw::Friction`] | `[n, s, t]`, or `[n, s, t, τ]` for the ellipsoid | `λ_N ∈ N`, `λ_F ∈ F(λ_N)` of the [`FrictionLaw`] | eq. 14-16 |
/// | [`ContactLaw::Cone`] | `[n, s, t]` | `λ ∈ K_μ = { ‖λ_F‖ <= μ λ_N }` jointly (the CCP) | Anitescu's relaxation |
///
/// `FrictionLaw::Disk` is isotropic Coulomb friction (eq. 5), the law of a Siconos fc3d
/// problem; `FrictionLaw::Ellipsoid` is Coulomb-Contensou friction with a torsion row
/// (eq. 15b-16). The cone is not in Erleben 2017; it is the convex relaxation MuJoCo solves
/// ([`FrictionKind::Ccp`]), and it fits the proximal model because it is a convex set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ContactLaw {
    /// No friction: one normal row.
    Frictionless,
    /// A normal row and the friction rows of a [`FrictionLaw`] whose set scales with `λ_N`.
    Friction(FrictionLaw),
    /// The second-order cone `K_μ` of the cone complementarity problem, projected as a whole.
    Cone {
        /// `μ >= 0`.
        mu: f64,
    },
}

/// Row ranges `(start, len)` of the factors, relative to the contact's first row.
const FRICTIONLESS: &[(usize, usize)] = &[(0, 1)];
const BOX: &[(usize, usize)] = &[(0, 1), (1, 1), (2, 1)];
const PLANAR: &[(usize, usize)] = &[(0, 1), (1, 2)];
const SPATIAL: &[(usize, usize)] = &[(0, 1), (1, 3)];
const WHOLE: &[(usize, usize)] = &[(0, 3)];

impl ContactLaw {
    /// The law a contact of a friction problem poses: the disk `‖λ_F‖ <= μ λ_N` for
    /// Coulomb friction (Erleben 2017 eq. 5), the cone `K_μ` for the CCP.
    pub fn friction(kind: FrictionKind, mu: f64) -> ContactLaw {
        match kind {
            FrictionKind::Coulomb => ContactLaw::Friction(FrictionLaw::Disk { mu }),
            FrictionKind::Ccp => ContactLaw::Cone { mu },
        }
    }

    /// Number of rows: 1, 3, or 4 (ellipsoid).
    pub fn dim(&self) -> usize {
        match self {
            ContactLaw::Frictionless => 1,
            ContactLaw::Friction(f) => 1 + f.friction_dim(),
            ContactLaw::Cone { .. } => 3,
        }
    }

    /// The friction coefficient that is invalid (NaN, infinite or negative), if any.
    pub fn invalid_coefficient(&self) -> Option<f64> {
        let bad = |m: f64| !(m.is_finite() && m >= 0.0);
        let coefficients: &[f64] = match self {
            ContactLaw::Frictionless => &[],
            ContactLaw::Friction(FrictionLaw::Box { mu })
            | ContactLaw::Friction(FrictionLaw::Ellipse { mu }) => mu,
            ContactLaw::Friction(FrictionLaw::Disk { mu }) => std::slice::from_ref(mu),
            ContactLaw::Friction(FrictionLaw::Ellipsoid { mu }) => mu,
            ContactLaw::Cone { mu } => std::slice::from_ref(mu),
        };
        coefficients.iter().copied().find(|m| bad(*m))
    }

    /// The factors of the set (see the [module documentation](self)): row ranges
    /// `(start, len)` relative to the contact's first row, in order, covering every row.
    /// Each factor may carry its own scalar r-factor without changing the fixed point.
    pub fn factors(&self) -> &'static [(usize, usize)] {
        match self {
            ContactLaw::Frictionless => FRICTIONLESS,
            ContactLaw::Friction(FrictionLaw::Box { .. }) => BOX,
            ContactLaw::Friction(FrictionLaw::Ellipsoid { .. }) => SPATIAL,
            ContactLaw::Friction(_) => PLANAR,
            ContactLaw::Cone { .. } => WHOLE,
        }
    }

    /// `true` if the normal row is a factor of its own (every law but the cone).
    pub fn separates_normal(&self) -> bool {
        !matches!(self, ContactLaw::Cone { .. })
    }

    // ANCHOR: project_factor
    /// Projects factor `f` (an index into [`ContactLaw::factors`]): `out = prox(z)`, where
    /// `z` and `out` hold that factor's rows and a friction factor's set is scaled by
    /// `normal` (`λ_N`; a negative value gives the set `{0}`). Erleben 2017 eq. 21.
    ///
    /// # Panics
    /// If `f` is not a factor index of this law or a slice is shorter than the factor (a
    /// programming error, like an out-of-range slice index).
    #[inline]
    pub fn project_factor(&self, f: usize, z: &[f64], normal: f64, out: &mut [f64]) {
        match *self {
            ContactLaw::Cone { mu } => {
                let p = project_on_cone([z[0], z[1], z[2]], mu);
                out[..3].copy_from_slice(&p);
            }
            _ if f == 0 => out[0] = z[0].max(0.0), // eq. 21a
            ContactLaw::Friction(FrictionLaw::Box { mu }) => {
                let h = mu[f - 1] * normal.max(0.0);
                out[0] = z[0].clamp(-h, h);
            }
            ContactLaw::Friction(law) => law.project(normal, z, out), // eq. 21b
            ContactLaw::Frictionless => panic!("a frictionless contact has one factor, not {f}"),
        }
    }
    // ANCHOR_END: project_factor

    /// `out = prox_C(z)` for the whole contact (`dim()` entries). The normal part is
    /// projected first; the friction set is scaled by `set_normal` if given (the Jacobi
    /// scheme uses the previous iterate's `λ_N^k`, Erleben 2017 eq. 23), else by the new
    /// `λ_N` just computed (Gauss-Seidel, eq. 24).
    #[inline]
    pub fn project(&self, z: &[f64], set_normal: Option<f64>, out: &mut [f64]) {
        if let ContactLaw::Cone { .. } = self {
            self.project_factor(0, z, 0.0, out);
            return;
        }
        out[0] = z[0].max(0.0);
        let normal = set_normal.unwrap_or(out[0]);
        for (f, &(start, len)) in self.factors().iter().enumerate().skip(1) {
            self.project_factor(
                f,
                &z[start..start + len],
                normal,
                &mut out[start..start + len],
            );
        }
    }

    /// The proximal natural map with `r = 1`: `e = λ - prox_C(λ - v)`, the friction set
    /// scaled by `λ_N` itself. `e = 0` exactly when `(λ, v)` satisfies the law (for every
    /// `r > 0`; the [module documentation](self) says why). `lam`, `v` and `out` have
    /// `dim()` entries.
    pub fn natural_map(&self, lam: &[f64], v: &[f64], out: &mut [f64]) {
        let d = self.dim();
        let mut z = [0.0; 4];
        for k in 0..d {
            z[k] = lam[k] - v[k];
        }
        let mut p = [0.0; 4];
        self.project(&z[..d], Some(lam[0]), &mut p[..d]);
        for k in 0..d {
            out[k] = lam[k] - p[k];
        }
    }

    /// The contact's squared error in the measure [`crate::prox::ProxProblem::error`]
    /// reports: for the isotropic disk and the cone, Siconos's natural map of the
    /// equivalent friction problem ([`natural_map_contact`], De Saxce's form for Coulomb),
    /// so that numbers compare with Siconos; for every other law the proximal natural map
    /// [`ContactLaw::natural_map`]. All vanish exactly at the law's solutions.
    pub fn error_squared(&self, lam: &[f64], v: &[f64]) -> f64 {
        self.error_terms(lam, v).iter().map(|x| x * x).sum()
    }

    /// The terms whose squares [`ContactLaw::error_squared`] sums (unused entries zero).
    pub fn error_terms(&self, lam: &[f64], v: &[f64]) -> [f64; 4] {
        let e = match *self {
            ContactLaw::Friction(FrictionLaw::Disk { mu }) => {
                let e = natural_map_contact(
                    [lam[0], lam[1], lam[2]],
                    [v[0], v[1], v[2]],
                    mu,
                    FrictionKind::Coulomb,
                );
                [e[0], e[1], e[2], 0.0]
            }
            ContactLaw::Cone { mu } => {
                let e = natural_map_contact(
                    [lam[0], lam[1], lam[2]],
                    [v[0], v[1], v[2]],
                    mu,
                    FrictionKind::Ccp,
                );
                [e[0], e[1], e[2], 0.0]
            }
            _ => {
                let mut e = [0.0; 4];
                self.natural_map(lam, v, &mut e);
                e
            }
        };
        e
    }

    /// The normal condition of a friction contact on its own, `(max(0, -v_N),
    /// max(0, -λ_N))` (see [`crate::merit::Residual::normal`]), for the disk and cone
    /// laws of friction problems; zero for the others (LCP and boxed LCP rows, whose
    /// measure has no such term).
    pub fn normal_terms(&self, lam: &[f64], v: &[f64]) -> [f64; 2] {
        match *self {
            ContactLaw::Friction(FrictionLaw::Disk { .. }) | ContactLaw::Cone { .. } => {
                [(-v[0]).max(0.0), (-lam[0]).max(0.0)]
            }
            _ => [0.0; 2],
        }
    }
}

/// The per-contact natural-map residual `e_c = r_c - P_K(r_c - û_c)` of one contact, with
/// `û_c = u_c + [mu ‖u_t‖, 0, 0]` for Coulomb (De Saxce) and `û_c = u_c` for CCP.
///
/// This is the one error measure of a disk (Coulomb) or cone (CCP) contact: Siconos's
/// `fc3d_compute_error` sums its squares, and every method of the crate reports it
/// ([`crate::merit`]). Source: Acary, Bremond, Huber 2018 (the natural map of the De Saxce
/// complementarity form); Erleben 2017 eq. 20-21.
#[inline]
pub fn natural_map_contact(r: [f64; 3], u: [f64; 3], mu: f64, kind: FrictionKind) -> [f64; 3] {
    let shift = match kind {
        FrictionKind::Coulomb => mu * u[1].hypot(u[2]),
        FrictionKind::Ccp => 0.0,
    };
    let p = project_on_cone([r[0] - (u[0] + shift), r[1] - u[1], r[2] - u[2]], mu);
    [r[0] - p[0], r[1] - p[1], r[2] - p[2]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_cover_every_row() {
        let laws = [
            ContactLaw::Frictionless,
            ContactLaw::Friction(FrictionLaw::Box { mu: [0.1, 0.2] }),
            ContactLaw::Friction(FrictionLaw::Disk { mu: 0.3 }),
            ContactLaw::Friction(FrictionLaw::Ellipse { mu: [0.1, 0.2] }),
            ContactLaw::Friction(FrictionLaw::Ellipsoid {
                mu: [0.1, 0.2, 0.01],
            }),
            ContactLaw::Cone { mu: 0.4 },
        ];
        for law in laws {
            let mut next = 0;
            for &(s, l) in law.factors() {
                assert_eq!(s, next);
                next += l;
            }
            assert_eq!(next, law.dim(), "{law:?}");
        }
    }

    #[test]
    fn jacobi_projection_scales_the_set_by_the_old_normal() {
        let law = ContactLaw::Friction(FrictionLaw::Disk { mu: 0.5 });
        let mut out = [0.0; 3];
        law.project(&[1.0, 3.0, 0.0], Some(4.0), &mut out);
        assert_eq!(out, [1.0, 2.0, 0.0]);
        law.project(&[1.0, 3.0, 0.0], None, &mut out);
        assert_eq!(out, [1.0, 0.5, 0.0]);
        assert_eq!(
            ContactLaw::Cone { mu: -1.0 }.invalid_coefficient(),
            Some(-1.0)
        );
    }
}
