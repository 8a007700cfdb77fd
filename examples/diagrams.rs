//! The book's schematic diagrams, drawn from the crate's own computations:
//!
//! * `diagram_layers.svg` (*Shock propagation*): the contact graph of a small pyramid of six
//!   bodies, the stack height of each body ([`stack_heights`]) and the stack layer of each
//!   contact ([`StackLayers::new`]), one colour per layer;
//! * `diagram_slide.svg` (*Splitting methods*, the one-contact problem): a contact solved by
//!   [`solve_contact`] that slides: the cone, the impulse on its boundary, and the sliding
//!   velocity opposite the impulse's tangential part;
//! * `diagram_projection.svg` (*Friction laws as convex sets*): a point, its projection onto
//!   the friction cone by [`project_on_cone`], and the normal cone at the projection;
//! * `diagram_newton_kink.svg` (*Newton's method for nonsmooth equations*): generalised
//!   Newton steps on the natural map `min(x, 2x - 1)` of a one-row LCP, which has a kink.
//!
//! ```text
//! cargo run --release --example diagrams
//! ```
//!
//! Writes `book/src/figures/diagram_*.svg` and `.csv` (the computed points each diagram
//! draws); its test checks that the committed files are what this code draws.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nalgebra::{Matrix3, Vector3};
use nonsmooth::friction::project_on_cone;
use nonsmooth::problem::FrictionKind;
use nonsmooth::splitting::{ContactCase, solve_contact};
use nonsmooth::stepping::shock::{StackLayers, stack_heights};

/// Width of every diagram (px); text is 17 px, 11 px on a 390 px phone.
const WIDTH: f64 = 600.0;
const FONT: f64 = 17.0;
const COLORS: [&str; 4] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e"];

/// An SVG document with a linear map from diagram units to pixels (y up).
struct Svg {
    out: String,
    height: f64,
    /// Pixel of the origin, and pixels per unit.
    origin: (f64, f64),
    scale: f64,
    /// Pixels per unit upwards over pixels per unit across.
    yfac: f64,
}

impl Svg {
    /// A diagram showing `x_range` × `y_range` (units), `top` px left above for a title.
    fn new(x_range: (f64, f64), y_range: (f64, f64), top: f64) -> Self {
        Self::stretched(x_range, y_range, top, 1.0)
    }

    /// As [`Svg::new`] with `yfac` times as many pixels per unit upwards as across.
    fn stretched(x_range: (f64, f64), y_range: (f64, f64), top: f64, yfac: f64) -> Self {
        let margin = 20.0;
        let scale = (WIDTH - 2.0 * margin) / (x_range.1 - x_range.0);
        let height = top + margin + yfac * scale * (y_range.1 - y_range.0) + margin;
        let mut out = String::new();
        writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height:.0}\" viewBox=\"0 0 {WIDTH} {height:.0}\">\n\
             <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"context-stroke\"/></marker></defs>\n\
             <rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{height:.0}\" fill=\"#ffffff\"/>"
        )
        .unwrap();
        Svg {
            out,
            height: height.round(),
            origin: (
                margin - scale * x_range.0,
                top + margin + yfac * scale * y_range.1,
            ),
            scale,
            yfac,
        }
    }

    fn px(&self, p: (f64, f64)) -> (f64, f64) {
        (
            self.origin.0 + self.scale * p.0,
            self.origin.1 - self.yfac * self.scale * p.1,
        )
    }

    fn line(&mut self, a: (f64, f64), b: (f64, f64), color: &str, width: f64, extra: &str) {
        let (a, b) = (self.px(a), self.px(b));
        writeln!(
            self.out,
            "<line x1=\"{:.2}\" y1=\"{:.2}\" x2=\"{:.2}\" y2=\"{:.2}\" stroke=\"{color}\" stroke-width=\"{width}\" {extra}/>",
            a.0, a.1, b.0, b.1
        )
        .unwrap();
    }

    fn arrow(&mut self, a: (f64, f64), b: (f64, f64), color: &str) {
        self.line(a, b, color, 3.0, "marker-end=\"url(#arrow)\"");
    }

    fn polygon(&mut self, points: &[(f64, f64)], fill: &str) {
        let pts: Vec<String> = points
            .iter()
            .map(|&p| {
                let q = self.px(p);
                format!("{:.2},{:.2}", q.0, q.1)
            })
            .collect();
        writeln!(
            self.out,
            "<polygon points=\"{}\" fill=\"{fill}\" stroke=\"none\"/>",
            pts.join(" ")
        )
        .unwrap();
    }

    fn dot(&mut self, p: (f64, f64), color: &str) {
        let q = self.px(p);
        writeln!(
            self.out,
            "<circle cx=\"{:.2}\" cy=\"{:.2}\" r=\"5\" fill=\"{color}\"/>",
            q.0, q.1
        )
        .unwrap();
    }

    /// Text at `p` (units) moved by `(dx, dy)` px; `anchor` start, middle or end. `x_y`
    /// is set as a subscript when published.
    fn text(&mut self, p: (f64, f64), (dx, dy): (f64, f64), anchor: &str, s: &str, color: &str) {
        let q = self.px(p);
        self.text_px((q.0 + dx, q.1 + dy), anchor, s, color);
    }

    fn text_px(&mut self, (x, y): (f64, f64), anchor: &str, s: &str, color: &str) {
        writeln!(
            self.out,
            "<text x=\"{x:.2}\" y=\"{y:.2}\" font-family=\"sans-serif\" font-size=\"{FONT}\" fill=\"{color}\" text-anchor=\"{anchor}\">{s}</text>"
        )
        .unwrap();
    }

    fn title(&mut self, s: &str) {
        self.text_px((WIDTH / 2.0, 24.0), "middle", s, "#222222");
    }

    fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        let _ = self.height;
        self.out
    }
}

