//! The SVG renderer of the world (`nonsmooth::world::render`): geometry read back from the
//! SVG text, culling, painter's order, determinism, animation structure, bounds and
//! errors.

use nalgebra::{UnitQuaternion, Vector3};
use nonsmooth::multibody::MultibodyError;
use nonsmooth::world::render::{
    BodyPose, Camera, Frame, LABEL_PX, MARGIN_PX, RenderOptions, TEXT_FRACTION, TEXT_PX, View,
    animated_svg, auto_bounds, band_px, frame_svg, strip_svg, text_px,
};
use nonsmooth::world::{MaterialId, Shape, World};

fn pose(shape: Shape, x: f64, y: f64, z: f64) -> BodyPose {
    BodyPose {
        shape,
        position: Vector3::new(x, y, z),
        orientation: UnitQuaternion::identity(),
        fixed: false,
    }
}

fn frame(bodies: Vec<BodyPose>) -> Frame {
    Frame {
        time: 0.5,
        ground: None,
        bodies,
    }
}

/// The elements (one per line) whose text contains `needle`.
fn elements<'a>(svg: &'a str, needle: &str) -> Vec<&'a str> {
    svg.lines().filter(|l| l.contains(needle)).collect()
}

/// The value of attribute `name` of element `e`.
fn attr<'a>(e: &'a str, name: &str) -> &'a str {
    let key = format!(" {name}=\"");
    let start = e.find(&key).unwrap_or_else(|| panic!("no {name} in {e}")) + key.len();
    let len = e[start..].find('"').unwrap();
    &e[start..start + len]
}

