use nalgebra::DVector;
use nalgebra_sparse::CsrMatrix;

use crate::friction::FrictionLaw;
use crate::matrix::Matrix;
use crate::merit::{Residual, norms_of_terms, scaled_norm, scaled_norm_seq};
use crate::multibody::Assembly;
use crate::problem::ContactLaw;
use crate::problem::{
    BoxedLcp, FrictionContact, FrictionKind, GlobalFrictionContact, Held, Lcp, MassMatrix,
    ProblemError, RowBound, check_finite_mat, check_finite_vec, check_len, check_square,
};

/// How the contact velocity `v = A λ + b` is given.
// One per problem: the size of the variants does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub(crate) enum Form<'a> {
    /// The Delassus operator `A` itself (`m x m`).
    Local(Held<'a, Matrix>),
    /// `A = H^T M^-1 H` left unformed: `v = H^T M^-1 (q + H λ) + b` (Erleben 2017 eq. 18,
    /// with `H = J^T`, `q = M u^t + Δt h`); `M` validated and factorised once.
    Global {
        mass: Held<'a, MassMatrix>,
        h: Held<'a, Matrix>,
        q: Held<'a, DVector<f64>>,
    },
}

/// A contact problem in the proximal operator model (Erleben 2017 §3.1): find `λ` with
///
/// ```text
/// v = A λ + b,        λ_c = prox_{C_c}(λ_c - r_c v_c)  for every contact c,     (eq. 14, 20)
/// ```
///
/// where contact `c` owns the consecutive rows of its [`ContactLaw`] (1, 3 or 4 rows:
/// `[n]`, `[n, s, t]` or `[n, s, t, τ]`) and `C_c` is the law's set. The Delassus operator
/// `A` is given either as a matrix (the *local* form) or as `H^T M^-1 H` with `M`
/// factorised and `A` never formed (the *global* form, [`ProxProblem::new_global`]).
///
/// # A view
/// Made from one of the crate's problems ([`ProxProblem::from_friction_contact`],
/// [`ProxProblem::from_global`], [`ProxProblem::from_lcp`], [`ProxProblem::from_boxed`]),
/// a `ProxProblem<'a>` borrows that problem's matrices, vectors and mass factor: nothing is
/// copied and `M` is not factorised again. Only the per-contact laws and row offsets are
/// its own. Built from parts ([`ProxProblem::new`], [`ProxProblem::new_global`]) it owns
/// them (`ProxProblem<'static>`).
///
/// The Newton impact law (eq. 14, 19) enters `b`: [`ProxProblem::with_restitution`] adds
/// `ε_N min(v_N^-, 0)` to each normal row, so that the fixed point enforces
/// `v_N^+ >= -ε_N v_N^-` on approaching contacts.
///
/// Shapes and units: `λ` and `b` have `m = Σ_c dim(law_c)` entries; at the velocity level
/// `λ` is an impulse (N s; N m s for a torsion row) and `v` a velocity (m/s; rad/s), `A` in
/// 1/kg (1/(kg m²) on torsion rows, 1/(kg m) across).
///
/// # Errors
/// The constructors reject non-square or mismatched shapes, NaN/inf, laws whose rows do not
/// add up to `m`, negative or non-finite friction coefficients, and (global form) a
/// nonsymmetric or indefinite `M`. `A` is assumed symmetric positive semidefinite (it is,
/// when it is `J M^-1 J^T`) but this is not checked.
#[derive(Debug)]
pub struct ProxProblem<'a> {
    pub(crate) form: Form<'a>,
    pub(crate) b: Held<'a, DVector<f64>>,
    pub(crate) laws: Vec<ContactLaw>,
    pub(crate) offsets: Vec<usize>,
    /// The free velocity `v(0)`, computed on first use.
    pub(crate) free: std::sync::OnceLock<DVector<f64>>,
}

