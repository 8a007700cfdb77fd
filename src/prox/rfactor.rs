//! r-factor strategies (Erleben 2017 §4.2, eq. 39-40) and the per-contact r-factor blocks.

use std::fmt;
use std::str::FromStr;

use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::problem::ContactLaw;
use crate::problem::ProblemError;

/// How the initial r-factors are chosen (Erleben 2017 §4.2). Whatever the strategy, the
/// solver shrinks them by `ν` when it detects divergence (adaptive backtracking).
///
/// | strategy | initial `r` | default `ν` |
/// |---|---|---|
/// | [`RFactor::Global`] | one constant for every row (the paper hardwires 5) | 0.5 |
/// | [`RFactor::GlobalSpectral`] | one constant `1 / (|λ_min(A)| + |λ_max(A)|)` (Foerg et al. 2006) | 0.5 |
/// | [`RFactor::Local`] | per factor of each law: `1 / max_{i ∈ S} A_ii` (eq. 39: `1 / A_ii` per row where a factor is one row) | 0.9 |
/// | [`RFactor::Blocked`] | per factor: `2 / (λ_min(A_SS) + λ_max(A_SS))`, the scalar closest to `A_SS^-1` (eq. 40 made a scalar) | 0.5 |
/// | [`RFactor::BlockedMatrix`] | eq. 40 as printed: `1 / A_NN` on the normal, the matrix `A_FF^-1` on the friction rows | 0.5 |
///
/// A *factor* is a piece of a contact's set that may carry its own scalar `r` without
/// changing the law's solutions ([`ContactLaw::factors`]): each row of the box, the normal
/// and the friction part of the disk, ellipse and ellipsoid, the whole cone of the CCP.
///
/// **`BlockedMatrix` does not solve the contact law** on a set that is not a product of
/// intervals (nor on the box, whose two friction rows it couples): its fixed point makes the
/// friction force oppose `A_FF^-1 v_F` instead of `v_F` (see [`crate::prox`]). It is kept to
/// reproduce the paper's experiment, in which Blocked "fails". `Blocked` is the strategy's
/// idea made valid: one scalar per factor, chosen from the factor's block `A_SS` as the `r`
/// that minimises the spectral radius of `I - r A_SS` (for a 1-row factor, `1 / A_ii`).
///
/// Parsed from ([`RFactor::from_str`]), printed as ([`fmt::Display`]) and serialised as its
/// command-line string: `global=5`, `global-spectral`, `local`, `blocked`, `blocked-matrix`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RFactor {
    /// One constant `r` for every row, in the units of `1/A` (kg for velocity-level
    /// problems). Erleben 2017 uses `r = 5`.
    Global {
        /// `r > 0`.
        r: f64,
    },
    /// One constant `r = 1 / (|λ_min| + |λ_max|)` from the extreme eigenvalues of `A`
    /// (exact for `m <= 300` unknowns, else estimated by power iteration).
    GlobalSpectral,
    /// `1 / max_{i ∈ S} A_ii` per factor `S` (`1 / A_ii` on one-row factors: PGS's step).
    Local,
    /// `2 / (λ_min(A_SS) + λ_max(A_SS))` per factor `S`.
    Blocked,
    /// Erleben 2017 eq. 40 as printed (not a solver of the law, see above).
    BlockedMatrix,
}

impl Default for RFactor {
    /// `Global { r: 5.0 }`, the paper's hardwired value.
    fn default() -> Self {
        RFactor::Global { r: 5.0 }
    }
}

impl RFactor {
    /// The name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            RFactor::Global { .. } => "global",
            RFactor::GlobalSpectral => "global-spectral",
            RFactor::Local => "local",
            RFactor::Blocked => "blocked",
            RFactor::BlockedMatrix => "blocked-matrix",
        }
    }

    /// The paper's backtracking factor `ν`: 0.9 for Local, 0.5 otherwise (§4.2).
    pub fn default_nu(self) -> f64 {
        match self {
            RFactor::Local => 0.9,
            _ => 0.5,
        }
    }

    /// Every strategy name, for help texts.
    pub const NAMES: &'static [&'static str] = &[
        "global",
        "global-spectral",
        "local",
        "blocked",
        "blocked-matrix",
    ];
}

