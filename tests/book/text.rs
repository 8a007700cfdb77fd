//! Checks on what the book's chapters say, beside the structural checks of `tests/book/sources.rs`.
//!
//! * The introduction's learning path ("How to read it") links every chapter of `SUMMARY.md`,
//!   in the order of `SUMMARY.md`, each numbered chapter on an item that opens with the
//!   sidebar's number for it (`* **8.1.** [Fischer-Newton](fischer-newton.md) ...`).
//! * Every author-year citation in a chapter ("Erleben 2017", "Silcowitz, Niebe and Erleben
//!   (2009", "Macklin et al. 2019") has an entry in `bibliography.md` whose key names the same
//!   first author and year.
//! * Every subcommand the program's `--help` lists has a section in `command-line.md`, and
//!   every method `nonsmooth methods` lists is named in that chapter's prose.
//! * What the Fischer-Newton chapter says about its kink-strategy and inner-solver tables holds
//!   on the committed tables (`book/src/generated/newton_*.txt`).
//! * No chapter but the notation page uses a spelling the notation table forbids (`FORBIDDEN`):
//!   the time step `\Delta t` (it is $h$), the losing names of the sets (`\mathcal N` for
//!   $\mathbb R_+$, `D(\mu r_n)` for the friction disk $\mathcal F(r_n)$, `\operatorname{proj}`
//!   for $P_S$, the row sets $\mathcal F$/$\mathcal H$ for $\mathcal A$/$\mathcal I$ ...), and in
//!   the Newton chapters $H$ or $J$ for an element $V$ of the generalised Jacobian.
//!
//! * The implicit chapters write the bodies' velocity $v$, the tangential velocity $J_f v$
//!   and the friction compliance $c_f$ (not Macklin et al.'s $u$, $D^Tu$, $W$); the proximal
//!   chapters write the contact velocity $u$ (not $v$) and proximal-operators.md the r-factor
//!   $\rho$ (not $r$); no chapter calls NSGS projected Gauss-Seidel or the reverse.
//! * The splitting chapters write the size of a sliding impulse $\xi$, the rate of a sweep
//!   $\zeta(T)$ and a mass ratio $\chi$, not $\rho$ (a fixed point's step), $\gamma$
//!   (constraint force mixing) or $R$ (the r-factors); $\gamma(T)$ and $R/(1 + R)$ are caught
//!   in every chapter.
//! * No chapter refers to notes that do not ship ("NOTES"), and no chapter holds a control
//!   character other than the newline (a tab typed for `\t` turns `\tfrac` into "frac").
//!
//! The parsers work on strings, so the tests at the bottom show on in-memory text that each
//! check fails when it should.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn book_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src")
}

fn read(name: &str) -> String {
    let path = book_src().join(name);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The `.md` targets of the links in `text`, in order (`[title](target.md)` or
/// `[title](target.md#anchor)`); external links and non-Markdown targets are skipped.
fn md_links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(pos) = rest.find("](") {
        let after = &rest[pos + 2..];
        let Some(close) = after.find(')') else { break };
        let target = &after[..close];
        let file = target.split('#').next().unwrap_or("");
        if file.ends_with(".md") && !file.contains("://") && !file.contains('/') {
            out.push(file.to_string());
        }
        rest = &after[close..];
    }
    out
}

/// The body of the section `## heading` of `text` (up to the next `## ` heading).
fn section<'a>(text: &'a str, heading: &str) -> Option<&'a str> {
    let start = text.find(&format!("\n## {heading}\n"))? + 1;
    let body = &text[start..];
    let first_line = body.find('\n').map_or(body.len(), |i| i + 1);
    let end = body[first_line..]
        .find("\n## ")
        .map_or(body.len(), |i| first_line + i + 1);
    Some(&body[..end])
}

/// Chapters of `summary` missing from `path`, or named out of order, as messages. The
/// introduction itself is not expected in its own path.
fn reading_path_problems(summary: &str, path: &str) -> Vec<String> {
    let chapters: Vec<String> = md_links(summary)
        .into_iter()
        .filter(|c| c != "introduction.md")
        .collect();
    let named = md_links(path);
    let mut problems = Vec::new();
    let mut last: Option<(usize, &str)> = None;
    for chapter in &chapters {
        match named.iter().position(|n| n == chapter) {
            None => problems.push(format!("{chapter} is not in the reading path")),
            Some(i) => {
                if let Some((j, prev)) = last
                    && i < j
                {
                    problems.push(format!(
                        "{chapter} comes before {prev} in the reading path, after it in SUMMARY.md"
                    ));
                }
                last = Some((i, chapter));
            }
        }
    }
    problems
}

