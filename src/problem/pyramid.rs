//! [`Pyramid`]: which rows of an LCP (or boxed LCP) are the pyramid-edge forces of which
//! contacts, so that an engine's answer in edge forces (MuJoCo's pyramidal cone) is judged
//! as forces in each contact's frame `[n, t1, t2, ...]`.
//!
//! # The map (MuJoCo's pyramidal cone)
//! A contact of dimension `d` (MuJoCo's `condim`: 1, 3, 4 or 6) with friction
//! coefficients `mu_1 .. mu_{d-1}` has `2 (d - 1)` edge rows (one row when `d = 1`). Edge
//! `2(i-1)` is the direction `n + mu_i t_i`, edge `2(i-1) + 1` is `n - mu_i t_i`, and the
//! edge forces `p_k >= 0` sum back to the contact-frame force
//!
//! ```text
//! f_n = Σ_k p_k,        f_i = mu_i (p_{2(i-1)} - p_{2(i-1)+1}),   i = 1 .. d-1
//! ```
//!
//! (MuJoCo's `mj_contactForce`, which decodes the pyramid this way; the matrix `E` of a
//! MuJoCo export, `E_edges_to_contact_force`, is this map). For `d = 3` the edge forces
//! span the pyramid `|f_1| / mu_1 + |f_2| / mu_2 <= f_n`, inscribed in the elliptic cone:
//! it touches the cone along the four edges, and in a diagonal direction it allows a
//! tangential force `1/√2` of the cone's.
//!
//! The edge rows' velocities are the contact-frame ones mixed the same way,
//! `w_{2(i-1)} = u_n + mu_i u_i` and `w_{2(i-1)+1} = u_n - mu_i u_i` (plus the diagonal
//! regulariser MuJoCo adds to each edge row), so a contact's velocity is read back as
//! `u_n` = the mean of its edge rows and `u_i = (w_{2(i-1)} - w_{2(i-1)+1}) / (2 mu_i)`
//! (`0` when `mu_i = 0`).

use serde::{Deserialize, Serialize};

use super::ProblemError;

/// One contact of a [`Pyramid`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PyramidContact {
    /// Index of the contact's first edge row among the problem's unknowns.
    pub row: usize,
    /// The friction coefficients `mu_1 .. mu_{d-1}` (dimensionless for the two sliding
    /// directions, m for torsion and rolling); empty for a frictionless contact, which has
    /// one row.
    pub mu: Vec<f64>,
}

impl PyramidContact {
    /// Number of edge rows: `2 (d - 1)`, or 1 for a frictionless contact.
    pub fn rows(&self) -> usize {
        if self.mu.is_empty() {
            1
        } else {
            2 * self.mu.len()
        }
    }

    /// The contact-frame force `[f_n, f_1, .., f_{d-1}]` (`d` entries) of the edge forces
    /// `p` (this contact's rows only).
    pub fn force(&self, p: &[f64]) -> Vec<f64> {
        let mut f = Vec::with_capacity(self.mu.len() + 1);
        f.push(p.iter().sum());
        for (i, m) in self.mu.iter().enumerate() {
            f.push(m * (p[2 * i] - p[2 * i + 1]));
        }
        f
    }

    /// The contact-frame velocity `[u_n, u_1, .., u_{d-1}]` read back from the edge rows'
    /// velocities `w` (this contact's rows only): `u_n` their mean, `u_i` from the pair of
    /// direction `i` (`0` when `mu_i = 0`).
    pub fn velocity(&self, w: &[f64]) -> Vec<f64> {
        let mut u = Vec::with_capacity(self.mu.len() + 1);
        u.push(w.iter().sum::<f64>() / w.len() as f64);
        for (i, m) in self.mu.iter().enumerate() {
            u.push(if *m > 0.0 {
                (w[2 * i] - w[2 * i + 1]) / (2.0 * m)
            } else {
                0.0
            });
        }
        u
    }
}

