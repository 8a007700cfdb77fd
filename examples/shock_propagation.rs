//! The experiments of the book's chapter "Shock propagation" (Erleben 2007 sections 4-5):
//! the 25-box stack with 10 projected Gauss-Seidel sweeps a step with and without shock
//! propagation (figures 9-11), the ball grid's penetration under `correction()` alone and
//! shock-propagated (figure 13), the final correction on and off, what fixing a layer's
//! bottom costs (a pushed box under a heavy one; a box carried on a sliding box), and
//! the three choices of the bottom's velocity on a brick tower.
//!
//! ```text
//! cargo run --release --example shock_propagation
//! ```
//!
//! Writes `book/src/generated/shock_*.txt` and `book/src/figures/shock_*`; its test
//! checks the committed files. The timings (time per step against contacts, the tower
//! hit by a heavy block and a cannon ball) are `examples/shock_timing.rs`'s.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nalgebra::Vector3;
use nonsmooth::registry::Choice;
use nonsmooth::stepping::correction::{Push, projection, worst_penetration};
use nonsmooth::stepping::shock::shock_correction;
use nonsmooth::stepping::shock::vsp::BottomVelocity;
use nonsmooth::stepping::{Correction, Settings, Simulation, detect_at};
use nonsmooth::world::render::{Frame, RenderOptions, View, strip_svg};
use nonsmooth::world::scenes::heavy_on_light::{HeavyOnLightParams, build as heavy_on_light};
use nonsmooth::world::scenes::tower::{TowerParams, build as tower};
use nonsmooth::world::scenes::{SceneKind, build};
use nonsmooth::world::{Material, MaterialId, Shape, World};
use support::frames::{framed, publish_side_by_side, side_by_side};
use support::series::{Series, TimeFigure};

// ANCHOR: settings
/// Projected Gauss-Seidel (NSGS) capped at `sweeps` sweeps a step, the final correction
/// `correction()` with 5 sweeps: "we never used more than 10 iterations when performing
/// dynamics(), and only 5 iterations when doing error correction" (section 4).
fn pgs(sweeps: usize) -> Settings {
    let mut s = Settings {
        method: Choice::new("nsgs").unwrap(),
        ..Settings::default()
    }
    .with_correction(Correction::Projection);
    s.params.max_iter = sweeps;
    s
}

/// The same with velocity-based shock propagation of weight `a` (figure 14).
fn vsp(sweeps: usize, a: f64) -> Settings {
    pgs(sweeps).with_shock_propagation(a)
}
// ANCHOR_END: settings

/// A function that builds a world.
type SceneBuilder = fn() -> World;

/// A run of a scene: per step the worst penetration and the top body's height change,
/// frames every `frame_every` steps, and the step records' kinetic energy.
struct Trace {
    penetration: Vec<(f64, f64)>,
    drift: Vec<(f64, f64)>,
    kinetic: Vec<(f64, f64)>,
    frames: Vec<Frame>,
}

// ANCHOR: run
/// `steps` steps of `world` with `settings`, tracing the body that starts highest.
fn trace(world: World, settings: Settings, steps: usize, frame_every: usize) -> Trace {
    let top = (0..world.bodies().len())
        .max_by(|&i, &j| {
            let z = |k: usize| world.bodies()[k].body.position.z;
            z(i).total_cmp(&z(j))
        })
        .unwrap();
    let z0 = world.bodies()[top].body.position.z;
    let mut sim = Simulation::new(world, settings).unwrap();
    let mut t = Trace {
        penetration: Vec::new(),
        drift: Vec::new(),
        kinetic: Vec::new(),
        frames: vec![Frame::of(sim.world(), 0.0)],
    };
    for _ in 0..steps {
        let r = sim.step().unwrap();
        t.penetration.push((r.time, r.max_penetration));
        t.drift
            .push((r.time, sim.world().bodies()[top].body.position.z - z0));
        t.kinetic.push((r.time, r.kinetic_energy));
        if r.step % frame_every == 0 {
            t.frames.push(Frame::of(sim.world(), r.time));
        }
    }
    t
}
// ANCHOR_END: run

/// The largest value of a trace's points from time `from` on.
fn worst(points: &[(f64, f64)], from: f64) -> f64 {
    points
        .iter()
        .filter(|p| p.0 >= from - 1e-12)
        .map(|p| p.1.abs())
        .fold(0.0, f64::max)
}

