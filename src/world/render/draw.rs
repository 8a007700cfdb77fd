//! From a [`Frame`] to SVG elements: each body's visible parts with flat shading, the
//! ground slab, and the painter's order.
//!
//! Every number is written with two decimals ([`num`]), so a frame gives the same text
//! every time.

use std::fmt::Write;

use nalgebra::{UnitQuaternion, Vector3};

use super::camera::Camera;
use super::frame::{BodyPose, Frame};
use super::order::paint_order;
use super::view::RenderOptions;
use crate::world::Shape;

/// A colour as red, green, blue in `0..=1`.
#[derive(Debug, Clone, Copy)]
struct Rgb(f64, f64, f64);

/// A body that moves.
const MOVING: Rgb = Rgb(0.30, 0.53, 0.76);
/// A fixed body.
const FIXED: Rgb = Rgb(0.62, 0.62, 0.62);
/// A highlighted body ([`RenderOptions::highlight`]).
const ACCENT: Rgb = Rgb(0.93, 0.52, 0.16);
/// The ground slab.
const GROUND: Rgb = Rgb(0.86, 0.83, 0.76);

impl Rgb {
    /// `#rrggbb` of the colour times `f` (clamped to `0..=1`).
    fn hex(self, f: f64) -> String {
        let c = |v: f64| ((v * f).clamp(0.0, 1.0) * 255.0).round() as u8;
        format!("#{:02x}{:02x}{:02x}", c(self.0), c(self.1), c(self.2))
    }
}

/// The direction towards the light (world frame, unit): from the right, the front and
/// above, so the three faces an isometric view shows get three shades.
fn light() -> Vector3<f64> {
    Vector3::new(0.4, -0.6, 1.0).normalize()
}

/// The brightness of a surface with outward normal `n` (world, unit): an ambient part and
/// a Lambert part.
fn shade(n: &Vector3<f64>) -> f64 {
    0.45 + 0.55 * n.dot(&light()).max(0.0)
}

/// `v` with two decimals, and `0.00` for a negative zero.
pub(super) fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    if s == "-0.00" { "0.00".into() } else { s }
}

/// The SVG elements of `frame` in drawing order: the ground first (when the camera
/// draws it, [`Camera::fit`]), then the bodies in the painter's order of
/// [`paint_order`], each body's parts together (a box's faces, a sphere's disc and
/// marks: the visible parts of one convex body never overlap one another).
pub(super) fn items(frame: &Frame, cam: &Camera, opts: &RenderOptions) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(g) = frame.ground {
        ground(g, cam, &mut out);
    }
    for i in paint_order(&frame.bodies, cam) {
        let b = &frame.bodies[i];
        let colour = if opts.highlight.contains(&i) {
            ACCENT
        } else if b.fixed {
            FIXED
        } else {
            MOVING
        };
        out.extend(match b.shape {
            Shape::Box { half_extents } => {
                box_faces(b.position, &b.orientation, half_extents, cam, colour, i)
            }
            Shape::Sphere { radius } => sphere(b, radius, cam, colour, i),
            Shape::Capsule {
                half_height,
                radius,
            } => capsule(b, half_height, radius, cam, colour, i),
        });
    }
    out
}

/// The names of a box's faces, in face-index order.
const FACE_NAMES: [&str; 6] = ["+x", "-x", "+y", "-y", "+z", "-z"];

/// `true` when a surface with outward normal `n` faces the viewer (edge-on faces are
/// culled).
fn facing(n: &Vector3<f64>, cam: &Camera) -> bool {
    n.dot(&cam.forward()) < -1e-9
}

/// The visible faces of body `body`, a box (back-face culling), flat shaded, as
/// `<polygon>`s tagged with `data-body` and `data-face`.
fn box_faces(
    c: Vector3<f64>,
    q: &UnitQuaternion<f64>,
    h: Vector3<f64>,
    cam: &Camera,
    colour: Rgb,
    body: usize,
) -> Vec<String> {
    faces(c, q, h, cam, colour, &format!("data-body=\"{body}\""))
}