fn points(e: &str) -> Vec<(f64, f64)> {
    attr(e, "points")
        .split(' ')
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

fn extent(pts: &[(f64, f64)]) -> (f64, f64, f64, f64) {
    let f =
        |g: fn(&(f64, f64)) -> f64, m: fn(f64, f64) -> f64, init| pts.iter().map(g).fold(init, m);
    (
        f(|p| p.0, f64::min, f64::INFINITY),
        f(|p| p.0, f64::max, f64::NEG_INFINITY),
        f(|p| p.1, f64::min, f64::INFINITY),
        f(|p| p.1, f64::max, f64::NEG_INFINITY),
    )
}

/// Two decimals in the SVG: a coordinate is within 0.005 px, a difference within 0.01 px.
const PX: f64 = 0.0101;

#[test]
fn a_box_seen_from_the_front_is_a_rectangle_of_its_size() {
    let b = pose(Shape::cuboid(0.5, 0.3, 0.2).unwrap(), 0.0, 0.0, 0.2);
    let opts = RenderOptions {
        view: View::Front,
        width: 400,
        height: 300,
        bounds: Some((Vector3::new(-2.0, -1.0, 0.0), Vector3::new(2.0, 1.0, 3.0))),
        label: false,
        scale_bar: false,
        ..Default::default()
    };
    let f = frame(vec![b]);
    // The box (-2..2) x (0..3) fills 380 x 280 pixels inside the border: 95 or 93.3 px/m.
    let scale = ((400.0 - 2.0 * MARGIN_PX) / 4.0).min((300.0 - 2.0 * MARGIN_PX) / 3.0);
    let cam = Camera::fit(std::slice::from_ref(&f), &opts).unwrap();
    assert!((cam.scale() - scale).abs() < 1e-12);
    let svg = frame_svg(&f, &opts).unwrap();
    let faces = elements(&svg, "data-face=");
    assert_eq!(faces.len(), 1);
    let pts = points(faces[0]);
    assert_eq!(pts.len(), 4);
    let (x0, x1, y0, y1) = extent(&pts);
    assert!((x1 - x0 - 1.0 * scale).abs() < PX, "width {}", x1 - x0);
    assert!((y1 - y0 - 0.4 * scale).abs() < PX, "height {}", y1 - y0);
    // Every corner is a corner of that rectangle (axis-aligned on screen).
    for (x, y) in &pts {
        assert!((x - x0).abs() < PX || (x - x1).abs() < PX);
        assert!((y - y0).abs() < PX || (y - y1).abs() < PX);
    }
    // Centred across; z up: the bottom z = 0 at the bottom border, the top z = 0.4 above.
    assert!(((x0 + x1) / 2.0 - 200.0).abs() < PX);
    assert!((y1 - (300.0 - MARGIN_PX)).abs() < PX);
    assert!((y0 - (300.0 - MARGIN_PX - 0.4 * scale)).abs() < PX);
}

#[test]
fn a_sphere_is_a_disc_of_its_radius() {
    let f = frame(vec![pose(Shape::sphere(0.3).unwrap(), 1.0, 2.0, 3.0)]);
    for view in [View::Isometric, View::Front, View::Side, View::Top] {
        let opts = RenderOptions {
            view,
            ..Default::default()
        };
        let svg = frame_svg(&f, &opts).unwrap();
        let discs: Vec<_> = elements(&svg, "<circle")
            .into_iter()
            .filter(|e| !e.contains("data-mark"))
            .collect();
        assert_eq!(discs.len(), 1, "{view:?}");
        let r: f64 = attr(discs[0], "r").parse().unwrap();
        let scale = Camera::fit(std::slice::from_ref(&f), &opts)
            .unwrap()
            .scale();
        assert!((r - 0.3 * scale).abs() < PX / 2.0, "{view:?}: {r}");
        // Alone, its disc fills the height below the band in every view.
        let fit = (600.0 - 2.0 * MARGIN_PX - band_px(800.0)) / 0.6;
        assert!((scale - fit).abs() < 1e-9, "{view:?}");
        assert!((r - 0.5 * (600.0 - 2.0 * MARGIN_PX - band_px(800.0))).abs() < PX / 2.0);
    }
}

#[test]
fn a_lying_capsule_from_the_front_is_a_stadium() {
    let lying = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), std::f64::consts::FRAC_PI_2);
    let f = frame(vec![BodyPose {
        orientation: lying,
        ..pose(Shape::capsule(0.4, 0.1).unwrap(), 0.0, 0.0, 0.1)
    }]);
    let opts = RenderOptions {
        view: View::Front,
        ..Default::default()
    };
    let scale = Camera::fit(std::slice::from_ref(&f), &opts)
        .unwrap()
        .scale();
    let svg = frame_svg(&f, &opts).unwrap();
    let paths = elements(&svg, "<path data-body");
    assert_eq!(paths.len(), 1);
    // M p1+n L p2+n A r,r 0 0 0 p2-n L p1-n A r,r 0 0 0 p1+n Z
    let d = attr(paths[0], "d");
    let nums: Vec<f64> = d
        .split(|c: char| c == ' ' || c == ',' || c.is_ascii_alphabetic())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(nums.len(), 2 + 2 + 7 + 2 + 7);
    let corners = [
        (nums[0], nums[1]),
        (nums[2], nums[3]),
        (nums[9], nums[10]),
        (nums[11], nums[12]),
    ];
    let (x0, x1, y0, y1) = extent(&corners);
    // The band between the end centres (2 half heights long) is 2 r wide.
    assert!((x1 - x0 - 0.8 * scale).abs() < PX);
    assert!((y1 - y0 - 0.2 * scale).abs() < PX);
    assert!((nums[4] - 0.1 * scale).abs() < PX / 2.0 && nums[4] == nums[5]);
}

#[test]
fn culling_keeps_the_faces_that_face_the_viewer() {
    let f = frame(vec![pose(
        Shape::cuboid(0.5, 0.4, 0.3).unwrap(),
        0.0,
        0.0,
        1.0,
    )]);
    for (view, seen) in [
        (View::Isometric, vec!["+x", "-y", "+z"]),
        (View::Front, vec!["-y"]),
        (View::Side, vec!["+x"]),
        (View::Top, vec!["+z"]),
    ] {
        let svg = frame_svg(
            &f,
            &RenderOptions {
                view,
                ..Default::default()
            },
        )
        .unwrap();
        let mut faces: Vec<_> = elements(&svg, "data-face=")
            .iter()
            .map(|e| attr(e, "data-face"))
            .collect();
        faces.sort();
        let mut seen = seen;
        seen.sort();
        assert_eq!(faces, seen, "{view:?}");
    }
}

