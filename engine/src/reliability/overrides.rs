//! Retry and rate-limit settings laid over the definition's, field by field.
//!
//! Precedence, highest first: the instance's own settings (command-line flags, a worker's
//! configuration), then `syncdef.toml`'s `[retry]` and `[rate-limit]`, then the definition's
//! `x-syncdef`, then the defaults. Each layer replaces only the fields it sets: a
//! `syncdef.toml` that sets `max-attempts` keeps the definition's backoff and deadline.
//! [`Engine::with_overrides`](crate::Engine::with_overrides) applies one layer; apply them
//! lowest first.

use std::time::Duration;

pub use syncdef_definitions::settings::Limit;
use syncdef_definitions::settings::PushConfig;

use super::rate_limit::RateLimitPolicy;
use super::retry::RetryPolicy;

/// Retry fields to replace; `None` keeps the value below.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RetryOverrides {
    /// Attempts at most, the first included (at least 1).
    pub max_attempts: Option<u32>,
    /// The first backoff's upper bound.
    pub initial_backoff: Option<Duration>,
    /// The largest backoff (and the largest `Retry-After` honoured).
    pub max_backoff: Option<Duration>,
    /// Time allowed for a step and its retries.
    pub deadline: Option<Duration>,
    /// Statuses retried.
    pub statuses: Option<Vec<u16>>,
}

impl RetryOverrides {
    /// `policy` with the fields set here replaced.
    #[must_use]
    pub fn over(&self, policy: &RetryPolicy) -> RetryPolicy {
        RetryPolicy {
            // Zero attempts would send nothing at all; the types that come from users (flags,
            // syncdef.toml) cannot hold it, a program that sets it gets one attempt.
            max_attempts: self.max_attempts.map_or(policy.max_attempts, |n| n.max(1)),
            initial_backoff: self.initial_backoff.unwrap_or(policy.initial_backoff),
            max_backoff: self.max_backoff.unwrap_or(policy.max_backoff),
            deadline: self.deadline.unwrap_or(policy.deadline),
            statuses: self
                .statuses
                .clone()
                .unwrap_or_else(|| policy.statuses.clone()),
        }
    }

    /// Whether no field is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == RetryOverrides::default()
    }
}

/// Rate-limit fields to replace; `None` keeps the value below.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RateLimitOverrides {
    /// Server variables naming the external account.
    pub key: Option<Vec<String>>,
    /// Requests a minute at most, or unlimited.
    pub requests_per_minute: Option<Limit>,
    /// Requests in flight at most, or unlimited.
    pub concurrency: Option<Limit>,
}

impl RateLimitOverrides {
    /// `policy` with the fields set here replaced.
    #[must_use]
    pub fn over(&self, policy: &RateLimitPolicy) -> RateLimitPolicy {
        RateLimitPolicy {
            key: self.key.clone().unwrap_or_else(|| policy.key.clone()),
            requests_per_minute: self
                .requests_per_minute
                .map_or(policy.requests_per_minute, Limit::get),
            window_seconds: policy.window_seconds,
            concurrency: self.concurrency.map_or(policy.concurrency, Limit::get),
        }
    }

    /// Whether no field is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == RateLimitOverrides::default()
    }
}

/// One layer of settings: retries and rate limits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    /// Retry fields.
    pub retry: RetryOverrides,
    /// Rate-limit fields.
    pub rate_limit: RateLimitOverrides,
}

impl Overrides {
    /// Whether no field is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.retry.is_empty() && self.rate_limit.is_empty()
    }
}

