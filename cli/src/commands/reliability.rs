//! The flags of `syncdef push` and `syncdef sync` that set how requests are retried and
//! throttled. They win over `syncdef.toml` and the definition's `x-syncdef`, field by field;
//! the engine does the layering (`Engine::with_overrides`).

use std::time::Duration;

use clap::Args;
use syncdef_definitions::settings::Attempts;
use syncdef_engine::{Limit, Overrides, RateLimitOverrides, RetryOverrides};

/// Retry and rate-limit flags.
#[derive(Debug, Args)]
#[command(next_help_heading = "Retries and rate limits (over syncdef.toml and x-syncdef)")]
pub struct ReliabilityArgs {
    /// Attempts per request at most, the first included; 1: no retry.
    #[arg(long, value_name = "N")]
    pub max_attempts: Option<Attempts>,

    /// Time allowed for a request and its retries, with a unit: `90s`, `500ms`, `2m`.
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub retry_deadline: Option<Duration>,

    /// Requests a minute at most per external account, or `unlimited`.
    #[arg(long, value_name = "N|unlimited")]
    pub requests_per_minute: Option<Limit>,

    /// Requests in flight at most per external account, or `unlimited`.
    #[arg(long, value_name = "N|unlimited")]
    pub concurrency: Option<Limit>,
}

impl ReliabilityArgs {
    /// The flags as a layer of settings.
    pub fn overrides(&self) -> Overrides {
        Overrides {
            retry: RetryOverrides {
                max_attempts: self.max_attempts.map(|a| a.0.get()),
                deadline: self.retry_deadline,
                ..RetryOverrides::default()
            },
            rate_limit: RateLimitOverrides {
                requests_per_minute: self.requests_per_minute,
                concurrency: self.concurrency,
                ..RateLimitOverrides::default()
            },
        }
    }
}

/// `500ms`, `90s`, `2m`. A bare number is refused: seconds and milliseconds are both common,
/// and guessing wrong would make the deadline a thousand times off.
fn duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a duration: write a whole number and a unit, as in `90s`, `500ms` or `2m`"))?;
    match unit.trim() {
        "ms" => Ok(Duration::from_millis(n)),
        "s" => Ok(Duration::from_secs(n)),
        "m" | "min" => n
            .checked_mul(60)
            .map(Duration::from_secs)
            .ok_or_else(|| format!("`{text}` is too long")),
        "" => Err(format!(
            "`{text}` has no unit: write `{n}s`, `{n}ms` or `{n}m`"
        )),
        other => Err(format!(
            "`{other}` is not a unit of `{text}`: use `ms`, `s` or `m`"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_need_a_unit() {
        assert_eq!(duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(duration("2m"), Ok(Duration::from_secs(120)));
        assert!(duration("30").unwrap_err().contains("no unit"));
        assert!(duration("3h").unwrap_err().contains("not a unit"));
        assert!(duration("s").is_err());
        assert!(duration("-1s").is_err());
    }
}
