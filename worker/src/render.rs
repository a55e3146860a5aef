//! Text renderings of a run's report and of a state's status, as `syncdef sync` prints them.

use crate::report::SyncReport;
use crate::stamp::utc_text;
use crate::status::StatusReport;

/// The summary `syncdef sync` prints: in a dry-run the requests first, then a table of counts
/// per entry with its cursor, and why the run stopped if it did.
pub fn summary(report: &SyncReport) -> String {
    let mut out = String::new();
    if report.dry_run {
        // Without the note, the id of a customer created earlier in the run (the example's,
        // the same for every customer) reads as the system's in each invoice that names it.
        out.push_str(
            "dry-run: nothing was sent and the state was not changed\n\
             dry-run: the answers, and the external ids later requests take from them, are made \
             from the definition's examples\n\n",
        );
        for planned in &report.planned {
            out.push_str(&format!(
                "{} {}: {}\n",
                planned.entry,
                planned.platform_id,
                planned.operation.as_deref().unwrap_or("no operation")
            ));
            for request in &planned.requests {
                out.push_str(&format!("  {} {}\n", request.method, request.url));
                if !request.body.is_null() {
                    out.push_str(&format!("    {}\n", request.body));
                }
            }
            if let Some(error) = &planned.error {
                out.push_str(&format!("  would fail: {error}\n"));
            }
        }
        out.push('\n');
    }
    if report.recovered_in_flight > 0 {
        out.push_str(&format!(
            "{} create(s) cut short by an earlier run are now `unknown`: see `syncdef sync status`\n",
            report.recovered_in_flight
        ));
    }
    if !report.pulled.is_empty() {
        out.push_str(&pulled(report));
    }
    if report.entries.is_empty() && !report.pulled.is_empty() {
        if let Some(stopped) = &report.stopped {
            out.push_str(&format!("stopped: {stopped}\n"));
        }
        return out;
    }
    // A dry-run created nothing: its columns say what the run would do.
    let (created, updated, failed) = if report.dry_run {
        ("would create", "would update", "would fail")
    } else {
        ("created", "updated", "failed")
    };
    let width = |word: &str| word.len().max(7);
    let (wc, wu, wf) = (width(created), width(updated), width(failed));
    out.push_str(&format!(
        "{:<12} {:>7} {:>7} {created:>wc$} {updated:>wu$} {:>9} {failed:>wf$} {:>7} {:>7}  cursor\n",
        "entry", "listed", "retried", "unchanged", "unknown", "skipped"
    ));
    // The entries run, then those whose records were pushed within others' (the lines of
    // invoices): they have counts but no listing of their own.
    let lines = report.entries.iter().filter(|(name, s)| {
        !report.order.contains(name) && s.pushed_as_dependency == 0 && s.listed == 0
    });
    let rows = report
        .order
        .iter()
        .filter_map(|name| Some((name, report.entries.get(name)?)))
        .chain(lines);
    for (name, s) in rows {
        out.push_str(&format!(
            "{:<12} {:>7} {:>7} {:>wc$} {:>wu$} {:>9} {:>wf$} {:>7} {:>7}  {}\n",
            name,
            s.listed,
            s.retried,
            s.created,
            s.updated,
            s.unchanged,
            s.failed,
            s.unknown,
            s.skipped,
            s.cursor.as_deref().unwrap_or("-")
        ));
    }
    for (name, s) in &report.entries {
        if !report.order.contains(name) && s.pushed_as_dependency > 0 {
            out.push_str(&format!(
                "{name}: {} pushed first because records above needed them\n",
                s.pushed_as_dependency
            ));
        }
    }
    for (name, s) in report.entries.iter().filter(|(_, s)| s.deleted > 0) {
        let verb = if report.dry_run {
            "would be deleted"
        } else {
            "deleted"
        };
        out.push_str(&format!("{name}: {} {verb}\n", s.deleted));
    }
    out.push_str(&repeated_creates(report));
    out.push_str(&warnings(report));
    if let Some(stopped) = &report.stopped {
        out.push_str(&format!("stopped: {stopped}\n"));
    }
    out
}

