//! Pictures where geometry is the point, drawn with the crate's own functions: the friction
//! cone and its dual, De Saxcé's shift, the three friction sets of the book (diamond, disk,
//! square), the zero and level sets of the minimum map and of Fischer-Burmeister, and
//! projections onto a disk, a box and an ellipse.
//!
//! ```text
//! cargo run --release --example geometry_figures
//! ```
//!
//! Writes, into `book/src/figures/`, an SVG per figure and the CSV of exactly the points it
//! draws (`series,x,y`):
//!
//! * `geometry_contact_frame.svg`: the contact frame `(n, t1, t2)` that the world's
//!   collision detection (`World::contacts`) gives two touching spheres (chapter
//!   "Conventions");
//! * `geometry_cone.svg`: `K_μ` and its dual `K_μ* = K_{1/μ}` in the (tangential, normal)
//!   plane, their boundary directions computed by `project_on_cone` and
//!   `project_on_dual_cone` (chapter "The contact problem");
//! * `geometry_de_saxce.svg`: a sliding velocity `u`, De Saxcé's `û = u + μ‖u_t‖ n`
//!   (the shift by `generic::natural::de_saxce_shift`) and the friction impulse `r ⟂ û`,
//!   whose natural-map residual (`natural_map_contact`) is zero (same chapter);
//! * `geometry_friction_sets.svg`: at unit normal force, the diamond of the four-direction
//!   pyramid inside the Coulomb disk inside the square of box friction, the disk and the
//!   square traced by `FrictionLaw::project`, with the force of maximal dissipation of each
//!   for one slip direction (chapter "Friction laws as convex sets and proximal operators");
//! * `geometry_minmap_levels.svg`, `geometry_fb_levels.svg`: level sets `φ(a, b) = c` of
//!   `MinMap::value` and `FischerBurmeister::value`, the zero set (the "L") among them
//!   (chapter "Complementarity");
//! * `geometry_projections.svg`: points and their projections onto a disk (`Disk`), a box
//!   (`BoxSet`) and an ellipse (`project_on_ellipsoid_with`, the safeguarded Newton)
//!   (chapter "Proximal operators").
//!
//! The test at the bottom recomputes everything, fails if a committed file differs, and
//! checks what the pictures claim (the drawn projections are the closest drawn points, the
//! shifted velocity lies on the dual cone's boundary, and so on).

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;
use std::ops::Range;

use nalgebra::{UnitQuaternion, Vector3};
use nonsmooth::friction::{
    BoxSet, ConvexSet, Disk, EllipsoidMethod, FrictionLaw, project_on_cone, project_on_dual_cone,
    project_on_ellipsoid_with,
};
use nonsmooth::generic::natural::de_saxce_shift;
use nonsmooth::ncp::{FischerBurmeister, MinMap, NcpFunction};
use nonsmooth::problem::FrictionKind;
use nonsmooth::world::{Material, Shape, World};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Text size asked of plotters: its SVG backend writes 0.806 times it (20 -> 16.1 px).
const FONT: u32 = 20;
const MARGIN: u32 = 14;
const X_LABELS: u32 = 50;
const Y_LABELS: u32 = 64;

const BLUE: RGBColor = RGBColor(31, 119, 180);
const RED: RGBColor = RGBColor(214, 39, 40);
const GREEN: RGBColor = RGBColor(44, 160, 44);
const GREY: RGBColor = RGBColor(120, 120, 120);
const ORANGE: RGBColor = RGBColor(230, 120, 0);

/// The friction coefficient of the cone pictures.
const MU: f64 = 0.5;

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The CSV of a figure: every point drawn passes through it, and the figure draws the
/// value read back from its text (so the SVG shows exactly the CSV's numbers).
struct Data(String);

impl Data {
    fn new() -> Self {
        Data(String::from("series,x,y\n"))
    }

    fn point(&mut self, series: &str, p: (f64, f64)) -> (f64, f64) {
        let (x, y) = (format!("{:.6}", p.0), format!("{:.6}", p.1));
        writeln!(self.0, "{series},{x},{y}").unwrap();
        (x.parse().unwrap(), y.parse().unwrap())
    }

    fn points(
        &mut self,
        series: &str,
        ps: impl IntoIterator<Item = (f64, f64)>,
    ) -> Vec<(f64, f64)> {
        ps.into_iter().map(|p| self.point(series, p)).collect()
    }
}

fn font(size: u32, color: RGBColor) -> TextStyle<'static> {
    ("sans-serif", size).into_font().color(&color)
}

