//! Checks on the book's sources that `mdbook build` does not make.
//!
//! `mdbook build` exits with success when an `{{#include}}` names a missing file, and
//! renders an empty block when it names a missing anchor; a bare code fence is compiled as
//! Rust by the doctests of `src/lib.rs` and shown without a language by the book. This test
//! fails on all three, and on chapters that are not wired up:
//!
//! * every `{{#include PATH}}`, `{{#include PATH:ANCHOR}}` (and `#rustdoc_include`,
//!   `#playground`) in `book/src/**/*.md` names a file that exists, relative to the
//!   chapter, and every anchor has an `ANCHOR: name` line followed by an
//!   `ANCHOR_END: name` line in that file;
//! * every code fence has a language tag (```` ```text ````, ```` ```toml ````, ...);
//! * every chapter linked from `SUMMARY.md` exists and every chapter is linked;
//! * every chapter with a Rust block that rustdoc would run is included in `src/lib.rs` as a
//!   doctest (`#[doc = include_str!("../book/src/<chapter>.md")]`);
//! * the test command in `.ci/run` (`TEST_CMD=...`) appears in `README.md`, when there is one.
//!
//! The checker works on strings and a file-reading closure, so the tests at the bottom can
//! prove on in-memory text that each check fails when it should.

use std::fs;
use std::path::{Path, PathBuf};

/// One thing wrong with a Markdown file.
#[derive(Debug, Clone, PartialEq)]
struct Problem {
    /// 1-based line number in the Markdown file.
    line: usize,
    message: String,
}

/// An include-like directive found in a chapter.
#[derive(Debug, Clone, PartialEq)]
struct Include {
    line: usize,
    /// `include`, `rustdoc_include` or `playground`.
    kind: String,
    path: String,
    /// The anchor name, if the directive selects one (line ranges are not anchors).
    anchor: Option<String>,
}

/// Finds `{{#include ...}}`-style directives as mdbook's link preprocessor does: `{{`,
/// optional whitespace, `#type`, whitespace, then everything up to `}}`; the first
/// whitespace-separated word is `path[:range-or-anchor]`. Escaped directives
/// (`\{{#...}}`) are skipped, as mdbook skips them. Directives are found inside code
/// fences too, because mdbook expands them there.
fn find_includes(text: &str) -> Vec<Include> {
    let mut out = Vec::new();
    for (idx, line) in text.lines().enumerate() {
        let mut rest = line;
        let mut offset = 0;
        while let Some(pos) = rest.find("{{") {
            let abs = offset + pos;
            let after = &line[abs + 2..];
            // mdbook treats `\{{#` (no space before `#`) as an escaped directive.
            let escaped = abs > 0 && line.as_bytes()[abs - 1] == b'\\' && after.starts_with('#');
            let Some(close) = after.find("}}") else { break };
            let inner = &after[..close];
            offset = abs + 2 + close + 2;
            rest = &line[offset..];
            if escaped {
                continue;
            }
            let inner = inner.trim_start();
            let Some(directive) = inner.strip_prefix('#') else {
                continue;
            };
            let kind_len = directive
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(directive.len());
            let (kind, target) = directive.split_at(kind_len);
            if !matches!(kind, "include" | "rustdoc_include" | "playground") {
                continue;
            }
            if target.contains('}') || !target.starts_with(char::is_whitespace) {
                continue;
            }
            let Some(word) = target.split_whitespace().next() else {
                continue;
            };
            let (path, selector) = match word.split_once(':') {
                Some((p, s)) if kind != "playground" => (p, Some(s)),
                _ => (word, None),
            };
            out.push(Include {
                line: idx + 1,
                kind: kind.to_string(),
                path: path.to_string(),
                anchor: selector.and_then(anchor_of),
            });
        }
    }
    out
}

