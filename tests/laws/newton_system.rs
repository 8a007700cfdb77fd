//! The Newton system of the implicit stepper (Macklin et al. 2019 §6, eq. 56-62;
//! `src/implicit/system.rs`):
//!
//! 1. the Schur complement ("compliance form"), the full saddle-point system and, where
//!    every row is compliant, the "stiffness form" give the same step;
//! 2. the sparse path the stepper uses (`assemble`, `schur`, the direct inner solve,
//!    `velocity_step`) gives the dense saddle-point step of the same `M~`, `J`, `C`, `g`, `h`
//!    on a real scene (boxes with contacts plus a particle on a distance constraint);
//! 3. the Newton matrix is the derivative of the residual `(g, h)` it is built from,
//!    checked by central finite differences on a particle scene.

use nalgebra::{DMatrix, DVector, Matrix3, Vector3};
use nalgebra_sparse::CsrMatrix;
use proptest::prelude::*;

use nonsmooth::implicit::linear::{self, InnerOptions, InnerSolver};
use nonsmooth::implicit::rows::{self, PointContact, RowKind};
use nonsmooth::implicit::state::Dofs;
use nonsmooth::implicit::step::point_contacts;
use nonsmooth::implicit::system::{self, Ncp};
use nonsmooth::implicit::{Anchor, Joint, Model, Node, Particle};
use nonsmooth::world::World;
use nonsmooth::world::scenes::box_stack::{self, BoxStackParams};

/// The crate's SplitMix64: a small deterministic generator for the random matrices.
use nonsmooth::rng::SplitMix64 as Rng;

fn rel(a: &DVector<f64>, b: &DVector<f64>) -> f64 {
    (a - b).norm() / b.norm().max(1e-300)
}

/// A random SPD block-diagonal `M~` (3x3 blocks `A A^T + s I`).
/// The Newton step's multipliers by the sparse direct inner solve (the stepper's own).
fn direct_solve(a: &CsrMatrix<f64>, rhs: &DVector<f64>) -> DVector<f64> {
    let mut dl = DVector::zeros(rhs.len());
    linear::solve(
        a,
        rhs,
        &mut dl,
        &InnerOptions {
            solver: InnerSolver::Direct,
            ..Default::default()
        },
    )
    .unwrap();
    dl
}

