//! The named scenes of `nonsmooth::world::scenes` and the JSON scene files of
//! `nonsmooth::world::scene_file`: every scene builds at several sizes, rests without
//! penetration (or with exactly the specified one), has the documented number of contacts,
//! checks its parameters, is deterministic; scene files round-trip every scene to the last
//! bit, the committed example reads, and each malformed file gives its documented message.

use std::path::PathBuf;

use nalgebra::{UnitQuaternion, Vector3};
use nonsmooth::multibody::MultibodyError;
use nonsmooth::world::scene_file::{SceneFile, parse_scene};
use nonsmooth::world::scenes::{
    self, BallGridParams, BoxStackParams, HeavyOnLightParams, PileParams, SceneKind, TowerParams,
    WallParams, ball_grid, box_stack, heavy_on_light, pile, tower, wall,
};
use nonsmooth::world::{
    MaterialId, SceneFileError, Shape, World, WorldContact, read_scene, scene_from_path,
    write_scene,
};

fn contacts(w: &World) -> Vec<WorldContact> {
    w.contacts().expect("collision detection")
}

fn worst_gap(cs: &[WorldContact]) -> f64 {
    cs.iter().map(|c| c.gap).fold(f64::INFINITY, f64::min)
}

/// The small, default and large size of each scene for `scenes::build`.
fn sizes(kind: SceneKind) -> Vec<Option<usize>> {
    match kind {
        SceneKind::HeavyOnLight => vec![None],
        SceneKind::BoxStack => vec![Some(1), None, Some(100)],
        SceneKind::Wall => vec![Some(1), Some(3), None, Some(60)],
        SceneKind::Tower => vec![Some(1), None, Some(30)],
        SceneKind::BallGrid => vec![Some(1), Some(2), None, Some(12)],
        SceneKind::Pile => vec![Some(1), None, Some(3000)],
        SceneKind::RoofTower => vec![Some(1), Some(4), None],
        SceneKind::WallPush => vec![Some(1), Some(3), None],
    }
}

// ---------------------------------------------------------------------------------------
// Names.

#[test]
fn scene_names_are_kebab_case_and_read_back() {
    let names: Vec<&str> = SceneKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(
        names,
        [
            "box-stack",
            "heavy-on-light",
            "wall",
            "tower",
            "ball-grid",
            "pile",
            "roof-tower",
            "wall-push"
        ]
    );
    for k in SceneKind::ALL {
        assert_eq!(SceneKind::from_name(k.name()), Some(k));
        assert_eq!(k.to_string(), k.name());
        assert!(!k.summary().is_empty() && !k.summary().contains('\n'));
        assert_eq!(k.size_meaning().is_none(), k == SceneKind::HeavyOnLight);
    }
    assert_eq!(SceneKind::from_name("box_stack"), None);
    assert_eq!(SceneKind::from_name(""), None);
}

// ---------------------------------------------------------------------------------------
// Every scene.

#[test]
fn every_scene_builds_at_small_default_and_large_sizes_and_rests_as_specified() {
    for kind in SceneKind::ALL {
        for size in sizes(kind) {
            let w = scenes::build(kind, size, 0).unwrap_or_else(|e| panic!("{kind} {size:?}: {e}"));
            assert!(!w.bodies().is_empty());
            assert_eq!(w.ground().map(|g| g.height), Some(0.0), "{kind}");
            assert_eq!(*w.gravity(), Vector3::new(0.0, 0.0, -9.81));
            let cs = contacts(&w);
            // At rest, unless stated (the pile is in the air; the cannon ball of
            // roof-tower and wall-push, the last body, flies).
            let flying = usize::from(matches!(kind, SceneKind::RoofTower | SceneKind::WallPush));
            let (resting, ball) = w.bodies().split_at(w.bodies().len() - flying);
            assert!(
                resting
                    .iter()
                    .all(|b| b.body.linear_velocity == Vector3::zeros()
                        && b.body.angular_velocity == Vector3::zeros())
            );
            assert!(
                ball.iter()
                    .all(|b| b.body.linear_velocity.x + b.body.linear_velocity.y > 0.0)
            );
            match kind {
                SceneKind::BallGrid => {
                    let n = size.unwrap_or(5);
                    check_ball_grid(&cs, n, BallGridParams::default().overlap());
                }
                SceneKind::Pile => {
                    // Nothing touches anything: the bodies are above the bin.
                    assert!(cs.is_empty(), "{kind} {size:?}: {} contacts", cs.len());
                }
                _ => {
                    assert!(!cs.is_empty());
                    let worst = worst_gap(&cs);
                    assert!(worst >= -1e-9, "{kind} {size:?}: worst gap {worst}");
                }
            }
        }
    }
}

