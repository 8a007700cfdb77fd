//! The Newton system of one iteration (Macklin et al. 2019 §6, eq. 56-61; NOTES 2.6).
//!
//! Linearising the discrete equations of [`super::newton`] at the iterate `(u, λ)`, with
//! unknowns `Δu` and the impulse increment `Δλ̂ = h Δλ`, and the position rows divided by
//! `h`, gives the saddle-point system
//!
//! ```text
//! [ M~   -J^T ] [ Δu ]     [ g ]        g = M (u - ũ) - h J^T λ          (N s)
//! [ J     C   ] [ Δλ̂ ] = - [ h ]        h = [ (C_b + E λ_b) / h ;  φ_n / h ;  D^T u + W λ_f ]   (m/s)
//! ```
//!
//! with `C = diag(E / h², S / h², W / h)`, `S = r_n ∂φ/∂(r_n λ_n)`, and the rows of `J`:
//! `∇C_b G` for bilateral rows, `(∂φ/∂C_n) ∇C_n G` for normals (the NCP Jacobian, used in
//! the momentum equation too so that the system stays symmetric: at a solution it is
//! `∇C_n G` wherever `λ_n > 0`), `D^T` for friction. "Since the frictional constraints are
//! measured at the velocity level they are not scaled by h like the positional
//! constraints" (§6).
//!
//! The **Schur complement** with respect to `M~` (the "Newton compliance formulation",
//! eq. 59-61) is
//!
//! ```text
//! [ J M~⁻¹ J^T + C ] Δλ̂ = J M~⁻¹ g - h,        Δu = M~⁻¹ (J^T Δλ̂ - g),
//! ```
//!
//! symmetric and positive semi-definite, and needs only the block-diagonal `M~⁻¹`. Where
//! `C` is invertible (compliance on every row), the Schur complement with respect to `C`
//! gives the "stiffness formulation" `[M~ + J^T C⁻¹ J] Δu = -g - J^T C⁻¹ h`.
//! `tests/laws/newton_system.rs` checks that the three give the same step.
//!
//! Checked by `tests/laws/newton_system.rs`.

use crate::names::named;
use nalgebra::{DMatrix, DVector};
use nalgebra_sparse::{CooMatrix, CsrMatrix};

use super::friction::compliance;
use super::preconditioner::r_factor;
use super::rows::{Row, RowKind};
use super::state::{Dofs, apply_blocks};
use crate::ncp::{FischerBurmeister, MinMap, NcpFunction};

/// Which NCP function poses the normal and friction complementarity (§4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ncp {
    /// The minimum map `min(a, b)` (§4.1): an active-set method.
    Min,
    /// Fischer-Burmeister `a + b - sqrt(a² + b²)` (§4.2). The default.
    #[default]
    Fb,
}

named!(Ncp {
    Min => MinMap::NAME,
    Fb => FischerBurmeister::NAME,
});

impl Ncp {
    fn value(self, a: f64, b: f64) -> f64 {
        match self {
            Ncp::Min => MinMap::value(a, b),
            Ncp::Fb => FischerBurmeister::value(a, b),
        }
    }

    fn grad(self, a: f64, b: f64) -> (f64, f64) {
        match self {
            Ncp::Min => MinMap::grad(a, b),
            Ncp::Fb => FischerBurmeister::grad(a, b),
        }
    }

    fn compliance(self, slip: f64, force: f64, limit: f64, r_f: f64) -> f64 {
        match self {
            Ncp::Min => compliance::<MinMap>(slip, force, limit, r_f),
            Ncp::Fb => compliance::<FischerBurmeister>(slip, force, limit, r_f),
        }
    }
}