fn random_mass(rng: &mut Rng, blocks: usize) -> DMatrix<f64> {
    let n = 3 * blocks;
    let mut m = DMatrix::zeros(n, n);
    for b in 0..blocks {
        let a = Matrix3::from_fn(|_, _| rng.uniform(-1.0, 1.0));
        let s = rng.uniform(0.5, 5.0);
        let blk = a * a.transpose() + Matrix3::identity() * s;
        m.view_mut((3 * b, 3 * b), (3, 3)).copy_from(&blk);
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Schur complement = saddle point (with zeros on the diagonal of `C`), and the
    /// stiffness form = both when every `C_ii > 0`.
    #[test]
    fn schur_saddle_point_and_stiffness_forms_agree(seed in any::<u64>(), blocks in 1usize..5, extra in 0usize..3) {
        let mut rng = Rng::new(seed);
        let n = 3 * blocks;
        let k = (n - extra.min(n - 1)).max(1); // k <= n: J has full row rank almost surely
        let m = random_mass(&mut rng, blocks);
        let j = DMatrix::from_fn(k, n, |_, _| rng.uniform(-1.0, 1.0));
        let g = DVector::from_fn(n, |_, _| rng.uniform(-1.0, 1.0));
        let h = DVector::from_fn(k, |_, _| rng.uniform(-1.0, 1.0));
        // Non-negative C with some zeros (hard rows).
        let c = DVector::from_fn(k, |_, _| if rng.next_f64() < 0.4 { 0.0 } else { rng.uniform(0.0, 2.0) });
        let (du_s, dl_s) = system::compliance_form_step(&m, &j, &c, &g, &h).expect("Schur solve");
        let (du_p, dl_p) = system::saddle_point_step(&m, &j, &c, &g, &h).expect("saddle solve");
        prop_assert!(rel(&du_s, &du_p) < 1e-9, "du: {}", rel(&du_s, &du_p));
        prop_assert!(rel(&dl_s, &dl_p) < 1e-9, "dl: {}", rel(&dl_s, &dl_p));
        // The step solves the saddle-point system itself.
        let r1 = &m * &du_p - j.transpose() * &dl_p + &g;
        let r2 = &j * &du_p + DMatrix::from_diagonal(&c) * &dl_p + &h;
        prop_assert!(r1.norm() < 1e-9 * (g.norm() + 1.0) && r2.norm() < 1e-9 * (h.norm() + 1.0));
        // A zero on C's diagonal: the stiffness form refuses.
        if c.iter().any(|&x| x == 0.0) {
            prop_assert!(system::stiffness_form_step(&m, &j, &c, &g, &h).is_none());
        }
        // All rows compliant: the three agree.
        let c_pos = DVector::from_fn(k, |_, _| rng.uniform(0.1, 2.0));
        let (du_k, dl_k) = system::stiffness_form_step(&m, &j, &c_pos, &g, &h).expect("stiffness solve");
        let (du_s, dl_s) = system::compliance_form_step(&m, &j, &c_pos, &g, &h).unwrap();
        let (du_p, dl_p) = system::saddle_point_step(&m, &j, &c_pos, &g, &h).unwrap();
        prop_assert!(rel(&du_k, &du_p) < 1e-9 && rel(&dl_k, &dl_p) < 1e-9,
            "stiffness vs saddle: {} {}", rel(&du_k, &du_p), rel(&dl_k, &dl_p));
        prop_assert!(rel(&du_k, &du_s) < 1e-9 && rel(&dl_k, &dl_s) < 1e-9);
    }
}

fn dense(a: &CsrMatrix<f64>) -> DMatrix<f64> {
    let mut d = DMatrix::zeros(a.nrows(), a.ncols());
    for (r, c, v) in a.triplet_iter() {
        d[(r, c)] += *v;
    }
    d
}

/// Two boxes stacked on the ground (contacts with friction) and a particle hanging from a
/// world point on a compliant distance constraint, at `u = 0` and a given `λ`: the sparse
/// Schur path equals the dense saddle-point step.
#[test]
fn sparse_schur_path_equals_dense_saddle_point() {
    let world = box_stack::build(&BoxStackParams {
        count: 2,
        ..Default::default()
    })
    .unwrap();
    let model = Model {
        particles: vec![Particle {
            position: Vector3::new(3.0, 0.0, 2.0),
            velocity: Vector3::new(0.3, -0.1, 0.2),
            mass: 2.0,
            radius: 0.0,
            mu: 0.0,
        }],
        joints: vec![Joint::Distance {
            a: Anchor::World(Vector3::new(3.0, 0.5, 3.0)),
            b: Anchor::On(Node::Particle(0), Vector3::zeros()),
            rest: 1.0,
            compliance: 1e-3,
        }],
        ..Default::default()
    };
    let contacts = world.contacts().unwrap();
    let points = point_contacts(&world, &model, &contacts);
    assert!(
        points.len() >= 4,
        "expected box contacts, got {}",
        points.len()
    );
    let h = 0.01;
    let dofs = Dofs::new(&world, &model, h);
    let u = DVector::zeros(dofs.n);
    let rows = rows::evaluate(&dofs, &model, &points, &u);
    // λ: positive normals (so friction is enabled), some friction, a distance force.
    let mut rng = Rng::new(7);
    let lambda = DVector::from_fn(rows.len(), |i, _| match rows[i].kind {
        // Every other normal negative: inactive for the minimum map, both FB partials
        // nonzero, and its friction rows disabled.
        RowKind::Unilateral { .. } if i % 2 == 0 => rng.uniform(1000.0, 5000.0),
        RowKind::Unilateral { .. } => rng.uniform(-100.0, -10.0),
        RowKind::Friction { .. } => rng.uniform(-500.0, 500.0),
        RowKind::Bilateral { .. } => rng.uniform(-10.0, 10.0),
    });
    let zero = DVector::zeros(dofs.n);
    let minv = dofs.inverse_blocks(&zero);
    // Dense M~ from M applied to the unit vectors.
    let m_dense = DMatrix::from_fn(dofs.n, dofs.n, |r, c| {
        let mut e = DVector::zeros(dofs.n);
        e[c] = 1.0;
        dofs.mass_times(&e)[r]
    });
    let eps = 1e-4; // 1/kg: the size of J M^-1 J^T for 1000 kg boxes
    for ncp in [Ncp::Fb, Ncp::Min] {
        for precondition in [true, false] {
            let sys = system::assemble(&dofs, &rows, &u, &lambda, &minv, ncp, precondition);
            let (a, rhs) = system::schur(&sys, &minv, eps);
            let dl = direct_solve(&a, &rhs);
            let du = system::velocity_step(&sys, &minv, &dl);
            let c_eps = sys.c.map(|x| x + eps);
            let jd = dense(&sys.j);
            let (du_p, dl_p) =
                system::saddle_point_step(&m_dense, &jd, &c_eps, &sys.g, &sys.h).unwrap();
            println!(
                "{ncp:?} precondition {precondition}: rows {} |du| {:.3e} rel du {:.2e} rel dl {:.2e}",
                rows.len(),
                du_p.norm(),
                rel(&du, &du_p),
                rel(&dl, &dl_p)
            );
            assert!(du_p.norm() > 0.0 && dl_p.norm() > 0.0);
            assert!(
                rel(&du, &du_p) < 1e-8,
                "{ncp:?} {precondition}: du {}",
                rel(&du, &du_p)
            );
            assert!(
                rel(&dl, &dl_p) < 1e-8,
                "{ncp:?} {precondition}: dl {}",
                rel(&dl, &dl_p)
            );
            // And the dense Schur form of the same system.
            let (du_s, dl_s) =
                system::compliance_form_step(&m_dense, &jd, &c_eps, &sys.g, &sys.h).unwrap();
            assert!(rel(&du_s, &du_p) < 1e-8 && rel(&dl_s, &dl_p) < 1e-8);
        }
    }
}

/// A particle scene: a chain of three particles hanging from a world point by distance
/// rows (one rigid, two compliant), plus a fourth particle on the ground with a contact
/// row that is either clearly active or clearly inactive.
///
/// Particles only: for a rigid body `q(u)` uses the exponential map, so `J = ∂C/∂q G` is
/// the exact derivative of `C(q(u))` only at `ω = 0`, and finite differences of `g` would
/// also see the rotational geometric stiffness. For particles `q(u) = q⁻ + h u` exactly.
///
/// Distance rows are curved, so `∂g/∂u` contains `-h² K`, `K = ∂(J^T λ)/∂q`, which the
/// Newton matrix leaves out (it uses `M~ = M`, geometric stiffness off). We add the exact
/// `K` of a distance row to the prediction, `K = λ/ℓ [[P, -P], [-P, P]]` with
/// `P = I - n n^T` (`ℓ` the length, `n` the unit direction), so the check is exact with
/// any `λ`; a second check with `λ = 0` on the distance rows needs no `K` at all.
fn particle_scene(active: bool) -> (World, Model, Vec<PointContact>) {
    let world = World::new();
    let p = |x: f64, y: f64, z: f64, m: f64| Particle {
        position: Vector3::new(x, y, z),
        velocity: Vector3::new(0.1 * x, -0.2, 0.05 * z),
        mass: m,
        radius: 0.1,
        mu: 0.0,
    };
    let ground_z = if active { 0.05 } else { 0.2 };
    let model = Model {
        particles: vec![
            p(0.3, 0.1, 2.1, 1.0),
            p(0.7, -0.2, 1.4, 2.0),
            p(1.2, 0.1, 0.9, 0.5),
            p(2.0, 0.0, ground_z, 1.5),
        ],
        joints: vec![
            Joint::Distance {
                a: Anchor::World(Vector3::new(0.0, 0.0, 3.0)),
                b: Anchor::On(Node::Particle(0), Vector3::zeros()),
                rest: 0.9,
                compliance: 0.0,
            },
            Joint::Distance {
                a: Anchor::On(Node::Particle(0), Vector3::zeros()),
                b: Anchor::On(Node::Particle(1), Vector3::zeros()),
                rest: 0.7,
                compliance: 1e-2,
            },
            Joint::Distance {
                a: Anchor::On(Node::Particle(1), Vector3::zeros()),
                b: Anchor::On(Node::Particle(2), Vector3::zeros()),
                rest: 0.8,
                compliance: 3e-3,
            },
        ],
        ..Default::default()
    };
    let contacts = vec![PointContact {
        a: Anchor::World(Vector3::new(2.0, 0.0, 0.0)),
        b: Anchor::On(Node::Particle(3), Vector3::zeros()),
        normal: Vector3::z(),
        thickness: 0.1,
        mu: 0.0,
        radius_a: 0.0,
        radius_b: 0.1,
    }];
    (world, model, contacts)
}

/// The exact `K = ∂(J^T λ)/∂x` of the distance rows.
fn distance_stiffness(
    dofs: &Dofs,
    model: &Model,
    u: &DVector<f64>,
    lambda: &DVector<f64>,
) -> DMatrix<f64> {
    let mut k = DMatrix::zeros(dofs.n, dofs.n);
    let end = |a: &Anchor| match a {
        Anchor::World(p) => (*p, None),
        Anchor::On(Node::Particle(j), _) => (
            dofs.pose(Node::Particle(*j), u).0,
            Some(dofs.particle_offset[*j]),
        ),
        _ => unreachable!("particles only"),
    };
    for (r, joint) in model.joints.iter().enumerate() {
        let Joint::Distance { a, b, .. } = joint else {
            unreachable!()
        };
        let ((pa, oa), (pb, ob)) = (end(a), end(b));
        let d = pb - pa;
        let len = d.norm();
        let n = d / len;
        let p = (Matrix3::identity() - n * n.transpose()) * (lambda[r] / len);
        for (o1, s1) in [(oa, -1.0), (ob, 1.0)] {
            for (o2, s2) in [(oa, -1.0), (ob, 1.0)] {
                if let (Some(o1), Some(o2)) = (o1, o2) {
                    let mut v = k.view_mut((o1, o2), (3, 3));
                    v += p * (s1 * s2);
                }
            }
        }
    }
    k
}

#[test]
fn newton_matrix_is_the_derivative_of_the_residual() {
    let h = 0.02;
    for active in [true, false] {
        let (world, model, contacts) = particle_scene(active);
        let dofs = Dofs::new(&world, &model, h);
        let n = dofs.n;
        let mut rng = Rng::new(if active { 11 } else { 12 });
        let u = DVector::from_fn(n, |_, _| rng.uniform(-0.5, 0.5));
        let rows0 = rows::evaluate(&dofs, &model, &contacts, &u);
        let contact_row = rows0
            .iter()
            .position(|r| matches!(r.kind, RowKind::Unilateral { .. }))
            .unwrap();
        for zero_distance_lambda in [false, true] {
            let mut lambda = DVector::from_fn(rows0.len(), |_, _| rng.uniform(-20.0, 20.0));
            if zero_distance_lambda {
                for (i, r) in rows0.iter().enumerate() {
                    if matches!(r.kind, RowKind::Bilateral { .. }) {
                        lambda[i] = 0.0;
                    }
                }
            }
            // Clearly on one side of the kink of min(r λ, C_n), r = 1 (no preconditioner):
            // active means r λ > C_n (the row follows C_n), inactive r λ < C_n.
            let c_n = rows0[contact_row].value;
            lambda[contact_row] = if active { 30.0 } else { 0.01 };
            if active {
                assert!(c_n < -0.01 && lambda[contact_row] > c_n + 1.0, "C_n {c_n}");
            } else {
                assert!(c_n > 0.05 && lambda[contact_row] < c_n - 0.03, "C_n {c_n}");
            }
            let zero = DVector::zeros(n);
            let minv = dofs.inverse_blocks(&zero);
            let at = |u: &DVector<f64>, l: &DVector<f64>| {
                let rows = rows::evaluate(&dofs, &model, &contacts, u);
                system::assemble(&dofs, &rows, u, l, &minv, Ncp::Min, false)
            };
            let sys = at(&u, &lambda);
            assert!(sys.r.iter().all(|&r| r == 1.0));
            let jd = dense(&sys.j);
            let cd = DMatrix::from_diagonal(&sys.c);
            let m_dense = DMatrix::from_fn(n, n, |r, c| {
                let mut e = DVector::zeros(n);
                e[c] = 1.0;
                dofs.mass_times(&e)[r]
            });
            let k = distance_stiffness(&dofs, &model, &u, &lambda);
            if zero_distance_lambda {
                assert!(k.norm() == 0.0);
            }
            for trial in 0..4 {
                let du = DVector::from_fn(n, |_, _| rng.uniform(-1.0, 1.0));
                let dl = DVector::from_fn(rows0.len(), |_, _| rng.uniform(-1.0, 1.0));
                let eps = 1e-6;
                let plus = at(&(&u + &du * eps), &(&lambda + &dl * (eps / h)));
                let minus = at(&(&u - &du * eps), &(&lambda - &dl * (eps / h)));
                let dg = (&plus.g - &minus.g) / (2.0 * eps);
                let dh = (&plus.h - &minus.h) / (2.0 * eps);
                let pred_g = &m_dense * &du - jd.transpose() * &dl - &k * &du * (h * h);
                let pred_h = &jd * &du + &cd * &dl;
                let (eg, eh) = (rel(&dg, &pred_g), rel(&dh, &pred_h));
                if trial == 0 {
                    println!(
                        "active {active} λ_dist=0 {zero_distance_lambda}: rel err g {eg:.2e} h {eh:.2e}, |h²K du| {:.2e}",
                        (&k * &du * (h * h)).norm()
                    );
                }
                assert!(eg < 1e-5, "active {active}: g derivative off by {eg}");
                assert!(eh < 1e-5, "active {active}: h derivative off by {eh}");
                // Without the K term the prediction is measurably off when λ_dist ≠ 0:
                // the check can see the geometric stiffness.
                if !zero_distance_lambda {
                    let without = &m_dense * &du - jd.transpose() * &dl;
                    assert!(
                        rel(&dg, &without) > 1e-5,
                        "K invisible: {}",
                        rel(&dg, &without)
                    );
                }
            }
        }
    }
}

/// The damping (`ImplicitOptions::damping`) shifts the Schur complement's contact rows by
/// `damping · (J M~⁻¹ J^T)_ii` and nothing else: joint rows, entries off the diagonal
/// and the right-hand side are those of the undamped system.
#[test]
fn damping_shifts_the_contact_rows_only() {
    let (world, model, contacts) = particle_scene(true);
    let h = 0.01;
    let dofs = Dofs::new(&world, &model, h);
    let u = DVector::zeros(dofs.n);
    let rows = rows::evaluate(&dofs, &model, &contacts, &u);
    let lambda = DVector::from_fn(rows.len(), |i, _| 1.0 + i as f64);
    let minv = dofs.inverse_blocks(&DVector::zeros(dofs.n));
    let sys = system::assemble(&dofs, &rows, &u, &lambda, &minv, Ncp::Min, true);
    let (a0, b0) = system::schur(&sys, &minv, 1e-9);
    let damping = 0.25;
    let (a1, b1) = system::schur_damped(&sys, &minv, 1e-9, damping);
    assert_eq!(b0, b1);
    let (d0, d1) = (dense(&a0), dense(&a1));
    let mut contact_rows = 0;
    for i in 0..rows.len() {
        for j in 0..rows.len() {
            let expected = if i == j && !matches!(rows[i].kind, RowKind::Bilateral { .. }) {
                damping * sys.delassus_diagonal[i]
            } else {
                0.0
            };
            let shift = d1[(i, j)] - d0[(i, j)];
            assert!(
                (shift - expected).abs() <= 1e-12 * d0[(i, j)].abs().max(1.0),
                "({i}, {j}) {:?}: shifted by {shift}, expected {expected}",
                rows[i].kind
            );
        }
        if !matches!(rows[i].kind, RowKind::Bilateral { .. }) {
            contact_rows += 1;
            assert!(sys.delassus_diagonal[i] > 0.0);
        }
    }
    assert!(
        contact_rows >= 1 && contact_rows < rows.len(),
        "{contact_rows}"
    );
}

/// Under the natural-map friction the Newton step is the exact Newton step of the
/// discrete equations themselves: along the step `(Δu, Δλ̂ / h)` the directional
/// derivative of the momentum residual `M~⁻¹ (M (u - ũ) - h J^T λ)` (unscaled `J`) and
/// of the normal rows `φ / h` is minus their value, so the step is a descent direction
/// of the merit the line search lowers. Under the paper's form (the compliance friction,
/// normal rows of `J` scaled by `∂φ/∂C` in both blocks for a symmetric Schur complement)
/// the momentum block differs wherever `∂φ/∂C != 1`, and the check sees it.
///
/// The particle scene with Fischer-Burmeister on an active contact (`∂φ/∂C != 1`) and
/// `λ = 0` on the distance rows, so that the curvature of the distance rows (geometric
/// stiffness, not in the Newton matrix) does not enter to first order.
#[test]
fn the_natural_map_step_is_the_exact_newton_step_of_the_equations() {
    use nonsmooth::implicit::FrictionForm;
    let h = 0.02;
    let (world, model, contacts) = particle_scene(true);
    let dofs = Dofs::new(&world, &model, h);
    let mut rng = Rng::new(21);
    let u = DVector::from_fn(dofs.n, |_, _| rng.uniform(-0.5, 0.5));
    let rows0 = rows::evaluate(&dofs, &model, &contacts, &u);
    let lambda = DVector::from_fn(rows0.len(), |i, _| match rows0[i].kind {
        RowKind::Unilateral { .. } => 30.0,
        _ => 0.0,
    });
    let minv = dofs.inverse_blocks(&DVector::zeros(dofs.n));
    let mut errors = Vec::new();
    for form in [FrictionForm::NaturalMap, FrictionForm::Compliance] {
        let at = |u: &DVector<f64>, l: &DVector<f64>| {
            let rows = rows::evaluate(&dofs, &model, &contacts, u);
            system::assemble_with(&dofs, &rows, u, l, &minv, Ncp::Fb, true, form)
        };
        let sys = at(&u, &lambda);
        let unilateral: Vec<usize> = rows0
            .iter()
            .enumerate()
            .filter(|(_, r)| matches!(r.kind, RowKind::Unilateral { .. }))
            .map(|(i, _)| i)
            .collect();
        // The momentum block's J against the unscaled one on the contact row: 1 under the
        // natural map; under the paper's form the FB partial in C, which is not 1 here, so
        // the two forms differ.
        let slope = (&sys.j * DVector::from_element(dofs.n, 1.0))[unilateral[0]]
            / (system::csr(&rows0, dofs.n, |_, v| v) * DVector::from_element(dofs.n, 1.0))
                [unilateral[0]];
        if form == FrictionForm::NaturalMap {
            assert!((slope - 1.0).abs() < 1e-12, "{slope}");
        } else {
            assert!((slope - 1.0).abs() > 0.05, "{slope}");
        }
        let (a, rhs) = system::schur(&sys, &minv, 0.0);
        let dl = direct_solve(&a, &rhs);
        let du = system::velocity_step(&sys, &minv, &dl);
        let eps = 1e-7;
        let plus = at(&(&u + &du * eps), &(&lambda + &dl * (eps / h)));
        let minus = at(&(&u - &du * eps), &(&lambda - &dl * (eps / h)));
        let dg = (&plus.true_momentum_residual - &minus.true_momentum_residual) / (2.0 * eps);
        let eg = rel(&dg, &(-&sys.true_momentum_residual));
        let mut eh = 0.0f64;
        for &i in &unilateral {
            let d = (plus.h[i] - minus.h[i]) / (2.0 * eps);
            eh = eh.max((d + sys.h[i]).abs() / sys.h[i].abs().max(1e-12));
        }
        println!("{form:?}: FB slope {slope:.3}, rel err momentum {eg:.2e}, normal rows {eh:.2e}");
        errors.push((eg, eh));
    }
    let (exact, paper) = (errors[0], errors[1]);
    assert!(exact.0 < 1e-6 && exact.1 < 1e-6, "natural map: {exact:?}");
    assert!(
        paper.0 > 1e-3,
        "the paper's scaled form should differ: {paper:?}"
    );
}
