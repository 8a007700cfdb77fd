//! Gauss-Seidel and PROX sweeps at scale, and the coloured parallel sweep (the book's chapter
//! *The sweep at scale*, section *At scale and in parallel*).
//!
//! ```console
//! cargo run --release --example sweep_scale
//! ```
//!
//! For generated scenes of 10 000, 100 000 and 1 000 000 contacts in global form
//! (`M v = q + H r`, `W` never formed) it times one velocity-space Gauss-Seidel sweep, one
//! global PROX sweep and one coloured parallel sweep on one and on two threads, reads the
//! peak memory (`VmHWM`), measures the machine's memory bandwidth and compares each sweep
//! with the time it takes only to stream its data; then the error after k sweeps,
//! sequential against coloured. Writes `book/src/generated/sweep_scale.txt`. The timings
//! depend on the machine, so no test compares them with the committed file.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Instant;

use nalgebra::DVector;
use nonsmooth::multibody::scenes::{self, SceneKind};
use nonsmooth::problem::GlobalFrictionContact;
use nonsmooth::prox::{Prox, ProxOptions, ProxProblem, Scheme};
use nonsmooth::splitting::{ContactColouring, DEFAULT_COLOUR_BLOCK, VgsPrepared};

// ANCHOR: setup
/// Target numbers of contacts (the largest wall with at most a million, see [`wall`]).
const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];
/// Each sweep is timed this many times from the same start; the best time is kept (the
/// machine is shared, so the best is the least disturbed run).
const REPEAT: usize = 7;
/// Sequential sweeps from `r = 0` before the timed sweeps start: the timings are of a
/// typical sweep, every contact active. (The first sweep from rest is not typical: bricks
/// that fall together have no relative velocity, so most contacts above the ground keep
/// `r = 0` until the ground's push reaches them, and skip the update of `v`.)
const WARM: usize = 20;
/// The size at which the wall is also measured turned ([`turned`]).
const TURNED_SIZE: usize = 1_000_000;
/// The scene whose error is followed sweep by sweep.
const CONVERGENCE_SIZE: usize = 100_000;
/// Contacts per block of the colouring: single contacts, small blocks, and the default.
const BLOCKS: [usize; 3] = [1, 256, DEFAULT_COLOUR_BLOCK];
/// The sweep counts at which the error is reported.
const CHECKPOINTS: [usize; 6] = [1, 2, 5, 10, 20, 50];
// ANCHOR_END: setup

/// The same problem in turned coordinates: every 3-vector of `v` (a body's linear and its
/// angular velocity) rotated by one rotation `R` about a generic axis, `v' = Q v` with `Q`
/// block diagonal: `M' = Q M Q^T`, `H' = Q H`, `q' = Q q`. Then `H'^T M'^-1 H' = H^T M^-1 H`:
/// the contact problem is the same, but no contact normal lies along a coordinate axis any
/// more, so every row of `H'^T` has all the entries of its bodies (the wall's axis-aligned
/// rows have about half of them zero), as in a scene of bodies at arbitrary angles.
fn turned(g: &GlobalFrictionContact) -> GlobalFrictionContact {
    use nalgebra::{Rotation3, Unit, Vector3};
    use nalgebra_sparse::{CooMatrix, CsrMatrix};
    let axis = Unit::new_normalize(Vector3::new(1.0, 2.0, 3.0));
    let rot = Rotation3::from_axis_angle(&axis, 0.7);
    let n = g.dofs();
    let mut coo = CooMatrix::new(n, n);
    for b in 0..n / 3 {
        for i in 0..3 {
            for j in 0..3 {
                coo.push(3 * b + i, 3 * b + j, rot[(i, j)]);
            }
        }
    }
    let q = CsrMatrix::from(&coo);
    let h = &q * &g.h().to_csr();
    let m = &(&q * &g.m().to_csr()) * &q.transpose();
    let mut qv = g.q().clone();
    for c in qv.as_mut_slice().chunks_exact_mut(3) {
        let x = rot * Vector3::new(c[0], c[1], c[2]);
        c.copy_from_slice(x.as_slice());
    }
    GlobalFrictionContact::new(
        m.into(),
        h.into(),
        qv,
        g.b().clone(),
        g.mu().clone(),
        g.kind(),
    )
    .expect("a turned problem")
}