/// Items of the reading path whose number (`* **8.1.** [title](file.md)`) is not mdBook's
/// number of the chapter they link, or numbered chapters with no numbered item, as messages.
fn path_number_problems(summary: &str, path: &str) -> Vec<String> {
    let numbers = crate::listings::numbered_chapters(summary);
    let mut problems = Vec::new();
    for (file, number) in &numbers {
        let item = path.lines().find(|l| {
            l.trim_start()
                .strip_prefix("* **")
                .is_some_and(|r| md_links(r).first() == Some(file))
        });
        match item {
            None => problems.push(format!("{file} ({number}.) has no numbered item")),
            Some(line) => {
                let want = format!("* **{number}.** [");
                if !line.trim_start().starts_with(&want) {
                    problems.push(format!(
                        "{file}: the item should open with `{want}`: {line}"
                    ));
                }
            }
        }
    }
    problems
}

/// Words that start a sentence or a clause and so may stand before a year without being an
/// author ("The 2009 slides", "In 2017").
const NOT_AUTHORS: &[&str] = &[
    "A", "After", "An", "And", "As", "Before", "Beside", "Both", "By", "Chapter", "Figure", "For",
    "From", "Here", "In", "It", "Its", "Like", "NOTES", "Of", "On", "Per", "Section", "See",
    "Since", "So", "Table", "That", "The", "Their", "Then", "Theorem", "These", "This", "Unlike",
    "When", "Where", "Which", "With",
];

/// A word that can be (part of) an author's surname: a capital letter, then letters, hyphens
/// or apostrophes ("De" of "De Saxcé" included), with an optional trailing comma.
fn is_name(word: &str) -> bool {
    let w = word.trim_start_matches('(').trim_end_matches(',');
    let mut chars = w.chars();
    match chars.next() {
        Some(c) if c.is_uppercase() => {}
        _ => return false,
    }
    w.chars()
        .all(|c| c.is_alphabetic() || c == '-' || c == '\'')
        && !NOT_AUTHORS.contains(&w)
}

/// `(first author, year)` of every author-year citation in `text`: a year from 1950 to 2039
/// (optionally opened by `(`) preceded by a chain of surnames joined by `,`, `and` or followed
/// by `et al.`; the first surname of the chain is the first author.
fn citations(text: &str) -> Vec<(String, u32)> {
    // A chain never crosses a heading or a paragraph break: both become a word that is not
    // a name ("# Fischer-Newton" above "Silcowitz, Niebe and Erleben (2009)").
    let text: String = text
        .lines()
        .map(|l| {
            if l.trim().is_empty() || l.starts_with('#') {
                "\u{b6}"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let digits: String = word
            .trim_start_matches('(')
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if digits.len() != 4 || !word.trim_start_matches('(').starts_with(&digits[..]) {
            continue;
        }
        // The year must end the word or be followed by punctuation, not by more characters of
        // a number or an identifier ("2009x" is not a year, "2009," and "2009)" are).
        let tail = &word.trim_start_matches('(')[4..];
        if tail
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '.' && tail.len() > 1)
        {
            continue;
        }
        let year: u32 = digits.parse().unwrap();
        if !(1950..2040).contains(&year) {
            continue;
        }
        let mut j = i;
        let mut first: Option<&str> = None;
        while j > 0 {
            let w = words[j - 1];
            if w == "and" || w == "al." || w == "et" {
                j -= 1;
                continue;
            }
            if is_name(w) {
                first = Some(w);
                j -= 1;
                // A name that opens a parenthesis starts the chain.
                if w.starts_with('(') {
                    break;
                }
                continue;
            }
            break;
        }
        if let Some(name) = first {
            let name = name.trim_start_matches('(').trim_end_matches(',');
            // "De Saxcé": the chain walked back to the particle; keep it as the first word.
            out.push((name.to_string(), year));
        }
    }
    out
}

/// The bold keys of the bibliography's entries (`* **Erleben 2017.** ...`).
fn bibliography_keys(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("* **"))
        .filter_map(|l| l.split("**").next())
        .map(str::to_string)
        .collect()
}

fn has_entry(keys: &[String], author: &str, year: u32) -> bool {
    let year = year.to_string();
    keys.iter()
        .any(|k| k.split([' ', ',', '.']).any(|w| w == author) && k.contains(&year))
}