fn box_stack() {
    let world = || build(SceneKind::BoxStack, Some(25), 0).unwrap();
    let mut updated = vsp(10, 0.005);
    updated.vsp_bottom_velocity = BottomVelocity::Updated;
    let runs = [
        ("PGS 10 + correction", trace(world(), pgs(10), 1000, 20)),
        ("VSP a = 0.005", trace(world(), vsp(10, 0.005), 1000, 20)),
        ("VSP, updated bottoms", trace(world(), updated, 1000, 20)),
    ];
    let mut t = String::new();
    writeln!(
        t,
        "A stack of 25 unit boxes (1000 kg each) on the ground, dt = 0.01 s, 1000 steps;"
    )
    .unwrap();
    writeln!(
        t,
        "NSGS capped at 10 sweeps a step, the final correction 5 PGS sweeps.\n"
    )
    .unwrap();
    writeln!(
        t,
        "Height change of the top box (m) and worst penetration at the end of the step (m):\n"
    )
    .unwrap();
    // Two header lines: each run's name over its pair of columns, then the columns.
    write!(t, "  {:>6}", "").unwrap();
    for (label, _) in &runs {
        write!(t, "  {label:>23}").unwrap();
    }
    writeln!(t).unwrap();
    write!(t, "  {:>6}", "t (s)").unwrap();
    for _ in &runs {
        write!(t, "  {:>10}  {:>11}", "drift", "penetration").unwrap();
    }
    writeln!(t).unwrap();
    for step in [1, 10, 100, 250, 500, 750, 1000] {
        write!(t, "  {:>6.2}", step as f64 * 0.01).unwrap();
        for (_, r) in &runs {
            write!(
                t,
                "  {:>10.3e}  {:>11.3e}",
                r.drift[step - 1].1,
                r.penetration[step - 1].1
            )
            .unwrap();
        }
        writeln!(t).unwrap();
    }
    writeln!(t, "\nOver the 1000 steps:\n").unwrap();
    for (label, r) in &runs {
        writeln!(
            t,
            "  {label:<22} worst penetration {:.3e} m, largest |drift| {:.3e} m, largest kinetic energy {:.3e} J",
            worst(&r.penetration, 0.0),
            worst(&r.drift, 0.0),
            worst(&r.kinetic, 0.0)
        )
        .unwrap();
    }
    support::publish("generated/shock_box_stack.txt", &t);

    for (name, caption, y, pick) in [
        (
            "shock_box_stack_drift",
            "25-box stack, 10 sweeps a step: height change of the top box",
            "drift (m)",
            0usize,
        ),
        (
            "shock_box_stack_penetration",
            "25-box stack, 10 sweeps a step: worst penetration",
            "penetration (m)",
            1,
        ),
    ] {
        TimeFigure {
            name: name.into(),
            caption: caption.into(),
            x_desc: "time (s)",
            y_desc: y,
            log_y: pick == 1,
            series: runs
                .iter()
                .map(|(label, r)| Series {
                    label: label.to_string(),
                    points: [&r.drift, &r.penetration][pick]
                        .iter()
                        .copied()
                        .step_by(5)
                        .collect(),
                })
                .collect(),
        }
        .publish();
    }

    // NSGS on the left, VSP on the right, every 20th step, framed on the two stacks as
    // they start (boxes that fall away leave the picture).
    let start = side_by_side(&runs[0].1.frames[0], &runs[1].1.frames[0], 2.0);
    let opts = RenderOptions {
        view: View::Front,
        width: 360,
        height: 480,
        label: false,
        bounds: framed(&start, 0.04),
        ..RenderOptions::default()
    };
    // Four frames in two rows, each with its time.
    let strip = RenderOptions {
        width: 300,
        height: 420,
        label: true,
        columns: Some(2),
        ..opts.clone()
    };
    publish_side_by_side(
        "shock_box_stack",
        (&runs[0].1.frames, &runs[1].1.frames, 2.0, ["NSGS", "VSP"]),
        (&opts, 0.2),
        (&[0, 5, 25, 50], &strip),
    );
}

