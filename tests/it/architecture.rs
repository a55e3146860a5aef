//! docs/architecture.md describes the code as it is: every file, folder and crate it names
//! exists. A file moved or a crate renamed without the document following fails here, naming
//! the line.

use std::collections::BTreeSet;
use std::path::Path;

use crate::common::root;

/// The top-level folders whose paths the document may name.
const TOP_LEVEL: &[&str] = &[
    ".ci",
    "benches",
    "catalog",
    "cli",
    "definitions",
    "docs",
    "editors",
    "engine",
    "lsp",
    "mock",
    "platform",
    "secrets",
    "tests",
    "transform-lang",
    "validator",
    "worker",
    "workspace-hack",
];

#[test]
fn every_path_and_crate_the_architecture_names_exists() {
    let root = root();
    let text = std::fs::read_to_string(root.join("docs/architecture.md")).expect("the document");
    let crates = package_names(&root);
    let mut missing = Vec::new();
    let mut checked = 0;
    for (number, line) in text.lines().enumerate() {
        for quoted in line.split('`').skip(1).step_by(2) {
            if let Some(path) = repository_path(quoted) {
                checked += 1;
                if !root.join(path).exists() {
                    missing.push(format!("line {}: `{quoted}`", number + 1));
                }
            } else if let Some(name) = crate_name(quoted) {
                checked += 1;
                if !crates.contains(name) {
                    missing.push(format!("line {}: crate `{quoted}`", number + 1));
                }
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} paths found: did the document's format change?"
    );
    assert!(
        missing.is_empty(),
        "docs/architecture.md names what does not exist:\n{}",
        missing.join("\n")
    );
}

/// `engine/src/call/` or `worker/src/push.rs:12`, as a path from the repository root; `None`
/// for anything else (a glob, a placeholder, a command).
fn repository_path(quoted: &str) -> Option<&str> {
    let path = quoted
        .split([':', '#'])
        .next()?
        .trim_end_matches(['.', ',']);
    let (top, _) = path.split_once('/')?;
    let plain = !path.contains([' ', '*', '{', '<', '(']);
    (plain && TOP_LEVEL.contains(&top)).then_some(path)
}

/// `syncdef-engine`, a package name; `None` for anything else.
fn crate_name(quoted: &str) -> Option<&str> {
    let name = quoted.strip_suffix("::").unwrap_or(quoted);
    let plain = name.strip_prefix("syncdef-").is_some_and(|rest| {
        !rest.is_empty() && rest.chars().all(|c| c.is_ascii_lowercase() || c == '-')
    });
    plain.then_some(name)
}

/// The names of the workspace's packages, read from their manifests.
fn package_names(root: &Path) -> BTreeSet<String> {
    TOP_LEVEL
        .iter()
        .filter_map(|dir| std::fs::read_to_string(root.join(dir).join("Cargo.toml")).ok())
        .filter_map(|manifest| {
            let package = manifest.split("[package]").nth(1)?;
            let line = package
                .lines()
                .find(|l| l.trim_start().starts_with("name"))?;
            Some(line.split('"').nth(1)?.to_owned())
        })
        .collect()
}
