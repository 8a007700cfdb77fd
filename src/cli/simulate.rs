//! `nonsmooth simulate`: run a scene over time with any method of the registry as the
//! contact solver; print a per-step table or JSON Lines; optionally write the trajectory,
//! the records, every step's contact problem and an animation.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::Failure;
use super::args;
use super::output::{Output, Streamed};
use super::table::{Align, Table, emit, sci};
use crate::implicit::linear::InnerSolver;
use crate::implicit::scenes::{self as implicit_scenes, ImplicitScene};
use crate::implicit::{FrictionForm, Model, Ncp};
use crate::io::json;
use crate::problem::{FrictionKind, Provenance};
use crate::registry::{Choice, OptionError};
use crate::stepping::correction::Push;
use crate::stepping::shock::vsp::BottomVelocity;
use crate::stepping::{Correction, Settings, Simulation, StepRecord, Stepper};
use crate::world::World;
use crate::world::render::{Frame, RenderOptions, animated_svg};
use crate::world::scenes::heavy_on_light::{self, HeavyOnLightParams};
use crate::world::scenes::roof_tower::{self, RoofTowerParams};
use crate::world::scenes::tower::{self, TowerParams};
use crate::world::scenes::{SceneKind, build};

#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// A scene: box-stack, heavy-on-light, wall, tower, ball-grid, pile, roof-tower,
    /// wall-push; with `--stepper implicit-newton` also chain, gripper, arch,
    /// deformable-slope; or a scene file (.json; the format is in the book's chapter "The
    /// world and collision detection").
    scene: String,
    /// The scene's size: boxes of box-stack, bricks per row of wall and wall-push, layers
    /// of tower and roof-tower, spheres per side of ball-grid, bodies of pile.
    #[arg(long)]
    n: Option<usize>,
    /// Bricks per ring of tower and roof-tower (at least 3; default 8 for tower, 20 for
    /// roof-tower).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    per_layer: Option<usize>,
    /// Mass ratio of heavy-on-light (heavy / light; a finite number > 0; default 1000).
    #[arg(long, allow_hyphen_values = true, value_parser = args::ratio)]
    ratio: Option<f64>,
    /// Seed of the pile's random shapes and placement (pile only; default 0).
    #[arg(long)]
    seed: Option<u64>,
    /// Steps to take.
    #[arg(long, default_value = "500")]
    steps: usize,
    /// Time step in s (finite, > 0).
    #[arg(long, default_value = "0.01", allow_hyphen_values = true, value_parser = args::time_step)]
    dt: f64,
    /// The contact solver (`nonsmooth methods` lists them with their options).
    #[arg(long, short, default_value = "auto", value_parser = args::method,
          help = super::methods::method_help(
              "The contact solver, a method that solves 3D friction problems (or `vgs`: the \
               step posed in velocity space, the Delassus operator never formed)",
              Some(crate::registry::ProblemType::Fc3d)))]
    method: Choice,
    /// Set an option of the method: KEY=VALUE, repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Tolerance of each contact solve (Siconos 4.4 normalisation).
    #[arg(long, default_value = "1e-8", allow_hyphen_values = true, value_parser = args::tolerance)]
    tol: f64,
    /// Iteration cap of each contact solve (a step that reaches it goes on with the last
    /// iterate; its status says max-iterations). `auto` applies it to each of its stages, so
    /// its `iter` column, the sum over the stages, can exceed it.
    #[arg(long, default_value = "1000", value_parser = args::iterations)]
    max_iter: usize,
    /// The scheme: velocity (Erleben 2007 eq. 45), moreau (mid-point, Erleben 2017 eq.
    /// 41-42), vsp (velocity-based shock propagation, Erleben 2007 figure 14; the same
    /// as --shock-propagation) or implicit-newton (position-level implicit steps solved
    /// by non-smooth Newton, Macklin et al. 2019; the only one for the chain, gripper and
    /// deformable-slope scenes).
    #[arg(long, default_value = "velocity", value_parser = |s: &str| Stepper::from_name(s).ok_or_else(|| format!("unknown stepper `{s}` (expected velocity, moreau, vsp or implicit-newton)")))]
    stepper: Stepper,
    /// implicit-newton: the NCP function of contact rows, fb (Fischer-Burmeister, the
    /// default) or min (minimum map).
    #[arg(long, help_heading = "Implicit Newton (--stepper implicit-newton)", value_parser = |s: &str| Ncp::from_name(s).ok_or_else(|| format!("unknown NCP function `{s}` (expected fb or min)")))]
    ncp: Option<Ncp>,
    /// implicit-newton: turn the complementarity preconditioner off (r = 1).
    #[arg(long, help_heading = "Implicit Newton (--stepper implicit-newton)")]
    no_preconditioner: bool,
    /// implicit-newton: the inner linear solver: pcr (default), cg, jacobi, gauss-seidel,
    /// direct (sparse LU) or gmres.
    #[arg(long, help_heading = "Implicit Newton (--stepper implicit-newton)", value_parser = |s: &str| InnerSolver::from_name(s).ok_or_else(|| format!("unknown inner solver `{s}` (expected pcr, cg, jacobi, gauss-seidel, direct or gmres)")))]
    inner: Option<InnerSolver>,
    /// implicit-newton: how friction is linearised: compliance (the paper's fixed point,
    /// the default) or natural-map (exact; needs --inner gmres or direct).
    #[arg(long, value_name = "FORM", help_heading = "Implicit Newton (--stepper implicit-newton)", value_parser = |s: &str| FrictionForm::from_name(s).ok_or_else(|| format!("unknown friction form `{s}` (expected compliance or natural-map)")))]
    implicit_friction: Option<FrictionForm>,
    /// implicit-newton: inner iterations per Newton iteration (default 20).
    #[arg(long, help_heading = "Implicit Newton (--stepper implicit-newton)", value_parser = args::iterations)]
    inner_iter: Option<usize>,
    /// implicit-newton: stop the inner solver early at this relative residual (default 0:
    /// always run --inner-iter iterations, as the paper).
    #[arg(long, help_heading = "Implicit Newton (--stepper implicit-newton)", allow_hyphen_values = true, value_parser = args::tolerance)]
    inner_tol: Option<f64>,
    /// implicit-newton: Newton iterations per step at most (default 20).
    #[arg(long, help_heading = "Implicit Newton (--stepper implicit-newton)", value_parser = args::iterations)]
    newton_iter: Option<usize>,
    /// implicit-newton: stop Newton at this residual in m/s (default 1e-6; 0 runs every
    /// --newton-iter iteration).
    #[arg(long, help_heading = "Implicit Newton (--stepper implicit-newton)", allow_hyphen_values = true, value_parser = args::tolerance)]
    newton_tol: Option<f64>,
    /// implicit-newton: the damping fraction alpha in (0, 1] of each Newton step
    /// (default 1).
    #[arg(
        long,
        help_heading = "Implicit Newton (--stepper implicit-newton)",
        allow_hyphen_values = true
    )]
    alpha: Option<f64>,
    /// implicit-newton: backtracking line search on the merit (the squared residual).
    #[arg(long, help_heading = "Implicit Newton (--stepper implicit-newton)")]
    line_search: bool,
    /// implicit-newton: Levenberg-Marquardt shift of the Schur complement's contact rows
    /// relative to their diagonal (dimensionless, >= 0; default 0).
    #[arg(
        long,
        help_heading = "Implicit Newton (--stepper implicit-newton)",
        allow_hyphen_values = true
    )]
    damping: Option<f64>,
    /// implicit-newton: turn the diagonal geometric stiffness approximation off.
    #[arg(long, help_heading = "Implicit Newton (--stepper implicit-newton)")]
    no_geometric_stiffness: bool,
    /// implicit-newton: the identity shift eps >= 0 of the Schur complement (default 1e-9).
    #[arg(
        long,
        help_heading = "Implicit Newton (--stepper implicit-newton)",
        allow_hyphen_values = true
    )]
    regularisation: Option<f64>,
    /// implicit-newton: the largest speed in m/s at which a contact that starts a step
    /// overlapping is pushed out (default 0.01; 0 only stops it from deepening).
    #[arg(
        long,
        value_name = "M_PER_S",
        help_heading = "Implicit Newton (--stepper implicit-newton)",
        allow_hyphen_values = true
    )]
    recovery_speed: Option<f64>,
    /// Velocity-based shock propagation (Erleben 2007 figure 14): a fraction a of each
    /// step for the whole system, the rest stack layer by stack layer with each layer's
    /// bottom fixed; the table gains a layers column.
    #[arg(long, conflicts_with = "stepper")]
    shock_propagation: bool,
    /// The weight a of shock propagation, 0 <= a <= 1 (default 0.005; the paper uses
    /// 0 < a < 0.01; a = 0 lets no body feel the weight of the layers above it).
    #[arg(long, value_name = "A", allow_hyphen_values = true, value_parser = args::vsp_weight)]
    vsp_weight: Option<f64>,
    /// The velocity a bottom body, fixed for the layer above it, has in that layer's
    /// problem: at-rest (zero; the default, the only choice that keeps a resting tower at
    /// rest), whole-system (its velocity after the whole-system part of the step) or
    /// updated (the one its own layer gave it; velocity errors then grow from layer to
    /// layer on brick towers).
    #[arg(long, value_name = "V", value_parser = |s: &str| BottomVelocity::from_name(s).ok_or_else(|| format!("unknown bottom velocity `{s}` (expected one of {})", BottomVelocity::ALL.map(|b| b.name()).join(", "))))]
    vsp_bottoms: Option<BottomVelocity>,
    /// The iteration budget of the whole-system part of a shock-propagation step
    /// (default 10, the paper's budget): it stops earlier at --tol, and a stop at the
    /// budget is planned (the table's `whole` column says `budget`), not a failure.
    #[arg(long, value_name = "N", value_parser = args::iterations)]
    vsp_whole_budget: Option<usize>,
    /// How a stack layer's correction moves its top bodies: translating (the default;
    /// a push off a brick's centre would turn it and lift the layers above) or turning
    /// (Erleben 2007 eq. 46c as printed).
    #[arg(long, value_name = "PUSH", value_parser = |s: &str| Push::from_name(s).ok_or_else(|| format!("unknown layer push `{s}` (expected translating or turning)")))]
    vsp_layer_push: Option<Push>,
    /// Error correction: none, projection (Erleben 2007 eq. 46, 5 PGS sweeps) or
    /// post-stabilisation (Erleben 2017 eq. 43-51, passes until no contact penetrates
    /// more than 1e-6 m). Default post-stabilisation (100 sweeps a pass), projection with
    /// shock propagation (the final correction of figure 14), none for implicit-newton.
    #[arg(long, value_parser = |s: &str| Correction::from_name(s).ok_or_else(|| format!("unknown correction `{s}` (expected none, projection or post-stabilisation)")))]
    correction: Option<Correction>,
    /// Iteration cap of each correction solve (default 5 for projection, 100 for
    /// post-stabilisation).
    #[arg(long, value_parser = args::iterations)]
    correction_iter: Option<usize>,
    /// Constraint force mixing gamma >= 0 in 1/kg: the solver sees W + gamma I (Erleben
    /// 2007 eq. 41).
    #[arg(long, default_value = "0", allow_hyphen_values = true, value_parser = args::cfm)]
    cfm: f64,
    /// Friction law: coulomb or ccp.
    #[arg(long, default_value = "coulomb", value_parser = args::kind)]
    kind: FrictionKind,
    /// Start every contact solve from zero instead of the previous step's impulses (with
    /// implicit-newton: every Newton iteration from u = 0, λ = 0, as the paper).
    #[arg(long)]
    cold: bool,
    /// Write each step's contact problem (local form, global with vgs; the project's JSON)
    /// into this folder as step-NNNNNN.json (created if missing; steps without contacts are
    /// skipped).
    #[arg(long, value_name = "DIR")]
    dump_problems: Option<PathBuf>,
    /// Write the trajectory: every body's position, orientation quaternion (w, x, y, z)
    /// and velocities at every step; .jsonl (one object per step) or .csv (one row per
    /// step and body).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write the per-step records to a file: .jsonl or .csv.
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
    /// Write an animation of the run (an animated SVG, at most 100 frames, isometric).
    #[arg(long, value_name = "FILE.svg")]
    animate: Option<PathBuf>,
    /// Write the scene (at its start) as a scene file and go on.
    #[arg(long, value_name = "FILE.json")]
    save_scene: Option<PathBuf>,
    /// Print one row every N steps (the last step is always printed); 0 prints only the
    /// summary.
    #[arg(long, value_name = "N")]
    every: Option<usize>,
    /// One JSON object per step and line on standard output instead of a table.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// The world (and model) named or described by `scene`.
