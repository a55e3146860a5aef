//! `updatedAt` values: read from records, compared, and turned back into filter literals.

use std::cmp::Ordering;

use syncdef_definitions::platform::modules::CHANGE_CURSOR;
use syncdef_platform::query::{Date, DateTime, Literal};

/// A record's `updatedAt`: the text as the platform wrote it (stored, so the cursor shows what
/// the platform said) and its parsed instant (compared, and sent in `$filter`).
#[derive(Clone, Debug)]
pub struct Stamp {
    /// As written.
    pub text: String,
    instant: DateTime,
}

impl Stamp {
    /// Reads a date-time (`2026-11-20T16:02:44Z`, fractions up to milliseconds count) or a
    /// plain date (midnight).
    pub fn parse(text: &str) -> Result<Self, String> {
        let instant = DateTime::parse(text)
            .or_else(|_| Date::parse(text).and_then(|d| d.at(0, 0, 0)))
            .map_err(|e| e.to_string())?;
        Ok(Stamp {
            text: text.to_owned(),
            instant,
        })
    }

    /// The change cursor (`updatedAt`) of a record, if it has a readable one.
    pub fn of(record: &serde_json::Value) -> Option<Result<Self, String>> {
        match record.get(CHANGE_CURSOR)? {
            serde_json::Value::String(s) => Some(Self::parse(s)),
            serde_json::Value::Null => None,
            other => Some(Err(format!(
                "`{CHANGE_CURSOR}` is {other}, not a date-time"
            ))),
        }
    }

    /// The filter literal (`datetime'2026-11-20T16:02:44.000'`).
    pub fn literal(&self) -> Literal {
        Literal::DateTime(self.instant)
    }
}

impl PartialEq for Stamp {
    fn eq(&self, other: &Self) -> bool {
        self.instant == other.instant
    }
}

impl Eq for Stamp {}

impl PartialOrd for Stamp {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Stamp {
    fn cmp(&self, other: &Self) -> Ordering {
        self.instant.cmp(&other.instant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_instants_written_differently_are_equal() {
        let a = Stamp::parse("2026-11-20T16:02:44Z").expect("a");
        let b = Stamp::parse("2026-11-20T16:02:44.000+00:00").expect("b");
        assert_eq!(a, b);
        assert!(Stamp::parse("2026-11-20").expect("date") < a);
        assert_eq!(a.literal().to_string(), "datetime'2026-11-20T16:02:44.000'");
        assert!(Stamp::parse("yesterday").is_err());
    }
}

/// Unix seconds as `YYYY-MM-DDTHH:MM:SSZ` (UTC), for people reading `sync status`.
pub fn utc_text(unix: i64) -> String {
    let days = unix.div_euclid(86_400);
    let secs = unix.rem_euclid(86_400);
    // Civil-from-days (proleptic Gregorian), after H. Hinnant's public-domain algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        (secs / 60) % 60,
        secs % 60
    )
}

#[cfg(test)]
mod utc_tests {
    #[test]
    fn unix_seconds_read_as_utc() {
        assert_eq!(super::utc_text(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::utc_text(1_800_000_000), "2027-01-15T08:00:00Z");
        assert_eq!(super::utc_text(951_782_400), "2000-02-29T00:00:00Z");
    }
}
