//! `docs/rules/` is generated from the rules' doc comments and must not drift from them.
//!
//! Fails when a page is stale or missing; `UPDATE_DOCS=1 cargo test -p syncdef-validator --test
//! docs` rewrites the pages.

use std::path::{Path, PathBuf};

use syncdef_validator::Rule;
use syncdef_validator::docs::{index_page, rule_page};

fn docs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules")
}

#[test]
fn rule_pages_are_up_to_date() {
    let dir = docs_dir();
    let update = std::env::var_os("UPDATE_DOCS").is_some_and(|v| v == "1");
    let mut expected: Vec<(PathBuf, String)> = Rule::ALL
        .iter()
        .map(|r| (dir.join(format!("{}.md", r.code())), rule_page(*r)))
        .collect();
    expected.push((dir.join("README.md"), index_page()));
    let mut stale = Vec::new();
    for (path, content) in &expected {
        let current = std::fs::read_to_string(path).unwrap_or_default();
        if current != *content {
            if update {
                std::fs::create_dir_all(&dir).expect("create docs/rules");
                std::fs::write(path, content).expect("write page");
            } else {
                stale.push(path.display().to_string());
            }
        }
    }
    // Pages of rules that no longer exist would mislead readers.
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if !expected.iter().any(|(p, _)| *p == path) {
            if update {
                std::fs::remove_file(&path).expect("remove stale page");
            } else {
                stale.push(format!("{} (no such rule)", path.display()));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "docs/rules is out of date; run `UPDATE_DOCS=1 cargo test -p syncdef-validator --test it docs::`:\n{}",
        stale.join("\n")
    );
}
