use nalgebra::DVector;

use super::{
    FrictionContact, ProblemError, check_finite_mat, check_finite_vec, check_len, check_square,
};
use crate::matrix::Matrix;

/// The bounds of one row of a [`BoxedLcp`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RowBound {
    /// Constant bounds `lo <= x_i <= hi`; `lo` may be `-inf`, `hi` may be `+inf`.
    /// A normal row is `Fixed { lo: 0.0, hi: f64::INFINITY }`.
    Fixed {
        /// Lower bound.
        lo: f64,
        /// Upper bound.
        hi: f64,
    },
    /// The friction box: `-factor * x[dep] <= x_i <= factor * x[dep]`, the bound follows
    /// the current value of the normal row `dep` (Erleben 2007 eq. 29; Silcowitz et al.
    /// 2009 eq. 28 with `factor = mu`). OpenTissue stores the same data as `dep, factor`.
    Friction {
        /// The row whose value scales the bound (the contact's normal row).
        dep: usize,
        /// The friction coefficient, `>= 0`.
        factor: f64,
    },
}

/// The boxed LCP with variable bounds (the "friction box" or outer-pyramid model):
/// find `x` with `w = A x + b` and, for every row `i` with bounds `lo_i(x) <= hi_i(x)`,
///
/// ```text
/// x_i = lo_i  =>  w_i >= 0,      x_i = hi_i  =>  w_i <= 0,      lo_i < x_i < hi_i  =>  w_i = 0
/// ```
///
/// (Erleben 2007 eq. 15 and 27; Silcowitz, Niebe, Erleben 2009 eq. 19). Tangential rows are
/// bounded by `mu` times their contact's normal value, which makes the problem a nonlinear
/// complementarity problem even though `w` is affine in `x`.
///
/// Shapes: `A` is `n x n`, `b` and the bounds have `n` entries.
///
/// # Errors
/// [`BoxedLcp::new`] rejects non-square `A`, wrong lengths, NaN/inf in `A` or `b`, a NaN
/// bound, fixed bounds with `lo > hi`, and a friction row that depends on itself, on a row
/// out of range, or has a negative or non-finite factor.
#[derive(Debug, Clone, PartialEq)]
pub struct BoxedLcp {
    a: Matrix,
    b: DVector<f64>,
    bounds: Vec<RowBound>,
}

impl BoxedLcp {
    /// Builds and validates the problem.
    pub fn new(a: Matrix, b: DVector<f64>, bounds: Vec<RowBound>) -> Result<Self, ProblemError> {
        check_square("A", &a)?;
        check_len("b", a.nrows(), b.len())?;
        check_len("bounds", a.nrows(), bounds.len())?;
        check_finite_mat("A", &a)?;
        check_finite_vec("b", b.as_slice())?;
        let n = b.len();
        for (row, bound) in bounds.iter().enumerate() {
            match *bound {
                RowBound::Fixed { lo, hi } => {
                    if lo.is_nan()
                        || hi.is_nan()
                        || lo > hi
                        || lo == f64::INFINITY
                        || hi == f64::NEG_INFINITY
                    {
                        return Err(ProblemError::InvalidBound { row, lo, hi });
                    }
                }
                RowBound::Friction { dep, factor } => {
                    if dep >= n || dep == row || !(factor >= 0.0) || !factor.is_finite() {
                        return Err(ProblemError::InvalidDependency { row, dep, factor });
                    }
                }
            }
        }
        Ok(BoxedLcp { a, b, bounds })
    }

    /// The bounds as OpenTissue's arrays `(lo, hi, dep, factor)`, each of length `n`: the
    /// inverse of [`BoxedLcp::from_opentissue`]. A fixed row has `dep = -1`, its `lo`, `hi`
    /// (infinite bounds kept as `±inf`) and `factor = 0`; a friction row has `dep >= 0`, its
    /// `factor` and `lo = hi = 0` (unused).
    pub fn to_opentissue(&self) -> (Vec<f64>, Vec<f64>, Vec<i64>, Vec<f64>) {
        let n = self.bounds.len();
        let (mut lo, mut hi, mut dep, mut factor) =
            (vec![0.0; n], vec![0.0; n], vec![0i64; n], vec![0.0; n]);
        for (i, bound) in self.bounds.iter().enumerate() {
            match *bound {
                RowBound::Fixed { lo: l, hi: h } => {
                    lo[i] = l;
                    hi[i] = h;
                    dep[i] = -1;
                }
                RowBound::Friction { dep: d, factor: f } => {
                    dep[i] = d as i64;
                    factor[i] = f;
                }
            }
        }
        (lo, hi, dep, factor)
    }

