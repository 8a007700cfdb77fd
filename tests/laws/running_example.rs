//! The book's running example ([`nonsmooth::problem::running_example`]) is what the book
//! says it is: `W` symmetric positive definite with coupled contacts, the hand-worked
//! solution solves it with contact 1 sticking and contact 2 sliding (each contact's own
//! one-contact solve, [`solve_contact`], given the other's impulse, finds that case), and
//! every friction method of the registry ends there, from zero and from random starts (the
//! evidence that the solution is the only one the methods find).
//!
//! As complementarity problems built by the crate's conversions (the frictionless normal
//! LCP, [`Lcp::frictionless`], the friction box,
//! [`BoxedLcp::from_friction_contact`], and the LCP with friction directions,
//! [`Lcp::with_friction_directions`]): Lemke's method solves the normal LCP, every LCP
//! method of the registry reaches Lemke's answer there and the box's solution on the box
//! (judged by each problem's own error measure), and the box's answer is what the book says
//! of it beside the cone's: the same normal impulses and cases, more friction on the sliding
//! contact, less slip; with friction directions (a square inside the cone) Lemke finds less
//! friction and more slip, and the Newton methods find the same impulses.

use nalgebra::{Matrix3, Vector3};
use nonsmooth::merit::{boxed_error, friction_error, lcp_error};
use nonsmooth::problem::{AnyProblem, BoxedLcp, Lcp, running_example, running_example_solution};
use nonsmooth::registry::{Choice, solve};
use nonsmooth::rng::SplitMix64;
use nonsmooth::solver::{Params, no_observer};
use nonsmooth::splitting::{ContactCase, solve_contact};

/// `p` with its Delassus operator stored sparse (CSR): the conversions must keep it sparse
/// and give the same matrix.
fn with_sparse_w(p: &nonsmooth::problem::FrictionContact) -> nonsmooth::problem::FrictionContact {
    nonsmooth::problem::FrictionContact::new(
        p.w().to_csr().into(),
        p.q().clone(),
        p.mu().clone(),
        p.kind(),
    )
    .expect("the same problem, stored sparse")
}

#[test]
fn the_delassus_operator_is_positive_definite_and_couples_the_contacts() {
    let p = running_example();
    let w = p.w().to_dense();
    assert_eq!(w, w.transpose());
    let eig = w.clone().symmetric_eigen();
    assert!(
        eig.eigenvalues.iter().all(|&l| l > 0.1),
        "{}",
        eig.eigenvalues
    );
    assert!(w.view((0, 3), (3, 3)).norm() > 0.0);
}

#[test]
fn the_hand_worked_solution_solves_it_with_one_stick_and_one_slide() {
    let p = running_example();
    let r = running_example_solution();
    let e = friction_error(&p, &r);
    assert!(e.rel <= 1e-15 && e.normal == 0.0, "{e:?}");
    let w = p.w().to_dense();
    let cases = [ContactCase::Stick, ContactCase::Slide];
    for c in 0..2 {
        let o = 1 - c;
        let wcc = Matrix3::from_fn(|i, j| w[(3 * c + i, 3 * c + j)]);
        let wco = w.view((3 * c, 3 * o), (3, 3)).into_owned();
        let q = p.q().rows(3 * c, 3) + wco * r.rows(3 * o, 3);
        let one = solve_contact(
            &wcc,
            &Vector3::new(q[0], q[1], q[2]),
            p.mu()[c],
            p.kind(),
            [0.0; 3],
        );
        assert_eq!(one.case, cases[c], "contact {}", c + 1);
        for i in 0..3 {
            assert!(
                (one.r[i] - r[3 * c + i]).abs() <= 1e-12,
                "contact {}",
                c + 1
            );
        }
    }
    let u = p.velocity(&r);
    // contact 1 sticks strictly inside its cone, contact 2 slides at 0.3 m/s
    assert!(u.rows(0, 3).norm() <= 1e-15);
    assert!(r.rows(1, 2).norm() < p.mu()[0] * r[0] - 1.0);
    assert!((u.rows(4, 2).norm() - 0.3).abs() <= 1e-12 && u[3].abs() <= 1e-15);
}

#[test]
fn every_friction_method_ends_at_the_solution() {
    let p = running_example();
    let exact = running_example_solution();
    let any = AnyProblem::Friction(p.clone());
    let params = Params {
        tol: 1e-10,
        certify: false,
        ..Default::default()
    };
    let methods = [
        "nsgs",
        "prox-gs",
        "prox-jacobi",
        "nsn",
        "prox-nsn",
        "gs-nsn",
        "ppa",
        "auto",
    ];
    let mut rng = SplitMix64::new(34);
    for m in methods {
        let choice: Choice = m.parse().expect("registered");
        for start in 0..6 {
            let x0 = if start == 0 {
                nalgebra::DVector::zeros(6)
            } else {
                nalgebra::DVector::from_fn(6, |_, _| rng.uniform(-10.0, 10.0))
            };
            let out = solve(&any, &choice, x0, &params, &mut no_observer());
            assert_eq!(out.status(), "converged", "{m}, start {start}");
            let gap = (&out.x - &exact).norm();
            assert!(gap <= 1e-7, "{m}, start {start}: {gap:e} from the solution");
        }
    }
}

