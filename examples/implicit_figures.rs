//! The figures and tables of the book's implicit-stepping chapters (Macklin et al. 2019):
//! the friction compliance `W` (figure 6), Newton convergence with and without the
//! complementarity preconditioner (figure 9), the inner solvers on a real Newton system
//! (figure 11) and the geometric stiffness approximation on a stiff chain (figure 12).
//!
//! ```text
//! cargo run --release --example implicit_figures
//! ```
//!
//! Writes `book/src/generated/implicit_*.txt` and `book/src/figures/implicit_*`; its test
//! checks the committed files.

#[path = "support/mod.rs"]
mod support;

use std::fmt::Write;

use nalgebra::{DVector, Vector3};
use nonsmooth::implicit::friction::{
    compliance, compliance_fb_closed_form, compliance_min_closed_form,
};
use nonsmooth::implicit::linear::{self, InnerOptions, InnerSolver};
use nonsmooth::implicit::newton::{self, ImplicitOptions, NewtonReport};
use nonsmooth::implicit::rows::{self, PointContact};
use nonsmooth::implicit::state::Dofs;
use nonsmooth::implicit::step::{point_contacts, step};
use nonsmooth::implicit::{Anchor, Joint, Model, Ncp, Node, Particle, system};
use nonsmooth::ncp::{FischerBurmeister, MinMap};
use nonsmooth::world::World;
use nonsmooth::world::scenes::box_stack::{self, BoxStackParams};
use nonsmooth::world::scenes::pile::{self, PileParams};
use nonsmooth::world::scenes::wall::{self, WallParams};
use support::panels::{Curve, Figure, Panel};
use support::sci;

const NCPS: [Ncp; 2] = [Ncp::Min, Ncp::Fb];

fn ncp_label(n: Ncp) -> &'static str {
    match n {
        Ncp::Min => "min map",
        Ncp::Fb => "Fischer-Burmeister",
    }
}

// ---------------------------------------------------------------- figure 6

fn w(ncp: Ncp, slip: f64, force: f64) -> f64 {
    match ncp {
        Ncp::Min => compliance::<MinMap>(slip, force, 1.0, 1.0),
        Ncp::Fb => compliance::<FischerBurmeister>(slip, force, 1.0, 1.0),
    }
}

