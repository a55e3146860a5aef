//! The loop on a shared state: several workers, one queue. Each worker lists the entries no
//! other worker is listing (enqueueing what it lists), then its pushers (one unless
//! `SyncOptions::pushers` says more) push leased items until the queue of its entries is
//! empty, renewing the worker's leases while they work.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures::future::{Either, select};

use crate::error::WorkerError;
use crate::record::{Trigger, sync_one};
use crate::scan::scan;
use crate::shared::Core;
use crate::state::WorkQueue;

/// Items leased at once: small, so that a stopping worker holds few and the others share
/// the rest.
const BATCH: u32 = 5;

/// How long an idle pusher waits before asking the queue again while other workers still
/// list or hold items.
pub(crate) const IDLE: Duration = Duration::from_millis(250);

/// Lists and pushes `order` (the requested entries in dependency order) on the shared queue.
pub(crate) async fn run(
    core: &Arc<Core>,
    queue: &dyn WorkQueue,
    order: &[String],
) -> Result<(), WorkerError> {
    let result = list_and_push(core, queue, order).await;
    // A stop or a stopping failure leaves unstarted items to the other workers at once
    // instead of after the lease.
    if let Err(error) = queue.return_leases(&core.worker_id) {
        tracing::warn!(%error, "could not hand back this worker's leases; they end by themselves");
    }
    result
}

async fn list_and_push(
    core: &Arc<Core>,
    queue: &dyn WorkQueue,
    order: &[String],
) -> Result<(), WorkerError> {
    for name in order {
        if core.limit_reached() {
            return Ok(());
        }
        list(core, queue, name).await?;
    }
    push_side_by_side(core, queue, order).await
}

/// Runs the worker's pushers side by side until the queue of `entries` is empty. A pusher
/// that fails stops the others before their next record (the record each is pushing ends
/// first); the result is a failure when one failed (the lowest pusher's when several did).
async fn push_side_by_side(
    core: &Arc<Core>,
    queue: &dyn WorkQueue,
    entries: &[String],
) -> Result<(), WorkerError> {
    let failed = AtomicBool::new(false);
    let pushers = (0..core.options.pushers.max(1)).map(|_| async {
        let result = push_leased(core, queue, entries, &failed).await;
        if result.is_err() {
            failed.store(true, Ordering::SeqCst);
        }
        result
    });
    futures::future::join_all(pushers)
        .await
        .into_iter()
        .collect()
}

/// Lists `name` when no other worker does: enqueues its due retries, then its changed
/// records, moving the shared cursor once they are enqueued.
async fn list(core: &Arc<Core>, queue: &dyn WorkQueue, name: &str) -> Result<(), WorkerError> {
    let Some(entry) = core.entry(name).cloned() else {
        return Ok(());
    };
    if !queue.take_lister(name, core.lease())? {
        tracing::info!(entry = %name, "another worker lists this entry; pushing its records");
        return Ok(());
    }
    let due: Vec<_> = crate::record::due_retries(core, &entry)?
        .into_iter()
        .map(|row| row.key)
        .collect();
    let retries = queue.enqueue_retries(&due, entry.rank, core.now())?;
    core.summary(name, |s| s.retried += retries);
    let listed = with_heartbeat(core, queue, scan(core, &entry)).await;
    queue.release_lister(name, &core.worker_id)?;
    listed
}

/// Pushes leased items of `entries` until none is queued and no one lists them any more, or
/// until a sibling pusher has `failed`.
async fn push_leased(
    core: &Arc<Core>,
    queue: &dyn WorkQueue,
    entries: &[String],
    failed: &AtomicBool,
) -> Result<(), WorkerError> {
    let stop = || core.limit_reached() || failed.load(Ordering::SeqCst);
    loop {
        if stop() {
            return Ok(());
        }
        let items = queue.lease(entries, core.lease(), BATCH)?;
        if items.is_empty() {
            if queue.pending(entries, core.now())? == 0 {
                return Ok(());
            }
            tokio::time::sleep(IDLE).await;
            continue;
        }
        for item in items {
            if stop() {
                return Ok(());
            }
            let Some(entry) = core.entry(&item.key.entry).cloned() else {
                continue;
            };
            let trigger = if item.retry {
                Trigger::Retry
            } else {
                Trigger::Listed(item.updated_at.clone())
            };
            let push = sync_one(core, &entry, &item.key.platform_id, trigger);
            with_heartbeat(core, queue, push).await?;
        }
    }
}

/// Runs `work` while renewing this worker's leases every third of their length, so that a
/// slow push or listing keeps them and only a dead worker loses them.
pub(crate) async fn with_heartbeat<T>(
    core: &Core,
    queue: &dyn WorkQueue,
    work: impl Future<Output = T>,
) -> T {
    let every = Duration::from_secs(core.options.lease_seconds / 3);
    let beat = async {
        loop {
            tokio::time::sleep(every).await;
            if let Err(error) = queue.renew(core.lease()) {
                tracing::warn!(%error, "could not renew this worker's leases");
            }
        }
    };
    let (work, beat) = (std::pin::pin!(work), std::pin::pin!(beat));
    match select(work, beat).await {
        Either::Left((done, _)) => done,
        Either::Right(((), work)) => work.await,
    }
}