/// A line for each entry with creates sent again under an earlier create's idempotency key
/// and then updated: counted as created, they are what an operator looking for duplicates
/// wants to know of.
fn repeated_creates(report: &SyncReport) -> String {
    let mut out = String::new();
    for name in &report.order {
        let n = report.entries.get(name).map_or(0, |s| s.repeated_creates);
        if n == 0 {
            continue;
        }
        let creates = if n == 1 { "create" } else { "creates" };
        out.push_str(&format!(
            "{name}: {n} {creates} sent again under an earlier create's idempotency key; the external system may have answered with that create, so the record was updated with its current version\n"
        ));
    }
    out
}

/// The run's warnings, then each entry's, a line each.
fn warnings(report: &SyncReport) -> String {
    let run = report.warnings.iter().map(|w| (None, w));
    let entries = report
        .order
        .iter()
        .filter_map(|name| report.entries.get(name).map(|s| (name, s)))
        .flat_map(|(name, s)| s.warnings.iter().map(move |w| (Some(name), w)));
    run.chain(entries)
        .map(|(name, warning)| match name {
            Some(name) => format!("warning: {name}: {warning}\n"),
            None => format!("warning: {warning}\n"),
        })
        .collect()
}

/// The table of what the pulls did.
fn pulled(report: &SyncReport) -> String {
    let mut out = format!(
        "{:<12} {:>7} {:>7} {:>7} {:>9} {:>9} {:>8} {:>7} {:>7}  pull cursor\n",
        "pulled",
        "read",
        "created",
        "updated",
        "unchanged",
        "conflicts",
        "rejected",
        "failed",
        "unknown"
    );
    for (name, s) in &report.pulled {
        out.push_str(&format!(
            "{:<12} {:>7} {:>7} {:>7} {:>9} {:>9} {:>8} {:>7} {:>7}  {}\n",
            name,
            s.read,
            s.created,
            s.updated,
            s.unchanged,
            s.conflicts,
            s.rejected,
            s.failed,
            s.unknown,
            s.cursor.as_deref().unwrap_or("-")
        ));
    }
    out.push('\n');
    out
}

/// What `syncdef sync status` prints: counts, cursors, and the records needing attention.
pub fn status(report: &StatusReport) -> String {
    let mut out = String::new();
    if report.counts.is_empty() {
        out.push_str("no records synced yet\n");
    }
    for (entry, counts) in &report.counts {
        let parts: Vec<String> = counts.iter().map(|(s, n)| format!("{n} {s}")).collect();
        out.push_str(&format!("{entry}: {}\n", parts.join(", ")));
    }
    for cursor in &report.cursors {
        out.push_str(&format!(
            "{} cursor: updatedAt {}\n",
            cursor.entry, cursor.updated_at
        ));
    }
    if !report.problems.is_empty() {
        out.push_str("\nrecords needing attention:\n");
    }
    for row in &report.problems {
        out.push_str(&format!(
            "{} {} [{}] attempts {}{}{}\n    {}\n",
            row.key.entry,
            row.key.platform_id,
            row.status,
            row.attempts,
            row.external_id
                .as_deref()
                .map(|e| format!(", external id {e}"))
                .unwrap_or_default(),
            row.next_attempt_at
                .map(|t| format!(", next attempt after {}", utc_text(t)))
                .unwrap_or_default(),
            row.last_error.as_deref().unwrap_or("(no message)")
        ));
    }
    if report.truncated {
        out.push_str("(more records; raise --limit to list them)\n");
    }
    if !report.warnings.is_empty() {
        out.push_str("\nwarnings of the last run:\n");
    }
    for row in &report.warnings {
        let scope = if row.entry.is_empty() {
            "the run".to_owned()
        } else {
            row.entry.clone()
        };
        for message in &row.messages {
            out.push_str(&format!(
                "{scope} ({}): {message}\n",
                utc_text(row.changed_at)
            ));
        }
    }
    out
}