/// The contact graph of a pyramid: three bodies on the ground (1, 2 touching), two on
/// them (4 on 1 and 2, 5 on 2 and 3, touching each other), one on top (6 on 4 and 5).
fn layers() -> (String, String) {
    // Edges (a, b): `a = None` is the ground. Bodies are 0-based here, 1-based in labels.
    let edges: Vec<(Option<usize>, usize)> = vec![
        (None, 0),
        (None, 1),
        (None, 2),
        (Some(0), 1),
        (Some(0), 3),
        (Some(1), 3),
        (Some(1), 4),
        (Some(2), 4),
        (Some(3), 4),
        (Some(3), 5),
        (Some(4), 5),
    ];
    let heights = stack_heights(&[false; 6], &edges).expect("a valid graph");
    let layers = StackLayers::new(heights.clone(), &edges).expect("layers");
    let layer_of = |c: usize| layers.layers.iter().position(|l| l.contacts.contains(&c));
    // Positions: x by hand (a pyramid), y the stack height, so the picture is the rule.
    let xs = [1.0, 3.0, 5.0, 2.0, 4.0, 3.0];
    let pos = |i: usize| (xs[i], heights[i] as f64 * 1.3);
    let mut svg = Svg::new((-1.6, 7.6), (-0.6, 4.4), 36.0);
    svg.title("Contact graph: stack heights and layers");
    // The ground, and the height levels.
    svg.polygon(
        &[(0.0, -0.45), (6.0, -0.45), (6.0, 0.0), (0.0, 0.0)],
        "#bbbbbb",
    );
    for h in 0..=heights.iter().copied().max().unwrap_or(0) {
        let y = h as f64 * 1.3;
        let label = if h == 0 {
            "ground".to_string()
        } else {
            format!("height {h}")
        };
        svg.text((-1.5, y), (0.0, 6.0), "start", &label, "#555555");
    }
    let mut csv = String::from("item,a,b,height_or_layer\n");
    for (c, &(a, b)) in edges.iter().enumerate() {
        let l = layer_of(c).expect("every contact in a layer");
        let from = match a {
            Some(i) => pos(i),
            None => (pos(b).0, 0.0),
        };
        svg.line(from, pos(b), COLORS[l % COLORS.len()], 5.0, "");
        let name = |s: Option<usize>| s.map_or("ground".to_string(), |i| (i + 1).to_string());
        writeln!(csv, "contact,{},{},{l}", name(a), b + 1).unwrap();
    }
    for (i, &h) in heights.iter().enumerate() {
        let p = pos(i);
        let q = svg.px(p);
        writeln!(
            svg.out,
            "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"36\" height=\"30\" rx=\"4\" fill=\"#ffffff\" stroke=\"#333333\" stroke-width=\"2\"/>",
            q.0 - 18.0,
            q.1 - 15.0
        )
        .unwrap();
        svg.text(p, (0.0, 6.0), "middle", &(i + 1).to_string(), "#222222");
        writeln!(csv, "body,{},,{h}", i + 1).unwrap();
    }
    // The legend, right of the graph.
    for (l, layer) in layers.layers.iter().enumerate() {
        let y = 4.0 - 0.75 * l as f64;
        svg.line((5.6, y), (6.1, y), COLORS[l % COLORS.len()], 5.0, "");
        svg.text(
            (6.2, y),
            (0.0, 6.0),
            "start",
            &format!("layer {l}"),
            "#222222",
        );
        svg.text(
            (6.2, y),
            (0.0, 26.0),
            "start",
            &format!("{} contacts", layer.contacts.len()),
            "#555555",
        );
    }
    (csv, svg.finish())
}