/// The law `kind` with each coefficient of `mu` (one 3-row contact each) and the row offsets
/// `0, 3, .., 3 nc`: the layout of a friction problem.
fn friction_laws(mu: &[f64], kind: FrictionKind) -> (Vec<ContactLaw>, Vec<usize>) {
    let laws = mu.iter().map(|&m| ContactLaw::friction(kind, m)).collect();
    (laws, (0..=mu.len()).map(|c| 3 * c).collect())
}

/// Row offsets of the contacts (`nc + 1` entries) after checking the laws.
fn layout(laws: &[ContactLaw], rows: usize) -> Result<Vec<usize>, ProblemError> {
    let mut offsets = Vec::with_capacity(laws.len() + 1);
    offsets.push(0);
    for (contact, law) in laws.iter().enumerate() {
        if let Some(mu) = law.invalid_coefficient() {
            return Err(if mu.is_finite() {
                ProblemError::NegativeFriction { contact, mu }
            } else {
                ProblemError::NonFinite {
                    what: "friction coefficient",
                    index: contact,
                    value: mu,
                }
            });
        }
        offsets.push(offsets[contact] + law.dim());
    }
    check_len("rows of the contact laws", rows, offsets[laws.len()])?;
    Ok(offsets)
}

impl ProxProblem<'static> {
    /// The local form: `v = A λ + b` with `A` given (`m x m`, dense or sparse).
    ///
    /// # Errors
    /// See the [type documentation](ProxProblem#errors).
    ///
    /// # Example
    /// ```
    /// use nalgebra::{DMatrix, DVector};
    /// use nonsmooth::friction::FrictionLaw;
    /// use nonsmooth::prox::{ContactLaw, ProxProblem};
    /// // One Coulomb-Contensou contact: rows [n, s, t, τ].
    /// let law = ContactLaw::Friction(FrictionLaw::Ellipsoid { mu: [0.5, 0.5, 0.01] });
    /// let p = ProxProblem::new(DMatrix::<f64>::identity(4, 4).into(),
    ///     DVector::from_vec(vec![-1.0, 0.2, 0.0, 0.3]), vec![law]).unwrap();
    /// assert_eq!((p.dim(), p.contacts()), (4, 1));
    /// ```
    pub fn new(
        a: Matrix,
        b: DVector<f64>,
        laws: Vec<ContactLaw>,
    ) -> Result<ProxProblem<'static>, ProblemError> {
        check_square("A", &a)?;
        check_len("b", a.nrows(), b.len())?;
        check_finite_mat("A", &a)?;
        check_finite_vec("b", b.as_slice())?;
        let offsets = layout(&laws, a.nrows())?;
        Ok(ProxProblem {
            form: Form::Local(a.into()),
            b: b.into(),
            laws,
            offsets,
            free: std::sync::OnceLock::new(),
        })
    }

    /// The global form: `M v = q + H λ`, `u = H^T v + b` (Siconos `gfc3d` with any contact
    /// laws), so `A = H^T M^-1 H` is never formed. `M` is `ndof x ndof` symmetric positive
    /// definite (factorised here, once), `H` is `ndof x m`, `q` has `ndof` entries.
    ///
    /// # Errors
    /// See the [type documentation](ProxProblem#errors).
    pub fn new_global(
        m: Matrix,
        h: Matrix,
        q: DVector<f64>,
        b: DVector<f64>,
        laws: Vec<ContactLaw>,
    ) -> Result<ProxProblem<'static>, ProblemError> {
        check_square("M", &m)?;
        check_len("H rows", m.nrows(), h.nrows())?;
        check_len("q", m.nrows(), q.len())?;
        check_len("b", h.ncols(), b.len())?;
        check_finite_mat("M", &m)?;
        check_finite_mat("H", &h)?;
        check_finite_vec("q", q.as_slice())?;
        check_finite_vec("b", b.as_slice())?;
        let offsets = layout(&laws, h.ncols())?;
        let mass = MassMatrix::new(m)?;
        Ok(ProxProblem {
            form: Form::Global {
                mass: mass.into(),
                h: h.into(),
                q: q.into(),
            },
            b: b.into(),
            laws,
            offsets,
            free: std::sync::OnceLock::new(),
        })
    }

    /// The law each contact of a friction problem poses: the disk `‖λ_F‖ <= μ λ_N` for
    /// Coulomb friction (eq. 5), the cone `K_μ` for the CCP.
    pub fn law_of(kind: FrictionKind, mu: f64) -> ContactLaw {
        ContactLaw::friction(kind, mu)
    }
}

