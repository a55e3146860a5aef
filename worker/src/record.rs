//! Handling one record: read it in full, decide whether it changed, push it, store the result.

use std::collections::BTreeMap;
use std::sync::Arc;

use futures::future::BoxFuture;
use syncdef_engine::{
    ErrorClass, OperationKind, PushOutcome, PushStatus, RecordState, RepeatedCreate,
    UnresolvedCreate,
};
use tracing::Instrument;

use crate::error::WorkerError;
use crate::guard::InFlightGuard;
use crate::hash::input_hash;
use crate::observer::Flow;
use crate::related::Related;
use crate::report::{PlannedPush, RecordResult};
use crate::shared::{Core, EntryInfo};
use crate::stamp::Stamp;
use crate::state::{Failed, Pushed, RecordKey, RecordRow, RecordStatus};

/// Why a record is handled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// Listed as changed, with the `updatedAt` text of the listing.
    Listed(Option<String>),
    /// A failed record whose backoff ended.
    Retry,
    /// Another entry's record needs it first (`ApiSynchronization`).
    Dependency,
}

/// What became of the record, and its external id when it has one.
#[derive(Clone, Debug)]
pub(crate) struct Handled {
    pub result: RecordResult,
    pub external_id: Option<String>,
    pub error: Option<String>,
    /// Skipped because another pusher or worker holds the record right now: it is being
    /// pushed, and will be done (or its holder's lease will end) shortly.
    pub busy: bool,
}

impl Handled {
    pub(crate) fn new(
        result: RecordResult,
        external_id: Option<String>,
        error: Option<String>,
    ) -> Self {
        Handled {
            result,
            external_id,
            error,
            busy: false,
        }
    }

    /// A record another pusher or worker is pushing: skipped by this one.
    fn busy(by: &str) -> Self {
        Handled {
            busy: true,
            ..Handled::new(
                RecordResult::Skipped,
                None,
                Some(format!(
                    "another {by} is pushing it; it is tried again after that"
                )),
            )
        }
    }
}

/// Handles `platform_id` of `entry`. Boxed: pushing an invoice may push its account through
/// the engine's callback, which comes back here.
pub(crate) fn sync_one<'a>(
    core: &'a Arc<Core>,
    entry: &'a EntryInfo,
    platform_id: &'a str,
    trigger: Trigger,
) -> BoxFuture<'a, Result<Handled, WorkerError>> {
    // Every line logged while the record is handled (the engine's requests included) carries
    // which record it is about; a dependency pushed first nests its own.
    let span = tracing::info_span!("record", entry = %entry.name, id = %platform_id);
    let handling = async move {
        let handled = handle(core, entry, platform_id, &trigger).await?;
        if trigger == Trigger::Dependency {
            // A look-up of a record already pushed (or waiting for its retry) is not an
            // event of its entry; the record that needed it reports any failure.
            if handled.result == RecordResult::Skipped {
                return Ok(handled);
            }
            core.summary(&entry.name, |s| s.pushed_as_dependency += 1);
        }
        core.count(
            &entry.name,
            platform_id,
            handled.result,
            handled.error.as_deref(),
        );
        Ok(handled)
    };
    Box::pin(handling.instrument(span))
}

/// Handles a record under its lease: no other pusher or worker reads, decides or pushes it
/// meanwhile, and the queue's item is completed with the outcome stored.
async fn handle(
    core: &Arc<Core>,
    entry: &EntryInfo,
    platform_id: &str,
    trigger: &Trigger,
) -> Result<Handled, WorkerError> {
    let queue = core.state.queue();
    let key = RecordKey::new(&entry.name, platform_id);
    let Some(_held) = core.handling.hold(&key) else {
        return Ok(Handled::busy("pusher"));
    };
    if !queue.claim(&key, entry.rank, core.lease())? {
        return Ok(Handled::busy("worker"));
    }
    let handled = handle_owned(core, entry, platform_id, trigger).await?;
    queue.complete(&key, &core.worker_id)?;
    Ok(handled)
}

