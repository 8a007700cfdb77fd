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
//! Unknown fields are errors (a misspelt `"velocty"` is not silently dropped), and so is a
//! key given twice in one object (JSON readers differ on which of the two counts; this one
//! names the key and its place, `bodies[3]: the key "mass" appears twice ...`). JSON has
//! no NaN or infinity, and a number too large for an `f64` (`1e999`) is refused with its
//! line and column. Every other error names its place in the file, for example
//! `bodies[3].shape: unknown shape "cube", expected box, sphere or capsule`
//! ([`SceneFileError`]).
//!
//! Every number must also lie in a range where the simulation's arithmetic stays finite
//! and meaningful; a value outside is refused where it is read, naming the field, the
//! value and the unit (`bodies[2].mass = 1e308 kg is out of range: a mass lies in [1e-9,
//! 1e9] kg`, [`SceneFileError::OutOfRange`]):
//!
//! | values | range |
//! |---|---|
//! | position components, the ground's `height`, `margin` | magnitude at most [`MAX_LENGTH`], `1e6` m |
//! | sizes of shapes (radius, half extents, half height) | [[`MIN_SIZE`], [`MAX_LENGTH`]], `[1e-6, 1e6]` m |
//! | `mass`, and the mass a `density` gives | [[`MIN_MASS`], [`MAX_MASS`]], `[1e-9, 1e9]` kg |
//! | `density` | [[`MIN_DENSITY`], [`MAX_DENSITY`]], `[1e-9, 1e9]` kg/m³ |
//! | `velocity` components | magnitude at most [`MAX_SPEED`], `1e6` m/s |
//! | `angular_velocity` components | magnitude at most [`MAX_ANGULAR_SPEED`], `1e6` rad/s |
//! | `gravity` components | magnitude at most [`MAX_GRAVITY`], `1e6` m/s² |
//! | `force`, `torque` components | magnitude at most [`MAX_FORCE`], `1e15` N, and [`MAX_TORQUE`], `1e21` N m |
//!
//! Zero and negative sizes, masses and densities, and a negative margin, are refused by the
//! world with its own message ([`SceneFileError::World`]). The number of contacts one
//! collision pass may find is capped too ([`World::contacts`]), so that a scene of
//! bodies piled into one another ends with an error instead of exhausting the memory.
//!
//! [`write_scene`] writes a world in this format; reading it back with [`read_scene`] gives
//! a world equal to the original to the last bit (numbers are written with the shortest
//! representation that reads back exactly, and read with `serde_json`'s exact
//! `float_roundtrip`). The format stores a body's mass, not its inertia: the inertia is
//! always the shape's ([`Shape::inertia`]), so a body added with some other inertia
//! tensor ([`World::add_body`]) comes back with its shape's. Materials get the names
//! `material0`, `material1`, ... (the world does not keep names).

use std::cell::RefCell;
use std::fmt;
use std::path::{Path, PathBuf};

use nalgebra::{Quaternion, Unit, UnitQuaternion, Vector3};
use serde::de::{DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};

use super::{GroundPlane, Material, MaterialId, Shape, World};
use crate::error::fmt_num;
use crate::multibody::{MultibodyError, RigidBody};