/// An SVG `width` pixels wide whose plotting area has the same scale on both axes (circles
/// look round), with axis labels and descriptions (none when `axes` is `None`).
fn equal_aspect(
    width: u32,
    x: Range<f64>,
    y: Range<f64>,
    axes: Option<(&str, &str)>,
    draw: impl FnOnce(&mut Chart),
) -> String {
    let (xl, yl) = if axes.is_some() {
        (X_LABELS, Y_LABELS)
    } else {
        (0, 0)
    };
    let plot_w = width - 2 * MARGIN - yl;
    let plot_h = (f64::from(plot_w) * (y.end - y.start) / (x.end - x.start)).round() as u32;
    let height = plot_h + 2 * MARGIN + xl;
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        area.fill(&WHITE).unwrap();
        let mut chart = ChartBuilder::on(&area)
            .margin(MARGIN)
            .x_label_area_size(xl)
            .y_label_area_size(yl)
            .build_cartesian_2d(x, y)
            .unwrap();
        if let Some((x_desc, y_desc)) = axes {
            chart
                .configure_mesh()
                .x_desc(x_desc)
                .y_desc(y_desc)
                .label_style(font(FONT, BLACK))
                .axis_desc_style(font(FONT, BLACK))
                .bold_line_style(RGBColor(230, 230, 230))
                .light_line_style(TRANSPARENT)
                .draw()
                .unwrap();
        }
        draw(&mut chart);
        area.present().unwrap();
    }
    svg
}

/// A text at `at`, anchored by `(h, v)`.
fn label(chart: &mut Chart, s: &str, at: (f64, f64), color: RGBColor, (h, v): (HPos, VPos)) {
    let style = font(FONT, color).pos(Pos::new(h, v));
    chart
        .draw_series(std::iter::once(Text::new(s.to_string(), at, style)))
        .unwrap();
}

/// A polyline.
fn line(chart: &mut Chart, pts: Vec<(f64, f64)>, color: RGBColor, width: u32) {
    chart
        .draw_series(LineSeries::new(pts, color.stroke_width(width)))
        .unwrap();
}

/// A dashed polyline.
fn dashed(chart: &mut Chart, pts: Vec<(f64, f64)>, color: RGBColor, width: u32) {
    chart
        .draw_series(DashedLineSeries::new(pts, 6, 5, color.stroke_width(width)))
        .unwrap();
}

/// A filled polygon with its outline.
fn region(chart: &mut Chart, pts: Vec<(f64, f64)>, color: RGBColor, alpha: f64) {
    chart
        .draw_series(std::iter::once(Polygon::new(
            pts.clone(),
            color.mix(alpha).filled(),
        )))
        .unwrap();
    let mut closed = pts.clone();
    closed.push(pts[0]);
    line(chart, closed, color, 2);
}

/// An arrow from `from` to `to` with a head `head` data units long (the chart has equal
/// scales, so the head keeps its shape).
fn arrow(chart: &mut Chart, from: (f64, f64), to: (f64, f64), color: RGBColor, head: f64) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = dx.hypot(dy);
    if len == 0.0 {
        return;
    }
    let (ux, uy) = (dx / len, dy / len);
    let h = head.min(0.6 * len);
    let base = (to.0 - h * ux, to.1 - h * uy);
    let w = 0.45 * h;
    line(chart, vec![from, base], color, 2);
    chart
        .draw_series(std::iter::once(Polygon::new(
            vec![
                to,
                (base.0 - w * uy, base.1 + w * ux),
                (base.0 + w * uy, base.1 - w * ux),
            ],
            color.filled(),
        )))
        .unwrap();
}

fn dot(chart: &mut Chart, at: (f64, f64), color: RGBColor, size: u32) {
    chart
        .draw_series(std::iter::once(Circle::new(at, size, color.filled())))
        .unwrap();
}

/// The points where the ray from the origin through `dir` (normal component `dir.1 > 0`)
/// and its mirror image leave the window `|x| <= xmax, 0 <= y <= ymax`: the 2-D section of a
/// circular cone around the vertical axis, as a polygon.
fn cone_section(dir: (f64, f64), xmax: f64, ymax: f64) -> Vec<(f64, f64)> {
    let slope = dir.0.abs() / dir.1; // tangential per unit normal
    let s = ymax.min(xmax / slope);
    let mut p = vec![(0.0, 0.0), (slope * s, s)];
    if s < ymax {
        p.push((xmax, ymax));
        p.push((-xmax, ymax));
    }
    p.push((-slope * s, s));
    p
}

/// The boundary direction of `K_μ` and of `K_μ*` in the (tangential, normal) plane: the
/// projections of the tangential unit vector, which land on the boundary rays.
fn boundary_directions(mu: f64) -> ((f64, f64), (f64, f64)) {
    let k = project_on_cone([0.0, 1.0, 0.0], mu);
    let d = project_on_dual_cone([0.0, 1.0, 0.0], mu);
    ((k[1], k[0]), (d[1], d[0]))
}

/// An arc of radius `rad` around the origin from angle `a0` to `a1` (radians, from the
/// horizontal axis).
fn arc(rad: f64, a0: f64, a1: f64) -> Vec<(f64, f64)> {
    (0..=40)
        .map(|i| {
            let a = a0 + (a1 - a0) * f64::from(i) / 40.0;
            (rad * a.cos(), rad * a.sin())
        })
        .collect()
}

