//! An element of the B-subdifferential of the Fischer reformulation, assembled row by row
//! by the chain rule (Silcowitz, Niebe, Erleben 2009 eq. 30-31).
//!
//! Checked by `tests/laws/fischer_jacobian.rs`.

use crate::rng::SplitMix64;
use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};

use super::rows::Rows;
use crate::ncp::{FischerBurmeister, NcpFunction};

/// Which element of the B-subdifferential to use where a Fischer-Burmeister function is
/// evaluated at its kink, the origin (Niebe and Erleben 2015; NOTES §3.3).
///
/// A scalar `phi_FB(a, b)` is at its kink when `|a| <= kink_tol` and `|b| <= kink_tol`
/// ([`JacobianOptions::kink_tol`]). Its B-subdifferential there is the circle
/// `{(1 - cos t, 1 - sin t)}` (book chapter *Complementarity and its reformulations*).
///
/// In options files and `key=value` settings: `"fixed"`, `"random"` (seed 0),
/// `"perturbation"`, `"zero"`, or `{"random": {"seed": 7}}`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum KinkStrategy {
    /// The crate's element `(1, 0)` ([`FischerBurmeister::grad`] at the origin): the row
    /// is treated as inactive. The default.
    Fixed,
    /// A random point `(1 - cos t, 1 - sin t)` of the circle, `t` uniform in `[0, 2 pi)`,
    /// from a generator seeded with `seed` (the same seed gives the same run).
    Random {
        /// Seed of the generator (SplitMix64). Default 0.
        seed: u64,
    },
    /// Move the first argument off the kink, `a <- sign(a) kink_tol` (`sign(0) = +1`),
    /// and use the gradient there (num4lcp's `perturbation`).
    Perturbation,
    /// The zero choice: a row whose *outer* function is at its kink gets a zero row of
    /// `H` (num4lcp's `zero`). Such a row is not an element of the B-subdifferential and
    /// leaves `H` singular, so the Newton system is solved *reduced*: the row is removed
    /// and its unknown held (`Delta x_i = 0`), which is consistent because
    /// `Phi_i ~ 0` there. At a kink of the inner function only, the inner derivatives
    /// are set to zero.
    Zero,
}

impl std::str::FromStr for KinkStrategy {
    type Err = String;

    /// `fixed`, `random` (seed 0), `perturbation` or `zero`.
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "fixed" => Ok(KinkStrategy::Fixed),
            "random" => Ok(KinkStrategy::Random { seed: 0 }),
            "perturbation" => Ok(KinkStrategy::Perturbation),
            "zero" => Ok(KinkStrategy::Zero),
            other => Err(format!(
                "unknown kink strategy `{other}` (expected fixed, random, perturbation or zero)"
            )),
        }
    }
}

/// Options of the assembly of the generalised Jacobian (Silcowitz, Niebe, Erleben 2009
/// eq. 30-31; the kink choices of Niebe and Erleben 2015). In options files an object
/// `{"kink": "zero", "kink_tol": 1e-20}`, every field optional, or a bare kink strategy
/// (`"random"`, as `jacobian=random` on a command line), which sets `kink` and leaves
/// `kink_tol` at its default.
///
/// ```
/// use nonsmooth::newton::{JacobianOptions, KinkStrategy};
/// let j: JacobianOptions = serde_json::from_str(r#""random""#).unwrap();
/// assert_eq!(j.kink, KinkStrategy::Random { seed: 0 });
/// assert_eq!(j.kink_tol, JacobianOptions::default().kink_tol);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct JacobianOptions {
    /// What to do at kinks. Default [`KinkStrategy::Fixed`].
    pub kink: KinkStrategy,
    /// Distance from the origin (in the units of the arguments, `max(|a|, |b|)`) within
    /// which a scalar Fischer-Burmeister function counts as at its kink. Default `1e-28`
    /// (num4lcp's `gamma`); `>= 0` and finite; `0` detects only exact zeros.
    pub kink_tol: f64,
}

