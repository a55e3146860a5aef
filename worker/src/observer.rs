//! Progress events, for a progress bar, a log or metrics: everything a run does that an
//! operator counts (records, requests, rate-limit waits, the work queue) is sent here, so
//! that a binary only has to keep and serve what it receives.

use std::time::Duration;

use crate::report::{EntrySummary, PullResult, PullSummary, RecordResult, SyncReport};

/// Something that happened during a run. More kinds may come: match with a wildcard arm.
#[derive(Clone, Debug)]
#[non_exhaustive]
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
    /// A page of an entry's pull was read from the external system; its records follow as
    /// [`Event::Pulled`]s.
    PullPage {
        /// The entry.
        entry: &'a str,
        /// Records read.
        read: usize,
        /// Elements of the answer that are not records the platform can take (set apart).
        rejected: usize,
    },
    /// A record read from the external system was written onto the platform (or not).
    Pulled {
        /// The entry.
        entry: &'a str,
        /// What became of it.
        result: PullResult,
    },
    /// An entry's pull is done.
    PullFinished {
        /// The entry.
        entry: &'a str,
        /// Its counts.
        summary: &'a PullSummary,
    },
    /// One attempt of a request to the external system was answered, or failed to be.
    Request {
        /// The entry whose push or pull sent it.
        entry: &'a str,
        /// Which way the entry's records went.
        flow: Flow,
        /// The step: `create`, `update`, `delete`, `batchRead`, `read` or an action's name.
        operation: &'a str,
        /// How it ended.
        status: StatusClass,
        /// From sending to the answer (or the failure), waits for the rate limit excluded.
        duration: Duration,
        /// The external account whose rate limit it drew on (`realmId=123`, or the server's
        /// origin when the policy names no variable); `None` when no limit is set.
        account: Option<&'a str>,
    },
    /// A request waited for room in its account's rate limit before it was sent: this
    /// process's limiter, or the budget every worker of a shared state draws on.
    Throttled {
        /// The external account.
        account: &'a str,
        /// How long it waited.
        waited: Duration,
    },
    /// The work queue as a pusher found it when it took its next batch.
    Queue {
        /// Items waiting for a pusher, held by no lease.
        queued: u64,
        /// Items a pusher holds (this worker's or another's), being pushed.
        leased: u64,
    },
    /// A run is over: its report, as [`crate::Worker::run`] returns it.
    RunFinished {
        /// What the run did.
        report: &'a SyncReport,
    },
    /// A following worker waits for its next run (sent about ten times a second while it
    /// waits): it is alive between runs.
    Waiting {
        /// Until the next run starts.
        next_run_in: std::time::Duration,
    },
}

/// Which way a record goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flow {
    /// From the platform to the external system.
    Push,
    /// From the external system onto the platform.
    Pull,
}

impl Flow {
    /// `push` or `pull`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Flow::Push => "push",
            Flow::Pull => "pull",
        }
    }
}

/// How one attempt of a request ended: the class of its HTTP status, or no answer at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StatusClass {
    /// 1xx.
    Informational,
    /// 2xx.
    Success,
    /// 3xx.
    Redirection,
    /// 4xx.
    ClientError,
    /// 5xx.
    ServerError,
    /// No HTTP answer: the connection failed, timed out or the request was not sent.
    Transport,
}

impl StatusClass {
    /// The class of `status`; `None` is a request that got no answer.
    #[must_use]
    pub fn of(status: Option<u16>) -> StatusClass {
        match status {
            Some(100..=199) => StatusClass::Informational,
            Some(200..=299) => StatusClass::Success,
            Some(300..=399) => StatusClass::Redirection,
            Some(400..=499) => StatusClass::ClientError,
            // A status outside the standard classes is a server's fault too.
            Some(_) => StatusClass::ServerError,
            None => StatusClass::Transport,
        }
    }

    /// `1xx` to `5xx`, or `transport_error`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            StatusClass::Informational => "1xx",
            StatusClass::Success => "2xx",
            StatusClass::Redirection => "3xx",
            StatusClass::ClientError => "4xx",
            StatusClass::ServerError => "5xx",
            StatusClass::Transport => "transport_error",
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_fall_in_their_classes() {
        let label = |status| StatusClass::of(status).as_str();
        assert_eq!(label(Some(101)), "1xx");
        assert_eq!(label(Some(200)), "2xx");
        assert_eq!(label(Some(204)), "2xx");
        assert_eq!(label(Some(304)), "3xx");
        assert_eq!(label(Some(429)), "4xx");
        assert_eq!(label(Some(503)), "5xx");
        assert_eq!(label(Some(999)), "5xx");
        assert_eq!(label(None), "transport_error");
    }
}