/// Lemke's answer on the normal LCP of the running example.
fn lemke_normal() -> nalgebra::DVector<f64> {
    let lcp = Lcp::frictionless(&running_example());
    let choice: Choice = "lemke".parse().expect("registered");
    let params = Params {
        tol: 1e-12,
        certify: false,
        ..Default::default()
    };
    let out = solve(
        &AnyProblem::Lcp(lcp.clone()),
        &choice,
        nalgebra::DVector::zeros(2),
        &params,
        &mut no_observer(),
    );
    assert_eq!(out.status(), "converged");
    assert!(lcp_error(&lcp, &out.x).rel <= 1e-14);
    out.x
}

#[test]
fn the_normal_lcp_is_the_normal_rows_and_lemke_finds_the_normal_impulses() {
    let p = running_example();
    let lcp = Lcp::frictionless(&p);
    let w = p.w().to_dense();
    for i in 0..2 {
        assert_eq!(lcp.b()[i], p.q()[3 * i]);
        for j in 0..2 {
            assert_eq!(lcp.a().get(i, j), w[(3 * i, 3 * j)]);
        }
    }
    // with friction off the normal impulses are those of the cone's solution: W couples
    // normal rows only with normal rows, and Coulomb's sliding contact has u_n = 0
    let z = lemke_normal();
    let exact = running_example_solution();
    for c in 0..2 {
        assert!((z[c] - exact[3 * c]).abs() <= 1e-12, "contact {}", c + 1);
    }
    // the same from a sparse W
    let sparse = with_sparse_w(&p);
    let ls = Lcp::frictionless(&sparse);
    assert!(ls.a().is_sparse());
    assert_eq!(ls.a().to_dense(), lcp.a().to_dense());
}

#[test]
fn every_lcp_method_reaches_lemkes_answer_and_the_box_solution() {
    let p = running_example();
    let z = lemke_normal();
    let lcp = AnyProblem::Lcp(Lcp::frictionless(&p));
    let blcp = BoxedLcp::from_friction_contact(&p);
    let boxed = AnyProblem::Boxed(blcp.clone());
    // the box's solution: contact 1 sticks, contact 2 slides with both friction rows at
    // their lower bound -mu_2 r_2n = -0.8 (worked out as the cone's, with a box)
    let x_box = nalgebra::DVector::from_row_slice(&[5.0, -0.8, -0.8, 4.0, -0.8, -0.8]);
    assert!(boxed_error(&blcp, &x_box).rel <= 1e-15);
    let params = Params {
        tol: 1e-10,
        certify: false,
        ..Default::default()
    };
    let mut rng = SplitMix64::new(35);
    for m in ["fischer-newton", "minmap-newton", "pgs", "auto"] {
        let choice: Choice = m.parse().expect("registered");
        for start in 0..4 {
            let (x0, x6) = if start == 0 {
                (nalgebra::DVector::zeros(2), nalgebra::DVector::zeros(6))
            } else {
                (
                    nalgebra::DVector::from_fn(2, |_, _| rng.uniform(0.0, 10.0)),
                    nalgebra::DVector::from_fn(6, |_, _| rng.uniform(0.0, 10.0)),
                )
            };
            let out = solve(&lcp, &choice, x0, &params, &mut no_observer());
            assert_eq!(out.status(), "converged", "{m} on the LCP, start {start}");
            let AnyProblem::Lcp(l) = &lcp else {
                unreachable!()
            };
            assert!(lcp_error(l, &out.x).rel <= 1e-10, "{m}, start {start}");
            assert!(
                (&out.x - &z).norm() <= 1e-8,
                "{m}, start {start}: not Lemke's answer"
            );
            let out = solve(&boxed, &choice, x6, &params, &mut no_observer());
            assert_eq!(out.status(), "converged", "{m} on the box, start {start}");
            assert!(
                boxed_error(&blcp, &out.x).rel <= 1e-10,
                "{m}, start {start}"
            );
            assert!(
                (&out.x - &x_box).norm() <= 1e-8,
                "{m}, start {start}: {} is not the box's solution",
                out.x
            );
            for c in 0..2 {
                assert!(
                    (out.x[3 * c] - z[c]).abs() <= 1e-8,
                    "{m}: normal of {}",
                    c + 1
                );
            }
        }
    }
}

