//! Law (Saad 2003, §10.2-10.3): the block preconditioners of the cone Newton method's GMRES
//! inner solve (`precondition=jacobi|sgs|ilu0`) are exact where their construction drops
//! nothing — every one of them when `H = I - D + D ρ W` is block diagonal, block ILU(0) also
//! when `H` is block tridiagonal (elimination creates no fill outside the pattern) — so
//! `M⁻¹ H v = v`; GMRES preconditioned by block Jacobi or block SSOR returns a direction
//! with `‖H Δ + Φ‖ <= tol ‖Φ‖` for the dense `H` of the direct solve on a generated wall
//! (block ILU(0) is not stable there: `W` is rank deficient); and
//! the method with `linear=gmres` and each preconditioner reaches `1e-8` on a generated
//! wall of a few hundred contacts.

use nalgebra::{DMatrix, DVector};
use nonsmooth::matrix::Matrix;
use nonsmooth::merit::friction_error;
use nonsmooth::multibody::{SceneKind, scenes};
use nonsmooth::newton::{
    ConeNewtonOptions, ConeReformulation, NewtonLinear, NewtonPreconditioner, cone_newton,
};
use nonsmooth::problem::{FrictionContact, FrictionKind};
use nonsmooth::solver::{Params, no_observer};
use proptest::prelude::*;

const KINDS: [NewtonPreconditioner; 3] = [
    NewtonPreconditioner::Jacobi,
    NewtonPreconditioner::Sgs,
    NewtonPreconditioner::Ilu0,
];

/// A problem of `nc` contacts whose `W = B Bᵀ + I/10` has the block pattern of `B`:
/// `B` block diagonal (`tridiagonal = false`) or block lower bidiagonal (then `W` is block
/// tridiagonal), entries of `B` from `entries` (`9 (2 nc - 1)` of them in `[-1, 1]`).
fn structured(
    nc: usize,
    tridiagonal: bool,
    entries: &[f64],
    q: Vec<f64>,
    mu: Vec<f64>,
    kind: FrictionKind,
) -> FrictionContact {
    let n = 3 * nc;
    let mut b = DMatrix::zeros(n, n);
    let mut it = entries.iter().copied();
    for c in 0..nc {
        for i in 0..3 {
            for j in 0..3 {
                b[(3 * c + i, 3 * c + j)] = it.next().unwrap();
                if tridiagonal && c > 0 {
                    b[(3 * c + i, 3 * (c - 1) + j)] = it.next().unwrap();
                }
            }
        }
    }
    let w = &b * b.transpose() + DMatrix::identity(n, n) * 0.1;
    FrictionContact::new(
        Matrix::Dense(w),
        DVector::from_vec(q),
        DVector::from_vec(mu),
        kind,
    )
    .unwrap()
}

/// `max_v ‖M⁻¹ H v - v‖ / ‖v‖` over the unit vectors `v`, for the preconditioner `kind` at `r`,
/// and the condition number of `H`.
fn exactness(fc: &FrictionContact, r: &DVector<f64>, kind: NewtonPreconditioner) -> (f64, f64) {
    let reform = ConeReformulation::new(fc, 1.0).unwrap();
    let h = reform.jacobian(r);
    let svd = h.clone().svd(false, false);
    let cond = svd.singular_values.max() / svd.singular_values.min();
    let m = reform.preconditioner(r, kind);
    let n = h.nrows();
    let worst = (0..n)
        .map(|k| {
            let v = DVector::from_fn(n, |i, _| if i == k { 1.0 } else { 0.0 });
            (m.apply(&(&h * &v)) - &v).norm()
        })
        .fold(0.0, f64::max);
    (worst, cond)
}

