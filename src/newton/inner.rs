//! Inner solvers for the Newton equation `H d = -Phi`: sparse LU (exact), restarted GMRES
//! and the finite-difference quasi nonlinear conjugate gradient (inexact).
//!
//! Checked by `tests/laws/newton_krylov_step.rs`.

use nalgebra::{DMatrix, DVector};

/// How the Newton equation `H d = -Phi` is solved.
///
/// In options files and `key=value` settings: `"lu"`, `"gmres"` or `"qncg"` (the variant
/// with its defaults), or an object such as `{"gmres": {"restart": 20}}` (fields not given
/// take their defaults).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum InnerSolver {
    /// Exact: sparse LU with partial pivoting (faer, fill-reducing column ordering). The
    /// symbolic analysis is done once per solve and reused by every iteration, since the
    /// pattern of `H` (that of `A`, the diagonal and the friction dependencies) does not
    /// change. The default.
    Lu,
    /// Inexact: restarted GMRES on the matrix-free product `H v` (one pass over `A` per
    /// iteration), right-preconditioned by the diagonal of `H` (Saad and Schultz 1986;
    /// Saad 2003 §6.5, §9.3). It stops when `‖H d + Phi‖ <= eta ‖Phi‖` with
    /// `eta = min(rel_tol, ‖Phi‖)`, a forcing term that keeps Newton's local quadratic rate
    /// (Dembo, Eisenstat, Steihaug 1982), or after `max_iter` products.
    Gmres {
        /// Krylov vectors kept before a restart (`>= 1`). Default 30.
        restart: usize,
        /// Matrix-vector products per Newton iteration (`>= 1`). Default 100.
        max_iter: usize,
        /// Upper bound on the forcing term `eta` (`> 0`, dimensionless). Default `1e-2`.
        rel_tol: f64,
    },
    /// Inexact and Jacobian-free: Silcowitz, Niebe, Erleben 2009 §3 (eq. 33-34). Conjugate
    /// directions of Fletcher-Reeves type for the quadratic model
    /// `q(d) = 1/2 d^T H d + Phi^T d`, with the product `H p` replaced by the forward
    /// difference `(Phi(x + h p) - Phi(x)) / h`, `h = fd_step max(1, ‖x‖) / ‖p‖` (one
    /// evaluation of `Phi`, one pass over `A`, per iteration), and the exact minimiser of
    /// the model along each direction. `H` need not be symmetric, so this is a heuristic:
    /// it stops at `max_iter`, at `‖H d + Phi‖ <= min(rel_tol, ‖Phi‖) ‖Phi‖`, or when a
    /// direction has no positive curvature; the outer descent test and line search catch a
    /// poor direction.
    QuasiNcg {
        /// Iterations per Newton iteration (`>= 1`). Default 15 (the paper's limit).
        max_iter: usize,
        /// Upper bound on the forcing term (`> 0`, dimensionless). Default `1e-2`.
        rel_tol: f64,
        /// Relative finite-difference step (`> 0`, finite, dimensionless: the step is
        /// `fd_step max(1, ‖x‖) / ‖p‖`). Default `1e-7` (num4lcp).
        fd_step: f64,
    },
}

impl std::str::FromStr for InnerSolver {
    type Err = String;

    /// `lu`, `gmres` ([`InnerSolver::GMRES`]) or `qncg` / `quasi-ncg`
    /// ([`InnerSolver::QUASI_NCG`]).
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "lu" => Ok(InnerSolver::Lu),
            "gmres" => Ok(InnerSolver::GMRES),
            "qncg" | "quasi-ncg" => Ok(InnerSolver::QUASI_NCG),
            other => Err(format!(
                "unknown inner solver `{other}` (expected lu, gmres or qncg)"
            )),
        }
    }
}

impl InnerSolver {
    /// [`InnerSolver::Gmres`] with its defaults.
    pub const GMRES: InnerSolver = InnerSolver::Gmres {
        restart: 30,
        max_iter: 100,
        rel_tol: 1e-2,
    };

    /// [`InnerSolver::QuasiNcg`] with its defaults.
    pub const QUASI_NCG: InnerSolver = InnerSolver::QuasiNcg {
        max_iter: 15,
        rel_tol: 1e-2,
        fd_step: 1e-7,
    };

