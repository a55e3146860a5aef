//! `run.invocations`: whether the run did its whole job.
//!
//! A run that could not lint some path (unreadable, or its `syncdef.toml` invalid) or could
//! not start at all says `executionSuccessful: false` and carries each failure as a
//! `toolExecutionNotifications` entry, so that a code scanning upload never reads a failed
//! run as a run without alerts. Findings the scope set apart are counted in a
//! `toolConfigurationNotifications` entry: the configuration decides whether they show.

use serde_json::{Value, json};

use crate::report::LintReport;

/// The invocation of a run that produced `report`.
pub(super) fn of(report: &LintReport) -> Value {
    let failures: Vec<String> = report.errors.iter().map(ToString::to_string).collect();
    let mut invocation = with_failures(&failures);
    if let Some(note) = crate::output::outside_scope_note(report) {
        invocation["toolConfigurationNotifications"] =
            json!([{ "level": "note", "message": { "text": note } }]);
    }
    invocation
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
