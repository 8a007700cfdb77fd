//! Rollback: the divergence test that decides whether an iteration is kept or undone.
//!
//! PROX with adaptive r-factors (Erleben 2017 Algorithms 1-2, lines 10-15) takes a sweep,
//! and if the step `‖λ^{k+1} - λ^k‖_∞` grew, rolls back to `λ^k` and shrinks every
//! r-factor, `R <- ν R`; otherwise it keeps the sweep. This module is the test: a
//! [`DivergenceTest`] remembers the largest of the last `W` accepted steps
//! ([`crate::prox::ProxOptions::window`]; `W = 1` is the paper's `r^{k+1} > r^k`, a wider
//! window the nonmonotone test of Grippo, Lampariello, Lucidi 1986) and judges a new step
//! against it. What a rollback does (which factors shrink, by how much) is the method's.

use std::collections::VecDeque;

/// Relative size below which a step equal to the reference is rounding noise, not a
/// two-cycle.
pub const EQUAL_STEP_NOISE: f64 = 1e-12;

/// Whether a step grew: the memory of the last `W` accepted steps and the test.
#[derive(Debug, Clone)]
pub struct DivergenceTest {
    recent: WindowMax,
}

impl DivergenceTest {
    /// A test over the last `window >= 1` accepted steps (none yet: nothing has grown).
    pub fn new(window: usize) -> Self {
        DivergenceTest {
            recent: WindowMax::new(window),
        }
    }

    /// `true` if a step of length `step` grew: it is longer than the largest of the last
    /// `W` accepted steps, or not finite. A step exactly as long as that reference also
    /// counts: when `R` is too large for a block, the projection clamps the iterate back
    /// to where it was and the sweep cycles between two points with equal steps
    /// (`W = diag(2, 1, 1)`, `r = 5`: `λ_n` alternates between 0 and 5 forever). Only a
    /// step well above rounding counts so: once `R` is small the steps sit at the rounding
    /// level of the iterate (`scale`, its largest entry), where equal steps are noise.
    // ANCHOR: grew
    pub fn grew(&self, step: f64, scale: f64) -> bool {
        let reference = self.recent.max();
        let noise = EQUAL_STEP_NOISE * scale;
        !(step <= reference) || (step == reference && step > noise)
    }
    // ANCHOR_END: grew

    /// Remembers an accepted step.
    pub fn accept(&mut self, step: f64) {
        self.recent.push(step);
    }
}

/// The maximum of the last `w` values pushed (infinite before the first), in amortised
/// constant time: a deque of (index, value) with decreasing values.
#[derive(Debug, Clone)]
struct WindowMax {
    w: usize,
    count: usize,
    q: VecDeque<(usize, f64)>,
}

impl WindowMax {
    /// An empty window of `w >= 1` values.
    fn new(w: usize) -> Self {
        WindowMax {
            w,
            count: 0,
            q: VecDeque::new(),
        }
    }

    fn push(&mut self, v: f64) {
        while self.q.back().is_some_and(|b| b.1 <= v) {
            self.q.pop_back();
        }
        self.q.push_back((self.count, v));
        self.count += 1;
        while self.q.front().is_some_and(|f| self.count - f.0 > self.w) {
            self.q.pop_front();
        }
    }

    /// The largest of the last `w` values, `+inf` before the first.
    fn max(&self) -> f64 {
        self.q.front().map_or(f64::INFINITY, |f| f.1)
    }
}

#[cfg(test)]
mod tests {
    use super::WindowMax;

    #[test]
    fn the_maximum_of_the_last_w_values() {
        let mut w = WindowMax::new(2);
        assert_eq!(w.max(), f64::INFINITY);
        for (v, max) in [(3.0, 3.0), (1.0, 3.0), (2.0, 2.0), (0.5, 2.0), (0.25, 0.5)] {
            w.push(v);
            assert_eq!(w.max(), max);
        }
        let mut all = WindowMax::new(usize::MAX);
        for v in [1.0, 5.0, 2.0, 0.0] {
            all.push(v);
        }
        assert_eq!(all.max(), 5.0);
    }

    #[test]
    fn growth_equal_steps_and_noise() {
        let mut t = super::DivergenceTest::new(1);
        assert!(!t.grew(10.0, 1.0), "nothing accepted yet");
        t.accept(2.0);
        assert!(t.grew(3.0, 1.0) && !t.grew(1.0, 1.0) && t.grew(f64::NAN, 1.0));
        assert!(
            t.grew(2.0, 1.0),
            "an equal step well above rounding is a cycle"
        );
        assert!(
            !t.grew(2.0, 1e13),
            "an equal step at the rounding level is noise"
        );
    }
}
