//! Runs the corpus through the command-line program and the library, and classifies what
//! went wrong.
//!
//! Every run of the program is bounded: a wall-clock limit (a run that exceeds it is
//! killed and counted as a hang) and an address-space limit (`ulimit -v`), so that a
//! reader that asks for terabytes fails at once instead of taking the machine down.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::args::{ArgCase, Post};
use super::corpus::{Case, Expect, write_case};
use super::judge;

/// Wall-clock limit of one run of the program: 60 s, or `NONSMOOTH_ADVERSARIAL_TIMEOUT`
/// seconds.
pub fn run_limit() -> Duration {
    let s = std::env::var("NONSMOOTH_ADVERSARIAL_TIMEOUT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    Duration::from_secs(s)
}
/// Address-space limit of one run, in KiB (4 GiB).
pub const MEMORY_LIMIT_KIB: u64 = 4 << 20;

/// What kind of failure a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// Exit status 101: a Rust panic.
    Panic,
    /// Killed by a signal (an abort after a failed allocation, a segmentation fault).
    Abort,
    /// Still running after [`run_limit`].
    Hang,
    /// "converged" with an answer that is not one, or an answer accepted that is wrong.
    SilentWrong,
    /// An input file changed.
    Modified,
    /// The exit status is not the one the case requires.
    WrongExit,
    /// The error message does not name the file, shows invisible characters raw, prints a
    /// 300-digit number, or lacks what the case says it must mention.
    Unclear,
    /// A method that must converge on a valid problem did not.
    NotConverged,
    /// `info` said something false, or a written file does not read back.
    WrongReport,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Panic => "panic",
            Kind::Abort => "abort",
            Kind::Hang => "hang",
            Kind::SilentWrong => "silent-wrong",
            Kind::Modified => "input-modified",
            Kind::WrongExit => "wrong-exit",
            Kind::Unclear => "unclear",
            Kind::NotConverged => "not-converged",
            Kind::WrongReport => "wrong-report",
        }
    }
}

/// One thing that went wrong.
#[derive(Debug, Clone)]
pub struct Finding {
    pub case: String,
    pub command: String,
    pub kind: Kind,
    pub detail: String,
}

/// One in-process solve of a valid case: what the method reported.
#[derive(Debug, Clone)]
pub struct Solved {
    pub case: String,
    pub method: String,
    pub status: String,
    pub iterations: Option<usize>,
    pub error: Option<f64>,
}

/// Totals of a sweep.
#[derive(Debug, Default)]
pub struct Report {
    pub inputs: usize,
    pub arg_cases: usize,
    pub runs: usize,
    pub in_process_solves: usize,
    pub findings: Vec<Finding>,
    pub solved: Vec<Solved>,
}

impl Report {
    pub fn counts(&self) -> BTreeMap<Kind, usize> {
        let mut m = BTreeMap::new();
        for f in &self.findings {
            *m.entry(f.kind).or_insert(0) += 1;
        }
        m
    }

    pub fn summary(&self) -> String {
        let mut s = format!(
            "inputs {}, argument cases {}, program runs {}, in-process solves {}\n",
            self.inputs, self.arg_cases, self.runs, self.in_process_solves
        );
        let counts = self.counts();
        for k in [
            Kind::Panic,
            Kind::Abort,
            Kind::Hang,
            Kind::SilentWrong,
            Kind::Modified,
            Kind::WrongExit,
            Kind::Unclear,
            Kind::NotConverged,
            Kind::WrongReport,
        ] {
            s.push_str(&format!(
                "  {:<15} {}\n",
                k.name(),
                counts.get(&k).copied().unwrap_or(0)
            ));
        }
        s
    }
}

