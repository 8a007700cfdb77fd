//! A flip-book animation in one SVG document ([`animated_svg`]).

use std::fmt::Write;

use super::camera::{Camera, text_px};
use super::frame::{Frame, invalid};
use super::svg::{header, picture};
use super::view::RenderOptions;
use crate::multibody::MultibodyError;

/// `frames` as a looping flip-book: one `<g>` per frame, each shown for
/// `seconds_per_frame` s in turn by a SMIL `<animate attributeName="visibility"
/// calcMode="discrete" repeatCount="indefinite">`, all with one camera fitted to every
/// frame (so nothing jumps). Browsers play it when the file is opened directly or
/// embedded with `<img>`; where animation is not supported the first frame shows (it is
/// the only group marked `visibility="visible"`).
///
/// Every frame is drawn in full, so the size grows with frames × bodies: a few bodies over
/// 50-100 frames (a few hundred kB at most) is the intended use. The caller subsamples a
/// simulation's steps (every `k`-th frame) to that, with `seconds_per_frame` the simulated
/// time between kept frames for real-time playback.
///
/// # Errors
/// [`MultibodyError::InvalidScene`]: as [`frame_svg`](super::frame_svg), no frames, a
/// `seconds_per_frame` that is not finite and positive, or a loop shorter than 1 ms (or absurdly long).
pub fn animated_svg(
    frames: &[Frame],
    opts: &RenderOptions,
    seconds_per_frame: f64,
) -> Result<String, MultibodyError> {
    if !(seconds_per_frame.is_finite() && seconds_per_frame > 0.0) {
        return Err(invalid(format!(
            "seconds per frame {seconds_per_frame} is not finite and positive"
        )));
    }
    let cam = Camera::fit(frames, opts)?;
    let n = frames.len();
    let dur = seconds_per_frame * n as f64;
    if !(1e-3..=1e12).contains(&dur) {
        return Err(invalid(format!(
            "the loop of {n} frames at {seconds_per_frame} s each lasts less than 1 ms or too long"
        )));
    }
    let mut out = header(u64::from(opts.width), opts.height);
    // keyTimes are fractions of the loop; six decimals keep them increasing for up to a
    // million frames.
    let at = |k: usize| format!("{:.6}", k as f64 / n as f64);
    for (k, f) in frames.iter().enumerate() {
        let shown = if k == 0 { "visible" } else { "hidden" };
        writeln!(out, "<g data-frame=\"{k}\" visibility=\"{shown}\">").unwrap();
        if n > 1 {
            let (values, times) = if k == 0 {
                ("visible;hidden".to_string(), format!("0;{}", at(1)))
            } else if k + 1 == n {
                ("hidden;visible".to_string(), format!("0;{}", at(k)))
            } else {
                (
                    "hidden;visible;hidden".to_string(),
                    format!("0;{};{}", at(k), at(k + 1)),
                )
            };
            writeln!(
                out,
                "<animate attributeName=\"visibility\" values=\"{values}\" keyTimes=\"{times}\" dur=\"{dur:.6}s\" calcMode=\"discrete\" repeatCount=\"indefinite\"/>"
            )
            .unwrap();
        }
        picture(
            f,
            &cam,
            opts,
            (text_px(f64::from(opts.width)), None),
            &mut out,
        );
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    Ok(out)
}
