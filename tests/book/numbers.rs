//! The numbers the book's prose states are the numbers its generated outputs hold.
//!
//! A measured number in a chapter's prose ("the safeguarded Newton method needs 3.4
//! evaluations on average") is followed by a comment that names where it comes from:
//!
//! ```text
//! <!-- numbers from generated/ellipsoid_accuracy.txt:
//!      "**all** | safeguarded Newton" 3.4 18; "**all** | bisection" 49 134 -->
//! ```
//!
//! Each group is an optional quoted key (compared with runs of whitespace squeezed to one
//! space) and numbers, or words. [`claims_hold`] checks that every number
//! is written in the paragraph just above the comment and that a line of the generated file
//! containing the key holds a number that rounds to it (a whole number up to twenty may be
//! written as a word in the prose): `38` matches `37.7`, `0.126` matches
//! `0.125712`, `-1.63` matches `-1.626324e0`; `1e-13` (written $10^{-13}$ in prose) matches any
//! value whose decimal logarithm rounds to -13. So when an example is rerun and its output
//! changes, the test names the sentence that no longer holds.
//!
//! A claimed token that starts with a letter is a *word* (a status such as `stalled` or
//! `max-iterations`, a method's name): it must be written in the paragraph (as a whole word,
//! any case) and in a line of the file containing the key. Words in prose that describe what a
//! solver did go stale as silently as numbers do when the code changes.
//!
//! [`unclaimed_decimals`] keeps new numbers from slipping in unchecked: a decimal with two or
//! more significant digits in prose (outside code, math, links and headings; not a section,
//! equation or version number) must be claimed by such a comment in its chapter or declared
//! with `<!-- not measured: 1.5 9.81 -->`: a value the text chooses (a parameter), a version,
//! or a number quoted from a paper, not one this crate's code measured.
//!
//! The parsers work on strings; the tests at the bottom show on in-memory text that each check
//! fails when it should.

use std::fs;
use std::path::{Path, PathBuf};

fn book_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src")
}

/// The chapters of the book (every `.md` under `book/src` but the summary), sorted.
fn chapters() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = fs::read_dir(book_src())
        .expect("book/src is readable")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .filter(|p| p.file_name().is_some_and(|n| n != "SUMMARY.md"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let text = fs::read_to_string(&p).expect("chapter is readable");
            (name, text)
        })
        .collect();
    out.sort();
    out
}

/// One `<!-- numbers from FILE: ... -->` comment.
#[derive(Debug)]
struct Claim {
    /// 1-based line of the comment's start.
    line: usize,
    /// The paragraph just above the comment.
    paragraph: String,
    /// The generated file, relative to `book/src`.
    file: String,
    /// (key, numbers) groups; an empty key matches every line.
    groups: Vec<(String, Vec<String>)>,
}

const CLAIM_OPEN: &str = "<!-- numbers from ";

