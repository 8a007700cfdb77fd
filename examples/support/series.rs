//! Time-series figures for the simulation chapters: curves of a quantity against
//! simulated time on linear axes, written as SVG with the CSV of exactly the plotted points
//! (through [`super::publish_figure`], so tests check them like every generated file).

use std::fmt::Write;

use plotters::prelude::*;

use super::plot::COLORS;

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
    pub legend: SeriesLabelPosition,
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
        let all: Vec<(f64, f64)> = data.iter().flatten().copied().collect();
        let x_lo = all.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let x_hi = all.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
        let mut y_lo = all.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let mut y_hi = all.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        let pad = 0.08 * (y_hi - y_lo).abs().max(1e-12 * y_hi.abs().max(1e-300));
        y_lo -= pad;
        y_hi += pad;
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (760, 420)).into_drawing_area();
            root.fill(&WHITE).unwrap();
            let mut chart = ChartBuilder::on(&root)
                .caption(&self.caption, ("sans-serif", 18))
                .margin(12)
                .x_label_area_size(44)
                .y_label_area_size(72)
                .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)
                .unwrap();
            chart
                .configure_mesh()
                .x_desc(self.x_desc)
                .y_desc(self.y_desc)
                .y_label_formatter(&|v| format!("{v:.3e}"))
                .light_line_style(RGBColor(235, 235, 235))
                .draw()
                .unwrap();
            for (i, (s, pts)) in self.series.iter().zip(data).enumerate() {
                let color = COLORS[i % COLORS.len()];
                chart
                    .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                    .unwrap()
                    .label(s.label.clone())
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
