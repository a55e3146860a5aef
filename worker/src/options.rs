//! [`SyncOptions`]: what a run syncs and how, and the checks that refuse options that cannot
//! work together before anything is read or sent.

use std::collections::BTreeMap;

use syncdef_engine::Engine;

use crate::backoff::Backoff;
use crate::error::WorkerError;
use crate::order::Dependencies;
use crate::stamp::Stamp;
use crate::state::State;

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
    /// Which way records go: pushed to the external system, pulled onto the platform, or
    /// both (pulled first, so that a record changed on both sides is seen as a conflict
    /// rather than overwritten by the push). Default: push.
    pub direction: Direction,
    /// On a shared state (PostgreSQL): how long a worker's lease on a record or a listing
    /// lasts unless renewed (it is renewed every third of it while the worker works). A
    /// worker that dies loses its leases after this long, and another takes its records
    /// over. Default 60.
    pub lease_seconds: u64,
    /// On a shared state (PostgreSQL): records this worker pushes at once, each by a pusher
    /// of its own taking leased items from the queue as another process would. One pusher
    /// sends one request per round trip to the external system; a company's limit (QuickBooks:
    /// 500 a minute, 10 at once) takes several when each request waits a while. The shared
    /// budget keeps the limits whatever the count. Default 1.
    pub pushers: u32,
    /// Instead of a whole pull, read these records one by one by their external ids
    /// (`pull.read`) and write each onto the platform as a pull does; the pull cursor stays.
    /// Needs [`Direction::Pull`] and one entry with a `pull.read`.
    pub refresh: Vec<String>,
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
            direction: Direction::Push,
            lease_seconds: 60,
            pushers: 1,
            refresh: Vec::new(),
        }
    }
}

/// The most pushers one worker runs: vendors allow tens of requests at once per account
/// (QuickBooks 10), and more pushers than that only wait on the budget.
const MOST_PUSHERS: u32 = 64;

/// Several pushers need a durable queue, listed ahead of them (on one that is not, the lister
/// pushes each record as it lists it), and `max_pushes` counts the pushes of one pusher at a
/// time.
fn check_pushers(options: &SyncOptions, state: &dyn State) -> Result<(), WorkerError> {
    match options.pushers {
        0 => Err(WorkerError::Usage("--pushers must be at least 1".into())),
        1 => Ok(()),
        n if n > MOST_PUSHERS => Err(WorkerError::Usage(format!(
            "--pushers {n} is more than {MOST_PUSHERS}: the external system's own limit on \
             requests at once (QuickBooks: 10) caps what more pushers could add; for more, \
             start more processes"
        ))),
        n if !state.queue().durable() => Err(WorkerError::Usage(format!(
            "--pushers {n} needs a state shared through PostgreSQL (--state postgres://...); \
             a SQLite state is pushed by one pusher"
        ))),
        n if options.max_pushes.is_some() => Err(WorkerError::Usage(format!(
            "--max-pushes stops after an exact number of pushes, which {n} pushers at once \
             would overshoot; use it with --pushers 1"
        ))),
        _ => Ok(()),
    }
}

/// Which way a run moves records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Direction {
    /// Platform records changed since the last push go to the external system.
    #[default]
    Push,
    /// External records changed since the last pull come onto the platform (entries with a
    /// `pull.batchRead`).
    Pull,
    /// Pull, then push.
    Both,
}

impl Direction {
    pub(crate) fn pulls(self) -> bool {
        matches!(self, Direction::Pull | Direction::Both)
    }

    pub(crate) fn pushes(self) -> bool {
        matches!(self, Direction::Push | Direction::Both)
    }
}

/// Each requested entry can go the way asked: a push needs push operations, a pull a
/// `pull.batchRead`, and both needs either.
fn check_directions(engine: &Engine, options: &SyncOptions) -> Result<(), WorkerError> {
    let plan = engine.plan();
    if !options.refresh.is_empty() {
        return check_refresh(engine, options);
    }
    for name in &options.entries {
        let Some(entry) = plan.entry(name) else {
            continue;
        };
        let problem = match options.direction {
            Direction::Push if !pushes(entry) => {
                "has no push operation (it only pulls): run it with --direction pull or both"
            }
            Direction::Pull if !entry.pulls() => {
                "has no `pull.batchRead`: it can only be pushed (--direction push)"
            }
            Direction::Both if !pushes(entry) && !entry.pulls() => "neither pushes nor pulls",
            _ => continue,
        };
        return Err(WorkerError::Usage(format!("entry `{name}` {problem}")));
    }
    Ok(())
}

/// A refresh reads records of one entry by their ids: a pull of an entry that has `pull.read`.
fn check_refresh(engine: &Engine, options: &SyncOptions) -> Result<(), WorkerError> {
    if options.direction != Direction::Pull {
        return Err(WorkerError::Usage(
            "refreshing records by external id is a pull: run it with --direction pull".into(),
        ));
    }
    let [name] = options.entries.as_slice() else {
        return Err(WorkerError::Usage(format!(
            "refreshing records by external id reads one entry's records; name one entry (got {})",
            if options.entries.is_empty() {
                "none".to_owned()
            } else {
                options.entries.join(", ")
            }
        )));
    };
    match engine.plan().entry(name) {
        Some(entry) if !entry.reads() => Err(WorkerError::Usage(format!(
            "entry `{name}` has no `pull.read`: it cannot read one record by its external id"
        ))),
        _ => Ok(()),
    }
}

/// Whether an entry pushes anything (a pull-only entry has no push operation).
pub(crate) fn pushes(entry: &syncdef_engine::EntryPlan) -> bool {
    use syncdef_engine::OperationKind::{Create, Delete, Update};
    [Create, Update, Delete]
        .into_iter()
        .any(|kind| entry.has(kind))
}

impl SyncOptions {
    /// Refuses options that cannot work, naming what to fix: no entry, a lease, page size or
    /// pusher count out of range, an unreadable `since`, an entry that cannot go the way asked.
    pub(crate) fn check(
        &self,
        engine: &Engine,
        state: &dyn State,
        dependencies: &Dependencies,
    ) -> Result<(), WorkerError> {
        if self.entries.is_empty() {
            return Err(WorkerError::Usage(format!(
                "no entries to sync; name them with --entry (the definition has: {})",
                dependencies.names().collect::<Vec<_>>().join(", ")
            )));
        }
        if self.lease_seconds < 3 {
            return Err(WorkerError::Usage(
                "the lease must last at least 3 seconds".into(),
            ));
        }
        check_pushers(self, state)?;
        if self.page_size == 0 {
            return Err(WorkerError::Usage(
                "the page size must be at least 1".into(),
            ));
        }
        if let Some(since) = &self.since {
            Stamp::parse(since).map_err(|e| {
                WorkerError::Usage(format!(
                    "--since: {e}; give YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS"
                ))
            })?;
        }
        check_directions(engine, self)
    }
}
