//! The one-contact problem, solved exactly: the inner step of the blocked Gauss-Seidel.
//!
//! With the other contacts frozen, contact `c` sees `u = W_cc r + q̃` with the 3x3
//! diagonal block `W_cc` and `q̃ = q_c + Σ_{d≠c} W_cd r_d`. Its solution is one of three
//! cases (Coulomb: Alart and Curnier 1991; De Saxce and Feng 1998):
//!
//! * **take-off** `r = 0`: valid when `q̃` already satisfies the law with no force
//!   (Coulomb: `q̃_n >= 0`; CCP: `q̃ ∈ K_mu*`);
//! * **stick** `u = 0`: `r = -W_cc^-1 q̃`, valid when it lies in the cone `K_mu`;
//! * **slide** `r` on the cone's boundary, `r = xi (1, mu cos θ, mu sin θ)`, `xi > 0`,
//!   and `u = s (kappa, -cos θ, -sin θ)`, `s >= 0`: the velocity on the dual cone's
//!   boundary ray orthogonal to `r`, with `kappa = 0` for Coulomb (the De Saxce term
//!   cancels the normal velocity: a sliding contact stays closed) and `kappa = mu` for CCP
//!   (a sliding contact separates at `u_n = mu ‖u_t‖`).
//!
//! The slide case is three equations `xi a(θ) - s h(θ) = -q̃` with
//! `a(θ) = W_cc (1, mu cos θ, mu sin θ)` and `h(θ) = (kappa, -cos θ, -sin θ)` in three
//! unknowns. For fixed `θ` it is solvable iff `q̃` lies in the plane of `a` and `h`:
//!
//! ```text
//! F(θ) = det[a(θ), h(θ), q̃] = 0,
//! ```
//!
//! a trigonometric polynomial of degree two in `θ`. With `t = tan(θ/2)` it becomes a quartic,
//! whose real roots (companion matrix eigenvalues) are polished by Newton's method on
//! `F(θ)` itself; `xi` and `s` then follow from the 3x2 system. Every candidate is checked
//! by the contact's natural-map residual, so the answer is exact to rounding.
//! This is the enumerative approach of Siconos's `FC3D_QUARTIC` local solver, derived here
//! for both laws at once.
//!
//! Checked by `tests/laws/contact_solver.rs`.

use nalgebra::{Matrix3, Vector3};

use crate::merit::natural_map_contact;
use crate::problem::FrictionKind;

/// Which case a one-contact solution is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContactCase {
    /// `r = 0`.
    TakeOff,
    /// `u = 0`, `r` inside the cone (or on it).
    Stick,
    /// `r` on the cone boundary, opposing the slip.
    Slide,
    /// No case gave an exact solution (singular or degenerate block): the best point found
    /// by a projected fixed-point iteration is returned with its residual.
    Fallback,
}

/// The answer of [`solve_contact`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactSolution {
    /// The reaction `[r_n, r_t1, r_t2]`.
    pub r: [f64; 3],
    /// Which case it is.
    pub case: ContactCase,
    /// Its natural-map residual `‖r - P_K(r - û)‖` (0 up to rounding unless `Fallback`).
    pub residual: f64,
}

/// Per-contact data the sweep reuses: the block and its inverse.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LocalBlock {
    pub w: Matrix3<f64>,
    pub w_inv: Option<Matrix3<f64>>,
    /// `‖W‖` (Frobenius), for the rounding scale of the slide residuals.
    pub w_norm: f64,
}

impl LocalBlock {
    pub(crate) fn new(w: Matrix3<f64>) -> Self {
        // Invert only a well-conditioned block: a nearly singular one gives a meaningless
        // stick solution, and the slide equations handle it instead.
        let w_inv = w.try_inverse().filter(|inv| {
            let cond = w.norm() * inv.norm();
            cond.is_finite() && cond < 1e14
        });
        LocalBlock {
            w,
            w_inv,
            w_norm: w.norm(),
        }
    }
}

/// `sqrt(a² + b²)`: the plain formula when the sum of squares is safely in range (a few
/// times faster than `hypot`, within an ulp or two of it), `hypot` otherwise.
#[inline]
fn norm2(a: f64, b: f64) -> f64 {
    let s = a * a + b * b;
    if s.is_finite() && s >= 1e-290 {
        s.sqrt()
    } else {
        a.hypot(b)
    }
}

