//! [`WorkQueue`] on PostgreSQL: the `work_items` and `listers` tables.
//!
//! Every method is one statement or two that are each safe alone (so a dry-run's single
//! transaction holds them too). A lease is a row's `leased_by`/`lease_until`; an expired one
//! is free to take. When a worker gets a record's lease, any in-flight mark of that record is
//! somebody else's create cut short (a worker never takes a lease on a record it has in
//! flight), so it becomes `unknown` before the record is handled: never a second create.

use super::PostgresState;
use super::bridge::{Lent, PgError};
use super::cached::Cached;
use super::store::CUT_SHORT;
use crate::state::{Lease, QueueDepth, RecordKey, StateError, WorkItem, WorkQueue};

/// Turns the in-flight marks of `keys`, now leased by this worker, into `unknown`.
async fn settle_cut_short(c: &Lent, keys: &[RecordKey], now: i64) -> Result<u64, PgError> {
    if keys.is_empty() {
        return Ok(0);
    }
    let entries: Vec<&str> = keys.iter().map(|k| k.entry.as_str()).collect();
    let ids: Vec<&str> = keys.iter().map(|k| k.platform_id.as_str()).collect();
    let settled = c
        .execute_cached(
            "UPDATE records r
             SET status = 'unknown', error_class = 'unknownOutcome', last_error = $4,
                 next_attempt_at = $3, changed_at = $3
             FROM unnest($1::text[], $2::text[]) AS k(entry, platform_id)
             WHERE r.entry = k.entry AND r.platform_id = k.platform_id
                   AND r.status = 'inFlight'",
            &[&entries, &ids, &now, &CUT_SHORT],
        )
        .await?;
    if settled > 0 {
        tracing::warn!(
            count = settled,
            "creates whose worker lost its lease are now `unknown`: the engine finds out before creating again"
        );
    }
    Ok(settled)
}

impl WorkQueue for PostgresState {
    fn durable(&self) -> bool {
        true
    }

    fn take_lister(&self, entry: &str, lease: Lease<'_>) -> Result<bool, StateError> {
        let (entry, worker, now, until) = (
            entry.to_owned(),
            lease.worker.to_owned(),
            lease.now,
            lease.until,
        );
        self.run(move |c| {
            let (entry, worker) = (entry.clone(), worker.clone());
            async move {
                let taken = c
                    .execute_cached(
                        "INSERT INTO listers (entry, leased_by, lease_until) VALUES ($1, $2, $4)
                     ON CONFLICT (entry) DO UPDATE
                     SET leased_by = excluded.leased_by, lease_until = excluded.lease_until
                     WHERE listers.lease_until < $3 OR listers.leased_by = $2",
                        &[&entry, &worker, &now, &until],
                    )
                    .await?;
                Ok(taken > 0)
            }
        })
    }

    fn release_lister(&self, entry: &str, worker: &str) -> Result<(), StateError> {
        let (entry, worker) = (entry.to_owned(), worker.to_owned());
        self.run(move |c| {
            let (entry, worker) = (entry.clone(), worker.clone());
            async move {
                c.execute_cached(
                    "DELETE FROM listers WHERE entry = $1 AND leased_by = $2",
                    &[&entry, &worker],
                )
                .await?;
                Ok(())
            }
        })
    }

    fn enqueue(
        &self,
        key: &RecordKey,
        updated_at: Option<&str>,
        rank: i32,
        now: i64,
    ) -> Result<(), StateError> {
        let (key, updated_at) = (key.clone(), updated_at.map(str::to_owned));
        self.run(move |c| {
            let (key, updated_at) = (key.clone(), updated_at.clone());
            async move {
                // Listed again while a worker holds it: that worker may have read the older
                // version, so the item stays for one more look once it is done.
                c.execute_cached(
                    "INSERT INTO work_items (entry, platform_id, rank, updated_at, enqueued_at)
                 VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (entry, platform_id) DO UPDATE
                 SET updated_at = coalesce(excluded.updated_at, work_items.updated_at),
                     requeued = work_items.leased_by IS NOT NULL",
                    &[&key.entry, &key.platform_id, &rank, &updated_at, &now],
                )
                .await?;
                Ok(())
            }
        })
    }

