//! The stable Neo-Hookean tetrahedron in compliance form (`src/implicit/neo_hookean.rs`,
//! Macklin et al. 2019 §9.1, Smith et al. 2018) and the box meshes of
//! `src/implicit/tet_mesh.rs`: the rows' gradients against finite differences, the rows'
//! energy against the element energy, rest stability, frame indifference, the small-strain
//! limit, the meshes' volumes, orientation, conformity and masses, and the input errors.

use std::collections::HashMap;

use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use nonsmooth::implicit::neo_hookean::{ElementError, Tetrahedron, lame_parameters};
use nonsmooth::implicit::tet_mesh::{MeshError, box_mesh, lumped_masses};
use proptest::prelude::*;

/// A well-shaped rest tetrahedron: a regular one, each node moved by up to 15% of the
/// edge, rotated, scaled by `scale` and moved to `offset`. Positively oriented.
fn rest_tet(
    perturb: [f64; 12],
    axis: [f64; 3],
    angle: f64,
    scale: f64,
    offset: [f64; 3],
) -> [Vector3<f64>; 4] {
    let regular = [
        Vector3::new(0.0, 0.0, 0.0),
        Vector3::new(1.0, 0.0, 0.0),
        Vector3::new(0.5, 3f64.sqrt() / 2.0, 0.0),
        Vector3::new(0.5, 3f64.sqrt() / 6.0, (2.0f64 / 3.0).sqrt()),
    ];
    let r = rotation(axis, angle);
    let o = Vector3::from(offset);
    let mut p = regular;
    for (k, q) in p.iter_mut().enumerate() {
        let d = Vector3::new(perturb[3 * k], perturb[3 * k + 1], perturb[3 * k + 2]);
        *q = o + scale * (r * (*q + 0.15 * d));
    }
    p
}

fn rotation(axis: [f64; 3], angle: f64) -> Matrix3<f64> {
    let a = Vector3::from(axis);
    let a = if a.norm() < 1e-3 { Vector3::z() } else { a };
    UnitQuaternion::from_scaled_axis(a.normalize() * angle)
        .to_rotation_matrix()
        .into_inner()
}

/// `x_k = F X_k + t`: deformation gradient exactly `F`.
fn deform(rest: &[Vector3<f64>; 4], f: &Matrix3<f64>, t: Vector3<f64>) -> [Vector3<f64>; 4] {
    rest.map(|p| f * p + t)
}

fn near_identity(h: [f64; 9]) -> Matrix3<f64> {
    Matrix3::identity() + 0.3 * Matrix3::from_row_slice(&h)
}

fn longest_edge(p: &[Vector3<f64>; 4]) -> f64 {
    let mut l: f64 = 0.0;
    for i in 0..4 {
        for j in i + 1..4 {
            l = l.max((p[i] - p[j]).norm());
        }
    }
    l
}

/// `(X1 - X0) · ((X2 - X0) × (X3 - X0)) / 6`, written out here rather than taken from the
/// library.
fn rest_volume(p: &[Vector3<f64>; 4]) -> f64 {
    Matrix3::from_columns(&[p[1] - p[0], p[2] - p[0], p[3] - p[0]]).determinant() / 6.0
}

fn unit() -> impl Strategy<Value = f64> {
    -1.0..1.0f64
}

