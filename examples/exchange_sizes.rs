//! Exchange at real sizes: file size, write time, read time and reader memory of one
//! generated problem in each format, at about 1 000, 10 000 and 60 000 contacts.
//!
//! The problems are `nonsmooth generate wall --contacts N` (bricks in running bond), in
//! their local form (`W`, `q`, `mu`) and their global form (`M`, `H`, `q`, `b`, `mu`).
//! Each is written with the crate's writers into a temporary folder and read back with
//! [`nonsmooth::io::load`]; times are the best of 3 (of 1 for files over 200 MB), in
//! release mode, on whatever machine runs it; the heap peak while reading is counted by
//! a counting allocator (as in `examples/reader_memory.rs`). Writes
//! `book/src/generated/exchange_sizes.txt` (machine-dependent) and
//! `book/src/generated/exchange_file_sizes.txt` (file sizes only, the same bytes on every
//! machine; `tests/io/npz.rs` checks its first size against the writers).
//!
//! ```console
//! cargo run --release --example exchange_sizes
//! cargo run --release --example exchange_sizes -- read wall.npz   # time one file's reading
//! ```

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nonsmooth::io::numpy::{folder, npz};
use nonsmooth::io::{self, AnyProblem, Provenance, json};
use nonsmooth::multibody::SceneKind;
use nonsmooth::multibody::scenes::{SceneParams, SceneSpec};

#[global_allocator]
static ALLOCATOR: support::alloc::Counting = support::alloc::Counting;

/// The contact counts asked of the scene sizer.
pub const TARGETS: [usize; 3] = [1_000, 10_000, 60_000];

/// The formats compared: (label, form, writer).
pub const FORMATS: [(&str, &str); 6] = [
    ("json", "local"),
    ("json", "global"),
    ("npy folder", "local"),
    ("npz", "local"),
    ("npz deflated", "local"),
    ("npz", "global"),
];

/// The wall problem of about `target` contacts, local and global.
fn wall(target: usize) -> (String, AnyProblem, AnyProblem, Provenance, Provenance) {
    let p = SceneParams::bricks();
    let scene = SceneSpec::for_contacts(SceneKind::Wall, target, &p)
        .and_then(|s| s.build(&p))
        .expect("a wall");
    let local = AnyProblem::Friction(scene.local_problem().expect("local"));
    let global = AnyProblem::Global(scene.global_problem().expect("global"));
    (
        scene.name.clone(),
        local,
        global,
        scene.provenance(false),
        scene.provenance(true),
    )
}

/// Writes `p` in `format` at `dir`; returns the path, or why the writer refused.
fn write(
    format: &str,
    dir: &Path,
    name: &str,
    p: &AnyProblem,
    prov: &Provenance,
) -> Result<PathBuf, String> {
    let e = |e: io::IoError| e.to_string();
    Ok(match format {
        "json" => {
            let path = dir.join("p.json");
            let text = json::to_string(name, p, None, prov) + "\n";
            io::write_atomic(&path, text.as_bytes()).map_err(e)?;
            path
        }
        "npy folder" => {
            let path = dir.join("p_npy");
            folder::write(&path, name, p, None).map_err(e)?;
            path
        }
        "npz" | "npz deflated" => {
            let path = dir.join("p.npz");
            let c = if format == "npz" {
                npz::Compression::Stored
            } else {
                npz::Compression::Deflated
            };
            npz::write(&path, name, p, None, prov, c).map_err(e)?;
            path
        }
        _ => unreachable!(),
    })
}

fn remove(path: &Path) {
    if path.is_dir() {
        std::fs::remove_dir_all(path).unwrap();
    } else {
        std::fs::remove_file(path).unwrap();
    }
}

fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            let out = f();
            let d = t.elapsed();
            drop(out);
            d
        })
        .min()
        .expect("a run")
}

fn mb(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / 1e6)
}

