//! The painter's order of the bodies: whichever of two bodies hides the other where
//! their pictures overlap is painted later.
//!
//! Every body is convex, and two disjoint convex bodies are in the same order along every
//! line of sight that meets both (a plane separates them, and every such line crosses it
//! the same way). So for each pair whose outlines overlap on screen, one line of sight
//! through the overlap decides which is in front; the bodies are then painted in an
//! order that respects every such decision (a topological sort), farthest centre first
//! among the bodies free to go. This is exact for bodies that do not overlap, whatever
//! their sizes: a small box inside a bin is painted before the bin's front wall.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use nalgebra::Vector3;

use super::camera::Camera;
use super::frame::BodyPose;
use crate::world::Shape;

/// A point on the screen, in pixels.
type Pt = (f64, f64);

/// Points on a round outline: a circle of `r` px around `c`, `N` of them.
fn circle(c: Pt, r: f64, out: &mut Vec<Pt>) {
    const N: usize = 24;
    for k in 0..N {
        let t = std::f64::consts::TAU * k as f64 / N as f64;
        out.push((c.0 + r * t.cos(), c.1 + r * t.sin()));
    }
}

/// `(b - a) × (c - a)`: positive when `a, b, c` turn counter-clockwise (in the numbers'
/// own axes).
fn cross(a: Pt, b: Pt, c: Pt) -> f64 {
    (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
}

/// The convex hull of `pts`, counter-clockwise (Andrew's monotone chain).
fn hull(mut pts: Vec<Pt>) -> Vec<Pt> {
    pts.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut h: Vec<Pt> = Vec::new();
    for pass in 0..2 {
        let start = h.len();
        for &p in &pts {
            while h.len() >= start + 2 && cross(h[h.len() - 2], h[h.len() - 1], p) <= 0.0 {
                h.pop();
            }
            h.push(p);
        }
        h.pop();
        if pass == 0 {
            pts.reverse();
        }
    }
    h
}

/// The outline of body `b` on screen: a convex polygon (counter-clockwise) through points
/// of its true outline, so inside it.
pub(super) fn outline(b: &BodyPose, cam: &Camera) -> Vec<Pt> {
    let mut pts = Vec::new();
    match b.shape {
        Shape::Box { half_extents: h } => {
            for k in 0..8 {
                let s = |bit: usize| if k & bit == 0 { -1.0 } else { 1.0 };
                let v = Vector3::new(s(1) * h.x, s(2) * h.y, s(4) * h.z);
                pts.push(cam.project(&(b.position + b.orientation * v)));
            }
        }
        Shape::Sphere { radius } => {
            circle(cam.project(&b.position), radius * cam.scale(), &mut pts)
        }
        Shape::Capsule {
            half_height,
            radius,
        } => {
            let axis = b.orientation * Vector3::new(0.0, 0.0, half_height);
            for end in [b.position - axis, b.position + axis] {
                circle(cam.project(&end), radius * cam.scale(), &mut pts);
            }
        }
    }
    hull(pts)
}

/// The part of convex polygon `a` inside convex polygon `clip` (both counter-clockwise;
/// Sutherland-Hodgman).
fn clip(a: &[Pt], clip: &[Pt]) -> Vec<Pt> {
    let mut out = a.to_vec();
    for i in 0..clip.len() {
        let (e0, e1) = (clip[i], clip[(i + 1) % clip.len()]);
        let input = std::mem::take(&mut out);
        for j in 0..input.len() {
            let (p, q) = (input[j], input[(j + 1) % input.len()]);
            let (dp, dq) = (cross(e0, e1, p), cross(e0, e1, q));
            if dp >= 0.0 {
                out.push(p);
            }
            if (dp >= 0.0) != (dq >= 0.0) {
                let t = dp / (dp - dq);
                out.push((p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1)));
            }
        }
        if out.is_empty() {
            break;
        }
    }
    out
}

/// The area of polygon `p` (px², positive counter-clockwise).
fn area(p: &[Pt]) -> f64 {
    (0..p.len())
        .map(|i| cross((0.0, 0.0), p[i], p[(i + 1) % p.len()]))
        .sum::<f64>()
        / 2.0
}

/// Where the line `o + t d` (`d` unit) enters the sphere of radius `r` at `c`: the least
/// `t`, or `None` if it misses.
fn sphere_entry(o: Vector3<f64>, d: Vector3<f64>, c: Vector3<f64>, r: f64) -> Option<f64> {
    let w = o - c;
    let b = w.dot(&d);
    let disc = b * b - (w.norm_squared() - r * r);
    (disc >= 0.0).then(|| -b - disc.sqrt())
}

