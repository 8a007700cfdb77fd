//! Law: a projection is idempotent, `P(P(z)) = P(z)` (a point of the set is its own closest
//! point), for every friction set (see `strategies/sets.rs` for the cases). The boxes, the
//! disk and the half-line are exact; the ellipsoid's second projection may move its input,
//! which lies on the surface to rounding, by a few roundings.

use crate::sets;

use proptest::prelude::*;
use sets::{dist, norm, set_and_point};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20000))]

    #[test]
    fn projecting_twice_changes_nothing((case, z) in set_and_point()) {
        let p = case.project(&z);
        let pp = case.project(&p);
        let d = dist(&pp, &p);
        prop_assert!(d <= 4.0 * f64::EPSILON * norm(&p), "moved by {d:e}: {p:?} -> {pp:?}");
    }
}
