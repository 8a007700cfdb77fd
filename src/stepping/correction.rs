//! Error correction at the position level: the projection `correction()` of Erleben
//! 2007 eq. 46 and the post-stabilisation of Erleben 2017 eq. 43-51. Both solve the same
//! linear complementarity problem; they differ in how often and how accurately.
//!
//! # The position LCP
//!
//! A displacement `dq` of the bodies changes the gaps, to first order, by
//! `dg = J_n dq` (2017 eq. 43; `J_n` the normal rows of the contact Jacobian). Let the
//! displacement come from contact "pushes" `lambda` (in kg m) weighted by the masses,
//! `M dq = J_n^T lambda` (eq. 44-45); then `dg = J_n M^-1 J_n^T lambda = A lambda`
//! (eq. 46). A push can only push (`lambda >= 0`), only at a contact that ends up
//! touching, and must leave no contact penetrating:
//!
//! ```text
//! 0 <= lambda  ⊥  A lambda + g >= 0,     A = J_n M^-1 J_n^T,  g the gaps   (2017 eq. 49; 2007 eq. 46b)
//! q^corrected = q + M^-1 J_n^T lambda                                    (2017 eq. 51; 2007 eq. 46c)
//! ```
//!
//! The tangential rows are dropped (the paper's "all contact tangent plane constraints
//! are dropped") and the right-hand side is the gap vector, whose negative entries are
//! the penetration depths `d_penetration` of 2007 eq. 46b. The velocities are not
//! touched: this is an instantaneous change of position that disregards velocities and
//! forces. `A` is the normal block of the Delassus operator, so `A` is the matrix the
//! step's contact solve used, restricted to normal rows.
//!
//! # Two uses
//!
//! * [`Correction::Projection`](super::Correction::Projection): one solve per step with
//!   a small fixed budget (5 projected Gauss-Seidel sweeps in the paper).
//! * [`Correction::PostStabilisation`](super::Correction::PostStabilisation): solved to
//!   tolerance and repeated, with collision detection again between passes, until no
//!   contact penetrates more than the tolerance (the gap is linearised, so one pass
//!   need not remove all of it: 2017 end of 4.4).
//!
//! Checked by `tests/laws/correction.rs`.

use std::time::Instant;

use crate::names::named;
use nalgebra::{DVector, Matrix6, Vector3, Vector6};
use serde::Serialize;

use super::dynamics::{Stage, registry_solve};
use super::{Settings, SimulationError};
use crate::matrix::Matrix;
use crate::problem::{AnyProblem, Lcp};
use crate::world::{StepProblem, World, WorldContact};

/// How the correction of a step went.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct CorrectionSummary {
    /// Position-LCP solves made (0 when there was nothing to correct).
    pub passes: usize,
    /// Iterations over all passes.
    pub iterations: usize,
    /// The error of the last pass's LCP answer (0 without a pass).
    pub error: f64,
    /// The worst penetration before the correction, in m (`>= 0`).
    pub penetration_before: f64,
    /// Wall time of the solves and position updates in s (collision detection is not
    /// included).
    pub seconds: f64,
}

/// The worst penetration of `contacts` in m: `max(0, -min gap)`.
pub fn worst_penetration(contacts: &[WorldContact]) -> f64 {
    contacts.iter().fold(0.0_f64, |w, c| w.max(-c.gap))
}

// ANCHOR: position_lcp
/// The position LCP `(A, g)` of the step's contacts: `A = J_n M^-1 J_n^T`, the normal
/// rows and columns of the Delassus operator (`nc x nc`, 1/kg), and `g` the gaps (m).
///
/// `A` is formed from the normal rows of `J` alone, body by body:
/// `A_ij = sum_k J_n,ik M_k^-1 J_n,jk^T` over the bodies `k` that contacts `i` and `j`
/// share (each pair once, mirrored, so `A` is exactly symmetric), without forming the
/// whole `3nc x 3nc` Delassus operator, whose blocks hold nine times the entries.
///
/// # Errors
/// As [`Lcp::new`] (only for non-finite data).
pub fn position_lcp(step: &StepProblem) -> Result<Lcp, crate::problem::ProblemError> {
    let a = &step.assembly;
    let nc = step.contacts.len();
    let nb = a.dof_map().blocks();
    // The 6x6 blocks of M^-1 (block diagonal).
    let minv = a.inverse_mass_matrix();
    let mut inv = vec![Matrix6::<f64>::zeros(); nb];
    for i in 0..6 * nb {
        minv.for_each_in_row(i, |j, v| {
            if j / 6 == i / 6 {
                inv[i / 6][(i % 6, j % 6)] = v;
            }
        });
    }
    // Per body block, the contacts touching it with their normal row `n` of `J` there
    // and `M_k^-1 n^T`.
    let mut touching: Vec<Vec<(usize, Vector6<f64>)>> = vec![Vec::new(); nb];
    let j = a.jacobian();
    for c in 0..nc {
        j.for_each_in_row(3 * c, |col, v| {
            let list = &mut touching[col / 6];
            match list.last_mut() {
                Some((d, n)) if *d == c => n[col % 6] = v,
                _ => {
                    let mut n = Vector6::zeros();
                    n[col % 6] = v;
                    list.push((c, n));
                }
            }
        });
    }
    let mut t = Vec::new();
    for (k, list) in touching.iter().enumerate() {
        for (x, (ci, ni)) in list.iter().enumerate() {
            let ti = inv[k] * ni;
            for (cj, nj) in &list[x..] {
                let v = nj.dot(&ti);
                t.push((*ci, *cj, v));
                if cj != ci {
                    t.push((*cj, *ci, v));
                }
            }
        }
    }
    let a = Matrix::from_triplets(nc, nc, &t).expect("indices within nc");
    Lcp::new(a, step.gaps())
}
// ANCHOR_END: position_lcp

