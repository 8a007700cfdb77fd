//! The project's own problem files in `data/`, made from generated scenes.
//!
//! [`reference_files`] is the single list: `examples/generate_data.rs` writes it to
//! `data/`, and a test regenerates it in memory and checks every shipped file is
//! byte-for-byte what the code makes, so the files cannot drift from the code.
//!
//! Regenerate with `cargo run --release --example generate_data` (from the crate root).

use super::{AnyProblem, IoError, Provenance, json};
use crate::multibody::MultibodyError;
use crate::multibody::scenes::{self, SceneParams};

/// One problem file: its file name in `data/`, the problem and its provenance.
#[derive(Debug)]
pub struct ReferenceFile {
    /// File name inside `data/`, for example `"box_stack_5.json"`.
    pub file_name: &'static str,
    /// The problem's name stored in the file (the scene name).
    pub name: String,
    /// The problem (fc3d or gfc3d).
    pub problem: AnyProblem,
    /// Source, description and units.
    pub provenance: Provenance,
}

impl ReferenceFile {
    /// The exact text written to the file (the project's JSON and a final newline,
    /// as [`json::write`] writes it).
    pub fn to_json(&self) -> String {
        json::to_string(&self.name, &self.problem, None, &self.provenance) + "\n"
    }

    /// Writes the file into `dir`.
    ///
    /// # Errors
    /// An [`IoError`] if the file cannot be written.
    pub fn write_to(&self, dir: impl AsRef<std::path::Path>) -> Result<(), IoError> {
        json::write(
            dir.as_ref().join(self.file_name),
            &self.name,
            &self.problem,
            None,
            &self.provenance,
        )
    }
}

/// The problems shipped in `data/` (all Coulomb friction, default parameters unless
/// stated):
///
/// | file | type | scene | contacts |
/// |---|---|---|---|
/// | `box_stack_5.json` | fc3d | [`scenes::box_stack`]`(5)`, cubes | 20 |
/// | `heavy_on_light_1000.json` | fc3d | [`scenes::heavy_on_light`]`(1000.0)` | 8 |
/// | `wall_3x2.json` | fc3d | [`scenes::wall`]`(3, 2)`, bricks 2 mm apart (no side contacts) | 40 |
/// | `pyramid_3.json` | fc3d | [`scenes::pyramid`]`(3)`, cubes 2 mm apart (no side contacts) | 36 |
/// | `pyramid_3_global.json` | gfc3d | [`scenes::pyramid`]`(3)`, touching (side contacts), on a fixed ground body | 48 |
///
/// The scenes are small on purpose: `W` is dense within the contacts of a body, so its
/// stored size grows with the square of the contacts per body (a 4 x 3 wall would be
/// about 350 KB); the global problem (`M`, `H`) stays small.
///
/// # Errors
/// Only if the scene code is broken (the parameters are fixed and valid).
pub fn reference_files() -> Result<Vec<ReferenceFile>, MultibodyError> {
    let mut out = Vec::new();
    let mut local = |file_name: &'static str, scene: scenes::Scene| -> Result<(), MultibodyError> {
        out.push(ReferenceFile {
            file_name,
            name: scene.name.clone(),
            problem: AnyProblem::Friction(scene.local_problem()?),
            provenance: scene.provenance(false),
        });
        Ok(())
    };
    local("box_stack_5.json", scenes::box_stack(5)?)?;
    local("heavy_on_light_1000.json", scenes::heavy_on_light(1000.0)?)?;
    let bricks = SceneParams {
        gap: 0.002,
        ..SceneParams::bricks()
    };
    local("wall_3x2.json", scenes::wall_with(3, 2, &bricks)?)?;
    let cubes = SceneParams {
        gap: 0.002,
        ..SceneParams::cubes()
    };
    local("pyramid_3.json", scenes::pyramid_with(3, &cubes)?)?;

    let fixed_ground = SceneParams {
        ground: scenes::Ground::FixedBody,
        ..SceneParams::cubes()
    };
    let scene = scenes::pyramid_with(3, &fixed_ground)?;
    out.push(ReferenceFile {
        file_name: "pyramid_3_global.json",
        name: format!("{}_global", scene.name),
        problem: AnyProblem::Global(scene.global_problem()?),
        provenance: scene.provenance(true),
    });
    Ok(out)
}
