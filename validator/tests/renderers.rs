//! Every renderer on one shared set of diagnostics (as ruff snapshots each output format on
//! the same fixture), plus the SARIF output validated against the SARIF 2.1.0 JSON schema.
//!
//! `sarif-2.1.0-rtm.5.json` is the OASIS SARIF 2.1.0 schema (rtm.5 is the approved 2.1.0
//! text), vendored from the npm package `@microsoft/jest-sarif` 1.0.0-beta.0 (MIT), file
//! `lib/schemas/sarif-2.1.0-rtm.5.json`.

use std::sync::Arc;

use syncdef_definitions::{SourceFile, Span};
use syncdef_validator::output::{OutputFormat, RenderOptions, render, sarif};
use syncdef_validator::{Diagnostic, LintReport, Rule, Severity};

const TEXT: &str = "synchronization:\n  Customer:\n    module: Acounts\n    push:\n      create: \"/customer/put\"\n      schemasTransformer:\n        updateRequst: {Name: \"100% société\"}\n";

fn span_of(text: &str, needle: &str) -> Span {
    let start = text.find(needle).expect("needle in text") as u32;
    Span::new(start, start + needle.len() as u32)
}

/// Diagnostics of every severity, with labels, help, pointers, non-ASCII text and characters
/// that the GitHub format must escape (`%`, `:`, `,`, newlines).
fn shared_report() -> LintReport {
    let file = Arc::new(SourceFile::new("catalog/qbo, online.yaml", TEXT));
    let module = Diagnostic::new(
        Rule::UnknownModule,
        Arc::clone(&file),
        span_of(TEXT, "Acounts"),
        "`Acounts` is not a platform module",
    )
    .with_pointer("/synchronization/Customer/module")
    .with_help("did you mean `Accounts`?");
    let method = Diagnostic::new(
        Rule::MethodNotOnPath,
        Arc::clone(&file),
        span_of(TEXT, "put"),
        "`/customer` has no `put` operation",
    )
    .with_pointer("/synchronization/Customer/push/create")
    .with_label(span_of(TEXT, "create"), "in this operation")
    .with_help("`/customer` has `post`; use one of them\nor add `put` to the path");
    let template = Diagnostic::new(
        Rule::UnusedTemplate,
        Arc::clone(&file),
        span_of(TEXT, "updateRequst"),
        "template `updateRequst` is not used: 100% sure, see: docs",
    )
    .with_pointer("/synchronization/Customer/push/schemasTransformer/updateRequst")
    .with_help("did you mean `updateRequest`?");
    let mut info = Diagnostic::new(
        Rule::UnknownKey,
        Arc::clone(&file),
        span_of(TEXT, "société"),
        "a note about `société`",
    );
    info.severity = Severity::Info;
    LintReport::from_diagnostics(vec![template, module, info, method])
}

fn options() -> RenderOptions {
    RenderOptions {
        color: false,
        width: 100,
        links: false,
    }
}

#[test]
fn human() {
    insta::assert_snapshot!(render(&shared_report(), OutputFormat::Human, &options()));
}

#[test]
fn human_with_color_has_ansi_codes_and_without_has_none() {
    let colored = render(
        &shared_report(),
        OutputFormat::Human,
        &RenderOptions {
            color: true,
            ..options()
        },
    );
    assert!(
        colored.contains("\u{1b}["),
        "color requested but no ANSI escape"
    );
    assert!(!render(&shared_report(), OutputFormat::Human, &options()).contains("\u{1b}["));
}

#[test]
fn json() {
    insta::assert_snapshot!(render(&shared_report(), OutputFormat::Json, &options()));
}

#[test]
fn github() {
    insta::assert_snapshot!(render(&shared_report(), OutputFormat::Github, &options()));
}

#[test]
fn sarif_snapshot() {
    // Rules' full documentation is long; the snapshot keeps results and one rule descriptor.
    let mut log = sarif::to_value(&shared_report());
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(rules.len(), Rule::ALL.len());
    log["runs"][0]["tool"]["driver"]["rules"] =
        serde_json::Value::Array(rules.into_iter().filter(|r| r["id"] == "SD601").collect());
    log["runs"][0]["tool"]["driver"]["semanticVersion"] = "<version>".into();
    insta::assert_json_snapshot!(log);
}

#[test]
fn sarif_validates_against_the_schema() {
    let mut schema: serde_json::Value =
        serde_json::from_str(include_str!("sarif-2.1.0-rtm.5.json")).expect("schema is JSON");
    // Known erratum of the published schema: the `language` patterns (of `run` and `toolComponent`) end with a stray
    // `]`, which meta-validation rejects as a regex. Fix that one pattern in memory; our logs
    // never set `language`, and everything else is validated as published.
    for owner in ["run", "toolComponent"] {
        let pattern = &mut schema["definitions"][owner]["properties"]["language"]["pattern"];
        assert_eq!(
            pattern, "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$",
            "the erratum is where expected"
        );
        *pattern = "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$".into();
    }
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    let log = sarif::to_value(&shared_report());
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // The check can fail: an invalid level is refused.
    let mut broken = log;
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!validator.is_valid(&broken));
}

#[test]
fn sarif_meets_github_requirements() {
    // docs.github.com "SARIF support for code scanning": each result needs ruleId, a message
    // text and a location with a relative URI and a startLine; rules need an id, and help for
    // the alert page.
    let log = sarif::to_value(&shared_report());
    let run = &log["runs"][0];
    for rule in run["tool"]["driver"]["rules"].as_array().expect("rules") {
        assert!(rule["id"].is_string() && rule["shortDescription"]["text"].is_string());
        assert!(
            rule["helpUri"]
                .as_str()
                .is_some_and(|u| u.starts_with("https://"))
        );
        assert!(
            ["error", "warning", "note"]
                .contains(&rule["defaultConfiguration"]["level"].as_str().unwrap_or(""))
        );
    }
    for result in run["results"].as_array().expect("results") {
        let location = &result["locations"][0]["physicalLocation"];
        let uri = location["artifactLocation"]["uri"].as_str().expect("uri");
        assert!(
            !uri.starts_with('/') && !uri.contains("://"),
            "{uri} is not relative"
        );
        assert!(
            location["region"]["startLine"]
                .as_u64()
                .is_some_and(|l| l >= 1)
        );
        assert!(result["message"]["text"].is_string());
    }
}
