//! Law: away from their kinks the NCP functions and the nested boxed form are
//! differentiable and the returned B-subdifferential elements are their gradients, checked
//! against central finite differences (Silcowitz et al. 2009 eq. 30).

use nonsmooth::ncp::{FischerBurmeister, MinMap, NcpFunction, nested_box, nested_box_grad};
use proptest::prelude::*;

const H: f64 = 1e-6;

fn fd2(f: impl Fn(f64, f64) -> f64, a: f64, b: f64) -> (f64, f64) {
    (
        (f(a + H, b) - f(a - H, b)) / (2.0 * H),
        (f(a, b + H) - f(a, b - H)) / (2.0 * H),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn min_map_gradient(a in -3.0..3.0f64, b in -3.0..3.0f64) {
        prop_assume!((a - b).abs() > 1e-3);
        let (ga, gb) = MinMap::grad(a, b);
        let (fa, fb) = fd2(MinMap::value, a, b);
        prop_assert!((ga - fa).abs() < 1e-6 && (gb - fb).abs() < 1e-6);
    }

    #[test]
    fn fischer_burmeister_gradient(a in -3.0..3.0f64, b in -3.0..3.0f64) {
        prop_assume!(a.hypot(b) > 1e-2);
        let (ga, gb) = FischerBurmeister::grad(a, b);
        let (fa, fb) = fd2(FischerBurmeister::value, a, b);
        prop_assert!((ga - fa).abs() < 1e-5 && (gb - fb).abs() < 1e-5, "{} {} vs {} {}", ga, gb, fa, fb);
    }

    #[test]
    fn nested_box_partials(x in -3.0..3.0f64, lo in -2.0..0.0f64, w in 0.1..2.0f64, y in -3.0..3.0f64) {
        let hi = lo + w;
        // keep away from every kink of both compositions
        let g = -MinMap::value(-y, hi - x);
        prop_assume!((-y - (hi - x)).abs() > 1e-3 && ((x - lo) - g).abs() > 1e-3);
        for fd_check in [check::<MinMap> as fn(f64, f64, f64, f64) -> bool, check::<FischerBurmeister>] {
            prop_assert!(fd_check(x, lo, hi, y));
        }
    }
}

fn check<F: NcpFunction>(x: f64, lo: f64, hi: f64, y: f64) -> bool {
    let (_, p) = nested_box_grad::<F>(x, lo, hi, y);
    let d = |f: &dyn Fn(f64) -> f64, v: f64| (f(v + H) - f(v - H)) / (2.0 * H);
    let dx = d(&|v| nested_box::<F>(v, lo, hi, y), x);
    let dlo = d(&|v| nested_box::<F>(x, v, hi, y), lo);
    let dhi = d(&|v| nested_box::<F>(x, lo, v, y), hi);
    let dy = d(&|v| nested_box::<F>(x, lo, hi, v), y);
    let ok = |a: f64, b: f64| (a - b).abs() < 1e-4;
    // FB's nested form is smooth only away from the origins of both calls.
    let fb_ok = (-y).hypot(hi - x) > 1e-2 && (x - lo).hypot(nested_inner::<F>(x, hi, y)) > 1e-2;
    !fb_ok || (ok(p.dx, dx) && ok(p.dlo, dlo) && ok(p.dhi, dhi) && ok(p.dy, dy))
}

fn nested_inner<F: NcpFunction>(x: f64, hi: f64, y: f64) -> f64 {
    -F::value(-y, hi - x)
}
