//! Test machinery for the ellipsoid projection, shared by the examples
//! `ellipsoid_accuracy`, `ellipsoid_newton` and the property tests (included with
//! `#[path = ...] mod ellipsoid_support;`):
//!
//! * a small deterministic random generator (SplitMix64), so that a case number names the
//!   same case on every machine and in every version of every dependency;
//! * a sampler of `(axes, z)` cases by category, degenerate ones included;
//! * a **double-double reference** projection: the root of `g` (Erleben 2017 eq. 35) found by
//!   bisection in double-double arithmetic (about 32 significant digits), independent of the
//!   crate's code (other formula for `g`, other bracket, other arithmetic);
//! * the optimality residuals of a computed point.
//!
//! Files of the book are written (or, under `cargo test`, checked) by
//! `examples/support/mod.rs::publish`, like every generated file.
#![allow(dead_code)]
// `!(g <= 0.0)` is written on purpose: it is also true for NaN (see src/lib.rs).
#![allow(clippy::neg_cmp_op_on_partial_ord)]

// ---------------------------------------------------------------------------------------
// Random numbers

/// SplitMix64 (Steele, Lea, Flood 2014): 64-bit state, passes BigCrush, trivially seeded.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator for stream `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xd1b5_4a32_d192_ed03)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    /// Uniform in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    /// `10^u` with `u` uniform in `[lo, hi)`.
    pub fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        10f64.powf(self.uniform(lo, hi))
    }
    /// An index in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.unit() * n as f64) as usize % n
    }
    /// A standard normal number (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let u = 1.0 - self.unit(); // (0, 1]
        let v = self.unit();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
    /// A random unit vector in `R^d`.
    pub fn direction(&mut self, d: usize) -> Vec<f64> {
        loop {
            let v: Vec<f64> = (0..d).map(|_| self.normal()).collect();
            let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
            if n > 1e-3 {
                return v.into_iter().map(|x| x / n).collect();
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Cases

/// The categories of random cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    /// Semi-axes within a factor 100 of each other, `z` inside or outside.
    Moderate,
    /// Semi-axis ratios up to `1e12`.
    Ratios,
    /// One semi-axis exactly zero.
    ZeroAxis,
    /// `z` within a relative `1e-16 .. 1e-1` of the surface, inside or outside.
    NearSurface,
    /// `z` on a coordinate axis (or a plane of two), outside.
    OnAxis,
    /// A moderate or ratio case scaled by `10^u`, `u` in `[-150, 150]`.
    Magnitudes,
}

impl Category {
    /// All categories, in the order of the tables.
    pub const ALL: [Category; 6] = [
        Category::Moderate,
        Category::Ratios,
        Category::ZeroAxis,
        Category::NearSurface,
        Category::OnAxis,
        Category::Magnitudes,
    ];
    /// A short description for the tables.
    pub fn describe(self) -> &'static str {
        match self {
            Category::Moderate => "axes ratio <= 1e2",
            Category::Ratios => "axes ratio <= 1e12",
            Category::ZeroAxis => "one zero semi-axis",
            Category::NearSurface => "z near the surface",
            Category::OnAxis => "z on an axis or plane",
            Category::Magnitudes => "scaled by 1e-150..1e150",
        }
    }
}

/// One projection problem.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// The category it was drawn from.
    pub category: Category,
    /// Semi-axes (2 or 3 of them).
    pub axes: Vec<f64>,
    /// The point to project.
    pub z: Vec<f64>,
}

fn moderate_axes(rng: &mut Rng, d: usize) -> Vec<f64> {
    (0..d).map(|_| rng.log_uniform(-1.0, 1.0)).collect()
}

fn ratio_axes(rng: &mut Rng, d: usize) -> Vec<f64> {
    let mut a: Vec<f64> = (0..d).map(|_| rng.log_uniform(-12.0, 0.0)).collect();
    // make sure the extreme ratio occurs often: one axis at 1, one at 1e-12 half the time
    let i = rng.below(d);
    a[i] = 1.0;
    if rng.unit() < 0.5 {
        let j = (i + 1 + rng.below(d - 1)) % d;
        a[j] = 1e-12;
    }
    a
}

/// A point on the surface of the ellipsoid: `a ∘ u` for a random unit vector `u`.
fn surface_point(rng: &mut Rng, axes: &[f64]) -> Vec<f64> {
    let u = rng.direction(axes.len());
    axes.iter().zip(&u).map(|(a, v)| a * v).collect()
}

