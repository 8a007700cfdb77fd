//! Issue 27, item 5: judging an answer by its distance to the reference solution
//! (`CheckOptions::by`), on problems whose solution is known in closed form.

use nalgebra::{DMatrix, DVector};
use nonsmooth::check::{CheckOptions, JudgeBy, check};
use nonsmooth::problem::{AnyProblem, FrictionContact, FrictionKind, Provenance};

/// `nc` decoupled contacts, `W = I`, `q_c = (-1, 0, 0)`: every contact is pressed with
/// `r*_c = (1, 0, 0)` and nothing slides (CCP, the solution is unique).
fn decoupled(nc: usize) -> AnyProblem {
    let n = 3 * nc;
    let mut q = DVector::zeros(n);
    for c in 0..nc {
        q[3 * c] = -1.0;
    }
    AnyProblem::Friction(
        FrictionContact::new(
            DMatrix::<f64>::identity(n, n).into(),
            q,
            DVector::from_element(nc, 0.5),
            FrictionKind::Ccp,
        )
        .unwrap(),
    )
}

fn judge(p: &AnyProblem, r: &[f64], tol: f64, by: JudgeBy) -> nonsmooth::check::CheckReport {
    let opts = CheckOptions {
        tol,
        by,
        ..Default::default()
    };
    check(p, r, &Provenance::default(), &opts).unwrap()
}

/// An answer 1e-3 (relative) from the solution: far outside a residual tolerance of
/// 1e-8, inside a distance tolerance of 1e-2. Each judgement says what it judged by.
#[test]
fn a_near_answer_is_consistent_by_distance_and_not_by_residual() {
    let p = decoupled(4);
    let mut r = vec![0.0; 12];
    for c in 0..4 {
        r[3 * c] = 1.0;
    }
    r[0] += 2e-3; // ‖r - r*‖ / ‖r*‖ = 2e-3 / 2 = 1e-3
    let by_residual = judge(&p, &r, 1e-2, JudgeBy::Residual);
    let by_distance = judge(&p, &r, 1e-2, JudgeBy::Distance);
    let rf = by_distance.reference.as_ref().unwrap();
    assert!((rf.relative_distance.unwrap() - 1e-3).abs() < 1e-9);
    assert!((rf.worst_relative_distance.unwrap() - 2e-3).abs() < 1e-9);
    assert_eq!(by_distance.verdict, "consistent", "{}", by_distance.grade);
    assert_eq!(by_distance.by, JudgeBy::Distance);
    // the same answer at a tighter tolerance: 1e-3 is above 1e-4
    let tight = judge(&p, &r, 1e-4, JudgeBy::Distance);
    assert_eq!(tight.verdict, "inconsistent", "{}", tight.grade);
    let tight_residual = judge(&p, &r, 1e-4, JudgeBy::Residual);
    assert_eq!(tight_residual.verdict, "inconsistent");
    // at 1e-2 the residual (about 1e-3) also passes; both then agree
    assert_eq!(by_residual.verdict, "consistent");
    assert_eq!(judge(&p, &r, 1e-2, JudgeBy::Both).verdict, "consistent");
    assert!(
        by_distance
            .grade
            .starts_with("consistent by distance: relative distance"),
        "{}",
        by_distance.grade
    );
}

