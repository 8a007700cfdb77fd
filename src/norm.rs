//! Euclidean norms that neither overflow nor underflow: the sum of squares kept scaled
//! (LAPACK's `dlassq`, [`SumSquares`]) and the norm that uses it only when the plain sum
//! of squares is out of range ([`scaled_norm`], as LAPACK's `dnrm2`). Every error measure
//! of [`crate::merit`] and the problem model's projections use them, so that a problem
//! scaled by `1e200` is measured as well as the same problem unscaled.
//!
//! This module imports nothing from the crate (see the architecture section of the crate
//! documentation).

/// A sum of squares kept as `scale² · ssq` (LAPACK's `dlassq`), so that neither the
/// squares of huge entries (beyond about `1e154`) overflow nor those of tiny ones (below
/// about `1e-154`) underflow.
///
/// ```
/// use nonsmooth::norm::SumSquares;
/// let mut s = SumSquares::new();
/// s.add(3e200);
/// s.add(4e200);
/// assert!((s.norm() - 5e200).abs() <= 1e186);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SumSquares {
    scale: f64,
    ssq: f64,
    nan: bool,
}

impl Default for SumSquares {
    fn default() -> Self {
        SumSquares::new()
    }
}

impl SumSquares {
    /// The empty sum.
    pub fn new() -> Self {
        SumSquares {
            scale: 0.0,
            ssq: 0.0,
            nan: false,
        }
    }

    /// Adds `x²`. A NaN makes the norm NaN, an infinity makes it infinite.
    #[inline]
    pub fn add(&mut self, x: f64) {
        let a = x.abs();
        if a.is_nan() {
            self.nan = true;
        } else if a == 0.0 {
        } else if a > self.scale {
            let r = self.scale / a; // 0 when a is infinite
            self.ssq = 1.0 + self.ssq * r * r;
            self.scale = a;
        } else if a.is_finite() {
            let r = a / self.scale;
            self.ssq += r * r;
        } else {
            // a second infinity
            self.ssq += 1.0;
        }
    }

    /// Adds the squares of every entry of `xs`.
    pub fn add_all(&mut self, xs: &[f64]) {
        for &x in xs {
            self.add(x);
        }
    }

    /// Adds another sum.
    pub fn merge(&mut self, other: SumSquares) {
        self.nan |= other.nan;
        if other.scale == 0.0 {
            return;
        }
        if other.scale > self.scale {
            let r = self.scale / other.scale;
            self.ssq = other.ssq + self.ssq * r * r;
            self.scale = other.scale;
        } else if other.scale.is_finite() {
            let r = other.scale / self.scale;
            self.ssq += other.ssq * r * r;
        } else {
            self.ssq += other.ssq;
        }
    }

    /// `sqrt` of the sum: finite unless the true norm exceeds `f64::MAX`.
    pub fn norm(&self) -> f64 {
        if self.nan {
            f64::NAN
        } else if self.scale.is_infinite() {
            f64::INFINITY
        } else {
            self.scale * self.ssq.sqrt()
        }
    }
}

/// Sums of squares at least this large lost nothing to underflow (the squares of entries
/// below `1e-154` are subnormal or zero).
pub(crate) const SAFE_SUM: f64 = 1e-290;

/// The Euclidean norm of `v` without overflow or underflow: the plain sum of squares when
/// it is safely in range, [`SumSquares`] otherwise (as LAPACK's `dnrm2`).
///
/// ```
/// use nonsmooth::norm::scaled_norm;
/// assert_eq!(scaled_norm(&[3.0, 4.0]), 5.0);
/// assert!((scaled_norm(&[3e300, 4e300]) / 5e300 - 1.0).abs() < 1e-15);
/// assert!((scaled_norm(&[3e-300, 4e-300]) / 5e-300 - 1.0).abs() < 1e-15);
/// ```
pub fn scaled_norm(v: &[f64]) -> f64 {
    // nalgebra's sum of squares: in range, exactly the number `DVector::norm` gives
    let s = nalgebra::DVectorView::from_slice(v, v.len()).norm_squared();
    if s.is_finite() && s >= SAFE_SUM {
        return s.sqrt();
    }
    if s == 0.0 && v.iter().all(|x| *x == 0.0) {
        return 0.0;
    }
    let mut acc = SumSquares::new();
    acc.add_all(v);
    acc.norm()
}

/// As [`scaled_norm`], summing the squares in order (`Σ x_i²` left to right) when they are
/// safely in range.
pub(crate) fn scaled_norm_seq(v: &[f64]) -> f64 {
    let s: f64 = v.iter().map(|x| x * x).sum();
    if s.is_finite() && s >= SAFE_SUM {
        return s.sqrt();
    }
    if s == 0.0 && v.iter().all(|x| *x == 0.0) {
        return 0.0;
    }
    let mut acc = SumSquares::new();
    acc.add_all(v);
    acc.norm()
}