/// The outcome of one run of the program.
#[derive(Debug)]
pub struct Run {
    pub command: String,
    /// `None` when killed by a signal or by the time limit.
    pub code: Option<i32>,
    pub hung: bool,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `bin args...` in `cwd`, bounded in time and memory. With `head = Some(n)`, reads
/// `n` lines of standard output and closes it, as `| head -n n` does.
pub fn run(bin: &Path, args: &[String], cwd: &Path, head: Option<usize>) -> Run {
    let command = std::iter::once("nonsmooth".to_string())
        .chain(args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    let tmp = tempfile(cwd);
    let (out_path, err_path) = (tmp.with_extension("out"), tmp.with_extension("err"));
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {MEMORY_LIMIT_KIB}; exec \"$0\" \"$@\""))
        .arg(bin)
        .args(args)
        .current_dir(cwd)
        .env("RUST_BACKTRACE", "0")
        // A damaged FCLIB file that hangs the HDF5 C library costs 5 s, not 30.
        .env("NONSMOOTH_FCLIB_READ_SECONDS", "5")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stderr(std::fs::File::create(&err_path).expect("stderr file"));
    let mut head_out = String::new();
    let mut child;
    if let Some(n) = head {
        cmd.stdout(Stdio::piped());
        child = cmd.spawn().expect("spawn");
        use std::io::BufRead;
        let mut reader = std::io::BufReader::new(child.stdout.take().expect("piped"));
        for _ in 0..n {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            head_out.push_str(&line);
        }
        drop(reader); // the pipe closes: the next write fails with EPIPE
    } else {
        cmd.stdout(std::fs::File::create(&out_path).expect("stdout file"));
        child = cmd.spawn().expect("spawn");
    }
    let start = Instant::now();
    let mut hung = false;
    let status = loop {
        match child.try_wait().expect("wait") {
            Some(s) => break Some(s),
            None if start.elapsed() > run_limit() => {
                let _ = child.kill();
                let _ = child.wait();
                hung = true;
                break None;
            }
            None => std::thread::sleep(Duration::from_millis(2)),
        }
    };
    let read = |p: &Path| {
        let b = std::fs::read(p).unwrap_or_default();
        let _ = std::fs::remove_file(p);
        String::from_utf8_lossy(&b).into_owned()
    };
    let stdout = if head.is_some() {
        head_out
    } else {
        read(&out_path)
    };
    Run {
        command,
        code: status.and_then(|s| s.code()),
        hung,
        stdout,
        stderr: read(&err_path),
    }
}

fn tempfile(dir: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let k = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "nonsmooth-adv-{}-{k}-{}",
        std::process::id(),
        dir.file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    ))
}

/// Characters that must never appear raw in a message: controls, invisible spaces,
/// the byte-order mark, the replacement character of a lossy decode.
fn invisible(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(
            c,
            '\u{a0}' | '\u{ad}' | '\u{200b}'
                ..='\u{200f}' | '\u{2028}' | '\u{2029}' | '\u{2060}' | '\u{feff}' | '\u{fffd}'
        )
}

/// Why a message is unclear, if it is.
pub fn unclear(stderr: &str, names: &[String], mentions: &[String]) -> Option<String> {
    let msg = stderr.trim();
    if msg.is_empty() {
        return Some("no message".into());
    }
    if let Some(c) = msg.chars().find(|c| invisible(*c)) {
        return Some(format!("raw invisible character U+{:04X}", c as u32));
    }
    let mut run = 0;
    for c in msg.chars() {
        run = if c.is_ascii_digit() { run + 1 } else { 0 };
        if run > 40 {
            return Some("a number printed with more than 40 digits".into());
        }
    }
    for bad in [
        "panicked",
        "RUST_BACKTRACE",
        "internal check",
        "unreachable",
        "inf above",
    ] {
        if msg.contains(bad) {
            return Some(format!("says `{bad}`"));
        }
    }
    if msg.len() > 4000 {
        return Some(format!("{} bytes of message", msg.len()));
    }
    if !names.is_empty() && !names.iter().any(|n| msg.contains(n.as_str())) {
        return Some(format!("does not name {}", names.join(" or ")));
    }
    let lower = msg.to_lowercase();
    for m in mentions {
        if !lower.contains(&m.to_lowercase()) {
            return Some(format!("does not mention `{m}`"));
        }
    }
    None
}

/// Content fingerprint of every file under `dir` (the regular files' bytes; other kinds
/// by their type), to detect modified inputs.
pub fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut m = BTreeMap::new();
    fn walk(d: &Path, m: &mut BTreeMap<PathBuf, Vec<u8>>) {
        let Ok(rd) = std::fs::read_dir(d) else { return };
        for e in rd.flatten() {
            let p = e.path();
            let Ok(meta) = std::fs::symlink_metadata(&p) else {
                continue;
            };
            let ft = meta.file_type();
            if ft.is_dir() {
                m.insert(p.clone(), b"<dir>".to_vec());
                walk(&p, m);
            } else if ft.is_file() {
                m.insert(p.clone(), std::fs::read(&p).unwrap_or_default());
            } else {
                m.insert(p, format!("<{ft:?}>").into_bytes());
            }
        }
    }
    walk(dir, &mut m);
    m
}

