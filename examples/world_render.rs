//! Pictures of a small world (the book's chapter "The world and collision detection",
//! section "Drawing the world"): a box, a sphere, a lying capsule and a box turned 30°
//! about `z`, on the ground, drawn in the isometric and the front view.
//!
//! ```text
//! cargo run --release --example world_render
//! ```
//!
//! Writes `book/src/figures/world_scene_isometric.svg` and
//! `book/src/figures/world_scene_front.svg`; its test checks the committed files.

#[path = "support/mod.rs"]
mod support;

use nalgebra::{UnitQuaternion, Vector3};
use nonsmooth::world::render::{Frame, RenderOptions, View, frame_svg};
use nonsmooth::world::{MaterialId, Shape, World};

/// The scene: every body resting on the ground `z = 0`.
fn scene() -> World {
    let mut world = World::new();
    let m = MaterialId::default();
    let upright = UnitQuaternion::identity();
    let lying = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), std::f64::consts::FRAC_PI_2);
    let turned = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 30f64.to_radians());
    let cube = Shape::cuboid(0.5, 0.5, 0.5).expect("valid");
    let ball = Shape::sphere(0.4).expect("valid");
    let capsule = Shape::capsule(0.5, 0.25).expect("valid");
    let crate_ = Shape::cuboid(0.6, 0.4, 0.3).expect("valid");
    for (shape, position, orientation) in [
        (cube, Vector3::new(0.0, 0.0, 0.5), upright),
        (ball, Vector3::new(1.5, 0.2, 0.4), upright),
        (capsule, Vector3::new(0.0, 1.8, 0.25), lying),
        (crate_, Vector3::new(-1.8, 0.3, 0.3), turned),
    ] {
        world
            .add(shape, 1000.0, position, orientation, m)
            .expect("a valid body");
    }
    world
}

fn main() {
    let world = scene();
    // ANCHOR: render
    let frame = Frame::of(&world, 0.0); // a snapshot: shapes, poses, ground
    for (view, name) in [(View::Isometric, "isometric"), (View::Front, "front")] {
        let opts = RenderOptions {
            view,
            highlight: vec![3],   // the turned box in orange
            ..Default::default()  // 800 x 600 px, fits the bodies, time, scale bar
        };
        let svg = frame_svg(&frame, &opts).expect("a valid frame");
        support::publish(&format!("figures/world_scene_{name}.svg"), &svg);
    }
    // ANCHOR_END: render
}

#[test]
fn figures_match_the_book() {
    main();
}
