//! Fuzz target: the body is `nonsmooth::fuzz::fclib_hdf5`, which a plain test also
//! replays on stable (`tests/fuzz_replay.rs`, with `--features hdf5`).
//!
//! The FCLIB reader needs the crate feature `hdf5` (and the HDF5 C library, Debian
//! `libhdf5-dev`): run this target as
//! `cargo fuzz run --sanitizer none --features hdf5 fclib_hdf5`. Built without the
//! feature (as `cargo fuzz build` builds every target) the body does nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    nonsmooth::fuzz::fclib_hdf5(data);
});