fn world(a: &SimulateArgs) -> Result<(World, Model), Failure> {
    if let Some(kind) = ImplicitScene::from_name(&a.scene) {
        if a.ratio.is_some() || a.seed.is_some() || a.per_layer.is_some() {
            return Err(Failure::Usage(format!(
                "--ratio, --seed and --per-layer do not apply to the {} scene",
                kind.name()
            )));
        }
        if kind.needs_implicit() && stepper(a) != Stepper::ImplicitNewton {
            return Err(Failure::Usage(format!(
                "the {} scene has joints or deformable bodies, which only --stepper implicit-newton simulates",
                kind.name()
            )));
        }
        return implicit_scenes::build(kind, a.n)
            .map_err(|e| Failure::Usage(format!("{}: {e}", a.scene)));
    }
    Ok((world_only(a)?, Model::default()))
}

/// A world scene or a scene file.
fn world_only(a: &SimulateArgs) -> Result<World, Failure> {
    if let Some(kind) = SceneKind::from_name(&a.scene) {
        let e = |e: crate::multibody::MultibodyError| Failure::Usage(format!("{}: {e}", a.scene));
        return match (kind, a.ratio) {
            (SceneKind::HeavyOnLight, Some(ratio)) => {
                if a.n.is_some() {
                    return Err(Failure::Usage(
                        "heavy-on-light has no size (--n); set its mass ratio with --ratio".into(),
                    ));
                }
                heavy_on_light::build(&HeavyOnLightParams {
                    ratio,
                    ..HeavyOnLightParams::default()
                })
                .map_err(e)
            }
            (SceneKind::HeavyOnLight, None) if a.n.is_some() => Err(Failure::Usage(
                "heavy-on-light has no size (--n); set its mass ratio with --ratio".into(),
            )),
            (_, Some(_)) => Err(Failure::Usage(
                "--ratio applies to heavy-on-light only".into(),
            )),
            _ if a.seed.is_some() && kind != SceneKind::Pile => {
                Err(Failure::Usage("--seed applies to the pile only".into()))
            }
            (SceneKind::Tower, None) if a.per_layer.is_some() => {
                let mut p = TowerParams::default();
                p.per_layer = a.per_layer.unwrap_or(p.per_layer);
                p.layers = a.n.unwrap_or(p.layers);
                tower::build(&p).map_err(e)
            }
            (SceneKind::RoofTower, None) if a.per_layer.is_some() => {
                let mut p = RoofTowerParams::default();
                p.tower.per_layer = a.per_layer.unwrap_or(p.tower.per_layer);
                p.tower.layers = a.n.unwrap_or(p.tower.layers);
                roof_tower::build(&p).map_err(e)
            }
            _ if a.per_layer.is_some() => Err(Failure::Usage(
                "--per-layer applies to tower and roof-tower only".into(),
            )),
            _ => build(kind, a.n, a.seed.unwrap_or(0)).map_err(e),
        };
    }
    let path = Path::new(&a.scene);
    if path.exists() {
        if a.n.is_some() || a.ratio.is_some() || a.seed.is_some() || a.per_layer.is_some() {
            return Err(Failure::Usage(
                "--n, --ratio, --seed and --per-layer apply to the named scenes, not to a scene \
                 file"
                    .into(),
            ));
        }
        return crate::world::scene_file::scene_from_path(path)
            .map_err(|e| Failure::Input(e.to_string()));
    }
    let names: Vec<&str> = SceneKind::ALL
        .iter()
        .map(|k| k.name())
        .chain(ImplicitScene::ALL.iter().map(|k| k.name()))
        .collect();
    Err(Failure::Usage(format!(
        "`{}` is neither a scene ({}) nor a scene file",
        a.scene,
        names.join(", ")
    )))
}

