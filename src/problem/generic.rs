//! The generic mechanical problem: one Delassus operator, blocks of rows with different laws.
//!
//! An engine's constraint rows are not all contacts. MuJoCo's solver sees equality rows
//! (welds, joint couplings), joint limits, dry friction in joints ("friction loss") and
//! contacts whose friction cones have 1, 3, 4 or 6 rows (torsional and rolling friction)
//! and may be anisotropic. Siconos calls the problem that holds them all a *generic
//! mechanical problem* (Acary, Brémond, Huber 2018 §2; Siconos's `GenericMechanicalProblem`):
//!
//! ```text
//! u = W r + q,        (r_b, u_b) satisfies the law of block b, for every block b,
//! ```
//!
//! with the blocks' rows consecutive and in order. The laws ([`Block`]):
//!
//! | block | rows | law | MuJoCo rows |
//! |---|---|---|---|
//! | [`Block::Equality`] | 1 | `u = 0`, `r` free | `mjCNSTR_EQUALITY` |
//! | [`Block::Unilateral`] | 1 | `0 <= r ⊥ u >= 0` | joint and tendon limits, frictionless contacts |
//! | [`Block::Interval`] | 1 | `lo <= r <= hi`, `u >= 0` at `lo`, `u <= 0` at `hi`, `u = 0` inside | `mjCNSTR_FRICTION_DOF` (`lo = -hi`) |
//! | [`Block::Contact`] | `1 + mu.len()` | `r ∈ K_mu`, `u` in the dual cone, complementary (CCP), or De Saxcé's Coulomb | elliptic contacts, condim 3, 4, 6 |
//!
//! # The elliptic cone
//! A contact block `[n, t_1, .., t_k]` with coefficients `mu = [mu_1, .., mu_k]` (all
//! `>= 0`) has the cone
//!
//! ```text
//! K_mu = { r : sqrt(Σ_i (r_ti / mu_i)²) <= r_n }        (r_ti = 0 where mu_i = 0),
//! ```
//!
//! MuJoCo's elliptic cone (MuJoCo documentation, "Computation", friction cones). With
//! `S = diag(1, mu_1, .., mu_k)` it is `K_mu = S K_1`, the image of the isotropic unit
//! second-order cone; isotropic 3-row contacts (`mu = [m, m]`) are the crate's
//! [`FrictionContact`](super::FrictionContact) contacts. The dual cone is
//! `K_mu* = S⁻¹ K_1 = { u : sqrt(Σ (mu_i u_ti)²) <= u_n }`. The CCP asks
//! `K_mu ∋ r ⊥ u ∈ K_mu*` (the optimality condition of `min ½ r'Wr + q'r` over the product
//! of the blocks' sets: MuJoCo's convex problem); Coulomb asks the same of De Saxcé's
//! modified velocity `û = u + ‖(mu_i u_ti)_i‖ e_n`, the anisotropic bipotential.
//!
//! # The natural map ([`GenericMechanical::error`])
//! Each block's residual vanishes exactly at the block's solutions:
//! * equality: `u`; unilateral: `r - max(0, r - u)`; interval: `r - clamp(r - u, lo, hi)`;
//! * an isotropic contact (`mu_i` all equal to `m`): `r - P_{K_m}(r - û)`, the Euclidean
//!   projection onto the isotropic cone of the block's dimension, which for 3 rows is
//!   exactly Siconos's `fc3d_compute_error` term, so numbers compare with Siconos's;
//! * an anisotropic contact: the natural map of the equivalent isotropic problem in the
//!   scaled unknowns `r̃ = S⁺ r`, `ũ = S u` (which satisfy `K_1 ∋ r̃ ⊥ ũ ∈ K_1`), mapped back:
//!   `S (r̃ - P_{K_1}(r̃ - ũ̂))`. Its zeros are the same; its size is in the units of `r`.
//!
//! The relative error divides by `max(‖q‖, ‖r‖, ‖u‖)`, as for friction problems, and the
//! normal condition (`u_n >= 0`, `r_n >= 0` on unilateral rows and contact normals) is
//! reported on its own ([`crate::merit::Residual::normal`]).

