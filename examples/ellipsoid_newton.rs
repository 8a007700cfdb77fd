//! Why plain Newton fails on `g(t)` (Erleben 2017 §4.1) and what the safeguarded methods do
//! on the same problems (the book's chapter "The closest point on an ellipsoid").
//!
//! ```text
//! cargo run --release --example ellipsoid_newton
//! ```
//!
//! Writes `book/src/generated/ellipsoid_plain_newton.txt` (the iterates of plain Newton from
//! the paper's `t_guess` on two problems, and the safeguarded methods' reports) and the
//! figure `book/src/figures/ellipsoid_g.svg` with the CSV of what it plots
//! (`ellipsoid_g.csv`): `g(t)` for the first problem, poles and all, with the Newton
//! iterates. The test at the bottom recomputes everything and fails if a committed file
//! differs; it also checks the claims the chapter makes about these runs.

#[path = "ellipsoid_support/mod.rs"]
mod ellipsoid_support;
#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use ellipsoid_support::reference_projection;
use nonsmooth::friction::{EllipsoidMethod, ellipsoid_g, project_on_ellipsoid_with};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use support::publish;

/// Problem A: plain Newton lands on a negative root. Problem B: it wanders between the
/// poles before it finds the positive root.
const PROBLEMS: [([f64; 3], [f64; 3]); 2] = [
    ([1.0, 1.0, 0.2], [1.1, 0.2, 0.05]),
    ([1.0, 0.5, 0.1], [2.0, 1.0, 0.5]),
];

// ANCHOR: plain_newton
/// Plain Newton on `g` from `t0`: `t <- t - g(t) / g'(t)`, for `steps` steps (or until a
/// step changes nothing); the iterates.
fn plain_newton(axes: &[f64], z: &[f64], t0: f64, steps: usize) -> Vec<f64> {
    let mut ts = vec![t0];
    let mut t = t0;
    for _ in 0..steps {
        let [g, dg] = ellipsoid_g(axes, z, t);
        let next = t - g / dg;
        if !next.is_finite() || next == t {
            break;
        }
        t = next;
        ts.push(t);
    }
    ts
}
// ANCHOR_END: plain_newton

/// `x(t)_i = a_i² z_i / (a_i² + t)` (eq. 32).
fn point_at(axes: &[f64], z: &[f64], t: f64) -> Vec<f64> {
    axes.iter()
        .zip(z)
        .map(|(a, v)| a * a * v / (a * a + t))
        .collect()
}

fn distance(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(p, q)| (p - q) * (p - q))
        .sum::<f64>()
        .sqrt()
}