/// Figure 1: the friction cone and its dual.
fn cone_figure() -> (String, String) {
    let (xmax, ymax) = (2.4, 2.2);
    let mut data = Data::new();
    let (k_dir, d_dir) = boundary_directions(MU);
    let k_dir = data.point("cone_boundary_direction", k_dir);
    let d_dir = data.point("dual_boundary_direction", d_dir);
    let k = data.points("cone", cone_section(k_dir, xmax, ymax));
    let d = data.points("dual_cone", cone_section(d_dir, xmax, ymax));
    let half = k_dir.0.atan2(k_dir.1); // the half angle, from the normal axis
    let half_dual = d_dir.0.atan2(d_dir.1);
    let svg = equal_aspect(
        760,
        -xmax..xmax,
        -0.5..ymax,
        Some(("tangential component", "normal component")),
        |c| {
            region(c, d, ORANGE, 0.18);
            region(c, k, BLUE, 0.35);
            arrow(c, (0.0, -0.45), (0.0, 2.15), BLACK, 0.12);
            label(
                c,
                "normal n",
                (-0.06, 2.1),
                BLACK,
                (HPos::Right, VPos::Center),
            );
            label(c, "K_μ", (0.1, 1.8), BLUE, (HPos::Left, VPos::Center));
            line(c, vec![(-xmax, 0.0), (xmax, 0.0)], BLACK, 1);
            let pi2 = std::f64::consts::FRAC_PI_2;
            line(c, arc(1.2, pi2 - half, pi2), BLUE, 2);
            label(
                c,
                &format!("arctan μ = {:.1}°", half.to_degrees()),
                (0.62, 1.1),
                BLUE,
                (HPos::Left, VPos::Center),
            );
            line(c, arc(0.7, pi2, pi2 + half_dual), ORANGE, 2);
            label(
                c,
                &format!("arctan(1/μ) = {:.1}°", half_dual.to_degrees()),
                (-0.72, 0.62),
                ORANGE,
                (HPos::Right, VPos::Bottom),
            );
            label(
                c,
                "dual cone K_μ* = K_1/μ:",
                (-2.3, 2.0),
                ORANGE,
                (HPos::Left, VPos::Center),
            );
            label(
                c,
                "μ‖u_t‖ ≤ u_n",
                (-2.3, 1.75),
                ORANGE,
                (HPos::Left, VPos::Center),
            );
            label(
                c,
                "friction cone K_μ:",
                (2.3, 2.0),
                BLUE,
                (HPos::Right, VPos::Center),
            );
            label(
                c,
                &format!("‖r_t‖ ≤ μ r_n, μ = {MU}"),
                (2.3, 1.75),
                BLUE,
                (HPos::Right, VPos::Center),
            );
        },
    );
    (data.0, svg)
}

/// The direction from the first sphere's centre to the second's.
const CONTACT_DIRECTION: [f64; 3] = [0.6, 0.0, 0.8];

/// An orthographic view (spheres stay circles) that shows the whole frame: it looks along
/// `0.3 n + 0.5 t1 + 0.8 t2`, so the normal lies nearly in the page and both tangents are
/// seen at a slant; world "up" stays up. The screen's right and up axes.
fn view_axes(n: &Vector3<f64>, t1: &Vector3<f64>, t2: &Vector3<f64>) -> [Vector3<f64>; 2] {
    let into = (n * 0.3 + t1 * 0.5 + t2 * 0.8).normalize();
    let up = (Vector3::z() - into * into.z).normalize();
    [up.cross(&-into), up]
}

/// The contact the crate's collision detection finds between the two spheres, with no
/// ground: `(point, normal, t1, t2)` and the two centres.
fn contact_frame() -> ([Vector3<f64>; 4], [Vector3<f64>; 2]) {
    let mut world = World::new().with_ground(None).expect("no ground is valid");
    let m = world
        .add_material(Material::new(0.5, 0.0).expect("valid"))
        .expect("valid");
    let ball = Shape::sphere(1.0).expect("valid");
    let d = Vector3::from(CONTACT_DIRECTION).normalize();
    let centres = [Vector3::zeros(), d * (2.0 - 1e-4)];
    for c in centres {
        world
            .add(ball, 1000.0, c, UnitQuaternion::identity(), m)
            .expect("a valid body");
    }
    let contacts = world.contacts().expect("collision detection");
    assert_eq!(contacts.len(), 1, "two touching spheres have one contact");
    let c = &contacts[0].contact;
    ([*c.point(), *c.normal(), *c.t1(), *c.t2()], centres)
}

