use std::cmp::Ordering;
use std::time::Instant;

use nalgebra::{DMatrix, DVector};

use crate::merit::lcp_error;
use crate::problem::{Lcp, ProblemError, check_len};
use crate::solver::{Params, SolveError, SolveInfo, Status};

/// Largest `n` the dense tableau accepts (it stores `n x (2n + 2)` numbers).
pub const MAX_DIM: usize = 4000;

/// Relative size (to the largest entry of the pivot column, or 1) below which a pivot
/// column entry counts as zero. On a rank-deficient `A` (more contacts than degrees of
/// freedom) entries that are zero in exact arithmetic come out of the tableau updates at
/// about `1e-12`; pivoting on one of them destroys feasibility and the method cycles
/// (`tests/law_redundant_contacts.rs` found such a case with `1e-12` here).
const PIVOT_TOL: f64 = 1e-9;

/// Lemke's complementary pivoting method with the lexicographic ratio test.
///
/// Solves `w = A x + b`, `0 <= x ⊥ w >= 0` by pivoting on the tableau
/// `w - A x - e x0 = b` (covering vector `e = 1`): the artificial variable `x0` enters at
/// the most negative `b_i`, and each pivot brings in the complement of the variable that
/// just left, until `x0` leaves (a solution) or no row bounds the entering column (a
/// secondary ray). Ties in the minimum-ratio test are broken lexicographically on the rows
/// of `[b, B^-1]`, which prevents cycling on degenerate problems.
///
/// When it ends on a solution, the answer is polished: with the final basis (which `x_j`
/// are basic) the linear system `A_BB x_B = -b_B` is re-solved by LU, and the polished
/// point is kept if its error is smaller.
///
/// `x` receives the answer (its input is ignored: Lemke needs no start). `params.max_iter`
/// caps the pivots; `params.tol` is the LCP error below which the result counts as
/// converged.
///
/// # Requirements
/// Lemke's method terminates with a solution for P-matrices and, when the LCP is
/// feasible, for copositive-plus matrices (Cottle, Pang, Stone 1992, Thm. 4.4.9, 4.4.13);
/// otherwise it may end on a ray. The matrix is converted to dense; `n <= 4000`.
///
/// # Errors
/// [`SolveError::RayTermination`] on a secondary ray; [`SolveError::NoConvergence`] if the
/// pivot cap is hit or the final error exceeds `params.tol`;
/// [`SolveError::Problem`] for `n > 4000` (`ProblemError::TooLarge` when the tableau would
/// exceed [`crate::matrix::MAX_DENSE_ENTRIES`]) or a wrong `x` length.
///
/// # Reference
/// Lemke 1965; Cottle, Pang, Stone 1992 §4.4 (the lexicographic rule, §4.9).
///
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::{problem::Lcp, solver::Params, pivoting::lemke};
/// let lcp = Lcp::new(DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]).into(),
///                    DVector::from_vec(vec![-5.0, -6.0])).unwrap();
/// let mut x = DVector::zeros(2);
/// let info = lemke(&lcp, &mut x, &Params { tol: 1e-12, ..Default::default() }).unwrap();
/// assert!(info.error.rel <= 1e-12);
/// assert!((x[1] - 7.0 / 3.0).abs() < 1e-14);
/// ```
pub fn lemke(lcp: &Lcp, x: &mut DVector<f64>, params: &Params) -> Result<SolveInfo, SolveError> {
    let start = Instant::now();
    let n = lcp.dim();
    check_len("x", n, x.len())?;
    // The tableau is n x (2n + 2): refuse before allocating (a sparse file of a few bytes
    // can declare n = 2^20).
    crate::matrix::check_dense("Lemke's tableau", n, 2 * n + 2)?;
    if n > MAX_DIM {
        return Err(ProblemError::Unsupported {
            reason: format!("Lemke's dense tableau is limited to n <= {MAX_DIM} (n = {n})"),
        }
        .into());
    }
    let finish = |x: &DVector<f64>, pivots: usize| {
        let error = lcp_error(lcp, x);
        let info = SolveInfo {
            status: if error.meets(params.tol, params.measure) {
                Status::Converged
            } else {
                Status::MaxIterations
            },
            iterations: pivots,
            error,
            seconds: start.elapsed().as_secs_f64(),
            history: Vec::new(),
        };
        if info.status == Status::Converged {
            Ok(info)
        } else {
            Err(SolveError::NoConvergence(Box::new(info)))
        }
    };

    let a = lcp.a().to_dense();
    let b = lcp.b();
    if b.iter().all(|v| *v >= 0.0) {
        x.fill(0.0);
        return finish(x, 0);
    }
    // The tableau's right-hand side is `b` times the power of two `2^k` that brings its
    // largest entry to [1, 2): exact, and it makes the ties of the ratio test (decided to
    // `1e-13 (1 + |v|)`) relative. Without it `b = -1e-17` made every row tie and the
    // method stopped on a wrong basis. The answer is scaled back by `2^-k`.
    let k = -(b.amax().log2().floor() as i32);
    let unscale = |x: &mut DVector<f64>| x.apply(|v| *v = crate::method::mul_pow2(*v, -k));

    // Tableau columns: w_0..w_{n-1}, x_0..x_{n-1}, x0 (artificial), rhs.
    let z0 = 2 * n;
    let rhs = 2 * n + 1;
    let mut t = DMatrix::<f64>::zeros(n, 2 * n + 2);
    for i in 0..n {
        t[(i, i)] = 1.0;
        for j in 0..n {
            t[(i, n + j)] = -a[(i, j)];
        }
        t[(i, z0)] = -1.0;
        t[(i, rhs)] = crate::method::mul_pow2(b[i], k);
    }
    let mut basis: Vec<usize> = (0..n).collect();

    // Lexicographic comparison of rows i and k of [rhs, B^-1] scaled by their pivot
    // column entries.
    let lex_cmp = |t: &DMatrix<f64>, i: usize, k: usize, col: usize| -> Ordering {
        let (pi, pk) = (t[(i, col)], t[(k, col)]);
        let keys = std::iter::once(rhs).chain(0..n);
        for c in keys {
            let (mut vi, mut vk) = (t[(i, c)] / pi, t[(k, c)] / pk);
            if c == rhs {
                // a basic variable's value is >= 0; below zero is rounding (a tie at 0)
                (vi, vk) = (vi.max(0.0), vk.max(0.0));
            }
            let tol = 1e-13 * (1.0 + vi.abs().max(vk.abs()));
            if (vi - vk).abs() > tol {
                return vi.partial_cmp(&vk).unwrap_or(Ordering::Equal);
            }
        }
        Ordering::Equal
    };

    // First pivot: x0 enters, the row of the most negative b leaves (lexicographically:
    // the initial pivot column is -e, so compare rows of [b, I] directly).
    let mut row = 0;
    for i in 1..n {
        // Pivot entries are -1, so the scaled rows are -[b_i, e_i]: the lexicographically
        // largest of those is the smallest [b_i, e_i], the row that keeps b feasible.
        if lex_cmp(&t, i, row, z0) == Ordering::Greater {
            row = i;
        }
    }
    let mut entering = z0;
    let mut pivots = 0;
    loop {
        // Pivot on (row, entering).
        let p = t[(row, entering)];
        for c in 0..t.ncols() {
            t[(row, c)] /= p;
        }
        for i in 0..n {
            if i != row {
                let f = t[(i, entering)];
                if f != 0.0 {
                    for c in 0..t.ncols() {
                        let v = t[(row, c)];
                        t[(i, c)] -= f * v;
                    }
                }
            }
        }
        let leaving = basis[row];
        basis[row] = entering;
        pivots += 1;
        if leaving == z0 {
            break;
        }
        if pivots >= params.max_iter {
            extract(&t, &basis, n, x);
            unscale(x);
            return finish(x, pivots);
        }
        // The complement of the leaving variable enters.
        entering = if leaving < n {
            leaving + n
        } else {
            leaving - n
        };
        let scale = (0..n).map(|i| t[(i, entering)].abs()).fold(0.0, f64::max);
        let mut best: Option<usize> = None;
        for i in 0..n {
            if t[(i, entering)] > PIVOT_TOL * scale.max(1.0) {
                best = Some(match best {
                    None => i,
                    Some(k) => {
                        // prefer x0 leaving on a tie (it ends the method)
                        match lex_cmp(&t, i, k, entering) {
                            Ordering::Less => i,
                            Ordering::Equal if basis[i] == z0 => i,
                            _ => k,
                        }
                    }
                });
            }
        }
        match best {
            Some(i) => row = i,
            None => {
                extract(&t, &basis, n, x);
                unscale(x);
                return Err(SolveError::RayTermination { pivots });
            }
        }
    }
    extract(&t, &basis, n, x);
    unscale(x);
    polish(lcp, &a, &basis, n, x);
    finish(x, pivots)
}