/// `syncdef.toml`'s tables, already checked when the file was read.
impl From<&PushConfig> for Overrides {
    fn from(config: &PushConfig) -> Overrides {
        let retry = &config.retry;
        let rate = &config.rate_limit;
        Overrides {
            retry: RetryOverrides {
                max_attempts: retry.max_attempts.map(|a| a.0.get()),
                initial_backoff: retry.initial_backoff_ms.map(Duration::from_millis),
                max_backoff: retry.max_backoff_ms.map(Duration::from_millis),
                deadline: retry.deadline_ms.map(Duration::from_millis),
                statuses: retry
                    .statuses
                    .as_ref()
                    .map(|s| s.iter().map(|s| s.0).collect()),
            },
            rate_limit: RateLimitOverrides {
                key: rate.key.clone(),
                requests_per_minute: rate.requests_per_minute,
                concurrency: rate.concurrency,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use syncdef_validator::RuleSettings;

    use super::*;

    /// What a definition's `x-syncdef` could say: every field away from the defaults.
    fn definition() -> (RetryPolicy, RateLimitPolicy) {
        (
            RetryPolicy {
                max_attempts: 6,
                initial_backoff: Duration::from_secs(1),
                max_backoff: Duration::from_secs(60),
                deadline: Duration::from_secs(180),
                statuses: vec![429, 503],
            },
            RateLimitPolicy {
                key: vec!["realmId".into()],
                requests_per_minute: Some(500),
                window_seconds: None,
                concurrency: Some(10),
            },
        )
    }

    fn file(text: &str) -> Overrides {
        let settings = RuleSettings::parse(text, Path::new("syncdef.toml")).expect("valid");
        Overrides::from(settings.push())
    }

    #[test]
    fn a_file_replaces_only_the_fields_it_sets() {
        let (retry, rate) = definition();
        let layer = file("[retry]\nmax-attempts = 2\n[rate-limit]\nconcurrency = 3\n");
        assert_eq!(
            layer.retry.over(&retry),
            RetryPolicy {
                max_attempts: 2,
                ..retry.clone()
            }
        );
        assert_eq!(
            layer.rate_limit.over(&rate),
            RateLimitPolicy {
                concurrency: Some(3),
                ..rate.clone()
            }
        );
    }

    #[test]
    fn the_instance_wins_over_the_file_field_by_field() {
        let (retry, rate) = definition();
        let toml = file(
            "[retry]\nmax-attempts = 2\ndeadline-ms = 5000\n[rate-limit]\nrequests-per-minute = 100\nconcurrency = 3\n",
        );
        let flags = Overrides {
            retry: RetryOverrides {
                max_attempts: Some(1),
                ..RetryOverrides::default()
            },
            rate_limit: RateLimitOverrides {
                concurrency: Some(Limit::Unlimited),
                ..RateLimitOverrides::default()
            },
        };
        let retry_now = flags.retry.over(&toml.retry.over(&retry));
        assert_eq!(retry_now.max_attempts, 1, "the flag");
        assert_eq!(retry_now.deadline, Duration::from_secs(5), "the file");
        assert_eq!(
            retry_now.max_backoff,
            Duration::from_secs(60),
            "the definition"
        );
        assert_eq!(retry_now.statuses, vec![429, 503], "the definition");
        let rate_now = flags.rate_limit.over(&toml.rate_limit.over(&rate));
        assert_eq!(rate_now.concurrency, None, "the flag lifts the limit");
        assert_eq!(rate_now.requests_per_minute, Some(100), "the file");
        assert_eq!(rate_now.key, vec!["realmId".to_owned()], "the definition");
    }

    #[test]
    fn defaults_stand_where_no_layer_sets_a_field() {
        let toml = file("[retry]\nstatuses = [503]\n");
        let policy = toml.retry.over(&RetryPolicy::default());
        assert_eq!(
            policy,
            RetryPolicy {
                statuses: vec![503],
                ..RetryPolicy::default()
            }
        );
        assert!(file("ignore = [\"SD704\"]\n").is_empty());
    }

    #[test]
    fn zero_attempts_from_a_program_still_send_once() {
        let layer = RetryOverrides {
            max_attempts: Some(0),
            ..RetryOverrides::default()
        };
        assert_eq!(layer.over(&RetryPolicy::default()).max_attempts, 1);
    }
}
