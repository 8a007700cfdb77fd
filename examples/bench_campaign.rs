//! The command-line chapter's campaign and the README's speed results: `nonsmooth bench`
//! on the shared Siconos fc3d `.dat` files, on generated scenes (a wall, a pyramid and a
//! box stack, written as Siconos `.dat` so that Siconos solves them too) and on the
//! simulation dumps shipped in `data/dumps/` (one step of each of seven simulated scenes;
//! `bench` writes each as a temporary `.dat` for Siconos), with several of
//! our methods and, when Siconos 4.4 is installed, its NSGS, PROX, NSN_AC and NSN_FB beside
//! them; whole solves to 1e-8 and to 1e-4 with a timeout; then for each tolerance the
//! performance profile and the ratio table (best of ours over best of Siconos).
//!
//! ```console
//! cargo run --release --example bench_campaign
//! ```
//!
//! Writes, for TOL in 1e-8 and 1e-4, `book/src/generated/bench_campaign_TOL.jsonl` (the
//! records), `bench_profile_TOL.txt` (the profile table), `bench_ratios_TOL.txt` (the ratio
//! table) and `book/src/figures/bench_profile_TOL.svg`, and splices the 1e-8 tables into
//! README.md (blocks `bench-profile` and `bench-ratios`, which `tests/book/readme.rs` checks
//! against the generated files). The timings depend on the machine, so no test compares
//! them with a rerun.

#[path = "support/mod.rs"]
mod support;

use std::path::Path;
use std::process::ExitCode;

use nonsmooth::cli::profile::{Profile, plot_profile, profile_markdown, read_records};
use nonsmooth::cli::ratios::{Ratios, ratios_markdown};
use nonsmooth::cli::{parse_args, run};

// ANCHOR: campaign
/// Our methods of the campaign.
const METHODS: &str = "nsn,nsgs,prox-nsn,ppa,gs-nsn,auto";
/// Siconos 4.4's fc3d solvers beside them (when installed).
const SICONOS: &str = "NSGS,PROX,NSN_AC,NSN_FB";
/// Whole solves from zero to these tolerances (Siconos 4.4 normalisation), one campaign
/// each.
const TOLS: [&str; 2] = ["1e-8", "1e-4"];
/// Runs per solve; the best time is kept (ten, so that solves of a few microseconds are
/// timed at least as often as their scheduling noise).
const REPEAT: &str = "10";
/// Seconds allowed per solve.
const TIMEOUT: &str = "5";
/// Generated scenes: `nonsmooth generate SCENE --contacts N -o scenes/SCENE-N.dat`.
const SCENES: [(&str, usize); 3] = [("wall", 300), ("pyramid", 300), ("box-stack", 100)];
// ANCHOR_END: campaign

/// Runs the command line in this process.
fn cli(args: &[String]) {
    let parsed = parse_args(args).expect("the campaign's command line");
    if let Err(e) = run(parsed) {
        panic!("`{}` failed: {e}", args.join(" "));
    }
}

/// Replaces README.md's block `<!-- results:NAME -->` ... `<!-- /results:NAME -->` by
/// `content`.
fn splice_readme(name: &str, content: &str) {
    let path = support::root().join("README.md");
    let text = std::fs::read_to_string(&path).expect("README.md");
    let start = format!("<!-- results:{name} -->\n");
    let end = format!("<!-- /results:{name} -->");
    let i = text
        .find(&start)
        .unwrap_or_else(|| panic!("README has no block {name}"))
        + start.len();
    let j = text[i..].find(&end).expect("the block's end") + i;
    let new = format!("{}{}{}", &text[..i], content, &text[j..]);
    std::fs::write(&path, new).expect("README.md written");
    eprintln!("spliced README.md block {name}");
}

