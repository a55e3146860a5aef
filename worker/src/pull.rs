//! Pulling onto the platform: every page of an entry's `batchRead` (records changed in the
//! external system since the last pull), each record paired with its platform record through
//! the external id the state keeps, then created (POST) or patched with what differs (JSON
//! Patch), and stored as in sync at the version written, so that the next push does not send
//! the change back (docs/pull.md, "Onto the platform").

use std::collections::BTreeMap;

use serde_json::Value;
use syncdef_definitions::extension::ConflictPolicy;
use syncdef_engine::{ErrorClass, PagePosition, PageRequest, PullPage, PulledRecord};
use syncdef_platform::patch::changes;

use crate::error::WorkerError;
use crate::hash::input_hash;
use crate::modules::Module;
use crate::observer::{Event, Flow};
use crate::options::pushes;
use crate::report::{PullResult, PullSummary, SyncReport};
use crate::shared::Core;
use crate::stamp::{Stamp, utc_text};
use crate::state::{Failed, InFlightCreate, Pushed, RecordKey, RecordRow, RecordStatus};

/// How far back each pull starts before the previous one started: changes the external
/// system stamped with a clock up to this far behind syncdef's are still read. Reading a
/// record again is harmless: nothing differs, nothing is written.
pub const OVERLAP_SECONDS: i64 = 300;

/// Attributes the platform sets itself: never written by a pull.
const PLATFORM_OWNED: &[&str] = &["id", "createdAt", "updatedAt"];

/// Not patched: what the record is paired by. A create writes it, so that the record the
/// platform makes carries the external system's key as its objects do (`integrationId`); an
/// update leaves whatever the platform holds, since the state is what pairs the two.
const NOT_PATCHED: &[&str] = &["id", "createdAt", "updatedAt", "integrationId"];

/// The state's cursor of `entry`'s pulls (beside its push cursor, under its own name).
#[must_use]
pub fn cursor_name(entry: &str) -> String {
    format!("{entry} (pull)")
}

/// What a pull of one entry works with.
pub(crate) struct PullEntry<'c> {
    pub core: &'c Core,
    /// The pulling entry.
    pub name: String,
    pub module: Module,
    /// The entry whose state rows hold the module's records (the entry that pushes them, else
    /// the pulling one): a pulled record and a pushed one are the same row.
    pub row_entry: String,
    /// Every entry of the module, whose rows may know an external id.
    pub module_entries: Vec<String>,
    pub conflict: ConflictPolicy,
}

/// Pulls every entry of `order` that has a `pull.batchRead` (refreshing: a `pull.read`), in
/// dependency order, each entry's summary into `report`.
pub(crate) async fn pull_entries(
    core: &Core,
    order: &[String],
    report: &mut SyncReport,
) -> Result<(), WorkerError> {
    let plan = core.engine.plan();
    for name in order {
        let Some(entry) = core.entry(name) else {
            continue;
        };
        let reads = if core.options.refresh.is_empty() {
            syncdef_engine::EntryPlan::pulls
        } else {
            syncdef_engine::EntryPlan::reads
        };
        if !plan.entry(name).is_some_and(reads) {
            continue;
        }
        let same_module = |n: &&str| {
            plan.entry(n)
                .and_then(|e| Module::from_root(e.root()))
                .is_some_and(|m| m == entry.module)
        };
        let module_entries: Vec<String> = plan
            .entry_names()
            .filter(same_module)
            .map(str::to_owned)
            .collect();
        let row_entry = plan
            .entry_names()
            .filter(same_module)
            .find(|n| plan.entry(n).is_some_and(pushes))
            .unwrap_or(name)
            .to_owned();
        let pulling = PullEntry {
            core,
            name: name.clone(),
            module: entry.module,
            row_entry,
            module_entries,
            conflict: plan
                .reliability()
                .pull
                .get(name)
                .map(|p| p.conflict)
                .unwrap_or_default(),
        };
        let summary = match pull_entry(&pulling).await {
            Ok(summary) => summary,
            Err(e) => {
                report.pulled.insert(name.clone(), PullSummary::default());
                return Err(e);
            }
        };
        tracing::info!(entry = %name, read = summary.read, created = summary.created, updated = summary.updated, conflicts = summary.conflicts, "pull done");
        core.observer.event(&Event::PullFinished {
            entry: name,
            summary: &summary,
        });
        report.pulled.insert(name.clone(), summary);
        if core.limit_reached() {
            return Err(WorkerError::Usage(core.limit_message()));
        }
    }
    Ok(())
}