use nalgebra::DVector;

use super::{FrictionKind, ProblemError, check_finite_mat, check_finite_vec, check_len};
use crate::matrix::Matrix;
use crate::norm::scaled_norm;

/// The law of one block of rows of a [`GenericMechanical`] problem (see the
/// [module table](self)).
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// A bilateral (equality) row: `r` free, `u = 0`.
    Equality,
    /// A unilateral row: `0 <= r ⊥ u >= 0` (a joint limit, a frictionless contact).
    Unilateral,
    /// A row with fixed bounds `lo <= r <= hi` (`lo <= hi`; either may be infinite):
    /// `u >= 0` where `r = lo`, `u <= 0` where `r = hi`, `u = 0` strictly inside. Dry
    /// friction in a joint is `[-f, f]`.
    Interval {
        /// Lower bound (may be `-inf`).
        lo: f64,
        /// Upper bound (may be `+inf`).
        hi: f64,
    },
    /// A contact `[n, t_1, .., t_k]` with the elliptic cone of coefficients `mu`
    /// (`k = mu.len() >= 1`, each `mu_i >= 0` and finite): condim 3 is `[m, m]`, condim 4
    /// `[m, m, torsion]`, condim 6 `[m, m, torsion, roll, roll]`.
    Contact {
        /// One coefficient per tangential row.
        mu: Vec<f64>,
    },
}

impl Block {
    /// Number of rows.
    pub fn dim(&self) -> usize {
        match self {
            Block::Contact { mu } => 1 + mu.len(),
            _ => 1,
        }
    }

    /// The law's name as files and reports write it: `equality`, `unilateral`,
    /// `interval`, `contact`.
    pub fn name(&self) -> &'static str {
        match self {
            Block::Equality => "equality",
            Block::Unilateral => "unilateral",
            Block::Interval { .. } => "interval",
            Block::Contact { .. } => "contact",
        }
    }

    /// `Some(m)` when every tangential coefficient of a contact equals `m` (an isotropic
    /// cone), `None` otherwise or for other blocks.
    pub fn isotropic_mu(&self) -> Option<f64> {
        match self {
            Block::Contact { mu } if mu.iter().all(|m| *m == mu[0]) => Some(mu[0]),
            _ => None,
        }
    }

    /// The block's residual terms (the [module docs](self)) for reaction `r` and velocity
    /// `u` (each `dim()` entries) under the law `kind`, written into `out` (`dim()`).
    pub fn natural_map(&self, r: &[f64], u: &[f64], kind: FrictionKind, out: &mut [f64]) {
        match self {
            Block::Equality => out[0] = u[0],
            Block::Unilateral => out[0] = r[0] - (r[0] - u[0]).max(0.0),
            Block::Interval { lo, hi } => out[0] = r[0] - (r[0] - u[0]).max(*lo).min(*hi),
            Block::Contact { mu } => contact_natural_map(mu, r, u, kind, out),
        }
    }
}

/// De Saxcé's shift of the normal velocity, `‖(mu_i u_ti)_i‖` (zero for the CCP).
fn de_saxce_shift(mu: &[f64], u: &[f64], kind: FrictionKind) -> f64 {
    match kind {
        FrictionKind::Ccp => 0.0,
        FrictionKind::Coulomb => {
            let t: Vec<f64> = mu.iter().zip(&u[1..]).map(|(m, x)| m * x).collect();
            scaled_norm(&t)
        }
    }
}

