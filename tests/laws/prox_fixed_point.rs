//! Law: a contact law is a proximal fixed point (Erleben 2017 eq. 3, 9, 20-21).
//!
//! For every law of `nonsmooth::prox` (frictionless, box, disk, ellipse, Coulomb-Contensou
//! ellipsoid, CCP cone) and a contact's reaction `λ` and velocity `v`:
//!
//! ```text
//! λ = prox_C(λ - r v) for one r > 0   ⇔   for every r > 0
//!                                     ⇔   0 <= λ_N ⊥ v_N >= 0  and  λ_F ∈ F(λ_N),
//!                                         (γ - λ_F)·v_F >= 0 for all γ ∈ F(λ_N)   (eq. 2, 8)
//! ```
//!
//! The right-hand side is checked independently of any projection: maximal dissipation
//! over the whole set is `λ_F·v_F = -h(-v_F)` with the set's support function `h` (in
//! closed form for each set), and the cone law is `λ ∈ K`, `v ∈ K*`, `λ·v = 0`. Points are
//! planted solutions (so the law holds exactly) or planted solutions perturbed (so it
//! mostly fails); a coverage test checks both sides occur for every law.
//!
//! The caveat: with a matrix `R` on a disk's friction rows (the paper's Blocked strategy,
//! eq. 40), a true solution is not a fixed point and the fixed point is not a solution.

use nonsmooth::friction::FrictionLaw;
use nonsmooth::prox::ContactLaw;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

/// A random law of each kind (index 0..6).
fn law() -> impl Strategy<Value = ContactLaw> {
    let mu = || prop_oneof![1 => Just(0.0), 6 => 0.05..1.2f64];
    let pos = || 0.05..1.2f64;
    prop_oneof![
        Just(ContactLaw::Frictionless),
        (mu(), mu()).prop_map(|(a, b)| ContactLaw::Friction(FrictionLaw::Box { mu: [a, b] })),
        mu().prop_map(|m| ContactLaw::Friction(FrictionLaw::Disk { mu: m })),
        (pos(), pos()).prop_map(|(a, b)| ContactLaw::Friction(FrictionLaw::Ellipse { mu: [a, b] })),
        (pos(), pos(), 0.005..0.1f64)
            .prop_map(|(a, b, c)| ContactLaw::Friction(FrictionLaw::Ellipsoid { mu: [a, b, c] })),
        mu().prop_map(|m| ContactLaw::Cone { mu: m }),
    ]
}

/// The random numbers a planted pair is built from.
#[derive(Debug, Clone)]
struct Seeds {
    normal_active: bool,
    boundary: bool,
    mag: [f64; 4],
    dir: [f64; 4],
    cases: [bool; 3],
    perturb: Option<(bool, [f64; 4])>,
}

fn seeds() -> impl Strategy<Value = Seeds> {
    (
        any::<bool>(),
        any::<bool>(),
        prop::array::uniform4(0.1..2.0f64),
        prop::array::uniform4(-1.0..1.0f64),
        prop::array::uniform3(any::<bool>()),
        prop::option::of((any::<bool>(), prop::array::uniform4(-1.0..1.0f64))),
    )
        .prop_map(
            |(normal_active, boundary, mag, dir, cases, perturb)| Seeds {
                normal_active,
                boundary,
                mag,
                dir,
                cases,
                perturb,
            },
        )
}

fn unit(v: &[f64]) -> Vec<f64> {
    let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    if n < 1e-3 {
        let mut e = vec![0.0; v.len()];
        e[0] = 1.0;
        e
    } else {
        v.iter().map(|x| x / n).collect()
    }
}