/// mdbook reads the part after the first `:` as a line range if its first field is a
/// number or empty (`:10`, `:2:10`, `::10`, `:2:`), and as an anchor otherwise.
fn anchor_of(selector: &str) -> Option<String> {
    let first = selector.split(':').next().unwrap_or("");
    if first.is_empty() || first.parse::<usize>().is_ok() {
        None
    } else {
        Some(first.to_string())
    }
}

/// The anchor name that follows `marker` (`ANCHOR:` or `ANCHOR_END:`) on `line`, read as
/// mdbook reads it: optional whitespace, then word characters and `-`.
fn anchor_names<'a>(line: &'a str, marker: &str) -> Vec<&'a str> {
    let mut names = Vec::new();
    let mut rest = line;
    while let Some(pos) = rest.find(marker) {
        let after = rest[pos + marker.len()..].trim_start();
        let end = after
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(after.len());
        if end > 0 {
            names.push(&after[..end]);
        }
        rest = &rest[pos + marker.len()..];
    }
    names
}

/// `Some(problem)` if `anchor` has no `ANCHOR: anchor` line followed by an
/// `ANCHOR_END: anchor` line in `source`.
fn check_anchor(source: &str, anchor: &str) -> Option<String> {
    let mut start = None;
    for (i, line) in source.lines().enumerate() {
        if start.is_none() && anchor_names(line, "ANCHOR:").contains(&anchor) {
            start = Some(i);
        } else if start.is_some() && anchor_names(line, "ANCHOR_END:").contains(&anchor) {
            return None;
        }
    }
    Some(match start {
        None => format!("anchor `{anchor}` not found (no `ANCHOR: {anchor}` line)"),
        Some(_) => {
            format!("anchor `{anchor}` is never closed (no `ANCHOR_END: {anchor}` after it)")
        }
    })
}

/// Checks every include directive of a chapter. `read(path)` returns the content of
/// `path` (relative to the chapter) or `None` if it does not exist.
fn check_includes(text: &str, read: &dyn Fn(&str) -> Option<String>) -> Vec<Problem> {
    let mut problems = Vec::new();
    for inc in find_includes(text) {
        match read(&inc.path) {
            None => problems.push(Problem {
                line: inc.line,
                message: format!(
                    "{{{{#{}}}}} names `{}`, which does not exist",
                    inc.kind, inc.path
                ),
            }),
            Some(source) => {
                if let Some(anchor) = &inc.anchor {
                    if let Some(msg) = check_anchor(&source, anchor) {
                        problems.push(Problem {
                            line: inc.line,
                            message: format!("{{{{#{}}}}} of `{}`: {msg}", inc.kind, inc.path),
                        });
                    }
                }
            }
        }
    }
    problems
}

/// A code fence opening: its character, its length and its info string.
struct Fence {
    ch: char,
    len: usize,
    info: String,
    line: usize,
}

/// Every fenced code block of a chapter (CommonMark fences of backticks or tildes), and a
/// problem for a fence that is never closed. Indentation is ignored, so fences inside list
/// items count too.
fn fences(text: &str) -> (Vec<Fence>, Vec<Problem>) {
    let mut found = Vec::new();
    let mut problems = Vec::new();
    let mut open: Option<(char, usize, usize)> = None;
    for (idx, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let ch = match t.chars().next() {
            Some(c @ ('`' | '~')) => c,
            _ => continue,
        };
        let run = t.chars().take_while(|&c| c == ch).count();
        if run < 3 {
            continue;
        }
        let info = t[run * ch.len_utf8()..].trim();
        match open {
            Some((och, olen, _)) => {
                if ch == och && run >= olen && info.is_empty() {
                    open = None;
                }
            }
            None => {
                if ch == '`' && info.contains('`') {
                    continue; // inline code such as ```a``` is not a fence
                }
                found.push(Fence {
                    ch,
                    len: run,
                    info: info.to_string(),
                    line: idx + 1,
                });
                open = Some((ch, run, idx + 1));
            }
        }
    }
    if let Some((_, _, line)) = open {
        problems.push(Problem {
            line,
            message: "code fence is never closed".to_string(),
        });
    }
    (found, problems)
}

