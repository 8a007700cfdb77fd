//! Law (chapter "Reading real problems and judging an answer", section "Distance to the
//! reference"): `check`'s distance to the reference is the distance to the solution.
//!
//! Problems are built with a planted solution `r*`: each contact sticks (`r*` inside the
//! cone, `u = 0`), separates (`r* = 0`, `u` inside the dual cone) or slides (`r*` on the
//! cone's boundary, `u` as the law requires); `q = u - W r*`. With `W` positive definite
//! the CCP solution is unique, so for an engine answer `r* + δ` the reported distance must
//! be `‖δ‖` (overall, and `‖δ_c‖` contact by contact), and `r*` itself must be at
//! distance about 0. For Coulomb's law (solutions need not be unique) the reference is
//! solved from the engine's answer: a small `δ` must lead back to the planted solution.

use crate::strategies;

use nalgebra::{DMatrix, DVector};
use nonsmooth::check::{CheckError, CheckOptions, Level, check};
use nonsmooth::problem::{AnyProblem, FrictionContact, FrictionKind, Provenance};
use proptest::prelude::*;
use strategies::spd;

const NC: usize = 3;

/// `(r*, q)` for `W`, `mu`, per-contact states (0 stick, 1 separate, 2 slide) and shapes
/// `a` in `[0, 1)^4` per contact.
fn planted(
    w: &DMatrix<f64>,
    mu: &[f64],
    states: &[u8],
    shapes: &[[f64; 4]],
    kind: FrictionKind,
) -> (DVector<f64>, DVector<f64>) {
    let n = 3 * mu.len();
    let mut r = DVector::zeros(n);
    let mut u = DVector::zeros(n);
    for (c, (&m, (&s, a))) in mu.iter().zip(states.iter().zip(shapes)).enumerate() {
        let k = 3 * c;
        let angle = std::f64::consts::TAU * a[0];
        let (t1, t2) = (angle.cos(), angle.sin());
        match s {
            0 => {
                // inside the cone: ‖r_t‖ <= 0.8 mu r_n
                let rn = 0.5 + 1.5 * a[1];
                let rt = 0.8 * m * rn * a[2];
                r[k] = rn;
                r[k + 1] = rt * t1;
                r[k + 2] = rt * t2;
            }
            1 => {
                // inside the dual cone: u_n >= mu ‖u_t‖ (with room)
                let un = 0.1 + a[1];
                let ut = 0.8 * un * a[2] / m.max(1e-3);
                u[k] = un;
                u[k + 1] = ut * t1;
                u[k + 2] = ut * t2;
            }
            _ => {
                // sliding: r_t = -mu r_n t, u_t = s t; CCP: u_n = mu s, Coulomb: u_n = 0
                let rn = 0.5 + 1.5 * a[1];
                let sp = 0.1 + a[2];
                r[k] = rn;
                r[k + 1] = -m * rn * t1;
                r[k + 2] = -m * rn * t2;
                u[k] = match kind {
                    FrictionKind::Ccp => m * sp,
                    FrictionKind::Coulomb => 0.0,
                };
                u[k + 1] = sp * t1;
                u[k + 2] = sp * t2;
            }
        }
    }
    let q = &u - w * &r;
    (r, q)
}