prop_compose! {
    fn element()(
        perturb in prop::array::uniform12(unit()),
        axis in prop::array::uniform3(unit()),
        angle in -3.0..3.0f64,
        log_scale in -2.0..1.0f64,
        offset in prop::array::uniform3(-5.0..5.0f64),
        log_young in 3.0..9.0f64,
        poisson in 0.0..0.49f64,
    ) -> (Tetrahedron, [Vector3<f64>; 4]) {
        let rest = rest_tet(perturb, axis, angle, 10f64.powf(log_scale), offset);
        let tet = Tetrahedron::new([0, 1, 2, 3], &rest, 10f64.powf(log_young), poisson)
            .expect("a well-shaped positive rest tetrahedron");
        (tet, rest)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Law 1: both rows' gradients agree with central differences of the row values.
    #[test]
    fn gradients_match_central_differences(
        (tet, rest) in element(),
        h in prop::array::uniform9(unit()),
        t in prop::array::uniform3(-1.0..1.0f64),
    ) {
        let x = deform(&rest, &near_identity(h), Vector3::from(t));
        let step = 1e-5 * longest_edge(&rest);
        let rows = tet.rows(&x);
        for (r, row) in rows.iter().enumerate() {
            let scale = row.gradient.iter().map(|g| g.norm()).fold(0.0, f64::max);
            prop_assert!(scale > 0.0);
            for k in 0..4 {
                for d in 0..3 {
                    let mut plus = x;
                    let mut minus = x;
                    plus[k][d] += step;
                    minus[k][d] -= step;
                    let fd = (tet.rows(&plus)[r].value - tet.rows(&minus)[r].value) / (2.0 * step);
                    let err = (fd - row.gradient[k][d]).abs();
                    prop_assert!(
                        err <= 1e-6 * scale,
                        "row {r}, node {k}, axis {d}: analytic {}, finite difference {fd}, \
                         error {err:e} (scale {scale:e})",
                        row.gradient[k][d]
                    );
                }
            }
        }
    }

    /// Law 2: `Σ C²/(2α) = energy + 3 μ V / 2`.
    #[test]
    fn row_energy_is_the_element_energy(
        (tet, rest) in element(),
        h in prop::array::uniform9(unit()),
        t in prop::array::uniform3(-1.0..1.0f64),
    ) {
        let x = deform(&rest, &near_identity(h), Vector3::from(t));
        let rows = tet.rows(&x);
        let from_rows: f64 = rows.iter().map(|r| r.value * r.value / (2.0 * r.compliance)).sum();
        let expected = tet.energy(&x) + tet.row_energy_offset();
        prop_assert!(
            (from_rows - expected).abs() <= 1e-10 * expected.abs().max(tet.mu * tet.volume),
            "rows {from_rows:e}, energy + offset {expected:e}"
        );
        // The documented constants themselves.
        prop_assert!((tet.row_energy_offset() - 1.5 * tet.mu * tet.volume).abs()
            <= 1e-14 * tet.mu * tet.volume);
        prop_assert!(tet.energy_above_rest(&rest).abs() <= 1e-10 * tet.mu * tet.volume);
    }

    /// Law 3: at rest (and at any rigid placement of the rest shape) the net elastic force
    /// `-Σ_rows ∇C C / α` on every node is zero.
    #[test]
    fn rest_is_force_free(
        (tet, rest) in element(),
        axis in prop::array::uniform3(unit()),
        angle in -3.0..3.0f64,
        t in prop::array::uniform3(-1.0..1.0f64),
    ) {
        let scale = tet.mu * tet.volume / longest_edge(&rest);
        for x in [rest, deform(&rest, &rotation(axis, angle), Vector3::from(t))] {
            let rows = tet.rows(&x);
            for k in 0..4 {
                let force: Vector3<f64> = rows
                    .iter()
                    .map(|r| -r.gradient[k] * r.value / r.compliance)
                    .sum();
                prop_assert!(
                    force.norm() <= 1e-9 * scale,
                    "node {k}: force {force:?}, scale {scale:e}"
                );
            }
        }
        // The test can fail: away from rest the force is not zero.
        let x = deform(&rest, &(1.1 * Matrix3::identity()), Vector3::zeros());
        let rows = tet.rows(&x);
        let force: Vector3<f64> = rows.iter().map(|r| -r.gradient[1] * r.value / r.compliance).sum();
        prop_assert!(force.norm() > 1e-3 * scale);
    }

    /// Law 4: a rigid motion of a deformed element leaves both row values unchanged.
    #[test]
    fn rows_are_frame_indifferent(
        (tet, rest) in element(),
        h in prop::array::uniform9(unit()),
        axis in prop::array::uniform3(unit()),
        angle in -3.0..3.0f64,
        t in prop::array::uniform3(-5.0..5.0f64),
    ) {
        let x = deform(&rest, &near_identity(h), Vector3::zeros());
        let moved = deform(&x, &rotation(axis, angle), Vector3::from(t));
        let (a, b) = (tet.rows(&x), tet.rows(&moved));
        for r in 0..2 {
            prop_assert!(
                (a[r].value - b[r].value).abs() <= 1e-10 * (1.0 + a[r].value.abs()),
                "row {r}: {} before, {} after", a[r].value, b[r].value
            );
            prop_assert_eq!(a[r].compliance, b[r].compliance);
        }
    }

    /// The parameters: at small strain the energy above rest is linear elasticity with
    /// the Lamé parameters of Young's modulus and Poisson's ratio, computed here
    /// independently of the element.
    #[test]
    fn small_strain_is_linear_elasticity(
        perturb in prop::array::uniform12(unit()),
        axis in prop::array::uniform3(unit()),
        angle in -3.0..3.0f64,
        log_scale in -2.0..1.0f64,
        log_young in 3.0..9.0f64,
        poisson in 0.0..0.49f64,
        h in prop::array::uniform9(unit()),
    ) {
        let rest = rest_tet(perturb, axis, angle, 10f64.powf(log_scale), [0.0; 3]);
        let young = 10f64.powf(log_young);
        let tet = Tetrahedron::new([0, 1, 2, 3], &rest, young, poisson).unwrap();
        let mu = young / (2.0 * (1.0 + poisson));
        let lambda_lame = young * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson));
        let volume = rest_volume(&rest);
        let eps = 1e-4;
        let hm = eps * Matrix3::from_row_slice(&h);
        let x = deform(&rest, &(Matrix3::identity() + hm), Vector3::zeros());
        let sym = 0.5 * (hm + hm.transpose());
        let linear = volume * (mu * sym.norm_squared() + 0.5 * lambda_lame * sym.trace().powi(2));
        let e = tet.energy_above_rest(&x);
        prop_assert!(
            (e - linear).abs() <= 1e-2 * linear + 1e-9 * mu * volume * eps * eps,
            "energy above rest {e:e}, linear elasticity {linear:e}"
        );
    }

    /// Law 5: box meshes tile the box with positive tetrahedra, conformingly, and their
    /// lumped masses add up to the box's mass.
    #[test]
    fn box_mesh_tiles_the_box(
        half in prop::array::uniform3(0.01..3.0f64),
        cells in prop::array::uniform3(1usize..5),
        center in prop::array::uniform3(-10.0..10.0f64),
        density in 1.0..5000.0f64,
    ) {
        let half = Vector3::from(half);
        let mesh = box_mesh(half, cells, Vector3::from(center)).unwrap();
        let box_volume = 8.0 * half.x * half.y * half.z;
        let n_cells = cells[0] * cells[1] * cells[2];
        prop_assert_eq!(mesh.tetrahedra.len(), 6 * n_cells);
        prop_assert_eq!(
            mesh.positions.len(),
            (cells[0] + 1) * (cells[1] + 1) * (cells[2] + 1)
        );
        for t in 0..mesh.tetrahedra.len() {
            let v = mesh.tet_volume(t).unwrap();
            prop_assert!(v > 0.0, "tet {t} has volume {v}");
            prop_assert!((v - box_volume / n_cells as f64 / 6.0).abs() <= 1e-12 * box_volume);
        }
        prop_assert!((mesh.volume() - box_volume).abs() <= 1e-12 * box_volume);
        // Every node inside the box.
        for p in &mesh.positions {
            let d = p - Vector3::from(center);
            prop_assert!((0..3).all(|i| d[i].abs() <= half[i] * (1.0 + 1e-12)));
        }
        // Conforming: every triangle is shared by at most two tetrahedra, and the ones
        // used once are exactly the two halves of each boundary square.
        let mut faces: HashMap<[usize; 3], usize> = HashMap::new();
        for t in &mesh.tetrahedra {
            for skip in 0..4 {
                let mut f = [0; 3];
                let mut n = 0;
                for (i, &v) in t.iter().enumerate() {
                    if i != skip {
                        f[n] = v;
                        n += 1;
                    }
                }
                f.sort_unstable();
                *faces.entry(f).or_default() += 1;
            }
        }
        prop_assert!(faces.values().all(|&c| c <= 2));
        let boundary = faces.values().filter(|&&c| c == 1).count();
        let [nx, ny, nz] = cells;
        prop_assert_eq!(boundary, 4 * (nx * ny + ny * nz + nz * nx));
        let masses = lumped_masses(&mesh, density);
        prop_assert_eq!(masses.len(), mesh.positions.len());
        prop_assert!(masses.iter().all(|&m| m > 0.0));
        let total: f64 = masses.iter().sum();
        prop_assert!((total - density * box_volume).abs() <= 1e-12 * density * box_volume);
        // The mesh's elements build, and rest at the mesh positions.
        let elements = mesh.elements(1e6, 0.3).unwrap();
        prop_assert_eq!(elements.len(), mesh.tetrahedra.len());
    }
}

