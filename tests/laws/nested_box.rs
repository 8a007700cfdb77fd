//! Law: the nested boxed reformulation `psi = phi(x - lo, -phi(-y, hi - x))` vanishes iff
//! one of the three box cases holds (Silcowitz, Niebe, Erleben 2009 eq. 23-28; Erleben 2007
//! eq. 15), for both NCP functions, with finite, infinite and equal bounds; with the minimum
//! map it is Erleben 2007 eq. 37, `min(x - lo, max(x - hi, y))`. And the nesting copied
//! without the inner minus sign is wrong: on a normal row it accepts a contact that
//! approaches with no force.

use nonsmooth::ncp::{FischerBurmeister, MinMap, NcpFunction, nested_box};
use proptest::prelude::*;

fn box_case_holds(x: f64, lo: f64, hi: f64, y: f64) -> bool {
    (x == lo && y >= 0.0) || (x == hi && y <= 0.0) || (lo < x && x < hi && y == 0.0)
}

/// Points that satisfy one of the three cases, and points near them that may not.
fn point() -> impl Strategy<Value = (f64, f64, f64, f64)> {
    (-2.0..2.0f64, 0.0..3.0f64, 0..6u8, 0.0..1.0f64, -2.0..2.0f64).prop_map(
        |(lo, width, case, t, y)| {
            let hi = lo + width;
            match case {
                0 => (lo, lo, hi, y.abs()),         // at the lower bound, pushing in
                1 => (hi, lo, hi, -y.abs()),        // at the upper bound, pulling out
                2 => (lo + t * width, lo, hi, 0.0), // strictly inside, no residual
                3 => (lo + t * width, lo, hi, y),   // inside with a residual
                4 => (lo - t - 0.01, lo, hi, y),    // below the box
                _ => (hi, lo, hi, y.abs() + 0.01),  // at hi but pushing outward
            }
        },
    )
}

// ANCHOR: law
proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn zero_iff_a_box_case_holds((x, lo, hi, y) in point()) {
        let expected = box_case_holds(x, lo, hi, y);
        prop_assert_eq!(nested_box::<MinMap>(x, lo, hi, y) == 0.0, expected);
        prop_assert_eq!(nested_box::<FischerBurmeister>(x, lo, hi, y) == 0.0, expected);
    }

    #[test]
    fn minimum_map_form_is_erleben_2007_eq_37((x, lo, hi, y) in point()) {
        prop_assert_eq!(nested_box::<MinMap>(x, lo, hi, y), (x - lo).min((x - hi).max(y)));
    }

    #[test]
    fn infinite_upper_bound_reduces_to_the_lcp_row(x in -2.0..2.0f64, y in -2.0..2.0f64) {
        prop_assert_eq!(nested_box::<MinMap>(x, 0.0, f64::INFINITY, y), x.min(y));
        let fb = nested_box::<FischerBurmeister>(x, 0.0, f64::INFINITY, y);
        let direct = FischerBurmeister::value(x, y);
        prop_assert!((fb - direct).abs() <= 1e-15 * (1.0 + direct.abs()));
    }

    #[test]
    fn equal_bounds_accept_any_velocity_at_the_bound(lo in -2.0..2.0f64, y in -2.0..2.0f64, d in 0.01..1.0f64) {
        // A box of zero width: x = lo = hi with any y is a solution, x != lo is not.
        for psi in [nested_box::<MinMap> as fn(f64, f64, f64, f64) -> f64, nested_box::<FischerBurmeister>] {
            prop_assert_eq!(psi(lo, lo, lo, y), 0.0);
            prop_assert!(psi(lo + d, lo, lo, y) != 0.0 && psi(lo - d, lo, lo, y) != 0.0);
        }
    }
}

/// The paper's formula copied with the crate's sign: `phi(x - lo, phi(-y, hi - x))`.
fn mis_signed<F: NcpFunction>(x: f64, lo: f64, hi: f64, y: f64) -> f64 {
    F::value(x - lo, F::value(-y, hi - x))
}

#[test]
fn the_mis_signed_nesting_accepts_an_approaching_contact() {
    // A normal row (lo = 0, hi = inf) with no force (x = 0) and an approaching velocity
    // (y < 0) violates the LCP row; the correct nesting rejects it, the mis-signed one
    // accepts it, and rejects the opening contact (y > 0) that the row allows.
    let (lo, hi) = (0.0, f64::INFINITY);
    assert!(nested_box::<MinMap>(0.0, lo, hi, -1.0) != 0.0);
    assert!(nested_box::<FischerBurmeister>(0.0, lo, hi, -1.0) != 0.0);
    assert_eq!(mis_signed::<MinMap>(0.0, lo, hi, -1.0), 0.0);
    assert_eq!(mis_signed::<FischerBurmeister>(0.0, lo, hi, -1.0), 0.0);
    assert_eq!(nested_box::<MinMap>(0.0, lo, hi, 1.0), 0.0);
    assert!(mis_signed::<MinMap>(0.0, lo, hi, 1.0) != 0.0);
    assert!(mis_signed::<FischerBurmeister>(0.0, lo, hi, 1.0) != 0.0);
}
// ANCHOR_END: law
