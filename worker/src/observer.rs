//! Progress events, for a progress bar or a log.

use crate::report::{EntrySummary, RecordResult};

/// Something that happened during a run.
#[derive(Clone, Debug)]
pub enum Event<'a> {
    /// An entry starts; `total` is the platform's count of changed records when its answer
    /// carries one (the paging envelope's `totalCount`).
    EntryStarted {
        /// The entry.
        entry: &'a str,
        /// Changed records expected.
        total: Option<u64>,
    },
    /// A record was handled.
    Record {
        /// The entry.
        entry: &'a str,
        /// The record's platform id.
        platform_id: &'a str,
        /// What became of it.
        result: RecordResult,
        /// The error, for failures.
        error: Option<&'a str>,
    },
    /// An entry is done.
    EntryFinished {
        /// The entry.
        entry: &'a str,
        /// Its counts.
        summary: &'a EntrySummary,
    },
    /// A page of the listing came from the platform (changed or not, its records follow as
    /// [`Event::Record`]s): the listing goes on, also when nothing in it changed.
    Listed {
        /// The entry.
        entry: &'a str,
        /// Records on the page.
        records: usize,
    },
    /// A following worker waits for its next run (sent about ten times a second while it
    /// waits): it is alive between runs.
    Waiting {
        /// Until the next run starts.
        next_run_in: std::time::Duration,
    },
}

/// Receives [`Event`]s; called from the run's task, so it must be quick. A worker that makes
/// progress sends one at least every page, record and tenth of a second of waiting, so the
/// time since the last event says whether it is stuck (a liveness file is written from them).
pub trait Observer: Send + Sync {
    /// Handles one event.
    fn event(&self, event: &Event<'_>);
}

/// Ignores every event (the worker logs through `tracing` anyway).
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Observer for Silent {
    fn event(&self, _: &Event<'_>) {}
}
