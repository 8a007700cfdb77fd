//! On real input: Lemke solves every shared Siconos LCP that Siconos 4.4's Lemke solves
//! (`../shared/reference/siconos-4.4-lcp.tsv`), to an LCP error of at most 1e-10.

mod common;

use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, load};
use nonsmooth::pivoting::lemke;
use nonsmooth::solver::{Params, SolveError};

#[test]
fn lemke_solves_what_siconos_lemke_solves() {
    let (Some(dir), Some(refs)) = (
        common::shared_file("siconos/lcp"),
        common::reference("siconos-4.4-lcp.tsv"),
    ) else {
        return;
    };
    let params = Params {
        tol: 1e-10,
        max_iter: 100_000,
        ..Default::default()
    };
    let mut siconos_solved = 0;
    let mut ours = 0;
    for r in refs.iter().filter(|r| r.solver == "LEMKE") {
        let lp = load(dir.join(&r.file)).unwrap_or_else(|e| panic!("{e}"));
        let AnyProblem::Lcp(p) = &lp.problem else {
            panic!("{} is not an LCP", r.file)
        };
        let mut x = DVector::zeros(p.dim());
        let result = lemke(p, &mut x, &params);
        let siconos_ok = r.info == Some(0);
        siconos_solved += siconos_ok as usize;
        match &result {
            Ok(info) => {
                ours += 1;
                assert!(
                    info.error.rel <= 1e-10,
                    "{}: error {}",
                    r.file,
                    info.error.rel
                );
            }
            Err(e) => {
                assert!(
                    !siconos_ok,
                    "{}: Siconos's Lemke solved it, ours failed: {e}",
                    r.file
                );
                assert!(
                    matches!(e, SolveError::RayTermination { .. }),
                    "{}: {e}",
                    r.file
                );
            }
        }
        eprintln!(
            "{:28} siconos info {:?} ({:?} pivots)  ours {}",
            r.file,
            r.info,
            r.iterations,
            match &result {
                Ok(i) => format!("{} pivots, error {:.1e}", i.iterations, i.error.rel),
                Err(e) => e.to_string(),
            }
        );
    }
    eprintln!("Siconos's Lemke solved {siconos_solved}, ours {ours}");
    assert!(ours >= siconos_solved);
}
