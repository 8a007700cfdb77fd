//! The problem as the Newton methods see it: rows with bounds, LCP rows being the special
//! case `[0, +inf)`.

use nalgebra::DVector;

use crate::matrix::Matrix;
use crate::merit::Residual;
use crate::ncp::{FischerBurmeister, MinMap, nested_box};
use crate::problem::{BoxedLcp, Lcp, RowBound};
use crate::solver::Dim;

/// A read-only view of an [`Lcp`] or a [`BoxedLcp`] that the Newton methods work on:
/// `w = A x + b` (`A` is `n x n`, `b` has `n` entries) and one interval per row.
///
/// An LCP row is the box `[0, +inf)`. A friction row (`RowBound::Friction { dep, factor }`)
/// has the box `[-factor x_dep, factor x_dep]`, which moves with `x`. The view can switch
/// friction off ([`Rows::without_friction`]): every friction row then gets the box
/// `[0, 0]`, which pins it to zero (the first phase of the semi-staggered start,
/// Silcowitz, Niebe, Erleben 2009 §3).
#[derive(Debug, Clone, Copy)]
pub struct Rows<'a> {
    a: &'a Matrix,
    b: &'a DVector<f64>,
    bounds: Option<&'a [RowBound]>,
    friction: bool,
}

impl<'a> Rows<'a> {
    /// The rows of an LCP: every row has the box `[0, +inf)`.
    pub fn lcp(lcp: &'a Lcp) -> Self {
        Rows {
            a: lcp.a(),
            b: lcp.b(),
            bounds: None,
            friction: true,
        }
    }

    /// The rows of a boxed LCP, friction bounds following their normal rows.
    pub fn boxed(blcp: &'a BoxedLcp) -> Self {
        Rows {
            a: blcp.a(),
            b: blcp.b(),
            bounds: Some(blcp.row_bounds()),
            friction: true,
        }
    }

    /// The same rows with every friction row pinned to zero (box `[0, 0]`, no dependence
    /// on its normal row). An LCP has no friction rows and is unchanged.
    pub fn without_friction(self) -> Self {
        Rows {
            friction: false,
            ..self
        }
    }

    /// `true` unless [`Rows::without_friction`] switched friction off.
    pub fn friction_enabled(&self) -> bool {
        self.friction
    }

    /// Number of unknowns `n`.
    pub fn dim(&self) -> usize {
        self.b.len()
    }

