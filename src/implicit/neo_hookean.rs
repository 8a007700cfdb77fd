//! Tetrahedral finite elements with the stable Neo-Hookean energy in compliance form
//! (Macklin, Erleben, Müller, Chentanez, Jeschke, Makoviychuk 2019, "Non-smooth Newton
//! methods for deformable multi-body dynamics", §9.1; Smith, de Goes, Kim 2018, "Stable
//! Neo-Hookean flesh simulation").
//!
//! # The energy
//!
//! A linear tetrahedron with rest nodes `X0..X3` and current nodes `x0..x3` has the
//! constant deformation gradient
//!
//! ```text
//! F = D_s D_m^-1,   D_s = [x1 - x0, x2 - x0, x3 - x0],   D_m = [X1 - X0, X2 - X0, X3 - X0]
//! ```
//!
//! (3 x 3, dimensionless). The stable Neo-Hookean energy of Smith et al. 2018 (their
//! eq. 14, the form without the logarithmic term) integrated over the rest volume `V` is
//!
//! ```text
//! E(x) = V [ μ/2 (I_C - 3) + λ/2 (J - γ)² ],   I_C = tr(F^T F),  J = det F,  γ = 1 + μ/λ
//! ```
//!
//! in joules (Pa · m³). Because of `γ` the energy is not zero at rest: at `F = I`,
//! `E = V μ² / (2 λ)` ([`Tetrahedron::rest_energy`]); [`Tetrahedron::energy_above_rest`]
//! subtracts it. The rest state is nevertheless a stationary point: the first Piola-Kirchhoff
//! stress `P = μ F + λ (J - γ) cof F` is `μ I + λ (-μ/λ) I = 0` at `F = I`.
//!
//! # The compliance rows (generalised compliance, Macklin et al. 2019 §9.1)
//!
//! The implicit solver takes energies of the form `Σ_k C_k² / (2 α_k)` (§3.2: force
//! `∇C^T λ`, row `C + α λ = 0`). Section 9.1 of the paper says that hyperelastic energies
//! written as such sums enter the same solver; the text of section 9 is lost in our
//! extraction of the paper, so the factorisation below is rebuilt here, and its check is
//! `tests/laws/neo_hookean.rs` (the rows' energy equals [`Tetrahedron::energy`] up to the
//! constant of [`Tetrahedron::row_energy_offset`], and the gradients agree with finite
//! differences). The two rows are
//!
//! ```text
//! deviatoric:  C_D = sqrt(I_C),  α_D = 1 / (μ V)      C_D² / (2 α_D) = V μ/2 I_C
//! hydrostatic: C_H = J - γ,      α_H = 1 / (λ V)      C_H² / (2 α_H) = V λ/2 (J - γ)²
//! ```
//!
//! so `Σ C²/(2α) = E + 3 μ V / 2`. A constant does not change forces or the solver's
//! iterates.
//!
//! # Gradients (chain rule, shapes, units)
//!
//! `∂C/∂F` is a 3 x 3 matrix (dimensionless): `∂ sqrt(I_C) / ∂F = F / sqrt(I_C)` and
//! `∂J/∂F = cof F`, whose column `j` is the cross product of the other two columns of `F`
//! (`cof F = J F^-T` where `F` is invertible, but the cross-product form needs no inverse).
//! With `B = D_m^-1` (1/m), `F_ij = Σ_c (x_c - x_0)_i B_cj` for `c = 1, 2, 3`, so
//!
//! ```text
//! ∂C/∂x_c = Σ_j (∂C/∂F)_{:, j} B_cj = column c of (∂C/∂F) B^T = (∂C/∂F) (column c of D_m^-T)
//! ∂C/∂x_0 = -(∂C/∂x_1 + ∂C/∂x_2 + ∂C/∂x_3)
//! ```
//!
//! each a 3-vector in 1/m. Where `I_C = 0` (all four nodes at one point) `sqrt(I_C)` has no
//! derivative; [`Tetrahedron::rows`] returns the zero gradient there (a subgradient).
//!
//! # Parameters
//!
//! [`Tetrahedron::new`] takes Young's modulus `E` and Poisson's ratio `ν` and sets
//! `μ = E / (2 (1 + ν))` and the energy's `λ = λ_Lamé + μ` with
//! `λ_Lamé = E ν / ((1 + ν)(1 - 2 ν))`. The shift by `μ` is Smith et al. 2018's Lamé
//! matching (§3.4) for this form: expanding `E` to second order in `H = F - I` gives
//! `V [ μ |sym H|² + (λ - μ)/2 (tr H)² ]`, which is linear elasticity exactly when
//! `λ - μ = λ_Lamé`. It also keeps `λ > 0` (so `γ` and `α_H` are finite) at `ν = 0`.
//!
//! Checked by `tests/laws/neo_hookean.rs`.

use std::fmt;

use nalgebra::{Matrix3, Vector3};

