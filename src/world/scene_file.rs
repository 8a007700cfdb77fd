//! Scene files: a [`World`] written down as JSON, so that users can describe their own
//! scenes (and the named scenes of [`super::scenes`] can be saved and edited).
//!
//! The format (every length in m, mass in kg, density in kg/m³, time in s, angle in rad;
//! `z` is up):
//!
//! ```json
//! {
//!   "gravity": [0.0, 0.0, -9.81],
//!   "ground": {"height": 0.0, "material": "wood"},
//!   "margin": 0.001,
//!   "materials": [
//!     {"name": "wood", "friction": 0.5, "restitution": 0.0},
//!     {"name": "rubber", "friction": 0.9, "restitution": 0.6}
//!   ],
//!   "pairs": [
//!     {"a": "wood", "b": "rubber", "friction": 0.7, "restitution": 0.3}
//!   ],
//!   "bodies": [
//!     {"shape": {"box": [0.5, 0.5, 0.5]}, "position": [0.0, 0.0, 0.5], "density": 1000.0},
//!     {"shape": {"sphere": 0.25}, "position": [0.0, 0.0, 2.0], "mass": 2.0,
//!      "material": "rubber", "velocity": [0.0, 0.0, -1.0]},
//!     {"shape": {"capsule": {"half_height": 0.3, "radius": 0.1}}, "position": [1.0, 0.0, 0.1],
//!      "axis_angle": [0.0, 1.0, 0.0, 1.5707963267948966], "density": 500.0},
//!     {"shape": {"box": [2.0, 0.1, 0.5]}, "position": [0.0, 1.5, 0.5], "fixed": true}
//!   ]
//! }
//! ```
//!
//! | field | meaning | default |
//! |---|---|---|
//! | `gravity` | `[gx, gy, gz]` in m/s² | `[0, 0, -9.81]` |
//! | `ground` | `{"height": z, "material": name}` (both optional), or `null` for no ground | the plane `z = 0` with the first material |
//! | `margin` | contact margin in m (`>= 0`) | [`DEFAULT_MARGIN`](super::DEFAULT_MARGIN), 1 mm |
//! | `materials` | `{"name", "friction" (>= 0), "restitution" (in [0, 1])}`, names unique; the first is material 0, the default of bodies and ground | one material, friction 0.5, restitution 0, with no name |
//! | `pairs` | `{"a": name, "b": name, "friction", "restitution"}`: the contact material of the two (either order), instead of [`Material::combine`] | none |
//! | `bodies` | the bodies, in index order | none |
//!
//! A body:
//!
//! | field | meaning | default |
//! |---|---|---|
//! | `shape` | `{"box": [a, b, c]}` (**half** extents), `{"sphere": r}`, or `{"capsule": {"half_height": h, "radius": r}}` (core segment from `-h` to `h` along the body `z` axis) | required |
//! | `position` | centre of mass `[x, y, z]` | required |
//! | `orientation` | unit quaternion `[w, x, y, z]`, body to world; normalised if its norm is within `1e-3` of 1, an error otherwise | identity |
//! | `axis_angle` | `[ax, ay, az, angle]`: a turn by `angle` about the axis (normalised, not zero); not with `orientation` | identity |
//! | `velocity`, `angular_velocity` | `[x, y, z]` in m/s and rad/s (world frame) | zero |
//! | `force`, `torque` | applied load besides gravity, `[x, y, z]` in N and N m | zero |
//! | `density` or `mass` | exactly one of them, unless the body is fixed (then at most one; a fixed body's mass is never used) | required |
//! | `fixed` | `true` for a body that does not move (a wall, a bin) | `false` |
//! | `material` | a name from `materials` | the first material |
//!
//! Unknown fields are errors (a misspelt `"velocty"` is not silently dropped). JSON has no
//! NaN or infinity, and a number too large for an `f64` (`1e999`) is refused with its line
//! and column. Every other error names its place in the file, for example
//! `bodies[3].shape: unknown shape "cube", expected box, sphere or capsule`
//! ([`SceneFileError`]).
//!
//! [`write_scene`] writes a world in this format; reading it back with [`read_scene`] gives
//! a world equal to the original to the last bit (numbers are written with the shortest
//! representation that reads back exactly, and read with `serde_json`'s exact
//! `float_roundtrip`). The format stores a body's mass, not its inertia: the inertia is
//! always the shape's ([`Shape::inertia`]), so a body added with some other inertia
//! tensor ([`World::add_body`]) comes back with its shape's. Materials get the names
//! `material0`, `material1`, ... (the world does not keep names).

