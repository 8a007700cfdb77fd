//! The cone Newton method (`nsn`) at scale: time per Newton iteration, iterations to
//! `1e-8`, total time and heap peak per contact, on generated walls, box stacks and
//! pyramids and on a random sparse Delassus operator `W = J J^T`, from a few hundred
//! contacts up to what fits in a few minutes, with both ways of solving the Newton system
//! (`linear=lu`, `linear=gmres`) and what `linear=auto` picks.
//!
//! Each row is one solve from `r = 0` to the natural-map error `1e-8` (Siconos
//! normalisation, at most 200 iterations), in release mode on whatever machine runs it,
//! one thread. "fill" is the predicted factor size over the entries of `H` that
//! [`NewtonLinear::Auto`] compares with [`nonsmooth::newton::KRYLOV_FILL_RATIO`] (from
//! [`nonsmooth::newton::KRYLOV_MIN_UNKNOWNS`] unknowns), "auto" what it picks; "KB/contact" is
//! the peak of live heap bytes allocated during the solve (counting allocator), per
//! contact; "growth" is the exponent `log(t2 / t1) / log(n2 / n1)` of the time per
//! iteration between a row and the previous row of the same scene and solver (1 is linear).
//! A ladder stops once a solve took more than [`STOP_AFTER`] seconds; a solve is stopped
//! after [`SOLVE_LIMIT`] seconds ("stopped"). The GMRES ladders of the generated scenes
//! climb [`LADDER`] with the default preconditioner ("prec"; block Jacobi).
//!
//! The second table puts the three preconditioners of the GMRES inner solve
//! ([`NewtonPreconditioner`]: block Jacobi, block symmetric Gauss-Seidel, block ILU(0))
//! side by side on the same problems: the same columns, and the ratios of block Jacobi's
//! products and time per Newton iteration to each one's (above 1: fewer than block Jacobi).
//!
//! Where a row ends above `1e-8`: "stopped" is the time limit, not a stall. The box stacks
//! and block ILU(0) end at "max-iter": the generated scenes have more contact rows than body
//! freedoms (a box on four corner contacts: 12 rows against the 6 freedoms of the box), so
//! `W = J M⁻¹ Jᵀ` has rank at most six per body and the Newton matrix of the sticking
//! contacts is singular. The box stack stops at "max-iter" with the exact LU as well, so it
//! is the Newton iteration (its directions in that null space, its line search) that does
//! not finish, not the inner solve. Block ILU(0) meets the same null space as (nearly)
//! singular pivots of its incomplete Schur complements: its factors blow up, GMRES uses its
//! whole budget of products without reaching the forcing term, and the Newton method lives
//! on its Gauss-Seidel fallback. Writes
//! `book/src/generated/newton_scale.txt` (machine-dependent; not checked by a test).
//!
//! ```console
//! cargo run --release --example newton_scale
//! ```

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write as _;
use std::time::Instant;

use nalgebra::DVector;
use nalgebra_sparse::{CooMatrix, CsrMatrix};
use nonsmooth::matrix::Matrix;
use nonsmooth::multibody::{SceneKind, scenes};
use nonsmooth::newton::{
    ConeNewtonOptions, KRYLOV_FILL_RATIO, KRYLOV_MIN_UNKNOWNS, NewtonLinear, NewtonPreconditioner,
    cone_newton,
};
use nonsmooth::problem::{FrictionContact, FrictionKind};
use nonsmooth::solver::{Params, no_observer};

#[global_allocator]
static ALLOCATOR: support::alloc::Counting = support::alloc::Counting;

/// A ladder stops after a solve that took longer than this (seconds).
pub const STOP_AFTER: f64 = 20.0;

/// A solve is stopped (status "stopped", its time per iteration still measured) after this
/// many seconds.
pub const SOLVE_LIMIT: f64 = 40.0;

/// The sizes (target contact counts) of the GMRES ladders of the generated scenes, each
/// ladder stopped by [`STOP_AFTER`].
pub const LADDER: [usize; 8] = [250, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 100_000];