    /// Short name: `"lu"`, `"gmres"`, `"qncg"`.
    pub fn name(&self) -> &'static str {
        match self {
            InnerSolver::Lu => "lu",
            InnerSolver::Gmres { .. } => "gmres",
            InnerSolver::QuasiNcg { .. } => "qncg",
        }
    }

    pub(crate) fn check(&self) -> Result<(), String> {
        match *self {
            InnerSolver::Lu => Ok(()),
            InnerSolver::Gmres {
                restart,
                max_iter,
                rel_tol,
            } => {
                if restart == 0 || max_iter == 0 || !(rel_tol > 0.0) {
                    Err(format!(
                        "GMRES needs restart >= 1, max_iter >= 1 and rel_tol > 0 \
                         (got {restart}, {max_iter}, {rel_tol})"
                    ))
                } else {
                    Ok(())
                }
            }
            InnerSolver::QuasiNcg {
                max_iter,
                rel_tol,
                fd_step,
            } => {
                if max_iter == 0 || !(rel_tol > 0.0) || !(fd_step > 0.0) || !fd_step.is_finite() {
                    Err(format!(
                        "quasi-NCG needs max_iter >= 1, rel_tol > 0 and a finite fd_step > 0 \
                         (got {max_iter}, {rel_tol}, {fd_step})"
                    ))
                } else {
                    Ok(())
                }
            }
        }
    }
}

/// What an iterative inner solve did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KrylovOutcome {
    /// Operator applications (matrix-vector products or finite differences).
    pub iterations: usize,
    /// `‖A d - rhs‖ / ‖rhs‖` at the end (for GMRES the true residual; for the quasi-NCG the
    /// residual its recursion tracks, from the approximate products).
    pub relative_residual: f64,
    /// `true` if the tolerance was met.
    pub converged: bool,
}

/// Restarted GMRES for `A d = rhs`, right-preconditioned by a diagonal: `inv_diag` holds
/// `1 / M_ii` (pass `None` for no preconditioner). `d` is the start and receives the
/// answer.
///
/// Arnoldi with modified Gram-Schmidt, the least-squares problem kept triangular by Givens
/// rotations; restarted after `restart` vectors; at most `max_iter` products with `A`.
/// It stops when the residual estimate is `<= rel_tol ‖rhs‖` and then reports the true
/// residual. A breakdown (a zero new Krylov vector) ends the cycle: the solution of the
/// small problem is then exact in the Krylov space. A singular `A` gives a finite answer
/// (zero pivots of the small triangular system are skipped), never NaN, unless `A` itself
/// produces non-finite values.
///
/// # Reference
/// Saad and Schultz 1986; Saad 2003, *Iterative Methods for Sparse Linear Systems*,
/// Alg. 6.9 and §9.3.2.
///
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::newton::gmres;
/// let a = DMatrix::from_row_slice(3, 3, &[4.0, 1.0, 0.0, -1.0, 3.0, 1.0, 0.5, 0.0, 2.0]);
/// let rhs = DVector::from_vec(vec![1.0, 2.0, 3.0]);
/// let mut d = DVector::zeros(3);
/// let out = gmres(&mut |v| &a * v, &rhs, &mut d, None, 3, 10, 1e-12);
/// assert!(out.converged && (&a * &d - &rhs).norm() < 1e-10);
/// ```
pub fn gmres(
    apply: &mut dyn FnMut(&DVector<f64>) -> DVector<f64>,
    rhs: &DVector<f64>,
    d: &mut DVector<f64>,
    inv_diag: Option<&DVector<f64>>,
    restart: usize,
    max_iter: usize,
    rel_tol: f64,
) -> KrylovOutcome {
    let mut precondition = |v: &DVector<f64>| -> DVector<f64> {
        match inv_diag {
            Some(p) => v.component_mul(p),
            None => v.clone(),
        }
    };
    gmres_with(apply, &mut precondition, rhs, d, restart, max_iter, rel_tol)
}