/// A point outside (mostly) or inside: `z = a ∘ u * r` with `r = 10^U(-1, 2)`, or a Gaussian
/// point of scale `amax * 10^U(-2, 2)` (uncorrelated with the axes).
fn general_point(rng: &mut Rng, axes: &[f64]) -> Vec<f64> {
    if rng.unit() < 0.5 {
        let r = rng.log_uniform(-1.0, 2.0);
        surface_point(rng, axes)
            .into_iter()
            .map(|v| v * r)
            .collect()
    } else {
        let amax = axes.iter().fold(0.0f64, |m, v| m.max(*v));
        let s = amax * rng.log_uniform(-2.0, 2.0);
        (0..axes.len()).map(|_| s * rng.normal()).collect()
    }
}

/// Case number `k` of the stream `seed`: categories in turn, so any prefix of the stream
/// covers all of them evenly.
pub fn case(seed: u64, k: u64) -> Case {
    let mut rng = Rng::new(seed ^ k.wrapping_mul(0x2545_f491_4f6c_dd1d));
    let category = Category::ALL[(k % 6) as usize];
    let d = 2 + rng.below(2);
    let (axes, z) = match category {
        Category::Moderate => {
            let a = moderate_axes(&mut rng, d);
            let z = general_point(&mut rng, &a);
            (a, z)
        }
        Category::Ratios => {
            let a = ratio_axes(&mut rng, d);
            let z = general_point(&mut rng, &a);
            (a, z)
        }
        Category::ZeroAxis => {
            let mut a = if rng.unit() < 0.5 {
                moderate_axes(&mut rng, d)
            } else {
                ratio_axes(&mut rng, d)
            };
            let i = rng.below(d);
            let mut z = general_point(&mut rng, &a);
            a[i] = 0.0;
            if rng.unit() < 0.3 {
                z[i] = 0.0;
            }
            (a, z)
        }
        Category::NearSurface => {
            let a = if rng.unit() < 0.5 {
                moderate_axes(&mut rng, d)
            } else {
                ratio_axes(&mut rng, d)
            };
            let p = surface_point(&mut rng, &a);
            let delta = rng.log_uniform(-16.0, -1.0) * if rng.unit() < 0.7 { 1.0 } else { -1.0 };
            let z = p.iter().map(|v| v * (1.0 + delta)).collect();
            (a, z)
        }
        Category::OnAxis => {
            let a = if rng.unit() < 0.5 {
                moderate_axes(&mut rng, d)
            } else {
                ratio_axes(&mut rng, d)
            };
            let mut z = vec![0.0; d];
            let i = rng.below(d);
            let sign = if rng.unit() < 0.5 { -1.0 } else { 1.0 };
            z[i] = sign * a[i] * rng.log_uniform(0.0, 2.0);
            if d == 3 && rng.unit() < 0.5 {
                // a coordinate plane: one more non-zero coordinate
                let j = (i + 1) % d;
                z[j] = a[j] * rng.normal();
            }
            (a, z)
        }
        Category::Magnitudes => {
            let mut a = if rng.unit() < 0.5 {
                moderate_axes(&mut rng, d)
            } else {
                ratio_axes(&mut rng, d)
            };
            let mut z = general_point(&mut rng, &a);
            let s = rng.log_uniform(-150.0, 150.0);
            a.iter_mut().for_each(|v| *v *= s);
            z.iter_mut().for_each(|v| *v *= s);
            (a, z)
        }
    };
    Case { category, axes, z }
}

// ---------------------------------------------------------------------------------------
// Double-double arithmetic (Dekker 1971; Hida, Li, Bailey 2001)

/// An unevaluated sum `hi + lo` with `|lo| <= ulp(hi)/2`: about 106 significant bits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dd {
    /// Leading part.
    pub hi: f64,
    /// Trailing part.
    pub lo: f64,
}

fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

fn quick_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    (s, b - (s - a))
}

