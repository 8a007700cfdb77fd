//! The implicit stepper's Newton matrix against finite differences of the residual it
//! linearises, for the rows of rigid bodies (`src/implicit/rows.rs`, `system.rs`):
//! contact normals at the positions `q(u)` with core points on turning bodies, hinge
//! rows (ball, axis, limit, drive), ball joints to the world, and friction under the
//! natural map (sticking and sliding), with the minimum map and Fischer-Burmeister.
//!
//! The r-factors are held at 1 (no complementarity preconditioner): they are computed
//! from the Delassus diagonal at each iterate, and the Newton matrix treats them as
//! constants, so with them on the matrix is not the derivative (by design).
//!
//! With `φ = h ω` of order 0.1 rad the angular entries must carry the left Jacobian of
//! SO(3) (`Dofs::angular_map`): the check also shows that the plain lever arm `r × n`
//! is measurably off there.

use nalgebra::{DMatrix, DVector, UnitQuaternion, Vector2, Vector3};
use nalgebra_sparse::CsrMatrix;

use nonsmooth::implicit::rows::{self, PointContact, RowKind};
use nonsmooth::implicit::state::{Dofs, left_jacobian};
use nonsmooth::implicit::system::{self, FrictionForm, Ncp, NewtonSystem};
use nonsmooth::implicit::{Anchor, Hinge, Joint, Model, Node};
use nonsmooth::rng::SplitMix64 as Rng;
use nonsmooth::world::{MaterialId, Shape, World};

fn dense(a: &CsrMatrix<f64>) -> DMatrix<f64> {
    let mut d = DMatrix::zeros(a.nrows(), a.ncols());
    for (r, c, v) in a.triplet_iter() {
        d[(r, c)] += *v;
    }
    d
}

fn rel(a: &DVector<f64>, b: &DVector<f64>) -> f64 {
    (a - b).norm() / b.norm().max(1e-300)
}

/// Two boxes joined by a hinge with a limit and a drive, the first hung from the world
/// by a ball joint, and a contact between a corner of the first and a sphere's core
/// point on the second, with friction.
fn rigid_scene(rng: &mut Rng) -> (World, Model, Vec<PointContact>) {
    let mut world = World::new();
    let q = |rng: &mut Rng| {
        UnitQuaternion::from_euler_angles(
            rng.uniform(-1.0, 1.0),
            rng.uniform(-1.0, 1.0),
            rng.uniform(-1.0, 1.0),
        )
    };
    let shape = Shape::cuboid(0.3, 0.2, 0.1).unwrap();
    let q0 = q(rng);
    let q1 = q(rng);
    let x0 = Vector3::new(0.0, 0.0, 1.0);
    let x1 = Vector3::new(0.5, 0.1, 1.2);
    world.add(shape, 800.0, x0, q0, MaterialId(0)).unwrap();
    world.add(shape, 500.0, x1, q1, MaterialId(0)).unwrap();
    let poses = |i: usize| {
        let b = &world.bodies()[i].body;
        (b.position, b.rotation())
    };
    let mut hinge = Hinge::at(
        Some(0),
        1,
        Vector3::new(0.25, 0.05, 1.1),
        Vector3::new(0.3, 1.0, 0.2),
        &poses,
    );
    hinge.limit = Some((-0.3, 0.4));
    hinge.drive = Some((0.2, 1e-3));
    let model = Model {
        joints: vec![
            Joint::Ball {
                a: Anchor::World(Vector3::new(-0.2, 0.0, 1.3)),
                b: Anchor::On(Node::Body(0), Vector3::new(-0.2, 0.1, 0.3)),
            },
            Joint::Hinge(hinge),
        ],
        ..Default::default()
    };
    let contacts = vec![PointContact {
        a: Anchor::On(Node::Body(0), Vector3::new(0.3, -0.2, 0.1)),
        b: Anchor::On(Node::Body(1), Vector3::new(-0.1, 0.05, -0.2)),
        normal: Vector3::new(0.2, -0.3, 1.0).normalize(),
        thickness: 0.05,
        mu: 0.4,
        radius_a: 0.0,
        radius_b: 0.05,
    }];
    (world, model, contacts)
}

