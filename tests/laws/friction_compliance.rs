//! The friction compliance `W` of Macklin et al. 2019 §4.3 and appendix A
//! (`src/implicit/friction.rs`, NOTES 2.4):
//!
//! * `compliance::<MinMap>` equals the closed form `max(0, ψ - r_f b) / (μ λ_n)`
//!   everywhere (below the cap), and `compliance::<FischerBurmeister>` equals
//!   `r_f (s - r_f b) / (ψ + r_f μ λ_n - s)` wherever that denominator is positive;
//! * the algebraic identity behind "a fixed point satisfies the complementarity":
//!   `φ (ψ + r_f ‖λ_f‖) = (ψ - W ‖λ_f‖)(r_f ‖λ_f‖ + φ)`, so `ψ = W ‖λ_f‖` forces `φ = 0`;
//!   and the fixed-point iteration `‖λ_f‖ <- ‖λ_f‖ + φ/r_f, ψ <- ψ - φ` run to its fixed
//!   point lands where `ψ = W ‖λ_f‖` and `φ(ψ, r_f b) = 0`;
//! * sticking (`ψ <= r_f b`) gives `W_min = 0` exactly;
//! * figure 6 outside the cone: `W_min` is affine in `‖λ_f‖` with slope `r_f / (μ λ_n)`
//!   (`1 / (μ λ_n)` unpreconditioned), `W_FB` is convex, outgrows every such line and hits
//!   the cap once its denominator vanishes, at `‖λ_f‖ = μλ_n + sqrt((μλ_n)² + 2ψμλ_n/r_f)`;
//! * `W` is never negative or NaN for non-negative finite input, `0/0` included.

use nonsmooth::implicit::friction::{
    W_MAX_FACTOR, compliance, compliance_fb_closed_form, compliance_min_closed_form,
};
use nonsmooth::ncp::{FischerBurmeister, MinMap, NcpFunction};
use proptest::prelude::*;

fn cfg() -> ProptestConfig {
    ProptestConfig {
        cases: 64,
        ..ProptestConfig::default()
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-300)
}

/// A positive number spread over several decades.
fn decades(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo.log10()..hi.log10()).prop_map(|e: f64| 10f64.powf(e))
}

