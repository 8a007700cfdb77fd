//! The natural map of a [`GenericMechanical`] problem in the scaled unknowns `r̃ = S⁺ r`,
//! and an element of its B-subdifferential: what both solvers of this module work on.
//!
//! `S` is block-diagonal: 1 on scalar rows, `diag(1, mu_1, .., mu_k)` on a contact. With
//! `r = S r̃` and `ũ = S u = W̃ r̃ + q̃` (`W̃ = S W S`, `q̃ = S q`), an elliptic cone
//! `K_mu = S K_1` becomes the isotropic unit cone `K_1`, its dual `K_mu* = S⁻¹ K_1` too,
//! and `r · u = r̃ · ũ`: the CCP `K_mu ∋ r ⊥ u ∈ K_mu*` is `K_1 ∋ r̃ ⊥ ũ ∈ K_1`, and De
//! Saxcé's shift `‖(mu_i u_ti)‖ = ‖ũ_t‖` is the isotropic one. Per block, with a scalar
//! `ρ_b > 0` (`1 / max diag W̃_bb`, or 1 when that diagonal is zero; the zeros of `F` do not
//! depend on it):
//!
//! ```text
//! F_b(r̃) = r̃_b - P_b(r̃_b - ρ_b ŭ_b),   ŭ_b = ũ_b + ‖ũ_t‖ e_n (Coulomb), ũ_b (CCP),
//! ```
//!
//! `P_b` the clamp onto `[lo, hi]` for a scalar row (`(-inf, inf)` for an equality, where
//! `F = ρ u`; `[0, inf)` for a unilateral row) and the projection onto `K_1` for a contact.
//! A tangential row with `mu_i = 0` carries no force: it is left out of the cone and its
//! equation is `F = r̃_ti` (so `r̃_ti = 0`, `r_ti = 0`).
//!
//! The derivative: with `D_b` the B-subdifferential element of `P_b` (see [`super::cone`])
//! and `E_b = ∂ŭ_b/∂ũ_b = I + e_n gᵀ` (`g = ũ_t / ‖ũ_t‖` on the tangential rows for
//! Coulomb, 0 at `ũ_t = 0` and for the CCP),
//!
//! ```text
//! H = ∂F/∂r̃ = I - D + C W̃,    C = blockdiag(ρ_b D_b E_b).
//! ```
//!
//! Checked by `tests/laws/generic_newton_jacobian.rs`.

use nalgebra::{DMatrix, DVector};

use super::cone::{clamp_with_derivative, project_with_jacobian};
use crate::merit::scaled_norm;
use crate::problem::FrictionKind;
use crate::problem::generic::{Block, GenericMechanical};

/// How a contact's De Saxcé shift enters the map: computed from `ũ` with its derivative
/// (the Newton method), or held at a given value (the Gauss-Seidel local solve).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shift {
    /// `‖ũ_t‖` of the current `ũ`, differentiated.
    Live,
    /// A fixed number added to the normal velocity (its derivative is not taken).
    Held(f64),
}

/// The bounds of a scalar block's clamp; `None` for a contact.
pub fn scalar_bounds(block: &Block) -> Option<(f64, f64)> {
    match block {
        Block::Equality => Some((f64::NEG_INFINITY, f64::INFINITY)),
        Block::Unilateral => Some((0.0, f64::INFINITY)),
        Block::Interval { lo, hi } => Some((*lo, *hi)),
        Block::Contact { .. } => None,
    }
}

/// The De Saxcé shift `‖ũ_t‖` of a contact's scaled velocity `ũ_b` (0 for the CCP).
pub fn de_saxce_shift(kind: FrictionKind, ut: &[f64]) -> f64 {
    match kind {
        FrictionKind::Ccp => 0.0,
        FrictionKind::Coulomb => scaled_norm(&ut[1..]),
    }
}

// ANCHOR: block_map
/// One block's `F_b` (into `f`), and, with `jac`, its `D_b` and `C_b = ρ D_b E_b` (both
/// `dim x dim`), at scaled reaction `rt` and scaled velocity `ut` (`dim` entries each).
#[allow(clippy::too_many_arguments)]
pub fn block_map(
    block: &Block,
    kind: FrictionKind,
    rho: f64,
    rt: &[f64],
    ut: &[f64],
    shift: Shift,
    f: &mut [f64],
    jac: Option<(&mut DMatrix<f64>, &mut DMatrix<f64>)>,
) {
    if let Some((lo, hi)) = scalar_bounds(block) {
        let (p, dp) = clamp_with_derivative(rt[0] - rho * ut[0], lo, hi);
        f[0] = rt[0] - p;
        if let Some((d, c)) = jac {
            d[(0, 0)] = dp;
            c[(0, 0)] = rho * dp;
        }
        return;
    }
    let Block::Contact { mu } = block else {
        return;
    };
    let dim = rt.len();
    // the rows in the cone: the normal and the tangential rows with mu_i > 0
    let active: Vec<usize> = std::iter::once(0)
        .chain((1..dim).filter(|&k| mu[k - 1] > 0.0))
        .collect();
    let (s, g) = match shift {
        Shift::Held(s) => (s, None),
        Shift::Live => {
            let s = de_saxce_shift(kind, ut);
            let g = (kind == FrictionKind::Coulomb && s > 0.0)
                .then(|| ut[1..].iter().map(|v| v / s).collect::<Vec<_>>());
            (s, g)
        }
    };
    let x: Vec<f64> = active
        .iter()
        .map(|&k| rt[k] - rho * (ut[k] + if k == 0 { s } else { 0.0 }))
        .collect();
    let na = active.len();
    let mut p = vec![0.0; na];
    let mut da = DMatrix::zeros(na, na);
    project_with_jacobian(&x, 1.0, &mut p, &mut da);
    f.copy_from_slice(rt);
    for (a, &k) in active.iter().enumerate() {
        f[k] -= p[a];
    }
    if let Some((d, c)) = jac {
        d.fill(0.0);
        for (a, &k) in active.iter().enumerate() {
            for (b, &l) in active.iter().enumerate() {
                d[(k, l)] = da[(a, b)];
            }
        }
        // C = ρ D E, E = I + e_n gᵀ: column l of D E is D_l + D_0 g_l
        for i in 0..dim {
            for l in 0..dim {
                let e = match (&g, l) {
                    (Some(g), l) if l > 0 => d[(i, 0)] * g[l - 1],
                    _ => 0.0,
                };
                c[(i, l)] = rho * (d[(i, l)] + e);
            }
        }
    }
}
// ANCHOR_END: block_map

