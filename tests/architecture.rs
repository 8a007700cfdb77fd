//! The crate's architecture as `src/lib.rs` states it (issue 29): every top-level module
//! stands on a floor of the table in the section "Architecture", imports only from its
//! own floor and below, and no modules import each other in a circle.
//!
//! The imports are read from the source: every `crate::module` path in a file under
//! `src/`, outside comments and after the file's test module is cut off. The drawing (each
//! module, its floor and what it imports) is written to
//! `book/src/generated/architecture.txt`, checked against the committed copy
//! (`NONSMOOTH_BLESS=1` rewrites it).
//!
//! Its own test binary: it checks the source of `src/`, not a behaviour of the crate, and
//! `src/lib.rs`, the README and the book name it by its path.

mod common;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The floors of the table in `src/lib.rs`: module name to floor.
fn floors() -> BTreeMap<String, usize> {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    let section = lib
        .split("//! ## Architecture")
        .nth(1)
        .expect("src/lib.rs has an Architecture section");
    let mut out = BTreeMap::new();
    for line in section.lines().take_while(|l| !l.starts_with("//! ## ")) {
        let cells: Vec<&str> = line.trim_start_matches("//!").split('|').collect();
        if cells.len() < 4 {
            continue;
        }
        let Ok(floor) = cells[1].trim().parse::<usize>() else {
            continue;
        };
        for m in cells[2].split('`').map(str::trim).filter(|m| !m.is_empty()) {
            assert!(
                out.insert(m.to_string(), floor).is_none(),
                "{m} is on two floors"
            );
        }
    }
    assert!(!out.is_empty(), "no floors read from src/lib.rs");
    out
}

/// The code of a Rust file without comments, and without its test module.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            // a `//` inside a string (a URL) keeps the line: only the code before a
            // comment that starts the line, or follows code, is dropped
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `.rs` file under `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Top-level module to the top-level modules its code names as `crate::x`.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = root().join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in all {
        let rel = path.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let text = code(&std::fs::read_to_string(&path).unwrap());
        let deps = out.entry(module.clone()).or_default();
        for (i, _) in text.match_indices("crate::") {
            let before = text[..i].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue; // `nonsmooth_crate::` or similar
            }
            let name: String = text[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name != module {
                deps.insert(name);
            }
        }
    }
    out
}

/// The circles of the graph (strongly connected components of more than one module).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Kosaraju: order by finishing time, then walk the reversed graph.
    fn visit(
        v: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        seen: &mut BTreeSet<String>,
        order: &mut Vec<String>,
    ) {
        if !seen.insert(v.to_string()) {
            return;
        }
        for w in g.get(v).into_iter().flatten() {
            visit(w, g, seen, order);
        }
        order.push(v.to_string());
    }
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    for v in graph.keys() {
        visit(v, graph, &mut seen, &mut order);
    }
    let mut reversed: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (v, ws) in graph {
        for w in ws {
            reversed.entry(w.clone()).or_default().insert(v.clone());
        }
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for v in order.iter().rev() {
        let mut comp = Vec::new();
        visit(v, &reversed, &mut seen, &mut comp);
        if comp.len() > 1 {
            comp.sort();
            out.push(comp);
        }
    }
    out
}

#[test]
fn modules_stand_on_floors_without_circles() {
    let floors = floors();
    let graph = imports();
    let mut problems = Vec::new();
    for (module, deps) in &graph {
        let Some(&floor) = floors.get(module) else {
            problems.push(format!(
                "module `{module}` is on no floor of src/lib.rs's Architecture table"
            ));
            continue;
        };
        for d in deps {
            match floors.get(d) {
                Some(&f) if f > floor => problems.push(format!(
                    "`{module}` (floor {floor}) imports `{d}` (floor {f})"
                )),
                Some(_) => {}
                None => problems.push(format!("`{module}` imports `{d}`, on no floor")),
            }
        }
    }
    for m in floors.keys() {
        if !graph.contains_key(m) {
            problems.push(format!("the table names `{m}`, which is not a module"));
        }
    }
    for c in circles(&graph) {
        problems.push(format!("circle: {}", c.join(", ")));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));

    // The drawing, floor by floor.
    let mut text = String::new();
    let top = floors.values().copied().max().unwrap();
    for floor in (0..=top).rev() {
        for (m, _) in floors.iter().filter(|(_, f)| **f == floor) {
            let deps: Vec<&str> = graph[m].iter().map(String::as_str).collect();
            let deps = if deps.is_empty() {
                vec!["(nothing)"]
            } else {
                deps
            };
            let mut lines = vec![String::new()];
            for d in deps {
                // lines of at most 80 characters, so the drawing fits the book's column
                if lines.last().unwrap().len() + d.len() > 58 {
                    lines.push(String::new());
                }
                let line = lines.last_mut().unwrap();
                if !line.is_empty() {
                    line.push(' ');
                }
                line.push_str(d);
            }
            for (k, deps) in lines.iter().enumerate() {
                if k == 0 {
                    text.push_str(&format!("{floor}  {m:<15} -> {deps}\n"));
                } else {
                    text.push_str(&format!("{:<22}{deps}\n", ""));
                }
            }
        }
    }
    common::publish("architecture.txt", &text);
}

#[test]
fn the_check_finds_a_circle_and_an_upward_import() {
    // The checker itself, on a graph made to fail: a -> b -> c -> a, and d alone.
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a")] {
        g.entry(a.into()).or_default().insert(b.into());
    }
    g.entry("d".into()).or_default();
    assert_eq!(circles(&g), vec![vec!["a", "b", "c"]]);
    g.get_mut("c").unwrap().remove("a");
    assert!(circles(&g).is_empty());
    // Comments and test modules are not imports.
    let c = code("use crate::x; // crate::y\n/// [`crate::z`]\n#[cfg(test)]\nuse crate::w;");
    assert!(c.contains("crate::x") && !c.contains("crate::y"));
    assert!(!c.contains("crate::z") && !c.contains("crate::w"));
}