/// How the Newton iteration linearises the friction law of a contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FrictionForm {
    /// The paper's compliance form (§4.3, [`super::friction`]): `D^T u + W λ_f = 0` with
    /// `W` frozen within an iteration. Symmetric, a fixed-point iteration in `W`: on
    /// sliding contacts it converges linearly at best. The default.
    #[default]
    Compliance,
    // ANCHOR: natural_map_doc
    /// The natural map `F = λ_f - P(λ_f - D^T u / r_f)`, `P` the projection on the disk
    /// of radius `μ λ_n` and `r_f` the friction rows' r-factor ((m/s)/N), linearised
    /// exactly (an element of its B-subdifferential), row by row in m/s (`r_f F`):
    /// sticking (`|z| <= μ λ_n`, `z = λ_f - D^T u / r_f`) gives `D^T Δu = -D^T u`;
    /// sliding gives, in the frame of `ẑ = z / |z|` and `e ⊥ ẑ`, the row
    /// `r_f (ẑ^T Δλ_f - μ Δλ_n) = -r_f (ẑ^T λ_f - μ λ_n)` along the slip and the
    /// compliance row `ρ e^T D^T Δu + (1 - ρ) r_f e^T Δλ_f = -r_f e^T λ_f` across it,
    /// `ρ = μ λ_n / |z|` (nothing divides by `ρ`: a vanishing disk radius drives the
    /// force across the slip to zero). The Schur complement is then not symmetric (the
    /// row along the slip has no `Δu`, and couples to the normal row): the inner solver
    /// must be GMRES or direct. An exact Newton linearisation where the compliance form
    /// is a fixed-point iteration, which cycles on the sliding contacts of a pile.
    NaturalMap,
    // ANCHOR_END: natural_map_doc
}

named!(FrictionForm {
    Compliance => "compliance",
    NaturalMap => "natural-map",
});

/// The Newton system at one iterate, and how far the iterate is from a solution.
#[derive(Debug, Clone)]
pub struct NewtonSystem {
    /// `J` (rows × entries of `u`) as it enters the momentum block: under
    /// [`FrictionForm::Compliance`] also the rows' block (the paper's symmetric form,
    /// normal rows scaled by `∂φ/∂C`, disabled friction rows empty); under
    /// [`FrictionForm::NaturalMap`] unscaled, the rows' block being [`NewtonSystem::j_rows`].
    pub j: CsrMatrix<f64>,
    /// The diagonal of `C`.
    pub c: DVector<f64>,
    /// `g` (N s).
    pub g: DVector<f64>,
    /// `h` (m/s for every row).
    pub h: DVector<f64>,
    /// The diagonal of `J M~⁻¹ J^T` with the unscaled `J` (the Jacobi preconditioner's
    /// diagonal and the source of the r-factors).
    pub delassus_diagonal: DVector<f64>,
    /// The complementarity preconditioner used for each row (1 when off; unused by
    /// bilateral rows).
    pub r: DVector<f64>,
    /// Residual of each row measured in m/s with the preconditioned NCP (the same
    /// measure whether the preconditioner is on or off), see [`NewtonSystem::residual`].
    pub row_residual: DVector<f64>,
    /// `M⁻¹ g` (m/s): the momentum residual as a velocity.
    pub momentum_residual: DVector<f64>,
    /// The residual of each row in the form the Newton step linearises (m/s): `|φ| / h`
    /// of a normal row, `r_f |F|` of the natural map's friction rows, the law's residual
    /// of the compliance friction rows, `|C + E λ| / h` of a bilateral row. With the
    /// momentum residual `M~⁻¹ (M (u - ũ) - h J^T λ)` (the unscaled `J`) it makes the
    /// merit [`NewtonSystem::merit`].
    pub merit_residual: DVector<f64>,
    /// The momentum residual with the unscaled `J` (m/s).
    pub true_momentum_residual: DVector<f64>,
    /// Whether each row is a contact row (normal or friction), the rows that can be
    /// redundant: [`schur_damped`] shifts only these.
    pub contact_row: Vec<bool>,
    /// Number of friction rows disabled (contacts with `μ = 0`, or `λ_n <= 0` under the
    /// compliance form; under the natural map `λ_n < 0`, or `λ_n = 0` with nothing to
    /// linearise).
    pub disabled_friction: usize,
    /// The rows' Jacobian in the constraint equations when it differs from `j` (always
    /// under [`FrictionForm::NaturalMap`]: normal rows scaled by `∂φ/∂C`, sliding
    /// contacts' rows in their slip frame, disabled friction rows empty); `None`: `j`.
    pub j_rows: Option<CsrMatrix<f64>>,
    /// Entries of `C` off its diagonal `(row, column, value)` (sliding contacts under
    /// [`FrictionForm::NaturalMap`]).
    pub c_coupling: Vec<(usize, usize, f64)>,
}

