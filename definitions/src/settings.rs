//! The push settings of a project, `syncdef.toml`'s `[retry]` and `[rate-limit]` tables: how
//! `syncdef push` and `syncdef sync` retry and throttle, over what the definition's `x-syncdef`
//! says. The types live here, below both readers: the validator reads and checks the file, the
//! engine lays the values over the definition's.
//!
//! ```toml
//! [retry]                      # each key replaces the same field of x-syncdef.retry
//! max-attempts = 2             # the first attempt included; 1: no retry
//! initial-backoff-ms = 250
//! max-backoff-ms = 10000       # also caps Retry-After
//! deadline-ms = 60000
//! statuses = [429, 503]
//!
//! [rate-limit]                 # each key replaces the same field of x-syncdef.rateLimit
//! key = ["realmId"]
//! requests-per-minute = 300    # or "unlimited"
//! concurrency = 4              # or "unlimited"
//! ```
//!
//! The values are checked when they are deserialized, so that `syncdef lint` refuses a bad
//! table like any other mistake in the file.

use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

/// `[retry]`. Every key is optional: a key that is set replaces that field of the definition's
/// `x-syncdef.retry`, the others keep it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RetryConfig {
    /// Attempts at most, the first included.
    pub max_attempts: Option<Attempts>,
    /// The first backoff's upper bound, in milliseconds.
    #[serde(default, deserialize_with = "millis")]
    pub initial_backoff_ms: Option<u64>,
    /// The largest backoff and the largest `Retry-After` honoured, in milliseconds.
    #[serde(default, deserialize_with = "millis")]
    pub max_backoff_ms: Option<u64>,
    /// Time allowed for a step and its retries, in milliseconds.
    #[serde(default, deserialize_with = "millis")]
    pub deadline_ms: Option<u64>,
    /// Statuses retried.
    pub statuses: Option<Vec<RetryStatus>>,
}

/// `[rate-limit]`. Every key is optional, as in `[retry]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RateLimitConfig {
    /// Server variables whose values, with the server's origin, name the external account.
    pub key: Option<Vec<String>>,
    /// Requests a minute at most.
    pub requests_per_minute: Option<Limit>,
    /// Requests in flight at most.
    pub concurrency: Option<Limit>,
}

/// The push settings of one `syncdef.toml` (empty when it has neither table).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PushConfig {
    /// `[retry]`.
    pub retry: RetryConfig,
    /// `[rate-limit]`.
    pub rate_limit: RateLimitConfig,
}

impl PushConfig {
    /// Whether the file sets nothing about pushes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == PushConfig::default()
    }
}

/// A number of attempts: at least 1 (1 means no retry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempts(pub NonZeroU32);

impl Attempts {
    fn new(n: i64) -> Result<Attempts, String> {
        if n < 1 {
            return Err(format!(
                "{n} attempts: give at least 1 (the first attempt counts; 1 means no retry)"
            ));
        }
        u32::try_from(n)
            .ok()
            .and_then(NonZeroU32::new)
            .map(Attempts)
            .ok_or_else(|| format!("{n} attempts: give at most {}", u32::MAX))
    }
}

impl FromStr for Attempts {
    type Err = String;

    fn from_str(text: &str) -> Result<Attempts, String> {
        let n: i64 = text.trim().parse().map_err(|_| {
            format!("`{text}` is not a number of attempts: give a whole number, at least 1")
        })?;
        Attempts::new(n)
    }
}

impl<'de> Deserialize<'de> for Attempts {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Attempts, D::Error> {
        Attempts::new(i64::deserialize(d)?).map_err(de::Error::custom)
    }
}

/// A duration in milliseconds: a whole number, 0 or more.
fn millis<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let n = i64::deserialize(d)?;
    u64::try_from(n).map(Some).map_err(|_| {
        de::Error::custom(format!(
            "{n} ms: a duration is a whole number of milliseconds, 0 or more"
        ))
    })
}

/// A status that can be retried: an error status, 4xx or 5xx.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryStatus(pub u16);

impl<'de> Deserialize<'de> for RetryStatus {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RetryStatus, D::Error> {
        let n = i64::deserialize(d)?;
        match u16::try_from(n) {
            Ok(s) if (400..600).contains(&s) => Ok(RetryStatus(s)),
            _ => Err(de::Error::custom(format!(
                "status {n} cannot be retried: only error statuses (400 to 599) can"
            ))),
        }
    }
}

/// A rate limit: a number at least 1, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// At most this many.
    AtMost(NonZeroU32),
    /// No limit (lifts one the definition sets).
    Unlimited,
}

impl Limit {
    /// The limit as the engine's policies hold it: `None` for unlimited.
    #[must_use]
    pub fn get(self) -> Option<u32> {
        match self {
            Limit::AtMost(n) => Some(n.get()),
            Limit::Unlimited => None,
        }
    }

    fn new(n: i64) -> Result<Limit, String> {
        u32::try_from(n)
            .ok()
            .and_then(NonZeroU32::new)
            .map(Limit::AtMost)
            .ok_or_else(|| {
                format!("a limit of {n}: give a whole number at least 1, or \"unlimited\" for none")
            })
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::AtMost(n) => write!(f, "{n}"),
            Limit::Unlimited => f.write_str("unlimited"),
        }
    }
}

impl FromStr for Limit {
    type Err = String;

    fn from_str(text: &str) -> Result<Limit, String> {
        let text = text.trim();
        if text == "unlimited" {
            return Ok(Limit::Unlimited);
        }
        let n: i64 = text.parse().map_err(|_| {
            format!("`{text}` is not a limit: give a whole number at least 1, or `unlimited`")
        })?;
        Limit::new(n)
    }
}

impl<'de> Deserialize<'de> for Limit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Limit, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Limit;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a whole number at least 1, or \"unlimited\"")
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Limit, E> {
                Limit::new(n).map_err(E::custom)
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Limit, E> {
                Limit::new(i64::try_from(n).unwrap_or(i64::MAX)).map_err(E::custom)
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Limit, E> {
                if s == "unlimited" {
                    Ok(Limit::Unlimited)
                } else {
                    Err(E::custom(format!(
                        "\"{s}\" is not a limit: give a whole number at least 1, or \"unlimited\""
                    )))
                }
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_and_attempts_parse_from_flags() {
        assert_eq!("unlimited".parse::<Limit>(), Ok(Limit::Unlimited));
        assert_eq!("5".parse::<Limit>().map(Limit::get), Ok(Some(5)));
        assert!("0".parse::<Limit>().is_err());
        assert!("-1".parse::<Limit>().is_err());
        assert!("lots".parse::<Limit>().is_err());
        assert_eq!("2".parse::<Attempts>().map(|a| a.0.get()), Ok(2));
        assert!("0".parse::<Attempts>().is_err());
        assert!("two".parse::<Attempts>().is_err());
    }
}
