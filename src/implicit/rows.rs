//! The constraint rows at a Newton iterate: their values `C(q(u))` and their Jacobians
//! `∂C/∂q G` with respect to `u` (Macklin et al. 2019 §3, §5; NOTES 2.2, 2.5).
//!
//! Every row is a scalar function of positions (or, for friction, of velocities) and a
//! sparse row of `J`. The rows are of three kinds, which the Newton system treats
//! differently ([`super::system`]):
//! * **bilateral** `C_b(q) + α λ_b = 0`: joints (ball: 3 rows, hinge: 5), distance
//!   constraints, hinge drives and the rows of hyperelastic elements (compliance `α >= 0`);
//! * **unilateral** `0 <= C(q) ⊥ λ >= 0`: contact normals `C_n = n^T (p_b - p_a) - d`
//!   between core points, evaluated at the iterate's positions `q(u)` (normal fixed in the
//!   world over the step, §3.3; [`contact_row`]), and hinge limits;
//! * **friction**: two rows per contact, `D^T u`, the tangential relative velocity, with
//!   the lever arms of the start of the step.
//!
//! For a point `p = x + R r` of a rigid body, `n^T ṗ = [n^T, (r × n)^T] [v; ω]`; for a
//! particle, `n^T v`. Position rows take the derivative through `Q(u) = exp(h ω) Q⁻`
//! exactly: their angular entries are mapped by [`Dofs::angular_map`].

use nalgebra::{DVector, Vector3};

use super::model::{Anchor, Joint, Model, Node, any_perpendicular};
use super::state::Dofs;
use crate::multibody::tangent_basis;

/// A point contact of the step between two anchors, normal from `a` to `b`.
///
/// The anchors are points of the bodies' *core* shapes: the point itself for a box or a
/// particle, the centre of a sphere, the nearest point of a capsule's segment. A round
/// surface keeps its distance `radius` from the core along the contact's normal, so the
/// gap of the step's positions `q` is `C_n(q) = n^T (p_b(q) - p_a(q)) - d` with
/// `d = thickness` holding both radii: a sphere spinning in place keeps its gap, as its
/// surface does (Macklin et al. 2019 §3.3).
#[derive(Debug, Clone, PartialEq)]
pub struct PointContact {
    /// The core point on the first side.
    pub a: Anchor,
    /// The core point on the second side.
    pub b: Anchor,
    /// The unit normal from `a` to `b`, fixed in the world over the step.
    pub normal: Vector3<f64>,
    /// The thickness `d` (m): the contact is closed at `n^T (p_b - p_a) = d`.
    pub thickness: f64,
    /// The friction coefficient `μ >= 0`.
    pub mu: f64,
    /// The distance (m, `>= 0`) from `a`'s core point to its surface, along `+normal`:
    /// the lever of `a`'s friction force ends on the surface.
    pub radius_a: f64,
    /// The distance (m, `>= 0`) from `b`'s core point to its surface, along `-normal`.
    pub radius_b: f64,
}

/// What a row is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RowKind {
    /// `C + α λ = 0`, `α` the compliance (0: hard).
    Bilateral {
        /// Compliance in the row's units per N.
        compliance: f64,
    },
    /// `0 <= C ⊥ λ >= 0`; `contact` is the index of the contact it closes, if any.
    Unilateral {
        /// The contact, for its friction rows.
        contact: Option<usize>,
    },
    /// One tangential row of contact `contact` (`axis` 0 or 1), whose normal row is
    /// `normal_row`.
    Friction {
        /// The contact.
        contact: usize,
        /// The index of its normal row.
        normal_row: usize,
        /// Its friction coefficient.
        mu: f64,
    },
}

/// One row: its kind, its value (`C(q)` or, for friction, `D^T u`) and its sparse
/// Jacobian `(column, entry)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The kind.
    pub kind: RowKind,
    /// `C(q(u))` (m, rad or dimensionless) or `D^T u` (m/s).
    pub value: f64,
    /// The nonzeros of the row of `J`.
    pub jacobian: Vec<(usize, f64)>,
}