impl<'a> ProxProblem<'a> {
    /// A [`FrictionContact`] in the proximal model, with its own friction kind: `A = W`,
    /// `b = q`, the disk law per contact for Coulomb, the cone for the CCP.
    pub fn from_friction_contact(fc: &'a FrictionContact) -> Self {
        Self::from_friction_contact_as(fc, fc.kind())
    }

    /// As [`ProxProblem::from_friction_contact`], posing the law `kind` instead.
    pub fn from_friction_contact_as(fc: &'a FrictionContact, kind: FrictionKind) -> Self {
        let (laws, offsets) = friction_laws(fc.mu().as_slice(), kind);
        ProxProblem {
            form: Form::Local(Held::Borrowed(fc.w())),
            b: Held::Borrowed(fc.q()),
            laws,
            offsets,
            free: std::sync::OnceLock::new(),
        }
    }

    /// A [`GlobalFrictionContact`] in the global proximal form (`W` never formed), with
    /// the law `kind` (disk or cone per contact). `M`, `H`, `q`, `b` and the factor of `M`
    /// are borrowed: nothing is checked or factorised again.
    pub fn from_global(gfc: &'a GlobalFrictionContact, kind: FrictionKind) -> Self {
        let (laws, offsets) = friction_laws(gfc.mu().as_slice(), kind);
        ProxProblem {
            form: Form::Global {
                mass: Held::Borrowed(gfc.mass()),
                h: Held::Borrowed(gfc.h()),
                q: Held::Borrowed(gfc.q()),
            },
            b: Held::Borrowed(gfc.b()),
            laws,
            offsets,
            free: std::sync::OnceLock::new(),
        }
    }

    /// An LCP `0 <= λ ⊥ A λ + b >= 0` as frictionless contacts: the proximal form of the
    /// post-stabilisation problem (Erleben 2017 eq. 49-50).
    pub fn from_lcp(lcp: &'a Lcp) -> Self {
        let n = lcp.dim();
        ProxProblem {
            form: Form::Local(Held::Borrowed(lcp.a())),
            b: Held::Borrowed(lcp.b()),
            laws: vec![ContactLaw::Frictionless; n],
            offsets: (0..=n).collect(),
            free: std::sync::OnceLock::new(),
        }
    }