/// The visible faces of the box with centre `c`, orientation `q` and half extents `h`,
/// each a `<polygon>` with the attributes `tag` and `data-face` (the face's outward
/// normal in the body frame, `+x` .. `-z`), in face order.
fn faces(
    c: Vector3<f64>,
    q: &UnitQuaternion<f64>,
    h: Vector3<f64>,
    cam: &Camera,
    colour: Rgb,
    tag: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    for (f, name) in FACE_NAMES.iter().enumerate() {
        let (a, s) = (f / 2, if f % 2 == 0 { 1.0 } else { -1.0 });
        let (b, d) = ((a + 1) % 3, (a + 2) % 3);
        let mut n = Vector3::zeros();
        n[a] = s;
        let nw = q * n;
        if !facing(&nw, cam) {
            continue;
        }
        let mut pts = String::new();
        for (sb, sd) in [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)] {
            let mut v = Vector3::zeros();
            v[a] = s * h[a];
            v[b] = sb * h[b];
            v[d] = sd * h[d];
            let (x, y) = cam.project(&(c + q * v));
            if !pts.is_empty() {
                pts.push(' ');
            }
            write!(pts, "{},{}", num(x), num(y)).unwrap();
        }
        let k = shade(&nw);
        out.push(format!(
            "<polygon {tag} data-face=\"{name}\" points=\"{pts}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1\" stroke-linejoin=\"round\"/>",
            colour.hex(k),
            colour.hex(k * 0.6)
        ));
    }
    out
}

/// The fill and outline colours of a round surface (a sphere, a capsule): shaded as if it
/// faced the viewer.
fn round_colours(colour: Rgb, cam: &Camera) -> (String, String) {
    let k = shade(&(-cam.forward()));
    (colour.hex(k), colour.hex(k * 0.6))
}

/// A line through the points `pts` (pixels) in the marks' style.
fn mark_line(body: usize, pts: &[(f64, f64)], colour: Rgb) -> String {
    let p: Vec<String> = pts
        .iter()
        .map(|&(x, y)| format!("{},{}", num(x), num(y)))
        .collect();
    format!(
        "<polyline data-body=\"{body}\" data-mark=\"1\" points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
        p.join(" "),
        colour.hex(0.35)
    )
}

/// A sphere: its disc (the orthographic image of a sphere is a circle of the same
/// radius), then its marks: the front half of the great circle in the body `x-z` plane,
/// a dot at the body `+x` point and a ring at the pole (`±y`) that face the viewer, so
/// that rotation shows.
fn sphere(b: &BodyPose, r: f64, cam: &Camera, colour: Rgb, body: usize) -> Vec<String> {
    let (fill, stroke) = round_colours(colour, cam);
    let (cx, cy) = cam.project(&b.position);
    let mut out = vec![format!(
        "<circle data-body=\"{body}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1\"/>",
        num(cx),
        num(cy),
        num(r * cam.scale())
    )];
    let (ex, ez) = (b.orientation * Vector3::x(), b.orientation * Vector3::z());
    const N: usize = 48;
    let pt = |k: usize| {
        let t = std::f64::consts::TAU * (k % N) as f64 / N as f64;
        r * (t.cos() * ex + t.sin() * ez)
    };
    let front: Vec<bool> = (0..N).map(|k| facing(&pt(k), cam)).collect();
    // Runs of points in front, each with one neighbour behind at either end so the line
    // reaches the outline; start after a point behind so no run wraps around.
    if let Some(start) = front.iter().position(|&f| !f) {
        let mut run: Vec<(f64, f64)> = Vec::new();
        for j in 1..=N {
            let k = (start + j) % N;
            if front[k] {
                if run.is_empty() {
                    run.push(cam.project(&(b.position + pt(k + N - 1))));
                }
                run.push(cam.project(&(b.position + pt(k))));
            } else if !run.is_empty() {
                run.push(cam.project(&(b.position + pt(k))));
                out.push(mark_line(body, &run, colour));
                run.clear();
            }
        }
    }
    // A filled dot at the body +x point (on the great circle), and a ring at the pole of
    // the circle (+y or -y) that faces the viewer: between them every rotation shows in
    // every view.
    let ey = b.orientation * Vector3::y();
    let pole = if facing(&ey, cam) {
        Some(ey)
    } else if facing(&-ey, cam) {
        Some(-ey)
    } else {
        None
    };
    let dot_r = num((0.08 * r * cam.scale()).max(1.5));
    let dark = colour.hex(0.35);
    if facing(&ex, cam) {
        let (x, y) = cam.project(&(b.position + r * ex));
        out.push(format!(
            "<circle data-body=\"{body}\" data-mark=\"1\" cx=\"{}\" cy=\"{}\" r=\"{dot_r}\" fill=\"{dark}\"/>",
            num(x),
            num(y),
        ));
    }
    if let Some(p) = pole {
        let (x, y) = cam.project(&(b.position + r * p));
        out.push(format!(
            "<circle data-body=\"{body}\" data-mark=\"1\" cx=\"{}\" cy=\"{}\" r=\"{dot_r}\" fill=\"none\" stroke=\"{dark}\" stroke-width=\"1.5\"/>",
            num(x),
            num(y),
        ));
    }
    out
}

