//! The book's running example ([`nonsmooth::problem::running_example`]: a heavy box pushed
//! sideways on a light box, two contacts, six unknowns) solved from zero by each method the
//! book has a chapter for, through the registry with an observer that records every
//! iterate.
//!
//! Writes into `book/src/generated/`:
//!
//! * `running_example_problem.txt`: `W`, `q`, `mu`, and the solution with each contact's
//!   case (stick, slide or open);
//! * `running_example_<method>.txt` for `nsgs`, `prox-gs`, `nsn` and `ppa`: a table of the
//!   iteration `k` (0 is the start), the six impulses and the relative error (the Siconos 4.4
//!   normalisation of the natural map, [`nonsmooth::merit::friction_error`]), until the
//!   solve converges to `1e-8`; a long run shows its first 8 and last 2 rows.
//!
//! ```console
//! cargo run --release --example running_example
//! ```
//!
//! Its test checks the committed files, and that every method ends at the solution worked
//! out by hand ([`nonsmooth::problem::running_example_solution`]).

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;
use std::ops::ControlFlow;

use nalgebra::DVector;
use nonsmooth::merit::friction_error;
use nonsmooth::problem::{AnyProblem, FrictionContact, running_example, running_example_solution};
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::{Iterate, Params};

/// One run: the file's name (after `running_example_`), the method, its settings (`key`,
/// `value`, as `--set key=value`) and the chapter that defines it.
struct Run {
    file: &'static str,
    method: &'static str,
    settings: &'static [(&'static str, &'static str)],
    chapter: &'static str,
}

/// The runs, one table each.
const METHODS: [Run; 5] = [
    Run {
        file: "nsgs",
        method: "nsgs",
        settings: &[],
        chapter: "splitting.md",
    },
    Run {
        file: "prox_gs",
        method: "prox-gs",
        settings: &[],
        chapter: "prox-schemes.md",
    },
    Run {
        file: "prox_gs_global",
        method: "prox-gs",
        settings: &[("r_factor", "global=5")],
        chapter: "prox-schemes.md",
    },
    Run {
        file: "nsn",
        method: "nsn",
        settings: &[],
        chapter: "newton-cone.md",
    },
    Run {
        file: "ppa",
        method: "ppa",
        settings: &[],
        chapter: "proximal-point.md",
    },
];

/// Rows shown at the top and at the bottom of a long run.
const HEAD: usize = 8;
const TAIL: usize = 2;

/// `x` with four decimals, with no `-0.0000`.
fn num(x: f64) -> String {
    let s = format!("{x:.4}");
    if s.trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

/// The case of contact `c` at the answer `r`: `open` (no impulse), `stick` (no relative
/// velocity) or `slide`.
fn case(p: &FrictionContact, r: &DVector<f64>, c: usize) -> &'static str {
    let u = p.velocity(r);
    let rc = r.rows(3 * c, 3);
    let uc = u.rows(3 * c, 3);
    if rc.norm() <= 1e-6 {
        "open"
    } else if uc.norm() <= 1e-6 {
        "stick"
    } else {
        "slide"
    }
}

/// The iterates of `method` on `p` from zero: `(k, r, relative error)` for `k = 0` (the
/// start) and every iteration the observer saw.
fn iterates(
    p: &FrictionContact,
    method: &str,
    settings: &[(&str, &str)],
) -> (Vec<(usize, DVector<f64>, f64)>, String) {
    let any = AnyProblem::Friction(p.clone());
    let mut choice: Choice = method.parse().expect("a registered method");
    for (key, value) in settings {
        choice = choice
            .set_text(key, value)
            .expect("an option of the method");
    }
    let params = Params {
        tol: 1e-8,
        certify: false,
        ..Default::default()
    };
    let start = DVector::zeros(p.dim());
    let mut rows = vec![(0, start.clone(), friction_error(p, &start).rel)];
    let mut observe = |it: &Iterate| {
        rows.push((it.iteration, it.x.clone(), friction_error(p, it.x).rel));
        ControlFlow::Continue(())
    };
    let out = solve(&any, &choice, start, &params, &mut observe);
    let status = out.status().to_string();
    assert_eq!(status, "converged", "{method} on the running example");
    let last = &rows.last().expect("at least the start").1;
    assert!(
        (last - &out.x).norm() <= 1e-12 * (1.0 + out.x.norm()),
        "{method}: the last iterate the observer saw is the answer"
    );
    (rows, status)
}