/// A random sparse Delassus operator: `nc` contacts between `nc / 2` free bodies (6
/// degrees of freedom, unit mass matrix), each contact between two distinct bodies drawn
/// at random, its 3 rows of `J` with entries uniform in `[-1, 1]`; `W = J J^T`. `q` has
/// normal entries in `[-1, 0]` and tangent entries in `[-1, 1]`; `μ = 0.5`. The contact
/// graph is an expander: nested dissection finds no small separators, the fill of a direct
/// factorisation grows quickly.
pub fn random_sparse(nc: usize, seed: u64) -> FrictionContact {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 11) as f64) / ((1u64 << 53) as f64)
    };
    let nb = (nc / 2).max(2);
    let mut coo = CooMatrix::new(3 * nc, 6 * nb);
    for c in 0..nc {
        let a = ((next() * nb as f64) as usize).min(nb - 1);
        let mut b = ((next() * nb as f64) as usize).min(nb - 1);
        if b == a {
            b = (a + 1) % nb;
        }
        for i in 0..3 {
            for body in [a, b] {
                for k in 0..6 {
                    coo.push(3 * c + i, 6 * body + k, 2.0 * next() - 1.0);
                }
            }
        }
    }
    let j = CsrMatrix::from(&coo);
    let w = &j * &j.transpose();
    let q = DVector::from_fn(3 * nc, |i, _| {
        let x = next();
        if i % 3 == 0 { -x } else { 2.0 * x - 1.0 }
    });
    FrictionContact::new(
        Matrix::Sparse(w),
        q,
        DVector::from_element(nc, 0.5),
        FrictionKind::Coulomb,
    )
    .expect("a valid random problem")
}

/// `2 nnz(L) / nnz(H)`: the predicted fill that `linear=auto` compares with
/// [`KRYLOV_FILL_RATIO`] (symbolic Cholesky of the block pattern of `W` plus the diagonal,
/// AMD ordering).
fn predicted_fill(fc: &FrictionContact) -> f64 {
    use faer::sparse::linalg::cholesky::factorize_symbolic_cholesky;
    use faer::sparse::{Pair, SymbolicSparseColMat};
    let nc = fc.contacts();
    let mut blocks = std::collections::BTreeSet::new();
    for i in 0..fc.dim() {
        fc.w().for_each_in_row(i, |j, _| {
            blocks.insert((i / 3, j / 3));
        });
    }
    for c in 0..nc {
        blocks.insert((c, c));
    }
    let mut pairs = Vec::with_capacity(9 * blocks.len());
    for &(c, d) in &blocks {
        for i in 0..3 {
            for j in 0..3 {
                pairs.push(Pair::new(3 * c + i, 3 * d + j));
            }
        }
    }
    let n = fc.dim();
    let (sym, _) = SymbolicSparseColMat::try_new_from_indices(n, n, &pairs).expect("pattern");
    let chol = factorize_symbolic_cholesky(
        sym.as_ref(),
        faer::Side::Upper,
        Default::default(),
        Default::default(),
    )
    .expect("symbolic Cholesky");
    2.0 * chol.len_val() as f64 / pairs.len() as f64
}

/// `one SCENE N LINEAR [PRECONDITION]`: one solve, printed (for profiling).
fn run_one(scene: &str, n: usize, linear: &str, precondition: Option<&str>) {
    let fc = match scene {
        "wall" => scenes::sized_for(SceneKind::Wall, n).and_then(|s| s.local_problem()),
        "box-stack" => scenes::sized_for(SceneKind::BoxStack, n).and_then(|s| s.local_problem()),
        "pyramid" => scenes::sized_for(SceneKind::Pyramid, n).and_then(|s| s.local_problem()),
        "random" => Ok(random_sparse(n, 7)),
        other => panic!("unknown scene `{other}` (wall, box-stack, pyramid, random)"),
    }
    .expect("a generated scene");
    let linear = match linear {
        "auto" => NewtonLinear::Auto,
        "lu" => NewtonLinear::Lu,
        "gmres" => NewtonLinear::Gmres,
        other => panic!("unknown linear `{other}` (auto, lu, gmres)"),
    };
    let mut r = DVector::zeros(fc.dim());
    let params = Params {
        tol: 1e-8,
        max_iter: 200,
        ..Default::default()
    };
    let options = ConeNewtonOptions {
        linear,
        precondition: match precondition {
            None | Some("jacobi") => NewtonPreconditioner::Jacobi,
            Some("sgs") => NewtonPreconditioner::Sgs,
            Some("ilu0") => NewtonPreconditioner::Ilu0,
            Some(other) => panic!("unknown precondition `{other}` (jacobi, sgs, ilu0)"),
        },
        ..Default::default()
    };
    let t = Instant::now();
    let out = cone_newton(&fc, &mut r, &params, &options, &mut no_observer());
    let s = t.elapsed().as_secs_f64();
    match out {
        Ok(i) => println!(
            "{} contacts: {} iterations, error {:e}, {s:.3} s, {:?}",
            fc.contacts(),
            i.iterations,
            i.error.rel,
            i.stats
        ),
        Err(e) => println!("{} contacts: {e} ({s:.3} s)", fc.contacts()),
    }
}