/// The rows of `model` and `contacts` at velocity `u` (length `dofs.n`), in a fixed
/// order: joints, contacts (normal, then its two friction rows), elements.
///
/// Assumes a model that validated against the world `dofs` was built from
/// ([`super::Model::validate`], which [`super::step::step`] calls); an index out of range
/// panics here.
pub fn evaluate(
    dofs: &Dofs,
    model: &Model,
    contacts: &[PointContact],
    u: &DVector<f64>,
) -> Vec<Row> {
    let mut rows = Vec::new();
    for joint in &model.joints {
        joint_rows(dofs, joint, u, &mut rows);
    }
    // The friction rows' levers end on the surfaces at the start of the step (friction
    // is a velocity-level law, §4); the normal rows are gaps at `q(u)`.
    let start = if contacts.is_empty() {
        DVector::zeros(0)
    } else {
        DVector::zeros(dofs.n)
    };
    for (c, contact) in contacts.iter().enumerate() {
        let normal_row = rows.len();
        let mut row = contact_row(dofs, contact, u);
        row.kind = RowKind::Unilateral { contact: Some(c) };
        rows.push(row);
        let (t1, t2) = tangent_basis(&contact.normal);
        let offset_a = contact.normal * contact.radius_a;
        let offset_b = -contact.normal * contact.radius_b;
        for t in [t1, t2] {
            let mut jacobian = Vec::with_capacity(12);
            push_point(dofs, &contact.b, &offset_b, &t, 1.0, &start, &mut jacobian);
            push_point(dofs, &contact.a, &offset_a, &t, -1.0, &start, &mut jacobian);
            rows.push(Row {
                kind: RowKind::Friction {
                    contact: c,
                    normal_row,
                    mu: contact.mu,
                },
                value: jacobian.iter().map(|&(k, v)| v * u[k]).sum(),
                jacobian,
            });
        }
    }
    for tet in &model.tetrahedra {
        let x = tet.nodes.map(|j| dofs.pose(Node::Particle(j), u).0);
        for r in tet.rows(&x) {
            let mut jacobian = Vec::with_capacity(12);
            for (k, &j) in tet.nodes.iter().enumerate() {
                let o = dofs.particle_offset[j];
                for d in 0..3 {
                    jacobian.push((o + d, r.gradient[k][d]));
                }
            }
            rows.push(Row {
                kind: RowKind::Bilateral {
                    compliance: r.compliance,
                },
                value: r.value,
                jacobian,
            });
        }
    }
    rows
}

// ANCHOR: contact_row
/// The normal row of `contact` at velocity `u`: the gap at the positions `q(u)`,
/// `C_n = n^T (p_b(q(u)) - p_a(q(u))) - d` (m), and its Jacobian `∂C_n/∂u / h`, both
/// evaluated at `q(u)` (Macklin et al. 2019 §3.3). The normal `n` is fixed over the step;
/// the core points move with their bodies, so a box's corner follows the box's turn and
/// a sphere's centre does not care how it spins.
pub fn contact_row(dofs: &Dofs, contact: &PointContact, u: &DVector<f64>) -> Row {
    let (mut row, _) = directional(dofs, &contact.a, &contact.b, &contact.normal, u);
    row.value -= contact.thickness;
    row
}
// ANCHOR_END: contact_row

/// `n^T (p_b - p_a)` and its Jacobian `∂/∂u / h` at `u`; also returns `p_b - p_a`.
fn directional(
    dofs: &Dofs,
    a: &Anchor,
    b: &Anchor,
    n: &Vector3<f64>,
    u: &DVector<f64>,
) -> (Row, Vector3<f64>) {
    let (pa, _) = dofs.point(a, u);
    let (pb, _) = dofs.point(b, u);
    let mut jacobian = Vec::with_capacity(12);
    let zero = Vector3::zeros();
    push_point(dofs, b, &zero, n, 1.0, u, &mut jacobian);
    push_point(dofs, a, &zero, n, -1.0, u, &mut jacobian);
    let d = pb - pa;
    (
        Row {
            kind: RowKind::Bilateral { compliance: 0.0 },
            value: n.dot(&d),
            jacobian,
        },
        d,
    )
}

/// Pushes `sign ∂(n^T (p + offset))/∂u / h` for the point `p` of `anchor` at `u`, with
/// `offset` a world vector that does not turn with the body. For a rigid body the
/// angular entries are `J_l(h ω)^T (r × n)`, `r` the lever at `q(u)`: the exact
/// derivative through `Q(u) = exp(h ω) Q⁻` ([`Dofs::angular_map`]).
fn push_point(
    dofs: &Dofs,
    anchor: &Anchor,
    offset: &Vector3<f64>,
    n: &Vector3<f64>,
    sign: f64,
    u: &DVector<f64>,
    out: &mut Vec<(usize, f64)>,
) {
    let Anchor::On(node, _) = anchor else { return };
    let Some((o, rotates)) = dofs.offset(*node) else {
        return;
    };
    for k in 0..3 {
        out.push((o + k, sign * n[k]));
    }
    if rotates {
        let lever = dofs.point(anchor, u).1 + offset;
        let rn = dofs.angular_map(o, u) * lever.cross(n);
        for k in 0..3 {
            out.push((o + 3 + k, sign * rn[k]));
        }
    }
}