/// Handles a record this worker alone may push now.
async fn handle_owned(
    core: &Arc<Core>,
    entry: &EntryInfo,
    platform_id: &str,
    trigger: &Trigger,
) -> Result<Handled, WorkerError> {
    let key = RecordKey::new(&entry.name, platform_id);
    let row = core.state.record(&key)?;
    let now = core.now();
    let finds_out = row
        .as_ref()
        .is_some_and(|r| finds_out(core, &entry.name, r));
    if let Some(skip) =
        skip_without_reading(row.as_ref(), trigger, now, core.options.force, finds_out)
    {
        return Ok(skip);
    }
    let listed_stamp = match trigger {
        Trigger::Listed(stamp) => stamp.clone(),
        _ => None,
    };
    let record = match entry.module.read(&core.platform, platform_id).await {
        Ok(record) => record,
        Err(error) => {
            let message = shown(format!(
                "reading the record from the platform failed: {error}"
            ));
            tracing::warn!(entry = %entry.name, id = platform_id, %message, "record failed");
            // A record whose create is unresolved stays so: nothing was learnt of it.
            let unknown = row
                .as_ref()
                .is_some_and(|r| r.status == RecordStatus::Unknown);
            fail(
                core,
                &key,
                row.as_ref(),
                Failed::new("platform", &message, unknown, listed_stamp),
            )?;
            return Ok(Handled::new(RecordResult::Failed, None, Some(message)));
        }
    };
    let updated_at = record
        .get(entry.module.change_cursor())
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned)
        .or(listed_stamp);
    let related = related_ids(core, entry, &record)?;
    let hash = input_hash(&record, &related);
    let external_id = row.as_ref().and_then(|r| r.external_id.clone());
    if let Some(r) = &row
        && !core.options.force
        && r.status == RecordStatus::Done
        && r.body_hash.as_deref() == Some(hash.as_str())
    {
        core.state
            .record_unchanged(&key, updated_at.as_deref(), now)?;
        return Ok(Handled::new(RecordResult::Unchanged, external_id, None));
    }
    let Some(intent) = intent(core, entry, &record, external_id.as_deref(), row.as_ref()) else {
        return Ok(Handled::new(
            RecordResult::Skipped,
            None,
            Some("deleted on the platform before it was ever pushed".to_owned()),
        ));
    };
    let state = RecordState {
        external_id: external_id.clone(),
        related,
        server_variables: core.options.server_variables.clone(),
        unresolved_create: unresolved_create(row.as_ref()),
        intent,
    };
    let record_json = Arc::new(record);
    let outcome = push(core, entry, &key, platform_id, &record_json, &state, now).await;
    // Related ids as they are after the push: the callback may have pushed the account.
    let body_hash = || {
        Ok(input_hash(
            &record_json,
            &related_ids(core, entry, &record_json)?,
        ))
    };
    let handled = settle(
        core,
        &entry.name,
        &key,
        row.as_ref(),
        &state,
        updated_at,
        &outcome,
        &body_hash,
    )?;
    if let Some(post) = &outcome.post_action_error {
        tracing::warn!(entry = %entry.name, id = %key.platform_id, error = %post, "post-synchronization action failed; the record itself was pushed");
    }
    Ok(handled)
}

/// Pushes the record with an engine that marks its create in flight before it leaves and
/// pushes what its actions name (its account first, its lines after), and reports its
/// requests.
async fn push(
    core: &Arc<Core>,
    entry: &EntryInfo,
    key: &RecordKey,
    platform_id: &str,
    record: &Arc<serde_json::Value>,
    state: &RecordState,
    now: i64,
) -> PushOutcome {
    let engine = core
        .engine
        .with_transport(Arc::new(InFlightGuard {
            inner: core.transport.clone(),
            state: core.state.clone(),
            key: key.clone(),
            now,
        }))
        .with_synchronizer(Arc::new(Related {
            core: core.clone(),
            source: entry.clone(),
            platform_id: platform_id.to_owned(),
            record: record.clone(),
        }));
    let value = syncdef_transform::Value::from(&**record);
    let outcome = engine.push(&entry.name, &value, state).await;
    crate::requests::report(core, &entry.name, Flow::Push, &outcome.exchanges);
    if core.options.dry_run {
        plan(core, key, &outcome);
    }
    outcome
}