/// The stepper asked for: `--stepper`, or vsp with `--shock-propagation`.
fn stepper(a: &SimulateArgs) -> Stepper {
    if a.shock_propagation {
        Stepper::Vsp
    } else {
        a.stepper
    }
}

/// The correction asked for, with its default: post-stabilisation
/// ([`Settings::recommended`]), projection for shock propagation (figure 14's final
/// `correction()`), none for implicit-newton (its contacts are solved at the new
/// positions' linearisation).
fn correction(a: &SimulateArgs) -> Correction {
    a.correction.unwrap_or(match stepper(a) {
        Stepper::Vsp => Correction::Projection,
        Stepper::ImplicitNewton => Correction::None,
        _ => Correction::PostStabilisation,
    })
}

fn settings(a: &SimulateArgs) -> Result<Settings, Failure> {
    let usage = |e: OptionError| Failure::Usage(e.to_string());
    let mut method = a.method.clone();
    for pair in &a.set {
        method = method.set_pair(pair).map_err(usage)?;
    }
    let vsp_flags = a.vsp_weight.is_some()
        || a.vsp_bottoms.is_some()
        || a.vsp_whole_budget.is_some()
        || a.vsp_layer_push.is_some();
    if vsp_flags && stepper(a) != Stepper::Vsp {
        return Err(Failure::Usage(
            "--vsp-weight, --vsp-bottoms, --vsp-whole-budget and --vsp-layer-push apply with \
             --shock-propagation (or --stepper vsp)"
                .into(),
        ));
    }
    if a.vsp_bottoms.is_some() && a.vsp_weight == Some(1.0) {
        return Err(Failure::Usage(
            "--vsp-bottoms has no effect with --vsp-weight 1 (no part of the step is taken layer by layer)"
                .into(),
        ));
    }
    if a.correction_iter.is_some() && correction(a) == Correction::None {
        return Err(Failure::Usage(
            "--correction-iter applies with --correction projection or post-stabilisation".into(),
        ));
    }
    let implicit_flags = a.ncp.is_some()
        || a.no_preconditioner
        || a.inner.is_some()
        || a.inner_iter.is_some()
        || a.inner_tol.is_some()
        || a.newton_iter.is_some()
        || a.newton_tol.is_some()
        || a.alpha.is_some()
        || a.line_search
        || a.no_geometric_stiffness
        || a.regularisation.is_some()
        || a.damping.is_some()
        || a.recovery_speed.is_some()
        || a.implicit_friction.is_some();
    if stepper(a) == Stepper::ImplicitNewton {
        if a.dump_problems.is_some() {
            return Err(Failure::Usage(
                "--dump-problems writes each step's velocity-level contact problem; the \
                 implicit-newton stepper solves a nonlinear system instead, which has none"
                    .into(),
            ));
        }
        if a.cfm != 0.0 {
            return Err(Failure::Usage(
                "--cfm applies to the velocity-level contact solve; implicit-newton \
                 regularises with --regularisation"
                    .into(),
            ));
        }
        if a.kind != FrictionKind::Coulomb {
            return Err(Failure::Usage(
                "--kind applies to the velocity-level steppers; implicit-newton has Coulomb \
                 friction (smooth isotropic, Macklin et al. 2019 §4.3)"
                    .into(),
            ));
        }
        if a.method.name() != "auto" || !a.set.is_empty() {
            return Err(Failure::Usage(
                "--method and --set choose the contact solver of the velocity-level steppers; \
                 implicit-newton has its own options (--ncp, --inner, --alpha, ...)"
                    .into(),
            ));
        }
    } else if implicit_flags {
        return Err(Failure::Usage(
            "--ncp, --no-preconditioner, --inner, --inner-iter, --inner-tol, --newton-iter, \
             --newton-tol, --alpha, --line-search, --no-geometric-stiffness, \
             --regularisation, --damping, --recovery-speed and --implicit-friction apply \
             with --stepper implicit-newton"
                .into(),
        ));
    }
    if a.every.is_some() && a.json {
        return Err(Failure::Usage(
            "--every applies to the table; --json prints every step".into(),
        ));
    }
    let mut s = Settings {
        dt: a.dt,
        stepper: stepper(a),
        method,
        friction: a.kind,
        warm_start: !a.cold,
        cfm: a.cfm,
        ..Settings::recommended()
    }
    .with_correction(correction(a));
    if s.correction == Correction::PostStabilisation {
        s.correction_params.max_iter = Settings::recommended().correction_params.max_iter;
    }
    if let Some(w) = a.vsp_weight {
        s.vsp_weight = w;
    }
    if let Some(b) = a.vsp_bottoms {
        s.vsp_bottom_velocity = b;
    }
    if let Some(n) = a.vsp_whole_budget {
        s.vsp_whole_budget = n;
    }
    if let Some(p) = a.vsp_layer_push {
        s.vsp_layer_push = p;
    }
    s.params.tol = a.tol;
    s.params.max_iter = a.max_iter;
    let im = &mut s.implicit;
    if let Some(n) = a.ncp {
        im.ncp = n;
    }
    im.preconditioner = !a.no_preconditioner;
    if let Some(i) = a.inner {
        im.inner.solver = i;
    }
    if let Some(k) = a.inner_iter {
        im.inner.iterations = k;
    }
    if let Some(t) = a.inner_tol {
        im.inner.rel_tol = t;
    }
    if let Some(k) = a.newton_iter {
        im.newton_iterations = k;
    }
    if let Some(t) = a.newton_tol {
        im.tol = t;
    }
    if let Some(x) = a.alpha {
        im.alpha = x;
    }
    im.line_search = a.line_search;
    im.geometric_stiffness = !a.no_geometric_stiffness;
    if let Some(e) = a.regularisation {
        im.regularisation = e;
    }
    if let Some(d) = a.damping {
        im.damping = d;
    }
    if let Some(v) = a.recovery_speed {
        im.recovery_speed = v;
    }
    if let Some(f) = a.implicit_friction {
        im.friction = f;
    }
    im.warm_start = !a.cold;
    if let Some(k) = a.correction_iter {
        s.correction_params.max_iter = k;
    }
    s.validate().map_err(|e| Failure::Usage(e.to_string()))?;
    Ok(s)
}

