//! The book is one path (SUMMARY.md order), and a chapter uses only what the chapters before
//! it define: each term of `TERMS` (a method, a measure, an object of the field) is first
//! mentioned, in every chapter that comes before its defining chapter, in a paragraph that
//! links the defining chapter, an explicit forward pointer ("... the cone Newton method (see
//! [Newton on the friction cone](newton-cone.md))"). A heading belongs to the paragraph
//! below it. Fenced blocks, inline code and link targets are not prose and are not searched.
//! The introduction, the notation page and the bibliography list terms ahead of time and are
//! exempt.
//!
//! The checker works on strings; the test at the bottom shows on in-memory text that a
//! misordered mention fails and a forward pointer passes.

use std::fs;
use std::path::{Path, PathBuf};

fn book_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src")
}

/// Terms and the chapter that defines them. Spellings are matched case-sensitively, as
/// whole words (no letter or digit on either side). A forward pointer links the defining
/// chapter or, for the terms of `FULLER`, the chapter that treats it in full.
const TERMS: &[(&[&str], &str)] = &[
    (&["Delassus"], "contact-problem.md"),
    (&["De Saxcé"], "contact-problem.md"),
    (
        &["maximal dissipation", "Maximal dissipation"],
        "contact-problem.md",
    ),
    (&["CCP"], "contact-problem.md"),
    (
        &["natural map", "Natural map", "natural-map"],
        "complementarity.md",
    ),
    (&["Fischer-Burmeister"], "complementarity.md"),
    (&["minimum map", "Minimum map"], "complementarity.md"),
    (&["error measure", "Error measure"], "complementarity.md"),
    (
        &["projected Gauss-Seidel", "Projected Gauss-Seidel", "PGS"],
        "splitting.md",
    ),
    (
        &["NSGS", "nonsmooth Gauss-Seidel", "Nonsmooth Gauss-Seidel"],
        "splitting.md",
    ),
    (
        &["PSOR", "projected Jacobi", "Projected Jacobi"],
        "splitting.md",
    ),
    (
        &["proximal operator", "Proximal operator"],
        "proximal-operators.md",
    ),
    (&["PROX"], "prox-schemes.md"),
    (&["r-factor", "R-factor"], "prox-schemes.md"),
    (&["B-subdifferential"], "complementarity.md"),
    (&["semismooth", "Semismooth"], "newton-nonsmooth.md"),
    (&["Fischer-Newton"], "fischer-newton.md"),
    (
        &["minimum-map Newton", "Minimum-map Newton"],
        "minmap-newton.md",
    ),
    (&["Armijo"], "line-search.md"),
    (&["forcing term", "Forcing term"], "inexact-newton.md"),
    (&["GMRES"], "inexact-newton.md"),
    (&["NNCG"], "nncg.md"),
    (&["cone Newton", "Alart-Curnier"], "newton-cone.md"),
    (
        &["generic mechanical problem", "Generic mechanical problem"],
        "generic-mechanical.md",
    ),
    (&["proximal-point", "Proximal-point"], "proximal-point.md"),
    (&["Lemke"], "complementarity.md"),
    (&["collision detection", "Collision detection"], "world.md"),
    (
        &["post-stabilisation", "Post-stabilisation"],
        "error-correction.md",
    ),
    (
        &["constraint force mixing", "Constraint force mixing", "CFM"],
        "damping-cfm.md",
    ),
    (
        &["shock propagation", "Shock propagation", "stack layer"],
        "shock-propagation.md",
    ),
];

/// Chapters that treat a term in full after a shorter definition: Lemke's method is
/// introduced with the LCP (complementarity.md) and derived in pivoting.md; the
/// B-subdifferential comes with the generalised derivatives of complementarity.md and is
/// studied in newton-nonsmooth.md. A pointer to either place is a forward pointer.
const FULLER: &[(&str, &str)] = &[
    ("Lemke", "pivoting.md"),
    ("B-subdifferential", "newton-nonsmooth.md"),
];

const EXEMPT: &[&str] = &["introduction.md", "notation.md", "bibliography.md"];

/// The `.md` files `summary` links, in order.
fn summary_order(summary: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in summary.lines() {
        if let Some(start) = line.find("](") {
            let rest = &line[start + 2..];
            if let Some(end) = rest.find(')') {
                let file = rest[..end].trim();
                if file.ends_with(".md") {
                    out.push(file.to_string());
                }
            }
        }
    }
    out
}

/// The paragraphs of a chapter's prose: fenced blocks and `{{#...}}` lines dropped, inline
/// code removed, a heading joined to the paragraph below it. Each paragraph is returned
/// twice: its prose with link targets removed (to search) and its raw text (to find links).
fn paragraphs(text: &str) -> Vec<(String, String)> {
    let mut blocks: Vec<Vec<&str>> = vec![Vec::new()];
    let mut fenced = false;
    let mut heading_pending = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || t.starts_with("{{#") {
            continue;
        }
        if t.is_empty() {
            if !heading_pending && !blocks.last().unwrap().is_empty() {
                blocks.push(Vec::new());
            }
            continue;
        }
        if t.starts_with('#') {
            if !blocks.last().unwrap().is_empty() && !heading_pending {
                blocks.push(Vec::new());
            }
            heading_pending = true;
        } else {
            heading_pending = false;
        }
        blocks.last_mut().unwrap().push(line);
    }
    blocks
        .into_iter()
        .filter(|b| !b.is_empty())
        .map(|b| {
            let raw = b.join("\n");
            (strip_code_and_targets(&raw), raw)
        })
        .collect()
}