    /// The matrix `A`.
    pub fn a(&self) -> &'a Matrix {
        self.a
    }

    /// The vector `b`.
    pub fn b(&self) -> &'a DVector<f64> {
        self.b
    }

    /// `true` if row `i` is a friction row (whether or not friction is enabled).
    #[inline]
    pub fn is_friction_row(&self, i: usize) -> bool {
        matches!(self.bounds.map(|b| b[i]), Some(RowBound::Friction { .. }))
    }

    /// `Some((dep, factor))` if row `i`'s bounds are `[-factor x_dep, factor x_dep]` and
    /// friction is enabled; `None` for a fixed box.
    #[inline]
    pub fn dependency(&self, i: usize) -> Option<(usize, f64)> {
        match self.bounds.map(|b| b[i]) {
            Some(RowBound::Friction { dep, factor }) if self.friction => Some((dep, factor)),
            _ => None,
        }
    }

    /// Row `i`'s bounds `(lo, hi)` at `x` (only `x[dep]` is read).
    #[inline]
    pub fn bounds_at(&self, i: usize, x: &[f64]) -> (f64, f64) {
        match self.bounds.map(|b| b[i]) {
            None => (0.0, f64::INFINITY),
            Some(RowBound::Fixed { lo, hi }) => (lo, hi),
            Some(RowBound::Friction { dep, factor }) => {
                if self.friction {
                    let m = factor * x[dep];
                    (-m, m)
                } else {
                    (0.0, 0.0)
                }
            }
        }
    }

    /// `w = A x + b`.
    pub fn w(&self, x: &DVector<f64>) -> DVector<f64> {
        let mut w = self.b.clone();
        self.a.mul_vec_add(x, &mut w);
        w
    }

    /// The Fischer reformulation `Phi(x)_i = phi_FB(x_i - lo_i, -phi_FB(-w_i, hi_i - x_i))`
    /// given `w = A x + b` (Silcowitz et al. 2009 eq. 27-29 in the crate's sign,
    /// [`nested_box`]).
    pub fn fischer(&self, x: &DVector<f64>, w: &DVector<f64>) -> DVector<f64> {
        DVector::from_fn(x.len(), |i, _| {
            let (lo, hi) = self.bounds_at(i, x.as_slice());
            nested_box::<FischerBurmeister>(x[i], lo, hi, w[i])
        })
    }

    /// The minimum map `H(x)_i = min(x_i - lo_i, max(x_i - hi_i, w_i))` given `w`
    /// (Erleben 2007 eq. 37; for an LCP row `min(x_i, w_i)`).
    pub fn minmap(&self, x: &DVector<f64>, w: &DVector<f64>) -> DVector<f64> {
        DVector::from_fn(x.len(), |i, _| {
            let (lo, hi) = self.bounds_at(i, x.as_slice());
            nested_box::<MinMap>(x[i], lo, hi, w[i])
        })
    }

    /// The crate's error of `x` for these rows: `‖H(x)‖₂` (the minimum map above) and its
    /// ratio to `‖b‖` (to `max(‖x‖, ‖w‖, ‖finite fixed bounds‖)` when `b = 0`). For an LCP this is [`crate::merit::lcp_error`], for a boxed LCP
    /// [`crate::merit::boxed_error`].
    pub fn error(&self, x: &DVector<f64>) -> Residual {
        let w = self.w(x);
        self.error_with(x, &w)
    }

    /// As [`Rows::error`] with `w = A x + b` given.
    pub fn error_with(&self, x: &DVector<f64>, w: &DVector<f64>) -> Residual {
        let abs = crate::merit::scaled_norm(self.minmap(x, w).as_slice());
        let d = crate::merit::box_denominator(self.b, x, || w.clone(), self.bounds);
        Residual::new(abs, d, d)
    }

    /// Projects `x` onto the boxes, in place: rows with fixed bounds first, then friction
    /// rows in index order against the (already projected) values they depend on. A box
    /// that is empty (`lo > hi`, a friction row whose normal value is negative) projects
    /// to its midpoint, zero.
    pub fn project(&self, x: &mut DVector<f64>) {
        let n = self.dim();
        for pass in 0..2 {
            for i in 0..n {
                if self.is_friction_row(i) != (pass == 1) {
                    continue;
                }
                let (lo, hi) = self.bounds_at(i, x.as_slice());
                x[i] = if lo > hi {
                    0.5 * (lo + hi)
                } else {
                    x[i].max(lo).min(hi)
                };
            }
        }
    }
}

/// A problem the methods of [`crate::newton`] accept: [`Lcp`] and [`BoxedLcp`]. Its
/// [`Dim`] is the number of rows `n`.
pub trait NewtonProblem: Dim {
    /// The rows as the Newton methods see them.
    fn rows(&self) -> Rows<'_>;

    /// One projected Gauss-Seidel sweep in place (the map NNCG accelerates):
    /// [`crate::splitting::sweep_lcp`] or [`crate::splitting::sweep_boxed`].
    fn pgs_sweep(&self, x: &mut DVector<f64>);
}

impl NewtonProblem for Lcp {
    fn rows(&self) -> Rows<'_> {
        Rows::lcp(self)
    }
    fn pgs_sweep(&self, x: &mut DVector<f64>) {
        crate::splitting::sweep_lcp(self, x, crate::splitting::Splitting::GaussSeidel);
    }
}

impl NewtonProblem for BoxedLcp {
    fn rows(&self) -> Rows<'_> {
        Rows::boxed(self)
    }
    fn pgs_sweep(&self, x: &mut DVector<f64>) {
        crate::splitting::sweep_boxed(self, x, crate::splitting::Splitting::GaussSeidel);
    }
}
