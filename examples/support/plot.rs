//! Convergence figures for the book's examples: curves of an error against an iteration
//! count on log-log axes, written as SVG together with the CSV of exactly the plotted points
//! (through [`super::publish`], so tests check them like every generated file).

use std::fmt::Write;
use std::ops::ControlFlow;

use nonsmooth::solver::{Iterate, SolveError, SolveInfo};
use plotters::prelude::*;

/// One curve of a figure: `(sweep, error)` points.
pub struct Curve {
    pub label: String,
    pub points: Vec<(usize, f64)>,
}

/// How a run ended, for the tables.
pub struct Run {
    pub curve: Curve,
    pub status: String,
    pub sweeps: usize,
}

/// A series is stopped once its error passes this (a diverging iteration).
pub const DIVERGED: f64 = 1e6;

// ANCHOR: observer
/// Runs `solve` with an observer that records the error after every sweep (so that a run
/// that diverges keeps its history) and stops the run once the error exceeds `DIVERGED`.
pub fn record(
    label: &str,
    solve: impl FnOnce(&mut dyn FnMut(&Iterate) -> ControlFlow<()>) -> Result<SolveInfo, SolveError>,
) -> Run {
    let mut points = Vec::new();
    let mut observer = |it: &Iterate| {
        if let Some(e) = it.error {
            points.push((it.iteration, e.rel));
            if e.rel.is_nan() || e.rel > DIVERGED {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    };
    let result = solve(&mut observer);
    // ANCHOR_END: observer
    let (status, sweeps) = match &result {
        Ok(info) if info.status.name() == "stopped" => ("diverged".to_string(), info.iterations),
        Ok(info) => (info.status.name().to_string(), info.iterations),
        Err(SolveError::NoConvergence(info)) => ("not converged".to_string(), info.iterations),
        Err(e) => (e.status_name().to_string(), points.len()),
    };
    Run {
        curve: Curve {
            label: label.to_string(),
            points,
        },
        status,
        sweeps,
    }
}

/// About forty points per decade of sweeps (all of the first ten, and the last one):
/// what the figures plot and the CSV files hold.
pub fn sample(points: &[(usize, f64)]) -> Vec<(usize, f64)> {
    let as_f64: Vec<(f64, f64)> = points.iter().map(|&(k, e)| (k as f64, e)).collect();
    thin(&as_f64, 40.0)
        .into_iter()
        .map(|(k, e)| (k as usize, e))
        .collect()
}

/// About `per_decade` points per decade of `x` (every point with `x <= 10`, and the last).
pub fn thin(points: &[(f64, f64)], per_decade: f64) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let mut next = 1.0f64;
    for (i, &(x, y)) in points.iter().enumerate() {
        if x <= 10.0 || i + 1 == points.len() || x >= next {
            out.push((x, y));
            while next <= x {
                next *= 10f64.powf(1.0 / per_decade);
            }
        }
    }
    out
}

/// A figure: curves on log-log axes, with the tolerance as a grey line.
pub struct Figure {
    pub name: String,
    pub caption: String,
    /// What the horizontal axis counts (`"sweeps"`, `"iterations"`).
    pub x_desc: &'static str,
    /// What the vertical axis shows.
    pub y_desc: &'static str,
    /// Where the legend goes (where the curves are not).
    pub legend: SeriesLabelPosition,
    /// Decades of empty space below the lowest point (room for the legend).
    pub room_below: i32,
    pub curves: Vec<Curve>,
    pub tol: f64,
}

/// A power of ten as `1e-8`.
pub fn power_of_ten(v: &f64) -> String {
    // (+ 0.0 turns the -0 of log10(0.99...) rounded into 0)
    format!("1e{}", v.log10().round() + 0.0)
}

pub const COLORS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(23, 190, 207),
    RGBColor(0, 0, 0),
];

impl Figure {
    /// The CSV of the plotted points, and the points as read back from it (so the SVG
    /// shows exactly the CSV's numbers).
    fn csv(&self) -> (String, Vec<Vec<(f64, f64)>>) {
        let mut csv = format!("curve,{},error\n", self.x_desc.trim_end_matches('s'));
        let mut back = Vec::new();
        for c in &self.curves {
            let mut pts = Vec::new();
            for (k, e) in sample(&c.points) {
                let text = format!("{e:.6e}");
                writeln!(csv, "{},{k},{text}", c.label).unwrap();
                pts.push((k as f64, text.parse::<f64>().unwrap()));
            }
            back.push(pts);
        }
        (csv, back)
    }

    fn svg(&self, data: &[Vec<(f64, f64)>]) -> String {
        let all = data.iter().flatten();
        let x_max = all.clone().map(|p| p.0).fold(10.0f64, f64::max);
        let y_min = all
            .clone()
            .map(|p| p.1)
            .filter(|e| *e > 0.0)
            .fold(self.tol, f64::min);
        let y_max = all.map(|p| p.1).fold(1.0f64, f64::max);
        let x_hi = 10f64.powf(x_max.log10().ceil());
        let (y_lo, y_hi) = (
            10f64.powf(y_min.log10().floor() - f64::from(self.room_below)),
            10f64.powf(y_max.log10().ceil()),
        );
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (760, 460)).into_drawing_area();
            root.fill(&WHITE).unwrap();
            let mut chart = ChartBuilder::on(&root)
                .caption(&self.caption, ("sans-serif", 18))
                .margin(12)
                .x_label_area_size(44)
                .y_label_area_size(56)
                .build_cartesian_2d((1f64..x_hi).log_scale(), (y_lo..y_hi).log_scale())
                .unwrap();
            chart
                .configure_mesh()
                .x_desc(self.x_desc)
                .y_desc(self.y_desc)
                .x_label_formatter(&power_of_ten)
                .y_label_formatter(&power_of_ten)
                .light_line_style(RGBColor(235, 235, 235))
                .draw()
                .unwrap();
            chart
                .draw_series(LineSeries::new(
                    [(1.0, self.tol), (x_hi, self.tol)],
                    RGBColor(150, 150, 150),
                ))
                .unwrap();
            for (i, (c, pts)) in self.curves.iter().zip(data).enumerate() {
                let color = COLORS[i % COLORS.len()];
                let visible: Vec<(f64, f64)> = pts.iter().copied().filter(|p| p.1 > 0.0).collect();
                chart
                    .draw_series(LineSeries::new(visible, color.stroke_width(2)))
                    .unwrap()
                    .label(c.label.clone())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                    });
            }
            chart
                .configure_series_labels()
                .position(self.legend.clone())
                .background_style(WHITE.mix(0.85))
                .border_style(RGBColor(180, 180, 180))
                .draw()
                .unwrap();
            root.present().unwrap();
        }
        svg
    }

    pub fn publish(&self) {
        let (csv, data) = self.csv();
        super::publish_figure(&self.name, &csv, &self.svg(&data));
    }
}
