//! The laws of velocity-based shock propagation (`src/stepping/shock/`, Erleben 2007
//! section 4, figures 12-14): stack heights are graph distances to the fixed bodies,
//! every contact lies in exactly one stack layer, fixed bodies never move, one
//! bottom-up pass is the two-stage block scheme with the bottoms' inverse masses zeroed
//! (figure 13), an exactly solved layer carries only its top's weight (figure 12 with
//! `a = 0`), VSP with `a = 1` and no layered correction is the plain velocity-based
//! step, and VSP keeps a tall stack together where the plain scheme lets it sink
//! (figure 14).

use std::ops::ControlFlow;

use nalgebra::{DMatrix, DVector, UnitQuaternion, Vector3};
use nonsmooth::matrix::Matrix;
use nonsmooth::merit::friction_error;
use nonsmooth::problem::{AnyProblem, Lcp};
use nonsmooth::registry::{Choice, solve};
use nonsmooth::solver::Params;
use nonsmooth::stepping::dynamics::{WarmStart, apply_velocity, dynamics, posed_step};
use nonsmooth::stepping::shock::graph::{Edge, edges};
use nonsmooth::stepping::shock::vsp::BottomVelocity;
use nonsmooth::stepping::shock::{
    GraphError, StackLayers, shock_correction, shock_propagation, stack_heights, vsp, world_heights,
};
use nonsmooth::stepping::{Correction, Settings, Simulation, StepRecord, Stepper};
use nonsmooth::world::scenes::{SceneKind, build};
use nonsmooth::world::{GroundPlane, Material, MaterialId, Shape, World, WorldContact};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------
// Helpers.

/// A random contact graph: up to 29 bodies, about a fifth of them fixed, and up to `3n`
/// edges (a fifth of them with the ground), without self-edges, edges between two fixed
/// bodies or between the ground and a fixed body (the world never reports those).
fn graph() -> impl Strategy<Value = (Vec<bool>, Vec<Edge>)> {
    (1usize..30)
        .prop_flat_map(|n| {
            (
                prop::collection::vec(prop::bool::weighted(0.2), n),
                prop::collection::vec((prop::option::weighted(0.8, 0..n), 0..n), 0..3 * n),
            )
        })
        .prop_map(|(fixed, raw)| {
            let edges = raw
                .into_iter()
                .filter(|&(a, b)| match a {
                    Some(a) => a != b && !(fixed[a] && fixed[b]),
                    None => !fixed[b],
                })
                .collect();
            (fixed, edges)
        })
}

/// The stack heights by repeated relaxation of every edge until nothing changes
/// (Bellman-Ford with unit weights), independent of the crate's breadth-first
/// traversal; unreachable bodies get one more than the greatest finite height.
fn reference_heights(fixed: &[bool], edges: &[Edge]) -> Vec<usize> {
    const INF: usize = usize::MAX;
    let mut d: Vec<usize> = fixed.iter().map(|&f| if f { 0 } else { INF }).collect();
    let relax = |d: &mut Vec<usize>, from: usize, to: usize| {
        if from != INF && from + 1 < d[to] {
            d[to] = from + 1;
            true
        } else {
            false
        }
    };
    for _ in 0..=fixed.len() {
        let mut changed = false;
        for &(a, b) in edges {
            let da = a.map_or(0, |a| d[a]);
            changed |= relax(&mut d, da, b);
            if let Some(a) = a {
                let db = d[b];
                changed |= relax(&mut d, db, a);
            }
        }
        if !changed {
            break;
        }
    }
    let floating = 1 + d.iter().filter(|&&h| h != INF).max().copied().unwrap_or(0);
    d.into_iter()
        .map(|h| if h == INF { floating } else { h })
        .collect()
}

/// Tolerance `tol` and cap `max_iter`.
fn exact_params(tol: f64, max_iter: usize) -> Params {
    Params {
        tol,
        max_iter,
        ..Params::default()
    }
}

