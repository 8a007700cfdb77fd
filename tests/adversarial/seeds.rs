//! Small valid problems in every format the readers accept, written byte for byte here
//! (not by the crate's writers), so that the corpus does not change when a writer does.

/// `(relative path, bytes)` of one file of a seed.
pub type SeedFile = (String, Vec<u8>);

/// A valid problem in one format: its files and the path to give the command line.
#[derive(Debug, Clone)]
pub struct Seed {
    /// Short name (`siconos-lcp-dense`, ...).
    pub name: &'static str,
    /// The files, relative to the case folder.
    pub files: Vec<SeedFile>,
    /// The path given to the program, relative to the case folder (`.` for a folder).
    pub input: String,
    /// The problem type it holds (`lcp`, `boxed-lcp`, `fc3d`, `gfc3d`).
    pub ptype: &'static str,
}

fn f(path: &str, text: &str) -> SeedFile {
    (path.to_string(), text.as_bytes().to_vec())
}

/// Little-endian `float64` bytes.
pub fn f64_bytes(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Little-endian `int64` bytes.
pub fn i64_bytes(v: &[i64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A `.npy` file (format version 1.0) with the header dictionary `header` given verbatim
/// and the data bytes after it. The header is padded with spaces and a newline to a
/// multiple of 64 bytes, as `numpy.save` does.
pub fn npy_raw(header: &str, data: &[u8]) -> Vec<u8> {
    let mut h = header.as_bytes().to_vec();
    let unpadded = 10 + h.len() + 1;
    h.extend(std::iter::repeat_n(b' ', (64 - unpadded % 64) % 64));
    h.push(b'\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((h.len() as u16).to_le_bytes());
    out.extend(h);
    out.extend(data);
    out
}

/// The header `numpy.save` writes for a C-order array of `descr` and `shape`.
pub fn npy_header(descr: &str, fortran: bool, shape: &[usize]) -> String {
    let dims = match shape {
        [] => String::new(),
        [n] => format!("{n},"),
        _ => shape
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", "),
    };
    format!(
        "{{'descr': '{descr}', 'fortran_order': {}, 'shape': ({dims}), }}",
        if fortran { "True" } else { "False" }
    )
}

/// A `float64` array as `.npy` bytes (C order).
pub fn npy_f64(shape: &[usize], v: &[f64]) -> Vec<u8> {
    npy_raw(&npy_header("<f8", false, shape), &f64_bytes(v))
}

/// Every seed.
pub fn all() -> Vec<Seed> {
    vec![
        Seed {
            name: "siconos-lcp-dense",
            files: vec![f(
                "lcp_dense.dat",
                "2\n0\n2\n2\n2\t2\n2 1\n1 2\n-5 -6\n\nA free comment after q.\n",
            )],
            input: "lcp_dense.dat".into(),
            ptype: "lcp",
        },
        Seed {
            name: "siconos-lcp-sbm",
            files: vec![f(
                "lcp_sbm.dat",
                "2\n1\n2\n2\n2\n2\n2\n1\t2\n1\t2\n3\n2\n0\t1\t2\n0\t1\n0\n4.0\n1\n2.5e0\n-1 -1\n",
            )],
            input: "lcp_sbm.dat".into(),
            ptype: "lcp",
        },
        Seed {
            name: "siconos-fc3d-dense",
            files: vec![f(
                "fc3d_one.dat",
                "3\n1\n0\n3\n3\n3\n3\n10\n-1\n-2\n-1\n14\n1\n-2\n1\n16\n-1\n2\n3\n0.1\n",
            )],
            input: "fc3d_one.dat".into(),
            ptype: "fc3d",
        },
        Seed {
            name: "siconos-fc3d-sbm",
            files: vec![f(
                "fc3d_two.dat",
                "3\n2\n1\n6\n6\n3\n2\n2\n3 6\n3 6\n3\n3\n0 2 3\n0 1 1\n0\n2 0 0 0 2 0 0 0 2\n1\n\
                 -0.5 0 0 0 0 0 0 0 0\n2\n1 0 0 0 1 0 0 0 1\n-1 0.2 0 -1 0 0.3\n0.5 0.25\n",
            )],
            input: "fc3d_two.dat".into(),
            ptype: "fc3d",
        },
        Seed {
            name: "siconos-gfc3d-dense",
            files: vec![f(
                "gfc3d_dense.dat",
                "3 1\n0 3 3 3 3\n1 0 0 0 1 0 0 0 1\n0 3 3 3 3\n1 0 0 0 1 0 0 0 1\n0 0 -9.81e-3\n0 0 0\n0.3\n",
            )],
            input: "gfc3d_dense.dat".into(),
            ptype: "gfc3d",
        },
        Seed {
            name: "json-fc3d",
            files: vec![f(
                "fc.json",
                r#"{"format": "nonsmooth-problem", "version": 1, "name": "fc", "type": "fc3d", "law": "coulomb", "data": {"W": {"storage": "dense", "nrows": 3, "ncols": 3, "rows": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}, "q": [-1, 0.5, 0], "mu": [0.3]}, "answer": {"source": "seed", "r": [1, -0.3, 0]}}
"#,
            )],
            input: "fc.json".into(),
            ptype: "fc3d",
        },
        Seed {
            name: "json-boxed",
            files: vec![f(
                "box.json",
                r#"{"format": "nonsmooth-problem", "version": 1, "name": "box", "type": "boxed-lcp", "data": {"A": {"storage": "triplets", "nrows": 3, "ncols": 3, "entries": [[0, 0, 1], [1, 1, 1], [2, 2, 1]]}, "b": [-1, 0.5, 0], "lo": [0, null, null], "hi": [null, null, null], "dep": [-1, 0, 0], "factor": [0, 0.2, 0.2]}}
"#,
            )],
            input: "box.json".into(),
            ptype: "boxed-lcp",
        },
        Seed {
            name: "json-gfc3d",
            files: vec![f(
                "g.json",
                r#"{"format": "nonsmooth-problem", "version": 1, "name": "g", "type": "gfc3d", "data": {"M": {"storage": "triplets", "nrows": 3, "ncols": 3, "entries": [[0, 0, 1], [1, 1, 1], [2, 2, 1]]}, "H": {"storage": "dense", "nrows": 3, "ncols": 3, "rows": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}, "q": [0, 0, -1], "b": [0, 0, 0], "mu": [0.5]}}
"#,
            )],
            input: "g.json".into(),
            ptype: "gfc3d",
        },
        Seed {
            name: "mujoco-elliptic",
            files: vec![f(
                "mj.json",
                r#"{"name": "seed_elliptic", "source": {"engine": "MuJoCo", "version": "0.0-seed"}, "problem_type": "CCP", "n_contacts": 1, "dim": 3, "row_order": "[n,t1,t2]", "A": [[2, 0, 0], [0, 2, 0], [0, 0, 2]], "b": [-1, 0.5, 0], "mu": [0.5], "engine_solution": [0.5, -0.125, 0], "engine_solution_velocity": [0, 0.25, 0], "units": {"A": "1/kg", "b": "m/s^2", "timestep_s": 0.002}}
"#,
            )],
            input: "mj.json".into(),
            ptype: "fc3d",
        },
        Seed {
            name: "opentissue-boxed",
            files: vec![
                f("ot/A.dlm", "3 3 5\n0 0 2\n1 1 2\n2 2 2\n0 1 -1\n1 0 -1\n"),
                f("ot/b.dlm", "3\n0 -4.2\n2 1e-3\n"),
                f("ot/lo.dlm", "3\n0 0\n"),
                f(
                    "ot/hi.dlm",
                    "3\n0 1.79769313486232e+308\n1 1.79769313486232e+308\n2 1.79769313486232e+308\n",
                ),
                f("ot/dep.dlm", "3\n0 -1\n1 0\n2 0\n"),
                f("ot/factor.dlm", "3\n1 0.5\n2 0.5\n"),
            ],
            input: "ot".into(),
            ptype: "boxed-lcp",
        },
        Seed {
            name: "numpy-fc3d",
            files: vec![
                (
                    "np/W.npy".into(),
                    npy_f64(&[3, 3], &[2.0, 0.5, 0.0, 0.5, 1.0, 0.25, 0.0, 0.25, 3.0]),
                ),
                ("np/q.npy".into(), npy_f64(&[3], &[-1.0, 0.1, 0.3])),
                ("np/mu.npy".into(), npy_f64(&[1], &[0.4])),
                (
                    "np/meta.json".into(),
                    br#"{"name": "np", "law": "coulomb"}"#.to_vec(),
                ),
            ],
            input: "np".into(),
            ptype: "fc3d",
        },
        Seed {
            name: "numpy-lcp",
            files: vec![
                ("npl/A.npy".into(), npy_f64(&[2, 2], &[2.0, 1.0, 1.0, 2.0])),
                ("npl/b.npy".into(), npy_f64(&[2], &[-5.0, -6.0])),
            ],
            input: "npl".into(),
            ptype: "lcp",
        },
    ]
}
