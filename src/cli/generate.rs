//! `nonsmooth generate`: write a generated scene's contact problem as the project's JSON
//! (`.json`, or `-` for standard output), Siconos numerics text (`.dat`, readable by
//! Siconos itself, so generated scenes join Siconos benchmarks) or a NumPy `.npz` archive
//! (sparse, binary), by the output's extension.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Failure;
use crate::io::numpy::npz;
use crate::io::{AnyProblem, json, siconos};
use crate::multibody::SceneKind;
use crate::multibody::scenes::{self, Scene, SceneParams, SceneSpec};
use crate::problem::FrictionKind;
use clap::{Args, ValueEnum};

use super::args;

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
    /// Boxes in a box stack (4 contacts each; 1 to 250 000).
    #[arg(long, default_value = "5", value_parser = args::boxes)]
    n: usize,
    /// Mass ratio of heavy-on-light (a finite number > 0).
    #[arg(long, default_value = "1000", allow_hyphen_values = true, value_parser = args::ratio)]
    ratio: f64,
    /// Courses of a wall.
    #[arg(long, default_value = "3", value_parser = args::side)]
    rows: usize,
    /// Bricks per course of a wall.
    #[arg(long, default_value = "4", value_parser = args::side)]
    cols: usize,
    /// Bottom course of a pyramid.
    #[arg(long, default_value = "4", value_parser = args::side)]
    base: usize,
    /// Size the scene for about this many contacts instead (box-stack, wall, pyramid;
    /// 1 to 1 000 000).
    #[arg(long, value_parser = args::contacts)]
    contacts: Option<usize>,
    /// Write the global problem (M, H, q, b, mu) instead of the local one (W, q, mu).
    #[arg(long)]
    global: bool,
    /// Friction law written in the file: coulomb or ccp.
    #[arg(long, default_value = "coulomb", value_parser = args::kind)]
    kind: FrictionKind,
    /// Output file, written whole, in the format its name gives: `.json` the project's
    /// JSON, `.dat` Siconos numerics text (Coulomb only: the format has no law), `.npz` a
    /// NumPy archive (sparse CSR arrays, read by numpy.load); `-` JSON on standard output.
    #[arg(long, short, default_value = "-")]
    output: PathBuf,
}

fn build(a: &GenerateArgs) -> Result<Scene, String> {
    let e = |e: crate::multibody::MultibodyError| e.to_string();
    let flag = match (a.contacts, a.scene) {
        (Some(_), _) => "--contacts",
        (None, SceneName::BoxStack) => "--n",
        (None, SceneName::HeavyOnLight) => "--ratio",
        (None, SceneName::Wall) => "--rows/--cols",
        (None, SceneName::Pyramid) => "--base",
    };
    let e = move |err| format!("{flag}: {}", e(err));
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
            .and_then(|spec| spec.build(&p))
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

pub fn run(a: GenerateArgs) -> Result<ExitCode, Failure> {
    let to_stdout = a.output.as_os_str() == "-";
    if !to_stdout {
        super::output::plan(
            &[],
            &[super::output::Output::file(Some(&a.output), "output (-o)")],
        )?;
    }
    let ext = a
        .output
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        _ if to_stdout => {}
        Some("json" | "npz") => {}
        Some("dat") if a.kind == FrictionKind::Ccp => {
            return Err(Failure::Usage(format!(
                "{}: a Siconos .dat file has no friction law (it is read back as Coulomb); \
                 write the CCP problem as .json or .npz",
                a.output.display()
            )));
        }
        Some("dat") => {}
        _ => {
            return Err(Failure::Usage(format!(
                "{}: cannot tell the output format from the name; name the file .json (the \
                 project's JSON), .dat (Siconos numerics text) or .npz (NumPy archive), or \
                 give -o - for JSON on standard output",
                a.output.display()
            )));
        }
    }
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
    let mut provenance = scene.provenance(a.global);
    // the scene describes the law it was built with (Coulomb); --kind changed it
    let built = format!(", law {};", FrictionKind::default().name());
    provenance.description = provenance
        .description
        .replace(&built, &format!(", law {};", a.kind.name()));
    let text = match ext.as_deref() {
        _ if to_stdout => json::to_string(&scene.name, &problem, None, &provenance),
        Some("npz") => {
            npz::write(
                &a.output,
                &scene.name,
                &problem,
                None,
                &provenance,
                npz::Compression::Stored,
            )
            .map_err(|e| Failure::Usage(e.to_string()))?;
            String::new()
        }
        Some("dat") => match &problem {
            AnyProblem::Global(p) => siconos::gfc3d_to_string(p),
            AnyProblem::Friction(p) => siconos::fc3d_to_string(p),
            _ => unreachable!("a scene is a friction problem"),
        },
        _ => json::to_string(&scene.name, &problem, None, &provenance),
    };
    if to_stdout {
        let stdout = std::io::stdout();
        super::table::emit(&mut stdout.lock(), &text)?;
        return Ok(ExitCode::SUCCESS);
    }
    if !text.is_empty() {
        crate::io::write_atomic(&a.output, (text + "\n").as_bytes())
            .map_err(|e| Failure::Usage(e.to_string()))?;
    }
    if !to_stdout {
        say!(
            "wrote {} ({} contacts, {} unknowns)",
            a.output.display(),
            problem.contacts(),
            problem.dim()
        );
    }
    Ok(ExitCode::SUCCESS)
}