#[test]
fn contact_counts_at_default_size() {
    let counts: Vec<(SceneKind, usize, usize)> = SceneKind::ALL
        .iter()
        .map(|&k| {
            let w = scenes::build(k, None, 0).unwrap();
            (k, w.bodies().len(), contacts(&w).len())
        })
        .collect();
    use SceneKind::*;
    assert_eq!(
        counts,
        vec![
            (BoxStack, 10, 40),
            (HeavyOnLight, 2, 8),
            (Wall, 205, 2300),
            (Tower, 80, 896),
            (BallGrid, 129, 325),
            (Pile, 64, 0),
            (RoofTower, 802, 9440),
            (WallPush, 206, 2300),
        ]
    );
}

#[test]
fn the_scenes_are_deterministic() {
    for kind in SceneKind::ALL {
        let a = scenes::build(kind, None, 7).unwrap();
        let b = scenes::build(kind, None, 7).unwrap();
        assert_eq!(a, b, "{kind}");
        assert_eq!(
            write_scene(&a),
            write_scene(&b),
            "{kind}: not bit-identical"
        );
    }
}

#[test]
fn size_overrides_the_main_count_and_heavy_on_light_refuses_one() {
    let n = |k, s| scenes::build(k, Some(s), 0).unwrap().bodies().len();
    assert_eq!(n(SceneKind::BoxStack, 7), 7);
    assert_eq!(n(SceneKind::Wall, 6), wall::body_count(3, 6));
    assert_eq!(n(SceneKind::Wall, 1), 1);
    assert_eq!(n(SceneKind::Tower, 3), 24);
    assert_eq!(n(SceneKind::BallGrid, 3), 27 + 4);
    assert_eq!(n(SceneKind::Pile, 10), 10 + 4);
    assert_eq!(n(SceneKind::RoofTower, 3), 3 * 20 + 2);
    assert_eq!(n(SceneKind::WallPush, 6), wall::body_count(3, 6) + 1);
    let e = scenes::build(SceneKind::HeavyOnLight, Some(3), 0).unwrap_err();
    assert!(
        matches!(&e, MultibodyError::InvalidScene { reason } if reason.contains("heavy-on-light has no size")),
        "{e}"
    );
    for k in SceneKind::ALL {
        if k != SceneKind::HeavyOnLight {
            let e = scenes::build(k, Some(0), 0).unwrap_err();
            assert!(
                matches!(&e, MultibodyError::InvalidScene { reason } if reason.contains("at least")),
                "{k}: {e}"
            );
            let e = scenes::build(k, Some(usize::MAX), 0).unwrap_err();
            assert!(matches!(e, MultibodyError::InvalidScene { .. }), "{k}: {e}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// One scene at a time.

#[test]
fn box_stack_has_four_contacts_per_face_and_rests_exactly() {
    for count in [1, 2, 10, 25] {
        let w = box_stack::build(&BoxStackParams {
            count,
            ..Default::default()
        })
        .unwrap();
        let cs = contacts(&w);
        // parry reports each corner of two aligned faces twice; the world keeps one.
        assert_eq!(cs.len(), 4 * count);
        assert!(cs.iter().all(|c| c.gap.abs() <= 1e-12));
        for (k, b) in w.bodies().iter().enumerate() {
            assert_eq!(b.body.position, Vector3::new(0.0, 0.0, 0.5 + k as f64));
            assert_eq!(b.body.mass, 1000.0);
        }
        // Four contacts with the ground, four between each pair k, k+1.
        for k in 0..count {
            let below = if k == 0 { None } else { Some(k - 1) };
            let n = cs.iter().filter(|c| c.id.a == below && c.id.b == k).count();
            assert_eq!(n, 4, "face under box {k}");
        }
    }
    // Odd sizes are no exact binary fractions: the gaps are zero to rounding.
    let w = box_stack::build(&BoxStackParams {
        count: 25,
        half_extents: Vector3::new(0.13, 0.21, 0.17),
        ..Default::default()
    })
    .unwrap();
    let cs = contacts(&w);
    assert_eq!(cs.len(), 100);
    assert!(worst_gap(&cs) >= -1e-9);
    let mu = w.materials().get(MaterialId(0)).unwrap().friction;
    assert_eq!(mu, 0.5);
}

#[test]
fn heavy_on_light_has_the_requested_mass_ratio() {
    for (ratio, width) in [(1000.0, 1.0), (1e6, 1.0), (2.5, 2.0), (1000.0, 1.5)] {
        let w = heavy_on_light::build(&HeavyOnLightParams {
            ratio,
            heavy_width: width,
            ..Default::default()
        })
        .unwrap();
        let (light, heavy) = (&w.bodies()[0], &w.bodies()[1]);
        assert_eq!(heavy.body.mass / light.body.mass, ratio);
        assert_eq!(light.body.mass, 1.0);
        assert!(heavy.body.position.z > light.body.position.z);
        let Shape::Box { half_extents } = heavy.shape else {
            panic!("not a box")
        };
        assert_eq!(half_extents.x, 0.5 * width);
        let cs = contacts(&w);
        assert_eq!(cs.len(), 8, "ratio {ratio}, width {width}");
        assert!(worst_gap(&cs) >= -1e-9);
    }
}

#[test]
fn wall_contacts_follow_the_formula_and_scale_past_ten_thousand() {
    for (rows, per_row) in [(1, 1), (2, 1), (1, 3), (2, 3), (3, 4), (5, 7), (10, 20)] {
        let w = wall::build(&WallParams {
            rows,
            per_row,
            ..Default::default()
        })
        .unwrap();
        assert_eq!(w.bodies().len(), wall::body_count(rows, per_row));
        let cs = contacts(&w);
        assert_eq!(
            cs.len(),
            wall::contact_count(rows, per_row),
            "{rows} x {per_row}"
        );
        assert!(worst_gap(&cs) >= -1e-9);
        // Both ends are flush: every row spans the same length.
        let ends = |f: fn(f64, f64) -> f64, sign: f64| {
            w.bodies()
                .iter()
                .map(|b| {
                    let Shape::Box { half_extents } = b.shape else {
                        unreachable!()
                    };
                    b.body.position.x + sign * half_extents.x
                })
                .fold(-sign * f64::INFINITY, f)
        };
        let (lo, hi) = (ends(f64::min, -1.0), ends(f64::max, 1.0));
        assert!((lo + 0.2 * per_row as f64).abs() < 1e-12, "{lo}");
        assert!((hi - 0.2 * per_row as f64).abs() < 1e-12, "{hi}");
    }
    let big = WallParams {
        rows: 40,
        per_row: 60,
        ..Default::default()
    };
    let w = wall::build(&big).unwrap();
    let cs = contacts(&w);
    assert_eq!(cs.len(), wall::contact_count(40, 60));
    assert!(cs.len() >= 10_000, "{}", cs.len());
    assert!(worst_gap(&cs) >= -1e-9);
    // The command line's documented size for ten thousand contacts.
    let w = scenes::build(SceneKind::Wall, Some(42), 0).unwrap();
    assert!(contacts(&w).len() >= 10_000);
}

#[test]
fn tower_rings_are_turned_by_half_a_brick_and_neighbours_do_not_touch() {
    let p = TowerParams::default();
    let w = tower::build(&p).unwrap();
    let cs = contacts(&w);
    assert_eq!(cs.len(), tower::contact_count(p.layers));
    // No contact within a ring, only with the ground and between consecutive rings.
    for c in &cs {
        let ring = |i: usize| i / p.per_layer;
        match c.id.a {
            None => assert_eq!(ring(c.id.b), 0),
            Some(a) => assert_eq!(ring(a) + 1, ring(c.id.b)),
        }
    }
    // Every brick on the circle of the documented radius, alternate rings turned.
    let r = p.radius();
    for (i, b) in w.bodies().iter().enumerate() {
        let x = b.body.position;
        assert!(((x.x * x.x + x.y * x.y).sqrt() - r).abs() < 1e-12);
        let angle = x.y.atan2(x.x).rem_euclid(std::f64::consts::TAU);
        let step = std::f64::consts::TAU / p.per_layer as f64;
        let turn = if (i / p.per_layer) % 2 == 1 { 0.5 } else { 0.0 };
        let k = (i % p.per_layer) as f64 + turn;
        assert!((angle - k * step).abs() < 1e-9, "brick {i}: {angle}");
    }
    // The gap between neighbours in a ring is the requested one: with no gap they touch.
    let touching = tower::build(&TowerParams {
        gap: 0.0,
        layers: 1,
        ..Default::default()
    })
    .unwrap();
    let cs = contacts(&touching);
    assert!(cs.iter().any(|c| c.id.a.is_some()));
    assert!(worst_gap(&cs) >= -1e-9);
}

#[test]
fn ball_grid_overlaps_by_the_specified_amount_everywhere() {
    for (n, ratio) in [(1, 0.1), (3, 0.0), (4, 0.3), (5, 0.5)] {
        let p = BallGridParams {
            n,
            overlap_ratio: ratio,
            ..Default::default()
        };
        let w = ball_grid::build(&p).unwrap();
        assert_eq!(w.bodies().len(), n * n * n + 4);
        assert_eq!(w.bodies().iter().filter(|b| b.body.fixed).count(), 4);
        let cs = contacts(&w);
        check_ball_grid(&cs, n, p.overlap());
        if p.overlap() > 0.0 {
            assert!((worst_gap(&cs) + p.overlap()).abs() < 1e-9);
        }
    }
}

/// The ball grid's contacts: `contact_count(n)` overlapping by `overlap`, and the walls
/// touched (apart by `(n - 1) overlap / 2`) only when that is within the margin.
fn check_ball_grid(cs: &[nonsmooth::world::WorldContact], n: usize, overlap: f64) {
    let wall_gap = (n as f64 - 1.0) * overlap / 2.0;
    // The walls are bodies 0-3, so a contact with a wall has it as its first side.
    let (walls, balls): (Vec<_>, Vec<_>) = cs.iter().partition(|c| c.id.a.is_some_and(|a| a < 4));
    assert_eq!(balls.len(), ball_grid::contact_count(n), "n {n}");
    for c in &balls {
        assert!((c.gap + overlap).abs() < 1e-9, "n {n}: {}", c.gap);
    }
    for c in &walls {
        assert!((c.gap - wall_gap).abs() < 1e-9, "n {n}: wall gap {}", c.gap);
    }
    let touching = wall_gap <= nonsmooth::world::DEFAULT_MARGIN;
    assert_eq!(
        walls.is_empty(),
        !touching,
        "n {n}: {} wall contacts",
        walls.len()
    );
}

#[test]
fn pile_is_seeded_mixed_and_free_of_overlap() {
    let build = |seed, count| {
        pile::build(&PileParams {
            seed,
            count,
            ..Default::default()
        })
        .unwrap()
    };
    let a = build(0, 60);
    assert_eq!(a, build(0, 60));
    assert_eq!(write_scene(&a), write_scene(&build(0, 60)));
    assert_ne!(a, build(1, 60));
    assert_eq!(a.bodies().iter().filter(|b| b.body.fixed).count(), 4);
    let kinds = |w: &World| {
        let mut k = [0usize; 3];
        for b in w.bodies().iter().filter(|b| !b.body.fixed) {
            k[match b.shape {
                Shape::Box { .. } => 0,
                Shape::Sphere { .. } => 1,
                Shape::Capsule { .. } => 2,
            }] += 1;
        }
        k
    };
    assert!(kinds(&a).iter().all(|&k| k >= 10), "{:?}", kinds(&a));
    // Varied orientations.
    let turned = a
        .bodies()
        .iter()
        .filter(|b| b.body.orientation.angle() > 0.1)
        .count();
    assert!(turned > 50);
    for (seed, count) in [(0, 60), (1, 60), (2, 500), (3, 2000)] {
        let w = build(seed, count);
        assert_eq!(w.bodies().len(), count + 4);
        // Falling bodies start above the walls and touch nothing.
        let top = w
            .bodies()
            .iter()
            .filter(|b| b.body.fixed)
            .map(|b| b.body.position.z * 2.0)
            .fold(0.0, f64::max);
        for b in w.bodies().iter().filter(|b| !b.body.fixed) {
            assert!(b.body.position.z - b.shape.bounding_radius() > top);
        }
        let cs = contacts(&w);
        let overlapping = cs.iter().filter(|c| c.gap < 0.0).count();
        assert_eq!(overlapping, 0, "seed {seed}, count {count}");
        assert!(cs.is_empty());
    }
}

#[test]
fn bad_parameters_are_errors_not_panics() {
    use MultibodyError as E;
    let nan = f64::NAN;
    let inv = |r: Result<World, E>| matches!(r, Err(E::InvalidScene { .. }));
    let nonpos = |r: Result<World, E>| matches!(r, Err(E::NonPositive { .. }));
    let nonfinite = |r: Result<World, E>| matches!(r, Err(E::NonFinite { .. }));
    let friction = |r: Result<World, E>| matches!(r, Err(E::NegativeFriction { .. }));
    let bs = BoxStackParams::default;
    assert!(inv(box_stack::build(&BoxStackParams { count: 0, ..bs() })));
    assert!(nonpos(box_stack::build(&BoxStackParams {
        half_extents: Vector3::new(0.5, -0.5, 0.5),
        ..bs()
    })));
    assert!(nonfinite(box_stack::build(&BoxStackParams {
        density: nan,
        ..bs()
    })));
    assert!(friction(box_stack::build(&BoxStackParams {
        friction: -0.1,
        ..bs()
    })));
    let hl = HeavyOnLightParams::default;
    assert!(nonpos(heavy_on_light::build(&HeavyOnLightParams {
        ratio: 0.0,
        ..hl()
    })));
    assert!(nonpos(heavy_on_light::build(&HeavyOnLightParams {
        ratio: -5.0,
        ..hl()
    })));
    assert!(nonfinite(heavy_on_light::build(&HeavyOnLightParams {
        ratio: nan,
        ..hl()
    })));
    assert!(nonfinite(heavy_on_light::build(&HeavyOnLightParams {
        ratio: 1e300,
        light_mass: 1e300,
        ..hl()
    })));
    assert!(nonpos(heavy_on_light::build(&HeavyOnLightParams {
        heavy_width: 0.0,
        ..hl()
    })));
    let wp = WallParams::default;
    assert!(inv(wall::build(&WallParams { rows: 0, ..wp() })));
    assert!(inv(wall::build(&WallParams { per_row: 0, ..wp() })));
    assert!(inv(wall::build(&WallParams {
        rows: 1 << 40,
        per_row: 1 << 40,
        ..wp()
    })));
    assert!(nonfinite(wall::build(&WallParams {
        half_extents: Vector3::new(nan, 0.1, 0.1),
        ..wp()
    })));
    let tp = TowerParams::default;
    assert!(inv(tower::build(&TowerParams { layers: 0, ..tp() })));
    assert!(inv(tower::build(&TowerParams {
        per_layer: 2,
        ..tp()
    })));
    assert!(inv(tower::build(&TowerParams { gap: -0.1, ..tp() })));
    assert!(nonfinite(tower::build(&TowerParams { gap: nan, ..tp() })));
    let bg = BallGridParams::default;
    assert!(inv(ball_grid::build(&BallGridParams { n: 0, ..bg() })));
    assert!(inv(ball_grid::build(&BallGridParams {
        n: 1 << 22,
        ..bg()
    })));
    assert!(inv(ball_grid::build(&BallGridParams {
        overlap_ratio: 0.6,
        ..bg()
    })));
    assert!(inv(ball_grid::build(&BallGridParams {
        overlap_ratio: -0.1,
        ..bg()
    })));
    assert!(nonfinite(ball_grid::build(&BallGridParams {
        overlap_ratio: nan,
        ..bg()
    })));
    assert!(nonpos(ball_grid::build(&BallGridParams {
        radius: 0.0,
        ..bg()
    })));
    let pp = PileParams::default;
    assert!(inv(pile::build(&PileParams { count: 0, ..pp() })));
    assert!(nonpos(pile::build(&PileParams {
        max_radius: -1.0,
        ..pp()
    })));
    assert!(nonfinite(pile::build(&PileParams {
        density: f64::INFINITY,
        ..pp()
    })));
}

// ---------------------------------------------------------------------------------------
// Scene files.

#[test]
fn every_scene_round_trips_through_a_scene_file_to_the_last_bit() {
    for kind in SceneKind::ALL {
        for size in sizes(kind).into_iter().take(2) {
            let w = scenes::build(kind, size, 3).unwrap();
            let text = write_scene(&w);
            let back = read_scene(&text).unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert_eq!(back, w, "{kind} {size:?}");
            // Equal text means equal bits (the shortest representation is unique), which
            // `==` on floats does not see (0.0 == -0.0).
            assert_eq!(write_scene(&back), text, "{kind} {size:?}");
        }
    }
}

#[test]
fn a_world_with_every_feature_round_trips() {
    let mut w = World::new()
        .with_gravity(Vector3::new(0.1, -0.2, -9.7))
        .unwrap()
        .with_margin(0.002)
        .unwrap();
    let rubber = w
        .add_material(nonsmooth::world::Material::new(0.9, 0.6).unwrap())
        .unwrap();
    w.set_pair_material(
        MaterialId(0),
        rubber,
        nonsmooth::world::Material::new(0.3, 0.1).unwrap(),
    )
    .unwrap();
    w = w
        .with_ground(Some(
            nonsmooth::world::GroundPlane::new(-0.5, rubber).unwrap(),
        ))
        .unwrap();
    let q = UnitQuaternion::from_euler_angles(0.3, -1.1, 2.0);
    let i = w
        .add(
            Shape::capsule(0.3, 0.1).unwrap(),
            700.0,
            Vector3::new(-0.0, 1.0 / 3.0, 0.1),
            q,
            rubber,
        )
        .unwrap();
    let b = w.body_mut(i).unwrap();
    b.body.linear_velocity = Vector3::new(1e-300, -0.0, 3.0);
    b.body.angular_velocity = Vector3::new(0.0, 0.0, -7.25);
    b.body.force = Vector3::new(0.0, 1.0, 0.0);
    b.body.torque = Vector3::new(0.5, 0.0, 0.0);
    w.add_fixed(
        Shape::cuboid(1.0, 2.0, 0.1).unwrap(),
        Vector3::new(0.0, 0.0, -0.6),
        q,
        MaterialId(0),
    )
    .unwrap();
    let text = write_scene(&w);
    let back = read_scene(&text).unwrap();
    assert_eq!(back, w);
    assert_eq!(write_scene(&back), text);
    // No ground at all.
    let bare = World::new().with_ground(None).unwrap();
    let text = write_scene(&bare);
    assert!(text.contains("\"ground\": null"), "{text}");
    assert_eq!(read_scene(&text).unwrap(), bare);
}

fn example_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenes/example.json")
}

#[test]
fn the_example_file_reads() {
    let w = scene_from_path(example_path()).unwrap();
    assert_eq!(w.bodies().len(), 5);
    assert_eq!(w.materials().len(), 3);
    assert_eq!(w.margin(), 0.001);
    let ice_rubber = w.materials().pair(MaterialId(1), MaterialId(2));
    assert_eq!((ice_rubber.friction, ice_rubber.restitution), (0.15, 0.2));
    let b = w.bodies();
    assert_eq!(b[0].body.mass, 700.0);
    assert_eq!(b[1].body.mass, 2.0);
    assert_eq!(b[1].material, MaterialId(1));
    // The capsule lies along x after a quarter turn about y.
    let axis = b[2].body.orientation * Vector3::z();
    assert!((axis - Vector3::x()).norm() < 1e-15);
    assert_eq!(b[3].body.angular_velocity, Vector3::new(0.0, 0.0, 3.0));
    assert!(b[4].body.fixed);
    // The box and the sphere rest; the capsule lies on the ground.
    let cs = contacts(&w);
    assert!(worst_gap(&cs) >= -1e-9);
    assert_eq!(cs.iter().filter(|c| c.id.b == 2).count(), 2);
    // And it round-trips.
    assert_eq!(read_scene(&write_scene(&w)).unwrap(), w);
}

/// The error message of reading `text`.
fn error(text: &str) -> String {
    match read_scene(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e.to_string(),
    }
}

fn assert_error(text: &str, expected: &[&str]) {
    let message = error(text);
    for s in expected {
        assert!(message.contains(s), "{message:?} lacks {s:?}");
    }
}

const SPHERE: &str = r#"{"shape": {"sphere": 0.5}, "position": [0, 0, 1], "density": 1000}"#;

#[test]
fn malformed_files_name_the_place() {
    let with_body = |body: &str| format!(r#"{{"bodies": [{SPHERE}, {SPHERE}, {SPHERE}, {body}]}}"#);
    assert_error(
        &with_body(r#"{"shape": {"cube": 1.0}, "position": [0, 0, 0], "mass": 1}"#),
        &[r#"bodies[3].shape: unknown shape "cube", expected box, sphere or capsule"#],
    );
    assert_error(
        &with_body(r#"{"shape": "sphere", "position": [0, 0, 0], "mass": 1}"#),
        &["bodies[3].shape: a shape is an object"],
    );
    assert_error(
        &with_body(r#"{"shape": {"box": [1, 2]}, "position": [0, 0, 0], "mass": 1}"#),
        &["bodies[3].shape: invalid length 2"],
    );
    assert_error(
        &with_body(r#"{"shape": {"sphere": -1}, "position": [0, 0, 0], "mass": 1}"#),
        &["bodies[3].shape: sphere radius must be positive, found -1"],
    );
    assert_error(
        &with_body(r#"{"shape": {"sphere": 1}, "position": [0, 0, 0], "mass": 1, "density": 2}"#),
        &["bodies[3]: give density or mass, not both"],
    );
    assert_error(
        &with_body(r#"{"shape": {"sphere": 1}, "position": [0, 0, 0]}"#),
        &["bodies[3]: give density or mass"],
    );
    assert_error(
        &with_body(r#"{"shape": {"sphere": 1}, "position": [0, 0, 0], "mass": 0}"#),
        &["bodies[3]: mass must be positive"],
    );
    assert_error(
        &with_body(
            r#"{"shape": {"sphere": 1}, "position": [0, 0, 0], "mass": 1, "velocty": [1, 0, 0]}"#,
        ),
        &["bodies[3]: unknown field `velocty`"],
    );
    assert_error(
        &with_body(r#"{"shape": {"sphere": 1}, "mass": 1}"#),
        &["bodies[3]: missing field `position`"],
    );
    assert_error(
        &with_body(
            r#"{"shape": {"sphere": 1}, "position": [0, 0, 0], "mass": 1, "material": "steel"}"#,
        ),
        &[r#"bodies[3].material: unknown material "steel" (the file defines no materials)"#],
    );
    assert_error(
        &with_body(
            r#"{"shape": {"sphere": 1}, "position": [0, 0, 0], "mass": 1, "orientation": [1, 0, 0, 1]}"#,
        ),
        &[
            "bodies[3].orientation: the quaternion [1, 0, 0, 1] has norm 1.414",
            "unit quaternion",
        ],
    );
    assert_error(
        &with_body(
            r#"{"shape": {"sphere": 1}, "position": [0, 0, 0], "mass": 1, "orientation": [1, 0, 0, 0], "axis_angle": [0, 0, 1, 1]}"#,
        ),
        &["bodies[3]: give orientation or axis_angle, not both"],
    );
    assert_error(
        &with_body(
            r#"{"shape": {"sphere": 1}, "position": [0, 0, 0], "mass": 1, "axis_angle": [0, 0, 0, 1]}"#,
        ),
        &["bodies[3].axis_angle: the axis [0, 0, 0] must be non-zero"],
    );
}

#[test]
fn malformed_files_syntax_numbers_materials_and_top_level() {
    // JSON syntax, with line and column.
    assert_error(
        "{\n  \"bodies\": [\n    {\"shape\": }\n  ]\n}",
        &["line 3, column 15: expected value"],
    );
    assert_error("", &["line 1, column 0: EOF while parsing"]);
    // No NaN in JSON; a number beyond f64 is refused where it stands.
    assert_error(
        "{\"gravity\": [0, 0, -1e999]}",
        &["line 1, column 25: number out of range"],
    );
    assert_error(
        "{\"gravity\": [0, 0, NaN]}",
        &["line 1, column 20: expected value"],
    );
    // Top level.
    assert_error("[1, 2]", &["scene: a scene file holds one JSON object"]);
    assert_error(
        r#"{"bodys": []}"#,
        &[r#"scene: unknown field "bodys", expected one of gravity, ground"#],
    );
    assert_error(r#"{"bodies": {}}"#, &["bodies: expected an array"]);
    assert_error(r#"{"gravity": [0, 0]}"#, &["gravity: invalid length 2"]);
    assert_error(
        r#"{"margin": -1}"#,
        &["margin: margin must be positive, found -1"],
    );
    // Materials.
    let mats = r#"{"name": "wood", "friction": 0.5, "restitution": 0}"#;
    assert_error(
        r#"{"materials": [{"name": "ice", "friction": -0.1, "restitution": 0}]}"#,
        &["materials[0]: the friction coefficient must be >= 0, found -0.1"],
    );
    assert_error(
        &format!(r#"{{"materials": [{mats}, {{"name": "x", "friction": 1, "restitution": 2}}]}}"#),
        &["materials[1]: the coefficient of restitution must lie in [0, 1], found 2"],
    );
    assert_error(
        &format!(r#"{{"materials": [{mats}, {mats}]}}"#),
        &[r#"materials[1]: the material name "wood" is already used"#],
    );
    assert_error(
        &format!(r#"{{"materials": [{mats}], "ground": {{"material": "stone"}}}}"#),
        &[r#"ground.material: unknown material "stone", expected one of "wood""#],
    );
    assert_error(
        &format!(
            r#"{{"materials": [{mats}], "pairs": [{{"a": "wood", "b": "ice", "friction": 1, "restitution": 0}}]}}"#
        ),
        &[r#"pairs[0].b: unknown material "ice""#],
    );
    assert_error(
        &format!(
            r#"{{"materials": [{mats}], "pairs": [{{"a": "wood", "b": "wood", "friction": -1, "restitution": 0}}]}}"#
        ),
        &["pairs[0]: the friction coefficient must be >= 0"],
    );
    assert_error(
        r#"{"materials": [{"name": "wood", "friction": 0.5}]}"#,
        &["materials[0]: missing field `restitution`"],
    );
}

#[test]
fn lenient_where_documented() {
    // Everything optional but the bodies' shape, position and mass: an empty object is an
    // empty world with the defaults.
    let w = read_scene("{}").unwrap();
    assert_eq!(w, World::new());
    // `null` ground is no ground.
    assert!(
        read_scene(r#"{"ground": null}"#)
            .unwrap()
            .ground()
            .is_none()
    );
    // A fixed body needs no mass.
    let w = read_scene(
        r#"{"bodies": [{"shape": {"box": [1, 1, 1]}, "position": [0, 0, -1], "fixed": true}]}"#,
    )
    .unwrap();
    assert!(w.bodies()[0].body.fixed);
    // A quaternion typed with four digits is normalised.
    let w = read_scene(
        r#"{"bodies": [{"shape": {"sphere": 1}, "position": [0, 0, 0], "mass": 1,
            "orientation": [0.7071, 0, 0, 0.7071]}]}"#,
    )
    .unwrap();
    let q = w.bodies()[0].body.orientation;
    assert!((q.as_ref().norm() - 1.0).abs() < 1e-15);
    assert!((q.angle() - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
}

#[test]
fn errors_have_places_sources_and_paths() {
    let e = read_scene(&format!(
        r#"{{"bodies": [{SPHERE}, {{"shape": {{"sphere": 1}}, "position": [0, 0, 0], "mass": -2}}]}}"#
    ))
    .unwrap_err();
    assert_eq!(e.place(), Some("bodies[1]"));
    assert!(matches!(
        e,
        SceneFileError::World {
            source: MultibodyError::NonPositiveMass { .. },
            ..
        }
    ));
    assert!(std::error::Error::source(&e).is_some());
    let missing = example_path().with_file_name("no-such-scene.json");
    let e = scene_from_path(&missing).unwrap_err();
    assert!(matches!(e, SceneFileError::Io { .. }));
    assert!(e.to_string().contains("no-such-scene.json"), "{e}");
    let dir = std::env::temp_dir().join(format!("nonsmooth-scene-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"bodies": [{"shape": {"cube": 1}}]}"#).unwrap();
    let e = scene_from_path(&bad).unwrap_err();
    let message = e.to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        message.contains("bad.json: bodies[0].shape: unknown shape"),
        "{message}"
    );
    assert_eq!(e.place(), Some("bodies[0].shape"));
}

#[test]
fn parsed_files_keep_what_was_written() {
    let text = std::fs::read_to_string(example_path()).unwrap();
    let file: SceneFile = parse_scene(&text).unwrap();
    assert_eq!(file.materials[0].name, "wood");
    assert!(file.bodies[2].axis_angle.is_some());
    assert_eq!(file.to_world().unwrap(), read_scene(&text).unwrap());
}
