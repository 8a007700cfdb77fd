//! Whitespace tokens with line numbers, shared by the text readers (Siconos `.dat`,
//! OpenTissue `.dlm`).
//!
//! The reader never trusts a count it reads: [`Tokens::f64_vec`] checks that enough
//! tokens remain before it allocates, so a header claiming `n = 10^12` is an error after
//! a few bytes, not an out-of-memory abort.

use std::path::Path;

use super::IoError;

/// The tokens of a text file, read front to back.
///
/// Only where each token starts is kept (8 bytes per token): its end is the next ASCII
/// whitespace and its line is counted when a message needs it, so the index of a large
/// file costs a third of what `(slice, line)` pairs did.
pub(crate) struct Tokens<'a> {
    path: &'a Path,
    bytes: &'a [u8],
    /// Byte offset of each token's first byte.
    starts: Vec<usize>,
    pos: usize,
    last_line: usize,
    /// The last token runs to the end of the file, with no whitespace after it.
    unterminated: bool,
}

impl<'a> Tokens<'a> {
    /// Splits `bytes` on ASCII whitespace. Tokens need not be UTF-8 until they are parsed
    /// (so a trailing comment in any encoding is harmless).
    pub fn new(path: &'a Path, bytes: &'a [u8]) -> Self {
        let mut starts = Vec::new();
        let mut line = 1;
        let mut inside = false;
        for (k, &c) in bytes.iter().enumerate() {
            if c.is_ascii_whitespace() {
                inside = false;
                if c == b'\n' {
                    line += 1;
                }
            } else if !inside {
                inside = true;
                starts.push(k);
            }
        }
        starts.shrink_to_fit();
        Tokens {
            path,
            bytes,
            starts,
            pos: 0,
            last_line: line,
            unterminated: inside,
        }
    }

