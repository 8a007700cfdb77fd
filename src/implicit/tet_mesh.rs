//! Tetrahedral meshes of boxes for the deformable bodies of the implicit stepper, and their
//! lumped particle masses.
//!
//! [`box_mesh`] splits a box into a grid of hexahedral cells and each cell into six
//! tetrahedra along its main diagonal (the Kuhn or Freudenthal subdivision: one tetrahedron
//! per ordering of the three axes, each a path `000 -> e_a -> e_a + e_b -> 111` through the
//! cell's corners). Every cell is cut the same way, so the face diagonals of neighbouring
//! cells agree and the mesh is conforming; every tetrahedron is positively oriented in the
//! sense of [`crate::implicit::neo_hookean::signed_volume`].

use std::fmt;

use nalgebra::Vector3;

use super::neo_hookean::{ElementError, Tetrahedron, signed_volume};

/// Particles and the tetrahedra over them.
#[derive(Debug, Clone, PartialEq)]
pub struct TetMesh {
    /// Particle positions in m.
    pub positions: Vec<Vector3<f64>>,
    /// Four particle indices per tetrahedron, positively oriented.
    pub tetrahedra: Vec<[usize; 4]>,
}

/// Why a mesh could not be built.
#[derive(Debug, Clone, PartialEq)]
pub enum MeshError {
    /// A cell count is zero.
    ZeroCells([usize; 3]),
    /// A half extent is not positive (or not finite).
    NonPositiveSize(Vector3<f64>),
    /// The centre is not finite.
    NonFiniteCenter(Vector3<f64>),
    /// The number of particles or tetrahedra does not fit in `usize`.
    TooLarge([usize; 3]),
}

impl fmt::Display for MeshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeshError::ZeroCells(c) => write!(
                f,
                "every cell count must be at least 1, got {} x {} x {}",
                c[0], c[1], c[2]
            ),
            MeshError::NonPositiveSize(h) => write!(
                f,
                "half extents must be positive and finite, got ({}, {}, {}) m",
                h.x, h.y, h.z
            ),
            MeshError::NonFiniteCenter(c) => {
                write!(f, "the centre ({}, {}, {}) is not finite", c.x, c.y, c.z)
            }
            MeshError::TooLarge(c) => {
                write!(f, "{} x {} x {} cells are too many", c[0], c[1], c[2])
            }
        }
    }
}

impl std::error::Error for MeshError {}

impl TetMesh {
    /// The four positions of tetrahedron `t`, or `None` if `t` or one of its indices is out
    /// of range.
    pub fn tet_positions(&self, t: usize) -> Option<[Vector3<f64>; 4]> {
        let nodes = self.tetrahedra.get(t)?;
        Some([
            *self.positions.get(nodes[0])?,
            *self.positions.get(nodes[1])?,
            *self.positions.get(nodes[2])?,
            *self.positions.get(nodes[3])?,
        ])
    }

    /// The signed volume of tetrahedron `t` in m³ (`None` if an index is out of range).
    pub fn tet_volume(&self, t: usize) -> Option<f64> {
        self.tet_positions(t).map(|p| signed_volume(&p))
    }

    /// Sum of the tetrahedra's signed volumes in m³ (out-of-range tetrahedra count zero).
    pub fn volume(&self) -> f64 {
        (0..self.tetrahedra.len())
            .filter_map(|t| self.tet_volume(t))
            .sum()
    }

    /// One [`Tetrahedron`] per tetrahedron of the mesh with the current positions as the
    /// rest shape, Young's modulus `young` (Pa) and Poisson's ratio `poisson`. Errors as
    /// [`Tetrahedron::new`]; an out-of-range index is reported as non-finite input.
    pub fn elements(&self, young: f64, poisson: f64) -> Result<Vec<Tetrahedron>, ElementError> {
        (0..self.tetrahedra.len())
            .map(|t| {
                let rest = self
                    .tet_positions(t)
                    .ok_or(ElementError::NonFinite("a node index (out of range)"))?;
                Tetrahedron::new(self.tetrahedra[t], &rest, young, poisson)
            })
            .collect()
    }
}

