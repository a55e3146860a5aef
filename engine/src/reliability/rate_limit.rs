//! Per-external-account throttling shared by every push of the process: a token bucket for
//! requests per minute and a semaphore for requests in flight.
//!
//! QuickBooks allows 500 requests a minute and 10 at once per company (realm); Business Central
//! 5 at once per user. Exceeding them costs 429s and, worse, retries that make the storm longer,
//! so the engine waits before sending instead. An account is the server's origin plus the values
//! of the server variables the policy names (`realmId`): two engines, or two definitions, that
//! talk to the same company share its budget when they share a [`RateLimits`] registry (the
//! process-wide one by default).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

// tokio's clock: the same as std's at run time, and pausable in tests.
use tokio::time::Instant;

use serde::Deserialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The limits of one external account, and which server variables identify the account.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RateLimitPolicy {
    /// Server variables whose values, with the server's origin, name the account (`realmId`).
    /// Empty: the origin alone.
    pub key: Vec<String>,
    /// Requests a minute at most; `None` is unlimited.
    pub requests_per_minute: Option<u32>,
    /// Requests in flight at most; `None` is unlimited.
    pub concurrency: Option<u32>,
}

impl RateLimitPolicy {
    /// Whether the policy limits anything.
    #[must_use]
    pub fn is_unlimited(&self) -> bool {
        self.requests_per_minute.is_none() && self.concurrency.is_none()
    }
}

/// `x-syncdef.rateLimit` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RateLimitSpec {
    #[serde(default)]
    key: Vec<String>,
    requests_per_minute: Option<u32>,
    concurrency: Option<u32>,
}

impl RateLimitSpec {
    pub fn policy(self) -> Result<RateLimitPolicy, String> {
        if self.requests_per_minute == Some(0) || self.concurrency == Some(0) {
            return Err(
                "`rateLimit.requestsPerMinute` and `rateLimit.concurrency` must be at least 1 (leave one out for no limit)"
                    .into(),
            );
        }
        Ok(RateLimitPolicy {
            key: self.key,
            requests_per_minute: self.requests_per_minute,
            concurrency: self.concurrency,
        })
    }
}

/// The accounts of a process and their budgets. Share one `Arc<RateLimits>` between engines
/// (the default is [`RateLimits::global`]).
#[derive(Debug, Default)]
pub struct RateLimits {
    accounts: Mutex<HashMap<String, Arc<Account>>>,
}

impl RateLimits {
    /// A registry of its own (tests, or an instance that must not share budgets).
    #[must_use]
    pub fn new() -> Arc<RateLimits> {
        Arc::new(RateLimits::default())
    }

    /// The process-wide registry every engine uses unless given another.
    #[must_use]
    pub fn global() -> Arc<RateLimits> {
        static GLOBAL: OnceLock<Arc<RateLimits>> = OnceLock::new();
        Arc::clone(GLOBAL.get_or_init(RateLimits::new))
    }

    /// The account named `key`, created with `policy` on first use (later policies for the
    /// same account are ignored: the first engine to talk to an account sets its budget).
    pub(crate) fn account(&self, key: &str, policy: &RateLimitPolicy) -> Arc<Account> {
        // A poisoned lock only means another task panicked while inserting; the map is
        // still consistent (insertions are single calls).
        let mut accounts = self
            .accounts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Arc::clone(
            accounts
                .entry(key.to_owned())
                .or_insert_with(|| Arc::new(Account::new(policy))),
        )
    }
}

/// One external account's budget.
#[derive(Debug)]
pub(crate) struct Account {
    slots: Option<Arc<Semaphore>>,
    bucket: Option<Mutex<Bucket>>,
}

#[derive(Debug)]
struct Bucket {
    /// Tokens available now (fractional: refilled continuously).
    tokens: f64,
    capacity: f64,
    per_second: f64,
    last: Instant,
}

/// Held while a request is in flight; frees its concurrency slot when dropped.
#[derive(Debug)]
pub(crate) struct Permit {
    _slot: Option<OwnedSemaphorePermit>,
    /// How long the request waited for its turn.
    pub waited: Duration,
}

impl Account {
    fn new(policy: &RateLimitPolicy) -> Account {
        Account {
            slots: policy
                .concurrency
                .map(|n| Arc::new(Semaphore::new(n as usize))),
            bucket: policy.requests_per_minute.map(|n| {
                let capacity = f64::from(n);
                Mutex::new(Bucket {
                    // A full bucket at start allows a burst of one minute's budget, which is
                    // what the vendors' per-minute windows allow too.
                    tokens: capacity,
                    capacity,
                    per_second: capacity / 60.0,
                    last: Instant::now(),
                })
            }),
        }
    }

    /// Waits for a concurrency slot, then for a request token.
    pub async fn acquire(&self) -> Permit {
        let start = Instant::now();
        let slot = match &self.slots {
            // The semaphore is never closed, so acquiring fails only if it were.
            Some(s) => Arc::clone(s).acquire_owned().await.ok(),
            None => None,
        };
        if let Some(bucket) = &self.bucket {
            loop {
                let wait = {
                    let mut b = bucket
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    let now = Instant::now();
                    let refill = now.duration_since(b.last).as_secs_f64() * b.per_second;
                    b.tokens = (b.tokens + refill).min(b.capacity);
                    b.last = now;
                    if b.tokens >= 1.0 {
                        b.tokens -= 1.0;
                        None
                    } else {
                        Some(Duration::from_secs_f64((1.0 - b.tokens) / b.per_second))
                    }
                };
                match wait {
                    None => break,
                    Some(w) => tokio::time::sleep(w).await,
                }
            }
        }
        Permit {
            _slot: slot,
            waited: start.elapsed(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn bucket_spaces_requests_after_the_burst() {
        let policy = RateLimitPolicy {
            key: Vec::new(),
            requests_per_minute: Some(60),
            concurrency: None,
        };
        let limits = RateLimits::new();
        let account = limits.account("a", &policy);
        for _ in 0..60 {
            assert_eq!(account.acquire().await.waited, Duration::ZERO);
        }
        // The 61st waits for one token: a second at 60 a minute.
        let waited = account.acquire().await.waited;
        assert!(waited >= Duration::from_millis(990), "{waited:?}");
    }

    #[tokio::test(flavor = "current_thread")]
    async fn concurrency_slots_are_shared_by_key() {
        let policy = RateLimitPolicy {
            key: vec!["realmId".into()],
            requests_per_minute: None,
            concurrency: Some(1),
        };
        let limits = RateLimits::new();
        let first = limits.account("k", &policy).acquire().await;
        let again = limits.account("k", &policy);
        assert!(
            tokio::time::timeout(Duration::from_millis(50), again.acquire())
                .await
                .is_err(),
            "a second request of the same account waits for the slot"
        );
        let other = limits.account("other", &policy);
        assert!(
            tokio::time::timeout(Duration::from_millis(50), other.acquire())
                .await
                .is_ok()
        );
        drop(first);
        assert!(
            tokio::time::timeout(Duration::from_millis(50), again.acquire())
                .await
                .is_ok()
        );
    }
}