    fn enqueue_retries(&self, keys: &[RecordKey], rank: i32, now: i64) -> Result<u64, StateError> {
        if keys.is_empty() {
            return Ok(0);
        }
        let entries: Vec<String> = keys.iter().map(|k| k.entry.clone()).collect();
        let ids: Vec<String> = keys.iter().map(|k| k.platform_id.clone()).collect();
        self.run(move |c| {
            let (entries, ids) = (entries.clone(), ids.clone());
            async move {
                // Only records still due: another worker may have pushed one since it was read.
                Ok(c.execute_cached(
                    "INSERT INTO work_items (entry, platform_id, rank, retry, enqueued_at)
                 SELECT r.entry, r.platform_id, $3, true, $4
                 FROM records r
                 JOIN unnest($1::text[], $2::text[]) AS k(entry, platform_id)
                   ON r.entry = k.entry AND r.platform_id = k.platform_id
                 WHERE r.status IN ('failed', 'unknown')
                       AND coalesce(r.next_attempt_at, 0) <= $4
                 ON CONFLICT (entry, platform_id) DO NOTHING",
                    &[&entries, &ids, &rank, &now],
                )
                .await?)
            }
        })
    }

    fn lease(
        &self,
        entries: &[String],
        lease: Lease<'_>,
        limit: u32,
    ) -> Result<Vec<WorkItem>, StateError> {
        let (entries, worker, now, until) = (
            entries.to_vec(),
            lease.worker.to_owned(),
            lease.now,
            lease.until,
        );
        self.run(move |c| {
            let (entries, worker) = (entries.clone(), worker.clone());
            async move {
                // An item waits while an item of a lower rank (an entry it depends on) is queued
                // for this worker's entries or held by a live worker: an invoice is taken once no
                // account waits, so its account is done or pushed under the invoice's own lease
                // (`claim`). A lower item nobody here takes (another entry list's, left by a dead
                // worker) does not block: the invoice's callback pushes its account if needed.
                let rows = c
                    .query_cached(
                        "WITH taken AS (
                         SELECT entry, platform_id FROM work_items w
                         WHERE entry = ANY($1)
                               AND (lease_until IS NULL OR lease_until < $3)
                               AND NOT EXISTS (
                                   SELECT 1 FROM work_items d
                                   WHERE d.rank < w.rank
                                         AND (d.entry = ANY($1) OR d.lease_until >= $3))
                         ORDER BY rank, enqueued_at, platform_id
                         LIMIT $5
                         FOR UPDATE SKIP LOCKED)
                     UPDATE work_items w SET leased_by = $2, lease_until = $4, requeued = false
                     FROM taken
                     WHERE w.entry = taken.entry AND w.platform_id = taken.platform_id
                     RETURNING w.entry, w.platform_id, w.updated_at, w.retry",
                        &[&entries, &worker, &now, &until, &i64::from(limit)],
                    )
                    .await?;
                let mut items = rows
                    .iter()
                    .map(|r| {
                        Ok(WorkItem {
                            key: RecordKey::new(
                                r.try_get::<_, String>(0)?,
                                r.try_get::<_, String>(1)?,
                            ),
                            updated_at: r.try_get(2)?,
                            retry: r.try_get(3)?,
                        })
                    })
                    .collect::<Result<Vec<_>, PgError>>()?;
                items.sort_by(|a, b| a.key.cmp(&b.key));
                let keys: Vec<RecordKey> = items.iter().map(|i| i.key.clone()).collect();
                settle_cut_short(&c, &keys, now).await?;
                Ok(items)
            }
        })
    }

    fn claim(&self, key: &RecordKey, rank: i32, lease: Lease<'_>) -> Result<bool, StateError> {
        let (key, worker, now, until) =
            (key.clone(), lease.worker.to_owned(), lease.now, lease.until);
        self.run(move |c| {
            let (key, worker) = (key.clone(), worker.clone());
            async move {
                let taken = c
                    .execute_cached(
                        "INSERT INTO work_items (entry, platform_id, rank, enqueued_at, leased_by,
                                             lease_until)
                     VALUES ($1, $2, $3, $4, $5, $6)
                     ON CONFLICT (entry, platform_id) DO UPDATE
                     SET leased_by = excluded.leased_by, lease_until = excluded.lease_until
                     WHERE work_items.leased_by IS NULL OR work_items.lease_until < $4
                           OR work_items.leased_by = $5",
                        &[&key.entry, &key.platform_id, &rank, &now, &worker, &until],
                    )
                    .await?;
                if taken == 0 {
                    return Ok(false);
                }
                settle_cut_short(&c, std::slice::from_ref(&key), now).await?;
                Ok(true)
            }
        })
    }

    fn renew(&self, lease: Lease<'_>) -> Result<(), StateError> {
        let (worker, until) = (lease.worker.to_owned(), lease.until);
        self.run(move |c| {
            let worker = worker.clone();
            async move {
                c.execute_cached(
                    "UPDATE work_items SET lease_until = $2 WHERE leased_by = $1",
                    &[&worker, &until],
                )
                .await?;
                c.execute_cached(
                    "UPDATE listers SET lease_until = $2 WHERE leased_by = $1",
                    &[&worker, &until],
                )
                .await?;
                Ok(())
            }
        })
    }

    fn complete(&self, key: &RecordKey, worker: &str) -> Result<(), StateError> {
        let (key, worker) = (key.clone(), worker.to_owned());
        self.run(move |c| {
            let (key, worker) = (key.clone(), worker.clone());
            async move {
                c.execute_cached(
                    "DELETE FROM work_items
                 WHERE entry = $1 AND platform_id = $2 AND leased_by = $3 AND NOT requeued",
                    &[&key.entry, &key.platform_id, &worker],
                )
                .await?;
                c.execute_cached(
                    "UPDATE work_items SET leased_by = NULL, lease_until = NULL, requeued = false
                 WHERE entry = $1 AND platform_id = $2 AND leased_by = $3",
                    &[&key.entry, &key.platform_id, &worker],
                )
                .await?;
                Ok(())
            }
        })
    }

    fn return_leases(&self, worker: &str) -> Result<(), StateError> {
        let worker = worker.to_owned();
        self.run(move |c| {
            let worker = worker.clone();
            async move {
                c.execute_cached(
                "UPDATE work_items SET leased_by = NULL, lease_until = NULL WHERE leased_by = $1",
                &[&worker],
            )
            .await?;
                c.execute_cached("DELETE FROM listers WHERE leased_by = $1", &[&worker])
                    .await?;
                Ok(())
            }
        })
    }

    fn pending(&self, entries: &[String], now: i64) -> Result<u64, StateError> {
        let entries = entries.to_vec();
        self.run(move |c| {
            let entries = entries.clone();
            async move {
                let row = c
                    .query_one_cached(
                        "SELECT (SELECT count(*) FROM work_items WHERE entry = ANY($1))
                          + (SELECT count(*) FROM listers
                             WHERE entry = ANY($1) AND lease_until >= $2)",
                        &[&entries, &now],
                    )
                    .await?;
                let count: i64 = row.try_get(0)?;
                Ok(u64::try_from(count).unwrap_or(0))
            }
        })
    }

    fn depth(&self, entries: &[String], now: i64) -> Result<QueueDepth, StateError> {
        let entries = entries.to_vec();
        self.run(move |c| {
            let entries = entries.clone();
            async move {
                let row = c
                    .query_one_cached(
                        "SELECT count(*) FILTER (WHERE lease_until IS NULL OR lease_until < $2),
                                count(*) FILTER (WHERE lease_until >= $2)
                         FROM work_items WHERE entry = ANY($1)",
                        &[&entries, &now],
                    )
                    .await?;
                let (queued, leased): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
                Ok(QueueDepth {
                    queued: u64::try_from(queued).unwrap_or(0),
                    leased: u64::try_from(leased).unwrap_or(0),
                })
            }
        })
    }
}