    /// A boxed LCP with the friction-box structure as box-law contacts: each normal row
    /// (`Fixed { lo: 0, hi: ∞ }`) followed by either no friction rows (a frictionless
    /// contact) or exactly two rows bounded by it (`Friction { dep: normal row, factor }`:
    /// [`FrictionLaw::Box`] with `μ = [factor_1, factor_2]`). This is the model PGS solves
    /// (Erleben 2007 eq. 27-29).
    ///
    /// # Errors
    /// [`ProblemError::Unsupported`] naming the first row that does not fit this structure
    /// (other fixed bounds, a friction row bounded by a row that is not the normal just
    /// before it, one friction row alone).
    pub fn from_boxed(blcp: &'a BoxedLcp) -> Result<Self, ProblemError> {
        let bounds = blcp.row_bounds();
        let n = bounds.len();
        let mut laws = Vec::new();
        let mut offsets = vec![0];
        let mut i = 0;
        let unsupported = |row: usize, why: &str| ProblemError::Unsupported {
            reason: format!(
                "boxed LCP row {row} {why}; PROX needs [normal, friction, friction] or [normal] groups"
            ),
        };
        while i < n {
            match bounds[i] {
                RowBound::Fixed { lo, hi } if lo == 0.0 && hi == f64::INFINITY => {}
                _ => return Err(unsupported(i, "is not a normal row with bounds [0, inf)")),
            }
            let mut factors = Vec::new();
            let mut j = i + 1;
            while j < n {
                match bounds[j] {
                    RowBound::Friction { dep, factor } if dep == i => factors.push(factor),
                    RowBound::Friction { .. } => {
                        return Err(unsupported(
                            j,
                            "is bounded by a row that is not its contact's normal",
                        ));
                    }
                    RowBound::Fixed { .. } => break,
                }
                j += 1;
            }
            let law = match factors.as_slice() {
                [] => ContactLaw::Frictionless,
                [a, b] => ContactLaw::Friction(FrictionLaw::Box { mu: [*a, *b] }),
                _ => {
                    return Err(unsupported(
                        i,
                        &format!("has {} friction rows (0 or 2 are supported)", factors.len()),
                    ));
                }
            };
            laws.push(law);
            offsets.push(j);
            i = j;
        }
        Ok(ProxProblem {
            form: Form::Local(Held::Borrowed(blcp.a())),
            b: Held::Borrowed(blcp.b()),
            laws,
            offsets,
            free: std::sync::OnceLock::new(),
        })
    }
}

impl ProxProblem<'static> {
    /// The contact rows of an assembled multibody step, optionally with the torsion row of
    /// each contact (`[n, t1, t2, τ]`, [`Assembly::torsion_jacobian`]): the Jacobian `J`
    /// (`3nc` or `4nc` rows) and the constant term `b` of `v = J u + b`.
    fn assembly_rows(asm: &Assembly, torsion: bool) -> (Matrix, DVector<f64>) {
        if !torsion {
            return (asm.jacobian().clone(), asm.b());
        }
        let nc = asm.contacts();
        let (j, jt) = (asm.jacobian().to_csr(), asm.torsion_jacobian().to_csr());
        let mut offsets = Vec::with_capacity(4 * nc + 1);
        let mut cols = Vec::with_capacity(j.nnz() + jt.nnz());
        let mut vals = Vec::with_capacity(j.nnz() + jt.nnz());
        offsets.push(0);
        for c in 0..nc {
            for row in (0..3)
                .map(|k| j.row(3 * c + k))
                .chain(std::iter::once(jt.row(c)))
            {
                cols.extend_from_slice(row.col_indices());
                vals.extend_from_slice(row.values());
                offsets.push(cols.len());
            }
        }
        let j4 = CsrMatrix::try_from_csr_data(4 * nc, asm.dofs(), offsets, cols, vals)
            .expect("rows copied from valid CSR rows");
        let b3 = asm.b();
        let bt = asm.b_torsion();
        let b = DVector::from_fn(4 * nc, |i, _| {
            if i % 4 == 3 {
                bt[i / 4]
            } else {
                b3[3 * (i / 4) + i % 4]
            }
        });
        (Matrix::Sparse(j4), b)
    }

    fn assembly_laws(asm: &Assembly, torsion: bool) -> Result<Vec<ContactLaw>, ProblemError> {
        if torsion && asm.kind() == FrictionKind::Ccp {
            return Err(ProblemError::Unsupported {
                reason: "Coulomb-Contensou (torsion) rows are posed for Coulomb friction only, not the CCP".into(),
            });
        }
        Ok((0..asm.contacts())
            .map(|c| {
                let mu = asm.mu()[c];
                if torsion {
                    ContactLaw::Friction(FrictionLaw::Ellipsoid {
                        mu: [mu, mu, asm.mu_torsion()[c]],
                    })
                } else {
                    ContactLaw::friction(asm.kind(), mu)
                }
            })
            .collect())
    }

    /// The local proximal problem of an assembled step: `A = J M^-1 J^T`,
    /// `b = J (u^t + Δt M^-1 f_ext) + b_asm` (Erleben 2017 eq. 18-19, the restitution of
    /// the contacts already in `b_asm`). Without torsion the laws are the disk (Coulomb)
    /// or the cone (CCP) as the assembly's kind says; with `torsion`, each contact has four
    /// rows `[n, t1, t2, τ]` and the Coulomb-Contensou ellipsoid with semi-axes
    /// `(μ, μ, μ_τ) λ_N` (eq. 15b-16; `μ_τ` from [`crate::multibody::Contact::with_torsion`]).
    ///
    /// # Errors
    /// [`ProblemError::Unsupported`] for torsion with the CCP; [`ProblemError::NonFinite`]
    /// if the product overflows.
    pub fn from_assembly(asm: &Assembly, torsion: bool) -> Result<Self, ProblemError> {
        let laws = Self::assembly_laws(asm, torsion)?;
        let (j, b0) = Self::assembly_rows(asm, torsion);
        let j = j.to_csr();
        let t = &asm.inverse_mass_matrix().to_csr() * &j.transpose();
        let a = &j * &t;
        let b = Matrix::Sparse(j).mul_vec(&asm.free_velocity()) + b0;
        ProxProblem::new(Matrix::Sparse(a), b, laws)
    }

    /// The global proximal problem of an assembled step (`M`, `H = J^T`, `q = M u^t + Δt
    /// f_ext`, `b`), with or without torsion rows as in [`ProxProblem::from_assembly`].
    ///
    /// # Errors
    /// As [`ProxProblem::from_assembly`] and [`ProxProblem::new_global`].
    pub fn global_from_assembly(asm: &Assembly, torsion: bool) -> Result<Self, ProblemError> {
        let laws = Self::assembly_laws(asm, torsion)?;
        let (j, b) = Self::assembly_rows(asm, torsion);
        let m = asm.mass_matrix();
        let q = m.mul_vec(asm.velocity()) + asm.external_force() * asm.dt();
        ProxProblem::new_global(m, j.transpose(), q, b, laws)
    }
}