#[test]
fn the_nearer_box_is_drawn_later() {
    let cube = Shape::cuboid(0.5, 0.5, 0.5).unwrap();
    // Body 0 is in front in both views (smaller y for Front; towards +x -y +z for
    // Isometric), so index order alone would draw it first.
    let f = frame(vec![pose(cube, 0.3, -1.5, 0.5), pose(cube, 0.0, 0.0, 0.5)]);
    for view in [View::Front, View::Isometric] {
        let svg = frame_svg(
            &f,
            &RenderOptions {
                view,
                ..Default::default()
            },
        )
        .unwrap();
        let near = svg.find("data-body=\"0\"").unwrap();
        let far_last = svg.rfind("data-body=\"1\"").unwrap();
        assert!(
            far_last < near,
            "{view:?}: the far box must be finished first"
        );
    }
}

/// `true` when every element of body `a` comes before every element of body `b`.
fn painted_before(svg: &str, a: usize, b: usize) -> bool {
    let last_a = svg.rfind(&format!("data-body=\"{a}\"")).unwrap();
    let first_b = svg.find(&format!("data-body=\"{b}\"")).unwrap();
    last_a < first_b
}

#[test]
fn a_body_behind_a_near_wall_is_painted_first() {
    // A bin of four fixed walls on the ground (front y < 0, back, left, right) and a
    // small box just behind the front wall, near its right end: the box's centre is
    // nearer the isometric viewer than the long wall's centre, but the wall hides it.
    let wall = |hx, hy, x, y| BodyPose {
        fixed: true,
        ..pose(Shape::cuboid(hx, hy, 0.5).unwrap(), x, y, 0.5)
    };
    let small = pose(Shape::cuboid(0.1, 0.1, 0.1).unwrap(), 1.5, -0.7, 0.1);
    let bin = Frame {
        ground: Some(0.0),
        ..frame(vec![
            wall(2.1, 0.1, 0.0, -1.0),
            wall(2.1, 0.1, 0.0, 1.0),
            wall(0.1, 0.9, -2.0, 0.0),
            wall(0.1, 0.9, 2.0, 0.0),
            small,
        ])
    };
    for view in [View::Isometric, View::Front] {
        let opts = RenderOptions {
            view,
            ..Default::default()
        };
        let svg = frame_svg(&bin, &opts).unwrap();
        assert!(
            painted_before(&svg, 4, 0),
            "{view:?}: the front wall hides the box"
        );
        assert!(
            painted_before(&svg, 1, 4),
            "{view:?}: the back wall is behind it"
        );
    }
    // A box on a big slab, at the slab's far corner: the slab's centre is nearer.
    let slab = BodyPose {
        fixed: true,
        ..pose(Shape::cuboid(5.0, 5.0, 0.1).unwrap(), 0.0, 0.0, -0.1)
    };
    let far = pose(Shape::cuboid(0.2, 0.2, 0.2).unwrap(), -4.0, 4.0, 0.2);
    let svg = frame_svg(&frame(vec![far, slab]), &RenderOptions::default()).unwrap();
    assert!(painted_before(&svg, 1, 0), "the box stands on the slab");
}