impl Dd {
    /// `v` exactly.
    pub fn from(v: f64) -> Dd {
        Dd { hi: v, lo: 0.0 }
    }
    /// `a * b` exactly (with a fused multiply-add).
    pub fn prod(a: f64, b: f64) -> Dd {
        let p = a * b;
        Dd {
            hi: p,
            lo: a.mul_add(b, -p),
        }
    }
    /// `a - b` exactly.
    pub fn diff(a: f64, b: f64) -> Dd {
        let (s, e) = two_sum(a, -b);
        Dd { hi: s, lo: e }
    }
    /// Sum.
    pub fn add(self, o: Dd) -> Dd {
        let (s, e) = two_sum(self.hi, o.hi);
        let (t, f) = two_sum(self.lo, o.lo);
        let (s, e) = quick_two_sum(s, e + t);
        let (s, e) = quick_two_sum(s, e + f);
        Dd { hi: s, lo: e }
    }
    /// Difference.
    pub fn sub(self, o: Dd) -> Dd {
        self.add(Dd {
            hi: -o.hi,
            lo: -o.lo,
        })
    }
    /// Product.
    pub fn mul(self, o: Dd) -> Dd {
        let p = Dd::prod(self.hi, o.hi);
        let (s, e) = quick_two_sum(p.hi, p.lo + (self.hi * o.lo + self.lo * o.hi));
        Dd { hi: s, lo: e }
    }
    /// Quotient (three steps of long division).
    pub fn div(self, o: Dd) -> Dd {
        let q1 = self.hi / o.hi;
        let r = self.sub(o.mul(Dd::from(q1)));
        let q2 = r.hi / o.hi;
        let r = r.sub(o.mul(Dd::from(q2)));
        let q3 = r.hi / o.hi;
        let (s, e) = quick_two_sum(q1, q2);
        Dd { hi: s, lo: e }.add(Dd::from(q3))
    }
    /// Rounded to the nearest `f64` (up to the last bit's tie).
    pub fn to_f64(self) -> f64 {
        self.hi + self.lo
    }
}

// ---------------------------------------------------------------------------------------
// The reference projection

/// The power of two `2^-e` that brings `m > 0` into `[0.5, 1)` (computed independently of
/// the crate, with `frexp`-like arithmetic on `log2`, then corrected).
fn pow2_scale(m: f64) -> i32 {
    let mut e = m.log2().ceil() as i32;
    // correct a possibly off-by-one log2
    while m * 2f64.powi(-e) >= 1.0 {
        e += 1;
    }
    while m * 2f64.powi(-e) < 0.5 {
        e -= 1;
    }
    e
}

/// `g(t) = Σ (a_i z_i)² / (a_i² + t)² - 1` in double-double (eq. 35), each term as
/// `(z_i / (a_i + t / a_i))²` so that tiny semi-axes do not underflow when squared.
fn g_dd(a: &[f64], z: &[f64], t: Dd) -> Dd {
    let mut s = Dd::from(-1.0);
    for (ai, zi) in a.iter().zip(z) {
        let den = Dd::from(*ai).add(t.div(Dd::from(*ai)));
        let q = Dd::from(*zi).div(den);
        s = s.add(q.mul(q));
    }
    s
}

/// The closest point of the ellipsoid with semi-axes `axes` (>= 0, finite) to `z`, computed
/// in double-double (bisection on `g` from the bracket `[0, ‖(a_i z_i)‖]` to a relative
/// width of 1e-33) and rounded: a reference for the `f64` methods (its own error is far
/// below one rounding of the result).
pub fn reference_projection(axes: &[f64], z: &[f64]) -> Vec<f64> {
    let d = axes.len();
    let mut x = vec![0.0; d];
    // active coordinates: positive axis, z_i != 0
    let idx: Vec<usize> = (0..d).filter(|&i| axes[i] > 0.0 && z[i] != 0.0).collect();
    if idx.is_empty() {
        return x;
    }
    // Scale so that the largest semi-axis is in [0.5, 1): near the root every q_i is then
    // of order 1 or less, and no product falls near the underflow threshold, where the low
    // part of a double-double would lose its digits.
    let m = idx.iter().fold(0.0f64, |m, &i| m.max(axes[i]));
    let e = pow2_scale(m);
    let s = 2f64.powi(-e);
    let a: Vec<f64> = idx.iter().map(|&i| axes[i] * s).collect();
    let zs: Vec<f64> = idx.iter().map(|&i| z[i] * s).collect();
    // inside?
    // (an overflowing term makes g infinite or NaN: that is a positive g)
    let positive = |g: Dd| !(g.hi <= 0.0);
    let g0 = g_dd(&a, &zs, Dd::from(0.0));
    if !positive(g0) {
        for &i in &idx {
            x[i] = z[i];
        }
        return x;
    }
    // bracket [0, hi], hi = ‖(a_i z_i)‖ (an upper bound), widened until g(hi) < 0
    let mut hi =
        Dd::from(a.iter().zip(&zs).fold(0.0f64, |h, (p, q)| h.hypot(p * q)) * (1.0 + 1e-9));
    while positive(g_dd(&a, &zs, hi)) || g_dd(&a, &zs, hi).hi == 0.0 {
        hi = hi.mul(Dd::from(2.0));
    }
    let mut lo = Dd::from(0.0);
    let min_a2 = a.iter().fold(f64::INFINITY, |m, v| m.min(v * v));
    for _ in 0..4000 {
        let w = hi.sub(lo);
        if w.hi <= 1e-33 * (lo.hi + min_a2) {
            break;
        }
        let mid = lo.add(w.mul(Dd::from(0.5)));
        if mid == lo || mid == hi {
            break;
        }
        let g = g_dd(&a, &zs, mid);
        if positive(g) && g.hi != 0.0 {
            lo = mid;
        } else if g.hi < 0.0 {
            hi = mid;
        } else {
            lo = mid;
            hi = mid;
            break;
        }
    }
    let t = lo.add(hi.sub(lo).mul(Dd::from(0.5)));
    for (k, &i) in idx.iter().enumerate() {
        let den = Dd::from(a[k]).add(t.div(Dd::from(a[k])));
        let xi = Dd::from(a[k]).mul(Dd::from(zs[k]).div(den));
        x[i] = xi.to_f64() / s;
    }
    x
}

