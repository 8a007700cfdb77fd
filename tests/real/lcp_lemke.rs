//! On real input: Lemke solves every shared Siconos LCP that Siconos 4.4's Lemke solves
//! (`data/reference/siconos-4.4-lcp.tsv`), to an LCP error of at most 1e-10, and the
//! 40-variable `tests/data/lcp_tobenna.dat` that it once could not (issue 9); on every one
//! it makes the pivots that exact arithmetic makes (`tests/exact_lemke/`).
//!
//! The pivot counts, ours, exact arithmetic's and Siconos's, are the table
//! `book/src/generated/lemke_pivots.txt` of the chapter "Complementarity and its
//! reformulations": the test fails if the committed table differs from what it computes,
//! and rewrites it under `NONSMOOTH_BLESS=1`.

use crate::common;
use crate::exact_lemke;

use std::fmt::Write;
use std::path::Path;

use exact_lemke::{Outcome, Rule, lemke_exact};
use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, load};
use nonsmooth::pivoting::{LemkeOptions, lemke};
use nonsmooth::solver::{Params, SolveError, no_observer};

#[test]
fn lemke_solves_what_siconos_lemke_solves() {
    let (Some(dir), Some(shared)) = (
        common::shared_file("siconos/lcp"),
        common::reference("siconos-4.4-lcp.tsv"),
    ) else {
        return;
    };
    // tests/data holds its own Siconos figures (tests/data/README.md says how they were made)
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let own = common::reference_at(&data.join("siconos-4.4-lemke.tsv")).expect("committed");
    let rows = shared
        .iter()
        .map(|r| (dir.join(&r.file), r))
        .chain(own.iter().map(|r| (data.join(&r.file), r)))
        .filter(|(_, r)| r.solver == "LEMKE");
    let params = Params {
        tol: 1e-10,
        max_iter: 100_000,
        ..Default::default()
    };
    let mut table = String::from(
        "| file | n | ours | pivots | pivots in exact arithmetic | Siconos 4.4 LEMKE | pivots |\n\
         |---|---:|---|---:|---:|---|---:|\n",
    );
    let (mut siconos_solved, mut ours) = (0, 0);
    for (path, r) in rows {
        let lp = load(&path).unwrap_or_else(|e| panic!("{e}"));
        let AnyProblem::Lcp(p) = &lp.problem else {
            panic!("{} is not an LCP", r.file)
        };
        let mut x = DVector::zeros(p.dim());
        let result = lemke(
            p,
            &mut x,
            &params,
            &LemkeOptions::default(),
            &mut no_observer(),
        );
        let exact = lemke_exact(&p.a().to_dense(), p.b(), Rule::Lexicographic, 100_000);
        let siconos_ok = r.info == Some(0);
        siconos_solved += siconos_ok as usize;
        let (status, pivots) = match &result {
            Ok(info) => {
                ours += 1;
                assert!(
                    info.error.rel <= 1e-10,
                    "{}: error {}",
                    r.file,
                    info.error.rel
                );
                assert!(
                    matches!(exact, Outcome::Solution { pivots, .. } if pivots == info.iterations),
                    "{}: ours {} pivots, exact {exact:?}",
                    r.file,
                    info.iterations
                );
                ("converged", info.iterations)
            }
            Err(e) => {
                assert!(
                    !siconos_ok,
                    "{}: Siconos's Lemke solved it, ours failed: {e}",
                    r.file
                );
                let SolveError::RayTermination { pivots } = e else {
                    panic!("{}: {e}", r.file)
                };
                assert_eq!(exact, Outcome::Ray { pivots: *pivots }, "{}", r.file);
                ("ray", *pivots)
            }
        };
        let exact = match &exact {
            Outcome::Solution { pivots, .. } => pivots.to_string(),
            Outcome::Ray { pivots } => format!("{pivots} (ray)"),
            other => format!("{other:?}"),
        };
        let siconos = match (r.info, r.iterations) {
            (Some(0), Some(i)) => format!("converged | {i}"),
            (Some(info), Some(i)) => format!("failed (info {info}) | {i}"),
            _ => "no result (the run crashed) | ".to_string(),
        };
        writeln!(
            table,
            "| `{}` | {} | {status} | {pivots} | {exact} | {siconos} |",
            r.file,
            p.dim()
        )
        .unwrap();
    }
    eprint!("{table}");
    eprintln!("Siconos's Lemke solved {siconos_solved}, ours {ours}");
    assert!(ours >= siconos_solved);
    common::publish("lemke_pivots.txt", &table);
}
