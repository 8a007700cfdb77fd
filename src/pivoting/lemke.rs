//! Checked by `tests/laws/lemke.rs` and `tests/laws/redundant_contacts.rs`.

use crate::solver::MethodOptions;
use std::collections::HashSet;
use std::ops::ControlFlow;

use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};

use crate::merit::{Residual, lcp_error};
use crate::problem::{Lcp, ProblemError, check_len, fmt_num};
use crate::solver::{
    Iterate, Method, NonExhaustive, Params, SolveError, Solved, Status, Step, solve_prepared,
};

/// Largest `n` the dense method accepts (it stores `B^-1`, `n x n`, and keeps the limits
/// of the `n x (2n + 2)` tableau it replaced: [`crate::matrix::check_dense`] on that
/// size, then this).
pub const MAX_DIM: usize = 4000;

/// The default of [`LemkeOptions::zero_tol`]: the relative size below which a computed
/// result counts as rounding, that is as zero.
///
/// Exact arithmetic resolves degenerate ties exactly: equal ratios are equal, and the
/// lexicographic rule breaks them by the rows of `B^-1`. In floating point the same
/// quantities come out a few units in the last place apart, and comparing them exactly
/// lets that rounding choose the row. On `lcp_tobenna.dat` the method then leaves the
/// exact path, revisits a basis after 57 pivots and would cycle to the cap (the error
/// 2.2 of issue 9). So each decision that exact arithmetic takes on a zero is taken here
/// on "below `ZERO_TOL` of the magnitudes the number is computed from":
///
/// * **cancellation**: an update `t - u` of `B^-1` or `B^-1 q` that leaves less than
///   `ZERO_TOL max(|t|, |u|)` is set to exactly zero, so an exact zero stays exact;
/// * **pivot candidates**: an entry of the entering column `d = B^-1 a` counts only if
///   `|d_i| > ZERO_TOL sum_k |(B^-1)_ik a_k|`, else it is set to zero and its row is left
///   alone by the pivot. On a rank-deficient `M` (more contacts than degrees of freedom)
///   entries that are zero in exact arithmetic come out of the updates as rounding, and
///   pivoting on one divides by rounding (an earlier version cycled on the case kept in
///   `tests/proptest-regressions/redundant_contacts.txt`);
/// * **ties of the ratio test**: two keys `t_i / d_i`, `t_k / d_k` (`t` a column of
///   `[B^-1 q, B^-1]`) tie when they differ by at most `ZERO_TOL (ρ_i / d_i + ρ_k / d_k)`,
///   `ρ_i = max(|(B^-1 q)_i|, ‖(B^-1)_i‖∞)` the size of the numbers row `i` holds.
///
/// No comparison is made with a tolerance between rows that are not tied: the rule keeps
/// the rows within rounding of the smallest key and moves to the next column, so the
/// choice does not depend on the order of the rows.
///
/// The value is measured, not derived, between two failures:
///
/// * **too small**: at `1e-14` and below, the rounding that a few pivots accumulate
///   decides ties on the random degenerate LCPs of `tests/regress/lemke_cycling.rs`, and
///   the path leaves that of exact arithmetic (a basis can repeat);
/// * **too large**: data that differ by less than the tolerance are read as equal. The
///   adversarial LCP `A = I`, `b = (-5e-320, -1e-310)` (entries `5e-10` apart relative to
///   the largest) ends at `1e-9` on a point with error `5e-10` instead of the exact answer;
///   in MuJoCo's pyramidal box stack (`mujoco_box_stack4_pyramidal.json`, shared data)
///   entries of `q` differ by `6e-11` relative, and from `1e-11` on the path differs
///   from that of exact arithmetic (at `1e-9`: 69 pivots instead of 71).
///
/// At `1e-12` every test of `tests/regress/lemke_cycling.rs`, `tests/laws/lemke.rs`,
/// `tests/laws/redundant_contacts.rs` (rank-deficient `W`) and
/// `tests/laws/newton_agrees_with_lemke.rs` passes (they pass from `1e-13` to `1e-9`), and
/// the method makes the pivots of exact arithmetic on every real LCP at hand: the shared
/// Siconos files, `lcp_tobenna.dat` and the MuJoCo one. Above the rounding is the safe
/// side: a tie read where there is none only changes which of two almost equal rows
/// leaves, while rounding read as a difference can make the path cycle.
pub const ZERO_TOL: f64 = 1e-12;

