//! Generated scenes of resting boxes with analytic contacts (no collision detection).
//!
//! Every scene is built from *courses*: horizontal layers of axis-aligned boxes resting
//! on the layer below (the first on the ground). Where two box faces touch, the scene
//! has four contacts, one at each corner of the rectangle where the faces overlap, with
//! the normal pointing from the lower (or left) box to the upper (or right) one:
//!
//! * **vertical**: a box on the ground or on a box of the course below, normal `+z`;
//! * **side**: neighbours in a course whose faces touch, normal `+x`. They touch when
//!   [`SceneParams::gap`] is 0 (the default); with a positive gap they do not and get
//!   no contacts.
//!
//! Generation is linear in the number of boxes (courses are merged like sorted lists).
//! Coordinates: `z` up, courses along `x`, scenes one box deep in `y` and centred on
//! `y = 0`, the ground's top face at `z = 0`, the first box's left face at `x = 0`.
//!
//! | scene | what | contacts (gap 0) | source |
//! |---|---|---|---|
//! | [`box_stack`] | `n` cubes in a column | `4n` | Erleben 2007 §5 (stacking) |
//! | [`heavy_on_light`] | a heavy cube on a light cube on the ground | `8` | Silcowitz et al. 2009 (large mass ratio) |
//! | [`wall`] | bricks in running bond, courses offset by half a brick | `4c + 8c(r-1) + 4(e(c-1) + o c)` | Erleben 2007 §5 (dense structured stacking) |
//! | [`pyramid`] | courses shrinking by one, each box on two below | `4b + 4b(b-1) + 2b(b-1)` | Erleben 2007 §5 |
//!
//! (`r` rows, `c` columns, `e`/`o` the number of even/odd courses, `b` the base.)
//! Every box starts at rest. The defaults: 0.1 m cubes (or 0.2 x 0.1 x 0.05 m bricks)
//! of density 1000 kg/m^3 (so 1 kg each), `mu = 0.5`, `dt = 0.01` s, gravity
//! `-9.81` m/s^2 along `z`, the ground as [`BodyRef::World`]; see [`SceneParams`].
//! [`SceneSpec::for_contacts`] picks the size of a scene for a target number of contacts.

use std::collections::BTreeMap;

use nalgebra::Vector3;

use super::assembly::{Assembly, StepParams};
use super::body::RigidBody;
use super::contact::{BodyRef, Contact};
use super::{MultibodyError, check_finite, check_positive};
use crate::io::Provenance;
use crate::problem::{FrictionContact, GlobalFrictionContact};

/// How the ground is represented.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Ground {
    /// The static world ([`BodyRef::World`]): no body, contacts have one side.
    #[default]
    World,
    /// A fixed box (body 0) under the whole scene, its top face at `z = 0`, reaching
    /// one box size beyond the scene on every side, as thick as one box is high.
    FixedBody,
}

/// The parameters of a generated scene.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneParams {
    /// Half extents `(a, b, c)` of one box, in m, along `x` (the course), `y` (depth)
    /// and `z` (height). Half bricks in a wall are half as long.
    pub half_extents: Vector3<f64>,
    /// Density in kg/m^3 (for [`heavy_on_light`], of the light box).
    pub density: f64,
    /// Friction coefficient of every contact (`>= 0`).
    pub mu: f64,
    /// Horizontal gap in m between neighbours in a course (`>= 0`, less than a box's
    /// length). 0 makes their faces touch, which adds side contacts.
    pub gap: f64,
    /// The ground.
    pub ground: Ground,
    /// Time step, gravity and friction law.
    pub step: StepParams,
}

impl Default for SceneParams {
    /// [`SceneParams::cubes`].
    fn default() -> Self {
        SceneParams::cubes()
    }
}

impl SceneParams {
    /// 0.1 m cubes (half extents 0.05 m) of density 1000 kg/m^3 (1 kg each), `mu = 0.5`,
    /// no gap, ground as the world, default [`StepParams`] (`dt = 0.01` s, gravity
    /// `(0, 0, -9.81)` m/s^2, Coulomb).
    pub fn cubes() -> Self {
        SceneParams {
            half_extents: Vector3::new(0.05, 0.05, 0.05),
            density: 1000.0,
            mu: 0.5,
            gap: 0.0,
            ground: Ground::World,
            step: StepParams::default(),
        }
    }