/// The contact solver as the header states it; `auto` says what it resolves to.
/// The scene's size options as given (` --n 10 --ratio 100000`), for the provenance of a
/// dumped problem; empty when none was given (the scene's defaults).
fn scene_options(a: &SimulateArgs) -> String {
    let mut s = String::new();
    if let Some(n) = a.n {
        s += &format!(" --n {n}");
    }
    if let Some(k) = a.per_layer {
        s += &format!(" --per-layer {k}");
    }
    if let Some(r) = a.ratio {
        s += &format!(" --ratio {r}");
    }
    if let Some(seed) = a.seed {
        s += &format!(" --seed {seed}");
    }
    s
}

fn describe_method(s: &Settings) -> String {
    if s.method.name() == "auto" && s.stepper == Stepper::Vsp {
        "auto (nsgs, the paper's projected Gauss-Seidel, in every part of the step)".into()
    } else if s.method.name() == "auto" && s.stepper != Stepper::ImplicitNewton {
        format!(
            "auto (the auto strategy up to {} contacts, nsgs above)",
            s.auto_max_contacts
        )
    } else {
        s.method.name().to_string()
    }
}

/// The table of steps; with a layers column for shock propagation.
fn table(layers: bool) -> Table {
    let mut columns = vec![
        ("step", 6, Align::Right),
        ("time", 7, Align::Right),
        ("contacts", 8, Align::Right),
    ];
    if layers {
        columns.push(("layers", 6, Align::Right));
        columns.push(("whole", 12, Align::Left));
    }
    columns.extend([
        ("status", 14, Align::Left),
        ("iter", 5, Align::Right),
        ("error", 9, Align::Right),
        ("penetration", 11, Align::Right),
        ("kinetic", 10, Align::Right),
        ("potential", 10, Align::Right),
        ("ms", 7, Align::Right),
    ]);
    Table::new(&columns)
}

