//! Writes the adversarial corpus (`tests/adversarial/corpus.rs`) to a folder, one
//! sub-folder per case, with a `CASES.tsv` index (name, expectation, why), so that the
//! inputs can be fed to another program or inspected by hand:
//!
//! ```console
//! cargo run --release --example adversarial_corpus -- /tmp/corpus
//! ```

#[path = "../tests/adversarial/mod.rs"]
mod adversarial;

use adversarial::corpus::{Expect, corpus, write_case};

fn main() {
    let Some(out) = std::env::args_os().nth(1) else {
        eprintln!("usage: adversarial_corpus OUT_FOLDER");
        std::process::exit(2);
    };
    let out = std::path::PathBuf::from(out);
    let cases = corpus();
    let mut index = String::from("name\tinput\texpect\twhy\n");
    for c in &cases {
        let dir = out.join(&c.name);
        if let Err(e) = write_case(c, &dir) {
            eprintln!("{}: {e}", dir.display());
            std::process::exit(1);
        }
        let expect = match &c.expect {
            Expect::Reject { .. } => "reject",
            Expect::Nothing { .. } => "nothing",
            Expect::Valid(_) => "valid",
            Expect::Either => "either",
        };
        index.push_str(&format!("{}\t{}\t{expect}\t{}\n", c.name, c.input, c.why));
    }
    std::fs::write(out.join("CASES.tsv"), index).expect("index");
    eprintln!("wrote {} cases under {}", cases.len(), out.display());
}
