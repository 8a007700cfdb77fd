//! Judging an engine's answer: is it consistent with the contact law, and how far is it
//! from the reference solution?
//!
//! [`check`] measures an answer `r` (the unknowns of an LCP, a boxed LCP or a friction
//! problem) in the field's error measures ([`crate::merit`]: the natural-map error in both
//! Siconos normalisations, and contact by contact penetration, cone and dual-cone
//! violation, complementarity and dissipation), then, unless asked not to, solves the
//! problem itself to a tight tolerance with the most reliable method for its law and
//! reports `‖r - r*‖` overall and per contact ([`ReferenceReport`]). The verdict
//! (`consistent` / `inconsistent`) is the residual's, against [`CheckOptions::tol`]; the
//! distance grades it ([`CheckReport::grade`]): a small residual can hide forces far from
//! the solution on an ill-conditioned problem, and a residual above the tolerance can be
//! harmless.
//!
//! **Uniqueness.** The CCP's force and an LCP's solution are unique when `W` (its
//! symmetric part) is positive definite: a Cholesky factorisation of `(W + Wᵀ)/2` is tried
//! when `dim ≤` [`CheckOptions::cholesky_limit`], and the report says so; otherwise
//! uniqueness is "not established". Coulomb's law may have several solutions (Acary,
//! Cadoux, Lemaréchal, Malick 2011): the reference is then solved from the engine's answer
//! as a warm start, the nearest solution found, and the report says where it was found
//! from.
//!
//! **Generic mechanical problems** ([`GenericMechanical`], type `gmp`) are judged block
//! by block ([`block_checks`]): each record is a block's, with its law (`law`) and its
//! number of rows (`dim`) beside the fields of a contact's record, read for a one-row
//! block as that row's `r` and `u` (see [`block_checks`] for what each measure is for
//! each law). Uniqueness: the CCP is a strictly convex problem when `(W + Wᵀ)/2` is
//! positive definite (the same Cholesky test), whatever its equality, unilateral and
//! interval blocks; a problem whose contacts all have `mu = 0` is judged as the CCP, since
//! the two laws coincide there.
//!
//! **Units.** [`Level`] reads the provenance's units: data at the acceleration level
//! (MuJoCo's `b` in `m/s^2`) have forces in N and a "penetration acceleration"; at the
//! velocity level impulses in N s and a "penetration velocity".
//!
//! ```
//! use nalgebra::{DMatrix, DVector};
//! use nonsmooth::check::{CheckOptions, check};
//! use nonsmooth::problem::{AnyProblem, FrictionContact, FrictionKind, Provenance};
//! // One contact pressed into the ground and pushed sideways: it sticks, r* = -W⁻¹ q.
//! let w = DMatrix::from_row_slice(3, 3, &[2.0, 0.1, 0.0, 0.1, 1.0, 0.0, 0.0, 0.0, 1.0]);
//! let q = DVector::from_vec(vec![-1.0, 0.2, 0.0]);
//! let mu = DVector::from_vec(vec![0.5]);
//! let p = AnyProblem::Friction(FrictionContact::new(w.into(), q, mu, FrictionKind::Ccp).unwrap());
//! let exact = [1.02 / 1.99, -0.2 - 0.1 * 1.02 / 1.99, 0.0];
//! let off = [exact[0] + 1e-3, exact[1], exact[2]];
//! let report = check(&p, &off, &Provenance::default(), &CheckOptions::default()).unwrap();
//! assert_eq!(report.verdict, "inconsistent");
//! let reference = report.reference.unwrap();
//! assert_eq!(reference.unique, Some(true));
//! assert!((reference.distance.unwrap() - 1e-3).abs() < 1e-9);
//! ```
//!
//! Checked by `tests/laws/check_by.rs` and `tests/laws/check_distance.rs`.

use std::ops::ControlFlow;
use std::time::Instant;

use nalgebra::DVector;
use serde::Serialize;

use crate::merit::{
    ContactCheck, Measure, Residual, check_contacts, friction_error, mu_beyond_resolution,
};
use crate::problem::generic::project_on_isotropic_cone;
use crate::problem::{
    AnyProblem, Block, FrictionContact, FrictionKind, GenericMechanical, ProblemError, Provenance,
    Pyramid,
};
use crate::registry::{self, Choice};
use crate::solver::{NonExhaustive, Params};

/// What [`check`] does.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckOptions {
    /// Judge against this friction law instead of the problem's own (`None`: the
    /// problem's). An error for an LCP or a boxed LCP.
    pub kind: Option<FrictionKind>,
    /// Accept the answer when its error (Siconos 4.4 normalisation) and its normal
    /// condition are at most this ([`Residual::meets`]). Default `1e-8`.
    pub tol: f64,
    /// Solve the problem for a reference solution and report the distance to it. Default
    /// `true`.
    pub reference: bool,
    /// The tolerance the reference solve aims at. Default `1e-12`.
    pub reference_tol: f64,
    /// A reference is used only if its measured error is at most this (else the report
    /// says the reference solve failed, and gives no distance). Default `1e-9`.
    pub reference_accept: f64,
    /// Wall-clock budget in seconds for all the reference attempts together. Default 30.
    /// It is checked after every iteration of a reference solver (and before each
    /// attempt), so a run may exceed it by one iteration: one Newton step on a large
    /// problem (a sparse factorisation) is not interrupted.
    pub reference_seconds: f64,
    /// The largest `dim` for which positive definiteness of `W` is tested by a dense
    /// Cholesky factorisation. Default 1500.
    pub cholesky_limit: usize,
    /// What the verdict judges by: the residual (default), the distance to the reference
    /// solution, or both ([`JudgeBy`]).
    pub by: JudgeBy,
    #[doc(hidden)]
    pub non_exhaustive: NonExhaustive,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            kind: None,
            tol: 1e-8,
            reference: true,
            reference_tol: 1e-12,
            reference_accept: 1e-9,
            reference_seconds: 30.0,
            cholesky_limit: 1500,
            by: JudgeBy::Residual,
            non_exhaustive: NonExhaustive::default(),
        }
    }
}

/// What the verdict of [`check`] judges by. Both numbers are always reported; this
/// chooses which must be within [`CheckOptions::tol`].
///
/// * `Residual`: the answer satisfies the contact law to `tol` ([`Residual::meets`]: the
///   error in the Siconos 4.4 normalisation, the normal condition and the scaled error).
/// * `Distance`: the answer is within `tol` of the reference solution `r*`, relative:
///   `‖r - r*‖ / ‖r*‖ <= tol` and, contact by contact, `‖r_c - r*_c‖ <= tol · max_c ‖r*_c‖`
///   (no contact off by more than `tol` of the largest contact force; this catches one bad
///   contact among thousands, which the overall norm averages away). When `r* = 0` the
///   distance itself is compared, in the unit of `r`. Without a reference solution (not
///   found, or not asked) the verdict is `undecided`.
/// * `Both`: both must hold.
///
/// A residual is not a force error: on an ill-conditioned problem a small residual can
/// hide forces far from the solution, and a residual above `tol` can sit on forces a few
/// `tol` away (the [MuJoCo bridge chapter](https://nonsmooth.rs) measures both on MuJoCo's
/// default settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum JudgeBy {
    /// By the residual of the contact law (default).
    #[default]
    Residual,
    /// By the relative distance to the reference solution.
    Distance,
    /// By both.
    Both,
}