/// The error correction of one frame.
#[derive(Clone, Copy, PartialEq)]
enum Fix {
    /// `correction()`: one position-LCP solve of 5 PGS sweeps over all contacts.
    Plain,
    /// `shock-propagation(correction())`: the same, layer by layer, bottom-up.
    Shock,
    /// Shock propagation, collision detection, then `correction()`: the last two
    /// lines of figure 14.
    ShockThenFinal,
}

/// 125 balls of radius 0.1 m pressed 1 cm into each other and into the ground, as the
/// `ball-grid` scene but without its bin: nothing but the ground holds them.
fn free_grid() -> World {
    let (r, delta) = (0.1, 0.01);
    let d = 2.0 * r - delta;
    let mut w = World::new();
    let ball = Shape::sphere(r).unwrap();
    for l in 0..5 {
        for j in 0..5 {
            for i in 0..5 {
                let c = Vector3::new(
                    (i as f64 - 2.0) * d,
                    (j as f64 - 2.0) * d,
                    r - delta + l as f64 * d,
                );
                w.add(
                    ball,
                    1000.0,
                    c,
                    nalgebra::UnitQuaternion::identity(),
                    MaterialId::default(),
                )
                .unwrap();
            }
        }
    }
    w
}

// ANCHOR: ball_grid
/// `frames` frames of error correction alone (no dynamics) on `world`: the worst
/// penetration before each frame's correction, the world at each frame, and the number
/// of stack layers of the first frame.
fn correction_frames(mut world: World, fix: Fix, frames: usize) -> (Vec<f64>, Vec<Frame>, usize) {
    let s = Settings::default().with_correction(Correction::Projection);
    let (mut out, mut pictures, mut layers) = (Vec::new(), Vec::new(), 0);
    for f in 0..frames {
        let contacts = world.contacts().unwrap();
        out.push(worst_penetration(&contacts));
        pictures.push(Frame::of(&world, f as f64));
        if fix == Fix::Plain {
            projection(&mut world, contacts, &s, f, &mut detect_at(f)).unwrap();
            continue;
        }
        let (_, l) = shock_correction(&mut world, &contacts, &s, f).unwrap();
        if f == 0 {
            layers = l.len();
        }
        if fix == Fix::ShockThenFinal {
            let end = world.contacts().unwrap();
            projection(&mut world, end, &s, f, &mut detect_at(f)).unwrap();
        }
    }
    (out, pictures, layers)
}
// ANCHOR_END: ball_grid

fn ball_grid() {
    let frames = 11;
    let fixes = [
        ("correction()", Fix::Plain),
        ("shock-propagation", Fix::Shock),
        ("shock + final", Fix::ShockThenFinal),
    ];
    let bin = || build(SceneKind::BallGrid, Some(5), 0).unwrap();
    let mut t = String::new();
    writeln!(
        t,
        "125 balls (radius 0.1 m), every contact 1 cm deep; frames of error correction alone (no"
    )
    .unwrap();
    writeln!(
        t,
        "dynamics), 5 PGS sweeps a solve. Worst penetration (m) before the frame's correction."
    )
    .unwrap();
    let mut free_runs = Vec::new();
    for (title, world) in [
        (
            "On the ground, nothing around them",
            free_grid as fn() -> World,
        ),
        (
            "In the ball-grid scene's bin (four fixed walls that hold the grid without overlap)",
            bin,
        ),
    ] {
        let runs: Vec<_> = fixes
            .iter()
            .map(|&(_, fix)| correction_frames(world(), fix, frames))
            .collect();
        writeln!(t, "\n{title}; {} stack layers at frame 0:\n", runs[1].2).unwrap();
        write!(t, "  {:>5}", "frame").unwrap();
        for (label, _) in &fixes {
            write!(t, "  {label:>18}").unwrap();
        }
        writeln!(t).unwrap();
        for f in 0..frames {
            write!(t, "  {f:>5}").unwrap();
            for r in &runs {
                write!(t, "  {:>18.3e}", r.0[f]).unwrap();
            }
            writeln!(t).unwrap();
        }
        if free_runs.is_empty() {
            free_runs = runs;
        }
    }
    support::publish("generated/shock_ball_grid.txt", &t);
    TimeFigure {
        name: "shock_ball_grid".into(),
        caption: "125 balls on the ground: worst penetration per frame of correction".into(),
        x_desc: "frame",
        y_desc: "penetration (m)",
        log_y: true,
        series: fixes[..2]
            .iter()
            .zip(&free_runs)
            .map(|((label, _), r)| Series {
                label: label.to_string(),
                points: r
                    .0
                    .iter()
                    .enumerate()
                    .map(|(k, &p)| (k as f64, p))
                    .collect(),
            })
            .collect(),
    }
    .publish();
    // The bottom-left ball of the front row, where its 1 cm overlaps with the ground and
    // with the ball above show: at the start, then after two frames of each correction.
    let (r, d) = (0.1, 0.19);
    let opts = RenderOptions {
        view: View::Front,
        width: 200,
        height: 300,
        label: false,
        scale_bar: false,
        bounds: Some((
            Vector3::new(-2.0 * d - 0.7 * r, -1.0, -0.03),
            Vector3::new(-2.0 * d + 0.7 * r, 1.0, 2.2 * r),
        )),
        titles: vec![
            "start".into(),
            "2 × correction()".into(),
            "2 × shock prop.".into(),
        ],
        ..RenderOptions::default()
    };
    let picked = [
        free_runs[0].1[0].clone(),
        free_runs[0].1[2].clone(),
        free_runs[1].1[2].clone(),
    ];
    let strip = strip_svg(&picked, &opts).unwrap();
    support::publish("figures/shock_ball_grid_strip.svg", &strip);
}

