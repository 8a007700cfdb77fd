//! Still pictures: one frame ([`frame_svg`]) or a few side by side ([`strip_svg`]).

use std::fmt::Write;

use super::camera::{Camera, MARGIN_PX};
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

/// Appends the band at the top: the caption ([`RenderOptions::caption`], 16 px text) on
/// the left, the scale bar (a bar and its length in 14 px text) on the right.
fn band(time: f64, cam: &Camera, opts: &RenderOptions, out: &mut String) {
    let style = "font-family=\"sans-serif\" fill=\"#333333\"";
    let caption = opts.caption(time);
    if !caption.is_empty() {
        writeln!(
            out,
            "<text class=\"caption\" x=\"{}\" y=\"{}\" {style} font-size=\"16\">{}</text>",
            num(MARGIN_PX),
            num(MARGIN_PX + 16.0),
            escape(&caption)
        )
        .unwrap();
    }
    let width = f64::from(opts.width) - 2.0 * MARGIN_PX;
    let step = nice_step(width / 4.0 / cam.scale());
    if let (true, Some(step)) = (opts.scale_bar, step) {
        let (x1, y) = (f64::from(opts.width) - MARGIN_PX, MARGIN_PX + 11.0);
        let x0 = x1 - step * cam.scale();
        writeln!(
            out,
            "<g class=\"scale-bar\" data-length=\"{}\">\n\
             <path d=\"M{},{} V{} H{} V{}\" fill=\"none\" stroke=\"#333333\" stroke-width=\"2\"/>\n\
             <text x=\"{}\" y=\"{}\" text-anchor=\"end\" {style} font-size=\"14\">{} m</text>\n</g>",
            round_length(step),
            num(x0),
            num(y - 5.0),
            num(y),
            num(x1),
            num(y - 5.0),
            num(x0 - 6.0),
            num(y + 4.0),
            round_length(step),
        )
        .unwrap();
    }
}

/// Appends the picture of `frame` (ground, bodies, then the band of caption and scale
/// bar), one element per line.
pub(super) fn picture(frame: &Frame, cam: &Camera, opts: &RenderOptions, out: &mut String) {
    for e in items(frame, cam, opts) {
        out.push_str(&e);
        out.push('\n');
    }
    band(frame.time, cam, opts, out);
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
    picture(frame, &cam, opts, &mut out);
    out.push_str("</svg>\n");
    Ok(out)
}

/// The pictures of `frames` side by side in one SVG document, each `opts.width ×
/// opts.height` pixels in a thin frame, cut at its edge, with its own caption and scale
/// bar (as `opts` sets), all with one camera fitted to every frame so they compare at a
/// glance. Meant for a few
/// frames (a strip of 3-6 moments of a motion).
///
/// # Errors
/// As [`frame_svg`], and for no frames.
pub fn strip_svg(frames: &[Frame], opts: &RenderOptions) -> Result<String, MultibodyError> {
    let cam = Camera::fit(frames, opts)?;
    let total = u64::from(opts.width) * frames.len() as u64;
    let mut out = header(total, opts.height);
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
            "<g data-frame=\"{k}\" transform=\"translate({},0)\">\n<g clip-path=\"url(#panel)\">\n<rect x=\"0.5\" y=\"0.5\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#cccccc\"/>",
            u64::from(opts.width) * k as u64,
            opts.width.saturating_sub(1),
            opts.height.saturating_sub(1),
        )
        .unwrap();
        picture(f, &cam, opts, &mut out);
        out.push_str("</g>\n</g>\n");
    }
    out.push_str("</svg>\n");
    Ok(out)
}