/// The natural-map residual `‖r - P_K(r - û)‖` of one contact, as
/// [`natural_map_contact`] computes it but with [`norm2`] for the tangential norms: the
/// acceptance test of the local solutions, which only compares it with a rounding scale.
#[inline]
fn natural_map_norm(r: [f64; 3], u: [f64; 3], mu: f64, kind: FrictionKind) -> f64 {
    let shift = match kind {
        FrictionKind::Coulomb => mu * norm2(u[1], u[2]),
        FrictionKind::Ccp => 0.0,
    };
    let x = [r[0] - (u[0] + shift), r[1] - u[1], r[2] - u[2]];
    let (xn, nt) = (x[0], norm2(x[1], x[2]));
    let k = 1.0 + mu * mu;
    let p = if nt <= mu * xn && xn >= 0.0 {
        x
    } else if mu * nt <= -xn {
        [0.0; 3]
    } else if k.is_finite() {
        let a = (xn + mu * nt) / k;
        let s = mu * a / nt;
        [a, s * x[1], s * x[2]]
    } else {
        let e = natural_map_contact(r, u, mu, kind);
        return (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]).sqrt();
    };
    let e = [r[0] - p[0], r[1] - p[1], r[2] - p[2]];
    (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]).sqrt()
}

fn residual_of(
    block: &LocalBlock,
    q: &Vector3<f64>,
    r: [f64; 3],
    mu: f64,
    kind: FrictionKind,
) -> f64 {
    let rv = Vector3::new(r[0], r[1], r[2]);
    let u = block.w * rv + q;
    natural_map_norm(r, [u[0], u[1], u[2]], mu, kind)
}

/// Solves one contact's frictional problem `u = W r + q`, `r ∈ K_mu`, with the
/// complementarity of `kind`, exactly (see the [module docs](crate::splitting::contact)).
///
/// `w` is the 3x3 Delassus block (symmetric positive definite assumed; a singular block
/// is handled by the slide equations or, failing those, a fallback iteration), `q` the
/// local free velocity, `mu >= 0`. When several solutions exist (Coulomb friction may
/// have more than one), the one closest to `warm` is returned, preferring take-off, then
/// stick.
///
/// ```
/// use nalgebra::{Matrix3, Vector3};
/// use nonsmooth::problem::FrictionKind;
/// use nonsmooth::splitting::{solve_contact, ContactCase};
/// // A block pushed down and sideways hard: it slides.
/// let s = solve_contact(&Matrix3::identity(), &Vector3::new(-1.0, 3.0, 0.0), 0.5,
///                       FrictionKind::Coulomb, [0.0; 3]);
/// assert_eq!(s.case, ContactCase::Slide);
/// assert!((s.r[0] - 1.0).abs() < 1e-14 && (s.r[1] + 0.5).abs() < 1e-14);
/// ```
pub fn solve_contact(
    w: &Matrix3<f64>,
    q: &Vector3<f64>,
    mu: f64,
    kind: FrictionKind,
    warm: [f64; 3],
) -> ContactSolution {
    solve_block(&LocalBlock::new(*w), q, mu, kind, warm, true)
}

