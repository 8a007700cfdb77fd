//! `nonsmooth generate`: write a generated scene's contact problem as the project's JSON.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use nonsmooth::io::{AnyProblem, json};
use nonsmooth::multibody::SceneKind;
use nonsmooth::multibody::scenes::{self, Scene, SceneParams, SceneSpec};
use nonsmooth::problem::FrictionKind;

use super::parse_kind;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SceneName {
    /// A vertical stack of cubes (`--n`).
    BoxStack,
    /// A heavy cube on a light cube on the ground (`--ratio`).
    HeavyOnLight,
    /// Bricks in running bond (`--rows`, `--cols`).
    Wall,
    /// Courses shrinking by one (`--base`).
    Pyramid,
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The scene.
    #[arg(value_enum)]
    scene: SceneName,
    /// Boxes in a box stack.
    #[arg(long, default_value_t = 5)]
    n: usize,
    /// Mass ratio of heavy-on-light.
    #[arg(long, default_value_t = 1000.0)]
    ratio: f64,
    /// Courses of a wall.
    #[arg(long, default_value_t = 3)]
    rows: usize,
    /// Bricks per course of a wall.
    #[arg(long, default_value_t = 4)]
    cols: usize,
    /// Bottom course of a pyramid.
    #[arg(long, default_value_t = 4)]
    base: usize,
    /// Size the scene for about this many contacts instead (box-stack, wall, pyramid).
    #[arg(long)]
    contacts: Option<usize>,
    /// Write the global problem (M, H, q, b, mu) instead of the local one (W, q, mu).
    #[arg(long)]
    global: bool,
    /// Friction law written in the file: coulomb or ccp.
    #[arg(long, default_value = "coulomb", value_parser = parse_kind)]
    kind: FrictionKind,
    /// Output file (`-` for standard output).
    #[arg(long, short, default_value = "-")]
    output: PathBuf,
}

fn build(a: &GenerateArgs) -> Result<Scene, String> {
    let e = |e: nonsmooth::multibody::MultibodyError| e.to_string();
    if let Some(target) = a.contacts {
        let kind = match a.scene {
            SceneName::BoxStack => SceneKind::BoxStack,
            SceneName::Wall => SceneKind::Wall,
            SceneName::Pyramid => SceneKind::Pyramid,
            SceneName::HeavyOnLight => {
                return Err("--contacts does not apply to heavy-on-light (it has 8)".into());
            }
        };
        let p = if kind == SceneKind::Wall {
            SceneParams::bricks()
        } else {
            SceneParams::cubes()
        };
        return SceneSpec::for_contacts(kind, target, &p)
            .build(&p)
            .map_err(e);
    }
    match a.scene {
        SceneName::BoxStack => scenes::box_stack(a.n),
        SceneName::HeavyOnLight => scenes::heavy_on_light(a.ratio),
        SceneName::Wall => scenes::wall(a.rows, a.cols),
        SceneName::Pyramid => scenes::pyramid(a.base),
    }
    .map_err(e)
}

pub fn run(a: GenerateArgs) -> Result<ExitCode, String> {
    let scene = build(&a)?;
    let problem = if a.global {
        AnyProblem::Global(
            scene
                .global_problem()
                .map_err(|e| e.to_string())?
                .with_kind(a.kind),
        )
    } else {
        AnyProblem::Friction(
            scene
                .local_problem()
                .map_err(|e| e.to_string())?
                .with_kind(a.kind),
        )
    };
    let text = json::to_string(&scene.name, &problem, None, &scene.provenance(a.global));
    if a.output.as_os_str() == "-" {
        println!("{text}");
    } else {
        std::fs::write(&a.output, text + "\n")
            .map_err(|e| format!("{}: {e}", a.output.display()))?;
        eprintln!(
            "nonsmooth: wrote {} ({} contacts, {} unknowns)",
            a.output.display(),
            problem.contacts(),
            problem.dim()
        );
    }
    Ok(ExitCode::SUCCESS)
}
