//! [`Worker`]: the sync loop's setup, and a run's steps: recover creates cut short, pull,
//! push, report.

use std::sync::Arc;
use std::time::Duration;

use syncdef_engine::{Engine, Transport};
use syncdef_platform::PlatformClient;

use crate::error::WorkerError;
use crate::observer::{Event, Observer};
use crate::options::SyncOptions;
use crate::order::Dependencies;
use crate::report::SyncReport;
use crate::shared::{Clock, Core, CoreBuilder, StopHandle};
use crate::state::State;

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
    /// Builds each run's core (a run counts its own records and pushes).
    cores: CoreBuilder,
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
        let entries = crate::entries::entries(&engine, dependencies, &order)?;
        let cores = Core::builder(platform, engine, transport, state, options, entries);
        Ok(Worker { cores, order })
    }

    /// Uses `clock` for "now" (backoffs, timestamps in the state).
    #[must_use]
    pub fn with_clock(self, clock: Clock) -> Self {
        Worker {
            cores: self.cores.clock(clock),
            ..self
        }
    }

    /// Sends progress events to `observer`.
    #[must_use]
    pub fn with_observer(self, observer: Arc<dyn Observer>) -> Self {
        Worker {
            cores: self.cores.observer(observer),
            ..self
        }
    }

    /// A handle that stops the run after the current record.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(self.cores.setup().stop.clone())
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
        let core = &self.cores.build();
        let mut report = SyncReport {
            order: self.order.clone(),
            dry_run: core.options.dry_run,
            ..SyncReport::default()
        };
        let result = self.run_entries(core, &mut report).await;
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
        core.observer.event(&Event::RunFinished { report: &report });
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
                self.cores
                    .setup()
                    .observer
                    .event(&Event::Waiting { next_run_in });
                tokio::time::sleep(FOLLOW_TICK.min(next_run_in)).await;
            }
        }
    }

    fn stop_requested(&self) -> bool {
        self.stop_handle().requested()
    }

    async fn run_entries(
        &self,
        core: &Arc<Core>,
        report: &mut SyncReport,
    ) -> Result<(), WorkerError> {
        report.recovered_in_flight = core.state.recover_in_flight(core.now())?;
        if report.recovered_in_flight > 0 {
            tracing::warn!(
                count = report.recovered_in_flight,
                "creates cut short by an earlier run are now `unknown`: check them in the external system, then `syncdef sync resolve`"
            );
        }
        // Each direction's future is boxed: they are large, and a run awaits each once.
        if core.options.direction.pulls() {
            Box::pin(crate::pull::pull_entries(core, &self.order, report)).await?;
        }
        if core.options.direction.pushes() {
            Box::pin(crate::push::push_entries(core, &self.order)).await?;
        }
        Ok(())
    }
}
