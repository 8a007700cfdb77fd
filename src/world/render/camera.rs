//! Fitting a picture: the world box of the bodies ([`auto_bounds`]) and the orthographic
//! [`Camera`] that maps the bodies' outlines onto the pixels.

use nalgebra::Vector3;

use super::frame::{BodyPose, Frame, invalid};
use super::view::RenderOptions;
use crate::multibody::MultibodyError;
use crate::world::Shape;

/// The empty border around a picture, in pixels.
pub const MARGIN_PX: f64 = 12.0;
/// The band at the top of a picture kept for the caption (title, time) and the scale
/// bar, in pixels, in a document up to [`TEXT_PX`]` / `[`TEXT_FRACTION`] wide: only when
/// one of them is drawn ([`RenderOptions::has_band`]). In a wider document it grows with
/// the text ([`band_px`]).
pub const LABEL_PX: f64 = 24.0;
/// The smallest size of the scale bar's text and of the labels, in pixels.
pub const TEXT_PX: f64 = 14.0;
/// The size of the text as a fraction of the document's width, when that is larger than
/// [`TEXT_PX`]: a picture shown 390 px wide (a phone) still reads its text at
/// `390 × 0.024 ≈ 9.4` px.
pub const TEXT_FRACTION: f64 = 0.024;

/// The size (px) of the scale bar's text and of the labels in an SVG document
/// `document_width` pixels wide (a strip's whole width): [`TEXT_FRACTION`] of the width,
/// at least [`TEXT_PX`]. The caption is 8/7 of it.
pub fn text_px(document_width: f64) -> f64 {
    (document_width * TEXT_FRACTION).max(TEXT_PX)
}

/// The height (px) of the band at the top for the caption and the scale bar in a document
/// `document_width` pixels wide: [`LABEL_PX`], grown in proportion to [`text_px`].
pub fn band_px(document_width: f64) -> f64 {
    LABEL_PX * text_px(document_width) / TEXT_PX
}

/// The world box that a picture of `frames` fits when no bounds are given: the union of
/// every body's bounding box ([`BodyPose::aabb`](super::BodyPose::aabb)) in every frame
/// (m). The ground does not enter it.
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
    Ok((lo, hi))
}

/// The extent `(x0, x1, y0, y1)` of body `b` along the screen axes `right` and `up` (m):
/// exact for every shape (a box's corners, a sphere's or a capsule's ends `± r`).
fn screen_extent(b: &BodyPose, right: &Vector3<f64>, up: &Vector3<f64>) -> [f64; 4] {
    let (points, r) = match b.shape {
        Shape::Box { half_extents: h } => {
            let corners = (0..8).map(|k| {
                let s = |bit: usize| if k & bit == 0 { -1.0 } else { 1.0 };
                b.position + b.orientation * Vector3::new(s(1) * h.x, s(2) * h.y, s(4) * h.z)
            });
            (corners.collect(), 0.0)
        }
        Shape::Sphere { radius } => (vec![b.position], radius),
        Shape::Capsule {
            half_height,
            radius,
        } => {
            let axis = b.orientation * Vector3::new(0.0, 0.0, half_height);
            (vec![b.position - axis, b.position + axis], radius)
        }
    };
    let mut e = [
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ];
    for p in points {
        let (x, y) = (p.dot(right), p.dot(up));
        e = [
            e[0].min(x - r),
            e[1].max(x + r),
            e[2].min(y - r),
            e[3].max(y + r),
        ];
    }
    e
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
    ground: (Vector3<f64>, Vector3<f64>),
}

impl Camera {
    /// The camera of `opts` for `frames`, projecting along `opts.view` with the same scale
    /// across and up, as large as fits `opts.width × opts.height` less a border of
    /// [`MARGIN_PX`] (and [`LABEL_PX`] at the top for the caption and scale bar), centred.
    ///
    /// What is fitted: the box `opts.bounds` if given, else the outlines of the bodies of
    /// all `frames` together (a box's corners, a sphere's disc, a capsule's stadium), so
    /// the scene fills the picture and an animation keeps one scale. The ground does not
    /// enter the fit: it is drawn as a patch around the bodies (their box grown by a fifth
    /// of its largest side in `x` and `y`) and cut at the picture's edge.
    ///
    /// # Errors
    /// [`MultibodyError::InvalidScene`] as [`RenderOptions::validate`] and
    /// [`auto_bounds`], and for a picture too small to leave room inside the border.
    pub fn fit(frames: &[Frame], opts: &RenderOptions) -> Result<Camera, MultibodyError> {
        Camera::fit_document(frames, opts, f64::from(opts.width))
    }