/// The options of Lemke's method ([`Lemke`], [`lemke`]). Serialised with the field
/// names (`zero_tol`), every field optional, unknown ones refused.
///
/// ```
/// use nonsmooth::pivoting::LemkeOptions;
/// let o: LemkeOptions = serde_json::from_str(r#"{"polish": false}"#).unwrap();
/// assert_eq!((o.zero_tol, o.polish), (1e-12, false));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LemkeOptions {
    /// The relative size below which a computed number counts as zero, dimensionless: a
    /// cancellation in the update of `B^-1` or `B^-1 b`, an entry of the entering column
    /// (no pivot on it), the difference of two keys of the ratio test (a tie). Default
    /// [`ZERO_TOL`] `= 1e-12`, whose documentation says how it was measured (every test
    /// passes from `1e-13` to `1e-9`); in `[0, 1)`, 0 compares exactly (and lets rounding
    /// decide ties). Not in the references: exact arithmetic needs no tolerance.
    pub zero_tol: f64,
    /// Re-solve `A_BB x_B = -b_B` by LU on the final basis and keep the result when its
    /// error is smaller. Default `true`.
    pub polish: bool,
    #[doc(hidden)]
    #[serde(skip)]
    pub non_exhaustive: NonExhaustive,
}

impl MethodOptions for LemkeOptions {}