use std::fmt;
use std::path::{Path, PathBuf};

use nalgebra::{Quaternion, Unit, UnitQuaternion, Vector3};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{GroundPlane, Material, MaterialId, Shape, World};
use crate::multibody::{MultibodyError, RigidBody};

/// How far from 1 the norm of an `orientation` may be; it is normalised within this.
pub const ORIENTATION_TOLERANCE: f64 = 1e-3;
/// An orientation whose norm is within this of 1 is kept bit for bit (the world accepts
/// it as it is), so that written files read back exactly.
const KEEP_TOLERANCE: f64 = 1e-9;

// ---------------------------------------------------------------------------------------
// The format.

/// A whole scene file (see the module documentation for the meaning of each field).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneFile {
    /// Gravity in m/s². Default `[0, 0, -9.81]`.
    #[serde(default = "default_gravity")]
    pub gravity: [f64; 3],
    /// The ground, or `None` (`null`) for none. Default the plane `z = 0`.
    #[serde(default = "default_ground")]
    pub ground: Option<GroundSpec>,
    /// The contact margin in m. Default [`DEFAULT_MARGIN`](super::DEFAULT_MARGIN).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<f64>,
    /// The materials; the first is material 0. Default: material 0 is
    /// [`Material::default`].
    #[serde(default)]
    pub materials: Vec<MaterialSpec>,
    /// Per-pair overrides of the contact material.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pairs: Vec<PairSpec>,
    /// The bodies, in index order.
    #[serde(default)]
    pub bodies: Vec<BodySpec>,
}

/// The ground plane `z = height`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroundSpec {
    /// Height of the plane in m. Default 0.
    #[serde(default)]
    pub height: f64,
    /// Its material. Default the first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material: Option<String>,
}

/// A named material.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaterialSpec {
    /// The name bodies, the ground and pairs refer to (unique).
    pub name: String,
    /// Coulomb friction coefficient (`>= 0`).
    pub friction: f64,
    /// Coefficient of restitution (in `[0, 1]`).
    pub restitution: f64,
}

/// The contact material of two named materials, instead of [`Material::combine`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairSpec {
    /// One material's name.
    pub a: String,
    /// The other's (may be the same).
    pub b: String,
    /// Friction coefficient of their contacts (`>= 0`).
    pub friction: f64,
    /// Coefficient of restitution of their contacts (in `[0, 1]`).
    pub restitution: f64,
}

/// A shape: `{"box": [a, b, c]}` (half extents), `{"sphere": r}` or
/// `{"capsule": {"half_height": h, "radius": r}}`, in m.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ShapeSpec {
    /// Half extents along the body axes.
    Box([f64; 3]),
    /// Radius.
    Sphere(f64),
    /// A capsule along the body `z` axis.
    Capsule(CapsuleSpec),
}

/// The sizes of a capsule.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapsuleSpec {
    /// Half the length of the core segment, in m.
    pub half_height: f64,
    /// Radius in m.
    pub radius: f64,
}

/// A body (see the module documentation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodySpec {
    /// The shape.
    pub shape: ShapeSpec,
    /// Centre of mass in m.
    pub position: [f64; 3],
    /// Unit quaternion `[w, x, y, z]`, body to world.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orientation: Option<[f64; 4]>,
    /// `[ax, ay, az, angle]`: a turn by `angle` (rad) about the axis.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub axis_angle: Option<[f64; 4]>,
    /// Velocity of the centre of mass in m/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub velocity: Option<[f64; 3]>,
    /// Angular velocity in rad/s, world frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub angular_velocity: Option<[f64; 3]>,
    /// Applied force in N besides gravity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force: Option<[f64; 3]>,
    /// Applied torque in N m, world frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub torque: Option<[f64; 3]>,
    /// Density in kg/m³ (not with `mass`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub density: Option<f64>,
    /// Mass in kg (not with `density`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mass: Option<f64>,
    /// A body that does not move.
    #[serde(default, skip_serializing_if = "is_false")]
    pub fixed: bool,
    /// The material's name. Default the first material.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material: Option<String>,
}

