//! On real input: the semismooth Newton method on the friction cone (Alart-Curnier,
//! hybrid with blocked Gauss-Seidel sweeps when the line search fails) converges to 1e-8
//! (Siconos 4.4 normalisation) on every shared fc3d file where Siconos 4.4's NSN_AC or
//! NSN_FB converges (`data/reference/siconos-4.4-fc3d.tsv`), from a zero start.

use crate::common;

use nalgebra::DVector;
use nonsmooth::composite::prox_then_newton::{ProxNsnOptions, cone_newton_prox_start};
use nonsmooth::newton::{ConeNewtonOptions, cone_newton};
use nonsmooth::solver::{Params, no_observer};

#[test]
fn newton_converges_where_siconos_newton_does() {
    let (Some(dir), Some(refs)) = (
        common::shared_file("siconos/fc3d"),
        common::reference("siconos-4.4-fc3d.tsv"),
    ) else {
        return;
    };
    let mut files: Vec<String> = refs.iter().map(|r| r.file.clone()).collect();
    files.dedup();
    let mut required = 0;
    let mut converged = 0;
    for file in files {
        let of = |solver: &str| {
            refs.iter()
                .find(|r| r.file == file && r.solver == solver)
                .cloned()
        };
        let (ac, fb) = (of("NSN_AC"), of("NSN_FB"));
        let siconos_ok = [&ac, &fb]
            .iter()
            .any(|r| r.as_ref().is_some_and(|r| r.info == Some(0)));
        let Some(p) = common::load_fc3d(&dir.join(&file)) else {
            continue;
        };
        let p = &p;
        let mut r = DVector::zeros(p.dim());
        let params = Params {
            tol: 1e-8,
            max_iter: 1000,
            ..Default::default()
        };
        let result = cone_newton(
            p,
            &mut r,
            &params,
            &ConeNewtonOptions::default(),
            &mut no_observer(),
        );
        let show = |r: &Option<common::Reference>| match r {
            Some(r) => format!("{:?}/{:?}", r.info, r.iterations),
            None => "-".into(),
        };
        match &result {
            Ok(info) => {
                converged += 1;
                eprintln!(
                    "{file:36} AC {:>12} FB {:>12}  ours {:4} iterations (+{} GS sweeps), error {:.1e}",
                    show(&ac),
                    show(&fb),
                    info.iterations,
                    info.stats.gs_sweeps,
                    info.error.rel
                );
            }
            Err(e) => eprintln!(
                "{file:36} AC {:>12} FB {:>12}  ours: {e}",
                show(&ac),
                show(&fb)
            ),
        }
        if siconos_ok {
            required += 1;
            let info = result.unwrap_or_else(|e| {
                panic!("{file}: Siconos's Newton converged, ours did not: {e}")
            });
            assert!(info.error.rel <= 1e-8);
        }
    }
    eprintln!(
        "converged on {converged} files; {required} were required (Siconos NSN_AC or NSN_FB converged)"
    );
}

/// PROX Gauss-Seidel to `1e-2`, then the semismooth Newton method: converges to `1e-8` on
/// every shared fc3d file (Acary, Bremond, Huber 2018's combination).
#[test]
fn prox_started_newton_converges_on_every_file() {
    let Some(dir) = common::shared_file("siconos/fc3d") else {
        return;
    };
    let mut solved = 0;
    let mut files = 0;
    for path in nonsmooth::io::discover(&dir).expect("listing") {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(p) = common::load_fc3d(&path) else {
            continue;
        };
        let p = &p;
        files += 1;
        let mut r = DVector::zeros(p.dim());
        let params = Params {
            tol: 1e-8,
            max_iter: 1000,
            ..Default::default()
        };
        let info = cone_newton_prox_start(
            p,
            &mut r,
            &params,
            &ProxNsnOptions::default(),
            &mut no_observer(),
        )
        .unwrap_or_else(|e| panic!("{name}: PROX-started Newton failed: {e}"));
        // measured independently of the solver
        let e = nonsmooth::merit::friction_error(p, &r).rel;
        assert!(e <= 1e-8, "{name}: error {e:e}");
        assert_eq!(e, info.error.rel);
        solved += 1;
        eprintln!(
            "{name:36} PROX {:4} sweeps -> {:.1e}, Newton {:4} iterations (+{} GS sweeps), error {:.1e}",
            info.stats.prox.sweeps,
            info.stats.switch_error,
            info.iterations,
            info.stats.newton.gs_sweeps,
            e
        );
    }
    eprintln!("PROX-started Newton converged on {solved} of {files} files");
}
