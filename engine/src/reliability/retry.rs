//! When and how long to wait before sending a request again.
//!
//! Exponential backoff with full jitter (AWS architecture blog, "Exponential Backoff And
//! Jitter"): the n-th wait is uniform in `[0, min(max_backoff, initial_backoff * 2^n)]`, which
//! spreads the retries of many workers hit by the same outage instead of synchronising them.
//! A `Retry-After` header replaces the computed wait: the server knows better.

use std::time::{Duration, SystemTime};

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
        self.backoff_at(attempt, fastrand::f64())
    }

    /// The backoff before attempt `attempt + 1`, at `jitter` (`0..=1`) of its full-jitter
    /// range `[0, min(max_backoff, initial_backoff * 2^(attempt - 1))]`.
    #[must_use]
    pub fn backoff_at(&self, attempt: u32, jitter: f64) -> Duration {
        let exp = attempt.saturating_sub(1).min(30);
        let ceiling = self
            .initial_backoff
            .saturating_mul(1u32 << exp)
            .min(self.max_backoff);
        ceiling.mul_f64(jitter.clamp(0.0, 1.0))
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

/// What one attempt of a request came to, as far as the retry rules care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttemptResult {
    /// The connection never opened: nothing of the request left.
    NotSent,
    /// The request was sent and no answer came (timeout, reset, body cut off): it may have
    /// been carried out.
    NoAnswer,
    /// The transport refused the request before it left (a redirect to another host, no
    /// answer to play back): sending it again changes nothing.
    Refused,
    /// An HTTP answer, with the wait its `Retry-After` asks for.
    Answered {
        /// The status.
        status: u16,
        /// `Retry-After`, when the answer had a readable one.
        retry_after: Option<Duration>,
    },
}

impl AttemptResult {
    /// Whether the request may have been carried out although no success was seen: sent and
    /// not answered, or answered by a server error other than 501 and 503 (a 500 may come after
    /// the work was done, a 502 or 504 from a gateway whose upstream did it). 429, 503, other
    /// 4xx and a connection that never opened say nothing was done.
    #[must_use]
    pub fn may_have_been_carried_out(self) -> bool {
        match self {
            AttemptResult::NotSent | AttemptResult::Refused => false,
            AttemptResult::NoAnswer => true,
            AttemptResult::Answered { status, .. } => {
                (500..600).contains(&status) && !matches!(status, 501 | 503)
            }
        }
    }
}

/// One attempt in a request's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// What it came to.
    pub result: AttemptResult,
    /// Time from the start of the first attempt to the end of this one.
    pub elapsed: Duration,
}

/// What carrying a request out twice would do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestNature {
    /// Whether sending it again after it may have been carried out leaves the external system
    /// as one send would: reads, PUT and DELETE, every update and delete, and a create that
    /// carries an idempotency key.
    pub repeatable: bool,
    /// Whether carrying it out twice would make two records (a create, a POST action), with or
    /// without an idempotency key: its outcome is unknown once an attempt may have been
    /// carried out and none was seen to succeed.
    pub duplicates: bool,
}

/// What to do after an attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Send the request again after `wait`.
    Retry {
        /// How long to wait first.
        wait: Duration,
        /// Why, for the audit trail (`HTTP 429`, `no answer`).
        reason: String,
    },
    /// Send nothing more: the last attempt's result stands, read as the verdict says.
    Stop(Verdict),
}

/// How the last attempt's result is to be read when the engine stops sending.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// An earlier or the last attempt may have been carried out and no success was seen, and
    /// carrying the request out twice would duplicate it: whatever the last attempt answered,
    /// the outcome is unknown.
    pub unknown_outcome: bool,
    /// Why the engine stopped retrying a retryable failure (attempts or deadline used up), for
    /// the audit trail; `None` when the failure is not one that is retried.
    pub gave_up: Option<String>,
    /// For a failure given up on: how long to wait before trying the push again.
    pub retry_after: Option<Duration>,
}