impl JudgeBy {
    /// `"residual"`, `"distance"` or `"both"`.
    pub fn name(self) -> &'static str {
        match self {
            JudgeBy::Residual => "residual",
            JudgeBy::Distance => "distance",
            JudgeBy::Both => "both",
        }
    }
}

impl std::str::FromStr for JudgeBy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "residual" => Ok(JudgeBy::Residual),
            "distance" => Ok(JudgeBy::Distance),
            "both" => Ok(JudgeBy::Both),
            other => Err(format!(
                "unknown judgement `{other}`: residual, distance or both"
            )),
        }
    }
}

/// The level of the data, read from [`Provenance::units`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// Velocities and impulses (`u` in m/s, `r` in N s).
    Velocity,
    /// Accelerations and forces (`b` or `u` in m/s², `r` in N), as MuJoCo writes.
    Acceleration,
    /// The units do not say.
    Unknown,
}

impl Level {
    /// Reads the level from the units: any of `u`, `b`, `q` in `m/s^2` (or `m/s²`), or
    /// `r` / `engine_solution` in `N` without `s`, means acceleration; `m/s` or `N s`
    /// means velocity; otherwise unknown.
    pub fn of(provenance: &Provenance) -> Level {
        let units = &provenance.units;
        let first = |key: &str| {
            units
                .get(key)
                .map(|s| s.split_whitespace().next().unwrap_or("").to_string())
        };
        for key in ["u", "b", "q"] {
            if let Some(u) = first(key) {
                if u.starts_with("m/s^2") || u.starts_with("m/s²") {
                    return Level::Acceleration;
                }
                if u == "m/s" {
                    return Level::Velocity;
                }
            }
        }
        for key in ["r", "engine_solution"] {
            if let Some(v) = units.get(key) {
                let v = v.trim();
                if v.starts_with("N s") || v.starts_with("N·s") || v.starts_with("Ns") {
                    return Level::Velocity;
                }
                if v == "N" || v.starts_with("N ") {
                    return Level::Acceleration;
                }
            }
        }
        Level::Unknown
    }

    /// `"velocity"`, `"acceleration"` or `"unknown"`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Velocity => "velocity",
            Level::Acceleration => "acceleration",
            Level::Unknown => "unknown",
        }
    }

    /// The unit of `r`: `Some("N s")`, `Some("N")`, or `None` when unknown.
    pub fn force_unit(self) -> Option<&'static str> {
        match self {
            Level::Velocity => Some("N s"),
            Level::Acceleration => Some("N"),
            Level::Unknown => None,
        }
    }

    /// What `max(0, -u_n)` is called: `"penetration velocity"`, `"penetration
    /// acceleration"`, or `"penetration rate"` when unknown.
    pub fn penetration_name(self) -> &'static str {
        match self {
            Level::Velocity => "penetration velocity",
            Level::Acceleration => "penetration acceleration",
            Level::Unknown => "penetration rate",
        }
    }
}

/// The error under the other friction law, for comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OtherLaw {
    /// `"coulomb"` or `"ccp"`.
    pub kind: String,
    /// Error (Siconos 4.4 normalisation).
    pub error: f64,
    /// Error (`‖q‖` normalisation).
    pub error_q: f64,
}

/// The reference solution and the answer's distance to it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReferenceReport {
    /// The method that produced the reference (or the last one tried, on failure).
    pub method: String,
    /// Where that method started: `"the engine's answer"` or `"zero"`.
    pub found_from: String,
    /// That method's status (`"converged"`, `"max-iterations"`, ...).
    pub status: String,
    /// Iterations it did.
    pub iterations: Option<usize>,
    /// The reference's own error, measured on it (Siconos 4.4 normalisation).
    pub error: Option<f64>,
    /// Every attempt: `"method from start: status, error"`.
    pub attempts: Vec<String>,
    /// Whether a reference was found (its error at most
    /// [`CheckOptions::reference_accept`]); if not, no distance is given.
    pub found: bool,
    /// `Some(true)` when the solution is proved unique, `None` when not established.
    pub unique: Option<bool>,
    /// How uniqueness was decided, in words.
    pub uniqueness: String,
    /// `‖r*‖`.
    pub norm: Option<f64>,
    /// `‖r - r*‖` in the unit of `r`.
    pub distance: Option<f64>,
    /// `‖r - r*‖ / ‖r*‖` (`None` if `r* = 0`).
    pub relative_distance: Option<f64>,
    /// The contact farthest from the reference.
    pub worst_contact: Option<usize>,
    /// Its label, if the provenance has labels.
    pub worst_label: Option<String>,
    /// Its distance `‖r_c - r*_c‖`.
    pub worst_distance: Option<f64>,
    /// That distance over the largest contact force of the reference, `max_c ‖r*_c‖`
    /// (what [`JudgeBy::Distance`] compares with the tolerance, contact by contact).
    pub worst_relative_distance: Option<f64>,
    /// What the distances measure when not the unknowns themselves: for pyramid-edge
    /// unknowns ([`Provenance::pyramid`]), the contact-frame forces `E p`
    /// ([`PYRAMID_DISTANCE`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_of: Option<String>,
    /// The reference solution itself (empty when not found).
    #[serde(skip)]
    pub r: Vec<f64>,
}

/// [`ReferenceReport::distance_of`] for pyramid-edge unknowns.
pub const PYRAMID_DISTANCE: &str =
    "contact-frame forces [n, t1, t2] summed from the pyramid edges (E p)";

