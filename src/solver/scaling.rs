//! Solving a problem whose numbers are far from order one (`q ~ 1e200`, `W ~ 1e-310`) by
//! exact power-of-two rescaling: see [`solve_scaled`].

use std::ops::ControlFlow;

use nalgebra::DVector;

use super::{Iterate, Params, SolveError, Solved, Status};
use crate::matrix::Matrix;
use crate::merit::{Measure, Residual};
use crate::problem::AnyProblem;
use crate::problem::{Block, GenericMechanical};
use crate::problem::{
    BoxedLcp, FrictionContact, GlobalFrictionContact, Lcp, ProblemError, RowBound,
};

/// Data within `2^-SCALE_WINDOW ..= 2^SCALE_WINDOW` (about `1e-30 ..= 1e30`) are solved as
/// given; see [`solve`](crate::registry::solve).
pub const SCALE_WINDOW: i32 = 100;

/// `x 2^k`, exact unless the result overflows or is subnormal (`k` may exceed the range of
/// one power of two: `2^1061` is applied as `2^1000 2^61`).
pub fn mul_pow2(mut x: f64, mut k: i32) -> f64 {
    let step = |k: i32| f64::from_bits(((k + 1023) as u64) << 52);
    while k > 1000 {
        x *= step(1000);
        k -= 1000;
    }
    while k < -1000 {
        x *= step(-1000);
        k += 1000;
    }
    x * step(k)
}

/// `floor(log2 m)` for a finite `m > 0` (subnormals included).
fn exponent(m: f64) -> Option<i32> {
    (m > 0.0 && m.is_finite()).then(|| m.log2().floor() as i32)
}

/// The largest magnitude among the entries of `v`.
fn max_abs<'a>(v: impl IntoIterator<Item = &'a f64>) -> f64 {
    v.into_iter()
        .filter(|x| x.is_finite())
        .fold(0.0f64, |m, x| m.max(x.abs()))
}

/// How [`solve`] rescales a problem: the operator (`A`, `W`) by `2^op` and the vectors
/// in the units of `q` (`q`, `b`) by `2^rhs`; the answer is then `2^(op - rhs)` times
/// the scaled problem's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Scaling {
    op: i32,
    rhs: i32,
}

impl Scaling {
    fn none(self) -> bool {
        self.op == 0 && self.rhs == 0
    }

    /// From the scaled problem's answer to the original's.
    fn answer(self, t: f64) -> f64 {
        mul_pow2(t, self.op - self.rhs)
    }
}

/// The [`Scaling`] [`solve`] applies. None when the data is within the window. When only
/// the vectors are out of range: the `2^rhs` that brings the largest entry of `q` (`b`) to
/// `[1, 2)` while keeping the solution's estimated size (`max |q| / max |W_ii|`) inside
/// the window too. When the operator's diagonal is out of range (`W = 1e-310 I`), a local
/// or LCP problem also has its operator brought to `[1, 2)` (not a global one).
pub(crate) fn scaling(problem: &AnyProblem) -> Scaling {
    let none = Scaling { op: 0, rhs: 0 };
    let (rhs, op) = match problem {
        AnyProblem::Lcp(p) => (max_abs(p.b().iter()), max_abs(p.a().diagonal().iter())),
        AnyProblem::Boxed(p) => {
            let bounds = p.row_bounds().iter().flat_map(|b| match *b {
                RowBound::Fixed { lo, hi } => [lo, hi],
                RowBound::Friction { .. } => [0.0, 0.0],
            });
            let m = max_abs(p.b().iter()).max(max_abs(bounds.collect::<Vec<_>>().iter()));
            (m, max_abs(p.a().diagonal().iter()))
        }
        AnyProblem::Friction(p) => (max_abs(p.q().iter()), max_abs(p.w().diagonal().iter())),
        AnyProblem::Generic(p) => {
            let bounds = p.blocks().iter().flat_map(|b| match *b {
                Block::Interval { lo, hi } => [lo, hi],
                _ => [0.0, 0.0],
            });
            let m = max_abs(p.q().iter()).max(max_abs(bounds.collect::<Vec<_>>().iter()));
            (m, max_abs(p.w().diagonal().iter()))
        }
        AnyProblem::Global(p) => {
            // W = H^T M^-1 H is not formed: its size is about max|H|² / max|M_ii|, and
            // the free local velocity about max|b| + max|H| max|q| / max|M_ii|.
            let mut h = 0.0f64;
            for i in 0..p.h().nrows() {
                p.h().for_each_in_row(i, |_, v| {
                    if v.is_finite() {
                        h = h.max(v.abs());
                    }
                });
            }
            let m = max_abs(p.m().diagonal().iter());
            if m > 0.0 {
                let q = max_abs(p.q().iter()) / m * h;
                (max_abs(p.b().iter()).max(q), h / m * h)
            } else {
                (max_abs(p.b().iter()), 0.0)
            }
        }
    };
    let Some(lq) = exponent(rhs) else {
        return none;
    };
    let lw = exponent(op).unwrap_or(0);
    let inside = |l: i32| l.abs() <= SCALE_WINDOW;
    if !inside(lw) {
        return match problem {
            AnyProblem::Global(_) => none,
            _ => Scaling { op: -lw, rhs: -lq },
        };
    }
    // log2 of the solution's size
    let lr = lq - lw;
    if inside(lq) && inside(lr) {
        return none;
    }
    // k with both lq + k and lr + k in the window, nearest -lq (q to [1, 2))
    let lo = (-SCALE_WINDOW - lq).max(-SCALE_WINDOW - lr);
    let hi = (SCALE_WINDOW - lq).min(SCALE_WINDOW - lr);
    if lo > hi {
        none
    } else {
        Scaling {
            op: 0,
            rhs: (-lq).clamp(lo, hi),
        }
    }
}

