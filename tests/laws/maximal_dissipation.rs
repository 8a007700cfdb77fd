//! Law: the friction force of maximal dissipation is the fixed point of the proximal
//! operator (Erleben 2017 eq. 6-9). For a sliding velocity `v` (non-zero along some
//! positive semi-axis) the force that dissipates most power over the set `F`,
//! `λ* = argmin_{γ ∈ F} γ·v`, has a closed form:
//!
//! * ellipsoid (disk, ellipse, Coulomb-Contensou) with semi-axes `a`:
//!   `λ*_i = -a_i² v_i / ‖(a_j v_j)‖` (the book's chapter "Friction laws as convex sets");
//! * box with half widths `h`: `λ*_i = -h_i sign(v_i)`.
//!
//! The law checks, for random sets, velocities and r-factors `r > 0`:
//!
//! 1. `λ*` lies in `F` and `λ*·v <= γ·v` for sampled `γ ∈ F` (it maximises dissipation);
//! 2. `λ* = prox_F(λ* - r v)` (eq. 9) for every `r`, up to rounding.

// `!(x > 0.0)` is written on purpose: it is also true for NaN (see src/lib.rs).
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::sets;

use proptest::prelude::*;
use sets::{SetCase, dist, norm, set_case};

/// The closed-form force of maximal dissipation, or `None` when `v` has no component along
/// a positive parameter (then every force of the set dissipates nothing).
fn max_dissipation(case: &SetCase, v: &[f64]) -> Option<Vec<f64>> {
    let (a, is_box) = case.shape()?;
    if is_box {
        let lam: Vec<f64> = a
            .iter()
            .zip(v)
            .map(|(h, vi)| {
                if *vi == 0.0 || !(*h > 0.0) {
                    0.0
                } else {
                    -h * vi.signum()
                }
            })
            .collect();
        (norm(&lam) > 0.0).then_some(lam)
    } else {
        let av: Vec<f64> = a.iter().zip(v).map(|(ai, vi)| ai * vi).collect();
        let n = norm(&av);
        (n > 0.0).then(|| a.iter().zip(&av).map(|(ai, avi)| -ai * (avi / n)).collect())
    }
}

/// A set, a velocity, an r-factor, and eight (direction, fraction) pairs naming forces of
/// the set.
type Case = (SetCase, Vec<f64>, f64, Vec<(Vec<f64>, f64)>);

fn case_v_r() -> impl Strategy<Value = Case> {
    set_case()
        .prop_filter("not the half-line", |c| c.shape().is_some())
        .prop_flat_map(|c| {
            let d = c.dim();
            (
                Just(c),
                prop::collection::vec(prop_oneof![4 => -1.0..1.0f64, 1 => Just(0.0)], d),
                (-3.0..3.0f64).prop_map(|e| 10f64.powf(e)),
                prop::collection::vec(
                    (
                        prop::collection::vec(-1.0..1.0f64, d),
                        prop_oneof![Just(1.0), 0.0..1.0f64],
                    ),
                    8,
                ),
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10000))]

    #[test]
    fn maximal_dissipation_is_the_proximal_fixed_point((case, v, r, gammas) in case_v_r()) {
        let Some(lam) = max_dissipation(&case, &v) else { return Ok(()) };
        let size = case.size();
        prop_assume!(size > 0.0 && size.is_finite());
        // 1. in the set, and dissipates at least as much as any sampled force of the set
        let (gauge, flat) = case.gauge(&lam);
        prop_assert!(gauge <= 1.0 + 8.0 * f64::EPSILON && flat == 0.0, "λ* = {lam:?} not in the set");
        let p_lam: f64 = lam.iter().zip(&v).map(|(l, vi)| (l / size) * vi).sum();
        for (dir, u) in gammas {
            let g = case.point_in(&dir, u);
            let p_g: f64 = g.iter().zip(&v).map(|(gi, vi)| (gi / size) * vi).sum();
            prop_assert!(p_lam <= p_g + 8.0 * f64::EPSILON * norm(&v), "λ*·v = {p_lam} > γ·v = {p_g}");
        }
        // 2. the fixed point of eq. 9, z = λ* - r v, with r scaled to the set's size
        let rs = r * size;
        let z: Vec<f64> = lam.iter().zip(&v).map(|(l, vi)| l - rs * vi).collect();
        let p = case.project(&z);
        let d = dist(&p, &lam);
        prop_assert!(d <= 16.0 * f64::EPSILON * (norm(&lam) + norm(&z)),
            "prox(λ* - r v) - λ* = {d:e}: λ* = {lam:?}, prox = {p:?}");
    }
}
