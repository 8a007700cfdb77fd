//! `nonsmooth methods`: the registry, printed: every method, the problem types it solves,
//! its options with their defaults.

use std::process::ExitCode;

use clap::Args;
use serde_json::json;

use super::Failure;
use super::table::emit;
use crate::solver::registry::{AUTO, AUTO_UNMEASURED, METHODS};

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
                "options": m.default_options(),
                "runs": (m.name == "auto").then(|| AUTO.iter().chain(AUTO_UNMEASURED).map(|(t, n)| (t.name(), *n)).collect::<std::collections::BTreeMap<_, _>>())});
            emit(&mut out, &line.to_string())?;
            continue;
        }
        emit(&mut out, &format!("{}  ({})", m.name, types.join(", ")))?;
        emit(&mut out, &format!("    {}", m.summary))?;
        if m.name == "auto" {
            let table: Vec<String> = AUTO
                .iter()
                .map(|(t, n)| format!("{n} ({})", t.name()))
                .chain(
                    AUTO_UNMEASURED
                        .iter()
                        .map(|(t, n)| format!("{n} ({}, not yet measured)", t.name())),
                )
                .collect();
            emit(&mut out, &format!("    runs {}", table.join(", ")))?;
        }
        if let serde_json::Value::Object(o) = m.default_options() {
            for (k, v) in o {
                emit(&mut out, &format!("    --set {k}={v}"))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
