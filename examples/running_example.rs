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
//!   solve converges to `1e-8`; a long run shows its first 8 and last 2 rows;
//! * `running_example_lcp.txt`: the same contacts as complementarity problems, built by the
//!   crate's conversions: the frictionless normal LCP ([`Lcp::frictionless`]) and
//!   the friction box ([`BoxedLcp::from_friction_contact`]), with the box's solution row by
//!   row, and the box's and the friction directions' solutions beside the cone's, contact by
//!   contact;
//! * `running_example_lemke.txt`: Lemke's pivots on the normal LCP (entering and leaving
//!   variable, the covering variable `z0`, the basic solution, the LCP error), and its
//!   solve of the LCP with friction directions ([`Lcp::with_friction_directions`]);
//! * `running_example_fischer_newton.txt`, `running_example_minmap_newton.txt`: the two
//!   Newton methods on the friction box from zero (iterate, error, merit, step length,
//!   rows held at a bound).
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
use nonsmooth::merit::{boxed_error, friction_error, lcp_error};
use nonsmooth::newton::{
    FischerNewtonOptions, MinMapNewtonOptions, NewtonReport, fischer_newton, min_map_newton,
};
use nonsmooth::pivoting::{LemkeOptions, lemke};
use nonsmooth::problem::{
    AnyProblem, BoxedLcp, FrictionContact, Lcp, running_example, running_example_solution,
};
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::{Iterate, Params, SolveError, Solved};

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
/// An error in one significant digit, `0` when it is exactly zero (not `0e0`).
fn small(e: f64) -> String {
    if e == 0.0 {
        "0".into()
    } else {
        format!("{e:.0e}")
    }
}

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
        "\nImpulses in N s, velocities in m/s. The error of this solution is {}.",
        small(friction_error(p, &r).rel)
    )
    .unwrap();
    t
}

/// The names of the contact-frame rows, `contact` then `n`, `t1` or `t2`.
const ROWS: [&str; 6] = ["1n", "1t1", "1t2", "2n", "2t1", "2t2"];

/// The rows of the box `blcp` held at a bound at `x`, as minimum-map Newton reads them
/// (`min(x - lo, max(x - hi, w))` picks `x - lo` or `x - hi`, a tie counting as held):
/// `(row, "lo" or "hi")`.
fn held(blcp: &BoxedLcp, x: &DVector<f64>) -> Vec<(usize, &'static str)> {
    let w = blcp.w(x);
    let mut out = Vec::new();
    for i in 0..blcp.dim() {
        let (lo, hi) = blcp.bounds_at(i, x.as_slice());
        let (a, c) = (x[i] - lo, x[i] - hi);
        if a <= c.max(w[i]) {
            out.push((i, "lo"));
        } else if c >= w[i] {
            out.push((i, "hi"));
        }
    }
    out
}

