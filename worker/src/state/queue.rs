//! [`WorkQueue`]: how the records to push reach the pushers, on every state
//! ([`super::State::queue`]). A lister per entry enqueues the records it lists; pushers lease
//! disjoint batches; a record is pushed only under its lease, so two pushers never push it at
//! once. On a state several workers share (PostgreSQL) the queue is in the database and a
//! lease that expires on a create in flight turns it into `unknown` instead of handing it out
//! for a second create; a state one process owns whole (`SQLite`) keeps it in memory
//! ([`super::LocalQueue`]).

use super::{RecordKey, StateError};

/// A record waiting to be pushed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkItem {
    /// Entry and platform id.
    pub key: RecordKey,
    /// The platform's `updatedAt` listed, when the item comes from a listing.
    pub updated_at: Option<String>,
    /// Whether the item is a due retry (a failed record, or an unknown create to find out).
    pub retry: bool,
}

/// How full the queue of some entries is: the operator's view of a pool's backlog.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueDepth {
    /// Items no live lease holds: waiting for a pusher.
    pub queued: u64,
    /// Items under a live lease (any worker's): being pushed.
    pub leased: u64,
}

/// Who holds a lease, and until when (unix seconds, from the worker's clock).
#[derive(Clone, Copy, Debug)]
pub struct Lease<'a> {
    /// The worker's id, unique per process.
    pub worker: &'a str,
    /// Now.
    pub now: i64,
    /// When the lease ends unless renewed.
    pub until: i64,
}

/// The queue of a state. Every method is one atomic step (one transaction on a database).
pub trait WorkQueue: Send + Sync {
    /// Whether what is enqueued outlives this process (a crash included). An entry's cursor
    /// moves past records once they are enqueued, so on a queue that does not, the lister
    /// pushes each record it enqueues before it lists on (the cursor then never passes a
    /// record that is neither pushed nor kept), with one pusher; on a durable one, pushers (this
    /// worker's and any other's) take what is listed while and after it is listed.
    fn durable(&self) -> bool;

    /// Becomes the lister of `entry` until the lease ends; `false` while another worker is.
    fn take_lister(&self, entry: &str, lease: Lease<'_>) -> Result<bool, StateError>;

    /// Ends this worker's listing of `entry`.
    fn release_lister(&self, entry: &str, worker: &str) -> Result<(), StateError>;

    /// Enqueues `key` (idempotent: a record listed twice is one item with the later
    /// `updatedAt`). `rank` is the entry's place in dependency order: items of a higher rank
    /// are leased only when no item of a lower rank waits.
    fn enqueue(
        &self,
        key: &RecordKey,
        updated_at: Option<&str>,
        rank: i32,
        now: i64,
    ) -> Result<(), StateError>;

    /// Enqueues `keys` as retries (failed records, or unknown creates to find out, read from
    /// [`super::State::due_retries`] just before); a key already queued stays one item, and a
    /// store may leave out a record that is no longer due. Returns how many were enqueued.
    fn enqueue_retries(&self, keys: &[RecordKey], rank: i32, now: i64) -> Result<u64, StateError>;

    /// Leases up to `limit` items of `entries` that no live lease holds, lowest rank first,
    /// skipping items other workers are taking. On a shared store, an item whose lease expired
    /// while its record was in flight has that record turned `unknown` first.
    fn lease(
        &self,
        entries: &[String],
        lease: Lease<'_>,
        limit: u32,
    ) -> Result<Vec<WorkItem>, StateError>;

    /// Takes or renews the lease of one record before pushing it (a record pushed as another
    /// one's dependency, or an item already leased); `false` while another worker holds it.
    fn claim(&self, key: &RecordKey, rank: i32, lease: Lease<'_>) -> Result<bool, StateError>;

    /// Extends every lease this worker holds.
    fn renew(&self, lease: Lease<'_>) -> Result<(), StateError>;

    /// The record's outcome is stored: removes its item, or frees it when it was enqueued
    /// again while leased (a later version to push).
    fn complete(&self, key: &RecordKey, worker: &str) -> Result<(), StateError>;

    /// Frees every lease of this worker (a stop between records).
    fn return_leases(&self, worker: &str) -> Result<(), StateError>;

    /// Items of `entries` still queued (leased or not) plus live listers of them: a pusher
    /// ends when none remain.
    fn pending(&self, entries: &[String], now: i64) -> Result<u64, StateError>;

    /// Items of `entries` waiting and leased at `now` (listers left out).
    fn depth(&self, entries: &[String], now: i64) -> Result<QueueDepth, StateError>;
}
