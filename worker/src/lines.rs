//! The lines of a record (an invoice's items) pushed one request each, after the record, when
//! the engine hands them over: each line is a record of its own in the state, known by its
//! parent's platform id and its own (`<invoice id>/<item id>`), so that it is pushed exactly
//! once as records are. Its create is marked in flight before it leaves, with its idempotency
//! key; an unchanged line already pushed is not sent again; a changed one is updated; a line
//! whose create's outcome is unknown is found out (by its kept key or the entry's lookup)
//! before it is created again. The first line that fails stops the others and fails the
//! record's post-action, so the record is tried again, and with it the lines not yet pushed.

use std::collections::BTreeMap;
use std::sync::Arc;

use syncdef_engine::{EngineError, ErrorClass, Lines, RecordState, SyncRequest};
use syncdef_transform::Value;

use crate::error::WorkerError;
use crate::guard::InFlightGuard;
use crate::hash::input_hash;
use crate::observer::Flow;
use crate::record::{Handled, finds_out, plan, settle, unresolved_create, waiting_for_an_operator};
use crate::report::RecordResult;
use crate::shared::Core;
use crate::state::{RecordKey, RecordRow, RecordStatus};

/// Pushes every line the engine hands over (`lines`) of the record whose platform id is
/// `parent_id`, as `request` (the record's post-action, after its push) asks.
pub(crate) async fn push_all(
    core: &Arc<Core>,
    parent_id: &str,
    request: &SyncRequest<'_>,
    lines: &Lines<'_>,
) -> Result<(), EngineError> {
    let Lines {
        entry: lines,
        items,
        related,
    } = lines;
    if request.external_id.is_none() {
        return Err(EngineError::configuration(format!(
            "the lines of the {} record are pushed once it has an external id",
            request.entry
        )));
    }
    let keys = items
        .iter()
        .enumerate()
        .map(|(index, line)| key_of(request.entry, parent_id, lines, index, line))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(twice) = keys
        .iter()
        .enumerate()
        .find(|(i, k)| keys[..*i].contains(k))
        .map(|(_, k)| k)
    {
        // Two lines under one key would share one row, and one of them would never be pushed.
        return Err(EngineError::configuration(format!(
            "two lines of the {} record {parent_id} have the id of `{}`: a line is known by its id, so that it is pushed once",
            request.entry, twice.platform_id
        )));
    }
    // Every line's row, new and gone, read at once: the record's lease keeps other pushes
    // from writing them meanwhile.
    let stored = core
        .state
        .rows_under(lines, &format!("{parent_id}/"))
        .map_err(|e| EngineError::new(ErrorClass::Transient, e.to_string()))?;
    let row_of = |key: &RecordKey| stored.iter().find(|r| &r.key == key);
    for (index, (line, key)) in items.iter().zip(&keys).enumerate() {
        let handled = push_one(core, lines, key, row_of(key), line, request.record, related)
            .await
            .map_err(|e| EngineError::new(e.class(), format!("line {}: {e}", key.platform_id)))?;
        core.count(
            lines,
            &key.platform_id,
            handled.result,
            handled.error.as_deref(),
        );
        if let RecordResult::Failed | RecordResult::Unknown = handled.result {
            let class = if handled.result == RecordResult::Unknown {
                ErrorClass::UnknownOutcome
            } else {
                ErrorClass::Transient
            };
            return Err(EngineError::new(
                class,
                format!(
                    "line {} of {} ({} `{}`) failed, {} pushed before it: {}",
                    index + 1,
                    items.len(),
                    lines,
                    key.platform_id,
                    index,
                    handled.error.as_deref().unwrap_or("no message")
                ),
            ));
        }
    }
    let gone = Gone {
        lines,
        entry: request.entry,
        parent: request.record,
        related,
    };
    let removed = stored.iter().filter(|r| !keys.contains(&r.key));
    remove_gone(core, &gone, removed).await
}

/// What the removal of a line the record no longer has needs.
struct Gone<'a> {
    lines: &'a str,
    /// The record's entry (`Invoice`).
    entry: &'a str,
    parent: &'a Value,
    related: &'a BTreeMap<String, String>,
}

/// The lines stored for `parent` that it no longer has (removed on the platform): deleted in
/// the external system where the entry of lines can delete, their rows then forgotten; a line
/// never created there is forgotten at once; one that cannot be deleted stays, and the run's
/// summary says so.
async fn remove_gone<'r>(
    core: &Arc<Core>,
    gone: &Gone<'_>,
    removed: impl Iterator<Item = &'r RecordRow>,
) -> Result<(), EngineError> {
    let can_delete = core
        .engine
        .plan()
        .entry_has(gone.lines, syncdef_engine::OperationKind::Delete);
    for row in removed {
        match (&row.external_id, row.status) {
            // Nothing of it exists there: a create that failed, not one of unknown outcome.
            (None, RecordStatus::Failed) => forget(core, &row.key)?,
            (None, _) => {}
            (Some(_), _) if !can_delete => {
                core.summary(gone.lines, |s| {
                    s.warn(format!(
                        "line `{}` was removed from its {} record on the platform; `{}` has no `push.delete`, so it stays in the external system",
                        row.key.platform_id, gone.entry, gone.lines
                    ));
                });
            }
            (Some(_), _) => delete_one(core, gone, row).await?,
        }
    }
    Ok(())
}

