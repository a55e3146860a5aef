//! [`LocalQueue`]: the [`WorkQueue`] of a state one process owns whole (`SQLite`), in memory.
//!
//! The same rules as the shared queue (one item per record, a record enqueued again while
//! leased stays for one more look, lower ranks first, one lister per entry, leases that end
//! unless renewed), between the pushers and workers of one process. Nothing of it outlives the
//! process ([`WorkQueue::durable`] is `false`): the loop pushes each record as it is listed, so
//! the cursor never passes a record the queue alone held, and due retries are read again from
//! the state's rows by the next run.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::queue::{Lease, QueueDepth, WorkItem, WorkQueue};
use super::{RecordKey, StateError};

/// A work queue in this process's memory.
#[derive(Debug, Default)]
pub struct LocalQueue(Mutex<Queue>);

#[derive(Debug, Default)]
struct Queue {
    items: BTreeMap<RecordKey, Item>,
    /// Listers by entry: who, and until when.
    listers: HashMap<String, Held>,
    /// The order items were enqueued in.
    next: u64,
}

#[derive(Debug)]
struct Item {
    rank: i32,
    seq: u64,
    updated_at: Option<String>,
    retry: bool,
    leased: Option<Held>,
    /// Enqueued again while leased: freed instead of removed when completed.
    requeued: bool,
}

#[derive(Clone, Debug)]
struct Held {
    worker: String,
    until: i64,
}

impl Held {
    fn of(lease: Lease<'_>) -> Self {
        Held {
            worker: lease.worker.to_owned(),
            until: lease.until,
        }
    }

    fn live(&self, now: i64) -> bool {
        self.until >= now
    }
}

impl Item {
    fn live(&self, now: i64) -> bool {
        self.leased.as_ref().is_some_and(|h| h.live(now))
    }
}

impl LocalQueue {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // Every change is complete before the lock is let go: a poisoned lock is still whole.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Queue {
    fn insert(&mut self, key: &RecordKey, item: impl FnOnce(u64) -> Item) {
        self.next += 1;
        self.items.insert(key.clone(), item(self.next));
    }
}

impl WorkQueue for LocalQueue {
    fn durable(&self) -> bool {
        false
    }

    fn take_lister(&self, entry: &str, lease: Lease<'_>) -> Result<bool, StateError> {
        let mut queue = self.lock();
        if let Some(held) = queue.listers.get(entry)
            && held.live(lease.now)
            && held.worker != lease.worker
        {
            return Ok(false);
        }
        queue.listers.insert(entry.to_owned(), Held::of(lease));
        Ok(true)
    }

    fn release_lister(&self, entry: &str, worker: &str) -> Result<(), StateError> {
        let mut queue = self.lock();
        if queue.listers.get(entry).is_some_and(|h| h.worker == worker) {
            queue.listers.remove(entry);
        }
        Ok(())
    }

    fn enqueue(
        &self,
        key: &RecordKey,
        updated_at: Option<&str>,
        rank: i32,
        _now: i64,
    ) -> Result<(), StateError> {
        let mut queue = self.lock();
        if let Some(item) = queue.items.get_mut(key) {
            if let Some(at) = updated_at {
                item.updated_at = Some(at.to_owned());
            }
            item.requeued = item.leased.is_some();
            return Ok(());
        }
        queue.insert(key, |seq| Item {
            rank,
            seq,
            updated_at: updated_at.map(str::to_owned),
            retry: false,
            leased: None,
            requeued: false,
        });
        Ok(())
    }

    fn enqueue_retries(&self, keys: &[RecordKey], rank: i32, _now: i64) -> Result<u64, StateError> {
        let mut queue = self.lock();
        let mut enqueued = 0;
        for key in keys {
            if queue.items.contains_key(key) {
                continue;
            }
            queue.insert(key, |seq| Item {
                rank,
                seq,
                updated_at: None,
                retry: true,
                leased: None,
                requeued: false,
            });
            enqueued += 1;
        }
        Ok(enqueued)
    }