fn friction_compliance() {
    // Panel 1: c_f against slip speed at fixed force; panel 2: c_f against force at fixed slip.
    let forces = [0.5, 1.0, 1.5];
    let slips = [0.25, 0.5];
    let mut left = Vec::new();
    for ncp in NCPS {
        for &f in &forces {
            // ψ on a grid of binary fractions (so the kink of the minimum map is exact), plotted
            // in cm/s so that the axis ticks are whole numbers.
            let pts = (0..=128).map(|k| {
                let psi = 2.0 * k as f64 / 128.0;
                (100.0 * psi, w(ncp, psi, f))
            });
            left.push(Curve::new(
                format!("{} |λ_f| = {f}", short(ncp)),
                pts.collect(),
            ));
        }
    }
    let mut right = Vec::new();
    for ncp in NCPS {
        for &psi in &slips {
            // |λ_f| in cN (hundredths of μλ_n) so that the axis ticks are whole numbers.
            let pts = (0..=128).map(|k| {
                let f = 3.0 * k as f64 / 128.0;
                (100.0 * f, w(ncp, psi, f))
            });
            right.push(Curve::new(
                format!("{} ψ = {psi}", short(ncp)),
                pts.collect(),
            ));
        }
    }
    Figure {
        name: "implicit_friction_compliance".into(),
        caption: "Friction compliance c_f, μλ_n = 1, r_f = 1 (zeros not drawn on the log axis)"
            .into(),
        panels: vec![
            Panel {
                title: "c_f against slip speed ψ".into(),
                x_desc: "ψ (cm/s)".into(),
                y_desc: "c_f ((m/s)/N)".into(),
                log_x: false,
                curves: left,
                markers: vec![],
            },
            Panel {
                title: "c_f against |λ_f| (cone boundary μλ_n at 100 cN)".into(),
                x_desc: "|λ_f| (cN)".into(),
                y_desc: "c_f ((m/s)/N)".into(),
                log_x: false,
                curves: right,
                markers: vec![(100.0, "μλ_n".into())],
            },
        ],
    }
    .publish();

    let mut t = String::from(
        "| slip ψ (m/s) | force \\|λ_f\\| (N) | where | c_f min map ((m/s)/N) | c_f Fischer-Burmeister ((m/s)/N) |\n|---|---|---|---|---|\n",
    );
    for (psi, f) in [
        (0.0, 0.5),
        (0.25, 0.5),
        (0.5, 0.5),
        (0.75, 0.5),
        (0.25, 1.0),
        (0.5, 1.0),
        (0.25, 1.5),
        (0.5, 1.5),
        (0.5, 2.0),
        (0.5, 2.5),
        (0.5, 3.0),
    ] {
        let place = if f < 1.0 {
            "inside"
        } else if f == 1.0 {
            "on the boundary"
        } else {
            "outside"
        };
        writeln!(
            t,
            "| {psi} | {f} | {place} | {} | {} |",
            sci(w(Ncp::Min, psi, f)),
            sci(w(Ncp::Fb, psi, f))
        )
        .unwrap();
    }
    // Where the unguarded Fischer-Burmeister denominator ψ + μλ_n - s vanishes for ψ = 0.5:
    // (ψ + 1)² = ψ² + b² gives b = -sqrt(1 + 2ψ).
    let psi: f64 = 0.5;
    let f_pole = 1.0 + (1.0 + 2.0 * psi).sqrt();
    writeln!(
        t,
        "\nFor ψ = {psi} m/s the unguarded Fischer-Burmeister denominator vanishes at \
         \\|λ_f\\| = {f_pole:.4} N; beyond it the code returns the cap {} (m/s)/N.",
        sci(nonsmooth::implicit::friction::W_MAX_FACTOR)
    )
    .unwrap();
    // The general form against the closed forms of appendix A on the plotted grids (where
    // the Fischer-Burmeister closed form's denominator is positive and W is below the cap).
    let (mut d_min, mut d_fb) = (0.0f64, 0.0f64);
    for k in 0..=128 {
        for j in 0..=128 {
            let (psi, f) = (2.0 * k as f64 / 128.0, 3.0 * j as f64 / 128.0);
            let c_min = compliance_min_closed_form(psi, f, 1.0, 1.0);
            d_min = d_min.max((w(Ncp::Min, psi, f) - c_min).abs() / c_min.max(1.0));
            let b = 1.0 - f;
            let den = psi + 1.0 - psi.hypot(b);
            let c_fb = compliance_fb_closed_form(psi, f, 1.0, 1.0);
            if den > 0.0 && c_fb.is_finite() && c_fb < 1e6 {
                d_fb = d_fb.max((w(Ncp::Fb, psi, f) - c_fb).abs() / c_fb.max(1.0));
            }
        }
    }
    writeln!(
        t,
        "\nOn a 129 × 129 grid of ψ in [0, 2] m/s and \\|λ_f\\| in [0, 3] N, `compliance` differs \
         from the closed forms (`compliance_min_closed_form`, `compliance_fb_closed_form`; \
         relative to max(1, c_f), Fischer-Burmeister only where its denominator is positive and \
         c_f < 1e6) by at most {} (min map) and {} (Fischer-Burmeister).",
        sci(d_min),
        sci(d_fb)
    )
    .unwrap();
    support::publish("generated/implicit_friction_table.txt", &t);
}

fn short(n: Ncp) -> &'static str {
    match n {
        Ncp::Min => "min",
        Ncp::Fb => "FB",
    }
}

// ---------------------------------------------------------------- figure 9

fn opts(ncp: Ncp, preconditioner: bool) -> ImplicitOptions {
    ImplicitOptions {
        ncp,
        preconditioner,
        tol: 0.0,
        newton_iterations: 20,
        inner: InnerOptions {
            solver: InnerSolver::Direct,
            ..Default::default()
        },
        geometric_stiffness: false,
        ..Default::default()
    }
}