impl Default for JacobianOptions {
    fn default() -> Self {
        JacobianOptions {
            kink: KinkStrategy::Fixed,
            kink_tol: 1e-28,
        }
    }
}

/// The object form of [`JacobianOptions`] (every field optional, unknown ones refused).
#[derive(Deserialize)]
#[serde(default, deny_unknown_fields)]
struct JacobianFields {
    kink: KinkStrategy,
    kink_tol: f64,
}

impl Default for JacobianFields {
    fn default() -> Self {
        let d = JacobianOptions::default();
        JacobianFields {
            kink: d.kink,
            kink_tol: d.kink_tol,
        }
    }
}

impl<'de> Deserialize<'de> for JacobianOptions {
    /// An object `{"kink": ..., "kink_tol": ...}`, or a bare kink strategy name.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        const FORMS: &str = "a kink strategy (fixed, random, perturbation or zero, e.g. \
                             jacobian=random) or an object such as \
                             {\"kink\": {\"random\": {\"seed\": 7}}, \"kink_tol\": 1e-28}";
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(name) => {
                let kink = name.parse::<KinkStrategy>().map_err(D::Error::custom)?;
                Ok(JacobianOptions {
                    kink,
                    ..Default::default()
                })
            }
            object @ serde_json::Value::Object(_) => {
                let f = JacobianFields::deserialize(object).map_err(D::Error::custom)?;
                Ok(JacobianOptions {
                    kink: f.kink,
                    kink_tol: f.kink_tol,
                })
            }
            other => Err(D::Error::custom(format!("expected {FORMS}, got {other}"))),
        }
    }
}

/// The element chosen for one scalar Fischer-Burmeister function at `(a, b)`:
/// `(d phi/d a, d phi/d b)` and whether `(a, b)` was at the kink.
fn fb_element(a: f64, b: f64, opts: &JacobianOptions, rng: &mut SplitMix64) -> ((f64, f64), bool) {
    let at_kink =
        a.is_finite() && b.is_finite() && a.abs() <= opts.kink_tol && b.abs() <= opts.kink_tol;
    if !at_kink {
        return (FischerBurmeister::grad(a, b), false);
    }
    let g = match opts.kink {
        KinkStrategy::Fixed => (1.0, 0.0),
        KinkStrategy::Random { .. } => {
            let t = 2.0 * std::f64::consts::PI * rng.next_f64();
            (1.0 - t.cos(), 1.0 - t.sin())
        }
        KinkStrategy::Perturbation => {
            let s = if a < 0.0 { -1.0 } else { 1.0 };
            // kink_tol may be 0: then any positive number moves the point off the kink
            let gamma = opts.kink_tol.max(f64::MIN_POSITIVE);
            FischerBurmeister::grad(s * gamma, b)
        }
        KinkStrategy::Zero => (0.0, 0.0),
    };
    (g, true)
}

/// An element `H` of the B-subdifferential of the Fischer reformulation `Phi` at a point
/// `x`, stored by rows as
///
/// ```text
/// H_i. = dx_i e_i^T  +  dy_i A_i.  +  c_i e_dep(i)^T
/// ```
///
/// (`n x n`; `c_i = 0` for rows with fixed bounds). For the nested row
/// `psi = phi(x - lo, g)`, `g = -phi(-y, hi - x)`, with `(p_a, p_b)` the outer and
/// `(q_a, q_b)` the inner element: `dx = p_a + p_b q_b`, `dy = p_b q_a` (chain rule through
/// `y = A x + b`) and, for a friction row `lo = -mu x_n`, `hi = mu x_n`,
/// `c = mu (p_a - p_b q_b)` (chain rule through the bounds; Silcowitz et al. 2009
/// eq. 28-31; book chapter *Fischer-Newton*).
///
/// Rows marked *held* ([`KinkStrategy::Zero`]) are zero rows of `H`; the Newton solve
/// replaces them by `Delta x_i = 0`.
#[derive(Debug, Clone)]
pub struct GeneralizedJacobian<'a> {
    rows: Rows<'a>,
    dx: Vec<f64>,
    dy: Vec<f64>,
    chain: Vec<f64>,
    held: Vec<bool>,
    kinks: usize,
}