/// What the runner needs to know.
pub struct Env {
    pub bin: PathBuf,
    pub methods: Vec<String>,
    pub tol: f64,
    /// Also solve valid cases in process and judge "converged" answers.
    pub in_process: bool,
}

fn crash(r: &Run) -> Option<(Kind, String)> {
    if r.hung {
        return Some((Kind::Hang, format!("still running after {:?}", run_limit())));
    }
    match r.code {
        None => Some((Kind::Abort, first_lines(&r.stderr))),
        Some(101) => Some((Kind::Panic, first_lines(&r.stderr))),
        _ if r.stderr.contains("panicked at") => Some((Kind::Panic, first_lines(&r.stderr))),
        _ => None,
    }
}

fn first_lines(s: &str) -> String {
    s.lines().take(3).collect::<Vec<_>>().join(" | ")
}

struct Sink<'a> {
    case: &'a str,
    findings: Vec<Finding>,
    runs: usize,
}

impl Sink<'_> {
    fn add(&mut self, command: &str, kind: Kind, detail: impl Into<String>) {
        self.findings.push(Finding {
            case: self.case.to_string(),
            command: command.to_string(),
            kind,
            detail: detail.into(),
        });
    }

    /// Checks crash and exit status; returns `true` when the run ended normally with one
    /// of `codes`.
    fn status(&mut self, r: &Run, codes: &[i32]) -> bool {
        self.runs += 1;
        if let Some((k, d)) = crash(r) {
            self.add(&r.command, k, d);
            return false;
        }
        let code = r.code.unwrap_or(-1);
        if !codes.contains(&code) {
            self.add(
                &r.command,
                Kind::WrongExit,
                format!(
                    "exit {code}, expected {codes:?}; {}",
                    first_lines(&r.stderr)
                ),
            );
            return false;
        }
        true
    }

    fn message(&mut self, r: &Run, names: &[String], mentions: &[String]) {
        if let Some(why) = unclear(&r.stderr, names, mentions) {
            self.add(
                &r.command,
                Kind::Unclear,
                format!("{why}: {}", first_lines(&r.stderr)),
            );
        }
    }
}