/// A 100 kg particle of radius 0.1 m falling at 1 m/s, its surface 5 mm above the ground:
/// the contact closes during the 10 ms step.
fn dropping_particle(mu: f64) -> (World, Model) {
    let world = World::new().with_margin(0.1).unwrap();
    let model = Model {
        particles: vec![Particle {
            position: Vector3::new(0.0, 0.0, 0.105),
            velocity: Vector3::new(0.5, 0.0, -1.0),
            mass: 100.0,
            radius: 0.1,
            mu,
        }],
        ..Default::default()
    };
    (world, model)
}

fn residuals(world: &World, model: &Model, o: &ImplicitOptions) -> Vec<f64> {
    let mut w = world.clone();
    let mut m = model.clone();
    let contacts = w.contacts().unwrap();
    step(&mut w, &mut m, &contacts, 0.01, o).unwrap().residuals
}

fn preconditioner() {
    let h = 0.01;
    let (pw, pm) = dropping_particle(0.0);
    let stack = box_stack::build(&BoxStackParams {
        count: 3,
        ..Default::default()
    })
    .unwrap();
    let scenes: [(&str, &World, Model); 2] = [
        ("(a) 100 kg particle, one frictionless contact", &pw, pm),
        ("(b) 3 boxes, μ = 0.5", &stack, Model::default()),
    ];
    let mut panels = Vec::new();
    let mut t = String::from(
        "| scene | NCP | preconditioner | residual at start (m/s) | after 1 | after 2 | after 5 | after 20 |\n|---|---|---|---|---|---|---|---|\n",
    );
    for (title, world, model) in &scenes {
        let mut curves = Vec::new();
        for ncp in NCPS {
            for pre in [true, false] {
                let r = residuals(world, model, &opts(ncp, pre));
                let label = format!("{} {}", short(ncp), if pre { "r on" } else { "r off" });
                writeln!(
                    t,
                    "| {} | {} | {} | {} | {} | {} | {} | {} |",
                    title,
                    ncp_label(ncp),
                    if pre { "on" } else { "off" },
                    sci(r[0]),
                    sci(r[1]),
                    sci(r[2]),
                    sci(r[5]),
                    sci(r[20]),
                )
                .unwrap();
                curves.push(Curve::new(
                    label,
                    r.iter().enumerate().map(|(k, &v)| (k as f64, v)).collect(),
                ));
            }
        }
        panels.push(Panel {
            title: title.to_string(),
            x_desc: "Newton iteration".into(),
            y_desc: "residual (m/s)".into(),
            log_x: false,
            curves,
            markers: vec![],
        });
    }
    Figure {
        name: "implicit_preconditioner".into(),
        caption: format!(
            "Newton residual with and without the complementarity preconditioner (h = {h} s, direct inner solve)"
        ),
        panels,
    }
    .publish();
    writeln!(
        t,
        "\nResidual: `NewtonReport::residuals`, the largest of |M⁻¹g| and the row residuals \
         (m/s); a residual of exactly 0 is not drawn on the log axis."
    )
    .unwrap();
    support::publish("generated/implicit_preconditioner.txt", &t);
}

// ---------------------------------------------------------------- figure 11

/// The Schur-complement system of Newton iteration `k + 1` (after `k` iterations with a
/// direct inner solve), built as `newton::solve` builds it (geometric stiffness off).
fn schur_system(
    world: &World,
    model: &Model,
    h: f64,
    k: usize,
) -> (nalgebra_sparse::CsrMatrix<f64>, DVector<f64>) {
    let contacts = world.contacts().unwrap();
    let dofs = Dofs::new(world, model, h);
    let points: Vec<PointContact> = point_contacts(world, model, &contacts);
    let o = ImplicitOptions {
        newton_iterations: k.max(1),
        ..opts(Ncp::Fb, true)
    };
    let (u, lambda) = if k == 0 {
        (DVector::zeros(dofs.n), None)
    } else {
        let (u, rep) = newton::solve(&dofs, model, &points, &o).unwrap();
        (u, Some(rep.lambda))
    };
    let rws = rows::evaluate(&dofs, model, &points, &u);
    let lambda = lambda.unwrap_or_else(|| DVector::zeros(rws.len()));
    let minv = dofs.inverse_blocks(&DVector::zeros(dofs.n));
    let sys = system::assemble(&dofs, &rws, &u, &lambda, &minv, Ncp::Fb, true);
    system::schur(&sys, &minv, o.regularisation)
}