/// A line of `/proc/self/status` in kB (Linux), or `None`.
fn status_kb(key: &str) -> Option<usize> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// CPU time (user + system) of all of the process's threads so far, in seconds, from
/// `/proc/self/stat` (Linux; clock ticks of 10 ms), or `None`.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    let f: Vec<&str> = s.rsplit(')').next()?.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Resets the peak resident size (`VmHWM`) to the current one (Linux >= 4.0); `false` if
/// it could not.
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Best time of `REPEAT` runs of `f`, in seconds; `setup` makes each run's input.
fn best<S>(mut setup: impl FnMut() -> S, mut f: impl FnMut(&mut S)) -> f64 {
    (0..REPEAT)
        .map(|_| {
            let mut s = setup();
            let t = Instant::now();
            f(&mut s);
            let e = t.elapsed().as_secs_f64();
            black_box(&s);
            e
        })
        .fold(f64::INFINITY, f64::min)
}

/// Read bandwidth (bytes/s) of summing a 256 MiB array ([`sum8`]), best of `REPEAT`, on
/// `threads` threads.
fn bandwidth(threads: usize) -> f64 {
    use rayon::prelude::*;
    let n = 32 << 20; // f64s
    let a: Vec<f64> = (0..n).map(|i| (i % 7) as f64).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let t = best(
        || (),
        |_| {
            let s: f64 = pool.install(|| a.par_chunks(1 << 16).map(sum8).sum());
            black_box(s);
        },
    );
    (n * 8) as f64 / t
}

/// The wall nearest `target` contacts within the generators' cap
/// ([`scenes::MAX_SCENE_CONTACTS`], one million): the sizing rounds up to whole columns, so
/// near the cap the target is lowered 1000 at a time until the wall fits.
fn wall(target: usize) -> nonsmooth::multibody::Scene {
    let mut t = target;
    loop {
        match scenes::sized_for(SceneKind::Wall, t) {
            Ok(s) => return s,
            Err(_) if t > 1000 => t -= 1000,
            Err(e) => panic!("no wall of {target} contacts: {e}"),
        }
    }
}

/// The 1-minute load average (Linux), or `None`.
fn load() -> Option<String> {
    let s = std::fs::read_to_string("/proc/loadavg").ok()?;
    s.split_whitespace().next().map(str::to_string)
}

/// The sum of `x` with eight independent accumulators, so that the loop is limited by
/// loading memory, not by the latency of one chain of additions.
fn sum8(x: &[f64]) -> f64 {
    let mut acc = [0.0; 8];
    let chunks = x.chunks_exact(8);
    let tail: f64 = chunks.remainder().iter().sum();
    for c in chunks {
        for (a, y) in acc.iter_mut().zip(c) {
            *a += y;
        }
    }
    acc.iter().sum::<f64>() + tail
}

/// The speed-up on 2 threads of a loop that only computes (no memory traffic), best of
/// `REPEAT` each: what the machine's load leaves of its cores at the time (2 would mean two
/// free cores).
fn compute_speedup() -> f64 {
    use rayon::prelude::*;
    let work = |seed: u64| {
        let mut x = seed as f64 + 0.5;
        for _ in 0..20_000_000 {
            x = (x * 1.000_000_1 + 0.25).sqrt() + 1.0;
        }
        x
    };
    let on = |p: &rayon::ThreadPool| {
        best(
            || (),
            |_| {
                let s: f64 = p.install(|| (0..2u64).into_par_iter().map(work).sum());
                black_box(s);
            },
        )
    };
    on(&pool(1)) / on(&pool(2))
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
}

/// The measurements at one size.
struct Row {
    /// `wall`, or `wall, turned` ([`turned`]).
    scene: &'static str,
    contacts: usize,
    bodies: usize,
    build_s: f64,
    prepare_s: f64,
    seq_s: f64,
    prox_s: f64,
    /// Per entry of [`BLOCKS`].
    coloured: Vec<Timed>,
    bytes: usize,
    peak_kb: Option<usize>,
    resident_kb: Option<usize>,
}