/// The paper's initial guess, eq. 36.
fn t_guess(axes: &[f64], z: &[f64]) -> f64 {
    let amax = axes.iter().fold(0.0f64, |m, v| m.max(*v));
    amax * z.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// The text of the report, and the runs for the checks.
fn report() -> (String, Vec<Vec<f64>>) {
    let mut out = String::new();
    let mut runs = Vec::new();
    for (k, (axes, z)) in PROBLEMS.iter().enumerate() {
        let name = ["A", "B"][k];
        let tg = t_guess(axes, z);
        let ts = plain_newton(axes, z, tg, 60);
        let exact = reference_projection(axes, z);
        writeln!(
            out,
            "problem {name}: semi-axes {axes:?}, z = {z:?}, t_guess = max a_i ‖z‖ = {tg:.6}"
        )
        .unwrap();
        writeln!(out, "plain Newton from t_guess:").unwrap();
        writeln!(out, "{:>4}  {:>14}  {:>14}", "k", "t_k", "g(t_k)").unwrap();
        for (i, t) in ts.iter().enumerate() {
            if i < 12 || i + 1 == ts.len() {
                writeln!(
                    out,
                    "{i:>4}  {t:>14.6e}  {:>14.6e}",
                    ellipsoid_g(axes, z, *t)[0]
                )
                .unwrap();
            } else if i == 12 {
                writeln!(out, "   ...").unwrap();
            }
        }
        let t_end = *ts.last().unwrap();
        let x_end = point_at(axes, z, t_end);
        writeln!(
            out,
            "its point x(t) = {:?}: distance to z {:.6}; the closest point is at distance {:.6}",
            round6(&x_end),
            distance(&x_end, z),
            distance(&exact, z)
        )
        .unwrap();
        for method in [
            EllipsoidMethod::Bisection,
            EllipsoidMethod::SafeguardedNewton,
        ] {
            let mut x = [0.0; 3];
            let r = project_on_ellipsoid_with(axes, z, &mut x, method);
            writeln!(
                out,
                "{method:?}: t = {:.6e}, {} evaluations ({} Newton, {} bisection steps), distance to z {:.6}",
                r.t_scaled / (r.scale * r.scale),
                r.evaluations,
                r.newton_steps,
                r.bisection_steps,
                distance(&x, z)
            )
            .unwrap();
        }
        writeln!(out).unwrap();
        runs.push(ts);
    }
    (out, runs)
}

fn round6(v: &[f64]) -> Vec<f64> {
    v.iter().map(|x| (x * 1e6).round() / 1e6).collect()
}

/// The figure's data: `g(t)` on a grid of `[-2.4, 2.4]` (clipped to `[-1.5, 6]`, broken at
/// the poles), and the Newton iterates of problem A.
fn figure_csv(run: &[f64]) -> String {
    let (axes, z) = PROBLEMS[0];
    let mut csv = String::from("series,t,g\n");
    let n = 960;
    for i in 0..=n {
        let t = -2.4 + 4.8 * i as f64 / n as f64;
        let g = ellipsoid_g(&axes, &z, t)[0];
        if (-1.5..=6.0).contains(&g) {
            writeln!(csv, "g,{t:.6},{g:.6}").unwrap();
        } else {
            writeln!(csv, "g,{t:.6},").unwrap(); // a gap
        }
    }
    for t in run.iter().take(8) {
        let g = ellipsoid_g(&axes, &z, *t)[0];
        writeln!(csv, "newton,{t:.6},{g:.6}").unwrap();
    }
    let mut x = [0.0; 3];
    let r = project_on_ellipsoid_with(&axes, &z, &mut x, EllipsoidMethod::default());
    writeln!(csv, "root,{:.6},0", r.t_scaled / (r.scale * r.scale)).unwrap();
    csv
}

fn figure_svg(csv: &str) -> String {
    let mut curves: Vec<Vec<(f64, f64)>> = vec![vec![]];
    let (mut newton, mut root) = (vec![], vec![]);
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let t: f64 = f[1].parse().unwrap();
        match (f[0], f[2].parse::<f64>()) {
            ("g", Ok(g)) => curves.last_mut().unwrap().push((t, g)),
            ("g", Err(_)) if !curves.last().unwrap().is_empty() => curves.push(vec![]),
            ("newton", Ok(g)) => newton.push((t, g)),
            ("root", Ok(g)) => root.push((t, g)),
            _ => {}
        }
    }
    // The poles of g, t = -a_i^2 (equal semi-axes share one), and how each is named.
    let (axes, _) = PROBLEMS[0];
    let mut poles: Vec<(f64, Vec<usize>)> = Vec::new();
    for (i, a) in axes.iter().enumerate() {
        match poles.iter_mut().find(|p| p.0 == -a * a) {
            Some(p) => p.1.push(i + 1),
            None => poles.push((-a * a, vec![i + 1])),
        }
    }
    // (plotters writes its text at 0.806 times the size asked: 20 gives 16 px)
    let font = |size: u32| ("sans-serif", size).into_font();
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (760, 480)).into_drawing_area();
        area.fill(&WHITE).unwrap();
        let mut chart = ChartBuilder::on(&area)
            .caption(
                "g(t) for semi-axes (1, 1, 0.2), z = (1.1, 0.2, 0.05)",
                font(20),
            )
            .margin(12)
            .x_label_area_size(50)
            .y_label_area_size(56)
            .build_cartesian_2d(-2.4f64..2.4, -1.5f64..6.0)
            .unwrap();
        chart
            .configure_mesh()
            .x_desc("t")
            .y_desc("g(t)")
            .label_style(font(20))
            .axis_desc_style(font(20))
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBColor(230, 230, 230))
            .draw()
            .unwrap();
        chart
            .draw_series(LineSeries::new(
                [(-2.4, 0.0), (2.4, 0.0)],
                RGBColor(150, 150, 150),
            ))
            .unwrap();
        // The poles: dashed vertical lines, named below the curve.
        let grey = RGBColor(110, 110, 110);
        for (k, (t, which)) in poles.iter().enumerate() {
            let s = chart
                .draw_series(DashedLineSeries::new(
                    [(*t, -1.5), (*t, 6.0)],
                    8,
                    6,
                    grey.stroke_width(2),
                ))
                .unwrap();
            if k == 0 {
                s.label("poles -a_i²").legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], grey.stroke_width(2))
                });
            }
            let names: Vec<String> = which
                .iter()
                .map(|i| format!("-a{}²", ['₀', '₁', '₂', '₃'][*i]))
                .collect();
            // the first pole named on its left, the others on their right
            let (h, dx) = if k == 0 {
                (HPos::Right, -0.04)
            } else {
                (HPos::Left, 0.04)
            };
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("{} = {}", names.join(" = "), (t * 1e6).round() / 1e6),
                    (t + dx, -1.2),
                    font(20).color(&grey).pos(Pos::new(h, VPos::Center)),
                )))
                .unwrap();
        }
        let blue = RGBColor(31, 119, 180);
        for (i, c) in curves.into_iter().filter(|c| !c.is_empty()).enumerate() {
            let s = chart
                .draw_series(LineSeries::new(c, blue.stroke_width(2)))
                .unwrap();
            if i == 0 {
                s.label("g(t)").legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], blue.stroke_width(2))
                });
            }
        }
        // The Newton iterates: markers, numbered, joined by a dotted line only (a chord
        // would suggest the path of a continuous motion).
        let red = RGBColor(214, 39, 40);
        chart
            .draw_series(DashedLineSeries::new(
                newton.clone(),
                2,
                5,
                red.stroke_width(1),
            ))
            .unwrap();
        chart
            .draw_series(newton.iter().map(|p| Circle::new(*p, 5, red.filled())))
            .unwrap()
            .label("plain Newton t_k")
            .legend(move |(x, y)| Circle::new((x + 10, y), 5, red.filled()));
        let mut last: Option<(i32, i32)> = None;
        for (k, p) in newton.iter().enumerate() {
            let at = chart.backend_coord(p);
            if last.is_some_and(|q| (q.0 - at.0).pow(2) + (q.1 - at.1).pow(2) < 26 * 26) {
                continue; // too close to the last numbered one (converged iterates)
            }
            last = Some(at);
            chart
                .draw_series(std::iter::once(Text::new(
                    k.to_string(),
                    (p.0 + 0.05, p.1 + 0.12),
                    font(20).color(&red).pos(Pos::new(HPos::Left, VPos::Bottom)),
                )))
                .unwrap();
        }
        let green = RGBColor(44, 160, 44);
        chart
            .draw_series(root.iter().map(|p| Circle::new(*p, 7, green.filled())))
            .unwrap()
            .label("root t* > 0")
            .legend(move |(x, y)| Circle::new((x + 10, y), 6, green.filled()));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font(font(20))
            .background_style(WHITE.mix(0.9))
            .border_style(RGBColor(180, 180, 180))
            .draw()
            .unwrap();
        area.present().unwrap();
    }
    svg
}

