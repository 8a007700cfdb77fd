//! The DOF map: where each body's six velocity entries `[v, omega]` live in the
//! generalised velocity `u` (Erleben 2007 eq. 10).

use super::super::body::RigidBody;

/// Where each body's six velocity entries `[v, omega]` live in the generalised velocity
/// `u` (Erleben 2007 eq. 10): bodies that are not fixed are numbered in order, body
/// block `k` owns entries `6k..6k+6`; fixed bodies own none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DofMap {
    block_of_body: Vec<Option<usize>>,
    body_of_block: Vec<usize>,
}

impl DofMap {
    /// The map for `bodies`.
    pub fn new<B: AsRef<RigidBody>>(bodies: &[B]) -> Self {
        let mut block_of_body = Vec::with_capacity(bodies.len());
        let mut body_of_block = Vec::with_capacity(bodies.len());
        for (i, b) in bodies.iter().enumerate() {
            if b.as_ref().fixed {
                block_of_body.push(None);
            } else {
                block_of_body.push(Some(body_of_block.len()));
                body_of_block.push(i);
            }
        }
        DofMap {
            block_of_body,
            body_of_block,
        }
    }

    /// The block index `k` of body `body` (its entries are `6k..6k+6`), `None` for a
    /// fixed body or an index out of range.
    pub fn block(&self, body: usize) -> Option<usize> {
        self.block_of_body.get(body).copied().flatten()
    }

    /// The first entry `6k` of body `body` in `u`, `None` for a fixed body.
    pub fn offset(&self, body: usize) -> Option<usize> {
        self.block(body).map(|k| 6 * k)
    }

    /// The body that owns block `k`.
    ///
    /// # Panics
    /// If `k >= self.blocks()`.
    pub fn body(&self, k: usize) -> usize {
        self.body_of_block[k]
    }

    /// Number of bodies that are not fixed.
    pub fn blocks(&self) -> usize {
        self.body_of_block.len()
    }

    /// Number of velocity unknowns, `6 * blocks()`.
    pub fn dofs(&self) -> usize {
        6 * self.body_of_block.len()
    }
}
