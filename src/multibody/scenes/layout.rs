//! Layouts of boxes in courses and how a layout becomes a [`Scene`]: a [`Piece`] per box,
//! [`course`] for a row of boxes, and [`finish`], which adds the vertical and side
//! contacts (four per touching pair of faces, at the corners of their overlap), merging
//! each course against the one below like sorted lists.

use nalgebra::Vector3;

use super::super::MultibodyError;
use super::super::body::RigidBody;
use super::super::contact::{BodyRef, Contact};
use super::params::{Ground, SceneParams};
use super::scene::Scene;

/// One box of a layout.
#[derive(Debug, Clone, Copy)]
pub(super) struct Piece {
    pub(super) center: Vector3<f64>,
    pub(super) half: Vector3<f64>,
    pub(super) density: f64,
}

impl Piece {
    fn lo(&self) -> Vector3<f64> {
        self.center - self.half
    }
    fn hi(&self) -> Vector3<f64> {
        self.center + self.half
    }
}

/// The four corners (counter-clockwise) of the rectangle `[lo, hi]` spanned by the axes
/// `u` and `v`, at coordinate `w` on the third axis.
fn corners(
    axes: (usize, usize, usize),
    lo: (f64, f64),
    hi: (f64, f64),
    w: f64,
) -> [Vector3<f64>; 4] {
    let (u, v, n) = axes;
    let mk = |a: f64, b: f64| {
        let mut p = Vector3::zeros();
        p[u] = a;
        p[v] = b;
        p[n] = w;
        p
    };
    [
        mk(lo.0, lo.1),
        mk(hi.0, lo.1),
        mk(hi.0, hi.1),
        mk(lo.0, hi.1),
    ]
}

/// Builds a scene from courses of pieces (each sorted by `x`, each course resting on
/// the one below), adding vertical and side contacts.
pub(super) fn finish(
    name: String,
    what: String,
    courses: Vec<Vec<Piece>>,
    p: &SceneParams,
) -> Result<Scene, MultibodyError> {
    let count: usize = courses.iter().map(Vec::len).sum();
    let mut bodies = Vec::with_capacity(count + 1);
    let mut halves = Vec::with_capacity(count + 1);
    let scale = p.half_extents.amax();
    let tol = 1e-9 * scale;

    let ground = match p.ground {
        Ground::World => BodyRef::World,
        Ground::FixedBody => {
            let mut lo = Vector3::repeat(f64::INFINITY);
            let mut hi = Vector3::repeat(f64::NEG_INFINITY);
            for piece in courses.iter().flatten() {
                lo = lo.inf(&piece.lo());
                hi = hi.sup(&piece.hi());
            }
            let margin = p.half_extents * 2.0;
            let half = Vector3::new(
                0.5 * (hi.x - lo.x) + margin.x,
                0.5 * (hi.y - lo.y) + margin.y,
                p.half_extents.z,
            );
            let center = Vector3::new(0.5 * (hi.x + lo.x), 0.5 * (hi.y + lo.y), -half.z);
            bodies.push(RigidBody::solid_box(half, p.density, center)?.into_fixed());
            halves.push(half);
            BodyRef::Body(0)
        }
    };
    let first = bodies.len();
    let mut contacts = Vec::with_capacity(8 * count);
    let mut below_start = first;
    for (r, course) in courses.iter().enumerate() {
        let start = bodies.len();
        for piece in course {
            bodies.push(RigidBody::solid_box(
                piece.half,
                piece.density,
                piece.center,
            )?);
            halves.push(piece.half);
        }
        // Vertical contacts: with the ground, or merged against the course below.
        let below: &[Piece] = if r == 0 { &[] } else { &courses[r - 1] };
        let mut j0 = 0;
        for (i, piece) in course.iter().enumerate() {
            let (lo, hi) = (piece.lo(), piece.hi());
            let body = start + i;
            if r == 0 {
                for pt in corners((0, 1, 2), (lo.x, lo.y), (hi.x, hi.y), lo.z) {
                    contacts.push(Contact::new(ground, body, pt, Vector3::z(), p.mu)?);
                }
            } else {
                while j0 < below.len() && below[j0].hi().x <= lo.x + tol {
                    j0 += 1;
                }
                let mut j = j0;
                while j < below.len() && below[j].lo().x < hi.x - tol {
                    let (blo, bhi) = (below[j].lo(), below[j].hi());
                    let x = (lo.x.max(blo.x), hi.x.min(bhi.x));
                    let y = (lo.y.max(blo.y), hi.y.min(bhi.y));
                    if x.1 - x.0 > tol && y.1 - y.0 > tol {
                        for pt in corners((0, 1, 2), (x.0, y.0), (x.1, y.1), bhi.z) {
                            contacts.push(Contact::new(
                                BodyRef::Body(below_start + j),
                                body,
                                pt,
                                Vector3::z(),
                                p.mu,
                            )?);
                        }
                    }
                    j += 1;
                }
            }
            // Side contact with the left neighbour when the faces touch.
            if i > 0 {
                let left = &course[i - 1];
                let (llo, lhi) = (left.lo(), left.hi());
                if (lo.x - lhi.x).abs() <= tol {
                    let y = (lo.y.max(llo.y), hi.y.min(lhi.y));
                    let z = (lo.z.max(llo.z), hi.z.min(lhi.z));
                    if y.1 - y.0 > tol && z.1 - z.0 > tol {
                        for pt in corners((1, 2, 0), (y.0, z.0), (y.1, z.1), lhi.x) {
                            contacts.push(Contact::new(
                                BodyRef::Body(body - 1),
                                body,
                                pt,
                                Vector3::x(),
                                p.mu,
                            )?);
                        }
                    }
                }
            }
        }
        below_start = start;
    }
    Ok(Scene {
        name,
        description: format!("{what}; {}", p.describe()),
        bodies,
        half_extents: halves,
        contacts,
        step: p.step.clone(),
    })
}

/// A course of `count` boxes of half extents `half`, left face of the first at `x0`, the
/// bottom at `z0`, spaced by `gap`.
pub(super) fn course(
    count: usize,
    half: Vector3<f64>,
    x0: f64,
    z0: f64,
    p: &SceneParams,
) -> Vec<Piece> {
    let pitch = 2.0 * half.x + p.gap;
    (0..count)
        .map(|i| Piece {
            center: Vector3::new(x0 + half.x + i as f64 * pitch, 0.0, z0 + half.z),
            half,
            density: p.density,
        })
        .collect()
}

pub(super) fn need_positive(what: &str, n: usize) -> Result<(), MultibodyError> {
    if n == 0 {
        Err(MultibodyError::InvalidScene {
            reason: format!("{what} must be at least 1"),
        })
    } else {
        Ok(())
    }
}