/// A capsule: the "stadium" its orthographic image is (the two end discs of radius `r`
/// and the band between their centres, one outline), then a seam along the body `+x`
/// side of the cylinder when it faces the viewer, so that rotation about the axis shows.
fn capsule(
    b: &BodyPose,
    half_height: f64,
    r: f64,
    cam: &Camera,
    colour: Rgb,
    body: usize,
) -> Vec<String> {
    let (fill, stroke) = round_colours(colour, cam);
    let axis = b.orientation * Vector3::new(0.0, 0.0, half_height);
    let (p1, p2) = (
        cam.project(&(b.position - axis)),
        cam.project(&(b.position + axis)),
    );
    let rp = r * cam.scale();
    let (dx, dy) = (p2.0 - p1.0, p2.1 - p1.1);
    let len = dx.hypot(dy);
    let outline = if len < 0.01 {
        format!(
            "<circle data-body=\"{body}\" cx=\"{}\" cy=\"{}\" r=\"{}\"",
            num(p1.0),
            num(p1.1),
            num(rp)
        )
    } else {
        // n: perpendicular to the axis on screen, length rp. Both arcs are half circles
        // bulging away from the band (sweep flag 0 in SVG's y-down frame).
        let (nx, ny) = (-dy / len * rp, dx / len * rp);
        let r = num(rp);
        format!(
            "<path data-body=\"{body}\" d=\"M{},{} L{},{} A{r},{r} 0 0 0 {},{} L{},{} A{r},{r} 0 0 0 {},{} Z\"",
            num(p1.0 + nx),
            num(p1.1 + ny),
            num(p2.0 + nx),
            num(p2.1 + ny),
            num(p2.0 - nx),
            num(p2.1 - ny),
            num(p1.0 - nx),
            num(p1.1 - ny),
            num(p1.0 + nx),
            num(p1.1 + ny),
        )
    };
    let mut out = vec![format!(
        "{outline} fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1\"/>"
    )];
    let ex = b.orientation * Vector3::x();
    if facing(&ex, cam) {
        let seam = [
            cam.project(&(b.position - axis + r * ex)),
            cam.project(&(b.position + axis + r * ex)),
        ];
        out.push(mark_line(body, &seam, colour));
    }
    out
}

/// The largest of 1, 2, 5 times a power of ten that is at most `v`, found without
/// logarithms so that it is the same on every platform; `None` unless `v` is finite and
/// at least `1e-100`.
pub(super) fn nice_step(v: f64) -> Option<f64> {
    if !(1e-100..=f64::MAX).contains(&v) {
        return None;
    }
    let mut p = 1.0;
    while p > v {
        p /= 10.0;
    }
    while p * 10.0 <= v {
        p *= 10.0;
    }
    Some(if 5.0 * p <= v {
        5.0 * p
    } else if 2.0 * p <= v {
        2.0 * p
    } else {
        p
    })
}

/// The ground at height `g`: a slab under the camera's ground patch
/// ([`Camera::fit`]; its visible faces, `class="ground"`, a twentieth of the patch's
/// larger side thick), with grid lines on its top when the top faces the viewer. Drawn
/// only when `g` is inside the patch's `z` range.
fn ground(g: f64, cam: &Camera, out: &mut Vec<String>) {
    let (lo, hi) = cam.ground_box();
    if g < lo.z || g > hi.z {
        return;
    }
    let t = (hi.x - lo.x).max(hi.y - lo.y) / 20.0;
    let c = Vector3::new((lo.x + hi.x) / 2.0, (lo.y + hi.y) / 2.0, g - t / 2.0);
    let h = Vector3::new((hi.x - lo.x) / 2.0, (hi.y - lo.y) / 2.0, t / 2.0);
    out.extend(faces(
        c,
        &UnitQuaternion::identity(),
        h,
        cam,
        GROUND,
        "class=\"ground\"",
    ));
    if !facing(&Vector3::z(), cam) {
        return;
    }
    let Some(step) = nice_step((hi.x - lo.x).max(hi.y - lo.y) / 8.0) else {
        return;
    };
    let stroke = GROUND.hex(0.8);
    let mut line = |a: Vector3<f64>, b: Vector3<f64>| {
        let (p, q) = (cam.project(&a), cam.project(&b));
        out.push(format!(
            "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{stroke}\" stroke-width=\"0.75\"/>",
            num(p.0),
            num(p.1),
            num(q.0),
            num(q.1)
        ));
    };
    let mut k = (lo.x / step).ceil();
    while k * step <= hi.x {
        line(
            Vector3::new(k * step, lo.y, g),
            Vector3::new(k * step, hi.y, g),
        );
        k += 1.0;
    }
    let mut k = (lo.y / step).ceil();
    while k * step <= hi.y {
        line(
            Vector3::new(lo.x, k * step, g),
            Vector3::new(hi.x, k * step, g),
        );
        k += 1.0;
    }
}