impl Default for LemkeOptions {
    fn default() -> Self {
        LemkeOptions {
            zero_tol: ZERO_TOL,
            polish: true,
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

/// What Lemke's method counted ([`Lemke`]), in [`Solved::stats`] and in the report of
/// [`SolveError::NoConvergence`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LemkeStats {
    /// Pivots made, the first (`x0` entering) included: the report's iterations.
    pub pivots: usize,
    /// Degenerate pivots: the entering variable came in at value zero (the leaving row's
    /// basic value was zero), so the basic solution did not move.
    pub degenerate: usize,
    /// Ratio tests in which several rows shared the minimum ratio (within
    /// [`LemkeOptions::zero_tol`]), the tie then broken by the columns of `B^-1` (the
    /// lexicographic rule) or by `x0`'s priority; the first pivot's most negative `b_i`
    /// counts too when it is shared.
    pub ties: usize,
    /// The method ended on a basis it had visited before (the cycle guard; impossible in
    /// exact arithmetic).
    pub repeated_basis: bool,
    /// The LU re-solve on the final basis improved the answer and was kept.
    pub polished: bool,
    /// The exponent `k` of the power of two by which `b` was scaled (`2^k b` has its largest
    /// entry in `[1, 2)`).
    pub scale_exponent: i32,
}

/// What Lemke's method keeps: the options, and during a solve the dense `A`, the basis and
/// the bases seen.
#[derive(Debug, Clone)]
pub struct LemkePrepared {
    options: LemkeOptions,
    /// `b >= 0`: `x = 0` is the answer, no pivot is needed.
    trivial: bool,
    run: Option<Run>,
}

/// The state of one solve.
#[derive(Debug, Clone)]
struct Run {
    a: DMatrix<f64>,
    t: Basis,
    /// The scaling exponent of `b`.
    k: i32,
    /// The hashes of the bases visited.
    seen: HashSet<u128>,
    /// What the next step does.
    next: Next,
    /// The x-part of the basic solution, before it is copied to `x`.
    z: DVector<f64>,
}

#[derive(Debug, Clone, Copy)]
enum Next {
    /// Pivot in this row (the first pivot, `x0` entering).
    Pivot(usize),
    /// The complement of this variable (the one that left) enters, then the ratio test.
    Enter(usize),
}

impl Method for Lemke {
    type Problem = Lcp;
    type Options = LemkeOptions;
    type Prepared = LemkePrepared;
    type Stats = LemkeStats;

    /// Checks the size (dense storage, `n <= MAX_DIM`) and the options.
    /// Pivoting ends on its own in finitely many pivots: no stall rule.
    fn stall_rule(_: &Self::Prepared) -> crate::solver::StallRule {
        crate::solver::StallRule::NEVER
    }

    fn prepare(lcp: &Lcp, options: &LemkeOptions) -> Result<LemkePrepared, SolveError> {
        let n = lcp.dim();
        // Refuse before allocating (a sparse file of a few bytes can declare n = 2^20).
        crate::matrix::check_dense("Lemke's tableau", n, 2 * n + 2)?;
        if n > MAX_DIM {
            return Err(ProblemError::Unsupported {
                reason: format!("Lemke's dense tableau is limited to n <= {MAX_DIM} (n = {n})"),
            }
            .into());
        }
        let tol = options.zero_tol;
        if !(0.0..1.0).contains(&tol) {
            return Err(ProblemError::InvalidOption {
                method: "lemke".into(),
                option: "zero_tol".into(),
                reason: format!("{} is out of range (it must lie in [0, 1))", fmt_num(tol)),
            }
            .into());
        }
        Ok(LemkePrepared {
            options: options.clone(),
            trivial: false,
            run: None,
        })
    }

    /// The dense `A`, `b` scaled by a power of two, the basis of the slacks `w` and the
    /// row where `x0` enters. The warm start is not used.
    fn start(prepared: &mut LemkePrepared, lcp: &Lcp, _: &DVector<f64>) -> Result<(), SolveError> {
        let b = lcp.b();
        prepared.trivial = b.iter().all(|v| *v >= 0.0);
        prepared.run = None;
        if prepared.trivial {
            return Ok(());
        }
        let n = lcp.dim();
        // `b` times the power of two that brings its largest entry to [1, 2): exact, so no
        // decision of the ratio test changes, and the basic values are of order one.
        let k = -(b.amax().log2().floor() as i32);
        let q = b.map(|v| crate::solver::mul_pow2(v, k));
        let t = Basis::new(q, prepared.options.zero_tol);
        // ANCHOR: first_pivot
        // First pivot: x0 enters with column -e; the leaving row is the lexicographic
        // minimum of the rows [q_i, e_i]: the most negative q_i, on a tie the largest index
        // (after it every row of [B^-1 q, B^-1] is lexicographically positive).
        let mut row = 0;
        for i in 1..n {
            if t.rhs[i] <= t.rhs[row] {
                row = i;
            }
        }
        // ANCHOR_END: first_pivot
        let seen = HashSet::from([t.hash]);
        let mut run = Run {
            a: lcp.a().to_dense(),
            t,
            k,
            seen,
            next: Next::Pivot(row),
            z: DVector::zeros(n),
        };
        run.t.enter(run.t.z0(), &run.a);
        prepared.run = Some(run);
        Ok(())
    }

    // ANCHOR: step
    /// One pivot: the complement of the variable that left enters (after the first pivot),
    /// the ratio test picks the row, and the pivot updates `B^-1` and `B^-1 q`.
    fn step(
        prepared: &mut LemkePrepared,
        lcp: &Lcp,
        x: &mut DVector<f64>,
        stats: &mut LemkeStats,
    ) -> Result<Step, SolveError> {
        if prepared.trivial {
            x.fill(0.0);
            return Ok(Step::Finished(Status::Converged));
        }
        let polish_answer = prepared.options.polish;
        let run = prepared.run.as_mut().expect("started");
        let (t, n) = (&mut run.t, lcp.dim());
        stats.scale_exponent = run.k;
        let row = match run.next {
            Next::Pivot(row) => {
                stats.ties += usize::from(t.rhs.iter().filter(|&&v| v == t.rhs[row]).count() > 1);
                row
            }
            Next::Enter(leaving) => {
                // The complement of the leaving variable enters.
                t.enter(
                    if leaving < n {
                        leaving + n
                    } else {
                        leaving - n
                    },
                    &run.a,
                );
                if !t.d.iter().all(|v| v.is_finite()) {
                    return Err(overflow(lcp, x, stats.pivots));
                }
                match t.leaving_row(&mut stats.ties) {
                    Some(r) => r,
                    None => {
                        if !t.extract(x, run.k) {
                            return Err(overflow(lcp, x, stats.pivots));
                        }
                        return Err(SolveError::RayTermination {
                            pivots: stats.pivots,
                        });
                    }
                }
            }
        };
        stats.degenerate += usize::from(t.rhs[row] == 0.0);
        let leaving = t.pivot(row);
        stats.pivots += 1;
        if !t.is_finite() {
            return Err(overflow(lcp, x, stats.pivots));
        }
        let ends = leaving == t.z0() || !run.seen.insert(t.hash);
        // x <- the x-part of the basic solution, kept when finite.
        if t.extract(&mut run.z, run.k) {
            x.copy_from(&run.z);
        } else if ends {
            return Err(overflow(lcp, x, stats.pivots));
        }
        if leaving == t.z0() {
            stats.polished = polish_answer && polish(lcp, &run.a, &t.basis, n, x);
            return Ok(Step::Finished(Status::Converged));
        }
        if ends {
            // A repeated basis: rounding has broken the rule (exact arithmetic never
            // repeats one), and the path would now cycle.
            stats.repeated_basis = true;
            return Ok(Step::Finished(Status::Converged));
        }
        run.next = Next::Enter(leaving);
        Ok(Step::Moved)
    }
    // ANCHOR_END: step

    fn error(_: &LemkePrepared, lcp: &Lcp, x: &DVector<f64>) -> Residual {
        lcp_error(lcp, x)
    }

    /// Only when `b >= 0` (then `x = 0` is the answer): the pivots are not cut short.
    fn stops_at_tolerance(prepared: &LemkePrepared) -> bool {
        prepared.trivial
    }
}

/// Solves an LCP by Lemke's method ([`Lemke`]): [`crate::solver::solve`] with `x` zeroed
/// first (Lemke needs no start). `x` receives the answer; the observer sees every pivot
/// (the x-part of the basic solution); the report's `stats` count pivots, degenerate
/// pivots and ties.
///
/// # Errors
/// [`SolveError::RayTermination`] on a secondary ray; [`SolveError::NoConvergence`] if the
/// pivot cap is hit, a basis repeats, or the final error exceeds `params.tol` (the report
/// carries the pivots, the error of the returned `x` and the statistics);
/// [`SolveError::Diverged`] on an overflow; [`SolveError::Problem`] for a wrong `x`
/// length, `n > 4000` (`ProblemError::TooLarge` when the dense storage would exceed
/// [`crate::matrix::MAX_DENSE_ENTRIES`]) or an invalid option
/// ([`ProblemError::InvalidOption`]).
///
/// # Reference
/// Lemke 1965; Cottle, Pang, Stone 1992 §4.4, §4.9.
///
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::{problem::Lcp, solver::{Params, no_observer}};
/// use nonsmooth::pivoting::{LemkeOptions, lemke};
/// let lcp = Lcp::new(DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]).into(),
///                    DVector::from_vec(vec![-5.0, -6.0])).unwrap();
/// let mut x = DVector::zeros(2);
/// let params = Params { tol: 1e-12, ..Default::default() };
/// let info = lemke(&lcp, &mut x, &params, &LemkeOptions::default(), &mut no_observer()).unwrap();
/// assert!(info.error.rel <= 1e-12);
/// assert!((x[1] - 7.0 / 3.0).abs() < 1e-14);
/// assert_eq!(info.stats.pivots, info.iterations);
/// ```
pub fn lemke(
    lcp: &Lcp,
    x: &mut DVector<f64>,
    params: &Params,
    options: &LemkeOptions,
    observer: &mut dyn FnMut(&Iterate) -> ControlFlow<()>,
) -> Result<Solved<LemkeStats>, SolveError<LemkeStats>> {
    check_len("x", lcp.dim(), x.len())?;
    let mut prepared = Lemke::prepare(lcp, options).map_err(SolveError::lift)?;
    x.fill(0.0);
    solve_prepared::<Lemke>(&mut prepared, lcp, x, params, observer)
}

/// Lemke's complementary pivoting method with the lexicographic minimum ratio test.
///
/// Solves `w = A x + b`, `0 <= x ⊥ w >= 0` (`A` is `n x n`) by pivoting on the system
/// `I w - A x - e x0 = b` (covering vector `e = 1`): the artificial variable `x0` enters at
/// the most negative `b_i`, and each pivot brings in the complement of the variable that
/// just left, until `x0` leaves (a solution) or no row bounds the entering column (a
/// secondary ray).
///
/// # The ratio test, and why the method terminates
/// The leaving row is the **lexicographic minimum** of the rows of `[B^-1 b, B^-1]`, each
/// divided by its entry `d_i > 0` of the entering column (`B` the basis matrix): the
/// minimum ratio `(B^-1 b)_i / d_i` first, ties broken by the first column of `B^-1`, then
/// the second, and so on (Cottle, Pang, Stone 1992, §4.9, applied to Lemke's scheme
/// §4.4). The rows of `B^-1` are linearly independent, so in exact arithmetic the
/// minimum is unique, every basis stays lexicographically feasible, no almost
/// complementary basis is visited twice, and there are finitely many: the method ends on
/// a solution or a ray, whatever the degeneracy of `b`. When `x0` is basic in a row that
/// ties on the ratio it leaves (that pivot ends the method on a solution).
///
/// In floating point the rule is applied column by column: keep the rows whose key is
/// within rounding of the smallest, and move to the next column while more than one
/// remains. "Within rounding" is [`LemkeOptions::zero_tol`] (default `1e-12`) of the size
/// of the numbers the row holds, and results of a cancellation below that fraction of its
/// terms are exact zeros ([`ZERO_TOL`] says why and how the value was measured); comparing computed keys exactly lets
/// rounding decide the ties, and the method cycled on a 40-variable problem from
/// Siconos's test data. On every test problem the pivots made are those of exact
/// arithmetic (`tests/regress/lemke_cycling.rs` compares with an exact rational Lemke).
/// As a guard that holds whatever the rounding, each basis is remembered (a 128-bit
/// hash): a basis seen before, impossible in exact arithmetic, ends the method at once,
/// so it stops within the number of almost complementary bases or `params.max_iter`
/// pivots, whichever is smaller.
///
/// # Robustness
/// * `b` is scaled by the power of two `2^k` that brings its largest entry to `[1, 2)`
///   (exact; the answer is scaled back), so the basic values are of order one whatever the
///   units of `b`.
/// * When it ends on a solution the answer is polished: with the final basis the system
///   `A_BB x_B = -b_B` is re-solved by LU, and the polished point is kept if its error is
///   smaller.
/// * A value past the largest float (in the basis, the entering column or the answer:
///   extreme data) stops the method with [`SolveError::Diverged`]; `x` is then zero. An
///   intermediate basic solution whose x-part alone overflows (the basis itself finite)
///   does not stop the pivots: `x` keeps the last finite one.
///
/// # One pivot per iteration
/// As a [`Method`] (on an [`Lcp`], options [`LemkeOptions`], statistics [`LemkeStats`]):
/// `prepare` checks the size and the options; `start` copies `A` to dense, scales `b` and
/// makes the first basis; each `step` is **one pivot** (the first brings `x0` in), after
/// which `x` holds the x-part of the basic solution, `max(B^-1 b, 0)` on the basic `x_j`
/// and zero elsewhere, so the loop's error and the observer see the path. The basis that
/// makes `x0` leave ends the method ([`Step::Finished`] with `Converged`, granted if the
/// error meets the tolerance), as does a repeated basis (the cycle guard, the same claim;
/// [`LemkeStats::repeated_basis`]). The loop does not cut the path short when an
/// intermediate basis happens to meet the tolerance ([`Method::stops_at_tolerance`] is
/// `false` while pivoting): the pivots are those of the method, comparable with other
/// implementations. When `b >= 0`, `x = 0` is the answer and no pivot is made.
///
/// `params.max_iter` caps the pivots (the first, `x0` entering, counts); `params.tol` is
/// the LCP error ([`lcp_error`]) below which the result counts as converged. Lemke needs no
/// start: [`lemke`] zeroes `x` first, and a warm start given to [`crate::solver::solve`] is
/// only kept when it already meets the tolerance and `b >= 0`; otherwise the first pivot
/// overwrites it.
///
/// # Requirements
/// Lemke's method terminates with a solution for P-matrices and, when the LCP is
/// feasible, for copositive-plus matrices (Cottle, Pang, Stone 1992, Thm. 4.4.9, 4.4.13);
/// otherwise it may end on a ray. The matrix is converted to dense; `n <= 4000`.
///
/// # Errors
/// [`SolveError::RayTermination`] on a secondary ray; [`SolveError::NoConvergence`] when
/// the method ends (its solution, a repeated basis, or the pivot cap) with an error above
/// `params.tol` (the report carries the pivots, the error of the returned `x` and the
/// statistics); [`SolveError::Diverged`] on an overflow; [`SolveError::Problem`] for
/// `n > 4000` (`ProblemError::TooLarge` when the dense storage would exceed
/// [`crate::matrix::MAX_DENSE_ENTRIES`]), a wrong `x` length or an invalid option
/// ([`ProblemError::InvalidOption`]).
///
/// # Reference
/// Lemke 1965; Cottle, Pang, Stone 1992 §4.4 (the scheme), §4.9 (lexicographic
/// degeneracy resolution).
///
/// ```
/// use nalgebra::{DMatrix, DVector};
/// use nonsmooth::pivoting::{Lemke, LemkeOptions};
/// use nonsmooth::{problem::Lcp, solver::{Params, no_observer, solve}};
/// let lcp = Lcp::new(DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]).into(),
///                    DVector::from_vec(vec![-5.0, -6.0])).unwrap();
/// let mut x = DVector::zeros(2);
/// let params = Params { tol: 1e-12, ..Default::default() };
/// let info = solve::<Lemke>(&lcp, &mut x, &params, &LemkeOptions::default(),
///                           &mut no_observer()).unwrap();
/// assert_eq!((info.iterations, info.stats.pivots), (3, 3)); // x0 in, x_2 in, x_1 in as x0 leaves
/// assert!((x[1] - 7.0 / 3.0).abs() < 1e-14);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Lemke;

/// A number of the method went past the largest float: `x` is set to zero and the error
/// measured there.
fn overflow(lcp: &Lcp, x: &mut DVector<f64>, pivots: usize) -> SolveError {
    x.fill(0.0);
    SolveError::Diverged {
        iteration: pivots,
        error: lcp_error(lcp, x),
    }
}

/// Lemke's method in revised form: the basis, `B^-1` and `B^-1 q` for the system
/// `I w - M z - e z0 = q`, with the variables numbered `w_i = i`, `z_j = n + j`,
/// `z0 = 2n`.
#[derive(Debug, Clone)]
struct Basis {
    n: usize,
    /// [`LemkeOptions::zero_tol`].
    tol: f64,
    /// `basis[i]`: the variable basic in row `i`.
    basis: Vec<usize>,
    /// `B^-1` transposed: column `i` is row `i` of `B^-1`, so that the row operations of a
    /// pivot and the lexicographic keys read contiguous memory.
    bt: DMatrix<f64>,
    /// `B^-1 q`: the values of the basic variables.
    rhs: DVector<f64>,
    /// `‖(B^-1)_i‖∞`, kept up to date by the pivots.
    row_max: Vec<f64>,
    /// The entering variable and its column `d = B^-1 a` (rounding-level entries zeroed).
    entering: usize,
    d: DVector<f64>,
    /// A 128-bit hash of the set of basic variables (the XOR of one random key each).
    hash: u128,
}

/// `t - u`, or exactly zero when the two cancel to below `tol` of the larger
/// ([`LemkeOptions::zero_tol`]): what is left of such a cancellation is the rounding of `t`
/// and `u`, and a zero that stays exactly zero keeps the ties of the ratio test exact.
fn minus(t: f64, u: f64, tol: f64) -> f64 {
    let r = t - u;
    if r.abs() <= tol * t.abs().max(u.abs()) {
        0.0
    } else {
        r
    }
}

/// A fixed pseudo-random 128-bit key per variable (SplitMix64), for [`Basis::hash`].
fn zobrist(v: usize) -> u128 {
    let mix = |mut z: u64| {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let v = v as u64;
    (u128::from(mix(2 * v)) << 64) | u128::from(mix(2 * v + 1))
}

impl Basis {
    fn new(q: DVector<f64>, tol: f64) -> Self {
        let n = q.len();
        Basis {
            n,
            tol,
            basis: (0..n).collect(),
            bt: DMatrix::identity(n, n),
            rhs: q,
            row_max: vec![1.0; n],
            entering: 0,
            d: DVector::zeros(n),
            hash: (0..n).fold(0, |h, v| h ^ zobrist(v)),
        }
    }

    fn z0(&self) -> usize {
        2 * self.n
    }

    /// `max(|(B^-1 q)_i|, ‖(B^-1)_i‖∞)`: the size of the numbers row `i` is made of.
    fn row_scale(&self, i: usize) -> f64 {
        self.row_max[i].max(self.rhs[i].abs())
    }

    /// Every basic value and every row of `B^-1` finite (a NaN can only come from an
    /// infinity, which shows in the row maxima of the pivot that made it).
    fn is_finite(&self) -> bool {
        self.rhs.iter().chain(&self.row_max).all(|v| v.is_finite())
    }

    /// Makes `v` the entering variable: `d = B^-1 a_v` for its column `a_v` of
    /// `[I, -M, -e]` (`m` is `M`), with the entries that are below `tol` of the terms they
    /// are summed from (`|B^-1| |a_v|`) set to zero.
    fn enter(&mut self, v: usize, m: &DMatrix<f64>) {
        let n = self.n;
        self.entering = v;
        if v < n {
            // d_i = (B^-1)_iv is read, not summed: zero only if it is zero.
            self.d.copy_from(&self.bt.row(v).transpose());
            return;
        }
        // a_v / ‖a_v‖∞ (so that the sum of magnitudes does not overflow), with its sign.
        let (a, a_max): (Vec<f64>, f64) = if v < 2 * n {
            let col = m.column(v - n);
            let a_max = col.amax();
            (col.iter().map(|c| -c / a_max).collect(), a_max)
        } else {
            (vec![-1.0; n], 1.0)
        };
        if a_max == 0.0 {
            self.d.fill(0.0);
            return;
        }
        for (i, row) in self.bt.as_slice().chunks_exact(n).enumerate() {
            let (mut sum, mut size) = (0.0, 0.0);
            for (b, a) in row.iter().zip(&a) {
                sum += b * a;
                size += (b * a).abs();
            }
            self.d[i] = if sum.abs() <= self.tol * size {
                0.0
            } else {
                sum * a_max
            };
        }
    }

    // ANCHOR: ratio_test
    /// The row of the lexicographic minimum ratio (see [`Lemke`]), or `None` when no entry
    /// of `d` is positive (a secondary ray). Counts in `ties` a minimum ratio shared by
    /// several rows (within rounding), which the next columns then decide.
    fn leaving_row(&self, ties: &mut usize) -> Option<usize> {
        let n = self.n;
        let mut rows: Vec<usize> = (0..n).filter(|&i| self.d[i] > 0.0).collect();
        if rows.is_empty() {
            return None;
        }
        // The size of the keys of row i: rounding below tol of it is a tie.
        let scale_of = |i: usize| self.row_scale(i) / self.d[i];
        // Column c = 0 is B^-1 q, column c >= 1 is column c - 1 of B^-1.
        for c in 0..=n {
            let key = |i: usize| {
                let t = if c == 0 {
                    self.rhs[i]
                } else {
                    self.bt[(c - 1, i)]
                };
                t / self.d[i]
            };
            let best = rows
                .iter()
                .copied()
                .min_by(|&i, &j| key(i).total_cmp(&key(j)))
                .expect("rows is not empty");
            let (kb, sb) = (key(best), scale_of(best));
            rows.retain(|&i| key(i) - kb <= self.tol * (scale_of(i) + sb));
            if c == 0 {
                *ties += usize::from(rows.len() > 1);
                if let Some(&r) = rows.iter().find(|&&i| self.basis[i] == self.z0()) {
                    return Some(r);
                }
            }
            if rows.len() == 1 {
                break;
            }
        }
        // More than one row left only if rounding made rows of B^-1 look dependent: take
        // the largest pivot.
        rows.into_iter()
            .max_by(|&i, &j| self.d[i].total_cmp(&self.d[j]).then(j.cmp(&i)))
    }
    // ANCHOR_END: ratio_test

    // ANCHOR: pivot
    /// Pivots the entering variable into row `r`; returns the variable that left.
    fn pivot(&mut self, r: usize) -> usize {
        let n = self.n;
        let p = self.d[r];
        let data = self.bt.as_mut_slice();
        let mut pr = data[r * n..(r + 1) * n].to_vec();
        pr.iter_mut().for_each(|v| *v /= p);
        data[r * n..(r + 1) * n].copy_from_slice(&pr);
        self.row_max[r] = pr.iter().fold(0.0, |m, v| m.max(v.abs()));
        self.rhs[r] /= p;
        let v = self.rhs[r];
        for (i, row) in data.chunks_exact_mut(n).enumerate() {
            let f = self.d[i];
            if i != r && f != 0.0 {
                let mut m = 0.0f64;
                for (t, pv) in row.iter_mut().zip(&pr) {
                    *t = minus(*t, f * pv, self.tol);
                    m = m.max(t.abs());
                }
                self.row_max[i] = m;
                self.rhs[i] = minus(self.rhs[i], f * v, self.tol);
            }
        }
        let leaving = self.basis[r];
        self.basis[r] = self.entering;
        self.hash ^= zobrist(leaving) ^ zobrist(self.entering);
        leaving
    }
    // ANCHOR_END: pivot

    /// Reads `z` (the x-part of the basic solution) from the basis: basic `z_j` take their
    /// row's value, times `2^-k` (the scaling of `q` undone). Returns whether every entry is
    /// finite.
    fn extract(&self, x: &mut DVector<f64>, k: i32) -> bool {
        let n = self.n;
        x.fill(0.0);
        for (i, &v) in self.basis.iter().enumerate() {
            if (n..2 * n).contains(&v) {
                x[v - n] = crate::solver::mul_pow2(self.rhs[i].max(0.0), -k);
            }
        }
        x.iter().all(|v| v.is_finite())
    }
}

/// Re-solves `A_BB x_B = -b_B` on the final basis and keeps the result if it is better;
/// returns whether it did.
fn polish(lcp: &Lcp, a: &DMatrix<f64>, basis: &[usize], n: usize, x: &mut DVector<f64>) -> bool {
    let active: Vec<usize> = basis
        .iter()
        .filter(|v| (n..2 * n).contains(*v))
        .map(|v| v - n)
        .collect();
    if active.is_empty() {
        return false;
    }
    let k = active.len();
    let sub = DMatrix::from_fn(k, k, |i, j| a[(active[i], active[j])]);
    let rhs = DVector::from_fn(k, |i, _| -lcp.b()[active[i]]);
    if let Some(sol) = sub.lu().solve(&rhs) {
        let mut cand = DVector::zeros(n);
        for (i, &j) in active.iter().enumerate() {
            cand[j] = sol[i].max(0.0);
        }
        if cand.iter().all(|v| v.is_finite()) && lcp_error(lcp, &cand).abs < lcp_error(lcp, x).abs {
            x.copy_from(&cand);
            return true;
        }
    }
    false
}