fn regular() -> [Vector3<f64>; 4] {
    rest_tet([0.0; 12], [0.0, 0.0, 1.0], 0.0, 1.0, [0.0; 3])
}

/// Law 6: bad input gives errors, never a panic.
#[test]
fn bad_input_is_an_error() {
    let ok = regular();
    assert!(Tetrahedron::new([0, 1, 2, 3], &ok, 1e6, 0.3).is_ok());
    assert!(Tetrahedron::new([0, 1, 2, 3], &ok, 1e6, 0.0).is_ok());

    // Inverted: swapping two nodes flips the orientation.
    let mut inverted = ok;
    inverted.swap(2, 3);
    let e = Tetrahedron::new([0, 1, 3, 2], &inverted, 1e6, 0.3).unwrap_err();
    assert!(
        matches!(e, ElementError::DegenerateOrInverted { signed_volume } if signed_volume < 0.0)
    );
    let msg = e.to_string();
    assert!(msg.contains("inverted") && msg.contains("> 0"), "{msg}");

    // Degenerate: four coplanar nodes, and four coincident ones.
    let mut flat = ok;
    flat[3].z = 0.0;
    assert!(matches!(
        Tetrahedron::new([0, 1, 2, 3], &flat, 1e6, 0.3),
        Err(ElementError::DegenerateOrInverted { .. })
    ));
    assert!(matches!(
        Tetrahedron::new([0, 1, 2, 3], &[Vector3::zeros(); 4], 1e6, 0.3),
        Err(ElementError::DegenerateOrInverted { .. })
    ));

    // Material parameters.
    assert!(matches!(
        Tetrahedron::new([0, 1, 2, 3], &ok, 1e6, 0.5),
        Err(ElementError::PoissonOutOfRange(_))
    ));
    assert!(matches!(
        Tetrahedron::new([0, 1, 2, 3], &ok, 1e6, -0.1),
        Err(ElementError::PoissonOutOfRange(_))
    ));
    assert!(matches!(
        Tetrahedron::new([0, 1, 2, 3], &ok, -1e6, 0.3),
        Err(ElementError::NonPositiveYoung(_))
    ));
    assert!(matches!(
        Tetrahedron::new([0, 1, 2, 3], &ok, 0.0, 0.3),
        Err(ElementError::NonPositiveYoung(_))
    ));
    for (young, poisson) in [(f64::NAN, 0.3), (1e6, f64::NAN), (f64::INFINITY, 0.3)] {
        assert!(matches!(
            Tetrahedron::new([0, 1, 2, 3], &ok, young, poisson),
            Err(ElementError::NonFinite(_))
        ));
    }
    let mut nan = ok;
    nan[1].y = f64::NAN;
    assert!(matches!(
        Tetrahedron::new([0, 1, 2, 3], &nan, 1e6, 0.3),
        Err(ElementError::NonFinite(_))
    ));
    assert!(lame_parameters(1e6, 0.3).is_ok());

    // Rows at a fully collapsed element: finite, no panic.
    let tet = Tetrahedron::new([0, 1, 2, 3], &ok, 1e6, 0.3).unwrap();
    let rows = tet.rows(&[Vector3::zeros(); 4]);
    assert!(
        rows.iter()
            .all(|r| r.value.is_finite()
                && r.gradient.iter().all(|g| g.iter().all(|v| v.is_finite())))
    );

    // Meshes.
    let h = Vector3::new(1.0, 1.0, 1.0);
    assert!(matches!(
        box_mesh(h, [0, 1, 1], Vector3::zeros()),
        Err(MeshError::ZeroCells(_))
    ));
    assert!(matches!(
        box_mesh(Vector3::new(1.0, -1.0, 1.0), [1, 1, 1], Vector3::zeros()),
        Err(MeshError::NonPositiveSize(_))
    ));
    assert!(matches!(
        box_mesh(Vector3::new(1.0, 0.0, 1.0), [1, 1, 1], Vector3::zeros()),
        Err(MeshError::NonPositiveSize(_))
    ));
    assert!(matches!(
        box_mesh(
            Vector3::new(f64::NAN, 1.0, 1.0),
            [1, 1, 1],
            Vector3::zeros()
        ),
        Err(MeshError::NonPositiveSize(_))
    ));
    assert!(matches!(
        box_mesh(h, [1, 1, 1], Vector3::new(0.0, f64::NAN, 0.0)),
        Err(MeshError::NonFiniteCenter(_))
    ));
    assert!(matches!(
        box_mesh(h, [usize::MAX, 2, 2], Vector3::zeros()),
        Err(MeshError::TooLarge(_))
    ));
    assert!(!MeshError::ZeroCells([0, 1, 1]).to_string().is_empty());
}