/// Reads `x` from the tableau: basic `x_j` take their row's right-hand side.
fn extract(t: &DMatrix<f64>, basis: &[usize], n: usize, x: &mut DVector<f64>) {
    x.fill(0.0);
    for (i, &v) in basis.iter().enumerate() {
        if (n..2 * n).contains(&v) {
            x[v - n] = t[(i, 2 * n + 1)].max(0.0);
        }
    }
}

/// Re-solves `A_BB x_B = -b_B` on the final basis and keeps the result if it is better.
fn polish(lcp: &Lcp, a: &DMatrix<f64>, basis: &[usize], n: usize, x: &mut DVector<f64>) {
    let active: Vec<usize> = basis
        .iter()
        .filter(|v| (n..2 * n).contains(*v))
        .map(|v| v - n)
        .collect();
    if active.is_empty() {
        return;
    }
    let k = active.len();
    let sub = DMatrix::from_fn(k, k, |i, j| a[(active[i], active[j])]);
    let rhs = DVector::from_fn(k, |i, _| -lcp.b()[active[i]]);
    if let Some(sol) = sub.lu().solve(&rhs) {
        let mut cand = DVector::zeros(n);
        for (i, &j) in active.iter().enumerate() {
            cand[j] = sol[i].max(0.0);
        }
        if cand.iter().all(|v| v.is_finite()) && lcp_error(lcp, &cand).abs < lcp_error(lcp, x).abs {
            x.copy_from(&cand);
        }
    }
}
