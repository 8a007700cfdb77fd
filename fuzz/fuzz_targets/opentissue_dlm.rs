//! Fuzz target: the body is `nonsmooth::fuzz::opentissue_dlm`, which a plain test also replays
//! on stable (`tests/fuzz_replay.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    nonsmooth::fuzz::opentissue_dlm(data);
});