/// The string [`RFactor::from_str`] reads back: the [`RFactor::name`], and `global=R` for a
/// constant (`global=5` for the paper's; Rust's shortest round-trip form of `R`).
impl fmt::Display for RFactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RFactor::Global { r } => write!(f, "global={r}"),
            other => f.write_str(other.name()),
        }
    }
}

/// Serialised as its string form ([`fmt::Display`]: `"local"`, `"global=5"`).
impl Serialize for RFactor {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Read from the string form of [`RFactor::from_str`] (`"global"` is `global=5`).
impl<'de> Deserialize<'de> for RFactor {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl FromStr for RFactor {
    type Err = String;
    /// `global` (r = 5), `global=R` (a given r), `global-spectral`, `local`, `blocked`,
    /// `blocked-matrix`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.to_ascii_lowercase();
        if let Some(v) = s.strip_prefix("global=") {
            let r: f64 = v
                .parse()
                .map_err(|_| format!("`{v}` is not a number (global=R)"))?;
            if !(r > 0.0 && r.is_finite()) {
                return Err(format!("the global r-factor must be positive, got {r}"));
            }
            return Ok(RFactor::Global { r });
        }
        Ok(match s.as_str() {
            "global" => RFactor::default(),
            "global-spectral" | "spectral" => RFactor::GlobalSpectral,
            "local" => RFactor::Local,
            "blocked" => RFactor::Blocked,
            "blocked-matrix" => RFactor::BlockedMatrix,
            other => {
                return Err(format!(
                    "unknown r-factor strategy `{other}` (expected one of {}, or global=R)",
                    RFactor::NAMES.join(", ")
                ));
            }
        })
    }
}

/// The r-factors of one contact: a `d x d` matrix (row-major in `m`), block diagonal by
/// the law's factors; `diagonal` marks the common case with no off-diagonal entries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RBlock {
    pub d: usize,
    pub m: [f64; 16],
    pub diagonal: bool,
}

impl RBlock {
    fn diagonal(values: &[f64]) -> RBlock {
        let d = values.len();
        let mut m = [0.0; 16];
        for (k, v) in values.iter().enumerate() {
            m[k * d + k] = *v;
        }
        RBlock {
            d,
            m,
            diagonal: true,
        }
    }

    /// `R <- s R`.
    pub fn scale(&mut self, s: f64) {
        for v in &mut self.m[..self.d * self.d] {
            *v *= s;
        }
    }

    /// `z = λ - R v` for all `d` rows.
    #[inline]
    pub fn apply(&self, lam: &[f64], v: &[f64], z: &mut [f64]) {
        self.apply_rows(0, self.d, lam, v, z);
    }

    /// `z_S = λ_S - R_SS v_S` for the rows `S = start..start+len` (slices hold only `S`).
    #[inline]
    pub fn apply_rows(&self, start: usize, len: usize, lam: &[f64], v: &[f64], z: &mut [f64]) {
        let d = self.d;
        if self.diagonal {
            for k in 0..len {
                let i = start + k;
                z[k] = lam[k] - self.m[i * d + i] * v[k];
            }
        } else {
            for k in 0..len {
                let i = start + k;
                let mut s = 0.0;
                for (l, vl) in v.iter().enumerate().take(len) {
                    s += self.m[i * d + start + l] * vl;
                }
                z[k] = lam[k] - s;
            }
        }
    }
}

