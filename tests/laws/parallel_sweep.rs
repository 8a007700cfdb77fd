//! Law: the coloured parallel sweep of the velocity-space Gauss-Seidel is the sequential
//! sweep taken in colour order (contacts of one colour share no body, so their updates
//! commute); and it converges where the sequential sweep does.

use nalgebra::DVector;
use nonsmooth::multibody::scenes;
use nonsmooth::problem::FrictionKind;
use nonsmooth::solver::{Params, no_observer, solve};
use nonsmooth::splitting::{DEFAULT_COLOUR_BLOCK, Vgs, VgsOptions, VgsPrepared};

fn small_scenes() -> Vec<nonsmooth::multibody::Scene> {
    vec![
        scenes::box_stack(5).unwrap(),
        scenes::pyramid(5).unwrap(),
        scenes::wall(4, 5).unwrap(),
        scenes::heavy_on_light(100.0).unwrap(),
    ]
}

// ANCHOR: law
#[test]
fn coloured_sweep_equals_sequential_sweep_in_colour_order() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for scene in small_scenes() {
        for kind in [FrictionKind::Coulomb, FrictionKind::Ccp] {
            let g = scene.global_problem().unwrap().with_kind(kind);
            let prep = VgsPrepared::new(&g, kind).unwrap();
            for block in [1, 3, 8, DEFAULT_COLOUR_BLOCK] {
                let col = prep.colouring(block);
                if block == 1 {
                    assert!(col.colours() > 1, "{}", scene.name);
                }
                // a warm start that is not zero, so that every contact moves
                let mut r1 = DVector::from_fn(g.dim(), |i, _| if i % 3 == 0 { 0.3 } else { 0.01 });
                let mut v1 = g.velocity_dofs(&r1);
                let (mut r2, mut v2) = (r1.clone(), v1.clone());
                for sweep in 0..10 {
                    prep.sweep_in_order(&g, &col.order(), &mut r1, &mut v1);
                    pool.install(|| prep.sweep_coloured(&g, &col, &mut r2, &mut v2));
                    let dr = (&r1 - &r2).amax();
                    let dv = (&v1 - &v2).amax();
                    assert!(
                        dr <= 1e-14 * (1.0 + r1.amax()) && dv <= 1e-14 * (1.0 + v1.amax()),
                        "{} {kind:?} sweep {sweep}: |dr| {dr:e}, |dv| {dv:e}",
                        scene.name
                    );
                }
                // and v stays M^-1 (q + H r)
                let direct = g.velocity_dofs(&r2);
                assert!((&v2 - &direct).amax() <= 1e-10 * (1.0 + direct.amax()));
            }
        }
    }
}

// ANCHOR_END: law

#[test]
fn in_order_sweep_in_index_order_is_the_plain_sweep() {
    let g = scenes::pyramid(4).unwrap().global_problem().unwrap();
    let prep = VgsPrepared::new(&g, g.kind()).unwrap();
    let order: Vec<usize> = (0..g.contacts()).collect();
    let mut r1 = DVector::zeros(g.dim());
    let mut v1 = g.velocity_dofs(&r1);
    let (mut r2, mut v2) = (r1.clone(), v1.clone());
    for _ in 0..5 {
        prep.sweep(&g, &mut r1, &mut v1);
        prep.sweep_in_order(&g, &order, &mut r2, &mut v2);
    }
    assert_eq!(r1, r2);
    assert_eq!(v1, v2);
}

#[test]
fn parallel_option_converges_where_the_sequential_sweep_does() {
    let params = Params {
        tol: 1e-8,
        max_iter: 20_000,
        ..Params::default()
    };
    for scene in small_scenes() {
        let g = scene.global_problem().unwrap();
        let run = |parallel: bool, block: usize| {
            let options = VgsOptions {
                parallel,
                block,
                ..VgsOptions::default()
            };
            let mut r = DVector::zeros(g.dim());
            let solved = solve::<Vgs>(&g, &mut r, &params, &options, &mut no_observer());
            (solved.is_ok(), r)
        };
        let (seq_ok, r_seq) = run(false, DEFAULT_COLOUR_BLOCK);
        assert!(seq_ok, "{}: sequential did not converge", scene.name);
        for block in [1, 2, DEFAULT_COLOUR_BLOCK] {
            let (par_ok, r_par) = run(true, block);
            assert!(
                par_ok,
                "{}: coloured (block {block}) did not converge",
                scene.name
            );
            // both meet the tolerance; the reactions of these statically indeterminate
            // stacks need not be unique, but the velocities they give are (the bodies
            // rest: v = 0 up to the tolerance, against a gravity step of 0.098 m/s)
            let (a, b) = (g.velocity_dofs(&r_seq), g.velocity_dofs(&r_par));
            let gap = (&a - &b).amax();
            assert!(gap <= 1e-6, "{} block {block}: |dv| = {gap:e}", scene.name);
        }
    }
}

#[test]
fn block_zero_is_an_invalid_option() {
    let g = scenes::box_stack(2).unwrap().global_problem().unwrap();
    let options = VgsOptions {
        parallel: true,
        block: 0,
        ..VgsOptions::default()
    };
    let mut r = DVector::zeros(g.dim());
    let e = solve::<Vgs>(&g, &mut r, &Params::default(), &options, &mut no_observer());
    assert!(format!("{:?}", e.err().unwrap()).contains("block"));
}