// ---------------------------------------------------------------------------------------
// Measures

/// `‖x - r‖ / ‖r‖` (or `‖x‖` when `r = 0`), computed without overflow.
pub fn relative_distance(x: &[f64], r: &[f64]) -> f64 {
    let m = r.iter().chain(x.iter()).fold(0.0f64, |m, v| m.max(v.abs()));
    if m == 0.0 {
        return 0.0;
    }
    let num = x
        .iter()
        .zip(r)
        .map(|(p, q)| ((p - q) / m).powi(2))
        .sum::<f64>()
        .sqrt();
    let den = r.iter().map(|q| (q / m).powi(2)).sum::<f64>().sqrt();
    if den == 0.0 { num } else { num / den }
}

/// Optimality residuals of a computed projection `x` of `z` (Erleben 2017 eq. 31-32, read
/// over the positive semi-axes):
///
/// * `feasibility = max(0, ‖(x_i/a_i)‖ - 1)` (zero axes: `max |x_i| / ‖z‖`);
/// * `stationarity`: the part of `z - x` orthogonal to the normal `(x_i/a_i²)`, over `‖z‖`
///   (zero when `z` is inside);
/// * `sign = max(0, -(z - x)·n̂) / ‖z‖`: the multiplier `t` must not be negative.
///
/// `z - x` is formed exactly (double-double), the rest in `f64` on the problem scaled by a
/// power of two.
pub fn optimality(axes: &[f64], z: &[f64], x: &[f64]) -> [f64; 3] {
    let m = axes
        .iter()
        .chain(z)
        .chain(x)
        .fold(0.0f64, |m, v| m.max(v.abs()));
    if m == 0.0 {
        return [0.0; 3];
    }
    let s = 2f64.powi(-pow2_scale(m));
    let zn = z.iter().map(|v| (v * s).powi(2)).sum::<f64>().sqrt();
    if zn == 0.0 {
        return [0.0; 3];
    }
    let mut f = 0.0;
    let mut flat = 0.0f64;
    let mut r = Vec::new();
    let mut n = Vec::new();
    for i in 0..axes.len() {
        let (a, xi) = (axes[i] * s, x[i] * s);
        if axes[i] > 0.0 {
            f += (xi / a).powi(2);
            r.push(Dd::diff(z[i] * s, xi).to_f64());
            n.push(xi / a / a);
        } else {
            flat = flat.max(xi.abs() / zn);
        }
    }
    let feas = (f.sqrt() - 1.0).max(0.0).max(flat);
    let nn = n.iter().map(|v| v * v).sum::<f64>().sqrt();
    let rn = r.iter().map(|v| v * v).sum::<f64>().sqrt();
    if rn == 0.0 || nn == 0.0 || f < 1.0 - 1e-6 {
        // inside (x = z up to the flattened coordinates): no multiplier
        return [feas, rn / zn, 0.0];
    }
    let along: f64 = r.iter().zip(&n).map(|(p, q)| p * q / nn).sum();
    let perp = r
        .iter()
        .zip(&n)
        .map(|(p, q)| (p - along * q / nn).powi(2))
        .sum::<f64>()
        .sqrt();
    [feas, perp / zn, (-along).max(0.0) / zn]
}
