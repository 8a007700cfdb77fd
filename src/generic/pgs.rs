//! `gmp-pgs`: projected block Gauss-Seidel on a [`GenericMechanical`] problem.
//!
//! One iteration is one sweep over the blocks in order, each solved with the others held
//! at their latest values (Jean 1999; Acary, Brémond, Huber 2018 for the generic
//! mechanical problem):
//!
//! * a scalar row `i`: `r_i <- clamp(r_i - u_i / W_ii, lo, hi)` (`(-inf, inf)` for an
//!   equality, `[0, inf)` for a unilateral row), exact for the row; `W_ii <= 0` is refused
//!   ([`ProblemError::NonPositiveDiagonal`]);
//! * a contact block: the local problem `ũ_b = W̃_bb r̃_b + c̃_b` in the scaled unknowns
//!   (`c̃_b` the other blocks' contribution), solved by a local semismooth Newton on the
//!   natural map with `ρ = 1 / λ̄` (`λ̄` Gershgorin's bound of `λmax(W̃_bb)`), a backtracking
//!   line search, and the projected fixed-point step `r̃_b <- P(r̃_b - ρ ŭ_b)` when Newton
//!   does not decrease; for Coulomb, De Saxcé's shift is held at the previous local
//!   iterate. A contact's `W_nn <= 0` is refused too.
//!
//! The loop stops on the problem's own error ([`GenericMechanical::error`]).

use crate::solver::MethodOptions;
use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};

use super::natural::{Shift, block_map, de_saxce_shift, scalar_bounds};
use crate::merit::Residual;
use crate::problem::ProblemError;
use crate::problem::generic::GenericMechanical;
use crate::solver::{Method, NonExhaustive, SolveError, Step};

/// Options of [`GmpPgs`] (`gmp-pgs`). Serialised with the field names, every field
/// optional, unknown ones refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GmpPgsOptions {
    /// Iterations of a contact's local solve per visit (default 30; `>= 1`).
    pub local_iter: usize,
    /// Relative tolerance of the local solve: it stops when
    /// `‖F_b‖ <= local_tol max(‖r̃_b‖, ρ ‖c̃_b‖)` (default `1e-14`; `>= 0`).
    pub local_tol: f64,
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
}

