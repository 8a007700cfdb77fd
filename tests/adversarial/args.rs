//! Argument cases: bad values, sizes that do not fit, outputs that are inputs, closed
//! pipes. Each runs in a scratch folder prepared by the runner.
//!
//! Placeholders in the arguments, replaced by the runner with absolute paths:
//! `{fc}` a valid fc3d JSON file with an embedded answer, `{lcp}` a valid Siconos LCP,
//! `{box}` a valid boxed LCP (JSON), `{bad}` a malformed `.dat`, `{dir}` a folder with
//! `{fc}` and `{lcp}` in it, `{many}` a folder of 30 infeasible LCPs, `{out}` an empty
//! folder for outputs, `{pipe}` a FIFO nobody writes, `{nope}` a path that does not exist,
//! `{in}` a folder holding the case's own `files`.

/// Something to check after the command ran.
#[derive(Debug, Clone)]
pub enum Post {
    /// This path (placeholders allowed) must read back (`info --json`) as this type.
    ReadsBackAs(&'static str, &'static str),
    /// This path must exist.
    Exists(&'static str),
}

/// One argument case.
#[derive(Debug, Clone)]
pub struct ArgCase {
    pub name: String,
    pub why: String,
    /// Files written under `{in}` before the command (path relative to `{in}`, content).
    pub files: Vec<(String, Vec<u8>)>,
    /// Exit statuses accepted besides `exit`; a nonzero status still needs a clear
    /// message with the `mentions`.
    pub also: Vec<i32>,
    /// Status 1 with nothing on standard error and a report on standard output is a
    /// verdict (`check`: not consistent), not an error that needs a message.
    pub verdict: bool,
    /// Commands run first (their exit status is not checked).
    pub pre: Vec<Vec<String>>,
    pub args: Vec<String>,
    /// The exit status required.
    pub exit: i32,
    /// Text the error message must contain (case-insensitive).
    pub mentions: Vec<String>,
    pub post: Vec<Post>,
    /// Read this many lines of standard output, then close the pipe (as `| head -n N`).
    pub head: Option<usize>,
}

fn a(
    name: &'static str,
    why: &'static str,
    args: &str,
    exit: i32,
    mentions: &[&'static str],
) -> ArgCase {
    ArgCase {
        name: name.to_string(),
        why: why.to_string(),
        files: Vec::new(),
        also: Vec::new(),
        verdict: false,
        pre: Vec::new(),
        args: split(args),
        exit,
        mentions: mentions.iter().map(|m| m.to_string()).collect(),
        post: Vec::new(),
        head: None,
    }
}

fn split(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// Issue 28: every option that writes a file, against its inputs and its sibling outputs.
fn writer_cases() -> Vec<ArgCase> {
    let mut profile = a(
        "writers-profile-plot-over-campaign",
        "issue 28: bench profile --plot replaced the campaign with the SVG",
        "bench profile {out}/c.jsonl --plot {out}/c.jsonl",
        2,
        &["is the input"],
    );
    profile.pre = vec![split("bench {lcp} -m pgs,psor --jsonl {out}/c.jsonl")];
    let mut scene = a(
        "writers-save-scene-over-scene",
        "issue 28: simulate scene.json --save-scene scene.json rewrote the input",
        "simulate {out}/scene.json --steps 1 --save-scene {out}/scene.json",
        2,
        &["is the input"],
    );
    scene.pre = vec![split(
        "simulate box-stack --n 2 --steps 1 --quiet --save-scene {out}/scene.json",
    )];
    vec![
        a(
            "writers-bench-jsonl-over-problem",
            "issue 28: bench victim --jsonl victim truncated the problem to 0 bytes",
            "bench {fc} -m nsgs --jsonl {fc}",
            2,
            &["is the input"],
        ),
        profile,
        scene,
        a(
            "writers-save-scene-and-out",
            "issue 28: --save-scene k.json --out k.json overwrote k.json, then refused",
            "simulate box-stack --n 2 --steps 1 --save-scene {out}/k.json --out {out}/k.json",
            2,
            &["same path"],
        ),
        a(
            "writers-out-and-records",
            "issue 28: --out x --records x lost the trajectory",
            "simulate box-stack --n 2 --steps 1 --out {out}/s.jsonl --records {out}/s.jsonl",
            2,
            &["same path"],
        ),
        a(
            "writers-animate-missing-folder",
            "issue 28: --animate into a missing folder was found only after the whole run",
            "simulate box-stack --n 2 --steps 100000000 --animate {nope}/a.svg",
            2,
            &["does not exist"],
        ),
        a(
            "writers-bench-scene-with-paths",
            "issue 28: bench PATH --scene ignored the path",
            "bench {fc} --scene box-stack --contacts 10",
            2,
            &["reads no files"],
        ),
    ]
}

/// Every argument case.
pub fn all() -> Vec<ArgCase> {
    let mut v = vec![
        // --- numbers that are not numbers, or out of range
        a(
            "solve-tol-inf",
            "issue 8: --tol inf reported converged with error 1.0",
            "solve {fc} --tol inf",
            2,
            &["tol"],
        ),
        a(
            "solve-tol-nan",
            "issue 8: --tol nan was accepted",
            "solve {fc} --tol nan",
            2,
            &["tol"],
        ),
        a(
            "solve-tol-negative",
            "issue 8: negative tolerances are usage errors",
            "solve {fc} --tol -1",
            2,
            &["tol"],
        ),
        a(
            "solve-tol-text",
            "a tolerance that is not a number",
            "solve {fc} --tol small",
            2,
            &["tol"],
        ),
        a(
            "solve-tol-twice",
            "the same option twice",
            "solve {fc} --tol 1e-8 --tol 1e-6",
            2,
            &["tol"],
        ),
        a(
            "solve-max-iter-negative",
            "a negative iteration cap",
            "solve {fc} --max-iter -1",
            2,
            &["max-iter"],
        ),
        a(
            "solve-max-iter-overflow",
            "an iteration cap beyond u64",
            "solve {fc} --max-iter 18446744073709551616",
            2,
            &["max-iter"],
        ),
        a(
            "solve-max-iter-zero",
            "zero iterations: a usage error (a cap must allow one iteration)",
            "solve {lcp} --method pgs --max-iter 0",
            2,
            &["iteration cap"],
        ),
        a(
            "solve-method-unknown",
            "an unknown method",
            "solve {fc} --method magic",
            2,
            &["magic"],
        ),
        a(
            "solve-method-empty",
            "an empty method name",
            "solve {fc} --method=",
            2,
            &["method"],
        ),
        a(
            "solve-method-not-applicable",
            "Lemke on a friction problem",
            "solve {fc} --method lemke",
            1,
            &["lemke"],
        ),
        a(
            "solve-omega-nan",
            "a NaN relaxation factor",
            "solve {lcp} --method psor --omega nan",
            2,
            &["omega"],
        ),
        a(
            "solve-omega-zero",
            "omega = 0 never moves",
            "solve {lcp} --method psor --omega 0",
            2,
            &["omega"],
        ),
        a(
            "solve-omega-above-2",
            "SOR diverges for omega >= 2",
            "solve {lcp} --method psor --omega 2.5",
            2,
            &["omega"],
        ),
        a(
            "solve-omega-negative",
            "a negative relaxation factor",
            "solve {lcp} --method pj --omega -1",
            2,
            &["omega"],
        ),
        a(
            "solve-omega-inf",
            "an infinite relaxation factor",
            "solve {lcp} --method psor --omega inf",
            2,
            &["omega"],
        ),
        a(
            "solve-r-factor-unknown",
            "an unknown r-factor strategy",
            "solve {fc} --method prox-gs --r-factor best",
            2,
            &["r-factor"],
        ),
        a(
            "solve-r-factor-nan",
            "a NaN r-factor",
            "solve {fc} --method prox-gs --r-factor global=nan",
            2,
            &["r"],
        ),
        a(
            "solve-r-factor-zero",
            "r = 0 makes the proximal step infinite",
            "solve {fc} --method prox-gs --r-factor global=0",
            2,
            &["r"],
        ),
        a(
            "solve-r-factor-negative",
            "a negative r-factor",
            "solve {fc} --method prox-gs --r-factor global=-5",
            2,
            &["r"],
        ),
        a(
            "solve-r-factor-inf",
            "an infinite r-factor",
            "solve {fc} --method prox-gs --r-factor global=inf",
            2,
            &["r"],
        ),
        a(
            "solve-omega-for-prox",
            "issue 9: --omega was silently ignored by the PROX methods; it now sets their omega",
            "solve {fc} --method prox-gs --omega 1.2",
            0,
            &[],
        ),
        a(
            "solve-omega-for-auto",
            "auto never runs pj or psor, so --omega would be ignored",
            "solve {lcp} --omega 1.2",
            2,
            &["`auto` picks a method per problem and takes no options"],
        ),
        a(
            "solve-r-factor-for-nsgs",
            "--r-factor would be ignored by a method that is not PROX",
            "solve {fc} --method nsgs --r-factor local",
            2,
            &["method `nsgs` has no option `r_factor`"],
        ),
        a(
            "solve-window-for-pgs",
            "--window would be ignored by a method that is not PROX",
            "solve {lcp} --method pgs --window 10",
            2,
            &["method `pgs` has no option `window`"],
        ),
        a(
            "solve-window-zero",
            "a divergence test over no sweeps rolls back every sweep",
            "solve {fc} --method prox-gs --window 0",
            2,
            &["window"],
        ),
        a(
            "solve-window-negative",
            "a negative window",
            "solve {fc} --method prox-jacobi --window -3",
            2,
            &["window"],
        ),
        a(
            "solve-window-overflow",
            "a window beyond usize",
            "solve {fc} --method prox-gs --window 18446744073709551616",
            2,
            &["window"],
        ),
        a(
            "solve-kind-unknown",
            "an unknown friction law",
            "solve {fc} --kind tresca",
            2,
            &["tresca"],
        ),
        a(
            "solve-measure-unknown",
            "an unknown measure",
            "solve {fc} --measure l1",
            2,
            &["measure"],
        ),
        a(
            "solve-format-unknown",
            "an unknown output format",
            "solve {fc} --format xml",
            2,
            &["xml"],
        ),
        a(
            "solve-tol-tiny",
            "a tolerance no method can reach stops at the cap",
            "solve {fc} --tol 1e-300 --max-iter 5 --method nsgs",
            1,
            &[],
        ),
        a("solve-ok", "a plain solve", "solve {fc}", 0, &[]),
        a(
            "solve-dir-twice",
            "the same folder twice",
            "solve {dir} {dir}",
            0,
            &[],
        ),
        // --- paths
        a(
            "solve-missing",
            "a path that does not exist",
            "solve {nope}",
            2,
            &["{nope}"],
        ),
        a("solve-no-paths", "no path at all", "solve", 2, &["PATHS"]),
        a(
            "solve-dev-zero",
            "issue 8: /dev/zero read until memory ran out",
            "solve /dev/zero",
            1,
            &["/dev/zero", "regular file"],
        ),
        a(
            "solve-dev-null",
            "an empty device",
            "solve /dev/null",
            1,
            &["/dev/null"],
        ),
        a(
            "solve-fifo",
            "issue 8: a FIFO blocked forever",
            "solve {pipe}",
            1,
            &["{pipe}", "regular file"],
        ),
        a(
            "info-missing",
            "a path that does not exist",
            "info {nope}",
            2,
            &["{nope}"],
        ),
        a(
            "info-dev-zero",
            "issue 8: /dev/zero",
            "info /dev/zero",
            1,
            &["/dev/zero"],
        ),
        a(
            "info-fifo",
            "issue 8: a FIFO",
            "info {pipe}",
            1,
            &["{pipe}"],
        ),
        a("info-ok", "a plain info", "info {dir} --json", 0, &[]),
        // --- outputs that are inputs
        a(
            "solve-history-is-input",
            "issue 8: solve X --history X truncated the input before reading it",
            "solve {fc} --history {fc}",
            2,
            &["{fc}", "history"],
        ),
        a(
            "solve-history-is-input-in-folder",
            "the history file is one of the problems found under a folder",
            "solve {dir} --history {lcp}",
            2,
            &["{lcp}"],
        ),
        a(
            "solve-history-is-folder",
            "a history path that is a folder",
            "solve {fc} --history {out}",
            2,
            &["{out}"],
        ),
        a(
            "solve-history-unwritable",
            "a history path in a folder that does not exist",
            "solve {fc} --history {nope}/h.csv",
            2,
            &["{nope}"],
        ),
        a(
            "solve-history-ok",
            "a history file is written",
            "solve {fc} --history {out}/h.csv",
            0,
            &[],
        ),
        a(
            "convert-to-itself-siconos",
            "issue 8: convert X --to siconos -o X overwrote its input",
            "convert {lcp} --to siconos -o {lcp}",
            2,
            &["{lcp}"],
        ),
        a(
            "convert-to-itself-json",
            "the same with JSON",
            "convert {fc} --to json -o {fc}",
            2,
            &["{fc}"],
        ),
        a(
            "convert-to-itself-alias",
            "the input under another spelling",
            "convert {fc} --to json -o {dir}/../dir/fc.json",
            2,
            &["fc.json"],
        ),
        a(
            "convert-numpy-into-file",
            "a NumPy output that is a regular file",
            "convert {fc} --to numpy -o {lcp}",
            2,
            &["{lcp}"],
        ),
        a(
            "convert-numpy-into-input-folder",
            "a NumPy output that is the folder holding the input",
            "convert {fc} --to numpy -o {dir}",
            2,
            &["{dir}"],
        ),
        a(
            "convert-unknown-format",
            "an unknown output format",
            "convert {fc} --to xml -o {out}/x",
            2,
            &["xml"],
        ),
        a(
            "convert-no-output",
            "no -o",
            "convert {fc} --to json",
            2,
            &["output"],
        ),
        a(
            "convert-unwritable",
            "an output folder that does not exist",
            "convert {fc} --to json -o {nope}/x.json",
            2,
            &["{nope}"],
        ),
        a(
            "convert-boxed-to-siconos",
            "Siconos has no boxed-LCP format",
            "convert {box} --to siconos -o {out}/b.dat",
            1,
            &["boxed"],
        ),
        a(
            "convert-malformed",
            "a malformed input",
            "convert {bad} --to json -o {out}/b.json",
            1,
            &["{bad}"],
        ),
        a(
            "convert-folder-of-many",
            "convert takes one problem",
            "convert {dir} --to json -o {out}/d.json",
            2,
            &["{dir}"],
        ),
        a(
            "convert-stdout",
            "`-o -` writes to standard output",
            "convert {fc} --to json -o -",
            0,
            &[],
        ),
        a(
            "check-no-answer",
            "an LCP file carries no answer",
            "check {lcp}",
            2,
            &["--answer"],
        ),
        a(
            "check-answer-missing",
            "an answer file that does not exist",
            "check {fc} --answer {nope}",
            2,
            &["{nope}"],
        ),
        a(
            "check-answer-dev-zero",
            "an answer that never ends",
            "check {fc} --answer /dev/zero",
            1,
            &["/dev/zero"],
        ),
        a(
            "check-answer-fifo",
            "an answer that blocks",
            "check {fc} --answer {pipe}",
            1,
            &["{pipe}"],
        ),
        a(
            "check-tol-nan",
            "a NaN tolerance",
            "check {fc} --tol nan",
            2,
            &["tol"],
        ),
        a(
            "check-tol-negative",
            "a negative tolerance",
            "check {fc} --tol -1e-8",
            2,
            &["tol"],
        ),
        a(
            "check-tol-inf",
            "an infinite tolerance accepts everything",
            "check {fc} --tol inf",
            2,
            &["tol"],
        ),
        a(
            "check-ok",
            "the embedded answer is right",
            "check {fc}",
            0,
            &[],
        ),
        a(
            "check-malformed",
            "a malformed problem",
            "check {bad} --answer {fc}",
            1,
            &["{bad}"],
        ),
        a(
            "check-missing",
            "a problem that does not exist",
            "check {nope}",
            2,
            &["{nope}"],
        ),
        // --- a friction law for a problem without friction
        a(
            "solve-kind-on-lcp",
            "issue 9: --kind coulomb on an LCP was ignored (Lemke ran, zero contacts)",
            "solve {lcp} --kind coulomb",
            1,
            &["{lcp}", "lcp", "--kind coulomb", "friction problems"],
        ),
        a(
            "solve-kind-on-boxed",
            "issue 9: the same on a boxed LCP",
            "solve {box} --kind ccp",
            1,
            &["{box}", "boxed lcp", "--kind ccp", "friction problems"],
        ),
        a(
            "solve-kind-in-folder",
            "issue 9: in a folder, the LCP's row is refused, the friction problem solved",
            "solve {dir} --kind ccp",
            1,
            &["lcp", "--kind ccp", "friction problems"],
        ),
        a(
            "check-kind-on-lcp",
            "issue 9: check --kind on an LCP still said consistent",
            "check {lcp} --kind coulomb --answer {lcp}",
            1,
            &["{lcp}", "lcp", "--kind coulomb", "friction problems"],
        ),
        // --- sizes
        a(
            "generate-n-max",
            "issue 8: --n 18446744073709551615 panicked (capacity overflow)",
            "generate box-stack --n 18446744073709551615",
            2,
            &["--n"],
        ),
        a(
            "generate-n-huge",
            "a stack of 10^8 boxes",
            "generate box-stack --n 100000000",
            2,
            &["--n"],
        ),
        a(
            "generate-n-zero",
            "a stack of no boxes",
            "generate box-stack --n 0",
            2,
            &["--n"],
        ),
        a(
            "generate-contacts-max",
            "issue 8: --contacts of that size looped forever",
            "generate pyramid --contacts 18446744073709551615",
            2,
            &["--contacts"],
        ),
        a(
            "generate-contacts-huge-wall",
            "issue 8: --contacts allocated 42 GB",
            "generate wall --contacts 1000000000000",
            2,
            &["--contacts"],
        ),
        a(
            "generate-contacts-zero",
            "no contacts",
            "generate box-stack --contacts 0",
            2,
            &["--contacts"],
        ),
        a(
            "generate-rows-zero",
            "a wall without courses",
            "generate wall --rows 0",
            2,
            &["--rows"],
        ),
        a(
            "generate-cols-huge",
            "a wall 10^12 bricks long",
            "generate wall --cols 1000000000000",
            2,
            &["--cols"],
        ),
        a(
            "generate-base-max",
            "a pyramid of u64::MAX",
            "generate pyramid --base 18446744073709551615",
            2,
            &["--base"],
        ),
        a(
            "generate-ratio-nan",
            "a NaN mass ratio",
            "generate heavy-on-light --ratio nan",
            2,
            &["ratio"],
        ),
        a(
            "generate-ratio-negative",
            "a negative mass ratio",
            "generate heavy-on-light --ratio -5",
            2,
            &["ratio"],
        ),
        a(
            "generate-ratio-zero",
            "a massless box",
            "generate heavy-on-light --ratio 0",
            2,
            &["ratio"],
        ),
        a(
            "generate-ratio-inf",
            "an infinite mass ratio",
            "generate heavy-on-light --ratio inf",
            2,
            &["ratio"],
        ),
        a(
            "generate-scene-unknown",
            "an unknown scene",
            "generate tower",
            2,
            &["tower"],
        ),
        a(
            "generate-kind-unknown",
            "an unknown law",
            "generate box-stack --kind tresca",
            2,
            &["tresca"],
        ),
        a(
            "generate-unwritable",
            "an output folder that does not exist",
            "generate box-stack -o {nope}/x.json",
            2,
            &["{nope}"],
        ),
        a(
            "generate-ok",
            "a generated file reads back",
            "generate box-stack --n 3 -o {out}/g.json",
            0,
            &[],
        ),
        a(
            "generate-contacts-not-applicable",
            "--contacts with heavy-on-light",
            "generate heavy-on-light --contacts 10",
            2,
            &["contacts"],
        ),
        a(
            "bench-missing",
            "a path that does not exist",
            "bench {nope}",
            2,
            &["{nope}"],
        ),
        a(
            "bench-malformed",
            "issue 8: bench on an unreadable file exited 0",
            "bench {bad}",
            1,
            &["{bad}"],
        ),
        a(
            "bench-scene-contacts-max",
            "issue 8: bench --scene of any size",
            "bench --scene box-stack --contacts 18446744073709551615",
            2,
            &["contacts"],
        ),
        a(
            "bench-scene-contacts-huge",
            "a scene too large for memory",
            "bench --scene pyramid --contacts 100000000",
            2,
            &["contacts"],
        ),
        a(
            "bench-scene-contacts-zero",
            "a scene with no contacts",
            "bench --scene wall --contacts 0",
            2,
            &["contacts"],
        ),
        a(
            "bench-scene-unknown",
            "an unknown scene",
            "bench --scene tower",
            2,
            &["tower"],
        ),
        a(
            "bench-sweeps-zero",
            "nothing to time",
            "bench {fc} --sweeps 0",
            2,
            &["sweeps"],
        ),
        a(
            "bench-sweeps-max",
            "a run that never ends",
            "bench {fc} --sweeps 18446744073709551615",
            2,
            &["sweeps"],
        ),
        a(
            "bench-repeat-zero",
            "no timed run",
            "bench {fc} --repeat 0",
            2,
            &["repeat"],
        ),
        a(
            "bench-tol-nan",
            "a NaN tolerance",
            "bench {fc} --method nsn --tol nan",
            2,
            &["tol"],
        ),
        a(
            "bench-format-unknown",
            "an unknown output format",
            "bench {fc} --format xml",
            2,
            &["xml"],
        ),
        a(
            "bench-method-unsupported",
            "a method that does not apply to the problem",
            "bench {fc} --method lemke",
            1,
            &["lemke"],
        ),
        a(
            "bench-ok",
            "a plain bench",
            "bench {fc} --sweeps 10 --repeat 1",
            0,
            &[],
        ),
        // --- the program itself
        a("no-subcommand", "no subcommand", "", 2, &["Usage"]),
        a(
            "unknown-subcommand",
            "an unknown subcommand",
            "optimise {fc}",
            2,
            &["optimise"],
        ),
        a("version", "--version", "--version", 0, &[]),
        a("help", "--help", "--help", 0, &[]),
        a("solve-help", "solve --help", "solve --help", 0, &[]),
        a(
            "unknown-flag",
            "an unknown flag",
            "solve {fc} --fast",
            2,
            &["--fast"],
        ),
    ];
    // Closed pipe: nothing converged, so the status must not be 0.
    let mut head = a(
        "solve-head-nothing-converged",
        "issue 8: `solve ... | head` exited 0 though nothing converged",
        "solve {many} --method lemke",
        1,
        &[],
    );
    head.head = Some(1);
    v.push(head);
    let mut head_json = a(
        "solve-head-json",
        "the same with --json",
        "solve {many} --json --method lemke",
        1,
        &[],
    );
    head_json.head = Some(1);
    v.push(head_json);
    // A NumPy folder that held another problem is replaced, not mixed.
    let mut stale = a(
        "convert-numpy-over-other-problem",
        "issue 8: convert --to numpy into a folder that held another problem left stale arrays read back as the old problem",
        "convert {lcp} --to numpy -o {out}/np",
        0,
        &[],
    );
    stale.pre = vec![split("convert {fc} --to numpy -o {out}/np")];
    stale.post = vec![Post::ReadsBackAs("{out}/np", "lcp")];
    v.push(stale);
    let mut stale2 = a(
        "convert-numpy-over-other-problem-reverse",
        "the same the other way round",
        "convert {fc} --to numpy -o {out}/np",
        0,
        &[],
    );
    stale2.pre = vec![split("convert {box} --to numpy -o {out}/np")];
    stale2.post = vec![Post::ReadsBackAs("{out}/np", "fc3d")];
    v.push(stale2);
    let mut foreign = a(
        "convert-numpy-into-foreign-folder",
        "a folder holding files that are not a NumPy problem is not overwritten",
        "convert {fc} --to numpy -o {out}",
        2,
        &["{out}"],
    );
    foreign.pre = vec![split("generate box-stack --n 2 -o {out}/keep.json")];
    foreign.post = vec![Post::Exists("{out}/keep.json")];
    v.push(foreign);
    // NumPy answers for check (the folder's arrays, written by convert).
    let npy_answer = |name, why, answer: &str, exit, mentions: &[&'static str]| {
        let mut c = a(
            name,
            why,
            &format!("check {{fc}} --answer {{out}}/np/{answer}"),
            exit,
            mentions,
        );
        c.pre = vec![split("convert {fc} --to numpy -o {out}/np")];
        c
    };
    v.push(npy_answer(
        "check-answer-npy",
        "issue 9: check --answer refused an .npy answer",
        "r.npy",
        0,
        &[],
    ));
    v.push(npy_answer(
        "check-answer-npy-2d",
        "a 2-D array as the answer",
        "W.npy",
        1,
        &["W.npy", "2-dimensional"],
    ));
    v.push(npy_answer(
        "check-answer-npy-length",
        "an .npy answer of the wrong length",
        "mu.npy",
        1,
        &["mu.npy", "numbers", "unknowns"],
    ));
    let mut json_ok = a(
        "convert-json-reads-back",
        "a converted file reads back as the same type",
        "convert {box} --to json -o {out}/b.json",
        0,
        &[],
    );
    json_ok.post = vec![Post::ReadsBackAs("{out}/b.json", "boxed-lcp")];
    v.push(json_ok);
    let mut hist = a(
        "solve-history-written",
        "the history file exists after a solve",
        "solve {fc} --history {out}/h.csv",
        0,
        &[],
    );
    hist.post = vec![Post::Exists("{out}/h.csv")];
    v.push(hist);
    v.extend(writer_cases());
    v
}