/// A small residual can hide forces far from the solution: with a tangential stiffness of
/// 1e-8, dropping the tangential force changes the velocity by 1e-9 only. Judged by
/// residual the answer is consistent at 1e-8; by distance (0.1 off a force of about 1) it
/// is not, and by both it is not.
#[test]
fn a_small_residual_far_from_the_solution_fails_by_distance() {
    let w = DMatrix::from_diagonal(&DVector::from_vec(vec![1.0, 1e-8, 1.0]));
    let q = DVector::from_vec(vec![-1.0, 1e-9, 0.0]);
    let p = AnyProblem::Friction(
        FrictionContact::new(
            w.into(),
            q,
            DVector::from_element(1, 0.5),
            FrictionKind::Ccp,
        )
        .unwrap(),
    );
    // r* = (1, -0.1, 0): inside the cone (0.1 < 0.5), so it sticks
    let r = [1.0, 0.0, 0.0];
    let res = judge(&p, &r, 1e-8, JudgeBy::Residual);
    assert_eq!(res.verdict, "consistent", "{}", res.grade);
    let dist = judge(&p, &r, 1e-8, JudgeBy::Distance);
    assert_eq!(dist.verdict, "inconsistent", "{}", dist.grade);
    let rel = dist.reference.as_ref().unwrap().relative_distance.unwrap();
    assert!((rel - 0.1 / (1.0f64 + 0.01).sqrt()).abs() < 1e-6, "{rel}");
    assert_eq!(judge(&p, &r, 1e-8, JudgeBy::Both).verdict, "inconsistent");
    // both numbers are in every report, whatever it judged by
    assert!(res.reference.as_ref().unwrap().distance.unwrap() > 0.09);
    assert!(dist.error < 1e-8);
}

/// One contact of 100 off by 5 % of its force: the overall relative distance (5e-3) is
/// within 1e-2, but the contact is off by 5e-2 of the largest contact force, so the
/// verdict by distance is inconsistent and names that contact.
#[test]
fn one_bad_contact_among_many_is_not_averaged_away() {
    let nc = 100;
    let p = decoupled(nc);
    let mut r = vec![0.0; 3 * nc];
    for c in 0..nc {
        r[3 * c] = 1.0;
    }
    r[3 * 37 + 1] = 0.05;
    let rep = judge(&p, &r, 1e-2, JudgeBy::Distance);
    let rf = rep.reference.as_ref().unwrap();
    assert!((rf.relative_distance.unwrap() - 5e-3).abs() < 1e-9);
    assert_eq!(rf.worst_contact, Some(37));
    assert!((rf.worst_relative_distance.unwrap() - 0.05).abs() < 1e-9);
    assert_eq!(rep.verdict, "inconsistent", "{}", rep.grade);
    assert!(rep.grade.contains("worst contact 37"), "{}", rep.grade);
}

/// Without a reference solution a verdict by distance is "undecided", never consistent;
/// by residual it is unchanged.
#[test]
fn no_reference_means_undecided() {
    let p = decoupled(2);
    let r = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
    for by in [JudgeBy::Distance, JudgeBy::Both] {
        let opts = CheckOptions {
            by,
            reference: false,
            ..Default::default()
        };
        let rep = check(&p, &r, &Provenance::default(), &opts).unwrap();
        assert_eq!(rep.verdict, "undecided", "{by:?}");
        assert!(rep.grade.starts_with("undecided"), "{}", rep.grade);
    }
    let opts = CheckOptions {
        reference: false,
        ..Default::default()
    };
    assert_eq!(
        check(&p, &r, &Provenance::default(), &opts)
            .unwrap()
            .verdict,
        "consistent"
    );
}

/// An LCP has no contacts: the verdict by distance is the overall relative distance.
#[test]
fn an_lcp_is_judged_by_its_overall_distance() {
    use nonsmooth::problem::Lcp;
    // A = 2 I, b = (-2, 1): x* = (1, 0)
    let p = AnyProblem::Lcp(
        Lcp::new(
            DMatrix::from_diagonal(&DVector::from_vec(vec![2.0, 2.0])).into(),
            DVector::from_vec(vec![-2.0, 1.0]),
        )
        .unwrap(),
    );
    let near = judge(&p, &[1.0 + 1e-6, 0.0], 1e-5, JudgeBy::Distance);
    assert_eq!(near.verdict, "consistent", "{}", near.grade);
    let far = judge(&p, &[1.1, 0.0], 1e-5, JudgeBy::Distance);
    assert_eq!(far.verdict, "inconsistent", "{}", far.grade);
}