    /// The text of token `idx` (which exists).
    fn token(&self, idx: usize) -> &'a [u8] {
        let start = self.starts[idx];
        let rest = &self.bytes[start..];
        let len = rest
            .iter()
            .position(|c| c.is_ascii_whitespace())
            .unwrap_or(rest.len());
        &rest[..len]
    }

    /// The 1-based line of token `idx` (which exists).
    fn line(&self, idx: usize) -> usize {
        1 + self.bytes[..self.starts[idx]]
            .iter()
            .filter(|&&c| c == b'\n')
            .count()
    }

    /// Whether the data ended at the file's last token (`consumed` tokens were read) with
    /// nothing after it, so that the file may have been cut inside that number (`-6.25`
    /// read as `-6.2`). Siconos normally ends its files with a line break, but files written
    /// by hand (two in Siconos's own test suite) do not, so this cannot be an error:
    ///
    /// * `Err` when the last number cannot be complete (it ends in `.`, `e`, `+` or `-`);
    /// * `Ok(Some(warning))` when it may have been cut: the caller reports it;
    /// * `Ok(None)` otherwise.
    pub fn check_not_cut(&self, consumed: usize) -> Result<Option<String>, IoError> {
        if !(self.unterminated && consumed == self.starts.len() && consumed > 0) {
            return Ok(None);
        }
        let last = consumed - 1;
        let token = String::from_utf8_lossy(self.token(last));
        let shown = show(&token);
        if token.ends_with(['.', 'e', 'E', '+', '-']) {
            return Err(self.err_at(
                last,
                format!("the file ends inside the number `{shown}`: it was cut short"),
            ));
        }
        Ok(Some(format!(
            "{}: the file ends with `{shown}` and no line break after it; if the file was \
             cut short, that number may be incomplete",
            self.at(last)
        )))
    }

    /// Goes back to the first token.
    pub fn rewind(&mut self) {
        self.pos = 0;
    }

    /// Index of the next token (0-based), i.e. how many were consumed.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// How many tokens are left.
    pub fn remaining(&self) -> usize {
        self.starts.len() - self.pos
    }

    /// Total number of tokens.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// The path used in messages.
    pub fn path(&self) -> &'a Path {
        self.path
    }

    /// Where token `idx` is, for messages: `"token 17 (line 5)"`, or the end of the file.
    pub fn at(&self, idx: usize) -> String {
        if idx < self.starts.len() {
            format!("token {} (line {})", idx + 1, self.line(idx))
        } else {
            format!(
                "end of file (line {}, after {} tokens)",
                self.last_line,
                self.starts.len()
            )
        }
    }

    /// A parse error at token `idx`.
    pub fn err_at(&self, idx: usize, message: impl Into<String>) -> IoError {
        IoError::parse(self.path, self.at(idx), message)
    }

    /// A parse error at the next token.
    pub fn err(&self, message: impl Into<String>) -> IoError {
        self.err_at(self.pos, message)
    }

    fn next_raw(&mut self, what: &str) -> Result<(&'a [u8], usize), IoError> {
        if self.pos < self.starts.len() {
            let idx = self.pos;
            self.pos += 1;
            Ok((self.token(idx), idx))
        } else {
            Err(self.err(format!("expected {what}, the file ends")))
        }
    }

    /// The next token as text.
    pub fn next_str(&mut self, what: &str) -> Result<&'a str, IoError> {
        let (t, idx) = self.next_raw(what)?;
        std::str::from_utf8(t).map_err(|e| {
            let bad = t[e.valid_up_to()];
            self.err_at(
                idx,
                format!(
                    "expected {what}, found `{}`: byte 0x{bad:02X} is not UTF-8 text",
                    show(&String::from_utf8_lossy(t))
                ),
            )
        })
    }

    /// The next token as a non-negative integer (decimal digits, optional `+`).
    pub fn next_usize(&mut self, what: &str) -> Result<usize, IoError> {
        let idx = self.pos;
        let s = self.next_str(what)?;
        parse_usize(s).ok_or_else(|| {
            let why = if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                " (too large)".to_string()
            } else {
                hint(s)
            };
            self.err_at(
                idx,
                format!(
                    "expected {what} (a non-negative integer), found `{}`{why}",
                    show(s)
                ),
            )
        })
    }

    /// The next token as a floating-point number (Rust's syntax, a superset of what C's
    /// `%le` writes; `nan` and `inf` parse and are rejected later by the problem
    /// constructors).
    pub fn next_f64(&mut self, what: &str) -> Result<f64, IoError> {
        let idx = self.pos;
        let s = self.next_str(what)?;
        parse_number(s).map_err(|why| self.err_at(idx, format!("{what}: {why}")))
    }

    /// As [`Tokens::next_f64`], with `what` (for the message) built only on an error:
    /// no text is formatted per number of a large file.
    pub fn next_f64_lazy(&mut self, what: impl FnOnce() -> String) -> Result<f64, IoError> {
        let idx = self.pos;
        if idx < self.starts.len() {
            if let Ok(v) = std::str::from_utf8(self.token(idx))
                .map_err(|_| ())
                .and_then(|s| parse_number(s).map_err(|_| ()))
            {
                self.pos += 1;
                return Ok(v);
            }
        }
        self.next_f64(&what())
    }

    /// As [`Tokens::next_usize`], with `what` built only on an error.
    pub fn next_usize_lazy(&mut self, what: impl FnOnce() -> String) -> Result<usize, IoError> {
        let idx = self.pos;
        if idx < self.starts.len() {
            if let Some(v) = std::str::from_utf8(self.token(idx))
                .ok()
                .and_then(parse_usize)
            {
                self.pos += 1;
                return Ok(v);
            }
        }
        self.next_usize(&what())
    }

    /// The next token as a number, where a value beyond the largest double means an
    /// infinity (OpenTissue writes `DBL_MAX` to 15 digits, which rounds past it, for an
    /// infinite bound).
    pub fn next_f64_unbounded(&mut self, what: &str) -> Result<f64, IoError> {
        let idx = self.pos;
        let s = self.next_str(what)?;
        s.parse::<f64>()
            .or_else(|_| parse_number(s))
            .map_err(|why| self.err_at(idx, format!("{what}: {why}")))
    }

    /// Fails unless at least `n` tokens remain (call before allocating for `n` items).
    pub fn need(&self, n: usize, what: &str) -> Result<(), IoError> {
        if self.remaining() < n {
            // Two numbers joined by a character that is not ASCII whitespace (a no-break
            // space) read as one token: say so, it is invisible in the file.
            let joined = (self.pos..self.starts.len())
                .map(|k| String::from_utf8_lossy(self.token(k)))
                .find(|t| t.chars().any(|c| invisible_name(c).is_some()))
                .map(|t| {
                    format!(
                        " (`{}` holds an invisible character, which does not separate numbers)",
                        show(&t)
                    )
                })
                .unwrap_or_default();
            return Err(self.err(format!(
                "expected {n} values for {what}, but only {} tokens remain{joined}",
                self.remaining()
            )));
        }
        Ok(())
    }

    /// The next `n` tokens as numbers.
    pub fn f64_vec(&mut self, n: usize, what: &str) -> Result<Vec<f64>, IoError> {
        self.need(n, what)?;
        let mut v = Vec::with_capacity(n);
        for k in 0..n {
            v.push(self.next_f64_lazy(|| format!("{what}[{k}]"))?);
        }
        Ok(v)
    }

    /// The next `n` tokens as non-negative integers.
    pub fn usize_vec(&mut self, n: usize, what: &str) -> Result<Vec<usize>, IoError> {
        self.need(n, what)?;
        let mut v = Vec::with_capacity(n);
        for k in 0..n {
            v.push(self.next_usize_lazy(|| format!("{what}[{k}]"))?);
        }
        Ok(v)
    }
}