impl NewtonSystem {
    /// The residual of the iterate, in m/s: the largest of the momentum residual
    /// [`NewtonSystem::true_momentum_residual`] and the row residuals
    /// [`NewtonSystem::row_residual`] (friction measured by the natural map, whichever
    /// form linearises it). Zero exactly at a solution of the discrete equations.
    pub fn residual(&self) -> f64 {
        self.true_momentum_residual
            .amax()
            .max(self.row_residual.amax())
    }

    /// The merit the line search lowers, `|M~⁻¹ g|² + |merit residual|²` ((m/s)²), with
    /// the unscaled `J` in `g`: the squared norm of the equations themselves, weighted so
    /// that every entry is a velocity ([`NewtonSystem::merit_residual`]).
    pub fn merit(&self) -> f64 {
        self.true_momentum_residual.norm_squared() + self.merit_residual.norm_squared()
    }
}

/// Assembles the Newton system at `(u, lambda)` (`lambda` in N, one per row) with the
/// inverse mass blocks `minv` (of `M~`), NCP function `ncp` and the complementarity
/// preconditioner on (`precondition`) or off.
pub fn assemble(
    dofs: &Dofs,
    rows: &[Row],
    u: &DVector<f64>,
    lambda: &DVector<f64>,
    minv: &[(usize, nalgebra::Matrix3<f64>)],
    ncp: Ncp,
    precondition: bool,
) -> NewtonSystem {
    assemble_with(
        dofs,
        rows,
        u,
        lambda,
        minv,
        ncp,
        precondition,
        FrictionForm::Compliance,
    )
}