    /// As [`SceneParams::cubes`] but with 0.2 x 0.1 x 0.05 m bricks (half extents
    /// `(0.1, 0.05, 0.025)` m), also 1 kg each.
    pub fn bricks() -> Self {
        SceneParams {
            half_extents: Vector3::new(0.1, 0.05, 0.025),
            ..SceneParams::cubes()
        }
    }

    /// Checks the parameters.
    ///
    /// # Errors
    /// [`MultibodyError::NonPositive`] for a half extent or density `<= 0`,
    /// [`MultibodyError::NegativeFriction`] for `mu < 0`, [`MultibodyError::InvalidScene`]
    /// for a negative gap or one of a box length or more, [`MultibodyError::NonFinite`],
    /// and the errors of [`StepParams::validate`].
    pub fn validate(&self) -> Result<(), MultibodyError> {
        for &h in self.half_extents.iter() {
            check_positive("box half extent", h)?;
        }
        check_positive("density", self.density)?;
        check_finite("friction coefficient", &[self.mu, self.gap])?;
        if self.mu < 0.0 {
            return Err(MultibodyError::NegativeFriction {
                contact: None,
                mu: self.mu,
            });
        }
        if !(self.gap >= 0.0 && self.gap < 2.0 * self.half_extents.x) {
            return Err(MultibodyError::InvalidScene {
                reason: format!(
                    "the gap {} m must be >= 0 and less than a box length {} m",
                    self.gap,
                    2.0 * self.half_extents.x
                ),
            });
        }
        self.step.validate()
    }

    fn describe(&self) -> String {
        let h = &self.half_extents;
        let g = &self.step.gravity;
        format!(
            "box half extents ({}, {}, {}) m, density {} kg/m^3, mu {}, gap {} m, ground {}, \
             dt {} s, gravity ({}, {}, {}) m/s^2, law {}; all bodies at rest",
            h.x,
            h.y,
            h.z,
            self.density,
            self.mu,
            self.gap,
            match self.ground {
                Ground::World => "world",
                Ground::FixedBody => "fixed body 0",
            },
            self.step.dt,
            g.x,
            g.y,
            g.z,
            self.step.kind
        )
    }
}

/// A multibody scene: bodies, their box shapes, contacts and the step parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// A short name, for example `"box_stack_5"`.
    pub name: String,
    /// What the scene is and its parameters, in words (with units).
    pub description: String,
    /// The bodies (a fixed ground, if any, is body 0).
    pub bodies: Vec<RigidBody>,
    /// The half extents (m) of each body's box, in its body frame (same order as
    /// `bodies`).
    pub half_extents: Vec<Vector3<f64>>,
    /// The contacts.
    pub contacts: Vec<Contact>,
    /// Time step, gravity, friction law.
    pub step: StepParams,
}

impl Scene {
    /// Assembles `J`, `M`, `f_ext`, ... ([`Assembly::new`]).
    ///
    /// # Errors
    /// As [`Assembly::new`].
    pub fn assemble(&self) -> Result<Assembly, MultibodyError> {
        Assembly::new(&self.bodies, &self.contacts, &self.step)
    }

    /// The same scene with torsional friction coefficient `mu_tau` (m) on every contact
    /// ([`Contact::with_torsion`]), for Coulomb-Contensou problems with a fourth row per
    /// contact ([`Assembly::torsion_jacobian`]).
    ///
    /// # Errors
    /// As [`Contact::with_torsion`].
    pub fn with_torsion(mut self, mu_tau: f64) -> Result<Scene, MultibodyError> {
        for c in &mut self.contacts {
            *c = c.clone().with_torsion(mu_tau)?;
        }
        self.description = format!("{}; torsional friction mu_tau {mu_tau} m", self.description);
        Ok(self)
    }

    /// The local problem `u = W r + q` ([`Assembly::local`]).
    ///
    /// # Errors
    /// As [`Assembly::new`] and [`Assembly::local`].
    pub fn local_problem(&self) -> Result<FrictionContact, MultibodyError> {
        self.assemble()?.local()
    }

    /// The global problem `M v = q + H r`, `u = H^T v + b` ([`Assembly::global`]).
    ///
    /// # Errors
    /// As [`Assembly::new`] and [`Assembly::global`].
    pub fn global_problem(&self) -> Result<GlobalFrictionContact, MultibodyError> {
        self.assemble()?.global()
    }

