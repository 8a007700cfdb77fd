//! Every listing the book includes from a source file is numbered and captioned with the
//! file it comes from: the line before its fence reads
//! ``**Listing 4.2.3.** `anchor`, from `src/file.rs` ``, where `4.2` is the chapter's number
//! as mdBook numbers it (from `SUMMARY.md`) and `3` the listing's place in the chapter.
//!
//! The numbers follow the chapters' order, so adding a chapter or a listing renumbers the
//! rest: `NONSMOOTH_BLESS=1 cargo test --release --test book sources::listings` rewrites the captions
//! (and inserts missing ones); without it the test fails on any caption that is missing or
//! wrong, naming the chapter and line.
//!
//! A reference in a chapter's prose to one of its own listings ("listing 4.2.3", "Listings
//! 4.2.1 and 4.2.2") must carry the chapter's current number and a listing the chapter has;
//! the blessing above rewrites a stale chapter number in such references too, and the test
//! fails on a reference to a listing the chapter does not have. A listing of another chapter
//! is referred to by a link to that chapter, not by number.
//!
//! A listing from an example program is shown with its output: the chapter also includes a
//! table, text or figure the example writes (a file under `generated/` or `figures/` that the
//! example's source names).

use std::path::PathBuf;

fn book_src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("book/src")
}

/// The numbered chapters of `SUMMARY.md` in order: `(file, number)`, numbered as mdBook
/// numbers them (prefix chapters before the first list item are not numbered).
pub(crate) fn numbered_chapters(summary: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut counters: Vec<usize> = Vec::new();
    for line in summary.lines() {
        let trimmed = line.trim_start();
        let Some(item) = trimmed.strip_prefix("- ") else {
            continue;
        };
        let depth = (line.len() - trimmed.len()) / 2;
        counters.truncate(depth + 1);
        while counters.len() < depth + 1 {
            counters.push(0);
        }
        counters[depth] += 1;
        let Some(start) = item.find("](") else {
            continue;
        };
        let rest = &item[start + 2..];
        let Some(end) = rest.find(')') else { continue };
        let file = rest[..end].trim();
        if file.is_empty() {
            continue;
        }
        let number: Vec<String> = counters.iter().map(|c| c.to_string()).collect();
        out.push((file.to_string(), number.join(".")));
    }
    out
}

/// The source file and anchor of a fence body that is one `{{#include ../../FILE:ANCHOR}}`
/// (or `{{#rustdoc_include ...}}`) of a file outside the book.
fn included(body_first_line: &str) -> Option<(String, Option<String>)> {
    let t = body_first_line.trim();
    let inner = t
        .strip_prefix("{{#include ")
        .or_else(|| t.strip_prefix("{{#rustdoc_include "))?
        .strip_suffix("}}")?
        .trim();
    let path = inner.strip_prefix("../../")?;
    let (file, anchor) = match path.split_once(':') {
        Some((f, a)) => (f, Some(a.to_string())),
        None => (path, None),
    };
    Some((file.to_string(), anchor))
}

fn caption(number: &str, k: usize, file: &str, anchor: Option<&str>) -> String {
    match anchor {
        Some(a) => format!("**Listing {number}.{k}.** `{a}`, from `{file}`"),
        None => format!("**Listing {number}.{k}.** `{file}`"),
    }
}

fn is_caption(line: &str) -> bool {
    line.starts_with("**Listing ")
}

