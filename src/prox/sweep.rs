//! One PROX sweep: Jacobi (Erleben 2017 Algorithm 1, lines 3-9) or Gauss-Seidel
//! (Algorithm 2, lines 3-10), by contact or by factor of the contact's set.

use super::operator::Op;
use super::options::{Blocks, Scheme};
use super::problem::ProxProblem;
use super::rfactor::RBlock;

/// The state a sweep carries besides `λ`: the body velocity `v` of the global form (empty
/// for the local form) and the current r-factors.
#[derive(Debug, Clone)]
pub struct ProxState {
    pub(super) v: Vec<f64>,
    pub(super) r: Vec<RBlock>,
}

impl ProxState {
    /// For the global form, the velocities `v = M^-1 (q + H λ)` (`ndof`); empty for the
    /// local form.
    pub fn body_velocity(&self) -> &[f64] {
        &self.v
    }

    /// A fresh state for the iterate `λ`: the r-factors `r0`, and `v = M^-1 (q + H λ)` for
    /// the global form.
    pub(super) fn new(op: &Op, r0: &[RBlock], lam: &[f64]) -> Self {
        let mut v = Vec::new();
        if let Op::Global(g) = op {
            v = vec![0.0; g.free.len()];
            g.reset(lam, &mut v);
        }
        ProxState { v, r: r0.to_vec() }
    }
}

/// One sweep of `scheme` with the state's r-factors, in place: `λ^{k+1}` from `λ^k`.
/// `scratch` is used by Jacobi (`m` entries) and may be empty for Gauss-Seidel.
pub(super) fn sweep(
    op: &Op,
    p: &ProxProblem,
    scheme: Scheme,
    blocks: Blocks,
    lam: &mut [f64],
    st: &mut ProxState,
    scratch: &mut Vec<f64>,
) {
    match (scheme, blocks) {
        (Scheme::GaussSeidel, Blocks::Contact) => sweep_gs(op, p, lam, st),
        (Scheme::GaussSeidel, Blocks::Factor) => sweep_gs_factors(op, p, lam, st),
        (Scheme::Jacobi, _) => sweep_jacobi(op, p, lam, st, scratch),
    }
}

// ANCHOR: prox_gs_sweep
/// Algorithm 2, one contact at a time.
fn sweep_gs(op: &Op, p: &ProxProblem, lam: &mut [f64], st: &mut ProxState) {
    let b = p.b.as_slice();
    for (c, law) in p.laws.iter().enumerate() {
        let o = p.offsets[c];
        let d = p.offsets[c + 1] - o;
        // v_I = (A λ + b)_I, or (J w + b)_I with w = M^-1 J^T λ kept up to date.
        let mut v = [0.0; 4];
        match op {
            Op::Local(l) => l.block_product(c, lam, &mut v),
            Op::Global(g) => {
                for (k, vk) in v.iter_mut().enumerate().take(d) {
                    *vk = g.row_velocity(o + k, &st.v);
                }
            }
        }
        for k in 0..d {
            v[k] += b[o + k];
        }
        // z_I = λ_I - R_I v_I (line 6), then the proximal maps (lines 7-8).
        let mut z = [0.0; 4];
        st.r[c].apply(&lam[o..o + d], &v[..d], &mut z[..d]);
        let mut new = [0.0; 4];
        law.project(&z[..d], None, &mut new[..d]);
        // w += (M^-1 J^T)_{B,I} (λ_I^{k+1} - λ_I^k) (line 9).
        if let Op::Global(g) = op {
            for k in 0..d {
                g.push(o + k, new[k] - lam[o + k], &mut st.v);
            }
        }
        lam[o..o + d].copy_from_slice(&new[..d]);
    }
}
// ANCHOR_END: prox_gs_sweep

/// Gauss-Seidel one factor of each contact's set at a time.
fn sweep_gs_factors(op: &Op, p: &ProxProblem, lam: &mut [f64], st: &mut ProxState) {
    let b = p.b.as_slice();
    for (c, law) in p.laws.iter().enumerate() {
        let o = p.offsets[c];
        for (f, &(s, len)) in law.factors().iter().enumerate() {
            let mut v = [0.0; 4];
            for (k, vk) in v.iter_mut().enumerate().take(len) {
                let i = o + s + k;
                *vk = b[i]
                    + match op {
                        Op::Local(l) => l.row_product(c, s + k, lam),
                        Op::Global(g) => g.row_velocity(i, &st.v),
                    };
            }
            let mut z = [0.0; 4];
            st.r[c].apply_rows(s, len, &lam[o + s..o + s + len], &v[..len], &mut z[..len]);
            let mut new = [0.0; 4];
            law.project_factor(f, &z[..len], lam[o], &mut new[..len]);
            if let Op::Global(g) = op {
                for k in 0..len {
                    g.push(o + s + k, new[k] - lam[o + s + k], &mut st.v);
                }
            }
            lam[o + s..o + s + len].copy_from_slice(&new[..len]);
        }
    }
}

// ANCHOR: prox_jacobi_sweep
/// Algorithm 1: `z = λ^k - R (A λ^k + b)`, then every contact's proximal map, the
/// friction set scaled by `λ_N^k`.
fn sweep_jacobi(
    op: &Op,
    p: &ProxProblem,
    lam: &mut [f64],
    st: &mut ProxState,
    scratch: &mut Vec<f64>,
) {
    scratch.resize(lam.len(), 0.0);
    op.velocity_into(p.b.as_slice(), lam, &st.v, scratch);
    for (c, law) in p.laws.iter().enumerate() {
        let o = p.offsets[c];
        let d = p.offsets[c + 1] - o;
        let mut z = [0.0; 4];
        st.r[c].apply(&lam[o..o + d], &scratch[o..o + d], &mut z[..d]);
        let mut new = [0.0; 4];
        law.project(&z[..d], Some(lam[o]), &mut new[..d]);
        lam[o..o + d].copy_from_slice(&new[..d]);
    }
    if let Op::Global(g) = op {
        g.reset(lam, &mut st.v);
    }
}
// ANCHOR_END: prox_jacobi_sweep