/// One compliant constraint row of an element: value `C`, gradient with respect to the
/// four node positions, compliance `α` (so that the energy is `C² / (2 α)`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ElementRow {
    /// `C(x)`, dimensionless.
    pub value: f64,
    /// `∂C/∂x_k` for the four nodes, 1/m.
    pub gradient: [Vector3<f64>; 4],
    /// `α` in 1/(N m) = 1/J.
    pub compliance: f64,
}

/// A linear tetrahedron over four particles.
#[derive(Debug, Clone, PartialEq)]
pub struct Tetrahedron {
    /// Particle indices.
    pub nodes: [usize; 4],
    /// Inverse of the rest shape matrix `D_m = [X1 - X0, X2 - X0, X3 - X0]`, 1/m.
    pub rest_inverse: Matrix3<f64>,
    /// Rest volume in m³.
    pub volume: f64,
    /// The energy's `λ` in Pa: Lamé's first parameter plus `μ` when built by
    /// [`Tetrahedron::new`] (Smith et al. 2018 §3.4; see the module documentation).
    pub lambda: f64,
    /// The shear modulus in Pa.
    pub mu: f64,
}

/// Why a tetrahedron could not be built.
#[derive(Debug, Clone, PartialEq)]
pub enum ElementError {
    /// A rest position, Young's modulus or Poisson's ratio is NaN or infinite.
    NonFinite(&'static str),
    /// The rest tetrahedron has non-positive (or numerically zero) signed volume.
    DegenerateOrInverted {
        /// `(X1 - X0) · ((X2 - X0) × (X3 - X0)) / 6` in m³.
        signed_volume: f64,
    },
    /// Young's modulus is not positive.
    NonPositiveYoung(f64),
    /// Poisson's ratio is outside `[0, 0.5)`.
    PoissonOutOfRange(f64),
}

impl fmt::Display for ElementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElementError::NonFinite(what) => write!(f, "{what} is not finite"),
            ElementError::DegenerateOrInverted { signed_volume } => write!(
                f,
                "the rest tetrahedron is {} (signed volume {signed_volume:e} m³); the nodes \
                 must be positively oriented: (X1 - X0) · ((X2 - X0) × (X3 - X0)) > 0 \
                 (swap two nodes to flip the orientation)",
                if *signed_volume < 0.0 {
                    "inverted"
                } else {
                    "degenerate"
                }
            ),
            ElementError::NonPositiveYoung(e) => {
                write!(f, "Young's modulus must be positive, got {e} Pa")
            }
            ElementError::PoissonOutOfRange(nu) => {
                write!(f, "Poisson's ratio must be in [0, 0.5), got {nu}")
            }
        }
    }
}

impl std::error::Error for ElementError {}

/// `(μ, λ_Lamé)` in Pa from Young's modulus `young` (Pa) and Poisson's ratio `poisson`
/// (`0 <= ν < 0.5`): `μ = E / (2 (1 + ν))`, `λ_Lamé = E ν / ((1 + ν)(1 - 2 ν))`.
pub fn lame_parameters(young: f64, poisson: f64) -> Result<(f64, f64), ElementError> {
    if !young.is_finite() {
        return Err(ElementError::NonFinite("Young's modulus"));
    }
    if !poisson.is_finite() {
        return Err(ElementError::NonFinite("Poisson's ratio"));
    }
    if young <= 0.0 {
        return Err(ElementError::NonPositiveYoung(young));
    }
    if !(0.0..0.5).contains(&poisson) {
        return Err(ElementError::PoissonOutOfRange(poisson));
    }
    let mu = young / (2.0 * (1.0 + poisson));
    let lambda_lame = young * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson));
    if !mu.is_finite() || !lambda_lame.is_finite() {
        return Err(ElementError::NonFinite("a Lamé parameter"));
    }
    Ok((mu, lambda_lame))
}

/// The shape matrix `[p1 - p0, p2 - p0, p3 - p0]`.
pub fn shape_matrix(p: &[Vector3<f64>; 4]) -> Matrix3<f64> {
    Matrix3::from_columns(&[p[1] - p[0], p[2] - p[0], p[3] - p[0]])
}

/// Signed volume `(p1 - p0) · ((p2 - p0) × (p3 - p0)) / 6`, positive for the orientation
/// the elements expect.
pub fn signed_volume(p: &[Vector3<f64>; 4]) -> f64 {
    (p[1] - p[0]).dot(&(p[2] - p[0]).cross(&(p[3] - p[0]))) / 6.0
}

/// `cof F`: column `j` is `∂ det F / ∂(column j)`, the cross product of the other two.
pub fn cofactor(f: &Matrix3<f64>) -> Matrix3<f64> {
    let (c0, c1, c2) = (f.column(0), f.column(1), f.column(2));
    Matrix3::from_columns(&[c1.cross(&c2), c2.cross(&c0), c0.cross(&c1)])
}

