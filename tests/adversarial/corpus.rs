//! The adversarial corpus: malformed and adversarial inputs for every format and every
//! subcommand, numerically nasty but valid problems, and argument cases, generated from a
//! seed (same bytes on every machine and every run).
//!
//! Each case says what the program must do with it ([`Expect`]); `tests/adversarial.rs`
//! runs every case through every subcommand (and `solve` with every method) and checks it.
//! `cargo run --example adversarial_corpus -- OUT` writes the corpus to a folder.

use nonsmooth::io::numpy::{header, npz};

use super::rng::{Rng, pick};
use super::seeds::{self, Seed, f64_bytes, i64_bytes, npy_f64, npy_header, npy_raw};

/// The seed of the corpus. Changing it changes the mutations, not the hand-made cases.
pub const SEED: u64 = 0x6e6f_6e73_6d6f_6f74; // "nonsmoot"

/// What a file of a case is.
#[derive(Debug, Clone)]
pub enum Content {
    /// A regular file with these bytes.
    Bytes(Vec<u8>),
    /// A named pipe (FIFO) that nobody writes to: a reader that opens it blocks forever.
    Fifo,
    /// An empty directory.
    Dir,
    /// A symbolic link to this target (relative to the link's folder, or absolute).
    Link(String),
}

/// One file of a case, relative to the case folder.
#[derive(Debug, Clone)]
pub struct File {
    pub path: String,
    pub content: Content,
}

/// An answer to judge with `check --answer`, and whether it must be accepted.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The answer file's name (written beside the case).
    pub file: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// `check` must accept it (exit 0) or reject it (exit 1).
    pub accepted: bool,
}

/// What the program must do with a case.
#[derive(Debug, Clone)]
pub enum Expect {
    /// Not a readable problem: `info`, `solve` (every method), `check` and `convert` exit 1
    /// with a message that names the file and contains each of `mentions`.
    Reject { mentions: Vec<String> },
    /// A path under which there is no problem: `info` and `solve` exit 2 and say so.
    Nothing { mentions: Vec<String> },
    /// A valid problem: `info` exits 0; `solve` exits 0 or 1 with every method, and every
    /// method listed in `must_converge` converges; a "converged" answer must be right
    /// (judged independently in process); `convert` writes a file that reads back.
    Valid(Valid),
    /// A mutation: either `Reject` (any clear message naming the file) or `Valid`, as the
    /// readers decide; never a crash, a hang or an unclear message.
    Either,
}

/// What a valid case requires beyond being read.
#[derive(Debug, Clone, Default)]
pub struct Valid {
    /// Methods (command-line names) that must converge at the default tolerance.
    pub must_converge: Vec<&'static str>,
    /// Answers to judge with `check`.
    pub answers: Vec<Answer>,
    /// Text `info` must not print (a wrong rank, a false "singular").
    pub info_must_not_say: Vec<&'static str>,
    /// Text `info` must print on standard error (a warning).
    pub info_must_warn: Vec<&'static str>,
    /// Too large to solve in process or to convert densely: only the command line runs
    /// it (under a memory limit), and `convert --to numpy` must refuse it.
    pub large: bool,
}

/// One input of the corpus.
#[derive(Debug, Clone)]
pub struct Case {
    /// Unique name, also the folder name when written (`npy/shape-parens-reversed`).
    pub name: String,
    /// Why it is here: the issue bullet it reproduces, or the mutation applied.
    pub why: String,
    /// Its files.
    pub files: Vec<File>,
    /// The path given to the program, relative to the case folder.
    pub input: String,
    /// What must happen.
    pub expect: Expect,
}

fn bytes(path: &str, b: impl Into<Vec<u8>>) -> File {
    File {
        path: path.to_string(),
        content: Content::Bytes(b.into()),
    }
}

fn reject(mentions: &[&str]) -> Expect {
    Expect::Reject {
        mentions: mentions.iter().map(|s| s.to_string()).collect(),
    }
}

