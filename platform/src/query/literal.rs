//! Literal values of `$filter` and how the platform wants them written.

use std::fmt;

use crate::guid::Guid;

/// A calendar date, written `datetime'YYYY-MM-DD'`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: u16,
    month: u8,
    day: u8,
}

/// A date with a time of day, written `datetime'YYYY-MM-DDTHH:MM:SS.fff'`.
///
/// The platform's time zone is not documented; the value is sent as given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DateTime {
    date: Date,
    hour: u8,
    minute: u8,
    second: u8,
    millis: u16,
}

/// A date or time that does not exist or cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid date `{text}`: {reason}")]
pub struct InvalidDate {
    /// The text or numbers given.
    pub text: String,
    /// What is wrong.
    pub reason: &'static str,
}

impl Date {
    /// A date; fails for impossible days (February 30th) and years outside 1..=9999.
    pub fn new(year: u16, month: u8, day: u8) -> Result<Self, InvalidDate> {
        let invalid = |reason| InvalidDate {
            text: format!("{year:04}-{month:02}-{day:02}"),
            reason,
        };
        if !(1..=9999).contains(&year) {
            return Err(invalid("the year must be between 1 and 9999"));
        }
        if !(1..=12).contains(&month) {
            return Err(invalid("the month must be between 1 and 12"));
        }
        if day == 0 || day > days_in_month(year, month) {
            return Err(invalid("that day does not exist in that month"));
        }
        Ok(Self { year, month, day })
    }

    /// Parses `YYYY-MM-DD`.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "`digits` reads exactly two, three or four decimal digits here, at most 9999, which the narrower types hold"
    )]
    pub fn parse(text: &str) -> Result<Self, InvalidDate> {
        let invalid = |reason| InvalidDate {
            text: text.to_owned(),
            reason,
        };
        let bytes = text.as_bytes();
        if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
            return Err(invalid("expected YYYY-MM-DD"));
        }
        let year = digits(&text[0..4]).ok_or_else(|| invalid("expected YYYY-MM-DD"))?;
        let month = digits(&text[5..7]).ok_or_else(|| invalid("expected YYYY-MM-DD"))?;
        let day = digits(&text[8..10]).ok_or_else(|| invalid("expected YYYY-MM-DD"))?;
        Self::new(year as u16, month as u8, day as u8).map_err(|e| invalid(e.reason))
    }

    /// Midnight of this date as a [`DateTime`].
    pub fn at(self, hour: u8, minute: u8, second: u8) -> Result<DateTime, InvalidDate> {
        DateTime::new(self, hour, minute, second)
    }
}

impl DateTime {
    /// A time of day on `date`.
    pub fn new(date: Date, hour: u8, minute: u8, second: u8) -> Result<Self, InvalidDate> {
        if hour > 23 || minute > 59 || second > 59 {
            return Err(InvalidDate {
                text: format!("{date}T{hour:02}:{minute:02}:{second:02}"),
                reason: "the time must be between 00:00:00 and 23:59:59",
            });
        }
        Ok(Self {
            date,
            hour,
            minute,
            second,
            millis: 0,
        })
    }

    /// The same instant with milliseconds (0..=999).
    pub fn with_millis(self, millis: u16) -> Result<Self, InvalidDate> {
        if millis > 999 {
            return Err(InvalidDate {
                text: format!("{self}"),
                reason: "milliseconds must be between 0 and 999",
            });
        }
        Ok(Self { millis, ..self })
    }

    /// Parses the ISO 8601 forms the platform returns in records, so that a record's
    /// `updatedAt` can be fed back into a filter: `YYYY-MM-DDTHH:MM[:SS[.fraction]]`, with a
    /// space instead of `T` accepted and a trailing `Z` or `+00:00` ignored. Fractions beyond
    /// milliseconds are truncated; other offsets are refused, since the platform's time zone
    /// handling is not documented and a silent shift would skip records.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "`digits` reads exactly two, three or four decimal digits here, at most 9999, which the narrower types hold"
    )]
    pub fn parse(text: &str) -> Result<Self, InvalidDate> {
        const FORM: &str = "expected YYYY-MM-DDTHH:MM[:SS[.fff]]";
        let invalid = |reason| InvalidDate {
            text: text.to_owned(),
            reason,
        };
        if text.len() < 16 || !text.is_char_boundary(10) {
            return Err(invalid(FORM));
        }
        let date = Date::parse(&text[..10]).map_err(|e| invalid(e.reason))?;
        let (sep, rest) = text[10..].split_at(1);
        if sep != "T" && sep != "t" && sep != " " {
            return Err(invalid(FORM));
        }
        let rest = rest
            .strip_suffix('Z')
            .or_else(|| rest.strip_suffix('z'))
            .or_else(|| rest.strip_suffix("+00:00"))
            .unwrap_or(rest);
        if rest.contains(['+', '-', 'Z', 'z']) {
            return Err(invalid(
                "only UTC offsets (Z or +00:00) are accepted; convert the time to UTC first",
            ));
        }
        let (clock, fraction) = match rest.split_once('.') {
            Some((clock, fraction)) => (clock, Some(fraction)),
            None => (rest, None),
        };
        let parts: Vec<&str> = clock.split(':').collect();
        let number = |s: &str| {
            if s.len() == 2 { digits(s) } else { None }
        };
        let (hour, minute, second) = match parts.as_slice() {
            [h, m] => (number(h), number(m), Some(0)),
            [h, m, s] => (number(h), number(m), number(s)),
            _ => return Err(invalid(FORM)),
        };
        let (Some(hour), Some(minute), Some(second)) = (hour, minute, second) else {
            return Err(invalid(FORM));
        };
        let millis = match fraction {
            None => 0,
            Some(f) if !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()) => {
                let first3: String = f.chars().chain("00".chars()).take(3).collect();
                digits(&first3).ok_or_else(|| invalid(FORM))? as u16
            }
            Some(_) => return Err(invalid(FORM)),
        };
        Self::new(date, hour as u8, minute as u8, second as u8)
            .and_then(|t| t.with_millis(millis))
            .map_err(|e| invalid(e.reason))
    }

    /// The date part.
    pub fn date(&self) -> Date {
        self.date
    }
}

