//! What the implicit stepper moves besides the world's rigid bodies: particles (the nodes
//! of deformable bodies), joints between bodies, distance constraints and tetrahedral
//! elements (Macklin et al. 2019 §3, §9).
//!
//! A [`Model`] is used beside a [`crate::world::World`]: the world keeps the rigid bodies,
//! their shapes, the ground and the collision detection; the model adds what a rigid-body
//! contact world has no place for. Bodies are named by [`Node`].

use nalgebra::{Matrix3, Vector3};

use super::neo_hookean::Tetrahedron;

/// Something that moves: a rigid body of the world (by index) or a particle of the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Node {
    /// Rigid body `i` of the world (its generalised velocity has 6 entries `[v, ω]`, its
    /// generalised position 7 `[x, Q]`). A fixed body has none.
    Body(usize),
    /// Particle `j` of the model (3 entries `v`, position `x`).
    Particle(usize),
}

/// A point attached to something: a node with a point in its frame, or a fixed point
/// of the world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Anchor {
    /// A fixed point of the world (m).
    World(Vector3<f64>),
    /// A point of a node: for a rigid body, in its body frame relative to the centre of
    /// mass (m); for a particle, ignored (the particle itself).
    On(Node, Vector3<f64>),
}

/// A point mass: a node of a deformable body, a bead of a rope.
#[derive(Debug, Clone, PartialEq)]
pub struct Particle {
    /// Position in m.
    pub position: Vector3<f64>,
    /// Velocity in m/s.
    pub velocity: Vector3<f64>,
    /// Mass in kg (`> 0`, finite).
    pub mass: f64,
    /// Contact radius in m (`>= 0`): the particle touches the ground when its centre is
    /// this close (the thickness `d` of Macklin et al. 2019 §3.3).
    pub radius: f64,
    /// Friction coefficient (`>= 0`) of the particle's contacts, with the ground and with
    /// rigid bodies.
    pub mu: f64,
}

/// A joint: bilateral constraints between two anchors (Macklin et al. 2019 §3.2, §9.4).
#[derive(Debug, Clone, PartialEq)]
pub enum Joint {
    /// A ball (spherical) joint: the two anchor points coincide (3 rows, m).
    Ball {
        /// The point on the first side.
        a: Anchor,
        /// The point on the second side.
        b: Anchor,
    },
    /// A hinge (revolute) joint: a ball joint plus two rows keeping the hinge axes
    /// parallel (rad), with an optional angle limit (unilateral rows, like contacts) and
    /// an optional compliant drive towards a target angle.
    Hinge(Hinge),
    /// A distance constraint `|p_b - p_a| = rest` with compliance `compliance` (m/N; 0 =
    /// rigid rod): ropes, cloth, and the spring of compliance form (§3.2).
    Distance {
        /// First end.
        a: Anchor,
        /// Second end.
        b: Anchor,
        /// Rest length in m (`> 0`).
        rest: f64,
        /// Compliance `α = 1/k` in m/N (`>= 0`).
        compliance: f64,
    },
}

impl Joint {
    /// The number of rows the joint adds to the Newton system ([`super::rows::evaluate`]):
    /// 3 for a ball joint, 1 for a distance constraint, 5 for a hinge plus 2 for its
    /// limit and 1 for its drive.
    pub fn row_count(&self) -> usize {
        match self {
            Joint::Ball { .. } => 3,
            Joint::Distance { .. } => 1,
            Joint::Hinge(h) => {
                5 + 2 * usize::from(h.limit.is_some()) + usize::from(h.drive.is_some())
            }
        }
    }
}