/// [`gmres`] with any right preconditioner: `precondition(v)` returns `M^{-1} v` for a
/// fixed linear `M` (for example the inverses of the 3x3 diagonal blocks of the cone
/// Newton matrix, a block-Jacobi preconditioner). The same stopping rule and outcome.
///
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::newton::gmres_with;
/// let a = DMatrix::from_row_slice(3, 3, &[4.0, 1.0, 0.0, -1.0, 3.0, 1.0, 0.5, 0.0, 2.0]);
/// let rhs = DVector::from_vec(vec![1.0, 2.0, 3.0]);
/// let mut d = DVector::zeros(3);
/// let out = gmres_with(&mut |v| &a * v, &mut |v| v.clone(), &rhs, &mut d, 3, 10, 1e-12);
/// assert!(out.converged && (&a * &d - &rhs).norm() < 1e-10);
/// ```
pub fn gmres_with(
    apply: &mut dyn FnMut(&DVector<f64>) -> DVector<f64>,
    precondition: &mut dyn FnMut(&DVector<f64>) -> DVector<f64>,
    rhs: &DVector<f64>,
    d: &mut DVector<f64>,
    restart: usize,
    max_iter: usize,
    rel_tol: f64,
) -> KrylovOutcome {
    let n = rhs.len();
    let m = restart.max(1).min(n.max(1));
    let bnorm = rhs.norm();
    if bnorm == 0.0 {
        d.fill(0.0);
        return KrylovOutcome {
            iterations: 0,
            relative_residual: 0.0,
            converged: true,
        };
    }
    let mut total = 0;
    let mut r = if d.iter().all(|v| *v == 0.0) {
        rhs.clone()
    } else {
        total += 1;
        rhs - apply(d)
    };
    loop {
        let beta = r.norm();
        if !(beta > rel_tol * bnorm) || total >= max_iter {
            let rel = beta / bnorm;
            return KrylovOutcome {
                iterations: total,
                relative_residual: rel,
                converged: rel <= rel_tol,
            };
        }
        let mut v: Vec<DVector<f64>> = Vec::with_capacity(m + 1);
        v.push(&r / beta);
        let mut h = DMatrix::<f64>::zeros(m + 1, m);
        let mut cs = vec![0.0; m];
        let mut sn = vec![0.0; m];
        let mut g = DVector::<f64>::zeros(m + 1);
        g[0] = beta;
        let mut k = 0;
        for j in 0..m {
            if total >= max_iter {
                break;
            }
            let mut w = apply(&precondition(&v[j]));
            total += 1;
            for (i, vi) in v.iter().enumerate().take(j + 1) {
                let hij = w.dot(vi);
                h[(i, j)] = hij;
                w.axpy(-hij, vi, 1.0);
            }
            let hnext = w.norm();
            h[(j + 1, j)] = hnext;
            // apply the previous rotations to the new column
            for i in 0..j {
                let t = cs[i] * h[(i, j)] + sn[i] * h[(i + 1, j)];
                h[(i + 1, j)] = -sn[i] * h[(i, j)] + cs[i] * h[(i + 1, j)];
                h[(i, j)] = t;
            }
            let (a, b) = (h[(j, j)], h[(j + 1, j)]);
            let rho = a.hypot(b);
            if rho > 0.0 {
                cs[j] = a / rho;
                sn[j] = b / rho;
            } else {
                cs[j] = 1.0;
                sn[j] = 0.0;
            }
            h[(j, j)] = rho;
            h[(j + 1, j)] = 0.0;
            g[j + 1] = -sn[j] * g[j];
            g[j] *= cs[j];
            k = j + 1;
            let breakdown = !(hnext > f64::EPSILON * beta);
            if !breakdown {
                v.push(w / hnext);
            }
            if g[j + 1].abs() <= rel_tol * bnorm || breakdown {
                break;
            }
        }
        if k == 0 {
            let rel = beta / bnorm;
            return KrylovOutcome {
                iterations: total,
                relative_residual: rel,
                converged: rel <= rel_tol,
            };
        }
        // back substitution R y = g, skipping zero pivots (singular A)
        let scale = (0..k).map(|i| h[(i, i)].abs()).fold(0.0, f64::max);
        let mut y = vec![0.0; k];
        for i in (0..k).rev() {
            let mut s = g[i];
            for (jj, yj) in y.iter().enumerate().take(k).skip(i + 1) {
                s -= h[(i, jj)] * yj;
            }
            let piv = h[(i, i)];
            y[i] = if piv.abs() > f64::EPSILON * scale && piv != 0.0 {
                s / piv
            } else {
                0.0
            };
        }
        let mut z = DVector::zeros(n);
        for (i, yi) in y.iter().enumerate() {
            z.axpy(*yi, &v[i], 1.0);
        }
        let dz = precondition(&z);
        if dz.iter().all(|t| t.is_finite()) {
            *d += dz;
        }
        r = rhs - apply(d);
        total += 1;
    }
}