/// The whole judgement of one answer. Every field serialises to plain JSON (no NaN:
/// missing numbers are `null`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckReport {
    /// `"consistent"` (the measure [`CheckReport::by`] names meets [`CheckOptions::tol`]),
    /// `"inconsistent"`, or `"undecided"` (judged by distance, and no reference solution).
    pub verdict: String,
    /// What the verdict judged by ([`JudgeBy`]).
    pub by: JudgeBy,
    /// One graded sentence: the verdict with the distance to the reference (for example
    /// `"consistent: forces within 2.0e-05 N s of the reference"`).
    pub grade: String,
    /// `"lcp"`, `"boxed-lcp"`, `"fc3d"` or `"gfc3d"`.
    #[serde(rename = "type")]
    pub problem_type: String,
    /// The friction law judged against (`None` for LCPs).
    pub kind: Option<String>,
    /// For an LCP or boxed LCP whose unknowns are pyramid-edge forces
    /// ([`Provenance::pyramid`]): its number of contacts, whose records ([`pyramid_checks`])
    /// and distances are in contact-frame forces. Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pyramid_contacts: Option<usize>,
    /// The tolerance.
    pub tol: f64,
    /// Error, Siconos 4.4 normalisation.
    pub error: f64,
    /// Error, `‖q‖` normalisation.
    pub error_q: f64,
    /// Absolute error.
    pub error_abs: f64,
    /// The normal condition on its own (penetration and pulling), relative.
    pub error_normal: f64,
    /// The error against the problem's own scale ([`Residual::scaled`]), which the verdict
    /// requires too: an answer cannot shrink it by being large.
    pub error_scaled: f64,
    /// `"velocity"`, `"acceleration"` or `"unknown"` ([`Level::of`]).
    pub level: Level,
    /// The unit of `r` (`"N s"`, `"N"`), when the level is known.
    pub force_unit: Option<String>,
    /// What the penetration measure is called at this level.
    pub penetration_name: String,
    /// Largest `max(0, -u_n)` over the contacts.
    pub max_penetration: Option<f64>,
    /// Largest distance from the friction cone.
    pub max_cone_violation: Option<f64>,
    /// Largest complementarity gap.
    pub max_complementarity: Option<f64>,
    /// Smallest friction power `-r_t · u_t`.
    pub min_dissipation: Option<f64>,
    /// The error under the other friction law.
    pub other_law: Option<OtherLaw>,
    /// A note when `mu` is too large for the tolerance to resolve the normal condition.
    pub note: Option<String>,
    /// The reference solution and the distance to it (`None` if not asked).
    pub reference: Option<ReferenceReport>,
    /// One record per contact, in the problem's order (empty for LCPs without a
    /// [`Provenance::pyramid`]).
    pub contacts: Vec<ContactCheck>,
    /// For pyramid-edge unknowns with the elliptic problem of the same contacts at hand:
    /// the same forces judged there ([`compare_with_elliptic`]). Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elliptic: Option<EllipticComparison>,
}

/// The elliptic problem of a pyramidal problem's contacts: the same contacts with the
/// round (elliptic) Coulomb cone, hard (unregularised) at the velocity level, as a MuJoCo
/// export's `A_contact_frame_unregularized`, `b_hard_velocity_contact_frame` hold it
/// ([`crate::io::mujoco::HardView`]): `W = J_c M⁻¹ J_cᵀ` (`3nc x 3nc`, 1/kg), `q` the free
/// velocity (m/s), unknowns the impulses `h f` (N s), frictionless contacts padded to
/// three rows with `mu = 0`.
#[derive(Debug, Clone, PartialEq)]
pub struct EllipticView {
    /// The Coulomb problem, one contact per pyramid contact, in the same order.
    pub problem: FrictionContact,
    /// The time step `h` (s) that turns a force (N) into an impulse (N s).
    pub timestep: f64,
}

/// A pyramidal answer judged in the elliptic problem of its contacts
/// ([`compare_with_elliptic`]). Distances are in N (impulse distances divided by `h`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EllipticComparison {
    /// What was compared, in words.
    pub problem: String,
    /// The error of `h E p` in the elliptic problem (Siconos 4.4 normalisation).
    pub error: f64,
    /// `"consistent"` or `"inconsistent"` there, by the residual against the tolerance.
    pub verdict: String,
    /// Whether the elliptic problem's reference solution was found.
    pub reference_found: bool,
    /// The method that found it (or was tried last).
    pub reference_method: String,
    /// `‖E p - f*‖` in N, `f*` the elliptic reference's force (`r*/h`).
    pub distance: Option<f64>,
    /// `‖E p - f*‖ / ‖f*‖`.
    pub relative_distance: Option<f64>,
    /// The contact farthest from `f*`, its label and its distance in N.
    pub worst_contact: Option<usize>,
    /// Its label, if the contacts have labels.
    pub worst_label: Option<String>,
    /// Its distance in N.
    pub worst_distance: Option<f64>,
    /// The distance in N between the two references, the pyramidal problem's solution
    /// (`E p*`) and the elliptic one (`f*`): what the two models differ by (the cone's
    /// shape and the regularisation), whatever the engine did.
    pub between_references: Option<f64>,
}

/// Judges the pyramid-edge answer `p` of `report` (a report of [`check`] on an LCP or
/// boxed LCP with a [`Provenance::pyramid`]) in the elliptic problem of the same contacts
/// ([`EllipticView`]), and stores the result in [`CheckReport::elliptic`]: the contact
/// forces `f = E p` become impulses `h f` (three per contact), are checked with [`check`]
/// against the hard Coulomb problem (its reference solved as always), and the distances
/// are given in N. `provenance` is the pyramidal problem's (its labels name the contacts).
///
/// # Errors
/// [`CheckError::Problem`] when `provenance` has no pyramid, or its contacts are not the
/// view's (another count, or a contact of more than three force components), or the
/// time step is not a finite positive number; the errors of [`check`] otherwise.
pub fn compare_with_elliptic(
    report: &mut CheckReport,
    p: &[f64],
    provenance: &Provenance,
    view: &EllipticView,
    opts: &CheckOptions,
) -> Result<(), CheckError> {
    let bad = |reason: String| CheckError::Problem(ProblemError::Unsupported { reason });
    let Some(pyramid) = &provenance.pyramid else {
        return Err(bad(
            "no pyramid: the answer is not in pyramid-edge forces".into()
        ));
    };
    let h = view.timestep;
    if !(h.is_finite() && h > 0.0) {
        return Err(bad(format!("time step {h}: expected a finite number > 0")));
    }
    let nc = view.problem.contacts();
    if pyramid.len() != nc || pyramid.contacts.iter().any(|k| k.mu.len() > 2) {
        return Err(bad(format!(
            "the elliptic problem has {nc} contacts of three rows, the pyramid {} contacts \
             (of up to {} force components)",
            pyramid.len(),
            pyramid
                .contacts
                .iter()
                .map(|k| k.mu.len() + 1)
                .max()
                .unwrap_or(0)
        )));
    }
    // Three impulse components per contact (a frictionless one padded with zeros).
    let impulses = |p: &[f64]| -> Vec<f64> {
        let mut out = vec![0.0; 3 * nc];
        for (c, k) in pyramid.contacts.iter().enumerate() {
            for (i, f) in k.force(&p[pyramid.range(c)]).iter().enumerate() {
                out[3 * c + i] = h * f;
            }
        }
        out
    };
    let r = impulses(p);
    let mut units = std::collections::BTreeMap::new();
    units.insert("r".to_string(), "N s".to_string());
    units.insert("u".to_string(), "m/s".to_string());
    let prov = Provenance {
        units,
        labels: provenance.labels.clone(),
        ..Default::default()
    };
    let hard = check(
        &AnyProblem::Friction(view.problem.clone()),
        &r,
        &prov,
        &CheckOptions {
            kind: None,
            ..opts.clone()
        },
    )?;
    let rf = hard.reference.as_ref();
    let found = rf.is_some_and(|x| x.found);
    let between = match (
        report.reference.as_ref().filter(|x| x.found),
        rf.filter(|x| x.found),
    ) {
        (Some(mine), Some(theirs)) => {
            let a = impulses(&mine.r);
            Some(euclid(&a, &theirs.r) / h)
        }
        _ => None,
    };
    report.elliptic = Some(EllipticComparison {
        problem: format!(
            "the same {nc} contacts with the elliptic Coulomb cone, hard, at the velocity \
             level (W = J M^-1 J^T, q the free velocity, impulses h f with h = {h} s)"
        ),
        error: hard.error,
        verdict: hard.verdict.clone(),
        reference_found: found,
        reference_method: rf.map(|x| x.method.clone()).unwrap_or_default(),
        distance: rf.and_then(|x| x.distance).map(|d| d / h),
        relative_distance: rf.and_then(|x| x.relative_distance),
        worst_contact: rf.and_then(|x| x.worst_contact),
        worst_label: rf.and_then(|x| x.worst_label.clone()),
        worst_distance: rf.and_then(|x| x.worst_distance).map(|d| d / h),
        between_references: between,
    });
    Ok(())
}

