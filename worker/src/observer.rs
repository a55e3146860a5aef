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
}

/// Receives [`Event`]s; called from the run's task, so it must be quick.
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
