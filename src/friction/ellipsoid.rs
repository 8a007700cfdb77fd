//! The closest point on an axis-aligned ellipsoid (Erleben 2017 §4.1, eq. 28-38), by the
//! paper's bracketed bisection or by a safeguarded Newton method, with diagnostics.
//!
//! The set is `E = { x : Σ (x_i / a_i)² <= 1 }` with semi-axes `a_i >= 0` in any dimension
//! (2: the anisotropic friction ellipse, 3: the Coulomb-Contensou ellipsoid). A point `z`
//! outside `E` projects to `x_i = a_i² z_i / (a_i² + t)` where `t > 0` is the root of
//!
//! ```text
//! g(t) = Σ a_i² z_i² / (a_i² + t)² - 1        (eq. 34-35)
//! ```
//!
//! The code evaluates each term as `q_i = z_i / (a_i + t / a_i)` (the same number,
//! `q_i = x_i / a_i`), which never squares a semi-axis: `a_i²` would underflow for semi-axes
//! below `1e-154` of the largest one, `q_i` does not.
//!
//! Degenerate semi-axes: a zero (or negative, or NaN) semi-axis flattens the set, its
//! coordinate is 0 in the answer; an infinite semi-axis leaves its coordinate free, it is
//! copied. The book's chapter "The closest point on an ellipsoid" derives all of this and
//! shows the measurements.

/// The root finder used on `g(t) = 0` (Erleben 2017 eq. 35).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EllipsoidMethod {
    /// The paper's method (§4.1): bracket `[0, t_max]` with `t_max = 1.5^k t_guess`,
    /// `t_guess = max_i a_i ‖z‖` (eq. 36), then bisection until the bracket is narrower than
    /// `ε (t_lo + min_i a_i²)` (every coordinate of the answer is then within a relative `ε`
    /// of the one at the exact root) or stops shrinking (adjacent floating-point numbers).
    Bisection,
    /// Newton's method on `g`, safeguarded. The bracket is `[max_i a_i (|z_i| - a_i),
    /// ‖(a_i z_i)‖]` (both bounds are proved in the book) and Newton starts at its lower end,
    /// where `g` is convex and decreasing, so that Newton steps from the left never pass the
    /// root. A step that leaves the bracket, or that is longer than the step before the
    /// previous one, is replaced by a bisection step (on a log scale when the bracket spans
    /// more than a factor 4). It stops when `|g(t)| <= 2ε` (then `x(t)` is on the surface to
    /// rounding: `g(t) = Σ (x_i/a_i)² - 1`), or when the Newton correction is below the
    /// tolerance of [`Bisection`](Self::Bisection), and then takes that last correction,
    /// which needs no evaluation. The default: as accurate as bisection with a few
    /// evaluations instead of about fifty (see the book's tables).
    #[default]
    SafeguardedNewton,
}

/// Which case of the projection applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EllipsoidCase {
    /// `z` lies in the set: the answer is `z` (eq. 21b, first case).
    Inside,
    /// `z` has non-zero coordinates only along zero semi-axes besides a part inside the
    /// flattened set: those coordinates are zeroed, the rest is kept (the root is `t = 0`).
    Flattened,
    /// `z` lies outside: the root of `g` was searched.
    Root,
    /// Some entry of `z` is not finite: `out` holds NaN (the only case that does).
    NotFinite,
}

/// What one projection did (returned by [`project_on_ellipsoid_with`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EllipsoidReport {
    /// The root finder that was asked for.
    pub method: EllipsoidMethod,
    /// Which case applied.
    pub case: EllipsoidCase,
    /// Evaluations of `g` (a Newton evaluation computes `g` and `g'` together and counts
    /// once; the inside test, which is `g(0)`, counts too).
    pub evaluations: usize,
    /// Expansions `t_max <- 1.5 t_max` of the bisection bracket (Erleben 2017 eq. 36). The
    /// guess `t_guess = max a_i ‖z‖` is an upper bound of the root in exact arithmetic, so
    /// this counts rounding only.
    pub expansions: usize,
    /// Newton steps taken (zero for [`EllipsoidMethod::Bisection`]).
    pub newton_steps: usize,
    /// Bisection steps taken (including the safeguard's).
    pub bisection_steps: usize,
    /// The root `t` of `g` for the problem scaled into the unit cube (eq. 37-38); the
    /// multiplier of the unscaled problem is `t_scaled / scale²`. Zero unless `case` is
    /// [`EllipsoidCase::Root`].
    pub t_scaled: f64,
    /// The power of two `s` the problem was multiplied by (eq. 37, see
    /// [`project_on_ellipsoid_with`]); 1 unless `case` is [`EllipsoidCase::Root`].
    pub scale: f64,
}