/// What to ask of the engine for `record`: a record whose deletion marker turned on is deleted
/// where the entry can delete; an entry without `push.delete` updates it (its templates see
/// the marker: QuickBooks items, which cannot be deleted, are made inactive). `None` for a
/// record deleted on the platform before it ever reached the external system: nothing to do.
fn intent(
    core: &Core,
    entry: &EntryInfo,
    record: &serde_json::Value,
    external_id: Option<&str>,
    row: Option<&RecordRow>,
) -> Option<syncdef_engine::Intent> {
    let plan = core.engine.plan();
    if !entry.module.is_deleted(record) {
        let post_actions_failed = row.is_some_and(|r| {
            r.status == RecordStatus::Failed
                && r.error_class.as_deref() == Some(POST_ACTIONS_FAILED)
        });
        // An entry that can update does, and runs its post-actions after; one that cannot
        // runs them alone.
        if post_actions_failed
            && external_id.is_some()
            && !plan.entry_has(&entry.name, syncdef_engine::OperationKind::Update)
        {
            return Some(syncdef_engine::Intent::PostActions);
        }
        return Some(syncdef_engine::Intent::Upsert);
    }
    if external_id.is_none() && row.is_none_or(|r| r.create.is_none()) {
        return None;
    }
    let can_delete = plan.entry_has(&entry.name, syncdef_engine::OperationKind::Delete);
    Some(if can_delete && external_id.is_some() {
        syncdef_engine::Intent::Delete
    } else {
        syncdef_engine::Intent::Upsert
    })
}

/// Whether the engine can find out, without a person, if the create of `row` (of unknown
/// outcome) was carried out: the entry declares a lookup, or the create kept its idempotency
/// key.
pub(crate) fn finds_out(core: &Core, entry: &str, row: &RecordRow) -> bool {
    let kept_key = row
        .create
        .as_ref()
        .is_some_and(|c| c.idempotency_key.is_some());
    core.engine.plan().finds_out_unknown_create(entry, kept_key)
}

/// The records of `entry` whose next attempt is due, oldest first, without the unknown creates
/// nothing can find out about: those wait for an operator and are no retry (a listing still
/// reports them as skipped).
pub(crate) fn due_retries(core: &Core, entry: &EntryInfo) -> Result<Vec<RecordRow>, WorkerError> {
    let mut rows = core.state.due_retries(&entry.name, core.now())?;
    rows.retain(|row| row.status != RecordStatus::Unknown || finds_out(core, &entry.name, row));
    Ok(rows)
}

/// The create of unknown outcome the engine must find out about before creating again.
pub(crate) fn unresolved_create(row: Option<&RecordRow>) -> Option<UnresolvedCreate> {
    let row = row.filter(|r| r.status == RecordStatus::Unknown && r.external_id.is_none())?;
    let create = row.create.clone().unwrap_or_default();
    Some(UnresolvedCreate {
        idempotency_key: create.idempotency_key,
        body: create.body,
    })
}

/// Decisions that need no platform read. A record whose create's outcome is unknown is
/// handled only when the engine `finds_out` (a lookup, a kept idempotency key), and then only
/// when due; otherwise it waits for an operator.
fn skip_without_reading(
    row: Option<&RecordRow>,
    trigger: &Trigger,
    now: i64,
    force: bool,
    finds_out: bool,
) -> Option<Handled> {
    let row = row?;
    let external = row.external_id.clone();
    match (row.status, trigger) {
        (RecordStatus::Unknown, _) if finds_out && row.next_attempt_at.is_none_or(|t| t <= now) => {
            None
        }
        (RecordStatus::Unknown, _) if finds_out => Some(Handled::new(
            RecordResult::Skipped,
            None,
            Some(format!(
                "finding out whether an earlier create was carried out, at its next attempt: {}",
                row.last_error
                    .as_deref()
                    .unwrap_or("unknown outcome of a create")
            )),
        )),
        (RecordStatus::Unknown | RecordStatus::InFlight, _) => Some(Handled::new(
            RecordResult::Skipped,
            None,
            Some(waiting_for_an_operator(row)),
        )),
        (RecordStatus::Done, Trigger::Dependency) if external.is_some() => {
            Some(Handled::new(RecordResult::Skipped, external, None))
        }
        // Same version as last handled: done needs nothing, failed waits for its retry.
        (RecordStatus::Done, Trigger::Listed(Some(stamp)))
            if !force && same_stamp(row.updated_at.as_deref(), stamp) =>
        {
            Some(Handled::new(RecordResult::Unchanged, external, None))
        }
        (RecordStatus::Failed, Trigger::Listed(Some(stamp)))
            if same_stamp(row.updated_at.as_deref(), stamp)
                && row.next_attempt_at.is_some_and(|t| t > now) =>
        {
            Some(Handled::new(
                RecordResult::Skipped,
                None,
                row.last_error.clone(),
            ))
        }
        // A retry found due when the run started whose record was handled since (listed as
        // changed, or needed by another record) waits for its new backoff.
        (RecordStatus::Failed, Trigger::Dependency | Trigger::Retry)
            if row.next_attempt_at.is_some_and(|t| t > now) =>
        {
            Some(Handled::new(
                RecordResult::Skipped,
                None,
                Some(format!(
                    "it failed before and waits for its retry: {}",
                    row.last_error.as_deref().unwrap_or("no message")
                )),
            ))
        }
        _ => None,
    }
}