/// Default settings with `method` capped at `max_iter` iterations.
fn with_method(mut s: Settings, method: &str, max_iter: usize) -> Settings {
    s.method = Choice::new(method).unwrap();
    s.params.max_iter = max_iter;
    s
}

/// The paper's VSP settings (`a = 0.005`, layered and final projection) with NSGS.
fn vsp_settings(max_iter: usize) -> Settings {
    with_method(
        Settings::default().with_shock_propagation(0.005),
        "nsgs",
        max_iter,
    )
}

fn scene(kind: SceneKind, size: usize, seed: u64) -> World {
    build(kind, Some(size), seed).unwrap()
}

fn run(world: World, s: Settings, steps: usize) -> (World, Vec<StepRecord>) {
    let mut sim = Simulation::new(world, s).unwrap();
    let records = sim.run(steps, |_, _| ControlFlow::Continue(())).unwrap();
    (sim.world().clone(), records)
}

/// Indices, positions and orientations of the fixed bodies.
fn fixed_poses(w: &World) -> Vec<(usize, Vector3<f64>, UnitQuaternion<f64>)> {
    (0..w.bodies().len())
        .filter(|&i| w.bodies()[i].body.fixed)
        .map(|i| {
            (
                i,
                w.bodies()[i].body.position,
                w.bodies()[i].body.orientation,
            )
        })
        .collect()
}

fn fixed_flags(w: &World) -> Vec<bool> {
    w.bodies().iter().map(|b| b.body.fixed).collect()
}

/// The sum of the normal impulses `r[3k]` over the contacts `which`.
fn normal_sum(r: &DVector<f64>, which: impl IntoIterator<Item = usize>) -> f64 {
    which.into_iter().map(|k| r[3 * k]).sum()
}

fn assert_relative(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * want.abs(),
        "{what}: {got} vs {want} (relative {:.2e})",
        (got - want).abs() / want.abs()
    );
}

/// Solves `LCP(A, g)` with Lemke's method through the registry.
fn lemke(a: DMatrix<f64>, g: DVector<f64>) -> DVector<f64> {
    let n = g.len();
    let out = solve(
        &AnyProblem::Lcp(Lcp::new(Matrix::from(a), g).unwrap()),
        &Choice::new("lemke").unwrap(),
        DVector::zeros(n),
        &exact_params(1e-14, 100_000),
        &mut |_| ControlFlow::Continue(()),
    );
    assert!(out.result.is_ok(), "lemke: {}", out.status());
    out.x
}

/// A record without its wall times and layer count.
fn untimed(r: &StepRecord) -> StepRecord {
    StepRecord {
        layers: 0,
        collision_seconds: 0.0,
        dynamics_seconds: 0.0,
        solve_seconds: 0.0,
        correction_seconds: 0.0,
        ..r.clone()
    }
}

// ---------------------------------------------------------------------------------------
// 1-2. Heights and layers of random contact graphs.

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The stack height is the graph distance to the nearest fixed body or the ground;
    /// bodies no path reaches get one more than the greatest reached height (1 if none).
    #[test]
    fn heights_are_graph_distances_to_the_fixed((fixed, edges) in graph()) {
        prop_assert_eq!(stack_heights(&fixed, &edges).unwrap(), reference_heights(&fixed, &edges));
    }

    /// Every contact lies in exactly one layer, with both its sides in that layer (the
    /// top, the bottom or the ground/fixed) and at least one side free (a top); every
    /// body that is not fixed is the top of exactly one layer, a fixed body of none; no
    /// layer is without a top.
    #[test]
    fn every_contact_is_in_exactly_one_layer((fixed, edges) in graph()) {
        let heights = stack_heights(&fixed, &edges).unwrap();
        let layers = StackLayers::new(heights.clone(), &edges).unwrap();
        let mut in_layers = vec![0; edges.len()];
        let mut tops = vec![0; fixed.len()];
        for (i, layer) in layers.layers.iter().enumerate() {
            prop_assert!(!layer.top.is_empty(), "layer {} has no top", i);
            for &t in &layer.top {
                prop_assert_eq!(heights[t], i + 1);
                tops[t] += 1;
            }
            for &c in &layer.contacts {
                in_layers[c] += 1;
                let (a, b) = edges[c];
                let sides = [a, Some(b)];
                let h = sides.map(|s| s.map_or(0, |s| heights[s]));
                for (s, h) in sides.into_iter().zip(h) {
                    prop_assert!(h == i || h == i + 1, "contact {} side height {} in layer {}", c, h, i);
                    if h == i + 1 {
                        prop_assert!(layer.top.contains(&s.unwrap()));
                    }
                }
                prop_assert!(h.contains(&(i + 1)), "contact {} in layer {} has no top", c, i);
            }
        }
        prop_assert!(in_layers.iter().all(|&k| k == 1), "{:?}", in_layers);
        for (i, &f) in fixed.iter().enumerate() {
            prop_assert_eq!(tops[i], usize::from(!f), "body {} (fixed {})", i, f);
        }
    }
}

