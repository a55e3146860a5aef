//! GUIDs, the id type of invoices, orders, products and other platform records.

use std::fmt;

/// A GUID in its canonical 8-4-4-4-12 hexadecimal form, stored lower-case.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Guid(String);

/// The text is not a GUID.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a GUID; expected 32 hexadecimal digits as 8-4-4-4-12, e.g. 3f2b1c4d-0000-4e5f-8a9b-0123456789ab"
)]
pub struct InvalidGuid(pub String);

impl Guid {
    /// Parses the canonical form; braces around it (`{…}`, as .NET prints) are accepted.
    pub fn parse(text: &str) -> Result<Self, InvalidGuid> {
        let trimmed = text.trim();
        let inner = trimmed
            .strip_prefix('{')
            .and_then(|t| t.strip_suffix('}'))
            .unwrap_or(trimmed);
        let groups: Vec<&str> = inner.split('-').collect();
        let lengths = [8, 4, 4, 4, 12];
        let valid = groups.len() == lengths.len()
            && groups
                .iter()
                .zip(lengths)
                .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()));
        if valid {
            Ok(Self(inner.to_ascii_lowercase()))
        } else {
            Err(InvalidGuid(text.to_owned()))
        }
    }

    /// The canonical text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Guid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::str::FromStr for Guid {
    type Err = InvalidGuid;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::Guid;

    #[test]
    fn canonical_and_braced_forms_parse() {
        let g = Guid::parse("{3F2B1C4D-0000-4E5F-8A9B-0123456789AB}").expect("braced");
        assert_eq!(g.as_str(), "3f2b1c4d-0000-4e5f-8a9b-0123456789ab");
        for bad in [
            "",
            "3f2b1c4d",
            "3f2b1c4d-0000-4e5f-8a9b-0123456789a",
            "zzzzzzzz-0000-4e5f-8a9b-0123456789ab",
        ] {
            assert!(Guid::parse(bad).is_err(), "{bad}");
        }
    }
}
