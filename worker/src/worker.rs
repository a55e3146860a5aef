//! [`Worker`]: the sync loop's setup and its run over the requested entries.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use futures::TryStreamExt;
use syncdef_engine::{Engine, Transport};
use syncdef_platform::PlatformClient;
use syncdef_platform::query::{Direction, Filter, Query};

use crate::backoff::Backoff;
use crate::error::WorkerError;
use crate::modules::Module;
use crate::observer::{Event, Observer, Silent};
use crate::order::Dependencies;
use crate::record::{Trigger, sync_one};
use crate::report::{EntrySummary, PlannedPush, RecordResult, SyncReport};
use crate::stamp::Stamp;
use crate::state::State;

/// A source of "now" in unix seconds; tests replace it to step over backoffs.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

/// What to sync and how.
#[derive(Clone, Debug)]
pub struct SyncOptions {
    /// The entries to sync (`Account`, `Invoice`); run in dependency order whatever the
    /// order given.
    pub entries: Vec<String>,
    /// Start from records changed on or after this date (`YYYY-MM-DD`) or date-time instead
    /// of the saved cursor.
    pub since: Option<String>,
    /// Records per listing page; also how often the cursor is saved. Default 100.
    pub page_size: u32,
    /// When failed records are tried again.
    pub backoff: Backoff,
    /// Server variables of the instance over the definition's defaults (`realmId`).
    pub server_variables: BTreeMap<String, String>,
    /// Push with a recording transport and keep state writes in a rolled-back transaction.
    pub dry_run: bool,
    /// Stop after this many creates and updates (a batch size for cautious first runs).
    pub max_pushes: Option<u64>,
    /// Push every record handled even when its input is unchanged (after a mapping change;
    /// combine with `since`).
    pub force: bool,
}

impl Default for SyncOptions {
    fn default() -> Self {
        SyncOptions {
            entries: Vec::new(),
            since: None,
            page_size: 100,
            backoff: Backoff::default(),
            server_variables: BTreeMap::new(),
            dry_run: false,
            max_pushes: None,
            force: false,
        }
    }
}

/// An entry ready to sync.
#[derive(Clone, Debug)]
pub(crate) struct EntryInfo {
    pub name: String,
    pub module: Module,
    /// Entries this one's records name (their external ids go into `RecordState.related`).
    pub needs: Vec<(String, Module)>,
}

/// Shared by the loop and the `ApiSynchronization` callback.
pub(crate) struct Core {
    pub platform: PlatformClient,
    pub engine: Engine,
    pub transport: Arc<dyn Transport>,
    pub state: Arc<dyn State>,
    pub options: SyncOptions,
    pub entries: BTreeMap<String, EntryInfo>,
    pub clock: Clock,
    pub observer: Arc<dyn Observer>,
    pub summaries: Mutex<BTreeMap<String, EntrySummary>>,
    pub planned: Mutex<Vec<PlannedPush>>,
    pub pushes: Mutex<u64>,
    pub stop: Arc<AtomicBool>,
}

/// Asks a running [`Worker`] to stop after the record it is handling (a signal handler's
/// tool: the state stays consistent and the next run continues from there).
#[derive(Clone, Debug, Default)]
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    /// Requests the stop; the run ends after the current record with
    /// [`SyncReport::stopped`] set.
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl Core {
    pub fn now(&self) -> i64 {
        (self.clock)()
    }

    pub fn entry(&self, name: &str) -> Option<&EntryInfo> {
        self.entries.get(name)
    }

    /// Counts a record's result and tells the observer.
    pub fn count(&self, entry: &str, id: &str, result: RecordResult, error: Option<&str>) {
        let mut summaries = self.summaries.lock().unwrap_or_else(|e| e.into_inner());
        summaries.entry(entry.to_owned()).or_default().count(result);
        drop(summaries);
        if matches!(result, RecordResult::Created | RecordResult::Updated) {
            *self.pushes.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        }
        self.observer.event(&Event::Record {
            entry,
            platform_id: id,
            result,
            error,
        });
    }

    pub fn summary<R>(&self, entry: &str, f: impl FnOnce(&mut EntrySummary) -> R) -> R {
        let mut summaries = self.summaries.lock().unwrap_or_else(|e| e.into_inner());
        f(summaries.entry(entry.to_owned()).or_default())
    }

    /// Whether to stop before the next record: the push limit, or a stop request.
    fn limit_reached(&self) -> bool {
        if self.stop.load(Ordering::SeqCst) {
            return true;
        }
        let pushes = *self.pushes.lock().unwrap_or_else(|e| e.into_inner());
        self.options.max_pushes.is_some_and(|max| pushes >= max)
    }

    fn limit_message(&self) -> String {
        if self.stop.load(Ordering::SeqCst) {
            "interrupted; the state is consistent: run again to continue".to_owned()
        } else {
            format!(
                "stopped after {} pushes (--max-pushes); run again to continue",
                self.options.max_pushes.unwrap_or_default()
            )
        }
    }
}

