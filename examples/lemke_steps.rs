//! Lemke's method step by step (the book's chapter "Pivoting: Lemke's method"): a textbook
//! tableau version of the scheme in exact rational arithmetic prints every tableau, the
//! entering column, the ratio test and the variable that leaves, on three small LCPs; the
//! crate's [`nonsmooth::pivoting::lemke`] solves the same problems, and the example asserts
//! that it makes the same number of pivots, passes through the same basic solutions and ends
//! the same way (a solution, or a secondary ray).
//!
//! It also draws the complementary cones of the first problem (a `2 x 2` P-matrix), with
//! `q` and the points `q + z0 e` of Lemke's path.
//!
//! ```text
//! cargo run --release --example lemke_steps
//! ```
//!
//! Writes `book/src/generated/lemke_steps.txt` and `book/src/figures/complementary_cones.svg`
//! (with the `.csv` of the points it draws); its test checks the committed files.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;
use std::ops::ControlFlow;

use nalgebra::{DMatrix, DVector};
use nonsmooth::pivoting::{LemkeOptions, lemke};
use nonsmooth::problem::Lcp;
use nonsmooth::solver::{Iterate, Params, SolveError};
use num_rational::Ratio;
use num_traits::{Signed, ToPrimitive, Zero};
use plotters::prelude::*;

/// Exact rationals: the tiny integer data of the examples never overflow `i64`.
type Q = Ratio<i64>;

fn q(v: i64) -> Q {
    Q::from_integer(v)
}

/// How the textbook run ended.
#[derive(Debug, Clone, PartialEq)]
enum End {
    /// `z0` left the basis: `z` solves the LCP.
    Solution(Vec<Q>),
    /// The entering column had no positive entry.
    Ray,
}

/// The tableau `[I, -M, -e | q]` of `w - M z - e z0 = q`, its basis, and the name of each
/// variable: `w_i` is column `i`, `z_j` column `n + j`, `z0` column `2n`.
struct Tableau {
    n: usize,
    /// `n` rows of `2n + 2` entries (the last is the right-hand side).
    t: Vec<Vec<Q>>,
    /// `basis[i]`: the variable basic in row `i`.
    basis: Vec<usize>,
}

impl Tableau {
    fn new(m: &[Vec<i64>], rhs: &[i64]) -> Self {
        let n = rhs.len();
        let mut t = vec![vec![Q::zero(); 2 * n + 2]; n];
        for i in 0..n {
            t[i][i] = q(1);
            for j in 0..n {
                t[i][n + j] = q(-m[i][j]);
            }
            t[i][2 * n] = q(-1);
            t[i][2 * n + 1] = q(rhs[i]);
        }
        Tableau {
            n,
            t,
            basis: (0..n).collect(),
        }
    }

    fn name(&self, v: usize) -> String {
        let n = self.n;
        if v < n {
            format!("w{}", v + 1)
        } else if v < 2 * n {
            format!("z{}", v - n + 1)
        } else {
            "z0".to_string()
        }
    }

    fn complement(&self, v: usize) -> usize {
        if v < self.n { v + self.n } else { v - self.n }
    }

    fn z0(&self) -> usize {
        2 * self.n
    }

    fn rhs(&self, i: usize) -> Q {
        self.t[i][2 * self.n + 1]
    }

    /// The basic solution's `z` and `z0`.
    fn point(&self) -> (Vec<Q>, Q) {
        let n = self.n;
        let mut z = vec![Q::zero(); n];
        let mut z0 = Q::zero();
        for (i, &v) in self.basis.iter().enumerate() {
            if (n..2 * n).contains(&v) {
                z[v - n] = self.rhs(i);
            } else if v == 2 * n {
                z0 = self.rhs(i);
            }
        }
        (z, z0)
    }