/// Strict non-negative integer: optional `+`, then ASCII digits only.
pub(crate) fn parse_usize(s: &str) -> Option<usize> {
    let digits = s.strip_prefix('+').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<usize>().ok()
}

/// At most 40 characters of a token, for messages.
pub(crate) fn shorten(s: &str) -> String {
    if s.chars().count() <= 40 {
        s.to_string()
    } else {
        let head: String = s.chars().take(40).collect();
        format!("{head}...")
    }
}

/// The name of a character that would be invisible or ambiguous in a message, if it is
/// one.
pub(crate) fn invisible_name(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{0}' => "NUL",
        '\u{feff}' => "byte-order mark",
        '\u{a0}' => "no-break space",
        '\u{ad}' => "soft hyphen",
        '\u{200b}' => "zero-width space",
        '\u{200c}' => "zero-width non-joiner",
        '\u{200d}' => "zero-width joiner",
        '\u{200e}' => "left-to-right mark",
        '\u{200f}' => "right-to-left mark",
        '\u{2028}' => "line separator",
        '\u{2029}' => "paragraph separator",
        '\u{2060}' => "word joiner",
        '\u{202f}' => "narrow no-break space",
        '\u{202a}' => "left-to-right embedding",
        '\u{202b}' => "right-to-left embedding",
        '\u{202c}' => "pop directional formatting",
        '\u{202d}' => "left-to-right override",
        '\u{202e}' => "right-to-left override",
        '\u{2066}' => "left-to-right isolate",
        '\u{2067}' => "right-to-left isolate",
        '\u{2068}' => "first strong isolate",
        '\u{2069}' => "pop directional isolate",
        '\u{fffd}' => "replacement character",
        '\u{1b}' => "escape",
        '\r' => "carriage return",
        c if c.is_control() => "control character",
        _ => return None,
    })
}

/// A whole message made safe to print: every invisible, control or text-direction
/// character (a file name with a right-to-left override would reorder the line on a
/// terminal) written out as `<U+202E right-to-left override>`; line breaks and tabs kept.
pub fn visible(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match invisible_name(c) {
            Some(name) if c != '\n' && c != '\t' => {
                out.push_str(&format!("<U+{:04X} {name}>", c as u32))
            }
            _ => out.push(c),
        }
    }
    out
}

/// A token for a message: at most 40 characters, with every invisible or control
/// character written out as `<U+00A0 no-break space>`.
pub(crate) fn show(s: &str) -> String {
    let mut out = String::new();
    for c in shorten(s).chars() {
        match invisible_name(c) {
            Some(name) => out.push_str(&format!("<U+{:04X} {name}>", c as u32)),
            None => out.push(c),
        }
    }
    out
}

