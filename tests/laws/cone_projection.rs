//! Law: the projection onto the friction cone is the Euclidean projection — it lands in
//! `K_mu`, it is idempotent, and Moreau's decomposition holds: `x - P_K(x)` lies in the
//! polar cone and is orthogonal to `P_K(x)`.

use nonsmooth::friction::{in_cone, project_on_cone, project_on_dual_cone};
use proptest::prelude::*;

fn v3() -> impl Strategy<Value = [f64; 3]> {
    prop::array::uniform3(prop_oneof![1 => Just(0.0), 4 => -5.0..5.0f64])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn moreau_decomposition(x in v3(), mu in prop_oneof![Just(0.0), 0.0..3.0f64]) {
        let p = project_on_cone(x, mu);
        let s = 1e-12 * (1.0 + x[0].abs() + x[1].abs() + x[2].abs());
        prop_assert!(in_cone(p, mu, s));
        let pp = project_on_cone(p, mu);
        for k in 0..3 {
            prop_assert!((pp[k] - p[k]).abs() <= s, "not idempotent: {:?} -> {:?}", p, pp);
        }
        let d = [x[0] - p[0], x[1] - p[1], x[2] - p[2]];
        // d in the polar cone: mu ‖d_t‖ <= -d_n
        prop_assert!(mu * d[1].hypot(d[2]) <= -d[0] + s);
        let dot = d[0] * p[0] + d[1] * p[1] + d[2] * p[2];
        prop_assert!(dot.abs() <= s * (1.0 + p[0].abs() + p[1].abs() + p[2].abs()));
    }

    #[test]
    fn dual_projection_is_the_polar_complement(x in v3(), mu in 0.0..3.0f64) {
        // P_{K*}(x) = x + P_K(-x)
        let p = project_on_dual_cone(x, mu);
        let q = project_on_cone([-x[0], -x[1], -x[2]], mu);
        for k in 0..3 {
            prop_assert!((p[k] - (x[k] + q[k])).abs() <= 1e-14 * (1.0 + x[k].abs()));
        }
        prop_assert!(mu * p[1].hypot(p[2]) <= p[0] + 1e-12 * (1.0 + x[0].abs() + x[1].abs() + x[2].abs()));
    }
}