/// Why a record whose create's outcome is unknown, and that nothing can find out, is not
/// pushed: the create may have been carried out, and only a person can tell.
pub(crate) fn waiting_for_an_operator(row: &RecordRow) -> String {
    format!(
        "waiting for an operator: {}",
        row.last_error
            .as_deref()
            .unwrap_or("unknown outcome of a create")
    )
}

/// Whether the stored `updatedAt` is the listed one. Compared as instants: a list and a
/// single-record read may write the same time differently (`…07Z`, `…07.000Z`).
fn same_stamp(stored: Option<&str>, listed: &str) -> bool {
    let Some(stored) = stored else { return false };
    stored == listed
        || matches!((Stamp::parse(stored), Stamp::parse(listed)), (Ok(a), Ok(b)) if a == b)
}

/// The external ids of the records `record` names, from the state.
fn related_ids(
    core: &Core,
    entry: &EntryInfo,
    record: &serde_json::Value,
) -> Result<BTreeMap<String, String>, WorkerError> {
    let mut related = BTreeMap::new();
    for (target, module) in &entry.needs {
        let Some(id) = entry.module.related_id(*module, record) else {
            continue;
        };
        let row = core.state.record(&RecordKey::new(target, id))?;
        if let Some(external) = row.and_then(|r| r.external_id) {
            related.insert(target.clone(), external);
        }
    }
    Ok(related)
}

/// The class a record's failure is stored with when the record was pushed and a post-action
/// failed after it: its next attempt runs them again (with the update, when the entry has
/// one, or alone).
pub(crate) const POST_ACTIONS_FAILED: &str = "postActions";

/// Stores what became of the push of `key` (the record, or a line) as `outcome` says;
/// `body_hash` gives the hash of what was pushed, asked only for a push that succeeded.
#[allow(clippy::too_many_arguments)]
pub(crate) fn settle(
    core: &Core,
    entry: &str,
    key: &RecordKey,
    row: Option<&RecordRow>,
    state: &RecordState,
    updated_at: Option<String>,
    outcome: &PushOutcome,
    body_hash: &dyn Fn() -> Result<String, WorkerError>,
) -> Result<Handled, WorkerError> {
    let now = core.now();
    match outcome.status {
        PushStatus::Created | PushStatus::Updated | PushStatus::Deleted => {
            let Some(external_id) = outcome.external_id.clone().or(state.external_id.clone())
            else {
                let message = "the external system accepted the push but no external id is known; check the record there, then `syncdef sync resolve`".to_owned();
                fail(
                    core,
                    key,
                    row,
                    Failed::new(
                        ErrorClass::UnknownOutcome.as_str(),
                        &message,
                        true,
                        updated_at,
                    ),
                )?;
                return Ok(Handled::new(RecordResult::Unknown, None, Some(message)));
            };
            if let Some(post) = &outcome.post_action_error {
                // Not done: stored as done, an unchanged record would never run them again.
                let message = shown(format!(
                    "pushed, but a post-synchronization action failed (it runs again at the next attempt): {post}"
                ));
                let mut failed = Failed::new(POST_ACTIONS_FAILED, &message, false, updated_at);
                failed.external_id = Some(external_id.clone());
                fail(core, key, row, failed)?;
                return Ok(Handled::new(
                    RecordResult::Failed,
                    Some(external_id),
                    Some(message),
                ));
            }
            let pushed = Pushed {
                external_id: external_id.clone(),
                body_hash: body_hash()?,
                updated_at,
            };
            core.state.record_pushed(key, &pushed, now)?;
            let result = match outcome.status {
                PushStatus::Created => RecordResult::Created,
                PushStatus::Deleted => RecordResult::Deleted,
                _ => RecordResult::Updated,
            };
            repeated_create(core, entry, key, outcome);
            tracing::debug!(entry = %entry, id = %key.platform_id, external_id, ?result, "pushed");
            Ok(Handled::new(result, Some(external_id), None))
        }
        PushStatus::Failed => {
            let (class, message) = match &outcome.error {
                Some(e) => (e.class, shown(e.to_string())),
                None => (
                    ErrorClass::UnknownOutcome,
                    "the push failed without an error".to_owned(),
                ),
            };
            // The record's id when this push learnt it before failing (a create carried out,
            // then the update bringing it up to date failed): the record exists there, and the
            // next attempt updates it.
            let learnt = outcome
                .external_id
                .clone()
                .filter(|_| state.external_id.is_none());
            // Only a create can be duplicated; an update of unknown outcome is re-sent. A record
            // whose earlier create is unresolved stays so until a push of it succeeds or finds
            // its id, whatever this one met: the earlier create may still have been carried out.
            let unknown = learnt.is_none()
                && ((class == ErrorClass::UnknownOutcome
                    && outcome.operation != Some(OperationKind::Update)
                    && outcome.operation != Some(OperationKind::Delete))
                    || state.unresolved_create.is_some());
            tracing::warn!(entry = %entry, id = %key.platform_id, class = %class, error = %message, "push failed");
            let mut failed = Failed::new(class.as_str(), &message, unknown, updated_at);
            failed.external_id.clone_from(&learnt);
            fail(core, key, row, failed)?;
            if class == ErrorClass::Authentication && !core.options.dry_run {
                return Err(WorkerError::Authentication(message));
            }
            let result = if unknown {
                RecordResult::Unknown
            } else {
                RecordResult::Failed
            };
            Ok(Handled::new(
                result,
                learnt.or_else(|| state.external_id.clone()),
                Some(message),
            ))
        }
    }
}