fn default_gravity() -> [f64; 3] {
    [0.0, 0.0, -9.81]
}

fn default_ground() -> Option<GroundSpec> {
    Some(GroundSpec {
        height: 0.0,
        material: None,
    })
}

fn is_false(b: &bool) -> bool {
    !*b
}

// ---------------------------------------------------------------------------------------
// Errors.

/// What is wrong with a scene file.
#[derive(Debug)]
pub enum SceneFileError {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The text is not JSON (or holds a number too large for an `f64`, such as `1e999`).
    Syntax {
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The JSON does not describe a scene: an unknown or missing field, a value of the
    /// wrong type, an unknown shape or material name, a duplicate material name, density
    /// and mass together, an orientation far from a unit quaternion.
    Invalid {
        /// Where, as a path into the file: `bodies[3].shape`, `materials[1]`, `scene`.
        place: String,
        /// What is wrong.
        message: String,
    },
    /// The values were read but the world refused them (a negative size or friction, a
    /// zero mass, ...).
    World {
        /// Where, as for [`SceneFileError::Invalid`].
        place: String,
        /// The world's error.
        source: MultibodyError,
    },
    /// An error in the file `path` ([`scene_from_path`]).
    InFile {
        /// The file.
        path: PathBuf,
        /// The error in it (never `InFile` or `Io`).
        error: Box<SceneFileError>,
    },
}

impl SceneFileError {
    /// The place in the file of an [`Invalid`](SceneFileError::Invalid) or
    /// [`World`](SceneFileError::World) error (also inside
    /// [`InFile`](SceneFileError::InFile)).
    pub fn place(&self) -> Option<&str> {
        match self {
            SceneFileError::Invalid { place, .. } | SceneFileError::World { place, .. } => {
                Some(place)
            }
            SceneFileError::InFile { error, .. } => error.place(),
            _ => None,
        }
    }
}

impl fmt::Display for SceneFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneFileError::Io { path, source } => {
                write!(f, "cannot read scene file {}: {source}", path.display())
            }
            SceneFileError::Syntax {
                line,
                column,
                message,
            } => write!(f, "line {line}, column {column}: {message}"),
            SceneFileError::Invalid { place, message } => write!(f, "{place}: {message}"),
            SceneFileError::World { place, source } => write!(f, "{place}: {source}"),
            SceneFileError::InFile { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for SceneFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SceneFileError::Io { source, .. } => Some(source),
            SceneFileError::World { source, .. } => Some(source),
            SceneFileError::InFile { error, .. } => Some(error.as_ref()),
            _ => None,
        }
    }
}

fn invalid(place: impl Into<String>, message: impl Into<String>) -> SceneFileError {
    SceneFileError::Invalid {
        place: place.into(),
        message: message.into(),
    }
}

fn refused(place: impl Into<String>) -> impl FnOnce(MultibodyError) -> SceneFileError {
    let place = place.into();
    move |source| SceneFileError::World { place, source }
}

// ---------------------------------------------------------------------------------------
// Reading.

/// Reads a scene file's text into a [`World`].
///
/// # Errors
/// [`SceneFileError::Syntax`] for text that is not JSON, [`SceneFileError::Invalid`]
/// and [`SceneFileError::World`] with the place of the first problem.
pub fn read_scene(text: &str) -> Result<World, SceneFileError> {
    parse_scene(text)?.to_world()
}

