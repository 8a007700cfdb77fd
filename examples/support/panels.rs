//! Multi-panel figures (the Newton chapters'): curves on a log-scale vertical axis and a
//! linear or logarithmic horizontal one, panels stacked one above the other, written as SVG together with
//! the CSV of exactly what is plotted. Single-panel convergence figures are in
//! [`super::plot`], whose colours, tick labels and thinning this module shares.
#![allow(dead_code)]

use std::fmt::Write;

use plotters::prelude::*;

use super::plot::{
    COLORS, DESC, TICK, WIDTH, canvas, caption_height, draw_caption, frame, legend_entries,
    power_of_ten,
};

/// Points of each curve of each panel, as read back from the CSV.
pub type PanelData = Vec<Vec<Vec<(f64, f64)>>>;

/// One curve: `(x, y)` points.
#[derive(Debug, Clone)]
pub struct Curve {
    /// The legend text.
    pub label: String,
    /// The points.
    pub points: Vec<(f64, f64)>,
}

impl Curve {
    /// A curve from its label and points.
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Curve {
            label: label.into(),
            points,
        }
    }
}

/// One panel of a figure.
#[derive(Debug, Clone)]
pub struct Panel {
    /// The panel's title.
    pub title: String,
    /// What the horizontal axis shows.
    pub x_desc: String,
    /// What the vertical axis shows.
    pub y_desc: String,
    /// Logarithmic horizontal axis (points with `x < 1` are then not drawn).
    pub log_x: bool,
    /// The curves.
    pub curves: Vec<Curve>,
    /// Vertical marker lines `(x, label)`.
    pub markers: Vec<(f64, String)>,
}

/// A figure: panels stacked one above the other.
#[derive(Debug, Clone)]
pub struct Figure {
    /// File stem under `book/src/figures/`.
    pub name: String,
    /// Caption drawn above the panels.
    pub caption: String,
    /// The panels.
    pub panels: Vec<Panel>,
}

fn fmt_x(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x:.6e}")
    }
}

impl Figure {
    /// The CSV (`panel,curve,x,y`) and the curves as read back from it, so that the SVG
    /// shows exactly the CSV's numbers.
    pub fn csv(&self) -> (String, PanelData) {
        let mut csv = String::from("panel,curve,x,y\n");
        let mut back = Vec::new();
        for p in &self.panels {
            let mut panel = Vec::new();
            for c in &p.curves {
                let mut pts = Vec::new();
                for &(x, y) in &c.points {
                    let (xs, ys) = (fmt_x(x), format!("{y:.6e}"));
                    writeln!(csv, "{},{},{xs},{ys}", p.title, c.label).unwrap();
                    pts.push((xs.parse::<f64>().unwrap(), ys.parse::<f64>().unwrap()));
                }
                panel.push(pts);
            }
            back.push(panel);
        }
        (csv, back)
    }

    /// The SVG.
    pub fn svg(&self, data: &PanelData) -> String {
        let mut svg = String::new();
        // Panels stacked one above the other at the book's figure width, so that every label
        // is drawn at its size (side by side, three panels were shrunk to 7 px labels).
        let heights: Vec<u32> = self.panels.iter().map(panel_height).collect();
        let height = caption_height(&self.caption, WIDTH) + heights.iter().sum::<u32>();
        {
            let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
            root.fill(&WHITE).unwrap();
            let mut rest = draw_caption(&root, &self.caption);
            for ((panel, curves), h) in self.panels.iter().zip(data).zip(heights) {
                let (area, below) = rest.split_vertically(h);
                draw_panel(&area, panel, curves);
                rest = below;
            }
            root.present().unwrap();
        }
        svg
    }

    /// Writes (or checks) `figures/<name>.csv` and `figures/<name>.svg`.
    pub fn publish(&self) {
        let (csv, data) = self.csv();
        super::publish_figure(&self.name, &csv, &self.svg(&data));
    }
}

fn entries(panel: &Panel) -> Vec<(String, RGBColor)> {
    legend_entries(panel.curves.iter().map(|c| c.label.as_str()))
}

