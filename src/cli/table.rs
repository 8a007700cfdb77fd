//! Plain-text tables: a header, then rows printed as they come.

use super::Failure;

/// Column alignment.
#[derive(Debug, Clone, Copy)]
pub enum Align {
    Left,
    Right,
}

/// A fixed-width table printed row by row (so long runs stream their results).
#[derive(Debug, Clone)]
pub struct Table {
    cols: Vec<(String, usize, Align)>,
    /// Spaces before each column (the first is not used); 2 unless [`Table::gaps`] says.
    gaps: Vec<usize>,
}

impl Table {
    pub fn new(cols: &[(&str, usize, Align)]) -> Self {
        Table {
            cols: cols
                .iter()
                .map(|(n, w, a)| (n.to_string(), (*w).max(n.len()), *a))
                .collect(),
            gaps: vec![2; cols.len()],
        }
    }

    /// Sets the spaces before each column (one per column; the first is not used).
    pub fn gaps(mut self, gaps: &[usize]) -> Self {
        debug_assert_eq!(gaps.len(), self.cols.len());
        self.gaps = gaps.to_vec();
        self
    }

    fn line(&self, cells: &[String]) -> String {
        let mut s = String::new();
        for (i, ((_, w, a), cell)) in self.cols.iter().zip(cells).enumerate() {
            if i > 0 {
                s.push_str(&" ".repeat(self.gaps[i]));
            }
            match a {
                Align::Left => s.push_str(&format!("{cell:<w$}")),
                Align::Right => s.push_str(&format!("{cell:>w$}")),
            }
        }
        s.trim_end().to_string()
    }

    pub fn header(&self) -> String {
        let names: Vec<String> = self.cols.iter().map(|c| c.0.clone()).collect();
        self.line(&names)
    }

    pub fn row(&self, cells: &[String]) -> String {
        self.line(cells)
    }
}

/// `prefix` then `text`, broken at spaces into lines of at most `width` characters (a longer
/// word stays whole, on its own line); every line but the first starts with `indent`.
pub fn wrap(prefix: &str, text: &str, width: usize, indent: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = prefix.to_string();
    let mut empty = true; // no word on the line yet
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !empty && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::replace(&mut line, indent.to_string()));
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    lines.push(line);
    lines
}

/// `name` cut to at most `width` characters by replacing its middle with `…` (the start
/// and the end, with the extension, stay), or unchanged when it fits.
pub fn elide(name: &str, width: usize) -> String {
    let chars: Vec<char> = name.chars().collect();
    if chars.len() <= width || width < 3 {
        return name.to_string();
    }
    let tail = (width - 1) / 2;
    let head = width - 1 - tail;
    let mut s: String = chars[..head].iter().collect();
    s.push('…');
    s.extend(&chars[chars.len() - tail..]);
    s
}

/// A number in the tables' exponent format (`1.234e-9`), or `-` when absent.
pub fn sci(v: Option<f64>) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{v:.3e}"),
        Some(v) => format!("{v}"),
        None => "-".to_string(),
    }
}

/// Writes one line to standard output. A closed pipe (`nonsmooth solve ... | head`) stops
/// the subcommand quietly with [`Failure::Closed`] (exit status 1: not everything was
/// reported); any other write error is an input/output failure.
pub fn emit(out: &mut impl std::io::Write, line: &str) -> Result<(), Failure> {
    match writeln!(out, "{line}").and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(Failure::Closed),
        Err(e) => Err(Failure::Input(format!("standard output: {e}"))),
    }
}

/// What the subcommands print: an aligned table, one JSON object per line, or Markdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Style {
    /// An aligned text table.
    Table,
    /// One JSON object per line.
    Json,
    /// A Markdown table.
    Markdown,
}

#[cfg(test)]
mod wrap_tests {
    use super::{elide, wrap};

    #[test]
    fn wrap_keeps_every_word_in_order_within_the_width() {
        let text = "one two three four five six seven eight nine ten eleven twelve";
        let lines = wrap("> ", text, 20, "  ");
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| l.chars().count() <= 20), "{lines:?}");
        assert!(lines[0].starts_with("> ") && lines[1..].iter().all(|l| l.starts_with("  ")));
        let words: Vec<&str> = lines
            .iter()
            .flat_map(|l| l[2..].split_whitespace())
            .collect();
        assert_eq!(words.join(" "), text);
        // A word longer than the width stays whole, on its own line.
        assert_eq!(
            wrap("", "a bbbbbbbbbbbb c", 5, ""),
            vec!["a", "bbbbbbbbbbbb", "c"]
        );
    }

    #[test]
    fn elide_cuts_the_middle_to_the_width() {
        assert_eq!(elide("short.dat", 28), "short.dat");
        let long = "Capsules-i122-1617-very-long-name.hdf5.dat";
        let cut = elide(long, 28);
        assert_eq!(cut.chars().count(), 28);
        assert!(cut.starts_with("Capsules-i12") && cut.ends_with("hdf5.dat") && cut.contains('…'));
    }
}