/// The sync worker: finds changed platform records, pushes them through the engine and keeps
/// the state. One run at a time per state (the SQLite state enforces it).
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use syncdef_definitions::Definition;
/// use syncdef_engine::{Engine, ReqwestTransport};
/// use syncdef_platform::{Credentials, PlatformClient};
/// use syncdef_worker::{Dependencies, SqliteState, SyncOptions, Worker};
///
/// let definition = Definition::load_path("quickbooks-online.yaml".as_ref())?;
/// let dependencies = Dependencies::from_definition(&definition);
/// let engine = Engine::load(definition)?.engine;
/// let platform = PlatformClient::builder("https://bss.example.com", Credentials::load()?).build()?;
/// let state = Arc::new(SqliteState::open("sync.sqlite".as_ref())?);
/// let options = SyncOptions { entries: vec!["Account".into(), "Invoice".into()], ..Default::default() };
/// let worker = Worker::new(engine, Arc::new(ReqwestTransport::new()?), &dependencies, platform, state, options)?;
/// let report = worker.run().await;
/// println!("{}", serde_json::to_string_pretty(&report)?);
/// # Ok(()) }
/// ```
pub struct Worker {
    core: Arc<Core>,
    order: Vec<String>,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker")
            .field("order", &self.order)
            .finish_non_exhaustive()
    }
}