impl Tetrahedron {
    /// An element over particles `nodes` with rest positions `rest` (m), Young's modulus
    /// `young` (Pa) and Poisson's ratio `poisson` (`0 <= ν < 0.5`).
    ///
    /// Errors for non-finite input, `young <= 0`, `ν` outside `[0, 0.5)`, and a rest
    /// tetrahedron whose signed volume is not positive (inverted, or degenerate: smaller
    /// than `1e-12` times the cube of its longest edge). Never panics.
    pub fn new(
        nodes: [usize; 4],
        rest: &[Vector3<f64>; 4],
        young: f64,
        poisson: f64,
    ) -> Result<Tetrahedron, ElementError> {
        if rest.iter().any(|p| p.iter().any(|v| !v.is_finite())) {
            return Err(ElementError::NonFinite("a rest position"));
        }
        let (mu, lambda_lame) = lame_parameters(young, poisson)?;
        let dm = shape_matrix(rest);
        let volume = signed_volume(rest);
        let mut longest: f64 = 0.0;
        for i in 0..4 {
            for j in i + 1..4 {
                longest = longest.max((rest[i] - rest[j]).norm());
            }
        }
        let inverse = dm.try_inverse();
        match inverse {
            Some(rest_inverse)
                if volume.is_finite()
                    && volume > 1e-12 * longest.powi(3)
                    && rest_inverse.iter().all(|v| v.is_finite()) =>
            {
                Ok(Tetrahedron {
                    nodes,
                    rest_inverse,
                    volume,
                    lambda: lambda_lame + mu,
                    mu,
                })
            }
            _ => Err(ElementError::DegenerateOrInverted {
                signed_volume: volume,
            }),
        }
    }

    /// `γ = 1 + μ/λ`, the hydrostatic rest target of Smith et al. 2018.
    pub fn gamma(&self) -> f64 {
        1.0 + self.mu / self.lambda
    }

    /// The deformation gradient `F = D_s D_m^-1` at node positions `x`.
    pub fn deformation_gradient(&self, x: &[Vector3<f64>; 4]) -> Matrix3<f64> {
        shape_matrix(x) * self.rest_inverse
    }

    /// The stable Neo-Hookean energy `V [ μ/2 (I_C - 3) + λ/2 (J - γ)² ]` in J. Not zero at
    /// rest: see [`Tetrahedron::rest_energy`].
    pub fn energy(&self, x: &[Vector3<f64>; 4]) -> f64 {
        let f = self.deformation_gradient(x);
        let i_c = f.norm_squared();
        let j = f.determinant();
        let h = j - self.gamma();
        self.volume * (0.5 * self.mu * (i_c - 3.0) + 0.5 * self.lambda * h * h)
    }

    /// The energy at `F = I` (any rigid placement): `V μ² / (2 λ)`, in J.
    pub fn rest_energy(&self) -> f64 {
        self.volume * self.mu * self.mu / (2.0 * self.lambda)
    }

    /// [`Tetrahedron::energy`] minus [`Tetrahedron::rest_energy`]: zero at rest, in J.
    pub fn energy_above_rest(&self, x: &[Vector3<f64>; 4]) -> f64 {
        self.energy(x) - self.rest_energy()
    }

    /// The constant `Σ_rows C²/(2α) - energy = 3 μ V / 2`, in J.
    pub fn row_energy_offset(&self) -> f64 {
        1.5 * self.mu * self.volume
    }

    /// Gradients with respect to the four nodes of a scalar whose derivative with respect
    /// to `F` is `dc_df`: `∂C/∂x_c = (∂C/∂F) (column c of D_m^-T)`, node 0 minus the sum.
    fn node_gradients(&self, dc_df: &Matrix3<f64>) -> [Vector3<f64>; 4] {
        let g = dc_df * self.rest_inverse.transpose();
        let (g1, g2, g3) = (
            g.column(0).into_owned(),
            g.column(1).into_owned(),
            g.column(2).into_owned(),
        );
        [-(g1 + g2 + g3), g1, g2, g3]
    }

    /// The two rows of the element at node positions `x`: `[deviatoric, hydrostatic]`,
    /// `C_D = sqrt(I_C)` with `α_D = 1/(μ V)` and `C_H = J - γ` with `α_H = 1/(λ V)`.
    /// `Σ C²/(2α)` is [`Tetrahedron::energy`] plus [`Tetrahedron::row_energy_offset`].
    pub fn rows(&self, x: &[Vector3<f64>; 4]) -> [ElementRow; 2] {
        let f = self.deformation_gradient(x);
        let i_c = f.norm_squared();
        let c_d = i_c.sqrt();
        let dev_df = if c_d > 0.0 { f / c_d } else { Matrix3::zeros() };
        let deviatoric = ElementRow {
            value: c_d,
            gradient: self.node_gradients(&dev_df),
            compliance: 1.0 / (self.mu * self.volume),
        };
        let hydrostatic = ElementRow {
            value: f.determinant() - self.gamma(),
            gradient: self.node_gradients(&cofactor(&f)),
            compliance: 1.0 / (self.lambda * self.volume),
        };
        [deviatoric, hydrostatic]
    }
}