    /// The provenance to store with a problem made from this scene (source
    /// `"nonsmooth::multibody"`, the description, and the units of `r`, `u`, `W`, `q`
    /// for the local problem or `M`, `H`, `q`, `v`, `b` for the global one).
    pub fn provenance(&self, global: bool) -> Provenance {
        let mut units = BTreeMap::new();
        units.insert("r".to_string(), "N s".to_string());
        units.insert("u".to_string(), "m/s".to_string());
        units.insert("mu".to_string(), "1".to_string());
        if global {
            units.insert("M".to_string(), "kg (linear), kg m^2 (angular)".to_string());
            units.insert("H".to_string(), "1 (linear), m (angular)".to_string());
            units.insert("q".to_string(), "N s (linear), N m s (angular)".to_string());
            units.insert("v".to_string(), "m/s (linear), rad/s (angular)".to_string());
            units.insert("b".to_string(), "m/s".to_string());
        } else {
            units.insert("W".to_string(), "m/(N s^2) = 1/kg".to_string());
            units.insert("q".to_string(), "m/s".to_string());
        }
        Provenance {
            source: "nonsmooth::multibody".to_string(),
            description: format!(
                "{}. Contact rows [n, t1, t2], normal from the lower (left) body to the \
                 upper (right) one, positive normal velocity separates; ground at z = 0, \
                 z up. Generalised velocity [v, omega] per non-fixed body.",
                self.description
            ),
            units,
        }
    }
}