/// The chapters of the book: every `.md` file under `book/src` but `SUMMARY.md`.
fn chapters() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = fs::read_dir(book_src())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .filter(|p| p.file_name().is_some_and(|n| n != "SUMMARY.md"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, fs::read_to_string(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// The subcommands of a clap `--help` text (the `Commands:` block), without `help`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// The method names of `nonsmooth methods`: the first word of each unindented line.
fn method_names(listing: &str) -> Vec<String> {
    listing
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(char::is_whitespace))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// `text` without its `{{#include ...}}` lines, so that a generated listing does not count
/// as the chapter naming something.
fn prose(text: &str) -> String {
    text.lines()
        .filter(|l| !l.contains("{{#include"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The chapters that write Newton's method for $\Phi(x) = 0$, where an element of
/// $\partial_B\Phi$ is $V$ (notation.md) and $H$ is kept for the global problem's matrix.
const NEWTON_CHAPTERS: &[&str] = &[
    "complementarity.md",
    "newton-nonsmooth.md",
    "fischer-newton.md",
    "minmap-newton.md",
    "line-search.md",
    "inexact-newton.md",
    "newton-cone.md",
    "generic-mechanical.md",
    "solver-interface.md",
    "warm-starting.md",
];

/// The chapters of the implicit part, which follow Macklin et al. 2019 in the book's letters:
/// the bodies' velocity $v$ (their $u$), the tangential velocity $J_f v$ (their $D^Tu$), the
/// friction compliance $c_f$ (their $W$, which is the Delassus operator everywhere else).
const IMPLICIT_CHAPTERS: &[&str] = &[
    "implicit-stepping.md",
    "implicit-friction.md",
    "implicit-preconditioner.md",
    "implicit-newton-system.md",
    "implicit-krylov.md",
    "implicit-robustness.md",
    "implicit-rebuilt.md",
];

/// The chapters that follow Erleben 2017's letters ($\lambda$, $A$, $b$) but write the contact
/// velocity $u$ (not $v$, the bodies' velocity), and, in proximal-operators.md, the r-factor
/// $\rho$ (not $r$, the impulse).
const PROXIMAL_CHAPTERS: &[&str] = &[
    "proximal-operators.md",
    "ellipsoid-projection.md",
    "prox-schemes.md",
    "prox-experiments.md",
    "proximal-point.md",
];

/// The splitting chapters, whose own letters are $\xi$ (the size of a sliding impulse in the
/// one-contact solve), $\zeta(T)$ (the rate of a sweep) and $\chi$ (a mass ratio): $\rho$ is a
/// fixed point's step, $\gamma$ constraint force mixing and $R$ the r-factors (notation.md).
const SPLITTING_CHAPTERS: &[&str] = &["splitting.md", "splitting-scale.md"];

const SPLIT_RHO: &str =
    "the size of a sliding impulse is $\\xi$ ($\\rho$ is a fixed point's step, notation.md)";
const SPLIT_GAMMA: &str =
    "the rate of a sweep is $\\zeta(T)$ ($\\gamma$ is constraint force mixing, notation.md)";
const SPLIT_R: &str = "a mass ratio is $\\chi$ ($R$ is the r-factors, notation.md)";

const IMPLICIT_U: &str = "the bodies' velocity is $v$ (Macklin et al.'s $u$)";
const IMPLICIT_W: &str =
    "the friction compliance is $c_f$ (Macklin et al.'s $W$; $W$ is the Delassus operator)";
const PGS_NSGS: &str = "PGS is the row-wise projected Gauss-Seidel, NSGS the blocked nonsmooth \
                        Gauss-Seidel (splitting.md): name one of them";

/// Spellings the notation table (notation.md) forbids: the text, the chapters it is forbidden
/// in (`None`: every chapter but notation.md) and what the book writes instead. Each is a
/// plain substring of a chapter line, so a rule catches only the spellings it names.
const FORBIDDEN: &[(&str, Option<&[&str]>, &str)] = &[
    ("\\Delta t", None, "the time step is $h$"),
    ("Δt", None, "the time step is $h$"),
    (
        "\\mathcal N",
        None,
        "the set of normal impulses is $\\mathbb R_+$ ($N_S$ is a normal cone)",
    ),
    (
        "\\mathbb R_{\\ge",
        None,
        "the non-negative reals are $\\mathbb R_+$",
    ),
    (
        "\\mathbb{R}_{\\ge",
        None,
        "the non-negative reals are $\\mathbb R_+$",
    ),
    (
        "\\operatorname{proj}",
        None,
        "the projection onto a set $S$ is $P_S$",
    ),
    ("D(\\mu", None, "the friction disk is $\\mathcal F(r_n)$"),
    (
        "\\mathcal D",
        None,
        "the friction disk is $\\mathcal F(r_n)$",
    ),
    ("\\mathcal K_\\mu", None, "the friction cone is $K_\\mu$"),
    ("\\mathcal C_\\mu", None, "the friction cone is $K_\\mu$"),
    ("C_\\mu", None, "the friction cone is $K_\\mu$"),
    ("_{\\mathcal F}", None, "the free rows are $\\mathcal A$"),
    (
        "_{\\mathcal F\\mathcal",
        None,
        "the free rows are $\\mathcal A$",
    ),
    ("_{\\mathcal H}", None, "the held rows are $\\mathcal I$"),
    (
        "\\mathcal F\\mathcal H",
        None,
        "the held rows are $\\mathcal I$",
    ),
    (
        "H \\in \\partial",
        None,
        "an element of the generalised Jacobian is $V$",
    ),
    (
        "H_k",
        Some(NEWTON_CHAPTERS),
        "an element of the generalised Jacobian is $V$",
    ),
    (
        "H^T\\Phi",
        Some(NEWTON_CHAPTERS),
        "an element of the generalised Jacobian is $V$",
    ),
    (
        "H^T \\Phi",
        Some(NEWTON_CHAPTERS),
        "an element of the generalised Jacobian is $V$",
    ),
    (
        "H\\,\\Delta",
        Some(NEWTON_CHAPTERS),
        "an element of the generalised Jacobian is $V$",
    ),
    (
        "H\\Delta",
        Some(NEWTON_CHAPTERS),
        "an element of the generalised Jacobian is $V$",
    ),
    (
        "H d ",
        Some(NEWTON_CHAPTERS),
        "an element of the generalised Jacobian is $V$",
    ),
    (
        "Hd",
        Some(NEWTON_CHAPTERS),
        "an element of the generalised Jacobian is $V$",
    ),
    (
        "J(x",
        Some(NEWTON_CHAPTERS),
        "$J$ is the contact Jacobian; a smooth map's is $F'$",
    ),
    (
        "\\Phi + r",
        Some(NEWTON_CHAPTERS),
        "$r$ is the impulse; an inner solve's residual is $z$",
    ),
    (
        "+ r_k",
        Some(NEWTON_CHAPTERS),
        "$r$ is the impulse; an inner solve's residual is $z$",
    ),
    (
        "D^T",
        Some(IMPLICIT_CHAPTERS),
        "the tangential velocity is $J_f v$ (Macklin et al.'s $D^Tu$; $D$ is a derivative matrix)",
    ),
    ("velocity $u$", Some(IMPLICIT_CHAPTERS), IMPLICIT_U),
    ("of $u$", Some(IMPLICIT_CHAPTERS), IMPLICIT_U),
    ("\\Delta u", Some(IMPLICIT_CHAPTERS), IMPLICIT_U),
    ("\\widetilde u", Some(IMPLICIT_CHAPTERS), IMPLICIT_U),
    ("\\widetilde{u}", Some(IMPLICIT_CHAPTERS), IMPLICIT_U),
    ("q(u)", Some(IMPLICIT_CHAPTERS), IMPLICIT_U),
    ("$u = 0$", Some(IMPLICIT_CHAPTERS), IMPLICIT_U),
    ("[v, \\omega]", Some(IMPLICIT_CHAPTERS), IMPLICIT_U),
    ("$W$", Some(IMPLICIT_CHAPTERS), IMPLICIT_W),
    ("W\\lambda_f", Some(IMPLICIT_CHAPTERS), IMPLICIT_W),
    ("W \\lambda_f", Some(IMPLICIT_CHAPTERS), IMPLICIT_W),
    ("W_{", Some(IMPLICIT_CHAPTERS), IMPLICIT_W),
    (
        "v_N",
        Some(PROXIMAL_CHAPTERS),
        "the contact velocity is $u$ ($v$ is the bodies' velocity)",
    ),
    (
        "v_F",
        Some(PROXIMAL_CHAPTERS),
        "the contact velocity is $u$ ($v$ is the bodies' velocity)",
    ),
    (
        "v = A",
        None,
        "the contact velocity is $u$ ($v$ is the bodies' velocity)",
    ),
    (
        "r_N",
        Some(&["proximal-operators.md"]),
        "the r-factor is $\\rho$ in this chapter ($r$ is the impulse)",
    ),
    (
        "r_F",
        Some(&["proximal-operators.md"]),
        "the r-factor is $\\rho$ in this chapter ($r$ is the impulse)",
    ),
    ("\\rho", Some(SPLITTING_CHAPTERS), SPLIT_RHO),
    ("\\gamma(T)", None, SPLIT_GAMMA),
    ("\\gamma^k", Some(SPLITTING_CHAPTERS), SPLIT_GAMMA),
    ("1 - \\gamma", Some(SPLITTING_CHAPTERS), SPLIT_GAMMA),
    ("\\gamma = ", Some(SPLITTING_CHAPTERS), SPLIT_GAMMA),
    ("\\ln\\gamma", Some(SPLITTING_CHAPTERS), SPLIT_GAMMA),
    ("\\log_{10}\\gamma", Some(SPLITTING_CHAPTERS), SPLIT_GAMMA),
    ("R/(1 + R)", None, SPLIT_R),
    ("1/(1 + R)", None, SPLIT_R),
    ("{1 + R}", None, SPLIT_R),
    ("mass ratio $R$", None, SPLIT_R),
    ("$R$", Some(SPLITTING_CHAPTERS), SPLIT_R),
    ("1/R", Some(SPLITTING_CHAPTERS), SPLIT_R),
    ("Rm", Some(SPLITTING_CHAPTERS), SPLIT_R),
    ("projected Gauss-Seidel (NSGS", None, PGS_NSGS),
    ("Projected Gauss-Seidel (NSGS", None, PGS_NSGS),
    ("PGS (NSGS", None, PGS_NSGS),
    ("NSGS (PGS", None, PGS_NSGS),
    ("NSGS (projected", None, PGS_NSGS),
    ("PGS, NSGS)", None, PGS_NSGS),
];

/// The lines of chapter `name` (1-based) outside fenced blocks with a spelling of
/// `FORBIDDEN`, and what the book writes instead. The notation page states the rules, so it
/// may name what they forbid; so may a chapter's letters box, the blockquote at its top that
/// opens with `> **Letters.**` and maps a paper's letters to the book's.
fn forbidden_spellings(name: &str, text: &str) -> Vec<(usize, &'static str, &'static str)> {
    if name == "notation.md" {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut fenced = false;
    let mut letters_box = false;
    for (i, line) in text.lines().enumerate() {
        // Fenced blocks (pseudocode, listings, console output) are not the chapter's math.
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        letters_box = if line.starts_with("> **Letters.**") {
            true
        } else {
            letters_box && line.starts_with('>')
        };
        if letters_box {
            continue;
        }
        for &(spelling, scope, instead) in FORBIDDEN {
            if scope.is_some_and(|s| !s.contains(&name)) {
                continue;
            }
            if line.contains(spelling) {
                out.push((i + 1, spelling, instead));
            }
        }
    }
    out
}

fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_nonsmooth"))
        .args(args)
        .output()
        .expect("run nonsmooth");
    assert!(out.status.success(), "nonsmooth {args:?} failed: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_reading_path_names_every_chapter_in_order() {
    let summary = read("SUMMARY.md");
    let intro = read("introduction.md");
    let path = section(&intro, "How to read it").expect("introduction has 'How to read it'");
    let mut problems = reading_path_problems(&summary, path);
    problems.extend(path_number_problems(&summary, path));
    assert!(
        problems.is_empty(),
        "introduction.md:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_citation_has_a_bibliography_entry() {
    let keys = bibliography_keys(&read("bibliography.md"));
    assert!(keys.len() >= 30, "bibliography has {} entries", keys.len());
    let mut missing = Vec::new();
    let mut found = 0;
    for (name, text) in chapters() {
        if name == "bibliography.md" {
            continue;
        }
        for (author, year) in citations(&text) {
            found += 1;
            if !has_entry(&keys, &author, year) {
                missing.push(format!("{name}: {author} {year}"));
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(
        found > 100,
        "only {found} citations found: is the parser broken?"
    );
    assert!(
        missing.is_empty(),
        "cited but not in bibliography.md:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_subcommand_and_method_is_documented() {
    let chapter = read("command-line.md");
    let commands = subcommands(&run(&["--help"]));
    assert!(commands.len() >= 8, "--help lists {commands:?}");
    let missing: Vec<_> = commands
        .iter()
        .filter(|c| !chapter.contains(&format!("\n## `{c}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "command-line.md has no section for {missing:?}"
    );

    let methods = method_names(&run(&["methods"]));
    assert!(methods.len() >= 14, "`nonsmooth methods` lists {methods:?}");
    let text = prose(&chapter);
    let missing: Vec<_> = methods
        .iter()
        .filter(|m| !text.contains(&format!("`{m}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "command-line.md does not name the methods {missing:?}"
    );
}

#[test]
fn chapters_follow_the_notation_table() {
    let mut bad = Vec::new();
    for (name, text) in chapters() {
        for (line, spelling, instead) in forbidden_spellings(&name, &text) {
            bad.push(format!("{name}:{line}: `{spelling}`: {instead}"));
        }
    }
    assert!(
        bad.is_empty(),
        "spellings the notation table (notation.md) forbids:\n{}",
        bad.join("\n")
    );
}

/// References to working notes that do not ship with the book ("NOTES 2.5", "NOTES.md",
/// "NOTES §3.3"), as (line, text).
fn notes_references(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            l.match_indices("NOTES").any(|(at, _)| {
                let before = l[..at].chars().next_back();
                let after = l[at + 5..].chars().next();
                !before.is_some_and(char::is_alphanumeric)
                    && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        })
        .map(|(i, l)| (i + 1, l.trim().to_string()))
        .collect()
}

/// Control characters other than the newline in `text`, as (line, character).
fn control_characters(text: &str) -> Vec<(usize, char)> {
    let mut out = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        for c in line.chars().filter(|c| c.is_control()) {
            out.push((i + 1, c));
        }
    }
    out
}

#[test]
fn no_chapter_refers_to_notes_that_do_not_ship() {
    let mut bad = Vec::new();
    for (name, text) in chapters() {
        for (line, l) in notes_references(&text) {
            bad.push(format!("{name}:{line}: {l}"));
        }
    }
    assert!(
        bad.is_empty(),
        "references to the maintainers' notes, which do not ship (cite the paper):\n{}",
        bad.join("\n")
    );
}

#[test]
fn no_chapter_holds_control_characters() {
    let mut bad = Vec::new();
    let mut files = chapters();
    files.push(("SUMMARY.md".to_string(), read("SUMMARY.md")));
    for (name, text) in files {
        for (line, c) in control_characters(&text) {
            bad.push(format!("{name}:{line}: {c:?}"));
        }
    }
    assert!(
        bad.is_empty(),
        "control characters in the book's sources (a tab or form feed where `\\t` or `\\f` \
         was meant?):\n{}",
        bad.join("\n")
    );
}

// The checks themselves, on in-memory text.

#[test]
fn notes_and_control_character_checks_fire() {
    let text = "as in (NOTES 2.5)\nthe notes\nNOTES.md, section 2\nNOTESX and SNOTES\n";
    let lines: Vec<usize> = notes_references(text).iter().map(|r| r.0).collect();
    assert_eq!(lines, vec![1, 3]);
    let text = "$\\tfrac12$\n$\tfrac12$ and \u{c}rac\r\n";
    assert_eq!(
        control_characters(text),
        vec![(2, '\t'), (2, '\u{c}'), (2, '\r')]
    );
}

#[test]
fn reading_path_check_finds_missing_and_misordered_chapters() {
    let summary = "[Introduction](introduction.md)\n- [A](a.md)\n- [B](b.md)\n  - [C](c.md)\n";
    assert!(reading_path_problems(summary, "[A](a.md), [B](b.md#x), [C](c.md)").is_empty());
    let p = reading_path_problems(summary, "[A](a.md), [C](c.md)");
    assert_eq!(p, vec!["b.md is not in the reading path".to_string()]);
    let p = reading_path_problems(summary, "[B](b.md), [A](a.md), [C](c.md)");
    assert_eq!(p.len(), 1, "{p:?}");
    let path = "* **1.** [A](a.md) x\n* **2.** [B](b.md)\n* **2.1.** [C](c.md)\n";
    assert!(path_number_problems(summary, path).is_empty());
    let p = path_number_problems(summary, "* **1.** [A](a.md)\n* **3.** [B](b.md)\n");
    assert_eq!(p.len(), 2, "{p:?}");
    let intro = "# I\n\n## How to read it\n\n[A](a.md)\n\n## Sources\n\n[B](b.md)\n";
    assert_eq!(
        section(intro, "How to read it"),
        Some("## How to read it\n\n[A](a.md)\n\n")
    );
}

#[test]
fn citation_parser_finds_author_year_chains() {
    let text = "# Fischer-Newton\n\nas Erleben 2017 shows; Silcowitz, Niebe and Erleben (2009, section 3) and \
                Macklin et al. 2019 agree. The 2009 slides, an LCP of up to 2000 rows, \
                Acary, Brémond, Huber 2018 and De Saxcé and Feng (1991) and Anitescu (2006; \
                Anitescu and Hart 2004).";
    assert_eq!(
        citations(text),
        vec![
            ("Erleben".to_string(), 2017),
            ("Silcowitz".to_string(), 2009),
            ("Macklin".to_string(), 2019),
            ("Acary".to_string(), 2018),
            ("De".to_string(), 1991),
            ("Anitescu".to_string(), 2006),
            ("Anitescu".to_string(), 2004),
        ]
    );
    let keys =
        bibliography_keys("* **Erleben 2017.** K. Erleben.\n* **De Saxcé and Feng 1991.** x\n");
    assert!(has_entry(&keys, "Erleben", 2017));
    assert!(has_entry(&keys, "De", 1991));
    assert!(!has_entry(&keys, "Erleben", 2007));
    assert!(!has_entry(&keys, "Macklin", 2019));
}

#[test]
fn cli_parsers_read_help_and_methods() {
    let help =
        "Usage: x\n\nCommands:\n  solve  Solve\n  info   Describe\n  help   Print\n\nOptions:\n";
    assert_eq!(subcommands(help), vec!["solve", "info"]);
    let methods = "auto  (lcp)\n    runs x\nlemke  (lcp)\n    --set polish=true\n";
    assert_eq!(method_names(methods), vec!["auto", "lemke"]);
    assert_eq!(prose("a `x`\n{{#include generated/y.txt}}\n"), "a `x`");
    let lines = |name: &str, text: &str| -> Vec<usize> {
        forbidden_spellings(name, text)
            .iter()
            .map(|&(l, _, _)| l)
            .collect()
    };
    assert_eq!(lines("x.md", "a $h$\nb $\\Delta t$\nc Δt"), vec![2, 3]);
    assert!(lines("notation.md", "b $\\Delta t$").is_empty());
    // The Newton element: forbidden as $H_k$ in a Newton chapter, $H$ of the global form kept.
    let newton = "a $V_k \\in \\partial_B\\Phi$\nb $H_k d = -\\Phi$\nc $Mv = q + Hr$";
    assert_eq!(lines("newton-nonsmooth.md", newton), vec![2]);
    assert!(lines("splitting.md", newton).is_empty());
    assert!(lines("newton-nonsmooth.md", "```text\n$H_k$\n```").is_empty());
    // Sets: the friction disk, the normal impulses, the row sets of the Schur reduction.
    let sets = "$P_{\\mathcal F(r_n)}$\n$\\operatorname{proj}_{D(\\mu r_n)}$\n$\\mathcal N = [0, \\infty)$\n$r_{\\mathcal F}$\n$A_{\\mathcal A\\mathcal I}$";
    assert_eq!(lines("x.md", sets), vec![2, 2, 3, 4]);
    // The implicit chapters: Macklin et al.'s u, D^T u and W, except in the letters box.
    let implicit = "> **Letters.** $v$ (their $u$), $J_f v$ (their $D^Tu$), $c_f$ (their $W$)\n\
                    > more of the box: $W$\n\
                    the end-of-step velocity $u$\n$D^T u + W\\lambda_f = 0$\n$J_f v + c_f\\lambda_f = 0$\n\
                    the six entries $[v, \\omega]$ of $u$";
    assert_eq!(lines("implicit-stepping.md", implicit), vec![3, 4, 4, 6, 6]);
    assert!(lines("time-stepping.md", implicit).is_empty());
    // The proximal chapters: contact velocity u, r-factor rho; v = A lambda + b anywhere.
    let prox = "$\\lambda_N - r_N v_N$\n$\\lambda_F - \\rho_F u_F$\n$v = A\\lambda + b$";
    assert_eq!(lines("proximal-operators.md", prox), vec![1, 1, 3]);
    assert_eq!(lines("contact-problem.md", prox), vec![3]);
    // The splitting chapters: the slide's size xi, the rate zeta(T), the mass ratio chi; the
    // CFM shift gamma of the damping remedy is kept, and gamma(T) as a rate is caught anywhere.
    let split = "$r = \\rho\\, g(\\theta)$\n$r = \\xi\\, g(\\theta)$\n\
                 the rate $\\gamma(T)$ of a sweep\n$1 - \\gamma = 1/(1 + R)$\n\
                 $W + \\gamma I$ (constraint force mixing)\n$\\zeta = \\chi/(1 + \\chi)$";
    assert_eq!(lines("splitting.md", split), vec![1, 3, 4, 4, 4]);
    assert_eq!(lines("splitting-scale.md", split), vec![1, 3, 4, 4, 4]);
    assert_eq!(lines("damping-cfm.md", split), vec![3, 4]);
    // PGS and NSGS are two methods.
    let gs =
        "projected Gauss-Seidel (NSGS) here\nblocked nonsmooth Gauss-Seidel (NSGS)\nPGS (NSGS)";
    assert_eq!(lines("shock-propagation.md", gs), vec![1, 3]);
}

/// The rows of a Markdown table in `text` (the lines that start with `|`, header and rule
/// excluded), each as its trimmed cells.
fn table_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The claims the Fischer-Newton chapter makes about its kink-strategy table, checked on the
/// table (columns: scene, inner solve, strategy, kinks, iterations, passes, error, status).
fn kink_claims(table: &str) -> Result<(), String> {
    let rows = table_rows(table);
    let mut scenes: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    scenes.dedup();
    if scenes.len() != 3 {
        return Err(format!("three scenes expected, found {scenes:?}"));
    }
    let mut random_failed = 0;
    for scene in &scenes {
        let of = |inner: &str| -> Vec<&Vec<String>> {
            rows.iter()
                .filter(|r| r[0] == *scene && r[1] == inner)
                .collect()
        };
        let iters = |r: &Vec<String>| r[4].parse::<u32>().unwrap_or(u32::MAX);
        let (lu, gmres) = (of("lu"), of("gmres"));
        if gmres.iter().any(|r| r[7] != "converged") {
            return Err(format!("{scene}: not every strategy converged with GMRES"));
        }
        fn fixed<'a>(rs: &[&'a Vec<String>]) -> Option<&'a Vec<String>> {
            rs.iter().find(|r| r[2].starts_with("fixed")).copied()
        }
        let fixed_gmres = fixed(&gmres).ok_or("no fixed row")?;
        if gmres.iter().all(|r| iters(r) >= iters(fixed_gmres)) {
            return Err(format!(
                "{scene}: the fixed element is the fastest with GMRES"
            ));
        }
        if fixed(&lu).ok_or("no fixed row")?[7] != "converged" {
            return Err(format!(
                "{scene}: the fixed element did not converge with LU"
            ));
        }
        let random: Vec<_> = lu.iter().filter(|r| r[2].starts_with("random")).collect();
        let most = lu.iter().map(|r| iters(r)).max().unwrap_or(0);
        if random.iter().any(|r| r[7] != "converged") {
            random_failed += 1;
        } else if !random.iter().any(|r| iters(r) == most) {
            return Err(format!(
                "{scene}: a random element neither failed nor needed the most with LU"
            ));
        }
    }
    if random_failed != 2 {
        return Err(format!(
            "a random element failed with LU on {random_failed} scenes, not two"
        ));
    }
    Ok(())
}

/// The claims about the inner-solver table (columns: scene, unknowns, method, iterations,
/// passes, error, status): Fischer-Newton with GMRES converged on all four scenes, with LU it
/// failed on the wall, with the quasi-NCG on the pyramid and the wall, and GMRES is not the
/// one with the fewest Newton iterations on every scene.
fn inner_solver_claims(table: &str) -> Result<(), String> {
    let rows = table_rows(table);
    let row = |scene: &str, method: &str| {
        rows.iter()
            .find(|r| r[0].starts_with(scene) && r[2] == method)
            .ok_or(format!("no row {scene} / {method}"))
    };
    let mut scenes: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    scenes.dedup();
    if scenes.len() != 4 {
        return Err(format!("four scenes expected, found {scenes:?}"));
    }
    for scene in &scenes {
        if row(scene, "Fischer-Newton, gmres")?[6] != "converged" {
            return Err(format!(
                "{scene}: Fischer-Newton with GMRES did not converge"
            ));
        }
    }
    let failed = |scene: &str, m: &str| row(scene, m).map(|r| r[6] != "converged");
    if !failed("wall", "Fischer-Newton, lu")?
        || !failed("wall", "Fischer-Newton, qncg")?
        || !failed("pyramid", "Fischer-Newton, qncg")?
    {
        return Err("LU should fail on the wall, the quasi-NCG on the pyramid and the wall".into());
    }
    let newton = [
        "Fischer-Newton, lu",
        "Fischer-Newton, gmres",
        "Fischer-Newton, qncg",
        "minimum-map Newton",
    ];
    let iters = |r: &Vec<String>| r[3].parse::<u32>().unwrap_or(u32::MAX);
    let gmres_always_fewest = scenes.iter().all(|scene| {
        let g = row(scene, "Fischer-Newton, gmres").map(iters).unwrap_or(0);
        newton
            .iter()
            .all(|m| row(scene, m).map(iters).unwrap_or(u32::MAX) >= g)
    });
    if gmres_always_fewest {
        return Err("GMRES needed the fewest Newton iterations on every scene".into());
    }
    Ok(())
}

#[test]
fn fischer_newton_prose_matches_its_tables() {
    let kinks = read("generated/newton_kink_strategies.txt");
    kink_claims(&kinks).unwrap_or_else(|e| {
        panic!(
            "fischer-newton.md, 'Choices at the kinks': the prose no longer matches the table: {e}"
        )
    });
    let inner = read("generated/newton_inner_solvers.txt");
    inner_solver_claims(&inner).unwrap_or_else(|e| {
        panic!("fischer-newton.md, 'One iteration': the prose no longer matches the table: {e}")
    });
}

#[test]
fn table_claim_checks_fail_on_other_tables() {
    let kinks = read("generated/newton_kink_strategies.txt");
    // GMRES failing once breaks "every strategy converged with GMRES".
    let broken = kinks.replacen(
        "| gmres | zero (reduced) | 36 | 7 | 140 | 8.6e-13 | converged |",
        "| gmres | zero (reduced) | 36 | 7 | 140 | 8.6e-13 | not converged |",
        1,
    );
    assert_ne!(broken, kinks, "the row to break is in the table");
    assert!(kink_claims(&broken).is_err());
    let inner = read("generated/newton_inner_solvers.txt");
    let broken = inner
        .replacen(
            "| Fischer-Newton, gmres | 12 |",
            "| Fischer-Newton, gmres | 101 |",
            1,
        )
        .replacen(
            "| 687 | 9.9e-13 | converged |",
            "| 687 | 9.9e-13 | not converged |",
            1,
        );
    assert_ne!(broken, inner, "the row to break is in the table");
    assert!(inner_solver_claims(&broken).is_err());
}
