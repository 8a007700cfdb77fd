//! Time-series figures for the simulation chapters: curves of a quantity against
//! simulated time on linear axes (or a logarithmic vertical one, for a penetration that
//! falls by factors), written as SVG with the CSV of exactly the plotted points
//! (through [`super::publish_figure`], so tests check them like every generated file).

use std::fmt::Write;

use plotters::prelude::*;

use super::plot::{COLORS, DESC, TICK, WIDTH, canvas, frame};

/// One curve: `(time, value)` points.
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// A figure of curves against time.
pub struct TimeFigure {
    pub name: String,
    pub caption: String,
    pub x_desc: &'static str,
    pub y_desc: &'static str,
    /// A logarithmic vertical axis (points with `y <= 0` are then not drawn).
    pub log_y: bool,
    pub series: Vec<Series>,
}

impl TimeFigure {
    /// The CSV of the plotted points (6 significant digits) and the points read back.
    fn csv(&self) -> (String, Vec<Vec<(f64, f64)>>) {
        let mut csv = String::from("curve,x,y\n");
        let mut back = Vec::new();
        for s in &self.series {
            let mut pts = Vec::new();
            for &(x, y) in &s.points {
                let (tx, ty) = (format!("{x:.6e}"), format!("{y:.6e}"));
                writeln!(csv, "{},{tx},{ty}", s.label).unwrap();
                pts.push((tx.parse::<f64>().unwrap(), ty.parse::<f64>().unwrap()));
            }
            back.push(pts);
        }
        (csv, back)
    }

    fn svg(&self, data: &[Vec<(f64, f64)>]) -> String {
        let all: Vec<(f64, f64)> = data
            .iter()
            .flatten()
            .copied()
            .filter(|p| !self.log_y || p.1 > 0.0)
            .collect();
        let x_lo = all.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let x_hi = all.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
        let mut y_lo = all.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let mut y_hi = all.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        if self.log_y {
            y_lo = 10f64.powf(y_lo.log10().floor());
            y_hi = 10f64.powf(y_hi.log10().ceil());
        } else {
            let pad = 0.08 * (y_hi - y_lo).abs().max(1e-12 * y_hi.abs().max(1e-300));
            y_lo -= pad;
            y_hi += pad;
        }
        let labels = self.series.iter().map(|s| s.label.as_str());
        let (height, entries) = canvas(&self.caption, 340, labels);
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
            root.fill(&WHITE).unwrap();
            let area = frame(&root, &self.caption, &entries);
            let mut builder = ChartBuilder::on(&area);
            builder
                .margin(8)
                .margin_right(24)
                .x_label_area_size(50)
                .y_label_area_size(if self.log_y { 70 } else { 100 });
            macro_rules! draw {
                ($chart:expr, $y_fmt:expr) => {{
                    let chart = &mut $chart;
                    chart
                        .configure_mesh()
                        .x_desc(self.x_desc)
                        .y_desc(self.y_desc)
                        .x_labels(6)
                        .y_labels(6)
                        .y_label_formatter($y_fmt)
                        .label_style(("sans-serif", TICK))
                        .axis_desc_style(("sans-serif", DESC))
                        .light_line_style(RGBColor(235, 235, 235))
                        .draw()
                        .unwrap();
                    for (i, pts) in data.iter().enumerate() {
                        let color = COLORS[i % COLORS.len()];
                        let shown: Vec<(f64, f64)> = pts
                            .iter()
                            .copied()
                            .filter(|p| !self.log_y || p.1 > 0.0)
                            .collect();
                        chart
                            .draw_series(LineSeries::new(shown, color.stroke_width(3)))
                            .unwrap();
                    }
                }};
            }
            if self.log_y {
                let mut chart = builder
                    .build_cartesian_2d(x_lo..x_hi, (y_lo..y_hi).log_scale())
                    .unwrap();
                draw!(chart, &super::plot::power_of_ten);
            } else {
                let mut chart = builder.build_cartesian_2d(x_lo..x_hi, y_lo..y_hi).unwrap();
                draw!(chart, &|v: &f64| format!("{v:.2e}"));
            }
            root.present().unwrap();
        }
        svg
    }

    pub fn publish(&self) {
        let (csv, data) = self.csv();
        super::publish_figure(&self.name, &csv, &self.svg(&data));
    }
}
