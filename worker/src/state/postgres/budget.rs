//! [`AccountBudget`] on PostgreSQL: the requests of the last window (a minute unless the
//! definition's `rateLimit.windowSeconds` scales it) and the slots in flight
//! per account, counted under a transaction-scoped advisory lock on the account, with the
//! database's clock (the one clock every worker shares).

use super::PostgresState;
use super::bridge::{Lent, PgError};
use super::cached::Cached;
use crate::state::{AccountBudget, AccountLimits, Grant, StateError};

/// How long a worker over the concurrency limit waits before asking again.
const SLOT_POLL_MS: u64 = 50;

const NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

impl AccountBudget for PostgresState {
    fn take(
        &self,
        account: &str,
        worker: &str,
        limits: AccountLimits,
        hold_seconds: u64,
    ) -> Result<Grant, StateError> {
        let (account, worker) = (account.to_owned(), worker.to_owned());
        let hold_ms = i64::try_from(hold_seconds.saturating_mul(1000)).unwrap_or(i64::MAX);
        self.run(move |c| take(c, account.clone(), worker.clone(), limits, hold_ms))
    }

    fn give_back(&self, slot: i64) -> Result<(), StateError> {
        self.run(move |c| async move {
            c.execute_cached("DELETE FROM account_slots WHERE id = $1", &[&slot])
                .await?;
            Ok(())
        })
    }
}

/// The window a request is counted in: the vendor's, plus a hundredth of it. A slot is taken
/// by the database's clock before the request leaves, and the vendor counts when it arrives;
/// two requests a window apart by the first clock can arrive less than a window apart when the
/// first took longer on its way (a busy machine, a slow network), and the vendor then answers
/// 429. Measured on loopback with four and eight processes on two busy cores: two to four 429s
/// in 1,600 requests at 500 per 6 s without the margin (docs/benchmarks.md, "Pool
/// throughput"). The margin costs a hundredth of the rate.
fn counted_window(window_ms: u64) -> i64 {
    let window = i64::try_from(window_ms).unwrap_or(60_000);
    window.saturating_add(window / 100)
}

async fn take(
    mut c: Lent,
    account: String,
    worker: String,
    limits: AccountLimits,
    hold_ms: i64,
) -> Result<Grant, PgError> {
    let Lent::Pooled(_) = &c else {
        // A dry-run sends nothing: no budget to keep (and its one transaction must not be
        // committed by this one).
        return Ok(Grant::Slot(0));
    };
    let tx = c.transaction().await?;
    tx.execute_cached("SELECT pg_advisory_xact_lock(hashtext($1))", &[&account])
        .await?;
    let now: i64 = tx
        .query_one_cached(&format!("SELECT {NOW_MS}"), &[])
        .await?
        .try_get(0)?;
    let window = counted_window(limits.window_ms);
    tx.execute_cached(
        "DELETE FROM account_requests WHERE account = $1 AND sent_at_ms <= $2::bigint - $3::bigint",
        &[&account, &now, &window],
    )
    .await?;
    tx.execute_cached(
        "DELETE FROM account_slots WHERE account = $1 AND until_ms < $2",
        &[&account, &now],
    )
    .await?;
    if let Some(max) = limits.concurrency {
        let row = tx
            .query_one_cached(
                "SELECT count(*) FROM account_slots WHERE account = $1",
                &[&account],
            )
            .await?;
        if row.try_get::<_, i64>(0)? >= i64::from(max) {
            tx.commit().await?;
            return Ok(Grant::Wait(SLOT_POLL_MS));
        }
    }
    if let Some(max) = limits.requests_per_minute {
        // The oldest request that keeps the window full: room comes back when it is a
        // window old.
        let row = tx
            .query_one_cached(
                "SELECT count(*), min(sent_at_ms) FROM account_requests WHERE account = $1",
                &[&account],
            )
            .await?;
        let (count, oldest): (i64, Option<i64>) = (row.try_get(0)?, row.try_get(1)?);
        if count >= i64::from(max) {
            tx.commit().await?;
            let wait = oldest.map_or(i64::try_from(SLOT_POLL_MS).unwrap_or(i64::MAX), |o| {
                o + window - now + 1
            });
            return Ok(Grant::Wait(
                u64::try_from(wait.max(1)).unwrap_or(SLOT_POLL_MS),
            ));
        }
    }
    tx.execute_cached(
        "INSERT INTO account_requests (account, sent_at_ms) VALUES ($1, $2)",
        &[&account, &now],
    )
    .await?;
    let slot: i64 = tx
        .query_one_cached(
            "INSERT INTO account_slots (account, worker, until_ms) VALUES ($1, $2, $3)
             RETURNING id",
            &[&account, &worker, &(now.saturating_add(hold_ms))],
        )
        .await?
        .try_get(0)?;
    tx.commit().await?;
    Ok(Grant::Slot(slot))
}
