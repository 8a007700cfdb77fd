//! An independent judge of a "converged" answer, written apart from `nonsmooth::merit` so
//! that it does not share its mistakes: it rescales the problem by a power of two before
//! measuring (no underflow or overflow in the norms), never falls back from a relative to
//! an absolute error, and checks the normal condition (no penetration) on its own, so
//! that a friction coefficient large enough to swallow `u_n` cannot hide it.

use nalgebra::DVector;
use nonsmooth::problem::AnyProblem;
use nonsmooth::problem::{Block, FrictionKind, RowBound};

/// How far the judge lets an answer be from the claimed tolerance (different norms and
/// rounding): an answer is wrong when an error exceeds `SLACK * tol`.
pub const SLACK: f64 = 10.0;

/// `2^-e` where `2^e` is about the largest magnitude among the slices: multiplying by it
/// is exact and brings the data to order one.
fn scale_of(parts: &[&[f64]]) -> f64 {
    let m = parts
        .iter()
        .flat_map(|p| p.iter())
        .fold(0.0f64, |a, &x| a.max(x.abs()));
    if m == 0.0 || !m.is_finite() {
        return 1.0;
    }
    let e = m.log2().floor() as i32;
    2f64.powi(-e.clamp(-1000, 1000))
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// `A v` for a dense copy of `A` (the judge's problems are small).
fn matvec(a: &nalgebra::DMatrix<f64>, v: &[f64]) -> Vec<f64> {
    (0..a.nrows())
        .map(|i| (0..a.ncols()).map(|j| a[(i, j)] * v[j]).sum())
        .collect()
}

/// The projection onto `{(n, t): |t| <= mu n}`, stable for huge `mu`.
fn project_cone(x: [f64; 3], mu: f64) -> [f64; 3] {
    let t = x[1].hypot(x[2]);
    if t <= mu * x[0] {
        return x;
    }
    if mu * t <= -x[0] || (mu == 0.0 && x[0] <= 0.0) {
        return [0.0, 0.0, 0.0];
    }
    if mu == 0.0 {
        return [x[0], 0.0, 0.0];
    }
    // alpha = (x_n + mu t) / (1 + mu^2), written to avoid mu^2 overflowing.
    let (pn, pt) = if mu <= 1.0 {
        let alpha = (x[0] + mu * t) / (1.0 + mu * mu);
        (alpha, mu * alpha)
    } else {
        let pt = (x[0] / mu + t) / (1.0 + 1.0 / (mu * mu));
        (pt / mu, pt)
    };
    [pn, pt * x[1] / t, pt * x[2] / t]
}

/// `Some(reason)` if `x` is not a solution of `problem` (with friction law `kind`) to
/// `SLACK * tol`, judged independently.
pub fn wrong(
    problem: &AnyProblem,
    x: &DVector<f64>,
    kind: Option<FrictionKind>,
    tol: f64,
) -> Option<String> {
    if x.iter().any(|v| !v.is_finite()) {
        return Some("the answer has a non-finite entry".into());
    }
    let limit = SLACK * tol;
    match problem {
        AnyProblem::Generic(g) => {
            let w = g.w().to_dense();
            let blocks: Vec<Law> = g
                .blocks()
                .iter()
                .map(|b| match b {
                    Block::Equality => Law::Equality,
                    Block::Unilateral => Law::Unilateral,
                    Block::Interval { lo, hi } => Law::Interval(*lo, *hi),
                    Block::Contact { mu } => Law::Contact(mu.clone()),
                })
                .collect();
            let k = kind.unwrap_or(g.kind());
            generic(&w, g.q().as_slice(), &blocks, x, k, limit)
        }
        AnyProblem::Lcp(p) => {
            let a = p.a().to_dense();
            let s = scale_of(&[p.b().as_slice(), x.as_slice()]);
            let xs: Vec<f64> = x.iter().map(|v| v * s).collect();
            let bs: Vec<f64> = p.b().iter().map(|v| v * s).collect();
            let w: Vec<f64> = matvec(&a, &xs)
                .iter()
                .zip(&bs)
                .map(|(u, b)| u + b)
                .collect();
            let e: Vec<f64> = xs.iter().zip(&w).map(|(x, w)| x.min(*w)).collect();
            let denom = [norm(&bs), norm(&xs), norm(&w)]
                .into_iter()
                .find(|d| *d > 0.0)
                .unwrap_or(1.0);
            let rel = norm(&e) / denom;
            (rel > limit).then(|| format!("LCP: ‖min(x, Ax + b)‖ / ‖b‖ = {rel:.3e}"))
        }
        AnyProblem::Boxed(p) => {
            let a = p.a().to_dense();
            let s = scale_of(&[p.b().as_slice(), x.as_slice()]);
            let xs: Vec<f64> = x.iter().map(|v| v * s).collect();
            let bs: Vec<f64> = p.b().iter().map(|v| v * s).collect();
            let w: Vec<f64> = matvec(&a, &xs)
                .iter()
                .zip(&bs)
                .map(|(u, b)| u + b)
                .collect();
            let e: Vec<f64> = (0..xs.len())
                .map(|i| {
                    let (lo, hi) = match p.row_bounds()[i] {
                        RowBound::Fixed { lo, hi } => (lo * s, hi * s),
                        RowBound::Friction { dep, factor } => {
                            (-factor * xs[dep].max(0.0), factor * xs[dep].max(0.0))
                        }
                    };
                    (xs[i] - lo).min((xs[i] - hi).max(w[i]))
                })
                .collect();
            let denom = [norm(&bs), norm(&xs), norm(&w)]
                .into_iter()
                .find(|d| *d > 0.0)
                .unwrap_or(1.0);
            let rel = norm(&e) / denom;
            (rel > limit).then(|| format!("boxed LCP: natural residual / ‖b‖ = {rel:.3e}"))
        }
        AnyProblem::Friction(p) => {
            let w = p.w().to_dense();
            let u = |r: &[f64], q: &[f64]| -> Vec<f64> {
                matvec(&w, r).iter().zip(q).map(|(a, b)| a + b).collect()
            };
            let k = kind.unwrap_or(p.kind());
            friction(p.q().as_slice(), p.mu().as_slice(), x, &u, k, limit)
        }
        AnyProblem::Global(g) => {
            // In velocity space, without forming W: v = M^-1 (H r + q), u = H^T v + b. The
            // local form's q is H^T M^-1 q + b; `u` receives r and q scaled alike.
            let (m, h) = (g.m().to_dense(), g.h().to_dense());
            let Some(chol) = m.clone().cholesky() else {
                return Some(
                    "converged on a global problem whose M is not positive definite".into(),
                );
            };
            let local_q = h.transpose() * chol.solve(g.q()) + g.b();
            let s = scale_of(&[local_q.as_slice(), x.as_slice()]);
            let u = |r: &[f64], _q: &[f64]| -> Vec<f64> {
                let rs = DVector::from_column_slice(r);
                let v = chol.solve(&(&h * rs + g.q() * s));
                (h.transpose() * v + g.b() * s).iter().copied().collect()
            };
            let k = kind.unwrap_or(g.kind());
            friction(local_q.as_slice(), g.mu().as_slice(), x, &u, k, limit)
        }
    }
}

/// Judges `r` on a friction problem with free velocity `q`, whose velocity is
/// `u_of(r', q')` for `r` and `q` scaled by the same power of two (which brings them to
/// order one).
fn friction(
    q: &[f64],
    mu: &[f64],
    r: &DVector<f64>,
    u_of: &dyn Fn(&[f64], &[f64]) -> Vec<f64>,
    kind: FrictionKind,
    limit: f64,
) -> Option<String> {
    let s = scale_of(&[q, r.as_slice()]);
    let rs: Vec<f64> = r.iter().map(|v| v * s).collect();
    let qs: Vec<f64> = q.iter().map(|v| v * s).collect();
    let u = u_of(&rs, &qs);
    let denom = [norm(&qs), norm(&rs), norm(&u)]
        .into_iter()
        .fold(0.0f64, f64::max);
    let denom = if denom > 0.0 { denom } else { 1.0 };
    let mut e2 = 0.0;
    let mut pen2 = 0.0;
    for (c, &mu) in mu.iter().enumerate() {
        let k = 3 * c;
        let rc = [rs[k], rs[k + 1], rs[k + 2]];
        let uc = [u[k], u[k + 1], u[k + 2]];
        let shift = match kind {
            FrictionKind::Coulomb => mu * uc[1].hypot(uc[2]),
            FrictionKind::Ccp => 0.0,
        };
        let pr = project_cone([rc[0] - uc[0] - shift, rc[1] - uc[1], rc[2] - uc[2]], mu);
        e2 += (0..3).map(|i| (rc[i] - pr[i]).powi(2)).sum::<f64>();
        // The normal condition on its own: no penetration, no pulling.
        pen2 += (-uc[0]).max(0.0).powi(2) + (-rc[0]).max(0.0).powi(2);
    }
    let rel = e2.sqrt() / denom;
    let pen = pen2.sqrt() / denom;
    if rel > limit {
        Some(format!(
            "{} natural map / max(‖q‖, ‖r‖, ‖u‖) = {rel:.3e}",
            kind.name()
        ))
    } else if pen > limit {
        Some(format!(
            "normal condition violated: ‖max(0, -u_n)‖ / max(‖q‖, ‖r‖, ‖u‖) = {pen:.3e}"
        ))
    } else {
        None
    }
}

/// A block's law, copied out of the library's type so that the judge reads only numbers.
enum Law {
    Equality,
    Unilateral,
    Interval(f64, f64),
    Contact(Vec<f64>),
}

/// Judges `r` on a generic mechanical problem block by block, after scaling `q` and `r`
/// (and the bounds) by one power of two: an equality row needs `u = 0`; a unilateral row
/// `min(r, u) = 0`; an interval row the box residual `min(r - lo, max(r - hi, u)) = 0` (as
/// the boxed LCP above); a contact `[n, t_1..t_k]` with coefficients `mu` needs `r` in the
/// elliptic cone (`mu_min · max(0, sqrt(Σ (r_ti/mu_i)²) - r_n)`, plus `|r_ti|` where
/// `mu_i = 0`), `û` (De Saxcé's `u + ‖(mu_i u_ti)‖ e_n` for Coulomb, `u` for the CCP) in
/// the dual cone (`max(0, ‖(mu_i û_ti)‖ - û_n)`) and `|r · û|` zero (divided by the
/// square of the scale, as it is a product). Every term is divided by
/// `max(‖q‖, ‖r‖, ‖u‖)`; the normal condition (`u_n >= 0`, `r_n >= 0` on unilateral rows
/// and contact normals) is checked on its own.
fn generic(
    w: &nalgebra::DMatrix<f64>,
    q: &[f64],
    blocks: &[Law],
    r: &DVector<f64>,
    kind: FrictionKind,
    limit: f64,
) -> Option<String> {
    let s = scale_of(&[q, r.as_slice()]);
    let rs: Vec<f64> = r.iter().map(|v| v * s).collect();
    let qs: Vec<f64> = q.iter().map(|v| v * s).collect();
    let u: Vec<f64> = matvec(w, &rs).iter().zip(&qs).map(|(a, b)| a + b).collect();
    let denom = [norm(&qs), norm(&rs), norm(&u)]
        .into_iter()
        .fold(0.0f64, f64::max);
    let denom = if denom > 0.0 { denom } else { 1.0 };
    let mut worst: Option<(f64, String)> = None;
    let mut note = |value: f64, what: String| {
        if value > limit && worst.as_ref().is_none_or(|(v, _)| value > *v) {
            worst = Some((value, what));
        }
    };
    let mut pen2 = 0.0;
    let mut row = 0;
    for (b, law) in blocks.iter().enumerate() {
        let (x, v) = (rs[row], u[row]);
        match law {
            Law::Equality => {
                note(
                    v.abs() / denom,
                    format!("block {b} (equality): |u| = {v:.3e}"),
                );
                row += 1;
            }
            Law::Unilateral => {
                let e = x.min(v).abs() / denom;
                note(
                    e,
                    format!("block {b} (unilateral): |min(r, u)| / scale = {e:.3e}"),
                );
                pen2 += (-v).max(0.0).powi(2) + (-x).max(0.0).powi(2);
                row += 1;
            }
            Law::Interval(lo, hi) => {
                let (lo, hi) = (lo * s, hi * s);
                let e = (x - lo).min((x - hi).max(v)).abs() / denom;
                note(
                    e,
                    format!("block {b} (interval): box residual / scale = {e:.3e}"),
                );
                row += 1;
            }
            Law::Contact(mu) => {
                let k = mu.len();
                let rc = &rs[row..row + 1 + k];
                let uc = &u[row..row + 1 + k];
                let shift = match kind {
                    FrictionKind::Coulomb => norm(
                        &mu.iter()
                            .zip(&uc[1..])
                            .map(|(m, t)| m * t)
                            .collect::<Vec<_>>(),
                    ),
                    FrictionKind::Ccp => 0.0,
                };
                let mut uh = uc.to_vec();
                uh[0] += shift;
                // r in the elliptic cone
                let mu_min = mu.iter().copied().fold(f64::INFINITY, f64::min);
                let scaled: Vec<f64> = mu
                    .iter()
                    .zip(&rc[1..])
                    .filter(|(m, _)| **m > 0.0)
                    .map(|(m, t)| t / m)
                    .collect();
                let outside: f64 = mu
                    .iter()
                    .zip(&rc[1..])
                    .filter(|(m, _)| **m == 0.0)
                    .map(|(_, t)| t * t)
                    .sum::<f64>()
                    .sqrt();
                let cone = (mu_min * (norm(&scaled) - rc[0]).max(0.0) + outside) / denom;
                note(
                    cone,
                    format!("block {b} (contact): r outside its cone by {cone:.3e}"),
                );
                // û in the dual cone
                let t: Vec<f64> = mu.iter().zip(&uh[1..]).map(|(m, t)| m * t).collect();
                let dual = (norm(&t) - uh[0]).max(0.0) / denom;
                let which = match kind {
                    FrictionKind::Coulomb => "û",
                    FrictionKind::Ccp => "u",
                };
                note(
                    dual,
                    format!("block {b} (contact): {which} outside the dual cone by {dual:.3e}"),
                );
                // complementarity r · û
                let dot: f64 = rc.iter().zip(&uh).map(|(a, b)| a * b).sum();
                let comp = dot.abs() / (denom * denom);
                note(
                    comp,
                    format!("block {b} (contact): |r · {which}| / scale² = {comp:.3e}"),
                );
                pen2 += (-uc[0]).max(0.0).powi(2) + (-rc[0]).max(0.0).powi(2);
                row += 1 + k;
            }
        }
    }
    let pen = pen2.sqrt() / denom;
    if let Some((_, what)) = worst {
        Some(format!("{} generic problem: {what}", kind.name()))
    } else if pen > limit {
        Some(format!(
            "normal condition violated: ‖max(0, -u_n)‖ / max(‖q‖, ‖r‖, ‖u‖) = {pen:.3e}"
        ))
    } else {
        None
    }
}