/// The closest point of the ellipsoid `Σ (x_i/a_i)² <= 1` to `z`, written to `out`, with the
/// default method ([`EllipsoidMethod::SafeguardedNewton`]). This is the projection used by
/// [`Ellipsoid`](super::Ellipsoid) and [`FrictionLaw`](super::FrictionLaw).
///
/// `axes`, `z` and `out` have `d = axes.len()` entries (`z` and `out` may be longer; the rest
/// is neither read nor written). See [`project_on_ellipsoid_with`] for the cases and
/// guarantees.
///
/// # Panics
/// If `z` or `out` has fewer than `axes.len()` entries.
///
/// # Example
/// ```
/// use nonsmooth::friction::project_on_ellipsoid;
/// let mut x = [0.0; 3];
/// project_on_ellipsoid(&[2.0, 1.0, 0.5], &[4.0, 0.0, 0.0], &mut x); // on the longest axis
/// assert_eq!(x, [2.0, 0.0, 0.0]);
/// project_on_ellipsoid(&[2.0, 1.0, 0.5], &[0.1, 0.2, 0.3], &mut x); // inside: unchanged
/// assert_eq!(x, [0.1, 0.2, 0.3]);
/// ```
#[inline]
pub fn project_on_ellipsoid(axes: &[f64], z: &[f64], out: &mut [f64]) {
    project_on_ellipsoid_with(axes, z, out, EllipsoidMethod::default());
}

/// The value and the derivative of `g(t) = Σ a_i² z_i² / (a_i² + t)² - 1` (Erleben 2017
/// eq. 35), unscaled, over the semi-axes that are positive and finite: `[g(t), g'(t)]`.
///
/// Defined for `t > -min a_i²` (it has a pole at each `t = -a_i²`). For the figure and the
/// tests; the projection evaluates the same sums on the scaled problem.
///
/// # Panics
/// If `z` has fewer than `axes.len()` entries.
pub fn ellipsoid_g(axes: &[f64], z: &[f64], t: f64) -> [f64; 2] {
    let mut g = -1.0;
    let mut dg = 0.0;
    for (a, v) in axes.iter().zip(z) {
        if *a > 0.0 && a.is_finite() {
            let den = a * a + t;
            let q = a * v / den;
            g += q * q;
            dg -= 2.0 * q * q / den;
        }
    }
    [g, dg]
}

/// `x * 2^k` without intermediate overflow (what C calls `ldexp`); exact unless the result
/// is subnormal or overflows.
fn ldexp(mut x: f64, mut k: i32) -> f64 {
    let two_1023 = f64::from_bits(2046u64 << 52); // 2^1023
    let two_m1022 = f64::from_bits(1u64 << 52); // 2^-1022
    while k > 1023 {
        x *= two_1023;
        k -= 1023;
    }
    while k < -1022 {
        x *= two_m1022;
        k += 1022;
    }
    x * f64::from_bits(((k + 1023) as u64) << 52)
}

/// The exponent `e` with `m * 2^-e` in `[0.5, 1)`, for finite `m > 0`.
fn exponent(m: f64) -> i32 {
    let bits = m.to_bits();
    let field = ((bits >> 52) & 0x7ff) as i32;
    if field == 0 {
        // subnormal: bring it into the normal range first
        exponent(m * f64::from_bits((1023u64 + 64) << 52)) - 64
    } else {
        field - 1022
    }
}

/// Maximal scratch dimension kept on the stack (larger dimensions allocate).
const STACK_DIM: usize = 4;