/// The rows' Jacobian and the full `C` of a system, dense.
fn row_matrices(sys: &NewtonSystem) -> (DMatrix<f64>, DMatrix<f64>) {
    let j = dense(sys.j_rows.as_ref().unwrap_or(&sys.j));
    let mut c = DMatrix::from_diagonal(&sys.c);
    for &(r, k, v) in &sys.c_coupling {
        c[(r, k)] += v;
    }
    (j, c)
}

/// The friction state of the contact: sticking (`z` well inside the disk) or sliding.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Slip {
    Stick,
    Slide,
}

#[test]
fn rigid_rows_match_finite_differences() {
    let h = 0.02;
    let mut checked = 0;
    for seed in 0..6u64 {
        let mut rng = Rng::new(100 + seed);
        let (world, model, contacts) = rigid_scene(&mut rng);
        let dofs = Dofs::new(&world, &model, h);
        let n = dofs.n;
        // Turning at up to 5 rad/s: h ω up to 0.1 rad, where J_l(h ω) differs from I.
        let u = DVector::from_fn(n, |i, _| {
            if i % 6 >= 3 {
                rng.uniform(-5.0, 5.0)
            } else {
                rng.uniform(-0.5, 0.5)
            }
        });
        let rows0 = rows::evaluate(&dofs, &model, &contacts, &u);
        let normal = rows0
            .iter()
            .position(|r| matches!(r.kind, RowKind::Unilateral { contact: Some(_) }))
            .unwrap();
        let minv = dofs.inverse_blocks(&DVector::zeros(n));
        for ncp in [Ncp::Min, Ncp::Fb] {
            for slip in [Slip::Stick, Slip::Slide] {
                let mut lambda = DVector::from_fn(rows0.len(), |_, _| rng.uniform(-20.0, 20.0));
                // Clearly pressing (λ_n r far from C_n for the min map's kink).
                lambda[normal] = 500.0;
                let s = [rows0[normal + 1].value, rows0[normal + 2].value];
                let limit = 0.4 * 500.0; // μ λ_n
                lambda[normal + 1] = match slip {
                    Slip::Stick => 0.1 * limit,
                    Slip::Slide => 3.0 * limit,
                };
                lambda[normal + 2] = match slip {
                    Slip::Stick => -0.2 * limit,
                    Slip::Slide => 2.0 * limit,
                };
                let at = |u: &DVector<f64>, l: &DVector<f64>| {
                    let rows = rows::evaluate(&dofs, &model, &contacts, u);
                    system::assemble_with(
                        &dofs,
                        &rows,
                        u,
                        l,
                        &minv,
                        ncp,
                        // r = 1: the r-factors depend on the iterate through the
                        // Delassus diagonal, and the Newton matrix holds them fixed.
                        false,
                        FrictionForm::NaturalMap,
                    )
                };
                let sys = at(&u, &lambda);
                // A sliding contact couples its rows in `C` (its slip frame); sticking does not.
                let sliding = !sys.c_coupling.is_empty();
                assert_eq!(sliding, slip == Slip::Slide, "slip {s:?} for {slip:?}");
                let (j, c) = row_matrices(&sys);
                for _ in 0..3 {
                    let du = DVector::from_fn(n, |_, _| rng.uniform(-1.0, 1.0));
                    let dl = DVector::from_fn(rows0.len(), |_, _| rng.uniform(-1.0, 1.0));
                    let eps = 1e-6;
                    let plus = at(&(&u + &du * eps), &(&lambda + &dl * (eps / h)));
                    let minus = at(&(&u - &du * eps), &(&lambda - &dl * (eps / h)));
                    let mut dh = (&plus.h - &minus.h) / (2.0 * eps);
                    if sliding {
                        // The sliding rows are the natural map F = λ_f - P(λ_f - D^T u / r)
                        // in the frame (e, ẑ) of z, in m/s: r e^T F and r ẑ^T F, the frame
                        // taken at the point (a constant of the Newton step); r = 1 here.
                        let natural = |sys_rows: &[rows::Row], l: &DVector<f64>| {
                            let z = Vector2::new(
                                l[normal + 1] - sys_rows[normal + 1].value,
                                l[normal + 2] - sys_rows[normal + 2].value,
                            );
                            let limit = 0.4 * l[normal].max(0.0);
                            let p = if z.norm() > limit {
                                z * (limit / z.norm())
                            } else {
                                z
                            };
                            (Vector2::new(l[normal + 1], l[normal + 2]) - p, z, limit)
                        };
                        let u_p = &u + &du * eps;
                        let u_m = &u - &du * eps;
                        let l_p = &lambda + &dl * (eps / h);
                        let l_m = &lambda - &dl * (eps / h);
                        let (f_p, _, _) =
                            natural(&rows::evaluate(&dofs, &model, &contacts, &u_p), &l_p);
                        let (f_m, _, _) =
                            natural(&rows::evaluate(&dofs, &model, &contacts, &u_m), &l_m);
                        let (_, z, _) = natural(&rows0, &lambda);
                        let zh = z / z.norm();
                        let e = Vector2::new(-zh.y, zh.x);
                        let df = (f_p - f_m) / (2.0 * eps);
                        dh[normal + 1] = e.dot(&df);
                        dh[normal + 2] = zh.dot(&df);
                    }
                    let predicted = &j * &du + &c * &dl;
                    // Row by row, so that one small row cannot hide in the norm.
                    for i in 0..dh.len() {
                        let scale = dh.amax().max(1.0);
                        assert!(
                            (dh[i] - predicted[i]).abs() < 1e-6 * scale,
                            "{ncp:?} {slip:?} row {i} ({:?}): {} vs {}",
                            rows0[i].kind,
                            dh[i],
                            predicted[i]
                        );
                    }
                    let err = rel(&dh, &predicted);
                    assert!(
                        err < 1e-6,
                        "{ncp:?} {slip:?} seed {seed}: rows off by {err:.2e}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 6 * 2 * 2 * 3);
}

/// The angular entries of a contact row on a turning body are `J_l(h ω)^T (r × n)`: the
/// finite difference of the gap agrees with them and not with the bare `r × n`.
#[test]
fn turning_body_needs_the_left_jacobian() {
    let h = 0.05;
    let mut rng = Rng::new(7);
    let (world, _, contacts) = rigid_scene(&mut rng);
    let model = Model::default();
    let dofs = Dofs::new(&world, &model, h);
    let mut u = DVector::zeros(dofs.n);
    for k in 3..6 {
        u[k] = rng.uniform(-8.0, 8.0);
    }
    let row = rows::contact_row(&dofs, &contacts[0], &u);
    let mut fd = DVector::zeros(dofs.n);
    for k in 0..dofs.n {
        let mut e = DVector::zeros(dofs.n);
        e[k] = 1e-6;
        let p = rows::contact_row(&dofs, &contacts[0], &(&u + &e)).value;
        let m = rows::contact_row(&dofs, &contacts[0], &(&u - &e)).value;
        fd[k] = (p - m) / (2e-6 * h);
    }
    let mut jac = DVector::zeros(dofs.n);
    for &(k, v) in &row.jacobian {
        jac[k] += v;
    }
    assert!(
        rel(&jac, &fd) < 1e-8,
        "Jacobian off by {:.2e}",
        rel(&jac, &fd)
    );
    // The bare lever arm: undo J_l on body 0's angular entries.
    let jl = left_jacobian(&(u.fixed_rows::<3>(3).into_owned() * h));
    let bare = jl.transpose().try_inverse().unwrap() * jac.fixed_rows::<3>(3);
    let mut plain = jac.clone();
    plain.fixed_rows_mut::<3>(3).copy_from(&bare);
    let off = rel(&plain, &fd);
    println!("r x n without J_l: off by {off:.2e}");
    assert!(
        off > 1e-3,
        "the left Jacobian should matter at h|ω| = {}",
        h * u.rows(3, 3).norm()
    );
}
