//! The ratio table of a campaign: on each problem, the time of the best of our methods
//! over the time of the best Siconos solver (and the same for one named method of ours,
//! `auto` by default), with the median and the worst over the problems.
//!
//! A solver that did not converge on a problem counts as infinitely slow there, as in a
//! performance profile (Dolan and Moré 2002): ours unsolved where Siconos solved gives the
//! ratio +inf, Siconos unsolved where ours solved gives 0, and a problem neither side
//! solved has no ratio and is left out of the median. A problem Siconos did not run on
//! (no Siconos record, or only records with status `not-run`: a problem its fc3d solvers
//! cannot be given) has no ratio either: the table says "not run", not "not solved", and
//! the median and worst leave it out.
//!
//! Checked by `tests/laws/bench_ratios.rs`.

use std::collections::BTreeMap;

use super::profile::{Record, Statistic};

/// One problem's row: the fastest converged solver on each side and the ratios.
#[derive(Debug, Clone, PartialEq)]
pub struct RatioRow {
    /// The problem, as recorded.
    pub problem: String,
    /// Its contacts.
    pub contacts: usize,
    /// Our fastest converged method and its seconds.
    pub ours: Option<(String, f64)>,
    /// The fastest converged Siconos solver (`siconos-NAME`) and its seconds.
    pub theirs: Option<(String, f64)>,
    /// Whether any Siconos solver ran on the problem (a record other than `not-run`).
    pub theirs_ran: bool,
    /// The seconds of the named method of ours (`auto`), if it converged.
    pub named: Option<f64>,
}

/// `a / b` with an unsolved side as infinitely slow; `None` when neither side solved.
fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a / b),
        (None, Some(_)) => Some(f64::INFINITY),
        (Some(_), None) => Some(0.0),
        (None, None) => None,
    }
}

impl RatioRow {
    /// Best of ours over best of Siconos (`None` where Siconos did not run).
    pub fn ratio(&self) -> Option<f64> {
        if !self.theirs_ran {
            return None;
        }
        ratio(
            self.ours.as_ref().map(|o| o.1),
            self.theirs.as_ref().map(|t| t.1),
        )
    }

    /// The named method over best of Siconos (`None` where Siconos did not run).
    pub fn named_ratio(&self) -> Option<f64> {
        if !self.theirs_ran {
            return None;
        }
        ratio(self.named, self.theirs.as_ref().map(|t| t.1))
    }
}

/// The ratio table of a campaign.
#[derive(Debug, Clone, PartialEq)]
pub struct Ratios {
    /// The named method of ours compared on its own (`auto`).
    pub named: String,
    /// One row per problem, sorted by problem.
    pub rows: Vec<RatioRow>,
    /// The timing compared: the best of each solver's runs or their median.
    pub statistic: Statistic,
}

/// The median of the defined values (the mean of the two middle ones for an even count);
/// `None` when there are none.
pub fn median(values: impl IntoIterator<Item = Option<f64>>) -> Option<f64> {
    let mut v: Vec<f64> = values.into_iter().flatten().collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[m]
    } else if v[m - 1] == v[m] {
        v[m]
    } else {
        0.5 * (v[m - 1] + v[m])
    })
}

impl Ratios {
    /// The table of `records` (one tolerance; records of solvers named `siconos-*` are
    /// Siconos's, the others ours), comparing also our method `named` on its own.
    ///
    /// # Errors
    /// No records; records at different tolerances; a (problem, solver) pair recorded
    /// twice; no Siconos records (nothing to compare with); no records of `named`.
    pub fn from_records(records: &[Record], named: &str) -> Result<Ratios, String> {
        Ratios::from_records_by(records, named, Statistic::Best)
    }