fn history(
    a: &nalgebra_sparse::CsrMatrix<f64>,
    b: &DVector<f64>,
    solver: InnerSolver,
    iterations: usize,
) -> (Vec<f64>, String) {
    let nb = b.norm();
    let mut n = iterations;
    loop {
        let mut x = DVector::zeros(b.len());
        let o = InnerOptions {
            solver,
            iterations: n,
            rel_tol: 0.0,
        };
        match linear::solve(a, b, &mut x, &o) {
            Ok(rep) => {
                let status = if n < iterations {
                    format!("non-finite after {} iterations; shown up to {n}", 2 * n)
                } else {
                    format!("{} iterations", rep.iterations)
                };
                return (rep.residuals.iter().map(|r| r / nb).collect(), status);
            }
            Err(e) if n > 1 => {
                let _ = e;
                n /= 2;
            }
            Err(e) => panic!("{solver:?}: {e}"),
        }
    }
}

/// The pile scene (`scenes::pile`, 60 bodies) stepped by the implicit stepper (defaults,
/// 8 Newton iterations, 10 ms) until it has at least `min_contacts` contacts; returns the
/// world and the number of steps taken.
fn settled_pile(min_contacts: usize) -> (World, usize) {
    let mut world = pile::build(&PileParams::default()).unwrap();
    let mut model = Model::default();
    let o = ImplicitOptions {
        newton_iterations: 8,
        tol: 0.0,
        ..Default::default()
    };
    for s in 0..400 {
        let contacts = match world.contacts() {
            Ok(c) => c,
            Err(e) => panic!("pile step {s}: {e:?}"),
        };
        if contacts.len() >= min_contacts {
            return (world, s);
        }
        step(&mut world, &mut model, &contacts, 0.01, &o).unwrap();
    }
    panic!("the pile never reached {min_contacts} contacts");
}