/// Every rule of when a request is sent again, in one pure function: `history` holds the
/// attempts made so far (at least one), `nature` what repeating the request would do, `jitter`
/// a number in `[0, 1]` that picks the backoff inside its full-jitter range, `replay` whether
/// the transport plays back answers (a dry-run, which never retries).
///
/// A 401 is not decided here: the token is refreshed and the request re-sent once, outside
/// the retry budget.
#[must_use]
pub fn decide(
    history: &[Attempt],
    nature: RequestNature,
    policy: &RetryPolicy,
    jitter: f64,
    replay: bool,
) -> Decision {
    let Some(last) = history.last() else {
        return Decision::Stop(Verdict::default());
    };
    let unknown_outcome = nature.duplicates
        && !last_succeeded(last.result)
        && history.iter().any(|a| a.result.may_have_been_carried_out());
    let stop = |gave_up: Option<String>, retry_after: Option<Duration>| {
        Decision::Stop(Verdict {
            unknown_outcome,
            gave_up,
            retry_after,
        })
    };
    let retries = u32::try_from(history.len()).unwrap_or(u32::MAX);
    let backoff = || policy.backoff_at(retries, jitter);
    let (wait, reason) = match last.result {
        AttemptResult::Answered {
            status,
            retry_after,
        } => {
            if !policy.retries_status(status) {
                return stop(None, None);
            }
            // A gateway error to a request that is not safe to repeat: the upstream may have
            // done the work, so it is not sent again.
            if !(refused_unprocessed(status) || nature.repeatable) {
                return stop(None, None);
            }
            let wait = retry_after.map_or_else(backoff, |w| w.min(policy.max_backoff));
            (wait, format!("HTTP {status}"))
        }
        AttemptResult::NotSent => (backoff(), "the connection did not open".to_owned()),
        AttemptResult::NoAnswer if nature.repeatable => (backoff(), "no answer".to_owned()),
        AttemptResult::NoAnswer | AttemptResult::Refused => return stop(None, None),
    };
    if replay {
        return stop(None, Some(wait));
    }
    if retries >= policy.max_attempts {
        return stop(
            Some(format!(
                "{reason}; not retried: {} attempts made",
                policy.max_attempts
            )),
            Some(wait),
        );
    }
    if last.elapsed + wait > policy.deadline {
        return stop(
            Some(format!(
                "{reason}; not retried: the next attempt would end after the {} ms deadline",
                policy.deadline.as_millis()
            )),
            Some(wait),
        );
    }
    Decision::Retry { wait, reason }
}

