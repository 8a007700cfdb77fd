//! Issue 9: `auto` is justified by a generated table. `examples/auto_choice.rs` measures
//! every candidate method of each problem type on the shared problems and generated scenes
//! and writes `book/src/generated/auto_summary.txt`, marking the candidate its rule picks
//! (most problems solved, then least time). The registry's `AUTO` table must be what that
//! summary picks, and `auto` must run it.

use std::path::Path;

use nalgebra::{DMatrix, DVector};
use nonsmooth::problem::AnyProblem;
use nonsmooth::problem::Lcp;
use nonsmooth::solver::registry::{AUTO, Choice, ProblemType};

#[test]
fn auto_is_what_the_generated_summary_picks() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src/generated/auto_summary.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let picked: Vec<(String, String)> = text
        .lines()
        .filter(|l| l.contains("<- picked"))
        .map(|l| {
            let mut w = l.split_whitespace();
            (w.next().unwrap().to_string(), w.next().unwrap().to_string())
        })
        .collect();
    assert_eq!(
        picked.len(),
        AUTO.len(),
        "one pick per problem type: {picked:?}"
    );
    for (t, m) in AUTO {
        assert!(
            picked.iter().any(|(pt, pm)| pt == t.name() && pm == m),
            "AUTO runs {m} on {}, the summary picks {picked:?}",
            t.name()
        );
    }
}

#[test]
fn auto_resolves_through_the_table() {
    let lcp = AnyProblem::Lcp(
        Lcp::new(
            DMatrix::<f64>::identity(2, 2).into(),
            DVector::from_element(2, -1.0),
        )
        .unwrap(),
    );
    let auto: Choice = "auto".parse().unwrap();
    let (_, m) = AUTO.iter().find(|(t, _)| *t == ProblemType::Lcp).unwrap();
    assert_eq!(auto.resolve(&lcp).name(), *m);
}
