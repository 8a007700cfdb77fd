//! Proptest strategies for the friction sets (`nonsmooth::friction::sets`), shared by the
//! `tests/laws/projection_*.rs` modules (declared once, as `crate::sets`, in
//! `tests/laws/main.rs`).
//!
//! A [`SetCase`] is one of the sets with parameters drawn over many orders of magnitude,
//! degenerate ones included (a zero radius or semi-axis, semi-axis ratios up to 1e12); the
//! points are drawn inside, outside, on the surface, on an axis, at the origin, with
//! magnitudes from 1e-100 to 1e100.
#![allow(dead_code)]

use nonsmooth::friction::{BoxSet, ConvexSet, Disk, Ellipsoid, EllipsoidMethod, HalfLine};
use nonsmooth::friction::{FrictionLaw, project_on_ellipsoid_with};
use proptest::prelude::*;

/// One set, with the projection under test.
#[derive(Debug, Clone)]
pub enum SetCase {
    /// `{ γ >= 0 }`.
    HalfLine,
    /// A box in `R^2` or `R^3`.
    Box(BoxSet),
    /// A disk.
    Disk(Disk),
    /// An ellipse or ellipsoid, projected by the given method.
    Ellipsoid(Ellipsoid, EllipsoidMethod),
    /// A friction law at a normal force `λ_N`.
    Law(FrictionLaw, f64),
}

impl SetCase {
    /// Dimension of the set.
    pub fn dim(&self) -> usize {
        match self {
            SetCase::HalfLine => 1,
            SetCase::Box(b) => b.dim(),
            SetCase::Disk(_) => 2,
            SetCase::Ellipsoid(e, _) => e.dim(),
            SetCase::Law(l, _) => l.friction_dim(),
        }
    }
    /// The projection under test.
    pub fn project(&self, z: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.dim()];
        match self {
            SetCase::HalfLine => HalfLine.project(z, &mut out),
            SetCase::Box(b) => b.project(z, &mut out),
            SetCase::Disk(d) => d.project(z, &mut out),
            SetCase::Ellipsoid(e, m) => {
                project_on_ellipsoid_with(&e.axes, z, &mut out, *m);
            }
            SetCase::Law(l, n) => l.project(*n, z, &mut out),
        }
        out
    }
    /// The set as an ellipsoid or a box with explicit parameters: `(axes, is_box)`; the
    /// half-line is `None`.
    pub fn shape(&self) -> Option<(Vec<f64>, bool)> {
        match self {
            SetCase::HalfLine => None,
            SetCase::Box(b) => Some((b.half.clone(), true)),
            SetCase::Disk(d) => Some((vec![d.radius; 2], false)),
            SetCase::Ellipsoid(e, _) => Some((e.axes.clone(), false)),
            SetCase::Law(l, n) => {
                let n = n.max(0.0);
                Some(match *l {
                    FrictionLaw::Box { mu } => (vec![mu[0] * n, mu[1] * n], true),
                    FrictionLaw::Disk { mu } => (vec![mu * n; 2], false),
                    FrictionLaw::Ellipse { mu } => (vec![mu[0] * n, mu[1] * n], false),
                    FrictionLaw::Ellipsoid { mu } => (vec![mu[0] * n, mu[1] * n, mu[2] * n], false),
                })
            }
        }
    }
    /// The largest parameter (1 for the half-line): the scale of the set.
    pub fn size(&self) -> f64 {
        self.shape()
            .map_or(1.0, |(a, _)| a.iter().fold(0.0f64, |m, v| m.max(*v)))
    }
    /// `Σ (x_i/a_i)²` over the positive axes (ellipsoids, disks: the squared gauge), or
    /// `max |x_i|/h_i` (boxes), and the largest `|x_i|` along a zero axis: `x` is in the set
    /// when the first is at most 1 and the second is 0.
    pub fn gauge(&self, x: &[f64]) -> (f64, f64) {
        match self.shape() {
            None => (if x[0] >= 0.0 { 0.0 } else { f64::INFINITY }, 0.0),
            Some((a, is_box)) => {
                let mut s = 0.0f64;
                let mut flat = 0.0f64;
                for (ai, xi) in a.iter().zip(x) {
                    if *ai > 0.0 {
                        let q = xi.abs() / ai;
                        s = if is_box { s.max(q) } else { s + q * q };
                    } else {
                        flat = flat.max(xi.abs());
                    }
                }
                (s, flat)
            }
        }
    }
    /// A point of the set: the origin scaled into it by `u ∈ [0, 1]` along direction `dir`.
    pub fn point_in(&self, dir: &[f64], u: f64) -> Vec<f64> {
        match self.shape() {
            None => vec![dir[0].abs() * u],
            Some((a, is_box)) => {
                if is_box {
                    a.iter()
                        .zip(dir)
                        .map(|(h, v)| h * v.clamp(-1.0, 1.0) * u)
                        .collect()
                } else {
                    let n = dir.iter().map(|v| v * v).sum::<f64>().sqrt().max(1e-300);
                    a.iter().zip(dir).map(|(h, v)| h * v / n * u).collect()
                }
            }
        }
    }
}