/// The claims of a chapter, or a message for a comment that does not parse.
fn claims(text: &str) -> Result<Vec<Claim>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].trim_start().starts_with(CLAIM_OPEN) {
            i += 1;
            continue;
        }
        let start = i;
        let mut body = String::new();
        loop {
            body.push_str(lines[i]);
            body.push(' ');
            if lines[i].contains("-->") {
                break;
            }
            i += 1;
            if i == lines.len() {
                return Err(format!("line {}: unterminated numbers comment", start + 1));
            }
        }
        i += 1;
        let body = body.trim();
        let inner = &body[body.find(CLAIM_OPEN).unwrap() + CLAIM_OPEN.len()..];
        let inner = inner[..inner.find("-->").unwrap()].trim();
        let (file, rest) = inner
            .split_once(':')
            .ok_or_else(|| format!("line {}: expected `FILE:` after `numbers from`", start + 1))?;
        let mut groups = Vec::new();
        for group in rest.split(';').map(str::trim).filter(|g| !g.is_empty()) {
            let (key, numbers) = if let Some(stripped) = group.strip_prefix('"') {
                let close = stripped
                    .find('"')
                    .ok_or_else(|| format!("line {}: unclosed key in `{group}`", start + 1))?;
                (stripped[..close].to_string(), &stripped[close + 1..])
            } else {
                (String::new(), group)
            };
            let numbers: Vec<String> = numbers.split_whitespace().map(String::from).collect();
            if numbers.is_empty()
                || numbers
                    .iter()
                    .any(|n| parse_claimed(n).is_none() && !is_word(n))
            {
                return Err(format!("line {}: bad numbers in `{group}`", start + 1));
            }
            groups.push((key, numbers));
        }
        if groups.is_empty() {
            return Err(format!(
                "line {}: a numbers comment with no numbers",
                start + 1
            ));
        }
        // The paragraph above: skip earlier comments of the same chain, then take lines up to
        // the previous blank line.
        let mut j = start;
        while j > 0 && lines[j - 1].contains("-->") {
            // Step over an earlier comment of the same chain, back to its opening line.
            let mut k = j - 1;
            while k > 0 && !lines[k].trim_start().starts_with("<!--") {
                k -= 1;
            }
            j = k;
        }
        let mut para = Vec::new();
        while j > 0 && !lines[j - 1].trim().is_empty() {
            j -= 1;
            para.push(lines[j]);
        }
        para.reverse();
        out.push(Claim {
            line: start + 1,
            paragraph: para.join("\n"),
            file: file.trim().to_string(),
            groups,
        });
    }
    Ok(out)
}

/// A claimed word: starts with a letter, then letters, digits, `-` or `_` (`stalled`,
/// `max-iterations`, `prox-gs`).
fn is_word(s: &str) -> bool {
    s.starts_with(|c: char| c.is_alphabetic())
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
}

/// Whether `text` holds `word` as a whole word (not inside a longer word), in any case.
fn has_word(text: &str, word: &str) -> bool {
    let (text, word) = (text.to_lowercase(), word.to_lowercase());
    let part = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    text.match_indices(word.as_str()).any(|(at, _)| {
        text[..at].chars().next_back().is_none_or(|c| !part(c))
            && text[at + word.len()..]
                .chars()
                .next()
                .is_none_or(|c| !part(c))
    })
}

/// A claimed number: `Some((value, decimals))`, or `(value, None)` for an order of
/// magnitude written `1e-13`.
fn parse_claimed(s: &str) -> Option<(f64, Option<usize>)> {
    if let Some(exp) = s.strip_prefix("1e") {
        return exp.parse::<i32>().ok().map(|e| (10f64.powi(e), None));
    }
    let v: f64 = s.parse().ok()?;
    if !v.is_finite() || s.contains(['e', 'E']) {
        return None;
    }
    let decimals = s.split_once('.').map_or(0, |(_, d)| d.len());
    Some((v, Some(decimals)))
}

/// The numbers written in `line` (signed, with exponents).
fn numbers_in(line: &str) -> Vec<f64> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_digit()
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.'));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j + 1 < b.len() && b[j] == b'.' && b[j + 1].is_ascii_digit() {
            j += 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
        }
        if j < b.len() && (b[j] == b'e' || b[j] == b'E') {
            let mut k = j + 1;
            if k < b.len() && (b[k] == b'-' || b[k] == b'+') {
                k += 1;
            }
            if k < b.len() && b[k].is_ascii_digit() {
                while k < b.len() && b[k].is_ascii_digit() {
                    k += 1;
                }
                j = k;
            }
        }
        let negative = i > 0 && b[i - 1] == b'-';
        if let Ok(v) = line[i..j].parse::<f64>() {
            out.push(if negative { -v } else { v });
        }
        i = j;
    }
    out
}

/// Whether `value` is what the prose's `claimed` number says.
fn matches(claimed: &str, value: f64) -> bool {
    match parse_claimed(claimed) {
        Some((c, None)) => value != 0.0 && value.abs().log10().round() == c.log10().round(),
        Some((c, Some(decimals))) => {
            (c < 0.0) == (value < 0.0)
                && format!("{:.*}", decimals, value.abs()) == format!("{:.*}", decimals, c.abs())
        }
        None => false,
    }
}

