//! The lint driver: discovery of files and of `syncdef.toml`, parallel determinism, I/O errors.

use std::fs;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use syncdef_validator::{Config, RuleSettings, lint_paths};

const VALID: &str = include_str!("../fixtures/valid.yaml");
const UNKNOWN_MODULE: &str = include_str!("../fixtures/SD601.yaml");
const UNUSED_TEMPLATE: &str = include_str!("../fixtures/SD402.yaml");

/// A fresh directory under cargo's per-target temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(path, text).expect("write");
}

fn codes(report: &syncdef_validator::LintReport) -> Vec<(String, &'static str)> {
    report
        .diagnostics()
        .map(|d| {
            let name = Path::new(d.file.name())
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (name, d.code())
        })
        .collect()
}

#[test]
fn walk_lints_definitions_and_skips_other_files() {
    let dir = scratch("walk");
    write(&dir.join("a/valid.yaml"), VALID);
    write(&dir.join("b/module.yml"), UNKNOWN_MODULE);
    write(
        &dir.join("plain-openapi.yaml"),
        "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\n",
    );
    write(&dir.join("package.json"), "{\"name\": \"x\"}");
    write(&dir.join("node_modules/dep/def.yaml"), UNKNOWN_MODULE);
    write(&dir.join(".hidden/def.yaml"), UNKNOWN_MODULE);
    let report = lint_paths(std::slice::from_ref(&dir), &Config::default());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(
        report.summary().files,
        2,
        "only the two definitions are linted"
    );
    assert_eq!(codes(&report), [("module.yml".to_owned(), "SD601")]);
    assert_eq!(report.exit_code(false), 1);
}

#[test]
fn an_explicit_file_without_a_section_is_reported() {
    let dir = scratch("explicit");
    let plain = dir.join("plain.yaml");
    write(
        &plain,
        "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\n",
    );
    let report = lint_paths(&[plain], &Config::default());
    assert_eq!(codes(&report), [("plain.yaml".to_owned(), "SD110")]);
}

#[test]
fn missing_paths_are_tool_errors() {
    let report = lint_paths(&[PathBuf::from("does/not/exist.yaml")], &Config::default());
    assert_eq!(report.errors.len(), 1);
    assert!(
        report.errors[0].message.contains("cannot read this path"),
        "{}",
        report.errors[0]
    );
    assert_eq!(report.exit_code(false), 2);
}

#[test]
fn nearest_config_applies_per_directory() {
    let dir = scratch("config");
    write(&dir.join("strict/def.yaml"), UNUSED_TEMPLATE);
    write(&dir.join("relaxed/def.yaml"), UNUSED_TEMPLATE);
    write(&dir.join("relaxed/legacy/def.yaml"), UNKNOWN_MODULE);
    write(
        &dir.join("strict/syncdef.toml"),
        "[rules]\nSD402 = \"error\"\n",
    );
    write(
        &dir.join("relaxed/syncdef.toml"),
        "ignore = [\"SD402\"]\n[per-file-ignores]\n\"legacy/**\" = [\"SD601\"]\n",
    );
    let report = lint_paths(std::slice::from_ref(&dir), &Config::default());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let found: Vec<(String, String)> = report
        .diagnostics()
        .map(|d| {
            (
                d.file.name().replace('\\', "/"),
                format!("{} {}", d.code(), d.severity),
            )
        })
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].0.ends_with("strict/def.yaml") && found[0].1 == "SD402 error",
        "{found:?}"
    );
}

#[test]
fn an_invalid_config_is_a_tool_error_and_its_files_are_not_linted() {
    let dir = scratch("bad-config");
    write(&dir.join("def.yaml"), UNKNOWN_MODULE);
    write(&dir.join("syncdef.toml"), "[rules]\nSD6O1 = \"off\"\n");
    let report = lint_paths(std::slice::from_ref(&dir), &Config::default());
    assert_eq!(report.files.len(), 0);
    assert_eq!(report.errors.len(), 1);
    assert!(
        report.errors[0].message.contains("did you mean SD601"),
        "{}",
        report.errors[0]
    );
    assert_eq!(report.exit_code(false), 2);
}

#[test]
fn parallel_and_sequential_runs_give_the_same_report() {
    let dir = scratch("parallel");
    for i in 0..24 {
        let text = if i % 3 == 0 {
            UNKNOWN_MODULE
        } else if i % 3 == 1 {
            UNUSED_TEMPLATE
        } else {
            VALID
        };
        write(&dir.join(format!("d{i:02}.yaml")), text);
    }
    let run = |jobs: usize| {
        let config = Config {
            settings: Some(Arc::new(RuleSettings::default())),
            jobs: NonZeroUsize::new(jobs),
            ..Config::default()
        };
        let report = lint_paths(std::slice::from_ref(&dir), &config);
        syncdef_validator::output::render(
            &report,
            syncdef_validator::output::OutputFormat::Json,
            &syncdef_validator::output::RenderOptions::default(),
        )
    };
    let sequential = run(1);
    assert_eq!(sequential, run(4));
    assert!(sequential.contains("\"files\": 24"));
}
