//! The broad phase: which pairs of bodies could touch, by a deterministic sweep and
//! prune over axis-aligned bounding boxes.
//!
//! parry's own broad phase (a dynamic BVH) is built for incremental updates with
//! handles; for a reference implementation the simple sort-and-sweep is easier to read
//! and its output order depends only on the input. Each body's box is parry's
//! [`compute_aabb`](parry3d_f64::shape::Shape::compute_aabb) at its pose, grown by the
//! contact margin; the boxes are sorted by their lower `x` (ties by body index, with
//! `f64::total_cmp`), swept once, and the overlapping pairs returned sorted. The ground
//! (a half space, with no finite box) is tested apart: a body is near it when its box
//! reaches down to `height + margin`. Pairs of two fixed bodies are dropped: no force
//! between them could move anything (their rows of `J` would be zero).
//!
//! Cost `O(n log n + k)` for `n` bodies and `k` pairs overlapping in `x`, the usual
//! bound of sweep and prune (Baraff 1992; Cohen, Lin, Manocha and Ponamgi 1995).

/// An axis-aligned box `[lo, hi]` in world coordinates (m).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Aabb {
    pub lo: [f64; 3],
    pub hi: [f64; 3],
}

// ANCHOR: sweep
/// The pairs `(i, j)`, `i < j`, whose boxes overlap, sorted; `fixed[i]` marks fixed
/// bodies, and pairs of two fixed bodies are left out. `None` as soon as there are more
/// than `cap` pairs (the memory of the list stays bounded).
pub(crate) fn overlapping_pairs(
    boxes: &[Aabb],
    fixed: &[bool],
    cap: usize,
) -> Option<Vec<(usize, usize)>> {
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_by(|&i, &j| boxes[i].lo[0].total_cmp(&boxes[j].lo[0]).then(i.cmp(&j)));
    let mut pairs = Vec::new();
    for (s, &i) in order.iter().enumerate() {
        for &j in &order[s + 1..] {
            if boxes[j].lo[0] > boxes[i].hi[0] {
                break; // sorted by lower x: no later box reaches back to i
            }
            let overlap = (1..3)
                .all(|d| boxes[i].lo[d] <= boxes[j].hi[d] && boxes[j].lo[d] <= boxes[i].hi[d]);
            if overlap && !(fixed[i] && fixed[j]) {
                if pairs.len() == cap {
                    return None;
                }
                pairs.push((i.min(j), i.max(j)));
            }
        }
    }
    pairs.sort_unstable();
    Some(pairs)
}
// ANCHOR_END: sweep

/// The bodies (not fixed) whose boxes reach down to the plane `z = height`.
pub(crate) fn near_ground(boxes: &[Aabb], fixed: &[bool], height: f64) -> Vec<usize> {
    (0..boxes.len())
        .filter(|&i| !fixed[i] && boxes[i].lo[2] <= height)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(c: [f64; 3], h: f64) -> Aabb {
        Aabb {
            lo: [c[0] - h, c[1] - h, c[2] - h],
            hi: [c[0] + h, c[1] + h, c[2] + h],
        }
    }

    #[test]
    fn brute_force_agrees() {
        // A small grid of cubes, some overlapping, one pair fixed-fixed.
        let mut boxes = Vec::new();
        for k in 0..30 {
            let x = (k * 7 % 11) as f64 * 0.3;
            let y = (k * 5 % 7) as f64 * 0.4;
            let z = (k % 3) as f64 * 0.5;
            boxes.push(cube([x, y, z], 0.25));
        }
        let fixed: Vec<bool> = (0..boxes.len()).map(|k| k % 5 == 0).collect();
        let mut brute = Vec::new();
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                let o = (0..3)
                    .all(|d| boxes[i].lo[d] <= boxes[j].hi[d] && boxes[j].lo[d] <= boxes[i].hi[d]);
                if o && !(fixed[i] && fixed[j]) {
                    brute.push((i, j));
                }
            }
        }
        assert_eq!(
            overlapping_pairs(&boxes, &fixed, usize::MAX),
            Some(brute.clone())
        );
        assert_eq!(
            overlapping_pairs(&boxes, &fixed, brute.len()),
            Some(brute.clone())
        );
        assert_eq!(overlapping_pairs(&boxes, &fixed, brute.len() - 1), None);
    }
}
