//! The push direction, the worker's one loop: listers fill the state's work queue, pushers
//! empty it.
//!
//! For each requested entry in dependency order, the worker lists it unless another worker
//! does: it enqueues the entry's due retries, then the records changed since the cursor
//! (`scan.rs`), which moves once they are enqueued. Its pushers (one unless
//! `SyncOptions::pushers` says more) then push leased items until the queue of its entries is
//! empty, those other workers listed included. On a queue that does not outlive the process
//! (`SQLite`'s, see [`WorkQueue::durable`]) the lister pushes each record it enqueues before it
//! lists on, so that the cursor never passes a record only memory held; on a durable one
//! (PostgreSQL's) it lists ahead while other workers push. The worker's leases are renewed
//! while it works.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures::future::{Either, select};

use crate::error::WorkerError;
use crate::observer::Event;
use crate::options::pushes;
use crate::record::{Trigger, due_retries, sync_one};
use crate::scan::scan;
use crate::shared::{Core, EntryInfo};
use crate::state::{RecordKey, WorkQueue};

/// Items leased at once: small, so that a stopping worker holds few and the others share
/// the rest.
const BATCH: u32 = 5;

/// How long an idle pusher waits before asking the queue again while other workers still
/// list or hold items.
pub(crate) const IDLE: Duration = Duration::from_millis(250);

/// Lists and pushes the entries of `order` (the requested entries in dependency order) that
/// push, and reports each entry whose turn came once nothing of it is left to this worker.
pub(crate) async fn push_entries(core: &Arc<Core>, order: &[String]) -> Result<(), WorkerError> {
    let plan = core.engine.plan();
    let order: Vec<String> = order
        .iter()
        .filter(|n| plan.entry(n).is_some_and(pushes))
        .cloned()
        .collect();
    let queue = core.state.queue();
    let mut turns = Turns::default();
    let result = list_and_push(core, queue, &order, &mut turns).await;
    // A stop or a stopping failure leaves unstarted items to the other workers at once
    // instead of after the lease.
    if let Err(error) = queue.return_leases(&core.worker_id) {
        tracing::warn!(%error, "could not hand back this worker's leases; they end by themselves");
    }
    let finished: Result<Vec<()>, WorkerError> = turns
        .unfinished()
        .map(|name| finish_entry(core, name))
        .collect();
    result?;
    finished?;
    if core.limit_reached() {
        return Err(WorkerError::Usage(core.limit_message()));
    }
    Ok(())
}

/// The entries whose turn came, in order, and whether each is reported yet.
#[derive(Default)]
struct Turns<'a>(Vec<(&'a str, bool)>);

impl<'a> Turns<'a> {
    fn unfinished(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.0
            .iter()
            .filter(|(_, done)| !done)
            .map(|(name, _)| *name)
    }
}

async fn list_and_push<'a>(
    core: &Arc<Core>,
    queue: &dyn WorkQueue,
    order: &'a [String],
    turns: &mut Turns<'a>,
) -> Result<(), WorkerError> {
    for name in order {
        if core.limit_reached() {
            return Ok(());
        }
        core.summary(name, |_| ());
        turns.0.push((name, false));
        list(core, queue, name).await?;
        // Nothing of it is left to push (a queue that is not durable had each record pushed
        // as it was listed, or nothing was listed): reported before the next entry's turn.
        if queue.pending(std::slice::from_ref(name), core.now())? == 0 {
            if let Some(turn) = turns.0.last_mut() {
                turn.1 = true;
            }
            finish_entry(core, name)?;
        }
    }
    push_side_by_side(core, queue, order).await
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
    let listing = async {
        let due: Vec<RecordKey> = due_retries(core, &entry)?
            .into_iter()
            .map(|row| row.key)
            .collect();
        queue.enqueue_retries(&due, entry.rank, core.now())?;
        push_unless_durable(core, queue, &entry).await?;
        scan(core, &entry).await
    };
    let listed = with_heartbeat(core, queue, listing).await;
    queue.release_lister(name, &core.worker_id)?;
    listed
}

/// Enqueues a record the lister of `entry` listed (with the `updatedAt` it was listed with);
/// on a queue that is not durable, pushes it before the listing goes on.
pub(crate) async fn enqueue_listed(
    core: &Arc<Core>,
    entry: &EntryInfo,
    platform_id: &str,
    updated_at: Option<&str>,
) -> Result<(), WorkerError> {
    let queue = core.state.queue();
    let key = RecordKey::new(&entry.name, platform_id);
    queue.enqueue(&key, updated_at, entry.rank, core.now())?;
    push_unless_durable(core, queue, entry).await
}

/// On a queue that does not outlive the process, pushes what of `entry` is queued, with one
/// pusher, until none is left or the run stops: its cursor may then move past it.
async fn push_unless_durable(
    core: &Arc<Core>,
    queue: &dyn WorkQueue,
    entry: &EntryInfo,
) -> Result<(), WorkerError> {
    if queue.durable() {
        return Ok(());
    }
    let stop = || core.limit_reached();
    let entries = std::slice::from_ref(&entry.name);
    while !stop() && push_batch(core, queue, entries, &stop).await? {}
    Ok(())
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
        if !push_batch(core, queue, entries, &stop).await? {
            if queue.pending(entries, core.now())? == 0 {
                return Ok(());
            }
            tokio::time::sleep(IDLE).await;
        }
    }
}

/// Leases a batch of items of `entries` and pushes them one by one until `stop`; `false` when
/// none was free.
async fn push_batch(
    core: &Arc<Core>,
    queue: &dyn WorkQueue,
    entries: &[String],
    stop: &dyn Fn() -> bool,
) -> Result<bool, WorkerError> {
    let items = queue.lease(entries, core.lease(), BATCH)?;
    match queue.depth(entries, core.now()) {
        Ok(depth) => core.observer.event(&Event::Queue {
            queued: depth.queued,
            leased: depth.leased,
        }),
        // Only a gauge goes stale: the push goes on.
        Err(error) => tracing::warn!(%error, "could not read the depth of the work queue"),
    }
    if items.is_empty() {
        return Ok(false);
    }
    for item in items {
        if stop() {
            break;
        }
        let Some(entry) = core.entry(&item.key.entry).cloned() else {
            continue;
        };
        let trigger = if item.retry {
            core.summary(&entry.name, |s| s.retried += 1);
            tracing::info!(entry = %entry.name, id = %item.key.platform_id, "retrying");
            Trigger::Retry
        } else {
            Trigger::Listed(item.updated_at.clone())
        };
        let push = sync_one(core, &entry, &item.key.platform_id, trigger);
        with_heartbeat(core, queue, push).await?;
    }
    Ok(true)
}

/// Completes an entry's summary with its cursor, keeps its warnings in the state (for
/// `syncdef sync status`), and reports it.
fn finish_entry(core: &Core, name: &str) -> Result<(), WorkerError> {
    let cursor = core.state.cursor(name).ok().flatten();
    let summary = core.summary(name, |s| {
        s.cursor = cursor;
        s.clone()
    });
    if !core.options.dry_run {
        core.state
            .set_warnings(name, &summary.warnings, core.now())?;
    }
    core.observer.event(&Event::EntryFinished {
        entry: name,
        summary: &summary,
    });
    tracing::info!(
        entry = %name,
        listed = summary.listed,
        created = summary.created,
        updated = summary.updated,
        unchanged = summary.unchanged,
        failed = summary.failed,
        unknown = summary.unknown,
        "entry done"
    );
    Ok(())
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
