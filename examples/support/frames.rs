//! Pictures of two runs in one frame, for the simulation chapters' comparisons.

use nalgebra::Vector3;
use nonsmooth::world::render::{Frame, RenderOptions, animated_svg, auto_bounds, strip_svg};

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

/// The world box `(lo, hi)` (m) of `frame`'s bodies grown by `margin` times its largest
/// side on every side but the bottom (the ground), or `None` for no bodies.
pub fn framed(frame: &Frame, margin: f64) -> Option<(Vector3<f64>, Vector3<f64>)> {
    let (lo, hi) = auto_bounds(std::slice::from_ref(frame)).ok()?;
    let m = margin * (hi - lo).max();
    Some((lo - Vector3::new(m, m, 0.0), hi + Vector3::new(m, m, m)))
}

/// Two runs side by side (`left` moved `-dx`, `right` `+dx`, frame by frame), each
/// labelled with its name (`names`) above it, published as an animation
/// `figures/<name>_animation.svg` (`seconds` per frame) drawn with `opts`, and a strip
/// `figures/<name>_strip.svg` of the frames `picks` drawn with `strip`. The labels stand
/// over the middle of each run's bodies in the first frame, at the top of `opts.bounds`
/// if given, else of every body of every frame.
pub fn publish_side_by_side(
    name: &str,
    (left, right, dx, names): (&[Frame], &[Frame], f64, [&str; 2]),
    (opts, seconds): (&RenderOptions, f64),
    (picks, strip): (&[usize], &RenderOptions),
) {
    let frames: Vec<Frame> = left
        .iter()
        .zip(right)
        .map(|(a, b)| side_by_side(a, b, dx))
        .collect();
    let top = match opts.bounds {
        Some((_, hi)) => hi.z,
        None => auto_bounds(&frames).unwrap().1.z,
    };
    let middle = |f: &Frame| {
        let (lo, hi) = auto_bounds(std::slice::from_ref(f)).unwrap();
        0.5 * (lo.x + hi.x)
    };
    let labels = vec![
        (
            Vector3::new(middle(&left[0]) - dx, 0.0, top),
            names[0].to_string(),
        ),
        (
            Vector3::new(middle(&right[0]) + dx, 0.0, top),
            names[1].to_string(),
        ),
    ];
    let opts = RenderOptions {
        labels: labels.clone(),
        ..opts.clone()
    };
    let strip = RenderOptions {
        labels,
        ..strip.clone()
    };
    let svg = animated_svg(&frames, &opts, seconds).unwrap();
    super::publish(&format!("figures/{name}_animation.svg"), &svg);
    let picked: Vec<Frame> = picks.iter().map(|&k| frames[k].clone()).collect();
    let svg = strip_svg(&picked, &strip).unwrap();
    super::publish(&format!("figures/{name}_strip.svg"), &svg);
}