#[test]
fn the_box_approximates_the_cone_as_the_chapter_says() {
    let p = running_example();
    let blcp = BoxedLcp::from_friction_contact(&p);
    let cone = running_example_solution();
    let x_box = nalgebra::DVector::from_row_slice(&[5.0, -0.8, -0.8, 4.0, -0.8, -0.8]);
    assert!(boxed_error(&blcp, &x_box).rel <= 1e-15);
    let (u_cone, u_box) = (p.velocity(&cone), blcp.w(&x_box));
    let mu = p.mu();
    // the same normal impulses, the same cases: contact 1 sticks, contact 2 slides
    for c in 0..2 {
        assert_eq!(x_box[3 * c], cone[3 * c]);
    }
    assert!(u_box.rows(0, 3).norm() <= 1e-15 && u_cone.rows(0, 3).norm() <= 1e-15);
    let (slip_box, slip_cone) = (u_box.rows(4, 2), u_cone.rows(4, 2));
    assert!(slip_box.norm() > 0.05 && slip_cone.norm() > 0.05);
    // the box holds more friction than the cone on the sliding contact, at most sqrt 2
    // times more (a corner of the box), so it slides more slowly ...
    let (f_box, f_cone) = (x_box.rows(4, 2).norm(), cone.rows(4, 2).norm());
    assert!(
        (f_cone - mu[1] * cone[3]).abs() <= 1e-12,
        "the cone's friction is on the cone"
    );
    assert!(f_box > f_cone && f_box <= 2f64.sqrt() * mu[1] * x_box[3] + 1e-12);
    assert!(slip_box.norm() < slip_cone.norm());
    // ... and in another direction: the box's friction does not oppose its slip
    let cos = |a: &[f64], b: &[f64]| {
        (a[0] * b[0] + a[1] * b[1])
            / ((a[0] * a[0] + a[1] * a[1]) * (b[0] * b[0] + b[1] * b[1])).sqrt()
    };
    let fb = [x_box[4], x_box[5]];
    let sb = [slip_box[0], slip_box[1]];
    let sc = [slip_cone[0], slip_cone[1]];
    assert!(
        cos(&fb, &sb) > -0.99,
        "the box's friction is not opposite to its slip"
    );
    assert!(
        (cos(&[cone[4], cone[5]], &sc) + 1.0).abs() <= 1e-12,
        "the cone's is"
    );
    let degrees = cos(&sb, &sc).clamp(-1.0, 1.0).acos().to_degrees();
    assert!(degrees > 5.0 && degrees < 20.0, "{degrees}");
}

#[test]
fn lemke_solves_the_lcp_with_friction_directions_inside_the_cone() {
    let p = running_example();
    let fd = Lcp::with_friction_directions(&p);
    assert_eq!(fd.dim(), 12);
    let any = AnyProblem::Lcp(fd.clone());
    let params = Params {
        tol: 1e-12,
        certify: false,
        ..Default::default()
    };
    let choice: Choice = "lemke".parse().expect("registered");
    let out = solve(
        &any,
        &choice,
        nalgebra::DVector::zeros(12),
        &params,
        &mut no_observer(),
    );
    assert_eq!(out.status(), "converged");
    assert!(lcp_error(&fd, &out.x).rel <= 1e-14);
    let r = Lcp::friction_direction_impulses(&out.x).expect("6 per contact");
    let u = p.velocity(&r);
    let mu = p.mu();
    // the normal impulses of the normal LCP; contact 1 sticks, contact 2 slides, closed
    let z = lemke_normal();
    for c in 0..2 {
        assert!((r[3 * c] - z[c]).abs() <= 1e-12);
    }
    assert!(u.rows(0, 3).norm() <= 1e-12 && u[3].abs() <= 1e-12);
    let slip = u.rows(4, 2);
    assert!(slip.norm() > 0.05);
    // contact 2's friction saturates the square |r_t1| + |r_t2| <= mu r_n, inside the
    // cone, so it is smaller than the cone's and the box slides faster
    let (f1, f2) = (r[4], r[5]);
    assert!((f1.abs() + f2.abs() - mu[1] * r[3]).abs() <= 1e-12);
    assert!(f1.hypot(f2) < mu[1] * r[3]);
    let cone = running_example_solution();
    assert!(slip.norm() > p.velocity(&cone).rows(4, 2).norm());
    // both directions -t1 and -t2 carry friction, so the slip is equally opposed by both:
    // along the diagonal, u_t1 = u_t2; with 0.3 - a/4 = 0.4 - b/4 and a + b = 0.8 this is
    // friction (-0.2, -0.6)
    assert!((slip[0] - slip[1]).abs() <= 1e-12, "{slip}");
    assert!(
        (f1 + 0.2).abs() <= 1e-12 && (f2 + 0.6).abs() <= 1e-12,
        "{f1} {f2}"
    );
    // the same problem from a sparse W
    let sparse = with_sparse_w(&p);
    let fs = Lcp::with_friction_directions(&sparse);
    assert!(fs.a().is_sparse() && !fd.a().is_sparse());
    assert_eq!(fs.a().to_dense(), fd.a().to_dense());
    assert_eq!(fs.b(), fd.b());
    // the other LCP methods find the same contact impulses (the split of a sticking
    // contact's friction into directions is not unique, its sum is)
    for m in ["fischer-newton", "minmap-newton"] {
        let choice: Choice = m.parse().expect("registered");
        let o = solve(
            &any,
            &choice,
            nalgebra::DVector::zeros(12),
            &params,
            &mut no_observer(),
        );
        assert_eq!(o.status(), "converged", "{m}");
        let ro = Lcp::friction_direction_impulses(&o.x).expect("6 per contact");
        assert!((&ro - &r).norm() <= 1e-8, "{m}: {ro}");
    }
}
