//! `nonsmooth methods`: the registry, printed: every method, the problem types it solves,
//! its options with their defaults.

use std::process::ExitCode;

use clap::Args;
use serde_json::json;

use super::Failure;
use super::table::{emit, wrap};
use crate::registry::METHODS;

/// The width the descriptions are wrapped at (an option's default, a JSON value, stays on
/// its line, so that it can be copied as it is).
const WIDTH: usize = 100;

/// `prefix` then the JSON text `value`, broken after commas into lines of at most [`WIDTH`]
/// characters, the continuation lines indented under the value (white space between JSON
/// tokens changes nothing: the lines, joined, are the same JSON value).
fn json_lines(prefix: &str, value: &str) -> Vec<String> {
    let indent = " ".repeat(prefix.chars().count() + 1);
    let mut lines = vec![prefix.to_string()];
    let mut piece = String::new();
    let mut in_string = false;
    let mut escaped = false; // the previous character, inside a string, was a backslash
    let mut pieces = Vec::new();
    for c in value.chars() {
        piece.push(c);
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            ',' if !in_string => pieces.push(std::mem::take(&mut piece)),
            _ => {}
        }
    }
    pieces.push(piece);
    for p in pieces {
        let last = lines.last_mut().expect("one line");
        let fresh = last.as_str() == prefix;
        if !fresh && last.chars().count() + p.chars().count() > WIDTH {
            lines.push(format!("{indent}{p}"));
        } else {
            last.push_str(&p);
        }
    }
    lines
}

#[derive(Debug, Args)]
pub struct MethodsArgs {
    /// One JSON object per method and line instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(a: MethodsArgs) -> Result<ExitCode, Failure> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for m in METHODS {
        let types: Vec<&str> = m.applies_to.iter().map(|t| t.name()).collect();
        if a.json {
            let line = json!({"name": m.name, "aliases": m.aliases, "summary": m.summary,
                "applies_to": types, "default_max_iter": m.default_max_iter,
                "options": m.default_options()});
            emit(&mut out, &line.to_string())?;
            continue;
        }
        emit(&mut out, &format!("{}  ({})", m.name, types.join(", ")))?;
        for line in wrap("    ", m.summary, WIDTH, "    ") {
            emit(&mut out, &line)?;
        }
        if let serde_json::Value::Object(o) = m.default_options() {
            for (k, v) in o {
                for line in json_lines(&format!("    --set {k}="), &v.to_string()) {
                    emit(&mut out, &line)?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The help line of a `--method` option, its list of methods made from the registry (so
/// that no list in a help text misses a method): `what: auto, lemke, ...` for `ty = None`
/// (every method), or the methods that solve `ty`.
pub fn method_help(what: &str, ty: Option<crate::registry::ProblemType>) -> String {
    let names = match ty {
        Some(t) => crate::registry::names_for(t),
        None => crate::registry::names(),
    };
    format!(
        "{what}: {} (`nonsmooth methods` lists them with their options)",
        names.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::{WIDTH, json_lines};

    #[test]
    fn json_lines_join_back_to_the_same_value_and_fit() {
        let value = serde_json::json!({
            "names": ["a, b", "c\\", "d\"e,f"],
            "numbers": (0..40).collect::<Vec<_>>(),
            "nested": {"x": 1.5e-8, "y": "z"}
        });
        let text = value.to_string();
        let lines = json_lines("    --set k=", &text);
        assert!(lines.len() > 1, "{lines:?}");
        assert!(
            lines.iter().all(|l| l.chars().count() <= WIDTH),
            "{lines:?}"
        );
        let joined: String = lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if i == 0 {
                    &l["    --set k=".len()..]
                } else {
                    l.trim_start()
                }
            })
            .collect();
        assert_eq!(joined, text);
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&joined).unwrap(),
            value
        );
    }
}
