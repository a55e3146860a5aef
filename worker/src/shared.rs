//! [`Core`]: what the loop, the record handler and the `ApiSynchronization` callback share.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use syncdef_engine::{Engine, Transport};
use syncdef_platform::PlatformClient;

use crate::modules::Module;
use crate::observer::{Event, Observer};
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
    /// The entry's place in dependency order (0 for an entry that needs none): on a shared
    /// queue, items of a higher rank wait while items of a lower rank are queued.
    pub rank: i32,
}

/// What a worker is set up with: the same for every run, and all a run's [`Core`] is built from.
#[derive(Clone)]
pub(crate) struct Setup {
    pub platform: PlatformClient,
    pub engine: Engine,
    pub transport: Arc<dyn Transport>,
    pub state: Arc<dyn State>,
    pub options: SyncOptions,
    pub entries: BTreeMap<String, EntryInfo>,
    pub clock: Clock,
    pub observer: Arc<dyn Observer>,
    pub stop: Arc<AtomicBool>,
    /// This process's name in the leases of a shared queue.
    pub worker_id: String,
}

/// Shared by the loop and the `ApiSynchronization` callback: the [`Setup`] (read through it,
/// `core.state`) and what the runs count.
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
    /// A core of `setup` with nothing counted yet.
    pub fn new(setup: Setup) -> Core {
        Core {
            setup,
            summaries: Mutex::new(BTreeMap::new()),
            planned: Mutex::new(Vec::new()),
            pushes: Mutex::new(0),
            handling: crate::handling::Handling::default(),
        }
    }

    /// The setup, to build another core from.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }
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
        if matches!(result, RecordResult::Created | RecordResult::Updated) {
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
