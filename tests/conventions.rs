//! End-to-end tests of the conventions CI systems and editors rely on, whatever the command:
//! SARIF that says when a run failed, camelCase JSON, `-q`/`-v`, and colour from the
//! environment.

mod common;

use common::{fixture, syncdef};
use serde_json::Value;

/// Fails with every violation of the SARIF 2.1.0 schema (vendored by the validator's tests).
fn assert_valid_sarif(log: &Value) {
    let mut schema: Value =
        serde_json::from_str(include_str!("../validator/tests/sarif-2.1.0-rtm.5.json"))
            .expect("schema is JSON");
    // The published schema's `language` patterns end with a stray `]` (a known erratum) that
    // the regex engine refuses; our logs never set `language`.
    for owner in ["run", "toolComponent"] {
        schema["definitions"][owner]["properties"]["language"]["pattern"] =
            "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$".into();
    }
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(log)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

fn sarif_of(stdout: &str) -> Value {
    let log: Value = serde_json::from_str(stdout).expect("stdout is one JSON document");
    assert_valid_sarif(&log);
    log
}

fn invocation(log: &Value) -> &Value {
    &log["runs"][0]["invocations"][0]
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("syncdef-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

#[test]
fn sarif_of_a_run_with_findings_is_successful_with_fingerprints() {
    let run = syncdef(&["lint", "--format", "sarif", &fixture("lint/mistakes.yaml")]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let log = sarif_of(&run.stdout);
    assert_eq!(invocation(&log)["executionSuccessful"], true);
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert!(!results.is_empty());
    for result in results {
        assert!(
            result["partialFingerprints"]
                .as_object()
                .is_some_and(|f| !f.is_empty())
        );
        let artifact = &result["locations"][0]["physicalLocation"]["artifactLocation"];
        assert_eq!(artifact["uri"], "tests/fixtures/lint/mistakes.yaml");
        assert_eq!(artifact["uriBaseId"], "%SRCROOT%");
    }
}

#[test]
fn sarif_of_a_run_that_could_not_start_says_it_failed() {
    // An unreadable --config stops the run before any file is linted: exit 2, and still a
    // SARIF log, which no upload can mistake for a clean run.
    let run = syncdef(&[
        "lint",
        "--format",
        "sarif",
        "--config",
        "no/such/syncdef.toml",
        &fixture("lint/valid.yaml"),
    ]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("no/such/syncdef.toml"),
        "{}",
        run.stderr
    );
    let log = sarif_of(&run.stdout);
    assert_eq!(invocation(&log)["executionSuccessful"], false);
    let text = invocation(&log)["toolExecutionNotifications"][0]["message"]["text"]
        .as_str()
        .expect("a notification");
    assert!(text.contains("no/such/syncdef.toml"), "{text}");
}

#[test]
fn sarif_of_a_run_that_could_not_read_a_path_says_it_failed() {
    let run = syncdef(&["lint", "--format", "sarif", "no/such/definition.yaml"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let log = sarif_of(&run.stdout);
    assert_eq!(invocation(&log)["executionSuccessful"], false);
    let text = invocation(&log)["toolExecutionNotifications"][0]["message"]["text"]
        .as_str()
        .expect("a notification");
    assert!(text.contains("no/such/definition.yaml"), "{text}");
}

#[test]
fn sarif_lists_the_rules_that_fired_and_those_configured() {
    let dir = temp_dir("sarif-rules");
    let config = dir.join("syncdef.toml");
    std::fs::write(&config, "[rules]\nSD704 = \"warning\"\n").expect("write syncdef.toml");
    let run = syncdef(&[
        "lint",
        "--format",
        "sarif",
        "--config",
        &config.to_string_lossy(),
        &fixture("lint/valid.yaml"),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let log = sarif_of(&run.stdout);
    let ids: Vec<&str> = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .filter_map(|r| r["id"].as_str())
        .collect();
    assert_eq!(ids, ["SD704"]);
    let _ = std::fs::remove_dir_all(&dir);
}
