//! Helpers shared by the book's examples, included in each with
//! `#[path = "support/mod.rs"] mod support;`.
//!
//! Every number, table and figure the book shows is written by an example: text and tables
//! into `book/src/generated/`, figures (SVG, with the CSV of what they plot) into
//! `book/src/figures/`. Running an example (`cargo run --release --example NAME`) rewrites
//! its files. Its `#[test]`, which `cargo test --release` runs, computes the same content in
//! memory and fails if a committed file differs, so the book cannot drift from the code.
//! Set `NONSMOOTH_BLESS=1` to make the test rewrite the files instead of failing.
#![allow(dead_code)]

pub mod alloc;
pub mod frames;
pub mod panels;
pub mod plot;
pub mod series;
pub mod timing;

use std::path::PathBuf;

/// The crate's root folder.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The third-party problems (Siconos, OpenTissue, MuJoCo): `$NONSMOOTH_SHARED_DATA` if
/// set, else the copy the project ships in `<CARGO_MANIFEST_DIR>/data` (see
/// `data/README.md`); `None`, after a printed notice, when that folder is absent. The rule
/// is that of `tests/common/mod.rs`.
pub fn shared_data() -> Option<PathBuf> {
    let dir = match std::env::var_os("NONSMOOTH_SHARED_DATA") {
        Some(d) => PathBuf::from(d),
        None => root().join("data"),
    };
    if dir.is_dir() {
        Some(dir)
    } else {
        if std::env::var_os("NONSMOOTH_REQUIRE_SHARED_DATA").is_some() {
            panic!(
                "shared data folder {} not found, and NONSMOOTH_REQUIRE_SHARED_DATA is set",
                dir.display()
            );
        }
        eprintln!(
            "skipping: shared data folder {} not found (set NONSMOOTH_SHARED_DATA); \
             the committed output is left as it is",
            dir.display()
        );
        None
    }
}

/// The folder of what Siconos 4.4 reports on the data (`siconos-4.4-fc3d.tsv`,
/// `siconos-4.4-lcp.tsv`): `data/reference/` in the shipped layout, or `../reference/`
/// beside a data folder given by `$NONSMOOTH_SHARED_DATA`.
pub fn reference_dir(data: &std::path::Path) -> PathBuf {
    let inside = data.join("reference");
    if inside.is_dir() {
        inside
    } else {
        data.join("../reference")
    }
}

/// `true` when the committed files are checked rather than written: under `cargo test`,
/// unless `NONSMOOTH_BLESS` is set.
pub fn checking() -> bool {
    cfg!(test) && std::env::var_os("NONSMOOTH_BLESS").is_none()
}

/// Writes `content` to `book/src/<rel>` (a normal run, or a test with `NONSMOOTH_BLESS`),
/// or checks that the committed file holds exactly `content` (a test).
pub fn publish(rel: &str, content: &str) {
    // NONSMOOTH_PUBLISH_ONLY=a,b: write only the outputs whose path contains a or b (to
    // redraw a timing example's pictures without rewriting its machine-dependent numbers).
    // A test that checks (no NONSMOOTH_BLESS) checks every output whatever it says.
    if let Ok(only) = std::env::var("NONSMOOTH_PUBLISH_ONLY") {
        if !checking() && !only.split(',').any(|p| !p.is_empty() && rel.contains(p)) {
            eprintln!("skipped book/src/{rel} (NONSMOOTH_PUBLISH_ONLY={only})");
            return;
        }
    }
    let path = root().join("book/src").join(rel);
    if checking() {
        let committed = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run the example (or the test with NONSMOOTH_BLESS=1) to create it",
                path.display()
            )
        });
        if committed != content {
            let (line, ours, theirs) = first_difference(content, &committed);
            panic!(
                "book/src/{rel} is out of date at line {line}:\n  computed:  {ours}\n  committed: {theirs}\n\
                 run the example (or the test with NONSMOOTH_BLESS=1) and commit the result"
            );
        }
    } else {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
        }
        std::fs::write(&path, content)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        eprintln!("wrote book/src/{rel}");
    }
}

/// Writes (or checks) a figure: `figures/<name>.csv`, the points it plots, and
/// `figures/<name>.svg`, drawn from exactly those points.
/// The SVG's texts have their subscripts set ([`subscripts`]).
pub fn publish_figure(name: &str, csv: &str, svg: &str) {
    publish(&format!("figures/{name}.csv"), csv);
    publish(&format!("figures/{name}.svg"), &subscripts(svg));
}

