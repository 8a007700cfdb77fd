//! The book's *PROX over time* chapter, second half: Erleben 2017 figures 5-7 (simulator
//! time per step and energies per r-factor strategy) on scenes in motion, where each PROX
//! variant drives its own simulation.
//!
//! Unlike `prox_over_time` (recorded problems of scenes at rest, re-solved from zero), here
//! the per-step contact solver of the [`Simulation`] is the PROX variant itself, through
//! the registry (`prox-gs` / `prox-jacobi` with the paper's options), warm-started from
//! the previous step as any simulation is: the impulses it returns move the bodies, so
//! the variants simulate different motions (the point of the paper's figure 7).
//!
//! ```text
//! cargo run --release --example prox_motion
//! ```
//!
//! Writes `book/src/generated/prox_motion.txt` and the kinetic-energy figures
//! `book/src/figures/prox_motion_energy_*` (deterministic; its test checks them), and the
//! machine-dependent `generated/prox_motion_timing.txt` and
//! `figures/prox_motion_time_*` (solver time per step; written by a run, not checked:
//! `examples/timing_figures.rs` redraws these figures from their CSV files and checks the
//! drawing).

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nalgebra::{UnitQuaternion, Vector3};
use nonsmooth::prox::{ProxOptions, RFactor, Scheme};
use nonsmooth::registry::Choice;
use nonsmooth::solver::Params;
use nonsmooth::stepping::{Settings, Simulation};
use nonsmooth::world::scenes::{self, TowerParams};
use nonsmooth::world::{Material, MaterialId, Shape, World};
use support::series::{Series, TimeFigure};
use support::timing::{
    PROX_MOTION_SCENES, PROX_MOTION_SPHERES_SIDE, prox_motion_scene_label, prox_motion_time,
};

/// Steps per simulation (dt 0.01 s): the paper's 450 (Erleben 2017 section 5, "the first
/// 450 simulation steps").
const STEPS: usize = 450;

/// The paper's thresholds (Erleben 2017 section 5: "absolute and relative stopping
/// thresholds of 0.001") and its iteration cap of 1000.
const THRESHOLD: f64 = 1e-3;
const CAP: usize = 1000;

/// The variants that drive a simulation: the three r-factor strategies of figures 4-7,
/// with Gauss-Seidel and with Jacobi (figures 8-9). The figures plot the first
/// [`PLOTTED`] (Gauss-Seidel, as figures 5-7 compare the strategies).
const VARIANTS: [(Scheme, RFactor); 6] = [
    (Scheme::GaussSeidel, RFactor::Blocked),
    (Scheme::GaussSeidel, RFactor::Global { r: 5.0 }),
    (Scheme::GaussSeidel, RFactor::Local),
    (Scheme::Jacobi, RFactor::Blocked),
    (Scheme::Jacobi, RFactor::Global { r: 5.0 }),
    (Scheme::Jacobi, RFactor::Local),
];
const PLOTTED: usize = 3;

/// The paper's PROX setting ([`ProxOptions::paper`]: window 1, the strategy's `nu`) with
/// `r_factor` and its two step tests at 1e-3, as a registry method (`prox-gs` or
/// `prox-jacobi`, every option set explicitly: the registry's defaults are the
/// recommended setting, not the paper's).
fn choice(scheme: Scheme, r_factor: RFactor) -> Choice {
    let o = ProxOptions {
        r_factor,
        step_abs_tol: THRESHOLD,
        step_rel_tol: THRESHOLD,
        ..ProxOptions::paper(scheme)
    };
    let name = match scheme {
        Scheme::GaussSeidel => "prox-gs",
        Scheme::Jacobi => "prox-jacobi",
    };
    let mut c = Choice::new(name).unwrap();
    let serde_json::Value::Object(m) = serde_json::to_value(&o).unwrap() else {
        unreachable!("options serialise to an object")
    };
    for (k, v) in m {
        if k != "scheme" && !v.is_null() {
            c = c.set(&k, v).unwrap();
        }
    }
    c
}

fn settings(scheme: Scheme, r_factor: RFactor) -> Settings {
    Settings {
        method: choice(scheme, r_factor),
        params: Params {
            tol: THRESHOLD,
            max_iter: CAP,
            ..Params::default()
        },
        ..Settings::default()
    }
}

/// A scene in motion, built from the public [`World`] API.
struct Scene {
    /// File-name part.
    key: &'static str,
    /// Table heading.
    label: String,
    world: World,
}

