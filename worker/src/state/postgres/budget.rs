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
            c.execute_cached("SELECT syncdef_give_back($1)", &[&slot])
                .await?;
            Ok(())
        })
    }
}

/// The window a request is counted in: the vendor's, plus a hundredth of it. A request with
/// an answer is counted from the answer (`syncdef_give_back`), which is after the vendor
/// counted it, so that needs no margin; a request whose worker died before the answer is
/// counted from its slot, and the vendor may have counted it later (a busy machine, a slow
/// network). Measured on loopback with four and eight processes on two busy cores, before
/// answers moved the count: two to four 429s in 1,600 requests at 500 per 6 s without the
/// margin (docs/benchmarks.md, "Pool throughput"). The margin costs a hundredth of the rate.
fn counted_window(window_ms: u64) -> i64 {
    let window = i64::try_from(window_ms).unwrap_or(60_000);
    window.saturating_add(window / 100)
}

async fn take(
    c: Lent,
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
    let limit = |n: Option<u32>| n.map(|n| i32::try_from(n).unwrap_or(i32::MAX));
    let poll_ms = i64::try_from(SLOT_POLL_MS).unwrap_or(i64::MAX);
    let row = c
        .query_one_cached(
            "SELECT slot, wait_ms FROM syncdef_take_slot($1, $2, $3, $4, $5, $6, $7)",
            &[
                &account,
                &worker,
                &counted_window(limits.window_ms),
                &limit(limits.concurrency),
                &limit(limits.requests_per_minute),
                &hold_ms,
                &poll_ms,
            ],
        )
        .await?;
    let (slot, wait_ms): (Option<i64>, Option<i64>) = (row.try_get(0)?, row.try_get(1)?);
    match (slot, wait_ms) {
        (Some(slot), _) => Ok(Grant::Slot(slot)),
        (None, Some(wait)) => Ok(Grant::Wait(u64::try_from(wait).unwrap_or(SLOT_POLL_MS))),
        (None, None) => Err(PgError::Corrupt(
            "the budget granted neither a slot nor a wait".to_owned(),
        )),
    }
}