/// A box of half extents `half_extents` (m) centred at `center`, split into
/// `cells[0] x cells[1] x cells[2]` hexahedral cells of six tetrahedra each.
///
/// Particle `(i, j, k)` (`0 <= i <= cells[0]`, ...) has index
/// `i + (cells[0] + 1) (j + (cells[1] + 1) k)` and position
/// `center - half_extents + 2 half_extents ⊙ (i / cells[0], j / cells[1], k / cells[2])`.
pub fn box_mesh(
    half_extents: Vector3<f64>,
    cells: [usize; 3],
    center: Vector3<f64>,
) -> Result<TetMesh, MeshError> {
    if cells.contains(&0) {
        return Err(MeshError::ZeroCells(cells));
    }
    if !half_extents.iter().all(|h| h.is_finite() && *h > 0.0) {
        return Err(MeshError::NonPositiveSize(half_extents));
    }
    if !center.iter().all(|c| c.is_finite()) {
        return Err(MeshError::NonFiniteCenter(center));
    }
    let [nx, ny, nz] = cells;
    let too_large = || MeshError::TooLarge(cells);
    let particles = (nx + 1)
        .checked_mul(ny + 1)
        .and_then(|n| n.checked_mul(nz + 1))
        .ok_or_else(too_large)?;
    let tets = nx
        .checked_mul(ny)
        .and_then(|n| n.checked_mul(nz))
        .and_then(|n| n.checked_mul(6))
        .ok_or_else(too_large)?;
    // Guard against allocation failure on absurd sizes (a Vec of that many points).
    if particles > (isize::MAX as usize) / std::mem::size_of::<Vector3<f64>>()
        || tets > (isize::MAX as usize) / std::mem::size_of::<[usize; 4]>()
    {
        return Err(too_large());
    }

    let index = |i: usize, j: usize, k: usize| i + (nx + 1) * (j + (ny + 1) * k);
    let low = center - half_extents;
    let mut positions = Vec::with_capacity(particles);
    for k in 0..=nz {
        for j in 0..=ny {
            for i in 0..=nx {
                let t = Vector3::new(
                    i as f64 / nx as f64,
                    j as f64 / ny as f64,
                    k as f64 / nz as f64,
                );
                positions.push(low + 2.0 * half_extents.component_mul(&t));
            }
        }
    }

    // The six Kuhn tetrahedra of the unit cell as corner offsets, oriented positively
    // (odd permutations have their last two corners swapped).
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [1, 2, 0],
        [2, 0, 1],
        [0, 2, 1],
        [2, 1, 0],
        [1, 0, 2],
    ];
    let mut corners = [[[0usize; 3]; 4]; 6];
    for (slot, p) in corners.iter_mut().zip(PERMUTATIONS.iter()) {
        let mut c = [[0usize; 3]; 4];
        c[1][p[0]] = 1;
        c[2] = c[1];
        c[2][p[1]] = 1;
        c[3] = [1, 1, 1];
        let as_points = c.map(|o| Vector3::new(o[0] as f64, o[1] as f64, o[2] as f64));
        if signed_volume(&as_points) < 0.0 {
            c.swap(2, 3);
        }
        *slot = c;
    }

    let mut tetrahedra = Vec::with_capacity(tets);
    for k in 0..nz {
        for j in 0..ny {
            for i in 0..nx {
                for c in &corners {
                    tetrahedra.push(c.map(|o| index(i + o[0], j + o[1], k + o[2])));
                }
            }
        }
    }
    Ok(TetMesh {
        positions,
        tetrahedra,
    })
}

/// Lumped particle masses in kg: each tetrahedron's mass `density · |volume|` split equally
/// over its four nodes. `density` in kg/m³. Tetrahedra with an out-of-range index are
/// skipped (see [`TetMesh::tet_positions`]).
pub fn lumped_masses(mesh: &TetMesh, density: f64) -> Vec<f64> {
    let mut masses = vec![0.0; mesh.positions.len()];
    for (t, nodes) in mesh.tetrahedra.iter().enumerate() {
        if let Some(v) = mesh.tet_volume(t) {
            let quarter = 0.25 * density * v.abs();
            for &n in nodes {
                masses[n] += quarter;
            }
        }
    }
    masses
}
