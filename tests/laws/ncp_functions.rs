//! Law: `phi(a, b) = 0` iff `a >= 0, b >= 0, ab = 0`, for the minimum map and
//! Fischer-Burmeister (Erleben 2009 slides eq. 25; Silcowitz et al. 2009 eq. 22), and the
//! two are equivalent up to constants: `(2 - √2)|min(a,b)| <= |phi_FB(a,b)| <=
//! (2 + √2)|min(a,b)|` with the same sign (Tseng 1996, Lemma 3.1), which is why they have
//! the same roots.

use nonsmooth::ncp::{FischerBurmeister as Fb, MinMap, NcpFunction};
use quickcheck::{Arbitrary, Gen, QuickCheck};

/// A finite float that is exactly zero a third of the time (so that the roots, which
/// live on the axes, are actually hit).
#[derive(Debug, Clone, Copy)]
struct Arg(f64);

impl Arbitrary for Arg {
    fn arbitrary(g: &mut Gen) -> Self {
        let choice = u8::arbitrary(g) % 3;
        let v = match choice {
            0 => 0.0,
            _ => {
                let m = f64::from(i32::arbitrary(g) % 1000) / 100.0;
                let e = i32::arbitrary(g) % 8;
                m * 10f64.powi(e)
            }
        };
        Arg(v)
    }
}

// ANCHOR: law
fn complementary(a: f64, b: f64) -> bool {
    a >= 0.0 && b >= 0.0 && a * b == 0.0
}

#[test]
fn min_map_roots_are_complementary_pairs() {
    fn law(a: Arg, b: Arg) -> bool {
        (MinMap::value(a.0, b.0) == 0.0) == complementary(a.0, b.0)
    }
    QuickCheck::new()
        .tests(5000)
        .quickcheck(law as fn(Arg, Arg) -> bool);
}

#[test]
fn fischer_burmeister_roots_are_complementary_pairs() {
    fn law(a: Arg, b: Arg) -> bool {
        (Fb::value(a.0, b.0) == 0.0) == complementary(a.0, b.0)
    }
    QuickCheck::new()
        .tests(5000)
        .quickcheck(law as fn(Arg, Arg) -> bool);
}

#[test]
fn fischer_burmeister_is_sandwiched_by_the_minimum_map() {
    fn law(a: Arg, b: Arg) -> bool {
        let m = MinMap::value(a.0, b.0);
        let f = Fb::value(a.0, b.0);
        let lo = (2.0 - 2f64.sqrt()) * m.abs();
        let hi = (2.0 + 2f64.sqrt()) * m.abs();
        let slack = 1e-12 * m.abs();
        f.signum() * m.signum() >= 0.0 && f.abs() >= lo - slack && f.abs() <= hi + slack
    }
    QuickCheck::new()
        .tests(5000)
        .quickcheck(law as fn(Arg, Arg) -> bool);
}

// ANCHOR_END: law

#[test]
fn fischer_burmeister_keeps_tiny_products() {
    // The naive a + b - hypot(a, b) returns 0 here; the conjugate form keeps the product.
    let naive = 1.0 + 1e-20 - 1.0f64.hypot(1e-20);
    assert_eq!(naive, 0.0);
    let v = Fb::value(1.0, 1e-20);
    assert!((v - 1e-20).abs() <= 1e-35, "{v}");
    // An exact case: (3, 4) -> 3 + 4 - 5 = 2.
    assert_eq!(Fb::value(3.0, 4.0), 2.0);
}

#[test]
fn infinite_arguments_give_the_limits() {
    assert_eq!(Fb::value(2.5, f64::INFINITY), 2.5);
    assert_eq!(Fb::value(f64::INFINITY, -1.0), -1.0);
    assert_eq!(Fb::value(f64::NEG_INFINITY, 1.0), f64::NEG_INFINITY);
    assert_eq!(MinMap::value(2.5, f64::INFINITY), 2.5);
}

#[test]
fn extreme_finite_arguments_never_give_nan() {
    // Found by fuzzing: 2ab overflowed to -inf while the denominator overflowed to +inf.
    let v = Fb::value(1.7976931338164337e308, -8.3711609916934285e298);
    assert!(v.is_finite(), "{v}");
    assert!(
        v < 0.0 && (v - -8.3711609916934285e298).abs() <= 1e-6 * v.abs(),
        "{v}"
    );
    for (a, b) in [
        (1e300, 1e300),
        (-1e300, 1e-300),
        (1e-300, 1e-300),
        (5e-324, 5e-324),
        (f64::MAX, f64::MAX),
    ] {
        let v = Fb::value(a, b);
        assert!(!v.is_nan(), "phi({a}, {b}) = {v}");
        // homogeneity: phi(a, b) = m phi(a/m, b/m)
        let m = a.abs().max(b.abs());
        let scaled = m * Fb::value(a / m, b / m);
        assert!(
            (v - scaled).abs() <= 1e-12 * v.abs().max(scaled.abs())
                || (v.is_infinite() && scaled.is_infinite())
        );
    }
    // the value 1e-300 * (2 - sqrt 2) must not underflow to zero
    assert!(Fb::value(1e-300, 1e-300) > 0.0);
}