impl<'a> GeneralizedJacobian<'a> {
    /// `Phi(x)` and an element `H` of its B-subdifferential at `x`, given `w = A x + b`.
    ///
    /// The default options choose `(1, 0)` at every kink; see [`JacobianOptions`].
    pub fn fischer(
        rows: Rows<'a>,
        x: &DVector<f64>,
        w: &DVector<f64>,
        opts: &JacobianOptions,
    ) -> (DVector<f64>, Self) {
        let seed = match opts.kink {
            KinkStrategy::Random { seed } => seed,
            _ => 0,
        };
        Self::fischer_with_rng(rows, x, w, opts, &mut SplitMix64::new(seed))
    }

    pub(crate) fn fischer_with_rng(
        rows: Rows<'a>,
        x: &DVector<f64>,
        w: &DVector<f64>,
        opts: &JacobianOptions,
        rng: &mut SplitMix64,
    ) -> (DVector<f64>, Self) {
        let n = rows.dim();
        let mut phi = DVector::zeros(n);
        let mut dx = vec![0.0; n];
        let mut dy = vec![0.0; n];
        let mut chain = vec![0.0; n];
        let mut held = vec![false; n];
        let mut kinks = 0;
        // ANCHOR: assemble
        for i in 0..n {
            let (lo, hi) = rows.bounds_at(i, x.as_slice());
            let (xi, yi) = (x[i], w[i]);
            // inner: phi(-y, hi - x); outer: phi(x - lo, g), g = -inner
            let (ia, ib) = (-yi, hi - xi);
            let g = -FischerBurmeister::value(ia, ib);
            let (oa, ob) = (xi - lo, g);
            phi[i] = FischerBurmeister::value(oa, ob);
            let ((qa, qb), k_in) = fb_element(ia, ib, opts, rng);
            let ((pa, pb), k_out) = fb_element(oa, ob, opts, rng);
            kinks += k_in as usize + k_out as usize;
            if k_out && opts.kink == KinkStrategy::Zero {
                held[i] = true;
                continue;
            }
            dx[i] = pa + pb * qb;
            dy[i] = pb * qa;
            if let Some((_, factor)) = rows.dependency(i) {
                // d psi/d lo = -pa, d lo/d x_dep = -factor; d psi/d hi = -pb qb,
                // d hi/d x_dep = factor
                chain[i] = factor * (pa - pb * qb);
            }
        }
        // ANCHOR_END: assemble
        (
            phi,
            GeneralizedJacobian {
                rows,
                dx,
                dy,
                chain,
                held,
                kinks,
            },
        )
    }

    /// Dimension `n`.
    pub fn dim(&self) -> usize {
        self.dx.len()
    }