    /// As [`Camera::fit`], for a picture in a document `document_width` pixels wide (a
    /// strip's): the band at the top is [`band_px`] of that width, and a line of
    /// [`text_px`] is kept under it when there are [`RenderOptions::labels`].
    ///
    /// # Errors
    /// As [`Camera::fit`].
    pub fn fit_document(
        frames: &[Frame],
        opts: &RenderOptions,
        document_width: f64,
    ) -> Result<Camera, MultibodyError> {
        opts.validate()?;
        if frames.is_empty() {
            return Err(invalid("no frames to draw".into()));
        }
        for f in frames {
            f.validate()?;
        }
        let (right, up, forward) = opts.view.axes();
        let mut e = [
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        let mut grow = |b: [f64; 4]| {
            e = [
                e[0].min(b[0]),
                e[1].max(b[1]),
                e[2].min(b[2]),
                e[3].max(b[3]),
            ];
        };
        let (bounds, ground) = match opts.bounds {
            Some((lo, hi)) => {
                for k in 0..8 {
                    let p = Vector3::new(
                        if k & 1 == 0 { lo.x } else { hi.x },
                        if k & 2 == 0 { lo.y } else { hi.y },
                        if k & 4 == 0 { lo.z } else { hi.z },
                    );
                    let (x, y) = (p.dot(&right), p.dot(&up));
                    grow([x, x, y, y]);
                }
                ((lo, hi), (lo, hi))
            }
            None => {
                for b in frames.iter().flat_map(|f| &f.bodies) {
                    grow(screen_extent(b, &right, &up));
                }
                for (p, _) in &opts.labels {
                    let (x, y) = (p.dot(&right), p.dot(&up));
                    grow([x, x, y, y]);
                }
                let (lo, hi) = auto_bounds(frames)?;
                let side = (hi - lo).max();
                let pad = Vector3::new(side / 5.0, side / 5.0, 0.0);
                // Below: the ground is drawn when it is at most `side` under the bodies.
                let down = Vector3::new(0.0, 0.0, side);
                ((lo, hi), (lo - pad - down, hi + pad + down))
            }
        };
        let [x0, x1, y0, y1] = e;
        let band = if opts.has_band() {
            band_px(document_width)
        } else {
            0.0
        };
        let line = if opts.labels.is_empty() {
            0.0
        } else {
            1.3 * text_px(document_width)
        };
        let top = band + line;
        let avail_w = f64::from(opts.width) - 2.0 * MARGIN_PX;
        let avail_h = f64::from(opts.height) - 2.0 * MARGIN_PX - top;
        if avail_w <= 0.0 || avail_h <= 0.0 {
            return Err(invalid(format!(
                "picture size {}x{} pixels leaves no room inside the border",
                opts.width, opts.height
            )));
        }
        // x1 > x0 and y1 > y0: bodies and boxes of positive size never project to a segment.
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
            bounds,
            ground,
        })
    }

    /// Pixels per m.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// The world box `(lo, hi)` the camera fits (m): `opts.bounds`, or [`auto_bounds`].
    pub fn bounds(&self) -> (Vector3<f64>, Vector3<f64>) {
        self.bounds
    }

    /// The box `(lo, hi)` (m) the ground is drawn in: its `x-y` patch, and the heights
    /// `z` of a ground that is drawn.
    pub(super) fn ground_box(&self) -> (Vector3<f64>, Vector3<f64>) {
        self.ground
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

    /// A world point (m) that projects to pixel `(x, y)`: the line of sight through the
    /// pixel is this point plus multiples of [`Camera::forward`].
    pub(super) fn unproject(&self, (x, y): (f64, f64)) -> Vector3<f64> {
        let u = self.centre.0 + (x - self.pixel_centre.0) / self.scale;
        let v = self.centre.1 - (y - self.pixel_centre.1) / self.scale;
        u * self.right + v * self.up
    }

    /// The distance of `p` along the view direction (m, up to a constant): larger is
    /// farther from the viewer.
    pub fn depth(&self, p: &Vector3<f64>) -> f64 {
        p.dot(&self.forward)
    }
}
