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
use crate::record::{Handled, plan, settle, unresolved_create, waiting_for_an_operator};
use crate::report::RecordResult;
use crate::shared::Core;
use crate::state::{RecordKey, RecordRow, RecordStatus};

/// The record whose lines are pushed.
pub(crate) struct Parent<'a> {
    /// Its entry (`Invoice`): the lines name its external id under this name.
    pub entry: &'a str,
    pub platform_id: &'a str,
}

/// Pushes every line of `parent`, with the entry the engine names, as `request` (the parent's
/// post-action, after its push) asks.
pub(crate) async fn push_all(
    core: &Arc<Core>,
    parent: &Parent<'_>,
    request: &SyncRequest<'_>,
    lines: Lines<'_>,
) -> Result<(), EngineError> {
    let Lines {
        entry: lines,
        items,
    } = lines;
    let related = related(parent, request)?;
    let keys = items
        .iter()
        .enumerate()
        .map(|(index, line)| key_of(parent, lines, index, line))
        .collect::<Result<Vec<_>, _>>()?;
    for (index, (line, key)) in items.iter().zip(&keys).enumerate() {
        let handled = push_one(core, lines, key, line, request.record, &related)
            .await
            .map_err(|e| {
                let class = match e {
                    WorkerError::Authentication(_) => ErrorClass::Authentication,
                    _ => ErrorClass::Transient,
                };
                EngineError::new(class, format!("line {}: {e}", key.platform_id))
            })?;
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
        parent: request.record,
        related: &related,
    };
    remove_gone(core, parent, &gone, &keys).await
}

/// What the removal of a line the record no longer has needs.
struct Gone<'a> {
    lines: &'a str,
    parent: &'a Value,
    related: &'a BTreeMap<String, String>,
}

/// The lines stored for `parent` that it no longer has (removed on the platform): deleted in
/// the external system where the entry of lines can delete, their rows then forgotten; a line
/// never created there is forgotten at once; one that cannot be deleted stays, and the run's
/// summary says so.
async fn remove_gone(
    core: &Arc<Core>,
    parent: &Parent<'_>,
    gone: &Gone<'_>,
    kept: &[RecordKey],
) -> Result<(), EngineError> {
    let prefix = format!("{}/", parent.platform_id);
    let rows = core
        .state
        .rows_under(gone.lines, &prefix)
        .map_err(|e| EngineError::new(ErrorClass::Transient, e.to_string()))?;
    let can_delete = core
        .engine
        .plan()
        .entry(gone.lines)
        .is_some_and(|e| e.has(syncdef_engine::OperationKind::Delete));
    for row in rows.iter().filter(|r| !kept.contains(&r.key)) {
        match (&row.external_id, row.status) {
            // Nothing of it exists there: a create that failed, not one of unknown outcome.
            (None, RecordStatus::Failed) => forget(core, &row.key)?,
            (None, _) => {}
            (Some(_), _) if !can_delete => {
                core.summary(gone.lines, |s| {
                    s.warn(format!(
                        "line `{}` was removed from its {} record on the platform; `{}` has no `push.delete`, so it stays in the external system",
                        row.key.platform_id, parent.entry, gone.lines
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

/// The external ids a line names: the records its parent names, and the parent itself under
/// its entry's name.
fn related(
    parent: &Parent<'_>,
    request: &SyncRequest<'_>,
) -> Result<BTreeMap<String, String>, EngineError> {
    let Some(id) = request.external_id else {
        return Err(EngineError::configuration(format!(
            "the lines of the {} record are pushed once it has an external id",
            parent.entry
        )));
    };
    let mut related = request.related.clone();
    related.insert(parent.entry.to_owned(), id.to_owned());
    Ok(related)
}

/// The state key of line `index`: its parent's platform id and its own `id`.
fn key_of(
    parent: &Parent<'_>,
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
                parent.entry,
                parent.platform_id
            )));
        }
    };
    Ok(RecordKey::new(
        lines,
        format!("{}/{id}", parent.platform_id),
    ))
}

/// Pushes one line unless it is unchanged since its last push, and stores what became of it.
async fn push_one(
    core: &Arc<Core>,
    lines: &str,
    key: &RecordKey,
    line: &Value,
    parent: &Value,
    related: &BTreeMap<String, String>,
) -> Result<Handled, WorkerError> {
    let row = core.state.record(key)?;
    let hash = input_hash(&serde_json::Value::from(line), related);
    if let Some(skip) = already(core, lines, row.as_ref(), &hash) {
        return Ok(skip);
    }
    let state = RecordState {
        external_id: row.as_ref().and_then(|r| r.external_id.clone()),
        related: related.clone(),
        server_variables: core.options.server_variables.clone(),
        unresolved_create: unresolved_create(row.as_ref()),
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
    settle(
        core,
        lines,
        key,
        row.as_ref(),
        &state,
        None,
        &outcome,
        &body_hash,
    )
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
        // Lines are pushed under their parent's lease, so no other push of this one is under
        // way: a create marked in flight and not recovered yet is of unknown outcome too, and
        // waits, since the engine is not told of it as an unresolved create.
        RecordStatus::InFlight => Some(waiting(row)),
        RecordStatus::Unknown => {
            let kept_key = row
                .create
                .as_ref()
                .is_some_and(|c| c.idempotency_key.is_some());
            if core.engine.plan().finds_out_unknown_create(lines, kept_key) {
                return None;
            }
            Some(waiting(row))
        }
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
