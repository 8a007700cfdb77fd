//! The console sessions the book shows (chapters "The command line" and "Reading real
//! problems and judging an answer"), produced by running the built `nonsmooth` binary.
//!
//! Each session is a list of commands; the test runs them, writes what a terminal would
//! show (`$ command`, then standard output and standard error as they interleave, then the
//! exit status where it matters) and compares it with the committed file in
//! `book/src/generated/`. Wall-clock times change from run to run, so they are masked as
//! `*.****`. With `NONSMOOTH_BLESS=1` the test rewrites the files instead.
//!
//! Commands run in the crate's root folder (`data/...`), or in a scratch folder for the
//! files `nonsmooth generate` writes; shared data is named `data/...`, as it is
//! found from the root folder. Sessions that need the shared data are skipped, with a
//! notice, when it is absent.

use crate::common;
use crate::support;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Where a command runs.
#[derive(Clone, Copy)]
enum Dir {
    /// The crate's root folder.
    Root,
    /// The scratch folder of this test.
    Scratch,
}

/// One command of a session.
struct Step {
    args: Vec<String>,
    dir: Dir,
    /// Show `$ echo $?` and the exit status after the output.
    status: bool,
    /// Show only the first lines of the output (as `| head -n N` would).
    head: Option<usize>,
}

fn step(args: &str) -> Step {
    Step {
        args: args.split_whitespace().map(String::from).collect(),
        dir: Dir::Root,
        status: false,
        head: None,
    }
}

impl Step {
    fn in_scratch(mut self) -> Self {
        self.dir = Dir::Scratch;
        self
    }
    fn with_status(mut self) -> Self {
        self.status = true;
        self
    }
    fn head(mut self, n: usize) -> Self {
        self.head = Some(n);
        self
    }
}

fn scratch() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_book");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One `*` for every run of digits in `token`: `0.0083` becomes `*.*`. A time printed with
/// full precision (the history CSV, JSON) has a varying number of digits, so each run
/// becomes one mark, not one mark per digit.
fn mask(token: &str) -> String {
    let mut out = String::new();
    for c in token.chars() {
        if !c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('*') {
            out.push('*');
        }
    }
    out
}

/// Masks the wall-clock times in the output of `nonsmooth solve`: the last column of the
/// table and of the Markdown table, the `"seconds"` field of JSON lines, and the
/// `seconds` column of a history CSV.
fn mask_times(line: &str) -> String {
    // table: the last token of a row whose header ends with "seconds"
    if let Some(pos) = line.find("\"seconds\":") {
        let start = pos + "\"seconds\":".len();
        let end = line[start..]
            .find([',', '}'])
            .map(|e| start + e)
            .unwrap_or(line.len());
        return format!(
            "{}{}{}",
            &line[..start],
            mask(&line[start..end]),
            &line[end..]
        );
    }
    let cells: Vec<String> = line.split(',').map(String::from).collect();
    if cells.len() == 7 && cells[2].parse::<usize>().is_ok() {
        // history CSV: file,method,iteration,seconds,...
        let mut cells = cells;
        cells[3] = mask(&cells[3]);
        return cells.join(",");
    }
    if line.starts_with('|') && !line.contains("---") && !line.contains("seconds") {
        // Markdown row: the last cell
        let trimmed = line.trim_end_matches('|').trim_end();
        if let Some(pos) = trimmed.rfind('|') {
            return format!("{}| {} |", &trimmed[..pos], mask(trimmed[pos + 1..].trim()));
        }
    }
    line.to_string()
}

/// Is this line a row of the plain solve table (its last token a time)?
fn masks_last_token(line: &str) -> bool {
    let last = line.split_whitespace().last().unwrap_or("");
    [
        "converged",
        "max-iterations",
        "stopped",
        "stalled",
        "ray-termination",
        "unreadable",
        "diverged",
    ]
    .iter()
    .any(|s| line.contains(s))
        && last.contains('.')
        && last.chars().all(|c| c.is_ascii_digit() || c == '.')
}

fn mask_row(line: &str) -> String {
    if masks_last_token(line) {
        let last = line.split_whitespace().last().unwrap();
        let pos = line.rfind(last).unwrap();
        return format!("{}{}", &line[..pos], mask(last));
    }
    mask_times(line)
}