/// `text` with digit groups joined ("100 000" becomes "100000").
fn join_digit_groups(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let group_space = (c == ' ' || c == '\u{202f}' || c == '\u{2009}')
            && i > 0
            && chars[i - 1].is_ascii_digit()
            && chars
                .get(i + 1..i + 4)
                .is_some_and(|g| g.iter().all(char::is_ascii_digit))
            && chars.get(i + 4).is_none_or(|d| !d.is_ascii_digit());
        if !group_space {
            out.push(c);
        }
    }
    out
}

/// Whether the paragraph writes the claimed number (as a token; `1e-13` also as `10^{-13}`).
fn written_in(paragraph: &str, claimed: &str) -> bool {
    let text = join_digit_groups(paragraph);
    const WORDS: [&str; 21] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    let mut spellings = vec![claimed.trim_start_matches('-').to_string()];
    if let Some(word) = claimed.parse::<usize>().ok().and_then(|n| WORDS.get(n)) {
        spellings.push(word.to_string());
        let mut capital = word.to_string();
        capital[..1].make_ascii_uppercase();
        spellings.push(capital);
    }
    if let Some(exp) = claimed.strip_prefix("1e") {
        spellings.push(format!("10^{{{exp}}}"));
        if !exp.starts_with('-') {
            spellings.push(format!("10^{exp}"));
        }
    }
    spellings.iter().any(|s| {
        text.match_indices(s.as_str()).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + s.len()..].chars().next();
            let rest = &text[at + s.len()..];
            before.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '.'))
                && after.is_none_or(|c| !c.is_ascii_alphanumeric() || s.contains('^'))
                && !(rest.starts_with('.') && rest[1..].starts_with(|c: char| c.is_ascii_digit()))
        })
    })
}

/// `text` with every run of whitespace made one space (keys survive re-spaced columns).
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Messages for the claims of one chapter whose numbers are not in the prose or the file;
/// `read` returns a generated file's text (or `None` if it does not exist).
fn claims_hold(text: &str, read: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    let claims = match claims(text) {
        Ok(c) => c,
        Err(e) => return vec![e],
    };
    let mut problems = Vec::new();
    for claim in &claims {
        let Some(data) = read(&claim.file) else {
            problems.push(format!("line {}: no file {}", claim.line, claim.file));
            continue;
        };
        for (key, numbers) in &claim.groups {
            let key = squeeze(key);
            let rows: Vec<&str> = data.lines().filter(|l| squeeze(l).contains(&key)).collect();
            if rows.is_empty() {
                problems.push(format!(
                    "line {}: no line of {} contains {key:?}",
                    claim.line, claim.file
                ));
                continue;
            }
            for n in numbers {
                if is_word(n) {
                    if !has_word(&claim.paragraph, n) {
                        problems.push(format!(
                            "line {}: the word {n:?} is not written in the paragraph above the comment",
                            claim.line
                        ));
                    }
                    if !rows.iter().any(|row| has_word(row, n)) {
                        problems.push(format!(
                            "line {}: the word {n:?} is not in {} (lines containing {key:?})",
                            claim.line, claim.file
                        ));
                    }
                    continue;
                }
                if !written_in(&claim.paragraph, n) {
                    problems.push(format!(
                        "line {}: {n} is not written in the paragraph above the comment",
                        claim.line
                    ));
                }
                let found = rows
                    .iter()
                    .any(|row| numbers_in(row).iter().any(|&v| matches(n, v)));
                if !found {
                    problems.push(format!(
                        "line {}: {n} is not in {} (lines containing {key:?})",
                        claim.line, claim.file
                    ));
                }
            }
        }
    }
    problems
}