/// Reads the scene file at `path` into a [`World`].
///
/// # Errors
/// [`SceneFileError::Io`] if the file cannot be read; otherwise the errors of
/// [`read_scene`], inside [`SceneFileError::InFile`] with the path.
pub fn scene_from_path(path: impl AsRef<Path>) -> Result<World, SceneFileError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|source| SceneFileError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    read_scene(&text).map_err(|e| SceneFileError::InFile {
        path: path.to_path_buf(),
        error: Box::new(e),
    })
}

/// Parses a scene file's text into its [`SceneFile`], checking the JSON syntax and the
/// structure (fields, types, shape names) with the place of each problem, but not the
/// values ([`SceneFile::to_world`] does).
///
/// # Errors
/// [`SceneFileError::Syntax`], [`SceneFileError::Invalid`].
pub fn parse_scene(text: &str) -> Result<SceneFile, SceneFileError> {
    let root: Value = serde_json::from_str(text).map_err(|e| {
        let full = e.to_string();
        let message = match full.rsplit_once(" at line ") {
            Some((m, _)) => m.to_string(),
            None => full,
        };
        SceneFileError::Syntax {
            line: e.line(),
            column: e.column(),
            message,
        }
    })?;
    let Value::Object(map) = root else {
        return Err(invalid(
            "scene",
            "a scene file holds one JSON object, {\"bodies\": [...], ...}",
        ));
    };
    const FIELDS: [&str; 6] = [
        "gravity",
        "ground",
        "margin",
        "materials",
        "pairs",
        "bodies",
    ];
    if let Some(k) = map.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(invalid(
            "scene",
            format!(
                "unknown field \"{k}\", expected one of gravity, ground, margin, materials, \
                 pairs, bodies"
            ),
        ));
    }
    let gravity = match map.get("gravity") {
        None => default_gravity(),
        Some(v) => from_value(v, "gravity")?,
    };
    let ground = match map.get("ground") {
        None => default_ground(),
        Some(Value::Null) => None,
        Some(v) => Some(from_value(v, "ground")?),
    };
    let margin = match map.get("margin") {
        None => None,
        Some(v) => Some(from_value(v, "margin")?),
    };
    let materials = list(&map, "materials", from_value)?;
    let pairs = list(&map, "pairs", from_value)?;
    let bodies = list(&map, "bodies", |v, place| {
        if let Some(shape) = v.get("shape") {
            check_shape(shape, &format!("{place}.shape"))?;
        }
        from_value(v, place)
    })?;
    Ok(SceneFile {
        gravity,
        ground,
        margin,
        materials,
        pairs,
        bodies,
    })
}

/// Deserialises `v`, naming `place` in an error.
fn from_value<T: DeserializeOwned>(v: &Value, place: &str) -> Result<T, SceneFileError> {
    T::deserialize(v).map_err(|e| invalid(place, e.to_string()))
}

/// The elements of the array `map[key]` (none if absent), each read by `read` with the
/// place `key[i]`.
fn list<T>(
    map: &serde_json::Map<String, Value>,
    key: &str,
    read: impl Fn(&Value, &str) -> Result<T, SceneFileError>,
) -> Result<Vec<T>, SceneFileError> {
    match map.get(key) {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| read(v, &format!("{key}[{i}]")))
            .collect(),
        Some(_) => Err(invalid(key, "expected an array [...]")),
    }
}

/// A shape must be an object with one key, `box`, `sphere` or `capsule`, whose value has
/// the right form.
fn check_shape(shape: &Value, place: &str) -> Result<(), SceneFileError> {
    const EXPECTED: &str = "expected box, sphere or capsule";
    match shape {
        Value::Object(m) if m.len() == 1 => {
            let (k, _) = m.iter().next().expect("one entry");
            if !["box", "sphere", "capsule"].contains(&k.as_str()) {
                return Err(invalid(place, format!("unknown shape \"{k}\", {EXPECTED}")));
            }
            from_value::<ShapeSpec>(shape, place).map(|_| ())
        }
        Value::String(s) => Err(invalid(
            place,
            format!(
                "a shape is an object with its sizes, such as {{\"sphere\": 0.5}}, not the \
                 string \"{s}\""
            ),
        )),
        _ => Err(invalid(
            place,
            format!("a shape is an object with one key, {EXPECTED}, such as {{\"sphere\": 0.5}}"),
        )),
    }
}

