//! The learning aids: a summary at the end of every chapter, and solutions or hints for the
//! exercises, in `solutions.md`.
//!
//! * Every chapter but the exempt ones (`NO_SUMMARY`) ends with a section `## Summary` of 3 to
//!   6 bullet points: no `## ` heading comes after it.
//! * Every chapter with an `## Exercises` section links from that section to its part of the
//!   solutions, `solutions.md#STEM` (STEM the chapter's file name without `.md`), and the
//!   solutions page has a heading with that id (`## Title {#STEM}`).
//! * Every exercise the solutions page refers to, `[Title, exercise N](STEM.md#exercises)`,
//!   exists: the chapter's exercise list has at least N items. And every exercise of every
//!   chapter has an entry on the solutions page.
//!
//! The checks work on strings, so the tests at the bottom show on in-memory text that each one
//! fires.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Pages without a summary: the introduction (a map of the book, which a summary would only
/// repeat), the notation page and glossary (a reference table), the bibliography, and the
/// solutions page itself. `SUMMARY.md` is mdBook's table of contents, not a chapter.
const NO_SUMMARY: &[&str] = &[
    "SUMMARY.md",
    "introduction.md",
    "notation.md",
    "bibliography.md",
    "solutions.md",
];

const SOLUTIONS: &str = "solutions.md";

fn book_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src")
}

/// Every `.md` file of `book/src` (not its subfolders), by name, sorted.
fn pages() -> BTreeMap<String, String> {
    fs::read_dir(book_src())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "md"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// The `## ` headings of `text` outside fenced code, as (line index, heading text).
fn headings(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced && let Some(h) = line.strip_prefix("## ") {
            out.push((i, h.trim().to_string()));
        }
    }
    out
}

/// The lines of the section `## heading` (up to the next `## ` heading or the end).
fn section(text: &str, heading: &str) -> Option<Vec<String>> {
    let hs = headings(text);
    let k = hs.iter().position(|(_, h)| h == heading)?;
    let start = hs[k].0 + 1;
    let end = hs.get(k + 1).map_or(usize::MAX, |(i, _)| *i);
    Some(
        text.lines()
            .enumerate()
            .filter(|(i, _)| *i >= start && *i < end)
            .map(|(_, l)| l.to_string())
            .collect(),
    )
}

/// What is wrong with the end of a chapter: `None` if its last `## ` section is `Summary`
/// with 3 to 6 bullet points.
fn summary_problem(text: &str) -> Option<String> {
    let hs = headings(text);
    match hs.last() {
        None => return Some("has no `## ` section, so no `## Summary`".into()),
        Some((_, h)) if h != "Summary" => {
            return Some(match hs.iter().any(|(_, h)| h == "Summary") {
                true => format!("its `## Summary` is not the last section (`## {h}` follows)"),
                false => "has no `## Summary` section".into(),
            });
        }
        _ => {}
    }
    let body = section(text, "Summary").unwrap();
    let bullets = body
        .iter()
        .filter(|l| l.starts_with("- ") || l.starts_with("* "))
        .count();
    if !(3..=6).contains(&bullets) {
        return Some(format!(
            "its summary has {bullets} bullet points, not 3 to 6"
        ));
    }
    None
}

/// The number of exercises of a chapter: the items `N. ` at the start of a line in its
/// `## Exercises` section (0 without the section).
fn exercise_count(text: &str) -> usize {
    section(text, "Exercises").map_or(0, |lines| {
        lines
            .iter()
            .filter(|l| {
                let digits: String = l.chars().take_while(|c| c.is_ascii_digit()).collect();
                !digits.is_empty() && l[digits.len()..].starts_with(". ")
            })
            .count()
    })
}

/// What is wrong with the link from a chapter's exercises to its solutions, given the
/// solutions page: `None` without an Exercises section or with a good link.
fn solutions_link_problem(stem: &str, text: &str, solutions: &str) -> Option<String> {
    let lines = section(text, "Exercises")?;
    let target = format!("]({SOLUTIONS}#{stem})");
    if !lines.iter().any(|l| l.contains(&target)) {
        return Some(format!("its Exercises section has no link `{target}`"));
    }
    if !solutions.contains(&format!("{{#{stem}}}")) {
        return Some(format!(
            "{SOLUTIONS} has no heading with the id `{{#{stem}}}`"
        ));
    }
    None
}

/// The exercises the solutions page refers to, `[..., exercise N](STEM.md#exercises)`, as
/// (chapter file, N), in order.
fn referred_exercises(solutions: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut rest = solutions;
    while let Some(pos) = rest.find(".md#exercises)") {
        let before = &rest[..pos];
        let open = before.rfind("](").map(|i| i + 2);
        let label_start = before.rfind('[');
        if let (Some(open), Some(ls)) = (open, label_start) {
            let file = format!("{}.md", &before[open..]);
            let label = &before[ls + 1..open - 2];
            let n = label
                .rsplit_once("exercise ")
                .and_then(|(_, n)| n.trim().parse::<usize>().ok());
            if let Some(n) = n {
                out.push((file, n));
            }
        }
        rest = &rest[pos + 1..];
    }
    out
}