/// The prose of a chapter with line numbers: code fences, includes, inline code, display and
/// inline math, link targets, headings and HTML comments blanked out.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_fence = false;
    let mut in_comment = false;
    let mut in_display = false;
    for (k, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence || trimmed.starts_with("{{#") || trimmed.starts_with('#') {
            continue;
        }
        let mut s = String::new();
        let mut rest = line;
        while !rest.is_empty() {
            if in_comment {
                match rest.find("-->") {
                    Some(e) => {
                        rest = &rest[e + 3..];
                        in_comment = false;
                    }
                    None => rest = "",
                }
                continue;
            }
            if in_display {
                match rest.find("$$") {
                    Some(e) => {
                        rest = &rest[e + 2..];
                        in_display = false;
                    }
                    None => rest = "",
                }
                continue;
            }
            let c = rest.chars().next().unwrap();
            if rest.starts_with("<!--") {
                in_comment = true;
                rest = &rest[4..];
            } else if rest.starts_with("$$") {
                in_display = true;
                rest = &rest[2..];
            } else if c == '$' || c == '`' {
                match rest[1..].find(c) {
                    Some(e) => rest = &rest[e + 2..],
                    None => rest = "",
                }
                s.push(' ');
            } else if rest.starts_with("](") {
                match rest.find(')') {
                    Some(e) => rest = &rest[e + 1..],
                    None => rest = "",
                }
                s.push(']');
            } else {
                s.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
        out.push((k + 1, s));
    }
    out
}

/// Words after which a decimal is a reference (section 3.3, eq. 4.2, NOTES 2.5, Siconos 4.4),
/// not a quantity.
const REFERENCE_WORDS: &[&str] = &[
    "section",
    "sections",
    "chapter",
    "chapters",
    "arxiv",
    "§",
    "eq.",
    "eqs.",
    "equation",
    "equations",
    "notes",
    "prop.",
    "theorem",
    "lemma",
    "figure",
    "figures",
    "fig.",
    "table",
    "listing",
    "siconos",
    "version",
    "python",
    "cpython",
    "siconos up to",
    "rust",
];

/// Significant digits of a decimal token ("0.126" has 3, "1.0" and "0.05" have 1).
fn significant_digits(token: &str) -> usize {
    let digits: String = token.chars().filter(char::is_ascii_digit).collect();
    digits.trim_start_matches('0').trim_end_matches('0').len()
}

/// The decimals with two or more significant digits in a chapter's prose that no numbers
/// comment claims and no `not measured` comment declares, as (line, token).
fn unclaimed_decimals(text: &str) -> Vec<(usize, String)> {
    let mut allowed: Vec<String> = Vec::new();
    if let Ok(cs) = claims(text) {
        for c in cs {
            for (_, numbers) in c.groups {
                allowed.extend(
                    numbers
                        .into_iter()
                        .map(|n| n.trim_start_matches('-').to_string()),
                );
            }
        }
    }
    const NOT_MEASURED: &str = "<!-- not measured:";
    for (start, _) in text.match_indices(NOT_MEASURED) {
        let body = &text[start + NOT_MEASURED.len()..];
        let body = &body[..body.find("-->").unwrap_or(body.len())];
        allowed.extend(body.split_whitespace().map(String::from));
    }
    let mut out = Vec::new();
    let mut previous_line = String::new();
    for (line, prose) in prose_lines(text) {
        let b = prose.as_bytes();
        let mut i = 0;
        let mut previous_was_reference = false;
        let mut previous_end = 0;
        while i < b.len() {
            let starts = b[i].is_ascii_digit()
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.'));
            if !starts {
                i += 1;
                continue;
            }
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.') {
                j += 1;
            }
            let token = prose[i..j].trim_end_matches('.');
            let end = i + token.len();
            let before = format!("{previous_line} {}", &prose[..i]).to_lowercase();
            let gap = &prose[previous_end..i];
            let reference = REFERENCE_WORDS.iter().any(|w| {
                before
                    .trim_end()
                    .trim_end_matches('(')
                    .trim_end()
                    .ends_with(w)
            }) || (before.ends_with('(') && prose[end..].starts_with(')'))
                || (previous_was_reference
                    && matches!(gap.trim(), "," | "and" | "-" | "–" | "to" | "or" | "/" | ""));
            let is_decimal = token.contains('.') && token.split('.').count() == 2;
            if is_decimal
                && !reference
                && significant_digits(token) >= 2
                && !allowed.iter().any(|a| a == token)
            {
                out.push((line, token.to_string()));
            }
            previous_was_reference = reference;
            previous_end = end;
            i = j;
        }
        previous_line = prose;
    }
    out
}