impl<'a> ProxProblem<'a> {
    /// The Newton impact law (Erleben 2017 eq. 14, 19): adds `ε_c min(v_N,c^-, 0)` to the
    /// normal row of each contact `c`, where `v_N^-` (m/s, `nc` entries) is the normal
    /// velocity before the impact and `ε` (`nc` entries) the coefficients of restitution in
    /// `[0, 1]`. The fixed point then enforces `v_N^+ >= -ε v_N^-` instead of `v_N^+ >= 0`.
    /// Only approaching contacts (`v_N^- < 0`) bounce, as in [`crate::multibody::Assembly`];
    /// tangential restitution (`ε_F`) is zero, as usual (§3.1).
    ///
    /// # Errors
    /// [`ProblemError::DimensionMismatch`], [`ProblemError::NonFinite`], or
    /// [`ProblemError::Unsupported`] for a coefficient outside `[0, 1]`.
    pub fn with_restitution(
        mut self,
        restitution: &[f64],
        normal_velocity_before: &[f64],
    ) -> Result<Self, ProblemError> {
        check_len("restitution", self.contacts(), restitution.len())?;
        check_len(
            "pre-impact normal velocity",
            self.contacts(),
            normal_velocity_before.len(),
        )?;
        check_finite_vec("restitution", restitution)?;
        check_finite_vec("pre-impact normal velocity", normal_velocity_before)?;
        if let Some(c) = restitution.iter().position(|e| !(0.0..=1.0).contains(e)) {
            return Err(ProblemError::Unsupported {
                reason: format!(
                    "contact {c} has coefficient of restitution {} outside [0, 1]",
                    restitution[c]
                ),
            });
        }
        for c in 0..self.contacts() {
            self.b.to_mut()[self.offsets[c]] += restitution[c] * normal_velocity_before[c].min(0.0);
        }
        // b changed: the cached free velocity is stale
        self.free = std::sync::OnceLock::new();
        Ok(self)
    }