/// Figure 0: the contact frame of two touching spheres.
fn contact_frame_figure() -> (String, String) {
    let ([point, normal, t1, t2], centres) = contact_frame();
    let [right, up] = view_axes(&normal, &t1, &t2);
    let view = |p: &Vector3<f64>| (p.dot(&right), p.dot(&up));
    let mut data = Data::new();
    let outline = |c: &Vector3<f64>| -> Vec<(f64, f64)> {
        let (x, y) = view(c);
        circle(1.0, 120)
            .into_iter()
            .map(|(a, b)| (x + a, y + b))
            .collect()
    };
    let a = data.points("body_a", outline(&centres[0]));
    let b = data.points("body_b", outline(&centres[1]));
    let ca = data.point("centre_a", view(&centres[0]));
    let cb = data.point("centre_b", view(&centres[1]));
    let p = data.point("point", view(&point));
    let len = 0.9;
    let n = data.point("n", view(&(point + normal * len)));
    let e1 = data.point("t1", view(&(point + t1 * len)));
    let e2 = data.point("t2", view(&(point + t2 * len)));
    let s = 0.75;
    let plane = data.points(
        "tangent_plane",
        [(s, s), (-s, s), (-s, -s), (s, -s)]
            .into_iter()
            .map(|(i, j)| view(&(point + t1 * i + t2 * j))),
    );
    let plane_corner = plane
        .iter()
        .copied()
        .max_by(|p, q| p.0.total_cmp(&q.0))
        .unwrap();
    let (x0, x1) = (ca.0.min(cb.0) - 1.4, ca.0.max(cb.0) + 1.6);
    let (y0, y1) = (ca.1.min(cb.1) - 1.1, ca.1.max(cb.1) + 1.1);
    let svg = equal_aspect(620, x0..x1, y0..y1, None, |c| {
        region(c, a, GREY, 0.25);
        region(c, b, GREY, 0.25);
        region(c, plane, ORANGE, 0.25);
        label(
            c,
            "body a (first)",
            (ca.0, ca.1 - 0.3),
            BLACK,
            (HPos::Center, VPos::Center),
        );
        label(
            c,
            "body b (second)",
            (cb.0, cb.1 + 0.3),
            BLACK,
            (HPos::Center, VPos::Center),
        );
        arrow(c, p, n, BLACK, 0.14);
        arrow(c, p, e1, RED, 0.14);
        arrow(c, p, e2, BLUE, 0.14);
        dot(c, p, BLACK, 5);
        // each label beyond its arrow's tip, on the side the arrow points to
        let tip = |q: (f64, f64)| {
            let at = (q.0 + 0.08 * (q.0 - p.0), q.1 + 0.08 * (q.1 - p.1));
            let h = if q.0 >= p.0 { HPos::Left } else { HPos::Right };
            let v = if q.1 >= p.1 { VPos::Bottom } else { VPos::Top };
            (at, (h, v))
        };
        for (q, text, color) in [
            (n, "n (from a to b)", BLACK),
            (e1, "t1", RED),
            (e2, "t2", BLUE),
        ] {
            let (at, anchor) = tip(q);
            label(c, text, at, color, anchor);
        }
        let corner = plane_corner;
        label(
            c,
            "tangent plane",
            (corner.0 + 0.08, corner.1),
            ORANGE,
            (HPos::Left, VPos::Center),
        );
    });
    (data.0, svg)
}

/// The De Saxcé picture's vectors, as 3-vectors `[n, t1, t2]`: a sliding velocity `u`, its
/// shifted `û`, and the impulse `r` of the sliding regime (on the cone, against `u_t`).
fn de_saxce_vectors() -> ([f64; 3], [f64; 3], [f64; 3]) {
    let u = [0.0, -1.6, 0.0];
    let shift = MU * de_saxce_shift(FrictionKind::Coulomb, &u);
    let u_hat = [u[0] + shift, u[1], u[2]];
    let rn = 1.6;
    let ut = u[1].hypot(u[2]);
    let r = [rn, -MU * rn * u[1] / ut, -MU * rn * u[2] / ut];
    (u, u_hat, r)
}

/// Figure 2: De Saxcé's shift.
fn de_saxce_figure() -> (String, String) {
    let (xmax, ymax) = (2.4, 2.0);
    let mut data = Data::new();
    let (k_dir, d_dir) = boundary_directions(MU);
    let k = data.points("cone", cone_section(k_dir, xmax, ymax));
    let d = data.points("dual_cone", cone_section(d_dir, xmax, ymax));
    let (u, u_hat, r) = de_saxce_vectors();
    // plotted as (tangential, normal)
    let u = data.point("u", (u[1], u[0]));
    let u_hat = data.point("u_hat", (u_hat[1], u_hat[0]));
    let r = data.point("r", (r[1], r[0]));
    let svg = equal_aspect(
        760,
        -xmax..xmax,
        -0.4..ymax,
        Some(("tangential component", "normal component")),
        |c| {
            region(c, d, ORANGE, 0.18);
            region(c, k, BLUE, 0.35);
            line(c, vec![(0.0, -0.4), (0.0, ymax)], BLACK, 1);
            line(c, vec![(-xmax, 0.0), (xmax, 0.0)], BLACK, 1);
            label(c, "K_μ", (0.12, 1.85), BLUE, (HPos::Left, VPos::Center));
            label(c, "K_μ*", (-2.3, 1.8), ORANGE, (HPos::Left, VPos::Center));
            arrow(c, (0.0, 0.0), u, RED, 0.13);
            label(
                c,
                "sliding velocity u = (0, u_t)",
                (u.0 - 0.3, u.1 - 0.07),
                RED,
                (HPos::Left, VPos::Top),
            );
            dashed(c, vec![u, u_hat], BLACK, 2);
            label(
                c,
                "+ μ‖u_t‖ n",
                (u.0 + 0.07, 0.22),
                BLACK,
                (HPos::Left, VPos::Center),
            );
            arrow(c, (0.0, 0.0), u_hat, GREEN, 0.13);
            label(
                c,
                "û = u + μ‖u_t‖ n",
                (u_hat.0 + 0.05, u_hat.1 + 0.08),
                GREEN,
                (HPos::Left, VPos::Bottom),
            );
            arrow(c, (0.0, 0.0), r, BLUE, 0.13);
            label(
                c,
                "impulse r, r ⟂ û",
                (r.0 + 0.08, r.1),
                BLUE,
                (HPos::Left, VPos::Center),
            );
            // the right angle between r and û
            let s = 0.16;
            let (a, b) = (unit(r), unit(u_hat));
            line(
                c,
                vec![
                    (s * a.0, s * a.1),
                    (s * (a.0 + b.0), s * (a.1 + b.1)),
                    (s * b.0, s * b.1),
                ],
                BLACK,
                1,
            );
        },
    );
    (data.0, svg)
}