    fn print(&self, out: &mut String) {
        let n = self.n;
        let width = 6;
        let mut head = format!("    {:>4} |", "basic");
        for v in 0..=2 * n {
            write!(head, "{:>width$}", self.name(v)).unwrap();
        }
        write!(head, " |{:>width$}", "rhs").unwrap();
        writeln!(out, "{head}").unwrap();
        for (i, row) in self.t.iter().enumerate() {
            let mut line = format!("    {:>5} |", self.name(self.basis[i]));
            for c in row.iter().take(2 * n + 1) {
                write!(line, "{:>width$}", c.to_string()).unwrap();
            }
            write!(line, " |{:>width$}", row[2 * n + 1].to_string()).unwrap();
            writeln!(out, "{line}").unwrap();
        }
    }

    /// Divides row `r` by its entry in the column of `entering`, eliminates that column from
    /// the other rows, and returns the variable that left.
    fn pivot(&mut self, r: usize, entering: usize) -> usize {
        let p = self.t[r][entering];
        for c in self.t[r].iter_mut() {
            *c /= p;
        }
        let pivot_row = self.t[r].clone();
        for (i, row) in self.t.iter_mut().enumerate() {
            let f = row[entering];
            if i != r && !f.is_zero() {
                for (c, pc) in row.iter_mut().zip(&pivot_row) {
                    *c -= f * pc;
                }
            }
        }
        std::mem::replace(&mut self.basis[r], entering)
    }

    /// The lexicographic minimum-ratio row for the column of `entering` (`None`: no entry is
    /// positive, a secondary ray). `z0` leaves when its row ties on the ratio. The columns
    /// of `B^-1` are the tableau's `w` columns, since the first basis was `I`.
    fn ratio_test(&self, entering: usize) -> Option<usize> {
        let n = self.n;
        let d = |i: usize| self.t[i][entering];
        let mut rows: Vec<usize> = (0..n).filter(|&i| d(i).is_positive()).collect();
        if rows.is_empty() {
            return None;
        }
        // Column 2n + 1 (the rhs) first, then w_1 .. w_n (the columns of B^-1).
        for (k, c) in std::iter::once(2 * n + 1).chain(0..n).enumerate() {
            let key = |i: usize| self.t[i][c] / d(i);
            let best = rows.iter().map(|&i| key(i)).min().expect("not empty");
            rows.retain(|&i| key(i) == best);
            if k == 0 {
                if let Some(&r) = rows.iter().find(|&&i| self.basis[i] == self.z0()) {
                    return Some(r);
                }
            }
            if rows.len() == 1 {
                break;
            }
        }
        Some(rows[0])
    }
}

fn vector(v: &[Q]) -> String {
    let parts: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    format!("({})", parts.join(", "))
}