    /// Number of contacts.
    pub fn contacts(&self) -> usize {
        self.laws.len()
    }

    /// Number of unknowns `m` (rows of all contacts).
    pub fn dim(&self) -> usize {
        self.b.len()
    }

    /// The laws, one per contact.
    pub fn laws(&self) -> &[ContactLaw] {
        &self.laws
    }

    /// The first row of contact `c` (`c = contacts()` gives `dim()`).
    pub fn offset(&self, c: usize) -> usize {
        self.offsets[c]
    }

    /// `b` (`m`): the free contact velocity of the local form (with restitution), or the
    /// constant term of `u = H^T v + b` of the global form.
    pub fn b(&self) -> &DVector<f64> {
        &self.b
    }

    /// `A` for the local form, `None` for the global form (where it is never formed).
    pub fn delassus(&self) -> Option<&Matrix> {
        match &self.form {
            Form::Local(a) => Some(a),
            Form::Global { .. } => None,
        }
    }

    /// `true` for the global form.
    pub fn is_global(&self) -> bool {
        matches!(self.form, Form::Global { .. })
    }

    /// The contact velocity `v = A λ + b` (`m` entries), for either form.
    pub fn velocity(&self, lam: &DVector<f64>) -> DVector<f64> {
        match &self.form {
            Form::Local(a) => {
                let mut v = (*self.b).clone();
                a.mul_vec_add(lam, &mut v);
                v
            }
            Form::Global { mass, h, q } => {
                let rhs = &**q + h.mul_vec(lam);
                h.tr_mul_vec(&mass.factor().solve(&rhs)) + &*self.b
            }
        }
    }

    /// The free contact velocity `v(0)` (the `q` of a local friction problem).
    pub fn free_velocity(&self) -> DVector<f64> {
        self.velocity(&DVector::zeros(self.dim()))
    }

    /// The error of `λ` with its velocity `v` given (`m` entries each): the absolute error
    /// `sqrt(Σ_c e_c²)` of [`ContactLaw::error_squared`] (Siconos's natural map for disk and
    /// cone contacts, the proximal natural map otherwise), divided by
    /// `max(‖v(0)‖, ‖λ‖, ‖v‖)` (`rel`, Siconos 4.4 `fc3d_compute_error`) and by `‖v(0)‖`
    /// (`rel_q`). `free_norm` is `‖v(0)‖`.
    ///
    /// When every contact is frictionless or has the box law (the problems of
    /// [`ProxProblem::from_lcp`] and [`ProxProblem::from_boxed`]), `rel` is divided by
    /// `‖v(0)‖` too: the normalisation of Siconos's `lcp_compute_error`, so that the error
    /// is the LCP or boxed error the other methods report ([`crate::merit::lcp_error`],
    /// [`crate::merit::boxed_error`]; the natural map of these laws is their minimum map).
    /// Divided by `max(‖v(0)‖, ‖λ‖, ‖v‖)` it was smaller, and PROX stopped on an LCP whose
    /// LCP error was still above the tolerance.
    pub fn error_with_velocity(&self, lam: &[f64], v: &[f64], free_norm: f64) -> Residual {
        let (abs, normal) = norms_of_terms(self.laws.len(), |c, s, sn| {
            let (o, e) = (self.offsets[c], self.offsets[c + 1]);
            let law = &self.laws[c];
            s(&law.error_terms(&lam[o..e], &v[o..e]));
            sn(&law.normal_terms(&lam[o..e], &v[o..e]));
        });
        let denom = free_norm.max(scaled_norm_seq(lam)).max(scaled_norm_seq(v));
        let denom_q = if free_norm == 0.0 { denom } else { free_norm };
        let lcp = self.laws.iter().all(|l| {
            matches!(
                l,
                ContactLaw::Frictionless | ContactLaw::Friction(FrictionLaw::Box { .. })
            )
        });
        let denom = if lcp { denom_q } else { denom };
        let scaled = if lcp {
            // the LCP and boxed errors are divided by the problem's `‖b‖` alone already
            crate::merit::relative(abs, denom)
        } else {
            crate::merit::scaled_natural_map(abs, normal, lam, v, self.free_cached().as_slice())
        };
        Residual::friction(abs, normal, denom, denom_q, scaled)
    }