/// As [`solve_contact`] with the block's inverse precomputed. With `measure = false` the
/// stick, frictionless and fast-path slide cases skip computing their residual (it is zero
/// up to rounding by construction, or bounded by the slide's acceptance test) and report 0:
/// the sweeps do not need it.
pub(crate) fn solve_block(
    block: &LocalBlock,
    q: &Vector3<f64>,
    mu: f64,
    kind: FrictionKind,
    warm: [f64; 3],
    measure: bool,
) -> ContactSolution {
    let residual_if = |r: [f64; 3]| {
        if measure {
            residual_of(block, q, r, mu, kind)
        } else {
            0.0
        }
    };
    // ANCHOR: take_off_stick
    // Take-off. A free velocity that underflows (below 1e-300) is zero for every purpose;
    // treating it so keeps subnormal noise out of the root finding.
    // (the norm only when the largest entry is small: a square root saved per call)
    if q.amax() < 1e-300 && q.norm() < 1e-300 {
        return ContactSolution {
            r: [0.0; 3],
            case: ContactCase::TakeOff,
            residual: q.norm(),
        };
    }
    let takeoff = match kind {
        FrictionKind::Coulomb => q[0] >= 0.0,
        FrictionKind::Ccp => mu * q[1].hypot(q[2]) <= q[0],
    };
    if takeoff {
        return ContactSolution {
            r: [0.0; 3],
            case: ContactCase::TakeOff,
            residual: 0.0,
        };
    }
    // Frictionless: the normal row alone (the tangential reaction is zero).
    if mu == 0.0 {
        let wnn = block.w[(0, 0)];
        if wnn > 0.0 {
            let r = [(-q[0] / wnn).max(0.0), 0.0, 0.0];
            let residual = residual_if(r);
            return ContactSolution {
                r,
                case: ContactCase::Stick,
                residual,
            };
        }
        return fallback(block, q, mu, kind, warm, None);
    }
    // Stick.
    let mut guess = None;
    if let Some(inv) = &block.w_inv {
        let r = -(inv * q);
        if r[0] > 0.0 && norm2(r[1], r[2]) <= mu * r[0] * (1.0 + 8.0 * f64::EPSILON) {
            let r = [r[0], r[1], r[2]];
            let residual = residual_if(r);
            return ContactSolution {
                r,
                case: ContactCase::Stick,
                residual,
            };
        }
        guess = unit(r[1], r[2]);
    }
    // ANCHOR_END: take_off_stick
    // Slide.
    let kappa = match kind {
        FrictionKind::Coulomb => 0.0,
        FrictionKind::Ccp => mu,
    };
    let poly = TrigPoly::new(&block.w, q, mu, kappa);
    let qn = q.norm();
    let wn = block.w_norm;
    // What rounding alone leaves in the natural map of a reaction r: eps (|q| + |r| + |W||r|).
    let scale = |r: &[f64; 3]| qn + (1.0 + wn) * Vector3::from(*r).norm();
    // Fast path: Newton on F from the previous direction of sliding (or the direction of
    // the rejected stick solution). In a converging sweep this lands on the root at once.
    // The answer is accepted when `u = W r + q` is `slip h(θ) + e` with `slip >= 0` and
    // `(1 + mu) ‖e‖ <= 1e-13 scale`: `r` is on the cone's boundary, so its natural-map
    // residual is then below `1e-13 scale` too (the map is `(1 + mu)`-Lipschitz in `u`),
    // which the exhaustive search below requires of its candidates.
    if let Some(d0) = unit(warm[1], warm[2]).or(guess) {
        let d = poly.polish(d0, true);
        if let Some(r) = slide_reaction(block, q, mu, kappa, d) {
            let u = block.w * Vector3::from(r) + q;
            let slip = -(u[1] * d[0] + u[2] * d[1]);
            let et = u[1] * d[1] - u[2] * d[0];
            let en = u[0] - kappa * slip;
            // `scale(&r)` with `‖r‖ = xi sqrt(1 + mu²)` bounded below by `xi max(1, mu)`
            // (a test at most √2 stricter, without a square root or a division)
            let tol = 1e-13 * (qn + (1.0 + wn) * r[0] * mu.max(1.0));
            let lip = 1.0 + mu;
            if slip >= 0.0 && lip * lip * (et * et + en * en) <= tol * tol {
                return ContactSolution {
                    r,
                    case: ContactCase::Slide,
                    residual: residual_if(r),
                };
            }
        }
    }
    // Every root of the quartic, then (if none is valid) a grid search as a safety net.
    let mut best = best_candidate(
        block,
        q,
        mu,
        kind,
        kappa,
        warm,
        &scale,
        poly.quartic_roots(),
    );
    if best.is_none_or(|b| b.residual > 1e-13 * scale(&b.r)) {
        let grid = best_candidate(block, q, mu, kind, kappa, warm, &scale, poly.grid_roots());
        best = match (best, grid) {
            (Some(a), Some(b)) => Some(if b.residual < a.residual { b } else { a }),
            (a, b) => a.or(b),
        };
    }
    match best {
        Some(b) if b.residual <= 1e-10 * scale(&b.r) => b,
        other => fallback(block, q, mu, kind, warm, other),
    }
}