    fn lease(
        &self,
        entries: &[String],
        lease: Lease<'_>,
        limit: u32,
    ) -> Result<Vec<WorkItem>, StateError> {
        let mut queue = self.lock();
        let asked = |key: &RecordKey| entries.contains(&key.entry);
        // As on the shared queue: an item waits while an item of a lower rank is queued for
        // these entries or held by a live lease.
        let lowest_waiting = queue
            .items
            .iter()
            .filter(|(key, item)| asked(key) || item.live(lease.now))
            .map(|(_, item)| item.rank)
            .min();
        let mut free: Vec<(i32, u64, &RecordKey)> = queue
            .items
            .iter()
            .filter(|(key, item)| {
                asked(key)
                    && !item.live(lease.now)
                    && lowest_waiting.is_none_or(|lowest| item.rank <= lowest)
            })
            .map(|(key, item)| (item.rank, item.seq, key))
            .collect();
        free.sort_unstable();
        let keys: Vec<RecordKey> = free
            .into_iter()
            .take(limit as usize)
            .map(|(_, _, key)| key.clone())
            .collect();
        let mut items = Vec::with_capacity(keys.len());
        for key in keys {
            if let Some(item) = queue.items.get_mut(&key) {
                item.leased = Some(Held::of(lease));
                item.requeued = false;
                items.push(WorkItem {
                    updated_at: item.updated_at.clone(),
                    retry: item.retry,
                    key,
                });
            }
        }
        Ok(items)
    }

    fn claim(&self, key: &RecordKey, rank: i32, lease: Lease<'_>) -> Result<bool, StateError> {
        let mut queue = self.lock();
        if let Some(item) = queue.items.get_mut(key) {
            if item.live(lease.now)
                && item
                    .leased
                    .as_ref()
                    .is_some_and(|h| h.worker != lease.worker)
            {
                return Ok(false);
            }
            item.leased = Some(Held::of(lease));
            return Ok(true);
        }
        queue.insert(key, |seq| Item {
            rank,
            seq,
            updated_at: None,
            retry: false,
            leased: Some(Held::of(lease)),
            requeued: false,
        });
        Ok(true)
    }

    fn renew(&self, lease: Lease<'_>) -> Result<(), StateError> {
        let mut queue = self.lock();
        let Queue { items, listers, .. } = &mut *queue;
        let held = items
            .values_mut()
            .filter_map(|item| item.leased.as_mut())
            .chain(listers.values_mut());
        for held in held.filter(|h| h.worker == lease.worker) {
            held.until = lease.until;
        }
        Ok(())
    }

    fn complete(&self, key: &RecordKey, worker: &str) -> Result<(), StateError> {
        let mut queue = self.lock();
        let Some(item) = queue.items.get_mut(key) else {
            return Ok(());
        };
        if item.leased.as_ref().is_none_or(|h| h.worker != worker) {
            return Ok(());
        }
        if item.requeued {
            item.leased = None;
            item.requeued = false;
        } else {
            queue.items.remove(key);
        }
        Ok(())
    }

    fn return_leases(&self, worker: &str) -> Result<(), StateError> {
        let mut queue = self.lock();
        for item in queue.items.values_mut() {
            if item.leased.as_ref().is_some_and(|h| h.worker == worker) {
                item.leased = None;
            }
        }
        queue.listers.retain(|_, held| held.worker != worker);
        Ok(())
    }

    fn pending(&self, entries: &[String], now: i64) -> Result<u64, StateError> {
        let queue = self.lock();
        let asked = |entry: &str| entries.iter().any(|e| e == entry);
        let items = queue.items.keys().filter(|k| asked(&k.entry)).count();
        let listers = queue
            .listers
            .iter()
            .filter(|(entry, held)| asked(entry) && held.live(now))
            .count();
        Ok(u64::try_from(items + listers).unwrap_or(u64::MAX))
    }

