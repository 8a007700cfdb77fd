//! How the readers scale on large problems (issue 14): the brick walls of
//! `nonsmooth generate wall --contacts N` at about 2 000, 10 000 and 50 000 contacts,
//! written in each format we write, read back by a fresh process.
//!
//! ```console
//! cargo run --release --example read_scale
//! ```
//!
//! Writes `book/src/generated/read_scale.txt`. Each file is read by this example's own
//! binary started again as a child (`read_scale --child FILE`), which calls
//! [`nonsmooth::io::load`] and nothing else, then reports the wall-clock seconds of the
//! read and its peak resident memory (`VmHWM` of `/proc/self/status`, Linux). A child that
//! reads nothing gives the baseline (the program itself), which is subtracted before
//! dividing by the stored entries of `W`. Timings and resident memory depend on the
//! machine and the allocator, so no test compares this file; `tests/io_read_scale.rs`
//! asserts the scaling with a counting allocator instead.

#[path = "support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use nonsmooth::io::numpy::{folder, npz};
use nonsmooth::io::{self, AnyProblem, Provenance, json, siconos};
use nonsmooth::multibody::scenes::{SceneKind, SceneParams, SceneSpec};

/// Contacts asked for (the wall generator builds the nearest wall).
const SIZES: [usize; 3] = [2_000, 10_000, 50_000];

/// Peak resident memory of this process so far, in bytes (`VmHWM`).
fn vm_hwm() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("Linux /proc");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM line");
    let kib: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .expect("VmHWM in kB");
    kib * 1024
}

/// The child: read `path` (or nothing, for the baseline) and print
/// `entries seconds peak_bytes`.
fn child(path: Option<&str>) {
    let start = Instant::now();
    let nnz = match path {
        Some(p) => {
            let loaded = io::load(p).unwrap_or_else(|e| panic!("{e}"));
            match &loaded.problem {
                AnyProblem::Friction(fc) => fc.w().nnz(),
                other => panic!("expected an fc3d problem, found {}", other.type_name()),
            }
        }
        None => 0,
    };
    let secs = start.elapsed().as_secs_f64();
    println!("{nnz} {secs} {}", vm_hwm());
}

/// Runs a child; returns `(entries, seconds, peak bytes)`.
fn measure(path: Option<&Path>) -> (usize, f64, u64) {
    let exe = std::env::current_exe().expect("own path");
    let mut cmd = Command::new(exe);
    cmd.arg("--child");
    if let Some(p) = path {
        cmd.arg(p);
    }
    let out = cmd.output().expect("child runs");
    assert!(
        out.status.success(),
        "child failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("text");
    let f: Vec<&str> = text.split_whitespace().collect();
    (
        f[0].parse().unwrap(),
        f[1].parse().unwrap(),
        f[2].parse().unwrap(),
    )
}

/// The wall for about `target` contacts, written in every format under `dir`: the files
/// and the wall's contact count.
fn write_all(dir: &Path, target: usize) -> (Vec<(&'static str, PathBuf)>, usize) {
    let p = SceneParams::bricks();
    let scene = SceneSpec::for_contacts(SceneKind::Wall, target, &p)
        .and_then(|s| s.build(&p))
        .expect("wall");
    let fc = scene.local_problem().expect("local problem");
    let contacts = fc.contacts();
    let problem = AnyProblem::Friction(fc);
    let prov = Provenance::default();
    let mut files = Vec::new();
    let j = dir.join(format!("wall_{target}.json"));
    json::write(&j, &scene.name, &problem, None, &prov).expect("json");
    files.push(("JSON (triplets)", j));
    let d = dir.join(format!("wall_{target}.dat"));
    let AnyProblem::Friction(fc) = &problem else {
        unreachable!()
    };
    siconos::write_fc3d(&d, fc).expect("dat");
    files.push(("Siconos .dat (sparse block)", d));
    let z = dir.join(format!("wall_{target}.npz"));
    npz::write(
        &z,
        &scene.name,
        &problem,
        None,
        &prov,
        npz::Compression::Stored,
    )
    .expect("npz");
    files.push(("NumPy .npz (CSR)", z));
    // The NumPy folder stores W dense: only where that is small enough to write.
    let n = problem.dim();
    if n.saturating_mul(n) <= 64 << 20 {
        let f = dir.join(format!("wall_{target}_npy"));
        folder::write(&f, &scene.name, &problem, None).expect("npy");
        files.push(("NumPy folder (dense W)", f));
    }
    (files, contacts)
}

fn table() -> String {
    let dir = std::env::temp_dir().join(format!("nonsmooth_read_scale_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (_, _, base) = measure(None);
    let mib = |b: f64| b / (1u64 << 20) as f64;
    let mut out = format!(
        "Each file is read by a fresh process that calls io::load and nothing else; peak is \
         its peak resident memory (VmHWM), less the {:.1} MiB of a process that reads \
         nothing. Entries are the stored entries of W.\n\n\
         | format | contacts | entries of W | file MiB | file bytes per entry | read s | peak MiB | peak bytes per entry |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n",
        mib(base as f64)
    );
    for target in SIZES {
        let (files, contacts) = write_all(&dir, target);
        for (format, path) in files {
            let bytes = support::alloc::file_bytes(&path) as f64;
            let (nnz, secs, peak) = measure(Some(&path));
            let extra = peak.saturating_sub(base) as f64;
            out.push_str(&format!(
                "| {format} | {contacts} | {nnz} | {:.1} | {:.1} | {secs:.2} | {:.0} | {:.0} |\n",
                mib(bytes),
                bytes / nnz as f64,
                mib(extra),
                extra / nnz as f64,
            ));
            eprintln!("{format} {contacts}: done");
            if path.is_dir() {
                std::fs::remove_dir_all(&path).ok();
            } else {
                std::fs::remove_file(&path).ok();
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--child") {
        child(args.get(2).map(String::as_str));
        return;
    }
    support::publish("generated/read_scale.txt", &table());
}