// ---------------------------------------------------------------------------------------
// 3. Fixed bodies.

/// VSP never moves a fixed body: the walls of the ball grid (which starts penetrating
/// them) and of a pile keep bit-identical poses, step after step.
#[test]
fn vsp_never_moves_a_fixed_body() {
    for (world, steps) in [
        (scene(SceneKind::BallGrid, 3, 0), 30),
        (scene(SceneKind::Pile, 20, 7), 60),
    ] {
        let start = fixed_poses(&world);
        assert_eq!(start.len(), 4, "the bin walls");
        let mut sim = Simulation::new(world, vsp_settings(20)).unwrap();
        let mut touched = false;
        for _ in 0..steps {
            let r = sim.step().unwrap();
            assert!(r.layers >= 1);
            assert_eq!(fixed_poses(sim.world()), start, "step {}", r.step);
            let fixed = fixed_flags(sim.world());
            touched |= sim
                .world()
                .contacts()
                .unwrap()
                .iter()
                .any(|c| c.id.a.is_some_and(|a| fixed[a]) || fixed[c.id.b]);
        }
        assert!(touched, "no body ever touched a wall: the test saw nothing");
    }
}

/// `shock_correction` moves the free bodies out of the walls but not the walls, and
/// gives every body its own fixed flag back.
#[test]
fn shock_correction_keeps_fixed_bodies_and_flags() {
    let mut world = scene(SceneKind::BallGrid, 3, 0);
    let before = world.clone();
    let contacts = world.contacts().unwrap();
    let s = Settings::default().with_correction(Correction::Projection);
    let (summary, layers) = shock_correction(&mut world, &contacts, &s, 0).unwrap();
    assert!(summary.passes >= 2 && layers.len() >= 2, "{summary:?}");
    assert_eq!(fixed_flags(&world), fixed_flags(&before));
    assert_eq!(fixed_poses(&world), fixed_poses(&before));
    let free_moved = (0..world.bodies().len())
        .filter(|&i| !before.bodies()[i].body.fixed)
        .any(|i| world.bodies()[i].body.position != before.bodies()[i].body.position);
    assert!(free_moved, "the correction moved nothing");
}

// ---------------------------------------------------------------------------------------
// 4. Exact layer solves on a resting column.

/// One layer's solve, kept to re-pose it afterwards.
struct LayerSolve {
    world: World,
    contacts: Vec<WorldContact>,
    r: DVector<f64>,
    top_mass: f64,
}

