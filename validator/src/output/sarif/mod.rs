//! SARIF 2.1.0, as GitHub code scanning ingests it.
//!
//! GitHub's requirements (docs.github.com, "SARIF support for code scanning"): `ruleId`,
//! `message.text`, a `physicalLocation` whose `artifactLocation.uri` is relative to the
//! repository root, and a region with at least `startLine`. Beyond them, a log carries what
//! keeps alerts right from run to run:
//!
//! - `partialFingerprints` that survive edits elsewhere in the file ([`fingerprint`]);
//! - URIs relative to `%SRCROOT%`, whose absolute value `originalUriBaseIds` gives
//!   ([`artifact`]);
//! - the secondary places of a finding as `relatedLocations`;
//! - `invocations[0].executionSuccessful`, false when a path could not be linted or the run
//!   could not start ([`failed_log`]), so a failed run never uploads as "no alerts";
//! - only the rules that fired or that `syncdef.toml` sets ([`descriptor`]);
//! - the count of findings in parts of the description no entry uses (see [`crate::scope`]),
//!   not listed as results, as the run's `outsideScope` property and, when there are some, a
//!   `toolConfigurationNotifications` entry of the invocation saying that `--scope all`
//!   shows them.
//!
//! Columns are counted in Unicode code points, which the run declares with `columnKind`.

mod artifact;
mod configured;
mod descriptor;
mod fingerprint;
mod invocation;

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::{Value, json};

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Severity};
use crate::report::LintReport;

pub use artifact::{SRCROOT, source_root};
pub use configured::configured_rules;
pub use fingerprint::FINGERPRINT_KEY;

use artifact::Artifacts;
use descriptor::Rules;
use fingerprint::Fingerprints;

/// The URI of the SARIF 2.1.0 schema, written into `$schema`.
pub const SARIF_SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// What a log depends on beyond the report.
#[derive(Clone, Debug, Default)]
pub struct SarifOptions {
    /// The directory artifact URIs are relative to (`%SRCROOT%`); `None`: [`source_root`].
    pub root: Option<PathBuf>,
    /// Rules set in `syncdef.toml`, listed under `tool.driver.rules` even when they did not
    /// fire.
    pub configured: BTreeSet<Rule>,
}

/// The report as a SARIF log, with the default options.
#[must_use]
pub fn to_value(report: &LintReport) -> Value {
    to_value_with(report, &SarifOptions::default())
}

/// The report as a SARIF log.
#[must_use]
pub fn to_value_with(report: &LintReport, options: &SarifOptions) -> Value {
    let artifacts = artifacts(options);
    let rules = Rules::of(report, &options.configured);
    let mut fingerprints = Fingerprints::default();
    let results: Vec<Value> = report
        .diagnostics()
        .map(|d| result(d, &rules, &artifacts, &mut fingerprints))
        .collect();
    let mut log = log(&rules, &results, &artifacts, &invocation::of(report));
    log["runs"][0]["properties"] = json!({ "outsideScope": report.summary().outside_scope });
    log
}

/// The log of a run that could not lint at all (an invalid `--config`, an unreadable input):
/// no results, `executionSuccessful: false` and `message` as a tool notification.
#[must_use]
pub fn failed_log(message: &str, options: &SarifOptions) -> Value {
    let artifacts = artifacts(options);
    let rules = Rules::of(&LintReport::default(), &options.configured);
    let invocation = invocation::with_failures(&[message.to_owned()]);
    // Uploaders require a results array; the invocation says it means nothing.
    log(&rules, &[], &artifacts, &invocation)
}

fn artifacts(options: &SarifOptions) -> Artifacts {
    match &options.root {
        Some(root) => Artifacts::new(root),
        None => Artifacts::new(&source_root()),
    }
}

fn log(rules: &Rules, results: &[Value], artifacts: &Artifacts, invocation: &Value) -> Value {
    json!({
        "$schema": SARIF_SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "syncdef",
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "informationUri": "https://github.com/syncdef/syncdef",
                    "rules": rules.descriptors(),
                }
            },
            "invocations": [invocation],
            "originalUriBaseIds": artifacts.base_ids(),
            "columnKind": "unicodeCodePoints",
            "results": results,
        }]
    })
}

fn result(
    d: &Diagnostic,
    rules: &Rules,
    artifacts: &Artifacts,
    fingerprints: &mut Fingerprints,
) -> Value {
    let mut text = d.message.clone();
    if let Some(help) = &d.help {
        text.push_str("\nhelp: ");
        text.push_str(help);
    }
    let artifact = artifacts.location(d.file_name());
    let fingerprint = fingerprints.next(d, &artifacts.stable_name(d.file_name()));
    let mut result = json!({
        "ruleId": d.code(),
        "level": level(d.severity),
        "message": { "text": text },
        "locations": [{ "physicalLocation": physical(d, d.span, &artifact) }],
        "partialFingerprints": { FINGERPRINT_KEY: fingerprint },
    });
    if let Some(index) = rules.index(d.rule) {
        result["ruleIndex"] = index.into();
    }
    if !d.labels.is_empty() {
        let related: Vec<Value> = d
            .labels
            .iter()
            .zip(1..)
            .map(|(label, id): (_, u32)| {
                json!({
                    "id": id,
                    "physicalLocation": physical(d, label.span, &artifacts.location(d.file_name_at(label.span))),
                    "message": { "text": label.message },
                })
            })
            .collect();
        result["relatedLocations"] = related.into();
    }
    if let Some(pointer) = &d.pointer {
        // SARIF keeps tool-specific data in property bags.
        result["properties"] = json!({ "pointer": pointer });
    }
    result
}

/// The `physicalLocation` of `span` in the file of `d` holding it, whose location is `artifact`.
fn physical(d: &Diagnostic, span: syncdef_definitions::Span, artifact: &Value) -> Value {
    let loc = d.file.location(span);
    json!({
        "artifactLocation": artifact,
        "region": {
            "startLine": loc.start.line,
            "startColumn": loc.start.column,
            "endLine": loc.end.line,
            "endColumn": loc.end.column,
        }
    })
}

/// SARIF levels: `info` has no SARIF equivalent but `note`.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}
