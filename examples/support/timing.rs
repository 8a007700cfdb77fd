//! The timing figures: what each plots (name, caption, axes) in one place, used both by
//! the examples that measure the times (`shock_timing`, `large_scenes`, `prox_motion`,
//! which take minutes and rewrite machine-dependent tables) and by `timing_figures`,
//! which redraws the figures from their committed CSV files without measuring again, and
//! whose test fails when a committed SVG is not the redraw of its CSV.
//!
//! A timing example writes a figure's CSV and SVG together (through
//! [`TimeFigure::publish`]); `timing_figures` reads the CSV back ([`committed`]) and
//! publishes the same figure, so the CSV is rewritten byte for byte and only the drawing
//! can change.

use super::series::{Series, TimeFigure};

/// Time per step without collision detection against contacts, towers at rest
/// (`examples/shock_timing.rs`): a curve per scheme.
pub fn shock_time_per_contact(series: Vec<Series>) -> TimeFigure {
    TimeFigure {
        name: "shock_time_per_contact".into(),
        caption: "Towers at rest: time per step without collision detection".into(),
        x_desc: "contacts",
        y_desc: "ms per step",
        log_y: false,
        series,
    }
}

/// Kinetic energy of `roof-tower` over time (`examples/shock_timing.rs`): a curve per
/// scheme.
pub fn shock_impact_energy(series: Vec<Series>) -> TimeFigure {
    TimeFigure {
        name: "shock_impact_energy".into(),
        caption: "Tower of 800 bricks hit by a block, then a cannon ball".into(),
        x_desc: "time (s)",
        y_desc: "kinetic energy (J)",
        log_y: false,
        series,
    }
}

/// The bins' mean time of a step against their mean contacts, `roof-tower` of `bricks`
/// bricks (`examples/large_scenes.rs`; the committed figure is of the default 800).
pub fn large_scenes_time_vs_contacts(bricks: usize, series: Vec<Series>) -> TimeFigure {
    TimeFigure {
        name: "large_scenes_time_vs_contacts".into(),
        caption: format!("roof-tower, {bricks} bricks: mean ms a step by contacts"),
        x_desc: "contacts",
        y_desc: "ms",
        log_y: false,
        series,
    }
}

/// The scenes of `examples/prox_motion.rs`, by key (the figures' file-name part).
pub const PROX_MOTION_SCENES: [&str; 3] = ["tower", "spheres", "sliding"];

/// Spheres along each side of the cube of spheres that `prox_motion`'s scene `spheres`
/// drops.
pub const PROX_MOTION_SPHERES_SIDE: usize = 5;

/// The heading of `prox_motion`'s scene `key` (tables and captions).
pub fn prox_motion_scene_label(key: &str) -> String {
    match key {
        "tower" => "tower of 6 rings of 8 bricks hit by a ball at 5 m/s".into(),
        "spheres" => format!(
            "{} spheres dropped into a bin",
            PROX_MOTION_SPHERES_SIDE.pow(3)
        ),
        "sliding" => "16 boxes on the ground, 8 sliding into 8 at rest".into(),
        _ => panic!("no prox_motion scene {key}"),
    }
}

/// Wall time of the contact solve per step of `prox_motion`'s scene `key`, a curve per
/// r-factor strategy. A logarithmic vertical axis: the times span factors of ten (a warm
/// start that is nearly the solution against steps that roll back), and a linear one
/// flattens all but the peaks. Steps without contacts (0 ms) are not drawn.
pub fn prox_motion_time(key: &str, series: Vec<Series>) -> TimeFigure {
    TimeFigure {
        name: format!("prox_motion_time_{key}"),
        caption: format!("Contact solve per step, {}", prox_motion_scene_label(key)),
        x_desc: "time (s)",
        y_desc: "solve time (ms)",
        log_y: true,
        series,
    }
}

/// The curves of the committed `book/src/figures/<name>.csv` (`curve,x,y`, as
/// [`TimeFigure`] writes it), in their order. A label may hold commas: the last two
/// fields are the point.
pub fn committed(name: &str) -> Vec<Series> {
    let path = super::root().join(format!("book/src/figures/{name}.csv"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run the timing example first", path.display()));
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("curve,x,y"),
        "{}: header",
        path.display()
    );
    let mut series: Vec<Series> = Vec::new();
    for line in lines {
        let mut fields = line.rsplitn(3, ',');
        let (Some(y), Some(x), Some(label)) = (fields.next(), fields.next(), fields.next()) else {
            panic!("{}: bad row {line:?}", path.display());
        };
        let number = |s: &str| -> f64 {
            s.parse()
                .unwrap_or_else(|e| panic!("{}: {s:?} in {line:?}: {e}", path.display()))
        };
        let point = (number(x), number(y));
        match series.iter_mut().find(|s| s.label == label) {
            Some(s) => s.points.push(point),
            None => series.push(Series {
                label: label.to_string(),
                points: vec![point],
            }),
        }
    }
    series
}

/// The six timing figures, drawn from their committed CSV files.
pub fn from_committed() -> Vec<TimeFigure> {
    let bricks = nonsmooth::world::scenes::roof_tower::RoofTowerParams::default().roof_index();
    let mut figures = vec![
        shock_time_per_contact(committed("shock_time_per_contact")),
        shock_impact_energy(committed("shock_impact_energy")),
        large_scenes_time_vs_contacts(bricks, committed("large_scenes_time_vs_contacts")),
    ];
    for key in PROX_MOTION_SCENES {
        figures.push(prox_motion_time(
            key,
            committed(&format!("prox_motion_time_{key}")),
        ));
    }
    figures
}