/// A hinge between body `a` (or the world) and body `b`.
#[derive(Debug, Clone, PartialEq)]
pub struct Hinge {
    /// The first side: `Some(i)` a rigid body, `None` the world.
    pub a: Option<usize>,
    /// The second side: a rigid body.
    pub b: usize,
    /// The pivot in `a`'s frame (world coordinates for the world), m.
    pub pivot_a: Vector3<f64>,
    /// The pivot in `b`'s frame, m.
    pub pivot_b: Vector3<f64>,
    /// The hinge axis in `a`'s frame (unit, normalised on construction).
    pub axis_a: Vector3<f64>,
    /// The hinge axis in `b`'s frame.
    pub axis_b: Vector3<f64>,
    /// A reference direction perpendicular to `axis_a` in `a`'s frame: the angle is
    /// measured from it, about the axis.
    pub reference_a: Vector3<f64>,
    /// The direction of `b` that points along `reference_a` at angle zero.
    pub reference_b: Vector3<f64>,
    /// `Some((lo, hi))`: the angle stays in `[lo, hi]` (rad), as unilateral rows.
    pub limit: Option<(f64, f64)>,
    /// `Some((target, compliance))`: a compliant row pulls the angle towards `target`
    /// (rad) with compliance in rad/(N m) (a motor's spring).
    pub drive: Option<(f64, f64)>,
}

impl Hinge {
    /// A hinge about `axis` (world frame) through the world point `pivot`, between
    /// `a` and `b` in their current poses (`poses[i]` = (position, rotation) of body i),
    /// at angle zero now, without limit or drive.
    pub fn at(
        a: Option<usize>,
        b: usize,
        pivot: Vector3<f64>,
        axis: Vector3<f64>,
        poses: &dyn Fn(usize) -> (Vector3<f64>, Matrix3<f64>),
    ) -> Hinge {
        let axis = axis.normalize();
        let reference = any_perpendicular(&axis);
        let local = |side: Option<usize>, v: Vector3<f64>, point: bool| match side {
            None => v,
            Some(i) => {
                let (x, r) = poses(i);
                if point {
                    r.transpose() * (v - x)
                } else {
                    r.transpose() * v
                }
            }
        };
        Hinge {
            a,
            b,
            pivot_a: local(a, pivot, true),
            pivot_b: local(Some(b), pivot, true),
            axis_a: local(a, axis, false),
            axis_b: local(Some(b), axis, false),
            reference_a: local(a, reference, false),
            reference_b: local(Some(b), reference, false),
            limit: None,
            drive: None,
        }
    }
}

/// A unit vector perpendicular to the unit vector `n`.
pub fn any_perpendicular(n: &Vector3<f64>) -> Vector3<f64> {
    let helper = if n.x.abs() < 0.9 {
        Vector3::x()
    } else {
        Vector3::y()
    };
    n.cross(&helper).normalize()
}

/// Particles, joints and elements beside a world's rigid bodies.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Model {
    /// The particles, numbered by [`Node::Particle`].
    pub particles: Vec<Particle>,
    /// The joints.
    pub joints: Vec<Joint>,
    /// The tetrahedral elements over particles (Neo-Hookean, in compliance form).
    pub tetrahedra: Vec<Tetrahedron>,
}

impl Model {
    /// Whether the model adds nothing to the world.
    pub fn is_empty(&self) -> bool {
        self.particles.is_empty() && self.joints.is_empty() && self.tetrahedra.is_empty()
    }

    /// The kinetic energy of the particles in J.
    pub fn kinetic_energy(&self) -> f64 {
        self.particles
            .iter()
            .map(|p| 0.5 * p.mass * p.velocity.norm_squared())
            .sum()
    }

    /// The potential energy of the particles in gravity `g` (m/s²) in J, zero at the
    /// origin; the elastic energy of the elements is not included.
    pub fn potential_energy(&self, g: &Vector3<f64>) -> f64 {
        self.particles
            .iter()
            .map(|p| -p.mass * g.dot(&p.position))
            .sum()
    }

