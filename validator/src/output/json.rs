//! The JSON format: one object holding every diagnostic and a summary.
//!
//! ```json
//! {"diagnostics": [{"code": "SD202", "severity": "error", "message": "...", "file": "qbo.yaml",
//!   "line": 12, "column": 13, "end_line": 12, "end_column": 40,
//!   "pointer": "/synchronization/Customer/push/create", "help": "did you mean ...?"}],
//!  "summary": {"files": 1, "errors": 1, "warnings": 0}}
//! ```
//!
//! Lines and columns are 1-based, columns count characters; `end_*` is the position just past
//! the last character. `pointer` and `help` are `null` when absent. The shape is a public
//! contract: fields are only ever added.

use serde_json::{Value, json};

use crate::report::LintReport;

/// The report as a JSON value.
#[must_use]
pub fn to_value(report: &LintReport) -> Value {
    let diagnostics: Vec<Value> = report
        .diagnostics()
        .map(|d| {
            let location = d.location();
            json!({
                "code": d.code(),
                "severity": d.severity.as_str(),
                "message": d.message,
                "file": d.file.name(),
                "line": location.start.line,
                "column": location.start.column,
                "end_line": location.end.line,
                "end_column": location.end.column,
                "pointer": d.pointer,
                "help": d.help,
            })
        })
        .collect();
    let summary = report.summary();
    json!({
        "diagnostics": diagnostics,
        "summary": {
            "files": summary.files,
            "errors": summary.errors,
            "warnings": summary.warnings,
        }
    })
}
