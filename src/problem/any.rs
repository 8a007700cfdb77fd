//! [`AnyProblem`]: one of the crate's four problem types, as a file or a user hands it over.

use super::{
    BoxedLcp, FrictionContact, FrictionKind, GenericMechanical, GlobalFrictionContact, Lcp,
    ProblemError,
};

/// Any of the crate's problems.
#[derive(Debug)]
pub enum AnyProblem {
    /// A linear complementarity problem.
    Lcp(Lcp),
    /// A boxed LCP with variable (friction) bounds.
    Boxed(BoxedLcp),
    /// A local 3D frictional contact problem.
    Friction(FrictionContact),
    /// A global (velocity-space) 3D frictional contact problem.
    Global(GlobalFrictionContact),
    /// A generic mechanical problem: blocks of equality, unilateral, interval and
    /// elliptic-cone contact rows.
    Generic(GenericMechanical),
}

/// The relative asymmetry of `W` above which [`AnyProblem::data_warnings`] warns: far above
/// round-off and export precision (Siconos's own shipped files reach `1e-3`), far below the
/// `O(1)` asymmetry of a transposed or mis-assembled export.
pub const ASYMMETRY_WARNING: f64 = 1e-2;

impl AnyProblem {
    /// What is doubtful about the data without making them invalid, as sentences for a
    /// warning: a Delassus operator `W` (fc3d, gmp) that is not symmetric (relative
    /// asymmetry above [`ASYMMETRY_WARNING`](crate::problem::ASYMMETRY_WARNING)) or has a negative diagonal entry. `W = H^T
    /// M^-1 H` is symmetric positive semidefinite by construction, and the methods' theory
    /// assumes it; such a `W` usually means a transposed or mis-signed export. LCP matrices
    /// are not checked (an LCP's matrix need not be symmetric). `O(nnz log n)`.
    pub fn data_warnings(&self) -> Vec<String> {
        let w = match self {
            AnyProblem::Friction(f) => f.w(),
            AnyProblem::Generic(g) => g.w(),
            _ => return Vec::new(),
        };
        let mut out = Vec::new();
        let asym = w.relative_asymmetry();
        if asym > ASYMMETRY_WARNING {
            out.push(format!(
                "W is not symmetric (largest |W_ij - W_ji| is {asym:.1e} of the largest |W_ij|); \
                 a Delassus operator H^T M^-1 H is, and the methods assume it: check the export"
            ));
        }
        let d = w.diagonal();
        if let Some((i, v)) = d.iter().enumerate().find(|(_, v)| **v < 0.0) {
            out.push(format!(
                "W[{i},{i}] = {v:e} is negative; a Delassus operator has a nonnegative \
                 diagonal (a row that pushes back when pushed): check the signs of the export"
            ));
        }
        out
    }

    /// The problem type in words, with its article (`"an LCP"`, `"a boxed LCP"`, `"a local
    /// friction problem"`, `"a global friction problem"`), for messages.
    pub fn noun(&self) -> &'static str {
        match self {
            AnyProblem::Lcp(_) => "an LCP",
            AnyProblem::Boxed(_) => "a boxed LCP",
            AnyProblem::Friction(_) => "a local friction problem",
            AnyProblem::Global(_) => "a global friction problem",
            AnyProblem::Generic(_) => "a generic mechanical problem",
        }
    }

    /// Short name of the problem type: `"lcp"`, `"boxed-lcp"`, `"fc3d"`, `"gfc3d"`, `"gmp"`.
    pub fn type_name(&self) -> &'static str {
        match self {
            AnyProblem::Lcp(_) => "lcp",
            AnyProblem::Boxed(_) => "boxed-lcp",
            AnyProblem::Friction(_) => "fc3d",
            AnyProblem::Global(_) => "gfc3d",
            AnyProblem::Generic(_) => "gmp",
        }
    }

    /// Number of unknowns (`n` for LCPs, `3 nc` for friction problems).
    pub fn dim(&self) -> usize {
        match self {
            AnyProblem::Lcp(p) => p.dim(),
            AnyProblem::Boxed(p) => p.dim(),
            AnyProblem::Friction(p) => p.dim(),
            AnyProblem::Global(p) => p.dim(),
            AnyProblem::Generic(p) => p.dim(),
        }
    }

    /// The problem with its friction law set to `kind` (`None`: unchanged).
    ///
    /// # Errors
    /// [`ProblemError::Unsupported`](ProblemError::Unsupported) for a law
    /// asked of an LCP or a boxed LCP, which have none: the law would otherwise be ignored
    /// without a word.
    pub fn with_kind(self, kind: Option<FrictionKind>) -> Result<AnyProblem, ProblemError> {
        Ok(match (self, kind) {
            (p, None) => p,
            (AnyProblem::Friction(p), Some(k)) => AnyProblem::Friction(p.with_kind(k)),
            (AnyProblem::Global(p), Some(k)) => AnyProblem::Global(p.with_kind(k)),
            (AnyProblem::Generic(p), Some(k)) => AnyProblem::Generic(p.with_kind(k)),
            (p, Some(k)) => {
                return Err(ProblemError::Unsupported {
                    reason: format!(
                        "friction law `{}` asked for a problem of type {}; a friction law \
                         applies only to friction problems (fc3d, gfc3d, gmp)",
                        k.name(),
                        p.type_name()
                    ),
                });
            }
        })
    }

    /// The friction law of a friction problem (`None` for LCPs).
    pub fn kind(&self) -> Option<FrictionKind> {
        match self {
            AnyProblem::Friction(p) => Some(p.kind()),
            AnyProblem::Global(p) => Some(p.kind()),
            AnyProblem::Generic(p) => Some(p.kind()),
            _ => None,
        }
    }

    /// Number of contacts (0 for LCPs; the number of blocks of a generic mechanical problem).
    pub fn contacts(&self) -> usize {
        match self {
            AnyProblem::Lcp(_) | AnyProblem::Boxed(_) => 0,
            AnyProblem::Friction(p) => p.contacts(),
            AnyProblem::Global(p) => p.contacts(),
            AnyProblem::Generic(p) => p.blocks_len(),
        }
    }
}