fn last_succeeded(result: AttemptResult) -> bool {
    matches!(result, AttemptResult::Answered { status, .. } if (200..300).contains(&status))
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

    fn answered(status: u16) -> Attempt {
        Attempt {
            result: AttemptResult::Answered {
                status,
                retry_after: None,
            },
            elapsed: Duration::from_millis(10),
        }
    }

    fn lost() -> Attempt {
        Attempt {
            result: AttemptResult::NoAnswer,
            elapsed: Duration::from_millis(10),
        }
    }

    const CREATE_WITH_KEY: RequestNature = RequestNature {
        repeatable: true,
        duplicates: true,
    };
    const CREATE: RequestNature = RequestNature {
        repeatable: false,
        duplicates: true,
    };
    const UPDATE: RequestNature = RequestNature {
        repeatable: true,
        duplicates: false,
    };

    fn verdict(d: Decision) -> Verdict {
        match d {
            Decision::Stop(v) => v,
            Decision::Retry { .. } => panic!("expected the engine to stop, it retries"),
        }
    }

    #[test]
    fn a_lost_create_then_throttled_until_the_attempts_run_out_is_unknown() {
        let p = RetryPolicy::default();
        let mut history = vec![lost()];
        assert!(matches!(
            decide(&history, CREATE_WITH_KEY, &p, 0.5, false),
            Decision::Retry { .. }
        ));
        history.extend([answered(429), answered(429)]);
        assert!(matches!(
            decide(&history, CREATE_WITH_KEY, &p, 0.5, false),
            Decision::Retry { .. }
        ));
        history.push(answered(429));
        let v = verdict(decide(&history, CREATE_WITH_KEY, &p, 0.5, false));
        assert!(v.unknown_outcome, "{v:?}");
        assert!(v.gave_up.is_some());
    }

    #[test]
    fn whatever_a_later_attempt_refuses_a_possibly_made_create_stays_unknown() {
        let p = RetryPolicy::default();
        for later in [400, 404, 409, 422, 500, 503] {
            let v = verdict(decide(
                &[lost(), answered(later)],
                RequestNature {
                    repeatable: true,
                    duplicates: true,
                },
                &RetryPolicy {
                    max_attempts: 2,
                    ..p.clone()
                },
                0.0,
                false,
            ));
            assert!(v.unknown_outcome, "HTTP {later} after a lost answer: {v:?}");
        }
        // A success after the lost answer settles it (the key made the repeat safe).
        let v = verdict(decide(
            &[lost(), answered(200)],
            CREATE_WITH_KEY,
            &p,
            0.0,
            false,
        ));
        assert!(!v.unknown_outcome);
    }

    #[test]
    fn a_create_without_key_is_never_repeated_once_it_may_have_been_made() {
        let p = RetryPolicy::default();
        for first in [lost(), answered(502), answered(504), answered(500)] {
            let d = decide(&[first], CREATE, &p, 0.5, false);
            let v = verdict(d);
            assert!(v.unknown_outcome, "{first:?}: {v:?}");
        }
        // 429 and 503 say the create was not carried out: it is sent again.
        for status in [429, 503] {
            assert!(matches!(
                decide(&[answered(status)], CREATE, &p, 0.5, false),
                Decision::Retry { .. }
            ));
        }
        // A refusal is final and certain.
        let v = verdict(decide(&[answered(400)], CREATE, &p, 0.5, false));
        assert!(!v.unknown_outcome && v.gave_up.is_none());
    }

    #[test]
    fn a_connection_that_never_opened_is_retried_even_for_a_create() {
        let not_sent = Attempt {
            result: AttemptResult::NotSent,
            elapsed: Duration::ZERO,
        };
        let p = RetryPolicy::default();
        assert!(matches!(
            decide(&[not_sent], CREATE, &p, 0.5, false),
            Decision::Retry { .. }
        ));
        let v = verdict(decide(&[not_sent; 4], CREATE, &p, 0.5, false));
        assert!(!v.unknown_outcome, "nothing ever left: {v:?}");
        assert!(v.retry_after.is_some());
    }

    #[test]
    fn updates_are_repeated_and_never_unknown() {
        let p = RetryPolicy::default();
        assert!(matches!(
            decide(&[lost()], UPDATE, &p, 0.5, false),
            Decision::Retry { .. }
        ));
        let v = verdict(decide(&[lost(); 4], UPDATE, &p, 0.5, false));
        assert!(!v.unknown_outcome);
    }

    #[test]
    fn retry_after_is_honoured_up_to_the_largest_backoff_and_the_deadline_binds() {
        let p = RetryPolicy {
            max_backoff: Duration::from_secs(5),
            deadline: Duration::from_secs(20),
            ..RetryPolicy::default()
        };
        let throttled = |secs, elapsed| Attempt {
            result: AttemptResult::Answered {
                status: 429,
                retry_after: Some(Duration::from_secs(secs)),
            },
            elapsed: Duration::from_secs(elapsed),
        };
        assert_eq!(
            decide(&[throttled(3, 0)], UPDATE, &p, 0.9, false),
            Decision::Retry {
                wait: Duration::from_secs(3),
                reason: "HTTP 429".into()
            }
        );
        assert!(matches!(
            decide(&[throttled(60, 0)], UPDATE, &p, 0.9, false),
            Decision::Retry { wait, .. } if wait == Duration::from_secs(5)
        ));
        let v = verdict(decide(&[throttled(3, 18)], UPDATE, &p, 0.9, false));
        assert!(v.gave_up.as_deref().is_some_and(|w| w.contains("deadline")));
        assert_eq!(v.retry_after, Some(Duration::from_secs(3)));
    }

    #[test]
    fn a_dry_run_never_retries() {
        let p = RetryPolicy::default();
        let v = verdict(decide(&[answered(503)], UPDATE, &p, 0.5, true));
        assert!(v.gave_up.is_none());
    }

    #[test]
    fn statuses_outside_the_policy_are_final() {
        let p = RetryPolicy {
            statuses: vec![503],
            ..RetryPolicy::default()
        };
        let v = verdict(decide(&[answered(429)], UPDATE, &p, 0.5, false));
        assert!(v.gave_up.is_none() && !v.unknown_outcome);
    }

    #[test]
    fn backoff_at_spans_the_full_jitter_range() {
        let p = RetryPolicy {
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(250),
            ..RetryPolicy::default()
        };
        assert_eq!(p.backoff_at(1, 0.0), Duration::ZERO);
        assert_eq!(p.backoff_at(1, 1.0), Duration::from_millis(100));
        assert_eq!(p.backoff_at(2, 1.0), Duration::from_millis(200));
        assert_eq!(p.backoff_at(9, 1.0), Duration::from_millis(250));
    }
}