#[test]
fn the_bodies_fill_the_picture_and_the_ground_does_not_frame_it() {
    let cube = Shape::cuboid(0.5, 0.5, 0.5).unwrap();
    let two = |ground| Frame {
        ground,
        ..frame(vec![pose(cube, 0.0, 0.0, 0.5), pose(cube, 3.0, 0.0, 0.5)])
    };
    for view in [View::Isometric, View::Front, View::Side, View::Top] {
        let opts = RenderOptions {
            view,
            ..Default::default()
        };
        let fit = |g| Camera::fit(&[two(g)], &opts).unwrap().scale();
        assert_eq!(fit(Some(0.0)), fit(None), "{view:?}");
        assert_eq!(fit(Some(-100.0)), fit(None), "{view:?}");
        // The boxes' faces reach the border on two opposite sides.
        let svg = frame_svg(&two(Some(0.0)), &opts).unwrap();
        let pts: Vec<_> = elements(&svg, "data-body=")
            .iter()
            .flat_map(|e| points(e))
            .collect();
        let (x0, x1, y0, y1) = extent(&pts);
        let across = (x0 - MARGIN_PX).abs() < PX && (x1 - (800.0 - MARGIN_PX)).abs() < PX;
        let down =
            (y0 - MARGIN_PX - band_px(800.0)).abs() < PX && (y1 - (600.0 - MARGIN_PX)).abs() < PX;
        assert!(across || down, "{view:?}: {x0} {x1} {y0} {y1}");
    }
}

#[test]
fn the_band_has_a_caption_and_a_scale_bar() {
    let f = frame(vec![pose(
        Shape::cuboid(0.5, 0.5, 0.5).unwrap(),
        0.0,
        0.0,
        0.5,
    )]);
    let opts = RenderOptions {
        view: View::Front,
        title: Some("pile <3>".into()),
        ..Default::default()
    };
    let svg = frame_svg(&f, &opts).unwrap();
    let caption = elements(&svg, "class=\"caption\"");
    assert_eq!(caption.len(), 1);
    assert!(caption[0].contains(">pile &lt;3&gt;, t = 0.50 s</text>"));
    // The 1 m cube fills the 545 px below the band (of 24 px grown by 800 × 0.024 / 14);
    // a quarter of the 776 px inside the border is 0.36 m, so the bar is 0.2 m long.
    assert!((band_px(800.0) - LABEL_PX * 800.0 * TEXT_FRACTION / TEXT_PX).abs() < 1e-12);
    let scale = Camera::fit(std::slice::from_ref(&f), &opts)
        .unwrap()
        .scale();
    assert!((scale - (600.0 - 2.0 * MARGIN_PX - band_px(800.0))).abs() < 1e-9);
    assert!(svg.contains("data-length=\"0.2\"") && svg.contains(">0.2 m</text>"));
    let bar = elements(&svg, "stroke=\"#333333\"")[0];
    let d: Vec<f64> = attr(bar, "d")
        .split(|c: char| c == ',' || c.is_ascii_alphabetic() || c == ' ')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    // M x0,y V y H x1 V y-5: the bar is d[3] - d[0] pixels long, ending at the border.
    assert!((d[3] - d[0] - 0.2 * scale).abs() < PX);
    assert!((d[3] - (800.0 - MARGIN_PX)).abs() < PX);
    // Text is at least 14 px, and reads at 9 px or more when the picture is shown 390 px
    // wide.
    for e in elements(&svg, "<text") {
        let size: f64 = attr(e, "font-size").parse().unwrap();
        assert!(size >= 14.0 && size * 390.0 / 800.0 >= 9.0, "{e}");
    }
    // Nothing to print: no band, and the cube fills the whole height.
    let bare = RenderOptions {
        label: false,
        scale_bar: false,
        title: None,
        ..opts
    };
    let svg = frame_svg(&f, &bare).unwrap();
    assert!(!svg.contains("<text") && !svg.contains("scale-bar"));
    let scale = Camera::fit(std::slice::from_ref(&f), &bare)
        .unwrap()
        .scale();
    assert!((scale - (600.0 - 2.0 * MARGIN_PX)).abs() < 1e-9);
}