fn matrix(m: &[Vec<i64>]) -> String {
    let rows: Vec<String> = m
        .iter()
        .map(|r| {
            r.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    format!("[{}]", rows.join("; "))
}

/// Runs the textbook scheme on `w = M z + q`, printing each step into `out`; returns how it
/// ended and the `z` and `z0` of every basis after a pivot.
fn textbook(m: &[Vec<i64>], rhs: &[i64], out: &mut String) -> (End, Vec<(Vec<Q>, Q)>) {
    let mut t = Tableau::new(m, rhs);
    let n = t.n;
    let mut path = Vec::new();
    // ANCHOR: textbook
    if rhs.iter().all(|&v| v >= 0) {
        writeln!(out, "q >= 0: z = 0, w = q solves it; no pivot.").unwrap();
        return (End::Solution(vec![Q::zero(); n]), path);
    }
    writeln!(out, "Tableau of w - M z - e z0 = q, basis w:").unwrap();
    t.print(out);
    // First pivot: z0 enters in the row of the most negative q_i (the last one on a tie).
    let mut r = 0;
    for i in 1..n {
        if t.rhs(i) <= t.rhs(r) {
            r = i;
        }
    }
    let mut entering = t.z0();
    let mut pivots = 0;
    loop {
        let leaving = t.pivot(r, entering);
        pivots += 1;
        path.push(t.point());
        writeln!(
            out,
            "Pivot {pivots}: {} enters in row {}, {} leaves.",
            t.name(entering),
            r + 1,
            t.name(leaving)
        )
        .unwrap();
        t.print(out);
        if leaving == t.z0() {
            let (z, _) = t.point();
            writeln!(out, "z0 left the basis: z = {} solves the LCP.", vector(&z)).unwrap();
            return (End::Solution(z), path);
        }
        // The complementary pivot rule: the complement of the variable that left enters.
        entering = t.complement(leaving);
        let d: Vec<Q> = (0..n).map(|i| t.t[i][entering]).collect();
        write!(
            out,
            "{} enters (complement of {}), tableau column {}",
            t.name(entering),
            t.name(leaving),
            vector(&d)
        )
        .unwrap();
        match t.ratio_test(entering) {
            None => {
                writeln!(out, ": no positive entry, a secondary ray.").unwrap();
                return (End::Ray, path);
            }
            Some(row) => {
                let ratios: Vec<String> = (0..n)
                    .filter(|&i| d[i].is_positive())
                    .map(|i| format!("{} {}", t.name(t.basis[i]), t.rhs(i) / d[i]))
                    .collect();
                writeln!(out, "; ratios: {}.", ratios.join(", ")).unwrap();
                r = row;
            }
        }
    }
    // ANCHOR_END: textbook
}

/// One problem of the example.
struct Case {
    title: &'static str,
    m: Vec<Vec<i64>>,
    q: Vec<i64>,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            title: "A. A symmetric positive definite 2 x 2 (a P-matrix): a solution",
            m: vec![vec![2, 1], vec![1, 2]],
            q: vec![-5, -6],
        },
        Case {
            title: "B. A 3 x 3 P-matrix (not symmetric), q with a tie: a longer path",
            m: vec![vec![1, 2, 0], vec![0, 1, 2], vec![2, 0, 1]],
            q: vec![-1, -1, -1],
        },
        Case {
            title: "C. A skew-symmetric 2 x 2 (copositive-plus), an infeasible q: a ray",
            m: vec![vec![0, 1], vec![-1, 0]],
            q: vec![-1, -1],
        },
    ]
}

fn to_f64(v: &[Q]) -> DVector<f64> {
    DVector::from_iterator(v.len(), v.iter().map(|x| x.to_f64().expect("finite")))
}

