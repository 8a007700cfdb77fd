//! Generators for the documents the program reads besides problems (issue 28): scene
//! files (`simulate`), campaign JSON Lines (`bench profile`, `bench ratios`,
//! `bench merge`) and trajectory JSON Lines (`check`).
//!
//! Each starts from a valid document and damages it one place at a time: every number
//! replaced by values out of any range (1e308, -1e308, 5e-324, 0, -1), every value by
//! one of the wrong type, every key removed, given twice, and joined by an unknown key,
//! every array shortened and lengthened, the text cut short; for JSON Lines also blank,
//! cut, foreign and doubled lines. A damaged document may still be valid (a velocity of
//! -1 m/s is a velocity); the case then accepts exit status 0. Otherwise it requires
//! status 1 and a message that names the file and the place of the damage.

use serde_json::{Map, Value};

use super::args::ArgCase;

/// One step of a path into a JSON document.
#[derive(Debug, Clone)]
enum Seg {
    Key(String),
    Index(usize),
}

/// A valid scene with every kind of key the reader knows.
const SCENE: &str = r#"{
  "gravity": [0, 0, -9.81],
  "ground": {"height": 0, "material": "rough"},
  "margin": 0.001,
  "materials": [
    {"name": "rough", "friction": 0.8, "restitution": 0},
    {"name": "ice", "friction": 0.05, "restitution": 0.2}
  ],
  "pairs": [{"a": "rough", "b": "ice", "friction": 0.3, "restitution": 0.1}],
  "bodies": [
    {"shape": {"box": [0.5, 0.4, 0.3]}, "position": [0, 0, 0.3], "density": 500,
     "material": "ice", "velocity": [0.1, 0, 0], "angular_velocity": [0, 0, 0.2]},
    {"shape": {"sphere": 0.25}, "position": [0.2, 0, 0.9], "mass": 2,
     "orientation": [1, 0, 0, 0], "force": [0, 0, 1], "torque": [0, 0.1, 0]},
    {"shape": {"capsule": {"half_height": 0.3, "radius": 0.1}}, "position": [1.5, 0, 0.5],
     "axis_angle": [1, 0, 0, 1.5707963], "mass": 1},
    {"shape": {"box": [2, 2, 0.1]}, "position": [3, 0, 0.1], "mass": 10, "fixed": true}
  ]
}"#;

/// Two records of a campaign: one converged, one refused.
const CAMPAIGN: &str = r#"{"problem":"probs/a.dat","solver":"nsgs","contacts":20,"tol":1e-8,"seconds":0.0065,"status":"converged","iterations":100,"error":5e-9,"repeat":5,"timeout":null,"message":null}
{"problem":"probs/a.dat","solver":"psor","contacts":20,"tol":1e-8,"seconds":null,"status":"invalid","iterations":null,"error":null,"repeat":5,"timeout":null,"message":"unsupported problem"}
"#;

/// One step of a trajectory: a one-contact problem with the engine's answer.
const STEP: &str = r#"{"format": "nonsmooth-problem", "version": 1, "name": "step", "type": "fc3d", "law": "coulomb", "data": {"W": {"storage": "dense", "nrows": 3, "ncols": 3, "rows": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}, "q": [-1, 0.5, 0], "mu": [0.3]}, "answer": {"source": "engine", "r": [1, -0.3, 0]}}"#;

/// Every generated case.
pub fn all() -> Vec<ArgCase> {
    let mut v = scene_cases();
    v.extend(campaign_cases());
    v.extend(trajectory_cases());
    v
}

fn case(
    name: String,
    file: &str,
    content: Vec<u8>,
    args: &str,
    valid_possible: bool,
    mentions: Vec<String>,
) -> ArgCase {
    ArgCase {
        name,
        why: "issue 28: generated damage of a document".to_string(),
        files: vec![(file.to_string(), content)],
        also: if valid_possible { vec![0] } else { Vec::new() },
        verdict: false,
        pre: Vec::new(),
        args: args.split_whitespace().map(String::from).collect(),
        exit: 1,
        mentions,
        post: Vec::new(),
        head: None,
    }
}