fn unit(p: (f64, f64)) -> (f64, f64) {
    let n = p.0.hypot(p.1);
    (p.0 / n, p.1 / n)
}

/// `n` points on a circle of radius `rad`.
fn circle(rad: f64, n: usize) -> Vec<(f64, f64)> {
    (0..n)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / n as f64;
            (rad * a.cos(), rad * a.sin())
        })
        .collect()
}

/// The boundary of a 2-D convex set containing the origin, traced by projecting the points
/// of a far circle onto it with `project` (every boundary point with an outward normal in
/// the sample is reached, corners included).
fn trace(project: impl Fn(&[f64], &mut [f64]), far: f64) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for (x, y) in circle(far, 360) {
        let mut p = [0.0; 2];
        project(&[x, y], &mut p);
        if out.last() != Some(&(p[0], p[1])) {
            out.push((p[0], p[1]));
        }
    }
    if out.len() > 1 && out.first() == out.last() {
        out.pop();
    }
    out
}

/// The slip direction of the friction-set picture, in degrees from the first tangent axis.
const SLIP_DEGREES: f64 = 30.0;

/// The force of maximal dissipation for the slip `v` over the diamond, the disk and the
/// square at unit normal force and `μ = 1`: for the disk and the square, the projection of
/// `-R v` for a large `R` (the limit of (4) of the chapter); for the diamond, the vertex
/// `μ d_k` that minimises `d_k^T v`.
fn dissipation_forces(v: (f64, f64)) -> [(f64, f64); 3] {
    let far = [-100.0 * v.0, -100.0 * v.1];
    let mut disk = [0.0; 2];
    FrictionLaw::Disk { mu: 1.0 }.project(1.0, &far, &mut disk);
    let mut square = [0.0; 2];
    FrictionLaw::Box { mu: [1.0, 1.0] }.project(1.0, &far, &mut square);
    let diamond = DIRECTIONS
        .iter()
        .copied()
        .min_by(|a, b| (a.0 * v.0 + a.1 * v.1).total_cmp(&(b.0 * v.0 + b.1 * v.1)))
        .unwrap();
    [diamond, (disk[0], disk[1]), (square[0], square[1])]
}

/// The four directions of the pyramid (Stewart and Trinkle): `±t1`, `±t2`.
const DIRECTIONS: [(f64, f64); 4] = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)];

