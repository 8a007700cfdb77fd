//! The divergence test's memory: the largest of the last `W` accepted steps
//! ([`crate::prox::ProxOptions::window`]; `W = 1` is Erleben 2017's `r^{k+1} > r^k`, a wider
//! window the nonmonotone test of Grippo, Lampariello, Lucidi 1986).

use std::collections::VecDeque;

/// Relative size below which a step equal to the reference is rounding noise, not a
/// two-cycle (see [`crate::prox::ProxMethod`]'s step).
pub(super) const EQUAL_STEP_NOISE: f64 = 1e-12;

/// The maximum of the last `w` values pushed (infinite before the first), in amortised
/// constant time: a deque of (index, value) with decreasing values.
#[derive(Debug, Clone)]
pub(super) struct WindowMax {
    w: usize,
    count: usize,
    q: VecDeque<(usize, f64)>,
}

impl WindowMax {
    /// An empty window of `w >= 1` values.
    pub(super) fn new(w: usize) -> Self {
        WindowMax {
            w,
            count: 0,
            q: VecDeque::new(),
        }
    }

    pub(super) fn push(&mut self, v: f64) {
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
    pub(super) fn max(&self) -> f64 {
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
}