fn krylov() {
    let h = 0.01;
    let count = 10;
    let stack = box_stack::build(&BoxStackParams {
        count,
        ..Default::default()
    })
    .unwrap();
    let (pile_world, pile_steps) = settled_pile(34);
    let wall_params = WallParams {
        rows: 5,
        per_row: 4,
        ..Default::default()
    };
    let wall_world = wall::build(&wall_params).unwrap();
    let model = Model::default();
    let solvers = [
        InnerSolver::Pcr,
        InnerSolver::Cg,
        InnerSolver::Jacobi,
        InnerSolver::GaussSeidel,
    ];
    let iterations = 200;
    let newton_k = 1;
    let mut panels = Vec::new();
    let mut t = String::new();
    writeln!(
        t,
        "Systems: the Schur complement `A = J M⁻¹ Jᵀ + C + εI` and right-hand side of a Newton \
         iteration of one implicit step (h = {h} s, Fischer-Burmeister, complementarity \
         preconditioner on, ε = {}, geometric stiffness off; the iterations before it solved \
         directly). For the resting scenes (box stack, wall) Newton iteration {} is used: the \
         first, from `u = 0`, `λ = 0` with closed contacts, has `b = 0`.\n",
        sci(ImplicitOptions::default().regularisation),
        newton_k + 1
    )
    .unwrap();
    writeln!(
        t,
        "* box stack: {count} one-metre boxes of 1000 kg (`scenes::box_stack`, μ = 0.5), {} contacts;",
        stack.contacts().unwrap().len()
    )
    .unwrap();
    writeln!(
        t,
        "* wall: `scenes::wall` with {} rows of {} bricks (μ = {}), {} contacts;",
        wall_params.rows,
        wall_params.per_row,
        wall_params.friction,
        wall_world.contacts().unwrap().len()
    )
    .unwrap();
    writeln!(
        t,
        "* pile: `scenes::pile` with its defaults (60 bodies, μ = 0.5) after {pile_steps} \
         implicit steps (8 Newton iterations each, PCR with 20 iterations), the first state \
         with at least 34 contacts: {} contacts.",
        pile_world.contacts().unwrap().len()
    )
    .unwrap();
    t.push('\n');
    t.push_str("| scene | Newton iteration | rows | solver | ‖b−Ax‖/‖b‖ after 10 | after 20 | after 50 | after 200 | ran |\n|---|---|---|---|---|---|---|---|---|\n");
    // (scene, title, Newton iterations before the system, drawn in the figure)
    let systems = [
        (&stack, "box stack", newton_k, false),
        (&wall_world, "wall", newton_k, false),
        (&pile_world, "pile", 0, true),
        (&pile_world, "pile", newton_k, true),
    ];
    for (world, title, k, drawn) in systems {
        let (a, b) = schur_system(world, &model, h, k);
        if b.norm() == 0.0 {
            writeln!(
                t,
                "| {title} | {} | {} | — | Newton has already converged: the right-hand side is zero | | | | |",
                k + 1,
                a.nrows()
            )
            .unwrap();
            assert!(!drawn, "{title}: a drawn system has a zero right-hand side");
            continue;
        }
        let mut curves = Vec::new();
        for s in solvers {
            let (r, status) = history(&a, &b, s, iterations);
            let at = |i: usize| r.get(i).map(|v| sci(*v)).unwrap_or_else(|| "—".into());
            writeln!(
                t,
                "| {title} | {} | {} | {} | {} | {} | {} | {} | {status} |",
                k + 1,
                a.nrows(),
                s.name(),
                at(10),
                at(20),
                at(50),
                at(200)
            )
            .unwrap();
            if !drawn {
                continue;
            }
            curves.push(Curve::new(
                s.name(),
                r.iter()
                    .enumerate()
                    .skip(1)
                    .filter(|(_, v)| v.is_finite())
                    .map(|(i, &v)| (i as f64, v.min(1e6)))
                    .collect(),
            ));
        }
        if !drawn {
            continue;
        }
        panels.push(Panel {
            title: format!("{title}, Newton iteration {}: {} rows", k + 1, a.nrows()),
            x_desc: "inner iteration".into(),
            y_desc: "‖b − A x‖ / ‖b‖".into(),
            log_x: true,
            curves,
            markers: vec![],
        });
    }
    t.push_str("\nCurves are clipped at 1e6 in the figure (a diverging Jacobi iteration).\n");
    // PCR's preconditioned residual norm ‖r‖_{P⁻¹} should not increase (Fong and Saunders).
    for (k, label) in [(0, "1"), (newton_k, "2")] {
        let (a, b) = schur_system(&pile_world, &model, h, k);
        let mut x = DVector::zeros(b.len());
        let o = InnerOptions {
            solver: InnerSolver::Pcr,
            iterations,
            rel_tol: 0.0,
        };
        let (_, hist) = linear::pcr_with_history(&a, &b, &mut x, &o).unwrap();
        let (mut worst, mut true_up) = (0.0f64, 0usize);
        for w in hist.windows(2) {
            worst = worst.max((w[1] - w[0]) / hist[0]);
        }
        let (rep, _) = linear::pcr_with_history(&a, &b, &mut DVector::zeros(b.len()), &o).unwrap();
        for w in rep.residuals.windows(2) {
            if w[1] > w[0] {
                true_up += 1;
            }
        }
        let cg = linear::solve(
            &a,
            &b,
            &mut DVector::zeros(b.len()),
            &InnerOptions {
                solver: InnerSolver::Cg,
                ..o
            },
        )
        .unwrap();
        let cg_up = cg.residuals.windows(2).filter(|w| w[1] > w[0]).count();
        writeln!(
            t,
            "\nPile, Newton iteration {label}: over {} PCR iterations the preconditioned residual \
             ‖r‖_(P⁻¹) never rose by more than {} of its start; the true 2-norm residual rose in \
             {true_up} of them (CG's in {cg_up} of its {}).",
            hist.len() - 1,
            sci(worst.max(0.0)),
            cg.iterations
        )
        .unwrap();
    }
    Figure {
        name: "implicit_krylov".into(),
        caption: format!(
            "Inner solvers on the Schur complement of the pile after {pile_steps} steps"
        ),
        panels,
    }
    .publish();
    support::publish("generated/implicit_krylov.txt", &t);
}

