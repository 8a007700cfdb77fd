//! Reading and writing problems: the formats, strict reading, NumPy exchange, MuJoCo
//! labels and scene files. (The reader's memory test, `tests/io_read_scale.rs`, is its own
//! binary: it counts allocations with a global allocator.)

#[path = "../common/mod.rs"]
mod common;
#[path = "../adversarial/judge.rs"]
#[allow(dead_code)]
mod judge;

mod generic;
mod mujoco_labels;
mod npz;
mod numpy_exchange;
mod rollout;
mod scene_file_reliability;
mod shared_data;
mod strict;
