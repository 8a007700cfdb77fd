//! Degenerate friction sets and points, each with the answer it must give (never a panic,
//! never NaN for finite input): `μ = 0`, `λ_N = 0` and `λ_N < 0`, a zero semi-axis,
//! semi-axis ratios of 1e12, points on an axis, on the surface, at the origin, huge and tiny
//! magnitudes, infinite semi-axes, and invalid parameters (negative, NaN).

use nonsmooth::friction::{
    BoxSet, ConvexSet, Disk, Ellipsoid, EllipsoidCase, EllipsoidMethod, FrictionLaw,
    project_on_ellipsoid_with,
};

const METHODS: [EllipsoidMethod; 2] = [
    EllipsoidMethod::Bisection,
    EllipsoidMethod::SafeguardedNewton,
];

fn proj(axes: &[f64], z: &[f64], m: EllipsoidMethod) -> (Vec<f64>, EllipsoidCase) {
    let mut x = vec![0.0; axes.len()];
    let r = project_on_ellipsoid_with(axes, z, &mut x, m);
    (x, r.case)
}

fn close(a: &[f64], b: &[f64], rel: f64) -> bool {
    let s = b.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= rel * s)
}

#[test]
fn zero_friction_and_zero_normal_force_give_the_origin() {
    let z = [3.0, -4.0, 0.5];
    let laws = [
        FrictionLaw::Box { mu: [0.0, 0.0] },
        FrictionLaw::Disk { mu: 0.0 },
        FrictionLaw::Ellipse { mu: [0.0, 0.0] },
        FrictionLaw::Ellipsoid {
            mu: [0.0, 0.0, 0.0],
        },
    ];
    for law in laws {
        let mut out = [f64::NAN; 3];
        law.project(1.0, &z, &mut out);
        assert!(
            out[..law.friction_dim()].iter().all(|v| *v == 0.0),
            "{law:?}: {out:?}"
        );
    }
    let law = FrictionLaw::Ellipsoid {
        mu: [0.5, 0.4, 0.01],
    };
    for normal in [0.0, -1.0, -0.0, f64::NAN] {
        let mut out = [f64::NAN; 3];
        law.project(normal, &z, &mut out);
        assert_eq!(out, [0.0; 3], "λ_N = {normal}");
    }
}

#[test]
fn zero_torsion_coefficient_flattens_the_ellipsoid_to_the_ellipse() {
    // μ_τ = 0: the torque is zeroed and the force projects onto the ellipse
    let (z, n) = ([3.0, -4.0, 0.5], 2.0);
    let mut flat = [0.0; 3];
    FrictionLaw::Ellipsoid {
        mu: [0.5, 0.3, 0.0],
    }
    .project(n, &z, &mut flat);
    let mut ell = [0.0; 2];
    FrictionLaw::Ellipse { mu: [0.5, 0.3] }.project(n, &z, &mut ell);
    assert_eq!(flat[2], 0.0);
    assert!(
        close(&flat[..2], &ell, 4.0 * f64::EPSILON),
        "{flat:?} vs {ell:?}"
    );
    // a point off the flat set only along the zero axis: that coordinate is zeroed
    for m in METHODS {
        let (x, case) = proj(&[1.0, 1.0, 0.0], &[0.3, 0.4, 7.0], m);
        assert_eq!(x, [0.3, 0.4, 0.0]);
        assert_eq!(case, EllipsoidCase::Flattened);
    }
}

#[test]
fn points_on_an_axis_project_to_the_vertex() {
    for m in METHODS {
        for (axes, z, expect) in [
            (
                vec![2.0, 1.0, 0.5],
                vec![5.0, 0.0, 0.0],
                vec![2.0, 0.0, 0.0],
            ),
            (
                vec![2.0, 1.0, 0.5],
                vec![0.0, -3.0, 0.0],
                vec![0.0, -1.0, 0.0],
            ),
            (
                vec![2.0, 1.0, 0.5],
                vec![0.0, 0.0, 1e30],
                vec![0.0, 0.0, 0.5],
            ),
            (vec![1.0, 1e-12], vec![0.0, 1.0], vec![0.0, 1e-12]),
            (vec![1.0, 1e-12], vec![3.0, 0.0], vec![1.0, 0.0]),
        ] {
            let (x, _) = proj(&axes, &z, m);
            assert!(
                close(&x, &expect, 2.0 * f64::EPSILON),
                "{m:?} {axes:?} {z:?}: {x:?}"
            );
        }
    }
}