    /// The rows this element belongs to.
    pub fn rows(&self) -> Rows<'a> {
        self.rows
    }

    /// Number of scalar Fischer-Burmeister evaluations (two per row) found at a kink.
    pub fn kinks(&self) -> usize {
        self.kinks
    }

    /// `true` if row `i` is held ([`KinkStrategy::Zero`] at an outer kink): a zero row.
    pub fn is_held(&self, i: usize) -> bool {
        self.held[i]
    }

    /// Number of held rows.
    pub fn held_count(&self) -> usize {
        self.held.iter().filter(|h| **h).count()
    }

    /// The coefficients `(dx_i, dy_i, c_i)` of row `i` (all zero for a held row).
    pub fn row_coefficients(&self, i: usize) -> (f64, f64, f64) {
        (self.dx[i], self.dy[i], self.chain[i])
    }

    // ANCHOR: apply
    /// `H v` (one pass over `A`).
    pub fn apply(&self, v: &DVector<f64>) -> DVector<f64> {
        let av = self.rows.a().mul_vec(v);
        DVector::from_fn(self.dim(), |i, _| {
            let mut s = self.dx[i] * v[i] + self.dy[i] * av[i];
            if let Some((dep, _)) = self.rows.dependency(i) {
                s += self.chain[i] * v[dep];
            }
            s
        })
    }

    // ANCHOR_END: apply

    /// The Newton operator `H'` with held rows replaced by `e_i^T`: `H' v` (one pass over
    /// `A`). Equal to [`GeneralizedJacobian::apply`] when no row is held.
    pub fn apply_reduced(&self, v: &DVector<f64>) -> DVector<f64> {
        let mut out = self.apply(v);
        for i in 0..self.dim() {
            if self.held[i] {
                out[i] = v[i];
            }
        }
        out
    }

    /// `H^T v` (one pass over `A`): the gradient of the merit `1/2 ‖Phi‖²` is `H^T Phi`
    /// (Silcowitz et al. 2009 eq. 36).
    pub fn apply_transpose(&self, v: &DVector<f64>) -> DVector<f64> {
        let n = self.dim();
        let dyv = DVector::from_fn(n, |i, _| self.dy[i] * v[i]);
        let mut out = self.rows.a().tr_mul_vec(&dyv);
        for i in 0..n {
            out[i] += self.dx[i] * v[i];
            if let Some((dep, _)) = self.rows.dependency(i) {
                out[dep] += self.chain[i] * v[i];
            }
        }
        out
    }

    /// The diagonal of the Newton operator `H'` (held rows: 1).
    pub fn diagonal_reduced(&self) -> DVector<f64> {
        DVector::from_fn(self.dim(), |i, _| {
            if self.held[i] {
                1.0
            } else {
                self.dx[i] + self.dy[i] * self.rows.a().get(i, i)
            }
        })
    }

    /// `H` as a dense matrix (for tests and teaching-size problems; the solvers never form
    /// it).
    ///
    /// # Panics
    /// If `H` is too large for a dense copy ([`crate::matrix::check_dense`]).
    pub fn to_dense(&self) -> DMatrix<f64> {
        let n = self.dim();
        if let Err(e) = crate::matrix::check_dense("the dense Newton matrix", n, n) {
            panic!("{e}");
        }
        let mut h = DMatrix::zeros(n, n);
        for i in 0..n {
            let dy = self.dy[i];
            self.rows.a().for_each_in_row(i, |j, v| h[(i, j)] += dy * v);
            h[(i, i)] += self.dx[i];
            if let Some((dep, _)) = self.rows.dependency(i) {
                h[(i, dep)] += self.chain[i];
            }
        }
        h
    }

    /// Fills `values` with the entries of the Newton operator `H'` in the order of
    /// [`newton_pattern`] (held rows become `e_i^T`).
    pub(crate) fn fill_values(&self, values: &mut Vec<f64>) {
        values.clear();
        for i in 0..self.dim() {
            let held = self.held[i];
            let dy = if held { 0.0 } else { self.dy[i] };
            self.rows.a().for_each_in_row(i, |_, v| values.push(dy * v));
            values.push(if held { 1.0 } else { self.dx[i] });
            if self.rows.dependency(i).is_some() {
                values.push(if held { 0.0 } else { self.chain[i] });
            }
        }
    }
}