/// Pulls one entry, or refreshes the records asked for. On a shared state one worker at a
/// time pulls an entry; the others wait for it (their pushes must not overtake the pull's
/// changes) and pull only when no pull ended meanwhile.
async fn pull_entry(entry: &PullEntry<'_>) -> Result<PullSummary, WorkerError> {
    let core = entry.core;
    if !core.options.refresh.is_empty() {
        return refresh(entry, &core.options.refresh).await;
    }
    let queue = core.state.queue();
    let cursor = cursor_name(&entry.name);
    let before = core.state.cursor(&cursor)?;
    let mut waited = false;
    while !queue.take_lister(&cursor, core.lease())? {
        // Stopped (a signal) while waiting: nothing was pulled, nothing is held.
        if core.limit_reached() {
            return Ok(PullSummary::default());
        }
        if !waited {
            tracing::info!(entry = %entry.name, "another worker pulls this entry; waiting for it");
            waited = true;
        }
        tokio::time::sleep(crate::push::IDLE).await;
    }
    let result = if waited && core.state.cursor(&cursor)? != before {
        tracing::info!(entry = %entry.name, "pulled by another worker meanwhile");
        Ok(PullSummary::default())
    } else {
        crate::push::with_heartbeat(core, queue, pull(entry)).await
    };
    queue.release_lister(&cursor, &core.worker_id)?;
    result
}

/// Pulls every page of `entry` changed since its pull cursor and writes it onto the platform.
/// A failed page stops the entry (the cursor stays: the next run reads again from there).
async fn pull(entry: &PullEntry<'_>) -> Result<PullSummary, WorkerError> {
    let core = entry.core;
    let started = core.now();
    let since = since(core, &entry.name)?;
    let mut summary = PullSummary::default();
    // Reads only: the transport as the worker was given it (budgets included), without the
    // in-flight marking a push's creates need.
    let engine = core.engine.with_transport(core.transport.clone());
    let mut request = PageRequest {
        position: PagePosition::First,
        since,
        server_variables: core.options.server_variables.clone(),
    };
    loop {
        if core.limit_reached() {
            return Ok(summary);
        }
        let page = engine.pull_page(&entry.name, &request).await;
        match take_page(entry, page, &mut summary).await? {
            Some(next) => request.position = next,
            None => break,
        }
    }
    if !core.options.dry_run && !core.limit_reached() {
        let from = utc_text(started.saturating_sub(OVERLAP_SECONDS));
        core.state
            .set_cursor(&cursor_name(&entry.name), &from, core.now())?;
        summary.cursor = Some(from);
    }
    Ok(summary)
}

/// Reads the records known as `external_ids` one by one (`pull.read`) and writes each onto
/// the platform as a pull would. The pull cursor stays: a refresh is not a pull of every
/// change.
async fn refresh(
    entry: &PullEntry<'_>,
    external_ids: &[String],
) -> Result<PullSummary, WorkerError> {
    let core = entry.core;
    let engine = core.engine.with_transport(core.transport.clone());
    let mut summary = PullSummary::default();
    for id in external_ids {
        if core.limit_reached() {
            break;
        }
        let page = engine
            .read(&entry.name, id, &core.options.server_variables)
            .await;
        take_page(entry, page, &mut summary).await?;
    }
    Ok(summary)
}