fn main() {
    // `-- read PATH...`: only time reading the given files (best of 3), for profiling.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("read") {
        for p in &args[1..] {
            let t = best(3, || io::load(p).expect("reads"));
            println!("{p}: read in {:.3} s (best of 3)", t.as_secs_f64());
        }
        return;
    }
    let dir = std::env::temp_dir().join(format!("nonsmooth-exchange-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut table = String::new();
    let mut sizes = String::new();
    writeln!(
        table,
        "{:>8} {:>13} {:>6} {:>10} {:>12} {:>9} {:>9} {:>10} {:>11}",
        "contacts", "format", "form", "nnz", "file MB", "write s", "read s", "read MB", "B/contact"
    )
    .unwrap();
    writeln!(sizes, "contacts format form bytes").unwrap();
    let mut ratios = String::new();
    for target in TARGETS {
        // (stored entries, npz bytes) of the local and the global form
        let (mut local_npz, mut global_npz) = ((0usize, 0u64), (0usize, 0u64));
        let (name, local, global, lprov, gprov) = wall(target);
        let nc = local.contacts();
        for (format, form) in FORMATS {
            let (p, prov) = if form == "local" {
                (&local, &lprov)
            } else {
                (&global, &gprov)
            };
            let nnz = match p {
                AnyProblem::Friction(fc) => fc.w().nnz(),
                AnyProblem::Global(g) => g.m().nnz() + g.h().nnz(),
                _ => unreachable!(),
            };
            let mut path = None;
            let mut refused = None;
            let write_t = best(1, || match write(format, &dir, &name, p, prov) {
                Ok(p) => path = Some(p),
                Err(e) => refused = Some(e),
            });
            let label = format.replace(' ', "-");
            let Some(path) = path else {
                let why = refused.unwrap_or_default();
                let why = if why.contains("dense") || why.contains("too large") {
                    "refused: a dense W of more than 2^27 entries".to_string()
                } else {
                    why
                };
                writeln!(table, "{nc:>8} {label:>13} {form:>6} {nnz:>10} {why}").unwrap();
                writeln!(sizes, "{nc} {label} {form} refused").unwrap();
                continue;
            };
            let bytes = support::alloc::file_bytes(&path);
            let runs: usize = if bytes > 200_000_000 { 1 } else { 3 };
            // the best of `runs` writes (the first one above included)
            let write_t = if runs > 1 {
                write_t.min(best(runs - 1, || {
                    write(format, &dir, &name, p, prov).expect("written before")
                }))
            } else {
                write_t
            };
            let read_t = best(runs, || io::load(&path).expect("reads back"));
            let peak = support::alloc::peak_of(|| io::load(&path).expect("reads back")) as u64;
            writeln!(
                table,
                "{nc:>8} {label:>13} {form:>6} {nnz:>10} {:>12} {:>9.3} {:>9.3} {:>10} {:>11}",
                mb(bytes),
                write_t.as_secs_f64(),
                read_t.as_secs_f64(),
                mb(peak),
                peak / nc as u64
            )
            .unwrap();
            writeln!(sizes, "{nc} {label} {form} {bytes}").unwrap();
            match (format, form) {
                ("npz", "local") => local_npz = (nnz, bytes),
                ("npz", "global") => global_npz = (nnz, bytes),
                _ => {}
            }
            eprintln!("{}", table.lines().last().unwrap());
            remove(&path);
        }
        writeln!(
            ratios,
            "{nc:>8} contacts: the global form (M, H) stores {:.1} times fewer entries than W \
             ({} against {});\n                  its .npz is {:.1} times smaller",
            local_npz.0 as f64 / global_npz.0 as f64,
            global_npz.0,
            local_npz.0,
            local_npz.1 as f64 / global_npz.1 as f64
        )
        .unwrap();
    }
    table.push('\n');
    table.push_str(&ratios);
    std::fs::remove_dir_all(&dir).ok();
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src/generated");
    std::fs::write(out.join("exchange_sizes.txt"), &table).unwrap();
    std::fs::write(out.join("exchange_file_sizes.txt"), &sizes).unwrap();
    print!("{table}");
}