/// The quasi nonlinear conjugate gradient of Silcowitz, Niebe, Erleben 2009 (eq. 33-34) for
/// `H d = -phi`, where `product(p)` returns an approximation of `H p` (for Fischer-Newton a
/// forward difference of `Phi`). Returns `d` (zero start) and what the iteration did.
///
/// Fletcher-Reeves recursion on the model `q(d) = 1/2 d^T H d + phi^T d`, gradient
/// `r = H d + phi`: `alpha = r^T r / p^T H p`, `d += alpha p`, `r += alpha H p`,
/// `beta = ‖r_new‖² / ‖r‖²`, `p = -r + beta p`. It stops at `max_iter` products, at
/// `‖r‖ <= rel_tol ‖phi‖`, or when `p^T H p <= 0` (no positive curvature: the model has no
/// minimiser along `p`). If the first direction already fails the curvature test the
/// answer is `-phi` (steepest descent of the model at zero).
pub fn quasi_ncg(
    product: &mut dyn FnMut(&DVector<f64>) -> DVector<f64>,
    phi: &DVector<f64>,
    max_iter: usize,
    rel_tol: f64,
) -> (DVector<f64>, KrylovOutcome) {
    let n = phi.len();
    let pnorm = phi.norm();
    let mut d = DVector::zeros(n);
    if pnorm == 0.0 {
        return (
            d,
            KrylovOutcome {
                iterations: 0,
                relative_residual: 0.0,
                converged: true,
            },
        );
    }
    let mut r = phi.clone();
    let mut p = -phi;
    let mut rr = r.norm_squared();
    let mut k = 0;
    while k < max_iter {
        let hp = product(&p);
        k += 1;
        let curv = p.dot(&hp);
        if !(curv > 0.0) || !curv.is_finite() {
            if k == 1 {
                d = -phi;
            }
            break;
        }
        let alpha = rr / curv;
        d.axpy(alpha, &p, 1.0);
        r.axpy(alpha, &hp, 1.0);
        let rr_new = r.norm_squared();
        if rr_new.sqrt() <= rel_tol * pnorm {
            rr = rr_new;
            break;
        }
        let beta = rr_new / rr;
        rr = rr_new;
        p = &p * beta - &r;
    }
    let rel = rr.sqrt() / pnorm;
    (
        d,
        KrylovOutcome {
            iterations: k,
            relative_residual: rel,
            converged: rel <= rel_tol,
        },
    )
}

/// The Jacobi (diagonal) preconditioner of a Krylov inner solve: `1 / d_i` for each
/// diagonal entry, and 1 where `d_i` is zero or not finite (a row the B-subdifferential
/// element leaves empty, or one held at a kink), so that the preconditioner is always
/// defined. `diag` has the system's dimension; so has the result.
pub(crate) fn jacobi_preconditioner(diag: DVector<f64>) -> DVector<f64> {
    diag.map(|d| {
        if d != 0.0 && d.is_finite() {
            1.0 / d
        } else {
            1.0
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gmres_solves_a_nonsymmetric_system_with_restarts() {
        let n = 40;
        let a = DMatrix::from_fn(n, n, |i, j| {
            if i == j {
                4.0 + i as f64 * 0.1
            } else if j == i + 1 {
                -1.0
            } else if i == j + 2 {
                0.7
            } else {
                0.0
            }
        });
        let rhs = DVector::from_fn(n, |i, _| (i as f64).sin());
        let mut d = DVector::zeros(n);
        let diag = DVector::from_fn(n, |i, _| 1.0 / a[(i, i)]);
        let out = gmres(&mut |v| &a * v, &rhs, &mut d, Some(&diag), 5, 500, 1e-12);
        assert!(out.converged, "{out:?}");
        assert!((&a * &d - &rhs).norm() <= 1e-11 * rhs.norm());
    }

    #[test]
    fn gmres_on_a_singular_system_stays_finite() {
        let a = DMatrix::from_row_slice(2, 2, &[1.0, 1.0, 1.0, 1.0]);
        let rhs = DVector::from_vec(vec![1.0, -1.0]);
        let mut d = DVector::zeros(2);
        let out = gmres(&mut |v| &a * v, &rhs, &mut d, None, 2, 10, 1e-12);
        assert!(!out.converged);
        assert!(d.iter().all(|v| v.is_finite()));
    }

    #[test]
    fn quasi_ncg_with_exact_products_is_cg_on_spd() {
        let a = DMatrix::from_row_slice(3, 3, &[4.0, 1.0, 0.0, 1.0, 3.0, 1.0, 0.0, 1.0, 2.0]);
        let phi = DVector::from_vec(vec![1.0, -2.0, 0.5]);
        let (d, out) = quasi_ncg(&mut |p| &a * p, &phi, 3, 1e-13);
        assert!(out.converged);
        assert!((&a * &d + &phi).norm() < 1e-12);
    }
}