/// The valid slide solution with the smallest residual among the root directions `dirs`; ties
/// (equal residuals to rounding) go to the one nearest `warm`.
#[allow(clippy::too_many_arguments)]
fn best_candidate(
    block: &LocalBlock,
    q: &Vector3<f64>,
    mu: f64,
    kind: FrictionKind,
    kappa: f64,
    warm: [f64; 3],
    scale: &dyn Fn(&[f64; 3]) -> f64,
    dirs: Vec<[f64; 2]>,
) -> Option<ContactSolution> {
    let mut best: Option<ContactSolution> = None;
    for d in dirs {
        let Some(r) = slide_reaction(block, q, mu, kappa, d) else {
            continue;
        };
        let residual = residual_of(block, q, r, mu, kind);
        let cand = ContactSolution {
            r,
            case: ContactCase::Slide,
            residual,
        };
        let better = match best {
            None => true,
            Some(b) => {
                let tie = 1e-13 * scale(&cand.r).max(scale(&b.r));
                cand.residual + tie < b.residual
                    || ((cand.residual - b.residual).abs() <= tie
                        && dist2(cand.r, warm) < dist2(b.r, warm))
            }
        };
        if better {
            best = Some(cand);
        }
    }
    best
}

fn dist2(a: [f64; 3], b: [f64; 3]) -> f64 {
    (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)
}

/// The coefficients of `F(θ) = k0 + c1 cos + s1 sin + c2 cos² + s2 sin² + cs cos sin`.
#[derive(Debug, Clone, Copy)]
struct TrigPoly {
    k0: f64,
    c1: f64,
    s1: f64,
    c2: f64,
    s2: f64,
    cs: f64,
}

impl TrigPoly {
    // ANCHOR: trig_poly
    /// `F(θ) = a(θ) · (h(θ) × q)` expanded (see the module docs).
    fn new(w: &Matrix3<f64>, q: &Vector3<f64>, mu: f64, kappa: f64) -> Self {
        let w0 = w.column(0).into_owned();
        let w1 = w.column(1).into_owned();
        let w2 = w.column(2).into_owned();
        // p_k = e_k × q
        let p0 = Vector3::new(0.0, -q[2], q[1]);
        let p1 = Vector3::new(q[2], 0.0, -q[0]);
        let p2 = Vector3::new(-q[1], q[0], 0.0);
        TrigPoly {
            k0: kappa * w0.dot(&p0),
            c1: -w0.dot(&p1) + mu * kappa * w1.dot(&p0),
            s1: -w0.dot(&p2) + mu * kappa * w2.dot(&p0),
            c2: -mu * w1.dot(&p1),
            s2: -mu * w2.dot(&p2),
            cs: -mu * (w1.dot(&p2) + w2.dot(&p1)),
        }
    }

    // ANCHOR_END: trig_poly
    fn value(&self, th: f64) -> f64 {
        let (s, c) = th.sin_cos();
        self.at([c, s])
    }

    /// `F` at the direction `d = (cos θ, sin θ)`.
    #[inline]
    fn at(&self, [c, s]: [f64; 2]) -> f64 {
        self.k0 + self.c1 * c + self.s1 * s + self.c2 * c * c + self.s2 * s * s + self.cs * c * s
    }

    /// `dF/dθ` at the direction `d = (cos θ, sin θ)`.
    #[inline]
    fn slope(&self, [c, s]: [f64; 2]) -> f64 {
        -self.c1 * s + self.s1 * c + 2.0 * (self.s2 - self.c2) * c * s + self.cs * (c * c - s * s)
    }

    // ANCHOR: quartic
    /// Coefficients of the quartic in `t = tan(θ/2)`, highest degree first, from
    /// `(1 + t²)² F`.
    fn quartic(&self) -> [f64; 5] {
        let TrigPoly {
            k0,
            c1,
            s1,
            c2,
            s2,
            cs,
        } = *self;
        [
            k0 - c1 + c2,
            2.0 * s1 - 2.0 * cs,
            2.0 * k0 - 2.0 * c2 + 4.0 * s2,
            2.0 * s1 + 2.0 * cs,
            k0 + c1 + c2,
        ]
    }