/// Figure 12 with `A = dynamics(dt)` solved exactly (`nsn`, tol 1e-12) and the position
/// update of VSP with `a = 0`: the layers' solves in bottom-up order.
fn exact_layer_solves(world: &World, s: &Settings) -> Vec<LayerSolve> {
    let contacts = world.contacts().unwrap();
    let layers =
        StackLayers::new(world_heights(world, &contacts).unwrap(), &edges(&contacts)).unwrap();
    let mut w = world.clone();
    let mut solves = Vec::new();
    shock_propagation(&mut w, world, &contacts, &layers, &mut |w, layer, mine| {
        let posed_at = w.clone();
        let d = dynamics(w, mine.clone(), s.dt, s, &WarmStart::default(), 0)?;
        apply_velocity(w, &d.step, &d.velocity);
        for &i in &layer.top {
            w.body_mut(i).unwrap().body.integrate_position(s.dt);
        }
        solves.push(LayerSolve {
            world: posed_at,
            contacts: mine,
            r: d.r,
            top_mass: layer.top.iter().map(|&i| w.bodies()[i].body.mass).sum(),
        });
        Ok(())
    })
    .unwrap();
    solves
}

/// Each layer's impulses solve that layer's contact problem (re-posed from scratch at
/// the poses the layer saw), and with `a = 0` each layer's normal impulses add up to its
/// top box's own weight times `dt`: a fixed bottom feels nothing of the column above.
/// The plain velocity-based step, solved as exactly, puts the whole column's weight on
/// the ground and `(N - k) m g dt` on the contact below box `k`.
#[test]
fn exact_layers_carry_only_their_top_weight() {
    let n = 5;
    let world = scene(SceneKind::BoxStack, n, 0);
    let s = Settings {
        params: exact_params(1e-12, 200),
        ..with_method(Settings::default(), "nsn", 200)
    };
    let weight = |m: f64| m * world.gravity().norm() * s.dt;
    let m = world.bodies()[0].body.mass;

    let solves = exact_layer_solves(&world, &s);
    assert_eq!(solves.len(), n);
    for (i, l) in solves.iter().enumerate() {
        assert!(!l.contacts.is_empty());
        let (_, problem) = posed_step(&l.world, l.contacts.clone(), s.dt, &s, 0).unwrap();
        let AnyProblem::Friction(fc) = problem else {
            panic!("a local friction problem")
        };
        let e = friction_error(&fc, &l.r);
        assert!(e.rel <= 1e-10 && e.normal <= 1e-10, "layer {i}: {e:?}");
        let sum = normal_sum(&l.r, 0..l.contacts.len());
        assert_relative(sum, weight(l.top_mass), 1e-8, &format!("layer {i}"));
    }

    // The same through the VSP stepper with a = 0 (its impulses are summed per contact
    // of the step, in the order of the step's contacts).
    let a0 = Settings {
        vsp_weight: 0.0,
        vsp_layered_correction: false,
        ..s.clone()
    };
    let contacts = world.contacts().unwrap();
    let layers =
        StackLayers::new(world_heights(&world, &contacts).unwrap(), &edges(&contacts)).unwrap();
    let (d, report) = vsp::step(
        &mut world.clone(),
        contacts.clone(),
        &a0,
        &WarmStart::default(),
        0,
    )
    .unwrap();
    assert_eq!(report.layers, n);
    for (i, layer) in layers.layers.iter().enumerate() {
        let sum = normal_sum(&d.r, layer.contacts.iter().copied());
        assert_relative(sum, weight(m), 1e-8, &format!("vsp a = 0, layer {i}"));
    }

    // Contrast: the whole column solved at once.
    let d = dynamics(&world, contacts.clone(), s.dt, &s, &WarmStart::default(), 0).unwrap();
    for (i, layer) in layers.layers.iter().enumerate() {
        let sum = normal_sum(&d.r, layer.contacts.iter().copied());
        assert_relative(
            sum,
            weight((n - i) as f64 * m),
            1e-8,
            &format!("plain, layer {i}"),
        );
    }
}

// ---------------------------------------------------------------------------------------
// 5. One bottom-up pass is the block scheme.

