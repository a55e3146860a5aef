//! [`WorkQueue`]: what a state shared by several workers adds to [`super::State`]. A lister
//! per entry enqueues the records it lists; pushers lease disjoint batches; a record is pushed
//! only under its lease, so two workers never push it at once, and a lease that expires on a
//! create in flight turns it into `unknown` instead of handing it out for a second create.

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

/// The queue of a shared state. Every method is one transaction.
pub trait WorkQueue: Send + Sync {
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

    /// Enqueues the failed and unknown records of `entry` whose next attempt is due.
    fn enqueue_due_retries(&self, entry: &str, rank: i32, now: i64) -> Result<u64, StateError>;

    /// Leases up to `limit` items of `entries` that no live lease holds, lowest rank first,
    /// skipping rows other workers are taking (`FOR UPDATE SKIP LOCKED`). An item whose
    /// lease expired while its record was in flight has that record turned `unknown` first.
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
}