    // ANCHOR_END: quartic
    /// Newton's method on `F` from the direction `d = (cos θ, sin θ)`, keeping the best
    /// point; a few steps suffice from a quartic root or the previous sweep's direction.
    ///
    /// The step `t = -F/F'` is taken along the tangent of the unit circle and the point
    /// normalised back onto it, `d ← (d + t d⊥) / sqrt(1 + t²)`: the angle moves by
    /// `atan t = t + O(t³)`, so the convergence stays quadratic, and no sine, cosine or
    /// arctangent is evaluated.
    ///
    /// `quick` ends after a step below `1e-8` rad: quadratic convergence leaves about its
    /// square times `F''/2F'`, at rounding, and the caller checks the answer's residual (the
    /// sweep's fast path, which falls back on the exhaustive search). Otherwise Newton runs
    /// until `|F|` stops decreasing.
    fn polish(&self, mut d: [f64; 2], quick: bool) -> [f64; 2] {
        let mut f = self.at(d);
        for _ in 0..12 {
            let slope = self.slope(d);
            if slope == 0.0 || f == 0.0 {
                break;
            }
            let t = -f / slope;
            let (a, b) = (d[0] - t * d[1], d[1] + t * d[0]);
            let next = if t.abs() < 1e-4 {
                // 1/sqrt(1 + t²) to rounding (the next term is 5t⁶/16)
                let t2 = t * t;
                let k = 1.0 - t2 * (0.5 - 0.375 * t2);
                [a * k, b * k]
            } else {
                match unit(a, b) {
                    Some(n) => n,
                    None => break,
                }
            };
            if quick && t.abs() <= 1e-8 {
                return next;
            }
            let fnext = self.at(next);
            if !(fnext.abs() < f.abs()) {
                break;
            }
            d = next;
            f = fnext;
        }
        d
    }

    /// The real roots of the quartic in `t = tan(θ/2)` (companion-matrix eigenvalues) and
    /// `θ = π` (the root at `t = ∞`), as directions `(cos θ, sin θ)`, each polished by
    /// Newton on `F`.
    fn quartic_roots(&self) -> Vec<[f64; 2]> {
        let mut thetas = Vec::with_capacity(5);
        let coef = self.quartic();
        let big = coef.iter().fold(0.0f64, |m, c| m.max(c.abs()));
        if big == 0.0 || !big.is_finite() {
            return Vec::new();
        }
        // Strip negligible leading coefficients (roots at infinity, i.e. θ = π).
        let mut lead = 0;
        while lead < 4 && coef[lead].abs() <= 1e-13 * big {
            lead += 1;
        }
        let deg = 4 - lead;
        let p: Vec<f64> = coef[lead..].iter().map(|c| c / coef[lead]).collect();
        match deg {
            0 => {}
            1 => thetas.push(2.0 * (-p[1]).atan()),
            _ => {
                let mut comp = nalgebra::DMatrix::<f64>::zeros(deg, deg);
                for i in 0..deg {
                    comp[(0, i)] = -p[i + 1];
                }
                for i in 1..deg {
                    comp[(i, i - 1)] = 1.0;
                }
                if let Some(schur) = nalgebra::Schur::try_new(comp, f64::EPSILON, 200) {
                    for z in schur.complex_eigenvalues().iter() {
                        if z.im.abs() <= 1e-6 * (1.0 + z.re.abs()) {
                            thetas.push(2.0 * z.re.atan());
                        }
                    }
                }
            }
        }
        thetas.push(std::f64::consts::PI);
        thetas
            .iter()
            .map(|th| self.polish(direction(*th), false))
            .collect()
    }

