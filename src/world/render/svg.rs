//! Still pictures: one frame ([`frame_svg`]) or a few side by side ([`strip_svg`]).

use std::fmt::Write;

use super::camera::{Camera, LABEL_PX, MARGIN_PX, TEXT_PX, text_px};
use super::draw::{items, nice_step, num};
use super::frame::Frame;
use super::view::RenderOptions;
use crate::multibody::MultibodyError;

/// The opening of a standalone SVG document of `width × height` pixels with a white
/// background.
pub(super) fn header(width: u64, height: u32) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n\
         <rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>\n"
    )
}

/// `s` with the characters that XML gives a meaning escaped.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `v`, a step of [`nice_step`], with as many decimals as it needs (`0.05`, `2`, `500`).
fn round_length(v: f64) -> String {
    let d = (0..12)
        .find(|&d| {
            let x = v * 10f64.powi(d);
            (x - x.round()).abs() < 1e-6 * x
        })
        .unwrap_or(12);
    format!("{v:.*}", d as usize)
}

/// Appends the band at the top: the caption ([`RenderOptions::caption`], or `title` in
/// place of [`RenderOptions::title`], in 8/7 of `text` px) on the left, the scale bar (a
/// bar and its length in `text` px) on the right; then the [`RenderOptions::labels`] on
/// the scene, in `text` px.
fn band(
    time: f64,
    cam: &Camera,
    opts: &RenderOptions,
    (text, title): (f64, Option<&str>),
    out: &mut String,
) {
    let style = "font-family=\"sans-serif\" fill=\"#333333\"";
    // Every length of the band in proportion to its text: 14 px text in a 24 px band.
    let s = text / TEXT_PX;
    // The band is cut clear of what the bodies draw into it (framed `bounds` may leave
    // bodies above the picture's top).
    if opts.has_band() {
        writeln!(
            out,
            "<rect class=\"band\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
            opts.width,
            num(MARGIN_PX / 2.0 + LABEL_PX * s)
        )
        .unwrap();
    }
    let caption = match title {
        Some(t) => RenderOptions {
            title: Some(t.to_string()),
            ..opts.clone()
        }
        .caption(time),
        None => opts.caption(time),
    };
    if !caption.is_empty() {
        writeln!(
            out,
            "<text class=\"caption\" x=\"{}\" y=\"{}\" {style} font-size=\"{}\">{}</text>",
            num(MARGIN_PX),
            num(MARGIN_PX + 16.0 * s),
            num(16.0 * s),
            escape(&caption)
        )
        .unwrap();
    }
    let width = f64::from(opts.width) - 2.0 * MARGIN_PX;
    let step = nice_step(width / 4.0 / cam.scale());
    if let (true, Some(step)) = (opts.scale_bar, step) {
        let (x1, y) = (f64::from(opts.width) - MARGIN_PX, MARGIN_PX + 11.0 * s);
        let x0 = x1 - step * cam.scale();
        writeln!(
            out,
            "<g class=\"scale-bar\" data-length=\"{}\">\n\
             <path d=\"M{},{} V{} H{} V{}\" fill=\"none\" stroke=\"#333333\" stroke-width=\"{}\"/>\n\
             <text x=\"{}\" y=\"{}\" text-anchor=\"end\" {style} font-size=\"{}\">{} m</text>\n</g>",
            round_length(step),
            num(x0),
            num(y - 5.0 * s),
            num(y),
            num(x1),
            num(y - 5.0 * s),
            num(2.0 * s),
            num(x0 - 6.0 * s),
            num(y + 4.0 * s),
            num(text),
            round_length(step),
        )
        .unwrap();
    }
    for (p, label) in &opts.labels {
        let (x, y) = cam.project(p);
        writeln!(
            out,
            "<text class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" {style} font-size=\"{}\">{}</text>",
            num(x),
            num(y - 0.3 * text),
            num(text),
            escape(label)
        )
        .unwrap();
    }
}