#[test]
fn origin_and_surface_points_are_fixed() {
    for m in METHODS {
        let (x, case) = proj(&[2.0, 1.0, 0.5], &[0.0, 0.0, 0.0], m);
        assert_eq!((x, case), (vec![0.0; 3], EllipsoidCase::Inside));
        // exactly on the surface (Σ (x_i/a_i)² = 1 in floating point)
        let (x, case) = proj(&[2.0, 1.0, 0.5], &[2.0 * 0.6, 0.8, 0.0], m);
        assert_eq!((x, case), (vec![1.2, 0.8, 0.0], EllipsoidCase::Inside));
    }
}

#[test]
fn extreme_ratios_and_magnitudes_stay_on_the_surface() {
    for m in METHODS {
        // (down to 1e-290: the smallest semi-axis, 1e-302, must itself be a normal number)
        for scale in [1e-290, 1e-150, 1.0, 1e150, 1e300] {
            for (axes, z) in [
                (vec![1.0, 1e-12, 1e-6], vec![0.7, 0.7, 0.7]),
                (vec![1.0, 1e-12], vec![0.5, 1e-12]),
                (vec![1e-12, 1e-12, 1.0], vec![1.0, -1.0, 1.0]),
            ] {
                let a: Vec<f64> = axes.iter().map(|v| v * scale).collect();
                let zs: Vec<f64> = z.iter().map(|v| v * scale).collect();
                let (x, case) = proj(&a, &zs, m);
                assert_eq!(case, EllipsoidCase::Root);
                assert!(x.iter().all(|v| v.is_finite()));
                let g: f64 = x.iter().zip(&a).map(|(p, q)| (p / q) * (p / q)).sum();
                assert!(
                    (g - 1.0).abs() <= 8.0 * f64::EPSILON,
                    "{m:?} scale {scale:e}: g - 1 = {:e}",
                    g - 1.0
                );
            }
        }
        // a point 1e315 times farther than the semi-axes: both are representable
        let (x, _) = proj(&[8.5e-82, 8.5e-82], &[0.0, 7.3e233], m);
        assert!(close(&x, &[0.0, 8.5e-82], 4.0 * f64::EPSILON), "{x:?}");
    }
}

#[test]
fn infinite_and_invalid_parameters() {
    for m in METHODS {
        // an infinite semi-axis leaves its coordinate free
        let (x, _) = proj(&[f64::INFINITY, 1.0], &[1e10, 3.0], m);
        assert_eq!(x, vec![1e10, 1.0]);
        // negative and NaN semi-axes are read as 0
        let (x, _) = proj(&[-1.0, f64::NAN, 1.0], &[1.0, 2.0, 3.0], m);
        assert_eq!(x, vec![0.0, 0.0, 1.0]);
        // a non-finite point gives NaN, reported as such, without a panic
        let (x, case) = proj(&[1.0, 1.0], &[f64::NAN, 0.0], m);
        assert!(x.iter().all(|v| v.is_nan()));
        assert_eq!(case, EllipsoidCase::NotFinite);
    }
    let mut out = [0.0; 3];
    BoxSet {
        half: vec![-1.0, f64::NAN, 2.0],
    }
    .project(&[5.0, 5.0, 5.0], &mut out);
    assert_eq!(out, [0.0, 0.0, 2.0]);
    let mut out = [0.0; 2];
    Disk { radius: -1.0 }.project(&[5.0, 5.0], &mut out);
    assert_eq!(out, [0.0, 0.0]);
    Disk { radius: 1e-52 }.project(&[0.0, -6.6e277], &mut out);
    assert_eq!(out, [0.0, -1e-52]);
    for law in [
        FrictionLaw::Box {
            mu: [f64::NAN, -1.0],
        },
        FrictionLaw::Disk { mu: f64::INFINITY },
        FrictionLaw::Ellipsoid {
            mu: [f64::NAN, 1.0, -2.0],
        },
    ] {
        assert!(!law.is_valid());
        let mut out = [0.0; 3];
        law.project(0.0, &[1.0, 2.0, 3.0], &mut out);
        assert!(out.iter().all(|v| v.is_finite()), "{law:?}: {out:?}");
    }
    let e = Ellipsoid {
        axes: vec![1.0, 0.0],
    };
    assert!(e.contains(&[0.5, 0.0], 0.0) && !e.contains(&[0.5, 1e-3], 0.0));
}