/// The sparsity pattern of every Newton operator on `rows`, as `(row, col)` pairs in the
/// order [`GeneralizedJacobian::fill_values`] writes values: per row, the stored entries
/// of `A`'s row, then the diagonal, then the dependency (friction rows). Duplicates are
/// summed by the sparse assembly.
pub(crate) fn newton_pattern(rows: &Rows<'_>) -> Vec<(usize, usize)> {
    let mut pairs = Vec::with_capacity(rows.a().nnz() + 2 * rows.dim());
    for i in 0..rows.dim() {
        rows.a().for_each_in_row(i, |j, _| pairs.push((i, j)));
        pairs.push((i, i));
        if let Some((dep, _)) = rows.dependency(i) {
            pairs.push((i, dep));
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::Matrix;
    use crate::problem::{BoxedLcp, Lcp, RowBound};

    fn small_boxed() -> BoxedLcp {
        let a = DMatrix::from_row_slice(3, 3, &[2.0, 0.3, -0.2, 0.3, 1.5, 0.1, -0.2, 0.1, 1.8]);
        BoxedLcp::new(
            Matrix::Dense(a),
            DVector::from_vec(vec![-1.0, 0.4, -0.3]),
            vec![
                RowBound::Fixed {
                    lo: 0.0,
                    hi: f64::INFINITY,
                },
                RowBound::Friction {
                    dep: 0,
                    factor: 0.5,
                },
                RowBound::Friction {
                    dep: 0,
                    factor: 0.5,
                },
            ],
        )
        .unwrap()
    }

    #[test]
    fn products_agree_with_the_dense_matrix() {
        let p = small_boxed();
        let rows = Rows::boxed(&p);
        let x = DVector::from_vec(vec![0.7, 0.1, -0.2]);
        let w = rows.w(&x);
        let (_, h) = GeneralizedJacobian::fischer(rows, &x, &w, &JacobianOptions::default());
        let d = h.to_dense();
        let v = DVector::from_vec(vec![0.3, -1.0, 2.0]);
        assert!((h.apply(&v) - &d * &v).amax() < 1e-15);
        assert!((h.apply_transpose(&v) - d.transpose() * &v).amax() < 1e-15);
        assert!((h.diagonal_reduced() - d.diagonal()).amax() < 1e-15);
    }

    /// At `x = 0`, `w = 0` every LCP row is at the kink of phi_FB(x, w).
    fn kink_lcp() -> Lcp {
        Lcp::new(
            Matrix::Dense(DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0])),
            DVector::zeros(2),
        )
        .unwrap()
    }

    /// The dense element chosen at the kink, with each row's `(dx, dy)` and the held count.
    fn element(kink: KinkStrategy) -> (DMatrix<f64>, Vec<(f64, f64)>, usize, usize) {
        let lcp = kink_lcp();
        let rows = Rows::lcp(&lcp);
        let x = DVector::zeros(2);
        let w = rows.w(&x);
        let opts = JacobianOptions {
            kink,
            ..Default::default()
        };
        let h = GeneralizedJacobian::fischer(rows, &x, &w, &opts).1;
        let coeffs = (0..2)
            .map(|i| {
                let (dx, dy, _) = h.row_coefficients(i);
                (dx, dy)
            })
            .collect();
        (h.to_dense(), coeffs, h.held_count(), h.kinks())
    }

    #[test]
    fn the_documented_elements_at_the_kink() {
        // Fixed: (1, 0), the row is inactive: H = I
        let (h, _, _, kinks) = element(KinkStrategy::Fixed);
        assert_eq!(kinks, 2);
        assert_eq!(h, DMatrix::identity(2, 2));
        // Perturbation: a -> +tol, b = 0: gradient (0, 1), the row is active: H = A
        let (h, _, _, _) = element(KinkStrategy::Perturbation);
        assert_eq!(h, kink_lcp().a().to_dense());
        // Zero: both rows held
        let (h, _, held, _) = element(KinkStrategy::Zero);
        assert_eq!(held, 2);
        assert_eq!(h, DMatrix::zeros(2, 2));
        // Random: points of the circle (1 - cos t, 1 - sin t), reproducible by seed
        let (h1, c1, _, _) = element(KinkStrategy::Random { seed: 7 });
        let (h2, _, _, _) = element(KinkStrategy::Random { seed: 7 });
        assert_eq!(h1, h2);
        for (dx, dy) in c1 {
            assert!(((1.0 - dx).powi(2) + (1.0 - dy).powi(2) - 1.0).abs() < 1e-14);
        }
    }
}
