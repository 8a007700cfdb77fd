//! Law: `p = P(z)` satisfies the variational inequality `(z - p)·(y - p) <= 0` for every `y`
//! in the set, the condition of maximal dissipation (Erleben 2017 eq. 8 with
//! `z = λ - r v`). Checked on eight points `y` of the set per case (inside and on the
//! surface), for every friction set (see `strategies/sets.rs`).

use crate::sets;

use proptest::prelude::*;
use sets::{SetCase, norm, point_for, set_case};

/// A set, a point, and eight (direction, fraction) pairs that name points of the set.
type Case = (SetCase, Vec<f64>, Vec<(Vec<f64>, f64)>);

fn case_point_ys() -> impl Strategy<Value = Case> {
    set_case().prop_flat_map(|c| {
        let d = c.dim();
        let z = point_for(&c);
        let ys = prop::collection::vec(
            (
                prop::collection::vec(-1.0..1.0f64, d),
                prop_oneof![Just(1.0), 0.0..1.0f64],
            ),
            8,
        );
        (Just(c), z, ys)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10000))]

    #[test]
    fn projection_satisfies_the_variational_inequality((case, z, ys) in case_point_ys()) {
        let p = case.project(&z);
        let m = z.iter().chain(&p).fold(f64::MIN_POSITIVE, |m, v| m.max(v.abs()))
            .max(case.size());
        let r: Vec<f64> = z.iter().zip(&p).map(|(a, b)| (a - b) / m).collect();
        for (dir, u) in ys {
            let y = case.point_in(&dir, u);
            let e: Vec<f64> = y.iter().zip(&p).map(|(a, b)| (a - b) / m).collect();
            let vi: f64 = r.iter().zip(&e).map(|(a, b)| a * b).sum();
            // p carries a relative error of a few ε; y is in the set to rounding
            let slack = 8.0 * f64::EPSILON * (norm(&r) + norm(&e) + norm(&r) * norm(&e));
            prop_assert!(vi <= slack, "(z - p)·(y - p) = {vi:e} > {slack:e}; p = {p:?}, y = {y:?}");
        }
    }
}
