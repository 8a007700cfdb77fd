//! MuJoCo single-step contact problems exported to JSON (the files in
//! `data/mujoco/`).
//!
//! # Format (source: `data/README.md`)
//! One JSON object. The keys read are `name`, `source` (an object with `engine`,
//! `version`, `scene`, or a plain string), `problem_type`, `n_contacts`, `dim`,
//! `row_order`, `A` (row-major list of rows), `b`, `mu`, `engine_solution`,
//! `engine_solution_velocity`, `units`, and for the second, hard view
//! `A_unregularized`, `b_hard_velocity`, `engine_impulse` (elliptic files) or
//! `A_contact_frame_unregularized`, `b_hard_velocity_contact_frame`,
//! `engine_impulse_contact_frame` (pyramidal file), and `E_edges_to_contact_force`
//! (pyramidal). What decides how many rows each contact has:
//! * `raw.opt.cone` (MuJoCo's `mjOption.cone`, as the shared exports write it) or a
//!   top-level `cone`: `"elliptic"` or `"pyramidal"` (both may be given; they must agree);
//! * `contacts[i].dim` (MuJoCo's `mjContact.dim`, the contact's `condim`), optional;
//! * `dim`: the number of rows of **every** contact, or `null` / absent when the contacts
//!   differ (their `condim` must then be given in `contacts[i].dim`);
//! * `contacts[i].efc_address`, when given: where the contact's rows start among MuJoCo's
//!   constraint rows, checked against the rows of the contacts before it.
//!
//! `contacts[i].label` (optional, a string such as `"box3/floor at (0.10, 0.00, 0.05)"`,
//! as `nonsmooth.mujoco` writes it) names the contact in reports: given for every contact
//! it becomes [`Provenance::labels`] (one per MuJoCo contact: the problem's contacts in
//! the elliptic cone, the contacts of [`Provenance::pyramid`] in the pyramidal one); given
//! for some contacts only it is a parse error naming the first one without.
//! Without labels, `contacts[i].geom` (or `geoms`: MuJoCo's `mjContact.geom`, two ids or
//! names) and `contacts[i].pos` (`mjContact.pos`, m) of every contact make them, as
//! `"geom 3/geom 0 at (0.10, 0.00, 0.05)"`.
//!
//! `contacts[i].friction` (MuJoCo's `mjContact.friction`, five coefficients
//! `[slide1, slide2, spin, roll1, roll2]`: dimensionless, then m for spin and rolling) is
//! needed for condim 4 and 6 and read for condim 3; its first entry must equal `mu[i]`.
//!
//! Every other key (the rest of `contacts` and `raw`, `checks`, `notes`, ...) is ignored.
//!
//! # Contact dimensions (`condim`)
//! MuJoCo gives a contact of dimension `condim` this many rows (`A` is `m x m` with `m`
//! the sum over the contacts):
//!
//! | condim | elliptic cone: rows | pyramidal cone: rows | read as |
//! |---|---|---|---|
//! | 1 (frictionless) | 1: `[n]` | 1: `[n]` | see below |
//! | 3 (sliding friction) | 3: `[n, t1, t2]` | 4 edges `[n+mu t1, n-mu t1, n+mu t2, n-mu t2]` | CCP / edge LCP |
//! | 4 (+ torsion) | 4: `[n, t1, t2, torsion]` | 6 edges | gmp (elliptic) / rejected (pyramidal) |
//! | 6 (+ rolling) | 6: `[n, t1, t2, torsion, roll1, roll2]` | 10 edges | gmp (elliptic) / rejected (pyramidal) |
//!
//! The cone may be left out only when `dim` has one reading: `dim = 3` (elliptic condim 3)
//! or `dim = 10` (pyramidal condim 6); `dim` 1, 4 and 6 mean different problems in the two
//! cones, and such a file without a cone is an error.
//!
//! # What is built
//! * Elliptic cone with a contact of condim 4 or 6, or a condim-3 contact whose
//!   `friction` has `slide1 != slide2` (an anisotropic cone): the
//!   [`GenericMechanical`] problem the bridge `nonsmooth.mujoco.extract` builds, `W = A`,
//!   `q = b`, law CCP, one block per contact in file order: a [`Block::Contact`] with the
//!   coefficients `friction[0 .. condim - 1]` (condim 3, 4, 6) or a [`Block::Unilateral`]
//!   (condim 1, not padded); the answer is `engine_solution` as it is. A condim-4 or 6
//!   contact without `contacts[i].friction` is a parse error naming that key and the
//!   bridge, which reads the coefficients from the model. The file's hard view is not read
//!   for such a file (a warning says so).
//! * Elliptic cone, every contact condim 3 (`dim = 3`): a [`FrictionContact`] posed as
//!   [`FrictionKind::Ccp`] (MuJoCo solves the convex relaxation), `W = A` (`3nc x 3nc`,
//!   dense, in acceleration per unit force: `J M^-1 J^T + diag(R)`), `q = b` (m/s^2),
//!   `mu`; the answer is MuJoCo's force `engine_solution` (N) with
//!   `u = engine_solution_velocity`.
//! * Pyramidal cone, every contact condim 3 (`dim = 4`): an [`Lcp`] in pyramid-edge
//!   variables (`4nc` unknowns, per contact `[n+mu t1, n-mu t1, n+mu t2, n-mu t2]`), `A`,
//!   `b`, answer `p = engine_solution`, `w = engine_solution_velocity`;
//!   `E_edges_to_contact_force` (`3nc x m`) maps `p` to `[n, t1, t2]` forces. The
//!   provenance carries the contacts' [`Pyramid`] (each contact's first edge row and its
//!   coefficients: `friction[0..2]` when `contacts[i].friction` is given, else `[mu, mu]`;
//!   none for condim 1), so that [`crate::check::check`] judges the answer as
//!   contact-frame forces; a given `E` must be exactly that map (a parse error naming the
//!   first entry that is not). [`MujocoProblem::into_loaded`] passes the hard
//!   contact-frame view on as [`LoadedProblem::elliptic`], the elliptic problem of the
//!   same contacts ([`crate::check::compare_with_elliptic`]).
//! * Frictionless contacts (condim 1), alone or mixed with condim 3: in the elliptic cone
//!   each becomes a 3-row contact `[n, t1, t2]` with `mu = 0`: its normal row and column
//!   are kept, two tangential rows are added with `W_tt = W_nn` (the contact's normal
//!   diagonal) on the diagonal and zeros elsewhere, `q_t = 0`, and MuJoCo's answer gets
//!   `r_t = u_t = 0`. This is exact, not an approximation: `mu = 0` makes the cone
//!   `{r_t = 0, r_n >= 0}` and its dual `{u_n >= 0}` (the added `u_t` is free), so the
//!   solutions are MuJoCo's with zeros added; and at such a point every term of the error
//!   measure ([`crate::merit::friction_error`], CCP or Coulomb) is the frictionless one,
//!   `r_n - max(0, r_n - u_n)`, the added terms are zeros, and `‖q‖`, `‖r‖`, `‖u‖` are
//!   unchanged (`tests/real/mujoco.rs` checks this on a MuJoCo export). The file's `mu`
//!   for such a contact is not used (MuJoCo ignores friction at condim 1); a warning
//!   ([`MujocoProblem::warnings`]) says which contacts were padded. In the pyramidal cone
//!   the edge LCP needs no change (a condim-1 contact is one nonnegative row).
//! * [`MujocoProblem::hard`]: the same step as a hard, unregularised Coulomb problem at
//!   the velocity level (`W = A_unregularized`, `q = b_hard_velocity` in m/s, answer
//!   `r = engine_impulse = h f` in N s), which the data README says to compare with; its
//!   rows are `[n, t1, t2]` (condim 3) or `[n]` (condim 1, padded as above).
//!
//! Units come from the file's `units` object (strings kept as they are, numbers such as
//! `timestep_s` written as text).
//!
//! # Errors
//! Invalid JSON or missing keys give [`IoErrorKind::Parse`] with the line and column;
//! shapes that disagree (`b`, `A`, answers whose length is not the contacts' rows, ragged
//! `A`) give a parse error naming the key; so do a `dim` no MuJoCo contact has (0, 2,
//! ...), a `dim` that disagrees with a contact's `condim`, a missing or unknown cone where
//! it matters, a `contacts` list of another length than `n_contacts`, and an
//! `efc_address` that does not follow from the rows before it. NaN-free JSON can still
//! hold a negative `mu`, rejected by the problem constructor ([`IoErrorKind::Problem`]).
//! A pyramidal contact with condim 4 or 6 (torsional or rolling friction) is
//! [`IoErrorKind::Unsupported`] (the bridge refuses it too): the message names the
//! contact, its condim and rows, what is supported, and the hint to export with the
//! elliptic cone or condim 3. An elliptic condim-4 or 6 contact without
//! `contacts[i].friction`, coefficients fewer than `condim - 1`, or a `friction[0]` other
//! than `mu[i]`, is a parse error naming the key. Nothing is guessed: every ambiguity is
//! one of these errors.