fn main() {
    let (text, runs) = report();
    print!("{text}");
    publish("generated/ellipsoid_plain_newton.txt", &text);
    let csv = figure_csv(&runs[0]);
    publish("figures/ellipsoid_g.csv", &csv);
    publish("figures/ellipsoid_g.svg", &figure_svg(&csv));
}

#[test]
fn output_matches_the_book_and_plain_newton_fails() {
    main();
    let (_, runs) = report();
    // Problem A: plain Newton ends on a negative root, left of every pole, and its point is
    // not the closest one; the safeguarded methods find t > 0.
    let (axes, z) = PROBLEMS[0];
    let t_end = *runs[0].last().unwrap();
    assert!(t_end < -1.0, "{t_end}");
    assert!(ellipsoid_g(&axes, &z, t_end)[0].abs() < 1e-12);
    let x_end = point_at(&axes, &z, t_end);
    let exact = reference_projection(&axes, &z);
    assert!(distance(&x_end, &z) > 2.0 * distance(&exact, &z));
    for method in [
        EllipsoidMethod::Bisection,
        EllipsoidMethod::SafeguardedNewton,
    ] {
        let mut x = [0.0; 3];
        let r = project_on_ellipsoid_with(&axes, &z, &mut x, method);
        assert!(r.t_scaled > 0.0);
        assert!(distance(&x, &exact) <= 4.0 * f64::EPSILON);
    }
    // Problem B: the first step leaves t > 0 (lands between the poles), yet it ends on
    // the positive root after more than ten steps.
    let b = &runs[1];
    assert!(b[1] < 0.0 && *b.last().unwrap() > 0.0 && b.len() > 10);
}
