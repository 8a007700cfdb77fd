//! Convergence figures for the book's examples: curves of an error against an iteration
//! count on log-log or semilog axes, written as SVG together with the CSV of exactly the
//! plotted points (through [`super::publish`], so tests check them like every generated
//! file). Also the layout every plotted figure shares ([`WIDTH`], the font sizes, the
//! caption wrapped above and the legend below the plot, off the data).

use std::fmt::Write;
use std::ops::ControlFlow;

use nonsmooth::solver::{Iterate, SolveError, SolveInfo};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

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

/// The width of every plotted figure, in px. The book shows a figure at its column width
/// (about 750 px on a desktop, 360 to 390 px on a phone), so text of `s` px in the file is
/// shown at `s * 390 / WIDTH` px on a phone; `scripts/figure_text_size.py` measures it.
pub const WIDTH: u32 = 600;
/// Tick labels, as plotters takes font sizes: its SVG backend writes `size / 1.24` px, so
/// 18 is 14.5 px in the file and 9.4 px on a 390 px screen.
pub const TICK: u32 = 18;
/// Axis descriptions.
pub const DESC: u32 = 19;
/// Captions and panel titles.
pub const TITLE: u32 = 21;
/// Legend entries.
pub const LEGEND: u32 = 18;

/// A rough width in px of `text` in a sans-serif font of plotters size `size` (an average
/// glyph is about 0.55 em; the figures have no font file to measure with).
pub fn text_width(text: &str, size: u32) -> u32 {
    (text.chars().count() as f64 * 0.55 * f64::from(size) / 1.24).ceil() as u32
}

/// `text` broken at spaces into lines that fit `width` px at plotters size `size`.
pub fn wrap(text: &str, size: u32, width: u32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if text_width(&format!("{line} {word}"), size) <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// The height of one line of text of plotters size `size`.
fn line_height(size: u32) -> u32 {
    (f64::from(size) * 1.1).ceil() as u32
}

/// The height `caption` takes above a plot `width` px wide.
pub fn caption_height(caption: &str, width: u32) -> u32 {
    if caption.is_empty() {
        return 0;
    }
    8 + wrap(caption, TITLE, width - 16).len() as u32 * line_height(TITLE)
}

/// Draws `caption` (wrapped, centred) at the top of `area` and returns the rest of it.
pub fn draw_caption<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    caption: &str,
) -> DrawingArea<DB, plotters::coord::Shift> {
    let width = area.dim_in_pixel().0;
    let h = caption_height(caption, width);
    if h == 0 {
        return area.clone();
    }
    let style = ("sans-serif", TITLE)
        .into_font()
        .into_text_style(area)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (i, line) in wrap(caption, TITLE, width - 16).iter().enumerate() {
        area.draw_text(
            line,
            &style,
            (width as i32 / 2, 6 + (i as u32 * line_height(TITLE)) as i32),
        )
        .unwrap();
    }
    area.split_vertically(h).1
}

/// The legend's entries in rows that fit `width` px: indices into `labels`.
fn legend_rows(labels: &[String], width: u32) -> Vec<Vec<usize>> {
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut used = 0;
    for (i, l) in labels.iter().enumerate() {
        let w = 34 + text_width(l, LEGEND) + 18;
        match rows.last_mut() {
            Some(row) if used + w <= width => {
                row.push(i);
                used += w;
            }
            _ => {
                rows.push(vec![i]);
                used = 12 + w;
            }
        }
    }
    rows
}

/// The height of a legend of `labels` below a plot `width` px wide.
pub fn legend_height(labels: &[String], width: u32) -> u32 {
    if labels.is_empty() {
        return 0;
    }
    6 + legend_rows(labels, width).len() as u32 * (line_height(LEGEND) + 4)
}

/// Draws the legend (a line of each colour, then its label; rows left-aligned) in `area`,
/// below a plot: off the data, whatever the curves do.
pub fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    entries: &[(String, RGBColor)],
) {
    let width = area.dim_in_pixel().0;
    let labels: Vec<String> = entries.iter().map(|e| e.0.clone()).collect();
    let style = ("sans-serif", LEGEND)
        .into_font()
        .into_text_style(area)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (r, row) in legend_rows(&labels, width).iter().enumerate() {
        let y = 6 + (r as u32 * (line_height(LEGEND) + 4) + line_height(LEGEND) / 2) as i32;
        let mut x = 12;
        for &i in row {
            let (label, color) = &entries[i];
            area.draw(&PathElement::new(
                vec![(x, y), (x + 26, y)],
                color.stroke_width(3),
            ))
            .unwrap();
            area.draw_text(label, &style, (x + 32, y)).unwrap();
            x += 34 + text_width(label, LEGEND) as i32 + 18;
        }
    }
}