use std::collections::BTreeMap;
use std::path::Path;

use nalgebra::{DMatrix, DVector};
use serde::Deserialize;

use super::{AnyProblem, Format, IoError, IoErrorKind, LoadedProblem, Provenance};
use crate::check::EllipticView;
use crate::matrix::Matrix;
use crate::problem::{
    Block, EngineAnswer, FrictionContact, FrictionKind, GenericMechanical, Lcp, Pyramid,
};

/// The keys of a MuJoCo export that this reader uses (serde ignores the others).
#[derive(Debug, Deserialize)]
#[allow(non_snake_case)]
struct MujocoJson {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    source: Option<serde_json::Value>,
    #[serde(default)]
    problem_type: Option<String>,
    n_contacts: usize,
    #[serde(default)]
    dim: Option<usize>,
    #[serde(default)]
    cone: Option<serde_json::Value>,
    #[serde(default)]
    contacts: Option<Vec<ContactJson>>,
    #[serde(default)]
    raw: Option<RawJson>,
    #[serde(default)]
    row_order: Option<String>,
    A: Vec<Vec<f64>>,
    b: Vec<f64>,
    mu: Vec<f64>,
    #[serde(default)]
    engine_solution: Option<Vec<f64>>,
    #[serde(default)]
    engine_solution_velocity: Option<Vec<f64>>,
    #[serde(default)]
    units: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    A_unregularized: Option<Vec<Vec<f64>>>,
    #[serde(default)]
    b_hard_velocity: Option<Vec<f64>>,
    #[serde(default)]
    engine_impulse: Option<Vec<f64>>,
    #[serde(default)]
    A_contact_frame_unregularized: Option<Vec<Vec<f64>>>,
    #[serde(default)]
    b_hard_velocity_contact_frame: Option<Vec<f64>>,
    #[serde(default)]
    engine_impulse_contact_frame: Option<Vec<f64>>,
    #[serde(default)]
    E_edges_to_contact_force: Option<Vec<Vec<f64>>>,
}

/// What is read of one entry of `contacts` (MuJoCo's `mjContact` fields).
#[derive(Debug, Deserialize)]
struct ContactJson {
    /// `mjContact.dim`: the contact's condim.
    #[serde(default)]
    dim: Option<usize>,
    /// `mjContact.efc_address`: its first constraint row (-1: none).
    #[serde(default)]
    efc_address: Option<i64>,
    /// A name for the contact (for example `"box3/floor at (0.10, 0.00, 0.05)"`), kept in
    /// [`Provenance::labels`].
    #[serde(default)]
    label: Option<String>,
    /// `mjContact.friction`: MuJoCo's five coefficients `[slide1, slide2, spin, roll1,
    /// roll2]` (dimensionless for sliding, m for spin and rolling).
    #[serde(default)]
    friction: Option<Vec<f64>>,
    /// `mjContact.geom`: the two geoms (ids or names); `geoms` is read as well.
    #[serde(default, alias = "geoms")]
    geom: Option<Vec<serde_json::Value>>,
    /// `mjContact.pos`: the contact point (m, world frame).
    #[serde(default)]
    pos: Option<Vec<f64>>,
}

/// What is read of `raw`.
#[derive(Debug, Deserialize)]
struct RawJson {
    #[serde(default)]
    opt: Option<OptJson>,
}

/// What is read of `raw.opt` (MuJoCo's `mjOption`).
#[derive(Debug, Deserialize)]
struct OptJson {
    #[serde(default)]
    cone: Option<serde_json::Value>,
}

/// MuJoCo's friction cone (`mjOption.cone`), which decides how many rows a contact has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cone {
    /// `mjCONE_ELLIPTIC`: a contact of dimension `condim` has `condim` rows, the first
    /// `condim` of `[n, t1, t2, torsion, roll1, roll2]`.
    Elliptic,
    /// `mjCONE_PYRAMIDAL`: one row for condim 1, else `2 (condim - 1)` pyramid edges
    /// `n ± mu_k d_k`, one pair per frictional direction.
    Pyramidal,
}

/// MuJoCo's contact dimensions.
const CONDIMS: [usize; 4] = [1, 3, 4, 6];

impl Cone {
    /// `"elliptic"` or `"pyramidal"`, as MuJoCo's XML and `raw.opt.cone` write it.
    pub fn name(self) -> &'static str {
        match self {
            Cone::Elliptic => "elliptic",
            Cone::Pyramidal => "pyramidal",
        }
    }

    /// The rows MuJoCo gives a contact of dimension `condim` (1, 3, 4 or 6) in this cone.
    pub fn rows(self, condim: usize) -> usize {
        match self {
            Cone::Elliptic => condim,
            Cone::Pyramidal if condim <= 1 => condim,
            Cone::Pyramidal => 2 * (condim - 1),
        }
    }

    /// The condim whose contacts have `rows` rows in this cone, if there is one.
    fn condim_of_rows(self, rows: usize) -> Option<usize> {
        CONDIMS.into_iter().find(|&c| self.rows(c) == rows)
    }

    /// What the rows of a contact of dimension `condim` are.
    fn layout(self, condim: usize) -> &'static str {
        match (self, condim) {
            (_, 1) => "[n]",
            (Cone::Elliptic, 3) => "[n, t1, t2]",
            (Cone::Elliptic, 4) => "[n, t1, t2, torsion]",
            (Cone::Elliptic, _) => "[n, t1, t2, torsion, roll1, roll2]",
            (Cone::Pyramidal, 3) => "pyramid edges n ± mu t for t1, t2",
            (Cone::Pyramidal, 4) => "pyramid edges n ± mu d for t1, t2, torsion",
            (Cone::Pyramidal, _) => "pyramid edges n ± mu d for t1, t2, torsion, roll1, roll2",
        }
    }
}

