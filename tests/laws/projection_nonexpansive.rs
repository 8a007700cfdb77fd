//! Law: projections onto closed convex sets are non-expansive,
//! `‖P(x) - P(y)‖ <= ‖x - y‖` (firmly so: `‖P(x) - P(y)‖² <= (P(x) - P(y))·(x - y)`), for
//! every friction set (see `strategies/sets.rs`). The slack is a few roundings of `P(x)` and
//! `P(y)`.

use crate::sets;

use proptest::prelude::*;
use sets::{dist, norm, set_and_two_points};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20000))]

    #[test]
    fn projection_is_nonexpansive((case, x, y) in set_and_two_points()) {
        let (px, py) = (case.project(&x), case.project(&y));
        let slack = 8.0 * f64::EPSILON * (norm(&px) + norm(&py));
        let dp = dist(&px, &py);
        let dz = dist(&x, &y);
        prop_assert!(dp <= dz + slack, "‖P(x) - P(y)‖ = {dp:e} > ‖x - y‖ = {dz:e}");
        // firm non-expansiveness, on a common scale so that squares do not overflow
        let m = x.iter().chain(&y).fold(f64::MIN_POSITIVE, |m, v| m.max(v.abs()));
        let dot: f64 = (0..x.len()).map(|i| ((px[i] - py[i]) / m) * ((x[i] - y[i]) / m)).sum();
        let sq = (dp / m) * (dp / m);
        prop_assert!(sq <= dot + slack / m * (dz / m + dp / m), "{sq:e} > {dot:e}");
    }
}
