//! Law: away from the kinks, the element of the B-subdifferential that Fischer-Newton
//! assembles is the Jacobian of the Fischer reformulation `Phi` of the boxed LCP with
//! variable bounds (Silcowitz, Niebe, Erleben 2009 eq. 27-31): it agrees with central
//! finite differences of `Phi`, including the columns of the normal rows that the friction
//! bounds `±mu x_n` depend on.

use crate::strategies;

use nalgebra::{DMatrix, DVector};
use nonsmooth::ncp::FischerBurmeister;
use nonsmooth::ncp::NcpFunction;
use nonsmooth::newton::{GeneralizedJacobian, JacobianOptions, Rows};
use nonsmooth::problem::BoxedLcp;
use proptest::prelude::*;
use strategies::{boxed_friction, spd};

/// The smallest distance of any of the `2n` scalar Fischer-Burmeister calls from its kink.
fn distance_from_kinks(rows: &Rows<'_>, x: &DVector<f64>) -> f64 {
    let w = rows.w(x);
    (0..x.len())
        .map(|i| {
            let (lo, hi) = rows.bounds_at(i, x.as_slice());
            let (ia, ib) = (-w[i], hi - x[i]);
            let g = -FischerBurmeister::value(ia, ib);
            let inner = if hi.is_finite() {
                ia.hypot(ib)
            } else {
                f64::INFINITY
            };
            inner.min((x[i] - lo).hypot(g))
        })
        .fold(f64::INFINITY, f64::min)
}

fn finite_difference(rows: &Rows<'_>, x: &DVector<f64>) -> DMatrix<f64> {
    let n = x.len();
    let h = 1e-6;
    let phi = |x: &DVector<f64>| rows.fischer(x, &rows.w(x));
    DMatrix::from_fn(n, n, |i, j| {
        let mut xp = x.clone();
        let mut xm = x.clone();
        xp[j] += h;
        xm[j] -= h;
        (phi(&xp)[i] - phi(&xm)[i]) / (2.0 * h)
    })
}

fn check(p: &BoxedLcp, x: &DVector<f64>) -> Result<(), TestCaseError> {
    let rows = Rows::boxed(p);
    prop_assume!(distance_from_kinks(&rows, x) > 1e-2);
    let w = rows.w(x);
    let (phi, h) = GeneralizedJacobian::fischer(rows, x, &w, &JacobianOptions::default());
    prop_assert_eq!(h.kinks(), 0);
    prop_assert!((phi - rows.fischer(x, &w)).amax() == 0.0);
    // ANCHOR: law
    let hd = h.to_dense();
    let fd = finite_difference(&rows, x);
    prop_assert!(
        (&hd - &fd).amax() <= 1e-5 * (1.0 + fd.amax()),
        "H = {}\nFD = {}",
        hd,
        fd
    );
    // ANCHOR_END: law
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Friction rows with their dependency on the normal rows.
    #[test]
    fn boxed_friction_rows(p in boxed_friction(spd(6), 2),
                           x in prop::collection::vec(-1.0..2.0f64, 6)) {
        check(&p, &DVector::from_vec(x))?;
    }

    /// Plain LCP rows (`[0, +inf)`): `Phi_i = phi_FB(x_i, w_i)`.
    #[test]
    fn lcp_rows(a in spd(5), b in prop::collection::vec(-1.0..1.0f64, 5),
                x in prop::collection::vec(-1.0..2.0f64, 5)) {
        let bounds = vec![nonsmooth::problem::RowBound::Fixed { lo: 0.0, hi: f64::INFINITY }; 5];
        let p = BoxedLcp::new(a.into(), DVector::from_vec(b), bounds).unwrap();
        check(&p, &DVector::from_vec(x))?;
    }
}