/// The hard, unregularised, velocity-level view of a MuJoCo step.
#[derive(Debug, Clone, PartialEq)]
pub struct HardView {
    /// `W = A_unregularized` (`J M^-1 J^T`, `3nc x 3nc`), `q = b_hard_velocity` (m/s),
    /// the file's `mu`, posed as [`FrictionKind::Coulomb`]. Frictionless (condim 1)
    /// contacts are padded to 3 rows with `mu = 0` (see the [module docs](self)).
    pub problem: FrictionContact,
    /// MuJoCo's impulse `engine_impulse = h f` (N s), `[n, t1, t2]` per contact.
    pub answer: EngineAnswer,
}

/// Everything read from a MuJoCo export.
#[derive(Debug)]
pub struct MujocoProblem {
    /// The file's `name` (or the file stem).
    pub name: String,
    /// [`AnyProblem::Friction`] (CCP, elliptic files), [`AnyProblem::Generic`] (elliptic
    /// files with torsion, rolling or anisotropic friction) or [`AnyProblem::Lcp`]
    /// (pyramidal).
    pub problem: AnyProblem,
    /// MuJoCo's answer: `engine_solution` (and `engine_solution_velocity` as `u`), padded
    /// like the problem.
    pub answer: Option<EngineAnswer>,
    /// Source `"MuJoCo <version>"`, scene description, units from the file.
    pub provenance: Provenance,
    /// The hard velocity-level problem with MuJoCo's impulses, when the file has it (not
    /// read for a generic mechanical problem).
    pub hard: Option<HardView>,
    /// `E_edges_to_contact_force` (`3nc x m`, pyramidal files, `m` edge rows): `f = E p`.
    pub edges_to_contact_force: Option<DMatrix<f64>>,
    /// The time step `h` in seconds (`units.timestep_s`), when given.
    pub timestep: Option<f64>,
    /// The friction cone MuJoCo used.
    pub cone: Cone,
    /// Each contact's condim (1, 3, 4 or 6; 4 and 6 only in the elliptic cone),
    /// `n_contacts` entries.
    pub condim: Vec<usize>,
    /// What the reader changed in the representation (frictionless contacts padded to
    /// 3 rows), for the user to see; [`MujocoProblem::into_loaded`] passes them on as
    /// [`LoadedProblem::warnings`].
    pub warnings: Vec<String>,
}

impl MujocoProblem {
    /// The generic view used by [`super::load`].
    pub fn into_loaded(self, path: &Path) -> LoadedProblem {
        LoadedProblem {
            path: path.to_path_buf(),
            name: self.name,
            format: Format::MuJoCo,
            problem: self.problem,
            answer: self.answer,
            warm_start: None,
            elliptic: match (self.cone, &self.hard, self.timestep) {
                (Cone::Pyramidal, Some(hard), Some(timestep)) => Some(EllipticView {
                    problem: hard.problem.clone(),
                    timestep,
                }),
                _ => None,
            },
            provenance: self.provenance,
            warnings: self.warnings,
        }
    }
}

fn dense_rows(
    path: &Path,
    rows: &[Vec<f64>],
    nrows: usize,
    ncols: usize,
    key: &str,
) -> Result<DMatrix<f64>, IoError> {
    if rows.len() != nrows {
        return Err(IoError::parse(
            path,
            key,
            format!("expected {nrows} rows, found {}", rows.len()),
        ));
    }
    if let Some(i) = rows.iter().position(|r| r.len() != ncols) {
        return Err(IoError::parse(
            path,
            format!("{key}[{i}]"),
            format!("expected {ncols} columns, found {}", rows[i].len()),
        ));
    }
    Ok(DMatrix::from_fn(nrows, ncols, |i, j| rows[i][j]))
}

fn check_len(path: &Path, v: &[f64], n: usize, key: &str, why: &str) -> Result<(), IoError> {
    if v.len() != n {
        return Err(IoError::parse(
            path,
            key,
            format!("expected {n} entries ({why}), found {}", v.len()),
        ));
    }
    Ok(())
}

/// A cone name from the file, or an error naming `key`.
fn parse_cone(path: &Path, key: &str, v: &serde_json::Value) -> Result<Cone, IoError> {
    match v.as_str() {
        Some("elliptic") => Ok(Cone::Elliptic),
        Some("pyramidal") => Ok(Cone::Pyramidal),
        _ => Err(IoError::parse(
            path,
            key,
            format!("unknown friction cone {v}: expected \"elliptic\" or \"pyramidal\""),
        )),
    }
}

/// The cone the file declares (`raw.opt.cone`, `cone`), if it declares one.
fn declared_cone(path: &Path, f: &MujocoJson) -> Result<Option<Cone>, IoError> {
    let raw = f
        .raw
        .as_ref()
        .and_then(|r| r.opt.as_ref())
        .and_then(|o| o.cone.as_ref())
        .map(|v| parse_cone(path, "raw.opt.cone", v))
        .transpose()?;
    let top = f
        .cone
        .as_ref()
        .map(|v| parse_cone(path, "cone", v))
        .transpose()?;
    match (raw, top) {
        (Some(a), Some(b)) if a != b => Err(IoError::parse(
            path,
            "cone",
            format!(
                "\"{}\" disagrees with raw.opt.cone \"{}\"",
                b.name(),
                a.name()
            ),
        )),
        (raw, top) => Ok(raw.or(top)),
    }
}

/// `"1 row"`, `"3 rows"`.
fn rows_text(r: usize) -> String {
    if r == 1 {
        "1 row".into()
    } else {
        format!("{r} rows")
    }
}

/// How many rows each contact has, as the file declares it.
#[derive(Debug)]
enum Layout {
    /// Every contact has condim `condim`, `rows` rows (`dim`).
    Uniform { condim: usize, rows: usize },
    /// Contact `i` has condim `condim[i]` (`contacts[i].dim`).
    PerContact { condim: Vec<usize> },
}