/// Why [`check`] refused.
#[derive(Debug, Clone, PartialEq)]
pub enum CheckError {
    /// The answer has the wrong number of entries.
    WrongLength {
        /// The problem's unknowns.
        expected: usize,
        /// The answer's entries.
        got: usize,
    },
    /// An entry of the answer is NaN or infinite.
    NonFinite {
        /// Its index.
        index: usize,
        /// Its value.
        value: f64,
    },
    /// The problem cannot be judged as asked (a law for an LCP, a global problem without
    /// a local form, labels of the wrong length ...).
    Problem(ProblemError),
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckError::WrongLength { expected, got } => write!(
                f,
                "the answer has {got} numbers, the problem {expected} unknowns"
            ),
            CheckError::NonFinite { index, value } => write!(
                f,
                "entry {index} of the answer is {value}, not a finite number"
            ),
            CheckError::Problem(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CheckError {}

impl From<ProblemError> for CheckError {
    fn from(e: ProblemError) -> Self {
        CheckError::Problem(e)
    }
}

/// `1.9e+00`-style number for sentences.
fn short(v: f64) -> String {
    let s = format!("{v:.1e}");
    // Rust writes 1.9e0 / 2.0e-5: make the exponent signed and two digits wide.
    match s.split_once('e') {
        Some((m, e)) => {
            let (sign, digits) = match e.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', e),
            };
            format!("{m}e{sign}{digits:0>2}")
        }
        None => s,
    }
}

/// Judges the answer `r` to `problem`.
///
/// `r` has [`AnyProblem::dim`] entries (for a global problem, the contact unknowns `r`).
/// `provenance` gives the units (see [`Level`]) and the contact labels.
///
/// # Errors
/// [`CheckError::WrongLength`], [`CheckError::NonFinite`] for a bad answer;
/// [`CheckError::Problem`] for a law asked of an LCP or a global problem whose local form
/// cannot be made. A reference solve that fails is not an error: the report says so.
pub fn check(
    problem: &AnyProblem,
    r: &[f64],
    provenance: &Provenance,
    opts: &CheckOptions,
) -> Result<CheckReport, CheckError> {
    let dim = problem.dim();
    if r.len() != dim {
        return Err(CheckError::WrongLength {
            expected: dim,
            got: r.len(),
        });
    }
    if let Some(index) = r.iter().position(|v| !v.is_finite()) {
        return Err(CheckError::NonFinite {
            index,
            value: r[index],
        });
    }
    let rv = DVector::from_column_slice(r);
    provenance.check_pyramid(problem)?;
    let pyramid = provenance.pyramid.as_ref();
    let generic: Option<GenericMechanical> = match (problem, opts.kind) {
        (AnyProblem::Generic(g), k) => Some(g.clone().with_kind(k.unwrap_or(g.kind()))),
        _ => None,
    };
    let local: Option<FrictionContact> = match (problem, opts.kind) {
        (AnyProblem::Friction(f), k) => Some(f.clone().with_kind(k.unwrap_or(f.kind()))),
        (AnyProblem::Global(g), k) => Some(g.to_local()?.with_kind(k.unwrap_or(g.kind()))),
        (AnyProblem::Generic(_), _) => None,
        (p, Some(k)) => {
            return Err(CheckError::Problem(ProblemError::Unsupported {
                reason: format!(
                    "friction law `{}` asked for a problem of type {}; a friction law \
                     applies only to friction problems (fc3d, gfc3d, gmp)",
                    k.name(),
                    p.type_name()
                ),
            }));
        }
        (_, None) => None,
    };
    let kind = local
        .as_ref()
        .map(|f| f.kind())
        .or(generic.as_ref().map(|g| g.kind()));
    let err: Residual = match (&local, &generic) {
        (Some(f), _) => friction_error(f, &rv),
        (None, Some(g)) => g.error(&rv),
        (None, None) => registry::measure(problem, &rv).map_err(|e| match e {
            crate::solver::SolveError::Problem(p) => CheckError::Problem(p),
            other => CheckError::Problem(ProblemError::Unsupported {
                reason: other.to_string(),
            }),
        })?,
    };
    let accepted = err.meets(opts.tol, Measure::Relative);
    let note = local
        .as_ref()
        .map(|f| f.mu().max())
        .or(generic.as_ref().map(max_mu))
        .and_then(|m| mu_beyond_resolution(m, opts.tol));
    let blocks = generic.as_ref().map(|g| block_checks(g, r));
    let checks: Vec<ContactCheck> = match (&local, kind, &blocks, pyramid) {
        (Some(f), Some(k), _, _) => check_contacts(f, &rv, k),
        (None, _, Some(b), _) => b.iter().map(|(c, _, _)| c.clone()).collect(),
        (None, None, None, Some(p)) => pyramid_checks(problem, p, r),
        _ => Vec::new(),
    };
    let some = |v: f64| (!checks.is_empty()).then_some(v);
    let max = |f: fn(&ContactCheck) -> f64| some(checks.iter().map(f).fold(0.0, f64::max));
    let min =
        |f: fn(&ContactCheck) -> f64| some(checks.iter().map(f).fold(f64::INFINITY, f64::min));
    let other_law = match kind {
        Some(k) => {
            let o = match k {
                FrictionKind::Coulomb => FrictionKind::Ccp,
                FrictionKind::Ccp => FrictionKind::Coulomb,
            };
            let e = match (&local, &generic) {
                (Some(f), _) => friction_error(&f.clone().with_kind(o), &rv),
                (None, Some(g)) => g.clone().with_kind(o).error(&rv),
                (None, None) => unreachable!("a law is known only for friction problems"),
            };
            Some(OtherLaw {
                kind: o.name().to_string(),
                error: e.rel,
                error_q: e.rel_q,
            })
        }
        _ => None,
    };
    let level = Level::of(provenance);
    let labels = (!provenance.labels.is_empty()
        && provenance.labels.len() == provenance.contacts_of(problem))
    .then_some(&provenance.labels);
    let label = |c: usize| labels.map(|l| l[c].clone());

    let reference = opts.reference.then(|| match (&local, &generic) {
        (Some(f), _) => reference(&AnyProblem::Friction(f.clone()), &rv, opts, labels, None),
        (None, Some(g)) => reference(&AnyProblem::Generic(g.clone()), &rv, opts, labels, None),
        (None, None) => reference(problem, &rv, opts, labels, pyramid),
    });
    // Distances per contact: in the unknowns, or (a pyramid) in contact-frame forces.
    let (space, offsets): (Vec<f64>, Vec<usize>) = match (&generic, pyramid) {
        (Some(g), _) => (r.to_vec(), g.offsets().to_vec()),
        (None, Some(p)) => (p.forces(r), p.force_offsets()),
        (None, None) => (r.to_vec(), (0..=checks.len()).map(|c| 3 * c).collect()),
    };
    let reference_space: Option<Vec<f64>> =
        reference
            .as_ref()
            .filter(|x| x.found)
            .map(|rf| match pyramid {
                Some(p) => p.forces(&rf.r),
                None => rf.r.clone(),
            });
    let per_contact = |c: usize| -> Option<f64> {
        let rs = reference_space.as_ref()?;
        let (s, e) = (offsets[c], offsets[c + 1]);
        let d: Vec<f64> = (s..e).map(|k| space[k] - rs[k]).collect();
        Some(crate::merit::scaled_norm(&d))
    };
    let contacts: Vec<ContactCheck> = match &blocks {
        Some(b) => b
            .iter()
            .map(|(c, law, dim)| {
                let mut rec = c.clone();
                rec.label = label(c.contact);
                rec.distance = per_contact(c.contact);
                rec.law = Some(law.to_string());
                rec.dim = Some(*dim);
                rec
            })
            .collect(),
        None => checks
            .iter()
            .map(|c| ContactCheck {
                label: label(c.contact),
                distance: per_contact(c.contact),
                ..c.clone()
            })
            .collect(),
    };
    let forces = local.is_some() || generic.is_some() || pyramid.is_some();

    let close = reference
        .as_ref()
        .and_then(|rf| close_to_reference(rf, opts.tol));
    let verdict = match (opts.by, close) {
        (JudgeBy::Residual, _) => verdict_word(accepted),
        (JudgeBy::Distance | JudgeBy::Both, None) => "undecided",
        (JudgeBy::Distance, Some(near)) => verdict_word(near),
        (JudgeBy::Both, Some(near)) => verdict_word(near && accepted),
    };
    let grade = grade(
        verdict,
        opts.by,
        accepted,
        &err,
        opts.tol,
        level,
        forces,
        reference.as_ref(),
    );
    Ok(CheckReport {
        verdict: verdict.to_string(),
        by: opts.by,
        grade,
        problem_type: problem.type_name().to_string(),
        kind: kind.map(|k| k.name().to_string()),
        pyramid_contacts: pyramid.map(Pyramid::len),
        tol: opts.tol,
        error: err.rel,
        error_q: err.rel_q,
        error_abs: err.abs,
        error_normal: err.normal,
        error_scaled: err.scaled,
        level,
        force_unit: level.force_unit().map(String::from),
        penetration_name: level.penetration_name().to_string(),
        max_penetration: max(|c| c.penetration),
        max_cone_violation: max(|c| c.cone_violation),
        max_complementarity: max(|c| c.complementarity),
        min_dissipation: min(|c| c.dissipation),
        other_law,
        note,
        reference,
        contacts,
        elliptic: None,
    })
}

fn verdict_word(ok: bool) -> &'static str {
    if ok { "consistent" } else { "inconsistent" }
}