/// The crate's Lemke on the same problem: the x-part of every basis it passes through, and
/// how it ended. Asserts that it agrees with the textbook run.
fn crate_run(case: &Case, end: &End, path: &[(Vec<Q>, Q)], out: &mut String) {
    let n = case.q.len();
    let flat: Vec<f64> = case.m.iter().flatten().map(|&v| v as f64).collect();
    let lcp = Lcp::new(
        DMatrix::from_row_slice(n, n, &flat).into(),
        DVector::from_iterator(n, case.q.iter().map(|&v| v as f64)),
    )
    .expect("a valid LCP");
    // ANCHOR: crate_call
    let mut x = DVector::zeros(n);
    let params = Params {
        tol: 1e-12,
        ..Default::default()
    };
    let mut seen: Vec<DVector<f64>> = Vec::new();
    let mut observer = |it: &Iterate| {
        seen.push(it.x.clone());
        ControlFlow::Continue(())
    };
    let result = lemke(
        &lcp,
        &mut x,
        &params,
        &LemkeOptions::default(),
        &mut observer,
    );
    // ANCHOR_END: crate_call
    // Every basis of the crate's path has the textbook's z (to rounding).
    assert_eq!(seen.len(), path.len(), "{}: pivots differ", case.title);
    for (k, (ours, (z, _))) in seen.iter().zip(path).enumerate() {
        let exact = to_f64(z);
        assert!(
            (ours - &exact).amax() <= 1e-12 * (1.0 + exact.amax()),
            "{}: basis {} differs: {ours} against {exact}",
            case.title,
            k + 1
        );
    }
    match (&result, end) {
        (Ok(info), End::Solution(z)) => {
            let exact = to_f64(z);
            let diff = (&x - &exact).amax();
            assert!(diff <= 1e-12 * (1.0 + exact.amax()));
            writeln!(
                out,
                "The crate's lemke: {}, {} pivots ({} degenerate, {} ties), the same bases;\n  \
                 z = ({}), max |z - exact| = {}, relative error {}.",
                info.status.name(),
                info.stats.pivots,
                info.stats.degenerate,
                info.stats.ties,
                x.iter()
                    .map(|v| format!("{v:.6}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                support::sci(diff),
                support::sci(info.error.rel)
            )
            .unwrap();
        }
        (Err(SolveError::RayTermination { pivots }), End::Ray) => {
            assert_eq!(*pivots, path.len());
            writeln!(
                out,
                "The crate's lemke: ray termination after {pivots} pivot{}, the same bases.",
                if *pivots == 1 { "" } else { "s" }
            )
            .unwrap();
        }
        (r, e) => panic!(
            "{}: the crate ended with {r:?}, the textbook with {e:?}",
            case.title
        ),
    }
}

/// Clips a polygon to the box `[lo, hi]^2` (Sutherland-Hodgman).
fn clip(poly: Vec<(f64, f64)>, lo: f64, hi: f64) -> Vec<(f64, f64)> {
    // Each edge of the box: inside test and intersection.
    let edges: [(usize, f64, bool); 4] =
        [(0, lo, true), (0, hi, false), (1, lo, true), (1, hi, false)];
    let mut cur = poly;
    for (axis, v, keep_above) in edges {
        let inside = |p: (f64, f64)| {
            let c = if axis == 0 { p.0 } else { p.1 };
            if keep_above { c >= v } else { c <= v }
        };
        let mut next = Vec::new();
        for i in 0..cur.len() {
            let (a, b) = (cur[i], cur[(i + 1) % cur.len()]);
            let (ia, ib) = (inside(a), inside(b));
            if ia {
                next.push(a);
            }
            if ia != ib {
                let (ca, cb) = if axis == 0 { (a.0, b.0) } else { (a.1, b.1) };
                let s = (v - ca) / (cb - ca);
                next.push((a.0 + s * (b.0 - a.0), a.1 + s * (b.1 - a.1)));
            }
        }
        cur = next;
    }
    cur
}

/// The complementary cones of case A and the points `q + z0 e` of Lemke's path.
fn figure(case: &Case, path: &[(Vec<Q>, Q)]) {
    let (m, qv) = (&case.m, &case.q);
    let col = |j: usize| (-m[0][j] as f64, -m[1][j] as f64);
    let (i1, i2, m1, m2) = ((1.0, 0.0), (0.0, 1.0), col(0), col(1));
    // The four complementary cones: one generator from each pair {I_j, -M_j}.
    let cones = [
        ("{w1, w2}", i1, i2, RGBColor(198, 219, 239)),
        ("{z1, w2}", m1, i2, RGBColor(199, 233, 192)),
        ("{w1, z2}", i1, m2, RGBColor(253, 208, 162)),
        ("{z1, z2}", m1, m2, RGBColor(218, 218, 235)),
    ];
    let (lo, hi) = (-8.0, 4.0);
    let qp = (qv[0] as f64, qv[1] as f64);
    let points: Vec<(f64, f64)> = path
        .iter()
        .map(|(_, z0)| {
            let t = z0.to_f64().expect("finite");
            (qp.0 + t, qp.1 + t)
        })
        .collect();
    let mut csv = String::from("what,x,y\n");
    for (name, g) in [("I1", i1), ("I2", i2), ("-M1", m1), ("-M2", m2), ("q", qp)] {
        writeln!(csv, "{name},{},{}", g.0, g.1).unwrap();
    }
    for (k, p) in points.iter().enumerate() {
        writeln!(csv, "q + z0 e after pivot {},{},{}", k + 1, p.0, p.1).unwrap();
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (640, 640)).into_drawing_area();
        root.fill(&WHITE).unwrap();
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Complementary cones of M = [2 1; 1 2], and Lemke's path",
                ("sans-serif", 20),
            )
            .margin(14)
            .x_label_area_size(40)
            .y_label_area_size(44)
            .build_cartesian_2d(lo..hi, lo..hi)
            .unwrap();
        chart
            .configure_mesh()
            .label_style(("sans-serif", 16))
            .light_line_style(RGBColor(240, 240, 240))
            .draw()
            .unwrap();
        let far = 100.0;
        for (label, a, b, color) in cones {
            let poly = clip(
                vec![(0.0, 0.0), (far * a.0, far * a.1), (far * b.0, far * b.1)],
                lo,
                hi,
            );
            chart
                .draw_series(std::iter::once(Polygon::new(poly, color.filled())))
                .unwrap();
            // The label on the bisector of the cone, inside the box.
            let (bx, by) = (a.0 + b.0, a.1 + b.1);
            let s = 0.55 * (hi - 0.5) / bx.abs().max(by.abs()).max(1e-9);
            let s = if bx < 0.0 || by < 0.0 {
                0.6 * (-lo - 1.0) / bx.abs().max(by.abs())
            } else {
                s
            };
            chart
                .draw_series(std::iter::once(Text::new(
                    label,
                    (s * bx - 1.0, s * by),
                    ("sans-serif", 18),
                )))
                .unwrap();
        }
        for (name, g) in [("I1", i1), ("I2", i2), ("-M1", m1), ("-M2", m2)] {
            chart
                .draw_series(LineSeries::new([(0.0, 0.0), g], BLACK.stroke_width(2)))
                .unwrap();
            chart
                .draw_series(std::iter::once(Circle::new(g, 3, BLACK.filled())))
                .unwrap();
            chart
                .draw_series(std::iter::once(Text::new(
                    name,
                    (g.0 + 0.15, g.1 + 0.15),
                    ("sans-serif", 16),
                )))
                .unwrap();
        }
        let red = RGBColor(214, 39, 40);
        let start = points[0];
        chart
            .draw_series(LineSeries::new([start, qp], red.stroke_width(2)))
            .unwrap();
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 5, red.filled())))
            .unwrap();
        for (k, p) in points.iter().enumerate() {
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("{}", k + 1),
                    (p.0 + 0.2, p.1 - 0.1),
                    ("sans-serif", 16).into_font().color(&red),
                )))
                .unwrap();
        }
        chart
            .draw_series(std::iter::once(Text::new(
                "q",
                (qp.0 - 0.5, qp.1 - 0.1),
                ("sans-serif", 18).into_font().color(&red),
            )))
            .unwrap();
        root.present().unwrap();
    }
    support::publish_figure("complementary_cones", &csv, &svg);
}

fn main() {
    let mut out = String::new();
    let mut first_path = None;
    for case in cases() {
        writeln!(
            out,
            "{}\nM = {}, q = {}\n",
            case.title,
            matrix(&case.m),
            vector(&case.q.iter().map(|&v| q(v)).collect::<Vec<_>>())
        )
        .unwrap();
        let (end, path) = textbook(&case.m, &case.q, &mut out);
        crate_run(&case, &end, &path, &mut out);
        writeln!(out).unwrap();
        if first_path.is_none() {
            first_path = Some((case, path));
        }
    }
    print!("{out}");
    support::publish("generated/lemke_steps.txt", &out);
    let (case, path) = first_path.expect("a first case");
    figure(&case, &path);
}

#[test]
fn output_matches_the_book() {
    main();
}
