//! SARIF 2.1.0, as GitHub code scanning ingests it.
//!
//! Every rule is listed under `tool.driver.rules` (so viewers show the docs of rules that did
//! not fire, and `ruleIndex` is stable); each result points at one region. GitHub's
//! requirements (docs.github.com, "SARIF support for code scanning"): `ruleId`, `message.text`,
//! a `physicalLocation` whose `artifactLocation.uri` is relative to the repository root, and a
//! region with at least `startLine`. Columns are counted in Unicode code points, which the run
//! declares with `columnKind`.

use std::path::Path;

use serde_json::{Value, json};

use crate::codes::Rule;
use crate::diagnostic::Severity;
use crate::report::LintReport;

/// The URI of the SARIF 2.1.0 schema, written into `$schema`.
pub const SARIF_SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The report as a SARIF log.
#[must_use]
pub fn to_value(report: &LintReport) -> Value {
    let rules: Vec<Value> = Rule::ALL.iter().map(|r| rule_descriptor(*r)).collect();
    let results: Vec<Value> = report
        .diagnostics()
        .map(|d| {
            let loc = d.location();
            let mut text = d.message.clone();
            if let Some(help) = &d.help {
                text.push_str("\nhelp: ");
                text.push_str(help);
            }
            let mut result = json!({
                "ruleId": d.code(),
                "ruleIndex": rule_index(d.rule),
                "level": level(d.severity),
                "message": { "text": text },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": { "uri": artifact_uri(d.file.name()) },
                        "region": {
                            "startLine": loc.start.line,
                            "startColumn": loc.start.column,
                            "endLine": loc.end.line,
                            "endColumn": loc.end.column,
                        }
                    }
                }],
            });
            if let Some(pointer) = &d.pointer {
                // SARIF keeps tool-specific data in property bags.
                result["properties"] = json!({ "pointer": pointer });
            }
            result
        })
        .collect();
    json!({
        "$schema": SARIF_SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "syncdef",
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "informationUri": "https://github.com/syncdef/syncdef",
                    "rules": rules,
                }
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }]
    })
}

fn rule_descriptor(rule: Rule) -> Value {
    let docs = rule.documentation();
    json!({
        "id": rule.code(),
        "name": rule.name(),
        "shortDescription": { "text": rule.title() },
        "fullDescription": { "text": first_paragraph(&docs) },
        "help": { "text": docs, "markdown": docs },
        "helpUri": rule.url(),
        "defaultConfiguration": { "level": level(rule.default_severity()) },
    })
}

fn rule_index(rule: Rule) -> usize {
    Rule::ALL
        .iter()
        .position(|r| *r == rule)
        .unwrap_or_default()
}

/// The first paragraph of the "What it does" section.
fn first_paragraph(docs: &str) -> String {
    docs.lines()
        .skip_while(|l| !l.starts_with("## What it does"))
        .skip(1)
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// SARIF levels: `info` has no SARIF equivalent but `note`.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A relative URI reference for a file name: forward slashes, no `./`, reserved characters
/// percent-encoded. An absolute path is made relative to the current directory when it lies
/// under it, since GitHub resolves URIs against the repository root (where CI runs).
#[must_use]
pub fn artifact_uri(name: &str) -> String {
    let path = Path::new(name);
    let relative = if path.is_absolute() {
        std::env::current_dir()
            .ok()
            .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_owned))
            .unwrap_or_else(|| path.to_owned())
    } else {
        path.to_owned()
    };
    let text = relative.to_string_lossy().replace('\\', "/");
    let text = text.trim_start_matches("./");
    let mut out = String::with_capacity(text.len());
    if path.is_absolute() && text.starts_with('/') {
        out.push_str("file://");
    }
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(byte as char);
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_relative_and_encoded() {
        assert_eq!(
            artifact_uri("./catalog/qbo online.yaml"),
            "catalog/qbo%20online.yaml"
        );
        assert_eq!(artifact_uri("catalog\\bc.yaml"), "catalog/bc.yaml");
    }
}