/// Where the line `o + t d` (`d` unit) enters body `b`: the least `t` (m), or `None`.
pub(super) fn entry(b: &BodyPose, o: Vector3<f64>, d: Vector3<f64>) -> Option<f64> {
    match b.shape {
        Shape::Box { half_extents: h } => {
            // Slabs in the body frame.
            let (o, d) = (
                b.orientation.inverse() * (o - b.position),
                b.orientation.inverse() * d,
            );
            let (mut t0, mut t1) = (f64::NEG_INFINITY, f64::INFINITY);
            for k in 0..3 {
                if d[k].abs() < 1e-12 {
                    if o[k].abs() > h[k] {
                        return None;
                    }
                } else {
                    let (a, c) = ((-h[k] - o[k]) / d[k], (h[k] - o[k]) / d[k]);
                    t0 = t0.max(a.min(c));
                    t1 = t1.min(a.max(c));
                }
            }
            (t0 <= t1).then_some(t0)
        }
        Shape::Sphere { radius } => sphere_entry(o, d, b.position, radius),
        Shape::Capsule {
            half_height,
            radius,
        } => {
            // The union of two end spheres and the cylinder between them.
            let w = b.orientation * Vector3::z();
            let a = b.position - half_height * w;
            let ends = [a, b.position + half_height * w].map(|c| sphere_entry(o, d, c, radius));
            let (op, dp) = (o - a - (o - a).dot(&w) * w, d - d.dot(&w) * w);
            let (qa, qb) = (dp.norm_squared(), op.dot(&dp));
            let disc = qb * qb - qa * (op.norm_squared() - radius * radius);
            let side = (qa > 1e-12 && disc >= 0.0)
                .then(|| (-qb - disc.sqrt()) / qa)
                .filter(|&t| (0.0..=2.0 * half_height).contains(&(o + t * d - a).dot(&w)));
            ends.into_iter().chain([side]).flatten().reduce(f64::min)
        }
    }
}

/// A body waiting to be painted: farther centres first, then lower indices.
#[derive(PartialEq)]
struct Ready(f64, usize);

impl Eq for Ready {}

impl PartialOrd for Ready {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ready {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0).then(other.1.cmp(&self.1))
    }
}

/// The indices of `bodies` in painting order (behind first).
///
/// For each pair whose outlines ([`outline`]) overlap by more than a hundredth of a
/// square pixel, the line of sight through the overlap's centre decides: the body it
/// enters later is painted first. Bodies are taken farthest centre first (ties: lower
/// index) among those with nothing left to paint behind them; should the decisions form
/// a cycle (interpenetrating bodies), the farthest body left goes next.
pub(super) fn paint_order(bodies: &[BodyPose], cam: &Camera) -> Vec<usize> {
    let n = bodies.len();
    let outlines: Vec<Vec<Pt>> = bodies.iter().map(|b| outline(b, cam)).collect();
    let boxes: Vec<[f64; 4]> = outlines
        .iter()
        .map(|o| {
            o.iter().fold(
                [
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                ],
                |e, p| [e[0].min(p.0), e[1].max(p.0), e[2].min(p.1), e[3].max(p.1)],
            )
        })
        .collect();
    // Pairs with overlapping boxes, by a sweep along x.
    let mut by_x: Vec<usize> = (0..n).collect();
    by_x.sort_by(|&a, &b| boxes[a][0].total_cmp(&boxes[b][0]).then(a.cmp(&b)));
    let mut after: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut waiting = vec![0usize; n];
    for (k, &i) in by_x.iter().enumerate() {
        for &j in &by_x[k + 1..] {
            if boxes[j][0] > boxes[i][1] {
                break;
            }
            if boxes[j][2] > boxes[i][3] || boxes[i][2] > boxes[j][3] {
                continue;
            }
            let common = clip(&outlines[i], &outlines[j]);
            if common.len() < 3 || area(&common) < 0.01 {
                continue;
            }
            let m = common.len() as f64;
            let c = common
                .iter()
                .fold((0.0, 0.0), |s, p| (s.0 + p.0 / m, s.1 + p.1 / m));
            let (o, d) = (cam.unproject(c), cam.forward());
            let (Some(ti), Some(tj)) = (entry(&bodies[i], o, d), entry(&bodies[j], o, d)) else {
                continue;
            };
            let (back, front) = if ti > tj { (i, j) } else { (j, i) };
            after[back].push(front);
            waiting[front] += 1;
        }
    }
    let key = |i: usize| Ready(cam.depth(&bodies[i].position), i);
    let mut ready: BinaryHeap<Ready> = (0..n).filter(|&i| waiting[i] == 0).map(key).collect();
    let mut done = vec![false; n];
    let mut order = Vec::with_capacity(n);
    while order.len() < n {
        let i = match ready.pop() {
            Some(Ready(_, i)) if done[i] => continue,
            Some(Ready(_, i)) => i,
            // A cycle: the farthest body left.
            None => (0..n).filter(|&i| !done[i]).map(key).max().unwrap().1,
        };
        done[i] = true;
        order.push(i);
        for &j in &after[i] {
            waiting[j] -= 1;
            if waiting[j] == 0 && !done[j] {
                ready.push(key(j));
            }
        }
    }
    order
}
