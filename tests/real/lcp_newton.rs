//! On real input: Fischer-Newton and minimum-map Newton on the 15 shared Siconos LCPs
//! (`data/siconos/lcp`), beside what Siconos 4.4's NEWTONMIN and Lemke report
//! (`data/reference/siconos-4.4-lcp.tsv`). Every answer our methods call converged is
//! checked independently with `merit::lcp_error`, and each Newton method must solve (to
//! 1e-10) at least as many files as Siconos's NEWTONMIN does.

use crate::common;

use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, load};
use nonsmooth::merit::lcp_error;
use nonsmooth::newton::{
    Direction, FischerNewtonOptions, MinMapNewtonOptions, fischer_newton, min_map_newton,
};
use nonsmooth::solver::{Params, SolveError, Solved, Status, no_observer};

fn cell<S>(r: &Result<Solved<S>, SolveError<S>>) -> String {
    match r {
        Ok(i) => format!("{} it, {:.1e}", i.iterations, i.error.rel),
        Err(SolveError::NoConvergence(i)) => {
            format!("no ({} it, {:.1e})", i.iterations, i.error.rel)
        }
        Err(e) => e.status_name().to_string(),
    }
}

#[test]
fn newton_methods_on_the_siconos_lcps() {
    let (Some(dir), Some(refs)) = (
        common::shared_file("siconos/lcp"),
        common::reference("siconos-4.4-lcp.tsv"),
    ) else {
        return;
    };
    let params = Params {
        tol: 1e-10,
        max_iter: 1000,
        ..Default::default()
    };
    let mut files: Vec<String> = refs.iter().map(|r| r.file.clone()).collect();
    files.sort();
    files.dedup();
    assert_eq!(files.len(), 15);
    let siconos_ok = |file: &str, solver: &str| {
        refs.iter().any(|r| {
            r.file == file
                && r.solver == solver
                && r.info == Some(0)
                && r.error.is_some_and(|e| e <= 1e-10)
        })
    };
    let (mut fn_solved, mut mm_solved, mut newtonmin, mut lemke) = (0, 0, 0, 0);
    for file in &files {
        let lp = load(dir.join(file)).unwrap_or_else(|e| panic!("{e}"));
        let AnyProblem::Lcp(p) = &lp.problem else {
            panic!("{file} is not an LCP")
        };
        let mut x = DVector::zeros(p.dim());
        let rf = fischer_newton(
            p,
            &mut x,
            &params,
            &FischerNewtonOptions::default(),
            &mut no_observer(),
        );
        if rf.is_ok() {
            fn_solved += 1;
            assert!(lcp_error(p, &x).rel <= 1e-10, "{file}");
        }
        let mut x = DVector::zeros(p.dim());
        let rm = min_map_newton(
            p,
            &mut x,
            &params,
            &MinMapNewtonOptions::default(),
            &mut no_observer(),
        );
        if rm.is_ok() {
            mm_solved += 1;
            assert!(lcp_error(p, &x).rel <= 1e-10, "{file}");
        }
        newtonmin += siconos_ok(file, "NEWTONMIN") as usize;
        lemke += siconos_ok(file, "LEMKE") as usize;
        eprintln!(
            "{file:28} n={:2} FN {:22} MMN {:22} siconos NEWTONMIN {} LEMKE {}",
            p.dim(),
            cell(&rf),
            cell(&rm),
            siconos_ok(file, "NEWTONMIN"),
            siconos_ok(file, "LEMKE")
        );
    }
    eprintln!(
        "solved to 1e-10: FN {fn_solved}, MMN {mm_solved}, Siconos NEWTONMIN {newtonmin}, Siconos LEMKE {lemke} (of 15)"
    );
    assert!(fn_solved >= newtonmin);
    assert!(mm_solved >= newtonmin);
}

/// Minimum-map Newton reports a stall, a step where neither the Newton
/// nor the gradient direction decreases the merit, as `Status::Stalled` ("stalled") at the
/// iteration where it happens, not as the iteration cap: on `lcp_CPS_4` (minimum-map
/// Newton stalls at its second step, at a point where its reduced system is singular) and
/// `lcp_CPS_2` (after a run of gradient steps). Capped before the stall, the same run
/// reports `MaxIterations`.
#[test]
fn a_stall_is_reported_as_stalled_where_it_happens() {
    let Some(dir) = common::shared_file("siconos/lcp") else {
        return;
    };
    // the method's own stall (no direction decreases the merit), not the loop's stall rule,
    // which would end the plateau before it
    let params = Params {
        tol: 1e-10,
        max_iter: 1000,
        stall: Some(nonsmooth::solver::StallRule::NEVER),
        ..Default::default()
    };
    for file in ["lcp_CPS_4.dat", "lcp_CPS_2.dat"] {
        let lp = load(dir.join(file)).unwrap_or_else(|e| panic!("{e}"));
        let AnyProblem::Lcp(p) = &lp.problem else {
            panic!("{file} is not an LCP")
        };
        let mut x = DVector::zeros(p.dim());
        let opts = MinMapNewtonOptions::default();
        let r = min_map_newton(p, &mut x, &params, &opts, &mut no_observer());
        let Err(e @ SolveError::NoConvergence(info)) = &r else {
            panic!("{file}: expected a stall, got {r:?}")
        };
        assert_eq!(info.status, Status::Stalled, "{file}");
        assert_eq!(e.status_name(), "stalled", "{file}");
        assert!(e.to_string().starts_with("stalled after"), "{file}: {e}");
        assert!(info.iterations < params.max_iter, "{file}");
        assert_eq!(info.stats.steps.len(), info.iterations, "{file}");
        let last = info.stats.steps.last().unwrap();
        assert_eq!(last.direction, Direction::None, "{file}");
        assert!(
            info.stats.steps[..info.iterations - 1]
                .iter()
                .all(|s| s.direction != Direction::None),
            "{file}: it stops at the first stall"
        );
        assert!(info.error.rel > params.tol, "{file}");
        // capped before the stall: the cap, not a stall
        let capped = Params {
            max_iter: info.iterations - 1,
            ..params.clone()
        };
        if capped.max_iter > 0 {
            let mut x = DVector::zeros(p.dim());
            let r = min_map_newton(p, &mut x, &capped, &opts, &mut no_observer());
            let Err(SolveError::NoConvergence(c)) = &r else {
                panic!("{file}: {r:?}")
            };
            assert_eq!(c.status, Status::MaxIterations, "{file}");
            assert_eq!(c.iterations, capped.max_iter, "{file}");
        }
    }
}
