use nalgebra::DVector;
use serde::{Deserialize, Serialize};

use super::{ProblemError, check_finite_mat, check_finite_vec, check_len, check_square};
use crate::matrix::Matrix;

/// Which friction law a [`FrictionContact`] problem poses.
///
/// With the friction cone `K_mu = { r : ||r_t|| <= mu r_n }` and its dual
/// `K_mu* = { u : mu ||u_t|| <= u_n }`, per contact:
///
/// * **Coulomb** (De Saxce's bipotential form): `K_mu ∋ r ⊥ û ∈ K_mu*` with the modified
///   velocity `û = u + mu ||u_t|| e_n`. Sticking gives `u = 0`, sliding gives `u_n = 0`
///   and `r_t = -mu r_n u_t / ||u_t||`. This is the problem Siconos and FCLIB pose.
/// * **CCP** (cone complementarity, Anitescu's convex relaxation): `K_mu ∋ r ⊥ u ∈ K_mu*`
///   without the De Saxce term. It is the optimality condition of
///   `min 1/2 r'Wr + q'r, r ∈ K`; a sliding contact separates with `u_n = mu ||u_t|| > 0`.
///   MuJoCo (elliptic cones) and Drake solve this problem.
///
/// The two agree wherever no contact slides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum FrictionKind {
    /// Coulomb friction in the De Saxce formulation (nonconvex).
    #[default]
    Coulomb,
    /// The convex cone complementarity relaxation.
    Ccp,
}

impl FrictionKind {
    /// The lower-case name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            FrictionKind::Coulomb => "coulomb",
            FrictionKind::Ccp => "ccp",
        }
    }
}

impl std::fmt::Display for FrictionKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for FrictionKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "coulomb" => Ok(FrictionKind::Coulomb),
            "ccp" => Ok(FrictionKind::Ccp),
            other => Err(format!(
                "unknown friction kind `{other}` (expected coulomb or ccp)"
            )),
        }
    }
}

/// The local (reduced) 3D frictional contact problem
///
/// ```text
/// u = W r + q,     r_c ∈ K_{mu_c},   complementarity per FrictionKind,
/// ```
///
/// with `nc` contacts, three rows `[n, t1, t2]` each (see the [module conventions](super)).
///
/// Shapes: `W` (the Delassus operator `H^T M^-1 H`) is `3nc x 3nc`, dense or sparse;
/// `q` has `3nc` entries; `mu` has `nc`.
///
/// # Errors
/// [`FrictionContact::new`] rejects a non-square `W`, a size that is not a multiple of 3,
/// mismatched lengths, NaN/inf anywhere, and `mu < 0`. `W` is assumed symmetric positive
/// semidefinite (it is, when it comes from `H^T M^-1 H`) but this is not checked; the
/// Gauss-Seidel solvers check what they divide by.
///
/// # Source
/// Acary, Bremond, Huber 2018 (the Siconos/FCLIB benchmark), and the conventions of
/// `data/README.md`.
#[derive(Debug, Clone, PartialEq)]
pub struct FrictionContact {
    w: Matrix,
    q: DVector<f64>,
    mu: DVector<f64>,
    kind: FrictionKind,
}

impl FrictionContact {
    /// Builds and validates the problem.
    pub fn new(
        w: Matrix,
        q: DVector<f64>,
        mu: DVector<f64>,
        kind: FrictionKind,
    ) -> Result<Self, ProblemError> {
        check_square("W", &w)?;
        if w.nrows() % 3 != 0 {
            return Err(ProblemError::NotContactSized {
                what: "W",
                size: w.nrows(),
            });
        }
        check_len("q", w.nrows(), q.len())?;
        check_len("mu", w.nrows() / 3, mu.len())?;
        check_finite_mat("W", &w)?;
        check_finite_vec("q", q.as_slice())?;
        check_finite_vec("mu", mu.as_slice())?;
        if let Some(contact) = mu.iter().position(|m| *m < 0.0) {
            return Err(ProblemError::NegativeFriction {
                contact,
                mu: mu[contact],
            });
        }
        Ok(FrictionContact { w, q, mu, kind })
    }

    /// Number of contacts `nc`.
    pub fn contacts(&self) -> usize {
        self.mu.len()
    }

    /// Number of unknowns `3 nc`.
    pub fn dim(&self) -> usize {
        self.q.len()
    }

    /// The Delassus operator `W` (`3nc x 3nc`).
    pub fn w(&self) -> &Matrix {
        &self.w
    }

    /// The free velocity `q` (`3nc`).
    pub fn q(&self) -> &DVector<f64> {
        &self.q
    }

    /// The friction coefficients (`nc`).
    pub fn mu(&self) -> &DVector<f64> {
        &self.mu
    }

    /// Which law is posed.
    pub fn kind(&self) -> FrictionKind {
        self.kind
    }

    /// The same data posed with another friction law.
    pub fn with_kind(mut self, kind: FrictionKind) -> Self {
        self.kind = kind;
        self
    }

    /// `u = W r + q`.
    pub fn velocity(&self, r: &DVector<f64>) -> DVector<f64> {
        let mut u = self.q.clone();
        self.w.mul_vec_add(r, &mut u);
        u
    }

    /// Takes the problem apart into `(W, q, mu, kind)`.
    pub fn into_parts(self) -> (Matrix, DVector<f64>, DVector<f64>, FrictionKind) {
        (self.w, self.q, self.mu, self.kind)
    }
}

/// An answer some engine (or solver) gave for a problem: the reaction `r` (`3nc`, same
/// units and row order as the problem) and, optionally, the velocity it reported.
///
/// Read from a file, a key it does not know is an error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineAnswer {
    /// Who produced it (for example `"MuJoCo 4.0.0"`).
    pub source: String,
    /// The reaction, `3nc` entries `[n, t1, t2]` per contact.
    pub r: Vec<f64>,
    /// The velocity `u = W r + q` the engine reported, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub u: Option<Vec<f64>>,
}

impl EngineAnswer {
    /// Checks that the answer fits a problem of `dim` unknowns and is finite.
    pub fn validate(&self, dim: usize) -> Result<(), ProblemError> {
        check_len("answer r", dim, self.r.len())?;
        check_finite_vec("answer r", &self.r)?;
        if let Some(u) = &self.u {
            check_len("answer u", dim, u.len())?;
            check_finite_vec("answer u", u)?;
        }
        Ok(())
    }
}