/// Writes the records of one answer onto the platform; the position of the next page, if
/// there is one. A failed answer stops the entry.
async fn take_page(
    entry: &PullEntry<'_>,
    page: PullPage,
    summary: &mut PullSummary,
) -> Result<Option<PagePosition>, WorkerError> {
    let core = entry.core;
    crate::requests::report(core, &entry.name, Flow::Pull, &page.exchanges);
    if let Some(error) = page.error {
        return Err(match error.class {
            ErrorClass::Authentication => WorkerError::Authentication(error.to_string()),
            _ => WorkerError::Usage(format!(
                "pulling `{}` failed on a page: {error}; the next run reads again from the last complete pull",
                entry.name
            )),
        });
    }
    summary.pages += 1;
    for rejected in &page.rejected {
        tracing::warn!(entry = %entry.name, index = rejected.index, reason = %rejected.reason, "pulled element set apart");
    }
    summary.rejected += page.rejected.len() as u64;
    core.observer.event(&Event::PullPage {
        entry: &entry.name,
        read: page.records.len(),
        rejected: page.rejected.len(),
    });
    for record in &page.records {
        summary.read += 1;
        let result = apply(entry, record).await?;
        summary.count(result);
        core.observer.event(&Event::Pulled {
            entry: &entry.name,
            result,
        });
    }
    Ok(page.next)
}

/// `{since}`: `--since` (a date is its midnight, UTC), else the pull cursor, else none (every
/// record).
fn since(core: &Core, entry: &str) -> Result<Option<String>, WorkerError> {
    if let Some(since) = &core.options.since {
        let text = if since.len() == 10 {
            format!("{since}T00:00:00Z")
        } else {
            since.clone()
        };
        return Ok(Some(text));
    }
    Ok(core.state.cursor(&cursor_name(entry))?)
}

async fn apply(entry: &PullEntry<'_>, pulled: &PulledRecord) -> Result<PullResult, WorkerError> {
    let core = entry.core;
    let wanted = writable_fields(entry, pulled);
    let row = core
        .state
        .by_external_id(&entry.module_entries, &pulled.external_id)?;
    match row {
        None => create(entry, pulled, &wanted).await,
        Some(row) => update(entry, pulled, &wanted, &row).await,
    }
}

/// The pulled record's attributes the platform takes (its own ones left out).
fn writable_fields(entry: &PullEntry<'_>, pulled: &PulledRecord) -> Value {
    let root = entry.module.facts().root;
    let mut fields = Value::from(&pulled.record)
        .get_mut(root)
        .map_or(Value::Null, Value::take);
    if let Value::Object(map) = &mut fields {
        for owned in PLATFORM_OWNED {
            map.remove(*owned);
        }
    }
    fields
}

/// The marker row of a create of the record known as `external_id`, kept while the POST is
/// in flight: a crash leaves it, and the record is not created a second time.
fn create_marker(entry: &PullEntry<'_>, external_id: &str) -> RecordKey {
    RecordKey::new(&entry.row_entry, format!("pull:{external_id}"))
}

async fn create(
    entry: &PullEntry<'_>,
    pulled: &PulledRecord,
    wanted: &Value,
) -> Result<PullResult, WorkerError> {
    let core = entry.core;
    let marker = create_marker(entry, &pulled.external_id);
    if let Some(row) = core.state.record(&marker)?
        && matches!(row.status, RecordStatus::Unknown | RecordStatus::InFlight)
    {
        tracing::warn!(entry = %entry.name, external_id = %pulled.external_id, "an earlier create of this pulled record may have reached the platform: check for a record with this integrationId, then `syncdef sync resolve`");
        return Ok(PullResult::Unknown);
    }
    if !entry.module.facts().writable {
        let message = format!(
            "the platform API cannot create {} records (spec 4.3 shows no POST for them)",
            entry.module.name()
        );
        fail(core, &marker, &message, false)?;
        return Ok(PullResult::Failed);
    }
    if core.options.dry_run {
        return Ok(PullResult::Created);
    }
    let body = serde_json::to_string(wanted).ok();
    let mark = InFlightCreate {
        idempotency_key: None,
        body,
    };
    core.state.mark_in_flight(&marker, &mark, core.now())?;
    let created = core
        .platform
        .create(entry.module.collection().path, wanted)
        .await;
    let created = match created {
        Ok(record) => record,
        Err(e) => {
            // Refused (4xx): nothing was created. Anything else may have created it.
            let unknown = !e.status().is_some_and(|s| (400..500).contains(&s));
            fail(
                core,
                &marker,
                &format!("the platform refused the create: {e}"),
                unknown,
            )?;
            return Ok(if unknown {
                PullResult::Unknown
            } else {
                PullResult::Failed
            });
        }
    };
    let id = entry.module.id_of(&created).map_err(|e| {
        WorkerError::Usage(format!(
            "the platform created a {} but its answer has no id ({e}); find it by integrationId {} and resolve `{}`",
            entry.module.name(),
            pulled.external_id,
            marker.platform_id
        ))
    })?;
    settle(entry, &id, pulled).await?;
    core.state.forget(&marker)?;
    Ok(PullResult::Created)
}