impl SceneFile {
    /// The world this file describes.
    ///
    /// # Errors
    /// [`SceneFileError::Invalid`] (unknown or duplicate material names, density and mass
    /// together or neither, orientation and axis-angle together, an orientation far from
    /// unit, a zero axis) and [`SceneFileError::World`] (values the world refuses), each
    /// with its place.
    pub fn to_world(&self) -> Result<World, SceneFileError> {
        let mut world = World::new()
            .with_gravity(Vector3::from(self.gravity))
            .map_err(refused("gravity"))?;
        if let Some(m) = self.margin {
            world = world.with_margin(m).map_err(refused("margin"))?;
        }
        // Materials: the first replaces material 0, the others are added in order.
        let mut names: Vec<&str> = Vec::with_capacity(self.materials.len());
        for (i, m) in self.materials.iter().enumerate() {
            let place = format!("materials[{i}]");
            if names.contains(&m.name.as_str()) {
                return Err(invalid(
                    place,
                    format!("the material name \"{}\" is already used", m.name),
                ));
            }
            names.push(&m.name);
            let mat = Material::new(m.friction, m.restitution).map_err(refused(&place))?;
            if i == 0 {
                world
                    .set_material(MaterialId(0), mat)
                    .map_err(refused(&place))?;
            } else {
                world.add_material(mat).map_err(refused(&place))?;
            }
        }
        let lookup = |name: &Option<String>, place: &str| -> Result<MaterialId, SceneFileError> {
            let Some(name) = name else {
                return Ok(MaterialId(0));
            };
            match names.iter().position(|n| n == name) {
                Some(k) => Ok(MaterialId(k)),
                None if names.is_empty() => Err(invalid(
                    place,
                    format!("unknown material \"{name}\" (the file defines no materials)"),
                )),
                None => Err(invalid(
                    place,
                    format!(
                        "unknown material \"{name}\", expected one of {}",
                        names
                            .iter()
                            .map(|n| format!("\"{n}\""))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )),
            }
        };
        for (i, p) in self.pairs.iter().enumerate() {
            let place = format!("pairs[{i}]");
            let a = lookup(&Some(p.a.clone()), &format!("{place}.a"))?;
            let b = lookup(&Some(p.b.clone()), &format!("{place}.b"))?;
            let mat = Material::new(p.friction, p.restitution).map_err(refused(&place))?;
            world
                .set_pair_material(a, b, mat)
                .map_err(refused(&place))?;
        }
        let ground = match &self.ground {
            None => None,
            Some(g) => {
                let mat = lookup(&g.material, "ground.material")?;
                Some(GroundPlane::new(g.height, mat).map_err(refused("ground"))?)
            }
        };
        world = world.with_ground(ground).map_err(refused("ground"))?;
        for (i, b) in self.bodies.iter().enumerate() {
            let place = format!("bodies[{i}]");
            let material = lookup(&b.material, &format!("{place}.material"))?;
            let (shape, body) = b.body(&place)?;
            world
                .add_body(body, shape, material)
                .map_err(refused(&place))?;
        }
        Ok(world)
    }

    /// The file of a world: every material (named `material0`, `material1`, ...), every
    /// pair override, every body with its mass (a fixed body's only if it is not 1 kg, the
    /// mass [`World::add_fixed`] gives), and only the optional fields that differ from
    /// their defaults.
    pub fn from_world(world: &World) -> SceneFile {
        let name = |id: MaterialId| format!("material{}", id.0);
        let nondefault = |id: MaterialId| (id != MaterialId(0)).then(|| name(id));
        let materials = world
            .materials()
            .iter()
            .map(|(id, m)| MaterialSpec {
                name: name(id),
                friction: m.friction,
                restitution: m.restitution,
            })
            .collect();
        let pairs = world
            .materials()
            .pairs()
            .map(|(a, b, m)| PairSpec {
                a: name(a),
                b: name(b),
                friction: m.friction,
                restitution: m.restitution,
            })
            .collect();
        let ground = world.ground().map(|g| GroundSpec {
            height: g.height,
            material: nondefault(g.material),
        });
        let bodies = world
            .bodies()
            .iter()
            .map(|wb| {
                let b = &wb.body;
                let c = &b.orientation.as_ref().coords; // [i, j, k, w]
                let q = [c[3], c[0], c[1], c[2]];
                let identity = [1.0, 0.0, 0.0, 0.0];
                BodySpec {
                    shape: ShapeSpec::from(&wb.shape),
                    position: b.position.into(),
                    orientation: (!same_bits(&q, &identity)).then_some(q),
                    axis_angle: None,
                    velocity: nonzero(&b.linear_velocity),
                    angular_velocity: nonzero(&b.angular_velocity),
                    force: nonzero(&b.force),
                    torque: nonzero(&b.torque),
                    density: None,
                    mass: (!b.fixed || b.mass.to_bits() != 1f64.to_bits()).then_some(b.mass),
                    fixed: b.fixed,
                    material: nondefault(wb.material),
                }
            })
            .collect();
        SceneFile {
            gravity: (*world.gravity()).into(),
            ground,
            margin: Some(world.margin()),
            materials,
            pairs,
            bodies,
        }
    }
}

fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// `None` for a vector of positive zeros (the default), the vector otherwise.
fn nonzero(v: &Vector3<f64>) -> Option<[f64; 3]> {
    (!same_bits(v.as_slice(), &[0.0; 3])).then(|| (*v).into())
}

impl From<&Shape> for ShapeSpec {
    fn from(s: &Shape) -> Self {
        match *s {
            Shape::Box { half_extents: h } => ShapeSpec::Box(h.into()),
            Shape::Sphere { radius } => ShapeSpec::Sphere(radius),
            Shape::Capsule {
                half_height,
                radius,
            } => ShapeSpec::Capsule(CapsuleSpec {
                half_height,
                radius,
            }),
        }
    }
}

impl ShapeSpec {
    /// The shape.
    ///
    /// # Errors
    /// As [`Shape::validate`].
    pub fn to_shape(&self) -> Result<Shape, MultibodyError> {
        match *self {
            ShapeSpec::Box([a, b, c]) => Shape::cuboid(a, b, c),
            ShapeSpec::Sphere(r) => Shape::sphere(r),
            ShapeSpec::Capsule(CapsuleSpec {
                half_height,
                radius,
            }) => Shape::capsule(half_height, radius),
        }
    }
}

impl BodySpec {
    /// The body's shape and rigid body; `place` names it in errors.
    fn body(&self, place: &str) -> Result<(Shape, RigidBody), SceneFileError> {
        let shape = self
            .shape
            .to_shape()
            .map_err(refused(format!("{place}.shape")))?;
        let position = Vector3::from(self.position);
        let body = match (self.density, self.mass) {
            (Some(_), Some(_)) => {
                return Err(invalid(place, "give density or mass, not both"));
            }
            (Some(d), None) => shape.body_with_density(d, position),
            (None, Some(m)) => shape.body_with_mass(m, position),
            (None, None) if self.fixed => shape.body_with_mass(1.0, position),
            (None, None) => {
                return Err(invalid(
                    place,
                    "give density or mass (a body that is not fixed needs one)",
                ));
            }
        }
        .map_err(refused(place))?;
        let orientation = match (self.orientation, self.axis_angle) {
            (Some(_), Some(_)) => {
                return Err(invalid(place, "give orientation or axis_angle, not both"));
            }
            (Some(q), None) => unit_quaternion(q, &format!("{place}.orientation"))?,
            (None, Some([x, y, z, angle])) => {
                let axis = Vector3::new(x, y, z);
                let norm = axis.norm();
                if !(norm > 0.0 && norm.is_finite() && angle.is_finite()) {
                    return Err(invalid(
                        format!("{place}.axis_angle"),
                        format!(
                            "the axis [{x}, {y}, {z}] must be non-zero and finite, and the \
                             angle finite"
                        ),
                    ));
                }
                UnitQuaternion::from_axis_angle(&Unit::new_unchecked(axis / norm), angle)
            }
            (None, None) => UnitQuaternion::identity(),
        };
        let zero = [0.0; 3];
        let mut body = body.with_orientation(orientation).with_velocity(
            Vector3::from(self.velocity.unwrap_or(zero)),
            Vector3::from(self.angular_velocity.unwrap_or(zero)),
        );
        body.force = Vector3::from(self.force.unwrap_or(zero));
        body.torque = Vector3::from(self.torque.unwrap_or(zero));
        if self.fixed {
            body = body.into_fixed();
        }
        body.validate().map_err(refused(place))?;
        Ok((shape, body))
    }
}

/// `[w, x, y, z]` as a unit quaternion: kept as it is if its norm is within
/// `KEEP_TOLERANCE` of 1, normalised if within [`ORIENTATION_TOLERANCE`], an error
/// otherwise.
fn unit_quaternion(q: [f64; 4], place: &str) -> Result<UnitQuaternion<f64>, SceneFileError> {
    let [w, x, y, z] = q;
    let quat = Quaternion::new(w, x, y, z);
    let norm = quat.norm();
    if (norm - 1.0).abs() <= KEEP_TOLERANCE {
        Ok(UnitQuaternion::new_unchecked(quat))
    } else if (norm - 1.0).abs() <= ORIENTATION_TOLERANCE {
        Ok(UnitQuaternion::new_normalize(quat))
    } else {
        Err(invalid(
            place,
            format!(
                "the quaternion [{w}, {x}, {y}, {z}] has norm {norm}; an orientation must be a \
                 unit quaternion [w, x, y, z] (norm 1 within {ORIENTATION_TOLERANCE})"
            ),
        ))
    }
}

// ---------------------------------------------------------------------------------------
// Writing.

/// A world as a scene file: one line per material, pair and body, fields in the order of
/// the format, numbers written so that [`read_scene`] gives back the same world to the
/// last bit (see the module documentation for what the format does not store).
pub fn write_scene(world: &World) -> String {
    write_file(&SceneFile::from_world(world))
}

/// A [`SceneFile`] as text, in the layout of [`write_scene`].
pub fn write_file(file: &SceneFile) -> String {
    let mut out = String::from("{\n");
    out.push_str(&format!("  \"gravity\": {},\n", spaced(&file.gravity)));
    out.push_str(&format!("  \"ground\": {},\n", spaced(&file.ground)));
    if let Some(m) = file.margin {
        out.push_str(&format!("  \"margin\": {},\n", spaced(&m)));
    }
    let mut section = |key: &str, items: Vec<String>, last: bool| {
        out.push_str(&format!("  \"{key}\": ["));
        if !items.is_empty() {
            out.push('\n');
            out.push_str(&items.join(",\n"));
            out.push_str("\n  ");
        }
        out.push(']');
        out.push_str(if last { "\n" } else { ",\n" });
    };
    let lines = |items: Vec<String>| items.into_iter().map(|s| format!("    {s}")).collect();
    section(
        "materials",
        lines(file.materials.iter().map(spaced).collect()),
        false,
    );
    if !file.pairs.is_empty() {
        section(
            "pairs",
            lines(file.pairs.iter().map(spaced).collect()),
            false,
        );
    }
    section(
        "bodies",
        lines(file.bodies.iter().map(spaced).collect()),
        true,
    );
    out.push_str("}\n");
    out
}

/// One value on one line, with a space after each `,` and `:`.
fn spaced<T: Serialize + ?Sized>(v: &T) -> String {
    let mut buf = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, Spaced);
    v.serialize(&mut ser)
        .expect("scene values serialise to JSON");
    String::from_utf8(buf).expect("serde_json writes UTF-8")
}

/// serde_json's compact layout with a space after each `,` and `:`.
struct Spaced;

impl serde_json::ser::Formatter for Spaced {
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first { Ok(()) } else { w.write_all(b", ") }
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first { Ok(()) } else { w.write_all(b", ") }
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
}