// ANCHOR: displace
/// Moves the bodies of `world` by `dq = M^-1 J_n^T lambda` (2007 eq. 46c, 2017 eq. 51),
/// with `lambda` the `nc` normal pushes of the step's contacts (kg m).
pub fn displace(world: &mut World, step: &StepProblem, lambda: &DVector<f64>) {
    let a = &step.assembly;
    let mut full = DVector::zeros(3 * lambda.len());
    for (c, &l) in lambda.iter().enumerate() {
        full[3 * c] = l;
    }
    let dq = a.apply_inverse_mass(&a.jacobian().tr_mul_vec(&full));
    for k in 0..a.dof_map().blocks() {
        let i = a.dof_map().body(k);
        let body = &mut world.body_mut(i).expect("a body of the assembly").body;
        body.displace(
            &dq.fixed_rows::<3>(6 * k).into_owned(),
            &dq.fixed_rows::<3>(6 * k + 3).into_owned(),
        );
    }
}
// ANCHOR_END: displace

// ANCHOR: translating
/// Per contact, the body blocks `k` it touches with `n_ck`, the linear part of its row
/// of `J_n` (`+n` or `-n`, unitless).
pub type LinearNormalRows = Vec<Vec<(usize, Vector3<f64>)>>;

/// Each contact's normal row restricted to the translations: for contact `c`, the blocks
/// `k` it touches with `n_ck`, the linear part of its row of `J_n` (`+n` or `-n`).
fn linear_normal_rows(step: &StepProblem) -> LinearNormalRows {
    let j = step.assembly.jacobian();
    (0..step.contacts.len())
        .map(|c| {
            let mut row: Vec<(usize, Vector3<f64>)> = Vec::new();
            j.for_each_in_row(3 * c, |col, v| {
                if col % 6 < 3 {
                    match row.iter_mut().find(|(k, _)| *k == col / 6) {
                        Some((_, n)) => n[col % 6] = v,
                        None => {
                            let mut n = Vector3::zeros();
                            n[col % 6] = v;
                            row.push((col / 6, n));
                        }
                    }
                }
            });
            row
        })
        .collect()
}

/// The position LCP of the translations alone: `A_t = J_n,lin M_lin^-1 J_n,lin^T`, the
/// position LCP of [`position_lcp`] with the rotational inertia taken infinite, so that
/// a push moves a body without turning it; `(A_t)_ij = sum_k (1/m_k) n_ik . n_jk` over
/// the bodies `k` that contacts `i` and `j` share. Returns the LCP and the rows.
///
/// # Errors
/// As [`Lcp::new`] (only for non-finite data).
pub fn translating_lcp(
    step: &StepProblem,
) -> Result<(Lcp, LinearNormalRows), crate::problem::ProblemError> {
    let rows = linear_normal_rows(step);
    let a = &step.assembly;
    // Per block, the contacts touching it with their normals: the transpose of `rows`.
    let mut touching: LinearNormalRows = vec![Vec::new(); a.dof_map().blocks()];
    for (c, row) in rows.iter().enumerate() {
        for &(k, n) in row {
            touching[k].push((c, n));
        }
    }
    let mut t = Vec::new();
    for (k, list) in touching.iter().enumerate() {
        let inv_m = a.inverse_mass(k);
        for &(i, ni) in list {
            for &(j, nj) in list {
                t.push((i, j, inv_m * ni.dot(&nj)));
            }
        }
    }
    let nc = step.contacts.len();
    let lcp = Lcp::new(
        Matrix::from_triplets(nc, nc, &t).expect("indices within nc"),
        step.gaps(),
    )?;
    Ok((lcp, rows))
}

/// Moves the bodies of `world` by `dx_k = (1/m_k) sum_c n_ck lambda_c`, without turning
/// them: the displacement of [`translating_lcp`]'s answer `lambda` (kg m).
fn displace_translating(
    world: &mut World,
    step: &StepProblem,
    rows: &LinearNormalRows,
    lambda: &DVector<f64>,
) {
    let a = &step.assembly;
    let mut dx = vec![Vector3::zeros(); a.dof_map().blocks()];
    for (row, &l) in rows.iter().zip(lambda.iter()) {
        for &(k, n) in row {
            dx[k] += n * (l * a.inverse_mass(k));
        }
    }
    for (k, d) in dx.iter().enumerate() {
        let i = a.dof_map().body(k);
        let body = &mut world.body_mut(i).expect("a body of the assembly").body;
        body.displace(d, &Vector3::zeros());
    }
}
// ANCHOR_END: translating