// ANCHOR: tower_hit
/// The tower of Erleben 2017 figure 3 (49 bodies): 6 rings of 8 bricks (16 kg each) and a
/// ball of radius 0.15 m and density 4000 kg/m³ (57 kg) that flies in along `+x` at
/// 5 m/s from 0.5 m away and hits the second ring.
fn tower_hit() -> Scene {
    let p = TowerParams {
        layers: 6,
        ..TowerParams::default()
    };
    let mut world = scenes::tower::build(&p).unwrap();
    let r = 0.15;
    let x = -(p.radius() + p.half_extents.y + 0.5 + r);
    let ball = Shape::sphere(r).unwrap();
    let at = Vector3::new(x, 0.0, 3.0 * p.half_extents.z);
    let q = UnitQuaternion::identity();
    let i = world
        .add(ball, 4000.0, at, q, MaterialId::default())
        .unwrap();
    world.body_mut(i).unwrap().body.linear_velocity = Vector3::new(5.0, 0.0, 0.0);
    Scene {
        key: "tower",
        label: prox_motion_scene_label("tower"),
        world,
    }
}
// ANCHOR_END: tower_hit

/// A world with friction 0.5 and no restitution on every contact (the scenes' default).
fn world() -> World {
    let mut world = World::new();
    world
        .set_material(MaterialId(0), Material::new(0.5, 0.0).unwrap())
        .unwrap();
    world
}

/// `side^3` spheres (`side` = [`PROX_MOTION_SPHERES_SIDE`], 125) of radius 0.1 m
/// (1000 kg/m³, 4.2 kg; each layer shifted so that none sits exactly on another) dropped
/// from up to about 1.5 m into a bin with 0.8 m walls: they fall, hit each other
/// plastically, roll and settle (the paper's Spheres scene, figures 3 and 6, has 1730).
fn spheres() -> Scene {
    let side = PROX_MOTION_SPHERES_SIDE;
    let mut world = world();
    let spacing = 0.25;
    let half = 0.5 * spacing * side as f64 + 0.1;
    let (t, h) = (0.1, 0.8);
    let q = UnitQuaternion::identity();
    let (ht, hh) = (t / 2.0, h / 2.0);
    let walls = [
        (Vector3::new(-half - ht, 0.0, hh), (ht, half, hh)),
        (Vector3::new(half + ht, 0.0, hh), (ht, half, hh)),
        (Vector3::new(0.0, -half - ht, hh), (half + t, ht, hh)),
        (Vector3::new(0.0, half + ht, hh), (half + t, ht, hh)),
    ];
    for (at, (a, b, c)) in walls {
        world
            .add_fixed(Shape::cuboid(a, b, c).unwrap(), at, q, MaterialId(0))
            .unwrap();
    }
    let centre = 0.5 * spacing * (side as f64 - 1.0);
    for k in 0..side {
        for j in 0..side {
            for i in 0..side {
                let shift = 0.03 * (k % 3) as f64 - 0.03 + 0.01 * (j % 2) as f64;
                let at = Vector3::new(
                    spacing * i as f64 - centre + shift,
                    spacing * j as f64 - centre - shift,
                    0.4 + spacing * k as f64,
                );
                world
                    .add(Shape::sphere(0.1).unwrap(), 1000.0, at, q, MaterialId(0))
                    .unwrap();
            }
        }
    }
    Scene {
        key: "spheres",
        label: prox_motion_scene_label("spheres"),
        world,
    }
}

/// Sixteen 0.2 m cubes (8 kg) on the ground: in each of 8 rows, one slides along `+x` at
/// 1 to 2.75 m/s (every other one also spinning at 5 rad/s about `z`) towards one at rest
/// 0.4 m ahead, which the four fastest reach (`v^2 > 2 mu g 0.4`); friction 0.5 stops
/// everything within about 0.6 s (`v / mu g`), then they stick.
fn sliding() -> Scene {
    let mut world = world();
    let q = UnitQuaternion::identity();
    let a = 0.1;
    for row in 0..8 {
        let y = -1.75 + 0.5 * row as f64;
        let cube = || Shape::cuboid(a, a, a).unwrap();
        let at = Vector3::new(-0.6, y, a);
        let moving = world.add(cube(), 1000.0, at, q, MaterialId(0)).unwrap();
        let at = Vector3::new(0.0, y, a);
        world.add(cube(), 1000.0, at, q, MaterialId(0)).unwrap();
        let b = &mut world.body_mut(moving).unwrap().body;
        b.linear_velocity = Vector3::new(1.0 + 0.25 * row as f64, 0.0, 0.0);
        if row % 2 == 1 {
            b.angular_velocity = Vector3::new(0.0, 0.0, 5.0);
        }
    }
    Scene {
        key: "sliding",
        label: prox_motion_scene_label("sliding"),
        world,
    }
}