/// Reads the cone and each contact's condim, and checks that `dim` agrees with them.
fn layout(path: &Path, f: &MujocoJson) -> Result<(Cone, Layout), IoError> {
    let nc = f.n_contacts;
    let any_row = "an elliptic contact has condim rows (1, 3, 4 or 6), a pyramidal one 1, \
                   4, 6 or 10";
    if let Some(d) = f.dim {
        if !CONDIMS
            .into_iter()
            .any(|c| Cone::Elliptic.rows(c) == d || Cone::Pyramidal.rows(c) == d)
        {
            return Err(IoError::parse(
                path,
                "dim",
                format!("dim = {d}: no MuJoCo contact has {d} rows per contact ({any_row})"),
            ));
        }
    }
    // Each contact's condim, when the file lists them.
    let listed = match &f.contacts {
        Some(cs) => {
            if cs.len() != nc {
                return Err(IoError::parse(
                    path,
                    "contacts",
                    format!("{} contacts listed, but n_contacts is {nc}", cs.len()),
                ));
            }
            match cs.iter().position(|c| c.dim.is_some()) {
                None => None,
                Some(first) => {
                    let mut condim = Vec::with_capacity(nc);
                    for (i, c) in cs.iter().enumerate() {
                        let Some(d) = c.dim else {
                            return Err(IoError::parse(
                                path,
                                format!("contacts[{i}].dim"),
                                format!(
                                    "missing, while contacts[{first}] gives its condim: give \
                                     every contact's condim or none"
                                ),
                            ));
                        };
                        if !CONDIMS.contains(&d) {
                            return Err(IoError::parse(
                                path,
                                format!("contacts[{i}].dim"),
                                format!(
                                    "condim {d}: MuJoCo's contact dimensions are 1, 3, 4 and 6"
                                ),
                            ));
                        }
                        condim.push(d);
                    }
                    Some(condim)
                }
            }
        }
        None => None,
    };
    let dim_missing = || {
        IoError::parse(
            path,
            "dim",
            "missing: give dim (the rows of every contact) or each contact's condim in \
             contacts[i].dim",
        )
    };
    if listed.is_none() && f.dim.is_none() {
        return Err(dim_missing());
    }
    // The cone: declared, or implied by a `dim` that only one cone has.
    let cone = match declared_cone(path, f)? {
        Some(c) => c,
        None => {
            let readings: Vec<(Cone, usize)> = [Cone::Elliptic, Cone::Pyramidal]
                .into_iter()
                .filter_map(|cone| Some((cone, cone.condim_of_rows(f.dim?)?)))
                .collect();
            match (f.dim, readings.as_slice()) {
                (Some(_), [(cone, _)]) => *cone,
                (Some(d), _) => {
                    let ways: Vec<String> = readings
                        .iter()
                        .map(|(cone, c)| {
                            format!("{} condim {c} ({})", cone.name(), cone.layout(*c))
                        })
                        .collect();
                    let same = if d == 1 {
                        " (the same rows, read as a friction problem with mu = 0 in the \
                         elliptic cone and as an LCP in the pyramidal one)"
                    } else {
                        ""
                    };
                    return Err(IoError::parse(
                        path,
                        "raw.opt.cone",
                        format!(
                            "missing: dim = {d} rows per contact means {}{same}, and the file \
                             does not say which cone MuJoCo used; add \"cone\": \"elliptic\" \
                             or \"pyramidal\" (MuJoCo exports write it in raw.opt.cone)",
                            ways.join(" or ")
                        ),
                    ));
                }
                (None, _) => {
                    return Err(IoError::parse(
                        path,
                        "raw.opt.cone",
                        "missing: without a dim the rows of each contact follow from its \
                         condim and the cone, and the file does not say which cone MuJoCo \
                         used; add \"cone\": \"elliptic\" or \"pyramidal\" (MuJoCo exports \
                         write it in raw.opt.cone)",
                    ));
                }
            }
        }
    };
    let layout = match (listed, f.dim) {
        (None, None) => return Err(dim_missing()),
        (None, Some(d)) => match cone.condim_of_rows(d) {
            Some(condim) => Layout::Uniform { condim, rows: d },
            None => {
                let ok: Vec<String> = CONDIMS
                    .into_iter()
                    .map(|c| format!("{} (condim {c})", cone.rows(c)))
                    .collect();
                return Err(IoError::parse(
                    path,
                    "dim",
                    format!(
                        "dim = {d}: no contact has {d} rows per contact in the {} cone ({})",
                        cone.name(),
                        ok.join(", ")
                    ),
                ));
            }
        },
        (Some(condim), Some(d)) => {
            if let Some(i) = condim.iter().position(|&c| cone.rows(c) != d) {
                return Err(IoError::parse(
                    path,
                    "dim",
                    format!(
                        "dim = {d} rows per contact, but contact {i} has condim {}, {} {} in \
                         the {} cone; a file whose contacts differ in rows must give dim as \
                         null (or leave it out)",
                        condim[i],
                        rows_text(cone.rows(condim[i])),
                        cone.layout(condim[i]),
                        cone.name()
                    ),
                ));
            }
            Layout::PerContact { condim }
        }
        (Some(condim), None) => Layout::PerContact { condim },
    };
    Ok((cone, layout))
}

/// The [`IoErrorKind::Unsupported`] error for contact `i` of dimension `condim`.
fn unsupported_condim(path: &Path, i: usize, condim: usize, cone: Cone, uniform: bool) -> IoError {
    let what = if condim == 4 {
        "torsional friction is"
    } else {
        "torsional and rolling friction are"
    };
    let rows = cone.rows(condim);
    let which = if uniform {
        format!("contact {i} (and every other: dim = {rows})")
    } else {
        format!("contact {i}")
    };
    IoError::new(
        path,
        IoErrorKind::Unsupported(format!(
            "{which} has condim {condim}, {} {} in the {} cone: {what} not supported in \
             the pyramidal cone (nor by the bridge nonsmooth.mujoco.extract); nonsmooth reads \
             pyramidal contacts of condim 3 (4 pyramid edges) and condim 1 (frictionless). \
             Hint: export the scene with cone=\"elliptic\", where condim 4 and 6 are read \
             as a generic mechanical problem with the contacts' friction coefficients, or \
             with condim 3 (condim=\"3\" on the geoms, or <default><geom \
             condim=\"3\"/></default>)",
            rows_text(rows),
            cone.layout(condim),
            cone.name(),
        )),
    )
}

/// Where each contact's rows go when every contact is given 3 rows: contact `c` with
/// `rows[c]` (1 or 3) rows starting at `start[c]` in the file fills rows `3c..3c+rows[c]`.
struct Pad<'a> {
    rows: &'a [usize],
    start: Vec<usize>,
}

impl<'a> Pad<'a> {
    fn new(rows: &'a [usize]) -> Self {
        let start = rows
            .iter()
            .scan(0, |s, r| {
                let at = *s;
                *s += r;
                Some(at)
            })
            .collect();
        Pad { rows, start }
    }

    /// Pairs (file row, padded row).
    fn map(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.rows
            .iter()
            .zip(&self.start)
            .enumerate()
            .flat_map(|(c, (&r, &s))| (0..r).map(move |k| (s + k, 3 * c + k)))
    }

