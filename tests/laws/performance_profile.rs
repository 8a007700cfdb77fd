//! Laws of the performance profile (Dolan and Moré 2002) of `nonsmooth bench profile`:
//! `rho_s(tau)` is nondecreasing in `tau` and in `[0, 1]`; at `tau = 1` the solvers' values
//! sum to at least 1 when every problem is solved by someone (ties count for each tied
//! solver); a solver that fails everywhere has `rho = 0`; scaling every time by one
//! constant changes nothing; and for large `tau` `rho_s` is the fraction `s` solved.

use nonsmooth::cli::profile::{Profile, Record};
use proptest::prelude::*;

/// Tables of `problems x solvers` times: `None` (not solved) or a time in
/// `[1e-6, 1e3]` seconds; some times are drawn from a small set so that ties occur.
fn table() -> impl Strategy<Value = (usize, Vec<Vec<Option<f64>>>)> {
    (1usize..5, 1usize..12).prop_flat_map(|(s, p)| {
        let time = prop_oneof![
            Just(None),
            (-6.0f64..3.0).prop_map(|e| Some(10f64.powf(e))),
            prop::sample::select(vec![1e-3, 2e-3, 4e-3]).prop_map(Some),
        ];
        (
            Just(s),
            prop::collection::vec(prop::collection::vec(time, s), p),
        )
    })
}

fn names(s: usize) -> Vec<String> {
    (0..s).map(|i| format!("s{i}")).collect()
}

const TAUS: [f64; 9] = [1.0, 1.5, 2.0, 4.0, 10.0, 100.0, 1e4, 1e8, 1e12];

proptest! {
    #[test]
    fn rho_is_nondecreasing_and_in_unit_interval((s, times) in table()) {
        let p = Profile::new(names(s), &times).unwrap();
        for i in 0..s {
            let mut last = 0.0;
            for tau in TAUS {
                let r = p.rho(i, tau);
                prop_assert!((0.0..=1.0).contains(&r), "rho = {r}");
                prop_assert!(r >= last, "rho fell from {last} to {r} at tau = {tau}");
                last = r;
            }
        }
    }

    #[test]
    fn rho_at_one_sums_to_at_least_one_when_all_solved((s, mut times) in table()) {
        // make every problem solved by someone
        for row in &mut times {
            if row.iter().all(Option::is_none) {
                row[0] = Some(1e-3);
            }
        }
        let p = Profile::new(names(s), &times).unwrap();
        let sum: f64 = (0..s).map(|i| p.rho(i, 1.0)).sum();
        prop_assert!(sum >= 1.0 - 1e-12, "sum of rho(1) = {sum}");
    }

    #[test]
    fn a_solver_that_fails_everywhere_is_zero((s, mut times) in table()) {
        for row in &mut times {
            row.push(None);
        }
        let mut n = names(s);
        n.push("never".into());
        let p = Profile::new(n, &times).unwrap();
        for tau in TAUS {
            prop_assert_eq!(p.rho(s, tau), 0.0);
        }
    }

    #[test]
    fn scaling_all_times_changes_nothing((s, times) in table(), k in -3.0f64..3.0) {
        let c = 10f64.powf(k);
        let scaled: Vec<Vec<Option<f64>>> = times
            .iter()
            .map(|row| row.iter().map(|t| t.map(|t| t * c)).collect())
            .collect();
        let p = Profile::new(names(s), &times).unwrap();
        let q = Profile::new(names(s), &scaled).unwrap();
        for i in 0..s {
            for tau in TAUS {
                prop_assert_eq!(p.rho(i, tau), q.rho(i, tau), "solver {} tau {}", i, tau);
            }
        }
    }

    #[test]
    fn rho_at_large_tau_is_the_fraction_solved((s, times) in table()) {
        let p = Profile::new(names(s), &times).unwrap();
        for i in 0..s {
            let solved = times.iter().filter(|row| row[i].is_some()).count();
            prop_assert_eq!(p.rho(i, 1e12), solved as f64 / times.len() as f64);
        }
    }
}

/// From records: a (problem, solver) without a record is not solved; a non-converged record
/// is not solved; mixed tolerances and duplicates are refused with a message.
#[test]
fn records_make_the_same_profile_and_refuse_bad_input() {
    let rec = |p: &str, s: &str, t: f64, status: &str| Record {
        problem: p.into(),
        solver: s.into(),
        contacts: 1,
        tol: 1e-8,
        seconds: Some(t),
        status: status.into(),
        iterations: Some(3),
        error: Some(1e-9),
        repeat: 1,
        timeout: None,
        message: None,
        timer: None,
        median_seconds: None,
    };
    let records = vec![
        rec("a", "x", 1.0, "converged"),
        rec("a", "y", 3.0, "converged"),
        rec("b", "x", 5.0, "max-iterations"),
        rec("b", "y", 2.0, "converged"),
        rec("c", "y", 1.0, "failed"),
    ];
    let p = Profile::from_records(&records).unwrap();
    assert_eq!(p.problems, 3);
    assert_eq!(p.solvers, vec!["x".to_string(), "y".to_string()]);
    assert_eq!(p.rho(0, 1.0), 1.0 / 3.0);
    assert_eq!(p.rho(0, 100.0), 1.0 / 3.0);
    assert_eq!(p.rho(1, 1.0), 1.0 / 3.0);
    assert_eq!(p.rho(1, 2.9), 1.0 / 3.0);
    assert_eq!(p.rho(1, 3.0), 2.0 / 3.0);

    let mut dup = records.clone();
    dup.push(rec("a", "x", 2.0, "converged"));
    let e = Profile::from_records(&dup).unwrap_err();
    assert!(e.contains("duplicate"), "{e}");

    let mut mixed = records.clone();
    mixed[0].tol = 1e-4;
    let e = Profile::from_records(&mixed).unwrap_err();
    assert!(e.contains("different tolerances"), "{e}");

    let e = Profile::from_records(&[]).unwrap_err();
    assert!(e.contains("no campaign records"), "{e}");

    let e = Profile::new(names(1), &[vec![Some(0.0)]]).unwrap_err();
    assert!(e.contains("finite positive"), "{e}");
    let e = Profile::new(names(1), &[vec![Some(f64::NAN)]]).unwrap_err();
    assert!(e.contains("finite positive"), "{e}");
}
