//! When a failed record is tried again.

use std::time::Duration;

/// Exponential backoff: `base`, then twice as long after each further failure, never more
/// than `max`. The defaults (5 minutes doubling up to a day) end at the vendor's own rhythm:
/// a failing entity is retried daily until it succeeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    /// Wait after the first failure.
    pub base: Duration,
    /// Longest wait.
    pub max: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff {
            base: Duration::from_secs(5 * 60),
            max: Duration::from_secs(24 * 60 * 60),
        }
    }
}

impl Backoff {
    /// The wait after the `attempts`-th failure in a row (1 for the first).
    pub fn delay(&self, attempts: u32) -> Duration {
        let factor = 2u32.saturating_pow(attempts.saturating_sub(1).min(31));
        self.base.saturating_mul(factor).min(self.max)
    }

    /// Unix seconds of the next attempt after the `attempts`-th failure at `now`.
    pub fn next_attempt(&self, attempts: u32, now: i64) -> i64 {
        let secs = i64::try_from(self.delay(attempts).as_secs()).unwrap_or(i64::MAX);
        now.saturating_add(secs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_then_caps_at_a_day() {
        let b = Backoff::default();
        assert_eq!(b.delay(1), Duration::from_secs(300));
        assert_eq!(b.delay(2), Duration::from_secs(600));
        assert_eq!(b.delay(3), Duration::from_secs(1200));
        assert_eq!(b.delay(20), Duration::from_secs(86_400));
        assert_eq!(b.delay(u32::MAX), Duration::from_secs(86_400));
        assert_eq!(b.next_attempt(1, 1000), 1300);
    }
}