fn row(r: &StepRecord, layers: bool) -> Vec<String> {
    let mut cells = vec![
        r.step.to_string(),
        format!("{:.3}", r.time),
        r.contacts.to_string(),
    ];
    if layers {
        cells.push(r.layers.to_string());
        cells.push(if r.whole_status.is_empty() {
            "-".to_string()
        } else {
            format!("{} {}", r.whole_status, r.whole_iterations)
        });
    }
    cells.extend([
        r.status.clone(),
        r.iterations.to_string(),
        sci(Some(r.error)),
        sci(Some(r.max_penetration)),
        sci(Some(r.kinetic_energy)),
        sci(Some(r.potential_energy)),
        format!(
            "{:.2}",
            1e3 * (r.collision_seconds + r.dynamics_seconds + r.correction_seconds)
        ),
    ]);
    cells
}

/// One line of the trajectory as JSON.
fn pose_line(r: &StepRecord, w: &World) -> String {
    let bodies: Vec<[f64; 13]> = w
        .bodies()
        .iter()
        .map(|b| {
            let (p, q) = (&b.body.position, b.body.orientation.quaternion());
            let (v, o) = (&b.body.linear_velocity, &b.body.angular_velocity);
            [
                p.x, p.y, p.z, q.w, q.i, q.j, q.k, v.x, v.y, v.z, o.x, o.y, o.z,
            ]
        })
        .collect();
    serde_json::json!({"step": r.step, "time": r.time, "bodies": bodies}).to_string()
}