/// The final correction of figure 14 on and off: VSP on the ball grid in its bin (where
/// the layers' pushes meet from all sides) and on the 25-box stack, 300 steps.
fn final_correction() {
    let mut t = String::new();
    writeln!(t, "VSP (a = 0.005, 10 NSGS sweeps a step, layered corrections of 5 sweeps), 300 steps of 0.01 s,").unwrap();
    writeln!(
        t,
        "with and without the final correction after collision detection at t + dT:\n"
    )
    .unwrap();
    writeln!(
        t,
        "  {:<16} {:<6} {:>22} {:>22}",
        "scene", "final", "worst pen., last 1 s", "largest kinetic (J)"
    )
    .unwrap();
    let scenes: [(&str, SceneBuilder); 2] = [
        ("ball grid (bin)", || {
            build(SceneKind::BallGrid, Some(5), 0).unwrap()
        }),
        ("box stack 25", || {
            build(SceneKind::BoxStack, Some(25), 0).unwrap()
        }),
    ];
    let mut series = Vec::new();
    for (name, world) in scenes {
        for on in [true, false] {
            let mut s = vsp(10, 0.005);
            if !on {
                s.correction = Correction::None;
            }
            let r = trace(world(), s, 300, 300);
            writeln!(
                t,
                "  {name:<16} {:<6} {:>22.3e} {:>22.3e}",
                if on { "on" } else { "off" },
                worst(&r.penetration, 2.01),
                worst(&r.kinetic, 0.0)
            )
            .unwrap();
            if name.starts_with("ball") {
                series.push(Series {
                    label: format!("final correction {}", if on { "on" } else { "off" }),
                    points: r.penetration.iter().copied().step_by(2).collect(),
                });
            }
        }
    }
    support::publish("generated/shock_final_correction.txt", &t);
    TimeFigure {
        name: "shock_final_correction".into(),
        caption: "VSP on the ball grid in its bin: worst penetration".into(),
        x_desc: "time (s)",
        y_desc: "penetration (m)",
        log_y: true,
        series,
    }
    .publish();
}

// ANCHOR: weight
/// The light box of heavy-on-light (1 kg under 1000 kg, friction 0.5) pushed sideways
/// by 100 N for 1 s: its displacement (m). Friction at the ground can hold
/// `0.5 (1001 kg) g = 4910 N`, so the box should not move; a layer that does not feel
/// the heavy box holds only `0.5 (1 kg) g = 4.9 N`.
fn pushed_light_box(settings: Settings) -> f64 {
    let mut world = heavy_on_light(&HeavyOnLightParams::default()).unwrap();
    world.body_mut(0).unwrap().body.force = Vector3::new(100.0, 0.0, 0.0);
    let x0 = world.bodies()[0].body.position.x;
    let mut sim = Simulation::new(world, settings).unwrap();
    for _ in 0..100 {
        sim.step().unwrap();
    }
    sim.world().bodies()[0].body.position.x - x0
}
// ANCHOR_END: weight

