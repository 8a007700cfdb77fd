//! Lemke's method in exact rational arithmetic: the oracle the crate's floating-point
//! `lemke` is compared with on degenerate problems.
//!
//! Every `f64` is a dyadic rational, so the data are taken exactly, and every decision of
//! the ratio test is exact. The scheme is the crate's: tableau `I w - M z - e z0 = q`,
//! `z0` enters first at the most negative `q_i`, then the complement of the variable that
//! left; `z0` leaves whenever its row ties on the ratio; a pivot counts when it is made
//! (the first one too). Besides the lexicographic rule (Cottle, Pang, Stone 1992, §4.9),
//! the oracle runs two plain ratio tests that break ties by row index, to show that a
//! test problem does cycle without the lexicographic rule. Cycles are detected exactly
//! (a set of bases seen).
#![allow(dead_code)]

use std::collections::HashSet;

use nalgebra::{DMatrix, DVector};
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// How the leaving row is chosen among the rows that tie on the ratio `(B^-1 q)_i / d_i`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rule {
    /// The lexicographic minimum of the rows of `[B^-1 q, B^-1]` divided by `d_i`.
    Lexicographic,
    /// The first tied row (the first pivot: the first most negative `q_i`).
    FirstRow,
    /// The last tied row.
    LastRow,
}

/// How an exact run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// `z0` left: `z` solves the LCP exactly.
    Solution { z: Vec<BigRational>, pivots: usize },
    /// No positive entry in the entering column.
    Ray { pivots: usize },
    /// The basis after `pivots` pivots had been visited before.
    Cycle { pivots: usize },
    /// The cap was reached.
    Cap { pivots: usize },
}

impl Outcome {
    pub fn pivots(&self) -> usize {
        match self {
            Outcome::Solution { pivots, .. }
            | Outcome::Ray { pivots }
            | Outcome::Cycle { pivots }
            | Outcome::Cap { pivots } => *pivots,
        }
    }

    /// The solution as `f64` (rounded), if there is one.
    pub fn z(&self) -> Option<DVector<f64>> {
        match self {
            Outcome::Solution { z, .. } => Some(DVector::from_iterator(
                z.len(),
                z.iter().map(|v| v.to_f64().expect("finite")),
            )),
            _ => None,
        }
    }
}

fn exact(v: f64) -> BigRational {
    BigRational::from_float(v).expect("finite data")
}

/// Runs Lemke's method on `LCP(m, q)` in exact arithmetic with the tie rule `rule`, for at
/// most `cap` pivots.
pub fn lemke_exact(m: &DMatrix<f64>, q: &DVector<f64>, rule: Rule, cap: usize) -> Outcome {
    let n = q.len();
    if q.iter().all(|v| *v >= 0.0) {
        return Outcome::Solution {
            z: vec![BigRational::zero(); n],
            pivots: 0,
        };
    }
    // Columns: w_0..w_{n-1} (they hold B^-1), z_0..z_{n-1}, z0, rhs.
    let (z0, rhs) = (2 * n, 2 * n + 1);
    let mut t: Vec<Vec<BigRational>> = (0..n)
        .map(|i| {
            let mut row = vec![BigRational::zero(); 2 * n + 2];
            row[i] = BigRational::one();
            for j in 0..n {
                row[n + j] = -exact(m[(i, j)]);
            }
            row[z0] = -BigRational::one();
            row[rhs] = exact(q[i]);
            row
        })
        .collect();
    let mut basis: Vec<usize> = (0..n).collect();
    let mut seen = HashSet::new();

    let qmin = q.iter().copied().fold(f64::INFINITY, f64::min);
    let tied: Vec<usize> = (0..n).filter(|&i| q[i] == qmin).collect();
    let mut row = match rule {
        // the lexicographic minimum of [q_i, e_i]: on a tie the largest index
        Rule::Lexicographic | Rule::LastRow => *tied.last().unwrap(),
        Rule::FirstRow => tied[0],
    };
    let mut entering = z0;
    let mut pivots = 0;
    loop {
        let p = t[row][entering].clone();
        for v in t[row].iter_mut() {
            *v /= &p;
        }
        let pivot_row = t[row].clone();
        for (i, r) in t.iter_mut().enumerate() {
            if i != row && !r[entering].is_zero() {
                let f = r[entering].clone();
                for (v, pv) in r.iter_mut().zip(&pivot_row) {
                    if !pv.is_zero() {
                        *v -= &f * pv;
                    }
                }
            }
        }
        let leaving = basis[row];
        basis[row] = entering;
        pivots += 1;
        if leaving == z0 {
            break;
        }
        let mut sorted = basis.clone();
        sorted.sort_unstable();
        if !seen.insert(sorted) {
            return Outcome::Cycle { pivots };
        }
        if pivots >= cap {
            return Outcome::Cap { pivots };
        }
        entering = if leaving < n {
            leaving + n
        } else {
            leaving - n
        };
        let candidates: Vec<usize> = (0..n).filter(|&i| t[i][entering].is_positive()).collect();
        if candidates.is_empty() {
            return Outcome::Ray { pivots };
        }
        let ratio = |i: usize| &t[i][rhs] / &t[i][entering];
        let min = candidates.iter().map(|&i| ratio(i)).min().unwrap();
        let tied: Vec<usize> = candidates
            .into_iter()
            .filter(|&i| ratio(i) == min)
            .collect();
        row = if let Some(&r) = tied.iter().find(|&&i| basis[i] == z0) {
            r
        } else {
            match rule {
                Rule::Lexicographic => *tied
                    .iter()
                    .min_by(|&&i, &&k| {
                        let key = |r: usize| {
                            (0..n)
                                .map(|c| &t[r][c] / &t[r][entering])
                                .collect::<Vec<_>>()
                        };
                        key(i).cmp(&key(k))
                    })
                    .unwrap(),
                Rule::FirstRow => tied[0],
                Rule::LastRow => *tied.last().unwrap(),
            }
        };
    }
    let mut z = vec![BigRational::zero(); n];
    for (i, &v) in basis.iter().enumerate() {
        if (n..2 * n).contains(&v) {
            z[v - n] = t[i][rhs].clone();
        }
    }
    // The exact answer must solve the LCP exactly; anything else is a bug of the oracle.
    for i in 0..n {
        let mut w = exact(q[i]);
        for j in 0..n {
            w += exact(m[(i, j)]) * &z[j];
        }
        assert!(!z[i].is_negative() && !w.is_negative() && (&z[i] * &w).is_zero());
    }
    Outcome::Solution { z, pivots }
}