/// The Markdown table of `rows`, the middle of a long run left out.
fn table(rows: &[(usize, DVector<f64>, f64)]) -> String {
    let mut t = String::from(
        "| $k$ | $r_{1,n}$ | $r_{1,t1}$ | $r_{1,t2}$ | $r_{2,n}$ | $r_{2,t1}$ | $r_{2,t2}$ | error |\n\
         |---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let n = rows.len();
    let long = n > HEAD + TAIL + 1;
    for (i, (k, r, e)) in rows.iter().enumerate() {
        if long && i == HEAD {
            writeln!(t, "| ⋮ | | | | | | | |").unwrap();
        }
        if long && i >= HEAD && i < n - TAIL {
            continue;
        }
        write!(t, "| {k} |").unwrap();
        for x in r.iter() {
            write!(t, " {} |", num(*x)).unwrap();
        }
        writeln!(t, " {e:.1e} |").unwrap();
    }
    t
}

/// `running_example_problem.txt`: the data and the solution.
fn problem_text(p: &FrictionContact) -> String {
    let w = p.w().to_dense();
    let mut t = String::from(
        "| row | $W$ (1/kg) | | | | | | $q$ (m/s) |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let names = ["1 n", "1 t1", "1 t2", "2 n", "2 t1", "2 t2"];
    for (i, name) in names.iter().enumerate() {
        write!(t, "| {name} |").unwrap();
        for j in 0..6 {
            write!(t, " {} |", w[(i, j)]).unwrap();
        }
        writeln!(t, " {} |", p.q()[i]).unwrap();
    }
    let r = running_example_solution();
    let u = p.velocity(&r);
    t.push_str(
        "\n| contact | $\\mu$ | $r_n$ | $r_{t1}$ | $r_{t2}$ | $u_n$ | $u_{t1}$ | $u_{t2}$ | case |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for c in 0..2 {
        write!(t, "| {} | {} |", c + 1, p.mu()[c]).unwrap();
        for i in 0..3 {
            write!(t, " {} |", num(r[3 * c + i])).unwrap();
        }
        for i in 0..3 {
            write!(t, " {} |", num(u[3 * c + i])).unwrap();
        }
        writeln!(t, " {} |", case(p, &r, c)).unwrap();
    }
    writeln!(
        t,
        "\nImpulses in N s, velocities in m/s. The error of this solution is {:.0e}.",
        friction_error(p, &r).rel
    )
    .unwrap();
    t
}

fn main() {
    let p = running_example();
    let exact = running_example_solution();
    support::publish("generated/running_example_problem.txt", &problem_text(&p));
    for Run {
        file,
        method,
        settings,
        chapter,
    } in METHODS
    {
        let (rows, _) = iterates(&p, method, settings);
        let last = &rows.last().expect("rows").1;
        let gap = (last - &exact).norm() / exact.norm();
        assert!(gap <= 1e-6, "{method} ends {gap:e} from the solution");
        for c in 0..2 {
            assert_eq!(
                case(&p, last, c),
                case(&p, &exact, c),
                "{method}, contact {c}"
            );
        }
        let n = rows.last().expect("rows").0;
        let mut t = table(&rows);
        let settings = if settings.is_empty() {
            "its default options".to_string()
        } else {
            settings
                .iter()
                .map(|(k, v)| format!("`--set {k}={v}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        write!(
            t,
            "\n`{method}` (the chapter [{}]({chapter})) from $r = 0$ with {settings}, \
             {n} iterations to a relative error of $10^{{-8}}$.",
            chapter_title(chapter),
        )
        .unwrap();
        if rows.len() > HEAD + TAIL + 1 {
            write!(
                t,
                " The rows of $k$ = {} to {} are left out.",
                rows[HEAD].0,
                rows[rows.len() - TAIL - 1].0
            )
            .unwrap();
        }
        let rejected = n + 1 - rows.len();
        if rejected > 0 {
            write!(
                t,
                " {rejected} iterations were rolled back (the step grew, so the r-factors \
                 shrank and the iterate was kept); $k$ counts them, the table does not show them."
            )
            .unwrap();
        }
        t.push('\n');
        support::publish(&format!("generated/running_example_{file}.txt"), &t);
    }
}

/// The title of a chapter of the book, for the note under a table.
fn chapter_title(file: &str) -> &'static str {
    match file {
        "splitting.md" => "Splitting methods and projected Gauss-Seidel",
        "prox-schemes.md" => "PROX schemes and r-factors",
        "newton-cone.md" => "Newton on the friction cone",
        "proximal-point.md" => "The proximal-point method",
        _ => unreachable!("a chapter of METHODS"),
    }
}

#[test]
fn output_matches_the_book() {
    main();
}
