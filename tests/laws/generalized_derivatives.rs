//! Law: away from their kinks the NCP functions and the nested boxed form are
//! differentiable and the returned B-subdifferential elements are their gradients, checked
//! against central finite differences (Silcowitz et al. 2009 eq. 30); at the kinks they
//! return the elements their documentation names.

use nonsmooth::ncp::{FischerBurmeister, MinMap, NcpFunction, nested_box, nested_box_grad};
use proptest::prelude::*;

const H: f64 = 1e-6;

fn fd2(f: impl Fn(f64, f64) -> f64, a: f64, b: f64) -> (f64, f64) {
    (
        (f(a + H, b) - f(a - H, b)) / (2.0 * H),
        (f(a, b + H) - f(a, b - H)) / (2.0 * H),
    )
}

// ANCHOR: law
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

#[test]
fn documented_elements_at_the_kinks() {
    // min: (1, 0) on the whole diagonal a = b (the row is treated as inactive)
    for a in [-2.0, 0.0, 1e-300, 3.0] {
        assert_eq!(MinMap::grad(a, a), (1.0, 0.0));
    }
    // Fischer-Burmeister: (1, 0) at the origin, which lies on its circle of limits
    assert_eq!(FischerBurmeister::grad(0.0, 0.0), (1.0, 0.0));
    for t in [0.1f64, 1.0, 2.0, 4.0] {
        let (ga, gb) = FischerBurmeister::grad(t.cos() * 1e-9, t.sin() * 1e-9);
        assert!(((1.0 - ga).powi(2) + (1.0 - gb).powi(2) - 1.0).abs() < 1e-12);
    }
    // nested, minimum map, a friction row at its upper bound sliding backwards:
    // x = hi, y < 0, hi - x < -y gives (q_a, q_b) = (0, 1), (p_a, p_b) = (0, 1), so the
    // row's partials are dx = 1, dhi = -1 (with hi = mu x_n: e_i - mu e_n), dy = dlo = 0.
    let (_, p) = nested_box_grad::<MinMap>(0.5, -0.5, 0.5, -1.0);
    assert_eq!((p.dx, p.dlo, p.dhi, p.dy), (1.0, 0.0, -1.0, 0.0));
}
// ANCHOR_END: law

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