#[test]
fn numbers_in_prose_match_the_generated_outputs() {
    let read = |rel: &str| fs::read_to_string(book_src().join(rel)).ok();
    let mut problems = Vec::new();
    let mut count = 0;
    for (name, text) in chapters() {
        count += claims(&text).map_or(0, |c| c.iter().map(|c| c.groups.len()).sum::<usize>());
        for p in claims_hold(&text, &read) {
            problems.push(format!("{name}: {p}"));
        }
    }
    assert!(
        problems.is_empty(),
        "prose numbers that do not hold:\n{}",
        problems.join("\n")
    );
    assert!(
        count > 0,
        "no numbers comments found: the check checks nothing"
    );
    println!("{count} claimed groups hold");
}

#[test]
fn every_measured_decimal_in_prose_is_claimed_or_a_parameter() {
    let mut problems = Vec::new();
    for (name, text) in chapters() {
        if name == "bibliography.md" {
            continue;
        }
        for (line, token) in unclaimed_decimals(&text) {
            problems.push(format!("{name}:{line}: {token}"));
        }
    }
    assert!(
        problems.is_empty(),
        "decimals in prose with neither a `<!-- numbers from FILE: ... -->` claim nor a \
         `<!-- not measured: ... -->` declaration:\n{}",
        problems.join("\n")
    );
}

#[test]
fn claim_checks_fail_when_they_should() {
    let data = "| all | newton | 3.44 | 18 |\n| all | bisection | 48.96 | 134 |\nt = -1.626324e0, g = 2.2e-13";
    let read = |rel: &str| (rel == "generated/x.txt").then(|| data.to_string());
    let good = "Newton needs 3.4 evaluations, at most 18; the step jumps to $-1.63$ and the\n\
                residual drops to about $10^{-13}$.\n\
                <!-- numbers from generated/x.txt: \"| newton |\" 3.4 18; -1.63 1e-13 -->\n";
    assert_eq!(claims_hold(good, &read), Vec::<String>::new());
    // A number of another row, a number the prose does not write, a wrong rounding, a missing
    // file, a missing key, an unterminated comment: each is reported.
    let wrong_row = "Newton needs 134.\n<!-- numbers from generated/x.txt: \"| newton |\" 134 -->";
    assert_eq!(claims_hold(wrong_row, &read).len(), 1);
    let not_written = "Newton needs few.\n<!-- numbers from generated/x.txt: 18 -->";
    assert_eq!(claims_hold(not_written, &read).len(), 1);
    let rounding = "Newton needs 3.5.\n<!-- numbers from generated/x.txt: 3.5 -->";
    assert_eq!(claims_hold(rounding, &read).len(), 1);
    let no_file = "It is 18.\n<!-- numbers from generated/y.txt: 18 -->";
    assert_eq!(claims_hold(no_file, &read).len(), 1);
    let no_key = "It is 18.\n<!-- numbers from generated/x.txt: \"lemke\" 18 -->";
    assert_eq!(claims_hold(no_key, &read).len(), 1);
    let open = "It is 18.\n<!-- numbers from generated/x.txt: 18";
    assert_eq!(claims_hold(open, &read).len(), 1);
    // Digit groups and the paragraph: "100 000" is 100000; the comment sees only its paragraph.
    assert!(written_in("ran to its cap of 100 000 pivots", "100000"));
    assert!(!written_in("ran 3.45 steps", "3.4"));
    assert!(written_in("solves all fifteen", "15") && written_in("Five of them", "5"));
    assert!(!written_in("someone", "1"));
    let other_para = "It is 18.\n\nNothing here.\n<!-- numbers from generated/x.txt: 18 -->";
    assert_eq!(claims_hold(other_para, &read).len(), 1);
    // Words: a status the prose states must be in the prose and in the file's row.
    let data = "| wall | nsgs | stalled | 1e-4 |\n| tower | ppa | converged | 1e-9 |";
    let read = |rel: &str| (rel == "generated/s.txt").then(|| data.to_string());
    let good =
        "On the wall NSGS Stalled.\n<!-- numbers from generated/s.txt: \"| wall |\" stalled -->";
    assert_eq!(claims_hold(good, &read), Vec::<String>::new());
    let stale = "On the wall NSGS converged.\n<!-- numbers from generated/s.txt: \"| wall |\" converged -->";
    assert_eq!(claims_hold(stale, &read).len(), 1);
    let unwritten =
        "On the wall NSGS stops.\n<!-- numbers from generated/s.txt: \"| wall |\" stalled -->";
    assert_eq!(claims_hold(unwritten, &read).len(), 1);
    assert!(!has_word("it never stalled-out", "stalled") && has_word("(stalled)", "stalled"));
    let bad_token = "It is 18.\n<!-- numbers from generated/s.txt: 18x -->";
    assert_eq!(claims_hold(bad_token, &read).len(), 1);
}