proptest! {
    #![proptest_config(cfg())]

    /// Minimum map: the general form equals the closed form, inside and outside the cone.
    #[test]
    fn min_map_equals_closed_form(
        slip in decades(1e-6, 1e3),
        limit in decades(1e-3, 1e4),
        frac in 0.0f64..3.0,
        rf in decades(1e-6, 1e2),
    ) {
        let force = frac * limit;
        let w = compliance::<MinMap>(slip, force, limit, rf);
        let c = compliance_min_closed_form(slip, force, limit, rf).min(W_MAX_FACTOR / rf);
        prop_assert!(close(w, c, 1e-9) || (w - c).abs() < 1e-15 * slip / limit,
            "W_min {w} vs closed form {c}");
    }

    /// Fischer-Burmeister: the general form equals the closed form inside the cone and
    /// wherever the closed form's denominator is (clearly) positive.
    #[test]
    fn fb_equals_closed_form_where_defined(
        slip in decades(1e-6, 1e3),
        limit in decades(1e-3, 1e4),
        frac in 0.0f64..3.0,
        rf in decades(1e-6, 1e2),
    ) {
        let force = frac * limit;
        let b = limit - force;
        let s = slip.hypot(rf * b);
        let denominator = slip + rf * limit - s;
        // Both forms cancel in the denominator: compare only where it is well above the
        // rounding of its terms.
        prop_assume!(denominator > 1e-6 * (slip + rf * limit));
        let w = compliance::<FischerBurmeister>(slip, force, limit, rf);
        let c = compliance_fb_closed_form(slip, force, limit, rf);
        prop_assert!(c >= 0.0);
        // The numerator `s - r_f b` cancels inside the cone when ψ << r_f b: allow the
        // absolute rounding of the larger terms there.
        let abs = 1e-13 * rf * (s + rf * b.abs()) / denominator;
        prop_assert!(close(w, c.min(W_MAX_FACTOR / rf), 1e-8) || (w - c).abs() <= abs,
            "W_FB {w} vs closed form {c} (denominator {denominator})");
    }

    /// `φ (ψ + r_f f) = (ψ - W f)(r_f f + φ)`: wherever `W` is the uncapped general form,
    /// the complementarity residual is the fixed-point defect `ψ - W f` times a bounded
    /// factor, so `ψ = W f` implies `φ = 0`.
    #[test]
    fn fixed_point_defect_controls_the_complementarity(
        slip in decades(1e-4, 1e2),
        limit in decades(1e-2, 1e3),
        frac in 0.0f64..1.5,
        rf in decades(1e-3, 1e1),
    ) {
        let force = frac * limit;
        let b = limit - force;
        for (name, w, phi) in [
            ("min", compliance::<MinMap>(slip, force, limit, rf), MinMap::value(slip, rf * b)),
            ("fb", compliance::<FischerBurmeister>(slip, force, limit, rf),
                FischerBurmeister::value(slip, rf * b)),
        ] {
            prop_assume!(w < W_MAX_FACTOR / rf * 0.5);
            prop_assume!(rf * force + phi > 0.0);
            let lhs = phi * (slip + rf * force);
            let rhs = (slip - w * force) * (rf * force + phi);
            let scale = (slip.abs() + rf * limit) * (slip + rf * force);
            prop_assert!((lhs - rhs).abs() <= 1e-10 * scale,
                "{name}: φ(ψ+r f) = {lhs}, (ψ - W f)(r f + φ) = {rhs}");
        }
    }

    /// Running the fixed-point iteration `f <- f + φ/r_f`, `ψ <- ψ - φ` to its fixed point
    /// from a random start: there `φ(ψ, r_f b) = 0` and `ψ = W f` (W consistent with the
    /// complementarity it encodes). The minimum map gets there in one iteration.
    #[test]
    fn fixed_points_of_the_iteration_are_complementary(
        slip in decades(1e-4, 1e2),
        limit in decades(1e-2, 1e3),
        frac in 0.0f64..1.5,
        rf in decades(1e-2, 1e1),
    ) {
        let (psi0, f0) = (slip, frac * limit);
        let run = |value: &dyn Fn(f64, f64) -> f64| {
            let (mut psi, mut f) = (psi0, f0);
            let mut its = 0;
            while its < 10_000 {
                let phi = value(psi, rf * (limit - f));
                if phi.abs() <= 1e-13 * (psi0 + rf * limit) {
                    break;
                }
                f += phi / rf;
                psi -= phi;
                its += 1;
            }
            (psi, f, its)
        };
        let (psi, f, its) = run(&|a, b| MinMap::value(a, b));
        prop_assert!(its <= 1, "min map: {its} iterations");
        prop_assert!(psi >= 0.0 && f <= limit * (1.0 + 1e-12));
        prop_assert!(MinMap::value(psi, rf * (limit - f)).abs() <= 1e-12 * (psi0 + rf * limit));
        let w = compliance::<MinMap>(psi, f, limit, rf);
        prop_assert!((psi - w * f).abs() <= 1e-9 * (psi0 + rf * limit), "min: ψ {psi}, W f {}", w * f);

        let (psi, f, its) = run(&|a, b| FischerBurmeister::value(a, b));
        prop_assert!(its < 10_000, "FB fixed point not reached");
        let phi = FischerBurmeister::value(psi, rf * (limit - f));
        prop_assert!(phi.abs() <= 1e-12 * (psi0 + rf * limit));
        let w = compliance::<FischerBurmeister>(psi, f, limit, rf);
        prop_assert!((psi - w * f).abs() <= 1e-6 * (psi0 + rf * limit),
            "FB: ψ {psi}, W f {} (f {f}, limit {limit})", w * f);
    }

    /// Sticking: slow slip inside the cone, `ψ <= r_f b`, gives `W_min = 0` exactly.
    #[test]
    fn sticking_gives_zero_compliance(
        limit in decades(1e-3, 1e4),
        frac in 0.0f64..0.999,
        slip_frac in 0.0f64..=1.0,
        rf in decades(1e-6, 1e2),
    ) {
        let force = frac * limit;
        let slip = slip_frac * rf * (limit - force);
        prop_assert_eq!(compliance::<MinMap>(slip, force, limit, rf), 0.0);
    }

    /// Figure 6 outside the cone, at fixed slip: `W_min` is affine in `f` with slope
    /// `r_f/(μλ_n)`; `W_FB` is convex, grows faster than that line and reaches the cap
    /// past `f* = μλ_n + sqrt((μλ_n)² + 2ψμλ_n/r_f)`.
    #[test]
    fn outside_the_cone_min_is_linear_and_fb_blows_up(
        slip in decades(1e-3, 1e1),
        limit in decades(1e-1, 1e2),
        rf in decades(1e-2, 1e1),
    ) {
        let blow_up = limit + (limit * limit + 2.0 * slip * limit / rf).sqrt();
        let n = 40;
        let fs: Vec<f64> = (0..=n)
            .map(|k| limit * (1.0 + 1e-3) + (blow_up * 0.98 - limit) * k as f64 / n as f64)
            .collect();
        let wmin: Vec<f64> = fs.iter().map(|&f| compliance::<MinMap>(slip, f, limit, rf)).collect();
        let wfb: Vec<f64> = fs.iter().map(|&f| compliance::<FischerBurmeister>(slip, f, limit, rf)).collect();
        let slope = rf / limit;
        for k in 1..=n {
            let s = (wmin[k] - wmin[k - 1]) / (fs[k] - fs[k - 1]);
            prop_assert!(close(s, slope, 1e-6), "W_min slope {s} vs r_f/(μλ_n) = {slope}");
            prop_assert!(wfb[k] > wfb[k - 1], "W_FB not increasing at f = {}", fs[k]);
        }
        for k in 1..n {
            let d2 = wfb[k + 1] - 2.0 * wfb[k] + wfb[k - 1];
            prop_assert!(d2 >= -1e-9 * wfb[k + 1], "W_FB not convex at f = {}: {d2}", fs[k]);
        }
        // Faster than linear: the FB chord slope over the second half exceeds the first's.
        let first = (wfb[n / 2] - wfb[0]) / (fs[n / 2] - fs[0]);
        let second = (wfb[n] - wfb[n / 2]) / (fs[n] - fs[n / 2]);
        prop_assert!(second > first, "W_FB chord slopes {first} then {second}");
        // Near the blow-up W_FB exceeds the minimum map's line by far, and past it: cap.
        prop_assert!(wfb[n] > wmin[n], "W_FB {} <= W_min {} near blow-up", wfb[n], wmin[n]);
        let cap = W_MAX_FACTOR / rf;
        for f in [blow_up * 1.02, blow_up * 2.0, blow_up * 1e3] {
            prop_assert_eq!(compliance::<FischerBurmeister>(slip, f, limit, rf), cap);
        }
    }

    /// `W` is finite and non-negative for any non-negative finite input (zeros included,
    /// `0/0` gives 0), and at most the cap.
    #[test]
    fn never_negative_or_nan(
        slip in prop_oneof![Just(0.0), decades(1e-12, 1e6)],
        force in prop_oneof![Just(0.0), decades(1e-12, 1e6)],
        limit in prop_oneof![Just(0.0), decades(1e-12, 1e6)],
        rf in decades(1e-9, 1e3),
    ) {
        for w in [
            compliance::<MinMap>(slip, force, limit, rf),
            compliance::<FischerBurmeister>(slip, force, limit, rf),
        ] {
            prop_assert!(w.is_finite() && w >= 0.0 && w <= W_MAX_FACTOR / rf,
                "W = {w} at ψ {slip}, f {force}, μλ_n {limit}, r_f {rf}");
        }
    }
}

#[test]
fn zero_over_zero_is_sticking() {
    for rf in [1e-6, 1.0, 1e3] {
        for limit in [0.0, 1.0] {
            assert_eq!(compliance::<MinMap>(0.0, 0.0, limit, rf), 0.0);
            assert_eq!(compliance::<FischerBurmeister>(0.0, 0.0, limit, rf), 0.0);
        }
    }
}

#[test]
fn unpreconditioned_min_slope_is_one_over_the_limit() {
    // r_f = 1: slope exactly 1/(μλ_n) outside the cone.
    let (slip, limit) = (0.3, 2.0);
    let w1 = compliance::<MinMap>(slip, 3.0, limit, 1.0);
    let w2 = compliance::<MinMap>(slip, 5.0, limit, 1.0);
    assert!(((w2 - w1) / 2.0 - 1.0 / limit).abs() < 1e-14);
}