/// Fails on a bare fence (no language tag) and on an unclosed fence.
fn check_fences(text: &str) -> Vec<Problem> {
    let (found, mut problems) = fences(text);
    for f in found {
        if f.info.is_empty() {
            problems.push(Problem {
                line: f.line,
                message: format!(
                    "untagged code fence `{}`: tag it (`rust,ignore`, `text`, `toml`, `console`, ...)",
                    f.ch.to_string().repeat(f.len)
                ),
            });
        }
    }
    problems
}

/// `true` if rustdoc would compile and run this block when the chapter is included as a
/// doc comment: every attribute is a Rust one and none is `ignore`.
fn is_doctested_rust(info: &str) -> bool {
    let tokens: Vec<&str> = info
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.is_empty() {
        return true; // rustdoc treats an untagged block as Rust
    }
    let rusty = |t: &str| {
        matches!(
            t,
            "rust"
                | "no_run"
                | "should_panic"
                | "compile_fail"
                | "test_harness"
                | "standalone_crate"
        ) || t.starts_with("edition")
    };
    tokens.iter().all(|t| rusty(t)) && !tokens.contains(&"ignore")
}

/// Everything that can be wrong with one chapter.
fn check_markdown(text: &str, read: &dyn Fn(&str) -> Option<String>) -> Vec<Problem> {
    let mut problems = check_includes(text, read);
    problems.extend(check_fences(text));
    problems.sort_by_key(|p| p.line);
    problems
}

/// Chapter files linked from a `SUMMARY.md`, in order (`[title](path.md)`; draft
/// chapters with an empty link are skipped).
fn summary_links(summary: &str) -> Vec<String> {
    let mut links = Vec::new();
    for line in summary.lines() {
        let mut rest = line;
        while let Some(pos) = rest.find("](") {
            let after = &rest[pos + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].trim();
            if !target.is_empty() {
                links.push(target.split('#').next().unwrap_or(target).to_string());
            }
            rest = &after[end..];
        }
    }
    links
}

// ---------------------------------------------------------------------------------------
// The checks on the real book.

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn book_src() -> PathBuf {
    root().join("book").join("src")
}

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

fn chapters() -> Vec<PathBuf> {
    let mut files = Vec::new();
    markdown_files(&book_src(), &mut files);
    assert!(
        !files.is_empty(),
        "no Markdown files under {}",
        book_src().display()
    );
    files
}

fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn includes_resolve_and_code_fences_are_tagged() {
    let mut report = Vec::new();
    for file in chapters() {
        let text = fs::read_to_string(&file).unwrap();
        let dir = file.parent().unwrap().to_path_buf();
        let read = move |p: &str| fs::read_to_string(dir.join(p)).ok();
        for p in check_markdown(&text, &read) {
            report.push(format!("{}:{}: {}", rel(&file), p.line, p.message));
        }
    }
    assert!(report.is_empty(), "book sources:\n{}", report.join("\n"));
}