/// The ball grid of `n^3` balls with its four fixed walls moved 10 cm outwards, out of
/// contact. With the walls in place the grid's position LCP has no solution (each row
/// of `n` balls overlaps its neighbours and both walls by `delta`, and the linearised
/// gaps along the row cannot all be closed: Lemke ends on a secondary ray), nor has its
/// first stack layer (every ball touching the ground or a wall has height 1, so the
/// rows between the walls lie in it); without the walls every layer is one level of
/// the grid, free to spread sideways and up, and feasible.
fn ball_grid_without_walls(n: usize) -> World {
    let mut w = scene(SceneKind::BallGrid, n, 0);
    for i in 0..w.bodies().len() {
        let b = &mut w.body_mut(i).unwrap().body;
        if b.fixed {
            let p = b.position;
            let out = if p.x.abs() > p.y.abs() {
                Vector3::new(p.x.signum(), 0.0, 0.0)
            } else {
                Vector3::new(0.0, p.y.signum(), 0.0)
            };
            b.position += 0.1 * out;
        }
    }
    let fixed = fixed_flags(&w);
    let walls = w
        .contacts()
        .unwrap()
        .iter()
        .filter(|c| c.id.a.is_some_and(|a| fixed[a]))
        .count();
    assert_eq!(walls, 0, "contacts with the walls");
    w
}

/// `shock_correction` with an exact correction solver moves the balls of the ball grid
/// exactly as the two-stage block scheme written out with dense matrices: per layer
/// bottom-up, `P_i = M^-1` with every block but the layer's tops zeroed,
/// `A_i = J_i P_i J_i^T`, `g_i = gaps_i + J_i x`, `lambda_i = LCP(A_i, g_i)`,
/// `x += P_i J_i^T lambda_i`, with `J` and `M` of the whole step at the detected poses.
#[test]
fn one_pass_is_the_block_scheme() {
    let world = ball_grid_without_walls(3);
    let contacts = world.contacts().unwrap();
    let s = Settings {
        correction_method: Choice::new("lemke").unwrap(),
        correction_params: exact_params(1e-14, 100_000),
        ..Settings::default()
    };
    let mut moved = world.clone();
    let (_, layers) = shock_correction(&mut moved, &contacts, &s, 0).unwrap();
    assert_eq!(layers.len(), 3, "one layer per level of the grid");

    let step = world
        .assemble(contacts.clone(), &s.step_params(&world))
        .unwrap();
    let dofs = step.assembly.dof_map();
    let ndofs = step.assembly.dofs();
    // Row of the step's problem of each contact (the step sorts its contacts).
    let row: Vec<usize> = contacts
        .iter()
        .map(|c| 3 * step.contacts.iter().position(|sc| sc.id == c.id).unwrap())
        .collect();
    let j = step.assembly.jacobian().to_dense();
    let m_inv = step.assembly.inverse_mass_matrix().to_dense();
    let mut x = DVector::zeros(ndofs);
    for layer in &layers.layers {
        let nl = layer.contacts.len();
        let ji = DMatrix::from_fn(nl, ndofs, |r, k| j[(row[layer.contacts[r]], k)]);
        let mut p = m_inv.clone();
        for k in (0..dofs.blocks()).filter(|&k| !layer.top.contains(&dofs.body(k))) {
            p.rows_mut(6 * k, 6).fill(0.0);
            p.columns_mut(6 * k, 6).fill(0.0);
        }
        let a = &ji * &p * ji.transpose();
        let gaps = DVector::from_fn(nl, |r, _| contacts[layer.contacts[r]].gap);
        let lambda = lemke(a, gaps + &ji * &x);
        x += &p * ji.transpose() * lambda;
    }

    // Measured: at most 9e-17 m apart, for displacements up to 3.3e-2 m.
    let mut largest = 0.0_f64;
    for k in 0..dofs.blocks() {
        let i = dofs.body(k);
        let got = moved.bodies()[i].body.position - world.bodies()[i].body.position;
        let want = x.fixed_rows::<3>(6 * k).into_owned();
        largest = largest.max(want.norm());
        assert!(
            (got - want).norm() <= 1e-12,
            "body {i}: moved {got:?}, block scheme {want:?}"
        );
    }
    assert!(largest > 1e-3, "nothing moved ({largest})");
}