fn mixed_frame(t: f64) -> Frame {
    let q = UnitQuaternion::from_euler_angles(0.3 * t, 0.7, 1.1 * t);
    let mut bodies = vec![
        pose(Shape::cuboid(0.5, 0.3, 0.2).unwrap(), 0.0, 0.0, 0.2),
        pose(Shape::sphere(0.25).unwrap(), 1.0, 0.5, 2.0 - t),
        pose(Shape::capsule(0.4, 0.15).unwrap(), -1.0, 0.2, 0.6),
        pose(Shape::cuboid(2.0, 0.1, 1.0).unwrap(), 0.0, 2.0, 1.0),
    ];
    for b in &mut bodies[1..3] {
        b.orientation = q;
    }
    bodies[3].fixed = true;
    Frame {
        time: t,
        ground: Some(0.0),
        bodies,
    }
}

#[test]
fn the_same_frame_renders_byte_identically() {
    let f = mixed_frame(0.7);
    for view in [View::Isometric, View::Front, View::Side, View::Top] {
        let opts = RenderOptions {
            view,
            highlight: vec![2],
            ..Default::default()
        };
        let a = frame_svg(&f, &opts).unwrap();
        let b = frame_svg(&f.clone(), &opts.clone()).unwrap();
        assert_eq!(a, b);
        assert!(a.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(a.contains("viewBox=\"0 0 800 600\"") && a.ends_with("</svg>\n"));
        assert!(a.contains("t = 0.70 s"));
        // No number has more than two decimals.
        assert!(!a.contains(".000"));
    }
}

#[test]
fn fixed_bodies_are_grey_and_highlighted_ones_stand_out() {
    let f = mixed_frame(0.0);
    let opts = RenderOptions {
        view: View::Front,
        highlight: vec![0],
        ..Default::default()
    };
    let svg = frame_svg(&f, &opts).unwrap();
    let fill = |body: usize| {
        let e = elements(&svg, &format!("data-body=\"{body}\" data-face"))[0];
        attr(e, "fill").to_string()
    };
    let grey = fill(3);
    assert!(
        grey[1..3] == grey[3..5] && grey[3..5] == grey[5..7],
        "{grey}"
    );
    let plain = frame_svg(
        &f,
        &RenderOptions {
            highlight: vec![],
            ..opts
        },
    )
    .unwrap();
    assert_ne!(svg, plain);
    assert_ne!(fill(0), grey);
}

#[test]
fn an_animation_has_one_group_per_frame_and_shows_the_first() {
    let frames: Vec<Frame> = (0..7).map(|k| mixed_frame(0.1 * k as f64)).collect();
    let svg = animated_svg(&frames, &RenderOptions::default(), 0.1).unwrap();
    let groups = elements(&svg, "<g data-frame=");
    assert_eq!(groups.len(), 7);
    assert!(groups[0].contains("visibility=\"visible\""));
    assert!(
        groups[1..]
            .iter()
            .all(|g| g.contains("visibility=\"hidden\""))
    );
    let anims = elements(&svg, "<animate ");
    assert_eq!(anims.len(), 7);
    for a in &anims {
        assert!(a.contains("calcMode=\"discrete\"") && a.contains("repeatCount=\"indefinite\""));
        assert!(a.contains("dur=\"0.700000s\""));
    }
    // Frame 3 shows from 3/7 to 4/7 of the loop.
    assert!(anims[3].contains("keyTimes=\"0;0.428571;0.571429\""));
    assert_eq!(svg.matches("t = 0.30 s").count(), 1);
    // One frame: no animation at all.
    let one = animated_svg(&frames[..1], &RenderOptions::default(), 0.1).unwrap();
    assert!(!one.contains("<animate"));
}

#[test]
fn a_strip_puts_the_frames_side_by_side() {
    let frames: Vec<Frame> = (0..3).map(|k| mixed_frame(0.5 * k as f64)).collect();
    let svg = strip_svg(&frames, &RenderOptions::default()).unwrap();
    assert!(svg.contains("viewBox=\"0 0 2400 600\""));
    assert_eq!(elements(&svg, "<g data-frame=").len(), 3);
    assert!(svg.contains("translate(1600,0)"));
    // Each picture is cut at its edge, and has its own scale bar.
    assert_eq!(svg.matches("clip-path=\"url(#panel)\"").count(), 3);
    assert_eq!(svg.matches("class=\"scale-bar\"").count(), 3);
    for t in ["t = 0.00 s", "t = 0.50 s", "t = 1.00 s"] {
        assert_eq!(svg.matches(t).count(), 1);
    }
    // The text is sized for the whole strip: 2400 px wide, shown 390 px wide, reads 9 px.
    for e in elements(&svg, "<text") {
        let size: f64 = attr(e, "font-size").parse().unwrap();
        assert!(size * 390.0 / 2400.0 >= 9.0, "{e}");
    }
}

#[test]
fn a_strip_in_rows_with_titles_and_labels() {
    let frames: Vec<Frame> = (0..3).map(|k| mixed_frame(0.5 * k as f64)).collect();
    let opts = RenderOptions {
        width: 300,
        height: 200,
        columns: Some(2),
        label: false,
        titles: vec!["first".into(), "second".into(), "third".into()],
        labels: vec![(Vector3::new(0.0, 0.0, 3.0), "on the scene".into())],
        ..Default::default()
    };
    let svg = strip_svg(&frames, &opts).unwrap();
    // Two columns, two rows; the third picture starts the second row.
    assert!(svg.contains("viewBox=\"0 0 600 400\""));
    assert!(svg.contains("translate(300,0)") && svg.contains("translate(0,200)"));
    for t in ["first", "second", "third"] {
        assert_eq!(svg.matches(&format!(">{t}</text>")).count(), 1);
    }
    // The label, once a picture, at the text size of a 600 px document.
    let labels = elements(&svg, "class=\"label\"");
    assert_eq!(labels.len(), 3);
    let size: f64 = attr(labels[0], "font-size").parse().unwrap();
    assert!((size - text_px(600.0)).abs() < 0.01);
    assert!(labels[0].contains("text-anchor=\"middle\""));
    // No columns is an error, not a panic.
    let zero = RenderOptions {
        columns: Some(0),
        ..opts
    };
    assert!(strip_svg(&frames, &zero).is_err());
}

#[test]
fn auto_bounds_hold_every_body_of_every_frame() {
    let frames: Vec<Frame> = (0..20).map(|k| mixed_frame(0.1 * k as f64)).collect();
    let (lo, hi) = auto_bounds(&frames).unwrap();
    for view in [View::Isometric, View::Front, View::Side, View::Top] {
        let opts = RenderOptions {
            view,
            ..Default::default()
        };
        let cam = Camera::fit(&frames, &opts).unwrap();
        for f in &frames {
            for b in &f.bodies {
                let (l, h) = b.aabb();
                assert!((0..3).all(|k| lo[k] <= l[k] && h[k] <= hi[k]));
                // And on screen, inside the picture's border.
                for k in 0..8 {
                    let p = Vector3::new(
                        if k & 1 == 0 { l.x } else { h.x },
                        if k & 2 == 0 { l.y } else { h.y },
                        if k & 4 == 0 { l.z } else { h.z },
                    );
                    // Box corners are on the body only for boxes.
                    if !matches!(b.shape, Shape::Box { .. }) {
                        continue;
                    }
                    let (x, y) = cam.project(&p);
                    let m = MARGIN_PX - 1e-9;
                    assert!(x >= m && x <= 800.0 - m, "{view:?} x {x}");
                    assert!(y >= m + band_px(800.0) && y <= 600.0 - m, "{view:?} y {y}");
                }
            }
        }
    }
    // The ground does not enter the box.
    let floating: Vec<Frame> = frames
        .iter()
        .map(|f| Frame {
            ground: None,
            ..f.clone()
        })
        .collect();
    assert_eq!(auto_bounds(&floating).unwrap(), (lo, hi));
}

#[test]
fn a_world_snapshot_copies_the_poses() {
    let mut world = World::new();
    let cube = Shape::cuboid(0.5, 0.5, 0.5).unwrap();
    let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 0.5);
    world
        .add(
            cube,
            1000.0,
            Vector3::new(1.0, 2.0, 0.5),
            q,
            MaterialId::default(),
        )
        .unwrap();
    world
        .add_fixed(cube, Vector3::new(3.0, 0.0, 0.5), q, MaterialId::default())
        .unwrap();
    let f = Frame::of(&world, 1.25);
    assert_eq!(f.time, 1.25);
    assert_eq!(f.ground, Some(0.0));
    assert_eq!(f.bodies.len(), 2);
    assert_eq!(f.bodies[0].position, Vector3::new(1.0, 2.0, 0.5));
    assert_eq!(f.bodies[0].orientation, q);
    assert_eq!(f.bodies[0].shape, cube);
    assert!(!f.bodies[0].fixed && f.bodies[1].fixed);
}