/// Symmetric eigenvalues (ascending) of a small square block given row-major.
fn block_eigenvalues(block: &[f64], d: usize, start: usize, len: usize) -> DVector<f64> {
    let a = DMatrix::from_fn(len, len, |i, j| {
        0.5 * (block[(start + i) * d + start + j] + block[(start + j) * d + start + i])
    });
    let mut e = a.symmetric_eigenvalues();
    e.as_mut_slice().sort_by(f64::total_cmp);
    e
}

/// The initial r-factor blocks of every contact for `strategy`.
///
/// `blocks[c]` is the diagonal block `A_cc` of contact `c` (row-major, `d_c x d_c`);
/// `offsets` the contacts' first rows; `global_r` the constant of the global strategies.
pub(crate) fn initial_blocks(
    laws: &[ContactLaw],
    offsets: &[usize],
    blocks: &[[f64; 16]],
    strategy: RFactor,
    global_r: f64,
) -> Result<Vec<RBlock>, ProblemError> {
    let mut out = Vec::with_capacity(laws.len());
    for (c, law) in laws.iter().enumerate() {
        let d = law.dim();
        let a = &blocks[c];
        if matches!(strategy, RFactor::Global { .. } | RFactor::GlobalSpectral) {
            out.push(RBlock::diagonal(&vec![global_r; d]));
            continue;
        }
        for k in 0..d {
            let v = a[k * d + k];
            if !(v > 0.0) {
                return Err(ProblemError::NonPositiveDiagonal {
                    what: "A (the Delassus operator)",
                    row: offsets[c] + k,
                    value: v,
                });
            }
        }
        let mut diag = [0.0; 4];
        // ANCHOR: strategies
        match strategy {
            RFactor::Local => {
                for &(s, len) in law.factors() {
                    let m = (s..s + len).map(|i| a[i * d + i]).fold(0.0, f64::max);
                    diag[s..s + len].iter_mut().for_each(|r| *r = 1.0 / m);
                }
                out.push(RBlock::diagonal(&diag[..d]));
            }
            RFactor::Blocked => {
                for &(s, len) in law.factors() {
                    let e = block_eigenvalues(a, d, s, len);
                    let (lo, hi) = (e[0].max(0.0), e[len - 1]);
                    let r = 2.0 / (lo + hi);
                    diag[s..s + len].iter_mut().for_each(|x| *x = r);
                }
                out.push(RBlock::diagonal(&diag[..d]));
            }
            // ANCHOR_END: strategies
            RFactor::BlockedMatrix => {
                let mut m = [0.0; 16];
                m[0] = 1.0 / a[0];
                if d > 1 {
                    let f = d - 1;
                    let aff = DMatrix::from_fn(f, f, |i, j| a[(1 + i) * d + 1 + j]);
                    let inv = aff
                        .try_inverse()
                        .filter(|inv| inv.iter().all(|v| v.is_finite()))
                        .ok_or(ProblemError::SingularBlock { contact: c })?;
                    for i in 0..f {
                        for j in 0..f {
                            m[(1 + i) * d + 1 + j] = inv[(i, j)];
                        }
                    }
                }
                out.push(RBlock {
                    d,
                    m,
                    diagonal: d == 1,
                });
            }
            RFactor::Global { .. } | RFactor::GlobalSpectral => unreachable!("handled above"),
        }
    }
    Ok(out)
}