/// Which rows of an LCP or boxed LCP are the pyramid-edge forces of which contacts (see
/// the [module docs](self) for the map). Kept in [`super::Provenance::pyramid`], so that
/// every reader, writer and [`crate::check::check`] sees it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pyramid {
    /// The contacts, in order; their rows do not overlap.
    pub contacts: Vec<PyramidContact>,
}

impl Pyramid {
    /// Contacts stored one after the other from row `first`, each with its coefficients
    /// (empty for a frictionless contact).
    pub fn consecutive(first: usize, mu: impl IntoIterator<Item = Vec<f64>>) -> Pyramid {
        let mut row = first;
        let contacts = mu
            .into_iter()
            .map(|mu| {
                let c = PyramidContact { row, mu };
                row += c.rows();
                c
            })
            .collect();
        Pyramid { contacts }
    }

    /// Number of contacts.
    pub fn len(&self) -> usize {
        self.contacts.len()
    }

    /// Whether there is no contact.
    pub fn is_empty(&self) -> bool {
        self.contacts.is_empty()
    }

    /// The rows `[start, end)` of contact `c`.
    pub fn range(&self, c: usize) -> std::ops::Range<usize> {
        let k = &self.contacts[c];
        k.row..k.row + k.rows()
    }

    /// Checks the map against a problem of `dim` unknowns: every contact's rows inside
    /// `0..dim`, no row in two contacts, every `mu` finite and `>= 0`.
    ///
    /// # Errors
    /// [`ProblemError::Unsupported`] naming the first contact at fault.
    pub fn validate(&self, dim: usize) -> Result<(), ProblemError> {
        let bad = |reason: String| Err(ProblemError::Unsupported { reason });
        let mut used = vec![false; dim];
        for (c, k) in self.contacts.iter().enumerate() {
            if let Some(m) = k.mu.iter().find(|m| !m.is_finite() || **m < 0.0) {
                return bad(format!(
                    "pyramid contact {c}: friction coefficient {m}, expected a finite \
                     number >= 0"
                ));
            }
            if k.row + k.rows() > dim {
                return bad(format!(
                    "pyramid contact {c}: rows {}..{} beyond the problem's {dim} unknowns",
                    k.row,
                    k.row + k.rows()
                ));
            }
            for i in self.range(c) {
                if used[i] {
                    return bad(format!(
                        "pyramid contact {c}: row {i} belongs to an earlier contact too"
                    ));
                }
                used[i] = true;
            }
        }
        Ok(())
    }

    /// The contact-frame forces of every contact, concatenated (`Σ_c d_c` entries), from
    /// the edge forces `p` (the problem's unknowns).
    pub fn forces(&self, p: &[f64]) -> Vec<f64> {
        let mut out = Vec::new();
        for (c, k) in self.contacts.iter().enumerate() {
            out.extend(k.force(&p[self.range(c)]));
        }
        out
    }

    /// Where each contact's force starts in [`Pyramid::forces`] (`len() + 1` offsets).
    pub fn force_offsets(&self) -> Vec<usize> {
        let mut off = vec![0];
        for k in &self.contacts {
            off.push(off.last().copied().unwrap_or(0) + k.mu.len() + 1);
        }
        off
    }

    /// The dense matrix `E` (`Σ_c d_c x dim`) with `forces(p) = E p`: MuJoCo's
    /// `E_edges_to_contact_force` for a problem of contacts only.
    pub fn matrix(&self, dim: usize) -> nalgebra::DMatrix<f64> {
        let off = self.force_offsets();
        let mut e = nalgebra::DMatrix::zeros(off[self.len()], dim);
        for (c, k) in self.contacts.iter().enumerate() {
            let r = self.range(c);
            for j in r.clone() {
                e[(off[c], j)] = 1.0;
            }
            for (i, m) in k.mu.iter().enumerate() {
                e[(off[c] + 1 + i, r.start + 2 * i)] = *m;
                e[(off[c] + 1 + i, r.start + 2 * i + 1)] = -m;
            }
        }
        e
    }
}
