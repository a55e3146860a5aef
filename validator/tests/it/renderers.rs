//! Every renderer on one shared set of diagnostics (as ruff snapshots each output format on
//! the same fixture), plus the SARIF output validated against the SARIF 2.1.0 JSON schema.
//!
//! `sarif-2.1.0-rtm.5.json` is the OASIS SARIF 2.1.0 schema (rtm.5 is the approved 2.1.0
//! text), vendored from the npm package `@microsoft/jest-sarif` 1.0.0-beta.0 (MIT), file
//! `lib/schemas/sarif-2.1.0-rtm.5.json`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;
use syncdef_definitions::{SourceFile, Span};
use syncdef_validator::output::sarif::{self, SarifOptions};
use syncdef_validator::output::{OutputFormat, RenderOptions, render};
use syncdef_validator::{Diagnostic, LintError, LintReport, Rule, Severity};

const TEXT: &str = "synchronization:\n  Customer:\n    module: Acounts\n    push:\n      create: \"/customer/put\"\n      schemasTransformer:\n        updateRequst: {Name: \"100% société\"}\n";

fn span_of(text: &str, needle: &str) -> Span {
    let start = text.find(needle).expect("needle in text");
    let offset = |n: usize| u32::try_from(n).expect("a test text is small");
    Span::new(offset(start), offset(start + needle.len()))
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
        ..RenderOptions::default()
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

/// SARIF options with the current directory as the source root, so that the shared report's
/// relative file name stays relative.
fn sarif_options() -> SarifOptions {
    SarifOptions {
        root: Some(std::env::current_dir().expect("a current directory")),
        ..SarifOptions::default()
    }
}

/// Fails with every schema violation of `log`.
fn assert_valid_sarif(log: &Value) {
    let mut schema: Value =
        serde_json::from_str(include_str!("../sarif-2.1.0-rtm.5.json")).expect("schema is JSON");
    // Known erratum of the published schema: the `language` patterns (of `run` and
    // `toolComponent`) end with a stray `]`, which meta-validation rejects as a regex. Fix that
    // one pattern in memory; our logs never set `language`, and everything else is validated
    // as published.
    for owner in ["run", "toolComponent"] {
        let pattern = &mut schema["definitions"][owner]["properties"]["language"]["pattern"];
        assert_eq!(
            pattern, "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$",
            "the erratum is where expected"
        );
        *pattern = "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$".into();
    }
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{log:#}");
    // The check can fail: an invalid level is refused.
    let mut broken = log.clone();
    broken["runs"][0]["tool"]["driver"]["rules"] = "not an array".into();
    assert!(!validator.is_valid(&broken));
}

fn results(log: &Value) -> &Vec<Value> {
    log["runs"][0]["results"]
        .as_array()
        .expect("a results array")
}

fn fingerprint(result: &Value) -> &str {
    result["partialFingerprints"][sarif::FINGERPRINT_KEY]
        .as_str()
        .expect("a fingerprint")
}

#[test]
fn sarif_snapshot() {
    // Rules' full documentation is long; the snapshot keeps results and one rule descriptor,
    // and the machine's directory is replaced.
    let mut log = sarif::to_value_with(&shared_report(), &sarif_options());
    assert_valid_sarif(&log);
    let run = &mut log["runs"][0];
    let rules = run["tool"]["driver"]["rules"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    run["tool"]["driver"]["rules"] =
        Value::Array(rules.into_iter().filter(|r| r["id"] == "SD601").collect());
    run["tool"]["driver"]["semanticVersion"] = "<version>".into();
    run["originalUriBaseIds"]["%SRCROOT%"]["uri"] = "file:///<root>/".into();
    insta::assert_json_snapshot!(log);
}

#[test]
fn sarif_rules_are_those_that_fired_and_those_configured() {
    // Not all 50: a viewer lists what this run is about. A rule set in syncdef.toml is listed
    // even when it did not fire, so the upload shows that it was checked.
    let configured = Rule::ALL[Rule::ALL.len() - 1];
    let options = SarifOptions {
        configured: BTreeSet::from([configured, Rule::UnknownModule]),
        ..sarif_options()
    };
    let log = sarif::to_value_with(&shared_report(), &options);
    assert_valid_sarif(&log);
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules");
    let ids: Vec<&str> = rules.iter().filter_map(|r| r["id"].as_str()).collect();
    let mut expected = vec![
        Rule::UnknownModule.code(),
        Rule::MethodNotOnPath.code(),
        Rule::UnusedTemplate.code(),
        Rule::UnknownKey.code(),
        configured.code(),
    ];
    expected.sort_unstable();
    expected.dedup();
    assert_eq!(ids, expected);
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules");
    for rule in rules {
        let id = rule["id"].as_str().expect("id");
        assert!(rule["name"].is_string() && rule["shortDescription"]["text"].is_string());
        let help = rule["helpUri"].as_str().expect("helpUri");
        assert!(help.ends_with(&format!("/docs/rules/{id}.md")), "{help}");
        assert!(
            docs.join(format!("{id}.md")).is_file(),
            "no docs page for {id}"
        );
        assert!(
            ["error", "warning", "note"]
                .contains(&rule["defaultConfiguration"]["level"].as_str().unwrap_or(""))
        );
    }
    for result in results(&log) {
        let index = usize::try_from(result["ruleIndex"].as_u64().expect("ruleIndex"))
            .expect("a rule index fits usize");
        assert_eq!(rules[index]["id"], result["ruleId"]);
    }
}

#[test]
fn sarif_fingerprints_survive_lines_inserted_above_and_differ_between_findings() {
    let before = sarif::to_value_with(&shared_report(), &sarif_options());
    assert_valid_sarif(&before);
    let moved = format!("# a comment\n\n{TEXT}");
    let shifted = LintReport::from_diagnostics(
        shared_report()
            .diagnostics()
            .map(|d| {
                let text = d.file.slice(d.span).to_owned();
                let mut d = d.clone();
                d.file = Arc::new(SourceFile::new(d.file.name(), moved.clone()));
                d.span = span_of(&moved, &text);
                d
            })
            .collect(),
    );
    let after = sarif::to_value_with(&shifted, &sarif_options());
    assert_valid_sarif(&after);
    let (before, after) = (results(&before), results(&after));
    assert_eq!(before.len(), after.len());
    for (b, a) in before.iter().zip(after) {
        assert_eq!(b["ruleId"], a["ruleId"]);
        let line = |r: &Value| r["locations"][0]["physicalLocation"]["region"]["startLine"].clone();
        assert_ne!(line(b), line(a), "the finding moved");
        assert_eq!(fingerprint(b), fingerprint(a), "{}", b["ruleId"]);
    }
    let distinct: BTreeSet<&str> = before.iter().map(fingerprint).collect();
    assert_eq!(distinct.len(), before.len(), "findings share a fingerprint");
}

#[test]
fn sarif_fingerprints_tell_identical_findings_apart() {
    // Two findings alike in rule, message and text (no pointer): the second gets its own.
    let text = "a: x\nb: x\n";
    let file = Arc::new(SourceFile::new("dup.yaml", text));
    let at = |start: u32| {
        Diagnostic::new(
            Rule::UnknownKey,
            Arc::clone(&file),
            Span::new(start, start + 1),
            "same",
        )
    };
    let log = sarif::to_value_with(
        &LintReport::from_diagnostics(vec![at(3), at(8)]),
        &sarif_options(),
    );
    assert_valid_sarif(&log);
    let found = results(&log);
    assert_ne!(fingerprint(&found[0]), fingerprint(&found[1]));
}

#[test]
fn sarif_uris_are_relative_to_the_source_root_with_a_base_id() {
    let root = std::env::temp_dir().join("syncdef-sarif-root");
    let inside = root.join("catalog/qbo online.yaml");
    let outside = std::env::temp_dir().join("elsewhere/bc.yaml");
    let report = LintReport::from_diagnostics(
        [&inside, &outside]
            .into_iter()
            .map(|path| {
                let file = Arc::new(SourceFile::new(path.to_string_lossy(), TEXT));
                Diagnostic::new(Rule::UnknownModule, file, span_of(TEXT, "Acounts"), "m")
            })
            .collect(),
    );
    let options = SarifOptions {
        root: Some(root.clone()),
        ..SarifOptions::default()
    };
    let log = sarif::to_value_with(&report, &options);
    assert_valid_sarif(&log);
    let base = log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .expect("the root's URI");
    assert!(
        base.starts_with("file:///") && base.ends_with('/'),
        "{base}"
    );
    assert!(base.contains("syncdef-sarif-root"), "{base}");
    // Results are sorted by file name: the absolute path outside the root may sort either
    // way, so each is found by the end of its URI.
    let location = |ending: &str| {
        results(&log)
            .iter()
            .map(|r| r["locations"][0]["physicalLocation"]["artifactLocation"].clone())
            .find(|a| a["uri"].as_str().is_some_and(|u| u.ends_with(ending)))
            .expect("a result for the file")
    };
    let relative = location("qbo%20online.yaml");
    assert_eq!(relative["uri"], "catalog/qbo%20online.yaml");
    assert_eq!(relative["uriBaseId"], "%SRCROOT%");
    let absolute = location("bc.yaml");
    let uri = absolute["uri"].as_str().expect("uri");
    assert!(
        uri.starts_with("file:///") && uri.ends_with("elsewhere/bc.yaml"),
        "{uri}"
    );
    assert!(absolute.get("uriBaseId").is_none(), "{absolute}");
}

#[test]
fn sarif_labels_become_related_locations() {
    let log = sarif::to_value_with(&shared_report(), &sarif_options());
    assert_valid_sarif(&log);
    let method = results(&log)
        .iter()
        .find(|r| r["ruleId"] == Rule::MethodNotOnPath.code())
        .expect("the method finding");
    let related = method["relatedLocations"].as_array().expect("related");
    assert_eq!(related.len(), 1);
    assert_eq!(related[0]["message"]["text"], "in this operation");
    let line = TEXT[..TEXT.find("create").expect("create")].lines().count();
    assert_eq!(
        related[0]["physicalLocation"]["region"]["startLine"],
        line as u64
    );
    assert_eq!(
        related[0]["physicalLocation"]["artifactLocation"],
        method["locations"][0]["physicalLocation"]["artifactLocation"]
    );
    // A finding without labels has none.
    let module = results(&log)
        .iter()
        .find(|r| r["ruleId"] == Rule::UnknownModule.code())
        .expect("the module finding");
    assert!(module.get("relatedLocations").is_none());
}

#[test]
fn sarif_invocation_says_whether_every_path_was_linted() {
    let clean = sarif::to_value_with(&shared_report(), &sarif_options());
    assert_valid_sarif(&clean);
    let invocation = &clean["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], true);
    assert!(invocation.get("toolExecutionNotifications").is_none());

    let mut report = shared_report();
    report.errors.push(LintError {
        path: PathBuf::from("catalog/syncdef.toml"),
        message: "unknown key `rule`: did you mean `rules`?".into(),
    });
    let failed = sarif::to_value_with(&report, &sarif_options());
    assert_valid_sarif(&failed);
    let invocation = &failed["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    let notification = &invocation["toolExecutionNotifications"][0];
    assert_eq!(notification["level"], "error");
    let text = notification["message"]["text"].as_str().expect("text");
    assert!(
        text.contains("catalog/syncdef.toml") && text.contains("did you mean"),
        "{text}"
    );
    // The findings of the files that were linted are still there.
    assert_eq!(results(&failed).len(), 4);
}

#[test]
fn sarif_failed_log_is_valid_and_carries_the_failure() {
    let log = sarif::failed_log("syncdef.toml: invalid level `loud`", &sarif_options());
    assert_valid_sarif(&log);
    // An empty results array (uploaders require one), but never a successful run.
    assert!(results(&log).is_empty());
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    assert_eq!(
        invocation["toolExecutionNotifications"][0]["message"]["text"],
        "syncdef.toml: invalid level `loud`"
    );
}

#[test]
fn sarif_meets_github_requirements() {
    // docs.github.com "SARIF support for code scanning": each result needs ruleId, a message
    // text and a location with a relative URI and a startLine; rules need an id, and help for
    // the alert page.
    let log = sarif::to_value(&shared_report());
    assert_valid_sarif(&log);
    for result in results(&log) {
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

/// The vendor-like description of the scope tests, linted with the default scope: one warning
/// reported, two errors in parts no entry uses.
fn scoped_report() -> LintReport {
    let config = syncdef_validator::Config {
        settings: Some(Arc::new(syncdef_validator::RuleSettings::default())),
        ..syncdef_validator::Config::default()
    };
    syncdef_validator::lint_paths(
        &[PathBuf::from("tests/fixtures/scope/vendor.yaml")],
        &config,
    )
}

#[test]
fn findings_outside_the_scope_are_counted_in_every_format_and_listed_in_none() {
    let report = scoped_report();
    assert_eq!(report.summary().outside_scope, 2);
    let note = "2 findings in parts of the description no entry uses; `--scope all` shows them";

    let human = render(&report, OutputFormat::Human, &options());
    assert!(
        human.ends_with(&format!("Found 1 warning in 1 file.\n{note}\n")),
        "{human}"
    );
    assert!(
        !human.contains("SD124") && !human.contains("SD123"),
        "{human}"
    );

    let json: Value =
        serde_json::from_str(&render(&report, OutputFormat::Json, &options())).expect("JSON");
    assert_eq!(json["summary"]["outsideScope"], 2);
    assert_eq!(json["summary"]["warnings"], 1);
    assert_eq!(json["summary"]["errors"], 0);
    assert_eq!(json["diagnostics"].as_array().map(Vec::len), Some(1));

    let github = render(&report, OutputFormat::Github, &options());
    let lines: Vec<&str> = github.lines().collect();
    assert_eq!(lines.len(), 2, "{github}");
    assert!(lines[0].starts_with("::warning "), "{github}");
    assert_eq!(lines[1], format!("::notice::{note}"));

    let log = sarif::to_value_with(&report, &sarif_options());
    assert_valid_sarif(&log);
    let run = &log["runs"][0];
    assert_eq!(results(&log).len(), 1);
    assert_eq!(run["properties"]["outsideScope"], 2);
    let invocation = &run["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], true);
    assert_eq!(
        invocation["toolConfigurationNotifications"],
        serde_json::json!([{ "level": "note", "message": { "text": note } }])
    );
}

#[test]
fn a_run_without_findings_outside_the_scope_says_nothing_of_it() {
    let report = shared_report();
    let human = render(&report, OutputFormat::Human, &options());
    assert!(!human.contains("--scope all"), "{human}");
    assert!(!render(&report, OutputFormat::Github, &options()).contains("::notice::"));
    let log = sarif::to_value_with(&report, &sarif_options());
    assert_eq!(log["runs"][0]["properties"]["outsideScope"], 0);
    assert!(
        log["runs"][0]["invocations"][0]
            .get("toolConfigurationNotifications")
            .is_none()
    );
}

#[test]
fn one_finding_outside_the_scope_is_counted_in_the_singular() {
    let mut report = shared_report();
    let file = &mut report.files[0];
    let moved = file.diagnostics.remove(0);
    file.outside_scope.push(moved);
    let human = render(&report, OutputFormat::Human, &options());
    assert!(
        human.ends_with(
            "\n1 finding in a part of the description no entry uses; `--scope all` shows it\n"
        ),
        "{human}"
    );
}
