//! The Delassus operator `W = J M^-1 J^T` (Erleben 2007 eq. 20), formed block by block
//! from the per-side Jacobian blocks and the block-diagonal `M^-1`, without any
//! factorisation.
//!
//! Checked by `tests/laws/delassus.rs`.

use nalgebra::Matrix3;
use nalgebra_sparse::CsrMatrix;

use super::jacobian::SideBlock;
use super::mass::InvMass;
use super::push_nonzero;

/// `sum_k J_ck M_k^-1 J_dk^T` over the blocks `k` shared by contacts `c` and `d`.
fn pair_block(
    sc: &([Option<SideBlock>; 2], usize),
    sd: &([Option<SideBlock>; 2], usize),
    inv_mass: &[InvMass],
) -> Matrix3<f64> {
    let mut w = Matrix3::zeros();
    for x in sc.0[..sc.1].iter().flatten() {
        for y in sd.0[..sd.1].iter().flatten() {
            if x.k == y.k {
                let im = &inv_mass[x.k];
                w += x.lin * y.lin.transpose() * im.inv_m + x.ang * im.inv_i * y.ang.transpose();
            }
        }
    }
    w
}

pub(super) fn build_delassus(
    sides: &[([Option<SideBlock>; 2], usize)],
    inv_mass: &[InvMass],
    nb: usize,
) -> CsrMatrix<f64> {
    let nc = sides.len();
    // Contacts of each body block, in increasing contact order (a CSR adjacency).
    let mut start = vec![0usize; nb + 1];
    for (found, count) in sides {
        for s in found[..*count].iter().flatten() {
            start[s.k + 1] += 1;
        }
    }
    for k in 0..nb {
        start[k + 1] += start[k];
    }
    let mut fill = start.clone();
    let mut adj = vec![0usize; start[nb]];
    for (c, (found, count)) in sides.iter().enumerate() {
        for s in found[..*count].iter().flatten() {
            adj[fill[s.k]] = c;
            fill[s.k] += 1;
        }
    }

    let mut offsets = Vec::with_capacity(3 * nc + 1);
    offsets.push(0);
    let mut cols = Vec::new();
    let mut vals = Vec::new();
    let mut neighbours: Vec<usize> = Vec::new();
    let mut blocks: Vec<Matrix3<f64>> = Vec::new();
    for c in 0..nc {
        // The contacts sharing a body with c: merge the (sorted) lists of its bodies.
        neighbours.clear();
        let (found, count) = &sides[c];
        for s in found[..*count].iter().flatten() {
            neighbours.extend_from_slice(&adj[start[s.k]..start[s.k + 1]]);
        }
        neighbours.sort_unstable();
        neighbours.dedup();
        blocks.clear();
        for &d in &neighbours {
            let block = if c < d {
                pair_block(&sides[c], &sides[d], inv_mass)
            } else if c > d {
                pair_block(&sides[d], &sides[c], inv_mass).transpose()
            } else {
                let w = pair_block(&sides[c], &sides[c], inv_mass);
                Matrix3::from_fn(|i, j| if i <= j { w[(i, j)] } else { w[(j, i)] })
            };
            blocks.push(block);
        }
        for i in 0..3 {
            for (&d, block) in neighbours.iter().zip(&blocks) {
                for jj in 0..3 {
                    push_nonzero(&mut cols, &mut vals, 3 * d + jj, block[(i, jj)]);
                }
            }
            offsets.push(cols.len());
        }
    }
    CsrMatrix::try_from_csr_data(3 * nc, 3 * nc, offsets, cols, vals)
        .expect("rows are built with sorted, unique, in-range columns")
}
