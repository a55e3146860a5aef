//! When and how long to wait before sending a request again.
//!
//! Exponential backoff with full jitter (AWS architecture blog, "Exponential Backoff And
//! Jitter"): the n-th wait is uniform in `[0, min(max_backoff, initial_backoff * 2^n)]`, which
//! spreads the retries of many workers hit by the same outage instead of synchronising them.
//! A `Retry-After` header replaces the computed wait: the server knows better.

use std::time::{Duration, SystemTime};

use serde::Deserialize;

use super::overrides::RetryOverrides;
use crate::transport::HttpResponse;

/// How a failed request is retried. Per definition (`x-syncdef.retry`), replaced per instance
/// with [`Engine::with_retry_policy`](crate::Engine::with_retry_policy).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts at most, the first included (1 disables retries). Default 4.
    pub max_attempts: u32,
    /// The first backoff's upper bound. Default 500 ms.
    pub initial_backoff: Duration,
    /// The largest backoff (and the largest `Retry-After` honoured). Default 30 s.
    pub max_backoff: Duration,
    /// Time allowed for a step and its retries; a retry that would end after it is not made.
    /// Default 120 s.
    pub deadline: Duration,
    /// Statuses retried. Default 429, 502, 503, 504. 429 and 503 say the request was not
    /// carried out, so they are retried for any request; the others only for requests that are
    /// safe to repeat.
    pub statuses: Vec<u16>,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            initial_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(30),
            deadline: Duration::from_secs(120),
            statuses: vec![429, 502, 503, 504],
        }
    }
}

impl RetryPolicy {
    /// No retries at all (one attempt).
    #[must_use]
    pub fn none() -> Self {
        RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        }
    }

    /// The backoff before attempt `attempt + 1` (after `attempt` failed ones), full jitter.
    #[must_use]
    pub fn backoff(&self, attempt: u32) -> Duration {
        let exp = attempt.saturating_sub(1).min(30);
        let ceiling = self
            .initial_backoff
            .saturating_mul(1u32 << exp)
            .min(self.max_backoff);
        let nanos = u64::try_from(ceiling.as_nanos()).unwrap_or(u64::MAX);
        if nanos == 0 {
            return Duration::ZERO;
        }
        Duration::from_nanos(fastrand::u64(0..=nanos))
    }

    /// Whether `status` is one this policy retries.
    #[must_use]
    pub fn retries_status(&self, status: u16) -> bool {
        self.statuses.contains(&status)
    }
}

/// Whether `status` says the server refused the request without carrying it out (so even a
/// create can be sent again): 429 Too Many Requests and 503 Service Unavailable. A 502 or 504
/// comes from a gateway whose upstream may have done the work.
#[must_use]
pub fn refused_unprocessed(status: u16) -> bool {
    matches!(status, 429 | 503)
}

/// The wait a response's `Retry-After` asks for: delay-seconds or an HTTP date (RFC 9110
/// 10.2.3). A date in the past means now; an unreadable value is ignored.
#[must_use]
pub fn retry_after(response: &HttpResponse) -> Option<Duration> {
    parse_retry_after(response.header("retry-after")?, SystemTime::now())
}

/// [`retry_after`] against the clock `now`.
#[must_use]
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// `x-syncdef.retry` as written: durations in milliseconds.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RetrySpec {
    max_attempts: Option<u32>,
    initial_backoff_ms: Option<u64>,
    max_backoff_ms: Option<u64>,
    deadline_ms: Option<u64>,
    statuses: Option<Vec<u16>>,
}

impl RetrySpec {
    /// The policy: these fields over the defaults, as every other settings layer is laid.
    pub fn policy(self) -> Result<RetryPolicy, String> {
        if self.max_attempts == Some(0) {
            return Err("`retry.maxAttempts` must be at least 1 (1 means no retry)".into());
        }
        if let Some(s) = self
            .statuses
            .iter()
            .flatten()
            .find(|s| !(400..600).contains(*s))
        {
            return Err(format!(
                "`retry.statuses` holds {s}; only error statuses (4xx, 5xx) can be retried"
            ));
        }
        let layer = RetryOverrides {
            max_attempts: self.max_attempts,
            initial_backoff: self.initial_backoff_ms.map(Duration::from_millis),
            max_backoff: self.max_backoff_ms.map(Duration::from_millis),
            deadline: self.deadline_ms.map(Duration::from_millis),
            statuses: self.statuses,
        };
        Ok(layer.over(&RetryPolicy::default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_seconds_and_dates() {
        let now = httpdate::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        assert_eq!(parse_retry_after("7", now), Some(Duration::from_secs(7)));
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:47 GMT", now),
            Some(Duration::from_secs(10))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(parse_retry_after("-3", now), None);
    }

    #[test]
    fn backoff_is_bounded_and_grows() {
        let p = RetryPolicy {
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(250),
            ..RetryPolicy::default()
        };
        for attempt in 1..40 {
            assert!(p.backoff(attempt) <= Duration::from_millis(250));
        }
        // With full jitter the first wait never exceeds the initial backoff.
        assert!((0..100).all(|_| p.backoff(1) <= Duration::from_millis(100)));
    }

    #[test]
    fn spec_refuses_zero_attempts_and_success_statuses() {
        let spec = RetrySpec {
            max_attempts: Some(0),
            ..RetrySpec::default()
        };
        assert!(spec.policy().is_err());
        let spec = RetrySpec {
            statuses: Some(vec![200]),
            ..RetrySpec::default()
        };
        assert!(spec.policy().is_err());
    }
}