/// How paths are shown in the book and where they are on this machine: the third-party
/// problems are shown as `data/siconos`, `data/opentissue` and `data/mujoco` (where the
/// project ships them; `$NONSMOOTH_SHARED_DATA` may put them elsewhere), the scratch folder
/// as `target/tmp/cli_book` (where Cargo puts it by default).
fn substitutions(shared: Option<&Path>) -> Vec<(String, String)> {
    let mut subs = vec![(
        "target/tmp/cli_book".to_string(),
        scratch().display().to_string(),
    )];
    if let Some(dir) = shared {
        for sub in ["siconos", "opentissue", "mujoco"] {
            subs.push((format!("data/{sub}"), dir.join(sub).display().to_string()));
        }
    }
    subs
}

/// Bad input, as the chapter "Bad input and the adversarial corpus" shows it: a file cut
/// inside its last number, two numbers joined by a no-break space, a value out of range, an
/// output that is the input, a size of 2^64.
#[test]
fn bad_input() {
    let dir = scratch();
    std::fs::write(dir.join("cut.dat"), "2\n0 2 2 2 2\n2 1 1 2\n-5 -6.2").unwrap();
    std::fs::write(dir.join("nbsp.dat"), "2\n0 2 2 2 2\n2 1 1 2\n-5\u{a0}-6\n").unwrap();
    session(
        "cli_bad_input",
        &[
            step("info cut.dat").in_scratch().with_status(),
            step("info nbsp.dat").in_scratch().with_status(),
            step("solve data/box_stack_5.json --tol nan").with_status(),
            step("convert data/box_stack_5.json --to json -o data/./box_stack_5.json")
                .with_status(),
            step("generate pyramid --contacts 18446744073709551615").with_status(),
        ],
        None,
    );
}

/// Runs one step and returns what the terminal shows.
fn run(s: &Step, shared: Option<&Path>) -> String {
    let cwd = match s.dir {
        Dir::Root => support::root(),
        Dir::Scratch => scratch(),
    };
    let subs = substitutions(shared);
    let args: Vec<String> = s
        .args
        .iter()
        .map(|a| {
            let mut a = a.clone();
            for (shown, actual) in &subs {
                if let Some(rest) = a.strip_prefix(shown.as_str()) {
                    a = format!("{actual}{rest}");
                }
            }
            a
        })
        .collect();
    // stdout and stderr into one file, so that their lines interleave as on a terminal
    // (one file per step: the tests run in parallel)
    static STEP: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = STEP.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let log = scratch().join(format!("output-{n}.log"));
    let file = File::create(&log).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_nonsmooth"))
        .args(&args)
        .current_dir(&cwd)
        .stdout(Stdio::from(file.try_clone().unwrap()))
        .stderr(Stdio::from(file))
        .status()
        .expect("the nonsmooth binary runs");
    let mut output = std::fs::read_to_string(&log).unwrap();
    for (shown, actual) in &subs {
        output = output.replace(actual.as_str(), shown);
    }
    let mut lines: Vec<String> = output.lines().map(mask_row).collect();
    let mut words: Vec<String> = s.args.clone();
    if let Some(n) = s.head {
        words.extend(["|", "head", "-n"].map(String::from));
        words.push(n.to_string());
        lines.truncate(n);
    }
    let mut text = command_line(&words);
    for l in lines {
        text.push_str(&l);
        text.push('\n');
    }
    if s.status {
        text.push_str(&format!("$ echo $?\n{}\n", status.code().unwrap_or(-1)));
    }
    text
}

/// The widest command line shown on one line; a longer one is broken at argument boundaries,
/// with ` \` at the end of each line but the last, as a shell reads it.
const COMMAND_WIDTH: usize = 100;

/// `$ nonsmooth ARGS`, and a line break; broken into lines of at most [`COMMAND_WIDTH`]
/// characters (` \` continuations, the continuation lines indented by two spaces).
fn command_line(words: &[String]) -> String {
    let mut lines = vec!["$ nonsmooth".to_string()];
    for w in words {
        let last = lines.last_mut().unwrap();
        if last.len() > "$ nonsmooth".len()
            && last.chars().count() + 1 + w.chars().count() + 2 > COMMAND_WIDTH
        {
            last.push_str(" \\");
            lines.push(format!("  {w}"));
        } else {
            last.push(' ');
            last.push_str(w);
        }
    }
    lines.join("\n") + "\n"
}