/// A hint about why a token is not a number, beyond showing it.
fn hint(s: &str) -> String {
    if s.chars().any(|c| invisible_name(c).is_some()) {
        " (it holds an invisible character, shown in <>)".into()
    } else if s.contains(',') && s.chars().any(|c| c.is_ascii_digit()) {
        " (a decimal comma? numbers use a point)".into()
    } else if s.chars().any(|c| c.is_numeric() && !c.is_ascii_digit()) {
        " (digits must be ASCII 0-9)".into()
    } else {
        String::new()
    }
}

/// Parses a number as the text readers do (Rust's syntax, a superset of C's `%le`;
/// `nan` and `inf` are numbers here and are rejected later by the problem constructors),
/// or says in words why it is not one: a value beyond the largest double (`1e999`),
/// invisible characters, a decimal comma.
///
/// # Errors
/// The reason, with the token shown by `show`.
pub fn parse_number(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_infinite() && !s.to_ascii_lowercase().contains("inf") => Err(format!(
            "`{}` is beyond the largest double-precision number (about 1.8e308)",
            show(s)
        )),
        Ok(v) => Ok(v),
        Err(_) => Err(format!("`{}` is not a number{}", show(s), hint(s))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_lines_and_counts() {
        let p = Path::new("x");
        let mut t = Tokens::new(p, b"3\n 1\t2.5\n\n-1 +4 \xff");
        assert_eq!(t.len(), 6);
        assert_eq!(t.next_usize("n").unwrap(), 3);
        assert!(t.at(t.pos()).contains("line 2"));
        assert_eq!(t.f64_vec(2, "v").unwrap(), vec![1.0, 2.5]);
        assert!(t.next_usize("m").is_err()); // -1
        assert_eq!(t.next_usize("k").unwrap(), 4);
        assert!(t.next_f64("x").is_err()); // not UTF-8
        let e = t.next_f64("y").unwrap_err().to_string();
        assert!(e.contains("end of file"), "{e}");
        let t = Tokens::new(p, b"1 2");
        assert!(t.need(3, "q").is_err());
        assert!(parse_usize("99999999999999999999999").is_none());
        assert!(parse_usize("1e3").is_none());
    }

    /// Regression (issue 8): invisible characters were shown raw, `1e999` was "not a
    /// number", and a file cut inside its last number was read with the cut value.
    #[test]
    fn messages_name_what_is_wrong() {
        let e = parse_number("-5\u{a0}-6").unwrap_err();
        assert!(
            e.contains("<U+00A0 no-break space>") && !e.contains('\u{a0}'),
            "{e}"
        );
        let e = parse_number("6\0").unwrap_err();
        assert!(e.contains("NUL") && !e.contains('\0'), "{e}");
        let e = parse_number("\u{feff}2").unwrap_err();
        assert!(e.contains("byte-order mark"), "{e}");
        let e = parse_number("1e999").unwrap_err();
        assert!(e.contains("`1e999` is beyond the largest"), "{e}");
        assert!(parse_number("1,5").unwrap_err().contains("decimal comma"));
        assert_eq!(parse_number("inf").unwrap(), f64::INFINITY);
        assert_eq!(parse_number("-0").unwrap(), 0.0);
        let p = Path::new("x");
        let mut t = Tokens::new(p, b"1 2 -6.2");
        t.f64_vec(3, "v").unwrap();
        let w = t.check_not_cut(t.pos()).unwrap().unwrap();
        assert!(w.contains("`-6.2`") && w.contains("incomplete"), "{w}");
        let mut t = Tokens::new(p, b"1 2 -6.");
        t.f64_vec(3, "v").unwrap();
        let e = t.check_not_cut(t.pos()).unwrap_err().to_string();
        assert!(e.contains("`-6.`") && e.contains("cut short"), "{e}");
        let mut t = Tokens::new(p, b"1 2 -6.25\n");
        t.f64_vec(3, "v").unwrap();
        assert_eq!(t.check_not_cut(t.pos()).unwrap(), None);
        // Trailing comment tokens: the data did not end at the last token.
        let mut t = Tokens::new(p, b"1 2 3 comment");
        t.f64_vec(3, "v").unwrap();
        assert_eq!(t.check_not_cut(t.pos()).unwrap(), None);
        let e = Tokens::new(p, b"\xe9")
            .next_f64("x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("0xE9"), "{e}");
    }
}