/// [`assemble`] with the friction rows linearised as `friction` says.
#[allow(clippy::too_many_arguments)]
pub fn assemble_with(
    dofs: &Dofs,
    rows: &[Row],
    u: &DVector<f64>,
    lambda: &DVector<f64>,
    minv: &[(usize, nalgebra::Matrix3<f64>)],
    ncp: Ncp,
    precondition: bool,
    friction: FrictionForm,
) -> NewtonSystem {
    let h = dofs.h;
    // Sliding contacts of the natural map: (first friction row, ẑ, ρ e).
    let mut sliding: Vec<(usize, [f64; 2], [f64; 2])> = Vec::new();
    let mut c_coupling = Vec::new();
    let m = rows.len();
    let raw = csr(rows, dofs.n, |_, v| v);
    let delassus_diagonal = row_norms(&raw, minv);
    let r_meas = DVector::from_fn(m, |i, _| r_factor(&rows[i].kind, delassus_diagonal[i], h));
    let r = if precondition {
        r_meas.clone()
    } else {
        DVector::from_element(m, 1.0)
    };

    let mut scale = vec![1.0; m];
    let mut c = DVector::zeros(m);
    let mut hv = DVector::zeros(m);
    let mut row_residual = DVector::zeros(m);
    let mut merit_residual = DVector::zeros(m);
    let mut disabled_friction = 0;
    for (i, row) in rows.iter().enumerate() {
        match row.kind {
            RowKind::Bilateral { compliance } => {
                c[i] = compliance / (h * h);
                hv[i] = (row.value + compliance * lambda[i]) / h;
                row_residual[i] = hv[i].abs();
                merit_residual[i] = row_residual[i];
            }
            RowKind::Unilateral { .. } => {
                let a = r[i] * lambda[i];
                let phi = ncp.value(a, row.value);
                let (da, db) = ncp.grad(a, row.value);
                scale[i] = db;
                c[i] = da * r[i] / (h * h);
                hv[i] = phi / h;
                row_residual[i] = (ncp.value(r_meas[i] * lambda[i], row.value) / h).abs();
                merit_residual[i] = hv[i].abs();
            }
            RowKind::Friction { normal_row, mu, .. } => {
                // The pair of rows of this contact: (normal_row + 1, normal_row + 2).
                let (k1, k2) = (normal_row + 1, normal_row + 2);
                let limit = mu * lambda[normal_row];
                // The natural map is continuous at `λ_n = 0` (a disk of radius 0): a
                // contact whose normal force is zero but whose friction force or slip is
                // not is linearised as sliding (with its coupling to `Δλ_n`); only a
                // negative normal force, or nothing at all to linearise, disables the rows.
                let natural_at_zero = friction == FrictionForm::NaturalMap
                    && limit == 0.0
                    && mu > 0.0
                    && (lambda[k1] != 0.0
                        || lambda[k2] != 0.0
                        || rows[k1].value != 0.0
                        || rows[k2].value != 0.0);
                if limit.is_nan() || (limit <= 0.0 && !natural_at_zero) {
                    scale[i] = 0.0;
                    c[i] = 1.0;
                    hv[i] = h * lambda[i];
                    row_residual[i] = (r_meas[i] * lambda[i]).abs();
                    merit_residual[i] = (r[i] * lambda[i]).abs();
                    disabled_friction += 1;
                    continue;
                }
                let slip = rows[k1].value.hypot(rows[k2].value);
                let force = lambda[k1].hypot(lambda[k2]);
                let rf = 0.5 * (r[k1] + r[k2]);
                if friction == FrictionForm::Compliance {
                    let w = ncp.compliance(slip, force, limit, rf);
                    c[i] = w / h;
                    hv[i] = row.value + w * lambda[i];
                } else if i == k1 {
                    natural_map_rows(
                        [k1, k2, normal_row],
                        [rows[k1].value, rows[k2].value],
                        [lambda[k1], lambda[k2]],
                        limit,
                        mu,
                        rf,
                        h,
                        &mut c,
                        &mut hv,
                        &mut c_coupling,
                        &mut sliding,
                    );
                }
                // The residual of the friction law itself, whichever form linearises it:
                // the natural map `r_f |F|` (m/s), zero exactly where the Coulomb law of
                // eq. 15-16 holds, and continuous where the friction force vanishes
                // (the direction `λ_f / |λ_f|` of eq. 15 is not).
                let rm = 0.5 * (r_meas[k1] + r_meas[k2]);
                let f = natural_map_value(
                    [rows[k1].value, rows[k2].value],
                    [lambda[k1], lambda[k2]],
                    limit.max(0.0),
                    rm,
                );
                row_residual[i] = rm * f[i - k1].abs();
                // The merit measures the rows Newton linearises: with the r-factors in use
                // (`rf`), which are the measuring ones unless the preconditioner is off.
                merit_residual[i] = if friction == FrictionForm::Compliance || rf == rm {
                    row_residual[i]
                } else {
                    let f = natural_map_value(
                        [rows[k1].value, rows[k2].value],
                        [lambda[k1], lambda[k2]],
                        limit.max(0.0),
                        rf,
                    );
                    rf * f[i - k1].abs()
                };
            }
        }
    }
    let j_scaled = csr(rows, dofs.n, |i, v| v * scale[i]);
    // Sliding rows of the natural map: across the slip, `e^T D^T`; along it, nothing.
    let j_rows = (!sliding.is_empty()).then(|| {
        let mut mapped: Vec<Row> = rows.to_vec();
        for (k1, _, e) in &sliding {
            let (k1, k2) = (*k1, *k1 + 1);
            let mut across = Vec::with_capacity(24);
            for &(col, v) in &rows[k1].jacobian {
                across.push((col, e[0] * v));
            }
            for &(col, v) in &rows[k2].jacobian {
                across.push((col, e[1] * v));
            }
            mapped[k1].jacobian = across;
            mapped[k2].jacobian = Vec::new();
        }
        csr(&mapped, dofs.n, |i, v| v * scale[i])
    });
    // The paper scales each normal row of `J` by `∂φ/∂C` in both blocks, which keeps the
    // Schur complement symmetric for PCR but makes the momentum block `J^T` differ from
    // the equations' wherever `∂φ/∂C != 1`. With a system that is not symmetric anyway
    // (the natural map), the momentum block keeps the unscaled `J` and only the rows'
    // equations are scaled: the exact Newton step of the discrete equations, a descent
    // direction of their merit.
    let (j, j_rows) = if friction == FrictionForm::NaturalMap {
        (raw.clone(), Some(j_rows.unwrap_or(j_scaled)))
    } else {
        (j_scaled, j_rows)
    };
    let force = j.transpose() * lambda;
    let g = dofs.mass_times(&(u - &dofs.u_tilde)) - force * h;
    let momentum_residual = apply_blocks(minv, &g);
    let g_true = dofs.mass_times(&(u - &dofs.u_tilde)) - (raw.transpose() * lambda) * h;
    let true_momentum_residual = apply_blocks(minv, &g_true);
    NewtonSystem {
        j,
        c,
        g,
        h: hv,
        delassus_diagonal,
        r,
        row_residual,
        momentum_residual,
        merit_residual,
        true_momentum_residual,
        contact_row: rows
            .iter()
            .map(|r| !matches!(r.kind, RowKind::Bilateral { .. }))
            .collect(),
        disabled_friction,
        j_rows,
        c_coupling,
    }
}