/// How far from 1 the norm of an `orientation` may be; it is normalised within this.
pub const ORIENTATION_TOLERANCE: f64 = 1e-3;
/// The largest magnitude of a length or a coordinate in m: a position component, the
/// ground's height, the margin, a size of a shape.
pub const MAX_LENGTH: f64 = 1e6;
/// The smallest size of a shape in m (a radius, a half extent, a capsule's half height).
pub const MIN_SIZE: f64 = 1e-6;
/// The smallest mass of a body in kg, given or computed from its density.
pub const MIN_MASS: f64 = 1e-9;
/// The largest mass of a body in kg, given or computed from its density.
pub const MAX_MASS: f64 = 1e9;
/// The smallest density in kg/m³.
pub const MIN_DENSITY: f64 = 1e-9;
/// The largest density in kg/m³.
pub const MAX_DENSITY: f64 = 1e9;
/// The largest magnitude of a velocity component in m/s.
pub const MAX_SPEED: f64 = 1e6;
/// The largest magnitude of an angular velocity component in rad/s.
pub const MAX_ANGULAR_SPEED: f64 = 1e6;
/// The largest magnitude of a gravity component in m/s².
pub const MAX_GRAVITY: f64 = 1e6;
/// The largest magnitude of an applied force component in N: the weight of the heaviest
/// body ([`MAX_MASS`]) under the strongest gravity ([`MAX_GRAVITY`]).
pub const MAX_FORCE: f64 = 1e15;
/// The largest magnitude of an applied torque component in N m: [`MAX_FORCE`] at the
/// arm [`MAX_LENGTH`].
pub const MAX_TORQUE: f64 = 1e21;
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
    /// The JSON does not describe a scene: an unknown or missing field, a key given twice
    /// in one object, a value of the wrong type, an unknown shape or material name, a duplicate material name, density
    /// and mass together, an orientation far from a unit quaternion.
    Invalid {
        /// Where, as a path into the file: `bodies[3].shape`, `materials[1]`, `scene`.
        place: String,
        /// What is wrong.
        message: String,
    },
    /// A number outside the range the format allows (see the module documentation):
    /// `bodies[2].mass = 1e308 kg is out of range: a mass lies in [1e-9, 1e9] kg`.
    OutOfRange {
        /// Where, as for [`SceneFileError::Invalid`]: `bodies[2].mass`, `gravity`.
        place: String,
        /// The value as written (a number, or a vector `[x, y, z]`).
        value: String,
        /// Its unit: `kg`, `m/s`, ...
        unit: &'static str,
        /// The range it must lie in, in words.
        expected: String,
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
    /// The place in the file of an [`Invalid`](SceneFileError::Invalid),
    /// [`OutOfRange`](SceneFileError::OutOfRange) or [`World`](SceneFileError::World) error
    /// (also inside [`InFile`](SceneFileError::InFile)).
    pub fn place(&self) -> Option<&str> {
        match self {
            SceneFileError::Invalid { place, .. }
            | SceneFileError::OutOfRange { place, .. }
            | SceneFileError::World { place, .. } => Some(place),
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
            SceneFileError::OutOfRange {
                place,
                value,
                unit,
                expected,
            } => write!(f, "{place} = {value} {unit} is out of range: {expected}"),
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
/// [`SceneFileError::Syntax`] for text that is not JSON, [`SceneFileError::Invalid`],
/// [`SceneFileError::OutOfRange`] and [`SceneFileError::World`] with the place of the
/// first problem.
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
/// structure (fields, types, shape names, every key once per object) with the place of
/// each problem, but not the values ([`SceneFile::to_world`] does).
///
/// # Errors
/// [`SceneFileError::Syntax`], [`SceneFileError::Invalid`].
pub fn parse_scene(text: &str) -> Result<SceneFile, SceneFileError> {
    let root = read_json(text)?;
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
        Some(v) => Some(from_object(v, "ground")?),
    };
    let margin = match map.get("margin") {
        None => None,
        Some(v) => Some(from_value(v, "margin")?),
    };
    let materials = list(&map, "materials", from_object)?;
    let pairs = list(&map, "pairs", from_object)?;
    let bodies = list(&map, "bodies", |v, place| {
        if let Some(shape) = v.get("shape") {
            check_shape(shape, &format!("{place}.shape"))?;
        }
        from_object(v, place)
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

/// The JSON value of `text`, with every key of every object given once.
///
/// `serde_json::Value` keeps the last of two equal keys; this reads the text with a
/// visitor of its own that builds the same value (numbers through the same exact
/// `float_roundtrip` parser) but stops at the second occurrence of a key.
fn read_json(text: &str) -> Result<Value, SceneFileError> {
    let duplicate = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let read = Checked {
        at: &JsonPlace::Root,
        duplicate: &duplicate,
    }
    .deserialize(&mut de)
    .and_then(|v| de.end().map(|()| v));
    read.map_err(|e| {
        if let Some((place, key)) = duplicate.into_inner() {
            return invalid(
                place,
                format!(
                    "the key \"{key}\" appears twice (the second at line {}, column {}); \
                     each key may be given once",
                    e.line(),
                    e.column()
                ),
            );
        }
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
    })
}

/// Where a value stands in the file, built only when an error names it.
enum JsonPlace<'a> {
    Root,
    Key(&'a JsonPlace<'a>, &'a str),
    Index(&'a JsonPlace<'a>, usize),
}

impl fmt::Display for JsonPlace<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonPlace::Root => f.write_str("scene"),
            JsonPlace::Key(JsonPlace::Root, k) => f.write_str(k),
            JsonPlace::Key(parent, k) => write!(f, "{parent}.{k}"),
            JsonPlace::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

/// Reads one JSON value at `at`; the first duplicate key found is stored in `duplicate`
/// (its object's place and the key) and stops the reading.
struct Checked<'a> {
    at: &'a JsonPlace<'a>,
    duplicate: &'a RefCell<Option<(String, String)>>,
}

impl<'de> DeserializeSeed<'de> for Checked<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Checked<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        // serde_json reads no NaN or infinity; `Null` as `serde_json::Value` would.
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        loop {
            let at = JsonPlace::Index(self.at, items.len());
            let seed = Checked {
                at: &at,
                duplicate: self.duplicate,
            };
            match seq.next_element_seed(seed)? {
                Some(v) => items.push(v),
                None => return Ok(Value::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                let e = format!("the key \"{key}\" appears twice");
                *self.duplicate.borrow_mut() = Some((self.at.to_string(), key));
                return Err(serde::de::Error::custom(e));
            }
            let at = JsonPlace::Key(self.at, &key);
            let value = map.next_value_seed(Checked {
                at: &at,
                duplicate: self.duplicate,
            })?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

/// Deserialises `v`, naming `place` in an error.
fn from_value<T: DeserializeOwned>(v: &Value, place: &str) -> Result<T, SceneFileError> {
    T::deserialize(v).map_err(|e| invalid(place, e.to_string()))
}

/// Deserialises the object `v` (serde would also read a struct from an array of its
/// fields in order, which no scene file means), naming `place` in an error.
fn from_object<T: DeserializeOwned>(v: &Value, place: &str) -> Result<T, SceneFileError> {
    if !v.is_object() {
        return Err(invalid(
            place,
            format!("expected an object {{...}}, found {}", json_kind(v)),
        ));
    }
    from_value(v, place)
}

/// The kind of a JSON value, for messages.
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
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
            if k == "capsule" {
                from_object::<CapsuleSpec>(&m[k], &format!("{place}.capsule"))?;
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
    /// unit, a zero axis, a density that gives a mass out of range),
    /// [`SceneFileError::OutOfRange`] (a value outside the ranges of the module
    /// documentation) and [`SceneFileError::World`] (values the world refuses), each with
    /// its place.
    pub fn to_world(&self) -> Result<World, SceneFileError> {
        components("gravity", &self.gravity, MAX_GRAVITY, "m/s^2")?;
        let mut world = World::new()
            .with_gravity(Vector3::from(self.gravity))
            .map_err(refused("gravity"))?;
        if let Some(m) = self.margin {
            if m > MAX_LENGTH {
                return Err(out_of_range(
                    "margin",
                    num(m),
                    "m",
                    format!("a margin lies in [0, {}] m", num(MAX_LENGTH)),
                ));
            }
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
                if !(g.height.abs() <= MAX_LENGTH) {
                    return Err(out_of_range(
                        "ground.height",
                        num(g.height),
                        "m",
                        format!("a height lies in [-{m}, {m}] m", m = num(MAX_LENGTH)),
                    ));
                }
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
        self.shape.check_sizes(&format!("{place}.shape"))?;
        components(
            &format!("{place}.position"),
            &self.position,
            MAX_LENGTH,
            "m",
        )?;
        let zero = [0.0; 3];
        let velocity = self.velocity.unwrap_or(zero);
        let angular_velocity = self.angular_velocity.unwrap_or(zero);
        let force = self.force.unwrap_or(zero);
        let torque = self.torque.unwrap_or(zero);
        components(&format!("{place}.velocity"), &velocity, MAX_SPEED, "m/s")?;
        components(
            &format!("{place}.angular_velocity"),
            &angular_velocity,
            MAX_ANGULAR_SPEED,
            "rad/s",
        )?;
        components(&format!("{place}.force"), &force, MAX_FORCE, "N")?;
        components(&format!("{place}.torque"), &torque, MAX_TORQUE, "N m")?;
        let position = Vector3::from(self.position);
        let body = match (self.density, self.mass) {
            (Some(_), Some(_)) => {
                return Err(invalid(place, "give density or mass, not both"));
            }
            (Some(d), None) => {
                positive_in(
                    &format!("{place}.density"),
                    d,
                    [MIN_DENSITY, MAX_DENSITY],
                    "kg/m^3",
                    "a density",
                )?;
                let body = shape
                    .body_with_density(d, position)
                    .map_err(refused(place))?;
                if !(MIN_MASS..=MAX_MASS).contains(&body.mass) {
                    return Err(invalid(
                        format!("{place}.density"),
                        format!(
                            "{} kg/m^3 gives the {} m^3 of the shape a mass of {} kg, out of \
                             range: a mass lies in [{}, {}] kg",
                            num(d),
                            num(shape.volume()),
                            num(body.mass),
                            num(MIN_MASS),
                            num(MAX_MASS)
                        ),
                    ));
                }
                Ok(body)
            }
            (None, Some(m)) => {
                positive_in(
                    &format!("{place}.mass"),
                    m,
                    [MIN_MASS, MAX_MASS],
                    "kg",
                    "a mass",
                )?;
                shape.body_with_mass(m, position)
            }
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
                // Scaled by its largest component first, so that an axis such as
                // [1e200, 1e200, 0] has a finite norm.
                let big = x.abs().max(y.abs()).max(z.abs());
                let axis = Vector3::new(x, y, z) / big;
                let norm = axis.norm();
                if !(big > 0.0 && norm.is_finite() && angle.is_finite()) {
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
        let mut body = body
            .with_orientation(orientation)
            .with_velocity(Vector3::from(velocity), Vector3::from(angular_velocity));
        body.force = Vector3::from(force);
        body.torque = Vector3::from(torque);
        if self.fixed {
            body = body.into_fixed();
        }
        body.validate().map_err(refused(place))?;
        Ok((shape, body))
    }
}

impl ShapeSpec {
    /// Refuses a positive size outside [[`MIN_SIZE`], [`MAX_LENGTH`]] (zero and negative
    /// sizes are the world's to refuse, [`Shape::validate`]).
    fn check_sizes(&self, place: &str) -> Result<(), SceneFileError> {
        let range = [MIN_SIZE, MAX_LENGTH];
        match *self {
            ShapeSpec::Box(h) => {
                if h.iter()
                    .all(|&v| !(v > 0.0) || (range[0]..=range[1]).contains(&v))
                {
                    Ok(())
                } else {
                    Err(out_of_range(
                        format!("{place}.box"),
                        vector(&h),
                        "m",
                        format!(
                            "each half extent lies in [{}, {}] m",
                            num(range[0]),
                            num(range[1])
                        ),
                    ))
                }
            }
            ShapeSpec::Sphere(r) => {
                positive_in(&format!("{place}.sphere"), r, range, "m", "a radius")
            }
            ShapeSpec::Capsule(CapsuleSpec {
                half_height,
                radius,
            }) => {
                positive_in(
                    &format!("{place}.capsule.half_height"),
                    half_height,
                    range,
                    "m",
                    "a half height",
                )?;
                positive_in(
                    &format!("{place}.capsule.radius"),
                    radius,
                    range,
                    "m",
                    "a radius",
                )
            }
        }
    }
}

/// `v` for a message: as written for magnitudes in `[1e-3, 1e4)` and zero, in scientific
/// notation otherwise (`1e308`, `5e-324`).
fn num(v: f64) -> String {
    if v == 0.0 || (1e-3..1e4).contains(&v.abs()) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

/// `[x, y, z]` for a message.
fn vector(v: &[f64]) -> String {
    let parts: Vec<String> = v.iter().map(|&x| num(x)).collect();
    format!("[{}]", parts.join(", "))
}

fn out_of_range(
    place: impl Into<String>,
    value: String,
    unit: &'static str,
    expected: String,
) -> SceneFileError {
    SceneFileError::OutOfRange {
        place: place.into(),
        value,
        unit,
        expected,
    }
}

/// Refuses a vector at `place` with a component of magnitude above `max` (in `unit`).
fn components(place: &str, v: &[f64], max: f64, unit: &'static str) -> Result<(), SceneFileError> {
    if v.iter().all(|x| x.abs() <= max) {
        return Ok(());
    }
    Err(out_of_range(
        place,
        vector(v),
        unit,
        format!("each component lies in [-{m}, {m}] {unit}", m = num(max)),
    ))
}

/// Refuses a positive `v` at `place` outside `[lo, hi]` (in `unit`); zero and negative
/// values pass, for the world to refuse with its own message.
fn positive_in(
    place: &str,
    v: f64,
    [lo, hi]: [f64; 2],
    unit: &'static str,
    what: &str,
) -> Result<(), SceneFileError> {
    if !(v > 0.0) || (lo..=hi).contains(&v) {
        return Ok(());
    }
    Err(out_of_range(
        place,
        num(v),
        unit,
        format!("{what} lies in [{}, {}] {unit}", num(lo), num(hi)),
    ))
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
                "the quaternion [{}, {}, {}, {}] has norm {}; an orientation must be a \
                 unit quaternion [w, x, y, z] (norm 1 within {ORIENTATION_TOLERANCE})",
                fmt_num(w),
                fmt_num(x),
                fmt_num(y),
                fmt_num(z),
                fmt_num(norm)
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
