//! Per-external-account throttling shared by every push of the process: a sliding window for
//! requests per minute and a semaphore for requests in flight.
//!
//! QuickBooks allows 500 requests a minute and 10 at once per company (realm); Business Central
//! 5 at once per user. Exceeding them costs 429s and, worse, retries that make the storm longer,
//! so the engine waits before sending instead. An account is the server's origin plus the values
//! of the server variables the policy names (`realmId`): two engines, or two definitions, that
//! talk to the same company share its budget when they share a [`RateLimits`] registry (the
//! process-wide one by default).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

// tokio's clock: the same as std's at run time, and pausable in tests.
use tokio::time::Instant;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The limits of one external account, and which server variables identify the account.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RateLimitPolicy {
    /// Server variables whose values, with the server's origin, name the account (`realmId`).
    /// Empty: the origin alone.
    pub key: Vec<String>,
    /// Requests a minute at most; `None` is unlimited.
    pub requests_per_minute: Option<u32>,
    /// The window `requests_per_minute` counts in, in seconds; `None` is a minute.
    /// Benchmarks and tests shorten it (`x-syncdef.rateLimit.windowSeconds`).
    pub window_seconds: Option<u32>,
    /// Requests in flight at most; `None` is unlimited.
    pub concurrency: Option<u32>,
}

impl RateLimitPolicy {
    /// The window the request limit counts in: `window_seconds`, a minute by default.
    #[must_use]
    pub fn window(&self) -> Duration {
        Duration::from_secs(u64::from(self.window_seconds.unwrap_or(60).max(1)))
    }

    /// Whether the policy limits anything.
    #[must_use]
    pub fn is_unlimited(&self) -> bool {
        self.requests_per_minute.is_none() && self.concurrency.is_none()
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
    window: Option<Mutex<Window>>,
}

/// The requests of the last minute. A vendor's "500 a minute" holds for every minute, the
/// first included: a token bucket that starts full lets a whole budget out at once and then
/// refills it during the same minute (up to twice the limit in the first minute); a window
/// admits a request only when fewer than `limit` left in the minute before it.
#[derive(Debug)]
struct Window {
    limit: usize,
    span: Duration,
    /// When each of the last (at most `limit`) requests was let out, oldest first.
    sent: VecDeque<Instant>,
}

impl Window {
    /// Lets a request out at `now`, or says how long until one may go.
    fn admit(&mut self, now: Instant) -> Result<(), Duration> {
        while self
            .sent
            .front()
            .is_some_and(|t| now.duration_since(*t) >= self.span)
        {
            self.sent.pop_front();
        }
        if self.sent.len() < self.limit {
            self.sent.push_back(now);
            return Ok(());
        }
        // Full: the oldest request leaves the window first.
        let oldest = self.sent.front().copied().unwrap_or(now);
        Err(self.span.saturating_sub(now.duration_since(oldest)))
    }
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
            window: policy.requests_per_minute.map(|n| {
                let limit = usize::try_from(n).unwrap_or(usize::MAX);
                Mutex::new(Window {
                    limit,
                    span: policy.window(),
                    sent: VecDeque::with_capacity(limit.min(4096)),
                })
            }),
        }
    }

    /// Waits for a concurrency slot, then for room in the minute's window. The permit's
    /// `waited` is zero when there was room at once.
    pub async fn acquire(&self) -> Permit {
        let start = Instant::now();
        let mut held_up = false;
        let slot = match &self.slots {
            Some(s) => {
                if let Ok(slot) = Arc::clone(s).try_acquire_owned() {
                    Some(slot)
                } else {
                    held_up = true;
                    // The semaphore is never closed, so acquiring fails only if it were.
                    Arc::clone(s).acquire_owned().await.ok()
                }
            }
            None => None,
        };
        if let Some(window) = &self.window {
            loop {
                let admitted = window
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .admit(Instant::now());
                match admitted {
                    Ok(()) => break,
                    Err(wait) => {
                        held_up = true;
                        tokio::time::sleep(wait).await;
                    }
                }
            }
        }
        Permit {
            _slot: slot,
            waited: if held_up {
                start.elapsed()
            } else {
                Duration::ZERO
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn no_minute_ever_sees_more_than_the_limit_the_first_included() {
        let policy = RateLimitPolicy {
            key: Vec::new(),
            requests_per_minute: Some(50),
            window_seconds: None,
            concurrency: None,
        };
        let limits = RateLimits::new();
        let account = limits.account("a", &policy);
        let start = Instant::now();
        let mut sent = Vec::new();
        for i in 0..260u64 {
            // Requests arrive unevenly: bursts, then pauses.
            if i % 37 == 0 {
                tokio::time::sleep(Duration::from_millis(i * 90)).await;
            }
            account.acquire().await;
            sent.push(Instant::now().duration_since(start));
        }
        for (i, first) in sent.iter().enumerate() {
            let in_minute = sent[i..]
                .iter()
                .take_while(|t| **t < *first + Duration::from_secs(60))
                .count();
            assert!(
                in_minute <= 50,
                "{in_minute} requests in the minute from {first:?}"
            );
        }
        // And the budget is used: 260 requests at 50 a minute take a little over 5 minutes.
        let last = *sent.last().expect("sent");
        assert!(last < Duration::from_secs(6 * 60), "{last:?}");
    }

    #[tokio::test(flavor = "current_thread")]
    async fn room_at_once_is_no_wait_on_the_real_clock() {
        let policy = RateLimitPolicy {
            key: Vec::new(),
            requests_per_minute: Some(100),
            window_seconds: None,
            concurrency: Some(2),
        };
        let account = RateLimits::new().account("a", &policy);
        let first = account.acquire().await;
        let second = account.acquire().await;
        assert_eq!(
            (first.waited, second.waited),
            (Duration::ZERO, Duration::ZERO)
        );
        // The third waits for a slot, which the first frees a little later.
        let freed = async {
            tokio::time::sleep(Duration::from_millis(20)).await;
            drop(first);
        };
        let (third, ()) = tokio::join!(account.acquire(), freed);
        assert!(
            third.waited >= Duration::from_millis(20),
            "{:?}",
            third.waited
        );
    }

    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn the_window_admits_a_burst_then_waits_for_its_oldest_request() {
        let policy = RateLimitPolicy {
            key: Vec::new(),
            requests_per_minute: Some(60),
            window_seconds: None,
            concurrency: None,
        };
        let limits = RateLimits::new();
        let account = limits.account("a", &policy);
        for _ in 0..60 {
            assert_eq!(account.acquire().await.waited, Duration::ZERO);
        }
        // The 61st waits until the first leaves the window: a minute.
        let waited = account.acquire().await.waited;
        assert!(waited >= Duration::from_secs(60), "{waited:?}");
    }

    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn a_scaled_window_counts_its_limit_in_its_own_seconds() {
        let policy = RateLimitPolicy {
            key: Vec::new(),
            requests_per_minute: Some(5),
            window_seconds: Some(6),
            concurrency: None,
        };
        let limits = RateLimits::new();
        let account = limits.account("a", &policy);
        for _ in 0..5 {
            assert_eq!(account.acquire().await.waited, Duration::ZERO);
        }
        // The sixth waits for the first to leave the six-second window, not a minute.
        let waited = account.acquire().await.waited;
        assert!(
            waited >= Duration::from_secs(6) && waited < Duration::from_secs(7),
            "{waited:?}"
        );
    }

    #[tokio::test(flavor = "current_thread")]
    async fn concurrency_slots_are_shared_by_key() {
        let policy = RateLimitPolicy {
            key: vec!["realmId".into()],
            requests_per_minute: None,
            window_seconds: None,
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