fn digits(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn days_in_month(year: u16, month: u8) -> u8 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        _ => 31,
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl fmt::Display for DateTime {
    /// Colons in the time, as in the vendor's example (`2020-12-25T20:05:08.000`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}T{:02}:{:02}:{:02}.{:03}",
            self.date, self.hour, self.minute, self.second, self.millis
        )
    }
}

/// A value on the right of a comparison.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// Text: `'O''Brien'`.
    String(String),
    /// A whole number: `42`.
    Int(i64),
    /// A decimal number: `12.5`. Must be finite.
    Decimal(f64),
    /// `true` or `false`.
    Bool(bool),
    /// `datetime'2024-01-31'`.
    Date(Date),
    /// `datetime'2024-01-31T08:00:00.000'`.
    DateTime(DateTime),
    /// A bare GUID, as OData 4.01 (which the platform's `$filter` follows) writes it.
    Guid(Guid),
}

impl Literal {
    /// How the literal is called in messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::String(_) => "string",
            Self::Int(_) => "integer",
            Self::Decimal(_) => "decimal number",
            Self::Bool(_) => "boolean",
            Self::Date(_) => "date",
            Self::DateTime(_) => "date-time",
            Self::Guid(_) => "Guid",
        }
    }
}

impl fmt::Display for Literal {
    /// The `$filter` spelling: strings quoted with `'` doubled inside, numbers and booleans bare.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::String(s) => Quoted(s).fmt(f),
            Self::Int(n) => write!(f, "{n}"),
            Self::Decimal(n) => write!(f, "{n}"),
            Self::Bool(b) => write!(f, "{b}"),
            Self::Date(d) => write!(f, "datetime'{d}'"),
            Self::DateTime(t) => write!(f, "datetime'{t}'"),
            Self::Guid(g) => write!(f, "{g}"),
        }
    }
}

/// A string literal: single quotes, with each `'` inside doubled (OData's escape).
pub(crate) struct Quoted<'a>(pub(crate) &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("'")?;
        for (i, part) in self.0.split('\'').enumerate() {
            if i > 0 {
                f.write_str("''")?;
            }
            f.write_str(part)?;
        }
        f.write_str("'")
    }
}

macro_rules! literal_from {
    ($($ty:ty => |$v:ident| $e:expr),* $(,)?) => {
        $(impl From<$ty> for Literal {
            fn from($v: $ty) -> Self {
                $e
            }
        })*
    };
}

literal_from! {
    &str => |v| Literal::String(v.to_owned()),
    String => |v| Literal::String(v),
    &String => |v| Literal::String(v.clone()),
    i64 => |v| Literal::Int(v),
    i32 => |v| Literal::Int(i64::from(v)),
    u32 => |v| Literal::Int(i64::from(v)),
    f64 => |v| Literal::Decimal(v),
    bool => |v| Literal::Bool(v),
    Date => |v| Literal::Date(v),
    DateTime => |v| Literal::DateTime(v),
    Guid => |v| Literal::Guid(v),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_validate_the_calendar() {
        assert!(Date::new(2024, 2, 29).is_ok());
        assert!(Date::new(2023, 2, 29).is_err());
        assert!(Date::new(1900, 2, 29).is_err());
        assert!(Date::new(2000, 2, 29).is_ok());
        assert!(Date::new(2024, 4, 31).is_err());
        assert!(Date::new(2024, 13, 1).is_err());
        assert!(Date::parse("2024-1-01").is_err());
        assert_eq!(
            Date::parse("2024-01-31").map(|d| d.to_string()),
            Ok("2024-01-31".to_owned())
        );
    }

    #[test]
    fn date_times_parse_record_timestamps() {
        let ok = |s: &str| DateTime::parse(s).map(|t| t.to_string());
        assert_eq!(
            ok("2024-01-31T08:09:10"),
            Ok("2024-01-31T08:09:10.000".to_owned())
        );
        assert_eq!(
            ok("2024-01-31T08:09:10.1234567Z"),
            Ok("2024-01-31T08:09:10.123".to_owned())
        );
        assert_eq!(
            ok("2024-01-31 08:09"),
            Ok("2024-01-31T08:09:00.000".to_owned())
        );
        assert_eq!(
            ok("2024-01-31T08:09:10.5+00:00"),
            Ok("2024-01-31T08:09:10.500".to_owned())
        );
        assert!(ok("2024-01-31T08:09:10+02:00").is_err());
        assert!(ok("2024-01-31T24:00:00").is_err());
        assert!(ok("2024-01-31").is_err());
        assert!(ok("2024-01-31T8:09").is_err());
    }
}
