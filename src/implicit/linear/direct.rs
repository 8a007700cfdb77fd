//! The direct inner solver: sparse LU with partial pivoting and a fill-reducing column
//! ordering (faer 0.24, `SymbolicLu::try_new`, the pattern of `src/newton/inner.rs`). The
//! reference answer the iterative methods are checked against; one "iteration". Unlike
//! them it does not need `A` symmetric or its diagonal positive, only non-singular.

use super::{InnerError, InnerReport, residual_norm};
use faer::linalg::solvers::Solve;
use faer::sparse::linalg::solvers::{Lu, SymbolicLu};
use faer::sparse::{SparseColMat, Triplet};
use nalgebra::DVector;
use nalgebra_sparse::CsrMatrix;

/// Solves `A x = b` by sparse LU (input checked by [`super::solve`]). On success `x` holds
/// the answer and the report has one iteration; on [`InnerError::Singular`] (the
/// factorisation failed, or the answer or its residual is not finite: a singular `A`) `x`
/// is unchanged.
pub(crate) fn direct(
    a: &CsrMatrix<f64>,
    b: &DVector<f64>,
    x: &mut DVector<f64>,
) -> Result<InnerReport, InnerError> {
    let n = b.len();
    let residual = |v: &DVector<f64>| residual_norm(a, b, v);
    let r0 = residual(x);
    if n == 0 {
        return Ok(InnerReport {
            iterations: 1,
            residuals: vec![0.0, 0.0],
        });
    }
    let triplets: Vec<Triplet<usize, usize, f64>> = a
        .triplet_iter()
        .map(|(row, col, &val)| Triplet { row, col, val })
        .collect();
    let mat = SparseColMat::<usize, f64>::try_new_from_triplets(n, n, &triplets)
        .map_err(|e| InnerError::Singular(format!("sparse matrix: {e:?}")))?;
    let symbolic = SymbolicLu::try_new(mat.symbolic())
        .map_err(|e| InnerError::Singular(format!("symbolic LU: {e:?}")))?;
    let lu = Lu::try_new_with_symbolic(symbolic, mat.as_ref())
        .map_err(|e| InnerError::Singular(format!("LU: {e:?}")))?;
    let mut sol = b.clone();
    let view = faer::MatMut::from_column_major_slice_mut(sol.as_mut_slice(), n, 1);
    lu.solve_in_place(view);
    if !sol.iter().all(|v| v.is_finite()) {
        return Err(InnerError::Singular(
            "the LU factors have a zero pivot (the answer is not finite)".to_string(),
        ));
    }
    let r1 = residual(&sol);
    if !r1.is_finite() {
        return Err(InnerError::Singular(
            "the residual of the answer is not finite".to_string(),
        ));
    }
    x.copy_from(&sol);
    Ok(InnerReport {
        iterations: 1,
        residuals: vec![r0, r1],
    })
}
