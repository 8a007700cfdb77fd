//! Value parsers for the command line: every number is checked where it is parsed, so a
//! NaN tolerance or a size of 2^64 is a usage error (exit 2) before anything runs.

use crate::problem::FrictionKind;
use crate::registry::{Choice, OptionError};

/// The most contacts `generate` and `bench --scene` build (the generators' cap,
/// [`crate::multibody::scenes::MAX_SCENE_CONTACTS`]).
pub const MAX_CONTACTS: usize = crate::multibody::scenes::MAX_SCENE_CONTACTS;

/// The most sweeps `bench` times in one run (10^7: minutes on the largest shared file).
pub const MAX_SWEEPS: usize = 10_000_000;

/// The most timed runs `bench` repeats.
pub const MAX_REPEAT: usize = 1000;

/// A method name (`--method`). An unknown name gets the list of the methods on lines of
/// their own, wrapped at 100 columns (on one line, the list is wider than a terminal).
pub fn method(s: &str) -> Result<Choice, String> {
    s.parse::<Choice>().map_err(|e| match e {
        OptionError::UnknownMethod { name } => {
            let list = crate::registry::names().join(", ");
            let mut m = format!("unknown method `{name}`; expected one of");
            for line in super::table::wrap("  ", &list, 100, "  ") {
                m.push('\n');
                m.push_str(&line);
            }
            m
        }
        e => e.to_string(),
    })
}

/// A stopping tolerance: a finite number `>= 0` (0 runs to the iteration cap).
pub fn tolerance(s: &str) -> Result<f64, String> {
    let t = number(s)?;
    if !(t >= 0.0) || !t.is_finite() {
        return Err(format!(
            "`{s}` is not a tolerance: expected a finite number >= 0 (for example 1e-8)"
        ));
    }
    Ok(t)
}

/// A relaxation factor: a finite number in `(0, 2)` (projected Jacobi and SOR converge
/// only there).
pub fn omega(s: &str) -> Result<f64, String> {
    let w = number(s)?;
    if !(w > 0.0 && w < 2.0) {
        return Err(format!(
            "`{s}` is not a relaxation factor: expected a number in (0, 2)"
        ));
    }
    Ok(w)
}

/// The smallest mass ratio (`--ratio`).
pub const MIN_RATIO: f64 = 1e-6;
/// The largest mass ratio (`--ratio`).
pub const MAX_RATIO: f64 = 1e6;
/// The largest time step in s (`--dt`).
pub const MAX_TIME_STEP: f64 = 10.0;

/// A mass ratio: a number in `[MIN_RATIO, MAX_RATIO]`.
pub fn ratio(s: &str) -> Result<f64, String> {
    let r = number(s)?;
    if !(MIN_RATIO..=MAX_RATIO).contains(&r) {
        return Err(format!(
            "`{s}` is not a mass ratio: expected a finite number > 0, from {MIN_RATIO:e} to \
             {MAX_RATIO:e}"
        ));
    }
    Ok(r)
}

/// A time step in s: a number in `(0, MAX_TIME_STEP]`.
pub fn time_step(s: &str) -> Result<f64, String> {
    let t = number(s)?;
    if !(t > 0.0 && t <= MAX_TIME_STEP) {
        return Err(format!(
            "`{s}` is not a time step: expected a finite number > 0 and at most \
             {MAX_TIME_STEP} (seconds)"
        ));
    }
    Ok(t)
}

/// A constraint force mixing `gamma`: a finite number `>= 0` (1/kg).
pub fn cfm(s: &str) -> Result<f64, String> {
    let g = number(s)?;
    if !(g >= 0.0) || !g.is_finite() {
        return Err(format!(
            "`{s}` is not a constraint force mixing: expected a finite number >= 0 (1/kg)"
        ));
    }
    Ok(g)
}

/// The weight `a` of velocity-based shock propagation: a number in `[0, 1]`.
pub fn vsp_weight(s: &str) -> Result<f64, String> {
    let a = number(s)?;
    if !(0.0..=1.0).contains(&a) {
        return Err(format!(
            "`{s}` is not a shock-propagation weight: expected a number in [0, 1] (the paper uses 0 < a < 0.01)"
        ));
    }
    Ok(a)
}

/// The most iterations a solve of a simulation step may be capped at.
pub const MAX_STEP_ITERATIONS: usize = 100_000_000;

/// An iteration cap of a solve in a simulation step, in `1..=MAX_STEP_ITERATIONS`.
pub fn iterations(s: &str) -> Result<usize, String> {
    count(s, MAX_STEP_ITERATIONS, "iterations")
}

