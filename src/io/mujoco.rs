//! MuJoCo single-step contact problems exported to JSON (the files in
//! `../shared/data/mujoco/`).
//!
//! # Format (source: `../shared/data/README.md`)
//! One JSON object. The keys read are `name`, `source` (an object with `engine`,
//! `version`, `scene`, or a plain string), `problem_type`, `n_contacts`, `dim`,
//! `row_order`, `A` (row-major list of rows), `b`, `mu`, `engine_solution`,
//! `engine_solution_velocity`, `units`, and for the second, hard view
//! `A_unregularized`, `b_hard_velocity`, `engine_impulse` (elliptic files) or
//! `A_contact_frame_unregularized`, `b_hard_velocity_contact_frame`,
//! `engine_impulse_contact_frame` (pyramidal file), and `E_edges_to_contact_force`
//! (pyramidal). Every other key (`contacts`, `raw`, `checks`, `notes`, ...) is ignored.
//!
//! # What is built
//! * `dim = 3` (elliptic cone): a [`FrictionContact`] posed as [`FrictionKind::Ccp`]
//!   (MuJoCo solves the convex relaxation), `W = A` (`3nc x 3nc`, dense, in
//!   acceleration per unit force: `J M^-1 J^T + diag(R)`), `q = b` (m/s^2), `mu`; the
//!   answer is MuJoCo's force `engine_solution` (N) with `u = engine_solution_velocity`.
//! * `dim = 4` (pyramidal cone): an [`Lcp`] in pyramid-edge variables (`4nc` unknowns,
//!   per contact `[n+mu t1, n-mu t1, n+mu t2, n-mu t2]`), `A`, `b`, answer
//!   `p = engine_solution`, `w = engine_solution_velocity`; `E_edges_to_contact_force`
//!   (`3nc x 4nc`) maps `p` to `[n, t1, t2]` forces.
//! * [`MujocoProblem::hard`]: the same step as a hard, unregularised Coulomb problem at
//!   the velocity level (`W = A_unregularized`, `q = b_hard_velocity` in m/s, answer
//!   `r = engine_impulse = h f` in N s), which the data README says to compare with.
//!
//! Units come from the file's `units` object (strings kept as they are, numbers such as
//! `timestep_s` written as text).
//!
//! # Errors
//! Invalid JSON or missing keys give [`IoErrorKind::Parse`] with the line and column;
//! shapes that disagree (`n_contacts * dim` rows, ragged `A`) give a parse error naming
//! the key; NaN-free JSON can still hold a negative `mu`, rejected by the problem
//! constructor ([`IoErrorKind::Problem`]); a `dim` other than 3 or 4 is
//! [`IoErrorKind::Unsupported`].

use std::collections::BTreeMap;
use std::path::Path;

use nalgebra::{DMatrix, DVector};
use serde::Deserialize;

use super::{AnyProblem, Format, IoError, IoErrorKind, LoadedProblem, Provenance};
use crate::matrix::Matrix;
use crate::problem::{EngineAnswer, FrictionContact, FrictionKind, Lcp};

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
    dim: usize,
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

/// The hard, unregularised, velocity-level view of a MuJoCo step.
#[derive(Debug, Clone, PartialEq)]
pub struct HardView {
    /// `W = A_unregularized` (`J M^-1 J^T`, `3nc x 3nc`), `q = b_hard_velocity` (m/s),
    /// the file's `mu`, posed as [`FrictionKind::Coulomb`].
    pub problem: FrictionContact,
    /// MuJoCo's impulse `engine_impulse = h f` (N s), `[n, t1, t2]` per contact.
    pub answer: EngineAnswer,
}