/// `svg` with every `x_y` in the content of a `<text>` element written as `x` with a
/// subscript `y` (`y` the letters and digits after the underscore: `λ_N`, `K_μ*`, `r_f`),
/// as a `<tspan>` lowered by 0.3 em at 80 % of the size, the rest of the text raised back.
/// (`dy` rather than `baseline-shift`, which not every browser draws.)
pub fn subscripts(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(open) = rest.find("<text") {
        let Some(gt) = rest[open..].find('>') else {
            break;
        };
        let body = open + gt + 1;
        let Some(close) = rest[body..].find("</text>") else {
            break;
        };
        out.push_str(&rest[..body]);
        let content = &rest[body..body + close];
        let mut opened = 0;
        let mut chars = content.chars().peekable();
        while let Some(c) = chars.next() {
            let starts_sub = c == '_'
                && chars
                    .peek()
                    .is_some_and(|n| n.is_alphanumeric() && !n.is_whitespace());
            if !starts_sub {
                out.push(c);
                continue;
            }
            out.push_str("<tspan dy=\"0.3em\" font-size=\"80%\">");
            while let Some(&n) = chars.peek() {
                if !n.is_alphanumeric() {
                    break;
                }
                out.push(n);
                chars.next();
            }
            out.push_str("</tspan>");
            if let Some(&next) = chars.peek() {
                // a renderer may drop the leading space of a tspan ("u_topposite"): keep it
                out.push_str(if next.is_whitespace() {
                    "<tspan dy=\"-0.3em\" xml:space=\"preserve\">"
                } else {
                    "<tspan dy=\"-0.3em\">"
                });
                opened += 1;
            }
        }
        for _ in 0..opened {
            out.push_str("</tspan>");
        }
        rest = &rest[body + close..];
    }
    out.push_str(rest);
    out
}

/// The first line (1-based) where two texts differ, with both versions of it.
fn first_difference(a: &str, b: &str) -> (usize, String, String) {
    let (mut la, mut lb) = (a.lines(), b.lines());
    let mut n = 1;
    loop {
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => n += 1,
            (None, None) => return (n, "(trailing newline)".into(), "(differs)".into()),
            (x, y) => {
                return (
                    n,
                    x.unwrap_or("(end of text)").to_string(),
                    y.unwrap_or("(end of file)").to_string(),
                );
            }
        }
    }
}

/// A number in the book's exponent format, three decimals (`1.234e-9`).
pub fn sci(v: f64) -> String {
    format!("{v:.3e}")
}

// ANCHOR: best_of
/// The fastest of `runs` whole solves of `p` by `choice` from zero, through the registry
/// (what `nonsmooth solve --method` runs): its outcome and its wall time in seconds.
pub fn best_of(
    runs: usize,
    p: &nonsmooth::problem::AnyProblem,
    choice: &nonsmooth::registry::Choice,
    params: &nonsmooth::solver::Params,
) -> (nonsmooth::registry::Outcome, f64) {
    let mut best: Option<(nonsmooth::registry::Outcome, f64)> = None;
    for _ in 0..runs.max(1) {
        let t = std::time::Instant::now();
        let out = nonsmooth::registry::solve(
            p,
            choice,
            nalgebra::DVector::zeros(p.dim()),
            params,
            &mut nonsmooth::solver::no_observer(),
        );
        let s = t.elapsed().as_secs_f64();
        if best.as_ref().is_none_or(|b| s < b.1) {
            best = Some((out, s));
        }
    }
    best.expect("at least one run")
}
// ANCHOR_END: best_of

/// A scene of the implicit stepper by its command-line name and size: `pile` (the world
/// scene, `size` bodies) or one of [`nonsmooth::implicit::scenes::ImplicitScene`] (`size`
/// ignored by the scenes without one). Panics on an unknown name (the examples' own).
pub fn implicit_scene(
    name: &str,
    size: usize,
) -> (nonsmooth::world::World, nonsmooth::implicit::Model) {
    use nonsmooth::implicit::scenes::{self, ImplicitScene};
    use nonsmooth::world::scenes::pile::{self, PileParams};
    if name == "pile" {
        let w = pile::build(&PileParams {
            count: size,
            ..Default::default()
        })
        .unwrap();
        return (w, nonsmooth::implicit::Model::default());
    }
    let s = ImplicitScene::ALL
        .iter()
        .find(|s| s.name() == name)
        .copied()
        .unwrap_or_else(|| panic!("no implicit scene {name}"));
    scenes::build(s, s.size_meaning().map(|_| size)).unwrap()
}