/// Splits a figure `root` into its caption (drawn), the plot area (returned) and the
/// legend of `entries` below it (drawn).
pub fn frame<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    caption: &str,
    entries: &[(String, RGBColor)],
) -> DrawingArea<DB, plotters::coord::Shift> {
    let (width, height) = root.dim_in_pixel();
    let rest = draw_caption(root, caption);
    let labels: Vec<String> = entries.iter().map(|e| e.0.clone()).collect();
    let lh = legend_height(&labels, width);
    let below = height - caption_height(caption, width);
    let (plot, legend) = rest.split_vertically(below - lh);
    draw_legend(&legend, entries);
    plot
}

/// The legend entries of curves labelled `labels`, in order, each in its colour of
/// [`COLORS`].
pub fn legend_entries<'a>(labels: impl IntoIterator<Item = &'a str>) -> Vec<(String, RGBColor)> {
    labels
        .into_iter()
        .enumerate()
        .map(|(i, l)| (l.to_string(), COLORS[i % COLORS.len()]))
        .collect()
}

/// The canvas of a figure [`WIDTH`] px wide: `caption` above, a plot `plot` px high, and
/// the legend of curves labelled `labels` below it. Returns the height and the legend's
/// entries (for [`frame`]).
pub fn canvas<'a>(
    caption: &str,
    plot: u32,
    labels: impl IntoIterator<Item = &'a str>,
) -> (u32, Vec<(String, RGBColor)>) {
    let entries = legend_entries(labels);
    let names: Vec<String> = entries.iter().map(|e| e.0.clone()).collect();
    let height = caption_height(caption, WIDTH) + plot + legend_height(&names, WIDTH);
    (height, entries)
}

/// A figure: curves on log-log axes (semilog with `semilog`), with the tolerance as a grey
/// line.
pub struct Figure {
    pub name: String,
    pub caption: String,
    /// What the horizontal axis counts (`"sweeps"`, `"iterations"`).
    pub x_desc: &'static str,
    /// What the vertical axis shows.
    pub y_desc: &'static str,
    /// A linear horizontal axis (semilog: a linear rate of convergence is a straight line).
    pub semilog: bool,
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
        let x_hi = if self.semilog {
            x_max
        } else {
            10f64.powf(x_max.log10().ceil())
        };
        let (y_lo, y_hi) = (
            10f64.powf(y_min.log10().floor()),
            10f64.powf(y_max.log10().ceil()),
        );
        let labels = self.curves.iter().map(|c| c.label.as_str());
        let (height, entries) = canvas(&self.caption, 340, labels);
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
            root.fill(&WHITE).unwrap();
            let area = frame(&root, &self.caption, &entries);
            let mut builder = ChartBuilder::on(&area);
            builder
                .margin(8)
                .margin_right(20)
                .x_label_area_size(50)
                .y_label_area_size(70);
            macro_rules! draw {
                ($chart:expr, $x_lo:expr, $x_fmt:expr) => {{
                    let chart = &mut $chart;
                    chart
                        .configure_mesh()
                        .x_desc(self.x_desc)
                        .y_desc(self.y_desc)
                        .x_labels(6)
                        .x_label_formatter($x_fmt)
                        .y_label_formatter(&power_of_ten)
                        .label_style(("sans-serif", TICK))
                        .axis_desc_style(("sans-serif", DESC))
                        .light_line_style(RGBColor(235, 235, 235))
                        .draw()
                        .unwrap();
                    chart
                        .draw_series(LineSeries::new(
                            [($x_lo, self.tol), (x_hi, self.tol)],
                            RGBColor(150, 150, 150).stroke_width(2),
                        ))
                        .unwrap();
                    for (i, pts) in data.iter().enumerate() {
                        let color = COLORS[i % COLORS.len()];
                        let visible: Vec<(f64, f64)> =
                            pts.iter().copied().filter(|p| p.1 > 0.0).collect();
                        chart
                            .draw_series(LineSeries::new(visible, color.stroke_width(3)))
                            .unwrap();
                    }
                }};
            }
            if self.semilog {
                let mut chart = builder
                    .build_cartesian_2d(0f64..x_hi, (y_lo..y_hi).log_scale())
                    .unwrap();
                draw!(chart, 0.0, &|v: &f64| format!("{v:.0}"));
            } else {
                let mut chart = builder
                    .build_cartesian_2d((1f64..x_hi).log_scale(), (y_lo..y_hi).log_scale())
                    .unwrap();
                draw!(chart, 1.0, &power_of_ten);
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