/// Whether the answer is within `tol` of the reference ([`JudgeBy::Distance`]): relative
/// overall and, contact by contact, relative to the largest contact force; the distance
/// itself when `r* = 0`. `None` without a reference solution.
fn close_to_reference(rf: &ReferenceReport, tol: f64) -> Option<bool> {
    if !rf.found {
        return None;
    }
    let d = rf.distance?;
    let overall = match rf.relative_distance {
        Some(rel) => rel <= tol,
        None => d <= tol,
    };
    let per_contact = rf.worst_relative_distance.is_none_or(|w| w <= tol);
    Some(overall && per_contact)
}

/// The graded sentence.
#[allow(clippy::too_many_arguments)]
fn grade(
    verdict: &str,
    by: JudgeBy,
    accepted: bool,
    err: &Residual,
    tol: f64,
    level: Level,
    friction: bool,
    reference: Option<&ReferenceReport>,
) -> String {
    let what = if friction { "forces" } else { "the answer" };
    let unit = level
        .force_unit()
        .filter(|_| friction)
        .map(|u| format!(" {u}"))
        .unwrap_or_default();
    let head = if accepted {
        format!("consistent: error {} within {}", short(err.rel), short(tol))
    } else if err.rel <= tol && err.scaled > tol {
        format!(
            "inconsistent: error {} within {} only because the answer is large; measured \
             against the problem's own scale it is {}",
            short(err.rel),
            short(tol),
            short(err.scaled)
        )
    } else if err.rel <= tol {
        format!(
            "inconsistent: error {} within {}, but the normal condition is not (penetration \
             or pulling {})",
            short(err.rel),
            short(tol),
            short(err.normal)
        )
    } else {
        format!(
            "inconsistent: not converged (error {} above {})",
            short(err.rel),
            short(tol)
        )
    };
    let head = match (by, verdict) {
        (JudgeBy::Residual, _) => head,
        (_, "undecided") => format!(
            "undecided: judged by distance, and there is no reference solution to measure \
             it against (by residual: {head})"
        ),
        (_, _) => format!("by residual, {head}"),
    };
    let Some(rf) = reference else {
        return format!("{head}; distance to the reference not computed");
    };
    let (Some(d), true) = (rf.distance, rf.found) else {
        return format!("{head}; no reference solution found, so no distance");
    };
    if by != JudgeBy::Residual {
        let rel = match rf.relative_distance {
            Some(x) => format!("relative distance {}", short(x)),
            None => format!("distance {} (the reference is zero)", short(d)),
        };
        let worst = match (rf.worst_contact, rf.worst_relative_distance) {
            (Some(c), Some(w)) => format!(
                ", worst contact {c}{} at {} of the largest contact force",
                rf.worst_label
                    .as_ref()
                    .map(|l| format!(" ({l})"))
                    .unwrap_or_default(),
                short(w)
            ),
            _ => String::new(),
        };
        let within = if close_to_reference(rf, tol) == Some(true) {
            "within"
        } else {
            "above"
        };
        return format!(
            "{verdict} by {}: {rel}{worst}, {within} {}; {head}",
            by.name(),
            short(tol)
        );
    }
    let rel = rf
        .relative_distance
        .map(|x| format!(" (relative {})", short(x)))
        .unwrap_or_default();
    let worst = match (rf.worst_contact, rf.worst_distance) {
        (Some(c), Some(wd)) => {
            let l = rf
                .worst_label
                .as_ref()
                .map(|l| format!(" ({l})"))
                .unwrap_or_default();
            format!("; worst contact {c}{l} is {}{unit} off", short(wd))
        }
        _ => String::new(),
    };
    let found = if rf.unique == Some(true) {
        String::new()
    } else if rf.found_from == "the engine's answer" {
        " (a solution found from the engine's answer; uniqueness not established)".to_string()
    } else {
        " (uniqueness not established)".to_string()
    };
    if verdict == "consistent" {
        format!(
            "consistent: {what} within {}{unit}{rel} of the reference{found}",
            short(d)
        )
    } else {
        format!(
            "{head}; {what} {}{unit}{rel} from the reference{worst}{found}",
            short(d)
        )
    }
}