    /// The table of `records` by `statistic`: the best of each solver's runs (as
    /// [`Ratios::from_records`]) or their median, which a loaded machine moves less from
    /// run to run of the campaign.
    ///
    /// # Errors
    /// Those of [`Ratios::from_records`]; by the median, a converged record without one
    /// (a campaign file written before medians were recorded).
    pub fn from_records_by(
        records: &[Record],
        named: &str,
        statistic: Statistic,
    ) -> Result<Ratios, String> {
        if statistic == Statistic::Median
            && let Some(r) = records
                .iter()
                .find(|r| r.status == "converged" && r.median_seconds.is_none())
        {
            return Err(format!(
                "the record of {} on {} has no median time (a campaign written before \
                 medians were recorded): run the campaign again, or compare the best times",
                r.solver, r.problem
            ));
        }
        // the same checks as a profile: one tolerance, no duplicates
        super::profile::Profile::from_records(records)?;
        if !records.iter().any(|r| r.solver.starts_with("siconos-")) {
            return Err(
                "no Siconos records in the campaign: nothing to compare with \
                        (run the campaign with --siconos-solver)"
                    .into(),
            );
        }
        if !records
            .iter()
            .any(|r| r.solver.starts_with("siconos-") && r.status != super::campaign::NOT_RUN)
        {
            return Err(
                "Siconos did not run on any problem of the campaign (every Siconos record is \
                 not-run: its fc3d solvers take local Coulomb problems only): nothing to \
                 compare with"
                    .into(),
            );
        }
        if !records.iter().any(|r| r.solver == named) {
            return Err(format!(
                "no records of `{named}` in the campaign: name one of its methods of ours \
                 with --named"
            ));
        }
        let mut rows: BTreeMap<&str, RatioRow> = BTreeMap::new();
        for r in records {
            let row = rows.entry(&r.problem).or_insert_with(|| RatioRow {
                problem: r.problem.clone(),
                contacts: r.contacts,
                ours: None,
                theirs: None,
                theirs_ran: false,
                named: None,
            });
            if r.solver.starts_with("siconos-") && r.status != super::campaign::NOT_RUN {
                row.theirs_ran = true;
            }
            let Some(t) = r.solved_time_by(statistic) else {
                continue;
            };
            let side = if r.solver.starts_with("siconos-") {
                &mut row.theirs
            } else {
                if r.solver == named {
                    row.named = Some(t);
                }
                &mut row.ours
            };
            if side.as_ref().is_none_or(|(_, b)| t < *b) {
                *side = Some((r.solver.clone(), t));
            }
        }
        Ok(Ratios {
            named: named.to_string(),
            rows: rows.into_values().collect(),
            statistic,
        })
    }

    /// Median of best-of-ours over best-of-Siconos.
    pub fn median(&self) -> Option<f64> {
        median(self.rows.iter().map(RatioRow::ratio))
    }

    /// The worst (largest) best-of-ours ratio.
    pub fn worst(&self) -> Option<f64> {
        self.rows
            .iter()
            .filter_map(RatioRow::ratio)
            .max_by(f64::total_cmp)
    }

    /// Median of the named method over best-of-Siconos.
    pub fn named_median(&self) -> Option<f64> {
        median(self.rows.iter().map(RatioRow::named_ratio))
    }

    /// The worst ratio of the named method.
    pub fn named_worst(&self) -> Option<f64> {
        self.rows
            .iter()
            .filter_map(RatioRow::named_ratio)
            .max_by(f64::total_cmp)
    }
}

/// A ratio as the table prints it: two decimals, `inf` (ours unsolved), `-` (undefined:
/// neither side solved, or Siconos did not run).
fn fmt_ratio(r: Option<f64>) -> String {
    match r {
        None => "-".into(),
        Some(r) if r.is_infinite() => "inf".into(),
        Some(r) => format!("{r:.2}"),
    }
}

/// Seconds as microseconds with three significant digits, `-` when unsolved.
fn fmt_micros(s: Option<f64>) -> String {
    match s {
        None => "-".into(),
        Some(s) => {
            let us = s * 1e6;
            if us >= 100.0 {
                format!("{us:.0}")
            } else if us >= 10.0 {
                format!("{us:.1}")
            } else {
                format!("{us:.2}")
            }
        }
    }
}

/// The table as Markdown: a row per problem (file name only), then the median and worst.
pub fn ratios_markdown(r: &Ratios) -> String {
    let n = &r.named;
    let us = match r.statistic {
        Statistic::Best => "µs",
        Statistic::Median => "median µs",
    };
    let mut s = format!(
        "| problem | contacts | best of ours | {us} | best of Siconos | {us} | ratio | {n} {us} | {n} ratio |\n\
         |---|---:|---|---:|---|---:|---:|---:|---:|\n"
    );
    for row in &r.rows {
        let name = std::path::Path::new(&row.problem)
            .file_name()
            .map_or(row.problem.clone(), |f| f.to_string_lossy().into_owned());
        let (os, ot) = row
            .ours
            .as_ref()
            .map_or(("not solved".to_string(), None), |(s, t)| {
                (s.clone(), Some(*t))
            });
        let (ts, tt) = match &row.theirs {
            Some((s, t)) => (s.trim_start_matches("siconos-").to_string(), Some(*t)),
            None if row.theirs_ran => ("not solved".to_string(), None),
            None => ("not run".to_string(), None),
        };
        s += &format!(
            "| {name} | {} | {os} | {} | {ts} | {} | {} | {} | {} |\n",
            row.contacts,
            fmt_micros(ot),
            fmt_micros(tt),
            fmt_ratio(row.ratio()),
            fmt_micros(row.named),
            fmt_ratio(row.named_ratio()),
        );
    }
    let not_run = r.rows.iter().filter(|row| !row.theirs_ran).count();
    if not_run > 0 {
        s += &format!(
            "| *Siconos not run on {not_run} of {} problems: no ratio* | | | | | | | | |\n",
            r.rows.len()
        );
    }
    s += &format!(
        "| **median** | | | | | | **{}** | | **{}** |\n| **worst** | | | | | | **{}** | | **{}** |\n",
        fmt_ratio(r.median()),
        fmt_ratio(r.named_median()),
        fmt_ratio(r.worst()),
        fmt_ratio(r.named_worst()),
    );
    s
}