const POSE_COLUMNS: &str = "step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";

fn pose_rows(r: &StepRecord, w: &World) -> String {
    let mut s = String::new();
    for (i, b) in w.bodies().iter().enumerate() {
        let (p, q) = (&b.body.position, b.body.orientation.quaternion());
        let (v, o) = (&b.body.linear_velocity, &b.body.angular_velocity);
        if i > 0 {
            s.push('\n');
        }
        s.push_str(&format!(
            "{},{},{i},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.step, r.time, p.x, p.y, p.z, q.w, q.i, q.j, q.k, v.x, v.y, v.z, o.x, o.y, o.z
        ));
    }
    s
}

enum Sink {
    Jsonl(Streamed),
    Csv(Streamed),
}

fn sink(path: &Option<PathBuf>, what: &str) -> Result<Option<Sink>, Failure> {
    let Some(p) = path else { return Ok(None) };
    match p.extension().and_then(|e| e.to_str()) {
        Some("jsonl") => Ok(Some(Sink::Jsonl(Streamed::create(p, what)?))),
        Some("csv") => Ok(Some(Sink::Csv(Streamed::create(p, what)?))),
        _ => Err(Failure::Usage(format!(
            "{}: the {what} is written as .jsonl or .csv (from the extension)",
            p.display()
        ))),
    }
}