    /// The free velocity `v(0)`, computed once.
    fn free_cached(&self) -> &DVector<f64> {
        self.free.get_or_init(|| self.free_velocity())
    }

    /// The error of `λ` (see [`ProxProblem::error_with_velocity`]).
    pub fn error(&self, lam: &DVector<f64>) -> Residual {
        let v = self.velocity(lam);
        let free = scaled_norm(self.free_velocity().as_slice());
        self.error_with_velocity(lam.as_slice(), v.as_slice(), free)
    }

    /// The same problem in the local form, `A = H^T M^-1 H` formed by sparse solves (a
    /// clone for a local problem).
    ///
    /// # Errors
    /// [`ProblemError::NonFinite`] if the elimination overflows.
    pub fn to_local(&self) -> Result<ProxProblem<'static>, ProblemError> {
        match &self.form {
            Form::Local(a) => ProxProblem::new((**a).clone(), (*self.b).clone(), self.laws.clone()),
            Form::Global { mass, h, q } => {
                let t = mass.factor().solve_columns(h);
                let a = &h.to_csr().transpose() * &t;
                let b = h.tr_mul_vec(&mass.factor().solve(q)) + &*self.b;
                ProxProblem::new(Matrix::Sparse(a), b, self.laws.clone())
            }
        }
    }

    /// The mass matrix of the global form.
    pub fn mass_matrix(&self) -> Option<&Matrix> {
        match &self.form {
            Form::Global { mass, .. } => Some(mass.matrix()),
            Form::Local(_) => None,
        }
    }
}

impl crate::problem::Dim for ProxProblem<'_> {
    fn dim(&self) -> usize {
        self.b.len()
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::{DMatrix, DVector};

    use super::*;

    /// The views borrow the problem they are made from: the same `W`, `q`, `M` (so `M` is
    /// not factorised again), and restitution copies `b` instead of changing the problem.
    #[test]
    fn views_borrow_and_copy_only_on_change() {
        let fc = FrictionContact::new(
            Matrix::Dense(DMatrix::identity(3, 3)),
            DVector::from_vec(vec![-1.0, 0.1, 0.0]),
            DVector::from_element(1, 0.5),
            FrictionKind::Coulomb,
        )
        .unwrap();
        let p = ProxProblem::from_friction_contact(&fc);
        assert!(std::ptr::eq(p.delassus().unwrap(), fc.w()));
        assert!(std::ptr::eq(p.b(), fc.q()));
        let bounced = p.with_restitution(&[0.5], &[-2.0]).unwrap();
        assert_eq!(bounced.b()[0], -2.0);
        assert_eq!(fc.q()[0], -1.0, "the viewed problem is unchanged");

        let g = GlobalFrictionContact::new(
            Matrix::Dense(DMatrix::from_diagonal_element(3, 3, 2.0)),
            Matrix::Dense(DMatrix::identity(3, 3)),
            DVector::from_vec(vec![0.0, 0.0, -1.0]),
            DVector::zeros(3),
            DVector::from_element(1, 0.3),
            FrictionKind::Coulomb,
        )
        .unwrap();
        let p = ProxProblem::from_global(&g, FrictionKind::Coulomb);
        assert!(std::ptr::eq(p.mass_matrix().unwrap(), g.m()));
        let lam = DVector::from_vec(vec![0.5, 0.0, 0.0]);
        let local = g.to_local().unwrap();
        let expected = local.w().mul_vec(&lam) + local.q();
        assert!((p.velocity(&lam) - expected).amax() < 1e-14);
    }
}