/// A pair `(λ, v)` that satisfies `law` exactly (before the optional perturbation).
fn planted(law: &ContactLaw, s: &Seeds) -> (Vec<f64>, Vec<f64>) {
    let d = law.dim();
    let mut lam = vec![0.0; d];
    let mut v = vec![0.0; d];
    match *law {
        ContactLaw::Cone { mu } => {
            let dir = unit(&s.dir[1..3]);
            match (s.normal_active, s.boundary) {
                (true, false) => {
                    // interior: v = 0
                    let rho = 0.9 * s.mag[1] / 2.0;
                    lam = vec![
                        s.mag[0],
                        rho * mu * s.mag[0] * dir[0],
                        rho * mu * s.mag[0] * dir[1],
                    ];
                }
                (true, true) => {
                    // boundary: λ = ρ(1, μ d), v = s(μ, -d)
                    let (r, t) = (s.mag[0], s.mag[1]);
                    lam = vec![r, r * mu * dir[0], r * mu * dir[1]];
                    v = vec![t * mu, -t * dir[0], -t * dir[1]];
                }
                (false, _) => {
                    // λ = 0, v in the dual cone: μ ‖v_t‖ <= v_n
                    let m = s.mag[0];
                    let w = if mu > 0.0 {
                        0.9 * m / mu * (s.mag[1] / 2.0)
                    } else {
                        s.mag[1]
                    };
                    v = vec![m, w * dir[0], w * dir[1]];
                }
            }
        }
        ContactLaw::Frictionless | ContactLaw::Friction(_) => {
            if s.normal_active {
                lam[0] = s.mag[0];
            } else {
                v[0] = if s.cases[0] { 0.0 } else { s.mag[0] };
            }
            let n = lam[0];
            match *law {
                ContactLaw::Friction(FrictionLaw::Box { mu }) => {
                    for i in 0..2 {
                        let h = mu[i] * n;
                        if h == 0.0 {
                            v[1 + i] = s.dir[1 + i];
                        } else if s.cases[1 + i] {
                            let sign = if s.dir[1 + i] >= 0.0 { 1.0 } else { -1.0 };
                            lam[1 + i] = sign * h;
                            v[1 + i] = -sign * s.mag[1 + i];
                        } else {
                            lam[1 + i] = 0.9 * s.dir[1 + i] * h;
                        }
                    }
                }
                ContactLaw::Friction(f) => {
                    let axes: Vec<f64> = match f {
                        FrictionLaw::Disk { mu } => vec![mu * n, mu * n],
                        FrictionLaw::Ellipse { mu } => vec![mu[0] * n, mu[1] * n],
                        FrictionLaw::Ellipsoid { mu } => mu.iter().map(|m| m * n).collect(),
                        FrictionLaw::Box { .. } => unreachable!(),
                    };
                    let k = axes.len();
                    let dir = unit(&s.dir[1..1 + k]);
                    if axes.iter().all(|a| *a == 0.0) {
                        v[1..1 + k].copy_from_slice(&s.dir[1..1 + k]);
                    } else if s.boundary {
                        // x = a ∘ d on the boundary, outward normal ∝ d / a
                        for i in 0..k {
                            lam[1 + i] = axes[i] * dir[i];
                            v[1 + i] = -s.mag[1] * dir[i] / axes[i];
                        }
                    } else {
                        for i in 0..k {
                            lam[1 + i] = 0.9 * s.mag[1] / 2.0 * axes[i] * dir[i];
                        }
                    }
                }
                ContactLaw::Frictionless => {}
                ContactLaw::Cone { .. } => unreachable!(),
            }
        }
    }
    if let Some((on_lam, delta)) = &s.perturb {
        let target = if *on_lam { &mut lam } else { &mut v };
        for (t, dl) in target.iter_mut().zip(delta) {
            *t += dl;
        }
    }
    (lam, v)
}

