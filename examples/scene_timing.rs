//! Times scene generation and assembly for target contact counts (run in release mode):
//!
//! ```text
//! cargo run --release --example scene_timing
//! ```
//!
//! For each scene kind and target (100, 1k, 10k, 100k contacts) it prints the size, the
//! time to generate the bodies and contacts, to assemble `J` and `M`, and to form the
//! local problem (`W = J M^-1 J^T`, `q`) with its number of stored entries.

use std::time::Instant;

use nonsmooth::multibody::{SceneKind, scenes};

fn main() {
    println!("kind       target  contacts  bodies   generate    assemble   local(W)   nnz(W)");
    for kind in [SceneKind::BoxStack, SceneKind::Wall, SceneKind::Pyramid] {
        for target in [100, 1_000, 10_000, 100_000] {
            let t0 = Instant::now();
            let scene = scenes::sized_for(kind, target).expect("valid defaults");
            let t_gen = t0.elapsed();
            let t1 = Instant::now();
            let asm = scene.assemble().expect("valid scene");
            let t_asm = t1.elapsed();
            let t2 = Instant::now();
            let local = asm.local().expect("valid problem");
            let t_loc = t2.elapsed();
            println!(
                "{:<10} {:>6}  {:>8}  {:>6}  {:>9.2?}  {:>9.2?}  {:>9.2?}  {:>9}",
                format!("{kind:?}"),
                target,
                scene.contacts.len(),
                scene.bodies.len(),
                t_gen,
                t_asm,
                t_loc,
                local.w().nnz()
            );
        }
    }
}
