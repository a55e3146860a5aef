//! End-to-end tests of which files `syncdef lint` walks: `include` and `exclude` in
//! `syncdef.toml`, and this repository's own, which makes the CI one-liner of
//! docs/configuration.md pass at its root.

use crate::common;

use common::{fixture, root, syncdef, syncdef_in};
use serde_json::Value;

/// A project with a clean definition in `good/` and one with errors in `broken/`, under a
/// `syncdef.toml` holding `toml`.
fn project(toml: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (from, to) in [
        ("lint/valid.yaml", "good"),
        ("lint/mistakes.yaml", "broken"),
    ] {
        let sub = dir.path().join(to);
        std::fs::create_dir(&sub).expect("a subdirectory");
        std::fs::copy(root().join(fixture(from)), sub.join("definition.yaml"))
            .expect("copy a fixture");
    }
    std::fs::write(dir.path().join("syncdef.toml"), toml).expect("syncdef.toml");
    dir
}

/// The files a JSON report has findings in, or that it linted clean, by the summary.
fn linted_files(run: &common::Run) -> u64 {
    let report: Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    report["summary"]["files"].as_u64().expect("a file count")
}

#[test]
fn the_ci_one_liner_lints_this_repository_clean() {
    // docs/configuration.md: `syncdef lint --format sarif > syncdef.sarif`, at the root.
    let run = syncdef(&["lint", "--format", "sarif"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let log: Value = serde_json::from_str(&run.stdout).expect("stdout is one SARIF log");
    crate::conventions::assert_valid_sarif(&log);
    assert_eq!(
        log["runs"][0]["invocations"][0]["executionSuccessful"],
        true
    );
    let results = log["runs"][0]["results"].as_array().expect("results");
    let uris: Vec<&str> = results
        .iter()
        .filter_map(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str())
        .collect();
    // The catalog is linted; the fixtures kept broken on purpose are not.
    assert!(uris.iter().any(|u| u.starts_with("catalog/")), "{uris:?}");
    assert!(
        !uris.iter().any(|u| u.contains("tests/fixtures")),
        "{uris:?}"
    );
}

#[test]
fn exclude_leaves_a_directory_out_of_a_walk_but_never_a_named_file() {
    let dir = project("exclude = [\"broken\"]\n");
    let walk = syncdef_in(dir.path(), &["lint", "--format", "json"]);
    assert_eq!((walk.code, linted_files(&walk)), (0, 1), "{}", walk.stdout);
    let named = syncdef_in(dir.path(), &["lint", "broken/definition.yaml"]);
    assert_eq!(named.code, 1, "{}", named.stdout);
    // A directory named on the command line is walked whatever `exclude` says of it.
    let walked = syncdef_in(dir.path(), &["lint", "broken"]);
    assert_eq!(walked.code, 1, "{}", walked.stdout);
}

#[test]
fn include_narrows_a_walk_and_globs_cross_directories() {
    let only_good = project("include = [\"good/*.yaml\"]\n");
    let run = syncdef_in(only_good.path(), &["lint", "--format", "json", "."]);
    assert_eq!((run.code, linted_files(&run)), (0, 1), "{}", run.stdout);
    let nested = project("exclude = [\"**/definition.yaml\"]\n");
    let run = syncdef_in(nested.path(), &["lint", "--format", "json"]);
    assert_eq!((run.code, linted_files(&run)), (0, 0), "{}", run.stdout);
    // `--config` brings its globs along, relative to its own directory.
    let config = only_good.path().join("syncdef.toml");
    let run = syncdef(&[
        "lint",
        "--format",
        "json",
        "--config",
        &config.to_string_lossy(),
        &only_good.path().to_string_lossy(),
    ]);
    assert_eq!((run.code, linted_files(&run)), (0, 1), "{}", run.stdout);
}

#[test]
fn a_bad_glob_names_the_file_and_the_key() {
    let dir = project("exclude = [\"broken/[oops\"]\n");
    let run = syncdef_in(dir.path(), &["lint"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let said = format!("{}{}", run.stdout, run.stderr);
    let toml = dir.path().join("syncdef.toml").display().to_string();
    assert!(said.contains(&toml), "{said}");
    assert!(said.contains("invalid glob"), "{said}");
    assert!(said.contains("`exclude`"), "{said}");
    assert!(said.contains("broken/[oops"), "{said}");
}