    fn depth(&self, entries: &[String], now: i64) -> Result<QueueDepth, StateError> {
        let queue = self.lock();
        let mut depth = QueueDepth::default();
        for (key, item) in &queue.items {
            if entries.contains(&key.entry) {
                if item.live(now) {
                    depth.leased += 1;
                } else {
                    depth.queued += 1;
                }
            }
        }
        Ok(depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lease(worker: &str, now: i64) -> Lease<'_> {
        Lease {
            worker,
            now,
            until: now + 10,
        }
    }

    fn entries() -> Vec<String> {
        vec!["Account".to_owned(), "Invoice".to_owned()]
    }

    fn account(id: &str) -> RecordKey {
        RecordKey::new("Account", id)
    }

    fn leased(queue: &LocalQueue, worker: &str, now: i64) -> Vec<String> {
        queue
            .lease(&entries(), lease(worker, now), 5)
            .expect("lease")
            .into_iter()
            .map(|i| format!("{} {}", i.key, i.updated_at.unwrap_or_default()))
            .collect()
    }

    #[test]
    fn items_are_leased_once_in_the_order_enqueued_and_a_record_is_one_item() {
        let queue = LocalQueue::default();
        for id in ["3", "1", "2"] {
            queue
                .enqueue(&account(id), Some("t1"), 0, 1)
                .expect("enqueue");
        }
        queue
            .enqueue(&account("3"), Some("t2"), 0, 1)
            .expect("again");
        assert_eq!(
            leased(&queue, "a", 1),
            ["Account 3 t2", "Account 1 t1", "Account 2 t1"]
        );
        assert!(leased(&queue, "b", 2).is_empty(), "each item once");
        for id in ["3", "1", "2"] {
            queue.complete(&account(id), "a").expect("complete");
        }
        assert_eq!(queue.pending(&entries(), 2).expect("pending"), 0);
        assert!(!queue.durable());
    }

    #[test]
    fn invoices_wait_while_an_account_is_queued_or_held() {
        let queue = LocalQueue::default();
        queue
            .enqueue(&RecordKey::new("Invoice", "i"), None, 1, 1)
            .expect("enqueue");
        queue.enqueue(&account("1"), None, 0, 2).expect("enqueue");
        assert_eq!(leased(&queue, "a", 3), ["Account 1 "]);
        assert!(leased(&queue, "b", 3).is_empty(), "the account is held");
        queue.complete(&account("1"), "a").expect("complete");
        assert_eq!(leased(&queue, "b", 4), ["Invoice i "]);
    }

    #[test]
    fn a_record_enqueued_again_while_leased_stays_for_one_more_look() {
        let queue = LocalQueue::default();
        queue
            .enqueue(&account("1"), Some("t1"), 0, 1)
            .expect("enqueue");
        assert_eq!(leased(&queue, "a", 1), ["Account 1 t1"]);
        queue
            .enqueue(&account("1"), Some("t2"), 0, 2)
            .expect("again");
        queue.complete(&account("1"), "a").expect("complete");
        assert_eq!(leased(&queue, "a", 3), ["Account 1 t2"]);
        queue.complete(&account("1"), "a").expect("complete");
        assert_eq!(queue.pending(&entries(), 3).expect("pending"), 0);
    }

    #[test]
    fn claims_hold_a_record_against_other_workers_until_their_lease_ends() {
        let queue = LocalQueue::default();
        assert!(queue.claim(&account("1"), 0, lease("a", 1)).expect("claim"));
        assert!(queue.claim(&account("1"), 0, lease("a", 2)).expect("again"));
        assert!(!queue.claim(&account("1"), 0, lease("b", 3)).expect("held"));
        queue.renew(lease("a", 10)).expect("renew");
        assert!(
            !queue
                .claim(&account("1"), 0, lease("b", 15))
                .expect("renewed")
        );
        assert!(
            queue
                .claim(&account("1"), 0, lease("b", 21))
                .expect("ended")
        );
        queue.return_leases("b").expect("return");
        assert_eq!(leased(&queue, "a", 22), ["Account 1 "]);
    }

    #[test]
    fn one_lister_per_entry_and_retries_are_items_of_their_own() {
        let queue = LocalQueue::default();
        assert!(queue.take_lister("Account", lease("a", 1)).expect("take"));
        assert!(!queue.take_lister("Account", lease("b", 2)).expect("held"));
        assert!(queue.take_lister("Account", lease("a", 2)).expect("own"));
        assert_eq!(queue.pending(&entries(), 2).expect("pending"), 1);
        queue.release_lister("Account", "a").expect("release");
        assert_eq!(queue.pending(&entries(), 2).expect("pending"), 0);

        queue
            .enqueue(&account("1"), Some("t1"), 0, 3)
            .expect("enqueue");
        let retries = [account("1"), account("2")];
        assert_eq!(queue.enqueue_retries(&retries, 0, 3).expect("retries"), 1);
        let items = queue.lease(&entries(), lease("a", 3), 5).expect("lease");
        let retry: Vec<bool> = items.iter().map(|i| i.retry).collect();
        assert_eq!(retry, [false, true]);
    }
}