    /// Checks the model against a world of `bodies` rigid bodies.
    ///
    /// # Errors
    /// A message naming the item: a particle with a non-finite state, a mass that is not
    /// finite and positive, a negative radius or friction coefficient; a joint or element
    /// naming a body or particle that does not exist; a distance constraint with a rest
    /// length that is not positive or a negative compliance; a hinge whose axes are zero,
    /// whose limit has `lo > hi` or whose drive compliance is negative; a non-finite
    /// number anywhere.
    pub fn validate(&self, bodies: usize) -> Result<(), String> {
        let finite = |v: &Vector3<f64>| v.iter().all(|x| x.is_finite());
        for (j, p) in self.particles.iter().enumerate() {
            if !finite(&p.position) || !finite(&p.velocity) {
                return Err(format!("particle {j}: position or velocity is not finite"));
            }
            if !(p.mass.is_finite() && p.mass > 0.0) {
                return Err(format!(
                    "particle {j}: mass must be finite and > 0, got {}",
                    p.mass
                ));
            }
            if !(p.radius.is_finite() && p.radius >= 0.0) {
                return Err(format!(
                    "particle {j}: radius must be finite and >= 0, got {}",
                    p.radius
                ));
            }
            if !(p.mu.is_finite() && p.mu >= 0.0) {
                return Err(format!(
                    "particle {j}: friction coefficient must be finite and >= 0, got {}",
                    p.mu
                ));
            }
        }
        let node = |n: &Node, what: &str| match n {
            Node::Body(i) if *i >= bodies => {
                Err(format!("{what}: body {i} does not exist ({bodies} bodies)"))
            }
            Node::Particle(j) if *j >= self.particles.len() => Err(format!(
                "{what}: particle {j} does not exist ({} particles)",
                self.particles.len()
            )),
            _ => Ok(()),
        };
        let anchor = |a: &Anchor, what: &str| match a {
            Anchor::World(p) if !finite(p) => Err(format!("{what}: a world point is not finite")),
            Anchor::On(n, p) => {
                node(n, what)?;
                if finite(p) {
                    Ok(())
                } else {
                    Err(format!("{what}: an anchor point is not finite"))
                }
            }
            _ => Ok(()),
        };
        for (k, joint) in self.joints.iter().enumerate() {
            let what = format!("joint {k}");
            match joint {
                Joint::Ball { a, b } => {
                    anchor(a, &what)?;
                    anchor(b, &what)?;
                }
                Joint::Distance {
                    a,
                    b,
                    rest,
                    compliance,
                } => {
                    anchor(a, &what)?;
                    anchor(b, &what)?;
                    if !(rest.is_finite() && *rest > 0.0) {
                        return Err(format!(
                            "{what}: rest length must be finite and > 0, got {rest}"
                        ));
                    }
                    if !(compliance.is_finite() && *compliance >= 0.0) {
                        return Err(format!(
                            "{what}: compliance must be finite and >= 0, got {compliance}"
                        ));
                    }
                }
                Joint::Hinge(h) => {
                    if let Some(a) = h.a {
                        node(&Node::Body(a), &what)?;
                    }
                    node(&Node::Body(h.b), &what)?;
                    for v in [
                        h.pivot_a,
                        h.pivot_b,
                        h.axis_a,
                        h.axis_b,
                        h.reference_a,
                        h.reference_b,
                    ] {
                        if !finite(&v) {
                            return Err(format!("{what}: a hinge vector is not finite"));
                        }
                    }
                    if h.axis_a.norm() < 1e-12 || h.axis_b.norm() < 1e-12 {
                        return Err(format!("{what}: a hinge axis is zero"));
                    }
                    if let Some((lo, hi)) = h.limit {
                        if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
                            return Err(format!(
                                "{what}: the limit must be finite with lo <= hi, got [{lo}, {hi}]"
                            ));
                        }
                    }
                    if let Some((target, c)) = h.drive {
                        if !(target.is_finite() && c.is_finite() && c >= 0.0) {
                            return Err(format!(
                                "{what}: the drive needs a finite target and a compliance >= 0, got ({target}, {c})"
                            ));
                        }
                    }
                }
            }
        }
        for (k, t) in self.tetrahedra.iter().enumerate() {
            for &j in &t.nodes {
                node(&Node::Particle(j), &format!("tetrahedron {k}"))?;
            }
        }
        Ok(())
    }

    /// Whether bodies `i` and `j` are joined (their contacts are ignored: a joint's
    /// bodies touch at the joint by construction).
    pub fn joined(&self, i: usize, j: usize) -> bool {
        self.joints.iter().any(|joint| {
            let (a, b) = match joint {
                Joint::Ball { a, b } | Joint::Distance { a, b, .. } => {
                    (anchor_body(a), anchor_body(b))
                }
                Joint::Hinge(h) => (h.a, Some(h.b)),
            };
            (a == Some(i) && b == Some(j)) || (a == Some(j) && b == Some(i))
        })
    }
}

fn anchor_body(a: &Anchor) -> Option<usize> {
    match a {
        Anchor::On(Node::Body(i), _) => Some(*i),
        _ => None,
    }
}