/// `held` as text: `1n lo, 2t1 hi`, or `none`.
fn held_text(h: &[(usize, &str)]) -> String {
    if h.is_empty() {
        return "none".into();
    }
    h.iter()
        .map(|(i, b)| format!("{} {b}", ROWS[*i]))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A Newton method on the friction box from zero to `1e-8`: the iterates `(k, x)` (the start
/// first) and the report.
fn newton_run(
    blcp: &BoxedLcp,
    fischer: bool,
) -> (Vec<(usize, DVector<f64>)>, Solved<NewtonReport>) {
    let params = Params {
        tol: 1e-8,
        certify: false,
        ..Default::default()
    };
    let mut x = DVector::zeros(blcp.dim());
    let mut rows = vec![(0, x.clone())];
    let mut observe = |it: &Iterate| {
        rows.push((it.iteration, it.x.clone()));
        ControlFlow::Continue(())
    };
    let out: Result<Solved<NewtonReport>, SolveError<NewtonReport>> = if fischer {
        let o = FischerNewtonOptions::default();
        fischer_newton(blcp, &mut x, &params, &o, &mut observe)
    } else {
        let o = MinMapNewtonOptions::default();
        min_map_newton(blcp, &mut x, &params, &o, &mut observe)
    };
    let out = out.unwrap_or_else(|e| panic!("Newton (fischer: {fischer}) on the box: {e:?}"));
    assert_eq!(
        rows.len(),
        out.stats.steps.len() + 1,
        "one iterate per step"
    );
    assert_eq!(
        rows.last().expect("rows").1,
        x,
        "the last iterate is the answer"
    );
    (rows, out)
}

/// The table of a Newton run on the box: the iterate, its error ([`boxed_error`]), the
/// merit, the step length that led to it and the rows held at a bound.
fn newton_table(
    blcp: &BoxedLcp,
    rows: &[(usize, DVector<f64>)],
    out: &Solved<NewtonReport>,
) -> String {
    let mut t = String::from(
        "| $k$ | $x_{1,n}$ | $x_{1,t1}$ | $x_{1,t2}$ | $x_{2,n}$ | $x_{2,t1}$ | $x_{2,t2}$ | error \
         | merit | $\\alpha$ | held at a bound |\n\
         |---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    let steps = &out.stats.steps;
    for (k, x) in rows {
        write!(t, "| {k} |").unwrap();
        for v in x.iter() {
            write!(t, " {} |", num(*v)).unwrap();
        }
        let (merit, alpha) = if *k == 0 {
            (steps[0].merit, String::new())
        } else {
            let s = &steps[k - 1];
            (s.merit_after, format!("{}", s.alpha))
        };
        writeln!(
            t,
            " {:.1e} | {merit:.1e} | {alpha} | {} |",
            boxed_error(blcp, x).rel,
            held_text(&held(blcp, x))
        )
        .unwrap();
    }
    t
}

/// The basic variables of Lemke's basis at the basic solution `z` of `lcp` (`w = A z + b +
/// e z0`, `z0` the least value that makes `w >= 0`): the names of the positive ones.
fn basic(lcp: &Lcp, z: &DVector<f64>) -> (Vec<String>, f64, DVector<f64>) {
    let v = lcp.w(z);
    let z0 = v.iter().fold(0.0f64, |m, x| m.max(-x));
    let w = v.add_scalar(z0);
    let mut names = Vec::new();
    if z0 > 1e-12 {
        names.push("$z_0$".to_string());
    }
    for i in 0..z.len() {
        if z[i] > 1e-12 {
            names.push(format!("$z_{}$", i + 1));
        }
        if w[i] > 1e-12 {
            names.push(format!("$w_{}$", i + 1));
        }
    }
    (names, z0, w)
}

/// Lemke's method on the normal LCP: one row per pivot, the variable that entered and the
/// one that left (read off the basic solutions, which here are nondegenerate), `z0`, `z`,
/// `w` and the LCP error; and the answer.
fn lemke_table(lcp: &Lcp) -> (String, DVector<f64>) {
    let n = lcp.dim();
    let mut z = DVector::zeros(n);
    let params = Params {
        tol: 1e-12,
        ..Default::default()
    };
    let mut seen: Vec<DVector<f64>> = Vec::new();
    let mut observe = |it: &Iterate| {
        seen.push(it.x.clone());
        ControlFlow::Continue(())
    };
    let info = lemke(lcp, &mut z, &params, &LemkeOptions::default(), &mut observe)
        .expect("Lemke solves the normal LCP of the running example");
    assert_eq!(seen.len(), info.stats.pivots);
    assert_eq!(info.stats.degenerate, 0, "the pivots are nondegenerate");
    let mut t = String::from(
        "| pivot | enters | leaves | $z_0$ | $z_1$ | $z_2$ | $w_1$ | $w_2$ | error |\n\
         |---:|---|---|---:|---:|---:|---:|---:|---:|\n",
    );
    let zero = DVector::zeros(n);
    write!(t, "| 0 | | | 0 | 0 | 0 |").unwrap();
    for v in lcp.b().iter() {
        write!(t, " {} |", num(*v)).unwrap();
    }
    writeln!(t, " {:.1e} |", lcp_error(lcp, &zero).rel).unwrap();
    let mut before: Vec<String> = (1..=n).map(|i| format!("$w_{i}$")).collect();
    for (k, x) in seen.iter().enumerate() {
        let (now, z0, w) = basic(lcp, x);
        let enters: Vec<&String> = now.iter().filter(|v| !before.contains(v)).collect();
        let leaves: Vec<&String> = before.iter().filter(|v| !now.contains(v)).collect();
        assert!(
            enters.len() == 1 && leaves.len() == 1,
            "pivot {}: one variable enters and one leaves ({enters:?}, {leaves:?})",
            k + 1
        );
        write!(
            t,
            "| {} | {} | {} | {} |",
            k + 1,
            enters[0],
            leaves[0],
            num(z0)
        )
        .unwrap();
        for v in x.iter().chain(w.iter()) {
            write!(t, " {} |", num(*v)).unwrap();
        }
        writeln!(t, " {:.1e} |", lcp_error(lcp, x).rel).unwrap();
        before = now;
    }
    write!(
        t,
        "\nThe normal LCP of the running example (`Lcp::frictionless`: friction \
         switched off, $n = {n}$, $M$ the normal rows of $W$, $q$ those of the free \
         velocity), solved by `lemke` in {} pivots, {} of them degenerate: the first \
         brings $z_0$ in, the last takes it out. $z_i$ is the normal impulse of contact $i$ \
         (N s), $w_i$ its normal velocity (m/s); the columns under $w$ are $w = Mz + q + z_0 e$ of each basis.\n",
        info.stats.pivots, info.stats.degenerate
    )
    .unwrap();
    (t, z)
}

/// The case of (5) of the complementarity chapter that row `i` of the box is in at `x`.
fn box_case(blcp: &BoxedLcp, x: &DVector<f64>, i: usize) -> &'static str {
    let (lo, hi) = blcp.bounds_at(i, x.as_slice());
    let w = blcp.w(x)[i];
    let tol = 1e-9;
    if (x[i] - lo).abs() <= tol && w >= -tol {
        if w <= tol {
            "$x = lo$, $w = 0$"
        } else {
            "$x = lo$, $w > 0$"
        }
    } else if (x[i] - hi).abs() <= tol && w <= tol {
        "$x = hi$, $w < 0$"
    } else if w.abs() <= tol {
        "$lo < x < hi$, $w = 0$"
    } else {
        panic!("row {i} is in no case of the box")
    }
}

/// `running_example_lcp.txt`: the normal LCP and its solution, the box at its solution
/// row by row, and the box's contacts beside the cone's.
fn lcp_text(
    p: &FrictionContact,
    lcp: &Lcp,
    z: &DVector<f64>,
    blcp: &BoxedLcp,
    x: &DVector<f64>,
    diamond: &DVector<f64>,
) -> String {
    let a = lcp.a().to_dense();
    let wz = lcp.w(z);
    let mut t = String::from(
        "| row | $A$ (1/kg) | | $b$ (m/s) | $x$ (N s) | $w$ (m/s) |\n\
         |---|---:|---:|---:|---:|---:|\n",
    );
    for i in 0..lcp.dim() {
        writeln!(
            t,
            "| {}n | {} | {} | {} | {} | {} |",
            i + 1,
            a[(i, 0)],
            a[(i, 1)],
            lcp.b()[i],
            num(z[i]),
            num(wz[i])
        )
        .unwrap();
    }
    writeln!(
        t,
        "\nThe normal LCP (`Lcp::frictionless`, {} unknowns), solved by `lemke`; \
         error {}.\n",
        lcp.dim(),
        small(lcp_error(lcp, z).rel)
    )
    .unwrap();
    let w = blcp.w(x);
    t.push_str(
        "| row | $lo$ | $x$ (N s) | $hi$ | $w$ (m/s) | case of (5) |\n\
         |---|---:|---:|---:|---:|---|\n",
    );
    for i in 0..blcp.dim() {
        let (lo, hi) = blcp.bounds_at(i, x.as_slice());
        let hi = if hi.is_infinite() {
            "$\\infty$".to_string()
        } else {
            num(hi)
        };
        writeln!(
            t,
            "| {} | {} | {} | {hi} | {} | {} |",
            ROWS[i],
            num(lo),
            num(x[i]),
            num(w[i]),
            box_case(blcp, x, i)
        )
        .unwrap();
    }
    writeln!(
        t,
        "\nThe friction box (`BoxedLcp::from_friction_contact`, {} unknowns: $A = W$, $b = q$, \
         normal rows in $[0, \\infty)$, friction rows in $[-\\mu x_n, \\mu x_n]$), solved by \
         `minmap-newton`; boxed error {}.\n",
        blcp.dim(),
        small(boxed_error(blcp, x).rel)
    )
    .unwrap();
    let cone = running_example_solution();
    let u = p.velocity(&cone);
    let ud = p.velocity(diamond);
    t.push_str(
        "| contact | model | $r_n$ | $r_{t1}$ | $r_{t2}$ | $\\lVert r_t\\rVert$ | $\\mu r_n$ \
         | $u_{t1}$ | $u_{t2}$ | case |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for c in 0..2 {
        for (model, r, v) in [
            ("cone", &cone, &u),
            ("box", x, &w),
            ("square", diamond, &ud),
        ] {
            let rt = r.rows(3 * c + 1, 2).norm();
            let ut = v.rows(3 * c + 1, 2).norm();
            let case = if ut <= 1e-9 {
                "stick".to_string()
            } else if model == "box" {
                let at = held(blcp, x)
                    .iter()
                    .filter(|(i, _)| i / 3 == c && i % 3 != 0)
                    .count();
                format!("slide, {at} friction rows at a bound")
            } else {
                "slide".to_string()
            };
            writeln!(
                t,
                "| {} | {model} | {} | {} | {} | {} | {} | {} | {} | {case} |",
                c + 1,
                num(r[3 * c]),
                num(r[3 * c + 1]),
                num(r[3 * c + 2]),
                num(rt),
                num(p.mu()[c] * r[3 * c]),
                num(v[3 * c + 1]),
                num(v[3 * c + 2]),
            )
            .unwrap();
        }
    }
    writeln!(
        t,
        "\nThe cone rows are the hand-worked solution, the box rows the box's solution above, \
         the square rows the solution of the LCP with friction directions \
         (`Lcp::with_friction_directions`, $\\pm t_1$, $\\pm t_2$: the square inside the cone), \
         found by `lemke`. Impulses in N s, velocities in m/s. The box's friction on contact 2 \
         has {:.2} times the cone's magnitude, and its slip direction is {:.1} degrees from \
         the cone's; the square's friction has {:.2} times the cone's magnitude, and its slip \
         direction is {:.1} degrees from the cone's.",
        x.rows(4, 2).norm() / cone.rows(4, 2).norm(),
        angle(&w.rows(4, 2).into_owned(), &u.rows(4, 2).into_owned()),
        diamond.rows(4, 2).norm() / cone.rows(4, 2).norm(),
        angle(&ud.rows(4, 2).into_owned(), &u.rows(4, 2).into_owned()),
    )
    .unwrap();
    t
}

/// The angle between two vectors of the plane, in degrees.
fn angle(a: &DVector<f64>, b: &DVector<f64>) -> f64 {
    (a.dot(b) / (a.norm() * b.norm()))
        .clamp(-1.0, 1.0)
        .acos()
        .to_degrees()
}

/// The note under a Newton table.
fn newton_note(
    method: &str,
    chapter: &str,
    title: &str,
    merit: &str,
    out: &Solved<NewtonReport>,
    x: &DVector<f64>,
    blcp: &BoxedLcp,
) -> String {
    let gradient = out
        .stats
        .steps
        .iter()
        .filter(|s| s.direction != nonsmooth::newton::Direction::Newton)
        .count();
    format!(
        "\n`{method}` (the chapter [{title}]({chapter})) on the friction box of the running \
         example (`BoxedLcp::from_friction_contact`: {} unknowns, $A = W$, $b = q$, normal \
         rows in $[0, \\infty)$, friction rows in $[-\\mu x_n, \\mu x_n]$) from $x = 0$ with its \
         default options: {} iterations to an error of $10^{{-8}}$ (the boxed error), {} of \
         them along the gradient instead of the Newton direction. Merit: {merit}; $\\alpha$ is \
         the step length of the line search that led to the row; a row held at a bound is one \
         where $\\min(x - lo, \\max(x - hi, w))$ takes $x - lo$ (lo) or $x - hi$ (hi). At the end \
         contact 1 sticks and contact 2 slides with both friction rows at $-\\mu x_{{2,n}} = \
         {}$ N s, a corner of the box.\n",
        blcp.dim(),
        out.iterations,
        gradient,
        num(-blcp.bounds_at(4, x.as_slice()).1),
    )
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
    lcp_outputs(&p);
}

/// The LCP tables: Lemke on the normal LCP, the two Newton methods on the friction box, and
/// the two problems' solutions beside the cone's.
fn lcp_outputs(p: &FrictionContact) {
    let lcp = Lcp::frictionless(p);
    let blcp = BoxedLcp::from_friction_contact(p);
    let (mut t, z) = lemke_table(&lcp);
    let fd = Lcp::with_friction_directions(p);
    let mut y = DVector::zeros(fd.dim());
    let params = Params {
        tol: 1e-12,
        ..Default::default()
    };
    let info = lemke(
        &fd,
        &mut y,
        &params,
        &LemkeOptions::default(),
        &mut |_: &Iterate| ControlFlow::Continue(()),
    )
    .expect("Lemke solves the LCP with friction directions of the running example");
    let diamond = Lcp::friction_direction_impulses(&y).expect("6 per contact");
    for c in 0..2 {
        assert!(
            (diamond[3 * c] - z[c]).abs() <= 1e-9,
            "the same normal impulses"
        );
    }
    write!(
        t,
        "\nThe LCP with friction directions of the same contacts \
         (`Lcp::with_friction_directions`: $\\pm t_1$, $\\pm t_2$ per contact, {} unknowns), \
         solved by `lemke` in {} pivots ({} degenerate, {} with a tie in the ratio test); \
         error {}. Its \
         answer, in contact impulses: contact 1 $({}, {}, {})$, contact 2 $({}, {}, {})$ N s.\n",
        fd.dim(),
        info.stats.pivots,
        info.stats.degenerate,
        info.stats.ties,
        small(info.error.rel),
        num(diamond[0]),
        num(diamond[1]),
        num(diamond[2]),
        num(diamond[3]),
        num(diamond[4]),
        num(diamond[5]),
    )
    .unwrap();
    support::publish("generated/running_example_lemke.txt", &t);
    let (fb_rows, fb) = newton_run(&blcp, true);
    let (mm_rows, mm) = newton_run(&blcp, false);
    let x_fb = &fb_rows.last().expect("rows").1;
    let x = &mm_rows.last().expect("rows").1;
    assert!(
        (x_fb - x).norm() <= 1e-7,
        "the two Newton methods agree on the box"
    );
    for c in 0..2 {
        assert!(
            (x[3 * c] - z[c]).abs() <= 1e-9,
            "the box's normal impulses are the normal LCP's"
        );
    }
    let mut t = newton_table(&blcp, &fb_rows, &fb);
    t.push_str(&newton_note(
        "fischer-newton",
        "fischer-newton.md",
        "Fischer-Newton",
        "$\\Psi = \\tfrac12\\lVert\\Phi\\rVert^2$ of the nested Fischer-Burmeister form (1)",
        &fb,
        x_fb,
        &blcp,
    ));
    support::publish("generated/running_example_fischer_newton.txt", &t);
    let mut t = newton_table(&blcp, &mm_rows, &mm);
    t.push_str(&newton_note(
        "minmap-newton",
        "minmap-newton.md",
        "Minimum-map Newton",
        "$\\theta = \\tfrac12\\lVert\\Phi\\rVert^2$ of the minimum map (1)",
        &mm,
        x,
        &blcp,
    ));
    support::publish("generated/running_example_minmap_newton.txt", &t);
    support::publish(
        "generated/running_example_lcp.txt",
        &lcp_text(p, &lcp, &z, &blcp, x, &diamond),
    );
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