/// Runs one corpus case; returns its findings, the number of runs, and the in-process
/// solves.
pub fn run_case(env: &Env, case: &Case, root: &Path) -> (Vec<Finding>, usize, Vec<Solved>) {
    let dir = root.join("in");
    let out = root.join("out");
    let _ = std::fs::remove_dir_all(root);
    write_case(case, &dir).expect("write case");
    std::fs::create_dir_all(&out).expect("out dir");
    let before = snapshot(&dir);
    let input = dir.join(&case.input);
    let input_s = input.display().to_string();
    let mut sink = Sink {
        case: &case.name,
        findings: Vec::new(),
        runs: 0,
    };
    let names = vec![input_s.clone()];
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<String>>();
    let mut solves = Vec::new();

    // Decide what to expect for mutations from what `info` makes of them.
    let info = run(&env.bin, &s(&["info", &input_s]), &dir, None);
    let expect = match &case.expect {
        Expect::Either => {
            if !sink.status(&info, &[0, 1]) {
                finish(&mut sink, &dir, &before);
                return (sink.findings, sink.runs, solves);
            }
            if info.code == Some(0) {
                Expect::Valid(Default::default())
            } else {
                Expect::Reject { mentions: vec![] }
            }
        }
        e => {
            let codes: &[i32] = match e {
                Expect::Reject { .. } => &[1],
                Expect::Nothing { .. } => &[2],
                _ => &[0],
            };
            sink.status(&info, codes);
            e.clone()
        }
    };
    match &expect {
        Expect::Reject { mentions } | Expect::Nothing { mentions } => {
            let code = if matches!(expect, Expect::Reject { .. }) {
                1
            } else {
                2
            };
            sink.message(&info, &names, mentions);
            // An unreadable FCLIB file is refused by the reader before any method runs:
            // one method shows it (each costs a child process, up to the read limit).
            let methods = if case.name.starts_with("hdf5/") {
                vec!["auto".to_string()]
            } else {
                env.methods.clone()
            };
            for m in &methods {
                let r = run(
                    &env.bin,
                    &s(&["solve", &input_s, "--method", m]),
                    &dir,
                    None,
                );
                if sink.status(&r, &[code]) {
                    sink.message(&r, &names, mentions);
                }
            }
            let ans = out.join("answer.txt");
            std::fs::write(&ans, "0\n").expect("answer");
            // `check` and `convert` take one problem: a folder of several is a usage error.
            let one: &[i32] = if matches!(case.expect, Expect::Either) && input.is_dir() {
                &[1, 2]
            } else {
                &[code]
            };
            let r = run(
                &env.bin,
                &s(&["check", &input_s, "--answer", &ans.display().to_string()]),
                &dir,
                None,
            );
            if sink.status(&r, one) {
                sink.message(&r, &names, mentions);
            }
            for (to, name) in [("json", "c.json"), ("siconos", "c.dat"), ("numpy", "cnp")] {
                let o = out.join(name).display().to_string();
                let r = run(
                    &env.bin,
                    &s(&["convert", &input_s, "--to", to, "-o", &o]),
                    &dir,
                    None,
                );
                if sink.status(&r, one) {
                    sink.message(&r, &names, mentions);
                }
            }
        }
        Expect::Valid(v) => {
            for bad in &v.info_must_not_say {
                if info.stdout.contains(bad) {
                    sink.add(
                        &info.command,
                        Kind::WrongReport,
                        format!("info says `{bad}`"),
                    );
                }
            }
            for m in &env.methods {
                let r = run(
                    &env.bin,
                    &s(&[
                        "solve",
                        &input_s,
                        "--method",
                        m,
                        "--json",
                        "--tol",
                        &env.tol.to_string(),
                    ]),
                    &dir,
                    None,
                );
                if !sink.status(&r, &[0, 1]) {
                    continue;
                }
                if r.code == Some(1) {
                    sink.message(&r, &names, &[]);
                }
                for line in r.stdout.lines() {
                    let Ok(row) = serde_json::from_str::<serde_json::Value>(line) else {
                        sink.add(&r.command, Kind::WrongReport, format!("not JSON: {line}"));
                        continue;
                    };
                    let status = row["status"].as_str().unwrap_or("");
                    if status == "converged" {
                        match row["error"].as_f64() {
                            Some(e) if e <= env.tol => {}
                            other => sink.add(
                                &r.command,
                                Kind::SilentWrong,
                                format!("converged with error {other:?} above the tolerance"),
                            ),
                        }
                    }
                }
                if v.must_converge.contains(&m.as_str()) && r.code != Some(0) {
                    sink.add(
                        &r.command,
                        Kind::NotConverged,
                        format!("{}; {}", r.stdout.trim(), first_lines(&r.stderr)),
                    );
                }
            }
            for a in &v.answers {
                let p = dir.join(&a.file).display().to_string();
                let r = run(
                    &env.bin,
                    &s(&["check", &input_s, "--answer", &p]),
                    &dir,
                    None,
                );
                if sink.status(&r, &[0, 1]) {
                    let accepted = r.code == Some(0);
                    if accepted && !a.accepted {
                        sink.add(&r.command, Kind::SilentWrong, "a wrong answer was accepted");
                    } else if !accepted && a.accepted {
                        sink.add(
                            &r.command,
                            Kind::WrongReport,
                            format!("a right answer was rejected: {}", r.stdout.trim()),
                        );
                    }
                }
            }
            for (to, name) in [("json", "c.json"), ("siconos", "c.dat"), ("numpy", "cnp")] {
                let o = out.join(name).display().to_string();
                let r = run(
                    &env.bin,
                    &s(&["convert", &input_s, "--to", to, "-o", &o]),
                    &dir,
                    None,
                );
                // Siconos .dat holds no boxed LCP, no generic mechanical problem and no
                // friction law (a CCP problem would be read back as Coulomb): refused
                let refusal_ok = (to == "numpy" && v.large)
                    || (to == "siconos"
                        && (info.stdout.contains("boxed-lcp")
                            || info.stdout.contains("gmp")
                            || info.stdout.contains("(ccp)")));
                let codes: &[i32] = if refusal_ok { &[0, 1] } else { &[0] };
                if !sink.status(&r, codes) {
                    continue;
                }
                if r.code == Some(1) {
                    sink.message(&r, &names, &[]);
                    continue;
                }
                if to == "numpy" && v.large {
                    sink.add(
                        &r.command,
                        Kind::WrongExit,
                        "a problem beyond the dense limit was written densely",
                    );
                }
                let back = run(&env.bin, &s(&["info", &o]), &dir, None);
                if sink.status(&back, &[0]) && back.stdout.is_empty() {
                    sink.add(
                        &back.command,
                        Kind::WrongReport,
                        "the converted file describes nothing",
                    );
                }
            }
            if env.in_process && !v.large {
                solves = in_process(env, case, &input, &mut sink);
            }
        }
        Expect::Either => unreachable!("resolved above"),
    }
    finish(&mut sink, &dir, &before);
    (sink.findings, sink.runs, solves)
}