async fn update(
    entry: &PullEntry<'_>,
    pulled: &PulledRecord,
    wanted: &Value,
    row: &RecordRow,
) -> Result<PullResult, WorkerError> {
    let core = entry.core;
    let id = &row.key.platform_id;
    let current = match entry.module.read(&core.platform, id).await {
        Ok(record) => record,
        Err(e) => {
            fail(
                core,
                &row.key,
                &format!("reading the platform record failed: {e}"),
                false,
            )?;
            return Ok(PullResult::Failed);
        }
    };
    let patch = changes(&current, wanted, NOT_PATCHED);
    if patch.0.is_empty() {
        return Ok(PullResult::Unchanged);
    }
    let changed_here =
        row.body_hash.as_deref() != Some(input_hash(&current, &BTreeMap::new()).as_str());
    if changed_here && !external_wins(entry.conflict, &current, pulled) {
        tracing::warn!(entry = %entry.name, id = %id, external_id = %pulled.external_id, policy = entry.conflict.name(), "changed on both sides since the last sync: the platform's version stands");
        return Ok(PullResult::Conflict);
    }
    if core.options.dry_run {
        return Ok(PullResult::Updated);
    }
    let record_route = entry
        .module
        .record_path(id)
        .map_err(|e| WorkerError::Usage(e.to_string()))?;
    if let Err(e) = core.platform.patch(&record_route, &patch).await {
        fail(
            core,
            &row.key,
            &format!("the platform refused the patch: {e}"),
            false,
        )?;
        return Ok(PullResult::Failed);
    }
    settle(entry, id, pulled).await?;
    Ok(PullResult::Updated)
}

/// Whether the external version is written over a record the platform changed too.
fn external_wins(policy: ConflictPolicy, current: &Value, pulled: &PulledRecord) -> bool {
    match policy {
        ConflictPolicy::PlatformWins => false,
        ConflictPolicy::ExternalWins => true,
        ConflictPolicy::NewestWins => {
            let stamp =
                |v: Option<&Value>| v.and_then(Value::as_str).and_then(|t| Stamp::parse(t).ok());
            let platform = stamp(current.get(crate::hash::IGNORED_FIELD));
            let root = pulled
                .record
                .as_object()
                .and_then(|m| m.values().next().cloned());
            let external = root
                .as_ref()
                .and_then(|r| r.get(crate::hash::IGNORED_FIELD))
                .and_then(|v| v.as_str())
                .and_then(|t| Stamp::parse(t).ok());
            matches!((platform, external), (Some(p), Some(e)) if e > p)
        }
    }
}

/// Reads the record as the platform now has it and stores it as in sync with the external
/// system at that version: the next push finds its input unchanged and sends nothing back.
async fn settle(entry: &PullEntry<'_>, id: &str, pulled: &PulledRecord) -> Result<(), WorkerError> {
    let core = entry.core;
    let key = RecordKey::new(&entry.row_entry, id);
    let record = entry
        .module
        .read(&core.platform, id)
        .await
        .map_err(|e| WorkerError::Listing {
            entry: entry.name.clone(),
            source: Box::new(e),
        })?;
    let pushed = Pushed {
        external_id: pulled.external_id.clone(),
        body_hash: input_hash(&record, &BTreeMap::new()),
        updated_at: record
            .get(crate::hash::IGNORED_FIELD)
            .and_then(Value::as_str)
            .map(str::to_owned),
    };
    core.state.record_pushed(&key, &pushed, core.now())?;
    Ok(())
}

fn fail(core: &Core, key: &RecordKey, message: &str, unknown: bool) -> Result<(), WorkerError> {
    let failed = Failed {
        class: if unknown {
            "unknownOutcome"
        } else {
            "platform"
        }
        .to_owned(),
        message: message.to_owned(),
        unknown,
        updated_at: None,
        next_attempt_at: core.now(),
        external_id: None,
    };
    core.state.record_failed(key, &failed, core.now())?;
    Ok(())
}
