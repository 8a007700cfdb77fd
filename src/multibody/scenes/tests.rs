//! Unit tests of the scene generators: the size cap, contact counts against the closed
//! forms, sizing for a target, bad parameters, and the statics of stacks.

use super::*;
use crate::multibody::{BodyRef, MultibodyError};

fn all_specs() -> Vec<SceneSpec> {
    let mut v = Vec::new();
    for n in 1..6 {
        v.push(SceneSpec::BoxStack { n });
        v.push(SceneSpec::Pyramid { base: n });
        for c in 1..5 {
            v.push(SceneSpec::Wall { rows: n, cols: c });
        }
    }
    v
}

/// Regression (issue 8): `--contacts 18446744073709551615` looped forever in the
/// pyramid search (the saturated count never exceeded the target), and `--n` of that
/// size overflowed a capacity.
#[test]
fn sizes_beyond_the_cap_are_errors_not_hangs() {
    let p = SceneParams::cubes();
    for kind in [SceneKind::BoxStack, SceneKind::Wall, SceneKind::Pyramid] {
        for target in [0, MAX_SCENE_CONTACTS + 1, usize::MAX] {
            assert!(
                SceneSpec::for_contacts(kind, target, &p).is_err(),
                "{kind:?} {target}"
            );
        }
    }
    assert!(box_stack(usize::MAX).is_err());
    assert!(box_stack(MAX_SCENE_CONTACTS / 4 + 1).is_err());
    assert!(wall(3, usize::MAX).is_err());
    assert!(pyramid(usize::MAX).is_err());
    let target = MAX_SCENE_CONTACTS - 10_000;
    let spec = SceneSpec::for_contacts(SceneKind::Pyramid, target, &p).unwrap();
    assert!((target..=MAX_SCENE_CONTACTS).contains(&spec.contact_count(&p)));
}

#[test]
fn contact_counts_match_the_closed_forms() {
    for gap in [0.0, 0.01] {
        for ground in [Ground::World, Ground::FixedBody] {
            for spec in all_specs() {
                let p = SceneParams {
                    gap,
                    ground,
                    ..SceneParams::bricks()
                };
                let s = spec.build(&p).unwrap();
                assert_eq!(s.contacts.len(), spec.contact_count(&p), "{spec:?} {gap}");
                assert_eq!(s.bodies.len(), s.half_extents.len());
                // Every contact point lies on the surface of both of its boxes.
                for c in &s.contacts {
                    let sides = [c.a(), BodyRef::Body(c.b())];
                    for side in sides {
                        let BodyRef::Body(i) = side else {
                            assert!(c.point().z.abs() < 1e-15);
                            continue;
                        };
                        let d = (c.point() - s.bodies[i].position).abs();
                        let h = s.half_extents[i];
                        let inside = (0..3).all(|k| d[k] <= h[k] * (1.0 + 1e-12));
                        let on_face = (0..3).any(|k| (d[k] - h[k]).abs() <= 1e-12);
                        assert!(inside && on_face, "{spec:?} {c:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn sizing_reaches_the_target_and_no_further_than_one_step() {
    for kind in [SceneKind::BoxStack, SceneKind::Wall, SceneKind::Pyramid] {
        assert!(SceneSpec::for_contacts(kind, 0, &SceneParams::bricks()).is_err());
        for target in [1, 7, 100, 1000, 10_000, 100_000] {
            let p = SceneParams::bricks();
            let spec = SceneSpec::for_contacts(kind, target, &p).unwrap();
            let n = spec.contact_count(&p);
            assert!(n >= target.max(1), "{kind:?} {target}");
            let smaller = match spec {
                SceneSpec::BoxStack { n } => SceneSpec::BoxStack { n: n - 1 },
                SceneSpec::Wall { rows, cols } => SceneSpec::Wall {
                    rows,
                    cols: cols - 1,
                },
                SceneSpec::Pyramid { base } => SceneSpec::Pyramid { base: base - 1 },
            };
            assert!(smaller.contact_count(&p) < target.max(1), "{spec:?}");
            if let SceneSpec::Wall { rows, cols } = spec {
                assert!(cols >= rows);
            }
        }
    }
    let s = sized_for(SceneKind::Wall, 1000).unwrap();
    assert!(s.contacts.len() >= 1000 && s.contacts.len() < 1100);
}

#[test]
fn bad_parameters_are_errors() {
    assert!(box_stack(0).is_err());
    assert!(pyramid(0).is_err());
    assert!(wall(0, 3).is_err());
    assert!(wall(3, 0).is_err());
    assert!(heavy_on_light(0.0).is_err());
    assert!(heavy_on_light(f64::NAN).is_err());
    let p = SceneParams {
        gap: 1.0,
        ..SceneParams::cubes()
    };
    assert!(matches!(
        pyramid_with(3, &p),
        Err(MultibodyError::InvalidScene { .. })
    ));
    let p = SceneParams {
        mu: -1.0,
        ..SceneParams::cubes()
    };
    assert!(box_stack_with(2, &p).is_err());
}

/// Each box of a stack carries the weight of the boxes above it: the impulse
/// `(n - k) m g dt / 4` on each contact under box `k`, zero friction, makes every
/// contact velocity vanish.
#[test]
fn stack_statics_solve_the_local_problem() {
    for ground in [Ground::World, Ground::FixedBody] {
        let p = SceneParams {
            ground,
            ..SceneParams::cubes()
        };
        let n = 5;
        let s = box_stack_with(n, &p).unwrap();
        let first = s.bodies.iter().position(|b| !b.fixed).unwrap();
        let fc = s.local_problem().unwrap();
        let g = -p.step.gravity.z;
        let mut r = nalgebra::DVector::zeros(fc.dim());
        for k in 0..n {
            let above: f64 = s.bodies[first + k..].iter().map(|b| b.mass).sum();
            for c in 0..4 {
                r[3 * (4 * k + c)] = above * g * p.step.dt / 4.0;
            }
        }
        let u = fc.velocity(&r);
        assert!(u.amax() < 1e-13, "{}", u.amax());
    }
}

#[test]
fn heavy_on_light_statics() {
    let s = heavy_on_light(1000.0).unwrap();
    assert_eq!(s.bodies[1].mass, 1000.0 * s.bodies[0].mass);
    let fc = s.local_problem().unwrap();
    let g = 9.81;
    let dt = s.step.dt;
    let mut r = nalgebra::DVector::zeros(24);
    for c in 0..4 {
        r[3 * c] = (s.bodies[0].mass + s.bodies[1].mass) * g * dt / 4.0;
        r[3 * (4 + c)] = s.bodies[1].mass * g * dt / 4.0;
    }
    assert!(fc.velocity(&r).amax() < 1e-12);
}