/// One box of a layout.
#[derive(Debug, Clone, Copy)]
struct Piece {
    center: Vector3<f64>,
    half: Vector3<f64>,
    density: f64,
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
fn finish(
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
fn course(count: usize, half: Vector3<f64>, x0: f64, z0: f64, p: &SceneParams) -> Vec<Piece> {
    let pitch = 2.0 * half.x + p.gap;
    (0..count)
        .map(|i| Piece {
            center: Vector3::new(x0 + half.x + i as f64 * pitch, 0.0, z0 + half.z),
            half,
            density: p.density,
        })
        .collect()
}

fn need_positive(what: &str, n: usize) -> Result<(), MultibodyError> {
    if n == 0 {
        Err(MultibodyError::InvalidScene {
            reason: format!("{what} must be at least 1"),
        })
    } else {
        Ok(())
    }
}

/// The largest scene the generators build: at most this many contacts (one million).
/// A scene of `nc` contacts needs about 1 KB per contact while it is assembled (bodies,
/// Jacobian, `W`), so the cap keeps a generated scene within a few GB; a size read from a
/// command line or a file can never make a generator allocate without bound.
pub const MAX_SCENE_CONTACTS: usize = 1_000_000;

/// Fails unless `spec` has at most [`MAX_SCENE_CONTACTS`] contacts.
fn check_size(spec: SceneSpec, p: &SceneParams) -> Result<(), MultibodyError> {
    let count = spec.contact_count(p);
    if count > MAX_SCENE_CONTACTS {
        let size = match spec {
            SceneSpec::BoxStack { n } => format!("a stack of {n} boxes"),
            SceneSpec::Wall { rows, cols } => format!("a wall of {rows} x {cols} bricks"),
            SceneSpec::Pyramid { base } => format!("a pyramid of base {base}"),
        };
        let count = if count == usize::MAX {
            "more than 2^64".to_string()
        } else {
            count.to_string()
        };
        return Err(MultibodyError::InvalidScene {
            reason: format!(
                "{size} would have {count} contacts; the generators build at most \
                 {MAX_SCENE_CONTACTS}"
            ),
        });
    }
    Ok(())
}

/// A column of `n` boxes on the ground, default parameters ([`SceneParams::cubes`]).
/// `4n` contacts.
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `n = 0`.
pub fn box_stack(n: usize) -> Result<Scene, MultibodyError> {
    box_stack_with(n, &SceneParams::cubes())
}

/// A column of `n` boxes on the ground with parameters `p`. Body `i` (after the ground,
/// if it is a body) is the `i`-th from the bottom; contacts `4i..4i+4` are under it.
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `n = 0`, and [`SceneParams::validate`].
pub fn box_stack_with(n: usize, p: &SceneParams) -> Result<Scene, MultibodyError> {
    p.validate()?;
    need_positive("the number of boxes", n)?;
    check_size(SceneSpec::BoxStack { n }, p)?;
    let h = p.half_extents;
    let courses = (0..n)
        .map(|k| course(1, h, 0.0, 2.0 * h.z * k as f64, p))
        .collect();
    finish(
        format!("box_stack_{n}"),
        format!("a stack of {n} boxes resting on the ground"),
        courses,
        p,
    )
}

/// A heavy box on a light box on the ground; the top box is `mass_ratio` times as dense
/// as the bottom one (same size). Default parameters ([`SceneParams::cubes`]: a 1 kg
/// box under a `mass_ratio` kg box). 1000 is the reference case (Silcowitz et al. 2009
/// use large mass ratios to defeat splitting methods). 8 contacts.
///
/// # Errors
/// [`MultibodyError::NonPositive`] or [`MultibodyError::NonFinite`] for a ratio that is
/// not a positive number.
pub fn heavy_on_light(mass_ratio: f64) -> Result<Scene, MultibodyError> {
    heavy_on_light_with(mass_ratio, &SceneParams::cubes())
}

/// [`heavy_on_light`] with parameters `p` (`p.density` is the light box's).
///
/// # Errors
/// As [`heavy_on_light`], and [`SceneParams::validate`].
pub fn heavy_on_light_with(mass_ratio: f64, p: &SceneParams) -> Result<Scene, MultibodyError> {
    p.validate()?;
    check_positive("mass ratio", mass_ratio)?;
    let h = p.half_extents;
    let bottom = course(1, h, 0.0, 0.0, p);
    let mut top = course(1, h, 0.0, 2.0 * h.z, p);
    top[0].density = p.density * mass_ratio;
    finish(
        format!("heavy_on_light_{mass_ratio}"),
        format!(
            "a box {mass_ratio} times as heavy as the box it rests on, which rests on the ground"
        ),
        vec![bottom, top],
        p,
    )
}

/// A wall of `rows` courses of bricks in running bond, default parameters
/// ([`SceneParams::bricks`]).
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `rows = 0` or `cols = 0`.
pub fn wall(rows: usize, cols: usize) -> Result<Scene, MultibodyError> {
    wall_with(rows, cols, &SceneParams::bricks())
}

/// A wall of `rows` courses in running bond with parameters `p`: even courses (from 0,
/// at the bottom) are `cols` whole bricks; odd courses are offset by half a brick, so
/// they are a half brick, `cols - 1` whole bricks and a half brick (ends flush). Every
/// brick of an even course above the first rests on two pieces below. With gap `g`, a
/// half brick is `(2a - g) / 2` long so the ends stay flush.
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `rows = 0` or `cols = 0`, and
/// [`SceneParams::validate`].
pub fn wall_with(rows: usize, cols: usize, p: &SceneParams) -> Result<Scene, MultibodyError> {
    p.validate()?;
    need_positive("the number of rows", rows)?;
    need_positive("the number of columns", cols)?;
    check_size(SceneSpec::Wall { rows, cols }, p)?;
    let h = p.half_extents;
    let half_brick = Vector3::new(0.5 * h.x - 0.25 * p.gap, h.y, h.z);
    let courses = (0..rows)
        .map(|r| {
            let z0 = 2.0 * h.z * r as f64;
            if r % 2 == 0 {
                course(cols, h, 0.0, z0, p)
            } else {
                let mut c = course(1, half_brick, 0.0, z0, p);
                let x0 = 2.0 * half_brick.x + p.gap;
                c.extend(course(cols - 1, h, x0, z0, p));
                let x1 = x0 + (cols - 1) as f64 * (2.0 * h.x + p.gap);
                c.extend(course(1, half_brick, x1, z0, p));
                c
            }
        })
        .collect();
    finish(
        format!("wall_{rows}x{cols}"),
        format!(
            "a wall of {rows} courses of {cols} bricks in running bond (odd courses: half, \
             {} whole, half)",
            cols - 1
        ),
        courses,
        p,
    )
}

/// A pyramid with `base` boxes in the bottom course, default parameters
/// ([`SceneParams::cubes`]).
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `base = 0`.
pub fn pyramid(base: usize) -> Result<Scene, MultibodyError> {
    pyramid_with(base, &SceneParams::cubes())
}

/// A pyramid with parameters `p`: course `k` (from 0 at the bottom) has `base - k`
/// boxes, shifted by half a pitch (`(2a + gap) / 2`) from the course below, so each box
/// above the first course rests on two boxes.
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for `base = 0`, and [`SceneParams::validate`].
pub fn pyramid_with(base: usize, p: &SceneParams) -> Result<Scene, MultibodyError> {
    p.validate()?;
    need_positive("the pyramid base", base)?;
    check_size(SceneSpec::Pyramid { base }, p)?;
    let h = p.half_extents;
    let pitch = 2.0 * h.x + p.gap;
    let courses = (0..base)
        .map(|k| course(base - k, h, 0.5 * pitch * k as f64, 2.0 * h.z * k as f64, p))
        .collect();
    finish(
        format!("pyramid_{base}"),
        format!("a pyramid of {base} courses, {base} boxes at the base, each box above on two"),
        courses,
        p,
    )
}

/// The kinds of scene that can be sized for a number of contacts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SceneKind {
    /// [`box_stack`].
    BoxStack,
    /// [`wall`] with as many rows as columns.
    Wall,
    /// [`pyramid`].
    Pyramid,
}

/// A scene kind with its dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SceneSpec {
    /// A stack of `n` boxes.
    BoxStack {
        /// Number of boxes.
        n: usize,
    },
    /// A wall of `rows` courses of `cols` bricks.
    Wall {
        /// Number of courses.
        rows: usize,
        /// Whole bricks per even course.
        cols: usize,
    },
    /// A pyramid.
    Pyramid {
        /// Boxes in the bottom course.
        base: usize,
    },
}