/// How a correction pass moves the bodies it pushes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Push {
    /// `dq = M^-1 J_n^T lambda`: translation and rotation, as Erleben 2007 eq. 46c and
    /// 2017 eq. 51 print it. The correction of the whole system.
    Turning,
    /// Translation only ([`translating_lcp`]): the default correction of one stack layer
    /// with its bottom fixed ([`Settings::vsp_layer_push`]). A push off a body's centre
    /// turns it; the points of its upper face that carry the next layer then move by the
    /// turn times their lever arm, which exceeds the push, so each layer would hand the
    /// next a larger penetration than it removed (the book's shock-propagation chapter
    /// measures it).
    Translating,
}

named!(Push {
    Turning => "turning",
    Translating => "translating",
});

/// One pass: the position LCP of `contacts` solved with the correction solver, and the
/// bodies moved as `push` says. Returns the iterations and the error.
pub(crate) fn pass(
    world: &mut World,
    contacts: Vec<WorldContact>,
    settings: &Settings,
    step_index: usize,
    push: Push,
) -> Result<(usize, f64), SimulationError> {
    let step = world
        .assemble(contacts, &settings.step_params(world))
        .map_err(SimulationError::world(step_index))?;
    let posed = match push {
        Push::Translating => translating_lcp(&step).map(|(lcp, rows)| (lcp, Some(rows))),
        Push::Turning => position_lcp(&step).map(|lcp| (lcp, None)),
    };
    let (lcp, rows) = posed.map_err(|e| SimulationError::Solve {
        step: step_index,
        stage: "correction",
        message: e.to_string(),
    })?;
    let (lambda, summary) = registry_solve(
        &AnyProblem::Lcp(lcp),
        &settings.correction_method,
        DVector::zeros(step.contacts.len()),
        &settings.correction_params,
        Stage::new("correction", step_index),
    )?;
    match rows {
        Some(rows) => displace_translating(world, &step, &rows, &lambda),
        None => displace(world, &step, &lambda),
    }
    Ok((summary.iterations, summary.error))
}

/// Collision detection as the stepper runs it (timed by the stepper).
pub type Detect<'a> = dyn FnMut(&World) -> Result<Vec<WorldContact>, SimulationError> + 'a;

/// Passes while a contact penetrates more than `tolerance`, at most `max_passes`, with
/// collision detection after each. Returns the summary and the contacts at the final
/// poses (`contacts` themselves when no pass was made).
fn passes(
    world: &mut World,
    contacts: Vec<WorldContact>,
    settings: &Settings,
    step_index: usize,
    detect: &mut Detect<'_>,
    (max_passes, tolerance): (usize, f64),
) -> Result<(CorrectionSummary, Vec<WorldContact>), SimulationError> {
    let mut s = CorrectionSummary {
        penetration_before: worst_penetration(&contacts),
        ..Default::default()
    };
    let mut contacts = contacts;
    while s.passes < max_passes && worst_penetration(&contacts) > tolerance {
        let t0 = Instant::now();
        let (it, err) = pass(world, contacts, settings, step_index, Push::Turning)?;
        s.seconds += t0.elapsed().as_secs_f64();
        s.passes += 1;
        s.iterations += it;
        s.error = err;
        contacts = detect(world)?;
    }
    Ok((s, contacts))
}

// ANCHOR: projection
/// The projection of Erleben 2007 eq. 46: one pass over `contacts` (found at the
/// current poses of `world`) if any of them penetrates, with the correction solver's
/// budget ([`Settings::correction_params`]; 5 sweeps by
/// [`Settings::with_correction`]). Returns the summary and the contacts at the final
/// poses (`detect` is called again only if bodies moved).
///
/// # Errors
/// [`SimulationError`] from the assembly, the correction solver or `detect`.
pub fn projection(
    world: &mut World,
    contacts: Vec<WorldContact>,
    settings: &Settings,
    step_index: usize,
    detect: &mut Detect<'_>,
) -> Result<(CorrectionSummary, Vec<WorldContact>), SimulationError> {
    passes(world, contacts, settings, step_index, detect, (1, 0.0))
}
// ANCHOR_END: projection

// ANCHOR: post_stabilise
/// The post-stabilisation of Erleben 2017 eq. 43-51: passes while a contact penetrates
/// more than [`Settings::stabilisation_tolerance`], at most
/// [`Settings::stabilisation_passes`], with collision detection (`detect`, which also
/// reports its own time) after each pass.
///
/// # Errors
/// [`SimulationError`] from collision detection, the assembly or the solver.
pub fn post_stabilise(
    world: &mut World,
    contacts: Vec<WorldContact>,
    settings: &Settings,
    step_index: usize,
    detect: &mut Detect<'_>,
) -> Result<(CorrectionSummary, Vec<WorldContact>), SimulationError> {
    let budget = (
        settings.stabilisation_passes,
        settings.stabilisation_tolerance,
    );
    passes(world, contacts, settings, step_index, detect, budget)
}
// ANCHOR_END: post_stabilise
