//! The simulation dumps shipped in `data/dumps/` (one step of each of seven scenes, as
//! `nonsmooth simulate ... --dump-problems` writes them; `data/README.md` gives the
//! commands): each says where it came from, and `auto` solves each to `1e-8` under the
//! iteration cap `nonsmooth bench` uses by default (1 000 per stage), within its stall
//! rules. Chapter "Choosing a method", "What `auto` does".

use std::path::PathBuf;

use nalgebra::DVector;
use nonsmooth::io;
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::{Params, no_observer};

fn dumps() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/dumps");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "npz"))
        .collect();
    files.sort();
    files
}

#[test]
fn auto_solves_every_shipped_dump_to_1e_8() {
    let files = dumps();
    assert_eq!(files.len(), 7, "{files:?}");
    let mut failed = Vec::new();
    for path in &files {
        let loaded = io::load(path).unwrap();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        // the provenance names the program and the step the problem came from
        let p = &loaded.provenance;
        let step = stem
            .rsplit("_step_")
            .next()
            .unwrap()
            .trim_start_matches('0');
        assert_eq!(p.source, "nonsmooth simulate", "{stem}");
        assert!(
            p.description.contains(step),
            "{stem}: the description does not give step {step}: {}",
            p.description
        );
        let params = Params {
            tol: 1e-8,
            max_iter: 1000,
            ..Default::default()
        };
        let out = solve(
            &loaded.problem,
            &Choice::new("auto").unwrap(),
            DVector::zeros(loaded.problem.dim()),
            &params,
            &mut no_observer(),
        );
        let info = out.info().expect("auto reports its best iterate");
        let ok = out.status() == "converged" && info.error.meets(1e-8, params.measure);
        if !ok {
            failed.push(format!(
                "{stem}: {} after {} iterations, error {:e}",
                out.status(),
                info.iterations,
                info.error.rel
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "auto did not solve:\n{}",
        failed.join("\n")
    );
}