impl Worker {
    /// Checks the requested entries (known, of a supported module, no dependency cycle) and
    /// orders them. `engine` carries the token provider and base URL; `transport` is what it
    /// sends through (wrapped per push to record creates in flight).
    ///
    /// # Errors
    /// [`WorkerError::Usage`] naming what to fix.
    pub fn new(
        engine: Engine,
        transport: Arc<dyn Transport>,
        dependencies: &Dependencies,
        platform: PlatformClient,
        state: Arc<dyn State>,
        options: SyncOptions,
    ) -> Result<Self, WorkerError> {
        if options.entries.is_empty() {
            return Err(WorkerError::Usage(format!(
                "no entries to sync; name them with --entries (the definition has: {})",
                dependencies.names().collect::<Vec<_>>().join(", ")
            )));
        }
        if options.page_size == 0 {
            return Err(WorkerError::Usage(
                "the page size must be at least 1".into(),
            ));
        }
        if let Some(since) = &options.since {
            Stamp::parse(since).map_err(|e| {
                WorkerError::Usage(format!(
                    "--since: {e}; give YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS"
                ))
            })?;
        }
        let order = dependencies.order(&options.entries)?;
        let module_of = |name: &str| -> Result<Module, WorkerError> {
            let plan = engine.plan().entry(name).ok_or_else(|| {
                WorkerError::Usage(format!("the definition has no entry `{name}`"))
            })?;
            Module::from_root(&plan.root).ok_or_else(|| {
                WorkerError::Usage(format!(
                    "entry `{name}` pushes `$.{}` records; `syncdef sync` reads the modules {} so far",
                    plan.root,
                    Module::SUPPORTED
                ))
            })
        };
        let mut entries = BTreeMap::new();
        for name in dependencies.names() {
            // Entries that are neither requested nor needed may use modules the worker cannot
            // read; they are left out rather than refused.
            let Ok(module) = module_of(name) else {
                if order.iter().any(|o| o == name) {
                    module_of(name)?;
                }
                continue;
            };
            let needs = dependencies
                .of(name)
                .filter_map(|d| module_of(d).ok().map(|m| (d.to_owned(), m)))
                .collect();
            entries.insert(
                name.to_owned(),
                EntryInfo {
                    name: name.to_owned(),
                    module,
                    needs,
                },
            );
        }
        let clock: Clock = Arc::new(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        });
        Ok(Worker {
            core: Arc::new(Core {
                platform,
                engine,
                transport,
                state,
                options,
                entries,
                clock,
                observer: Arc::new(Silent),
                summaries: Mutex::new(BTreeMap::new()),
                planned: Mutex::new(Vec::new()),
                pushes: Mutex::new(0),
                stop: Arc::new(AtomicBool::new(false)),
            }),
            order,
        })
    }

    /// Uses `clock` for "now" (backoffs, timestamps in the state).
    #[must_use]
    pub fn with_clock(self, clock: Clock) -> Self {
        self.rebuild(|core| core.clock = clock)
    }

    /// Sends progress events to `observer`.
    #[must_use]
    pub fn with_observer(self, observer: Arc<dyn Observer>) -> Self {
        self.rebuild(|core| core.observer = observer)
    }

    fn rebuild(self, change: impl FnOnce(&mut Core)) -> Self {
        let Worker { core, order } = self;
        let mut core = Arc::try_unwrap(core).unwrap_or_else(|shared| Core {
            platform: shared.platform.clone(),
            engine: shared.engine.clone(),
            transport: shared.transport.clone(),
            state: shared.state.clone(),
            options: shared.options.clone(),
            entries: shared.entries.clone(),
            clock: shared.clock.clone(),
            observer: shared.observer.clone(),
            summaries: Mutex::new(BTreeMap::new()),
            planned: Mutex::new(Vec::new()),
            pushes: Mutex::new(0),
            stop: shared.stop.clone(),
        });
        change(&mut core);
        Worker {
            core: Arc::new(core),
            order,
        }
    }

    /// A handle that stops the run after the current record.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(self.core.stop.clone())
    }

    /// The entries in the order they will run.
    pub fn order(&self) -> &[String] {
        &self.order
    }

    /// Runs every requested entry: due retries first, then records changed since the
    /// cursor. Record failures are stored and counted; a failure of the state, of the
    /// listing or of the external system's credentials stops the run, reported in
    /// [`SyncReport::stopped`].
    pub async fn run(&self) -> SyncReport {
        let core = &self.core;
        let mut report = SyncReport {
            order: self.order.clone(),
            dry_run: core.options.dry_run,
            ..SyncReport::default()
        };
        let result = self.run_entries(&mut report).await;
        if let Err(error) = result {
            tracing::error!(%error, "sync stopped");
            report.stopped = Some(error.to_string());
        }
        report.entries = core
            .summaries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        report.planned =
            std::mem::take(&mut *core.planned.lock().unwrap_or_else(|e| e.into_inner()));
        report
    }

    async fn run_entries(&self, report: &mut SyncReport) -> Result<(), WorkerError> {
        let core = &self.core;
        report.recovered_in_flight = core.state.recover_in_flight(core.now())?;
        if report.recovered_in_flight > 0 {
            tracing::warn!(
                count = report.recovered_in_flight,
                "creates cut short by an earlier run are now `unknown`: check them in the external system, then `syncdef sync resolve`"
            );
        }
        for name in &self.order {
            let Some(entry) = core.entry(name).cloned() else {
                continue;
            };
            core.summary(name, |_| ());
            let result = self.run_entry(&entry).await;
            let cursor = core.state.cursor(name).ok().flatten();
            let summary = core.summary(name, |s| {
                s.cursor = cursor;
                s.clone()
            });
            core.observer.event(&Event::EntryFinished {
                entry: name,
                summary: &summary,
            });
            tracing::info!(
                entry = %name,
                listed = summary.listed,
                created = summary.created,
                updated = summary.updated,
                unchanged = summary.unchanged,
                failed = summary.failed,
                unknown = summary.unknown,
                "entry done"
            );
            result?;
            if core.limit_reached() {
                return Err(WorkerError::Usage(core.limit_message()));
            }
        }
        Ok(())
    }

    async fn run_entry(&self, entry: &EntryInfo) -> Result<(), WorkerError> {
        let core = &self.core;
        for row in core.state.due_retries(&entry.name, core.now())? {
            if core.limit_reached() {
                return Ok(());
            }
            core.summary(&entry.name, |s| s.retried += 1);
            tracing::info!(entry = %entry.name, id = %row.key.platform_id, attempts = row.attempts, "retrying");
            sync_one(core, entry, &row.key.platform_id, Trigger::Retry).await?;
        }
        self.scan(entry).await
    }

    /// Lists records changed since the cursor, oldest first, and handles each.
    ///
    /// Keyset paging: after a page, the listing starts again from the cursor instead of
    /// asking for page 2, because records updated meanwhile move to the end of an
    /// `updatedAt` ordering and would shift an offset-based page 2, skipping a record.
    ///
    /// Equal timestamps: the cursor only moves past a timestamp once a record with a later
    /// one was seen, so a group of records sharing one `updatedAt` across a page boundary is
    /// never skipped; the part of the group already handled is listed again and recognised
    /// (same `updatedAt` as stored, or handled in this run) without a read or a push. Only
    /// when a whole page shares one timestamp does the listing follow the next page.
    async fn scan(&self, entry: &EntryInfo) -> Result<(), WorkerError> {
        let core = &self.core;
        let since = core.options.since.as_deref().map(Stamp::parse).transpose();
        let since = since.map_err(WorkerError::Usage)?;
        let (mut cursor, mut inclusive) = match since {
            Some(since) => (Some(since), true),
            None => match core.state.cursor(&entry.name)? {
                Some(text) => {
                    let stamp = Stamp::parse(&text).map_err(|e| {
                        WorkerError::Usage(format!(
                            "the saved cursor of `{}` is unreadable ({e}); reset it with `syncdef sync reset-cursor --entry {}`",
                            entry.name, entry.name
                        ))
                    })?;
                    (Some(stamp), false)
                }
                None => (None, false),
            },
        };
        let page_size = core.options.page_size;
        let mut seen: HashMap<String, String> = HashMap::new();
        let mut announced = false;
        loop {
            let mut query = Query::new(entry.module.collection())
                .order_by("updatedAt", Direction::Asc)
                .page_size(page_size);
            if let Some(c) = &cursor {
                query = query.filter(if inclusive {
                    Filter::ge("updatedAt", c.literal())
                } else {
                    Filter::gt("updatedAt", c.literal())
                });
            }
            let listing = |source| WorkerError::Listing {
                entry: entry.name.clone(),
                source: Box::new(source),
            };
            let mut pages = core.platform.pages(&query).map_err(|e| listing(e.into()))?;
            let mut group: Option<Stamp> = None;
            let mut committed: Option<Stamp> = None;
            let mut requery = false;
            while let Some(page) = pages.try_next().await.map_err(listing)? {
                if !announced {
                    announced = true;
                    core.observer.event(&Event::EntryStarted {
                        entry: &entry.name,
                        total: page.info.and_then(|i| i.total_count),
                    });
                }
                let full = page.records.len() >= page_size as usize;
                for record in &page.records {
                    let stamp = match Stamp::of(record) {
                        Some(Ok(s)) => Some(s),
                        Some(Err(e)) => {
                            tracing::warn!(entry = %entry.name, error = %e, "record without a readable updatedAt: handled, but it cannot move the cursor");
                            None
                        }
                        None => None,
                    };
                    if let Some(s) = &stamp {
                        match &group {
                            Some(g) if s > g => {
                                core.state.set_cursor(&entry.name, &g.text, core.now())?;
                                committed = Some(g.clone());
                                group = Some(s.clone());
                                // Only the current group can be listed again (a re-query
                                // starts after the committed one): memory stays per group.
                                seen.clear();
                            }
                            Some(g) if s < g => tracing::warn!(
                                entry = %entry.name,
                                "the platform listed records out of updatedAt order; the cursor stays at the latest complete timestamp"
                            ),
                            Some(_) => {}
                            None => group = Some(s.clone()),
                        }
                    }
                    self.handle_listed(entry, record, stamp.as_ref(), &mut seen)
                        .await?;
                    if core.limit_reached() {
                        return Ok(());
                    }
                }
                if full && committed.is_some() {
                    requery = true;
                    break;
                }
            }
            if !requery {
                if let Some(g) = group {
                    core.state.set_cursor(&entry.name, &g.text, core.now())?;
                }
                return Ok(());
            }
            cursor = committed;
            inclusive = false;
        }
    }

    async fn handle_listed(
        &self,
        entry: &EntryInfo,
        record: &serde_json::Value,
        stamp: Option<&Stamp>,
        seen: &mut HashMap<String, String>,
    ) -> Result<(), WorkerError> {
        let core = &self.core;
        let id = match entry.module.id_of(record) {
            Ok(id) => id,
            Err(e) => {
                tracing::warn!(entry = %entry.name, error = %e, "listed record skipped: no usable id");
                core.count(&entry.name, "?", RecordResult::Skipped, Some(&e));
                return Ok(());
            }
        };
        let text = stamp.map(|s| s.text.clone()).unwrap_or_default();
        if seen.get(&id) == Some(&text) {
            // Listed again after a re-query (the tail of an equal-timestamp group).
            return Ok(());
        }
        seen.insert(id.clone(), text);
        core.summary(&entry.name, |s| s.listed += 1);
        sync_one(
            &self.core,
            entry,
            &id,
            Trigger::Listed(stamp.map(|s| s.text.clone())),
        )
        .await
        .map(drop)
    }
}