/// A message as the worker logs, reports and stores it: secrets redacted, bounded.
pub(crate) fn shown(message: String) -> String {
    match syncdef_secrets::shown(&message) {
        std::borrow::Cow::Borrowed(_) => message,
        std::borrow::Cow::Owned(shown) => shown,
    }
}

/// Stores `failed`, its next attempt set from the record's attempts so far.
fn fail(
    core: &Core,
    key: &RecordKey,
    row: Option<&RecordRow>,
    mut failed: Failed,
) -> Result<(), WorkerError> {
    let now = core.now();
    let attempts = row
        .filter(|r| matches!(r.status, RecordStatus::Failed | RecordStatus::Unknown))
        .map_or(0, |r| r.attempts)
        .saturating_add(1);
    failed.next_attempt_at = core.options.backoff.next_attempt(attempts, now);
    core.state.record_failed(key, &failed, now)?;
    Ok(())
}

pub(crate) fn plan(core: &Core, key: &RecordKey, outcome: &PushOutcome) {
    let planned = PlannedPush {
        entry: key.entry.clone(),
        platform_id: key.platform_id.clone(),
        operation: outcome.operation.map(|o| o.as_str().to_owned()),
        requests: outcome
            .exchanges
            .iter()
            .map(|e| e.request.clone())
            .collect(),
        error: outcome.error.as_ref().map(ToString::to_string),
    };
    core.planned
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(planned);
}

/// Counts and logs a create sent again under an earlier create's idempotency key: the external
/// system may have answered with that create, so the push updated the record or (without a
/// `push.update`) could not.
fn repeated_create(core: &Core, entry: &str, key: &RecordKey, outcome: &PushOutcome) {
    match outcome.repeated_create {
        Some(RepeatedCreate::Updated) => {
            tracing::info!(entry = %entry, id = %key.platform_id, external_id = ?outcome.external_id, "create sent again under the earlier create's idempotency key; the external system may have answered with that create, so the record was updated with its current version");
            core.summary(entry, |s| s.repeated_creates += 1);
        }
        Some(RepeatedCreate::NotUpdated) => core.summary(entry, |s| {
            s.warn(
                "a create sent again under an earlier create's idempotency key may have been answered with that create, and the entry has no `push.update`: the record there may hold the version the earlier create sent".to_owned(),
            );
        }),
        Some(RepeatedCreate::SameRecord) | None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::same_stamp;

    #[test]
    fn stamps_compare_as_instants() {
        assert!(same_stamp(
            Some("2026-01-01T00:00:07Z"),
            "2026-01-01T00:00:07.000Z"
        ));
        assert!(!same_stamp(
            Some("2026-01-01T00:00:07Z"),
            "2026-01-01T00:00:08Z"
        ));
        assert!(!same_stamp(None, "2026-01-01T00:00:07Z"));
        assert!(same_stamp(Some("not a date"), "not a date"));
    }
}
