//! [`Worker`]: the sync loop's setup and its run over the requested entries.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use syncdef_engine::{Engine, Transport};
use syncdef_platform::PlatformClient;

use crate::error::WorkerError;
use crate::modules::Module;
use crate::observer::{Event, Observer, Silent};
use crate::options::{SyncOptions, pushes};
use crate::order::Dependencies;
use crate::record::{Trigger, finds_out, sync_one};
use crate::report::{PullSummary, SyncReport};
use crate::scan::scan;
use crate::shared::{Clock, Core, EntryInfo, Setup, StopHandle};
use crate::state::{RecordStatus, State};

/// How often a following worker's wait looks for a stop request.
const FOLLOW_TICK: Duration = Duration::from_millis(100);

/// The sync worker: finds changed platform records, pushes them through the engine and keeps
/// the state. One run at a time on a `SQLite` state (it enforces it); any number on a shared
/// PostgreSQL state, which hands each record to one of them (`docs/worker.md`, "Scaling
/// out").
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
        options.check(&engine, state.as_ref(), dependencies)?;
        let order = dependencies.order(&options.entries)?;
        let module_of = |name: &str| -> Result<Module, WorkerError> {
            let plan = engine.plan().entry(name).ok_or_else(|| {
                WorkerError::Usage(format!("the definition has no entry `{name}`"))
            })?;
            Module::from_root(&plan.root).ok_or_else(|| {
                WorkerError::Usage(format!(
                    "entry `{name}` pushes `$.{}` records; `syncdef sync` reads the modules {} so far",
                    plan.root,
                    Module::supported()
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
                    rank: rank_of(dependencies, name, 0),
                },
            );
        }
        let id = worker_id();
        let transport = shared_budget(&engine, transport, &state, &options, &id);
        let clock: Clock = Arc::new(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        });
        let setup = Setup {
            platform,
            engine,
            transport,
            state,
            options,
            entries,
            clock,
            observer: Arc::new(Silent),
            stop: Arc::new(AtomicBool::new(false)),
            worker_id: id,
        };
        Ok(Worker {
            core: Arc::new(Core::new(setup)),
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

    fn rebuild(self, change: impl FnOnce(&mut Setup)) -> Self {
        let mut setup = self.core.setup().clone();
        change(&mut setup);
        Worker {
            core: Arc::new(Core::new(setup)),
            order: self.order,
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
        // Each run counts its own records and pushes (a followed worker runs many).
        core.summaries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
        *core
            .pushes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = 0;
        let mut report = SyncReport {
            order: self.order.clone(),
            dry_run: core.options.dry_run,
            ..SyncReport::default()
        };
        let result = self.run_entries(&mut report).await;
        if let Err(error) = result {
            tracing::error!(%error, "sync stopped");
            report.stalled = matches!(error, WorkerError::Stalled { .. });
            report.stopped = Some(error.to_string());
        }
        report.warnings = core.platform.warnings();
        if !core.options.dry_run
            && let Err(error) = core.state.set_warnings("", &report.warnings, core.now())
        {
            tracing::warn!(%error, "the run's warnings could not be kept in the state");
        }
        report.entries = core
            .summaries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        report.planned = std::mem::take(
            &mut *core
                .planned
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        report
    }

    /// Runs again and again, `every` apart (from the end of one run to the start of the
    /// next), handing each run's report to `each`, until a stop request: the run going on
    /// then ends after its current record, a wait ends at once. Returns the last run's
    /// report. A run stopped by a failure (credentials refused, the state failing) ends the
    /// following too.
    pub async fn follow(&self, every: Duration, mut each: impl FnMut(&SyncReport)) -> SyncReport {
        loop {
            let report = self.run().await;
            each(&report);
            let stopped_by_failure = report.stopped.is_some() && !self.stop_requested();
            if stopped_by_failure || self.stop_requested() {
                return report;
            }
            let until = std::time::Instant::now() + every;
            while std::time::Instant::now() < until {
                if self.stop_requested() {
                    return report;
                }
                let next_run_in = until.saturating_duration_since(std::time::Instant::now());
                self.core.observer.event(&Event::Waiting { next_run_in });
                tokio::time::sleep(FOLLOW_TICK.min(next_run_in)).await;
            }
        }
    }

    fn stop_requested(&self) -> bool {
        self.stop_handle().requested()
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
        if core.options.direction.pulls() {
            self.pull_entries(report).await?;
        }
        if core.options.direction.pushes() {
            self.push_entries().await?;
        }
        Ok(())
    }

    /// Pulls every requested entry that has a `pull.batchRead`, in dependency order.
    async fn pull_entries(&self, report: &mut SyncReport) -> Result<(), WorkerError> {
        let core = &self.core;
        let plan = core.engine.plan();
        for name in &self.order {
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
                    .and_then(|e| Module::from_root(&e.root))
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
            let pulling = crate::pull::PullEntry {
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
            let result = self.pull_entry(&pulling).await;
            let summary = match result {
                Ok(summary) => summary,
                Err(e) => {
                    report.pulled.insert(name.clone(), PullSummary::default());
                    return Err(e);
                }
            };
            tracing::info!(entry = %name, read = summary.read, created = summary.created, updated = summary.updated, conflicts = summary.conflicts, "pull done");
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
    async fn pull_entry(
        &self,
        entry: &crate::pull::PullEntry<'_>,
    ) -> Result<PullSummary, WorkerError> {
        let core = &self.core;
        if !core.options.refresh.is_empty() {
            return crate::pull::refresh(entry, &core.options.refresh).await;
        }
        let Some(queue) = core.state.queue() else {
            return crate::pull::pull(entry).await;
        };
        let cursor = crate::pull::cursor_name(&entry.name);
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
            tokio::time::sleep(crate::pool::IDLE).await;
        }
        let result = if waited && core.state.cursor(&cursor)? != before {
            tracing::info!(entry = %entry.name, "pulled by another worker meanwhile");
            Ok(PullSummary::default())
        } else {
            crate::pool::with_heartbeat(core, queue, crate::pull::pull(entry)).await
        };
        queue.release_lister(&cursor, &core.worker_id)?;
        result
    }

    /// Pushes every requested entry that has push operations, in dependency order.
    async fn push_entries(&self) -> Result<(), WorkerError> {
        let core = &self.core;
        let plan = core.engine.plan();
        let order: Vec<String> = self
            .order
            .iter()
            .filter(|n| plan.entry(n).is_some_and(pushes))
            .cloned()
            .collect();
        if let Some(queue) = core.state.queue() {
            for name in &order {
                core.summary(name, |_| ());
            }
            let result = crate::pool::run(core, queue, &order).await;
            let finished: Result<Vec<()>, WorkerError> =
                order.iter().map(|name| self.finish_entry(name)).collect();
            result?;
            finished?;
            if core.limit_reached() {
                return Err(WorkerError::Usage(core.limit_message()));
            }
            return Ok(());
        }
        for name in &order {
            let Some(entry) = core.entry(name).cloned() else {
                continue;
            };
            core.summary(name, |_| ());
            let result = self.run_entry(&entry).await;
            let finished = self.finish_entry(name);
            result?;
            finished?;
            if core.limit_reached() {
                return Err(WorkerError::Usage(core.limit_message()));
            }
        }
        Ok(())
    }

    /// Completes an entry's summary with its cursor, keeps its warnings in the state (for
    /// `syncdef sync status`), and reports it.
    fn finish_entry(&self, name: &str) -> Result<(), WorkerError> {
        let core = &self.core;
        let cursor = core.state.cursor(name).ok().flatten();
        let summary = core.summary(name, |s| {
            s.cursor = cursor;
            s.clone()
        });
        if !core.options.dry_run {
            core.state
                .set_warnings(name, &summary.warnings, core.now())?;
        }
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
        Ok(())
    }

    async fn run_entry(&self, entry: &EntryInfo) -> Result<(), WorkerError> {
        let core = &self.core;
        for row in core.state.due_retries(&entry.name, core.now())? {
            if core.limit_reached() {
                return Ok(());
            }
            // An unknown outcome nothing can find out about waits for an operator; it is not a
            // retry (a listing still reports it as skipped).
            if row.status == RecordStatus::Unknown && !finds_out(core, entry, &row) {
                continue;
            }
            core.summary(&entry.name, |s| s.retried += 1);
            tracing::info!(entry = %entry.name, id = %row.key.platform_id, attempts = row.attempts, "retrying");
            sync_one(core, entry, &row.key.platform_id, Trigger::Retry).await?;
        }
        scan(core, entry).await
    }
}

/// On a state with a shared budget, every request to the external system first takes room in
/// its account's budget (`docs/worker.md`, "Scaling out").
fn shared_budget(
    engine: &Engine,
    transport: Arc<dyn Transport>,
    state: &Arc<dyn State>,
    options: &SyncOptions,
    worker_id: &str,
) -> Arc<dyn Transport> {
    let policy = engine.rate_limit_policy();
    if options.dry_run || policy.is_unlimited() || state.budget().is_none() {
        return transport;
    }
    let key_values = policy
        .key
        .iter()
        .map(|name| {
            let value = options
                .server_variables
                .get(name)
                .map_or("", String::as_str);
            format!("{name}={value}")
        })
        .collect::<Vec<_>>()
        .join("&");
    Arc::new(crate::budget::SharedBudget {
        inner: transport,
        state: state.clone(),
        key_values,
        limits: crate::state::AccountLimits {
            requests_per_minute: policy.requests_per_minute,
            window_ms: u64::try_from(policy.window().as_millis()).unwrap_or(60_000),
            concurrency: policy.concurrency,
        },
        worker_id: worker_id.to_owned(),
        hold_seconds: options.lease_seconds,
    })
}

/// How many entries lie below `name` in dependency order (its longest chain of needs).
fn rank_of(dependencies: &Dependencies, name: &str, depth: i32) -> i32 {
    // A cycle is refused before a run; the bound only keeps a malformed graph finite here.
    if depth > 64 {
        return depth;
    }
    dependencies
        .of(name)
        .map(|need| 1 + rank_of(dependencies, need, depth + 1))
        .max()
        .unwrap_or(0)
}

/// A name unique to this process among the workers sharing a queue: host, process id and
/// start time.
fn worker_id() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map_or_else(|_| "host".to_owned(), |h| h.trim().to_owned());
    let started = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{host}-{}-{started:x}", std::process::id())
}
