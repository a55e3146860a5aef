//! The JSON format: one object holding every diagnostic and a summary.
//!
//! ```json
//! {"diagnostics": [{"code": "SD202", "severity": "error", "message": "...", "file": "qbo.yaml",
//!   "line": 12, "column": 13, "endLine": 12, "endColumn": 40,
//!   "pointer": "/synchronization/Customer/push/create", "help": "did you mean ...?",
//!   "related": [{"message": "in this operation", "line": 11, "column": 7, "endLine": 11,
//!                "endColumn": 13}]}],
//!  "summary": {"files": 1, "errors": 1, "warnings": 0, "infos": 0, "suppressed": 0,
//!              "outsideScope": 0}}
//! ```
//!
//! `related` lists the other places that explain the finding (the human format's labels,
//! SARIF's `relatedLocations`), in the same file; it is empty when there are none.
//!
//! `suppressed` counts the findings an `x-syncdef-ignore` or the ignore file silenced;
//! `outsideScope` those in parts of the description no entry uses (`--scope all` lists them,
//! see [`crate::scope`]). Neither kind is listed.
//!
//! Lines and columns are 1-based, columns count characters; `endLine`/`endColumn` is the
//! position just past the last character. `pointer` and `help` are `null` when absent. Field names are
//! camelCase, like every JSON document the CLI prints. The shape is a public contract: fields
//! are only ever added.

use serde::Serialize;
use serde_json::Value;

use syncdef_definitions::Location;

use crate::report::LintReport;

/// The document, with fields in the documented order.
#[derive(Serialize)]
struct JsonReport<'a> {
    diagnostics: Vec<JsonDiagnostic<'a>>,
    summary: JsonSummary,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonDiagnostic<'a> {
    code: &'static str,
    severity: &'static str,
    message: &'a str,
    file: &'a str,
    #[serde(flatten)]
    place: JsonPlace,
    pointer: Option<&'a str>,
    help: Option<&'a str>,
    related: Vec<JsonRelated<'a>>,
}

/// A place that explains a finding.
#[derive(Serialize)]
struct JsonRelated<'a> {
    message: &'a str,
    /// The place's file, when it is not the finding's (a definition written as an overlay).
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    #[serde(flatten)]
    place: JsonPlace,
}

/// Where a finding or a related place starts and ends (1-based, columns in characters, the end
/// just past the last character).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonPlace {
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
}

impl From<Location> for JsonPlace {
    fn from(at: Location) -> Self {
        JsonPlace {
            line: at.start.line,
            column: at.start.column,
            end_line: at.end.line,
            end_column: at.end.column,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonSummary {
    files: usize,
    errors: usize,
    warnings: usize,
    infos: usize,
    suppressed: usize,
    outside_scope: usize,
}

/// The report as a JSON string (pretty-printed, fields in the documented order).
#[must_use]
pub fn to_string(report: &LintReport) -> String {
    let diagnostics = report
        .diagnostics()
        .map(|d| JsonDiagnostic {
            code: d.code(),
            severity: d.severity.as_str(),
            message: &d.message,
            file: d.file_name(),
            place: d.location().into(),
            pointer: d.pointer.as_deref(),
            help: d.help.as_deref(),
            related: d
                .labels
                .iter()
                .map(|label| JsonRelated {
                    message: &label.message,
                    file: Some(d.file_name_at(label.span)).filter(|f| *f != d.file_name()),
                    place: d.file.location(label.span).into(),
                })
                .collect(),
        })
        .collect();
    let summary = report.summary();
    let doc = JsonReport {
        diagnostics,
        summary: JsonSummary {
            files: summary.files,
            errors: summary.errors,
            warnings: summary.warnings,
            infos: summary.infos,
            suppressed: summary.suppressed,
            outside_scope: summary.outside_scope,
        },
    };
    // Serializing plain structs of strings and integers cannot fail.
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

/// The report as a JSON value (for tools embedding it in a larger document).
#[must_use]
pub fn to_value(report: &LintReport) -> Value {
    serde_json::from_str(&to_string(report)).unwrap_or(Value::Null)
}
