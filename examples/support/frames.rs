//! Pictures of two runs in one frame, for the simulation chapters' comparisons.

use nalgebra::Vector3;
use nonsmooth::world::render::Frame;

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