/// Runs a session and publishes (or checks) it.
fn session(name: &str, steps: &[Step], shared: Option<&Path>) {
    let text: String = steps
        .iter()
        .map(|s| run(s, shared))
        .collect::<Vec<_>>()
        .join("\n");
    support::publish(&format!("generated/{name}.txt"), &text);
}

/// Shows the first lines of a file in the scratch folder, as `head -n N` would, with the
/// times masked.
fn head_of(file: &str, n: usize) -> String {
    let text = std::fs::read_to_string(scratch().join(file)).unwrap();
    let mut out = format!("$ head -n {n} target/tmp/cli_book/{file}\n");
    for l in text.lines().take(n) {
        out.push_str(&mask_times(l));
        out.push('\n');
    }
    out
}

#[test]
fn help() {
    session(
        "cli_help",
        &[step("--help"), step("solve --help"), step("check --help")],
        None,
    );
}

#[test]
fn generate_and_info() {
    session(
        "cli_generate",
        &[
            step("generate heavy-on-light --ratio 100 -o heavy_on_light_100.json").in_scratch(),
            step("generate box-stack --n 3 --global -o box_stack_3_global.json").in_scratch(),
            step("info heavy_on_light_100.json box_stack_3_global.json").in_scratch(),
            step("generate --help").head(12),
        ],
        None,
    );
}

#[test]
fn solve() {
    session("cli_solve", &[step("solve data/").head(14)], None);
    session(
        "cli_solve_options",
        &[
            step(
                "solve --kind ccp --tol 1e-10 --method nsgs data/box_stack_5.json data/heavy_on_light_1000.json",
            ),
            step("solve --method nsgs --format markdown data/pyramid_3_global.json"),
            step("solve --json --measure rel-q data/pyramid_3.json"),
            step("solve --method nsgs --max-iter 1000 data/heavy_on_light_1000.json").with_status(),
        ],
        None,
    );
    // The history file goes to the scratch folder; show its first lines.
    let out = run(
        &step("solve --history target/tmp/cli_book/history.csv data/wall_3x2.json"),
        None,
    );
    support::publish(
        "generated/cli_history.txt",
        &format!("{out}\n{}", head_of("history.csv", 5)),
    );
}

#[test]
fn check() {
    let dir = scratch();
    let answer = serde_json::json!({ "r": common::static_box_stack_answer() }).to_string();
    std::fs::write(dir.join("static.json"), answer).unwrap();
    std::fs::write(
        dir.join("static.npy"),
        nonsmooth::io::numpy::header::vector_to_npy(&common::static_box_stack_answer()),
    )
    .unwrap();
    std::fs::write(
        dir.join("zero.json"),
        serde_json::json!(vec![0.0; 60]).to_string(),
    )
    .unwrap();
    session(
        "cli_check",
        &[
            step("check data/box_stack_5.json --answer target/tmp/cli_book/static.json --worst 3"),
            step("check data/box_stack_5.json --answer target/tmp/cli_book/zero.json --worst 3")
                .with_status(),
            step("check data/box_stack_5.json --answer target/tmp/cli_book/static.npy --worst 1"),
        ],
        None,
    );
}

/// A NumPy folder without `meta.json`: the law assumed is said; with one, it is used.
#[test]
fn numpy_folder() {
    let folder = scratch().join("stack_np");
    let convert = run(
        &step("convert data/box_stack_5.json --to numpy -o target/tmp/cli_book/stack_np"),
        None,
    );
    std::fs::remove_file(folder.join("meta.json")).unwrap();
    let assumed = run(&step("solve target/tmp/cli_book/stack_np"), None);
    let law = r#"{"law": "ccp"}"#;
    std::fs::write(folder.join("meta.json"), law).unwrap();
    let stated = run(&step("solve target/tmp/cli_book/stack_np"), None);
    support::publish(
        "generated/cli_numpy.txt",
        &format!(
            "{convert}\n$ rm target/tmp/cli_book/stack_np/meta.json\n{assumed}\n\
             $ echo '{law}' > target/tmp/cli_book/stack_np/meta.json\n{stated}"
        ),
    );
}

