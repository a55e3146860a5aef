//! The `X-Api-Version` header value.

use std::fmt;

/// A value of the `X-Api-Version` header (spec part 9).
///
/// The default is `3.0`, the newest version the vendor lists (1, 2, 2.1, 2.2, 3.0). It is
/// pinned rather than `latest` so that a platform release cannot change response shapes under
/// a running integration; move to a newer number deliberately.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiVersion {
    header: String,
    /// Major number; `None` for `latest`, which is always at least 2.
    major: Option<u32>,
}

/// The version string was neither `latest` nor a number like `2` or `2.2`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid X-Api-Version `{0}`: use `latest` or a number such as 1, 2, 2.1, 2.2 or 3.0")]
pub struct InvalidApiVersion(pub String);

impl ApiVersion {
    /// Version 3.0, the default.
    pub fn v3() -> Self {
        Self {
            header: "3.0".to_owned(),
            major: Some(3),
        }
    }

    /// `latest`: whatever the platform currently serves.
    pub fn latest() -> Self {
        Self {
            header: "latest".to_owned(),
            major: None,
        }
    }

    /// Parses `latest` or `<major>[.<minor>]`.
    pub fn parse(text: &str) -> Result<Self, InvalidApiVersion> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("latest") {
            return Ok(Self::latest());
        }
        let invalid = || InvalidApiVersion(text.to_owned());
        let (major, minor) = match text.split_once('.') {
            Some((major, minor)) => (major, Some(minor)),
            None => (text, None),
        };
        let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(major) || minor.is_some_and(|m| !all_digits(m)) {
            return Err(invalid());
        }
        let major = major.parse::<u32>().map_err(|_| invalid())?;
        Ok(Self {
            header: text.to_owned(),
            major: Some(major),
        })
    }

    /// The header value as sent.
    pub fn as_str(&self) -> &str {
        &self.header
    }

    /// Whether paging endpoints answer with the envelope of spec 2.5 (version 2 or more).
    pub fn has_paging_envelope(&self) -> bool {
        self.major.is_none_or(|major| major >= 2)
    }
}

impl Default for ApiVersion {
    fn default() -> Self {
        Self::v3()
    }
}

impl fmt::Display for ApiVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.header)
    }
}

impl std::str::FromStr for ApiVersion {
    type Err = InvalidApiVersion;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_named_versions() {
        for (text, envelope) in [("1", false), ("2", true), ("2.2", true), ("3.0", true)] {
            let version = ApiVersion::parse(text).expect(text);
            assert_eq!(version.as_str(), text);
            assert_eq!(version.has_paging_envelope(), envelope, "{text}");
        }
        assert!(
            ApiVersion::parse("Latest")
                .expect("latest")
                .has_paging_envelope()
        );
        assert_eq!(ApiVersion::default().as_str(), "3.0");
    }

    #[test]
    fn rejects_garbage() {
        for text in ["", "v3", "3.", ".1", "3.0.1", "three"] {
            assert!(ApiVersion::parse(text).is_err(), "{text}");
        }
    }
}