impl SceneSpec {
    /// The number of contacts the scene has, in closed form (side contacts count only
    /// when `p.gap == 0`). Saturates instead of overflowing.
    pub fn contact_count(&self, p: &SceneParams) -> usize {
        let side = p.gap == 0.0;
        let s = |n: usize| if side { n } else { 0 };
        match *self {
            SceneSpec::BoxStack { n } => n.saturating_mul(4),
            SceneSpec::Wall { rows, cols } => {
                if rows == 0 || cols == 0 {
                    return 0;
                }
                let (even, odd) = (rows.div_ceil(2), rows / 2);
                let joints = even
                    .saturating_mul(cols - 1)
                    .saturating_add(odd.saturating_mul(cols));
                cols.saturating_mul(4)
                    .saturating_add(cols.saturating_mul(8).saturating_mul(rows - 1))
                    .saturating_add(s(joints.saturating_mul(4)))
            }
            SceneSpec::Pyramid { base } => {
                if base == 0 {
                    return 0;
                }
                let pairs = base.saturating_mul(base - 1);
                base.saturating_mul(4)
                    .saturating_add(pairs.saturating_mul(4))
                    .saturating_add(s(pairs.saturating_mul(2)))
            }
        }
    }

    /// A scene of `kind` with at least `target` contacts and close to it (at least one
    /// box):
    ///
    /// * box stack: `ceil(target / 4)` boxes;
    /// * wall: the largest `rows` whose square wall (`rows = cols`) has at most
    ///   `target` contacts, then the fewest `cols` that reach `target` (so
    ///   `cols >= rows`, and the overshoot is less than one column, about
    ///   `12 rows ~ 3 sqrt(target)` contacts);
    /// * pyramid: the smallest base that reaches `target` (one parameter only, so the
    ///   overshoot is up to about `12 base ~ 4 sqrt(target)` contacts).
    ///
    /// # Errors
    /// [`MultibodyError::InvalidScene`] for `target = 0`, or `target` above
    /// [`MAX_SCENE_CONTACTS`] (checked before searching, so the search is bounded), or a
    /// nearest scene whose overshoot takes it above the cap.
    pub fn for_contacts(
        kind: SceneKind,
        target: usize,
        p: &SceneParams,
    ) -> Result<SceneSpec, MultibodyError> {
        need_positive("the number of contacts", target)?;
        if target > MAX_SCENE_CONTACTS {
            return Err(MultibodyError::InvalidScene {
                reason: format!(
                    "{target} contacts asked for; the generators build at most {MAX_SCENE_CONTACTS}"
                ),
            });
        }
        // Every search below ends: each step adds contacts, and the target is capped.
        let spec = match kind {
            SceneKind::BoxStack => SceneSpec::BoxStack {
                n: target.div_ceil(4),
            },
            SceneKind::Wall => {
                let count = |rows, cols| SceneSpec::Wall { rows, cols }.contact_count(p);
                let mut rows = 1;
                while count(rows + 1, rows + 1) <= target {
                    rows += 1;
                }
                let mut cols = 1;
                while count(rows, cols) < target {
                    cols += 1;
                }
                SceneSpec::Wall { rows, cols }
            }
            SceneKind::Pyramid => {
                let mut base = 1;
                while (SceneSpec::Pyramid { base }).contact_count(p) < target {
                    base += 1;
                }
                SceneSpec::Pyramid { base }
            }
        };
        check_size(spec, p)?;
        Ok(spec)
    }

