//! [`AccountBudget`]: an external account's request budget kept in a state several workers
//! share, so that their requests together stay within the vendor's limits (QuickBooks: 500 a
//! minute and 10 at once per company), whatever the number of processes.

use super::StateError;

/// What [`AccountBudget::take`] answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grant {
    /// The request may go; give the slot back with [`AccountBudget::give_back`] after it.
    Slot(i64),
    /// Over a limit: ask again after this many milliseconds.
    Wait(u64),
}

/// An account's limits (the engine's rate-limit policy in force).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccountLimits {
    /// Requests in any window (a minute unless `window_ms` says otherwise), all workers
    /// together.
    pub requests_per_minute: Option<u32>,
    /// The length of that window in milliseconds (60 000 for the vendor's minute).
    pub window_ms: u64,
    /// Requests in flight at once, all workers together.
    pub concurrency: Option<u32>,
}

/// A budget of requests per external account, shared by every worker of a state.
pub trait AccountBudget: Send + Sync {
    /// Takes room for one request to `account` now (one of the minute's requests and a
    /// concurrency slot), or says how long to wait. A slot of a worker that dies is freed
    /// after `hold_seconds`.
    fn take(
        &self,
        account: &str,
        worker: &str,
        limits: AccountLimits,
        hold_seconds: u64,
    ) -> Result<Grant, StateError>;

    /// Frees a concurrency slot once its request is answered, and counts the request in its
    /// window from now on: the vendor counted it when it arrived, somewhere between the slot
    /// and the answer, so counted from the answer it never leaves this budget's window before
    /// the vendor's.
    fn give_back(&self, slot: i64) -> Result<(), StateError>;
}