// ---------------------------------------------------------------------------------------
// 6. a = 1 is the plain scheme.

/// With `a = 1` and no layered correction, VSP is the velocity-based scheme to the bit:
/// same poses, velocities and records (except wall times and the layer count).
#[test]
fn vsp_with_weight_one_is_the_velocity_scheme() {
    for correction in [Correction::None, Correction::Projection] {
        for world in [
            scene(SceneKind::BallGrid, 3, 0),
            scene(SceneKind::BoxStack, 5, 0),
        ] {
            let plain = with_method(Settings::default().with_correction(correction), "nsgs", 30);
            let vsp = Settings {
                stepper: Stepper::Vsp,
                vsp_weight: 1.0,
                vsp_layered_correction: false,
                ..plain.clone()
            };
            let (wp, rp) = run(world.clone(), plain, 20);
            let (wv, rv) = run(world, vsp, 20);
            assert!(rv.iter().all(|r| r.layers >= 1));
            assert_eq!(
                rp.iter().map(untimed).collect::<Vec<_>>(),
                rv.iter().map(untimed).collect::<Vec<_>>(),
                "{correction:?}"
            );
            for (p, v) in wp.bodies().iter().zip(wv.bodies()) {
                let (p, v) = (&p.body, &v.body);
                assert_eq!(
                    (
                        p.position,
                        p.orientation,
                        p.linear_velocity,
                        p.angular_velocity
                    ),
                    (
                        v.position,
                        v.orientation,
                        v.linear_velocity,
                        v.angular_velocity
                    )
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// 7. Why VSP works: a tall stack stays together.

/// The worst penetration over a run and how far the top box drifted from its start.
fn stack_run(s: Settings, n: usize, steps: usize) -> (f64, f64) {
    let world = scene(SceneKind::BoxStack, n, 0);
    let start = world.bodies()[n - 1].body.position;
    let (end, records) = run(world, s, steps);
    let worst = records
        .iter()
        .map(|r| r.max_penetration)
        .fold(0.0, f64::max);
    (worst, (end.bodies()[n - 1].body.position - start).norm())
}

/// Measured (release, nsgs capped at 10 sweeps, 300 steps of 0.01 s, 25 one-tonne
/// cubes): VSP's worst penetration 4.6e-12 m and top-box drift 1.7e-5 m; the plain
/// velocity scheme with the 5-sweep projection 4.3e-2 m and 0.97 m (the stack sinks
/// into itself). The thresholds leave a margin of about 200, 6 and 4 (pen.) / 10 (drift).
#[test]
fn vsp_keeps_a_tall_stack_together() {
    let (n, steps) = (25, 300);
    let (vsp_pen, vsp_drift) = stack_run(vsp_settings(10), n, steps);
    let plain = with_method(
        Settings::default().with_correction(Correction::Projection),
        "nsgs",
        10,
    );
    let (plain_pen, plain_drift) = stack_run(plain, n, steps);
    let measured =
        format!("vsp: {vsp_pen:e} m, {vsp_drift:e} m; plain: {plain_pen:e} m, {plain_drift:e} m");
    assert!(vsp_pen < 1e-9, "{measured}");
    assert!(vsp_drift < 1e-4, "{measured}");
    assert!(plain_pen > 1e-2, "{measured}");
    assert!(plain_drift > 1e-1, "{measured}");
}

/// A pile falling into its bin under VSP with the default settings (`auto`, warm
/// starts): with dissipative contacts and no load but gravity, the energy never exceeds
/// the energy at the start. With the cone Newton as `auto` for the layer solves, a
/// warm-started layer converged with impulses of 1e12 N s along a null direction of its
/// singular Delassus operator and the kinetic energy jumped from 63 J to 2e8 J at step 63
/// (see `stepping::shock::vsp`).
#[test]
fn vsp_defaults_do_not_create_energy_in_a_falling_pile() {
    let world = scene(SceneKind::Pile, 200, 0);
    let s = Settings::default().with_shock_propagation(0.005);
    let mut sim = Simulation::new(world, s).unwrap();
    let energy = |r: &StepRecord| r.kinetic_energy + r.potential_energy;
    let e0 = energy(&sim.step().unwrap());
    let mut worst = 0.0_f64;
    for _ in 1..80 {
        worst = worst.max(energy(&sim.step().unwrap()) - e0);
    }
    // One step of free fall changes the discrete energy by about m g^2 dt^2 / 2 per body;
    // allow 1 J over the whole pile.
    assert!(worst < 1.0, "energy rose by {worst} J above {e0} J");
}

/// A malformed contact graph is refused with an error naming the contact, never a panic:
/// a body out of range (in the heights and in the layers), heights that are not graph
/// distances, and a contact between two fixed bodies.
#[test]
fn malformed_graphs_are_refused() {
    // body 5 of 2
    let out = [(None, 0), (Some(0), 5)];
    assert_eq!(
        stack_heights(&[false, false], &out),
        Err(GraphError::BodyOutOfRange {
            contact: 1,
            body: 5,
            bodies: 2
        })
    );
    assert_eq!(
        StackLayers::new(vec![1, 2], &out),
        Err(GraphError::BodyOutOfRange {
            contact: 1,
            body: 5,
            bodies: 2
        })
    );
    let ground_side = [(Some(3), 0)];
    assert!(matches!(
        StackLayers::new(vec![1], &ground_side),
        Err(GraphError::BodyOutOfRange { body: 3, .. })
    ));
    // heights 1 and 3 joined by a contact
    let gap = StackLayers::new(vec![1, 3], &[(None, 0), (Some(0), 1)]);
    assert_eq!(
        gap,
        Err(GraphError::HeightGap {
            contact: 1,
            a: 1,
            b: 3
        })
    );
    // two fixed bodies
    let fixed = StackLayers::new(vec![0, 0, 1], &[(None, 2), (Some(0), 1)]);
    assert_eq!(fixed, Err(GraphError::FixedPair { contact: 1 }));
    let message = fixed.unwrap_err().to_string();
    assert!(
        message.contains("contact 1") && message.contains("fixed"),
        "{message}"
    );
    let message = gap.unwrap_err().to_string();
    assert!(message.contains("heights 1 and 3"), "{message}");
}

/// The highest rise of any body between `before` and `after`, in m.
fn highest_rise(before: &World, after: &World) -> f64 {
    before
        .bodies()
        .iter()
        .zip(after.bodies())
        .map(|(a, b)| b.body.position.z - a.body.position.z)
        .fold(f64::NEG_INFINITY, f64::max)
}

/// A resting tower of 100 rings (800 bricks) at the paper's budget, 10 NSGS sweeps a
/// solve: one step with shock propagation lifts no body more than the plain step does
/// (to within the layers' sum of solve errors, 1e-5 m here), leaves no worse
/// penetration, and creates no energy. Before the layers' corrections moved bodies
/// without turning them, the turns they made grew by about 1.29 a ring and this tower's
/// top rose by metres in one step.
#[test]
fn shock_propagation_keeps_a_tall_tower_at_rest() {
    let tower = scene(SceneKind::Tower, 100, 0);
    let plain = with_method(
        Settings::default().with_correction(Correction::Projection),
        "nsgs",
        10,
    );
    let (after_plain, plain_records) = run(tower.clone(), plain, 1);
    let (after_vsp, vsp_records) = run(tower.clone(), vsp_settings(10), 1);
    let rise_plain = highest_rise(&tower, &after_plain);
    let rise_vsp = highest_rise(&tower, &after_vsp);
    assert!(
        rise_vsp <= rise_plain.max(0.0) + 1e-5,
        "shock propagation lifted a brick by {rise_vsp:.3e} m (plain step: {rise_plain:.3e} m)"
    );
    let (p, v) = (&plain_records[0], &vsp_records[0]);
    assert!(
        v.max_penetration <= p.max_penetration.max(1e-9),
        "penetration {:.3e} m with shock propagation, {:.3e} m plain",
        v.max_penetration,
        p.max_penetration
    );
    let energy = |r: &StepRecord| r.kinetic_energy + r.potential_energy;
    let e0 = nonsmooth::stepping::diagnostics::potential_energy(&tower);
    assert!(
        energy(v) <= e0 + 1e-6 * e0.abs(),
        "energy rose from {e0:.6e} J to {:.6e} J in one step",
        energy(v)
    );
}

/// A 500 kg box carried on another that slides at 1 m/s over frictionless ground
/// (friction 0.5 between the boxes), VSP at `a = 0.005` with the cone Newton: the slip
/// of the top box over the bottom one after `steps` steps of 0.01 s, in m.
fn carried_slip(bottoms: BottomVelocity, steps: usize) -> f64 {
    let mut world = World::new();
    let ice = world
        .add_material(Material::new(0.0, 0.0).unwrap())
        .unwrap();
    world = world
        .with_ground(Some(GroundPlane::new(0.0, ice).unwrap()))
        .unwrap();
    let cube = Shape::cuboid(0.5, 0.5, 0.5).unwrap();
    for z in [0.5, 1.5] {
        let q = UnitQuaternion::identity();
        let at = Vector3::new(0.0, 0.0, z);
        world
            .add(cube, 500.0, at, q, MaterialId::default())
            .unwrap();
    }
    for i in 0..2 {
        world.body_mut(i).unwrap().body.linear_velocity = Vector3::x();
    }
    let mut s = with_method(vsp_settings(200), "nsn", 200);
    s.vsp_bottom_velocity = bottoms;
    let (after, _) = run(world, s, steps);
    let b = after.bodies();
    b[1].body.position.x - b[0].body.position.x
}

/// With bottoms `carried`, a box riding on a sliding box moves with it; with bottoms at
/// rest (the default, which keeps tall towers at rest) the layered part of each step
/// drags it back towards rest, and it falls behind by decimetres within half a second.
#[test]
fn carried_bottoms_carry_a_box_at_rest_bottoms_drag_it() {
    let carried = carried_slip(BottomVelocity::Carried, 50);
    assert!(carried.abs() < 1e-6, "carried: slip {carried:.3e} m");
    let at_rest = carried_slip(BottomVelocity::AtRest, 50);
    assert!(at_rest < -0.1, "at-rest: slip {at_rest:.3e} m");
}

/// An 80-ring tower (640 bricks, 7 616 contacts) at rest stays at rest over 30 steps of
/// VSP at the paper's budget, 10 sweeps a solve: no contact is lost, the kinetic energy
/// never exceeds 1e-3 J (the first steps start cold) and after 30 steps is below 1e-9 J. This needs the whole-system solve to
/// start from the last step's whole-system impulses
/// ([`WarmStart::for_whole_system`](nonsmooth::stepping::dynamics::WarmStart::for_whole_system)):
/// started from `a` times the step's summed impulses, which in each layer carry only
/// the layer's own weight, 10 sweeps cannot move the weight of 80 rings down the tower,
/// and this tower came apart within 30 steps.
#[test]
fn shock_propagation_keeps_a_tall_tower_at_rest_over_many_steps() {
    let tower = scene(SceneKind::Tower, 80, 0);
    let (_, records) = run(tower, vsp_settings(10), 30);
    let first = records[0].contacts;
    for r in &records {
        assert_eq!(r.contacts, first, "step {}: contacts lost", r.step);
        assert!(
            r.kinetic_energy < 1e-3,
            "step {}: kinetic energy {:.3e} J",
            r.step,
            r.kinetic_energy
        );
    }
    let last = records.last().unwrap().kinetic_energy;
    assert!(last < 1e-9, "kinetic energy {last:.3e} J after 30 steps");
}