    /// Builds the problem from OpenTissue's arrays: `lo, hi` are used where `dep_i < 0`;
    /// where `dep_i >= 0` the row is a friction row with `factor_i`. Bounds at or beyond
    /// `±f64::MAX` (OpenTissue writes `DBL_MAX` for "unbounded") become `±inf`.
    pub fn from_opentissue(
        a: Matrix,
        b: DVector<f64>,
        lo: &[f64],
        hi: &[f64],
        dep: &[i64],
        factor: &[f64],
    ) -> Result<Self, ProblemError> {
        let n = b.len();
        check_len("lo", n, lo.len())?;
        check_len("hi", n, hi.len())?;
        check_len("dep", n, dep.len())?;
        check_len("factor", n, factor.len())?;
        if let Some(row) = dep.iter().position(|&d| d < -1) {
            return Err(ProblemError::InvalidDepIndex { row, dep: dep[row] });
        }
        let inf = |v: f64| {
            if v >= f64::MAX {
                f64::INFINITY
            } else if v <= -f64::MAX {
                f64::NEG_INFINITY
            } else {
                v
            }
        };
        let bounds = (0..n)
            .map(|i| {
                if dep[i] >= 0 {
                    RowBound::Friction {
                        dep: dep[i] as usize,
                        factor: factor[i],
                    }
                } else {
                    RowBound::Fixed {
                        lo: inf(lo[i]),
                        hi: inf(hi[i]),
                    }
                }
            })
            .collect();
        BoxedLcp::new(a, b, bounds)
    }

    /// The box model of a 3D frictional contact problem: per contact the normal row gets
    /// `[0, inf)` and each tangent row the box `[-mu r_n, mu r_n]` (the outer friction
    /// pyramid; Erleben 2007 eq. 29, Silcowitz et al. 2009 eq. 28). `A = W`, `b = q`.
    pub fn from_friction_contact(fc: &FrictionContact) -> Self {
        let mut bounds = Vec::with_capacity(fc.dim());
        for (c, &mu) in fc.mu().iter().enumerate() {
            bounds.push(RowBound::Fixed {
                lo: 0.0,
                hi: f64::INFINITY,
            });
            bounds.push(RowBound::Friction {
                dep: 3 * c,
                factor: mu,
            });
            bounds.push(RowBound::Friction {
                dep: 3 * c,
                factor: mu,
            });
        }
        BoxedLcp {
            a: fc.w().clone(),
            b: fc.q().clone(),
            bounds,
        }
    }

    /// Number of unknowns `n`.
    pub fn dim(&self) -> usize {
        self.b.len()
    }

    /// The matrix `A` (`n x n`).
    pub fn a(&self) -> &Matrix {
        &self.a
    }

    /// The vector `b` (`n`).
    pub fn b(&self) -> &DVector<f64> {
        &self.b
    }

    /// The bound descriptions, one per row.
    pub fn row_bounds(&self) -> &[RowBound] {
        &self.bounds
    }

    /// `w = A x + b`.
    pub fn w(&self, x: &DVector<f64>) -> DVector<f64> {
        let mut w = self.b.clone();
        self.a.mul_vec_add(x, &mut w);
        w
    }

    /// The bounds `(lo_i, hi_i)` of row `i` at the point `x` (only `x[dep]` is read).
    /// For a friction row the interval is `[-f x_dep, f x_dep]`, empty when `x_dep < 0`;
    /// the solvers keep normal rows non-negative.
    #[inline]
    pub fn bounds_at(&self, i: usize, x: &[f64]) -> (f64, f64) {
        match self.bounds[i] {
            RowBound::Fixed { lo, hi } => (lo, hi),
            RowBound::Friction { dep, factor } => {
                let m = factor * x[dep];
                (-m, m)
            }
        }
    }

    /// All lower and upper bounds at `x`.
    pub fn bounds_vectors(&self, x: &DVector<f64>) -> (DVector<f64>, DVector<f64>) {
        let n = self.dim();
        let mut lo = DVector::zeros(n);
        let mut hi = DVector::zeros(n);
        for i in 0..n {
            let (l, h) = self.bounds_at(i, x.as_slice());
            lo[i] = l;
            hi[i] = h;
        }
        (lo, hi)
    }
}