/// One measured solve.
struct Measured {
    contacts: usize,
    iterations: usize,
    status: &'static str,
    error: f64,
    seconds: f64,
    /// Seconds per Newton iteration.
    per: f64,
    /// GMRES products per Newton iteration.
    products: f64,
    /// Peak live heap during the solve, bytes per contact.
    heap: f64,
}

fn linear_name(l: NewtonLinear) -> &'static str {
    match l {
        NewtonLinear::Auto => "auto",
        NewtonLinear::Lu => "lu",
        NewtonLinear::Gmres => "gmres",
    }
}

fn precondition_name(p: NewtonPreconditioner) -> &'static str {
    match p {
        NewtonPreconditioner::Jacobi => "jacobi",
        NewtonPreconditioner::Sgs => "sgs",
        NewtonPreconditioner::Ilu0 => "ilu0",
    }
}

/// One solve of `fc` from `r = 0` to `1e-8` (at most 200 iterations, stopped after
/// [`SOLVE_LIMIT`] seconds), timed, with its heap peak.
fn measure(
    fc: &FrictionContact,
    linear: NewtonLinear,
    precondition: NewtonPreconditioner,
) -> Measured {
    let params = Params {
        tol: 1e-8,
        max_iter: 200,
        ..Default::default()
    };
    let options = ConeNewtonOptions {
        linear,
        precondition,
        ..Default::default()
    };
    let mut r = DVector::zeros(fc.dim());
    let t = Instant::now();
    let (result, heap) = {
        let mut result = None;
        let heap = support::alloc::peak_of(|| {
            let mut limit = |_: &nonsmooth::solver::Iterate| {
                if t.elapsed().as_secs_f64() > SOLVE_LIMIT {
                    std::ops::ControlFlow::Break(())
                } else {
                    std::ops::ControlFlow::Continue(())
                }
            };
            result = Some(cone_newton(fc, &mut r, &params, &options, &mut limit));
        });
        (result.expect("ran"), heap)
    };
    let seconds = t.elapsed().as_secs_f64();
    let (iterations, status, error, products) = match &result {
        Ok(s) => (
            s.iterations,
            if s.status == nonsmooth::solver::Status::Converged {
                "converged"
            } else {
                "stopped"
            },
            s.error.rel,
            s.stats.krylov_products,
        ),
        Err(nonsmooth::solver::SolveError::NoConvergence(info)) => (
            info.iterations,
            "max-iter",
            info.error.rel,
            info.stats.krylov_products,
        ),
        Err(_) => (0, "error", f64::NAN, 0),
    };
    let nc = fc.contacts();
    Measured {
        contacts: nc,
        iterations,
        status,
        error,
        seconds,
        per: seconds / iterations.max(1) as f64,
        products: products as f64 / iterations.max(1) as f64,
        heap: heap as f64 / nc as f64,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [one, scene, n, linear] if one == "one" => {
            run_one(scene, n.parse().expect("a contact count"), linear, None);
            return;
        }
        [one, scene, n, linear, p] if one == "one" => {
            run_one(scene, n.parse().expect("a contact count"), linear, Some(p));
            return;
        }
        _ => {}
    }
    let started = Instant::now();
    let mut out = String::new();
    writeln!(
        out,
        "scene     contacts  nnz(W)   fill auto  linear prec   iter status      error \
         total s s/iter Hv/it KB/contact growth"
    )
    .unwrap();
    type Build = Box<dyn Fn(usize) -> FrictionContact>;
    let scene = |kind: SceneKind| -> Build {
        Box::new(move |n| {
            scenes::sized_for(kind, n)
                .and_then(|s| s.local_problem())
                .expect("a generated scene")
        })
    };
    use NewtonLinear::{Gmres, Lu};
    use NewtonPreconditioner::{Ilu0, Jacobi, Sgs};
    type Ladder = Vec<(NewtonLinear, Vec<usize>)>;
    // ANCHOR: ladders
    let ladders: Vec<(&str, Build, Ladder, Vec<usize>)> = vec![
        (
            "wall",
            scene(SceneKind::Wall),
            vec![(Lu, vec![250, 500, 1_000, 2_000]), (Gmres, LADDER.to_vec())],
            vec![1_000, 4_000],
        ),
        (
            "box-stack",
            scene(SceneKind::BoxStack),
            vec![(Lu, vec![1_000, 4_000]), (Gmres, LADDER.to_vec())],
            vec![1_000],
        ),
        (
            "pyramid",
            scene(SceneKind::Pyramid),
            vec![(Lu, vec![250, 500, 1_000]), (Gmres, LADDER.to_vec())],
            vec![1_000, 4_000],
        ),
        (
            "random",
            Box::new(|n| random_sparse(n, 7)),
            vec![
                (Lu, vec![500, 1_000, 2_000]),
                (Gmres, vec![1_000, 10_000, 100_000]),
            ],
            vec![10_000],
        ),
    ];
    // ANCHOR_END: ladders
    let mut compare = String::new();
    writeln!(
        compare,
        "scene     contacts prec   iter status      error s/iter Hv/it KB/contact \
         products jacobi/this time jacobi/this"
    )
    .unwrap();
    for (name, build, ladder, compared) in &ladders {
        for (linear, sizes) in ladder {
            let linear = *linear;
            let mut previous: Option<Measured> = None;
            for &target in sizes {
                let fc = build(target);
                let nc = fc.contacts();
                let fill = predicted_fill(&fc);
                let auto = if fc.dim() >= KRYLOV_MIN_UNKNOWNS && fill > KRYLOV_FILL_RATIO as f64 {
                    "gmres"
                } else {
                    "lu"
                };
                let m = measure(&fc, linear, NewtonPreconditioner::default());
                let growth = previous.as_ref().map_or(String::from("-"), |p| {
                    format!(
                        "{:.2}",
                        (m.per / p.per).ln() / (nc as f64 / p.contacts as f64).ln()
                    )
                });
                let prec = if linear == Lu {
                    "-"
                } else {
                    precondition_name(NewtonPreconditioner::default())
                };
                writeln!(
                    out,
                    "{name:<9} {nc:>8} {:>7} {fill:>6.1} {auto:<5} {:<6} {prec:<6} {:>4} \
                     {:<9} {:>7.1e} {:>7.2} {:>6.4} {:>5.0} {:>10.1} {growth:>6}",
                    fc.w().nnz(),
                    linear_name(linear),
                    m.iterations,
                    m.status,
                    m.error,
                    m.seconds,
                    m.per,
                    m.products,
                    m.heap / 1024.0,
                )
                .unwrap();
                eprint!("{}", out.lines().last().map(|l| format!("{l}\n")).unwrap());
                let slow = m.seconds > STOP_AFTER;
                previous = Some(m);
                if slow {
                    break;
                }
            }
        }
        // the preconditioners side by side at the same sizes
        for &target in compared {
            let fc = build(target);
            let runs: Vec<(NewtonPreconditioner, Measured)> = [Jacobi, Sgs, Ilu0]
                .into_iter()
                .map(|p| (p, measure(&fc, Gmres, p)))
                .collect();
            let jacobi = &runs[0].1;
            for (p, m) in &runs {
                writeln!(
                    compare,
                    "{name:<9} {:>8} {:<6} {:>4} {:<9} {:>7.1e} {:>6.4} {:>5.0} {:>10.1} \
                     {:>16.2} {:>16.2}",
                    m.contacts,
                    precondition_name(*p),
                    m.iterations,
                    m.status,
                    m.error,
                    m.per,
                    m.products,
                    m.heap / 1024.0,
                    jacobi.products / m.products.max(f64::MIN_POSITIVE),
                    jacobi.per / m.per,
                )
                .unwrap();
                eprint!(
                    "{}",
                    compare.lines().last().map(|l| format!("{l}\n")).unwrap()
                );
            }
        }
    }
    out.push('\n');
    out.push_str(&compare);
    eprintln!("total {:.0} s", started.elapsed().as_secs_f64());
    support::publish("generated/newton_scale.txt", &out);
}
