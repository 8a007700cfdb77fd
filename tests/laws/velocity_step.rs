//! The matrix-free step (`src/stepping/posed.rs::pose_global`): a simulation whose
//! contact solver is `vgs` (the velocity-space Gauss-Seidel, `W` never formed) moves the
//! bodies as one with `nsgs` (the same blocked Gauss-Seidel on the formed
//! `W = J M^-1 J^T`, contacts in the same order), up to rounding, and `vgs` with CFM is
//! refused (the velocity-space problem has no CFM term).

use nonsmooth::registry::Choice;
use nonsmooth::stepping::{Correction, Settings, Simulation};
use nonsmooth::world::World;
use nonsmooth::world::scenes::{SceneKind, build};

/// `steps` steps of `world` with `method` at exactly `sweeps` sweeps a solve (tolerance
/// 0) and the projection correction: every body's position and orientation at the end,
/// and the last step's problem type.
fn poses(world: World, method: &str, sweeps: usize, steps: usize) -> (Vec<f64>, &'static str) {
    let mut s = Settings {
        method: Choice::new(method).unwrap(),
        ..Settings::default()
    }
    .with_correction(Correction::Projection);
    s.params.tol = 0.0;
    s.params.max_iter = sweeps;
    let mut sim = Simulation::new(world, s).unwrap();
    for _ in 0..steps {
        sim.step().unwrap();
    }
    let kind = sim.last_problem().map_or("none", |p| p.type_name());
    let mut out = Vec::new();
    for b in sim.world().bodies() {
        out.extend(b.body.position.iter());
        out.extend(b.body.orientation.coords.iter());
    }
    (out, kind)
}

fn same_motion(kind: SceneKind, size: usize, sweeps: usize, steps: usize) {
    let world = build(kind, Some(size), 0).unwrap();
    let (a, ka) = poses(world.clone(), "nsgs", sweeps, steps);
    let (b, kb) = poses(world, "vgs", sweeps, steps);
    assert_eq!((ka, kb), ("fc3d", "gfc3d"), "{kind:?}: the problems posed");
    assert_eq!(a.len(), b.len());
    let diff = a
        .iter()
        .zip(&b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max);
    assert!(diff < 1e-9, "{kind:?} {size}: poses differ by {diff:e}");
}

#[test]
fn vgs_moves_a_box_stack_as_nsgs_does() {
    same_motion(SceneKind::BoxStack, 5, 20, 30);
}

/// Ten steps: the iteration stops at ten sweeps, far from converged, and the rounding
/// differences grow with the steps (measured on this wall: `1e-16` after 5 steps,
/// `3e-12` after 10, `1e-9` after 20, `3e-9` after 40).
#[test]
fn vgs_moves_a_wall_as_nsgs_does() {
    same_motion(SceneKind::Wall, 6, 10, 10);
}

#[test]
fn vgs_with_cfm_is_refused() {
    let s = Settings {
        method: Choice::new("vgs").unwrap(),
        cfm: 1e-3,
        ..Settings::default()
    };
    let world = build(SceneKind::BoxStack, Some(2), 0).unwrap();
    let err = Simulation::new(world, s).unwrap_err().to_string();
    assert!(err.contains("cfm"), "{err}");
}