/// Angular row `w_b^T ω_b - w_a^T ω_a` style entries: `coef_a` on body `a`'s `ω`,
/// `coef_b` on `b`'s (spatial derivatives, mapped by [`Dofs::angular_map`]).
fn angular(
    dofs: &Dofs,
    u: &DVector<f64>,
    a: Option<usize>,
    b: usize,
    coef_a: Vector3<f64>,
    coef_b: Vector3<f64>,
) -> Vec<(usize, f64)> {
    let mut out = Vec::with_capacity(6);
    for (body, c) in [(a, coef_a), (Some(b), coef_b)] {
        if let Some((o, true)) = body.and_then(|i| dofs.offset(Node::Body(i))) {
            let c = dofs.angular_map(o, u) * c;
            for k in 0..3 {
                out.push((o + 3 + k, c[k]));
            }
        }
    }
    out
}

fn joint_rows(dofs: &Dofs, joint: &Joint, u: &DVector<f64>, rows: &mut Vec<Row>) {
    let ball = |a: &Anchor, b: &Anchor, rows: &mut Vec<Row>| {
        for e in [Vector3::x(), Vector3::y(), Vector3::z()] {
            rows.push(directional(dofs, a, b, &e, u).0);
        }
    };
    match joint {
        Joint::Ball { a, b } => ball(a, b, rows),
        Joint::Distance {
            a,
            b,
            rest,
            compliance,
        } => {
            let (_, d) = directional(dofs, a, b, &Vector3::x(), u);
            let len = d.norm();
            let n = if len > 0.0 { d / len } else { Vector3::z() };
            let (mut row, _) = directional(dofs, a, b, &n, u);
            row.value = len - rest;
            row.kind = RowKind::Bilateral {
                compliance: *compliance,
            };
            rows.push(row);
        }
        Joint::Hinge(h) => {
            let anchor = |side: Option<usize>, p| match side {
                None => Anchor::World(p),
                Some(i) => Anchor::On(Node::Body(i), p),
            };
            ball(&anchor(h.a, h.pivot_a), &anchor(Some(h.b), h.pivot_b), rows);
            let ra = dofs.rotation(h.a, u);
            let rb = dofs.rotation(Some(h.b), u);
            let axis_a = ra * h.axis_a;
            let axis_b = rb * h.axis_b;
            // Two directions fixed in a's frame, perpendicular to its axis: the rows
            // p_k^T axis_b = 0 keep the axes parallel; d(p^T b) = ω_a^T (p x b) + ω_b^T (b x p).
            let p1 = ra * any_perpendicular(&h.axis_a);
            let p2 = axis_a.cross(&p1);
            for p in [p1, p2] {
                rows.push(Row {
                    kind: RowKind::Bilateral { compliance: 0.0 },
                    value: p.dot(&axis_b),
                    jacobian: angular(dofs, u, h.a, h.b, p.cross(&axis_b), axis_b.cross(&p)),
                });
            }
            if h.limit.is_none() && h.drive.is_none() {
                return;
            }
            // The angle about a's axis from a's reference to b's, θ = atan2(s, c) with
            // s = (ref_a × ref_b)·axis_a, c = ref_a·ref_b, and its exact derivative under
            // turns ε_a, ε_b of the two bodies (dθ = (c ds - s dc) / (s² + c²)); it is
            // a^T (ε_b - ε_a) when the axes are parallel.
            let (ref_a, ref_b) = (ra * h.reference_a, rb * h.reference_b);
            let cross = ref_a.cross(&ref_b);
            let (sn, cs) = (cross.dot(&axis_a), ref_a.dot(&ref_b));
            let theta = sn.atan2(cs);
            let norm2 = sn * sn + cs * cs;
            let ds_a = ref_a.cross(&ref_b.cross(&axis_a)) + axis_a.cross(&cross);
            let grad_a = (ds_a * cs - cross * sn) / norm2;
            let ds_b = axis_a * cs - ref_a * axis_a.dot(&ref_b);
            let grad_b = (ds_b * cs + cross * sn) / norm2;
            let d_theta = |sign: f64| angular(dofs, u, h.a, h.b, grad_a * sign, grad_b * sign);
            if let Some((lo, hi)) = h.limit {
                rows.push(Row {
                    kind: RowKind::Unilateral { contact: None },
                    value: theta - lo,
                    jacobian: d_theta(1.0),
                });
                rows.push(Row {
                    kind: RowKind::Unilateral { contact: None },
                    value: hi - theta,
                    jacobian: d_theta(-1.0),
                });
            }
            if let Some((target, compliance)) = h.drive {
                let e = (theta - target + std::f64::consts::PI)
                    .rem_euclid(2.0 * std::f64::consts::PI)
                    - std::f64::consts::PI;
                rows.push(Row {
                    kind: RowKind::Bilateral { compliance },
                    value: e,
                    jacobian: d_theta(1.0),
                });
            }
        }
    }
}
