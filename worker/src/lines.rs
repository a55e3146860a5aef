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

use syncdef_engine::{EngineError, ErrorClass, RecordState, SyncRequest};

use crate::error::WorkerError;
use crate::guard::InFlightGuard;
use crate::hash::input_hash;
use crate::observer::Flow;
use crate::record::{Handled, plan, settle, unresolved_create};
use crate::report::RecordResult;
use crate::shared::Core;
use crate::state::{RecordKey, RecordRow, RecordStatus};

/// The record whose lines are pushed.
pub(crate) struct Parent<'a> {
    /// Its entry (`Invoice`): the lines name its external id under this name.
    pub entry: &'a str,
    pub platform_id: &'a str,
    pub record: &'a serde_json::Value,
}

/// Pushes every line of `parent` with the entry `lines`, as `request` (the parent's
/// post-action, after its push) asks.
pub(crate) async fn push_all(
    core: &Arc<Core>,
    parent: &Parent<'_>,
    lines: &str,
    request: &SyncRequest<'_>,
) -> Result<(), EngineError> {
    let items = items_of(core, parent, lines)?;
    let related = related(parent, request)?;
    let parent_value = syncdef_transform::Value::from(parent.record.clone());
    for (index, line) in items.iter().enumerate() {
        let key = key_of(parent, lines, index, line)?;
        let handled = push_one(core, lines, &key, line, &parent_value, &related)
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
    Ok(())
}

/// The parent's lines that the entry `lines` pushes (`items`), none when it has none.
fn items_of(
    core: &Core,
    parent: &Parent<'_>,
    lines: &str,
) -> Result<Vec<serde_json::Value>, EngineError> {
    let plan = core.engine.plan();
    let collection = plan
        .entry(lines)
        .and_then(|e| e.module.line_collection())
        .ok_or_else(|| {
            EngineError::configuration(format!("entry `{lines}` is not an entry of lines"))
        })?;
    match parent.record.get(collection.field) {
        None | Some(serde_json::Value::Null) => Ok(Vec::new()),
        Some(serde_json::Value::Array(items)) => Ok(items.clone()),
        Some(_) => Err(EngineError::configuration(format!(
            "the {} record's `{}` is not the array of its lines",
            parent.entry, collection.field
        ))),
    }
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
    line: &serde_json::Value,
) -> Result<RecordKey, EngineError> {
    let id = match line.get("id") {
        Some(serde_json::Value::String(id)) if !id.is_empty() => id.clone(),
        Some(serde_json::Value::Number(id)) => id.to_string(),
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
    line: &serde_json::Value,
    parent: &syncdef_transform::Value,
    related: &BTreeMap<String, String>,
) -> Result<Handled, WorkerError> {
    let row = core.state.record(key)?;
    let hash = input_hash(line, related);
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
    let value = syncdef_transform::Value::from(line.clone());
    let outcome = engine.push_line(lines, &value, parent, &state).await;
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
        Some(format!(
            "waiting for an operator: {}",
            row.last_error
                .as_deref()
                .unwrap_or("unknown outcome of a create")
        )),
    )
}