/// The problem with its operator multiplied by `2^op` and its vectors in the units of `q`
/// (`q`, `b`) by `2^rhs`; fixed bounds (in the units of the answer) by `2^(rhs - op)`.
fn scaled_problem(problem: &AnyProblem, s: Scaling) -> Result<AnyProblem, ProblemError> {
    let v = |x: &DVector<f64>| x.map(|t| mul_pow2(t, s.rhs));
    let op = |m: &Matrix| {
        let mut m = m.clone();
        match &mut m {
            Matrix::Dense(d) => d.apply(|t| *t = mul_pow2(*t, s.op)),
            Matrix::Sparse(c) => c
                .values_mut()
                .iter_mut()
                .for_each(|t| *t = mul_pow2(*t, s.op)),
        }
        m
    };
    Ok(match problem {
        AnyProblem::Lcp(p) => AnyProblem::Lcp(Lcp::new(op(p.a()), v(p.b()))?),
        AnyProblem::Boxed(p) => {
            let bounds = p
                .row_bounds()
                .iter()
                .map(|b| match *b {
                    RowBound::Fixed { lo, hi } => RowBound::Fixed {
                        lo: mul_pow2(lo, s.rhs - s.op),
                        hi: mul_pow2(hi, s.rhs - s.op),
                    },
                    f => f,
                })
                .collect();
            AnyProblem::Boxed(BoxedLcp::new(op(p.a()), v(p.b()), bounds)?)
        }
        AnyProblem::Friction(p) => AnyProblem::Friction(FrictionContact::new(
            op(p.w()),
            v(p.q()),
            p.mu().clone(),
            p.kind(),
        )?),
        AnyProblem::Generic(p) => {
            let blocks = p
                .blocks()
                .iter()
                .map(|b| match *b {
                    Block::Interval { lo, hi } => Block::Interval {
                        lo: mul_pow2(lo, s.rhs - s.op),
                        hi: mul_pow2(hi, s.rhs - s.op),
                    },
                    ref other => other.clone(),
                })
                .collect();
            AnyProblem::Generic(GenericMechanical::new(
                op(p.w()),
                v(p.q()),
                blocks,
                p.kind(),
            )?)
        }
        AnyProblem::Global(p) => AnyProblem::Global(GlobalFrictionContact::new(
            p.m().clone(),
            p.h().clone(),
            v(p.q()),
            v(p.b()),
            p.mu().clone(),
            p.kind(),
        )?),
    })
}