/// The chapter with every source listing captioned, and the problems found in the text as
/// it was (line numbers 1-based).
fn captioned(text: &str, number: &str) -> (String, Vec<String>) {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = Vec::new();
    let mut problems = Vec::new();
    let mut k = 0;
    let mut i = 0;
    let mut in_fence: Option<String> = None;
    while i < lines.len() {
        let line = lines[i];
        let t = line.trim_start();
        if let Some(open) = &in_fence {
            if t.starts_with(open.as_str()) && t.trim_start_matches('`').trim().is_empty() {
                in_fence = None;
            }
            out.push(line.to_string());
            i += 1;
            continue;
        }
        if t.starts_with("```") {
            let ticks: String = t.chars().take_while(|&c| c == '`').collect();
            let info = t[ticks.len()..].trim();
            let body = lines[i + 1..]
                .iter()
                .find(|l| !l.trim().is_empty())
                .copied()
                .unwrap_or("");
            if info.starts_with("rust") {
                if let Some((file, anchor)) = included(body) {
                    k += 1;
                    let want = caption(number, k, &file, anchor.as_deref());
                    // drop a caption (and its blank line) already emitted above the fence
                    let had = out.last().is_some_and(|l| is_caption(l));
                    let old = if had { out.pop() } else { None };
                    if old.as_deref() != Some(want.as_str()) {
                        problems.push(format!(
                            "line {}: listing {number}.{k} ({file}) needs the caption `{want}`",
                            i + 1
                        ));
                    }
                    if out.last().is_some_and(|l| !l.trim().is_empty()) {
                        out.push(String::new());
                    }
                    out.push(want);
                }
            }
            in_fence = Some(ticks);
            out.push(line.to_string());
            i += 1;
            continue;
        }
        out.push(line.to_string());
        i += 1;
    }
    let mut joined = out.join("\n");
    if text.ends_with('\n') {
        joined.push('\n');
    }
    (joined, problems)
}

/// The chapter with the listing references of its prose (outside fences and captions) set to
/// chapter `number`, and the problems found: a reference to another chapter's number (fixed
/// by the rewrite when the chapter has that listing) or to a listing the chapter does not
/// have (`count` listings). References read as `listing A.B.k` or `listings A.B.k and A.B.j`.
fn referenced(text: &str, number: &str, count: usize) -> (String, Vec<String>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let mut fenced = false;
    for (i, line) in text.split('\n').enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || is_caption(line) {
            out.push(line.to_string());
            continue;
        }
        let mut fixed = String::new();
        let mut rest = line;
        while let Some(at) = rest.to_lowercase().find("listing") {
            let (before, from) = rest.split_at(at);
            fixed.push_str(before);
            let word_len = if from[7..].starts_with('s') { 8 } else { 7 };
            fixed.push_str(&from[..word_len]);
            rest = &from[word_len..];
            // one or more numbers, joined by `,`, `and`, `to`
            loop {
                let sep: String = rest
                    .chars()
                    .take_while(|c| *c == ' ' || *c == ',')
                    .collect();
                let after = &rest[sep.len()..];
                let after = after
                    .strip_prefix("and ")
                    .or_else(|| after.strip_prefix("to "))
                    .map(|a| (a, &rest[sep.len()..rest.len() - a.len()]))
                    .unwrap_or((after, ""));
                let (body, joiner) = after;
                let num: String = body
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.')
                    .collect();
                let num = num.trim_end_matches('.');
                if num.is_empty() || !num.contains('.') {
                    break;
                }
                let (prefix, k) = num.rsplit_once('.').unwrap();
                let k: usize = k.parse().unwrap_or(0);
                fixed.push_str(&sep);
                fixed.push_str(joiner);
                if k == 0 || k > count {
                    problems.push(format!(
                        "line {}: listing {num}: the chapter has {count} listing(s)",
                        i + 1
                    ));
                    fixed.push_str(num);
                } else {
                    if prefix != number {
                        problems.push(format!(
                            "line {}: listing {num} should read listing {number}.{k}",
                            i + 1
                        ));
                    }
                    fixed.push_str(&format!("{number}.{k}"));
                }
                rest = &body[num.len()..];
            }
        }
        fixed.push_str(rest);
        out.push(fixed);
    }
    (out.join("\n"), problems)
}

