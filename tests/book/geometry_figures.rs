//! The book's figures are where its chapters say they are, and the geometry figures are
//! readable at the book's width.
//!
//! Every image a chapter references (`![...](figures/NAME)`) must exist. The pictures of
//! `examples/geometry_figures.rs` and the ellipsoid figure of `examples/ellipsoid_newton.rs`
//! must be referenced by their chapters, be whole SVG documents no wider than the book's
//! content, and use text of at least 14 px. That the committed files are exactly what the
//! examples draw is checked by the examples' own tests
//! (`cargo test --release --example geometry_figures`, `--example ellipsoid_newton`), which
//! recompute every figure and compare it with the committed file byte for byte.

use std::path::{Path, PathBuf};

fn book() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src")
}

/// The `figures/...` targets of the Markdown images of a chapter.
fn images(chapter: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = chapter;
    while let Some(i) = rest.find("](figures/") {
        let after = &rest[i + 2..];
        let end = after.find(')').expect("an image link ends with ')'");
        // only images: the `[` before must belong to `![`
        let before = &rest[..i];
        if let Some(open) = before.rfind("![") {
            if !before[open..].contains("](") {
                out.push(after[..end].to_string());
            }
        }
        rest = &after[end..];
    }
    out
}

#[test]
fn every_referenced_figure_exists() {
    let mut checked = 0;
    for entry in std::fs::read_dir(book()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for target in images(&text) {
            assert!(
                book().join(&target).is_file(),
                "{} shows {target}, which does not exist",
                path.display()
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 20,
        "only {checked} images found: is the link parser broken?"
    );
}

/// `(figure, chapter that shows it)`.
const FIGURES: [(&str, &str); 12] = [
    ("geometry_contact_frame", "conventions.md"),
    ("geometry_cone", "contact-problem.md"),
    ("geometry_de_saxce", "contact-problem.md"),
    ("geometry_friction_sets", "proximal-operators.md"),
    ("geometry_minmap_levels", "complementarity.md"),
    ("geometry_fb_levels", "complementarity.md"),
    ("geometry_projections", "proximal-operators.md"),
    ("diagram_layers", "shock-propagation.md"),
    ("diagram_slide", "splitting.md"),
    ("diagram_projection", "proximal-operators.md"),
    ("diagram_newton_kink", "newton-nonsmooth.md"),
    ("ellipsoid_g", "ellipsoid-projection.md"),
];

/// The value of `attr="..."` in the first tag of an SVG document.
fn root_attr(svg: &str, attr: &str) -> f64 {
    let tag = &svg[..svg.find('>').unwrap()];
    let key = format!(" {attr}=\"");
    let i = tag
        .find(&key)
        .unwrap_or_else(|| panic!("no {attr} in {tag}"))
        + key.len();
    tag[i..i + tag[i..].find('"').unwrap()].parse().unwrap()
}

#[test]
fn geometry_figures_are_shown_and_readable() {
    for (name, chapter) in FIGURES {
        let text = std::fs::read_to_string(book().join(chapter)).unwrap();
        let target = format!("figures/{name}.svg");
        assert!(
            images(&text).contains(&target),
            "{chapter} does not show {target}"
        );
        let svg = std::fs::read_to_string(book().join(&target)).unwrap();
        assert!(
            svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"),
            "{target} is not a whole SVG document"
        );
        let csv = std::fs::read_to_string(book().join(format!("figures/{name}.csv"))).unwrap();
        assert!(csv.lines().count() > 2, "{name}.csv holds no points");
        let (w, h) = (root_attr(&svg, "width"), root_attr(&svg, "height"));
        assert!(
            (300.0..=780.0).contains(&w) && (200.0..=800.0).contains(&h),
            "{target} is {w} x {h} px"
        );
        // Every text is at least 14 px (one panel per figure, so it is shown at about its
        // own width in the book's 750 px column); a subscript's tspan is a fraction of its
        // text's size.
        let mut sizes = 0;
        for part in svg.split("<text").skip(1) {
            let tag = &part[..part.find('>').unwrap()];
            let Some(at) = tag.find("font-size=\"") else {
                continue;
            };
            let value = &tag[at + 11..];
            let size: f64 = value[..value.find('"').unwrap()].parse().unwrap();
            assert!(size >= 14.0, "{target} has text of {size} px");
            sizes += 1;
        }
        assert!(sizes >= 3, "{target} has only {sizes} texts");
        // Nothing was drawn from a NaN.
        assert!(!svg.contains("NaN"), "{target} holds a NaN coordinate");
    }
}