// ANCHOR: carried
/// A box carried on a box that slides at 1 m/s on frictionless ground (box on box:
/// friction 0.5): the slip of the top box over the bottom one after 1 s (m). Both
/// should move together, slip 0.
fn carried_box(settings: Settings) -> f64 {
    let mut world = World::new();
    let ice = world
        .add_material(Material::new(0.0, 0.0).unwrap())
        .unwrap();
    world = world
        .with_ground(Some(nonsmooth::world::GroundPlane::new(0.0, ice).unwrap()))
        .unwrap();
    let cube = Shape::cuboid(0.5, 0.5, 0.5).unwrap();
    let q = nalgebra::UnitQuaternion::identity();
    for z in [0.5, 1.5] {
        world
            .add(
                cube,
                500.0,
                Vector3::new(0.0, 0.0, z),
                q,
                MaterialId::default(),
            )
            .unwrap();
    }
    for i in 0..2 {
        world.body_mut(i).unwrap().body.linear_velocity = Vector3::new(1.0, 0.0, 0.0);
    }
    let mut sim = Simulation::new(world, settings).unwrap();
    for _ in 0..100 {
        sim.step().unwrap();
    }
    let b = sim.world().bodies();
    b[1].body.position.x - b[0].body.position.x
}
// ANCHOR_END: carried

fn costs() {
    let exact = |s: Settings| {
        let mut s = Settings {
            method: Choice::new("nsn").unwrap(),
            ..s
        };
        s.params.tol = 1e-10;
        s
    };
    let mut t = String::new();
    writeln!(t, "What fixing a layer's bottom costs; every solve the cone Newton to 1e-10, 100 steps of 0.01 s.\n").unwrap();
    writeln!(t, "Light box (1 kg) under a heavy one (1000 kg), pushed by 100 N: displacement after 1 s (m)\n").unwrap();
    let plain = exact(Settings::default().with_correction(Correction::Projection));
    writeln!(
        t,
        "  {:<28} {:>12.3e}",
        "velocity-based (no layers)",
        pushed_light_box(plain.clone())
    )
    .unwrap();
    for a in [0.0, 0.005, 0.1, 0.5, 1.0] {
        let s = exact(Settings::default().with_shock_propagation(a));
        writeln!(
            t,
            "  {:<28} {:>12.3e}",
            format!("VSP a = {a}"),
            pushed_light_box(s)
        )
        .unwrap();
    }
    let mut turning = exact(Settings::default().with_shock_propagation(1.0));
    turning.vsp_layer_push = Push::Turning;
    writeln!(
        t,
        "  {:<28} {:>12.3e}",
        "VSP a = 1, turning push",
        pushed_light_box(turning)
    )
    .unwrap();
    writeln!(
        t,
        "\nBox carried on a box sliding at 1 m/s on frictionless ground: slip after 1 s (m)\n"
    )
    .unwrap();
    writeln!(
        t,
        "  {:<28} {:>12.3e}",
        "velocity-based (no layers)",
        carried_box(plain)
    )
    .unwrap();
    for b in BottomVelocity::ALL {
        let mut s = exact(Settings::default().with_shock_propagation(0.005));
        s.vsp_bottom_velocity = b;
        writeln!(
            t,
            "  {:<28} {:>12.3e}",
            format!("VSP a = 0.005, {}", b.name()),
            carried_box(s)
        )
        .unwrap();
    }
    support::publish("generated/shock_costs.txt", &t);
}

// ANCHOR: bottoms
/// A brick tower of `rings` rings of 8 at rest, one VSP step with `a = 0` and 1000
/// NSGS sweeps a layer, no corrections: the largest angular velocity in each ring.
fn tower_rocking(rings: usize, bottoms: BottomVelocity) -> Vec<f64> {
    let world = tower(&TowerParams {
        layers: rings,
        ..TowerParams::default()
    })
    .unwrap();
    let mut s = Settings {
        method: Choice::new("nsgs").unwrap(),
        ..Settings::default()
    }
    .with_shock_propagation(0.0);
    s.params.max_iter = 1000;
    s.correction = Correction::None;
    s.vsp_layered_correction = false;
    s.vsp_bottom_velocity = bottoms;
    let mut sim = Simulation::new(world, s).unwrap();
    sim.step().unwrap();
    (0..rings)
        .map(|l| {
            (0..8)
                .map(|k| sim.world().bodies()[8 * l + k].body.angular_velocity.norm())
                .fold(0.0, f64::max)
        })
        .collect()
}
// ANCHOR_END: bottoms