/// `--kind` on problems without a friction law: refused, alone or in a folder.
#[test]
fn kind_without_friction() {
    let dir = scratch();
    let lcp = "2 0 2 2 2 2 2 1 1 2 -5 -6\n";
    std::fs::write(dir.join("lcp.dat"), lcp).unwrap();
    let mixed = dir.join("mixed");
    std::fs::create_dir_all(&mixed).unwrap();
    std::fs::write(mixed.join("lcp.dat"), lcp).unwrap();
    std::fs::copy(
        support::root().join("data/box_stack_5.json"),
        mixed.join("box_stack_5.json"),
    )
    .unwrap();
    session(
        "cli_kind",
        &[
            step("solve --kind coulomb lcp.dat")
                .in_scratch()
                .with_status(),
            step("check --kind coulomb lcp.dat --answer lcp.dat")
                .in_scratch()
                .with_status(),
            step("solve --kind ccp mixed").in_scratch().with_status(),
        ],
        None,
    );
}

/// The registry listed, options set with --set, and an answer kept with --out, judged by
/// `check` and used again as a warm start.
#[test]
fn methods_and_answers() {
    session("cli_methods", &[step("methods")], None);
    let dir = scratch();
    std::fs::copy(
        support::root().join("data/pyramid_3.json"),
        dir.join("pyramid_3.json"),
    )
    .unwrap();
    session(
        "cli_out",
        &[
            step("solve pyramid_3.json --method prox-gs --set window=100 --out answer.json")
                .in_scratch(),
            step("check pyramid_3.json --answer answer.json --worst 2").in_scratch(),
            step("solve pyramid_3.json --out answer.npy").in_scratch(),
            step("solve pyramid_3.json --tol 1e-12").in_scratch(),
            step("solve pyramid_3.json --tol 1e-12 --warm-start answer.npy").in_scratch(),
            step("solve pyramid_3.json --method nsgs --set omega=1.2")
                .in_scratch()
                .with_status(),
        ],
        None,
    );
}

#[test]
fn usage_errors() {
    session(
        "cli_errors",
        &[
            step("solve --method simplex data/box_stack_5.json").with_status(),
            step("check data/box_stack_5.json").with_status(),
        ],
        None,
    );
}

/// MuJoCo's contact dimensions (issues 9 and 32: condim 4 read as a generic problem), on
/// the small exports in `tests/fixtures/mujoco/` (made by MuJoCo 4.0.0, no shared data
/// needed).
#[test]
fn mujoco_condim_sessions() {
    session(
        "cli_mujoco_condim",
        &[
            step("check tests/fixtures/mujoco/condim4_sphere_elliptic.json").with_status(),
            step("check tests/fixtures/mujoco/condim13_spheres_elliptic.json").with_status(),
        ],
        None,
    );
}

#[test]
fn shared_data_sessions() {
    let Some(shared) = support::shared_data() else {
        return;
    };
    let slab = "data/mujoco/mujoco_sliding_slab_elliptic.json";
    session(
        "cli_check_mujoco",
        &[
            step(&format!("check {slab}")).with_status(),
            step(&format!("check --kind coulomb {slab}")).with_status(),
            step("check data/mujoco/mujoco_box_stack4_pyramidal.json").with_status(),
        ],
        Some(&shared),
    );
    session(
        "cli_check_pyramidal",
        &[
            step("check --worst 4 --sort distance data/mujoco/mujoco_box_stack4_pyramidal.json")
                .with_status(),
        ],
        Some(&shared),
    );
    session(
        "cli_info_shared",
        &[step(
            "info data/siconos/fc3d/Rover1039.dat data/opentissue/dlm/72 \
             data/mujoco/mujoco_box_stack4_pyramidal.json",
        )],
        Some(&shared),
    );
    session(
        "cli_solve_shared",
        &[
            step("solve --method psor --omega 1.3 data/opentissue/dlm/72"),
            step("solve --method lemke data/siconos/lcp/lcp_CPS_3.dat data/siconos/lcp/lcp_ortiz.dat")
                .with_status(),
            step("solve data/siconos/lcp/lcp_CPS_3.dat"),
        ],
        Some(&shared),
    );
}