    /// `v` with zeros in the added rows.
    fn vector(&self, v: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; 3 * self.rows.len()];
        for (i, j) in self.map() {
            out[j] = v[i];
        }
        out
    }

    /// `a` with the added rows and columns zero but for `W_tt = W_nn` on the diagonal.
    fn matrix(&self, a: &DMatrix<f64>) -> DMatrix<f64> {
        let n = 3 * self.rows.len();
        let mut out = DMatrix::zeros(n, n);
        let map: Vec<(usize, usize)> = self.map().collect();
        for &(i, pi) in &map {
            for &(j, pj) in &map {
                out[(pi, pj)] = a[(i, j)];
            }
        }
        for (c, (&r, &s)) in self.rows.iter().zip(&self.start).enumerate() {
            for k in r..3 {
                out[(3 * c + k, 3 * c + k)] = a[(s, s)];
            }
        }
        out
    }

    /// `mu`, zero at the padded contacts.
    fn mu(&self, mu: &DVector<f64>) -> DVector<f64> {
        DVector::from_fn(mu.len(), |c, _| if self.rows[c] == 3 { mu[c] } else { 0.0 })
    }
}

/// The warning for padded frictionless contacts; `scope` says where they are padded.
fn padded_warning(condim: &[usize], mu: &[f64], scope: &str) -> String {
    let idx: Vec<usize> = (0..condim.len()).filter(|&c| condim[c] == 1).collect();
    let shown: Vec<String> = idx.iter().take(10).map(|c| c.to_string()).collect();
    let more = if idx.len() > 10 { ", ..." } else { "" };
    let ignored = idx.iter().any(|&c| mu[c] != 0.0);
    format!(
        "condim 1 (frictionless) at {} of {} contacts ({}{more}): {scope} each is read as a \
         3-row contact [n, t1, t2] with mu = 0, its two tangential rows added (W_tt = W_nn on \
         the diagonal, zeros elsewhere, q_t = 0, MuJoCo's r_t = u_t = 0); this is exactly the \
         file's problem, with the same error measure, and its answers have 3 rows per \
         contact{}",
        idx.len(),
        condim.len(),
        shown.join(", "),
        if ignored {
            "; the file's nonzero mu at these contacts is not used (MuJoCo ignores friction \
             at condim 1)"
        } else {
            ""
        }
    )
}

/// Each contact's friction coefficients `contacts[i].friction` (MuJoCo's five), when
/// given, checked: at least `condim - 1` of them, and the first equal to the file's
/// `mu[i]` (which the bridge writes as `friction[0]`). A contact of condim 4 or 6 must
/// have them: its torsional and rolling coefficients are nowhere else.
fn friction_coefficients(
    path: &Path,
    contacts: Option<&[ContactJson]>,
    condim: &[usize],
    mu: &[f64],
) -> Result<Vec<Option<Vec<f64>>>, IoError> {
    let mut out = Vec::with_capacity(condim.len());
    for (i, &c) in condim.iter().enumerate() {
        let given = contacts
            .and_then(|cs| cs.get(i))
            .and_then(|x| x.friction.clone());
        let key = format!("contacts[{i}].friction");
        match &given {
            None if c > 3 => {
                return Err(IoError::parse(
                    path,
                    key,
                    format!(
                        "missing: contact {i} has condim {c}, whose torsional{} coefficients \
                         are MuJoCo's contact.friction [slide1, slide2, spin, roll1, roll2], \
                         and the file does not give them; add them to the export, or extract \
                         the step with the bridge (nonsmooth.mujoco.extract(model, data)), \
                         which reads them from the model",
                        if c == 6 { " and rolling" } else { "" }
                    ),
                ));
            }
            Some(k) if c > 1 && k.len() < c - 1 => {
                return Err(IoError::parse(
                    path,
                    key,
                    format!(
                        "{} coefficients, but contact {i} has condim {c} and needs {} \
                         (MuJoCo writes five: [slide1, slide2, spin, roll1, roll2])",
                        k.len(),
                        c - 1
                    ),
                ));
            }
            Some(k) if c > 1 && (k[0] - mu[i]).abs() > 1e-12 * mu[i].abs().max(1.0) => {
                return Err(IoError::parse(
                    path,
                    key,
                    format!(
                        "friction[0] = {} but mu[{i}] = {}: the file's mu is MuJoCo's \
                         contact.friction[0], and the two must agree",
                        k[0], mu[i]
                    ),
                ));
            }
            _ => {}
        }
        out.push(given.filter(|_| c > 1));
    }
    Ok(out)
}

/// `"geom 3/geom 0 at (0.10, 0.00, 0.05)"` from `contacts[i].geom` and `.pos` (names as
/// given, ids as `geom N`), the form `nonsmooth.mujoco` gives labels.
fn geom_label(c: &ContactJson) -> Option<String> {
    let g = c.geom.as_ref()?;
    let p = c.pos.as_ref()?;
    if g.len() != 2 || p.len() != 3 || !p.iter().all(|x| x.is_finite()) {
        return None;
    }
    let name = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => n.as_i64().map(|i| format!("geom {i}")),
        _ => None,
    };
    // Two decimals, a coordinate that rounds to zero written 0.00 whatever its sign.
    let x = |v: f64| match format!("{v:.2}") {
        z if z == "-0.00" => "0.00".to_string(),
        z => z,
    };
    Some(format!(
        "{}/{} at ({}, {}, {})",
        name(&g[0])?,
        name(&g[1])?,
        x(p[0]),
        x(p[1]),
        x(p[2])
    ))
}

/// The contacts' labels when every contact has one, none when no contact has one (one per
/// MuJoCo contact in either cone: a pyramidal file's labels name the contacts of its
/// [`Pyramid`]). Without `label`s, every contact's `geom` and `pos` make one
/// ([`geom_label`]); partial `geom` and `pos` give no labels.
fn contact_labels(path: &Path, contacts: Option<&[ContactJson]>) -> Result<Vec<String>, IoError> {
    let Some(cs) = contacts else {
        return Ok(Vec::new());
    };
    let Some(first) = cs.iter().position(|c| c.label.is_some()) else {
        let from_geoms: Option<Vec<String>> = cs.iter().map(geom_label).collect();
        return Ok(from_geoms.unwrap_or_default());
    };
    if let Some(i) = cs.iter().position(|c| c.label.is_none()) {
        return Err(IoError::parse(
            path,
            format!("contacts[{i}].label"),
            format!(
                "missing, while contacts[{first}] has a label: give every contact's label \
                 or none"
            ),
        ));
    }
    Ok(cs.iter().filter_map(|c| c.label.clone()).collect())
}