/// The timings of one block size of the colouring (seconds per sweep, best of [`REPEAT`]),
/// each from the iterate after [`WARM`] coloured sweeps from `r = 0`.
#[derive(Debug)]
struct Timed {
    colours: usize,
    colour_s: f64,
    /// The sequential sweep in colour order ([`ContactColouring::order`]).
    in_order: f64,
    /// The sequential sweep in contact order, from the coloured sweeps' iterate.
    crossed: f64,
    /// The coloured sweep on 1 and on 2 threads.
    one: f64,
    two: f64,
    /// Cores in use during the 2-thread runs.
    cores: f64,
}

type Kept = (GlobalFrictionContact, VgsPrepared, Vec<ContactColouring>);

fn measure(target: usize, turn: bool) -> (Row, Option<Kept>) {
    let reset = reset_peak();
    let t = Instant::now();
    let g = wall(target).global_problem().expect("scene");
    let g = if turn { turned(&g) } else { g };
    let build_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let prep = VgsPrepared::new(&g, g.kind()).expect("prepared");
    let prepare_s = t.elapsed().as_secs_f64();
    let resident_kb = status_kb("VmRSS:");
    let mut r0 = DVector::zeros(g.dim());
    let mut v0 = g.velocity_dofs(&r0);
    for _ in 0..WARM {
        prep.sweep(&g, &mut r0, &mut v0);
    }
    // ANCHOR: timing
    let start = || (r0.clone(), v0.clone());
    let seq_s = best(start, |(r, v)| prep.sweep(&g, r, v));
    let (one, two) = (pool(1), pool(2));
    let mut colourings = Vec::new();
    let mut coloured = Vec::new();
    for block in BLOCKS {
        let t = Instant::now();
        let col = prep.colouring(block);
        let colour_s = t.elapsed().as_secs_f64();
        // Each order is timed from an iterate its own sweeps made: WARM coloured sweeps
        // from r = 0 (on one thread; the result does not depend on the thread count).
        let mut rc = DVector::zeros(g.dim());
        let mut vc = g.velocity_dofs(&rc);
        for _ in 0..WARM {
            one.install(|| prep.sweep_coloured(&g, &col, &mut rc, &mut vc));
        }
        let own = || (rc.clone(), vc.clone());
        // the best time, and the cores in use (CPU time / wall time) over all the runs
        let on = |p: &rayon::ThreadPool| {
            let (mut cpu, mut wall) = (0.0, 0.0);
            let t = best(own, |(r, v)| {
                let (c0, t0) = (cpu_seconds(), Instant::now());
                p.install(|| prep.sweep_coloured(&g, &col, r, v));
                wall += t0.elapsed().as_secs_f64();
                cpu += cpu_seconds().zip(c0).map_or(f64::NAN, |(c1, c0)| c1 - c0);
            });
            // ticks of 10 ms: too coarse below about a second of runs
            (t, if wall >= 1.0 { cpu / wall } else { f64::NAN })
        };
        let order = col.order();
        let in_order = best(own, |(r, v)| prep.sweep_in_order(&g, &order, r, v));
        // the plain sweep from the coloured iterate: another order's iterate
        let crossed = best(own, |(r, v)| prep.sweep(&g, r, v));
        let ((t1, _), (t2, cores)) = (on(&one), on(&two));
        coloured.push(Timed {
            colours: col.colours(),
            colour_s,
            in_order,
            crossed,
            one: t1,
            two: t2,
            cores,
        });
        colourings.push(col);
    }
    // ANCHOR_END: timing
    let prox_s = {
        let p = ProxProblem::from_global(&g, g.kind());
        let prox = Prox::new(&p, ProxOptions::recommended(Scheme::GaussSeidel)).expect("prox");
        let mut scratch = Vec::new();
        best(
            || {
                let lam = r0.clone();
                let st = prox.state(&lam);
                (lam, st)
            },
            |(lam, st)| prox.sweep(lam, st, &mut scratch),
        )
    };
    let peak_kb = if reset { status_kb("VmHWM:") } else { None };
    let row = Row {
        scene: if turn { "wall, turned" } else { "wall" },
        contacts: g.contacts(),
        bodies: g.dofs() / 6,
        build_s,
        prepare_s,
        seq_s,
        prox_s,
        coloured,
        bytes: prep.bytes_streamed(),
        peak_kb,
        resident_kb,
    };
    let keep = (target == CONVERGENCE_SIZE && !turn).then_some((g, prep, colourings));
    (row, keep)
}