/// The law's violation, computed without any projection: 0 exactly when it holds.
fn violation(law: &ContactLaw, lam: &[f64], v: &[f64]) -> f64 {
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let norm = |a: &[f64]| dot(a, a).sqrt();
    if let ContactLaw::Cone { mu } = *law {
        let (lt, vt) = (norm(&lam[1..3]), norm(&v[1..3]));
        return (lt - mu * lam[0]).max(0.0)
            + (-lam[0]).max(0.0)
            + (mu * vt - v[0]).max(0.0)
            + dot(lam, v).abs();
    }
    let n = lam[0];
    let mut total = (-n).max(0.0) + (-v[0]).max(0.0) + (n * v[0]).abs();
    let np = n.max(0.0);
    let (lf, vf) = (&lam[1..], &v[1..]);
    // Feasibility of λ_F and the support function h(-v_F) of F(λ_N).
    let (outside, support) = match *law {
        ContactLaw::Frictionless => (0.0, 0.0),
        ContactLaw::Friction(FrictionLaw::Box { mu }) => (
            (0..2).map(|i| (lf[i].abs() - mu[i] * np).max(0.0)).sum(),
            (0..2).map(|i| mu[i] * np * vf[i].abs()).sum(),
        ),
        ContactLaw::Friction(FrictionLaw::Disk { mu }) => {
            ((norm(lf) - mu * np).max(0.0), mu * np * norm(vf))
        }
        ContactLaw::Friction(f) => {
            let axes: Vec<f64> = match f {
                FrictionLaw::Ellipse { mu } => mu.iter().map(|m| m * np).collect(),
                FrictionLaw::Ellipsoid { mu } => mu.iter().map(|m| m * np).collect(),
                _ => unreachable!(),
            };
            let outside = if axes.iter().all(|a| *a > 0.0) {
                let q: f64 = axes.iter().zip(lf).map(|(a, x)| (x / a) * (x / a)).sum();
                (q.sqrt() - 1.0).max(0.0)
            } else {
                norm(lf)
            };
            let h = axes
                .iter()
                .zip(vf)
                .map(|(a, w)| (a * w) * (a * w))
                .sum::<f64>()
                .sqrt();
            (outside, h)
        }
        ContactLaw::Cone { .. } => unreachable!(),
    };
    total += outside + (dot(lf, vf) + support).abs();
    total
}

/// `‖λ - prox_C(λ - r v)‖`.
fn fixed_point_residual(law: &ContactLaw, lam: &[f64], v: &[f64], r: f64) -> f64 {
    let rv: Vec<f64> = v.iter().map(|x| r * x).collect();
    let mut e = vec![0.0; law.dim()];
    law.natural_map(lam, &rv, &mut e);
    e.iter().map(|x| x * x).sum::<f64>().sqrt()
}

