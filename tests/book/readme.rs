//! The README's result tables are what the program prints now: `tests/book/readme.rs` re-runs
//! `nonsmooth solve data/` (every problem the project ships) and compares every column but the wall-clock `seconds` with the blocks
//! `scripts/readme_results.sh` spliced into README.md. It also checks that the README
//! gives the test command CI runs.

use std::path::Path;
use std::process::Command;

fn block(readme: &str, name: &str) -> Vec<String> {
    let start = format!("<!-- results:{name} -->\n");
    let end = format!("<!-- /results:{name} -->");
    let i = readme
        .find(&start)
        .unwrap_or_else(|| panic!("README has no block {name}"))
        + start.len();
    let j = readme[i..].find(&end).unwrap() + i;
    readme[i..j].lines().map(str::to_string).collect()
}

/// The row without its last cell (`seconds`).
fn without_time(row: &str) -> String {
    let cells: Vec<&str> = row
        .trim()
        .trim_matches('|')
        .split('|')
        .map(str::trim)
        .collect();
    cells[..cells.len().saturating_sub(1)].join(" | ")
}

fn solve_markdown(path: &Path) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_nonsmooth"))
        .args(["solve", "--format", "markdown", "--quiet"])
        .arg(path)
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn compare(name: &str, readme_rows: &[String], now: &[String], skip: impl Fn(&str) -> bool) {
    let a: Vec<String> = readme_rows
        .iter()
        .filter(|r| !skip(r))
        .map(|r| without_time(r))
        .collect();
    let b: Vec<String> = now
        .iter()
        .filter(|r| !skip(r))
        .map(|r| without_time(r))
        .collect();
    assert!(
        !a.is_empty(),
        "README block {name} is empty: run scripts/readme_results.sh"
    );
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(
            x, y,
            "README block {name} is stale: run scripts/readme_results.sh"
        );
    }
    assert_eq!(
        a.len(),
        b.len(),
        "README block {name} has a different number of rows"
    );
}

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

#[test]
fn data_table_is_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The README was generated with the hdf5 feature; without it those rows say `skipped`.
    let hdf5 = cfg!(feature = "hdf5");
    compare(
        "data",
        &block(&readme(), "data"),
        &solve_markdown(&root.join("data")),
        |row| !hdf5 && row.contains(".hdf5 |"),
    );
}

#[test]
fn readme_gives_the_two_commands() {
    let text = readme();
    assert!(text.contains("cargo run --release -- solve data/"));
    assert!(text.contains("cargo test --release"));
}

/// The campaign's blocks (`examples/bench_campaign.rs` splices them) are the generated
/// profile and ratio tables at 1e-8: the README shows what the bench produced.
#[test]
fn bench_blocks_are_the_generated_tables() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = readme();
    for (name, file) in [
        ("bench-profile", "bench_profile_1e-8.txt"),
        ("bench-ratios", "bench_ratios_1e-8.txt"),
    ] {
        let generated =
            std::fs::read_to_string(root.join("book/src/generated").join(file)).unwrap();
        let block = block(&text, name).join("\n");
        assert_eq!(
            block.trim_end(),
            generated.trim_end(),
            "README block {name} differs from book/src/generated/{file}: run \
             `cargo run --release --example bench_campaign`"
        );
    }
}