/// [`project_on_ellipsoid`] with a chosen root finder, returning what it did.
///
/// The cases, in order (Erleben 2017 eq. 21b and §4.1):
///
/// 1. A semi-axis that is zero, negative or NaN flattens the set: its coordinate of the
///    answer is 0. An infinite semi-axis leaves its coordinate free: it is copied from `z`.
///    The remaining ("active") semi-axes are positive and finite.
/// 2. If some entry of `z` is not finite, `out` is NaN ([`EllipsoidCase::NotFinite`]).
/// 3. If `Σ_active (z_i/a_i)² <= 1` the active coordinates are copied: `z` is inside
///    ([`EllipsoidCase::Inside`]) or inside once its flattened coordinates are zeroed
///    ([`EllipsoidCase::Flattened`]).
/// 4. Otherwise the problem is scaled into the unit cube (eq. 37-38) and the root `t > 0` of
///    `g` (eq. 35) is found by `method`; then `x_i = a_i² z_i / (a_i² + t)` is scaled back.
///
/// The scale is the power of two `s = 2^-e` that brings the largest active `|a_i|` or `|z_i|`
/// into `[0.5, 1)`, not `1 / max(1, a, b, c, |z_i|)` as in eq. 37: a power of two scales and
/// unscales exactly, and scaling up too (eq. 37 only scales down) keeps tiny problems
/// (`|z|, a ~ 1e-200`) away from underflow.
///
/// Guarantees, for finite `z`: no panic, no NaN, a bounded number of evaluations (at most
/// about 1100 for bisection, whose stopping rule is in [`EllipsoidMethod::Bisection`]); the
/// measured accuracy is in the book's chapter "The closest point on an ellipsoid" (worst
/// relative distance to a double-double reference over a million random cases with
/// semi-axis ratios up to `1e12`).
///
/// # Panics
/// If `z` or `out` has fewer than `axes.len()` entries.
///
/// # Example
/// ```
/// use nonsmooth::friction::{EllipsoidCase, EllipsoidMethod, project_on_ellipsoid_with};
/// let (axes, z) = ([3.0, 2.0, 1.0], [1.0, 4.0, 2.0]);
/// let mut xb = [0.0; 3];
/// let mut xn = [0.0; 3];
/// let rb = project_on_ellipsoid_with(&axes, &z, &mut xb, EllipsoidMethod::Bisection);
/// let rn = project_on_ellipsoid_with(&axes, &z, &mut xn, EllipsoidMethod::SafeguardedNewton);
/// assert_eq!(rb.case, EllipsoidCase::Root);
/// assert!(rn.evaluations < rb.evaluations);
/// for k in 0..3 {
///     assert!((xb[k] - xn[k]).abs() <= 1e-15 * 4.0);
/// }
/// // the answer lies on the surface
/// let f: f64 = (0..3).map(|k| (xn[k] / axes[k]).powi(2)).sum();
/// assert!((f - 1.0).abs() < 1e-15);
/// ```
pub fn project_on_ellipsoid_with(
    axes: &[f64],
    z: &[f64],
    out: &mut [f64],
    method: EllipsoidMethod,
) -> EllipsoidReport {
    let d = axes.len();
    let (z, out) = (&z[..d], &mut out[..d]);
    if d <= STACK_DIM {
        let mut a = [0.0; STACK_DIM];
        let mut w = [0.0; STACK_DIM];
        project_inner(axes, z, out, method, &mut a, &mut w)
    } else {
        let mut a = vec![0.0; d];
        let mut w = vec![0.0; d];
        project_inner(axes, z, out, method, &mut a, &mut w)
    }
}

/// `true` for a semi-axis that constrains its coordinate (positive and finite).
#[inline]
fn active(a: f64) -> bool {
    a > 0.0 && a < f64::INFINITY
}

