//! The ratio table of `nonsmooth bench ratios` (`nonsmooth::cli::ratios`): best of ours over
//! best of Siconos on each problem, an unsolved side counting as infinitely slow.
//!
//! Laws: each row's ratio is the minimum of our converged times over the minimum of
//! Siconos's; the best of ours is never slower than the named method; scaling every Siconos
//! time by `c` divides every ratio (and the median and worst) by `c`; the median lies
//! between the smallest and largest ratio; bad campaigns are refused.

use nonsmooth::cli::profile::{Record, Statistic};
use nonsmooth::cli::ratios::{Ratios, median};
use proptest::prelude::*;

fn rec(problem: usize, solver: &str, seconds: f64, converged: bool) -> Record {
    Record {
        problem: format!("p{problem:03}.dat"),
        solver: solver.into(),
        contacts: 1 + problem,
        tol: 1e-8,
        seconds: Some(seconds),
        status: if converged {
            "converged"
        } else {
            "max-iterations"
        }
        .into(),
        iterations: Some(1),
        error: Some(1e-9),
        repeat: 1,
        timeout: None,
        message: None,
        timer: None,
        median_seconds: None,
    }
}

const SOLVERS: [&str; 4] = ["auto", "nsgs", "siconos-NSGS", "siconos-PROX"];

/// A campaign: per problem and solver, a time and whether it converged.
fn campaign() -> impl Strategy<Value = Vec<Vec<(f64, bool)>>> {
    prop::collection::vec(
        prop::collection::vec((1e-6f64..10.0, prop::bool::weighted(0.8)), SOLVERS.len()),
        1..12,
    )
}

fn records(c: &[Vec<(f64, bool)>], scale_siconos: f64) -> Vec<Record> {
    let mut out = Vec::new();
    for (p, row) in c.iter().enumerate() {
        for (s, &(t, ok)) in row.iter().enumerate() {
            let t = if SOLVERS[s].starts_with("siconos-") {
                t * scale_siconos
            } else {
                t
            };
            out.push(rec(p, SOLVERS[s], t, ok));
        }
    }
    out
}

fn best(row: &[(f64, bool)], siconos: bool) -> Option<f64> {
    row.iter()
        .zip(SOLVERS)
        .filter(|((_, ok), s)| *ok && s.starts_with("siconos-") == siconos)
        .map(|((t, _), _)| *t)
        .min_by(f64::total_cmp)
}

proptest! {
    #[test]
    fn each_ratio_is_best_over_best(c in campaign()) {
        let r = Ratios::from_records(&records(&c, 1.0), "auto").unwrap();
        prop_assert_eq!(r.rows.len(), c.len());
        for (row, times) in r.rows.iter().zip(&c) {
            let (o, t) = (best(times, false), best(times, true));
            let want = match (o, t) {
                (Some(o), Some(t)) => Some(o / t),
                (None, Some(_)) => Some(f64::INFINITY),
                (Some(_), None) => Some(0.0),
                (None, None) => None,
            };
            prop_assert_eq!(row.ratio(), want);
            // the best of ours is at most the named method's time
            if let (Some(a), Some(b)) = (row.ratio(), row.named_ratio()) {
                prop_assert!(a <= b);
            }
        }
    }

    #[test]
    fn scaling_siconos_times_divides_the_ratios(c in campaign(), k in 0.01f64..100.0) {
        let a = Ratios::from_records(&records(&c, 1.0), "auto").unwrap();
        let b = Ratios::from_records(&records(&c, k), "auto").unwrap();
        let close = |x: Option<f64>, y: Option<f64>| match (x, y) {
            (Some(x), Some(y)) if x.is_finite() => (x / k - y).abs() <= 1e-12 * (x / k).abs(),
            (x, y) => x == y,
        };
        for (ra, rb) in a.rows.iter().zip(&b.rows) {
            prop_assert!(close(ra.ratio(), rb.ratio()));
            prop_assert!(close(ra.named_ratio(), rb.named_ratio()));
        }
        prop_assert!(close(a.median(), b.median()));
        prop_assert!(close(a.worst(), b.worst()));
    }

    #[test]
    fn the_median_lies_between_the_extremes(c in campaign()) {
        let r = Ratios::from_records(&records(&c, 1.0), "auto").unwrap();
        let defined: Vec<f64> = r.rows.iter().filter_map(|x| x.ratio()).collect();
        match r.median() {
            None => prop_assert!(defined.is_empty()),
            Some(m) => {
                let lo = defined.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = defined.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                prop_assert!(lo <= m && m <= hi);
                prop_assert_eq!(r.worst(), Some(hi));
            }
        }
    }
}

#[test]
fn median_of_even_and_odd_counts() {
    assert_eq!(median([Some(3.0), None, Some(1.0), Some(2.0)]), Some(2.0));
    assert_eq!(
        median([Some(4.0), Some(1.0), Some(2.0), Some(3.0)]),
        Some(2.5)
    );
    assert_eq!(median([None, None]), None);
    assert_eq!(
        median([Some(f64::INFINITY), Some(1.0), Some(f64::INFINITY)]),
        Some(f64::INFINITY)
    );
}