// ---------------------------------------------------------------- figure 12

/// A chain of `links` particles of 1 kg spaced `link` m, hanging from a world point,
/// released horizontal, with a `heavy` kg particle at its end; distance constraints of
/// compliance `compliance` and rest length `link / stretch` (so `stretch > 1` starts them
/// stretched).
fn chain(links: usize, link: f64, heavy: f64, compliance: f64, stretch: f64) -> (World, Model) {
    let world = World::new().with_ground(None).unwrap();
    let mut model = Model::default();
    for j in 0..links {
        model.particles.push(Particle {
            position: Vector3::new(link * (j + 1) as f64, 0.0, 0.0),
            velocity: Vector3::zeros(),
            mass: if j + 1 == links { heavy } else { 1.0 },
            radius: 0.0,
            mu: 0.0,
        });
        let a = if j == 0 {
            Anchor::World(Vector3::zeros())
        } else {
            Anchor::On(Node::Particle(j - 1), Vector3::zeros())
        };
        model.joints.push(Joint::Distance {
            a,
            b: Anchor::On(Node::Particle(j), Vector3::zeros()),
            rest: link / stretch,
            compliance,
        });
    }
    (world, model)
}

fn chain_opts(gs: bool, iterations: usize) -> ImplicitOptions {
    ImplicitOptions {
        geometric_stiffness: gs,
        tol: 0.0,
        newton_iterations: iterations,
        inner: InnerOptions {
            solver: InnerSolver::Direct,
            ..Default::default()
        },
        ..Default::default()
    }
}

struct ChainCase {
    name: &'static str,
    links: usize,
    heavy: f64,
    compliance: f64,
    stretch: f64,
}

/// Runs `steps` steps with a fixed Newton budget; returns the worst end-of-step residual,
/// the step where it happened, the worst end-of-step link error (m) and how the run ended
/// (it stops at the first failed step).
fn chain_run(c: &ChainCase, gs: bool, budget: usize, steps: usize) -> (f64, usize, f64, String) {
    let (mut world, mut model) = chain(c.links, 0.1, c.heavy, c.compliance, c.stretch);
    let (mut worst, mut at, mut link) = (0.0f64, 0, 0.0f64);
    for s in 0..steps {
        match step(&mut world, &mut model, &[], 0.01, &chain_opts(gs, budget)) {
            Ok(rep) => {
                let r = *rep.residuals.last().unwrap();
                link = link.max(rep.bilateral_error);
                if r.is_nan() || r > worst {
                    worst = r;
                    at = s + 1;
                }
            }
            Err(e) => return (worst, at, link, format!("failed at step {}: {e}", s + 1)),
        }
    }
    (worst, at, link, "all steps ran".into())
}

/// The reference trajectory: geometric stiffness on, up to 50 Newton iterations to a
/// residual of 1e-9 m/s. Returns the state before each of `steps` steps and how many steps
/// missed the tolerance.
fn chain_reference(c: &ChainCase, steps: usize) -> (Vec<(World, Model)>, usize) {
    let (mut world, mut model) = chain(c.links, 0.1, c.heavy, c.compliance, c.stretch);
    let o = ImplicitOptions {
        tol: 1e-9,
        newton_iterations: 50,
        ..chain_opts(true, 50)
    };
    let (mut states, mut missed) = (Vec::new(), 0);
    for _ in 0..steps {
        states.push((world.clone(), model.clone()));
        let rep = step(&mut world, &mut model, &[], 0.01, &o).unwrap();
        if !rep.converged {
            missed += 1;
        }
    }
    (states, missed)
}

fn step_residuals(world: &World, model: &Model, gs: bool) -> Result<NewtonReport, String> {
    let (mut w, mut m) = (world.clone(), model.clone());
    step(&mut w, &mut m, &[], 0.01, &chain_opts(gs, 20)).map_err(|e| e.to_string())
}