fn contact_natural_map(mu: &[f64], r: &[f64], u: &[f64], kind: FrictionKind, out: &mut [f64]) {
    let d = 1 + mu.len();
    let shift = de_saxce_shift(mu, u, kind);
    let mut z = vec![0.0; d];
    if mu.iter().all(|m| *m == mu[0]) {
        // isotropic: the Euclidean projection onto K_m (Siconos's map for three rows)
        z[0] = r[0] - (u[0] + shift);
        for k in 1..d {
            z[k] = r[k] - u[k];
        }
        let mut p = vec![0.0; d];
        project_on_isotropic_cone(&z, mu[0], &mut p);
        for k in 0..d {
            out[k] = r[k] - p[k];
        }
    } else {
        // anisotropic: r̃ = S⁺ r, ũ = S u, the unit cone, then back through S
        let inv = |m: f64| if m > 0.0 { 1.0 / m } else { 0.0 };
        let rt: Vec<f64> = std::iter::once(r[0])
            .chain(mu.iter().zip(&r[1..]).map(|(m, x)| inv(*m) * x))
            .collect();
        z[0] = rt[0] - (u[0] + shift);
        for k in 1..d {
            z[k] = rt[k] - mu[k - 1] * u[k];
        }
        let mut p = vec![0.0; d];
        project_on_isotropic_cone(&z, 1.0, &mut p);
        out[0] = rt[0] - p[0];
        for k in 1..d {
            out[k] = mu[k - 1] * (rt[k] - p[k]);
        }
    }
}

// ANCHOR: project_on_isotropic_cone
/// Projects `x = [x_n, x_t]` (any length `>= 1`) onto the isotropic second-order cone
/// `K_m = { r : ‖r_t‖ <= m r_n }` (`m >= 0`) in the Euclidean norm, into `out`. For three
/// rows it is [`crate::friction::project_on_cone`]; the formulas are the same with
/// `‖x_t‖` over `k` tangential rows: inside, `x`; in the polar cone (`m ‖x_t‖ <= -x_n`),
/// zero; otherwise `a = (x_n + m ‖x_t‖) / (1 + m²)` and `[a, m a x_t / ‖x_t‖]`.
pub fn project_on_isotropic_cone(x: &[f64], m: f64, out: &mut [f64]) {
    let xn = x[0];
    let nt = scaled_norm(&x[1..]);
    if nt <= m * xn && xn >= 0.0 {
        out.copy_from_slice(x);
        return;
    }
    if m * nt <= -xn {
        out.fill(0.0);
        return;
    }
    // nt > 0 here (see project_on_cone)
    let k = 1.0 + m * m;
    let (a, pt) = if k.is_finite() {
        let a = (xn + m * nt) / k;
        (a, m * a)
    } else {
        let pt = (xn / m + nt) / (1.0 + 1.0 / m / m);
        (pt / m, pt)
    };
    out[0] = a;
    let s = pt / nt;
    for (o, v) in out[1..].iter_mut().zip(&x[1..]) {
        *o = s * v;
    }
}
// ANCHOR_END: project_on_isotropic_cone

/// The generic mechanical problem `u = W r + q` with per-block laws (see the
/// [module documentation](self)).
///
/// Shapes: `W` is `n x n` (dense or sparse), `q` has `n` entries, and the blocks' rows add
/// up to `n`. Units as for friction problems: at the velocity level `r` in N s (N m s on
/// torsion and rolling rows) and `u` in m/s (rad/s); MuJoCo's data are at the acceleration
/// level (N and m/s²).
///
/// # Errors
/// [`GenericMechanical::new`] rejects a non-square `W`, lengths that disagree, blocks whose
/// rows do not add up to `n`, NaN or infinity in `W` or `q`, a NaN bound or `lo > hi`
/// ([`ProblemError::InvalidBound`]), a contact without tangential rows, and a negative,
/// NaN or infinite friction coefficient ([`ProblemError::NegativeFriction`], naming the
/// block). `W` is assumed symmetric positive semidefinite (it is, when it comes from
/// `J M⁻¹ J^T` plus a regularisation) but this is not checked.
///
/// # Source
/// Acary, Brémond, Huber 2018 §2 (the generic mechanical problem), MuJoCo's elliptic
/// cones; De Saxcé's bipotential for the Coulomb law.
#[derive(Debug, Clone, PartialEq)]
pub struct GenericMechanical {
    w: Matrix,
    q: DVector<f64>,
    blocks: Vec<Block>,
    offsets: Vec<usize>,
    kind: FrictionKind,
}