fn main() {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let load_before = load();
    let spare_before = compute_speedup();
    let bw1 = bandwidth(1);
    let bw2 = bandwidth(2);
    let mut rows = Vec::new();
    let mut conv = None;
    let runs = SIZES
        .iter()
        .map(|&n| (n, false))
        .chain([(TURNED_SIZE, true)]);
    for (n, turn) in runs {
        let (row, keep) = measure(n, turn);
        eprintln!(
            "{} contacts: seq {:.3} s, coloured {:?}, peak {:?} kB",
            row.contacts, row.seq_s, row.coloured, row.peak_kb
        );
        rows.push(row);
        if keep.is_some() {
            conv = keep;
        }
    }

    let load_after = load();
    let spare_after = compute_speedup();
    let mut out = String::new();
    let w = &mut out;
    writeln!(
        w,
        "Scenes: `wall` (bricks in running bond, 1 kg each, mu = 0.5, dt = 0.01 s), global form, \
         and at {TURNED_SIZE} contacts the same problem in turned coordinates (`wall, turned`: \
         every 3-vector of v rotated by one rotation about a generic axis, so that no contact \
         normal lies along an axis and no entry of H^T is zero by symmetry; W is unchanged); \
         one sweep from the iterate after {WARM} sequential sweeps from r = 0; best of {REPEAT} runs on a {threads}-core machine shared with \
         other jobs. Memory read bandwidth (sum of a 256 MiB array with 8 accumulators, best of {REPEAT}): \
         {:.2} GB/s on 1 thread, {:.2} GB/s on 2. Load average (1 min) before and after the \
         timings: {} and {}; speed-up on 2 threads of a loop that only computes, before and after: \
         {:.2} and {:.2} (2 would mean two free cores).",
        bw1 / 1e9,
        bw2 / 1e9,
        load_before.as_deref().unwrap_or("n/a"),
        load_after.as_deref().unwrap_or("n/a"),
        spare_before,
        spare_after,
    )
    .unwrap();
    writeln!(w).unwrap();
    writeln!(
        w,
        "| scene | contacts | bodies | build s | prepare s | peak MB | peak bytes/contact | \
         resident after prepare, bytes/contact | NSGS sweep s | ns/contact | PROX sweep s | \
         ns/contact |"
    )
    .unwrap();
    writeln!(
        w,
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    )
    .unwrap();
    for r in &rows {
        let (mb, per) = match r.peak_kb {
            Some(kb) => (
                format!("{:.0}", kb as f64 / 1024.0),
                format!("{:.0}", kb as f64 * 1024.0 / r.contacts as f64),
            ),
            None => ("n/a".into(), "n/a".into()),
        };
        let resident = r.resident_kb.map_or("n/a".into(), |kb| {
            format!("{:.0}", kb as f64 * 1024.0 / r.contacts as f64)
        });
        writeln!(
            w,
            "| {} | {} | {} | {:.2} | {:.2} | {mb} | {per} | {resident} | {:.4} | {:.0} | {:.4} | {:.0} |",
            r.scene,
            r.contacts,
            r.bodies,
            r.build_s,
            r.prepare_s,
            r.seq_s,
            r.seq_s / r.contacts as f64 * 1e9,
            r.prox_s,
            r.prox_s / r.contacts as f64 * 1e9,
        )
        .unwrap();
    }
    writeln!(w).unwrap();
    writeln!(
        w,
        "Coloured sweep: contacts cut into blocks of consecutive contacts, the blocks \
         coloured greedily so that no two blocks of one colour share a body, the blocks of a \
         colour swept in parallel with rayon, each block in Gauss-Seidel order. Every sweep \
         of this table starts from the iterate after {WARM} coloured sweeps from r = 0 (the \
         coloured sweep's own iterate); the sequential sweep in contact order from that \
         iterate shows what a sweep costs on another order's iterate. Speed-up = \
         sequential sweep time (from its own iterate, table above) / coloured sweep time. Cores in use = CPU time of all threads / \
         wall time over the 2-thread runs (2 when both threads ran at once the whole time; \
         near 1 or below when the machine's other jobs left less than two cores; n/a when the \
         runs took less than a second, too short for the 10 ms ticks of the CPU clock)."
    )
    .unwrap();
    writeln!(w).unwrap();
    writeln!(
        w,
        "| scene | contacts | block | colours | colouring s | sequential in colour order s | \
         sequential in contact order s | coloured, 1 thread s | coloured, 2 threads s | \
         cores in use on 2 threads | speed-up on 2 threads vs sequential | vs coloured on 1 thread |"
    )
    .unwrap();
    writeln!(
        w,
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    )
    .unwrap();
    for r in &rows {
        for (block, c) in BLOCKS.iter().zip(&r.coloured) {
            writeln!(
                w,
                "| {} | {} | {block} | {} | {:.3} | {:.4} | {:.4} | {:.4} | {:.4} | {} | {:.2} | {:.2} |",
                r.scene,
            r.contacts,
                c.colours,
                c.colour_s,
                c.in_order,
                c.crossed,
                c.one,
                c.two,
                if c.cores.is_nan() {
                    "n/a".to_string()
                } else {
                    format!("{:.2}", c.cores)
                },
                r.seq_s / c.two,
                c.one / c.two
            )
            .unwrap();
        }
    }
    writeln!(w).unwrap();
    writeln!(
        w,
        "Bandwidth floor: the bytes of per-contact data one sweep streams (the rows of H^T and \
         T^T = (M^-1 H)^T packed per contact: six numbers and one 32-bit index per column the \
         contact touches; the 3x3 blocks and inverses, b, mu, r read and written; v not counted) over the measured bandwidth. Fraction = floor / sweep time \
         (1 would be a sweep limited by memory alone)."
    )
    .unwrap();
    writeln!(w).unwrap();
    writeln!(
        w,
        "| scene | contacts | bytes/contact | floor 1 thread s | sequential sweep fraction | \
         floor 2 threads s | coloured (block {DEFAULT_COLOUR_BLOCK}) 2 threads fraction |"
    )
    .unwrap();
    writeln!(w, "|---|---:|---:|---:|---:|---:|---:|").unwrap();
    for r in &rows {
        let f1 = r.bytes as f64 / bw1;
        let f2 = r.bytes as f64 / bw2;
        writeln!(
            w,
            "| {} | {} | {:.0} | {:.4} | {:.2} | {:.4} | {:.2} |",
            r.scene,
            r.contacts,
            r.bytes as f64 / r.contacts as f64,
            f1,
            f1 / r.seq_s,
            f2,
            f2 / r.coloured[BLOCKS.len() - 1].two
        )
        .unwrap();
    }

    // ANCHOR: convergence
    let (g, prep, colourings) = conv.expect("the convergence size is measured");
    let r0 = DVector::zeros(g.dim());
    let v0 = g.velocity_dofs(&r0);
    let mut seq = (r0.clone(), v0.clone());
    let mut col: Vec<_> = colourings
        .iter()
        .map(|_| (r0.clone(), v0.clone()))
        .collect();
    writeln!(w).unwrap();
    writeln!(
        w,
        "Error (natural map, relative) after k sweeps from r = 0, {} contacts:",
        g.contacts()
    )
    .unwrap();
    writeln!(w).unwrap();
    let heads: Vec<String> = BLOCKS
        .iter()
        .map(|b| format!("coloured, block {b}"))
        .collect();
    writeln!(w, "| sweeps | sequential | {} |", heads.join(" | ")).unwrap();
    writeln!(w, "|---:|---:|{}", "---:|".repeat(BLOCKS.len())).unwrap();
    let mut done = 0;
    for &k in &CHECKPOINTS {
        while done < k {
            prep.sweep(&g, &mut seq.0, &mut seq.1);
            for (c, (r, v)) in colourings.iter().zip(&mut col) {
                prep.sweep_coloured(&g, c, r, v);
            }
            done += 1;
        }
        let e = |(r, v): &(DVector<f64>, DVector<f64>)| support::sci(prep.error(&g, r, v).rel);
        let cols: Vec<String> = col.iter().map(e).collect();
        writeln!(w, "| {k} | {} | {} |", e(&seq), cols.join(" | ")).unwrap();
    }
    // ANCHOR_END: convergence
    support::publish("generated/sweep_scale.txt", &out);
}