/// Figure 3: diamond inside disk inside square.
fn friction_sets_figure() -> (String, String) {
    let mut data = Data::new();
    let square = data.points(
        "square",
        trace(
            |z, out| FrictionLaw::Box { mu: [1.0, 1.0] }.project(1.0, z, out),
            3.0,
        ),
    );
    let disk = data.points(
        "disk",
        trace(
            |z, out| FrictionLaw::Disk { mu: 1.0 }.project(1.0, z, out),
            3.0,
        ),
    );
    let diamond = data.points("diamond", DIRECTIONS);
    let a = SLIP_DEGREES.to_radians();
    let v = data.point("slip", (a.cos(), a.sin()));
    let [f_diamond, f_disk, f_square] = dissipation_forces(v);
    let f_diamond = data.point("force_diamond", f_diamond);
    let f_disk = data.point("force_disk", f_disk);
    let f_square = data.point("force_square", f_square);
    let svg = equal_aspect(
        760,
        -1.35..3.5,
        -1.3..1.3,
        Some(("γ₁ / (μ λ_N)", "γ₂ / (μ λ_N)")),
        |c| {
            region(c, square.clone(), ORANGE, 0.15);
            region(c, disk.clone(), BLUE, 0.2);
            region(c, diamond.clone(), GREEN, 0.3);
            arrow(c, (0.0, 0.0), v, BLACK, 0.1);
            label(
                c,
                &format!("slip u at {SLIP_DEGREES}°"),
                (1.05, 0.45),
                BLACK,
                (HPos::Left, VPos::Center),
            );
            for (f, col) in [(f_diamond, GREEN), (f_disk, BLUE), (f_square, ORANGE)] {
                arrow(c, (0.0, 0.0), f, col, 0.1);
                dot(c, f, col, 5);
            }
            let x = 1.5;
            label(
                c,
                "square: box friction, |γ₁|, |γ₂| ≤ μλ_N",
                (x, 1.15),
                ORANGE,
                (HPos::Left, VPos::Center),
            );
            label(
                c,
                "disk: Coulomb, ‖γ‖ ≤ μλ_N",
                (x, 0.85),
                BLUE,
                (HPos::Left, VPos::Center),
            );
            label(
                c,
                "diamond: 4-direction pyramid,",
                (x, 0.1),
                GREEN,
                (HPos::Left, VPos::Center),
            );
            label(
                c,
                "|γ₁| + |γ₂| ≤ μλ_N",
                (x, -0.15),
                GREEN,
                (HPos::Left, VPos::Center),
            );
            label(
                c,
                "arrows to dots: the force of",
                (x, -0.75),
                BLACK,
                (HPos::Left, VPos::Center),
            );
            label(
                c,
                "maximal dissipation in each set",
                (x, -1.0),
                BLACK,
                (HPos::Left, VPos::Center),
            );
        },
    );
    (data.0, svg)
}

/// The levels drawn for each NCP function.
const LEVELS: [f64; 5] = [-1.0, -0.5, 0.0, 0.5, 1.0];
const A_RANGE: Range<f64> = -1.6..3.4;
const B_RANGE: Range<f64> = -1.6..2.6;

/// The level set `φ(a, b) = c`, traced along the lines `a - b = d`: both functions increase
/// along `(1, 1)` (the minimum map with slope 1, Fischer-Burmeister with slope at least
/// `2 - √2`), so each such line meets the level set once, found by bisection on the crate's
/// `value`. The points inside the window, in order of `d`.
fn level_set<F: NcpFunction>(c: f64) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for i in -160..=160 {
        let d = f64::from(i) * 0.05;
        let at = |s: f64| (s + 0.5 * d, s - 0.5 * d);
        let (mut lo, mut hi) = (-50.0, 50.0);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            let (a, b) = at(mid);
            if F::value(a, b) < c {
                lo = mid;
            } else {
                hi = mid;
            }
            if hi - lo <= 1e-13 {
                break;
            }
        }
        let (a, b) = at(0.5 * (lo + hi));
        if A_RANGE.contains(&a) && B_RANGE.contains(&b) {
            out.push((a, b));
        }
    }
    out
}

/// Figure 4: the level sets of one NCP function.
fn levels_figure<F: NcpFunction>(name: &str) -> (String, String) {
    let mut data = Data::new();
    let curves: Vec<(f64, Vec<(f64, f64)>)> = LEVELS
        .iter()
        .map(|&c| (c, data.points(&format!("level {c}"), level_set::<F>(c))))
        .collect();
    let svg = equal_aspect(700, A_RANGE, B_RANGE, Some(("a", "b")), |ch| {
        // the quadrant where φ > 0
        for (c, pts) in &curves {
            let (color, width) = match c.partial_cmp(&0.0).unwrap() {
                std::cmp::Ordering::Less => (RED, 2),
                std::cmp::Ordering::Equal => (BLACK, 4),
                std::cmp::Ordering::Greater => (BLUE, 2),
            };
            line(ch, pts.clone(), color, width);
            // the label at the top end of the curve
            if let Some(top) = pts.iter().max_by(|p, q| p.1.total_cmp(&q.1)) {
                let text = if *c == 0.0 {
                    "0".to_string()
                } else {
                    format!("{c}")
                };
                label(
                    ch,
                    &text,
                    (top.0 + 0.04, B_RANGE.end - 0.05),
                    color,
                    (HPos::Left, VPos::Top),
                );
            }
        }
        label(
            ch,
            &format!("level sets {name}(a, b) = c"),
            (A_RANGE.end - 0.08, B_RANGE.end - 0.45),
            BLACK,
            (HPos::Right, VPos::Center),
        );
        label(
            ch,
            "c > 0",
            (A_RANGE.end - 0.08, B_RANGE.end - 0.8),
            BLUE,
            (HPos::Right, VPos::Center),
        );
        label(
            ch,
            "c < 0",
            (A_RANGE.end - 0.08, -1.3),
            RED,
            (HPos::Right, VPos::Center),
        );
        label(
            ch,
            "zero set: a, b ≥ 0, ab = 0",
            (A_RANGE.end - 0.08, -0.25),
            BLACK,
            (HPos::Right, VPos::Center),
        );
    });
    (data.0, svg)
}

/// The sets of the projection picture, each with its centre in the figure and its points.
struct ProjectionPanel {
    name: &'static str,
    title: &'static str,
    centre: f64,
    points: &'static [(f64, f64)],
}

