//! Every chapter ends with "Try it" commands and exercises, and the commands work in a fresh
//! clone (issue 15): each numbered chapter of `SUMMARY.md` (the reference chapters, notation,
//! the solutions and the bibliography, excepted) has a `## Try it` section with a `console` block and an
//! `## Exercises` section; and every command of those blocks is checked here:
//!
//! * `nonsmooth ...` and `cargo run --release -- ...` run the built program from a scratch
//!   folder that sees the repository's `data/`, `scenes/` and `tests/` (so files the command writes land
//!   there, not in the repository), through `bash` (pipes and globs work as in a terminal),
//!   and must end with status 0 or 1 (1: a problem did not converge, which a command may show
//!   on purpose) without a panic, within two minutes;
//! * `cargo run --example NAME`, `cargo test --test NAME` / `--example NAME` and
//!   `cargo bench --bench NAME` must name an example, test or bench that exists (they are not
//!   run here: `cargo test` runs them all anyway).
//!
//! Other commands (`pip`, `python3`, `git`, `mdbook`) are shown for the reader and not run.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The numbered chapters of `SUMMARY.md`, in order.
fn chapters() -> Vec<String> {
    let summary = std::fs::read_to_string(root().join("book/src/SUMMARY.md")).unwrap();
    summary
        .lines()
        .filter_map(|l| {
            let item = l.trim_start().strip_prefix("- ")?;
            let start = item.find("](")?;
            let rest = &item[start + 2..];
            let file = rest[..rest.find(')')?].trim();
            (!file.is_empty()).then(|| file.to_string())
        })
        .collect()
}

const REFERENCE_CHAPTERS: [&str; 3] = ["notation.md", "solutions.md", "bibliography.md"];

/// The text of section `## title` of a chapter (to the next `## ` heading), if any.
fn section<'a>(text: &'a str, title: &str) -> Option<&'a str> {
    let head = format!("## {title}\n");
    let start = text.find(&head)? + head.len();
    let end = text[start..]
        .find("\n## ")
        .map_or(text.len(), |e| start + e + 1);
    Some(&text[start..end])
}

/// The commands of the `console` fences of `text`, continuation lines joined, a leading
/// `$ ` removed, comments and blank lines dropped.
fn commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    let mut pending = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            inside = !inside && t.trim_start_matches('`').starts_with("console");
            continue;
        }
        if !inside {
            continue;
        }
        let t = t.strip_prefix("$ ").unwrap_or(t);
        if pending.is_empty() && (t.is_empty() || t.starts_with('#')) {
            continue;
        }
        if let Some(head) = t.strip_suffix('\\') {
            pending.push_str(head.trim_end());
            pending.push(' ');
        } else {
            pending.push_str(t);
            out.push(std::mem::take(&mut pending));
        }
    }
    out
}

/// What a command asks for, once environment assignments (`NAME=value`) are skipped.
enum Kind {
    /// Run the program with this shell text after `nonsmooth`.
    Program(String),
    /// Names that must exist: `(kind, name)` with kind `example`, `test` or `bench`.
    Targets(Vec<(String, String)>),
    /// Shown, not checked.
    Other,
}

fn classify(cmd: &str) -> Kind {
    let words: Vec<&str> = cmd
        .split_whitespace()
        .skip_while(|w| w.contains('=') && !w.starts_with('-'))
        .collect();
    let rest = |n: usize| words[n..].join(" ");
    match words.as_slice() {
        ["nonsmooth", ..] => Kind::Program(rest(1)),
        ["cargo", "run", ..] => {
            if let Some(i) = words.iter().position(|w| *w == "--example") {
                return Kind::Targets(vec![("example".into(), words[i + 1].into())]);
            }
            if words.contains(&"--features") {
                return Kind::Other; // needs a feature this build may not have
            }
            match words.iter().position(|w| *w == "--") {
                Some(i) => Kind::Program(rest(i + 1)),
                None => Kind::Other,
            }
        }
        ["cargo", "test" | "bench", ..] => Kind::Targets(
            words
                .windows(2)
                .filter_map(|w| match w[0] {
                    "--test" => Some(("test".to_string(), w[1].to_string())),
                    "--example" => Some(("example".to_string(), w[1].to_string())),
                    "--bench" => Some(("bench".to_string(), w[1].to_string())),
                    _ => None,
                })
                .collect(),
        ),
        _ => Kind::Other,
    }
}