fn finish(sink: &mut Sink, dir: &Path, before: &BTreeMap<PathBuf, Vec<u8>>) {
    let after = snapshot(dir);
    if &after != before {
        let changed: Vec<String> = before
            .keys()
            .chain(after.keys())
            .filter(|k| before.get(*k) != after.get(*k))
            .map(|k| k.display().to_string())
            .collect();
        sink.add("(all)", Kind::Modified, changed.join(", "));
    }
}

/// Solves the case with every method in process and judges each "converged" answer.
fn in_process(env: &Env, case: &Case, input: &Path, sink: &mut Sink) -> Vec<Solved> {
    use nonsmooth::registry::{Choice, solve};
    use nonsmooth::solver::Params;
    let mut solved = Vec::new();
    let Ok(lp) = nonsmooth::io::load(input) else {
        return solved;
    };
    let params = Params {
        tol: env.tol,
        max_iter: 100_000,
        ..Default::default()
    };
    for m in &env.methods {
        let Ok(method) = m.parse::<Choice>() else {
            continue;
        };
        // Bounded like a run of the program: a solve still going after the time limit is
        // stopped (the program's run of the same case reports the hang).
        let deadline = Instant::now() + run_limit();
        let mut stop = |_: &nonsmooth::solver::Iterate| {
            if Instant::now() > deadline {
                std::ops::ControlFlow::Break(())
            } else {
                std::ops::ControlFlow::Continue(())
            }
        };
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            solve(
                &lp.problem,
                &method,
                nalgebra::DVector::zeros(lp.problem.dim()),
                &params,
                &mut stop,
            )
        }));
        let command = format!("(library) solve {} with {m}", case.input);
        let Ok(outcome) = outcome else {
            sink.add(&command, Kind::Panic, "the library panicked");
            continue;
        };
        if outcome.status() == "converged" {
            if let Some(why) = judge::wrong(&lp.problem, &outcome.x, outcome.kind, env.tol) {
                sink.add(&command, Kind::SilentWrong, why);
            }
        }
        solved.push(Solved {
            case: case.name.clone(),
            method: m.clone(),
            status: outcome.status().to_string(),
            iterations: outcome.info().map(|i| i.iterations),
            error: outcome.info().map(|i| i.error.rel),
        });
    }
    solved
}

/// The scratch inputs of the argument cases (see `args.rs`).
pub fn prepare_arg_scratch(root: &Path) -> BTreeMap<&'static str, String> {
    let _ = std::fs::remove_dir_all(root);
    let dir = root.join("dir");
    let many = root.join("many");
    let out = root.join("out");
    let input = root.join("in");
    for d in [&dir, &many, &out, &input] {
        std::fs::create_dir_all(d).expect("scratch");
    }
    let fc = dir.join("fc.json");
    std::fs::write(
        &fc,
        r#"{"format": "nonsmooth-problem", "version": 1, "name": "fc", "type": "fc3d", "law": "coulomb", "data": {"W": {"storage": "dense", "nrows": 3, "ncols": 3, "rows": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}, "q": [-1, 0.5, 0], "mu": [0.3]}, "answer": {"source": "seed", "r": [1, -0.3, 0]}}
"#,
    )
    .expect("fc");
    let lcp = dir.join("lcp.dat");
    std::fs::write(&lcp, "2\n0 2 2 2 2\n2 1 1 2\n-5 -6\n").expect("lcp");
    let bx = root.join("box.json");
    std::fs::write(
        &bx,
        r#"{"format": "nonsmooth-problem", "version": 1, "name": "box", "type": "boxed-lcp", "data": {"A": {"storage": "triplets", "nrows": 3, "ncols": 3, "entries": [[0, 0, 1], [1, 1, 1], [2, 2, 1]]}, "b": [-1, 0.5, 0], "lo": [0, null, null], "hi": [null, null, null], "dep": [-1, 0, 0], "factor": [0, 0.2, 0.2]}}
"#,
    )
    .expect("box");
    let bad = root.join("bad.dat");
    std::fs::write(&bad, "2\n0 2 2 2 2\n2 1 one 2\n-5 -6\n").expect("bad");
    for k in 0..30 {
        // A = 0, b = (-1, 0): infeasible, Lemke ends on a ray.
        std::fs::write(
            many.join(format!("p{k:02}.dat")),
            "2\n0 2 2 2 2\n0 0 0 0\n-1 0\n",
        )
        .expect("many");
    }
    let pipe = root.join("pipe.dat");
    let st = Command::new("mkfifo").arg(&pipe).status().expect("mkfifo");
    assert!(st.success());
    let p = |x: &Path| x.display().to_string();
    BTreeMap::from([
        ("{fc}", p(&fc)),
        ("{lcp}", p(&lcp)),
        ("{box}", p(&bx)),
        ("{bad}", p(&bad)),
        ("{dir}", p(&dir)),
        ("{many}", p(&many)),
        ("{out}", p(&out)),
        ("{in}", p(&input)),
        ("{pipe}", p(&pipe)),
        ("{nope}", p(&root.join("does-not-exist"))),
    ])
}