const DISK_RADIUS: f64 = 1.0;
const BOX_HALF: [f64; 2] = [1.2, 0.7];
const ELLIPSE_AXES: [f64; 2] = [1.4, 0.6];

const PANELS: [ProjectionPanel; 3] = [
    ProjectionPanel {
        name: "disk",
        title: "disk ‖γ‖ ≤ 1",
        centre: 0.0,
        points: &[
            (1.5, 0.9),
            (-1.25, 1.1),
            (0.35, -1.6),
            (-1.65, -0.45),
            (0.3, 0.35),
        ],
    },
    ProjectionPanel {
        name: "box",
        title: "box |γ₁| ≤ 1.2, |γ₂| ≤ 0.7",
        centre: 3.9,
        points: &[
            (1.85, 0.3),
            (1.75, 1.35),
            (-0.5, 1.45),
            (-1.8, -1.25),
            (0.6, -1.45),
            (-0.4, 0.2),
        ],
    },
    ProjectionPanel {
        name: "ellipse",
        title: "ellipse a = 1.4, b = 0.6",
        centre: 8.1,
        points: &[
            (0.9, 1.3),
            (1.85, 0.55),
            (-1.55, 0.95),
            (-0.3, -1.45),
            (1.3, -1.1),
            (0.5, 0.1),
        ],
    },
];

/// The projection of `z` onto the set `name` (centred at the origin).
fn project(name: &str, z: &[f64], out: &mut [f64]) {
    match name {
        "disk" => Disk {
            radius: DISK_RADIUS,
        }
        .project(z, out),
        "box" => BoxSet {
            half: BOX_HALF.to_vec(),
        }
        .project(z, out),
        _ => {
            project_on_ellipsoid_with(&ELLIPSE_AXES, z, out, EllipsoidMethod::SafeguardedNewton);
        }
    }
}

/// Each panel's boundary and `(point, projection)` pairs, in the set's own coordinates.
type Projections = Vec<(Vec<(f64, f64)>, Vec<((f64, f64), (f64, f64))>)>;

fn projections() -> Projections {
    PANELS
        .iter()
        .map(|p| {
            let boundary = trace(|z, out| project(p.name, z, out), 20.0);
            let pairs = p
                .points
                .iter()
                .map(|&(x, y)| {
                    let mut q = [0.0; 2];
                    project(p.name, &[x, y], &mut q);
                    ((x, y), (q[0], q[1]))
                })
                .collect();
            (boundary, pairs)
        })
        .collect()
}

/// Figure 5: projections onto a disk, a box and an ellipse.
fn projections_figure() -> (String, String) {
    let mut data = Data::new();
    let mut drawn = Vec::new();
    for (panel, (boundary, pairs)) in PANELS.iter().zip(projections()) {
        let shift = |p: (f64, f64)| (p.0 + panel.centre, p.1);
        let b = data.points(
            &format!("{}_boundary", panel.name),
            boundary.into_iter().map(shift),
        );
        let ps: Vec<_> = pairs
            .into_iter()
            .map(|(z, q)| {
                (
                    data.point(&format!("{}_point", panel.name), shift(z)),
                    data.point(&format!("{}_projection", panel.name), shift(q)),
                )
            })
            .collect();
        drawn.push((panel, b, ps));
    }
    let svg = equal_aspect(760, -2.0..10.2, -1.85..2.1, None, |c| {
        for (panel, boundary, pairs) in drawn {
            region(c, boundary, BLUE, 0.2);
            label(
                c,
                panel.title,
                (panel.centre, 2.05),
                BLACK,
                (HPos::Center, VPos::Top),
            );
            for (z, q) in pairs {
                if z == q {
                    dot(c, z, GREEN, 5);
                } else {
                    arrow(c, z, q, RED, 0.16);
                    dot(c, z, BLACK, 4);
                }
            }
        }
    });
    (data.0, svg)
}

fn main() {
    for (name, (csv, svg)) in [
        ("geometry_contact_frame", contact_frame_figure()),
        ("geometry_cone", cone_figure()),
        ("geometry_de_saxce", de_saxce_figure()),
        ("geometry_friction_sets", friction_sets_figure()),
        ("geometry_minmap_levels", levels_figure::<MinMap>("min")),
        (
            "geometry_fb_levels",
            levels_figure::<FischerBurmeister>("φ_FB"),
        ),
        ("geometry_projections", projections_figure()),
    ] {
        support::publish_figure(name, &csv, &svg);
    }
}