/// The natural map `F = λ_f - P(λ_f - s / r_f)` of one contact (N): `P` projects on the
/// disk of radius `limit` (N), `s` the tangential velocity (m/s), `lf` the friction force
/// (N), `r_f > 0` ((m/s)/N, the complementarity preconditioner: it turns the slip into a
/// force). Zero exactly where the Coulomb law holds, whatever `r_f`: the fixed point
/// `λ_f = P(λ_f - s / r_f)` is maximal dissipation on the disk (Macklin et al. 2019
/// eq. 15-16; the natural map of the chapter *The contact problem*). Assumes
/// `limit >= 0`; returns `λ_f` itself for `limit = 0`.
pub fn natural_map_value(s: [f64; 2], lf: [f64; 2], limit: f64, r_f: f64) -> [f64; 2] {
    let z = [lf[0] - s[0] / r_f, lf[1] - s[1] / r_f];
    let norm = z[0].hypot(z[1]);
    let k = if norm > limit { limit / norm } else { 1.0 };
    [lf[0] - k * z[0], lf[1] - k * z[1]]
}

// ANCHOR: natural_map_rows
/// The linearised natural map of one contact's friction rows `[k1, k2]` with normal row
/// `n` ([`FrictionForm::NaturalMap`]): tangential velocity `s = D^T u` (m/s), friction
/// force `lf` (N), disk radius `limit = μ λ_n > 0` (N), `r_f` ((m/s)/N), time step `h`
/// (s). Fills the rows' diagonal of `C`, their right-hand side `hv` (m/s, of the rows
/// as the Newton system writes them), their entries of `C` off the diagonal, and for a
/// sliding contact `(k1, ẑ, e)`: the frame of its two rows.
#[allow(clippy::too_many_arguments)]
fn natural_map_rows(
    [k1, k2, n]: [usize; 3],
    s: [f64; 2],
    lf: [f64; 2],
    limit: f64,
    mu: f64,
    r_f: f64,
    h: f64,
    c: &mut DVector<f64>,
    hv: &mut DVector<f64>,
    c_coupling: &mut Vec<(usize, usize, f64)>,
    sliding: &mut Vec<(usize, [f64; 2], [f64; 2])>,
) {
    let z = [lf[0] - s[0] / r_f, lf[1] - s[1] / r_f];
    let norm = z[0].hypot(z[1]);
    if norm <= limit {
        // Sticking: r_f F = D^T u, the row D^T Δu = -D^T u.
        for (k, sk) in [(k1, s[0]), (k2, s[1])] {
            c[k] = 0.0;
            hv[k] = sk;
        }
        return;
    }
    let zh = [z[0] / norm, z[1] / norm];
    let e = [-zh[1], zh[0]];
    let rho = limit / norm;
    // Across the slip (row k1), `r_f e^T F` linearised: ρ e^T D^T Δu + w e^T Δλ̂ =
    // -r_f e^T λ_f, w = (1-ρ) r_f / h. Nothing divides by ρ: the disk radius may be as
    // small as a denormal.
    let w = (1.0 - rho) * r_f / h;
    c[k1] = w * e[0];
    c_coupling.push((k1, k2, w * e[1]));
    hv[k1] = r_f * (e[0] * lf[0] + e[1] * lf[1]);
    // Along it (row k2), scaled by r_f to m/s: (r_f/h)(ẑ^T Δλ̂_f - μ Δλ̂_n) = -r_f (ẑ^T λ_f - μ λ_n).
    c_coupling.push((k2, k1, r_f / h * zh[0]));
    c[k2] = r_f / h * zh[1];
    c_coupling.push((k2, n, -r_f / h * mu));
    hv[k2] = r_f * (zh[0] * lf[0] + zh[1] * lf[1] - limit);
    sliding.push((k1, zh, [rho * e[0], rho * e[1]]));
}
// ANCHOR_END: natural_map_rows