/// The most iterations a whole solve may be capped at.
pub const MAX_SOLVE_ITERATIONS: usize = 1_000_000_000;

/// An iteration cap of a whole solve (`--max-iter`), in `1..=MAX_SOLVE_ITERATIONS`: 0 and
/// negative numbers are refused (a solve of no iteration would report its warm start).
pub fn max_iter(s: &str) -> Result<usize, String> {
    let t = s.trim();
    if t.starts_with('-') || t == "0" || t.parse::<usize>() == Ok(0) {
        return Err(format!(
            "`{s}` is not an iteration cap: expected a whole number from 1 to {MAX_SOLVE_ITERATIONS}"
        ));
    }
    count(s, MAX_SOLVE_ITERATIONS, "iterations")
}

/// A wall-clock budget in seconds (`--time-limit`): a finite number `> 0`.
pub fn time_limit(s: &str) -> Result<f64, String> {
    let t = number(s)?;
    if !(t > 0.0) || !t.is_finite() {
        return Err(format!(
            "`{s}` is not a time limit: expected a finite number of seconds > 0"
        ));
    }
    Ok(t)
}

/// A friction law: `coulomb` or `ccp`.
pub fn kind(s: &str) -> Result<FrictionKind, String> {
    s.parse()
}

fn number(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .map_err(|_| format!("`{s}` is not a number"))
}

/// A count in `1..=max`.
fn count(s: &str, max: usize, what: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a whole number of {what}"))?;
    if n == 0 || n > max {
        return Err(format!("{n} {what}: expected 1 to {max}"));
    }
    Ok(n)
}

/// Boxes of a box stack (4 contacts each, at most [`MAX_CONTACTS`] in all).
pub fn boxes(s: &str) -> Result<usize, String> {
    count(s, MAX_CONTACTS / 4, "boxes")
}

/// Courses or bricks of a wall, or the base of a pyramid (the scene's total is checked
/// against [`MAX_CONTACTS`] when it is built).
pub fn side(s: &str) -> Result<usize, String> {
    count(s, MAX_CONTACTS, "boxes")
}

/// A contact count for a generated scene.
pub fn contacts(s: &str) -> Result<usize, String> {
    count(s, MAX_CONTACTS, "contacts")
}

/// The most sweeps a PROX divergence-test window may span (10^9: beyond any sweep cap
/// the command line is given in practice).
pub const MAX_WINDOW: usize = 1_000_000_000;

/// The window of the PROX divergence test: a whole number of sweeps in `1..=MAX_WINDOW`.
pub fn window(s: &str) -> Result<usize, String> {
    count(s, MAX_WINDOW, "sweeps")
}

/// Sweeps per timed run.
pub fn sweeps(s: &str) -> Result<usize, String> {
    count(s, MAX_SWEEPS, "sweeps")
}

/// Timed runs.
pub fn repeat(s: &str) -> Result<usize, String> {
    count(s, MAX_REPEAT, "runs")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_out_of_range_are_refused() {
        for bad in ["inf", "nan", "-1", "-0.1", "x", ""] {
            assert!(tolerance(bad).is_err(), "{bad}");
            assert!(time_step(bad).is_err(), "{bad}");
            assert!(cfm(bad).is_err(), "{bad}");
        }
        assert_eq!(tolerance("0").unwrap(), 0.0);
        assert_eq!(tolerance("1e-8").unwrap(), 1e-8);
        for bad in ["0", "2", "2.5", "-1", "nan", "inf"] {
            assert!(omega(bad).is_err(), "{bad}");
        }
        for bad in ["0", "-5", "nan", "inf", "1e-7", "1.1e6", "1e308"] {
            assert!(ratio(bad).is_err(), "{bad}");
        }
        assert_eq!(ratio("1e6").unwrap(), 1e6);
        assert_eq!(ratio("1e-6").unwrap(), 1e-6);
        for bad in ["10.5", "1e308"] {
            assert!(time_step(bad).is_err(), "{bad}");
        }
        assert_eq!(time_step("10").unwrap(), 10.0);
        for bad in [
            "0",
            "18446744073709551615",
            "18446744073709551616",
            "-1",
            "1e3",
        ] {
            assert!(contacts(bad).is_err(), "{bad}");
            assert!(sweeps(bad).is_err(), "{bad}");
        }
        assert!(boxes("250001").is_err());
        for bad in ["0", "-1", "x", "1000000001"] {
            assert!(window(bad).is_err(), "{bad}");
        }
        assert_eq!(window("1").unwrap(), 1);
        assert_eq!(boxes("3").unwrap(), 3);
    }
}