/// Positive definiteness of `(W + Wᵀ)/2` by a Cholesky factorisation: sparse (faer,
/// [`crate::linalg::SpdFactor`]) when at most a tenth of `W`'s entries are nonzero (an
/// engine's `J M⁻¹ Jᵀ` of a pile, stored dense, is a few percent full), dense otherwise.
fn positive_definite(w: &crate::matrix::Matrix) -> bool {
    let n = w.nrows();
    let mut triplets = Vec::new();
    for i in 0..n {
        w.for_each_in_row(i, |j, v| {
            if v != 0.0 {
                triplets.push((i, j, 0.5 * v));
                triplets.push((j, i, 0.5 * v));
            }
        });
    }
    if (triplets.len() as f64) <= 0.2 * (n as f64) * (n as f64) {
        return match crate::matrix::Matrix::from_triplets(n, n, &triplets) {
            Some(s) => crate::linalg::SpdFactor::new("(W + Wᵀ)/2", &s).is_ok(),
            None => false,
        };
    }
    drop(triplets);
    let w = w.to_dense();
    let s = (&w + w.transpose()) * 0.5;
    nalgebra::linalg::Cholesky::new(s).is_some()
}

/// The reference attempts for a problem: `(method, start from the answer?, max_iter)`.
fn plan(problem: &AnyProblem) -> Vec<(&'static str, bool, usize)> {
    match problem {
        AnyProblem::Friction(f) if f.kind() == FrictionKind::Ccp => vec![
            ("nsn", true, 200),
            ("nsn", false, 200),
            ("prox-gs", false, 200_000),
            ("nsgs", false, 100_000),
        ],
        AnyProblem::Friction(_) | AnyProblem::Global(_) => vec![
            ("nsn", true, 200),
            ("prox-nsn", true, 200),
            ("nsgs", true, 100_000),
            ("nsn", false, 200),
        ],
        // An engine's LCP answer (MuJoCo's pyramidal cone) is usually close to the
        // solution: the minimum-map Newton method from it converges in a few iterations,
        // where Lemke's pivoting from zero costs O(n³) (seconds at a few hundred contacts).
        AnyProblem::Lcp(l) if l.dim() <= 2000 => vec![
            ("minmap-newton", true, 100),
            ("lemke", false, 100_000),
            ("fischer-newton", false, 500),
            ("minmap-newton", false, 500),
        ],
        AnyProblem::Lcp(_) => vec![
            ("minmap-newton", true, 100),
            ("fischer-newton", false, 500),
            ("minmap-newton", false, 500),
            ("pgs", false, 100_000),
        ],
        AnyProblem::Generic(_) => vec![
            ("gmp-newton", true, 200),
            ("gmp-newton", false, 200),
            ("gmp-pgs", false, 100_000),
        ],
        AnyProblem::Boxed(_) => vec![
            ("minmap-newton", true, 100),
            ("minmap-newton", false, 500),
            ("fischer-newton", false, 500),
            ("prox-gs", false, 200_000),
        ],
    }
}