#[test]
fn source_listings_are_numbered_and_name_their_file() {
    let summary = std::fs::read_to_string(book_src().join("SUMMARY.md")).unwrap();
    let bless = std::env::var_os("NONSMOOTH_BLESS").is_some();
    let mut problems = Vec::new();
    let mut listings = 0;
    for (file, number) in numbered_chapters(&summary) {
        let path = book_src().join(&file);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let (fixed, mut found) = captioned(&text, &number);
        let count = fixed.lines().filter(|l| is_caption(l)).count();
        listings += count;
        let (fixed, refs) = referenced(&fixed, &number, count);
        found.extend(refs);
        if bless {
            if fixed != text {
                std::fs::write(&path, &fixed).unwrap();
            }
        } else {
            problems.extend(found.into_iter().map(|p| format!("{file}: {p}")));
        }
    }
    assert!(listings > 0, "no source listings found");
    assert!(
        problems.is_empty(),
        "{} listing captions missing or stale (NONSMOOTH_BLESS=1 cargo test --release --test \
         book_listings rewrites them):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn chapters_are_numbered_as_mdbook_numbers_them() {
    let summary = "# Summary\n\n[Intro](intro.md)\n\n- [A](a.md)\n- [B](b.md)\n  - [B1](b1.md)\n  - [B2](b2.md)\n- [C](c.md)\n";
    let got = numbered_chapters(summary);
    let want: Vec<(String, String)> = [
        ("a.md", "1"),
        ("b.md", "2"),
        ("b1.md", "2.1"),
        ("b2.md", "2.2"),
        ("c.md", "3"),
    ]
    .iter()
    .map(|(f, n)| (f.to_string(), n.to_string()))
    .collect();
    assert_eq!(got, want);
}

#[test]
fn captions_are_inserted_once_and_renumbered() {
    let text = "Text.\n```rust,ignore\n{{#include ../../src/a.rs:one}}\n```\n\n\
                **Listing 9.9.** `old`, from `src/b.rs`\n```rust,ignore\n{{#include ../../src/b.rs}}\n```\n\
                ```text\n{{#include generated/x.txt}}\n```\n";
    let (fixed, problems) = captioned(text, "3");
    assert_eq!(problems.len(), 2);
    assert!(fixed.contains("Text.\n\n**Listing 3.1.** `one`, from `src/a.rs`\n```rust,ignore"));
    assert!(fixed.contains("\n**Listing 3.2.** `src/b.rs`\n```rust,ignore"));
    assert!(!fixed.contains("9.9"));
    // a second pass changes nothing and finds nothing
    let (again, none) = captioned(&fixed, "3");
    assert_eq!(again, fixed);
    assert!(none.is_empty());
}

#[test]
fn listing_references_follow_the_chapter_number() {
    let text = "See listing 16.2 and listings 16.1 and 16.2.\n```text\nlisting 9.9\n```\n\
                **Listing 16.1.** `a`, from `src/a.rs`\nListing 15.3 is not there; listing 15.1.\n";
    let (fixed, problems) = referenced(text, "15", 2);
    assert_eq!(
        fixed,
        "See listing 15.2 and listings 15.1 and 15.2.\n```text\nlisting 9.9\n```\n\
         **Listing 16.1.** `a`, from `src/a.rs`\nListing 15.3 is not there; listing 15.1.\n"
    );
    assert_eq!(problems.len(), 4, "{problems:?}");
    assert!(problems[3].contains("listing 15.3"), "{problems:?}");
    let (again, problems) = referenced(&fixed, "15", 3);
    assert_eq!(again, fixed);
    assert!(problems.is_empty(), "{problems:?}");
}

/// The files under `book/src` (`generated/...`, `figures/...`) that an example's source names.
fn outputs_named_in(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["generated/", "figures/"] {
        for (at, _) in source.match_indices(dir) {
            let name: String = source[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '_' | '-' | '.'))
                .collect();
            let name = name.trim_end_matches('.').to_string();
            if name.len() > dir.len() && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// A listing from an example program (not from its shared `support` helpers) sits in a
/// chapter that also shows what the program writes: an included table or text, or a figure.
#[test]
fn example_listings_are_shown_with_their_output() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut missing = Vec::new();
    let mut checked = 0;
    for entry in std::fs::read_dir(book_src()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines().filter(|l| is_caption(l)) {
            let Some(file) = line
                .split("from `")
                .nth(1)
                .and_then(|r| r.split('`').next())
            else {
                continue;
            };
            if !file.starts_with("examples/") || file.starts_with("examples/support/") {
                continue;
            }
            let source = std::fs::read_to_string(root.join(file)).unwrap_or_default();
            let outputs = outputs_named_in(&source);
            checked += 1;
            if !outputs.iter().any(|o| text.contains(o.as_str())) {
                missing.push(format!(
                    "{}: {line} (writes {outputs:?}, none shown)",
                    path.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    assert!(checked > 0, "no example listings found");
    assert!(
        missing.is_empty(),
        "example listings without their output:\n{}",
        missing.join("\n")
    );
}

#[test]
fn outputs_are_read_from_an_example_source() {
    let source = r#"support::publish("generated/a_b.txt", &t); // see figures/c-d.svg."#;
    assert_eq!(
        outputs_named_in(source),
        vec!["generated/a_b.txt", "figures/c-d.svg"]
    );
}