/// Parses a MuJoCo export (`path` names the file in messages and gives the default
/// name).
///
/// # Errors
/// See the [module docs](self).
pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<MujocoProblem, IoError> {
    let f: MujocoJson =
        serde_json::from_slice(bytes).map_err(|e| super::json_error(path, bytes, &e))?;
    let prob = |e| IoError::new(path, IoErrorKind::Problem(e));
    let nc = f.n_contacts;
    let (cone, layout) = layout(path, &f)?;

    // What is supported: condim 1 and 3 in either cone; condim 4 and 6 in the elliptic
    // cone, with their friction coefficients (a generic mechanical problem).
    match &layout {
        Layout::Uniform { condim, .. } if *condim > 3 && nc > 0 && cone == Cone::Pyramidal => {
            return Err(unsupported_condim(path, 0, *condim, cone, true));
        }
        Layout::PerContact { condim } if cone == Cone::Pyramidal => {
            if let Some(i) = condim.iter().position(|&c| c > 3) {
                return Err(unsupported_condim(path, i, condim[i], cone, false));
            }
        }
        _ => {}
    }

    // The rows, which must add up.
    let (n, rows) = match &layout {
        Layout::Uniform { rows, .. } => {
            let n = nc
                .checked_mul(*rows)
                .ok_or_else(|| IoError::parse(path, "n_contacts", "n_contacts * dim overflows"))?;
            (n, format!("n_contacts {nc} x dim {rows}"))
        }
        Layout::PerContact { condim } => {
            let n: usize = condim.iter().map(|&c| cone.rows(c)).sum();
            let counts: Vec<String> = CONDIMS
                .into_iter()
                .filter_map(|c| {
                    let k = condim.iter().filter(|&&x| x == c).count();
                    (k > 0).then(|| format!("{k} of condim {c} with {}", rows_text(cone.rows(c))))
                })
                .collect();
            (
                n,
                format!(
                    "the rows of the {nc} contacts in the {} cone: {}",
                    cone.name(),
                    counts.join(", ")
                ),
            )
        }
    };
    check_len(path, &f.b, n, "b", &rows)?;
    check_len(
        path,
        &f.mu,
        nc,
        "mu",
        &format!("one per contact: n_contacts {nc}"),
    )?;
    // Backed by `b` now (every contact has at least one row): allocating nc is safe.
    let condim: Vec<usize> = match layout {
        Layout::Uniform { condim, .. } => vec![condim; nc],
        Layout::PerContact { condim } => condim,
    };
    let coefficients = friction_coefficients(path, f.contacts.as_deref(), &condim, &f.mu)?;
    // Torsion, rolling or an anisotropic cone: the blocks of a generic mechanical problem,
    // as the bridge builds it (`nonsmooth.mujoco.extract`).
    let generic = cone == Cone::Elliptic
        && condim
            .iter()
            .zip(&coefficients)
            .any(|(&c, k)| c > 3 || k.as_ref().is_some_and(|k| c == 3 && k[0] != k[1]));
    let edge_rows: Vec<usize> = condim.iter().map(|&c| cone.rows(c)).collect();
    // `efc_address`, where given, must follow from the rows before.
    if let Some(cs) = &f.contacts {
        // (contact, its efc_address, its first row in the file) of the first address
        let mut first: Option<(usize, usize, usize)> = None;
        let mut start = 0usize;
        for (i, c) in cs.iter().enumerate() {
            if let Some(a) = c.efc_address {
                let Ok(a) = usize::try_from(a) else {
                    return Err(IoError::parse(
                        path,
                        format!("contacts[{i}].efc_address"),
                        format!(
                            "{a}: MuJoCo made no constraint rows for this contact; leave such \
                             contacts out of the export"
                        ),
                    ));
                };
                match first {
                    None => first = Some((i, a, start)),
                    Some((j, aj, sj)) if a.checked_sub(aj) != Some(start - sj) => {
                        return Err(IoError::parse(
                            path,
                            format!("contacts[{i}].efc_address"),
                            format!(
                                "{a}, but the rows do not add up: contact {j} starts at \
                                 constraint row {aj}, and contacts {j} to {} have {} (their \
                                 condim in the {} cone), so contact {i} starts at row {}",
                                i - 1,
                                rows_text(start - sj),
                                cone.name(),
                                aj.saturating_add(start - sj)
                            ),
                        ));
                    }
                    Some(_) => {}
                }
            }
            start += edge_rows[i];
        }
    }
    let a = dense_rows(path, &f.A, n, n, "A")?;

    // Provenance.
    let (engine, version, scene) = match &f.source {
        Some(serde_json::Value::Object(o)) => {
            let s = |k: &str| o.get(k).and_then(|v| v.as_str()).map(str::to_string);
            (s("engine"), s("version"), s("scene"))
        }
        Some(serde_json::Value::String(s)) => (Some(s.clone()), None, None),
        _ => (None, None, None),
    };
    let engine = engine.unwrap_or_else(|| "MuJoCo".to_string());
    let source = match version {
        Some(v) => format!("{engine} {v}"),
        None => engine,
    };
    let mut description = Vec::new();
    if let Some(s) = scene {
        description.push(format!("scene: {s}"));
    }
    if let Some(s) = &f.problem_type {
        description.push(format!("problem: {s}"));
    }
    if let Some(s) = &f.row_order {
        description.push(format!("rows: {s}"));
    }
    // The hard view, when all three arrays of either naming are present.
    let hard_parts = match (
        f.A_unregularized,
        f.b_hard_velocity,
        f.engine_impulse,
        f.A_contact_frame_unregularized,
        f.b_hard_velocity_contact_frame,
        f.engine_impulse_contact_frame,
    ) {
        (Some(a), Some(b), Some(r), ..) => Some((a, b, r, "")),
        (_, _, _, Some(a), Some(b), Some(r)) => Some((a, b, r, "_contact_frame")),
        _ => None,
    };
    let frictionless = condim.iter().filter(|&&c| c == 1).count();
    let mut warnings = Vec::new();
    // Padding happens in the elliptic problem and in any hard view (the edge LCP of a
    // pyramidal file holds a condim-1 contact as one nonnegative row already).
    let what = match (cone, hard_parts.is_some()) {
        (Cone::Elliptic, true) => Some("in the problem and in its hard view"),
        (Cone::Elliptic, false) => Some("in the problem"),
        (Cone::Pyramidal, true) => {
            Some("the edge LCP holds each as its one normal row, unchanged; in the hard view")
        }
        (Cone::Pyramidal, false) => None,
    };
    if let (true, Some(what), false) = (frictionless > 0, what, generic) {
        let w = padded_warning(&condim, &f.mu, what);
        description.push(w.clone());
        warnings.push(w);
    }
    let timestep = f.units.get("timestep_s").and_then(|v| v.as_f64());
    let units: BTreeMap<String, String> = f
        .units
        .into_iter()
        .map(|(k, v)| {
            let s = match v {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            (k, s)
        })
        .collect();
    let labels = contact_labels(path, f.contacts.as_deref())?;
    // The pyramidal cone: which edge rows are which contact's, with the coefficients of
    // its edges (`friction[0..condim-1]`, or the file's `mu` for both sliding directions).
    let pyramid = (cone == Cone::Pyramidal).then(|| {
        Pyramid::consecutive(
            0,
            condim
                .iter()
                .zip(&coefficients)
                .zip(&f.mu)
                .map(|((&c, k), &m)| match (c, k) {
                    (1, _) => Vec::new(),
                    (c, Some(k)) => k[..c - 1].to_vec(),
                    (c, None) => vec![m; c - 1],
                }),
        )
    });
    let provenance = Provenance {
        source: source.clone(),
        description: description.join("; "),
        units,
        labels,
        pyramid,
    };

    // Contacts' rows in `[n, t1, t2]` form (the hard view; the elliptic problem): 1 or 3.
    let frame_rows: Vec<usize> = condim.iter().map(|&c| c.min(3)).collect();
    let pad = (frictionless > 0).then(|| Pad::new(&frame_rows));

    if let Some(r) = &f.engine_solution {
        check_len(path, r, n, "engine_solution", &rows)?;
        if let Some(u) = &f.engine_solution_velocity {
            check_len(path, u, n, "engine_solution_velocity", &rows)?;
        }
    }
    if generic {
        let blocks: Vec<Block> = condim
            .iter()
            .zip(&coefficients)
            .zip(&f.mu)
            .map(|((&c, k), &m)| match (c, k) {
                (1, _) => Block::Unilateral,
                (c, Some(k)) => Block::Contact {
                    mu: k[..c - 1].to_vec(),
                },
                // condim 3 without coefficients: isotropic with the file's `mu`.
                (_, None) => Block::Contact { mu: vec![m, m] },
            })
            .collect();
        let problem = GenericMechanical::new(
            Matrix::Dense(a),
            DVector::from_vec(f.b),
            blocks,
            FrictionKind::Ccp,
        )
        .map_err(prob)?;
        let answer = f.engine_solution.map(|r| EngineAnswer {
            source: source.clone(),
            r,
            u: f.engine_solution_velocity,
        });
        let problem = AnyProblem::Generic(problem);
        if let Some(ans) = &answer {
            ans.validate(problem.dim()).map_err(prob)?;
        }
        let shown: Vec<String> = CONDIMS
            .into_iter()
            .filter_map(|c| {
                let k = condim.iter().filter(|&&x| x == c).count();
                (k > 0).then(|| format!("{k} of condim {c}"))
            })
            .collect();
        description.push(format!(
            "a generic mechanical problem (gmp) as nonsmooth.mujoco.extract builds it: {}; \
             one block per contact, its rows [n, t1, t2, torsion, roll1, roll2] up to its \
             condim with MuJoCo's coefficients contacts[i].friction, condim 1 a unilateral row",
            shown.join(", ")
        ));
        if hard_parts.is_some() {
            let w = "the file's hard view (A_unregularized, b_hard_velocity, engine_impulse) \
                     is not read for a file with condim 4 or 6 contacts or an anisotropic \
                     cone: extract the step with view=\"hard\" to judge the velocity-level \
                     problem"
                .to_string();
            description.push(w.clone());
            warnings.push(w);
        }
        let provenance = Provenance {
            description: description.join("; "),
            ..provenance
        };
        return Ok(MujocoProblem {
            name: problem_name(path, f.name),
            problem,
            answer,
            provenance,
            hard: None,
            edges_to_contact_force: None,
            timestep,
            cone,
            condim,
            warnings,
        });
    }
    let mu = DVector::from_vec(f.mu);
    let (problem, answer, edges) = match cone {
        Cone::Elliptic => {
            let (w, q, mu_p, r, u) = match &pad {
                Some(p) => (
                    p.matrix(&a),
                    p.vector(&f.b),
                    p.mu(&mu),
                    f.engine_solution.as_deref().map(|r| p.vector(r)),
                    // (checked above only beside an `engine_solution`; unused without one)
                    f.engine_solution
                        .as_ref()
                        .and(f.engine_solution_velocity.as_deref())
                        .map(|u| p.vector(u)),
                ),
                None => (
                    a,
                    f.b,
                    mu.clone(),
                    f.engine_solution,
                    f.engine_solution_velocity,
                ),
            };
            let fc = FrictionContact::new(
                Matrix::Dense(w),
                DVector::from_vec(q),
                mu_p,
                FrictionKind::Ccp,
            )
            .map_err(prob)?;
            let answer = r.map(|r| EngineAnswer {
                source: source.clone(),
                r,
                u,
            });
            (AnyProblem::Friction(fc), answer, None)
        }
        Cone::Pyramidal => {
            let lcp = Lcp::new(Matrix::Dense(a), DVector::from_vec(f.b)).map_err(prob)?;
            let e = match &f.E_edges_to_contact_force {
                Some(rows) => Some(dense_rows(
                    path,
                    rows,
                    3 * nc,
                    n,
                    "E_edges_to_contact_force",
                )?),
                None => None,
            };
            if let Some(e) = &e {
                if let Some((i, j)) = (0..e.nrows())
                    .flat_map(|i| (0..e.ncols()).map(move |j| (i, j)))
                    .find(|&(i, j)| !e[(i, j)].is_finite())
                {
                    return Err(IoError::parse(
                        path,
                        format!("E_edges_to_contact_force[{i}][{j}]"),
                        "not a finite number",
                    ));
                }
            }
            if let (Some(e), Some(pyr)) = (&e, &provenance.pyramid) {
                // E has three rows [n, t1, t2] per contact (a frictionless one: zero
                // tangential rows).
                let (pm, off) = (pyr.matrix(n), pyr.force_offsets());
                let mut expected = DMatrix::zeros(3 * nc, n);
                for c in 0..nc {
                    for i in 0..(off[c + 1] - off[c]).min(3) {
                        expected.row_mut(3 * c + i).copy_from(&pm.row(off[c] + i));
                    }
                }
                if let Some((i, j)) = (0..e.nrows())
                    .flat_map(|i| (0..e.ncols()).map(move |j| (i, j)))
                    .find(|&(i, j)| {
                        let (x, y) = (e[(i, j)], expected[(i, j)]);
                        !((x - y).abs() <= 1e-9 * y.abs().max(1.0))
                    })
                {
                    return Err(IoError::parse(
                        path,
                        format!("E_edges_to_contact_force[{i}][{j}]"),
                        format!(
                            "{}, but the contacts' pyramid edges give {} (f_n is the sum of \
                             a contact's edge forces, f_i = mu_i (p_2i - p_2i+1), with mu_i \
                             from contacts[c].friction or mu)",
                            e[(i, j)],
                            expected[(i, j)]
                        ),
                    ));
                }
            }
            let answer = f.engine_solution.map(|r| EngineAnswer {
                source: source.clone(),
                r,
                u: f.engine_solution_velocity,
            });
            (AnyProblem::Lcp(lcp), answer, e)
        }
    };
    if let Some(ans) = &answer {
        ans.validate(problem.dim()).map_err(prob)?;
    }

    let hard = match hard_parts {
        Some((a, b, r, suffix)) => {
            let m: usize = frame_rows.iter().sum();
            let a = dense_rows(
                path,
                &a,
                m,
                m,
                if suffix.is_empty() {
                    "A_unregularized"
                } else {
                    "A_contact_frame_unregularized"
                },
            )?;
            let rows = if frictionless > 0 {
                format!(
                    "3 rows for each of the {} contacts of condim 3, 1 for each of the \
                     {frictionless} of condim 1",
                    nc - frictionless
                )
            } else {
                format!("3 rows per contact, n_contacts {nc}")
            };
            check_len(path, &b, m, &format!("b_hard_velocity{suffix}"), &rows)?;
            check_len(path, &r, m, &format!("engine_impulse{suffix}"), &rows)?;
            let (a, b, r, mu) = match &pad {
                Some(p) => (p.matrix(&a), p.vector(&b), p.vector(&r), p.mu(&mu)),
                None => (a, b, r, mu),
            };
            let problem = FrictionContact::new(
                Matrix::Dense(a),
                DVector::from_vec(b),
                mu,
                FrictionKind::Coulomb,
            )
            .map_err(prob)?;
            let answer = EngineAnswer {
                source: format!("{source} (impulse h f)"),
                r,
                u: None,
            };
            answer.validate(problem.dim()).map_err(prob)?;
            Some(HardView { problem, answer })
        }
        None => None,
    };

    Ok(MujocoProblem {
        name: problem_name(path, f.name),
        problem,
        answer,
        provenance,
        hard,
        edges_to_contact_force: edges,
        timestep,
        cone,
        condim,
        warnings,
    })
}

/// The file's `name`, or else its stem.
fn problem_name(path: &Path, name: Option<String>) -> String {
    name.unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    })
}