#[test]
fn figures_match_the_book_and_show_what_they_claim() {
    use nonsmooth::friction::{in_cone, in_dual_cone};
    use nonsmooth::problem::natural_map_contact;

    main();

    // The contact frame: orthonormal, the normal from a to b along the centres' line,
    // the point between the surfaces.
    let ([point, n, t1, t2], centres) = contact_frame();
    for (x, y) in [(n, t1), (n, t2), (t1, t2)] {
        assert!(x.dot(&y).abs() < 1e-12);
    }
    for v in [n, t1, t2] {
        assert!((v.norm() - 1.0).abs() < 1e-12);
    }
    let d = (centres[1] - centres[0]).normalize();
    assert!((n - d).norm() < 1e-12, "{n:?}");
    assert!(((point - centres[0]).norm() - 1.0).abs() < 1e-4);

    // The cone's boundary directions are on the boundaries: on K_μ and K_μ*, at the
    // angles arctan μ and arctan(1/μ) from the normal, and at right angles to each other's
    // mirror image.
    let (k, d) = boundary_directions(MU);
    assert!(in_cone([k.1, k.0, 0.0], MU, 1e-15) && in_dual_cone([d.1, d.0, 0.0], MU, 1e-15));
    assert!((k.0.atan2(k.1) - MU.atan()).abs() < 1e-14);
    assert!((d.0.atan2(d.1) - (1.0 / MU).atan()).abs() < 1e-14);
    assert!((-k.0 * d.0 + k.1 * d.1).abs() < 1e-15);

    // De Saxcé: u is not in the dual cone, û is, on its boundary; r ⟂ û, and the natural
    // map of the Coulomb law vanishes at (r, u) while that of the CCP does not.
    let (u, u_hat, r) = de_saxce_vectors();
    assert!(!in_dual_cone(u, MU, 1e-9) && in_dual_cone(u_hat, MU, 1e-15));
    assert!((MU * u_hat[1].hypot(u_hat[2]) - u_hat[0]).abs() < 1e-15);
    assert!(in_cone(r, MU, 1e-15));
    assert!((r[0] * u_hat[0] + r[1] * u_hat[1] + r[2] * u_hat[2]).abs() < 1e-15);
    let e = natural_map_contact(r, u, MU, FrictionKind::Coulomb);
    assert!(e.iter().all(|v| v.abs() < 1e-14), "{e:?}");
    let e = natural_map_contact(r, u, MU, FrictionKind::Ccp);
    assert!(e.iter().any(|v| v.abs() > 0.1), "{e:?}");

    // The friction sets: the traced square has its four corners, the traced disk has
    // radius 1; the forces of maximal dissipation for a slip at 30°: the disk's opposes
    // the slip, the square's is at 45° (a corner), the diamond's on the -t1 axis.
    let sq = trace(
        |z, out| FrictionLaw::Box { mu: [1.0, 1.0] }.project(1.0, z, out),
        3.0,
    );
    for corner in [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)] {
        assert!(sq.contains(&corner), "{corner:?}");
    }
    let disk = trace(
        |z, out| FrictionLaw::Disk { mu: 1.0 }.project(1.0, z, out),
        3.0,
    );
    assert!(disk.iter().all(|p| (p.0.hypot(p.1) - 1.0).abs() < 1e-15));
    let a = SLIP_DEGREES.to_radians();
    let [fd, fc, fs] = dissipation_forces((a.cos(), a.sin()));
    assert_eq!(fd, (-1.0, 0.0));
    assert!((fc.0 + a.cos()).abs() < 1e-15 && (fc.1 + a.sin()).abs() < 1e-15);
    assert_eq!(fs, (-1.0, -1.0));

    // The level sets: every traced point has the level's value; the zero sets of both
    // functions lie on the nonnegative axes.
    for c in LEVELS {
        for (a, b) in level_set::<MinMap>(c) {
            assert!((MinMap::value(a, b) - c).abs() < 1e-12);
        }
        for (a, b) in level_set::<FischerBurmeister>(c) {
            assert!((FischerBurmeister::value(a, b) - c).abs() < 1e-12);
        }
    }
    for (a, b) in level_set::<MinMap>(0.0)
        .into_iter()
        .chain(level_set::<FischerBurmeister>(0.0))
    {
        assert!(a >= -1e-12 && b >= -1e-12 && a.min(b) < 1e-12, "({a}, {b})");
    }

    // The projections: each drawn projection is in its set and at least as close to its
    // point as every traced boundary point (so the arrow ends at the closest point drawn).
    for (panel, (boundary, pairs)) in PANELS.iter().zip(projections()) {
        assert!(boundary.len() > 20);
        for (z, q) in pairs {
            let dist = |p: (f64, f64)| (z.0 - p.0).hypot(z.1 - p.1);
            let inside = match panel.name {
                "disk" => Disk {
                    radius: DISK_RADIUS,
                }
                .contains(&[q.0, q.1], 1e-12),
                "box" => BoxSet {
                    half: BOX_HALF.to_vec(),
                }
                .contains(&[q.0, q.1], 1e-12),
                _ => {
                    (q.0 / ELLIPSE_AXES[0]).powi(2) + (q.1 / ELLIPSE_AXES[1]).powi(2) <= 1.0 + 1e-12
                }
            };
            assert!(inside, "{}: {q:?}", panel.name);
            let d = dist(q);
            assert!(
                boundary.iter().all(|&p| d <= dist(p) + 1e-12),
                "{}: {z:?}",
                panel.name
            );
        }
    }
}
