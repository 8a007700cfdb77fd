//! Law: a point inside the set is its own projection (exactly), and a point outside lands
//! on the boundary (Erleben 2017 eq. 21b: the two cases of the proximal operator; §4.1:
//! `f(x*) = 0`). With a zero semi-axis the set is flat: a point outside only in the flat
//! directions has those coordinates zeroed and the rest kept. For every friction set (see
//! `strategies/sets.rs`).

use crate::sets;

use proptest::prelude::*;
use sets::{SetCase, set_and_point};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20000))]

    #[test]
    fn inside_is_fixed_and_outside_lands_on_the_boundary((case, z) in set_and_point()) {
        let p = case.project(&z);
        let (gz, flat) = case.gauge(&z);
        let (gp, _) = case.gauge(&p);
        if let SetCase::HalfLine = case {
            prop_assert_eq!(p[0], z[0].max(0.0));
            return Ok(());
        }
        let (axes, is_box) = case.shape().unwrap();
        // Ellipsoids and disks decide "inside" on a rounded sum: within a few roundings of
        // the surface either answer is right, and p is z to rounding.
        let band = if is_box { 0.0 } else { 8.0 * f64::EPSILON };
        if gz <= 1.0 - band {
            // inside, once the flat coordinates are zeroed: those are zeroed, the rest kept
            for i in 0..z.len() {
                let expect = if axes[i] > 0.0 { z[i] } else { 0.0 };
                prop_assert_eq!(p[i], expect, "flat = {}", flat);
            }
        } else if gz > 1.0 + band {
            prop_assert!((gp - 1.0).abs() <= band, "outside (gauge {gz}) but gauge(p) - 1 = {:e}", gp - 1.0);
        } else {
            // z is within a relative 4ε of the surface (the gauge is squared): so is p
            let kept: Vec<f64> = (0..z.len()).map(|i| if axes[i] > 0.0 { z[i] } else { 0.0 }).collect();
            prop_assert!(sets::dist(&p, &kept) <= 8.0 * f64::EPSILON * sets::norm(&kept));
        }
    }
}
