//! The timing figures redrawn from their committed CSV files, without measuring again:
//! `shock_time_per_contact` and `shock_impact_energy` (`examples/shock_timing.rs`),
//! `large_scenes_time_vs_contacts` (`examples/large_scenes.rs`) and
//! `prox_motion_time_{tower,spheres,sliding}` (`examples/prox_motion.rs`).
//!
//! ```text
//! cargo run --release --example timing_figures
//! ```
//!
//! The examples that measure the times take minutes and rewrite machine-dependent tables
//! that the book's prose cites, so no test runs them. The figures' specifications
//! (`support::timing`) are shared with them; this example reads each figure's points back
//! from its CSV and rewrites the CSV (byte for byte the same) and the SVG. Its test checks
//! that the committed SVGs are the redraw, so the figures' style cannot drift from the
//! other figures' while the numbers stay those of the last measuring run.

#[path = "support/mod.rs"]
mod support;

fn main() {
    for figure in support::timing::from_committed() {
        figure.publish();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn committed_figures_are_the_redraw() {
        super::main();
    }
}