fn substitute(s: &str, vars: &BTreeMap<&'static str, String>) -> String {
    let mut s = s.to_string();
    for (k, v) in vars {
        s = s.replace(k, v);
    }
    s
}

/// Runs one argument case in a fresh scratch folder.
pub fn run_arg_case(env: &Env, c: &ArgCase, root: &Path) -> (Vec<Finding>, usize) {
    let vars = prepare_arg_scratch(root);
    let input = PathBuf::from(&vars["{in}"]);
    for (name, bytes) in &c.files {
        let path = input.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("case folder");
        }
        std::fs::write(&path, bytes).expect("case file");
    }
    let before = snapshot(root);
    let mut sink = Sink {
        case: &c.name,
        findings: Vec::new(),
        runs: 0,
    };
    for pre in &c.pre {
        let args: Vec<String> = pre.iter().map(|a| substitute(a, &vars)).collect();
        let _ = run(&env.bin, &args, root, None);
    }
    let before = if c.pre.is_empty() {
        before
    } else {
        snapshot(root)
    };
    let args: Vec<String> = c.args.iter().map(|a| substitute(a, &vars)).collect();
    let r = run(&env.bin, &args, root, c.head);
    let mut codes = vec![c.exit];
    codes.extend(&c.also);
    if sink.status(&r, &codes) && r.code != Some(0) {
        let mentions: Vec<String> = c.mentions.iter().map(|m| substitute(m, &vars)).collect();
        // Closed pipes and non-converged rows need no message.
        let verdict = c.verdict
            && r.code == Some(1)
            && r.stderr.trim().is_empty()
            && !r.stdout.trim().is_empty();
        if !(c.mentions.is_empty() && r.code == Some(1)) && !verdict {
            sink.message(&r, &[], &mentions);
        }
    }
    for p in &c.post {
        match p {
            Post::ReadsBackAs(path, ty) => {
                let path = substitute(path, &vars);
                let info = run(
                    &env.bin,
                    &["info".to_string(), "--json".into(), path.clone()],
                    root,
                    None,
                );
                let got = serde_json::from_str::<serde_json::Value>(
                    info.stdout.lines().next().unwrap_or(""),
                )
                .ok()
                .and_then(|v| v["type"].as_str().map(String::from));
                if got.as_deref() != Some(*ty) {
                    sink.add(
                        &r.command,
                        Kind::WrongReport,
                        format!("{path} reads back as {got:?}, expected {ty}"),
                    );
                }
            }
            Post::Exists(path) => {
                let path = substitute(path, &vars);
                if !Path::new(&path).exists() {
                    sink.add(&r.command, Kind::Modified, format!("{path} is gone"));
                }
            }
        }
    }
    // Inputs (everything but the output folder) must be unchanged.
    let after = snapshot(root);
    let out = PathBuf::from(&vars["{out}"]);
    let changed: Vec<String> = before
        .keys()
        .chain(after.keys())
        .filter(|k| !k.starts_with(&out) && before.get(*k) != after.get(*k))
        .map(|k| k.display().to_string())
        .collect();
    if !changed.is_empty() {
        sink.add(&r.command, Kind::Modified, changed.join(", "));
    }
    (sink.findings, sink.runs)
}