/// One step of one simulation.
struct Step {
    contacts: usize,
    sweeps: usize,
    rollbacks: usize,
    stop: String,
    seconds: f64,
    /// Wall time of the whole step: collision detection, dynamics, correction.
    step_seconds: f64,
    kinetic: f64,
    potential: f64,
    penetration: f64,
}

fn simulate(world: &World, scheme: Scheme, r_factor: RFactor) -> Vec<Step> {
    let mut sim = Simulation::new(world.clone(), settings(scheme, r_factor)).unwrap();
    (0..STEPS)
        .map(|_| {
            let r = sim.step().unwrap();
            let stats = sim.last_solver_stats();
            let field = |k: &str| stats.get(k).and_then(|v| v.as_u64()).unwrap_or(0) as usize;
            Step {
                contacts: r.contacts,
                sweeps: field("sweeps"),
                rollbacks: field("rollbacks"),
                stop: match stats.get("stop").and_then(|v| v.as_str()) {
                    Some(s) => s.to_string(),
                    None => "none".into(),
                },
                seconds: r.solve_seconds,
                step_seconds: r.collision_seconds + r.dynamics_seconds + r.correction_seconds,
                kinetic: r.kinetic_energy,
                potential: r.potential_energy,
                penetration: r.max_penetration,
            }
        })
        .collect()
}

/// Min, Q1, median, Q3, max (the `ceil(q n)`-th smallest).
fn five(mut v: Vec<f64>) -> [f64; 5] {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    [0.0, 0.25, 0.5, 0.75, 1.0].map(|q| v[((q * n as f64).ceil() as usize).clamp(1, n) - 1])
}

fn variant_name(scheme: Scheme, r_factor: RFactor) -> String {
    format!("{} {}", scheme.name(), r_factor.name())
}

struct Outputs {
    table: String,
    timing: String,
    energy: Vec<TimeFigure>,
    time: Vec<TimeFigure>,
}