/// `J` from the rows, each entry mapped by `f(row, entry)` (zeros dropped).
pub fn csr(rows: &[Row], n: usize, f: impl Fn(usize, f64) -> f64) -> CsrMatrix<f64> {
    let mut coo = CooMatrix::new(rows.len(), n);
    for (i, row) in rows.iter().enumerate() {
        for &(k, v) in &row.jacobian {
            let v = f(i, v);
            if v != 0.0 {
                coo.push(i, k, v);
            }
        }
    }
    CsrMatrix::from(&coo)
}

/// `M~⁻¹` as a sparse matrix from its 3x3 blocks.
pub fn block_matrix(minv: &[(usize, nalgebra::Matrix3<f64>)], n: usize) -> CsrMatrix<f64> {
    let mut coo = CooMatrix::new(n, n);
    for (o, b) in minv {
        for r in 0..3 {
            for c in 0..3 {
                if b[(r, c)] != 0.0 {
                    coo.push(o + r, o + c, b[(r, c)]);
                }
            }
        }
    }
    CsrMatrix::from(&coo)
}

/// `diag(J M~⁻¹ J^T)`.
fn row_norms(j: &CsrMatrix<f64>, minv: &[(usize, nalgebra::Matrix3<f64>)]) -> DVector<f64> {
    let mut block_of = vec![usize::MAX; j.ncols()];
    for (b, (o, _)) in minv.iter().enumerate() {
        for k in 0..3 {
            block_of[o + k] = b;
        }
    }
    DVector::from_fn(j.nrows(), |i, _| {
        let row = j.row(i);
        let mut sum = 0.0;
        for (&c1, &v1) in row.col_indices().iter().zip(row.values()) {
            for (&c2, &v2) in row.col_indices().iter().zip(row.values()) {
                let b = block_of[c1];
                if b != usize::MAX && b == block_of[c2] {
                    let (o, m) = &minv[b];
                    sum += v1 * m[(c1 - o, c2 - o)] * v2;
                }
            }
        }
        sum
    })
}

/// The Schur complement `A = J M~⁻¹ J^T + C + ε I` and its right-hand side
/// `J M~⁻¹ g - h` (eq. 59; §8.4 for `ε`). Under [`FrictionForm::NaturalMap`] the left
/// `J` is the rows' Jacobian [`NewtonSystem::j_rows`] and `C` has the entries
/// [`NewtonSystem::c_coupling`]: `A` is then not symmetric.
pub fn schur(
    system: &NewtonSystem,
    minv: &[(usize, nalgebra::Matrix3<f64>)],
    epsilon: f64,
) -> (CsrMatrix<f64>, DVector<f64>) {
    schur_damped(system, minv, epsilon, 0.0)
}