#[test]
fn unclaimed_decimals_are_found_and_references_are_not() {
    let text = "As in section\n3.1, section 3.3 and 3.4 (NOTES 2.5-2.6) of Siconos 4.4, eq. (12.1) and (4.2);\n\
                the method needs 3.4 evaluations with $r = 5.25$ and `x = 1.75` at 0.5 and 1.0.\n\
                ## Heading 2.25\n";
    assert_eq!(unclaimed_decimals(text), vec![(3, "3.4".to_string())]);
    let declared = format!("{text}<!-- not measured: 3.4 -->\n");
    assert!(unclaimed_decimals(&declared).is_empty());
    assert_eq!(significant_digits("0.126"), 3);
    assert_eq!(significant_digits("0.05"), 1);
    assert_eq!(significant_digits("1.0"), 1);
}

/// The sum an entry of the world chapter's scene table states: "205", "125 + 4", "$4n$ = 40".
fn table_count(cell: &str) -> Option<usize> {
    let value = cell.rsplit('=').next()?;
    value
        .split('+')
        .map(|t| t.trim().parse::<usize>().ok())
        .sum::<Option<usize>>()
}

#[test]
fn the_world_chapter_states_the_scenes_as_built() {
    use nonsmooth::world::scenes::{self, SceneKind, wall};
    let text = fs::read_to_string(book_src().join("world.md")).expect("world.md");
    let mut rows = 0;
    for line in text.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(kind) = SceneKind::from_name(cells[1].trim_matches('`')) else {
            continue;
        };
        let w = scenes::build(kind, None, 0).expect("the scene builds");
        let contacts = w.contacts().expect("collision detection").len();
        assert_eq!(
            table_count(cells[5]),
            Some(w.bodies().len()),
            "bodies of {kind}: {line}"
        );
        assert_eq!(
            table_count(cells[6]),
            Some(contacts),
            "contacts of {kind}: {line}"
        );
        rows += 1;
    }
    assert_eq!(rows, SceneKind::ALL.len(), "one row per scene in world.md");
    // The wall sizes the prose gives, from the formula that `tests/world/scenes.rs` checks
    // against collision detection.
    let prose = join_digit_groups(&text);
    for (rows, per_row) in [(40, 60), (21, 42)] {
        let stated = format!("{} contacts", wall::contact_count(rows, per_row));
        assert!(
            prose.contains(&stated),
            "world.md should state {stated} for {rows} x {per_row}"
        );
    }
    assert_eq!(table_count("$4n$ = 40"), Some(40));
    assert_eq!(table_count("125 + 4"), Some(129));
}
