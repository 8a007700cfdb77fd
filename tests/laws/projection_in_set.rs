//! Law: the projection onto every friction set lands in the set (Erleben 2017 eq. 1, 21),
//! and never returns NaN for finite input.
//!
//! Sets: the half-line, boxes, disks, ellipses and ellipsoids (both root finders of §4.1)
//! and the four friction laws at a normal force, with degenerate parameters (zero radius or
//! semi-axis, semi-axis ratios up to 1e12, `μ = 0`, `λ_N <= 0`) and points from the origin
//! to magnitudes 1e±300 (see `strategies/sets.rs`). "In the set" is checked on the gauge:
//! `Σ (x_i/a_i)² <= 1 + 8ε` (ellipsoids, disks), `max |x_i|/h_i <= 1` (boxes, exact), and exactly 0
//! along a zero semi-axis.

use crate::sets;

use proptest::prelude::*;
use sets::{SetCase, set_and_point};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20000))]

    #[test]
    fn projection_lands_in_the_set((case, z) in set_and_point()) {
        let p = case.project(&z);
        prop_assert!(p.iter().all(|v| v.is_finite()), "non-finite {p:?}");
        let (gauge, flat) = case.gauge(&p);
        prop_assert_eq!(flat, 0.0, "non-zero coordinate along a zero semi-axis: {:?}", p);
        let slack = match case.shape() {
            Some((_, true)) | None => 0.0,
            Some((_, false)) => 8.0 * f64::EPSILON,
        };
        prop_assert!(gauge <= 1.0 + slack, "gauge {} - 1 = {:e}: {:?}", gauge, gauge - 1.0, p);
        if let SetCase::HalfLine = case {
            prop_assert!(p[0] >= 0.0);
        }
    }
}