/// Everything read from a MuJoCo export.
#[derive(Debug)]
pub struct MujocoProblem {
    /// The file's `name` (or the file stem).
    pub name: String,
    /// [`AnyProblem::Friction`] (CCP, elliptic files) or [`AnyProblem::Lcp`] (pyramidal).
    pub problem: AnyProblem,
    /// MuJoCo's answer: `engine_solution` (and `engine_solution_velocity` as `u`).
    pub answer: Option<EngineAnswer>,
    /// Source `"MuJoCo <version>"`, scene description, units from the file.
    pub provenance: Provenance,
    /// The hard velocity-level problem with MuJoCo's impulses, when the file has it.
    pub hard: Option<HardView>,
    /// `E_edges_to_contact_force` (`3nc x 4nc`, pyramidal files): `f = E p`.
    pub edges_to_contact_force: Option<DMatrix<f64>>,
    /// The time step `h` in seconds (`units.timestep_s`), when given.
    pub timestep: Option<f64>,
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
            provenance: self.provenance,
            warnings: Vec::new(),
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

/// Parses a MuJoCo export (`path` names the file in messages and gives the default
/// name).
///
/// # Errors
/// See the [module docs](self).
pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<MujocoProblem, IoError> {
    let f: MujocoJson =
        serde_json::from_slice(bytes).map_err(|e| super::json_error(path, bytes, &e))?;
    let prob = |e| IoError::new(path, IoErrorKind::Problem(e));
    if f.dim != 3 && f.dim != 4 {
        return Err(IoError::new(
            path,
            IoErrorKind::Unsupported(format!(
                "dim = {}: only elliptic (dim 3: rows [n, t1, t2] per contact) and pyramidal \
                 (dim 4: four edge rows per contact) MuJoCo problems are read",
                f.dim
            )),
        ));
    }
    let nc = f.n_contacts;
    let n = nc
        .checked_mul(f.dim)
        .ok_or_else(|| IoError::parse(path, "n_contacts", "n_contacts * dim overflows"))?;
    let rows = format!("n_contacts {nc} x dim {}", f.dim);
    check_len(path, &f.b, n, "b", &rows)?;
    check_len(
        path,
        &f.mu,
        nc,
        "mu",
        &format!("one per contact: n_contacts {nc}"),
    )?;
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
    let provenance = Provenance {
        source: source.clone(),
        description: description.join("; "),
        units,
    };

    let answer = match &f.engine_solution {
        Some(r) => {
            check_len(path, r, n, "engine_solution", &rows)?;
            if let Some(u) = &f.engine_solution_velocity {
                check_len(path, u, n, "engine_solution_velocity", &rows)?;
            }
            Some(EngineAnswer {
                source: source.clone(),
                r: r.clone(),
                u: f.engine_solution_velocity.clone(),
            })
        }
        None => None,
    };
    let mu = DVector::from_vec(f.mu);
    let (problem, edges) = match f.dim {
        3 => {
            let fc = FrictionContact::new(
                Matrix::Dense(a),
                DVector::from_vec(f.b),
                mu.clone(),
                FrictionKind::Ccp,
            )
            .map_err(prob)?;
            (AnyProblem::Friction(fc), None)
        }
        4 => {
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
            (AnyProblem::Lcp(lcp), e)
        }
        d => {
            return Err(IoError::new(
                path,
                IoErrorKind::Unsupported(format!(
                    "dim = {d}: only elliptic (3 rows per contact) and pyramidal (4 rows per contact) MuJoCo problems are read"
                )),
            ));
        }
    };
    if let Some(ans) = &answer {
        ans.validate(problem.dim()).map_err(prob)?;
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
    let hard = match hard_parts {
        Some((a, b, r, suffix)) => {
            let m = 3 * nc;
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
            let rows = format!("3 rows per contact, n_contacts {nc}");
            check_len(path, &b, m, &format!("b_hard_velocity{suffix}"), &rows)?;
            check_len(path, &r, m, &format!("engine_impulse{suffix}"), &rows)?;
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

    let name = f.name.unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    Ok(MujocoProblem {
        name,
        problem,
        answer,
        provenance,
        hard,
        edges_to_contact_force: edges,
        timestep,
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