fn project_inner(
    axes: &[f64],
    z: &[f64],
    out: &mut [f64],
    method: EllipsoidMethod,
    a_buf: &mut [f64],
    z_buf: &mut [f64],
) -> EllipsoidReport {
    let mut report = EllipsoidReport {
        method,
        case: EllipsoidCase::Inside,
        evaluations: 1,
        expansions: 0,
        newton_steps: 0,
        bisection_steps: 0,
        t_scaled: 0.0,
        scale: 1.0,
    };
    // Cases 1-3: flattened and free coordinates, the inside test g(0) <= 0 (unscaled: z_i/a_i
    // does not depend on the scale), and the largest active entry for the scale.
    let mut f = 0.0;
    let mut flattened = false;
    let mut finite = true;
    let mut big = 0.0f64;
    let mut amax = 0.0f64;
    for ((a, v), o) in axes.iter().zip(z).zip(out.iter_mut()) {
        finite &= v.is_finite();
        if active(*a) {
            let q = v / a;
            f += q * q;
            *o = *v;
            if *v != 0.0 {
                big = big.max(a.max(v.abs()));
                amax = amax.max(*a);
            }
        } else if *a == f64::INFINITY {
            *o = *v;
        } else {
            flattened |= *v != 0.0;
            *o = 0.0;
        }
    }
    if !finite {
        out.iter_mut().for_each(|o| *o = f64::NAN);
        report.case = EllipsoidCase::NotFinite;
        return report;
    }
    if f <= 1.0 {
        report.case = if flattened {
            EllipsoidCase::Flattened
        } else {
            EllipsoidCase::Inside
        };
        return report;
    }
    // Case 4. Here f > 1, so some active coordinate has z_i != 0 and big > 0.
    report.case = EllipsoidCase::Root;
    // The scale (eq. 37, as a power of two). A point more than 2^500 (~1e150) times farther
    // than the largest semi-axis would push the scaled semi-axes into the subnormal range
    // (or below): for it, scale by the geometric middle of |z| and the semi-axis instead, so
    // that both stay well inside the range (near the root t ~ a |z| and q_i ~ 1, so nothing
    // overflows).
    let (e_big, e_axis) = (exponent(big), exponent(amax));
    let e = if e_big - e_axis > 500 {
        (e_big + e_axis) / 2
    } else {
        e_big
    };
    report.scale = ldexp(1.0, -e);
    // Gather the active coordinates with z_i != 0, scaled (eq. 38); the others have x_i = 0
    // or x_i = z_i and are already written.
    // A semi-axis more than ~1e308 times smaller than |z| underflows to 0 when scaled: it is
    // flat at this scale, and its coordinate (below 1e-308 |z|) is 0.
    let mut n = 0;
    for ((a, v), o) in axes.iter().zip(z).zip(out.iter_mut()) {
        if active(*a) && *v != 0.0 {
            let (as_, vs) = (ldexp(*a, -e), ldexp(*v, -e));
            if as_ > 0.0 {
                a_buf[n] = as_;
                z_buf[n] = vs;
                n += 1;
            } else {
                *o = 0.0;
            }
        }
    }
    if n == 0 {
        return report;
    }
    let (a, zs) = (&a_buf[..n], &z_buf[..n]);
    let t = match method {
        EllipsoidMethod::Bisection => bisection(a, zs, &mut report),
        EllipsoidMethod::SafeguardedNewton => safeguarded_newton(a, zs, f - 1.0, &mut report),
    };
    report.t_scaled = t;
    // x_i = a_i² z_i / (a_i² + t) = a_i q_i, scaled back.
    for (o, (aa, v)) in out.iter_mut().zip(axes.iter().zip(z)) {
        let (as_, vs) = (ldexp(*aa, -e), ldexp(*v, -e));
        if active(*aa) && *v != 0.0 && as_ > 0.0 {
            *o = ldexp(as_ * (vs / (as_ + t / as_)), e);
        }
    }
    report
}

/// `g(t)` on the scaled problem, each term as `q_i = z_i / (a_i + t/a_i)`.
#[inline]
fn g_scaled(a: &[f64], z: &[f64], t: f64) -> f64 {
    let mut s = -1.0;
    for (ai, zi) in a.iter().zip(z) {
        let q = zi / (ai + t / ai);
        s += q * q;
    }
    s
}

/// `g(t)` and `g'(t) = -2 Σ q_i² / (a_i² + t)` on the scaled problem.
#[inline]
fn g_and_slope(a: &[f64], z: &[f64], t: f64) -> (f64, f64) {
    let mut s = -1.0;
    let mut ds = 0.0;
    for (ai, zi) in a.iter().zip(z) {
        let den = ai + t / ai; // (a_i² + t) / a_i
        let q = zi / den;
        s += q * q;
        ds -= 2.0 * q * q / (ai * den);
    }
    (s, ds)
}

/// The bracket width below which every coordinate of the answer is within a relative `ε` of
/// its value at the exact root: `|dx_i/dt| = |x_i| / (a_i² + t)`, so a change `δt` of `t`
/// moves `x_i` by at most `|x_i| δt / (min a_i² + t)`.
#[inline]
fn t_tolerance(lo: f64, min_a2: f64) -> f64 {
    f64::EPSILON * (lo + min_a2)
}

fn min_square(a: &[f64]) -> f64 {
    a.iter().fold(f64::INFINITY, |m, v| m.min(v * v))
}

/// Upper limit on bisection steps: from `t_max <= 2` down to the smallest subnormal is
/// about 1075 halvings, so the limit is never the reason to stop for finite input.
const MAX_BISECTIONS: usize = 1100;

// ANCHOR: bisection
/// Erleben 2017 §4.1: bracket `[0, t_max]`, `t_max = 1.5^k t_guess` (eq. 36), then bisection.
fn bisection(a: &[f64], z: &[f64], report: &mut EllipsoidReport) -> f64 {
    let amax = a.iter().fold(0.0f64, |m, v| m.max(*v));
    let znorm = z.iter().fold(0.0f64, |h, v| h.hypot(*v));
    let min_a2 = min_square(a);
    // t_guess = max a_i ‖z‖ (eq. 36); g(t_guess) < 0 in exact arithmetic (the book shows
    // why), so the expansions only absorb rounding.
    let mut hi = (amax * znorm).max(f64::MIN_POSITIVE);
    report.evaluations += 1;
    while g_scaled(a, z, hi) >= 0.0 && report.expansions < 100 {
        hi *= 1.5;
        report.expansions += 1;
        report.evaluations += 1;
    }
    let mut lo = 0.0; // g(0) > 0: z is outside
    while hi - lo > t_tolerance(lo, min_a2) && report.bisection_steps < MAX_BISECTIONS {
        let mid = lo + 0.5 * (hi - lo);
        if mid <= lo || mid >= hi {
            break; // the bracket holds two adjacent numbers: it cannot shrink further
        }
        report.bisection_steps += 1;
        report.evaluations += 1;
        let g = g_scaled(a, z, mid);
        if g > 0.0 {
            lo = mid;
        } else if g < 0.0 {
            hi = mid;
        } else {
            return mid;
        }
    }
    lo + 0.5 * (hi - lo)
}
// ANCHOR_END: bisection