impl GenericMechanical {
    /// Builds and validates the problem.
    pub fn new(
        w: Matrix,
        q: DVector<f64>,
        blocks: Vec<Block>,
        kind: FrictionKind,
    ) -> Result<Self, ProblemError> {
        super::check_square("W", &w)?;
        check_len("q", w.nrows(), q.len())?;
        let mut offsets = Vec::with_capacity(blocks.len() + 1);
        offsets.push(0);
        for (b, block) in blocks.iter().enumerate() {
            let row = *offsets.last().unwrap_or(&0);
            match block {
                Block::Interval { lo, hi } if lo.is_nan() || hi.is_nan() || lo > hi => {
                    return Err(ProblemError::InvalidBound {
                        row,
                        lo: *lo,
                        hi: *hi,
                    });
                }
                Block::Contact { mu } if mu.is_empty() => {
                    return Err(ProblemError::Unsupported {
                        reason: format!(
                            "block {b} is a contact without tangential rows; a contact with \
                             only a normal row is a unilateral block"
                        ),
                    });
                }
                Block::Contact { mu } => {
                    if let Some(m) = mu.iter().find(|m| !(m.is_finite() && **m >= 0.0)) {
                        return Err(ProblemError::NegativeFriction { contact: b, mu: *m });
                    }
                }
                _ => {}
            }
            offsets.push(row + block.dim());
        }
        check_len("the blocks' rows", w.nrows(), *offsets.last().unwrap_or(&0))?;
        check_finite_mat("W", &w)?;
        check_finite_vec("q", q.as_slice())?;
        Ok(GenericMechanical {
            w,
            q,
            blocks,
            offsets,
            kind,
        })
    }

    /// Number of unknowns `n`.
    pub fn dim(&self) -> usize {
        self.q.len()
    }

    /// Number of blocks.
    pub fn blocks_len(&self) -> usize {
        self.blocks.len()
    }

    /// The blocks, in row order.
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// Row offsets: block `b` owns rows `offsets()[b] .. offsets()[b + 1]` (`blocks + 1`
    /// entries).
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }

    /// The Delassus operator `W` (`n x n`).
    pub fn w(&self) -> &Matrix {
        &self.w
    }

    /// The free velocity `q` (`n`).
    pub fn q(&self) -> &DVector<f64> {
        &self.q
    }

    /// The friction law of the contact blocks.
    pub fn kind(&self) -> FrictionKind {
        self.kind
    }

    /// The same problem with the contact blocks' law set to `kind`.
    pub fn with_kind(mut self, kind: FrictionKind) -> Self {
        self.kind = kind;
        self
    }

    /// `u = W r + q`.
    ///
    /// # Panics
    /// If `r` does not have [`GenericMechanical::dim`] entries.
    pub fn velocity(&self, r: &DVector<f64>) -> DVector<f64> {
        self.w.mul_vec(r) + &self.q
    }

    /// Block `b`'s residual terms (its natural map, [`Block::natural_map`]) for the answer
    /// `r` with velocity `u` (both `n` entries).
    pub fn block_terms(&self, b: usize, r: &[f64], u: &[f64]) -> Vec<f64> {
        let (s, e) = (self.offsets[b], self.offsets[b + 1]);
        let mut out = vec![0.0; e - s];
        self.blocks[b].natural_map(&r[s..e], &u[s..e], self.kind, &mut out);
        out
    }
}