fn build() -> Outputs {
    let mut table = String::new();
    let mut timing = String::new();
    writeln!(
        table,
        "Each PROX variant drives its own simulation for {STEPS} steps (dt 0.01 s, the \
         velocity-based scheme,\nno correction, warm-started from the previous step's \
         impulses): the paper's setting\n(ProxOptions::paper, window 1) with \
         step_abs_tol = step_rel_tol = {THRESHOLD:e},\nParams {{ tol: {THRESHOLD:e}, \
         max_iter: {CAP} }}.\n\
         contacts: median over the steps with contacts (`steps` of them). sweeps: per step \
         with contacts,\nrolled-back ones included. rollbacks: divergence detections \
         (Erleben 2017 figure 9), total and\nsteps with at least one. stops: converged / \
         step-abs / step-rel / max-iter.\n\
         KE, PE: kinetic and potential energy (J) after the last step; KE max: the largest \
         kinetic energy\nover the run; dKE global, dKE local: the largest difference over \
         the steps from the kinetic\nenergy of the `prox-gs global` and `prox-gs local` \
         runs (J); pen max: the largest penetration\nover the run (m).\n"
    )
    .unwrap();
    writeln!(
        timing,
        "Wall time of the contact solve per step with contacts (ms), one thread; \
         machine-dependent.\ntotal: the contact solves of the run (s); steps: the whole \
         steps (collision detection,\ndynamics, solve) of the run (s). The runs of \
         generated/prox_motion.txt.\n"
    )
    .unwrap();
    let mut energy = Vec::new();
    let mut time = Vec::new();
    let scenes = [tower_hit(), spheres(), sliding()];
    assert!(scenes.iter().map(|s| s.key).eq(PROX_MOTION_SCENES));
    for scene in scenes {
        let runs: Vec<(String, Vec<Step>)> = VARIANTS
            .iter()
            .map(|&(s, r)| {
                let t0 = std::time::Instant::now();
                let steps = simulate(&scene.world, s, r);
                eprintln!(
                    "{} {}: {:.1} s",
                    scene.key,
                    variant_name(s, r),
                    t0.elapsed().as_secs_f64()
                );
                (variant_name(s, r), steps)
            })
            .collect();
        let bodies = scene
            .world
            .bodies()
            .iter()
            .filter(|b| !b.body.fixed)
            .count();
        writeln!(table, "{}: {bodies} moving bodies\n", scene.label).unwrap();
        writeln!(
            table,
            "  {:<19} {:>8} {:>5} {:>4} {:>6} {:>4} {:>4} {:>9} {:>5}  {}",
            "variant",
            "contacts",
            "steps",
            "Q1",
            "median",
            "Q3",
            "max",
            "rollbacks",
            "steps",
            "stops"
        )
        .unwrap();
        let mut motion = String::new();
        writeln!(
            motion,
            "  {:<19} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
            "variant", "KE", "PE", "KE max", "dKE global", "dKE local", "pen max"
        )
        .unwrap();
        writeln!(timing, "{}\n", scene.label).unwrap();
        writeln!(
            timing,
            "  {:<28} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
            "scene: variant", "min", "Q1", "median", "Q3", "max", "total", "steps"
        )
        .unwrap();
        let ke = |k: usize| -> Vec<f64> { runs[k].1.iter().map(|s| s.kinetic).collect() };
        let (global, local) = (ke(1), ke(2));
        for (name, steps) in &runs {
            let active: Vec<&Step> = steps.iter().filter(|s| s.contacts > 0).collect();
            let n = active.len();
            let q = five(active.iter().map(|s| s.sweeps as f64).collect());
            let contacts = five(active.iter().map(|s| s.contacts as f64).collect());
            let rollbacks: usize = active.iter().map(|s| s.rollbacks).sum();
            let with = active.iter().filter(|s| s.rollbacks > 0).count();
            let count = |k: &str| active.iter().filter(|s| s.stop == k).count();
            writeln!(
                table,
                "  {:<19} {:>8} {:>5} {:>4} {:>6} {:>4} {:>4} {:>9} {:>5}  {}",
                name,
                contacts[2],
                n,
                q[1],
                q[2],
                q[3],
                q[4],
                rollbacks,
                with,
                format!(
                    "{} / {} / {} / {}",
                    count("converged"),
                    count("step-absolute"),
                    count("step-relative"),
                    count("max-iterations")
                ),
            )
            .unwrap();
            let last = steps.last().unwrap();
            let dke = |reference: &[f64]| {
                steps
                    .iter()
                    .zip(reference)
                    .map(|(s, r)| (s.kinetic - r).abs())
                    .fold(0.0, f64::max)
            };
            let ke_max = steps.iter().map(|s| s.kinetic).fold(0.0, f64::max);
            let pen = steps.iter().map(|s| s.penetration).fold(0.0, f64::max);
            writeln!(
                motion,
                "  {:<19} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
                name,
                support::sci(last.kinetic),
                support::sci(last.potential),
                support::sci(ke_max),
                support::sci(dke(&global)),
                support::sci(dke(&local)),
                support::sci(pen),
            )
            .unwrap();
            let ms = five(active.iter().map(|s| 1e3 * s.seconds).collect());
            let total: f64 = steps.iter().map(|s| s.seconds).sum();
            let whole: f64 = steps.iter().map(|s| s.step_seconds).sum();
            writeln!(
                timing,
                "  {:<28} {:>7.3} {:>7.3} {:>7.3} {:>7.3} {:>7.3} {:>7.3} {:>7.3}",
                format!("{}: {name}", scene.key),
                ms[0],
                ms[1],
                ms[2],
                ms[3],
                ms[4],
                total,
                whole
            )
            .unwrap();
        }
        writeln!(table, "\n{motion}").unwrap();
        timing.push('\n');
        let curve = |f: &dyn Fn(&Step) -> f64| -> Vec<Series> {
            runs.iter()
                .take(PLOTTED)
                .map(|(name, steps)| Series {
                    label: name.clone(),
                    points: steps
                        .iter()
                        .enumerate()
                        .map(|(k, s)| (0.01 * (k + 1) as f64, f(s)))
                        .collect(),
                })
                .collect()
        };
        energy.push(TimeFigure {
            name: format!("prox_motion_energy_{}", scene.key),
            caption: format!("Kinetic energy, {}", scene.label),
            x_desc: "time (s)",
            y_desc: "kinetic energy (J)",
            log_y: false,
            series: curve(&|s| s.kinetic),
        });
        time.push(prox_motion_time(scene.key, curve(&|s| 1e3 * s.seconds)));
    }
    Outputs {
        table,
        timing,
        energy,
        time,
    }
}

fn main() {
    let t0 = std::time::Instant::now();
    let out = build();
    eprintln!("{:.1} s", t0.elapsed().as_secs_f64());
    print!("{}{}", out.table, out.timing);
    support::publish("generated/prox_motion.txt", &out.table);
    support::publish("generated/prox_motion_timing.txt", &out.timing);
    for f in out.energy.iter().chain(&out.time) {
        f.publish();
    }
}

#[cfg(test)]
mod tests {
    /// The deterministic outputs (the table and the energy figures) are the committed ones;
    /// the timings are not checked (the time figures' drawing is, by `timing_figures`).
    #[test]
    fn generated_output_is_current() {
        let out = super::build();
        super::support::publish("generated/prox_motion.txt", &out.table);
        for f in &out.energy {
            f.publish();
        }
    }
}
