//! On real input: on every shared global problem, the velocity-space Gauss-Seidel (which
//! never forms `W`) reaches the same answer as the blocked Gauss-Seidel on the formed
//! local problem `W = H^T M^-1 H`, to 1e-8.

use crate::common;

use nalgebra::DVector;
use nonsmooth::io::{AnyProblem, IoErrorKind, discover, load};
use nonsmooth::solver::{Params, no_observer};
use nonsmooth::splitting::{BlockedGaussSeidel, VelocityGaussSeidel};

#[test]
fn velocity_space_equals_local_blocked_gauss_seidel() {
    let Some(dir) = common::shared_file("siconos/gfc3d") else {
        return;
    };
    let mut mine = vec![
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/pyramid_3_global.json"),
    ];
    mine.extend(discover(&dir).unwrap());
    let params = Params {
        tol: 1e-10,
        max_iter: 100_000,
        ..Default::default()
    };
    let mut compared = 0;
    for path in mine {
        let lp = match load(&path) {
            Ok(lp) => lp,
            Err(e) if matches!(e.kind, IoErrorKind::FeatureDisabled(_)) => {
                eprintln!("skipping {}: {e}", path.display());
                continue;
            }
            Err(e) => panic!("{e}"),
        };
        let AnyProblem::Global(g) = &lp.problem else {
            eprintln!(
                "{}: not a global problem ({}), skipped",
                path.display(),
                lp.problem.type_name()
            );
            continue;
        };
        let local = g.to_local().unwrap();
        let mut r_local = DVector::zeros(g.dim());
        let a = BlockedGaussSeidel::new(&local)
            .unwrap()
            .solve(&mut r_local, &params, &mut no_observer())
            .unwrap();
        let mut r_vel = DVector::zeros(g.dim());
        let mut v = DVector::zeros(g.dofs());
        let b = VelocityGaussSeidel::new(g)
            .unwrap()
            .solve(&mut r_vel, &mut v, &params, &mut no_observer())
            .unwrap();
        let diff = (&r_local - &r_vel).amax();
        eprintln!(
            "{:40} local {} sweeps, velocity-space {} sweeps, max |r difference| {diff:.2e}",
            path.file_name().unwrap().to_string_lossy(),
            a.iterations,
            b.iterations
        );
        assert!(diff <= 1e-8 * (1.0 + r_local.amax()));
        compared += 1;
    }
    // 7 Siconos .dat global problems + our pyramid, + 2 FCLIB files with the hdf5 feature
    assert!(
        compared >= if cfg!(feature = "hdf5") { 10 } else { 8 },
        "compared {compared}"
    );
}
