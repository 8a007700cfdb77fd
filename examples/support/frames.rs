//! Pictures of two runs in one frame, for the simulation chapters' comparisons.

use nalgebra::Vector3;
use nonsmooth::world::render::{Frame, RenderOptions, animated_svg, strip_svg};

/// Two frames side by side in one picture: `a` moved `-dx` along x, `b` moved `+dx` (m),
/// at `a`'s time.
pub fn side_by_side(a: &Frame, b: &Frame, dx: f64) -> Frame {
    let mut bodies = Vec::new();
    for (f, s) in [(a, -dx), (b, dx)] {
        for p in &f.bodies {
            let mut p = *p;
            p.position += Vector3::new(s, 0.0, 0.0);
            bodies.push(p);
        }
    }
    Frame {
        time: a.time,
        ground: a.ground,
        bodies,
    }
}

/// Two runs side by side (`left` moved `-dx`, `right` `+dx`, frame by frame), published
/// as an animation `figures/<name>_animation.svg` (`seconds` per frame) drawn with `opts`,
/// and a strip `figures/<name>_strip.svg` of the frames `picks` drawn with `strip`.
pub fn publish_side_by_side(
    name: &str,
    (left, right, dx): (&[Frame], &[Frame], f64),
    (opts, seconds): (&RenderOptions, f64),
    (picks, strip): (&[usize], &RenderOptions),
) {
    let frames: Vec<Frame> = left
        .iter()
        .zip(right)
        .map(|(a, b)| side_by_side(a, b, dx))
        .collect();
    let svg = animated_svg(&frames, opts, seconds).unwrap();
    super::publish(&format!("figures/{name}_animation.svg"), &svg);
    let picked: Vec<Frame> = picks.iter().map(|&k| frames[k].clone()).collect();
    let svg = strip_svg(&picked, strip).unwrap();
    super::publish(&format!("figures/{name}_strip.svg"), &svg);
}