#[test]
fn summary_links_exist_and_every_chapter_is_linked() {
    let src = book_src();
    let summary = fs::read_to_string(src.join("SUMMARY.md")).expect("book/src/SUMMARY.md");
    let links = summary_links(&summary);
    let mut report = Vec::new();
    for link in &links {
        if !src.join(link).is_file() {
            report.push(format!("SUMMARY.md links `{link}`, which does not exist"));
        }
    }
    for file in chapters() {
        let name = file
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if name != "SUMMARY.md" && !links.contains(&name) {
            report.push(format!(
                "book/src/{name} is not linked from SUMMARY.md (it would not be built)"
            ));
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn chapters_with_rust_code_are_doctested() {
    let lib = fs::read_to_string(root().join("src").join("lib.rs")).unwrap();
    let src = book_src();
    let mut report = Vec::new();
    for file in chapters() {
        let text = fs::read_to_string(&file).unwrap();
        let (found, _) = fences(&text);
        if let Some(f) = found.iter().find(|f| is_doctested_rust(&f.info)) {
            let name = file
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let needle = format!("include_str!(\"../book/src/{name}\")");
            if !lib.contains(&needle) {
                report.push(format!(
                    "{}:{}: a Rust block that rustdoc would run, but src/lib.rs has no \
                     `#[cfg(doctest)] #[doc = {needle}]`, so it is never compiled",
                    rel(&file),
                    f.line
                ));
            }
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn ci_test_command_matches_readme() {
    let ci = fs::read_to_string(root().join(".ci").join("run")).expect(".ci/run");
    let cmd = ci
        .lines()
        .find_map(|l| l.trim().strip_prefix("TEST_CMD="))
        .expect(".ci/run defines TEST_CMD=...")
        .trim_matches('"')
        .to_string();
    assert!(cmd.starts_with("cargo test"), "TEST_CMD = {cmd:?}");
    match fs::read_to_string(root().join("README.md")) {
        Ok(readme) => assert!(
            readme.contains(&cmd),
            "README.md does not show the command CI runs: `{cmd}` (TEST_CMD in .ci/run)"
        ),
        Err(_) => println!("notice: no README.md yet; TEST_CMD = `{cmd}` not compared"),
    }
}

// ---------------------------------------------------------------------------------------
// The checker can fail: in-memory chapters and files.

mod checker {
    use super::*;
    use std::collections::HashMap;

    const LISTING: &str = "\
fn main() {
    // ANCHOR: setup
    let x = 1;
    // ANCHOR_END: setup
    // ANCHOR: open_only
    let y = 2;
    // ANCHOR_END: other
    // ANCHOR_END: backwards
    // ANCHOR: backwards
}
";

    fn files() -> HashMap<&'static str, &'static str> {
        HashMap::from([("../../examples/listing.rs", LISTING)])
    }

    fn check(md: &str) -> Vec<Problem> {
        let files = files();
        let read = move |p: &str| files.get(p).map(|s| s.to_string());
        check_markdown(md, &read)
    }

    fn messages(md: &str) -> Vec<String> {
        check(md).into_iter().map(|p| p.message).collect()
    }

    #[test]
    fn existing_file_and_anchor_pass() {
        let md = "# T\n\n```rust,ignore\n{{#include ../../examples/listing.rs:setup}}\n```\n";
        assert_eq!(check(md), vec![]);
        let whole = "```rust,ignore\n{{#include ../../examples/listing.rs}}\n```\n";
        assert_eq!(check(whole), vec![]);
    }

    #[test]
    fn missing_file_fails_with_its_line() {
        let md = "text\n\n```rust,ignore\n{{#include ../../examples/nope.rs:setup}}\n```\n";
        let p = check(md);
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].line, 4);
        assert!(p[0].message.contains("nope.rs") && p[0].message.contains("does not exist"));
    }

    #[test]
    fn missing_anchor_fails() {
        let md = "```rust,ignore\n{{#include ../../examples/listing.rs:teardown}}\n```\n";
        let m = messages(md);
        assert_eq!(m.len(), 1, "{m:?}");
        assert!(m[0].contains("`teardown` not found"), "{m:?}");
    }

    #[test]
    fn anchor_without_matching_end_fails() {
        let md = "```rust,ignore\n{{#include ../../examples/listing.rs:open_only}}\n```\n";
        let m = messages(md);
        assert_eq!(m.len(), 1, "{m:?}");
        assert!(m[0].contains("never closed"), "{m:?}");
    }

    #[test]
    fn end_before_start_fails() {
        let md = "```rust,ignore\n{{#include ../../examples/listing.rs:backwards}}\n```\n";
        assert_eq!(messages(md).len(), 1);
    }

    #[test]
    fn anchor_names_match_whole_words_only() {
        // `set` is a prefix of `setup`, not an anchor of its own.
        let md = "```rust,ignore\n{{#include ../../examples/listing.rs:set}}\n```\n";
        assert_eq!(messages(md).len(), 1);
    }

    #[test]
    fn line_ranges_are_not_anchors_but_the_file_must_exist() {
        for sel in [":2", ":2:4", "::4", ":2:"] {
            let ok =
                format!("```rust,ignore\n{{{{#include ../../examples/listing.rs{sel}}}}}\n```\n");
            assert_eq!(check(&ok), vec![], "{sel}");
            let bad =
                format!("```rust,ignore\n{{{{#include ../../examples/gone.rs{sel}}}}}\n```\n");
            assert_eq!(check(&bad).len(), 1, "{sel}");
        }
    }

    #[test]
    fn other_directives_and_spacing_are_checked() {
        let md = "```rust\n{{ #rustdoc_include ../../examples/gone.rs:setup }}\n```\n\
                  {{#playground ../../examples/gone.rs editable}}\n";
        assert_eq!(check(md).len(), 2, "{:?}", check(md));
    }

    #[test]
    fn escaped_directives_and_placeholders_are_ignored() {
        let md = "Write \\{{#include missing.rs}} to include a file.\n\n\
                  <!-- include: what goes here -->\n\n{{title}} {{ not a directive }}\n";
        assert_eq!(check(md), vec![]);
        // mdbook escapes only `\{{#`; with a space the directive is live.
        assert_eq!(check("\\{{ #include missing.rs}}\n").len(), 1);
    }

    #[test]
    fn several_directives_on_one_line_are_all_checked() {
        let md = "{{#include ../../examples/listing.rs:setup}} and {{#include a.rs}} and {{#include b.rs}}\n";
        assert_eq!(check(md).len(), 2);
    }

    #[test]
    fn bare_fence_fails_and_tagged_fences_pass() {
        let bare = "# T\n\n```\nlet x = 1;\n```\n";
        let p = check(bare);
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].line, 3);
        assert!(p[0].message.contains("untagged"));
        for tag in ["text", "toml", "console", "rust,ignore", "rust"] {
            assert_eq!(check(&format!("```{tag}\nx\n```\n")), vec![], "{tag}");
        }
    }

    #[test]
    fn tilde_long_and_indented_fences_are_checked() {
        assert_eq!(check("~~~\nx\n~~~\n").len(), 1);
        assert_eq!(check("````\nx\n````\n").len(), 1);
        assert_eq!(check("1. item\n\n   ```\n   x\n   ```\n").len(), 1);
        assert_eq!(check("~~~text\nx\n~~~\n"), vec![]);
    }

    #[test]
    fn a_closing_fence_is_not_an_opening_one() {
        // The bare ``` closes the tagged block; the bare ``` inside the four-backtick block
        // is content. Neither is an untagged opening.
        let md = "```text\na\n```\n\n````markdown\n```\nnested\n```\n````\n";
        assert_eq!(check(md), vec![]);
    }

    #[test]
    fn unclosed_fence_fails() {
        let p = check("```text\nnever closed\n");
        assert_eq!(p.len(), 1);
        assert!(p[0].message.contains("never closed"));
    }

    #[test]
    fn inline_triple_backticks_are_not_fences() {
        assert_eq!(check("```a``` is inline code\n"), vec![]);
    }

    #[test]
    fn rust_blocks_that_rustdoc_runs_are_recognised() {
        for info in [
            "rust",
            "",
            "rust,no_run",
            "should_panic",
            "rust,edition2021",
        ] {
            assert!(is_doctested_rust(info), "{info:?}");
        }
        for info in ["rust,ignore", "text", "console", "toml", "json", "ignore"] {
            assert!(!is_doctested_rust(info), "{info:?}");
        }
    }

    #[test]
    fn summary_links_are_read() {
        let s = "# Summary\n\n[Introduction](introduction.md)\n\n- [A](a.md)\n  - [B](sub/b.md#x)\n- [Draft]()\n";
        assert_eq!(
            summary_links(s),
            vec!["introduction.md", "a.md", "sub/b.md"]
        );
    }
}