/// Runs `run` on `problem` from the warm start `x` (answer out), rescaled when its data is
/// far from order one.
///
/// A problem whose data is far from order one (`‖q‖ ~ 1e200` or `1e-300`) would overflow
/// or underflow inside the solvers (squares of `1e160` are infinite). When the largest
/// entry of `q` (`b` for LCPs, with the fixed bounds of a boxed LCP), or the size of the
/// solution it implies with the operator's diagonal, lies outside `2^±`[`SCALE_WINDOW`],
/// the problem is solved with those vectors multiplied by the power of two `2^k` that
/// brings them to order one, and the answer is multiplied back by `2^-k`. Both are exact
/// (no rounding) unless an entry under- or overflows, and the relative errors of the
/// scaled problem are exactly the original's (the absolute ones scale by `2^k`, and so
/// does an absolute tolerance). When the operator's diagonal itself is out of the window
/// (`W = 1e-310 I`) the operator of a local or LCP problem is brought to order one as
/// well (the answer then scales by the ratio of the two factors; the errors, which mix
/// the units of the answer and of `q`, are those of the scaled problem during the solve).
/// In every case the answer is measured again on the original problem (`measure`), the
/// errors reported (result, history, observer) are the original's, the observer sees the
/// answer in the original units, and "converged" is granted only if the answer meets the
/// tolerance on the original problem. Problems within the window are solved as given.
/// The error measure of the original problem.
pub(crate) type MeasureFn<'a> =
    &'a dyn Fn(&AnyProblem, &DVector<f64>) -> Result<Residual, SolveError>;

/// One solve of a (possibly rescaled) problem.
pub(crate) type RunFn<'a, S> = &'a mut dyn FnMut(
    &AnyProblem,
    &mut DVector<f64>,
    &Params,
    &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<Solved<S>, SolveError<S>>;

pub(crate) fn solve_scaled<S>(
    problem: &AnyProblem,
    x: &mut DVector<f64>,
    params: &Params,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
    measure: MeasureFn<'_>,
    run: RunFn<'_, S>,
) -> Result<Solved<S>, SolveError<S>> {
    let s = scaling(problem);
    if s.none() {
        return run(problem, x, params, observer);
    }
    let Ok(scaled) = scaled_problem(problem, s) else {
        return run(problem, x, params, observer);
    };
    // the factor of the absolute errors when only the vectors were scaled
    let factor = mul_pow2(1.0, s.rhs);
    let exact = s.op == 0;
    let scaled_params = Params {
        tol: match params.measure {
            Measure::Absolute if exact => mul_pow2(params.tol, s.rhs),
            _ => params.tol,
        },
        ..params.clone()
    };
    let mut back = DVector::zeros(problem.dim());
    // the original's errors at the observed iterations (when the operator was scaled)
    let mut seen: Vec<(usize, Residual)> = Vec::new();
    let mut wrapped = |it: &Iterate| {
        back.copy_from(it.x);
        back.apply(|t| *t = s.answer(*t));
        let error = match it.error {
            Some(e) if exact => Some(e.unscaled(factor)),
            Some(_) => measure(problem, &back).ok().inspect(|e| {
                seen.push((it.iteration, *e));
            }),
            None => None,
        };
        observer(&Iterate {
            iteration: it.iteration,
            x: &back,
            error,
        })
    };
    // the warm start in the scaled problem's units
    let zero_error = measure(problem, &x.map(|_| 0.0)).ok();
    let start_error = measure(problem, x).ok();
    x.apply(|t| *t = mul_pow2(*t, s.rhs - s.op));
    let result = run(&scaled, x, &scaled_params, &mut wrapped);
    x.apply(|t| *t = s.answer(*t));
    let fix = |info: &mut Solved<S>, error: Residual| {
        info.error = error;
        for h in &mut info.history {
            h.error = if exact {
                h.error.unscaled(factor)
            } else if h.iteration == 0 {
                start_error.or(zero_error).unwrap_or(h.error)
            } else {
                seen.iter()
                    .rev()
                    .find(|(i, _)| *i == h.iteration)
                    .map_or(h.error, |(_, e)| *e)
            };
        }
    };
    let measured = measure(problem, x);
    match (result, measured) {
        (Ok(mut info), Ok(e)) => {
            fix(&mut info, e);
            if info.status == Status::Converged && !e.meets(params.tol, params.measure) {
                info.status = Status::MaxIterations;
                Err(SolveError::NoConvergence(Box::new(info)))
            } else {
                Ok(info)
            }
        }
        (Err(SolveError::NoConvergence(mut info)), Ok(e)) => {
            fix(&mut info, e);
            Err(SolveError::NoConvergence(info))
        }
        (Err(SolveError::Diverged { iteration, error }), _) if exact => Err(SolveError::Diverged {
            iteration,
            error: error.unscaled(factor),
        }),
        // the last finite iterate, measured on the original
        (Err(SolveError::Diverged { iteration, .. }), Ok(e)) => Err(SolveError::Diverged {
            iteration,
            error: e,
        }),
        (r, _) => r,
    }
}
