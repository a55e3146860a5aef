//! A QuickBooks company's request limits, enforced as the vendor enforces them: per company
//! (realm), at most `requests` in any `window` and `concurrency` in flight, else `429 Too Many
//! Requests`. The window may be scaled down (500 per 6 s instead of per minute) so that a
//! benchmark sees several vendor minutes in seconds.
//!
//! A request is in flight from its arrival until its answer leaves, `latency` later (the
//! server answers every request after that fixed time), so the count of requests in flight
//! is the count of admitted requests that arrived less than `latency` ago: never more than a
//! client sees, which holds its slot until the answer has arrived.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// One company's limits and the server's answer time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Requests admitted in any `window`.
    pub requests: u32,
    /// The window `requests` counts in (QuickBooks: a minute).
    pub window: Duration,
    /// Requests in flight at once.
    pub concurrency: u32,
    /// How long every answer takes.
    pub latency: Duration,
}

impl Limits {
    /// Reads `500/6` (requests per seconds) with a concurrency and a latency in
    /// milliseconds, saying what is wrong with bad text.
    ///
    /// # Errors
    /// Which value is malformed and the form expected.
    pub fn parse(rate: &str, concurrency: &str, latency_ms: &str) -> Result<Limits, String> {
        let (requests, seconds) = rate
            .split_once('/')
            .ok_or_else(|| format!("--limit takes REQUESTS/SECONDS (500/60), not `{rate}`"))?;
        let number = |text: &str, what: &str| {
            text.parse::<u32>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("{what} must be a whole number of at least 1, not `{text}`"))
        };
        Ok(Limits {
            requests: number(requests, "--limit's requests")?,
            window: Duration::from_secs(u64::from(number(seconds, "--limit's seconds")?)),
            concurrency: number(concurrency, "--concurrency")?,
            latency: Duration::from_millis(
                latency_ms.parse().map_err(|_| {
                    format!("--latency-ms must be milliseconds, not `{latency_ms}`")
                })?,
            ),
        })
    }
}

/// What a company's limiter saw.
#[derive(Debug, Default)]
pub struct Traffic {
    /// When each admitted request arrived, oldest first (all of them, for the report).
    admitted: Vec<Instant>,
    /// Admitted requests still in the window, oldest first.
    window: VecDeque<Instant>,
    /// Requests answered 429 because the window was full.
    over_window: u64,
    /// Requests answered 429 because `concurrency` were in flight.
    over_concurrency: u64,
}

impl Traffic {
    /// Admits a request arriving `now`, or says it is over a limit.
    pub fn admit(&mut self, limits: &Limits, now: Instant) -> bool {
        while self
            .window
            .front()
            .is_some_and(|t| now.duration_since(*t) >= limits.window)
        {
            self.window.pop_front();
        }
        let in_flight = self
            .window
            .iter()
            .rev()
            .take_while(|t| now.duration_since(**t) < limits.latency)
            .count();
        if self.window.len() >= limits.requests as usize {
            self.over_window += 1;
            return false;
        }
        if in_flight >= limits.concurrency as usize {
            self.over_concurrency += 1;
            return false;
        }
        self.window.push_back(now);
        self.admitted.push(now);
        true
    }

    /// Admitted and throttled counts, and the admitted arrivals in milliseconds since `start`.
    pub fn report(&self, start: Instant) -> Value {
        let arrivals: Vec<u64> = self
            .admitted
            .iter()
            .map(|t| u64::try_from(t.duration_since(start).as_millis()).unwrap_or(u64::MAX))
            .collect();
        json!({
            "requests": self.admitted.len(),
            "throttled": self.over_window + self.over_concurrency,
            "overWindow": self.over_window,
            "overConcurrency": self.over_concurrency,
            "arrivalsMs": arrivals,
        })
    }
}

/// The traffic of every company, by company id.
pub type Companies = HashMap<String, Traffic>;

/// The answer QuickBooks gives over its limits.
pub fn too_many_requests() -> wiremock::ResponseTemplate {
    wiremock::ResponseTemplate::new(429).set_body_json(json!({
        "Fault": {"Error": [{"Message": "message=ThrottleExceeded; errorCode=003001; statusCode=429",
                             "Detail": "The request limit was reached.", "code": "3001"}],
                  "type": "SERVICE"}
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            requests: 3,
            window: Duration::from_secs(6),
            concurrency: 2,
            latency: Duration::from_millis(100),
        }
    }

    #[test]
    fn over_the_window_or_the_concurrency_a_request_is_refused() {
        let start = Instant::now();
        let mut traffic = Traffic::default();
        assert!(traffic.admit(&limits(), start));
        assert!(traffic.admit(&limits(), start));
        assert!(!traffic.admit(&limits(), start), "a third at once");
        let later = start + Duration::from_millis(150);
        assert!(
            traffic.admit(&limits(), later),
            "the first two were answered"
        );
        assert!(
            !traffic.admit(&limits(), later + Duration::from_millis(150)),
            "a fourth in six seconds"
        );
        assert!(traffic.admit(&limits(), start + Duration::from_secs(6)));
        let report = traffic.report(start);
        assert_eq!(report["requests"], 4);
        assert_eq!(report["throttled"], 2);
        assert_eq!(report["overWindow"], 1);
        assert_eq!(report["overConcurrency"], 1);
        assert_eq!(report["arrivalsMs"], json!([0, 0, 150, 6000]));
    }

    #[test]
    fn bad_limits_say_what_is_expected() {
        assert_eq!(
            Limits::parse("500/6", "10", "20").expect("valid"),
            Limits {
                requests: 500,
                window: Duration::from_secs(6),
                concurrency: 10,
                latency: Duration::from_millis(20),
            }
        );
        let error = Limits::parse("500", "10", "20").expect_err("no window");
        assert!(error.contains("REQUESTS/SECONDS"), "{error}");
        let error = Limits::parse("500/0", "10", "20").expect_err("zero");
        assert!(error.contains("at least 1"), "{error}");
        let error = Limits::parse("500/6", "x", "20").expect_err("bad");
        assert!(error.contains("--concurrency"), "{error}");
    }
}
