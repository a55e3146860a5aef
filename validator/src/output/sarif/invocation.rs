//! `run.invocations`: whether the run did its whole job.
//!
//! A run that could not lint some path (unreadable, or its `syncdef.toml` invalid) or could
//! not start at all says `executionSuccessful: false` and carries each failure as a
//! `toolExecutionNotifications` entry, so that a code scanning upload never reads a failed
//! run as a run without alerts.

use serde_json::{Value, json};

use crate::report::LintReport;

/// The invocation of a run that produced `report`.
pub(super) fn of(report: &LintReport) -> Value {
    let failures: Vec<String> = report.errors.iter().map(ToString::to_string).collect();
    with_failures(&failures)
}

/// The invocation of a run that ended with `failures` (none: a successful run).
pub(super) fn with_failures(failures: &[String]) -> Value {
    if failures.is_empty() {
        return json!({ "executionSuccessful": true });
    }
    let notifications: Vec<Value> = failures
        .iter()
        .map(|text| json!({ "level": "error", "message": { "text": text } }))
        .collect();
    json!({
        "executionSuccessful": false,
        "toolExecutionNotifications": notifications,
    })
}