fn geometric_stiffness() {
    let cases = [
        ChainCase {
            name: "hard chain: 10 links of 0.1 m, 1 kg beads, 100 kg weight, rigid, released horizontal",
            links: 10,
            heavy: 100.0,
            compliance: 0.0,
            stretch: 1.0,
        },
        ChainCase {
            name: "large strain: 10 links, 1 kg beads, 100 kg weight, compliance 1e-4 m/N, started at 3x rest length",
            links: 10,
            heavy: 100.0,
            compliance: 1e-4,
            stretch: 3.0,
        },
    ];
    let budget = 8;
    let steps = 100;
    let mut t = String::from(
        "| setup | geometric stiffness | worst end-of-step residual (m/s) | at step | worst link error (m) | run |\n|---|---|---|---|---|---|\n",
    );
    let mut panels = Vec::new();
    for c in &cases {
        for gs in [false, true] {
            let (worst, at, link, status) = chain_run(c, gs, budget, steps);
            writeln!(
                t,
                "| {} | {} | {} | {at} | {} | {status} |",
                c.name,
                if gs { "on" } else { "off" },
                sci(worst),
                sci(link)
            )
            .unwrap();
        }
        // The hardest step: along the reference trajectory, the step whose 20-iteration
        // solve without geometric stiffness ends with the largest residual.
        let (states, missed) = chain_reference(c, steps);
        let mut worst_step = 1;
        let mut worst_res = -1.0;
        for (k, (world, model)) in states.iter().enumerate() {
            let r = match step_residuals(world, model, false) {
                Ok(rep) => *rep.residuals.last().unwrap(),
                Err(_) => f64::INFINITY,
            };
            if r > worst_res {
                worst_res = r;
                worst_step = k + 1;
            }
        }
        writeln!(
            t,
            "\n{}: reference trajectory (geometric stiffness on, at most 50 Newton iterations, \
             tolerance 1e-9 m/s): {missed} of {steps} steps missed the tolerance. Its hardest step \
             for Newton without geometric stiffness is step {worst_step}.",
            c.name
        )
        .unwrap();
        let (world, model) = &states[worst_step - 1];
        let mut curves = Vec::new();
        for gs in [false, true] {
            let label = if gs { "K on" } else { "K off" };
            match step_residuals(world, model, gs) {
                Ok(rep) => {
                    writeln!(
                        t,
                        "\n{}: step {worst_step}, 20 Newton iterations, K {}: residual {} → {}.",
                        c.name,
                        if gs { "on" } else { "off" },
                        sci(rep.residuals[0]),
                        sci(*rep.residuals.last().unwrap())
                    )
                    .unwrap();
                    curves.push(Curve::new(
                        label,
                        rep.residuals
                            .iter()
                            .enumerate()
                            .map(|(k, &v)| (k as f64, v))
                            .collect(),
                    ));
                }
                Err(e) => {
                    writeln!(t, "\n{}: step {worst_step}, {label}: {e}.", c.name).unwrap();
                    curves.push(Curve::new(label, vec![]));
                }
            }
        }
        panels.push(Panel {
            title: format!(
                "{}: step {worst_step}",
                if c.compliance == 0.0 {
                    "rigid chain"
                } else {
                    "large strain"
                }
            ),
            x_desc: "Newton iteration".into(),
            y_desc: "residual (m/s)".into(),
            log_x: false,
            curves,
            markers: vec![],
        });
        t.push('\n');
    }
    writeln!(
        t,
        "Budget for the worst-residual column: {budget} Newton iterations per step, α = 1, \
         direct inner solve, {steps} steps of 10 ms. The single-step curves use 20 iterations."
    )
    .unwrap();
    Figure {
        name: "implicit_geometric_stiffness".into(),
        caption: "Newton residual in one hard step of a chain with a 100 kg weight".into(),
        panels,
    }
    .publish();
    support::publish("generated/implicit_geometric_stiffness.txt", &t);
}

fn main() {
    friction_compliance();
    preconditioner();
    krylov();
    geometric_stiffness();
}

#[cfg(test)]
mod tests {
    #[test]
    fn committed_outputs_are_current() {
        super::main();
    }
}