fn valid(must_converge: &[&'static str]) -> Valid {
    Valid {
        must_converge: must_converge.to_vec(),
        ..Default::default()
    }
}

fn case(name: &str, why: &str, files: Vec<File>, input: &str, expect: Expect) -> Case {
    Case {
        name: name.to_string(),
        why: why.to_string(),
        files,
        input: input.to_string(),
        expect,
    }
}

fn one(name: &str, why: &str, file: &str, text: impl Into<Vec<u8>>, expect: Expect) -> Case {
    case(name, why, vec![bytes(file, text)], file, expect)
}

/// A number in the shortest form that reads back exactly (`1e-17`, `0.5`).
fn num(x: f64) -> String {
    format!("{x:e}")
}

fn list(v: &[f64]) -> String {
    v.iter().map(|x| num(*x)).collect::<Vec<_>>().join(", ")
}

/// The project's JSON for an fc3d problem with a dense `W` given row by row.
pub fn fc3d_json(name: &str, w: &[Vec<f64>], q: &[f64], mu: &[f64], law: &str) -> String {
    let n = w.len();
    let rows: Vec<String> = w.iter().map(|r| format!("[{}]", list(r))).collect();
    format!(
        r#"{{"format": "nonsmooth-problem", "version": 1, "name": "{name}", "type": "fc3d", "law": "{law}", "data": {{"W": {{"storage": "dense", "nrows": {n}, "ncols": {n}, "rows": [{}]}}, "q": [{}], "mu": [{}]}}}}"#,
        rows.join(", "),
        list(q),
        list(mu)
    ) + "\n"
}

/// The project's JSON for an LCP with a dense `A` given row by row.
pub fn lcp_json(name: &str, a: &[Vec<f64>], b: &[f64]) -> String {
    let n = a.len();
    let rows: Vec<String> = a.iter().map(|r| format!("[{}]", list(r))).collect();
    format!(
        r#"{{"format": "nonsmooth-problem", "version": 1, "name": "{name}", "type": "lcp", "data": {{"A": {{"storage": "dense", "nrows": {n}, "ncols": {n}, "rows": [{}]}}, "b": [{}]}}}}"#,
        rows.join(", "),
        list(b)
    ) + "\n"
}

fn identity(n: usize, s: f64) -> Vec<Vec<f64>> {
    (0..n)
        .map(|i| (0..n).map(|j| if i == j { s } else { 0.0 }).collect())
        .collect()
}

fn block_diag(blocks: &[[[f64; 3]; 3]]) -> Vec<Vec<f64>> {
    let n = 3 * blocks.len();
    let mut w = vec![vec![0.0; n]; n];
    for (c, b) in blocks.iter().enumerate() {
        for i in 0..3 {
            for j in 0..3 {
                w[3 * c + i][3 * c + j] = b[i][j];
            }
        }
    }
    w
}

/// The whole corpus: hand-made cases (each issue bullet), mutations of every seed, and
/// the nasty valid problems.
pub fn corpus() -> Vec<Case> {
    let mut v = Vec::new();
    v.extend(seed_cases());
    v.extend(npy_cases());
    v.extend(size_cases());
    v.extend(special_file_cases());
    v.extend(message_cases());
    v.extend(nasty_valid_cases());
    v.extend(gmp_cases());
    v.extend(strict_cases());
    v.extend(npz_cases());
    let mut rng = Rng::new(SEED);
    for s in seeds::all() {
        v.extend(mutations(&s, &mut rng));
    }
    v.extend(hdf5_cases(&mut rng));
    v
}

/// Issue 28: keys and arrays a reader does not use are errors that name them (they were
/// dropped, and a file that meant the CCP was solved as Coulomb).
fn strict_cases() -> Vec<Case> {
    let fc = fc3d_json("s", &identity(3, 1.0), &[-1.0, 0.0, 0.0], &[0.5], "ccp");
    let with = |key: &str, value: &str| fc.replacen('{', &format!("{{\"{key}\": {value}, "), 1);
    let data_with = |key: &str, value: &str| {
        fc.replacen(
            "\"data\": {",
            &format!("\"data\": {{\"{key}\": {value}, "),
            1,
        )
    };
    vec![
        one(
            "strict/json-law-capitalised",
            "issue 28: \"Law\" was ignored and the problem solved as Coulomb",
            "p.json",
            with("Law", "\"ccp\""),
            reject(&["unknown field `Law`"]),
        ),
        one(
            "strict/json-kind",
            "issue 28: \"kind\" was ignored",
            "p.json",
            with("kind", "\"ccp\""),
            reject(&["unknown field `kind`"]),
        ),
        one(
            "strict/json-provenance-key",
            "issue 28: an unknown provenance key was ignored",
            "p.json",
            with("provenance", "{\"author\": \"me\"}"),
            reject(&["unknown field `author`"]),
        ),
        one(
            "strict/json-data-of-another-type",
            "issue 28: an LCP's A in an fc3d problem was dropped",
            "p.json",
            data_with(
                "A",
                "{\"storage\": \"dense\", \"nrows\": 1, \"ncols\": 1, \"rows\": [[1]]}",
            ),
            reject(&["data.A", "does not belong"]),
        ),
        one(
            "strict/json-labels-count",
            "issue 28: labels for 1 of 2 contacts were kept",
            "p.json",
            fc3d_json(
                "s",
                &identity(6, 1.0),
                &[-1.0, 0.0, 0.0, -1.0, 0.0, 0.0],
                &[0.5, 0.5],
                "ccp",
            )
            .replacen('{', "{\"provenance\": {\"labels\": [\"a\"]}, ", 1),
            reject(&["1 labels for 2 contacts"]),
        ),
        one(
            "strict/json-matrix-key",
            "issue 28: a matrix key of the other storage was ignored",
            "p.json",
            fc.replacen(
                "\"storage\": \"dense\",",
                "\"storage\": \"dense\", \"entries\": [],",
                1,
            ),
            reject(&["`entries` does not belong"]),
        ),
        one(
            "strict/json-boxed-dep",
            "issue 28: dep = -2 was read as -1",
            "p.json",
            r#"{"format": "nonsmooth-problem", "version": 1, "name": "b", "type": "boxed-lcp", "data": {"A": {"storage": "dense", "nrows": 2, "ncols": 2, "rows": [[2, 0], [0, 2]]}, "b": [-1, 0.5], "lo": [0, -1], "hi": [null, 1], "dep": [-1, -2], "factor": [0, 0.5]}}
"#,
            reject(&["dep = -2"]),
        ),
    ]
}

/// `.npz` archives (issue 28): a valid one, and ones holding arrays their problem does not
/// use, or members that unpack beyond the archive cap.
fn npz_cases() -> Vec<Case> {
    use nonsmooth::problem::{AnyProblem, FrictionContact, FrictionKind, Provenance};
    use std::io::Write;
    let p = AnyProblem::Friction(
        FrictionContact::new(
            nalgebra::DMatrix::<f64>::identity(3, 3).into(),
            nalgebra::DVector::from_vec(vec![-1.0, 0.0, 0.0]),
            nalgebra::DVector::from_vec(vec![0.5]),
            FrictionKind::Ccp,
        )
        .unwrap(),
    );
    let base = npz::to_bytes(
        "n",
        &p,
        None,
        &Provenance::default(),
        npz::Compression::Stored,
    )
    .unwrap();
    let with = |members: &[(&str, Vec<u8>)]| {
        let mut z = zip::ZipWriter::new_append(std::io::Cursor::new(base.clone())).unwrap();
        for (name, bytes) in members {
            z.start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            z.write_all(bytes).unwrap();
        }
        z.finish().unwrap().into_inner()
    };
    let v2 = header::vector_to_npy(&[1.0, 2.0]);
    // every member's declared size raised to 600 MiB in the central directory
    let mut big = base.clone();
    let mut i = 0;
    while i + 46 <= big.len() {
        if big[i..i + 4] == [0x50, 0x4b, 0x01, 0x02] {
            big[i + 24..i + 28].copy_from_slice(&(600u32 << 20).to_le_bytes());
            i += 46;
        } else {
            i += 1;
        }
    }
    vec![
        one(
            "npz/valid-fc3d",
            "a valid archive, the base of the others",
            "p.npz",
            base.clone(),
            Expect::Valid(valid(&["nsn"])),
        ),
        one(
            "npz/extra-lcp-arrays",
            "issue 28: A and b in an fc3d archive were dropped",
            "p.npz",
            with(&[("A.npy", v2.clone()), ("b.npy", v2.clone())]),
            reject(&["the array `A` does not belong"]),
        ),
        one(
            "npz/gmp-without-blocks",
            "issue 28: a gmp archive without blocks.npy read as fc3d",
            "p.npz",
            with(&[("mu_len.npy", header::vector_to_npy(&[2.0]))]),
            reject(&["`mu_len`", "needs `blocks`"]),
        ),
        one(
            "npz/members-beyond-the-cap",
            "issue 28: members under the cap each, over it in all",
            "p.npz",
            big,
            reject(&["unpack to"]),
        ),
    ]
}

/// Malformed generic mechanical problems (`type: gmp`): the project's JSON and a NumPy
/// folder, each refused with the block named.
fn gmp_cases() -> Vec<Case> {
    let json = |blocks: &str, n: usize| {
        let rows: Vec<String> = (0..n)
            .map(|i| {
                let row: Vec<f64> = (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect();
                format!("[{}]", list(&row))
            })
            .collect();
        format!(
            r#"{{"format": "nonsmooth-problem", "version": 1, "name": "g", "type": "gmp", "data": {{"W": {{"storage": "dense", "nrows": {n}, "ncols": {n}, "rows": [{}]}}, "q": [{}], "blocks": {blocks}}}}}
"#,
            rows.join(", "),
            list(&vec![-1.0; n])
        )
    };
    let mut v = vec![
        one(
            "gmp/unknown-law",
            "a block law that does not exist",
            "g.json",
            json(r#"[{"law": "equality"}, {"law": "weld"}]"#, 2),
            reject(&["g.json", "data.blocks[1]", "unknown law `weld`"]),
        ),
        one(
            "gmp/empty-mu",
            "a contact without tangential rows",
            "g.json",
            json(r#"[{"law": "contact", "mu": []}]"#, 1),
            reject(&["g.json", "data.blocks[0]", "empty `mu`"]),
        ),
        one(
            "gmp/negative-mu",
            "a negative friction coefficient",
            "g.json",
            json(r#"[{"law": "contact", "mu": [0.5, -1e-300]}]"#, 3),
            reject(&["g.json", "data.blocks[0]", "mu[1]"]),
        ),
        one(
            "gmp/lo-above-hi",
            "an interval with lo > hi",
            "g.json",
            json(r#"[{"law": "interval", "lo": 1e300, "hi": -1e300}]"#, 1),
            reject(&["g.json", "data.blocks[0]", "above hi"]),
        ),
        one(
            "gmp/rows",
            "blocks whose rows do not add up to q's length",
            "g.json",
            json(
                r#"[{"law": "contact", "mu": [0.5, 0.5, 0.1, 0.1, 0.1]}]"#,
                5,
            ),
            reject(&[
                "g.json",
                "the 1 blocks hold 6 rows, but data.q has 5 entries",
            ]),
        ),
        one(
            "gmp/huge-contact",
            "a contact of 10^6 rows in a 1-row problem: refused before any allocation",
            "g.json",
            json(
                &format!(
                    r#"[{{"law": "contact", "mu": [{}]}}]"#,
                    list(&vec![0.5; 100_000])
                ),
                1,
            ),
            reject(&["g.json", "hold 100001 rows, but data.q has 1 entries"]),
        ),
    ];
    // A NumPy folder with a law code that does not exist.
    let eye = [1.0, 0.0, 0.0, 1.0];
    let folder = |codes: &[i64]| {
        vec![
            bytes("g/W.npy", npy_f64(&[2, 2], &eye)),
            bytes("g/q.npy", npy_f64(&[2], &[-1.0, 0.0])),
            bytes(
                "g/blocks.npy",
                npy_raw(&npy_header("<i8", false, &[codes.len()]), &i64_bytes(codes)),
            ),
            bytes("g/lo.npy", npy_f64(&[2], &[0.0, 0.0])),
            bytes("g/hi.npy", npy_f64(&[2], &[f64::INFINITY, f64::INFINITY])),
            bytes("g/mu.npy", npy_f64(&[0], &[])),
            bytes(
                "g/mu_len.npy",
                npy_raw(&npy_header("<i8", false, &[2]), &i64_bytes(&[0, 0])),
            ),
        ]
    };
    v.push(case(
        "gmp/folder-law-code",
        "a law code outside 0..3",
        folder(&[1, 9]),
        "g",
        reject(&["blocks.npy[1]", "law code 9"]),
    ));
    v.push(case(
        "gmp/folder-valid-shape",
        "two unilateral rows (the folder above, with valid codes): read, described, converted",
        folder(&[1, 1]),
        "g",
        Expect::Valid(valid(&[])),
    ));
    v
}

/// FCLIB HDF5 files (the fuzz seeds): each valid file, and copies with flipped bytes and
/// cut short. Without the crate's `hdf5` feature every one is refused with a message that
/// names the feature; with it (CI's hdf5 stage) they are read for real, and the HDF5 C
/// library must not crash on the damaged ones.
fn hdf5_cases(rng: &mut Rng) -> Vec<Case> {
    let seeds: [(&str, &[u8]); 2] = [
        (
            "local",
            include_bytes!("../../fuzz/seeds/fclib_hdf5/local_csc.hdf5"),
        ),
        (
            "global",
            include_bytes!("../../fuzz/seeds/fclib_hdf5/global.hdf5"),
        ),
    ];
    let mut v = Vec::new();
    for (name, bytes) in seeds {
        let file = format!("{name}.hdf5");
        let expect = if cfg!(feature = "hdf5") {
            Expect::Valid(valid(&["auto"]))
        } else {
            reject(&[&file, "hdf5"])
        };
        v.push(one(
            &format!("hdf5/{name}/seed"),
            "a valid FCLIB file",
            &file,
            bytes,
            expect,
        ));
        let mut seen = std::collections::HashSet::new();
        for _ in 0..12 {
            let k = rng.below(bytes.len());
            let bit = 1u8 << rng.below(8);
            if !seen.insert((k, bit)) {
                continue;
            }
            let mut b = bytes.to_vec();
            b[k] ^= bit;
            v.push(one(
                &format!("hdf5/{name}/flip-{k}-{bit}"),
                "issue 8: byte-flipped FCLIB files",
                &file,
                b,
                Expect::Either,
            ));
        }
        for cut in [bytes.len() / 2, bytes.len() - 1] {
            v.push(one(
                &format!("hdf5/{name}/truncate-{cut}"),
                "an FCLIB file cut short",
                &file,
                bytes[..cut].to_vec(),
                Expect::Either,
            ));
        }
    }
    // Files on which fuzzing made the HDF5 C library itself crash, hang or exhaust memory
    // (`tests/adversarial/fclib/README.md`): the program reads FCLIB files in a child
    // process, so each must become a clear input error.
    let regressions: [(&str, &[u8]); 7] = [
        (
            "segv-vlen-string-title",
            include_bytes!("fclib/segv-vlen-string-title.hdf5"),
        ),
        (
            "segv-vlen-string-heap",
            include_bytes!("fclib/segv-vlen-string-heap.hdf5"),
        ),
        (
            "segv-link-exists",
            include_bytes!("fclib/segv-link-exists.hdf5"),
        ),
        (
            "huge-extent-floats",
            include_bytes!("fclib/huge-extent-floats.hdf5"),
        ),
        (
            "huge-extent-ints",
            include_bytes!("fclib/huge-extent-ints.hdf5"),
        ),
        ("oom-17kb", include_bytes!("fclib/oom-17kb.hdf5")),
        (
            "hang-global-heap",
            include_bytes!("fclib/hang-global-heap.hdf5"),
        ),
    ];
    for (name, bytes) in regressions {
        let file = format!("{name}.hdf5");
        v.push(one(
            &format!("hdf5/regress/{name}"),
            "fuzzing: the HDF5 C library crashes, hangs or runs out of memory on this file",
            &file,
            bytes.to_vec(),
            reject(&[&file, "hdf5"]),
        ));
    }
    v
}

/// Every seed unchanged: each must read and solve.
fn seed_cases() -> Vec<Case> {
    seeds::all()
        .into_iter()
        .map(|s| Case {
            name: format!("seed/{}", s.name),
            why: "a valid seed, unchanged".into(),
            files: s.files.iter().map(|(p, b)| bytes(p, b.clone())).collect(),
            input: s.input.clone(),
            expect: Expect::Valid(valid(&["auto"])),
        })
        .collect()
}

/// The `.npy` header and dtype cases.
fn npy_cases() -> Vec<Case> {
    let w9 = f64_bytes(&[2.0, 0.5, 0.0, 0.5, 1.0, 0.25, 0.0, 0.25, 3.0]);
    let folder = |name: &str, why: &str, w: Vec<u8>, expect: Expect| {
        case(
            name,
            why,
            vec![
                bytes("np/W.npy", w),
                bytes("np/q.npy", npy_f64(&[3], &[-1.0, 0.1, 0.3])),
                bytes("np/mu.npy", npy_f64(&[1], &[0.4])),
            ],
            "np",
            expect,
        )
    };
    let hdr = |h: &str| npy_raw(h, &w9);
    let mut v = vec![
        folder(
            "npy/shape-parens-reversed",
            "issue 8: `)` before `(` in shape panicked on a string slice",
            hdr("{'descr': '<f8', 'fortran_order': False, 'shape': )3, 3(, }"),
            reject(&["W.npy", "shape"]),
        ),
        folder(
            "npy/shape-twice",
            "issue 8: two shape keys: the check read the first, the library allocated the last (4.8 TB)",
            hdr(
                "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 3), 'shape': (100000000000, 6), }",
            ),
            reject(&["W.npy", "shape"]),
        ),
        folder(
            "npy/descr-nested-40",
            "issue 8: a descr nesting 40 [] made header parsing exponential",
            hdr(&format!(
                "{{'descr': {}{}, 'fortran_order': False, 'shape': (3, 3), }}",
                "[".repeat(40),
                "]".repeat(40)
            )),
            reject(&["W.npy", "descr"]),
        ),
        folder(
            "npy/descr-nested-22",
            "issue 8: depth 22 already took 8 s",
            hdr(&format!(
                "{{'descr': {}{}, 'fortran_order': False, 'shape': (3, 3), }}",
                "[".repeat(22),
                "]".repeat(22)
            )),
            reject(&["W.npy", "descr"]),
        ),
        folder(
            "npy/dtype-float32",
            "issue 8: the dtype error said the file holds fewer elements",
            npy_raw(&npy_header("<f4", false, &[3, 3]), &[0u8; 36]),
            reject(&["W.npy", "float32"]),
        ),
        folder(
            "npy/dtype-int64",
            "issue 8: an integer array where float64 is needed",
            npy_raw(&npy_header("<i8", false, &[3, 3]), &[0u8; 72]),
            reject(&["W.npy", "int64"]),
        ),
        folder(
            "npy/dtype-bool",
            "issue 8: a bool array",
            npy_raw(&npy_header("|b1", false, &[3, 3]), &[0u8; 9]),
            reject(&["W.npy", "bool"]),
        ),
        folder(
            "npy/dtype-object",
            "a pickled object array",
            npy_raw(&npy_header("|O", false, &[3, 3]), &[0u8; 72]),
            reject(&["W.npy", "object"]),
        ),
        folder(
            "npy/dtype-complex",
            "a complex128 array",
            npy_raw(&npy_header("<c16", false, &[3, 3]), &[0u8; 144]),
            reject(&["W.npy", "complex"]),
        ),
        folder(
            "npy/big-endian",
            "big-endian float64 is valid float64",
            npy_raw(
                &npy_header(">f8", false, &[3, 3]),
                &[2.0f64, 0.5, 0.0, 0.5, 1.0, 0.25, 0.0, 0.25, 3.0]
                    .iter()
                    .flat_map(|x| x.to_be_bytes())
                    .collect::<Vec<u8>>(),
            ),
            Expect::Valid(valid(&["auto"])),
        ),
        folder(
            "npy/fortran-order",
            "a Fortran-order array is valid",
            npy_raw(&npy_header("<f8", true, &[3, 3]), &w9),
            Expect::Valid(valid(&["auto"])),
        ),
        folder(
            "npy/shape-1d",
            "W with one dimension",
            npy_f64(&[9], &[2.0, 0.5, 0.0, 0.5, 1.0, 0.25, 0.0, 0.25, 3.0]),
            reject(&["W.npy", "2"]),
        ),
        folder(
            "npy/shape-3d",
            "W with three dimensions",
            npy_raw(&npy_header("<f8", false, &[1, 3, 3]), &w9),
            reject(&["W.npy", "2"]),
        ),
        folder(
            "npy/shape-negative",
            "a negative dimension",
            hdr("{'descr': '<f8', 'fortran_order': False, 'shape': (-3, 3), }"),
            reject(&["W.npy", "shape"]),
        ),
        folder(
            "npy/shape-huge",
            "a dimension beyond u64",
            hdr(
                "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999, 3), }",
            ),
            reject(&["W.npy", "shape"]),
        ),
        folder(
            "npy/shape-overflow-product",
            "dimensions whose product overflows",
            hdr("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"),
            reject(&["W.npy", "shape"]),
        ),
        folder(
            "npy/data-short",
            "fewer data bytes than the shape needs",
            npy_raw(&npy_header("<f8", false, &[3, 3]), &w9[..64]),
            reject(&["W.npy"]),
        ),
        folder(
            "npy/data-long",
            "more data bytes than the shape needs",
            npy_raw(
                &npy_header("<f8", false, &[3, 3]),
                &[w9.clone(), vec![0; 8]].concat(),
            ),
            reject(&["W.npy"]),
        ),
        folder(
            "npy/header-missing-descr",
            "no descr key",
            hdr("{'fortran_order': False, 'shape': (3, 3), }"),
            reject(&["W.npy", "descr"]),
        ),
        folder(
            "npy/header-unknown-key",
            "an extra key numpy never writes",
            hdr("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 3), 'extra': 1, }"),
            reject(&["W.npy", "extra"]),
        ),
        folder(
            "npy/header-not-dict",
            "a header that is not a dictionary",
            hdr("[1, 2, 3]"),
            reject(&["W.npy", "header"]),
        ),
        folder(
            "npy/header-unterminated-string",
            "a string that never ends",
            hdr("{'descr': '<f8, 'fortran_order': False, 'shape': (3, 3), }"),
            reject(&["W.npy"]),
        ),
        folder(
            "npy/header-non-utf8",
            "header bytes that are not text",
            npy_raw(
                &String::from_utf8_lossy(
                    b"{'descr': '<f8', 'fortran_order': False, 'shape': (3, 3), }",
                ),
                &w9,
            )
            .into_iter()
            .enumerate()
            .map(|(i, b)| if i == 20 { 0xff } else { b })
            .collect::<Vec<u8>>(),
            reject(&["W.npy"]),
        ),
        folder(
            "npy/header-length-beyond-file",
            "a header length larger than the file",
            {
                let mut b = npy_f64(&[3, 3], &[0.0; 9]);
                b[8] = 0xff;
                b[9] = 0xff;
                b
            },
            reject(&["W.npy"]),
        ),
        folder(
            "npy/version-9",
            "an unknown format version",
            {
                let mut b = npy_f64(&[3, 3], &[0.0; 9]);
                b[6] = 9;
                b
            },
            reject(&["W.npy", "version"]),
        ),
        folder(
            "npy/not-npy",
            "text where a .npy file should be",
            b"W = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]\n".to_vec(),
            reject(&["W.npy"]),
        ),
        folder(
            "npy/empty-file",
            "an empty W.npy",
            Vec::new(),
            reject(&["W.npy"]),
        ),
        folder(
            "npy/nan-entry",
            "a NaN in W",
            npy_f64(
                &[3, 3],
                &[f64::NAN, 0.5, 0.0, 0.5, 1.0, 0.25, 0.0, 0.25, 3.0],
            ),
            reject(&["W", "NaN"]),
        ),
    ];
    v.push(case(
        "npy/dep-float",
        "dep.npy must be int64",
        vec![
            bytes("np/A.npy", npy_f64(&[2, 2], &[1.0, 0.0, 0.0, 1.0])),
            bytes("np/b.npy", npy_f64(&[2], &[-1.0, 0.0])),
            bytes("np/lo.npy", npy_f64(&[2], &[0.0, 0.0])),
            bytes("np/hi.npy", npy_f64(&[2], &[f64::INFINITY, 0.0])),
            bytes("np/dep.npy", npy_f64(&[2], &[-1.0, 0.0])),
            bytes("np/factor.npy", npy_f64(&[2], &[0.0, 0.5])),
        ],
        "np",
        reject(&["dep.npy", "float64", "int64"]),
    ));
    v.push(case(
        "npy/boxed-valid",
        "a boxed LCP as NumPy arrays",
        vec![
            bytes("np/A.npy", npy_f64(&[2, 2], &[1.0, 0.0, 0.0, 1.0])),
            bytes("np/b.npy", npy_f64(&[2], &[-1.0, 0.2])),
            bytes("np/lo.npy", npy_f64(&[2], &[0.0, 0.0])),
            bytes("np/hi.npy", npy_f64(&[2], &[f64::INFINITY, 0.0])),
            bytes(
                "np/dep.npy",
                npy_raw(&npy_header("<i8", false, &[2]), &i64_bytes(&[-1, 0])),
            ),
            bytes("np/factor.npy", npy_f64(&[2], &[0.0, 0.5])),
        ],
        "np",
        Expect::Valid(valid(&["auto"])),
    ));
    v.push(case(
        "npy/meta-bad-law",
        "meta.json naming an unknown law",
        vec![
            bytes(
                "np/W.npy",
                npy_f64(&[3, 3], &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]),
            ),
            bytes("np/q.npy", npy_f64(&[3], &[-1.0, 0.0, 0.0])),
            bytes("np/mu.npy", npy_f64(&[1], &[0.4])),
            bytes("np/meta.json", br#"{"law": "tresca"}"#.to_vec()),
        ],
        "np",
        reject(&["meta.json", "law"]),
    ));
    v.push(case(
        "npy/q-missing",
        "a NumPy fc3d folder without q.npy",
        vec![
            bytes(
                "np/W.npy",
                npy_f64(&[3, 3], &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]),
            ),
            bytes("np/mu.npy", npy_f64(&[1], &[0.4])),
        ],
        "np",
        reject(&["q.npy"]),
    ));
    v.push(case(
        "npy/w-is-a-directory",
        "issue 8: a NumPy folder whose W.npy is a directory said `no problem files found` and exited 0",
        vec![
            File {
                path: "np/W.npy".into(),
                content: Content::Dir,
            },
            bytes("np/q.npy", npy_f64(&[3], &[-1.0, 0.0, 0.0])),
            bytes("np/mu.npy", npy_f64(&[1], &[0.4])),
        ],
        "np",
        reject(&["W.npy", "directory"]),
    ));
    v
}

/// Files of a few bytes that announce huge problems: never O(n^2) memory.
fn size_cases() -> Vec<Case> {
    let n = 1usize << 20;
    // A = 0 and q >= 0: x = 0 solves it (the point of these cases is memory: an infeasible
    // problem of a million unknowns would run every method to its iteration cap).
    let mut sbm = String::from("100000\n1 100000 100000\n0\n");
    for k in 0..100_000 {
        sbm.push_str(if k % 2 == 0 { "0\n" } else { "1\n" });
    }
    let large = |must: &[&'static str]| {
        Expect::Valid(Valid {
            must_converge: must.to_vec(),
            large: true,
            ..Default::default()
        })
    };
    vec![
        case(
            "size/opentissue-2pow20",
            "issue 8: a 30-byte OpenTissue folder declaring n = 2^20 aborted convert --to numpy (8.8 TB dense)",
            vec![
                bytes("ot/A.dlm", format!("{n} {n} 0\n")),
                bytes("ot/b.dlm", format!("{n}\n0 1\n")),
            ],
            "ot",
            large(&[]),
        ),
        one(
            "size/siconos-sbm-no-blocks-long-q",
            "issue 8: a 200 KB sparse-block file with no blocks and a long q asked for 80 GB",
            "lcp_sbm_empty.dat",
            sbm,
            large(&[]),
        ),
        one(
            "size/siconos-dense-header-huge",
            "a dense header announcing 10^12 entries with none behind it",
            "huge.dat",
            "1000000 0 1000000 1000000 1000000 1000000 1 2 3\n",
            reject(&["huge.dat"]),
        ),
        one(
            "size/json-triplets-huge-dims",
            "JSON triplets declaring a 10^9 x 10^9 matrix with one entry",
            "big.json",
            r#"{"format": "nonsmooth-problem", "version": 1, "name": "big", "type": "lcp", "data": {"A": {"storage": "triplets", "nrows": 1000000000, "ncols": 1000000000, "entries": [[0, 0, 1]]}, "b": [-1]}}
"#,
            reject(&["big.json", "b"]),
        ),
        case(
            "size/opentissue-dims-beyond-cap",
            "an OpenTissue matrix announcing more rows than the reader accepts unbacked",
            vec![
                bytes("ot/A.dlm", "4000000000 4000000000 0\n"),
                bytes("ot/b.dlm", "4000000000\n"),
            ],
            "ot",
            reject(&["A.dlm"]),
        ),
        one(
            "size/mujoco-n-contacts-huge",
            "a MuJoCo file announcing 10^18 contacts",
            "mj.json",
            r#"{"name": "x", "n_contacts": 1000000000000000000, "dim": 3, "A": [[1]], "b": [1], "mu": [0.5], "engine_solution": [0]}
"#,
            reject(&["mj.json", "n_contacts"]),
        ),
    ]
}

/// Inputs that are not regular files, and folders that hold nothing.
fn special_file_cases() -> Vec<Case> {
    let valid_lcp = "2\n0 2 2 2 2\n2 1 1 2\n-5 -6\n";
    vec![
        case(
            "special/fifo",
            "issue 8: a FIFO as an input blocked forever",
            vec![File {
                path: "pipe.dat".into(),
                content: Content::Fifo,
            }],
            "pipe.dat",
            reject(&["pipe.dat", "regular file"]),
        ),
        case(
            "special/fifo-in-folder",
            "issue 8: a FIFO inside a scanned folder blocked the scan",
            vec![
                File {
                    path: "dir/pipe.dat".into(),
                    content: Content::Fifo,
                },
                bytes("dir/ok.dat", valid_lcp),
            ],
            "dir",
            Expect::Either,
        ),
        case(
            "special/empty-folder",
            "issue 8: an empty folder printed `no problem files found` and exited 0",
            vec![File {
                path: "empty".into(),
                content: Content::Dir,
            }],
            "empty",
            Expect::Nothing {
                mentions: vec!["empty".into(), "no problem".into()],
            },
        ),
        case(
            "special/folder-named-json",
            "issue 8: a folder named x.json exited 0",
            vec![File {
                path: "x.json".into(),
                content: Content::Dir,
            }],
            "x.json",
            Expect::Nothing {
                mentions: vec!["x.json".into(), "no problem".into()],
            },
        ),
        case(
            "special/folder-of-readmes",
            "a folder holding only files that are not problems",
            vec![
                bytes("docs/README.md", "# nothing\n"),
                bytes("docs/notes.txt", "x\n"),
            ],
            "docs",
            Expect::Nothing {
                mentions: vec!["docs".into(), "no problem".into()],
            },
        ),
        case(
            "special/dangling-link",
            "a symbolic link to nothing",
            vec![File {
                path: "gone.dat".into(),
                content: Content::Link("does-not-exist.dat".into()),
            }],
            "gone.dat",
            Expect::Nothing {
                mentions: vec!["gone.dat".into()],
            },
        ),
        case(
            "special/link-loop",
            "a folder that links to itself",
            vec![
                bytes("loop/a.dat", valid_lcp),
                File {
                    path: "loop/self".into(),
                    content: Content::Link(".".into()),
                },
            ],
            "loop",
            Expect::Valid(valid(&["auto"])),
        ),
        case(
            "special/dat-is-directory",
            "a folder named like a problem file inside a scanned folder",
            vec![
                File {
                    path: "d/inner.dat".into(),
                    content: Content::Dir,
                },
                bytes("d/ok.dat", valid_lcp),
            ],
            "d",
            Expect::Valid(valid(&["auto"])),
        ),
        case(
            "special/opentissue-a-is-directory",
            "an OpenTissue folder whose A.dlm is a directory",
            vec![
                File {
                    path: "ot/A.dlm".into(),
                    content: Content::Dir,
                },
                bytes("ot/b.dlm", "2\n0 -1\n"),
            ],
            "ot",
            reject(&["A.dlm", "directory"]),
        ),
        case(
            "special/opentissue-b-missing",
            "an OpenTissue folder without b.dlm",
            vec![bytes("ot/A.dlm", "2 2 2\n0 0 1\n1 1 1\n")],
            "ot",
            reject(&["b.dlm"]),
        ),
    ]
}

/// Malformed files whose messages were unclear, and files read as something else.
fn message_cases() -> Vec<Case> {
    let json_fc = |q: &str, mu: &str| {
        format!(
            r#"{{"format": "nonsmooth-problem", "version": 1, "name": "x", "type": "fc3d", "data": {{"W": {{"storage": "dense", "nrows": 3, "ncols": 3, "rows": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}}, "q": {q}, "mu": {mu}}}}}
"#
        )
    };
    let mj = |dim: &str, sol: &str| {
        format!(
            r#"{{"name": "x", "n_contacts": 1, "dim": {dim}, "A": [[2, 0, 0], [0, 2, 0], [0, 0, 2]], "b": [-1, 0.5, 0], "mu": [0.5], "engine_solution": {sol}}}
"#
        )
    };
    let lcp_dat = "2\n0 2 2 2 2\n2 1 1 2\n-5 -6.25\n";
    vec![
        one(
            "msg/bom-json",
            "issue 8: a UTF-8 byte-order mark shown raw",
            "bom.json",
            [
                b"\xef\xbb\xbf".as_slice(),
                json_fc("[-1, 0.5, 0]", "[0.3]").as_bytes(),
            ]
            .concat(),
            Expect::Either,
        ),
        one(
            "msg/bom-dat",
            "issue 8: a byte-order mark before a Siconos file",
            "bom.dat",
            [b"\xef\xbb\xbf".as_slice(), lcp_dat.as_bytes()].concat(),
            reject(&["bom.dat", "byte-order mark"]),
        ),
        one(
            "msg/nbsp-dat",
            "issue 8: a no-break space inside a number shown raw",
            "nbsp.dat",
            "2\n0 2 2 2 2\n2 1 1 2\n-5\u{a0}-6\n",
            reject(&["nbsp.dat", "no-break space"]),
        ),
        one(
            "msg/nul-dat",
            "issue 8: a NUL byte shown raw",
            "nul.dat",
            b"2\n0 2 2 2 2\n2 1 1 2\n-5 -6\0\n".to_vec(),
            reject(&["nul.dat", "NUL"]),
        ),
        one(
            "msg/zwsp-dat",
            "a zero-width space inside a number",
            "zw.dat",
            "2\n0 2 2 2 2\n2 1 1 2\n-5 -\u{200b}6\n",
            reject(&["zw.dat", "zero-width space"]),
        ),
        one(
            "msg/json-short-q",
            "issue 8: JSON with a short q blamed W",
            "shortq.json",
            json_fc("[-1, 0.5]", "[0.3]"),
            reject(&["shortq.json", "q", "3"]),
        ),
        one(
            "msg/json-1e999",
            "issue 8: `1e999` reported as \"`[1e999,` is not a number\"",
            "big.json",
            json_fc("[1e999, 0.5, 0]", "[0.3]"),
            reject(&["big.json", "1e999"]),
        ),
        one(
            "msg/dat-1e999",
            "a number beyond the largest double in a Siconos file",
            "big.dat",
            "2\n0 2 2 2 2\n2 1 1 2\n1e999 -6\n",
            reject(&["big.dat", "1e999"]),
        ),
        one(
            "msg/json-mu-negative-1e308",
            "issue 8: 1e308 printed as a 309-digit integer",
            "mu.json",
            json_fc("[-1, 0.5, 0]", "[-1e308]"),
            reject(&["mu.json", "mu"]),
        ),
        one(
            "msg/mujoco-dim-0",
            "issue 8: a MuJoCo file with dim 0 complained about engine_solution",
            "dim0.json",
            mj("0", "[0.5, -0.125, 0]"),
            reject(&["dim0.json", "dim"]),
        ),
        one(
            "msg/mujoco-short-solution",
            "a MuJoCo file whose answer is too short",
            "short.json",
            mj("3", "[0.5]"),
            reject(&["short.json", "engine_solution"]),
        ),
        one(
            "msg/mujoco-condim4-elliptic",
            "issue 9: an elliptic contact with torsional friction (condim 4, dim 4) was read \
             as a pyramidal LCP with zero contacts; issue 32: it is read as a gmp, and without \
             its friction coefficients the missing key is named",
            "torsion.json",
            r#"{"name": "x", "n_contacts": 1, "dim": 4, "A": [[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0.01]], "b": [-1, 0, 0, 0.001], "mu": [0.5], "engine_solution": [0.5, 0, 0, -0.1], "raw": {"opt": {"cone": "elliptic"}}}
"#,
            reject(&[
                "torsion.json",
                "contacts[0].friction",
                "contact 0",
                "condim 4",
                "torsion",
                "nonsmooth.mujoco.extract",
            ]),
        ),
        one(
            "msg/mujoco-dim4-no-cone",
            "issue 9: dim 4 is pyramidal condim 3 or elliptic condim 4; a file that does not \
             say which cone is refused, not guessed",
            "nocone.json",
            r#"{"name": "x", "n_contacts": 1, "dim": 4, "A": [[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0], [0, 0, 0, 2]], "b": [-1, 0, 0, 0], "mu": [0.5]}
"#,
            reject(&["nocone.json", "raw.opt.cone", "dim = 4"]),
        ),
        one(
            "msg/mujoco-condim6-contact",
            "issue 9: a contact with rolling friction (condim 6) among condim 3 ones",
            "roll.json",
            r#"{"name": "x", "n_contacts": 2, "dim": null, "cone": "elliptic", "A": [[1, 0, 0, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 0, 0, 0, 1]], "b": [-1, 0, 0, -1, 0, 0, 0, 0, 0], "mu": [0.5, 0.5], "contacts": [{"dim": 3}, {"dim": 6}]}
"#,
            reject(&[
                "roll.json",
                "contacts[1].friction",
                "condim 6",
                "rolling",
                "nonsmooth.mujoco.extract",
            ]),
        ),
        one(
            "msg/mujoco-dim-vs-condim",
            "issue 9: a dim that disagrees with a contact's condim",
            "baddim.json",
            r#"{"name": "x", "n_contacts": 2, "dim": 3, "cone": "elliptic", "A": [[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0], [0, 0, 0, 2]], "b": [-1, 0, 0, -1], "mu": [0.5, 0.5], "contacts": [{"dim": 3}, {"dim": 1}]}
"#,
            reject(&["baddim.json", "dim = 3", "contact 1 has condim 1"]),
        ),
        one(
            "valid/mujoco-condim-1-and-3",
            "issue 9: a frictionless contact (condim 1) beside a condim 3 one, read exactly as \
             a 3-row contact with mu = 0, with a warning",
            "mix.json",
            r#"{"name": "mix", "n_contacts": 2, "dim": null, "A": [[2, 0.2, 0, 0.5], [0.2, 2, 0, 0], [0, 0, 2, 0], [0.5, 0, 0, 1.5]], "b": [-1, 0.3, 0, -0.8], "mu": [0.5, 0.5], "contacts": [{"dim": 3, "efc_address": 0}, {"dim": 1, "efc_address": 3}], "raw": {"opt": {"cone": "elliptic"}}}
"#,
            Expect::Valid(Valid {
                must_converge: vec!["auto"],
                info_must_warn: vec!["condim 1 (frictionless)", "mu = 0"],
                ..Default::default()
            }),
        ),
        case(
            "msg/opentissue-lo-dbl-max",
            "issue 8: `lower bound inf above its upper bound inf` (DBL_MAX as a lower bound)",
            vec![
                bytes("ot/A.dlm", "2 2 2\n0 0 1\n1 1 1\n"),
                bytes("ot/b.dlm", "2\n0 -1\n"),
                bytes("ot/lo.dlm", "2\n0 1.79769313486232e+308\n"),
                bytes(
                    "ot/hi.dlm",
                    "2\n0 1.79769313486232e+308\n1 1.79769313486232e+308\n",
                ),
                bytes("ot/dep.dlm", "2\n0 -1\n1 -1\n"),
                bytes("ot/factor.dlm", "2\n"),
            ],
            "ot",
            reject(&["lo", "row 0", "lower bound"]),
        ),
        one(
            "msg/gfc3d-h-2x3",
            "issue 8: a malformed global file (H 2 x 3) was read as a different local problem",
            "broken_global.dat",
            "3 2\n0 2 2 2 2\n1 0 0 1\n0 2 3 2 3\n1 0 0 1 0 0\n0 0\n0 0 0 0 0 0\n0.5 0.5\n",
            reject(&["broken_global.dat", "H"]),
        ),
        one(
            "msg/gfc3d-h-2x3-named",
            "the same malformed global file, named as one",
            "gfc3d_broken.dat",
            "3 2\n0 2 2 2 2\n1 0 0 1\n0 2 3 2 3\n1 0 0 1 0 0\n0 0\n0 0 0 0 0 0\n0.5 0.5\n",
            reject(&["gfc3d_broken.dat", "H"]),
        ),
        one(
            "msg/fc3d-truncated",
            "issue 8: a truncated fc3d file reported as a badly formed global problem",
            "fc3d_cut.dat",
            "3\n2\n0 6 6 6 6\n1 0 0 0 0 0 0 1 0 0 0 0 0 0 1 0 0 0 0 0 0 1 0 0 0 0 0 0 1 0 0 0 0 0 0 1\n-1 0 0 -1 0 0\n",
            reject(&["fc3d_cut.dat", "mu"]),
        ),
        one(
            "msg/fc3d-truncated-unnamed",
            "a truncated fc3d file without a name hint",
            "cut.dat",
            "3\n2\n0 6 6 6 6\n1 0 0 0 0 0 0 1 0 0 0 0 0 0 1 0 0 0 0 0 0 1 0 0 0 0 0 0 1 0 0 0 0 0 0 1\n-1 0 0 -1 0 0\n",
            reject(&["cut.dat", "mu"]),
        ),
        one(
            "msg/dat-truncated-mid-number",
            "issue 8: a file truncated mid-number was accepted with the truncated value \
             (it cannot be refused: two of Siconos's own files end without a line break; it is \
             read with a warning)",
            "cut_number.dat",
            "2\n0 2 2 2 2\n2 1 1 2\n-5 -6.2",
            Expect::Valid(Valid {
                must_converge: vec!["auto"],
                info_must_warn: vec!["`-6.2`", "incomplete"],
                ..Default::default()
            }),
        ),
        one(
            "msg/dat-truncated-after-point",
            "a file cut after a decimal point: the last number cannot be complete",
            "cut_point.dat",
            "2\n0 2 2 2 2\n2 1 1 2\n-5 -6.",
            reject(&["cut_point.dat", "cut short"]),
        ),
        one(
            "msg/json-truncated",
            "a JSON file cut short",
            "cut.json",
            &json_fc("[-1, 0.5, 0]", "[0.3]")[..120],
            reject(&["cut.json"]),
        ),
        one(
            "msg/json-duplicate-key",
            "a JSON object with the same key twice",
            "dup.json",
            r#"{"format": "nonsmooth-problem", "version": 1, "name": "x", "type": "lcp", "data": {"A": {"storage": "dense", "nrows": 1, "ncols": 1, "rows": [[1]]}, "b": [-1], "b": [-2]}}
"#,
            reject(&["dup.json", "b"]),
        ),
        one(
            "msg/json-unknown-type",
            "a JSON problem of an unknown type",
            "t.json",
            r#"{"format": "nonsmooth-problem", "version": 1, "name": "x", "type": "fc2d", "data": {}}
"#,
            reject(&["t.json", "fc2d"]),
        ),
        one(
            "msg/json-deep-nesting",
            "JSON nested 10 000 deep",
            "deep.json",
            format!("{}{}", "[".repeat(10_000), "]".repeat(10_000)),
            reject(&["deep.json"]),
        ),
        one(
            "msg/json-not-a-problem",
            "JSON of neither known kind",
            "other.json",
            "{\"hello\": 1}\n",
            reject(&["other.json"]),
        ),
        one(
            "msg/dat-empty",
            "an empty .dat file",
            "empty.dat",
            "",
            reject(&["empty.dat", "empty"]),
        ),
        one(
            "msg/dat-binary",
            "binary bytes in a .dat file",
            "bin.dat",
            (0u8..=255).collect::<Vec<u8>>(),
            reject(&["bin.dat"]),
        ),
        one(
            "msg/dat-negative-mu",
            "a negative friction coefficient",
            "negmu.dat",
            "3\n1\n0 3 3 3 3\n1 0 0 0 1 0 0 0 1\n-1 0 0\n-0.5\n",
            reject(&["negmu.dat", "mu", "-0.5"]),
        ),
        one(
            "msg/dat-nonsquare-dense",
            "a non-square LCP matrix",
            "ns.dat",
            "2\n0 2 3 2 3\n1 0 0 1 0 0\n-1 -1\n",
            reject(&["ns.dat", "2 x 3"]),
        ),
        one(
            "msg/json-w-nonsquare",
            "a non-square W in JSON",
            "nsw.json",
            r#"{"format": "nonsmooth-problem", "version": 1, "name": "x", "type": "fc3d", "data": {"W": {"storage": "dense", "nrows": 3, "ncols": 2, "rows": [[1, 0], [0, 1], [0, 0]]}, "q": [-1, 0, 0], "mu": [0.3]}}
"#,
            reject(&["nsw.json", "W"]),
        ),
        one(
            "msg/json-ragged-rows",
            "dense rows of different lengths",
            "ragged.json",
            r#"{"format": "nonsmooth-problem", "version": 1, "name": "x", "type": "lcp", "data": {"A": {"storage": "dense", "nrows": 2, "ncols": 2, "rows": [[1, 0], [1]]}, "b": [-1, -1]}}
"#,
            reject(&["ragged.json", "A"]),
        ),
        one(
            "msg/json-triplet-outside",
            "a triplet outside the matrix",
            "tri.json",
            r#"{"format": "nonsmooth-problem", "version": 1, "name": "x", "type": "lcp", "data": {"A": {"storage": "triplets", "nrows": 2, "ncols": 2, "entries": [[0, 0, 1], [5, 1, 1]]}, "b": [-1, -1]}}
"#,
            reject(&["tri.json", "A"]),
        ),
        one(
            "msg/json-answer-wrong-length",
            "an embedded answer of the wrong length",
            "ans.json",
            r#"{"format": "nonsmooth-problem", "version": 1, "name": "x", "type": "lcp", "data": {"A": {"storage": "dense", "nrows": 1, "ncols": 1, "rows": [[1]]}, "b": [-1]}, "answer": {"source": "e", "r": [1, 2]}}
"#,
            reject(&["ans.json", "answer"]),
        ),
        one(
            "msg/dat-storage-2",
            "Siconos CSparse storage (unsupported)",
            "csparse.dat",
            "2\n2 2 2\n",
            reject(&["csparse.dat", "storage"]),
        ),
        one(
            "msg/dat-d-2",
            "2D friction (unsupported)",
            "fc2d.dat",
            "2\n1\n0 2 2 2 2\n1 0 0 1\n-1 0\n0.5\n",
            Expect::Either,
        ),
        one(
            "msg/dat-nan",
            "a NaN in q",
            "nan.dat",
            "2\n0 2 2 2 2\n2 1 1 2\nnan -6\n",
            reject(&["nan.dat", "NaN"]),
        ),
        one(
            "msg/dat-inf",
            "an infinity in the matrix",
            "inf.dat",
            "2\n0 2 2 2 2\ninf 1 1 2\n-5 -6\n",
            reject(&["inf.dat", "inf"]),
        ),
    ]
}

/// Numerically nasty but valid problems, with what each method must do.
fn nasty_valid_cases() -> Vec<Case> {
    let with_answer = |must: &[&'static str], answers: Vec<Answer>| {
        Expect::Valid(Valid {
            must_converge: must.to_vec(),
            answers,
            ..Default::default()
        })
    };
    let lcp_methods: &[&'static str] = &["auto", "lemke", "pgs", "fischer-newton", "minmap-newton"];
    let fc_methods: &[&'static str] = &["auto", "nsgs", "nsn", "prox-nsn"];
    let w2 = vec![
        vec![2.0, 0.5, 0.0],
        vec![0.5, 1.0, 0.0],
        vec![0.0, 0.0, 1.0],
    ];
    let mut v = vec![
        one(
            "nasty/lcp-tiny-b",
            "issue 8: A = I, b = -1e-17 was reported solved at x = 0 with a 100 % error",
            "tiny.json",
            lcp_json("tiny", &identity(2, 1.0), &[-1e-17, -1e-17]),
            with_answer(
                lcp_methods,
                vec![
                    Answer {
                        file: "zero.txt".into(),
                        bytes: b"0 0\n".to_vec(),
                        accepted: false,
                    },
                    Answer {
                        file: "exact.txt".into(),
                        bytes: b"1e-17 1e-17\n".to_vec(),
                        accepted: true,
                    },
                ],
            ),
        ),
        one(
            "nasty/lcp-scaled-1e-12",
            "the same problem scaled by 1e-12 (judged correctly before)",
            "scaled.json",
            lcp_json("scaled", &identity(2, 1.0), &[-1e-12, -2e-12]),
            Expect::Valid(valid(lcp_methods)),
        ),
        one(
            "nasty/lcp-denormal-b",
            "b made of subnormal numbers",
            "denormal.json",
            lcp_json("denormal", &identity(2, 1.0), &[-5e-320, -1e-310]),
            Expect::Valid(valid(&["auto", "lemke"])),
        ),
        one(
            "nasty/lcp-huge-b",
            "issue 8: ‖q‖ >= 1e154 overflowed the norm and a valid problem diverged at iteration 1",
            "huge.json",
            lcp_json("huge", &identity(2, 1.0), &[-1e160, -2e160]),
            Expect::Valid(valid(lcp_methods)),
        ),
        one(
            "nasty/lcp-zero-b",
            "b = 0: x = 0 is the solution",
            "zero.json",
            lcp_json("zero", &identity(2, 1.0), &[0.0, 0.0]),
            Expect::Valid(valid(lcp_methods)),
        ),
        one(
            "nasty/lcp-zero-diagonal",
            "a skew matrix with a zero diagonal: Lemke solves it, splitting methods cannot divide",
            "skew.json",
            lcp_json("skew", &[vec![0.0, 1.0], vec![-1.0, 0.0]], &[-1.0, 2.0]),
            Expect::Valid(valid(&["auto", "lemke"])),
        ),
        one(
            "nasty/lcp-infeasible",
            "A = 0, b = -1: no solution exists; nothing may converge",
            "infeasible.json",
            lcp_json("infeasible", &identity(2, 0.0), &[-1.0, 0.0]),
            Expect::Valid(valid(&[])),
        ),
        one(
            "nasty/fc3d-tiny-q",
            "issue 8: ‖q‖ <= 2.2e-16 converged at r = 0 with every method",
            "tinyq.json",
            fc3d_json("tinyq", &w2, &[-1e-17, 2e-18, 0.0], &[0.5], "coulomb"),
            with_answer(
                fc_methods,
                vec![Answer {
                    file: "zero.txt".into(),
                    bytes: b"0 0 0\n".to_vec(),
                    accepted: false,
                }],
            ),
        ),
        one(
            "nasty/fc3d-huge-q",
            "issue 8: ‖q‖ >= 1e154 overflowed the norms",
            "hugeq.json",
            fc3d_json("hugeq", &w2, &[-1e200, 2e199, 0.0], &[0.5], "coulomb"),
            Expect::Valid(valid(fc_methods)),
        ),
        one(
            "nasty/fc3d-mu-1e300",
            "issue 8: mu = 1e300 converged at r = 0 while the contact penetrates",
            "mu1e300.json",
            fc3d_json(
                "mu1e300",
                &identity(3, 1.0),
                &[-1.0, 1.0, 0.0],
                &[1e300],
                "coulomb",
            ),
            with_answer(
                &["auto", "nsgs"],
                vec![
                    Answer {
                        file: "zero.txt".into(),
                        bytes: b"0 0 0\n".to_vec(),
                        accepted: false,
                    },
                    Answer {
                        file: "stick.txt".into(),
                        bytes: b"1 -1 0\n".to_vec(),
                        accepted: true,
                    },
                ],
            ),
        ),
        one(
            "nasty/fc3d-mu-1e300-ccp",
            "the same with the convex relaxation",
            "mu1e300ccp.json",
            fc3d_json(
                "mu1e300ccp",
                &identity(3, 1.0),
                &[-1.0, 1.0, 0.0],
                &[1e300],
                "ccp",
            ),
            Expect::Valid(valid(&["auto"])),
        ),
        one(
            "nasty/fc3d-wide-scales",
            "issue 8: entries of W from 1e-12 to 1e12",
            "scales.json",
            fc3d_json(
                "scales",
                &block_diag(&[
                    [[1e-12, 0.0, 0.0], [0.0, 1e-12, 0.0], [0.0, 0.0, 1e-12]],
                    [[1.0, 0.2, 0.0], [0.2, 1.0, 0.0], [0.0, 0.0, 1.0]],
                    [[1e12, 0.0, 0.0], [0.0, 1e12, 0.0], [0.0, 0.0, 1e12]],
                ]),
                &[-1e-12, 0.0, 0.0, -1.0, 0.3, 0.0, -1e12, 1e11, 0.0],
                &[0.5, 0.5, 0.5],
                "coulomb",
            ),
            Expect::Valid(valid(fc_methods)),
        ),
        one(
            "nasty/fc3d-diag-1.7e308",
            "issue 8: info reported rank 0, singular, for diag(1.8e308, 2, 2); here 1.7e308",
            "bigdiag.json",
            fc3d_json(
                "bigdiag",
                &[
                    vec![1.7e308, 0.0, 0.0],
                    vec![0.0, 2.0, 0.0],
                    vec![0.0, 0.0, 2.0],
                ],
                &[-1.0, 0.0, 0.0],
                &[0.5],
                "coulomb",
            ),
            Expect::Valid(Valid {
                info_must_not_say: vec!["rank 0", "singular"],
                ..Default::default()
            }),
        ),
        one(
            "nasty/fc3d-denormal-w",
            "issue 8: info reported rank 0, condition 1, for a matrix of subnormals",
            "denormalw.json",
            fc3d_json(
                "denormalw",
                &identity(3, 1e-310),
                &[-1e-310, 0.0, 0.0],
                &[0.5],
                "coulomb",
            ),
            Expect::Valid(Valid {
                info_must_not_say: vec!["rank 0"],
                ..Default::default()
            }),
        ),
        one(
            "nasty/fc3d-check-overflowing-denominator",
            "issue 8: check reported error inf when the denominator overflowed and the absolute error was 0.71",
            "overflow.json",
            fc3d_json(
                "overflow",
                &identity(3, 1.0),
                &[-2e154, 0.0, 0.0],
                &[0.5],
                "coulomb",
            ),
            with_answer(
                &["auto"],
                vec![Answer {
                    file: "near.txt".into(),
                    bytes: b"2e154 0.5 0.5\n".to_vec(),
                    accepted: true,
                }],
            ),
        ),
        one(
            "nasty/fc3d-duplicate-contacts",
            "two identical contacts: W is singular, the solution is not unique",
            "dup.json",
            fc3d_json(
                "dup",
                &[
                    vec![1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
                    vec![0.0, 1.0, 0.0, 0.0, 1.0, 0.0],
                    vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
                    vec![1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
                    vec![0.0, 1.0, 0.0, 0.0, 1.0, 0.0],
                    vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
                ],
                &[-1.0, 0.2, 0.0, -1.0, 0.2, 0.0],
                &[0.5, 0.5],
                "coulomb",
            ),
            Expect::Valid(valid(&["auto"])),
        ),
        one(
            "nasty/fc3d-separating",
            "every contact separates: r = 0",
            "sep.json",
            fc3d_json(
                "sep",
                &identity(3, 1.0),
                &[1.0, 5.0, -3.0],
                &[0.5],
                "coulomb",
            ),
            Expect::Valid(valid(fc_methods)),
        ),
        one(
            "nasty/fc3d-frictionless",
            "mu = 0",
            "mu0.json",
            fc3d_json("mu0", &w2, &[-1.0, 0.5, 0.2], &[0.0], "coulomb"),
            Expect::Valid(valid(fc_methods)),
        ),
        one(
            "nasty/fc3d-zero-q",
            "q = 0: r = 0 solves",
            "q0.json",
            fc3d_json("q0", &w2, &[0.0, 0.0, 0.0], &[0.5], "coulomb"),
            Expect::Valid(valid(fc_methods)),
        ),
        one(
            "nasty/fc3d-no-contacts",
            "a friction problem with no contacts",
            "none.dat",
            "3\n0\n0 0 0 0 0\n",
            Expect::Either,
        ),
        one(
            "nasty/lcp-empty",
            "an LCP of size 0",
            "lcp0.dat",
            "0\n0 0 0 0 0\n",
            Expect::Either,
        ),
    ];
    // Generated scenes with nasty parameters.
    use nonsmooth::io::{AnyProblem, json};
    use nonsmooth::multibody::scenes;
    let scene =
        |name: &str, why: &str, s: scenes::Scene, mu: Option<f64>, must: &[&'static str]| {
            let mut p = s.local_problem().expect("scene assembles");
            if let Some(m) = mu {
                p = nonsmooth::problem::FrictionContact::new(
                    p.w().clone(),
                    p.q().clone(),
                    nalgebra::DVector::from_element(p.contacts(), m),
                    p.kind(),
                )
                .expect("valid mu");
            }
            let text = json::to_string(name, &AnyProblem::Friction(p), None, &s.provenance(false));
            one(
                &format!("nasty/{name}"),
                why,
                &format!("{name}.json"),
                text + "\n",
                Expect::Valid(valid(must)),
            )
        };
    v.push(scene(
        "heavy-on-light-1e6",
        "issue 8: with mass ratio 1e6 no method reached 1e-8 (the cone Newton stopped at 1.4e-8)",
        scenes::heavy_on_light(1e6).expect("scene"),
        None,
        &["nsn", "prox-nsn"],
    ));
    v.push(scene(
        "box-stack-mu-1e6",
        "issue 8: with mu = 1e6 NSGS and PROX stalled at 0.5-0.9 while the cone Newton converged in 9 iterations",
        scenes::box_stack(3).expect("scene"),
        Some(1e6),
        &["auto", "nsn"],
    ));
    v
}

/// Mutations of one seed: truncations, token replacements, invisible characters, byte
/// flips, deleted and repeated lines, and (for the binary `.npy` files) header edits.
pub fn mutations(seed: &Seed, rng: &mut Rng) -> Vec<Case> {
    let mut out = Vec::new();
    for (fi, (path, original)) in seed.files.iter().enumerate() {
        let is_npy = path.ends_with(".npy");
        let mut variants: Vec<(String, Vec<u8>)> = Vec::new();
        // Truncations: at the middle, near the end, one byte short, and random points.
        let len = original.len();
        let mut cuts = vec![len / 2, len.saturating_sub(2), len.saturating_sub(1)];
        for _ in 0..2 {
            cuts.push(rng.below(len.max(1)));
        }
        cuts.sort_unstable();
        cuts.dedup();
        for c in cuts {
            variants.push((format!("truncate-{c}"), original[..c].to_vec()));
        }
        // Byte flips.
        for _ in 0..if is_npy { 4 } else { 3 } {
            let mut b = original.clone();
            if b.is_empty() {
                break;
            }
            let k = rng.below(b.len());
            let bit = 1u8 << rng.below(8);
            b[k] ^= bit;
            variants.push((format!("flip-{k}-{bit}"), b));
        }
        if is_npy {
            variants.extend(npy_header_mutations(original, rng));
        } else {
            variants.extend(text_mutations(original, rng));
        }
        let mut seen = std::collections::HashSet::new();
        for (tag, b) in variants {
            if !seen.insert(tag.clone()) {
                continue; // the same mutation drawn twice
            }
            let files = seed
                .files
                .iter()
                .enumerate()
                .map(|(k, (p, orig))| bytes(p, if k == fi { b.clone() } else { orig.clone() }))
                .collect();
            let file_tag = path.replace('/', "_");
            out.push(Case {
                name: format!("mut/{}/{file_tag}/{tag}", seed.name),
                why: format!("mutation `{tag}` of {path} in seed {}", seed.name),
                files,
                input: seed.input.clone(),
                expect: Expect::Either,
            });
        }
    }
    out
}

/// Token-level and character-level mutations of a text file.
fn text_mutations(original: &[u8], rng: &mut Rng) -> Vec<(String, Vec<u8>)> {
    const REPLACEMENTS: &[&str] = &[
        "nan",
        "NaN",
        "inf",
        "-inf",
        "1e999",
        "-1e999",
        "-1",
        "1e308",
        "-1e308",
        "4.9e-324",
        "1e-400",
        "0x10",
        "1,5",
        "18446744073709551616",
        "99999999999999999999999999",
        "-0",
        "+1",
        "١",
        "１",
        "\"7\"",
        "null",
        "true",
        "[]",
        "{}",
        "0",
        "3",
    ];
    const INVISIBLE: &[(&str, &[u8])] = &[
        ("bom", b"\xef\xbb\xbf"),
        ("nbsp", "\u{a0}".as_bytes()),
        ("nul", b"\0"),
        ("zwsp", "\u{200b}".as_bytes()),
        ("cr", b"\r"),
        ("formfeed", b"\x0c"),
        ("escape", b"\x1b[31m"),
        ("latin1-e-acute", b"\xe9"),
    ];
    let text = original;
    // Numeric token positions: maximal runs of [0-9.eE+-].
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i].is_ascii_digit() || text[i] == b'-' {
            let s = i;
            while i < text.len() && (text[i].is_ascii_alphanumeric() || b".+-".contains(&text[i])) {
                i += 1;
            }
            tokens.push((s, i));
        } else {
            i += 1;
        }
    }
    let mut out = Vec::new();
    if !tokens.is_empty() {
        for _ in 0..10 {
            let (s, e) = *pick(rng, &tokens);
            let r = *pick(rng, REPLACEMENTS);
            let b = [&text[..s], r.as_bytes(), &text[e..]].concat();
            out.push((format!("token-{s}-{}", sanitize(r)), b));
        }
        // The last number cut mid-way, without a line end after it.
        let (s, e) = *tokens.last().expect("non-empty");
        if e - s > 1 {
            out.push(("last-number-cut".into(), text[..e - 1].to_vec()));
        }
    }
    for (name, ins) in INVISIBLE {
        let at = if *name == "bom" {
            0
        } else {
            rng.below(text.len().max(1))
        };
        let b = [&text[..at], ins, &text[at..]].concat();
        out.push((format!("insert-{name}-{at}"), b));
    }
    let lines: Vec<&[u8]> = text.split(|&c| c == b'\n').collect();
    if lines.len() > 2 {
        let k = rng.below(lines.len());
        let del: Vec<&[u8]> = lines
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != k)
            .map(|(_, l)| *l)
            .collect();
        out.push((format!("delete-line-{k}"), del.join(&b'\n')));
        let k = rng.below(lines.len());
        let mut dup = lines.clone();
        dup.insert(k, lines[k]);
        out.push((format!("repeat-line-{k}"), dup.join(&b'\n')));
    }
    out
}

/// Header edits of a `.npy` file.
fn npy_header_mutations(original: &[u8], rng: &mut Rng) -> Vec<(String, Vec<u8>)> {
    let hlen = u16::from_le_bytes([original[8], original[9]]) as usize;
    let header = String::from_utf8_lossy(&original[10..10 + hlen])
        .trim_end()
        .to_string();
    let data = &original[10 + hlen..];
    let edits: &[(&str, &str, &str)] = &[
        ("descr-f4", "'<f8'", "'<f4'"),
        ("descr-i8", "'<f8'", "'<i8'"),
        ("descr-u1", "'<f8'", "'|u1'"),
        ("descr-be", "'<f8'", "'>f8'"),
        ("descr-list", "'<f8'", "[('a', '<f8')]"),
        (
            "descr-nested",
            "'<f8'",
            "[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]",
        ),
        ("fortran-true", "False", "True"),
        ("fortran-int", "False", "0"),
        ("shape-key-dup", "'shape'", "'shape': (1,), 'shape'"),
        ("shape-parens", "(", ")"),
        ("shape-empty", "'shape': (", "'shape': (0, "),
        ("shape-huge", "'shape': (", "'shape': (1000000000000, "),
        ("quotes-double", "'descr'", "\"descr\""),
        ("no-braces", "{", ""),
    ];
    let mut out = Vec::new();
    for (tag, from, to) in edits {
        if header.contains(from) {
            let h = header.replacen(from, to, 1);
            out.push((format!("header-{tag}"), npy_raw(&h, data)));
        }
    }
    // Random printable garbage in the header.
    for _ in 0..3 {
        let mut h = header.clone().into_bytes();
        let k = rng.below(h.len());
        h[k] = *pick(rng, b"(){}[]',: 0123456789abc\\");
        out.push((
            format!("header-byte-{k}"),
            npy_raw(&String::from_utf8_lossy(&h), data),
        ));
    }
    out
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Writes `case` under `dir` (created). FIFOs are made with `mkfifo`.
pub fn write_case(case: &Case, dir: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for f in &case.files {
        let p = dir.join(&f.path);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent)?;
        }
        match &f.content {
            Content::Bytes(b) => std::fs::write(&p, b)?,
            Content::Dir => std::fs::create_dir_all(&p)?,
            Content::Fifo => {
                let st = std::process::Command::new("mkfifo").arg(&p).status()?;
                if !st.success() {
                    return Err(std::io::Error::other("mkfifo failed"));
                }
            }
            Content::Link(target) => std::os::unix::fs::symlink(target, &p)?,
        }
    }
    if let Expect::Valid(v) = &case.expect {
        for a in &v.answers {
            std::fs::write(dir.join(&a.file), &a.bytes)?;
        }
    }
    Ok(())
}