#[test]
fn campaigns_without_siconos_or_mixed_are_refused() {
    let ours = vec![rec(0, "auto", 1.0, true), rec(1, "nsgs", 2.0, true)];
    let e = Ratios::from_records(&ours, "auto").unwrap_err();
    assert!(e.contains("no Siconos records"), "{e}");
    let mut mixed = vec![rec(0, "auto", 1.0, true), rec(0, "siconos-NSGS", 1.0, true)];
    mixed[1].tol = 1e-4;
    let e = Ratios::from_records(&mixed, "auto").unwrap_err();
    assert!(e.contains("different tolerances"), "{e}");
    let nameless = vec![rec(0, "nsn", 1.0, true), rec(0, "siconos-NSGS", 1.0, true)];
    let e = Ratios::from_records(&nameless, "auto").unwrap_err();
    assert!(e.contains("no records of `auto`"), "{e}");
    let dup = vec![rec(0, "auto", 1.0, true), rec(0, "auto", 2.0, true)];
    assert!(Ratios::from_records(&dup, "auto").is_err());
    assert!(Ratios::from_records(&[], "auto").is_err());
}

/// A problem Siconos did not run on (no Siconos record, or only `not-run` ones: a file the
/// harness cannot be given) has no ratio: the table says "not run", not "not solved", and
/// the median and worst leave it out; one where Siconos ran and failed keeps ratio 0.
#[test]
fn problems_siconos_did_not_run_on_have_no_ratio() {
    let not_run = |p: usize| {
        let mut r = rec(p, "siconos-NSGS", 1.0, false);
        r.status = "not-run".into();
        r.seconds = None;
        r.message = Some("a boxed LCP".into());
        r
    };
    let records = vec![
        // p000: both ran, ours 2x slower
        rec(0, "auto", 2.0, true),
        rec(0, "siconos-NSGS", 1.0, true),
        // p001: Siconos ran and failed: ratio 0
        rec(1, "auto", 1.0, true),
        rec(1, "siconos-NSGS", 1.0, false),
        // p002: Siconos not run (a not-run record)
        rec(2, "auto", 1.0, true),
        not_run(2),
        // p003: no Siconos record at all
        rec(3, "auto", 1.0, true),
    ];
    let r = Ratios::from_records(&records, "auto").unwrap();
    let ratios: Vec<Option<f64>> = r.rows.iter().map(|row| row.ratio()).collect();
    assert_eq!(ratios, vec![Some(2.0), Some(0.0), None, None]);
    assert_eq!(r.median(), Some(1.0));
    assert_eq!(r.worst(), Some(2.0));
    assert_eq!(r.named_median(), Some(1.0));
    let md = nonsmooth::cli::ratios::ratios_markdown(&r);
    let line = |p: &str| {
        md.lines()
            .find(|l| l.starts_with(&format!("| {p} ")))
            .unwrap()
    };
    assert!(line("p001.dat").contains("not solved"), "{md}");
    assert!(line("p002.dat").contains("not run"), "{md}");
    assert!(line("p003.dat").contains("not run"), "{md}");
    assert!(md.contains("Siconos not run on 2 of 4 problems"), "{md}");
    // a campaign where Siconos ran nowhere has nothing to compare with
    let e = Ratios::from_records(&[rec(0, "auto", 1.0, true), not_run(0)], "auto").unwrap_err();
    assert!(e.contains("did not run on any problem"), "{e}");
}

proptest! {
    /// By the median, the table is the table of the records whose times are their medians:
    /// [`Ratios::from_records_by`] with [`Statistic::Median`] reads `median_seconds`, not
    /// `seconds`, and nothing else changes.
    #[test]
    fn the_median_table_is_the_table_of_the_medians(c in campaign(), spread in 1.0f64..5.0) {
        let best = records(&c, 1.0);
        let with_medians: Vec<Record> = best
            .iter()
            .map(|r| Record { median_seconds: r.seconds.map(|s| s * spread), ..r.clone() })
            .collect();
        let as_best: Vec<Record> = with_medians
            .iter()
            .map(|r| Record { seconds: r.median_seconds, ..r.clone() })
            .collect();
        let by_median = Ratios::from_records_by(&with_medians, "auto", Statistic::Median).unwrap();
        let direct = Ratios::from_records(&as_best, "auto").unwrap();
        prop_assert_eq!(&by_median.rows, &direct.rows);
        prop_assert_eq!(by_median.median(), direct.median());
        // and by the best, the medians are ignored
        let by_best = Ratios::from_records(&with_medians, "auto").unwrap();
        prop_assert_eq!(by_best.rows, Ratios::from_records(&best, "auto").unwrap().rows);
    }
}

#[test]
fn a_campaign_without_medians_is_refused_by_the_median() {
    let rs = vec![rec(0, "auto", 1.0, true), rec(0, "siconos-PROX", 2.0, true)];
    let e = Ratios::from_records_by(&rs, "auto", Statistic::Median).unwrap_err();
    assert!(e.contains("no median"), "{e}");
    assert!(Ratios::from_records_by(&rs, "auto", Statistic::Best).is_ok());
}