/// Problems between the solutions page and the chapters' exercise lists: references to
/// exercises that do not exist, and exercises without an entry.
fn solution_problems(solutions: &str, counts: &BTreeMap<String, usize>) -> Vec<String> {
    let mut problems = Vec::new();
    let referred: BTreeSet<(String, usize)> = referred_exercises(solutions).into_iter().collect();
    for (file, n) in &referred {
        match counts.get(file) {
            None => problems.push(format!(
                "{SOLUTIONS} refers to {file}, which is not a chapter"
            )),
            Some(&c) if *n == 0 || *n > c => problems.push(format!(
                "{SOLUTIONS} refers to exercise {n} of {file}, which has {c} exercises"
            )),
            _ => {}
        }
    }
    for (file, &c) in counts {
        for n in 1..=c {
            if !referred.contains(&(file.clone(), n)) {
                problems.push(format!(
                    "exercise {n} of {file} has no entry in {SOLUTIONS}"
                ));
            }
        }
    }
    problems
}

#[test]
fn every_chapter_ends_with_a_summary() {
    let problems: Vec<String> = pages()
        .iter()
        .filter(|(name, _)| !NO_SUMMARY.contains(&name.as_str()))
        .filter_map(|(name, text)| summary_problem(text).map(|p| format!("{name}: {p}")))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_exercise_section_links_to_its_solutions() {
    let pages = pages();
    let solutions = pages.get(SOLUTIONS).expect("book/src/solutions.md");
    let problems: Vec<String> = pages
        .iter()
        .filter(|(name, _)| name.as_str() != SOLUTIONS)
        .filter_map(|(name, text)| {
            let stem = name.trim_end_matches(".md");
            solutions_link_problem(stem, text, solutions).map(|p| format!("{name}: {p}"))
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_solution_refers_to_an_exercise_and_every_exercise_has_one() {
    let pages = pages();
    let solutions = pages.get(SOLUTIONS).expect("book/src/solutions.md");
    let counts: BTreeMap<String, usize> = pages
        .iter()
        .filter(|(name, _)| name.as_str() != SOLUTIONS)
        .map(|(name, text)| (name.clone(), exercise_count(text)))
        .filter(|(_, c)| *c > 0)
        .collect();
    assert!(
        counts.len() > 30,
        "found exercises in only {} chapters",
        counts.len()
    );
    let problems = solution_problems(solutions, &counts);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn summary_check_fires() {
    let good = "# T\n\n## Exercises\n\n1. A.\n\n## Summary\n\n- a\n- b\n- c\n";
    assert_eq!(summary_problem(good), None);
    let none = "# T\n\n## Exercises\n\n1. A.\n";
    assert!(summary_problem(none).unwrap().contains("no `## Summary`"));
    let not_last = "# T\n\n## Summary\n\n- a\n- b\n- c\n\n## Exercises\n\n1. A.\n";
    assert!(summary_problem(not_last).unwrap().contains("not the last"));
    let short = "# T\n\n## Summary\n\n- a\n- b\n";
    assert!(summary_problem(short).unwrap().contains("2 bullet points"));
    let long = "# T\n\n## Summary\n\n- a\n- b\n- c\n- d\n- e\n- f\n- g\n";
    assert!(summary_problem(long).unwrap().contains("7 bullet points"));
    // A heading inside a code block is not a section.
    let fenced = "# T\n\n## Summary\n\n- a\n- b\n- c\n\n```text\n## Not a heading\n```\n";
    assert_eq!(summary_problem(fenced), None);
}

#[test]
fn solutions_link_check_fires() {
    let sol = "# Solutions\n\n## The chapter {#chap}\n";
    let good =
        "# T\n\n## Exercises\n\n1. A.\n\nSee [the solutions](solutions.md#chap).\n\n## Summary\n";
    assert_eq!(solutions_link_problem("chap", good, sol), None);
    let no_exercises = "# T\n\n## Summary\n\n- a\n";
    assert_eq!(solutions_link_problem("chap", no_exercises, sol), None);
    // The link must be in the Exercises section, not elsewhere.
    let elsewhere = "# T\n\nSee [the solutions](solutions.md#chap).\n\n## Exercises\n\n1. A.\n";
    assert!(
        solutions_link_problem("chap", elsewhere, sol)
            .unwrap()
            .contains("no link")
    );
    let no_anchor = "# T\n\n## Exercises\n\n1. A.\n\n[s](solutions.md#chap)\n";
    assert!(
        solutions_link_problem("chap", no_anchor, "# Solutions\n\n## Other {#other}\n")
            .unwrap()
            .contains("no heading")
    );
}

#[test]
fn solution_references_check_fires() {
    let text = "# T\n\n## Exercises\n\n1. **A.** Do.\n2. **B.** Do\n   more.\n\n## Summary\n";
    assert_eq!(exercise_count(text), 2);
    let counts: BTreeMap<String, usize> = [("chap.md".to_string(), 2)].into();
    let good = "**[Chap, exercise 1](chap.md#exercises).** x\n\n**[Chap, exercise 2](chap.md#exercises).** y\n";
    assert_eq!(
        referred_exercises(good),
        vec![("chap.md".into(), 1), ("chap.md".into(), 2)]
    );
    assert!(solution_problems(good, &counts).is_empty());
    let too_far = format!("{good}**[Chap, exercise 3](chap.md#exercises).** z\n");
    assert_eq!(
        solution_problems(&too_far, &counts),
        vec!["solutions.md refers to exercise 3 of chap.md, which has 2 exercises"]
    );
    let wrong_chapter = format!("{good}[Other, exercise 1](other.md#exercises)\n");
    assert!(solution_problems(&wrong_chapter, &counts)[0].contains("not a chapter"));
    let missing = "**[Chap, exercise 1](chap.md#exercises).** x\n";
    assert_eq!(
        solution_problems(missing, &counts),
        vec!["exercise 2 of chap.md has no entry in solutions.md"]
    );
}
