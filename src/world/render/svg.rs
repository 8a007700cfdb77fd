//! Still pictures: one frame ([`frame_svg`]) or a few side by side ([`strip_svg`]).

use std::fmt::Write;

use super::camera::{Camera, MARGIN_PX};
use super::draw::{items, num};
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

/// Appends the picture of `frame` (ground, bodies, label), one element per line.
pub(super) fn picture(frame: &Frame, cam: &Camera, opts: &RenderOptions, out: &mut String) {
    for e in items(frame, cam, opts) {
        out.push_str(&e);
        out.push('\n');
    }
    if opts.label {
        writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"13\" fill=\"#333333\">t = {} s</text>",
            num(MARGIN_PX),
            num(MARGIN_PX + 12.0),
            num(frame.time)
        )
        .unwrap();
    }
}

/// The picture of one frame as a standalone SVG document of `opts.width × opts.height`
/// pixels, fitted to `opts.bounds` or to the frame's [`auto_bounds`](super::auto_bounds).
///
/// Boxes are drawn as their visible faces, flat shaded by a fixed light; spheres as discs
/// with a great circle, a dot and a ring; capsules as stadiums with a seam; fixed bodies grey,
/// [`RenderOptions::highlight`]ed ones orange; the ground as a slab with a grid; all in
/// the painter's order (farthest first). Every coordinate has two decimals, so the same
/// frame and options give byte-identical text.
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
/// opts.height` pixels in a thin frame and labelled with its time (when `opts.label`), all
/// with one camera fitted to every frame so they compare at a glance. Meant for a few
/// frames (a strip of 3-6 moments of a motion).
///
/// # Errors
/// As [`frame_svg`], and for no frames.
pub fn strip_svg(frames: &[Frame], opts: &RenderOptions) -> Result<String, MultibodyError> {
    let cam = Camera::fit(frames, opts)?;
    let total = u64::from(opts.width) * frames.len() as u64;
    let mut out = header(total, opts.height);
    for (k, f) in frames.iter().enumerate() {
        writeln!(
            out,
            "<g data-frame=\"{k}\" transform=\"translate({},0)\">\n<rect x=\"0.5\" y=\"0.5\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#cccccc\"/>",
            u64::from(opts.width) * k as u64,
            opts.width.saturating_sub(1),
            opts.height.saturating_sub(1),
        )
        .unwrap();
        picture(f, &cam, opts, &mut out);
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    Ok(out)
}