fn problem_parts(nc: usize) -> impl Strategy<Value = (Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>)> {
    (
        prop::collection::vec(-1.0..1.0f64, 9 * (2 * nc - 1)),
        prop::collection::vec(-1.0..1.0f64, 3 * nc),
        prop::collection::vec(0.0..1.2f64, nc),
        prop::collection::vec(-1.0..1.0f64, 3 * nc),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_block_preconditioner_is_exact_on_a_block_diagonal_h(
        parts in (1usize..10).prop_flat_map(problem_parts),
        ccp in any::<bool>(),
    ) {
        let (entries, q, mu, r) = parts;
        let nc = mu.len();
        let kind = if ccp { FrictionKind::Ccp } else { FrictionKind::Coulomb };
        let fc = structured(nc, false, &entries, q, mu, kind);
        let r = DVector::from_vec(r);
        for p in KINDS {
            let (worst, cond) = exactness(&fc, &r, p);
            prop_assume!(cond < 1e8);
            prop_assert!(worst <= 1e-12 * cond.max(1.0) + 1e-12, "{p:?}: ‖M⁻¹ H v - v‖ = {worst:e}, cond {cond:e}");
        }
    }

    #[test]
    fn block_ilu0_is_exact_on_a_block_tridiagonal_h(
        parts in (2usize..10).prop_flat_map(problem_parts),
        ccp in any::<bool>(),
    ) {
        let (entries, q, mu, r) = parts;
        let nc = mu.len();
        let kind = if ccp { FrictionKind::Ccp } else { FrictionKind::Coulomb };
        let fc = structured(nc, true, &entries, q, mu, kind);
        let r = DVector::from_vec(r);
        let (worst, cond) = exactness(&fc, &r, NewtonPreconditioner::Ilu0);
        prop_assume!(cond < 1e8);
        // the growth of the block elimination without pivoting is part of the rounding
        prop_assert!(worst <= 1e-10 * cond.max(1.0), "‖M⁻¹ H v - v‖ = {worst:e}, cond {cond:e}");
    }
}

/// A generated wall of about `target` contacts, its local problem.
fn wall(target: usize) -> FrictionContact {
    scenes::sized_for(SceneKind::Wall, target)
        .and_then(|s| s.local_problem())
        .expect("a generated wall")
}

#[test]
fn preconditioned_gmres_solves_the_newton_system_of_a_generated_wall() {
    let fc = wall(60);
    let reform = ConeReformulation::new(&fc, 1.0).unwrap();
    // an iterate with sticking, sliding and separated contacts: a few Newton iterations
    let mut r = DVector::zeros(fc.dim());
    let params = Params {
        tol: 1e-3,
        max_iter: 3,
        ..Default::default()
    };
    let _ = cone_newton(
        &fc,
        &mut r,
        &params,
        &ConeNewtonOptions::default(),
        &mut no_observer(),
    );
    let phi = reform.phi(&r);
    assert!(phi.norm() > 0.0);
    let h = reform.jacobian(&r);
    let tol = 1e-9;
    // Not block ILU(0): on a wall `W` is rank deficient (more contact rows than body
    // freedoms), the incomplete Schur complements meet singular pivots and its factors
    // overflow (documented in `nonsmooth::newton::precondition`).
    for p in [NewtonPreconditioner::Jacobi, NewtonPreconditioner::Sgs] {
        let (d, out) = reform.krylov_direction_with(&r, tol, 20_000, p);
        assert!(
            out.converged,
            "{p:?}: GMRES stopped at {:e} after {}",
            out.relative_residual, out.iterations
        );
        let res = (&h * &d + &phi).norm() / phi.norm();
        assert!(res <= 2.0 * tol, "{p:?}: ‖H d + Φ‖ / ‖Φ‖ = {res:e}");
    }
}

#[test]
fn gmres_newton_with_each_preconditioner_solves_a_generated_wall() {
    let fc = wall(300);
    assert!(fc.contacts() >= 200, "{} contacts", fc.contacts());
    let params = Params {
        tol: 1e-8,
        max_iter: 200,
        ..Default::default()
    };
    for p in KINDS {
        let mut r = DVector::zeros(fc.dim());
        let options = ConeNewtonOptions {
            linear: NewtonLinear::Gmres,
            precondition: p,
            ..Default::default()
        };
        let info = cone_newton(&fc, &mut r, &params, &options, &mut no_observer())
            .unwrap_or_else(|e| panic!("{p:?}: {e}"));
        assert!(info.stats.krylov_products > 0);
        let e = friction_error(&fc, &r);
        assert!(e.meets(1e-8, params.measure), "{p:?}: error {e:?}");
    }
}