/// [`schur`] with the Levenberg-Marquardt shift `damping (J M~⁻¹ J^T)_ii` added to the
/// diagonal entry of each contact row ([`NewtonSystem::contact_row`]; dimensionless
/// `damping >= 0`).
pub fn schur_damped(
    system: &NewtonSystem,
    minv: &[(usize, nalgebra::Matrix3<f64>)],
    epsilon: f64,
    damping: f64,
) -> (CsrMatrix<f64>, DVector<f64>) {
    let n = system.j.ncols();
    let mi = block_matrix(minv, n);
    let jm = system.j_rows.as_ref().unwrap_or(&system.j) * &mi;
    let jt = system.j.transpose();
    let a = &jm * &jt;
    let mut coo = CooMatrix::new(a.nrows(), a.ncols());
    for (r, c, v) in a.triplet_iter() {
        coo.push(r, c, *v);
    }
    for i in 0..a.nrows() {
        coo.push(
            i,
            i,
            system.c[i]
                + epsilon
                + if system.contact_row.get(i).copied().unwrap_or(true) {
                    damping * system.delassus_diagonal[i]
                } else {
                    0.0
                },
        );
    }
    for &(r, c, v) in &system.c_coupling {
        coo.push(r, c, v);
    }
    let a = CsrMatrix::from(&coo);
    let rhs = &jm * &system.g - &system.h;
    (a, rhs)
}

/// `Δu = M~⁻¹ (J^T Δλ̂ - g)` (eq. 60).
pub fn velocity_step(
    system: &NewtonSystem,
    minv: &[(usize, nalgebra::Matrix3<f64>)],
    d_impulse: &DVector<f64>,
) -> DVector<f64> {
    let rhs = system.j.transpose() * d_impulse - &system.g;
    apply_blocks(minv, &rhs)
}

/// Dense forms for checking (teaching sizes): the full saddle-point step.
pub fn saddle_point_step(
    m_tilde: &DMatrix<f64>,
    j: &DMatrix<f64>,
    c: &DVector<f64>,
    g: &DVector<f64>,
    h: &DVector<f64>,
) -> Option<(DVector<f64>, DVector<f64>)> {
    let (n, k) = (m_tilde.nrows(), j.nrows());
    let mut big = DMatrix::zeros(n + k, n + k);
    big.view_mut((0, 0), (n, n)).copy_from(m_tilde);
    big.view_mut((0, n), (n, k)).copy_from(&(-j.transpose()));
    big.view_mut((n, 0), (k, n)).copy_from(j);
    big.view_mut((n, n), (k, k))
        .copy_from(&DMatrix::from_diagonal(c));
    let mut rhs = DVector::zeros(n + k);
    rhs.rows_mut(0, n).copy_from(&(-g));
    rhs.rows_mut(n, k).copy_from(&(-h));
    let x = big.lu().solve(&rhs)?;
    Some((x.rows(0, n).into_owned(), x.rows(n, k).into_owned()))
}

/// Dense Schur-complement (compliance form) step, eq. 59-60.
pub fn compliance_form_step(
    m_tilde: &DMatrix<f64>,
    j: &DMatrix<f64>,
    c: &DVector<f64>,
    g: &DVector<f64>,
    h: &DVector<f64>,
) -> Option<(DVector<f64>, DVector<f64>)> {
    let mi = m_tilde.clone().try_inverse()?;
    let a = j * &mi * j.transpose() + DMatrix::from_diagonal(c);
    let dl = a.lu().solve(&(j * &mi * g - h))?;
    let du = &mi * (j.transpose() * &dl - g);
    Some((du, dl))
}

/// Dense stiffness-form step `[M~ + J^T C⁻¹ J] Δu = -g - J^T C⁻¹ h` (eq. 62), with
/// `Δλ̂ = C⁻¹ (-h - J Δu)`; `None` unless every entry of `C` is positive.
pub fn stiffness_form_step(
    m_tilde: &DMatrix<f64>,
    j: &DMatrix<f64>,
    c: &DVector<f64>,
    g: &DVector<f64>,
    h: &DVector<f64>,
) -> Option<(DVector<f64>, DVector<f64>)> {
    if c.iter().any(|&x| !(x > 0.0)) {
        return None;
    }
    let ci = DMatrix::from_diagonal(&c.map(|x| 1.0 / x));
    let a = m_tilde + j.transpose() * &ci * j;
    let du = a.lu().solve(&(-g - j.transpose() * &ci * h))?;
    let dl = &ci * (-h - j * &du);
    Some((du, dl))
}