    /// Sign changes of `F` on a grid, bisected and polished: a safety net for a badly
    /// scaled quartic.
    fn grid_roots(&self) -> Vec<[f64; 2]> {
        const GRID: usize = 48;
        let mut thetas = Vec::new();
        let step = 2.0 * std::f64::consts::PI / GRID as f64;
        let mut prev = self.value(-std::f64::consts::PI);
        for k in 1..=GRID {
            let th = -std::f64::consts::PI + k as f64 * step;
            let v = self.value(th);
            if prev.signum() != v.signum() {
                thetas.push(self.polish(direction(self.bisect(th - step, th)), false));
            }
            prev = v;
        }
        thetas
    }

    fn bisect(&self, mut lo: f64, mut hi: f64) -> f64 {
        let mut flo = self.value(lo);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            let fm = self.value(mid);
            if fm == 0.0 {
                return mid;
            }
            if fm.signum() == flo.signum() {
                lo = mid;
                flo = fm;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    }
}

// ANCHOR: slide_reaction
/// The slide reaction `xi (1, mu cos θ, mu sin θ)` for a root `θ` of `F`, given as the
/// direction `(cos θ, sin θ)`, if `xi > 0` and the slip `s >= 0` (the 3x2 system solved by
/// least squares).
fn slide_reaction(
    block: &LocalBlock,
    q: &Vector3<f64>,
    mu: f64,
    kappa: f64,
    [c, s]: [f64; 2],
) -> Option<[f64; 3]> {
    let g = Vector3::new(1.0, mu * c, mu * s);
    let a = block.w * g;
    let h = Vector3::new(kappa, -c, -s);
    // least squares for [a, -h] (xi, slip) = -q
    let a11 = a.dot(&a);
    let a12 = -a.dot(&h);
    let a22 = h.dot(&h);
    let b1 = -a.dot(q);
    let b2 = h.dot(q);
    let det = a11 * a22 - a12 * a12;
    if !(det > 1e-14 * a11 * a22) {
        return None;
    }
    let inv = 1.0 / det;
    let xi = (b1 * a22 - a12 * b2) * inv;
    let slip = (a11 * b2 - a12 * b1) * inv;
    if xi > 0.0 && xi.is_finite() && (slip >= 0.0 || slip >= -1e-12 * q.norm()) {
        Some([xi, xi * g[1], xi * g[2]])
    } else {
        None
    }
}

// ANCHOR_END: slide_reaction
/// `(cos θ, sin θ)`.
fn direction(th: f64) -> [f64; 2] {
    let (s, c) = th.sin_cos();
    [c, s]
}

/// `(a, b) / ‖(a, b)‖`, the direction of a nonzero finite vector.
#[inline]
fn unit(a: f64, b: f64) -> Option<[f64; 2]> {
    let n = norm2(a, b);
    (n > 0.0 && n.is_finite()).then(|| {
        let inv = 1.0 / n;
        if inv.is_finite() {
            [a * inv, b * inv]
        } else {
            [a / n, b / n]
        }
    })
}

/// Last resort for degenerate blocks: the projected fixed point
/// `r <- P_K(r - γ (W r + q + De Saxce shift))` from the best point known.
fn fallback(
    block: &LocalBlock,
    q: &Vector3<f64>,
    mu: f64,
    kind: FrictionKind,
    warm: [f64; 3],
    best: Option<ContactSolution>,
) -> ContactSolution {
    let wn = block.w.norm();
    let gamma = if wn > 0.0 { 1.0 / wn } else { 1.0 };
    let mut r = best.map(|b| b.r).unwrap_or(warm);
    let mut best_r = r;
    let mut best_res = residual_of(block, q, r, mu, kind);
    for _ in 0..500 {
        let rv = Vector3::new(r[0], r[1], r[2]);
        let u = block.w * rv + q;
        let shift = match kind {
            FrictionKind::Coulomb => mu * u[1].hypot(u[2]),
            FrictionKind::Ccp => 0.0,
        };
        r = crate::friction::project_on_cone(
            [
                r[0] - gamma * (u[0] + shift),
                r[1] - gamma * u[1],
                r[2] - gamma * u[2],
            ],
            mu,
        );
        let res = residual_of(block, q, r, mu, kind);
        if res < best_res {
            best_res = res;
            best_r = r;
        }
        if res == 0.0 {
            break;
        }
    }
    ContactSolution {
        r: best_r,
        case: ContactCase::Fallback,
        residual: best_res,
    }
}
