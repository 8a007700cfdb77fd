//! Scenes for the implicit stepper, after the examples of Macklin et al. 2019 (§10,
//! figures 1, 7, 14-16, Table 2) that the crate can build with its shapes (boxes,
//! spheres, capsules), joints and tetrahedra. Each returns a [`World`] (rigid bodies,
//! ground, collision detection) and a [`Model`] (particles, joints, elements); SI units,
//! `z` up, deterministic.
//!
//! | scene | what | paper |
//! |---|---|---|
//! | [`chain`] | `links` capsules joined by ball joints, hung from a fixed point, released horizontal | the hanging chain |
//! | [`gripper`] | two fingers on hinges with compliant drives squeezing a box, held up by friction alone | the Fetch / Allegro grasps (fig. 1, 7) |
//! | [`arch`] | a corbel arch of boxes: two piers whose courses step inwards, closed by a capstone | the masonry arch (Table 2 "Arch"), with box courses since the crate has no wedge shape |
//! | [`deformable_slope`] | a Neo-Hookean block of tetrahedra on a slope (gravity tilted) | the deformable bodies of §9 |
//!
//! The pile of objects is the world scene [`crate::world::scenes::pile`].

use crate::names::named;
use nalgebra::{Matrix3, UnitQuaternion, Vector3};

use super::model::{Anchor, Hinge, Joint, Model, Node, Particle};
use super::neo_hookean::Tetrahedron;
use super::tet_mesh::{box_mesh, lumped_masses};
use crate::multibody::MultibodyError;
use crate::world::{Material, MaterialId, Shape, World};

/// The implicit scenes by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImplicitScene {
    /// [`chain`].
    Chain,
    /// [`gripper`].
    Gripper,
    /// [`arch`].
    Arch,
    /// [`deformable_slope`].
    DeformableSlope,
    /// [`deformable_push`].
    DeformablePush,
}

named!(ImplicitScene {
    Chain => "chain",
    Gripper => "gripper",
    Arch => "arch",
    DeformableSlope => "deformable-slope",
    DeformablePush => "deformable-push",
});

impl ImplicitScene {
    /// One line for listings.
    pub fn summary(self) -> &'static str {
        match self {
            ImplicitScene::Chain => {
                "capsules joined by ball joints, hung from a fixed point and released horizontal (Macklin et al. 2019)"
            }
            ImplicitScene::Gripper => {
                "two hinged fingers with compliant drives holding a box by friction (Macklin et al. 2019 fig. 1, 7)"
            }
            ImplicitScene::Arch => {
                "a corbel arch of boxes closed by a capstone (Macklin et al. 2019 Table 2, Arch)"
            }
            ImplicitScene::DeformableSlope => {
                "a Neo-Hookean block of tetrahedra on a slope (Macklin et al. 2019 §9)"
            }
            ImplicitScene::DeformablePush => {
                "a Neo-Hookean block resting on a rigid box, pushed by another (deformable-rigid contact, Macklin et al. 2019 §9)"
            }
        }
    }

    /// What `size` sets, if anything.
    pub fn size_meaning(self) -> Option<&'static str> {
        match self {
            ImplicitScene::Chain => Some("number of links (default 10)"),
            ImplicitScene::Arch => Some("courses per pier (default 6)"),
            ImplicitScene::DeformableSlope | ImplicitScene::DeformablePush => {
                Some("cells along the block's length (default 4)")
            }
            ImplicitScene::Gripper => None,
        }
    }

    /// Whether the scene needs the implicit stepper (it has joints or particles).
    pub fn needs_implicit(self) -> bool {
        !matches!(self, ImplicitScene::Arch)
    }
}

/// Builds `scene` with `size` ([`ImplicitScene::size_meaning`]; `None` for the default).
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for a size of zero, too large, or given to a scene
/// without one.
pub fn build(scene: ImplicitScene, size: Option<usize>) -> Result<(World, Model), MultibodyError> {
    let bad = |reason: String| Err(MultibodyError::InvalidScene { reason });
    if let Some(n) = size {
        if scene.size_meaning().is_none() {
            return bad(format!("the {} scene has no size", scene.name()));
        }
        if n == 0 || n > 10_000 {
            return bad(format!(
                "the {} scene's size must be in 1..=10000, got {n}",
                scene.name()
            ));
        }
    }
    match scene {
        ImplicitScene::Chain => chain(size.unwrap_or(10)),
        ImplicitScene::Gripper => gripper(),
        ImplicitScene::Arch => Ok((arch(size.unwrap_or(6))?, Model::default())),
        ImplicitScene::DeformableSlope => deformable_slope(size.unwrap_or(4)),
        ImplicitScene::DeformablePush => deformable_push(size.unwrap_or(4)),
    }
}