/// Runs `nonsmooth simulate`.
///
/// # Errors
/// [`Failure::Usage`] for a bad command line, [`Failure::Input`] for a scene file that
/// cannot be read or a step that fails (the records so far are written first).
pub fn run(a: SimulateArgs) -> Result<ExitCode, Failure> {
    // Every output against the scene file and each other, before anything is read or run.
    let scene = PathBuf::from(&a.scene);
    let inputs: Vec<PathBuf> = if SceneKind::from_name(&a.scene).is_none()
        && ImplicitScene::from_name(&a.scene).is_none()
    {
        vec![scene]
    } else {
        Vec::new()
    };
    if let Some(p) = &a.animate
        && p.extension().and_then(|e| e.to_str()) != Some("svg")
    {
        return Err(Failure::Usage(format!(
            "{}: the animation is written as an .svg file",
            p.display()
        )));
    }
    super::output::plan(
        &inputs,
        &[
            Output::file(a.out.as_deref(), "trajectory (--out)"),
            Output::file(a.records.as_deref(), "records file (--records)"),
            Output::file(a.animate.as_deref(), "animation (--animate)"),
            Output::file(a.save_scene.as_deref(), "scene file (--save-scene)"),
            Output::folder(
                a.dump_problems.as_deref(),
                "problem folder (--dump-problems)",
            ),
        ],
    )?;
    let settings = settings(&a)?;
    let (world, model) = world(&a)?;
    if a.save_scene.is_some() && !model.is_empty() {
        return Err(Failure::Usage(format!(
            "--save-scene: scene files hold rigid bodies; the {} scene also has joints or particles",
            a.scene
        )));
    }
    if let Some(p) = &a.save_scene {
        crate::io::write_atomic(p, crate::world::scene_file::write_scene(&world).as_bytes())?;
    }
    if let Some(dir) = &a.dump_problems {
        std::fs::create_dir_all(dir).map_err(|e| {
            Failure::Usage(format!("{}: cannot create the folder: {e}", dir.display()))
        })?;
    }
    let mut out = sink(&a.out, "trajectory")?;
    if let Some(Sink::Csv(f)) = &mut out {
        f.line(POSE_COLUMNS)?;
    }
    let mut records = sink(&a.records, "records")?;
    if let Some(Sink::Csv(f)) = &mut records {
        f.line(&StepRecord::csv_header())?;
    }
    let bodies = world.bodies().len();
    let mut sim = Simulation::with_model(world, model, settings)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let every = a.every.unwrap_or((a.steps / 20).max(1));
    // The first frame and one every `frame_every` steps: at most 100 frames.
    let frame_every = a.steps.div_ceil(99).max(1);
    let mut frames = vec![Frame::of(sim.world(), 0.0)];

    let bar = if a.quiet || a.json {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::with_draw_target(Some(a.steps as u64), ProgressDrawTarget::stderr());
        b.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} steps {elapsed_precise} {msg}")
                .expect("a valid template"),
        );
        b
    };
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let layers = sim.settings().stepper == Stepper::Vsp;
    let t = table(layers);
    if !a.json {
        eprintln!(
            "{}: {bodies} bodies, dt {} s, {} steps, {} stepper{}, method {}, correction {}",
            a.scene,
            a.dt,
            a.steps,
            sim.settings().stepper.name(),
            if layers {
                format!(
                    " (weight a = {}, whole-system budget {} iterations)",
                    sim.settings().vsp_weight,
                    sim.settings()
                        .vsp_whole_budget
                        .min(sim.settings().params.max_iter)
                )
            } else {
                String::new()
            },
            describe_method(sim.settings()),
            sim.settings().correction.name()
        );
        bar.suspend(|| emit(&mut lock, &t.header()))?;
    }
    let mut unconverged = 0usize;
    let mut budgeted = 0usize;
    let mut failure = None;
    for _ in 0..a.steps {
        let r = match sim.step() {
            Ok(r) => r,
            Err(e) => {
                failure = Some(e.to_string());
                break;
            }
        };
        if r.status == "max-iterations" || r.status == "stalled" {
            unconverged += 1;
        }
        if r.whole_status == crate::stepping::shock::vsp::BUDGET {
            budgeted += 1;
        }
        if let Some(dir) = &a.dump_problems
            && let Some(p) = sim.last_problem()
            && r.contacts > 0
        {
            let name = format!("step-{:06}", r.step);
            let prov = Provenance {
                source: "nonsmooth simulate".into(),
                description: format!(
                    "scene {}{}, step {} (t = {} s), dt {} s, {} stepper, cfm {}; {} the step solved",
                    a.scene,
                    scene_options(&a),
                    r.step,
                    r.time,
                    a.dt,
                    sim.settings().stepper.name(),
                    a.cfm,
                    p.noun()
                ),
                units: [("r", "N s"), ("u", "m/s")]
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
                ..Default::default()
            };
            let answer = sim.last_answer().map(|x| crate::problem::EngineAnswer {
                source: format!("nonsmooth simulate ({}, {})", r.method, r.status),
                r: x.to_vec(),
                u: None,
            });
            json::write(
                dir.join(format!("{name}.json")),
                &name,
                p,
                answer.as_ref(),
                &prov,
            )?;
        }
        match &mut out {
            Some(Sink::Jsonl(f)) => f.line(&pose_line(&r, sim.world()))?,
            Some(Sink::Csv(f)) => f.line(&pose_rows(&r, sim.world()))?,
            None => {}
        }
        match &mut records {
            Some(Sink::Jsonl(f)) => f.line(&r.to_json_line())?,
            Some(Sink::Csv(f)) => f.line(&r.to_csv_line())?,
            None => {}
        }
        if a.animate.is_some() && r.step % frame_every == 0 {
            frames.push(Frame::of(sim.world(), r.time));
        }
        if a.json {
            emit(&mut lock, &r.to_json_line())?;
        } else if every > 0 && (r.step % every == 0 || r.step == a.steps) {
            bar.suspend(|| emit(&mut lock, &t.row(&row(&r, layers))))?;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    for s in [out, records].into_iter().flatten() {
        match s {
            Sink::Jsonl(f) | Sink::Csv(f) => f.finish()?,
        }
    }
    if let Some(p) = &a.animate {
        let scene = Path::new(&a.scene)
            .file_stem()
            .map_or_else(|| a.scene.clone(), |s| s.to_string_lossy().into_owned());
        let options = RenderOptions {
            title: Some(scene),
            ..RenderOptions::default()
        };
        let svg =
            animated_svg(&frames, &options, 0.1).map_err(|e| Failure::Input(e.to_string()))?;
        crate::io::write_atomic(p, svg.as_bytes())?;
    }
    if let Some(m) = failure {
        return Err(Failure::Input(format!("{}: {m}", a.scene)));
    }
    if !a.json {
        if sim.settings().stepper == Stepper::ImplicitNewton {
            eprintln!(
                "{} steps, {:.3} s simulated; {unconverged} steps stopped at the Newton cap (--newton-iter {}) above the tolerance (--newton-tol {} m/s)",
                sim.steps(),
                sim.time(),
                sim.settings().implicit.newton_iterations,
                sim.settings().implicit.tol
            );
        } else if layers {
            eprintln!(
                "{} steps, {:.3} s simulated; {unconverged} steps had a layer solve stop at the cap (--max-iter {}); the whole-system solve used its budget ({} iterations, --vsp-whole-budget) in {budgeted} steps, as planned",
                sim.steps(),
                sim.time(),
                a.max_iter,
                sim.settings().vsp_whole_budget.min(a.max_iter)
            );
        } else {
            eprintln!(
                "{} steps, {:.3} s simulated; {unconverged} contact solves stopped at the cap (--max-iter {})",
                sim.steps(),
                sim.time(),
                a.max_iter
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