/// `text` without inline code spans and without the targets of links (`](...)`).
fn strip_code_and_targets(text: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '`' {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if c == ']' && chars.peek() == Some(&'(') {
            out.push(']');
            for d in chars.by_ref() {
                if d == ')' {
                    break;
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// Whether `word` occurs in `text` as a whole word.
fn mentions(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// Whether `raw` links chapter `file` (`](file.md)` or `](file.md#anchor)`).
fn links(raw: &str, file: &str) -> bool {
    raw.contains(&format!("]({file})")) || raw.contains(&format!("]({file}#"))
}

/// The mentions that come before their defining chapter without a forward pointer, as
/// messages: for each chapter of `order` (with its text from `text_of`), each term defined in
/// a later chapter whose first mention in the chapter's prose is in a paragraph that does not
/// link the defining chapter.
fn misordered(
    order: &[String],
    text_of: &dyn Fn(&str) -> String,
    terms: &[(&[&str], &str)],
) -> Vec<String> {
    let mut problems = Vec::new();
    for (i, chapter) in order.iter().enumerate() {
        if EXEMPT.contains(&chapter.as_str()) {
            continue;
        }
        let paras = paragraphs(&text_of(chapter));
        for &(spellings, defined_in) in terms {
            let Some(j) = order.iter().position(|c| c == defined_in) else {
                problems.push(format!(
                    "{defined_in} (defines {spellings:?}) is not in SUMMARY.md"
                ));
                continue;
            };
            if i >= j {
                continue;
            }
            let first = paras
                .iter()
                .find(|(prose, _)| spellings.iter().any(|w| mentions(prose, w)));
            let pointer = |raw: &str| {
                links(raw, defined_in)
                    || FULLER
                        .iter()
                        .any(|&(t, f)| t == spellings[0] && links(raw, f))
            };
            if let Some((prose, raw)) = first
                && !pointer(raw)
            {
                let word = spellings.iter().find(|w| mentions(prose, w)).unwrap();
                let start: String = prose.chars().take(70).collect();
                problems.push(format!(
                    "{chapter}: \"{word}\" before {defined_in} defines it, with no link there \
                     (paragraph \"{}...\")",
                    start.replace('\n', " ")
                ));
            }
        }
    }
    problems
}

#[test]
fn terms_come_after_their_defining_chapter() {
    let summary = fs::read_to_string(book_src().join("SUMMARY.md")).unwrap();
    let order = summary_order(&summary);
    assert!(
        order.len() > 40,
        "SUMMARY.md lists {} chapters",
        order.len()
    );
    let read = |name: &str| fs::read_to_string(book_src().join(name)).unwrap();
    // every spelling is used in its defining chapter: the table names the right chapter
    let mut undefined = Vec::new();
    for &(spellings, defined_in) in TERMS {
        let prose: String = paragraphs(&read(defined_in))
            .into_iter()
            .map(|(p, _)| p)
            .collect::<Vec<_>>()
            .join("\n");
        if !spellings.iter().any(|w| mentions(&prose, w)) {
            undefined.push(format!("{defined_in} never names {spellings:?}"));
        }
    }
    assert!(undefined.is_empty(), "{}", undefined.join("\n"));
    let problems = misordered(&order, &read, TERMS);
    assert!(
        problems.is_empty(),
        "{} terms used before the chapter that defines them (reorder, or link the defining \
         chapter in that paragraph):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn order_check_finds_a_term_used_too_early() {
    let summary = "[Intro](introduction.md)\n- [A](a.md)\n- [B](b.md)\n\n[Bib](bibliography.md)\n";
    let order = summary_order(summary);
    assert_eq!(
        order,
        ["introduction.md", "a.md", "b.md", "bibliography.md"]
    );
    let terms: &[(&[&str], &str)] = &[(&["Lemke"], "b.md")];
    let text = |early: &'static str| {
        move |name: &str| match name {
            "a.md" => early.to_string(),
            "b.md" => "# B\n\nLemke's method.\n".to_string(),
            _ => "Lemke, ahead of time.".to_string(),
        }
    };
    // a plain mention before the defining chapter fails
    let p = misordered(
        &order,
        &text("# A\n\nSolve it with Lemke's method.\n"),
        terms,
    );
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].starts_with("a.md: \"Lemke\""), "{p:?}");
    // a forward pointer in the same paragraph passes, and so do later mentions
    let pointer = "# A\n\nLemke's method (see [Pivoting](b.md)).\n\nLemke again.\n";
    assert!(misordered(&order, &text(pointer), terms).is_empty());
    // a heading belongs to the paragraph below it
    let heading = "# A\n\n## Lemke\n\nThe pivoting [chapter](b.md#x) derives it.\n";
    assert!(misordered(&order, &text(heading), terms).is_empty());
    // code, fences, link targets and parts of words are not mentions
    let code = "# A\n\n`lemke` and `Lemke`, [x](lemke.md), Lemkes.\n\n```text\nLemke\n```\n";
    assert!(misordered(&order, &text(code), terms).is_empty());
    // a pointer to another chapter is not a pointer to the defining one
    let wrong = "# A\n\nLemke's method (see [A](a.md)).\n";
    assert_eq!(misordered(&order, &text(wrong), terms).len(), 1);
}