// ---------------------------------------------------------------------------------------
// Damage to one JSON document.

/// One damaged copy of a document: a name for the damage, the text, whether the result
/// may still be valid, and the path of the damage.
struct Damage {
    name: String,
    text: String,
    valid_possible: bool,
    path: Vec<Seg>,
}

fn path_name(path: &[Seg]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Seg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    if s.is_empty() { "top".into() } else { s }
}

fn get_mut<'a>(v: &'a mut Value, path: &[Seg]) -> &'a mut Value {
    path.iter().fold(v, |v, seg| match seg {
        Seg::Key(k) => &mut v[k.as_str()],
        Seg::Index(i) => &mut v[*i],
    })
}

/// Every path of `v`, the root included.
fn paths(v: &Value, here: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
    out.push(here.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                here.push(Seg::Key(k.clone()));
                paths(x, here, out);
                here.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                here.push(Seg::Index(i));
                paths(x, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

/// The text of `v` with the first key of the object at `dup` written twice.
fn with_duplicate(v: &Value, dup: &[Seg], here: &mut Vec<Seg>) -> String {
    match v {
        Value::Object(m) => {
            let mut parts: Vec<String> = Vec::new();
            for (i, (k, x)) in m.iter().enumerate() {
                here.push(Seg::Key(k.clone()));
                let item = format!(
                    "{}: {}",
                    Value::String(k.clone()),
                    with_duplicate(x, dup, here)
                );
                here.pop();
                if i == 0 && same(here, dup) {
                    parts.push(item.clone());
                }
                parts.push(item);
            }
            format!("{{{}}}", parts.join(", "))
        }
        Value::Array(a) => {
            let mut parts = Vec::new();
            for (i, x) in a.iter().enumerate() {
                here.push(Seg::Index(i));
                parts.push(with_duplicate(x, dup, here));
                here.pop();
            }
            format!("[{}]", parts.join(", "))
        }
        x => x.to_string(),
    }
}

fn same(a: &[Seg], b: &[Seg]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (Seg::Key(p), Seg::Key(q)) => p == q,
            (Seg::Index(p), Seg::Index(q)) => p == q,
            _ => false,
        })
}

/// Every single damage of `base`.
fn damages(base: &Value) -> Vec<Damage> {
    let mut all = Vec::new();
    paths(base, &mut Vec::new(), &mut all);
    let mut out = Vec::new();
    for path in &all {
        let here = get_mut(&mut base.clone(), path).clone();
        let p = path_name(path);
        let edited = |edit: &dyn Fn(&mut Value)| {
            let mut v = base.clone();
            edit(get_mut(&mut v, path));
            v.to_string()
        };
        let mut add = |name: String, text: String, valid_possible: bool| {
            out.push(Damage {
                name,
                text,
                valid_possible,
                path: path.clone(),
            })
        };
        let mut replace = |label: &str, x: Value, valid_possible: bool| {
            add(
                format!("{p}={label}"),
                edited(&|v| *v = x.clone()),
                valid_possible,
            )
        };
        match &here {
            Value::Number(_) => {
                for (label, x) in [
                    ("1e308", 1e308),
                    ("-1e308", -1e308),
                    ("5e-324", 5e-324),
                    ("0", 0.0),
                    ("-1", -1.0),
                ] {
                    replace(label, serde_json::json!(x), true);
                }
                replace("string", Value::String("1".into()), false);
                replace("true", Value::Bool(true), false);
            }
            Value::String(_) => {
                replace("empty", Value::String(String::new()), true);
                replace("unknown", Value::String("no-such-name".into()), true);
                replace("rtl", Value::String("\u{202e}evil".into()), true);
                replace("number", serde_json::json!(5), false);
            }
            Value::Bool(_) => replace("number", serde_json::json!(1), false),
            Value::Null => replace("string", Value::String("x".into()), true),
            Value::Array(a) => {
                let mut shorter = a.clone();
                shorter.pop();
                replace("shorter", Value::Array(shorter), true);
                let mut longer = a.clone();
                longer.push(a.first().cloned().unwrap_or(Value::Null));
                replace("longer", Value::Array(longer), true);
                replace("object", Value::Object(Map::new()), false);
            }
            Value::Object(m) => {
                replace("null", Value::Null, true);
                replace("array", Value::Array(Vec::new()), false);
                add(
                    format!("{p}+unknown-key"),
                    edited(&|v| {
                        v.as_object_mut()
                            .unwrap()
                            .insert("zzz_unknown".into(), Value::Null);
                    }),
                    false,
                );
                for k in m.keys() {
                    add(
                        format!("{p}-{k}"),
                        edited(&|v| {
                            v.as_object_mut().unwrap().remove(k);
                        }),
                        true,
                    );
                }
                if !m.is_empty() {
                    add(
                        format!("{p}+duplicate-key"),
                        with_duplicate(base, path, &mut Vec::new()),
                        false,
                    );
                }
            }
        }
    }
    out
}

/// The place a scene error should name for damage at `path`: the body or pair by its
/// index (`bodies[2]`), a material by the word (renaming one breaks the references to it,
/// which are named instead), or the top-level key (`gravity`).
fn scene_place(path: &[Seg]) -> Option<String> {
    match path {
        [Seg::Key(k), Seg::Index(i), ..] if k == "bodies" || k == "pairs" => {
            Some(format!("{k}[{i}]"))
        }
        [Seg::Key(k), ..] if k == "materials" => Some("material".into()),
        [Seg::Key(k), ..] => Some(k.clone()),
        _ => None,
    }
}

/// The text cut short at a few places.
fn cuts(text: &str) -> Vec<(String, String)> {
    let n = text.len();
    [1, n / 4, n / 2, n - 2]
        .into_iter()
        .filter(|&k| text.is_char_boundary(k))
        .map(|k| (format!("cut-at-{k}"), text[..k].to_string()))
        .collect()
}

// ---------------------------------------------------------------------------------------
// Scene files.

fn scene_cases() -> Vec<ArgCase> {
    let base: Value = serde_json::from_str(SCENE).expect("scene");
    let args = "simulate {in}/scene.json --steps 2 -q --out {out}/t.jsonl";
    let mut v = vec![case(
        "scene/valid".into(),
        "scene.json",
        SCENE.as_bytes().to_vec(),
        args,
        true,
        vec![],
    )];
    for d in damages(&base) {
        let mut mentions = vec!["{in}/scene.json".to_string()];
        mentions.extend(scene_place(&d.path));
        v.push(case(
            format!("scene/{}", d.name),
            "scene.json",
            d.text.into_bytes(),
            args,
            d.valid_possible,
            mentions,
        ));
    }
    for (name, text) in cuts(SCENE) {
        v.push(case(
            format!("scene/{name}"),
            "scene.json",
            text.into_bytes(),
            args,
            false,
            vec!["{in}/scene.json".into(), "line".into()],
        ));
    }
    v
}

// ---------------------------------------------------------------------------------------
// JSON Lines: campaigns and trajectories.

/// Damage to a JSON Lines file: every damage of its first line, then line-level damage.
fn lines_damages(text: &str) -> Vec<(String, String, bool, Option<usize>)> {
    let lines: Vec<&str> = text.lines().collect();
    let first: Value = serde_json::from_str(lines[0]).expect("first line");
    let rest: String = lines[1..].iter().map(|l| format!("{l}\n")).collect();
    let mut out = Vec::new();
    for d in damages(&first) {
        let damaged = d.text.replace('\n', " ");
        out.push((
            format!("line1/{}", d.name),
            format!("{damaged}\n{rest}"),
            d.valid_possible,
            Some(1),
        ));
    }
    let all = |ls: &[&str]| ls.iter().map(|l| format!("{l}\n")).collect::<String>();
    let last = lines.len();
    out.extend([
        ("empty".to_string(), String::new(), true, None),
        (
            "blank-line".into(),
            format!("{}\n\n{rest}", lines[0]),
            true,
            None,
        ),
        ("crlf".into(), text.replace('\n', "\r\n"), true, None),
        ("bom".into(), format!("\u{feff}{text}"), true, None),
        (
            "no-final-newline".into(),
            text.trim_end().to_string(),
            true,
            None,
        ),
        (
            "last-line-cut".into(),
            format!(
                "{}{}",
                all(&lines[..last - 1]),
                &lines[last - 1][..lines[last - 1].len() / 2]
            ),
            false,
            Some(last),
        ),
        (
            "array-line".into(),
            format!("{}[1, 2]\n", all(&lines)),
            false,
            Some(last + 1),
        ),
        (
            "null-line".into(),
            format!("{}null\n", all(&lines)),
            false,
            Some(last + 1),
        ),
        (
            "two-records-one-line".into(),
            format!("{} {}\n{rest}", lines[0], lines[0]),
            false,
            Some(1),
        ),
        (
            "binary".into(),
            "\u{0}\u{1}\u{2}\n".to_string(),
            false,
            Some(1),
        ),
        ("doubled".into(), format!("{text}{text}"), true, None),
    ]);
    out
}

fn campaign_cases() -> Vec<ArgCase> {
    let mut v = Vec::new();
    for (name, text, valid_possible, line) in lines_damages(CAMPAIGN) {
        for (sub, args) in [
            ("profile", "bench profile {in}/c.jsonl"),
            ("ratios", "bench ratios {in}/c.jsonl"),
            ("merge", "bench merge {in}/c.jsonl"),
        ] {
            // A damaged line is named as `FILE:LINE`. `bench ratios` needs Siconos
            // records, which this campaign has not: it must say so, naming the file,
            // for every damage that leaves the records readable.
            let ratios_refusal = sub == "ratios" && valid_possible;
            // A positive tolerance unlike the first record's makes the second record
            // the odd one, named beside the first's line.
            let other_tol = name.ends_with("/tol=1e308") || name.ends_with("/tol=5e-324");
            let mentions = match line {
                Some(1) if other_tol && sub != "merge" => {
                    vec!["{in}/c.jsonl:2".to_string(), "of line 1".to_string()]
                }
                Some(n) if !ratios_refusal => vec![format!("{{in}}/c.jsonl:{n}")],
                _ => vec!["{in}/c.jsonl".to_string()],
            };
            v.push(case(
                format!("campaign/{sub}/{name}"),
                "c.jsonl",
                text.clone().into_bytes(),
                args,
                valid_possible || sub == "ratios",
                mentions,
            ));
        }
    }
    v
}

fn trajectory_cases() -> Vec<ArgCase> {
    let text = format!("{STEP}\n{STEP}\n");
    let mut v = Vec::new();
    for (name, text, valid_possible, line) in lines_damages(&text) {
        let mentions = vec![match line {
            Some(n) => format!("{{in}}/t.jsonl:{n}"),
            None => "{in}/t.jsonl".to_string(),
        }];
        // A damaged answer may be judged (status 0) or found inconsistent (status 1,
        // which is a verdict, not an error): `check` then prints its table, and the
        // message rule applies to its errors only.
        let mut c = case(
            format!("trajectory/{name}"),
            "t.jsonl",
            text.into_bytes(),
            "check {in}/t.jsonl --no-reference",
            valid_possible,
            mentions,
        );
        c.verdict = true;
        v.push(c);
    }
    v
}
