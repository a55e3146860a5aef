//! [`Core`]: what one run's loop, record handler and `ApiSynchronization` callback share, and
//! the [`CoreBuilder`] a worker keeps to build one per run.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use syncdef_engine::{Engine, Transport};
use syncdef_platform::PlatformClient;

use crate::modules::Module;
use crate::observer::{Event, Observer, Silent};
use crate::options::SyncOptions;
use crate::report::{EntrySummary, PlannedPush, RecordResult};
use crate::state::{Lease, State};

/// A source of "now" in unix seconds; tests replace it to step over backoffs.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

/// An entry ready to sync.
#[derive(Clone, Debug)]
pub(crate) struct EntryInfo {
    pub name: String,
    pub module: Module,
    /// Entries this one's records name (their external ids go into `RecordState.related`).
    pub needs: Vec<(String, Module)>,
    /// The entry's place in dependency order (0 for an entry that needs none): items of a
    /// higher rank wait in the work queue while items of a lower rank are queued.
    pub rank: i32,
}

/// What a worker is set up with: the same for every run, read by a run through its [`Core`].
#[derive(Clone)]
pub(crate) struct Setup {
    pub platform: PlatformClient,
    pub engine: Engine,
    /// The transport a run sends through: in a [`CoreBuilder`], as the worker was given it;
    /// in a [`Core`], wrapped to take room in the shared budget first when there is one.
    pub transport: Arc<dyn Transport>,
    /// The external account's key values (`realmId=123`), when the engine's policy limits
    /// requests ([`crate::requests::account_key`]).
    pub account_key: Option<String>,
    pub state: Arc<dyn State>,
    pub options: SyncOptions,
    pub entries: BTreeMap<String, EntryInfo>,
    pub clock: Clock,
    pub observer: Arc<dyn Observer>,
    pub stop: Arc<AtomicBool>,
    /// This process's name in the leases of a shared queue.
    pub worker_id: String,
}

/// Shared by one run's loop and `ApiSynchronization` callbacks: the [`Setup`] (read through
/// it, `core.state`) and what the run counts. Built per run by a [`CoreBuilder`], so each run
/// starts with nothing counted.
pub(crate) struct Core {
    setup: Setup,
    pub summaries: Mutex<BTreeMap<String, EntrySummary>>,
    pub planned: Mutex<Vec<PlannedPush>>,
    pub pushes: Mutex<u64>,
    /// The records this worker's pushers hold now (they share `worker_id`).
    pub handling: crate::handling::Handling,
}

impl std::ops::Deref for Core {
    type Target = Setup;

    fn deref(&self) -> &Setup {
        &self.setup
    }
}

impl Core {
    /// A builder of cores pushing with `engine` through `transport` (on a state with a shared
    /// budget, wrapped to take room in it first), reading `platform`, keeping `state`; the
    /// system clock, no observer and a fresh worker id until told otherwise.
    pub fn builder(
        platform: PlatformClient,
        engine: Engine,
        transport: Arc<dyn Transport>,
        state: Arc<dyn State>,
        options: SyncOptions,
        entries: BTreeMap<String, EntryInfo>,
    ) -> CoreBuilder {
        let worker_id = worker_id();
        let account_key = crate::requests::account_key(&engine, &options);
        CoreBuilder(Setup {
            platform,
            engine,
            transport,
            account_key,
            state,
            options,
            entries,
            clock: Arc::new(system_clock),
            observer: Arc::new(Silent),
            stop: Arc::new(AtomicBool::new(false)),
            worker_id,
        })
    }
}

/// Builds a [`Core`] per run from one [`Setup`]; what it changes holds for every later run.
#[derive(Clone)]
pub(crate) struct CoreBuilder(Setup);

impl CoreBuilder {
    /// Uses `clock` for "now".
    #[must_use]
    pub fn clock(mut self, clock: Clock) -> Self {
        self.0.clock = clock;
        self
    }

    /// Sends progress events to `observer`.
    #[must_use]
    pub fn observer(mut self, observer: Arc<dyn Observer>) -> Self {
        self.0.observer = observer;
        self
    }

    /// What every core of this builder is set up with.
    pub fn setup(&self) -> &Setup {
        &self.0
    }

    /// A core for one run, with nothing counted yet. Its transport takes room in the shared
    /// budget first, when the state shares one, telling the observer of the waits.
    pub fn build(&self) -> Arc<Core> {
        let mut setup = self.0.clone();
        setup.transport = crate::budget::shared(&setup);
        Arc::new(Core {
            setup,
            summaries: Mutex::new(BTreeMap::new()),
            planned: Mutex::new(Vec::new()),
            pushes: Mutex::new(0),
            handling: crate::handling::Handling::default(),
        })
    }
}

/// Unix seconds from the system clock.
fn system_clock() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
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

/// Asks a running [`crate::Worker`] to stop after the record it is handling (a signal handler's
/// tool: the state stays consistent and the next run continues from there).
#[derive(Clone, Debug, Default)]
pub struct StopHandle(pub(crate) Arc<AtomicBool>);

impl StopHandle {
    /// Requests the stop; the run ends after the current record with
    /// [`crate::SyncReport::stopped`] set.
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was requested.
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

impl Core {
    pub fn now(&self) -> i64 {
        (self.clock)()
    }

    /// A lease from now for the configured length, in this worker's name.
    pub fn lease(&self) -> Lease<'_> {
        let now = self.now();
        Lease {
            worker: &self.worker_id,
            now,
            until: now
                .saturating_add(i64::try_from(self.options.lease_seconds).unwrap_or(i64::MAX)),
        }
    }

    pub fn entry(&self, name: &str) -> Option<&EntryInfo> {
        self.entries.get(name)
    }

    /// Counts a record's result and tells the observer.
    pub fn count(&self, entry: &str, id: &str, result: RecordResult, error: Option<&str>) {
        let mut summaries = self
            .summaries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        summaries.entry(entry.to_owned()).or_default().count(result);
        drop(summaries);
        if matches!(
            result,
            RecordResult::Created | RecordResult::Updated | RecordResult::Deleted
        ) {
            *self
                .pushes
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) += 1;
        }
        self.observer.event(&Event::Record {
            entry,
            platform_id: id,
            result,
            error,
        });
    }

    pub fn summary<R>(&self, entry: &str, f: impl FnOnce(&mut EntrySummary) -> R) -> R {
        let mut summaries = self
            .summaries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        f(summaries.entry(entry.to_owned()).or_default())
    }

    /// Whether to stop before the next record: the push limit, or a stop request.
    pub fn limit_reached(&self) -> bool {
        if self.stop.load(Ordering::SeqCst) {
            return true;
        }
        let pushes = *self
            .pushes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        self.options.max_pushes.is_some_and(|max| pushes >= max)
    }

    pub fn limit_message(&self) -> String {
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