/// Deletes the line of `row` in the external system, then forgets its row.
async fn delete_one(core: &Arc<Core>, gone: &Gone<'_>, row: &RecordRow) -> Result<(), EngineError> {
    let state = RecordState {
        external_id: row.external_id.clone(),
        related: gone.related.clone(),
        server_variables: core.options.server_variables.clone(),
        unresolved_create: None,
        intent: syncdef_engine::Intent::Delete,
    };
    // The line itself is gone from the record: its id is what is left of it.
    let id = row
        .key
        .platform_id
        .rsplit_once('/')
        .map_or(row.key.platform_id.as_str(), |(_, id)| id);
    let line = Value::from(serde_json::json!({ "id": id }));
    let outcome = core
        .engine
        .with_transport(core.transport.clone())
        .push_line(gone.lines, &line, gone.parent, &state)
        .await;
    crate::requests::report(core, gone.lines, Flow::Push, &outcome.exchanges);
    if core.options.dry_run {
        plan(core, &row.key, &outcome);
    }
    if let Some(error) = outcome.error {
        return Err(EngineError::new(
            error.class,
            format!(
                "deleting line `{}`, removed from its record on the platform: {}",
                row.key.platform_id, error.message
            ),
        ));
    }
    core.count(
        gone.lines,
        &row.key.platform_id,
        RecordResult::Deleted,
        None,
    );
    forget(core, &row.key)
}

fn forget(core: &Core, key: &RecordKey) -> Result<(), EngineError> {
    core.state
        .forget(key)
        .map(|_| ())
        .map_err(|e| EngineError::new(ErrorClass::Transient, e.to_string()))
}

/// The state key of line `index`: its parent's platform id and its own `id`.
fn key_of(
    entry: &str,
    parent_id: &str,
    lines: &str,
    index: usize,
    line: &Value,
) -> Result<RecordKey, EngineError> {
    let id = match line.get("id") {
        Some(Value::String(id)) if !id.is_empty() => id.to_string(),
        Some(Value::Int(id)) => id.to_string(),
        _ => {
            return Err(EngineError::configuration(format!(
                "line {} of the {} record {} has no `id`: a line is known by its id, so that it is pushed once and updated after",
                index + 1,
                entry,
                parent_id
            )));
        }
    };
    Ok(RecordKey::new(lines, format!("{parent_id}/{id}")))
}

/// Pushes one line unless it is unchanged since its last push, and stores what became of it.
async fn push_one(
    core: &Arc<Core>,
    lines: &str,
    key: &RecordKey,
    row: Option<&RecordRow>,
    line: &Value,
    parent: &Value,
    related: &BTreeMap<String, String>,
) -> Result<Handled, WorkerError> {
    let hash = input_hash(&serde_json::Value::from(line), related);
    if let Some(skip) = already(core, lines, row, &hash) {
        return Ok(skip);
    }
    let state = RecordState {
        external_id: row.and_then(|r| r.external_id.clone()),
        related: related.clone(),
        server_variables: core.options.server_variables.clone(),
        unresolved_create: unresolved_create(row),
        intent: syncdef_engine::Intent::Upsert,
    };
    let engine = core.engine.with_transport(Arc::new(InFlightGuard {
        inner: core.transport.clone(),
        state: core.state.clone(),
        key: key.clone(),
        now: core.now(),
    }));
    let outcome = engine.push_line(lines, line, parent, &state).await;
    crate::requests::report(core, lines, Flow::Push, &outcome.exchanges);
    if core.options.dry_run {
        plan(core, key, &outcome);
    }
    let body_hash = || Ok(hash.clone());
    settle(core, lines, key, row, &state, None, &outcome, &body_hash)
}

/// A line needing no push: pushed before with the same input, or a create of unknown outcome
/// nothing can find out about (which waits for an operator, and fails its parent's lines).
fn already(core: &Core, lines: &str, row: Option<&RecordRow>, hash: &str) -> Option<Handled> {
    let row = row?;
    match row.status {
        RecordStatus::Done if row.body_hash.as_deref() == Some(hash) && !core.options.force => {
            Some(Handled::new(
                RecordResult::Unchanged,
                row.external_id.clone(),
                None,
            ))
        }
        RecordStatus::Unknown if finds_out(core, lines, row) => None,
        // Lines are pushed under their parent's lease, so no other push of this one is under
        // way: a create marked in flight and not recovered yet is of unknown outcome too, and
        // waits, since the engine is not told of it as an unresolved create.
        RecordStatus::InFlight | RecordStatus::Unknown => Some(waiting(row)),
        _ => None,
    }
}

fn waiting(row: &RecordRow) -> Handled {
    Handled::new(
        RecordResult::Unknown,
        None,
        Some(waiting_for_an_operator(row)),
    )
}