/// The scaled form of one problem: `S` (one entry per row) and `ρ` (one per block).
#[derive(Debug, Clone)]
pub struct Scaled {
    /// The diagonal of `S`.
    pub s: Vec<f64>,
    /// `ρ_b` per block.
    pub rho: Vec<f64>,
}

/// Per block `(D_b, C_b)` of the last [`Scaled::eval`] with a Jacobian.
pub type BlockJacobians = Vec<(DMatrix<f64>, DMatrix<f64>)>;

impl Scaled {
    /// `S` and `ρ` of `p`.
    pub fn new(p: &GenericMechanical) -> Self {
        let mut s = vec![1.0; p.dim()];
        let off = p.offsets();
        for (b, block) in p.blocks().iter().enumerate() {
            if let Block::Contact { mu } = block {
                for (k, m) in mu.iter().enumerate() {
                    s[off[b] + 1 + k] = *m;
                }
            }
        }
        let rho = (0..p.blocks_len())
            .map(|b| {
                let big = (off[b]..off[b + 1])
                    .map(|i| s[i] * s[i] * p.w().get(i, i))
                    .fold(0.0, f64::max);
                if big > 0.0 && big.is_finite() {
                    1.0 / big
                } else {
                    1.0
                }
            })
            .collect();
        Scaled { s, rho }
    }

    /// `r̃ = S⁺ r` (0 where `S` is 0).
    pub fn to_scaled(&self, r: &DVector<f64>) -> DVector<f64> {
        DVector::from_iterator(
            r.len(),
            r.iter()
                .zip(&self.s)
                .map(|(v, s)| if *s > 0.0 { v / s } else { 0.0 }),
        )
    }

    /// `r = S r̃`.
    pub fn from_scaled(&self, rt: &DVector<f64>) -> DVector<f64> {
        DVector::from_iterator(rt.len(), rt.iter().zip(&self.s).map(|(v, s)| v * s))
    }

    /// `F(r̃)` into `f`; with `jac`, every block's `(D_b, C_b)` (resized as needed).
    pub fn eval(
        &self,
        p: &GenericMechanical,
        rt: &DVector<f64>,
        f: &mut DVector<f64>,
        mut jac: Option<&mut BlockJacobians>,
    ) {
        let r = self.from_scaled(rt);
        let u = p.velocity(&r);
        let ut: Vec<f64> = u.iter().zip(&self.s).map(|(v, s)| v * s).collect();
        let off = p.offsets();
        if let Some(j) = jac.as_deref_mut() {
            j.resize(p.blocks_len(), (DMatrix::zeros(0, 0), DMatrix::zeros(0, 0)));
        }
        for (b, block) in p.blocks().iter().enumerate() {
            let (a, e) = (off[b], off[b + 1]);
            let pair = jac.as_deref_mut().map(|j| {
                let (d, c) = &mut j[b];
                if d.nrows() != e - a {
                    *d = DMatrix::zeros(e - a, e - a);
                    *c = DMatrix::zeros(e - a, e - a);
                }
                (d, c)
            });
            block_map(
                block,
                p.kind(),
                self.rho[b],
                &rt.as_slice()[a..e],
                &ut[a..e],
                Shift::Live,
                &mut f.as_mut_slice()[a..e],
                pair,
            );
        }
    }

    /// The entries `(row, col, value)` of `H + eps I = (1 + eps) I - D + C W̃` (duplicates
    /// to be summed), from the blocks' `(D_b, C_b)`.
    pub fn jacobian_triplets(
        &self,
        p: &GenericMechanical,
        jac: &BlockJacobians,
        eps: f64,
    ) -> Vec<(usize, usize, f64)> {
        let off = p.offsets();
        let mut t = Vec::new();
        for (b, (d, c)) in jac.iter().enumerate() {
            let a = off[b];
            let dim = d.nrows();
            for i in 0..dim {
                t.push((a + i, a + i, 1.0 + eps));
                for l in 0..dim {
                    if d[(i, l)] != 0.0 {
                        t.push((a + i, a + l, -d[(i, l)]));
                    }
                    let cil = c[(i, l)] * self.s[a + l];
                    if cil != 0.0 {
                        p.w().for_each_in_row(a + l, |j, w| {
                            let v = cil * w * self.s[j];
                            if v != 0.0 {
                                t.push((a + i, j, v));
                            }
                        });
                    }
                }
            }
        }
        t
    }
}