/// Appends the picture of `frame` (ground, bodies, then the band of caption and scale
/// bar, and the labels) with text of `text` px and the caption's title `title` (if not
/// [`RenderOptions::title`]), one element per line.
pub(super) fn picture(
    frame: &Frame,
    cam: &Camera,
    opts: &RenderOptions,
    text: (f64, Option<&str>),
    out: &mut String,
) {
    for e in items(frame, cam, opts) {
        out.push_str(&e);
        out.push('\n');
    }
    band(frame.time, cam, opts, text, out);
}

/// The picture of one frame as a standalone SVG document of `opts.width × opts.height`
/// pixels, fitted to `opts.bounds` or to the frame's bodies ([`Camera::fit`]).
///
/// Boxes are drawn as their visible faces, flat shaded by a fixed light; spheres as discs
/// with a great circle, a dot and a ring; capsules as stadiums with a seam; fixed bodies grey,
/// [`RenderOptions::highlight`]ed ones orange; the ground as a slab with a grid; the
/// bodies in the painter's order (of two that overlap on screen, the one behind first).
/// At the top, the caption ([`RenderOptions::caption`]) and a scale bar, as set. Every
/// coordinate has two decimals, so the same frame and options give byte-identical text.
///
/// # Errors
/// [`MultibodyError::InvalidScene`]: a zero width or height, a non-finite time, ground,
/// position or orientation, an invalid shape, bad bounds ([`Camera::fit`]).
pub fn frame_svg(frame: &Frame, opts: &RenderOptions) -> Result<String, MultibodyError> {
    let frames = std::slice::from_ref(frame);
    let cam = Camera::fit(frames, opts)?;
    let mut out = header(u64::from(opts.width), opts.height);
    let text = text_px(f64::from(opts.width));
    picture(frame, &cam, opts, (text, None), &mut out);
    out.push_str("</svg>\n");
    Ok(out)
}

/// The pictures of `frames` side by side in one SVG document, each `opts.width ×
/// opts.height` pixels in a thin frame, cut at its edge, with its own caption (its title
/// from [`RenderOptions::titles`], if given) and scale bar (as `opts` sets), all with one
/// camera fitted to every frame so they compare at a glance; [`RenderOptions::columns`]
/// pictures a row (default: one row). The text is sized for the whole document's width
/// ([`text_px`]), so that it reads when the strip is shown narrow. Meant for a few frames
/// (a strip of 3-6 moments of a motion).
///
/// # Errors
/// As [`frame_svg`], and for no frames.
pub fn strip_svg(frames: &[Frame], opts: &RenderOptions) -> Result<String, MultibodyError> {
    let n = frames.len().max(1);
    let columns = opts.columns.unwrap_or(n).clamp(1, n);
    let rows = n.div_ceil(columns);
    let total = u64::from(opts.width) * columns as u64;
    let cam = Camera::fit_document(frames, opts, total as f64)?;
    let text = text_px(total as f64);
    let height = u64::from(opts.height) * rows as u64;
    let mut out = header(total, u32::try_from(height).unwrap_or(u32::MAX));
    // Each picture is cut at its own edge (the ground patch may reach past it).
    writeln!(
        out,
        "<defs><clipPath id=\"panel\"><rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\"/></clipPath></defs>",
        opts.width, opts.height
    )
    .unwrap();
    for (k, f) in frames.iter().enumerate() {
        writeln!(
            out,
            "<g data-frame=\"{k}\" transform=\"translate({},{})\">\n<g clip-path=\"url(#panel)\">\n<rect x=\"0.5\" y=\"0.5\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#cccccc\"/>",
            u64::from(opts.width) * (k % columns) as u64,
            u64::from(opts.height) * (k / columns) as u64,
            opts.width.saturating_sub(1),
            opts.height.saturating_sub(1),
        )
        .unwrap();
        let title = opts.titles.get(k).map(String::as_str);
        picture(f, &cam, opts, (text, title), &mut out);
        out.push_str("</g>\n</g>\n");
    }
    out.push_str("</svg>\n");
    Ok(out)
}