/// One contact that slides: `W = I`, `q = (-1, 3, 0)`, `μ = 0.5` (normal first).
fn slide() -> (String, String) {
    let mu = 0.5;
    let q = Vector3::new(-1.0, 3.0, 0.0);
    let s = solve_contact(
        &Matrix3::identity(),
        &q,
        mu,
        FrictionKind::Coulomb,
        [0.0; 3],
    );
    assert_eq!(s.case, ContactCase::Slide);
    let u = Matrix3::identity() * Vector3::new(s.r[0], s.r[1], s.r[2]) + q;
    // Picture: tangential component to the right, normal component up.
    let r = (s.r[1], s.r[0]);
    let ut = (u[1], 0.0);
    let mut svg = Svg::new((-2.2, 3.2), (-0.7, 1.9), 36.0);
    svg.title("One contact that slides (μ = 0.5)");
    let top = 1.8;
    svg.polygon(&[(0.0, 0.0), (mu * top, top), (-mu * top, top)], "#dbe8f5");
    svg.line((0.0, 0.0), (mu * top, top), "#1f77b4", 2.0, "");
    svg.line((0.0, 0.0), (-mu * top, top), "#1f77b4", 2.0, "");
    svg.text((-mu * top, top), (-8.0, 4.0), "end", "cone K_μ", "#1f77b4");
    svg.line((-2.1, 0.0), (3.1, 0.0), "#888888", 1.5, "");
    svg.line((0.0, -0.3), (0.0, 1.85), "#888888", 1.5, "");
    svg.text((3.1, 0.0), (0.0, 22.0), "end", "tangential", "#555555");
    svg.text((0.0, 1.85), (8.0, 12.0), "start", "normal", "#555555");
    // The impulse on the boundary, its tangential part, and the sliding velocity.
    svg.arrow((0.0, 0.0), r, "#d62728");
    svg.text(r, (-10.0, 0.0), "end", "impulse r", "#d62728");
    svg.line(
        (0.0, r.1),
        r,
        "#d62728",
        2.0,
        "stroke-dasharray=\"6,4\" marker-end=\"url(#arrow)\"",
    );
    svg.text((r.0 / 2.0, r.1), (0.0, -10.0), "middle", "r_t", "#d62728");
    svg.arrow((0.0, 0.0), ut, "#2ca02c");
    svg.text(ut, (0.0, -14.0), "end", "sliding velocity u_t", "#2ca02c");
    svg.text(
        (0.0, 0.0),
        (0.0, 56.0),
        "middle",
        "r on the boundary, u_t opposite to r_t",
        "#222222",
    );
    let csv = format!(
        "quantity,normal,tangential_1,tangential_2\nr,{:.6e},{:.6e},{:.6e}\nu,{:.6e},{:.6e},{:.6e}\n",
        s.r[0], s.r[1], s.r[2], u[0], u[1], u[2]
    );
    (csv, svg.finish())
}

/// The projection of a point onto the friction cone, and the normal cone there.
fn projection() -> (String, String) {
    let mu = 0.6;
    let x = [0.3, 1.5, 0.0];
    let p = project_on_cone(x, mu);
    let (xp, pp) = ((x[1], x[0]), (p[1], p[0]));
    let mut svg = Svg::new((-1.6, 2.9), (-0.9, 1.9), 36.0);
    svg.title("Projection onto the friction cone (μ = 0.6)");
    let top = 1.8;
    // The polar cone (points projected to the apex) and the cone.
    let polar = 0.85 / mu;
    svg.polygon(
        &[
            (0.0, 0.0),
            (polar * mu, -polar * mu * mu),
            (-polar * mu, -polar * mu * mu),
        ],
        "#eeeeee",
    );
    svg.polygon(&[(0.0, 0.0), (mu * top, top), (-mu * top, top)], "#dbe8f5");
    svg.line((0.0, 0.0), (mu * top, top), "#1f77b4", 2.0, "");
    svg.line((0.0, 0.0), (-mu * top, top), "#1f77b4", 2.0, "");
    svg.text((-0.2, 1.3), (0.0, 0.0), "end", "cone K_μ", "#1f77b4");
    svg.text(
        (0.0, -0.5),
        (0.0, 6.0),
        "middle",
        "polar cone: projected to 0",
        "#666666",
    );
    // The normal cone at p: the ray from p along x - p (orthogonal to the boundary).
    let d = (xp.0 - pp.0, xp.1 - pp.1);
    let len = (d.0 * d.0 + d.1 * d.1).sqrt();
    let end = (pp.0 + 1.9 * d.0 / len, pp.1 + 1.9 * d.1 / len);
    svg.line(
        pp,
        end,
        "#2ca02c",
        4.0,
        "stroke-dasharray=\"8,5\" stroke-opacity=\"0.8\"",
    );
    svg.text(end, (0.0, 22.0), "end", "normal cone at p", "#2ca02c");
    svg.arrow(xp, pp, "#d62728");
    svg.dot(xp, "#222222");
    svg.dot(pp, "#d62728");
    svg.text(xp, (8.0, -8.0), "start", "x", "#222222");
    svg.text(pp, (-10.0, -6.0), "end", "p = P_K(x)", "#d62728");
    let csv = format!(
        "point,normal,tangential_1,tangential_2\nx,{:.6e},{:.6e},{:.6e}\np,{:.6e},{:.6e},{:.6e}\n",
        x[0], x[1], x[2], p[0], p[1], p[2]
    );
    (csv, svg.finish())
}