fn problem(w: &DMatrix<f64>, q: DVector<f64>, mu: &[f64], kind: FrictionKind) -> AnyProblem {
    AnyProblem::Friction(
        FrictionContact::new(w.clone().into(), q, DVector::from_column_slice(mu), kind).unwrap(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// CCP, `W` positive definite: distance of `r* + δ` is `‖δ‖`, per contact `‖δ_c‖`,
    /// the worst contact is the one with the largest `‖δ_c‖`, and `r*` is at about 0.
    #[test]
    fn ccp_distance_is_the_perturbation(
        w in spd(3 * NC),
        mu in prop::collection::vec(0.1..1.0f64, NC),
        states in prop::collection::vec(0u8..3, NC),
        shapes in prop::collection::vec(prop::array::uniform4(0.0..1.0f64), NC),
        dir in prop::collection::vec(-1.0..1.0f64, 3 * NC),
        scale in -6.0..0.0f64,
    ) {
        let eig = w.symmetric_eigenvalues();
        prop_assume!(eig.max() / eig.min() < 100.0);
        let (rstar, q) = planted(&w, &mu, &states, &shapes, FrictionKind::Ccp);
        let p = problem(&w, q, &mu, FrictionKind::Ccp);
        let opts = CheckOptions::default();
        let prov = Provenance::default();

        // r* itself: consistent, at distance about 0 from the reference
        let exact = check(&p, rstar.as_slice(), &prov, &opts).unwrap();
        prop_assert_eq!(&exact.verdict, "consistent");
        let rf = exact.reference.as_ref().unwrap();
        prop_assert!(rf.found, "{:?}", rf.attempts);
        prop_assert_eq!(rf.unique, Some(true));
        let size = 1.0 + rstar.norm();
        prop_assert!(rf.distance.unwrap() <= 1e-9 * size, "{}", rf.distance.unwrap());

        // r* + δ
        let delta = DVector::from_vec(dir) * 10f64.powf(scale);
        prop_assume!(delta.norm() > 0.0);
        let answer = &rstar + &delta;
        let rep = check(&p, answer.as_slice(), &prov, &opts).unwrap();
        let rf = rep.reference.as_ref().unwrap();
        prop_assert!(rf.found, "{:?}", rf.attempts);
        let d = rf.distance.unwrap();
        prop_assert!((d - delta.norm()).abs() <= 1e-8 * size, "{} vs {}", d, delta.norm());
        let mut worst = (0, -1.0);
        for c in 0..NC {
            let dc = delta.fixed_rows::<3>(3 * c).norm();
            let got = rep.contacts[c].distance.unwrap();
            prop_assert!((got - dc).abs() <= 1e-8 * size, "contact {}: {} vs {}", c, got, dc);
            if dc > worst.1 {
                worst = (c, dc);
            }
        }
        // the worst contact, unless two are too close to tell apart
        let mut sorted: Vec<f64> = (0..NC).map(|c| delta.fixed_rows::<3>(3 * c).norm()).collect();
        sorted.sort_by(|a, b| b.total_cmp(a));
        if sorted[0] - sorted[1] > 1e-6 * size {
            prop_assert_eq!(rf.worst_contact, Some(worst.0));
        }
        // relative to ‖r*‖, none when every contact separates (r* = 0)
        if rstar.norm() > 0.0 {
            let rel = rf.relative_distance.unwrap();
            prop_assert!((rel - d / rstar.norm()).abs() <= 1e-7 * (1.0 + d / rstar.norm()));
        } else {
            prop_assert!(rf.relative_distance.is_none());
        }
    }

    /// Coulomb: from an answer near a planted solution, the reference found from the
    /// engine's answer is that solution.
    #[test]
    fn coulomb_reference_from_a_nearby_answer_is_the_planted_solution(
        w in spd(3 * NC),
        mu in prop::collection::vec(0.1..1.0f64, NC),
        states in prop::collection::vec(0u8..3, NC),
        shapes in prop::collection::vec(prop::array::uniform4(0.05..0.95f64), NC),
        dir in prop::collection::vec(-1.0..1.0f64, 3 * NC),
    ) {
        let eig = w.symmetric_eigenvalues();
        prop_assume!(eig.max() / eig.min() < 100.0);
        let (rstar, q) = planted(&w, &mu, &states, &shapes, FrictionKind::Coulomb);
        let p = problem(&w, q, &mu, FrictionKind::Coulomb);
        let delta = DVector::from_vec(dir) * 1e-4;
        let answer = &rstar + &delta;
        let rep = check(&p, answer.as_slice(), &Provenance::default(), &CheckOptions::default())
            .unwrap();
        let rf = rep.reference.as_ref().unwrap();
        prop_assert!(rf.found, "{:?}", rf.attempts);
        prop_assert_eq!(rf.unique, None);
        prop_assert_eq!(&rf.found_from, "the engine's answer");
        let d = rf.distance.unwrap();
        let size = 1.0 + rstar.norm();
        prop_assert!((d - delta.norm()).abs() <= 1e-8 * size, "{} vs {}", d, delta.norm());
    }
}

/// A Coulomb problem with a known solution: one contact pressed down and pushed sideways
/// below the friction limit sticks, `r* = -W⁻¹ q`; an answer 1e-3 off in `r_n` is 1e-3 from
/// the reference, at the velocity level (units from the provenance) in N s.
#[test]
fn coulomb_known_solution() {
    let w = DMatrix::from_row_slice(3, 3, &[2.0, 0.1, 0.0, 0.1, 1.0, 0.0, 0.0, 0.0, 1.0]);
    let q = DVector::from_vec(vec![-1.0, 0.2, 0.0]);
    let rstar = -w.clone().lu().solve(&q).unwrap();
    let p = problem(&w, q, &[0.5], FrictionKind::Coulomb);
    let mut prov = Provenance::default();
    prov.units.insert("r".into(), "N s".into());
    prov.units.insert("u".into(), "m/s".into());
    prov.labels = vec!["box/floor".into()];
    let mut answer = rstar.clone();
    answer[0] += 1e-3;
    let rep = check(&p, answer.as_slice(), &prov, &CheckOptions::default()).unwrap();
    assert_eq!(rep.verdict, "inconsistent");
    assert_eq!(rep.level, Level::Velocity);
    assert_eq!(rep.force_unit.as_deref(), Some("N s"));
    let rf = rep.reference.as_ref().unwrap();
    assert!((rf.distance.unwrap() - 1e-3).abs() < 1e-10, "{rf:?}");
    assert_eq!(rf.worst_label.as_deref(), Some("box/floor"));
    assert_eq!(rep.contacts[0].label.as_deref(), Some("box/floor"));
    assert!(rep.grade.starts_with("inconsistent: "), "{}", rep.grade);
    assert!(rep.grade.contains("1.0e-03 N s"), "{}", rep.grade);
    assert!(
        rep.grade.contains("worst contact 0 (box/floor)"),
        "{}",
        rep.grade
    );
    // the exact answer is consistent and graded within a tiny distance
    let rep = check(&p, rstar.as_slice(), &prov, &CheckOptions::default()).unwrap();
    assert_eq!(rep.verdict, "consistent");
    assert!(
        rep.grade.starts_with("consistent: forces within "),
        "{}",
        rep.grade
    );
    // acceleration-level units change the unit and the penetration's name
    let mut acc = Provenance::default();
    acc.units
        .insert("b".into(), "m/s^2 (constraint-space acceleration)".into());
    let rep = check(&p, answer.as_slice(), &acc, &CheckOptions::default()).unwrap();
    assert_eq!(rep.level, Level::Acceleration);
    assert_eq!(rep.penetration_name, "penetration acceleration");
    assert!(rep.grade.contains("1.0e-03 N "), "{}", rep.grade);
    // no reference asked: no distance, and the sentence says so
    let opts = CheckOptions {
        reference: false,
        ..Default::default()
    };
    let rep = check(&p, answer.as_slice(), &prov, &opts).unwrap();
    assert!(rep.reference.is_none());
    assert!(rep.contacts[0].distance.is_none());
    assert!(rep.grade.contains("not computed"), "{}", rep.grade);
    // plain JSON: no NaN anywhere
    let text = serde_json::to_string(&rep).unwrap();
    assert!(!text.contains("NaN"));
}

/// Bad answers are refused with a clear error, never judged.
#[test]
fn bad_answers_are_errors() {
    let w = DMatrix::<f64>::identity(3, 3);
    let p = problem(
        &w,
        DVector::from_vec(vec![-1.0, 0.0, 0.0]),
        &[0.5],
        FrictionKind::Ccp,
    );
    let prov = Provenance::default();
    let o = CheckOptions::default();
    let e = check(&p, &[1.0, 0.0], &prov, &o).unwrap_err();
    assert_eq!(
        e,
        CheckError::WrongLength {
            expected: 3,
            got: 2
        }
    );
    assert_eq!(
        e.to_string(),
        "the answer has 2 numbers, the problem 3 unknowns"
    );
    let e = check(&p, &[1.0, f64::NAN, 0.0], &prov, &o).unwrap_err();
    assert!(matches!(e, CheckError::NonFinite { index: 1, .. }), "{e}");
    // a friction law asked of an LCP
    let lcp = AnyProblem::Lcp(
        nonsmooth::problem::Lcp::new(w.clone().into(), DVector::from_vec(vec![-1.0, 1.0, 0.0]))
            .unwrap(),
    );
    let law = CheckOptions {
        kind: Some(FrictionKind::Ccp),
        ..Default::default()
    };
    let e = check(&lcp, &[1.0, 0.0, 0.0], &prov, &law).unwrap_err();
    assert!(
        e.to_string().contains("applies only to friction problems"),
        "{e}"
    );
    // the LCP itself: its solution x = (1, 0, 0) is unique (W = I); the answer is it, so
    // the minimum-map Newton method started there stops at once
    let rep = check(&lcp, &[1.0, 0.0, 0.0], &prov, &o).unwrap();
    assert_eq!(rep.verdict, "consistent");
    let rf = rep.reference.unwrap();
    assert_eq!(rf.method, "minmap-newton");
    assert_eq!(rf.found_from, "the engine's answer");
    assert_eq!(rf.unique, Some(true));
    assert!(rf.distance.unwrap() < 1e-12);
}

/// A reference that cannot be found gives no distance, and the sentence says so: an LCP
/// with no solution (`W = -I`, `q = -1`: Lemke ends on a ray).
#[test]
fn failed_reference_gives_no_distance() {
    let w = -DMatrix::<f64>::identity(2, 2);
    let lcp = AnyProblem::Lcp(
        nonsmooth::problem::Lcp::new(w.into(), DVector::from_vec(vec![-1.0, -1.0])).unwrap(),
    );
    let opts = CheckOptions {
        reference_seconds: 5.0,
        ..Default::default()
    };
    let rep = check(&lcp, &[0.0, 0.0], &Provenance::default(), &opts).unwrap();
    assert_eq!(rep.verdict, "inconsistent");
    let rf = rep.reference.unwrap();
    assert!(!rf.found, "{rf:?}");
    assert!(rf.distance.is_none());
    assert!(
        rep.grade.contains("no reference solution found"),
        "{}",
        rep.grade
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// An LCP with a planted solution `x*` (`W` positive definite, so it is unique): for an
    /// engine answer `x* + δ`, near or far, the reference found from the answer (the
    /// minimum-map Newton method, issue 32: milliseconds where Lemke's pivoting took
    /// seconds) is `x*`, so the distance is `‖δ‖`.
    #[test]
    fn lcp_reference_from_the_answer_is_the_solution(
        w in spd(12),
        pattern in proptest::collection::vec((0u8..2, 0.1f64..2.0), 12),
        delta in proptest::collection::vec(-1.0f64..1.0, 12),
        scale in prop_oneof![Just(1e-6), Just(1e-2), Just(1.0)],
    ) {
        let n = 12;
        let x = DVector::from_fn(n, |i, _| if pattern[i].0 == 0 { pattern[i].1 } else { 0.0 });
        let v = DVector::from_fn(n, |i, _| if pattern[i].0 == 0 { 0.0 } else { pattern[i].1 });
        let q = &v - &w * &x;
        let lcp = AnyProblem::Lcp(nonsmooth::problem::Lcp::new(w.clone().into(), q).unwrap());
        let d = DVector::from_vec(delta) * scale;
        let answer = &x + &d;
        let rep = check(&lcp, answer.as_slice(), &Provenance::default(), &CheckOptions::default())
            .unwrap();
        let rf = rep.reference.unwrap();
        prop_assert!(rf.found, "{:?}", rf.attempts);
        let dist = rf.distance.unwrap();
        prop_assert!((dist - d.norm()).abs() <= 1e-8 * d.norm().max(1.0),
            "distance {} vs |δ| {} ({:?})", dist, d.norm(), rf.attempts);
    }
}

/// The contact-frame force of one MuJoCo pyramid contact of four edges
/// `[n + mu1 t1, n - mu1 t1, n + mu2 t2, n - mu2 t2]`, written out as `mj_contactForce`
/// decodes it (the definition the check must measure distances in).
fn edge_force(p: &[f64], mu: [f64; 2]) -> [f64; 3] {
    [
        p[0] + p[1] + p[2] + p[3],
        mu[0] * (p[0] - p[1]),
        mu[1] * (p[2] - p[3]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Law: an LCP whose unknowns are pyramid edges (`Provenance::pyramid`) is judged in
    /// contact-frame forces: for an answer `p* + δ` the distance is `‖E δ‖` (not `‖δ‖`),
    /// contact by contact `‖E_c δ_c‖`, and the worst contact is the one with the largest.
    #[test]
    fn pyramid_distance_is_measured_in_contact_forces(
        w in spd(12),
        pattern in proptest::collection::vec((0u8..2, 0.1f64..2.0), 12),
        delta in proptest::collection::vec(-1.0f64..1.0, 12),
        mus in proptest::collection::vec(0.05f64..1.5, 6),
        scale in prop_oneof![Just(1e-6), Just(1e-2), Just(1.0)],
    ) {
        let n = 12;
        let x = DVector::from_fn(n, |i, _| if pattern[i].0 == 0 { pattern[i].1 } else { 0.0 });
        let v = DVector::from_fn(n, |i, _| if pattern[i].0 == 0 { 0.0 } else { pattern[i].1 });
        let q = &v - &w * &x;
        let lcp = AnyProblem::Lcp(nonsmooth::problem::Lcp::new(w.clone().into(), q).unwrap());
        let mu: Vec<[f64; 2]> = (0..3).map(|c| [mus[2 * c], mus[2 * c + 1]]).collect();
        let prov = Provenance {
            pyramid: Some(nonsmooth::problem::Pyramid::consecutive(
                0,
                mu.iter().map(|m| m.to_vec()),
            )),
            labels: vec!["a".into(), "b".into(), "c".into()],
            ..Default::default()
        };
        let d: Vec<f64> = delta.iter().map(|x| x * scale).collect();
        let answer: Vec<f64> = x.iter().zip(&d).map(|(a, b)| a + b).collect();
        let rep = check(&lcp, &answer, &prov, &CheckOptions::default()).unwrap();
        prop_assert_eq!(rep.pyramid_contacts, Some(3));
        prop_assert_eq!(rep.force_unit, None::<String>);
        let per: Vec<f64> = (0..3)
            .map(|c| {
                let f = edge_force(&d[4 * c..4 * c + 4], mu[c]);
                (f[0] * f[0] + f[1] * f[1] + f[2] * f[2]).sqrt()
            })
            .collect();
        let total = per.iter().map(|x| x * x).sum::<f64>().sqrt();
        let rf = rep.reference.as_ref().unwrap();
        prop_assert!(rf.found, "{:?}", rf.attempts);
        let dist = rf.distance.unwrap();
        prop_assert!((dist - total).abs() <= 1e-8 * total.max(1.0),
            "distance {} vs ‖E δ‖ {}", dist, total);
        for (c, rec) in rep.contacts.iter().enumerate() {
            let f = edge_force(&answer[4 * c..4 * c + 4], mu[c]);
            prop_assert!((rec.r_n - f[0]).abs() <= 1e-12 * f[0].abs().max(1.0));
            prop_assert!((rec.r_t1.unwrap() - f[1]).abs() <= 1e-12 * f[1].abs().max(1.0));
            prop_assert!((rec.r_t2.unwrap() - f[2]).abs() <= 1e-12 * f[2].abs().max(1.0));
            let dc = rec.distance.unwrap();
            prop_assert!((dc - per[c]).abs() <= 1e-8 * per[c].max(1.0));
        }
        let worst = (0..3).max_by(|&a, &b| per[a].total_cmp(&per[b])).unwrap();
        if per.iter().filter(|&&x| (x - per[worst]).abs() <= 1e-9 * per[worst]).count() == 1 {
            prop_assert_eq!(rf.worst_contact, Some(worst));
            prop_assert_eq!(rf.worst_label.as_deref(), Some(["a", "b", "c"][worst]));
        }
    }
}