fn bottoms() {
    let rings = 30;
    let runs: Vec<(BottomVelocity, Vec<f64>)> = BottomVelocity::ALL
        .into_iter()
        .map(|b| (b, tower_rocking(rings, b)))
        .collect();
    let mut t = String::new();
    writeln!(t, "A tower of {rings} rings of 8 bricks at rest; one VSP step (a = 0, 1000 NSGS sweeps a layer,").unwrap();
    writeln!(
        t,
        "no corrections). Largest angular velocity in the ring (rad/s), by the bottom's velocity:\n"
    )
    .unwrap();
    write!(t, "  {:>5}", "ring").unwrap();
    for (b, _) in &runs {
        write!(t, "  {:>13}", b.name()).unwrap();
    }
    writeln!(t).unwrap();
    for l in (0..rings).step_by(3).chain([rings - 1]) {
        write!(t, "  {l:>5}").unwrap();
        for (_, w) in &runs {
            write!(t, "  {:>13.3e}", w[l]).unwrap();
        }
        writeln!(t).unwrap();
    }
    support::publish("generated/shock_bottoms.txt", &t);
}

// ANCHOR: layer_push
/// A brick tower of `rings` rings of 8 at rest, one step of the paper's VSP scheme
/// (`a = 0.005`, 10 NSGS sweeps a solve, layered and final corrections) with the layers'
/// corrections moving bodies by `push`: the highest rise of a brick (m) and the largest
/// tilt of a brick's vertical axis (rad).
fn tower_after_one_step(rings: usize, push: Push) -> (f64, f64) {
    let world = tower(&TowerParams {
        layers: rings,
        ..TowerParams::default()
    })
    .unwrap();
    let mut s = Settings {
        method: Choice::new("nsgs").unwrap(),
        ..Settings::default()
    }
    .with_shock_propagation(0.005);
    s.params.max_iter = 10;
    s.vsp_layer_push = push;
    let before: Vec<f64> = world.bodies().iter().map(|b| b.body.position.z).collect();
    let mut sim = Simulation::new(world, s).unwrap();
    sim.step().unwrap();
    let bodies = sim.world().bodies();
    let rise = bodies
        .iter()
        .zip(&before)
        .map(|(b, z)| b.body.position.z - z)
        .fold(f64::NEG_INFINITY, f64::max);
    let tilt = bodies
        .iter()
        .map(|b| {
            (b.body.orientation * Vector3::z())
                .z
                .clamp(-1.0, 1.0)
                .acos()
        })
        .fold(0.0, f64::max);
    (rise, tilt)
}
// ANCHOR_END: layer_push

fn layer_push() {
    let mut t = String::new();
    writeln!(
        t,
        "Brick towers (8 bricks a ring) at rest, one VSP step (a = 0.005, 10 NSGS sweeps a"
    )
    .unwrap();
    writeln!(
        t,
        "solve): highest rise of a brick (m) and largest tilt (rad), by how a layer's"
    )
    .unwrap();
    writeln!(t, "correction moves its bodies:\n").unwrap();
    writeln!(
        t,
        "  {:>5}  {:>12}  {:>12}  {:>12}  {:>12}",
        "rings", "turning", "tilt", "translating", "tilt"
    )
    .unwrap();
    for rings in [20, 40, 60, 80, 100] {
        let (r1, t1) = tower_after_one_step(rings, Push::Turning);
        let (r2, t2) = tower_after_one_step(rings, Push::Translating);
        writeln!(
            t,
            "  {rings:>5}  {r1:>12.3e}  {t1:>12.3e}  {r2:>12.3e}  {t2:>12.3e}"
        )
        .unwrap();
    }
    support::publish("generated/shock_layer_push.txt", &t);
}

fn main() {
    layer_push();
    box_stack();
    ball_grid();
    final_correction();
    costs();
    bottoms();
}

#[cfg(test)]
mod tests {
    #[test]
    fn committed_outputs_are_current() {
        super::main();
    }
}