    /// Builds the scene with parameters `p`.
    ///
    /// # Errors
    /// As the scene's constructor.
    pub fn build(&self, p: &SceneParams) -> Result<Scene, MultibodyError> {
        match *self {
            SceneSpec::BoxStack { n } => box_stack_with(n, p),
            SceneSpec::Wall { rows, cols } => wall_with(rows, cols, p),
            SceneSpec::Pyramid { base } => pyramid_with(base, p),
        }
    }
}

/// A scene of `kind` with at least `target` contacts ([`SceneSpec::for_contacts`]),
/// default parameters for the kind ([`SceneParams::bricks`] for walls, [`SceneParams::cubes`] otherwise).
///
/// ```
/// use nonsmooth::multibody::{scenes, SceneKind};
/// let s = scenes::sized_for(SceneKind::Pyramid, 1000).unwrap();
/// assert!(s.contacts.len() >= 1000 && s.contacts.len() < 1200);
/// ```
///
/// # Errors
/// As [`SceneSpec::for_contacts`] (`target` is 0 or above [`MAX_SCENE_CONTACTS`]).
pub fn sized_for(kind: SceneKind, target: usize) -> Result<Scene, MultibodyError> {
    let p = match kind {
        SceneKind::Wall => SceneParams::bricks(),
        _ => SceneParams::cubes(),
    };
    SceneSpec::for_contacts(kind, target, &p)?.build(&p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_specs() -> Vec<SceneSpec> {
        let mut v = Vec::new();
        for n in 1..6 {
            v.push(SceneSpec::BoxStack { n });
            v.push(SceneSpec::Pyramid { base: n });
            for c in 1..5 {
                v.push(SceneSpec::Wall { rows: n, cols: c });
            }
        }
        v
    }

    /// Regression (issue 8): `--contacts 18446744073709551615` looped forever in the
    /// pyramid search (the saturated count never exceeded the target), and `--n` of that
    /// size overflowed a capacity.
    #[test]
    fn sizes_beyond_the_cap_are_errors_not_hangs() {
        let p = SceneParams::cubes();
        for kind in [SceneKind::BoxStack, SceneKind::Wall, SceneKind::Pyramid] {
            for target in [0, MAX_SCENE_CONTACTS + 1, usize::MAX] {
                assert!(
                    SceneSpec::for_contacts(kind, target, &p).is_err(),
                    "{kind:?} {target}"
                );
            }
        }
        assert!(box_stack(usize::MAX).is_err());
        assert!(box_stack(MAX_SCENE_CONTACTS / 4 + 1).is_err());
        assert!(wall(3, usize::MAX).is_err());
        assert!(pyramid(usize::MAX).is_err());
        let target = MAX_SCENE_CONTACTS - 10_000;
        let spec = SceneSpec::for_contacts(SceneKind::Pyramid, target, &p).unwrap();
        assert!((target..=MAX_SCENE_CONTACTS).contains(&spec.contact_count(&p)));
    }

    #[test]
    fn contact_counts_match_the_closed_forms() {
        for gap in [0.0, 0.01] {
            for ground in [Ground::World, Ground::FixedBody] {
                for spec in all_specs() {
                    let p = SceneParams {
                        gap,
                        ground,
                        ..SceneParams::bricks()
                    };
                    let s = spec.build(&p).unwrap();
                    assert_eq!(s.contacts.len(), spec.contact_count(&p), "{spec:?} {gap}");
                    assert_eq!(s.bodies.len(), s.half_extents.len());
                    // Every contact point lies on the surface of both of its boxes.
                    for c in &s.contacts {
                        let sides = [c.a(), BodyRef::Body(c.b())];
                        for side in sides {
                            let BodyRef::Body(i) = side else {
                                assert!(c.point().z.abs() < 1e-15);
                                continue;
                            };
                            let d = (c.point() - s.bodies[i].position).abs();
                            let h = s.half_extents[i];
                            let inside = (0..3).all(|k| d[k] <= h[k] * (1.0 + 1e-12));
                            let on_face = (0..3).any(|k| (d[k] - h[k]).abs() <= 1e-12);
                            assert!(inside && on_face, "{spec:?} {c:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn sizing_reaches_the_target_and_no_further_than_one_step() {
        for kind in [SceneKind::BoxStack, SceneKind::Wall, SceneKind::Pyramid] {
            assert!(SceneSpec::for_contacts(kind, 0, &SceneParams::bricks()).is_err());
            for target in [1, 7, 100, 1000, 10_000, 100_000] {
                let p = SceneParams::bricks();
                let spec = SceneSpec::for_contacts(kind, target, &p).unwrap();
                let n = spec.contact_count(&p);
                assert!(n >= target.max(1), "{kind:?} {target}");
                let smaller = match spec {
                    SceneSpec::BoxStack { n } => SceneSpec::BoxStack { n: n - 1 },
                    SceneSpec::Wall { rows, cols } => SceneSpec::Wall {
                        rows,
                        cols: cols - 1,
                    },
                    SceneSpec::Pyramid { base } => SceneSpec::Pyramid { base: base - 1 },
                };
                assert!(smaller.contact_count(&p) < target.max(1), "{spec:?}");
                if let SceneSpec::Wall { rows, cols } = spec {
                    assert!(cols >= rows);
                }
            }
        }
        let s = sized_for(SceneKind::Wall, 1000).unwrap();
        assert!(s.contacts.len() >= 1000 && s.contacts.len() < 1100);
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(box_stack(0).is_err());
        assert!(pyramid(0).is_err());
        assert!(wall(0, 3).is_err());
        assert!(wall(3, 0).is_err());
        assert!(heavy_on_light(0.0).is_err());
        assert!(heavy_on_light(f64::NAN).is_err());
        let p = SceneParams {
            gap: 1.0,
            ..SceneParams::cubes()
        };
        assert!(matches!(
            pyramid_with(3, &p),
            Err(MultibodyError::InvalidScene { .. })
        ));
        let p = SceneParams {
            mu: -1.0,
            ..SceneParams::cubes()
        };
        assert!(box_stack_with(2, &p).is_err());
    }

    /// Each box of a stack carries the weight of the boxes above it: the impulse
    /// `(n - k) m g dt / 4` on each contact under box `k`, zero friction, makes every
    /// contact velocity vanish.
    #[test]
    fn stack_statics_solve_the_local_problem() {
        for ground in [Ground::World, Ground::FixedBody] {
            let p = SceneParams {
                ground,
                ..SceneParams::cubes()
            };
            let n = 5;
            let s = box_stack_with(n, &p).unwrap();
            let first = s.bodies.iter().position(|b| !b.fixed).unwrap();
            let fc = s.local_problem().unwrap();
            let g = -p.step.gravity.z;
            let mut r = nalgebra::DVector::zeros(fc.dim());
            for k in 0..n {
                let above: f64 = s.bodies[first + k..].iter().map(|b| b.mass).sum();
                for c in 0..4 {
                    r[3 * (4 * k + c)] = above * g * p.step.dt / 4.0;
                }
            }
            let u = fc.velocity(&r);
            assert!(u.amax() < 1e-13, "{}", u.amax());
        }
    }

    #[test]
    fn heavy_on_light_statics() {
        let s = heavy_on_light(1000.0).unwrap();
        assert_eq!(s.bodies[1].mass, 1000.0 * s.bodies[0].mass);
        let fc = s.local_problem().unwrap();
        let g = 9.81;
        let dt = s.step.dt;
        let mut r = nalgebra::DVector::zeros(24);
        for c in 0..4 {
            r[3 * c] = (s.bodies[0].mass + s.bodies[1].mass) * g * dt / 4.0;
            r[3 * (4 + c)] = s.bodies[1].mass * g * dt / 4.0;
        }
        assert!(fc.velocity(&r).amax() < 1e-12);
    }
}