/// Reads a MuJoCo export from `path`.
///
/// # Errors
/// [`IoErrorKind::Io`] if the file cannot be read, else as [`from_bytes`].
pub fn read(path: impl AsRef<Path>) -> Result<MujocoProblem, IoError> {
    let path = path.as_ref();
    let bytes = super::read_file(path)?;
    from_bytes(path, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"{
        "name": "tiny", "source": {"engine": "MuJoCo", "version": "9.9"},
        "n_contacts": 1, "dim": 3, "extra": [1, 2, {"x": null}],
        "A": [[2, 0, 0], [0, 2, 0], [0, 0, 2]], "b": [-1, 0, 0], "mu": [0.5],
        "engine_solution": [0.5, 0, 0], "engine_solution_velocity": [0, 0, 0],
        "units": {"b": "m/s^2", "timestep_s": 0.002},
        "A_unregularized": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        "b_hard_velocity": [-0.001, 0, 0], "engine_impulse": [0.001, 0, 0]
    }"#;

    #[test]
    fn reads_a_small_export() {
        let m = from_bytes(Path::new("t.json"), SMALL.as_bytes()).unwrap();
        assert_eq!(m.name, "tiny");
        assert_eq!(m.provenance.source, "MuJoCo 9.9");
        assert_eq!(m.provenance.units["timestep_s"], "0.002");
        assert_eq!(m.timestep, Some(0.002));
        match &m.problem {
            AnyProblem::Friction(fc) => assert_eq!(fc.kind(), FrictionKind::Ccp),
            _ => panic!("wrong type"),
        }
        let h = m.hard.unwrap();
        assert_eq!(h.problem.kind(), FrictionKind::Coulomb);
        assert_eq!(h.answer.r, vec![0.001, 0.0, 0.0]);
    }

    #[test]
    fn malformed_exports_are_errors() {
        let bad = [
            "",
            "{}",
            "[]",
            r#"{"n_contacts": 1, "dim": 3, "A": [[1]], "b": [0, 0, 0], "mu": [0.5]}"#,
            r#"{"n_contacts": 1, "dim": 3, "A": [[1,0,0],[0,1],[0,0,1]], "b": [0, 0, 0], "mu": [0.5]}"#,
            r#"{"n_contacts": 1, "dim": 3, "A": [[1,0,0],[0,1,0],[0,0,1]], "b": [0, 0], "mu": [0.5]}"#,
            r#"{"n_contacts": 1, "dim": 3, "A": [[1,0,0],[0,1,0],[0,0,1]], "b": [0, 0, 0], "mu": [-0.5]}"#,
            r#"{"n_contacts": 1, "dim": 2, "A": [[1,0],[0,1]], "b": [0, 0], "mu": [0.5]}"#,
            r#"{"n_contacts": 1, "dim": 3, "A": [[1,0,0],[0,1,0],[0,0,1e999]], "b": [0, 0, 0], "mu": [0.5]}"#,
            r#"{"n_contacts": 18446744073709551615, "dim": 3, "A": [], "b": [], "mu": []}"#,
            r#"{"n_contacts": 1, "dim": 3, "A": [[1,0,0],[0,1,0],[0,0,1]], "b": [0, 0, 0], "mu": [0.5], "engine_solution": [1]}"#,
        ];
        for text in bad {
            assert!(
                from_bytes(Path::new("x.json"), text.as_bytes()).is_err(),
                "{text}"
            );
        }
    }

    /// A velocity without a solution is ignored, as it always was, also where the
    /// problem is padded (its length is checked only beside a solution).
    #[test]
    fn a_velocity_without_a_solution_is_ignored() {
        let text = r#"{"n_contacts": 2, "cone": "elliptic", "A": [[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0], [0, 0, 0, 2]], "b": [-1, 0, 0, -1], "mu": [0.5, 0.5], "contacts": [{"dim": 3}, {"dim": 1}], "engine_solution_velocity": [1]}"#;
        let m = from_bytes(Path::new("x.json"), text.as_bytes()).unwrap();
        assert!(m.answer.is_none());
        assert_eq!(m.problem.dim(), 6);
        let with = text.replace(
            r#""engine_solution_velocity""#,
            r#""engine_solution": [0.5, 0, 0, 0.5], "engine_solution_velocity""#,
        );
        let e = from_bytes(Path::new("x.json"), with.as_bytes()).unwrap_err();
        assert!(e.to_string().contains("engine_solution_velocity"), "{e}");
    }

    /// MuJoCo's rows per contact (`mj_makeConstraint`: elliptic `condim`, pyramidal
    /// `2 (condim - 1)`, frictionless 1 in both), and back.
    #[test]
    fn rows_per_condim() {
        let table = [(1, 1, 1), (3, 3, 4), (4, 4, 6), (6, 6, 10)];
        for (condim, elliptic, pyramidal) in table {
            assert_eq!(Cone::Elliptic.rows(condim), elliptic);
            assert_eq!(Cone::Pyramidal.rows(condim), pyramidal);
            assert_eq!(Cone::Elliptic.condim_of_rows(elliptic), Some(condim));
            assert_eq!(Cone::Pyramidal.condim_of_rows(pyramidal), Some(condim));
        }
        for rows in [0, 2, 5, 7, 8, 9, 11] {
            assert_eq!(Cone::Elliptic.condim_of_rows(rows), None);
            assert_eq!(Cone::Pyramidal.condim_of_rows(rows), None);
        }
        assert_eq!(Cone::Elliptic.condim_of_rows(10), None);
        assert_eq!(Cone::Pyramidal.condim_of_rows(3), None);
    }

    /// Regression (issue 8): `dim` 0 was reported as a wrong `engine_solution` length.
    #[test]
    fn an_unsupported_dim_is_named_first() {
        let text = r#"{"n_contacts": 1, "dim": 0, "A": [[2, 0, 0], [0, 2, 0], [0, 0, 2]], "b": [-1, 0.5, 0], "mu": [0.5], "engine_solution": [0.5, -0.125, 0]}"#;
        let e = from_bytes(Path::new("x.json"), text.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("dim = 0") && !e.contains("engine_solution"),
            "{e}"
        );
        let text =
            r#"{"n_contacts": 1000000000000000000, "dim": 3, "A": [[1]], "b": [1], "mu": [0.5]}"#;
        let e = from_bytes(Path::new("x.json"), text.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(e.contains("n_contacts 1000000000000000000"), "{e}");
    }
}