fn invalid<T: std::fmt::Debug>(r: Result<T, MultibodyError>) -> bool {
    matches!(r, Err(MultibodyError::InvalidScene { .. }))
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let opts = RenderOptions::default();
    let good = mixed_frame(0.0);
    assert!(invalid(strip_svg(&[], &opts)));
    assert!(invalid(animated_svg(&[], &opts, 0.1)));
    assert!(invalid(auto_bounds(&[])));
    for (w, h) in [(0, 360), (480, 0), (0, 0)] {
        let o = RenderOptions {
            width: w,
            height: h,
            ..Default::default()
        };
        assert!(invalid(frame_svg(&good, &o)));
        assert!(invalid(animated_svg(std::slice::from_ref(&good), &o, 0.1)));
    }
    // Too small to leave room inside the border.
    let tiny = RenderOptions {
        width: 20,
        height: 20,
        ..Default::default()
    };
    assert!(invalid(frame_svg(&good, &tiny)));
    let mut nan = good.clone();
    nan.bodies[1].position.y = f64::NAN;
    assert!(invalid(frame_svg(&nan, &opts)));
    // A bad frame anywhere in an animation.
    assert!(invalid(animated_svg(&[good.clone(), nan], &opts, 0.1)));
    let mut inf = good.clone();
    inf.ground = Some(f64::INFINITY);
    assert!(invalid(frame_svg(&inf, &opts)));
    let mut inf = good.clone();
    inf.time = f64::NAN;
    assert!(invalid(frame_svg(&inf, &opts)));
    let mut bad_shape = good.clone();
    bad_shape.bodies[0].shape = Shape::Sphere { radius: -1.0 };
    assert!(invalid(frame_svg(&bad_shape, &opts)));
    let mut bad_q = good.clone();
    bad_q.bodies[0].orientation =
        UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(f64::NAN, 0.0, 0.0, 0.0));
    assert!(invalid(frame_svg(&bad_q, &opts)));
    for spf in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e-9] {
        assert!(invalid(animated_svg(
            std::slice::from_ref(&good),
            &opts,
            spf
        )));
    }
    for bounds in [
        (Vector3::zeros(), Vector3::zeros()),
        (Vector3::repeat(1.0), Vector3::zeros()),
        (Vector3::zeros(), Vector3::new(1.0, f64::NAN, 1.0)),
    ] {
        let o = RenderOptions {
            bounds: Some(bounds),
            ..Default::default()
        };
        assert!(invalid(frame_svg(&good, &o)));
    }
    // Nothing to fit: no bodies and no bounds; with bounds the empty world draws.
    let empty = Frame {
        time: 0.0,
        ground: Some(0.0),
        bodies: vec![],
    };
    assert!(invalid(frame_svg(&empty, &opts)));
    let o = RenderOptions {
        bounds: Some((Vector3::repeat(-1.0), Vector3::repeat(1.0))),
        ..Default::default()
    };
    assert!(frame_svg(&empty, &o).unwrap().contains("class=\"ground\""));
    // Highlighting a body that does not exist is no error.
    let o = RenderOptions {
        highlight: vec![99],
        ..Default::default()
    };
    assert!(frame_svg(&good, &o).is_ok());
}