/// The natural map of the one-row LCP `x >= 0, 2x - 1 >= 0`, complementary.
fn phi(x: f64) -> f64 {
    x.min(2.0 * x - 1.0)
}

/// An element of the B-subdifferential: the slope of the piece that is active (the first
/// on a tie).
fn slope(x: f64) -> f64 {
    if x <= 2.0 * x - 1.0 { 1.0 } else { 2.0 }
}

/// Generalised Newton on `phi` from `x = 2`, drawn on its graph.
fn newton_kink() -> (String, String) {
    let mut xs = vec![2.0f64];
    while xs.len() < 5 && phi(*xs.last().unwrap()).abs() > 1e-15 {
        let x = *xs.last().unwrap();
        xs.push(x - phi(x) / slope(x));
    }
    let mut svg = Svg::stretched((-0.5, 2.5), (-1.6, 2.3), 36.0, 0.45);
    svg.title("Newton on a kink: φ(x) = min(x, 2x − 1)");
    svg.line((-0.45, 0.0), (2.45, 0.0), "#888888", 1.5, "");
    svg.line((0.0, -1.55), (0.0, 2.2), "#888888", 1.5, "");
    let curve: Vec<(f64, f64)> = (0..=58)
        .map(|k| {
            let x = -0.4 + 0.05 * f64::from(k);
            (x, phi(x))
        })
        .collect();
    let pts: Vec<String> = curve
        .iter()
        .map(|&p| {
            let q = svg.px(p);
            format!("{:.2},{:.2}", q.0, q.1)
        })
        .collect();
    writeln!(
        svg.out,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"3\"/>",
        pts.join(" ")
    )
    .unwrap();
    svg.text((2.3, phi(2.3)), (0.0, -12.0), "end", "φ", "#1f77b4");
    svg.dot((1.0, phi(1.0)), "#1f77b4");
    svg.text((1.0, phi(1.0)), (12.0, 18.0), "start", "kink", "#1f77b4");
    let mut csv = String::from("k,x,phi,slope\n");
    for (k, w) in xs.windows(2).enumerate() {
        let (x, next) = (w[0], w[1]);
        let color = COLORS[(k + 1) % COLORS.len()];
        // The linearisation with the chosen slope, from (x, phi(x)) to its zero.
        svg.line(
            (x, phi(x)),
            (next, 0.0),
            color,
            2.5,
            "stroke-dasharray=\"7,4\"",
        );
        svg.line(
            (x, 0.0),
            (x, phi(x)),
            "#999999",
            1.5,
            "stroke-dasharray=\"3,3\"",
        );
        svg.dot((x, phi(x)), color);
        writeln!(csv, "{k},{x:.6e},{:.6e},{}", phi(x), slope(x)).unwrap();
        svg.text(
            (x, phi(x)),
            (10.0, if phi(x) > 0.0 { 4.0 } else { 20.0 }),
            "start",
            &format!("slope {}", slope(x)),
            color,
        );
    }
    for (k, &x) in xs.iter().enumerate() {
        let dy = if k == 1 { -10.0 } else { 24.0 };
        svg.text((x, 0.0), (0.0, dy), "middle", &format!("x_{k}"), "#222222");
    }
    let last = *xs.last().unwrap();
    writeln!(csv, "{},{last:.6e},{:.6e},", xs.len() - 1, phi(last)).unwrap();
    (csv, svg.finish())
}

/// Every diagram: its name and its CSV and SVG.
fn diagrams() -> Vec<(&'static str, (String, String))> {
    vec![
        ("diagram_layers", layers()),
        ("diagram_slide", slide()),
        ("diagram_projection", projection()),
        ("diagram_newton_kink", newton_kink()),
    ]
}

fn main() {
    for (name, (csv, svg)) in diagrams() {
        support::publish_figure(name, &csv, &svg);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn diagrams_are_what_the_code_draws() {
        for (name, (csv, svg)) in super::diagrams() {
            assert!(svg.contains("<text"), "{name} has no text");
            super::support::publish_figure(name, &csv, &svg);
        }
    }
}
