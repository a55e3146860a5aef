//! `updatedAt` values: read from records, compared, and turned back into filter literals.

use std::cmp::Ordering;

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

    /// The `updatedAt` of a record, if it has a readable one.
    pub fn of(record: &serde_json::Value) -> Option<Result<Self, String>> {
        match record.get("updatedAt")? {
            serde_json::Value::String(s) => Some(Self::parse(s)),
            serde_json::Value::Null => None,
            other => Some(Err(format!("`updatedAt` is {other}, not a date-time"))),
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