/// Solves `problem` (an LCP, a boxed LCP or a local friction problem, with the law to
/// judge against) for the reference and measures the distance of `r` to it.
fn reference(
    problem: &AnyProblem,
    r: &DVector<f64>,
    opts: &CheckOptions,
    labels: Option<&Vec<String>>,
    pyramid: Option<&Pyramid>,
) -> ReferenceReport {
    let t0 = Instant::now();
    let dim = problem.dim();
    let (w, kind) = match problem {
        AnyProblem::Lcp(p) => (Some(p.a()), None),
        AnyProblem::Boxed(p) => (Some(p.a()), None),
        AnyProblem::Friction(f) => (Some(f.w()), Some(f.kind())),
        // A gmp problem without friction (no contact, or every mu zero) is its CCP.
        AnyProblem::Generic(g) if max_mu(g) == 0.0 => (Some(g.w()), Some(FrictionKind::Ccp)),
        AnyProblem::Generic(g) => (Some(g.w()), Some(g.kind())),
        AnyProblem::Global(_) => (None, None),
    };
    let (unique, uniqueness) = match (w, kind) {
        (_, Some(FrictionKind::Coulomb)) => (
            None,
            "not established: Coulomb's law may have several solutions".to_string(),
        ),
        (Some(w), _) if dim <= opts.cholesky_limit => {
            if positive_definite(w) {
                (
                    Some(true),
                    "unique: W is positive definite (Cholesky factorisation of (W + Wᵀ)/2)"
                        .to_string(),
                )
            } else {
                (
                    None,
                    "not established: W is not positive definite (the Cholesky \
                     factorisation of (W + Wᵀ)/2 fails)"
                        .to_string(),
                )
            }
        }
        _ => (
            None,
            format!(
                "not established: {dim} unknowns, above the {} of the dense Cholesky test",
                opts.cholesky_limit
            ),
        ),
    };
    let mut attempts = Vec::new();
    let mut best: Option<(registry::Outcome, bool)> = None;
    let mut last: Option<(registry::Outcome, bool)> = None;
    // Where uniqueness is not established, the solution set may be large (redundant
    // contacts), and a Newton method can land far from the engine's answer on it: every
    // method of the plan started from the answer runs, and the accepted solution closest to
    // the answer is the reference (the distance to the nearest solution found).
    let closest = unique != Some(true);
    let mut nearest: Option<f64> = None;
    for (method, warm, max_iter) in plan(problem) {
        if best.is_some() && !warm {
            break;
        }
        let left = opts.reference_seconds - t0.elapsed().as_secs_f64();
        if left <= 0.0 {
            attempts.push(format!("{method}: not tried (time budget spent)"));
            continue;
        }
        let Ok(choice) = Choice::new(method) else {
            continue;
        };
        let params = Params {
            tol: opts.reference_tol,
            max_iter,
            ..Default::default()
        };
        let start = if warm { r.clone() } else { DVector::zeros(dim) };
        let started = Instant::now();
        let mut stop = |_: &crate::solver::Iterate| {
            if started.elapsed().as_secs_f64() > left {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let out = registry::solve(problem, &choice, start, &params, &mut stop);
        let e = out.info().map(|i| i.error);
        let from = if warm { "the engine's answer" } else { "zero" };
        attempts.push(format!(
            "{} from {from}: {}{}",
            out.method.name(),
            out.status(),
            e.map(|e| format!(", error {}", short(e.rel)))
                .unwrap_or_default()
        ));
        let ok = e.is_some_and(|e| {
            e.is_finite()
                && e.meets(opts.reference_accept, Measure::Relative)
                && out.x.iter().all(|v| v.is_finite())
        });
        if ok {
            let d = euclid(r.as_slice(), out.x.as_slice());
            if nearest.is_none_or(|n| d < n) {
                nearest = Some(d);
                best = Some((out, warm));
            }
            if closest && warm {
                continue;
            }
            break;
        }
        last = Some((out, warm));
    }
    let found = best.is_some();
    let Some((out, warm)) = best.or(last) else {
        return ReferenceReport {
            method: "-".into(),
            found_from: "-".into(),
            status: "not tried".into(),
            iterations: None,
            error: None,
            attempts,
            found: false,
            unique,
            uniqueness,
            norm: None,
            distance: None,
            relative_distance: None,
            worst_contact: None,
            worst_label: None,
            worst_distance: None,
            worst_relative_distance: None,
            distance_of: None,
            r: Vec::new(),
        };
    };
    let info = out.info();
    let uniqueness = if kind == Some(FrictionKind::Coulomb) {
        format!(
            "{uniqueness}; this one was found from {}",
            if warm { "the engine's answer" } else { "zero" }
        )
    } else {
        uniqueness
    };
    let mut rep = ReferenceReport {
        method: out.method.name().to_string(),
        found_from: if warm { "the engine's answer" } else { "zero" }.to_string(),
        status: out.status().to_string(),
        iterations: info.map(|i| i.iterations),
        error: info.map(|i| i.error.rel).filter(|e| e.is_finite()),
        attempts,
        found,
        unique,
        uniqueness,
        norm: None,
        distance: None,
        relative_distance: None,
        worst_contact: None,
        worst_label: None,
        worst_distance: None,
        worst_relative_distance: None,
        distance_of: None,
        r: Vec::new(),
    };
    if !found {
        return rep;
    }
    let rs = out.x;
    // Distances in the unknowns, or (pyramid-edge unknowns) in contact-frame forces.
    let (mine, theirs) = match pyramid {
        Some(p) => (p.forces(r.as_slice()), p.forces(rs.as_slice())),
        None => (r.as_slice().to_vec(), rs.as_slice().to_vec()),
    };
    let diff: Vec<f64> = mine.iter().zip(&theirs).map(|(a, b)| a - b).collect();
    let norm = crate::merit::scaled_norm(&theirs);
    let d = crate::merit::scaled_norm(&diff);
    rep.norm = Some(norm);
    rep.distance = Some(d);
    rep.relative_distance = (norm > 0.0).then(|| d / norm);
    if pyramid.is_some() {
        rep.distance_of = Some(PYRAMID_DISTANCE.to_string());
    }
    if kind.is_some() || pyramid.is_some() {
        let offsets: Vec<usize> = match (problem, pyramid) {
            (_, Some(p)) => p.force_offsets(),
            (AnyProblem::Generic(g), None) => g.offsets().to_vec(),
            _ => (0..=dim / 3).map(|c| 3 * c).collect(),
        };
        let mut worst: Option<(usize, f64)> = None;
        let mut largest = 0.0_f64;
        for (c, pair) in offsets.windows(2).enumerate() {
            let dc = crate::merit::scaled_norm(&diff[pair[0]..pair[1]]);
            largest = largest.max(crate::merit::scaled_norm(&theirs[pair[0]..pair[1]]));
            if worst.is_none_or(|(_, w)| dc > w) {
                worst = Some((c, dc));
            }
        }
        if let Some((c, dc)) = worst {
            rep.worst_contact = Some(c);
            rep.worst_distance = Some(dc);
            rep.worst_label = labels.map(|l| l[c].clone());
            rep.worst_relative_distance = (largest > 0.0).then(|| dc / largest);
        }
    }
    rep.r = rs.as_slice().to_vec();
    rep
}

/// [`block_checks`] as [`ContactCheck`]s (with `law` and `dim`; no label, no distance).
pub fn block_records(g: &GenericMechanical, r: &[f64]) -> Vec<ContactCheck> {
    block_checks(g, r)
        .iter()
        .map(|(c, law, dim)| {
            let mut rec = c.clone();
            rec.law = Some(law.to_string());
            rec.dim = Some(*dim);
            rec
        })
        .collect()
}

/// The largest friction coefficient of a generic problem's contacts (`0` without any).
fn max_mu(g: &GenericMechanical) -> f64 {
    g.blocks()
        .iter()
        .filter_map(|b| match b {
            Block::Contact { mu } => mu.iter().copied().reduce(f64::max),
            _ => None,
        })
        .fold(0.0, f64::max)
}

/// One record per contact of an LCP (or boxed LCP) whose unknowns are pyramid-edge forces
/// ([`Pyramid`]; MuJoCo's pyramidal cone), for the edge forces `p = r` and the edge rows'
/// velocities `w = A p + b`. The record is in the contact frame: `r_n = f_n` and
/// `r_t1`, `r_t2` the force summed back from the edges (the first two tangential
/// directions; torsion and rolling are in the distance, not in the record), `u_n` the
/// mean of the edge rows' `w` and `slip` the norm of the tangential velocities read back
/// from them ([`crate::problem::PyramidContact::velocity`]). The measures are the LCP's,
/// edge by edge: `penetration = max(0, -u_n)`, `cone_violation = max_k max(0, -p_k)`
/// (an edge force pulling), `dual_violation = max_k max(0, -w_k)`, `complementarity =
/// max_k |p_k w_k|`, `error` the norm of the edges' natural map `p - max(0, p - w)`,
/// `dissipation = -f_t · u_t`; `law` is `"pyramid"`, `dim` the number of edge rows.
pub fn pyramid_checks(problem: &AnyProblem, pyramid: &Pyramid, r: &[f64]) -> Vec<ContactCheck> {
    let (a, b) = match problem {
        AnyProblem::Lcp(l) => (l.a(), l.b()),
        AnyProblem::Boxed(l) => (l.a(), l.b()),
        _ => return Vec::new(),
    };
    let w = a.mul_vec(&DVector::from_column_slice(r)) + b;
    pyramid
        .contacts
        .iter()
        .enumerate()
        .map(|(c, k)| {
            let range = pyramid.range(c);
            let (p, wc) = (&r[range.clone()], &w.as_slice()[range]);
            let f = k.force(p);
            let u = k.velocity(wc);
            let edge_max = |g: &dyn Fn(usize) -> f64| (0..p.len()).map(g).fold(0.0, f64::max);
            let natural: Vec<f64> = p
                .iter()
                .zip(wc)
                .map(|(x, y)| x - (x - y).max(0.0))
                .collect();
            ContactCheck {
                contact: c,
                label: None,
                r_n: f[0],
                u_n: u[0],
                slip: crate::merit::scaled_norm(&u[1..]),
                penetration: (-u[0]).max(0.0),
                cone_violation: edge_max(&|i| (-p[i]).max(0.0)),
                dual_violation: edge_max(&|i| (-wc[i]).max(0.0)),
                complementarity: edge_max(&|i| (p[i] * wc[i]).abs()),
                dissipation: -f[1..].iter().zip(&u[1..]).map(|(x, y)| x * y).sum::<f64>(),
                error: crate::merit::scaled_norm(&natural),
                distance: None,
                law: Some("pyramid".to_string()),
                dim: Some(p.len()),
                r_t1: Some(f.get(1).copied().unwrap_or(0.0)),
                r_t2: Some(f.get(2).copied().unwrap_or(0.0)),
            }
        })
        .collect()
}

fn euclid(a: &[f64], b: &[f64]) -> f64 {
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    crate::merit::scaled_norm(&d)
}

/// One record per block of a generic mechanical problem for the answer `r` (`dim()`
/// entries), under the problem's law: `(record, law name, rows)`. The record's `contact`
/// is the block's index, `r_n` and `u_n` the block's first row (its only row, or a
/// contact's normal), `error` the norm of the block's natural map
/// ([`GenericMechanical::block_terms`]). The other measures, all zero for an exact
/// solution (but `dissipation`):
///
/// | law | `penetration` | `cone_violation` (r in its set) | `dual_violation` (u) | `complementarity` | `dissipation` |
/// |---|---|---|---|---|---|
/// | equality | 0 | 0 (r is free) | `|u|` | 0 | 0 |
/// | unilateral | `max(0, -u)` | `max(0, -r)` | `max(0, -u)` | `|r u|` | 0 |
/// | interval | 0 | distance of `r` from `[lo, hi]` | `|u|` when `u` pushes towards an infinite bound, else 0 | `u (r - lo)` for `u > 0`, `-u (hi - r)` for `u < 0` (finite bounds), absolute | `-r u` (friction loss) |
/// | contact | `max(0, -u_n)` | distance of `r` from `K_mu` | distance of `û` (Coulomb) or `u` (CCP) from `K_mu*` | `|r · û|` | `-r_t · u_t` |
///
/// For an isotropic contact the distances are the Euclidean distances to the cones
/// ([`project_on_isotropic_cone`]; `K_m* = K_{1/m}`). For an anisotropic one they are
/// distances to a point of the cone, `S P_{K_1}(S⁺ r)` and the point `u'` with
/// `S u' = P_{K_1}(S û)` (`S = diag(1, mu)`): upper bounds of the Euclidean distances,
/// zero exactly when the vector is in the cone. `slip` is `‖u_t‖` for a contact, 0
/// otherwise.
pub fn block_checks(g: &GenericMechanical, r: &[f64]) -> Vec<(ContactCheck, &'static str, usize)> {
    let rv = DVector::from_column_slice(r);
    let u = g.velocity(&rv);
    let u = u.as_slice();
    let off = g.offsets();
    g.blocks()
        .iter()
        .enumerate()
        .map(|(b, block)| {
            let (s, e) = (off[b], off[b + 1]);
            let (rb, ub) = (&r[s..e], &u[s..e]);
            let error = crate::merit::scaled_norm(&g.block_terms(b, r, u));
            let mut c = ContactCheck {
                contact: b,
                label: None,
                r_n: rb[0],
                u_n: ub[0],
                slip: 0.0,
                penetration: 0.0,
                cone_violation: 0.0,
                dual_violation: 0.0,
                complementarity: 0.0,
                dissipation: 0.0,
                error,
                distance: None,
                law: None,
                dim: None,
                r_t1: None,
                r_t2: None,
            };
            let (x, v) = (rb[0], ub[0]);
            match block {
                Block::Equality => c.dual_violation = v.abs(),
                Block::Unilateral => {
                    c.penetration = (-v).max(0.0);
                    c.cone_violation = (-x).max(0.0);
                    c.dual_violation = (-v).max(0.0);
                    c.complementarity = (x * v).abs();
                }
                Block::Interval { lo, hi } => {
                    c.cone_violation = (lo - x).max(x - hi).max(0.0);
                    c.dual_violation =
                        if (v > 0.0 && lo.is_infinite()) || (v < 0.0 && hi.is_infinite()) {
                            v.abs()
                        } else {
                            0.0
                        };
                    c.complementarity = if v > 0.0 && lo.is_finite() {
                        (v * (x - lo)).abs()
                    } else if v < 0.0 && hi.is_finite() {
                        (v * (hi - x)).abs()
                    } else {
                        0.0
                    };
                    c.dissipation = -x * v;
                }
                Block::Contact { mu } => {
                    let d = e - s;
                    c.slip = crate::merit::scaled_norm(&ub[1..]);
                    c.penetration = (-v).max(0.0);
                    let shift = match g.kind() {
                        FrictionKind::Ccp => 0.0,
                        FrictionKind::Coulomb => {
                            let t: Vec<f64> = mu.iter().zip(&ub[1..]).map(|(m, y)| m * y).collect();
                            crate::merit::scaled_norm(&t)
                        }
                    };
                    let mut uh = ub.to_vec();
                    uh[0] += shift;
                    let mut p = vec![0.0; d];
                    match block.isotropic_mu() {
                        Some(m) => {
                            project_on_isotropic_cone(rb, m, &mut p);
                            c.cone_violation = euclid(rb, &p);
                            c.dual_violation = if m > 0.0 {
                                project_on_isotropic_cone(&uh, 1.0 / m, &mut p);
                                euclid(&uh, &p)
                            } else {
                                (-uh[0]).max(0.0)
                            };
                        }
                        None => {
                            let inv = |m: f64| if m > 0.0 { 1.0 / m } else { 0.0 };
                            let rt: Vec<f64> = std::iter::once(rb[0])
                                .chain(mu.iter().zip(&rb[1..]).map(|(m, y)| inv(*m) * y))
                                .collect();
                            project_on_isotropic_cone(&rt, 1.0, &mut p);
                            let point: Vec<f64> = std::iter::once(p[0])
                                .chain(mu.iter().zip(&p[1..]).map(|(m, y)| m * y))
                                .collect();
                            c.cone_violation = euclid(rb, &point);
                            let su: Vec<f64> = std::iter::once(uh[0])
                                .chain(mu.iter().zip(&uh[1..]).map(|(m, y)| m * y))
                                .collect();
                            project_on_isotropic_cone(&su, 1.0, &mut p);
                            let point: Vec<f64> = std::iter::once(p[0])
                                .chain(
                                    mu.iter()
                                        .zip(&p[1..])
                                        .zip(&uh[1..])
                                        .map(|((m, y), w)| if *m > 0.0 { y / m } else { *w }),
                                )
                                .collect();
                            c.dual_violation = euclid(&uh, &point);
                        }
                    }
                    c.complementarity = rb.iter().zip(&uh).map(|(a, b)| a * b).sum::<f64>().abs();
                    c.dissipation = -rb[1..]
                        .iter()
                        .zip(&ub[1..])
                        .map(|(a, b)| a * b)
                        .sum::<f64>();
                }
            }
            (c, block.name(), block.dim())
        })
        .collect()
}