/// A panel's height: its title, the plot and its legend.
fn panel_height(panel: &Panel) -> u32 {
    canvas(
        &panel.title,
        330,
        panel.curves.iter().map(|c| c.label.as_str()),
    )
    .0
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    panel: &Panel,
    curves: &[Vec<(f64, f64)>],
) {
    let visible = |p: &&(f64, f64)| p.1 > 0.0 && p.1.is_finite() && (!panel.log_x || p.0 >= 1.0);
    let all: Vec<(f64, f64)> = curves.iter().flatten().filter(visible).copied().collect();
    let x_max = all.iter().map(|p| p.0).fold(1.0f64, f64::max);
    let y_min = all
        .iter()
        .map(|p| p.1)
        .fold(f64::INFINITY, f64::min)
        .min(1.0);
    let y_max = all
        .iter()
        .map(|p| p.1)
        .fold(f64::NEG_INFINITY, f64::max)
        .max(1e-30);
    // The vertical axis is drawn in log10 space (plotters' own log scale drops the labels
    // below about 1e-14); labels are the integer exponents.
    let y_lo = y_min.log10().floor() - 1.0;
    let y_hi = y_max.log10().ceil() + 1.0;
    let area = &frame(area, &panel.title, &entries(panel));
    let y_labels = ((y_hi - y_lo) as usize + 1).min(9);
    let exponent = |v: &f64| {
        if v.fract() == 0.0 {
            format!("1e{}", *v as i64)
        } else {
            String::new()
        }
    };
    macro_rules! body {
        ($chart:expr) => {{
            let chart = &mut $chart;
            for (i, pts) in curves.iter().enumerate() {
                let color = COLORS[i % COLORS.len()];
                let shown: Vec<(f64, f64)> = pts
                    .iter()
                    .filter(visible)
                    .map(|&(x, y)| (x, y.log10()))
                    .collect();
                chart
                    .draw_series(LineSeries::new(shown.clone(), color.stroke_width(3)))
                    .unwrap();
                chart
                    .draw_series(shown.iter().map(|&p| Circle::new(p, 3, color.filled())))
                    .unwrap();
            }
            // A marker is a dashed dark line (a grid line cannot hide it) with its label
            // written beside its top.
            for (x, label) in &panel.markers {
                let ink = RGBColor(60, 60, 60);
                chart
                    .draw_series(DashedLineSeries::new(
                        [(*x, y_lo), (*x, y_hi)],
                        8,
                        5,
                        ink.stroke_width(2),
                    ))
                    .unwrap();
                chart
                    .draw_series(std::iter::once(Text::new(
                        format!(" {label}"),
                        (*x, y_hi - 0.04 * (y_hi - y_lo)),
                        ("sans-serif", TICK).into_font().color(&ink),
                    )))
                    .unwrap();
            }
        }};
    }
    if panel.log_x {
        let x_hi = 10f64.powf(x_max.log10().ceil().max(1.0));
        let mut chart = ChartBuilder::on(area)
            .margin(8)
            .margin_right(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d((1f64..x_hi).log_scale(), y_lo..y_hi)
            .unwrap();
        chart
            .configure_mesh()
            .x_desc(&panel.x_desc)
            .y_desc(&panel.y_desc)
            .y_labels(y_labels)
            .x_label_formatter(&power_of_ten)
            .y_label_formatter(&exponent)
            .x_labels(6)
            .label_style(("sans-serif", TICK))
            .axis_desc_style(("sans-serif", DESC))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .unwrap();
        body!(chart);
    } else {
        let x_hi = x_max.max(1.0);
        let mut chart = ChartBuilder::on(area)
            .margin(8)
            .margin_right(20)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..x_hi, y_lo..y_hi)
            .unwrap();
        chart
            .configure_mesh()
            .x_desc(&panel.x_desc)
            .y_desc(&panel.y_desc)
            .y_labels(y_labels)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&exponent)
            .x_labels(6)
            .label_style(("sans-serif", TICK))
            .axis_desc_style(("sans-serif", DESC))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .unwrap();
        body!(chart);
    }
}
