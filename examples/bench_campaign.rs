//! The command-line chapter's campaign: `nonsmooth bench` on the shared Siconos fc3d `.dat`
//! files with several of our methods (and Siconos 4.4's NSGS, PROX, NSN_AC and NSN_FB
//! beside when python3-siconos is installed), whole solves to 1e-8 with a timeout, then the
//! performance profile of the records.
//!
//! ```console
//! cargo run --release --example bench_campaign
//! ```
//!
//! Writes `book/src/generated/bench_campaign.jsonl` (the records),
//! `book/src/generated/bench_profile.txt` (the profile table) and
//! `book/src/figures/bench_profile.svg`. The timings depend on the machine, so no test
//! compares them with the committed files.

#[path = "support/mod.rs"]
mod support;

use std::process::ExitCode;

use nonsmooth::cli::profile::{Profile, plot_profile, profile_markdown, read_records};
use nonsmooth::cli::{parse_args, run};

// ANCHOR: campaign
/// Our methods of the campaign.
const METHODS: &str = "nsn,nsgs,prox-nsn,auto";
/// Siconos 4.4's fc3d solvers beside them (when installed).
const SICONOS: &str = "NSGS,PROX,NSN_AC,NSN_FB";
/// Whole solves from zero to this tolerance (Siconos 4.4 normalisation).
const TOL: &str = "1e-8";
/// Runs per solve; the best time is kept.
const REPEAT: &str = "3";
/// Seconds allowed per solve.
const TIMEOUT: &str = "5";
// ANCHOR_END: campaign

fn main() -> ExitCode {
    let Some(data) = support::shared_data() else {
        return ExitCode::SUCCESS;
    };
    // paths relative to the shared data folder, so that the records name no machine's folders
    std::env::set_current_dir(&data).expect("the shared data folder");
    let mut files: Vec<String> = std::fs::read_dir("siconos/fc3d")
        .expect("shared fc3d folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "dat"))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    let siconos = std::process::Command::new("/usr/bin/python3")
        .args(["-c", "import siconos.numerics"])
        .output()
        .is_ok_and(|o| o.status.success());
    let jsonl = support::root().join("book/src/generated/bench_campaign.jsonl");
    let mut args: Vec<String> = ["nonsmooth", "bench", "--method", METHODS]
        .map(String::from)
        .to_vec();
    args.extend(files.iter().cloned());
    args.extend(
        [
            "--tol",
            TOL,
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
    } else {
        eprintln!("python3-siconos not found: our methods only");
    }
    let cli = parse_args(&args).expect("the campaign's command line");
    if let Err(e) = run(cli) {
        eprintln!("campaign failed: {e}");
        return ExitCode::FAILURE;
    }
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
    let text = format!(
        "{} problems (the shared Siconos fc3d .dat files), {solvers}; whole solves from zero \
         to {TOL}, best of {REPEAT}, timeout {TIMEOUT} s, one solve at a time.\n\n{}",
        profile.problems,
        profile_markdown(&profile)
    );
    support::publish("generated/bench_profile.txt", &text);
    let svg = support::root().join("book/src/figures/bench_profile.svg");
    plot_profile(
        &profile,
        &svg,
        &format!(
            "Performance profile, {} shared fc3d files, tol {TOL}",
            profile.problems
        ),
    )
    .expect("the profile plot");
    eprintln!("wrote {}", svg.display());
    ExitCode::SUCCESS
}