fn target_exists(kind: &str, name: &str) -> bool {
    let dir = match kind {
        "example" => "examples",
        "test" => "tests",
        _ => "benches",
    };
    root().join(dir).join(format!("{name}.rs")).is_file()
        || root().join(dir).join(name).join("main.rs").is_file()
}

/// A scratch folder that sees the repository's `data/`, `scenes/`, `tests/` and `python/` through links.
fn scratch() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("book_try_it");
    std::fs::create_dir_all(&d).unwrap();
    for sub in ["data", "scenes", "tests", "python"] {
        let link = d.join(sub);
        if !link.exists() {
            std::os::unix::fs::symlink(root().join(sub), &link).unwrap();
        }
    }
    d
}

fn run_program(args: &str) -> Result<(), String> {
    let bin = Path::new(env!("CARGO_BIN_EXE_nonsmooth"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(format!("nonsmooth {args}"))
        .current_dir(scratch())
        .env("PATH", path)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            let mut err = String::new();
            use std::io::Read;
            child.stderr.take().unwrap().read_to_string(&mut err).ok();
            if err.contains("panicked") {
                return Err(format!("panicked: {err}"));
            }
            return match status.code() {
                Some(0 | 1) => Ok(()),
                other => Err(format!("exit status {other:?}: {err}")),
            };
        }
        if start.elapsed() > Duration::from_secs(120) {
            child.kill().ok();
            return Err("still running after 120 s".into());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn every_chapter_has_try_it_and_exercises() {
    let mut missing = Vec::new();
    for file in chapters() {
        if REFERENCE_CHAPTERS.contains(&file.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(root().join("book/src").join(&file)).unwrap();
        match section(&text, "Try it") {
            Some(s) if !commands(s).is_empty() => {}
            _ => missing.push(format!(
                "{file}: no `## Try it` section with a console block"
            )),
        }
        if section(&text, "Exercises").is_none() {
            missing.push(format!("{file}: no `## Exercises` section"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn try_it_commands_work_in_a_clone() {
    let mut problems = Vec::new();
    let mut ran = 0;
    for file in chapters() {
        let text = std::fs::read_to_string(root().join("book/src").join(&file)).unwrap();
        let Some(s) = section(&text, "Try it") else {
            continue;
        };
        for cmd in commands(s) {
            match classify(&cmd) {
                Kind::Program(args) => {
                    ran += 1;
                    if let Err(e) = run_program(&args) {
                        problems.push(format!("{file}: `{cmd}`: {e}"));
                    }
                }
                Kind::Targets(t) => {
                    for (kind, name) in t {
                        if !target_exists(&kind, &name) {
                            problems.push(format!("{file}: `{cmd}`: no {kind} named {name}"));
                        }
                    }
                }
                Kind::Other => {}
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    eprintln!("ran {ran} program commands of the chapters' Try it sections");
}

#[test]
fn commands_are_read_as_a_terminal_shows_them() {
    let text = "```console\n$ nonsmooth solve a.dat \\\n    --tol 1e-8\n# a comment\n\
                NONSMOOTH_BLESS=1 cargo test --release --test x --example y\n```\n";
    let c = commands(text);
    assert_eq!(c.len(), 2);
    assert_eq!(c[0], "nonsmooth solve a.dat --tol 1e-8");
    match classify(&c[1]) {
        Kind::Targets(t) => assert_eq!(
            t,
            vec![
                ("test".to_string(), "x".to_string()),
                ("example".to_string(), "y".to_string())
            ]
        ),
        _ => panic!("not targets"),
    }
    match classify("cargo run --release -- solve data/") {
        Kind::Program(a) => assert_eq!(a, "solve data/"),
        _ => panic!("not the program"),
    }
    assert!(matches!(
        classify("cargo run --release --example lemke_steps"),
        Kind::Targets(_)
    ));
    assert!(matches!(classify("pip install ./python"), Kind::Other));
}