/// Extreme eigenvalues `(λ_min, λ_max)` of the symmetric operator `apply` on `R^n`: by
/// power iteration on `A` for `λ_max`, then on `λ_max I - A` for `λ_min`, `iterations`
/// steps each from a fixed start. The `λ_min` estimate is a Rayleigh quotient of
/// `λ_max I - A`, so it never undershoots the true `λ_min` by more than `λ_max`'s error.
pub(crate) fn power_extremes(
    n: usize,
    iterations: usize,
    apply: impl Fn(&DVector<f64>) -> DVector<f64>,
) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let start = DVector::from_fn(n, |i, _| 1.0 + 0.5 * (((i * 7919) % 101) as f64 / 101.0));
    let top = |shift: f64| -> f64 {
        let mut x = start.normalize();
        let mut lambda = 0.0;
        for _ in 0..iterations {
            let mut y = apply(&x);
            if shift != 0.0 {
                y = &x * shift - y;
            }
            lambda = x.dot(&y);
            let norm = y.norm();
            if !(norm > 0.0) || !norm.is_finite() {
                break;
            }
            x = y / norm;
        }
        lambda
    };
    let hi = top(0.0);
    let lo = hi - top(hi);
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::friction::FrictionLaw;

    #[test]
    fn strategies_parse_and_print() {
        for name in RFactor::NAMES {
            assert_eq!(name.parse::<RFactor>().unwrap().name(), *name);
        }
        assert_eq!(
            "global=0.25".parse::<RFactor>().unwrap(),
            RFactor::Global { r: 0.25 }
        );
        assert!("global=-1".parse::<RFactor>().is_err());
        for r in [
            RFactor::Global { r: 5.0 },
            RFactor::Global { r: 0.1 },
            RFactor::Local,
            RFactor::BlockedMatrix,
        ] {
            assert_eq!(r.to_string().parse::<RFactor>().unwrap(), r);
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(serde_json::from_str::<RFactor>(&json).unwrap(), r);
        }
        assert_eq!(RFactor::default().to_string(), "global=5");
        assert!("nope".parse::<RFactor>().is_err());
    }

    #[test]
    fn local_and_blocked_choose_one_scalar_per_factor() {
        // One disk contact with block [[4, 0, 0], [0, 2, 1], [0, 1, 2]].
        let mut a = [0.0; 16];
        a[..9].copy_from_slice(&[4.0, 0.0, 0.0, 0.0, 2.0, 1.0, 0.0, 1.0, 2.0]);
        let laws = [ContactLaw::Friction(FrictionLaw::Disk { mu: 0.5 })];
        let local = initial_blocks(&laws, &[0, 3], &[a], RFactor::Local, 0.0).unwrap();
        assert_eq!(
            &local[0].m[..9],
            &[0.25, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.5]
        );
        // eigenvalues of the friction block: 1 and 3, so r = 2 / 4.
        let blocked = initial_blocks(&laws, &[0, 3], &[a], RFactor::Blocked, 0.0).unwrap();
        assert!((blocked[0].m[4] - 0.5).abs() < 1e-15 && blocked[0].diagonal);
        let matrix = initial_blocks(&laws, &[0, 3], &[a], RFactor::BlockedMatrix, 0.0).unwrap();
        assert!(!matrix[0].diagonal);
        assert!((matrix[0].m[5] + 1.0 / 3.0).abs() < 1e-15);
        // A box law's rows are factors of their own: 1 / A_ii each.
        let boxed = [ContactLaw::Friction(FrictionLaw::Box { mu: [0.5, 0.5] })];
        a[4] = 3.0;
        let local = initial_blocks(&boxed, &[0, 3], &[a], RFactor::Local, 0.0).unwrap();
        assert_eq!((local[0].m[4], local[0].m[8]), (1.0 / 3.0, 0.5));
        a[0] = 0.0;
        assert!(initial_blocks(&boxed, &[0, 3], &[a], RFactor::Local, 0.0).is_err());
    }

    #[test]
    fn power_iteration_finds_the_extremes() {
        let a = DMatrix::from_fn(20, 20, |i, j| {
            if i == j {
                2.0 + i as f64 * 0.1
            } else if i.abs_diff(j) == 1 {
                -0.5
            } else {
                0.0
            }
        });
        let exact = a.clone().symmetric_eigenvalues();
        let (lo, hi) = power_extremes(20, 3000, |x| &a * x);
        assert!((hi - exact.max()).abs() < 1e-8, "{hi} {}", exact.max());
        assert!((lo - exact.min()).abs() < 1e-6, "{lo} {}", exact.min());
    }
}