impl Default for GmpPgsOptions {
    fn default() -> Self {
        GmpPgsOptions {
            local_iter: 30,
            local_tol: 1e-14,
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

impl MethodOptions for GmpPgsOptions {
    /// Checks every value against its range.
    ///
    /// # Errors
    /// [`ProblemError::InvalidOption`] naming the first value out of range.
    fn check(&self) -> Result<(), ProblemError> {
        let bad = |option: &str, reason: String| {
            Err(crate::newton::invalid_option("gmp-pgs", option, reason))
        };
        if self.local_iter == 0 {
            return bad("local_iter", "0 is out of range (at least 1)".into());
        }
        if !(self.local_tol >= 0.0 && self.local_tol.is_finite()) {
            return bad(
                "local_tol",
                format!("{} is not a finite number >= 0", self.local_tol),
            );
        }
        Ok(())
    }
}

/// What a `gmp-pgs` solve counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GmpPgsStats {
    /// Local Newton steps over all contact visits.
    pub local_newton_steps: usize,
    /// Local projected fixed-point steps (Newton did not decrease).
    pub local_fixed_point_steps: usize,
}

/// Projected block Gauss-Seidel on a [`GenericMechanical`] problem as a [`Method`] (see
/// the [module docs](self)); `x` is the reaction `r` (`n`).
#[derive(Debug, Clone, Copy)]
pub struct GmpPgs;

/// The local data of one block.
#[derive(Debug, Clone)]
enum Local {
    /// A scalar row: its bounds and `W_ii`.
    Scalar { lo: f64, hi: f64, wii: f64 },
    /// A contact: `S_b` (diagonal), `W̃_bb`, `ρ = 1 / λ̄`.
    Contact {
        s: Vec<f64>,
        wt: DMatrix<f64>,
        rho: f64,
    },
}

/// What [`GmpPgs`] keeps.
#[derive(Debug)]
pub struct GmpPgsPrepared {
    options: GmpPgsOptions,
    locals: Vec<Local>,
}

fn locals(p: &GenericMechanical) -> Result<Vec<Local>, ProblemError> {
    let off = p.offsets();
    let mut out = Vec::with_capacity(p.blocks_len());
    for (b, block) in p.blocks().iter().enumerate() {
        let a = off[b];
        let wii = p.w().get(a, a);
        if !(wii > 0.0) {
            return Err(ProblemError::NonPositiveDiagonal {
                what: "W",
                row: a,
                value: wii,
            });
        }
        if let Some((lo, hi)) = scalar_bounds(block) {
            out.push(Local::Scalar { lo, hi, wii });
            continue;
        }
        let d = off[b + 1] - a;
        let s: Vec<f64> = (0..d)
            .map(|k| match block {
                crate::problem::generic::Block::Contact { mu } if k > 0 => mu[k - 1],
                _ => 1.0,
            })
            .collect();
        let wb = p.w().block(a, d, a, d);
        let wt = DMatrix::from_fn(d, d, |i, j| s[i] * wb[(i, j)] * s[j]);
        let lambda = (0..d)
            .map(|i| (0..d).map(|j| wt[(i, j)].abs()).sum::<f64>())
            .fold(0.0, f64::max);
        out.push(Local::Contact {
            s,
            wt,
            rho: 1.0 / lambda,
        });
    }
    Ok(out)
}

// ANCHOR: gmp_local_solve
/// Solves contact block `b`'s local problem `ũ = W̃_bb r̃ + c̃` from `rt` (in place).
#[allow(clippy::too_many_arguments)]
fn local_solve(
    p: &GenericMechanical,
    b: usize,
    wt: &DMatrix<f64>,
    rho: f64,
    ct: &DVector<f64>,
    rt: &mut DVector<f64>,
    o: &GmpPgsOptions,
    stats: &mut GmpPgsStats,
) {
    let d = rt.len();
    let block = &p.blocks()[b];
    let kind = p.kind();
    let (mut f, mut ft) = (DVector::zeros(d), DVector::zeros(d));
    let (mut dm, mut cm) = (DMatrix::zeros(d, d), DMatrix::zeros(d, d));
    let scale = (rt.norm()).max(rho * ct.norm());
    for _ in 0..o.local_iter {
        let ut = wt * &*rt + ct;
        // De Saxcé's shift held at this local iterate
        let shift = Shift::Held(de_saxce_shift(kind, ut.as_slice()));
        let map = |x: &DVector<f64>,
                   out: &mut DVector<f64>,
                   jac: Option<(&mut DMatrix<f64>, &mut DMatrix<f64>)>| {
            let u = wt * x + ct;
            block_map(
                block,
                kind,
                rho,
                x.as_slice(),
                u.as_slice(),
                shift,
                out.as_mut_slice(),
                jac,
            );
        };
        map(rt, &mut f, Some((&mut dm, &mut cm)));
        let fnorm = f.norm();
        if fnorm <= o.local_tol * scale || fnorm == 0.0 {
            return;
        }
        let h = DMatrix::identity(d, d) - &dm + &cm * wt;
        let psi = 0.5 * fnorm * fnorm;
        let mut moved = false;
        if let Some(dir) = h
            .lu()
            .solve(&(-&f))
            .filter(|x| x.iter().all(|v| v.is_finite()))
        {
            let mut tau = 1.0;
            for _ in 0..20 {
                let trial = &*rt + tau * &dir;
                map(&trial, &mut ft, None);
                if 0.5 * ft.norm_squared() <= (1.0 - 2e-4 * tau) * psi {
                    *rt = trial;
                    moved = true;
                    stats.local_newton_steps += 1;
                    break;
                }
                tau *= 0.5;
            }
        }
        if !moved {
            // the projected fixed-point step r̃ <- P(r̃ - ρ ŭ) = r̃ - F(r̃)
            *rt -= &f;
            stats.local_fixed_point_steps += 1;
        }
    }
}
// ANCHOR_END: gmp_local_solve

impl Method for GmpPgs {
    type Problem = GenericMechanical;
    type Options = GmpPgsOptions;
    type Prepared = GmpPgsPrepared;
    type Stats = GmpPgsStats;

    /// Checks the options and the diagonal; the blocks' local data.
    fn prepare(
        p: &GenericMechanical,
        options: &GmpPgsOptions,
    ) -> Result<GmpPgsPrepared, SolveError> {
        options.check()?;
        Ok(GmpPgsPrepared {
            options: options.clone(),
            locals: locals(p)?,
        })
    }

    fn start(
        prepared: &mut GmpPgsPrepared,
        p: &GenericMechanical,
        _: &DVector<f64>,
    ) -> Result<(), SolveError> {
        prepared.locals = locals(p)?;
        Ok(())
    }

    fn step(
        prepared: &mut GmpPgsPrepared,
        p: &GenericMechanical,
        r: &mut DVector<f64>,
        stats: &mut GmpPgsStats,
    ) -> Result<Step, SolveError> {
        let off = p.offsets();
        for (b, local) in prepared.locals.iter().enumerate() {
            let a = off[b];
            match local {
                Local::Scalar { lo, hi, wii } => {
                    let u = p.w().row_dot(a, r.as_slice()) + p.q()[a];
                    r[a] = (r[a] - u / wii).max(*lo).min(*hi);
                }
                Local::Contact { s, wt, rho } => {
                    let d = s.len();
                    // c̃ = S (u_b - W_bb r_b): the other blocks' part of the velocity
                    let mut ct = DVector::zeros(d);
                    for i in 0..d {
                        let mut v = p.q()[a + i];
                        p.w().for_each_in_row(a + i, |j, w| {
                            if !(a..a + d).contains(&j) {
                                v += w * r[j];
                            }
                        });
                        ct[i] = s[i] * v;
                    }
                    let mut rt =
                        DVector::from_fn(d, |i, _| if s[i] > 0.0 { r[a + i] / s[i] } else { 0.0 });
                    local_solve(p, b, wt, *rho, &ct, &mut rt, &prepared.options, stats);
                    for i in 0..d {
                        r[a + i] = s[i] * rt[i];
                    }
                }
            }
        }
        Ok(Step::Moved)
    }

    fn error(_: &GmpPgsPrepared, p: &GenericMechanical, r: &DVector<f64>) -> Residual {
        p.error(r)
    }
}