fn main() -> ExitCode {
    let Some(data) = support::shared_data() else {
        return ExitCode::SUCCESS;
    };
    // a working folder where the records name files as `shared/...` and `scenes/...`, not
    // by any machine's folders
    let work = support::root().join("target/bench-campaign");
    std::fs::create_dir_all(work.join("scenes")).expect("the working folder");
    let link = work.join("shared");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&data, &link).expect("a link to the shared data");
    let dumps_link = work.join("dumps");
    let _ = std::fs::remove_file(&dumps_link);
    std::os::unix::fs::symlink(support::root().join("data/dumps"), &dumps_link)
        .expect("a link to the shipped dumps");
    std::env::set_current_dir(&work).expect("the working folder");
    let mut files: Vec<String> = std::fs::read_dir("shared/siconos/fc3d")
        .expect("shared fc3d folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "dat"))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    for (scene, n) in SCENES {
        let out = format!("scenes/{scene}-{n}.dat");
        if !Path::new(&out).is_file() {
            cli(&[
                "nonsmooth".into(),
                "generate".into(),
                scene.into(),
                "--contacts".into(),
                n.to_string(),
                "-o".into(),
                out.clone(),
            ]);
        }
        files.push(out);
    }
    let mut dumps: Vec<String> = std::fs::read_dir("dumps")
        .expect("the dumps folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "npz"))
        .map(|p| p.display().to_string())
        .collect();
    dumps.sort();
    let shipped_dumps = dumps.len();
    files.extend(dumps);
    let siconos = std::process::Command::new("/usr/bin/python3")
        .args(["-c", "import siconos.numerics"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !siconos {
        eprintln!("python3-siconos not found: our methods only, no ratio tables");
    }
    for tol in TOLS {
        let jsonl = support::root().join(format!("book/src/generated/bench_campaign_{tol}.jsonl"));
        let mut args: Vec<String> = ["nonsmooth", "bench", "--method", METHODS]
            .map(String::from)
            .to_vec();
        args.extend(files.iter().cloned());
        args.extend(
            [
                "--tol",
                tol,
                "--repeat",
                REPEAT,
                "--timeout",
                TIMEOUT,
                "--jsonl",
            ]
            .map(String::from),
        );
        args.push(jsonl.display().to_string());
        if siconos {
            args.extend(["--siconos-solver".to_string(), SICONOS.to_string()]);
        }
        cli(&args);
        let records: Vec<_> = read_records(&jsonl)
            .expect("the campaign's records")
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        let profile = Profile::from_records(&records).expect("a profile of the records");
        let solvers = if siconos {
            format!("our {METHODS} and Siconos 4.4's {SICONOS}")
        } else {
            format!("our {METHODS} (Siconos not installed when this was generated)")
        };
        let scenes: Vec<String> = SCENES.iter().map(|(s, n)| format!("{s} ({n})")).collect();
        let header = format!(
            "{} problems (the shared Siconos fc3d .dat files, the generated scenes {} and the \
             {shipped_dumps} simulation dumps of data/dumps), \
             {solvers}; whole solves from zero to {tol}, best of {REPEAT}, timeout {TIMEOUT} s, \
             one solve at a time.\n\n",
            profile.problems,
            scenes.join(", ")
        );
        let table = format!("{header}{}", profile_markdown(&profile));
        support::publish(&format!("generated/bench_profile_{tol}.txt"), &table);
        let svg = support::root().join(format!("book/src/figures/bench_profile_{tol}.svg"));
        plot_profile(
            &profile,
            &svg,
            &format!(
                "Performance profile, {} problems, tol {tol}",
                profile.problems
            ),
        )
        .expect("the profile plot");
        eprintln!("wrote {}", svg.display());
        if siconos {
            let ratios = Ratios::from_records(&records, "auto").expect("the ratio table");
            let text = ratios_markdown(&ratios);
            support::publish(&format!("generated/bench_ratios_{tol}.txt"), &text);
            if tol == TOLS[0] {
                splice_readme("bench-profile", &table);
                splice_readme("bench-ratios", &text);
            }
        }
    }
    ExitCode::SUCCESS
}