/// Upper limit on evaluations of the safeguarded Newton method before it finishes by pure
/// bisection (never reached in the measurements).
const MAX_NEWTON_EVALUATIONS: usize = 100;

// ANCHOR: newton
/// Newton's method on `g`, safeguarded by a bracket `[lo, hi]` with `g(lo) > 0 > g(hi)`.
/// `g0 = g(0) > 0` is known from the inside test.
fn safeguarded_newton(a: &[f64], z: &[f64], g0: f64, report: &mut EllipsoidReport) -> f64 {
    let min_a2 = min_square(a);
    // |g(t)| = |Σ (x_i/a_i)² - 1| is how far x(t) is from the surface: below 2ε it is as
    // close as rounding of g allows to judge (the worst-case rounding error of g is about
    // (8 + d)ε, its typical one is of the order of ε).
    let noise = 2.0 * f64::EPSILON;
    // Bracket: each term of g is at most 1 from t = a_k(|z_k| - a_k) on (it is 1 there for
    // the k that gives the maximum), so the root is at least that; and every term is below
    // a_i² z_i² / t², so g(t) < 0 from t = ‖(a_i z_i)‖ on.
    let mut lo = 0.0f64;
    let mut hi = 0.0f64;
    for (ai, zi) in a.iter().zip(z) {
        lo = lo.max(ai * (zi.abs() - ai));
        hi = hi.hypot(ai * zi);
    }
    let mut t = lo;
    report.evaluations += 1; // (at t = 0 only the slope is new, but count it)
    let (mut g, mut dg) = g_and_slope(a, z, t);
    if t == 0.0 {
        g = g0;
    }
    if g <= 0.0 {
        lo = 0.0; // rounding put the lower bound at or past the root: it is in [0, t]
    }
    // Length of the step before the previous one, for the progress test.
    let (mut step1, mut step2) = (f64::INFINITY, f64::INFINITY);
    loop {
        if g > 0.0 {
            lo = t;
        } else {
            hi = t;
        }
        let newton = t - g / dg;
        if g.abs() <= noise || (newton - t).abs() <= t_tolerance(t.min(newton), min_a2) {
            // Converged: g is zero to rounding, or the Newton correction is below the
            // tolerance. The last correction costs no evaluation: take it if it is sane.
            return if newton > lo && newton < hi {
                newton
            } else {
                t
            };
        }
        // Newton's step, unless it leaves the bracket or is longer than the step before the
        // previous one (then it is not converging faster than bisection would).
        let use_newton = newton > lo
            && newton < hi
            && (newton - t).abs() <= step2
            && report.evaluations < MAX_NEWTON_EVALUATIONS;
        let next = if use_newton {
            report.newton_steps += 1;
            newton
        } else {
            report.bisection_steps += 1;
            if lo > 0.0 && hi > 4.0 * lo {
                // a bracket over orders of magnitude: halve it on a log scale
                (lo * hi).sqrt()
            } else {
                lo + 0.5 * (hi - lo)
            }
        };
        if hi - lo <= t_tolerance(lo, min_a2)
            || next <= lo
            || next >= hi
            || report.bisection_steps >= MAX_BISECTIONS
        {
            // the bracket is below the tolerance, or cannot shrink further
            return t;
        }
        (step2, step1) = (step1, (next - t).abs());
        t = next;
        report.evaluations += 1;
        (g, dg) = g_and_slope(a, z, t);
    }
}
// ANCHOR_END: newton

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ldexp_and_exponent_are_exact() {
        for m in [1.0, 0.75, 3.0, 1e-300, 5e-324, 1.7e308, 1e300] {
            let e = exponent(m);
            let s = ldexp(m, -e);
            assert!((0.5..1.0).contains(&s), "{m}: {s}");
            assert_eq!(ldexp(s, e), m);
        }
    }
}
