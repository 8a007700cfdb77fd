//! What the picture looks along ([`View`]) and how it is drawn ([`RenderOptions`]).

use nalgebra::Vector3;

use super::frame::invalid;
use crate::multibody::MultibodyError;

/// The direction of the (orthographic) projection. World `z` is up on screen in every view
/// but [`View::Top`].
///
/// | view | looks along | screen right | screen up | faces of an axis-aligned box seen |
/// |---|---|---|---|---|
/// | `Isometric` | `(-1, 1, -1)/√3` (from `+x`, `-y`, `+z`) | `(1, 1, 0)/√2` | `(-1, 1, 2)/√6` | `+x`, `-y`, `+z` |
/// | `Front` | `+y` (onto the `x-z` plane) | `+x` | `+z` | `-y` |
/// | `Side` | `-x` (onto the `y-z` plane) | `+y` | `+z` | `+x` |
/// | `Top` | `-z` (onto the `x-y` plane) | `+x` | `+y` | `+z` |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// The standard isometric view: every world axis foreshortened equally, `z` up.
    #[default]
    Isometric,
    /// Looking along `+y`: `x` to the right, `z` up.
    Front,
    /// Looking along `-x`: `y` to the right, `z` up.
    Side,
    /// Looking down along `-z`: `x` to the right, `y` up.
    Top,
}

impl View {
    /// The unit vectors `(right, up, forward)` of the view in world coordinates: screen
    /// right, screen up, and the direction the viewer looks along (into the picture).
    /// They form a right-handed frame: `right = forward × up`.
    pub fn axes(&self) -> (Vector3<f64>, Vector3<f64>, Vector3<f64>) {
        match self {
            View::Isometric => {
                let s2 = std::f64::consts::SQRT_2;
                let s3 = 3f64.sqrt();
                let s6 = 6f64.sqrt();
                (
                    Vector3::new(1.0 / s2, 1.0 / s2, 0.0),
                    Vector3::new(-1.0 / s6, 1.0 / s6, 2.0 / s6),
                    Vector3::new(-1.0 / s3, 1.0 / s3, -1.0 / s3),
                )
            }
            View::Front => (Vector3::x(), Vector3::z(), Vector3::y()),
            View::Side => (Vector3::y(), Vector3::z(), -Vector3::x()),
            View::Top => (Vector3::x(), Vector3::y(), -Vector3::z()),
        }
    }
}

/// How a picture is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderOptions {
    /// The projection (default [`View::Isometric`]).
    pub view: View,
    /// The width of one picture in pixels (default 800; `> 0`).
    pub width: u32,
    /// The height of one picture in pixels (default 600; `> 0`).
    pub height: u32,
    /// The world box `(lo, hi)` in m that the picture fits, or `None` (the default) to fit
    /// the outlines of the bodies of all the frames drawn together
    /// ([`Camera::fit`](super::Camera::fit)), so that an animation or a strip keeps one
    /// scale and does not jump. Given bounds must be finite with `lo < hi` in every
    /// coordinate.
    pub bounds: Option<(Vector3<f64>, Vector3<f64>)>,
    /// Body indices drawn in an accent colour (indices with no body are ignored).
    pub highlight: Vec<usize>,
    /// Print the frame's time (`t = 0.50 s`) in the caption, top left (default `true`).
    pub label: bool,
    /// A title printed at the start of the caption, before the time (default `None`):
    /// the scene's name, say.
    pub title: Option<String>,
    /// Draw a scale bar, top right: a bar of a round length (1, 2 or 5 times a power of
    /// ten metres, at most a quarter of the picture's width) with its length written
    /// beside it, such as `1 m` (default `true`).
    pub scale_bar: bool,
    /// Texts written on the scene (default none): each centred on the screen position of
    /// its world point (m), just above it, in [`text_px`](super::text_px) (a column's
    /// method above the column, say). Without `bounds`, the points enter the fit, and a
    /// line is kept for the text under the band.
    pub labels: Vec<(Vector3<f64>, String)>,
    /// For [`strip_svg`](super::strip_svg): one title per picture, in order, printed in
    /// place of [`RenderOptions::title`] (default none: every picture has `title`).
    pub titles: Vec<String>,
    /// For [`strip_svg`](super::strip_svg): pictures per row (default `None`: one row);
    /// the rows are filled left to right, top to bottom.
    pub columns: Option<usize>,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            view: View::Isometric,
            width: 800,
            height: 600,
            bounds: None,
            highlight: Vec::new(),
            label: true,
            title: None,
            scale_bar: true,
            labels: Vec::new(),
            titles: Vec::new(),
            columns: None,
        }
    }
}

impl RenderOptions {
    /// The caption of a frame at `time` (s): the title and the time (`t = 0.50 s`), as
    /// set, joined by a comma; empty when neither is set.
    pub fn caption(&self, time: f64) -> String {
        let t = self
            .label
            .then(|| format!("t = {} s", super::draw::num(time)));
        self.title
            .iter()
            .filter(|s| !s.is_empty())
            .cloned()
            .chain(t)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `true` when the picture keeps a band of [`LABEL_PX`](super::LABEL_PX) at the top:
    /// for a caption ([`RenderOptions::label`], [`RenderOptions::title`]) or a scale bar.
    pub fn has_band(&self) -> bool {
        self.label || self.title.is_some() || !self.titles.is_empty() || self.scale_bar
    }

    /// Checks the size (both `> 0`) and the bounds, if given (finite, `lo < hi`).
    ///
    /// # Errors
    /// [`MultibodyError::InvalidScene`].
    pub fn validate(&self) -> Result<(), MultibodyError> {
        if self.columns == Some(0) {
            return Err(invalid("a strip of 0 columns".into()));
        }
        if self.width == 0 || self.height == 0 {
            return Err(invalid(format!(
                "picture size {}x{} pixels: both must be positive",
                self.width, self.height
            )));
        }
        if let Some((lo, hi)) = &self.bounds {
            if !lo.iter().chain(hi.iter()).all(|v| v.is_finite()) {
                return Err(invalid("bounds are not finite".into()));
            }
            if (0..3).any(|k| lo[k] >= hi[k]) {
                return Err(invalid(format!(
                    "bounds ({}, {}, {})..({}, {}, {}) are empty in some coordinate",
                    lo.x, lo.y, lo.z, hi.x, hi.y, hi.z
                )));
            }
        }
        Ok(())
    }
}