fn pose(world: &World) -> impl Fn(usize) -> (Vector3<f64>, Matrix3<f64>) + '_ {
    move |i| {
        let b = &world.bodies()[i].body;
        (b.position, b.rotation())
    }
}

/// `links` capsules (half height 0.1 m, radius 0.03 m, 500 kg/m³) along `+x` at height
/// 2 m, each end joined to the next by a ball joint and the first to the world point
/// `(0, 0, 2)`: the chain swings down and hangs.
pub fn chain(links: usize) -> Result<(World, Model), MultibodyError> {
    let (hh, r) = (0.1, 0.03);
    let half = hh + r;
    let mut world = World::new();
    let shape = Shape::capsule(hh, r)?;
    let along_x = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), std::f64::consts::FRAC_PI_2);
    let mut model = Model::default();
    let top = Vector3::new(0.0, 0.0, 2.0);
    for k in 0..links {
        let x = top + Vector3::new((2 * k + 1) as f64 * half, 0.0, 0.0);
        let i = world.add(shape, 500.0, x, along_x, MaterialId(0))?;
        // The capsule's axis is its body z, turned onto world x: its ends are at ±half
        // along body z.
        let a = if k == 0 {
            Anchor::World(top)
        } else {
            Anchor::On(Node::Body(i - 1), Vector3::new(0.0, 0.0, half))
        };
        model.joints.push(Joint::Ball {
            a,
            b: Anchor::On(Node::Body(i), Vector3::new(0.0, 0.0, -half)),
        });
    }
    Ok((world, model))
}

/// A 0.5 kg box (10 cm cube) at 1 m, between two fingers (2 × 4 × 30 cm boxes) hanging
/// from hinges about `y` on a fixed palm; each finger's compliant drive (compliance
/// 0.02 rad/(N m)) aims 0.15 rad past touching, so the fingers squeeze the box, and
/// friction (μ = 0.8) alone holds it against gravity.
pub fn gripper() -> Result<(World, Model), MultibodyError> {
    let mut world = World::new();
    world.set_material(MaterialId(0), Material::new(0.8, 0.0)?)?;
    let cube = Shape::cuboid(0.05, 0.05, 0.05)?;
    let finger = Shape::cuboid(0.01, 0.02, 0.15)?;
    let hinge_z = 1.25;
    let object = world.add_with_mass(
        cube,
        0.5,
        Vector3::new(0.0, 0.0, 1.0),
        UnitQuaternion::identity(),
        MaterialId(0),
    )?;
    let _ = object;
    let mut model = Model::default();
    for side in [-1.0, 1.0] {
        // The finger hangs from (side 0.061, 0, hinge_z): its inner face 0.001 m from
        // the box.
        let x = side * 0.061;
        let f = world.add_with_mass(
            finger,
            0.1,
            Vector3::new(x, 0.0, hinge_z - 0.15),
            UnitQuaternion::identity(),
            MaterialId(0),
        )?;
        let mut hinge = Hinge::at(
            None,
            f,
            Vector3::new(x, 0.0, hinge_z),
            Vector3::y(),
            &pose(&world),
        );
        // A positive angle about +y turns the hanging finger's lower end towards -x;
        // closing means towards the box: +side for the finger at side * x.
        hinge.drive = Some((side * 0.15, 0.02));
        hinge.limit = Some((-0.6, 0.6));
        model.joints.push(Joint::Hinge(hinge));
    }
    Ok((world, model))
}

/// A corbel arch: two piers of `courses` courses (boxes 0.4 × 0.3 × 0.15 m, 2000 kg/m³);
/// each course steps 0.06 m inwards over the one below and carries a backing block
/// behind it, and a capstone spans the top gap. Friction 0.6.
pub fn arch(courses: usize) -> Result<World, MultibodyError> {
    let mut world = World::new();
    world.set_material(MaterialId(0), Material::new(0.6, 0.0)?)?;
    let (lx, ly, lz) = (0.2, 0.15, 0.075);
    let block = Shape::cuboid(lx, ly, lz)?;
    let step = 0.06;
    let base = 0.2 + step * courses as f64; // inner face of the lowest course, from the middle
    for k in 0..courses {
        let z = (2 * k + 1) as f64 * lz;
        let inner = base - step * k as f64;
        for side in [-1.0, 1.0] {
            world.add(
                block,
                2000.0,
                Vector3::new(side * (inner + lx), 0.0, z),
                UnitQuaternion::identity(),
                MaterialId(0),
            )?;
            world.add(
                block,
                2000.0,
                Vector3::new(side * (inner + 3.0 * lx), 0.0, z),
                UnitQuaternion::identity(),
                MaterialId(0),
            )?;
        }
    }
    let gap = base - step * (courses - 1) as f64;
    let cap = Shape::cuboid(gap + 0.1, ly, lz)?;
    world.add(
        cap,
        2000.0,
        Vector3::new(0.0, 0.0, (2 * courses + 1) as f64 * lz),
        UnitQuaternion::identity(),
        MaterialId(0),
    )?;
    Ok(world)
}