const HOLDS: f64 = 1e-12;
const FAILS: f64 = 1e-6;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    // ANCHOR: one_r_every_r
    #[test]
    fn fixed_point_for_one_r_iff_every_r_iff_the_law(
        law in law(),
        s in seeds(),
        r1 in -3.0..3.0f64,
        r2 in -3.0..3.0f64,
    ) {
        let (lam, v) = planted(&law, &s);
        let (r1, r2) = (10f64.powf(r1), 10f64.powf(r2));
        let viol = violation(&law, &lam, &v);
        prop_assume!(viol <= HOLDS || viol >= FAILS);
        let scale = 1.0 + lam.iter().chain(&v).fold(0.0f64, |m, x| m.max(x.abs()));
        for r in [r1, r2] {
            let e = fixed_point_residual(&law, &lam, &v, r);
            if viol <= HOLDS {
                prop_assert!(e <= 1e-10 * scale * (1.0 + r), "{law:?} λ={lam:?} v={v:?} r={r}: e={e}");
            } else {
                prop_assert!(e > 0.0, "{law:?} λ={lam:?} v={v:?} r={r}: violation {viol} but fixed");
            }
        }
    }

    // ANCHOR_END: one_r_every_r

    /// A scalar r on a factor may differ from the others' (the Local and Blocked
    /// strategies): the fixed point is still the law.
    #[test]
    fn each_factor_may_have_its_own_scalar(
        law in law(),
        s in seeds(),
        rs in prop::array::uniform3(-3.0..3.0f64),
    ) {
        let (lam, v) = planted(&law, &s);
        let viol = violation(&law, &lam, &v);
        prop_assume!(viol <= HOLDS || viol >= FAILS);
        let mut z = lam.clone();
        for (f, &(start, len)) in law.factors().iter().enumerate() {
            let r = 10f64.powf(rs[f.min(2)]);
            for k in start..start + len {
                z[k] = lam[k] - r * v[k];
            }
        }
        let mut p = vec![0.0; law.dim()];
        law.project(&z, Some(lam[0]), &mut p);
        let e = lam.iter().zip(&p).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        let scale = 1.0 + lam.iter().chain(&v).fold(0.0f64, |m, x| m.max(x.abs()));
        if viol <= HOLDS {
            prop_assert!(e <= 1e-10 * scale * 1e3, "{law:?}: {e}");
        } else {
            prop_assert!(e > 0.0, "{law:?}: violation {viol} but fixed");
        }
    }

    /// Erleben 2017 eq. 40 on a disk: with the matrix R_F = A_FF^-1 (SPD, not a multiple of
    /// I) a sliding solution of Coulomb's law is not a fixed point, and the matrix
    /// version's fixed point (friction opposing R v_F) violates maximal dissipation.
    #[test]
    fn a_matrix_r_on_the_disk_is_not_the_law(
        theta in 0.0..std::f64::consts::TAU,
        mu in 0.1..1.0f64,
        n in 0.1..2.0f64,
        slip in 0.1..2.0f64,
        (a, b, c) in (0.2..2.0f64, 0.2..2.0f64, -0.15..0.15f64),
    ) {
        let law = ContactLaw::Friction(FrictionLaw::Disk { mu });
        let (co, si) = (theta.cos(), theta.sin());
        // A solution: on the boundary, slip opposite to the force.
        let lam = [n, mu * n * co, mu * n * si];
        let v = [0.0, -slip * co, -slip * si];
        prop_assert!(violation(&law, &lam, &v) <= 1e-12);
        let r = [[a, c], [c, b]]; // SPD: |c| < 0.15 < min(a, b)
        let rv = [r[0][0] * v[1] + r[0][1] * v[2], r[1][0] * v[1] + r[1][1] * v[2]];
        let parallel = (rv[0] * v[2] - rv[1] * v[1]).abs() / (rv[0].hypot(rv[1]) * slip);
        prop_assume!(parallel > 1e-3); // R v_F is not along v_F
        // Not a fixed point of the matrix map:
        let z = [lam[0] - v[0], lam[1] - rv[0], lam[2] - rv[1]];
        let mut p = [0.0; 3];
        law.project(&z, Some(lam[0]), &mut p);
        prop_assert!((p[1] - lam[1]).hypot(p[2] - lam[2]) > 1e-9 * n);
        // The matrix map's fixed point with this slip: the force on the boundary opposite
        // R v_F. It is not a solution: friction does not oppose the slip.
        let m = rv[0].hypot(rv[1]);
        let fixed = [n, -mu * n * rv[0] / m, -mu * n * rv[1] / m];
        let z = [fixed[0] - v[0], fixed[1] - rv[0], fixed[2] - rv[1]];
        law.project(&z, Some(fixed[0]), &mut p);
        prop_assert!((p[1] - fixed[1]).hypot(p[2] - fixed[2]) <= 1e-12 * (1.0 + n + m));
        prop_assert!(violation(&law, &fixed, &v) > 1e-12);
    }
}

/// Both sides of the equivalence occur for every kind of law (the property above is not
/// vacuous).
#[test]
fn both_sides_occur_for_every_law() {
    let mut runner = TestRunner::deterministic();
    let strategy = (law(), seeds());
    let mut counts = std::collections::HashMap::<String, (usize, usize)>::new();
    for _ in 0..6000 {
        let (law, s) = strategy.new_tree(&mut runner).unwrap().current();
        let (lam, v) = planted(&law, &s);
        let viol = violation(&law, &lam, &v);
        let name = format!("{law:?}")
            .split(['(', ' ', '{'])
            .take(3)
            .collect::<String>();
        let entry = counts.entry(name).or_default();
        if viol <= HOLDS {
            entry.0 += 1;
        } else if viol >= FAILS {
            entry.1 += 1;
        }
    }
    assert_eq!(counts.len(), 6, "{counts:?}");
    for (name, (holds, fails)) in &counts {
        eprintln!("{name:24} law holds {holds:5}, fails {fails:5}");
        assert!(*holds >= 50 && *fails >= 50, "{name}: {holds} {fails}");
    }
}
