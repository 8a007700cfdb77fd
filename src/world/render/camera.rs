//! Fitting a picture: the world box to draw ([`auto_bounds`]) and the orthographic
//! [`Camera`] that maps it onto the pixels.

use nalgebra::Vector3;

use super::frame::{Frame, invalid};
use super::view::RenderOptions;
use crate::multibody::MultibodyError;

/// The empty border around a picture, in pixels.
pub const MARGIN_PX: f64 = 10.0;
/// The band at the top of a picture kept free for the time label, in pixels (only when
/// [`RenderOptions::label`] is set).
pub const LABEL_PX: f64 = 20.0;

/// The world box that a picture of `frames` fits: the union of every body's bounding box
/// ([`BodyPose::aabb`](super::BodyPose::aabb)) in every frame, and the ground when it is
/// near.
///
/// With `L` the largest side of the bodies' box: the ground is included when some frame
/// has one whose height is at most `L` below the lowest body (a world whose bodies fell
/// far through the floor, or start far above it, is not shrunk to a speck to show it).
/// Then the box grows by `L/5` on each side in `x` and `y`, so the ground shows as a
/// patch around the bodies, and reaches down to the bottom of the ground's slab (drawn a
/// twentieth of the patch's larger side thick).
///
/// # Errors
/// [`MultibodyError::InvalidScene`] for no frames, a frame that fails
/// [`Frame::validate`], or no body in any frame (nothing to fit).
pub fn auto_bounds(frames: &[Frame]) -> Result<(Vector3<f64>, Vector3<f64>), MultibodyError> {
    if frames.is_empty() {
        return Err(invalid("no frames to draw".into()));
    }
    let mut lo = Vector3::repeat(f64::INFINITY);
    let mut hi = Vector3::repeat(f64::NEG_INFINITY);
    for f in frames {
        f.validate()?;
        for b in &f.bodies {
            let (l, h) = b.aabb();
            lo = lo.inf(&l);
            hi = hi.sup(&h);
        }
    }
    if !(lo.x <= hi.x) {
        return Err(invalid(
            "no body in any frame and no bounds given: nothing to fit".into(),
        ));
    }
    let side = (hi - lo).max();
    let ground = frames
        .iter()
        .filter_map(|f| f.ground)
        .filter(|&g| g >= lo.z - side)
        .fold(None, |m: Option<f64>, g| Some(m.map_or(g, |m| m.min(g))));
    if let Some(g) = ground {
        let pad = side / 5.0;
        lo.x -= pad;
        lo.y -= pad;
        hi.x += pad;
        hi.y += pad;
        lo.z = lo.z.min(g - slab_thickness(lo, hi));
        hi.z = hi.z.max(g);
    }
    Ok((lo, hi))
}

/// The thickness of the ground slab drawn for the world box `(lo, hi)`: a twentieth of
/// its larger side in `x` and `y` (the ground patch), which does not change when
/// [`auto_bounds`] extends the box down to the ground.
pub(super) fn slab_thickness(lo: Vector3<f64>, hi: Vector3<f64>) -> f64 {
    (hi.x - lo.x).max(hi.y - lo.y) / 20.0
}

/// An orthographic camera: world points (m) to pixels (`x` right, `y` down, as in SVG),
/// and their depth along the view direction.
#[derive(Debug, Clone, PartialEq)]
pub struct Camera {
    right: Vector3<f64>,
    up: Vector3<f64>,
    forward: Vector3<f64>,
    scale: f64,
    centre: (f64, f64),
    pixel_centre: (f64, f64),
    bounds: (Vector3<f64>, Vector3<f64>),
}

impl Camera {
    /// The camera of `opts` for `frames`: the box `opts.bounds`, or [`auto_bounds`] of
    /// `frames`, projected along `opts.view` and scaled as large as fits
    /// `opts.width × opts.height` less a border of [`MARGIN_PX`] (and [`LABEL_PX`] at the top
    /// when labelled), centred, with the same scale across and up.
    ///
    /// # Errors
    /// [`MultibodyError::InvalidScene`] as [`RenderOptions::validate`] and
    /// [`auto_bounds`], and for a picture too small to leave room inside the border.
    pub fn fit(frames: &[Frame], opts: &RenderOptions) -> Result<Camera, MultibodyError> {
        opts.validate()?;
        if frames.is_empty() {
            return Err(invalid("no frames to draw".into()));
        }
        for f in frames {
            f.validate()?;
        }
        let (lo, hi) = match opts.bounds {
            Some(b) => b,
            None => auto_bounds(frames)?,
        };
        let (right, up, forward) = opts.view.axes();
        let (mut x0, mut x1, mut y0, mut y1) = (
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
        );
        for k in 0..8 {
            let p = Vector3::new(
                if k & 1 == 0 { lo.x } else { hi.x },
                if k & 2 == 0 { lo.y } else { hi.y },
                if k & 4 == 0 { lo.z } else { hi.z },
            );
            let (x, y) = (p.dot(&right), p.dot(&up));
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        let top = if opts.label { LABEL_PX } else { 0.0 };
        let avail_w = f64::from(opts.width) - 2.0 * MARGIN_PX;
        let avail_h = f64::from(opts.height) - 2.0 * MARGIN_PX - top;
        if avail_w <= 0.0 || avail_h <= 0.0 {
            return Err(invalid(format!(
                "picture size {}x{} pixels leaves no room inside the border",
                opts.width, opts.height
            )));
        }
        // x1 > x0 and y1 > y0: a box with positive sides never projects to a segment.
        let scale = (avail_w / (x1 - x0)).min(avail_h / (y1 - y0));
        if !scale.is_finite() || scale <= 0.0 {
            return Err(invalid(
                "the world box cannot be scaled to the picture".into(),
            ));
        }
        Ok(Camera {
            right,
            up,
            forward,
            scale,
            centre: ((x0 + x1) / 2.0, (y0 + y1) / 2.0),
            pixel_centre: (f64::from(opts.width) / 2.0, top + MARGIN_PX + avail_h / 2.0),
            bounds: (lo, hi),
        })
    }

    /// Pixels per m.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// The world box `(lo, hi)` the camera fits (m).
    pub fn bounds(&self) -> (Vector3<f64>, Vector3<f64>) {
        self.bounds
    }

    /// The unit vector the viewer looks along (into the picture).
    pub fn forward(&self) -> Vector3<f64> {
        self.forward
    }

    /// The pixel `(x, y)` of world point `p` (`x` to the right, `y` down).
    pub fn project(&self, p: &Vector3<f64>) -> (f64, f64) {
        (
            self.pixel_centre.0 + (p.dot(&self.right) - self.centre.0) * self.scale,
            self.pixel_centre.1 - (p.dot(&self.up) - self.centre.1) * self.scale,
        )
    }

    /// The distance of `p` along the view direction (m, up to a constant): larger is
    /// farther from the viewer.
    pub fn depth(&self, p: &Vector3<f64>) -> f64 {
        p.dot(&self.forward)
    }
}