/// A positive parameter over many orders of magnitude.
pub fn magnitude() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => (-3.0..3.0f64).prop_map(|e| 10f64.powf(e)),
        1 => (-100.0..100.0f64).prop_map(|e| 10f64.powf(e)),
    ]
}

/// Semi-axes of an ellipse or ellipsoid: scale times ratios down to 1e-12, sometimes a
/// zero axis.
pub fn axes(d: usize) -> impl Strategy<Value = Vec<f64>> {
    (
        magnitude(),
        prop::collection::vec(
            prop_oneof![
                6 => (-2.0..0.0f64).prop_map(|e| 10f64.powf(e)),
                2 => (-12.0..0.0f64).prop_map(|e| 10f64.powf(e)),
                1 => Just(1e-12),
                1 => Just(0.0),
            ],
            d,
        ),
        0..d,
    )
        .prop_map(|(s, mut r, k)| {
            r[k] = 1.0; // the largest axis is `s`
            r.into_iter().map(|v| v * s).collect()
        })
}

/// Any set, with its parameters.
pub fn set_case() -> impl Strategy<Value = SetCase> {
    let method = prop_oneof![
        Just(EllipsoidMethod::Bisection),
        Just(EllipsoidMethod::SafeguardedNewton)
    ];
    let mu = prop_oneof![3 => 0.0..1.5f64, 1 => Just(0.0)];
    let normal = prop_oneof![4 => magnitude(), 1 => Just(0.0), 1 => -1.0..0.0f64];
    prop_oneof![
        1 => Just(SetCase::HalfLine),
        2 => (2..4usize).prop_flat_map(|d| prop::collection::vec(
                prop_oneof![4 => magnitude(), 1 => Just(0.0)], d))
            .prop_map(|half| SetCase::Box(BoxSet { half })),
        2 => prop_oneof![4 => magnitude(), 1 => Just(0.0)].prop_map(|radius| SetCase::Disk(Disk { radius })),
        6 => ((2..4usize).prop_flat_map(axes), method)
            .prop_map(|(axes, m)| SetCase::Ellipsoid(Ellipsoid { axes }, m)),
        3 => (prop_oneof![
                (mu.clone(), mu.clone()).prop_map(|(a, b)| FrictionLaw::Box { mu: [a, b] }),
                mu.clone().prop_map(|m| FrictionLaw::Disk { mu: m }),
                (mu.clone(), mu.clone()).prop_map(|(a, b)| FrictionLaw::Ellipse { mu: [a, b] }),
                (mu.clone(), mu.clone(), prop_oneof![0.0..0.1f64, Just(0.0)])
                    .prop_map(|(a, b, c)| FrictionLaw::Ellipsoid { mu: [a, b, c] }),
            ], normal)
            .prop_map(|(l, n)| SetCase::Law(l, n)),
    ]
}

/// A point for `case`: scaled by the set's size and by `10^u`, inside or outside, on an
/// axis, at the origin, or on the surface.
pub fn point_for(case: &SetCase) -> impl Strategy<Value = Vec<f64>> + use<> {
    let d = case.dim();
    let size = case.size();
    let c = case.clone();
    prop_oneof![
        4 => (prop::collection::vec(-1.0..1.0f64, d), -2.0..3.0f64)
            .prop_map(move |(v, e)| v.into_iter().map(|x| x * size * 10f64.powf(e)).collect::<Vec<f64>>()),
        1 => (0..d, -1.0..1.0f64, -1.0..3.0f64).prop_map(move |(k, s, e)| {
            let mut v = vec![0.0; d];
            v[k] = s.signum() * size * 10f64.powf(e);
            v
        }),
        1 => Just(vec![0.0; d]),
        1 => (prop::collection::vec(-1.0..1.0f64, d), prop_oneof![Just(1.0), 0.999..1.001f64])
            .prop_map(move |(v, u)| c.point_in(&v, u)),
        1 => (prop::collection::vec(-1.0..1.0f64, d), -300.0..300.0f64)
            .prop_map(move |(v, e)| v.into_iter().map(|x| x * 10f64.powf(e)).collect::<Vec<f64>>()),
    ]
}

/// A set and a point for it.
pub fn set_and_point() -> impl Strategy<Value = (SetCase, Vec<f64>)> {
    set_case().prop_flat_map(|c| {
        let p = point_for(&c);
        (Just(c), p)
    })
}

/// A set and two points for it.
pub fn set_and_two_points() -> impl Strategy<Value = (SetCase, Vec<f64>, Vec<f64>)> {
    set_case().prop_flat_map(|c| {
        let p = point_for(&c);
        let q = point_for(&c);
        (Just(c), p, q)
    })
}

/// `‖v‖` without overflow.
pub fn norm(v: &[f64]) -> f64 {
    let m = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if m == 0.0 || !m.is_finite() {
        return m;
    }
    m * v.iter().map(|x| (x / m) * (x / m)).sum::<f64>().sqrt()
}

/// `‖a - b‖`.
pub fn dist(a: &[f64], b: &[f64]) -> f64 {
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    norm(&d)
}