/// A block 0.4 × 0.2 × 0.2 m of `cells` × ⌈cells/2⌉ × ⌈cells/2⌉ hexahedra cut into
/// tetrahedra (Neo-Hookean, Young's modulus 1e5 Pa, Poisson 0.3, 1000 kg/m³) resting on
/// the ground, with gravity tilted 20° about `y`: a slope of 20° with friction μ = 0.5
/// (`tan 20° ≈ 0.36 < μ`, so it should stick).
pub fn deformable_slope(cells: usize) -> Result<(World, Model), MultibodyError> {
    let angle = 20f64.to_radians();
    let world =
        World::new().with_gravity(Vector3::new(9.81 * angle.sin(), 0.0, -9.81 * angle.cos()))?;
    let model = neo_hookean_block(Vector3::new(0.2, 0.1, 0.1), cells, 0.0, 0.5)?;
    Ok((world, model))
}

/// The Neo-Hookean block of [`deformable_slope`] (half extents `half`, `cells` along
/// `x`), its bottom face at height `bottom`, `mu` the particles' friction coefficient.
fn neo_hookean_block(
    half: Vector3<f64>,
    cells: usize,
    bottom: f64,
    mu: f64,
) -> Result<Model, MultibodyError> {
    let across = cells.div_ceil(2);
    let mesh = box_mesh(
        half,
        [cells, across, across],
        Vector3::new(0.0, 0.0, bottom + half.z),
    )
    .map_err(|e| MultibodyError::InvalidScene {
        reason: e.to_string(),
    })?;
    let masses = lumped_masses(&mesh, 1000.0);
    let mut model = Model::default();
    for (x, m) in mesh.positions.iter().zip(&masses) {
        model.particles.push(Particle {
            position: *x,
            velocity: Vector3::zeros(),
            mass: *m,
            radius: 0.0,
            mu,
        });
    }
    for t in &mesh.tetrahedra {
        let rest = t.map(|j| mesh.positions[j]);
        let tet =
            Tetrahedron::new(*t, &rest, 1e5, 0.3).map_err(|e| MultibodyError::InvalidScene {
                reason: e.to_string(),
            })?;
        model.tetrahedra.push(tet);
    }
    Ok(model)
}

/// Deformable-rigid contact: a rigid box (body 0, half extents 0.4 x 0.25 x 0.1 m,
/// 500 kg/m³) on the ground; on it, 1 mm above its top, a Neo-Hookean block of
/// tetrahedra (half extents 0.15 x 0.1 x 0.08 m, `cells` cells along `x`, 1000 kg/m³,
/// Young's modulus 1e5 Pa, Poisson ratio 0.3, particle friction 0.5); and a second rigid
/// box (body 1, half extents 0.05 x 0.1 x 0.05 m) on the table 2 cm behind the block,
/// sliding towards it at 1 m/s. The pusher's friction on the table stops it within
/// about 10 cm: it meets the block after 2 cm and pushes it.
pub fn deformable_push(cells: usize) -> Result<(World, Model), MultibodyError> {
    let mut world = World::new();
    let table = Vector3::new(0.4, 0.25, 0.1);
    world.add(
        Shape::cuboid(table.x, table.y, table.z)?,
        500.0,
        Vector3::new(0.0, 0.0, table.z),
        UnitQuaternion::identity(),
        MaterialId(0),
    )?;
    let top = 2.0 * table.z;
    let block = Vector3::new(0.15, 0.1, 0.08);
    let pusher = Vector3::new(0.05, 0.1, 0.05);
    let i = world.add(
        Shape::cuboid(pusher.x, pusher.y, pusher.z)?,
        500.0,
        Vector3::new(-block.x - 0.02 - pusher.x, 0.0, top + pusher.z),
        UnitQuaternion::identity(),
        MaterialId(0),
    )?;
    if let Some(b) = world.body_mut(i) {
        b.body.linear_velocity = Vector3::new(1.0, 0.0, 0.0);
    }
    let model = neo_hookean_block(block, cells, top + 1e-3, 0.5)?;
    Ok((world, model))
}
