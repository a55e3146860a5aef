//! Everything that can go wrong talking to the platform, classified for retry decisions.

use reqwest::Method;

use crate::ids::IdError;
use crate::patch::UnsupportedPatch;
use crate::query::QueryError;

/// Longest body kept in an error, in bytes; platform error pages can be large HTML.
pub(crate) const MAX_ERROR_BODY: usize = 2048;

/// An error of the platform client. Messages name the request (method and URL, which never
/// carry credentials) and say what to check.
#[derive(Debug, thiserror::Error)]
pub enum PlatformError {
    /// The platform answered with a non-2xx status.
    #[error("{method} {url} failed with HTTP {status}: {body}{}", status_advice(*.status))]
    Status {
        /// Request method.
        method: Method,
        /// Request URL.
        url: String,
        /// Status code.
        status: u16,
        /// Response body, truncated to 2 KiB.
        body: String,
        /// The `Retry-After` header in seconds, if the platform sent one (429, 503).
        retry_after: Option<std::time::Duration>,
    },
    /// No answer within the configured timeout.
    #[error(
        "{method} {url} timed out; the platform is slow or unreachable: retry later or raise the timeout"
    )]
    Timeout {
        /// Request method.
        method: Method,
        /// Request URL.
        url: String,
    },
    /// The connection could not be made (DNS, refused, TLS).
    #[error("cannot connect for {method} {url}: {source}; check the platform URL and the network")]
    Connect {
        /// Request method.
        method: Method,
        /// Request URL.
        url: String,
        /// Underlying error.
        source: reqwest::Error,
    },
    /// The connection broke while sending or receiving.
    #[error("{method} {url} failed in transit: {source}")]
    Transport {
        /// Request method.
        method: Method,
        /// Request URL.
        url: String,
        /// Underlying error.
        source: reqwest::Error,
    },
    /// The token endpoint refused the credentials or failed.
    #[error(
        "the token endpoint {url} answered HTTP {status}: {body}; check the client key and secret \
         (HTTP Basic) and the application user's name and password"
    )]
    TokenRefused {
        /// Token URL.
        url: String,
        /// Status code.
        status: u16,
        /// Response body, truncated, with any credential masked.
        body: String,
    },
    /// The token endpoint answered 2xx with something that is not a usable token.
    #[error("the token endpoint {url} answered without a usable token: {reason}")]
    TokenResponse {
        /// Token URL.
        url: String,
        /// What is missing; never the token itself.
        reason: String,
    },
    /// A 2xx answer whose body is not the JSON expected.
    #[error("{method} {url} answered with unexpected content: {reason}; body: {body}")]
    Decode {
        /// Request method.
        method: Method,
        /// Request URL.
        url: String,
        /// What was expected.
        reason: String,
        /// Response body, truncated.
        body: String,
    },
    /// Following the pages of a collection stopped before its end.
    #[error("paging {url} stopped: {reason}")]
    Paging {
        /// URL of the page that led nowhere.
        url: String,
        /// Why.
        reason: String,
    },
    /// A record lacked a usable id.
    #[error(transparent)]
    Id(#[from] IdError),
    /// A query refused before sending.
    #[error(transparent)]
    Query(#[from] QueryError),
    /// A JSON Patch with operations the platform does not take.
    #[error(transparent)]
    Patch(#[from] UnsupportedPatch),
    /// The call cannot be made as asked (for example a single-record read on a collection
    /// that has no such route).
    #[error("{0}")]
    Usage(String),
    /// The client configuration is unusable.
    #[error("invalid platform client configuration: {0}")]
    Config(String),
}

fn status_advice(status: u16) -> &'static str {
    match status {
        300..=399 => " (the platform redirects; set the base URL to the address in Location)",
        400 => " (the platform rejected the request; check the filter, ids and body)",
        401 => {
            " (still unauthorized after a fresh token; check that the application user may use the API)"
        }
        403 => {
            " (forbidden; the platform also answers 403 when rate limiting: check permissions, or slow down)"
        }
        404 => " (not found; check the id and the path)",
        429 => " (rate limited; slow down and retry later)",
        500..=599 => " (platform-side failure; retry later)",
        _ => "",
    }
}

impl PlatformError {
    /// Whether sending the same request again later may succeed: timeouts, connection
    /// failures, 408, 429 and 5xx (except 501). Client errors (4xx) and bad content are not.
    /// A 403 is not retryable although the platform also uses it for rate limits: retrying a
    /// permission error forever is worse than surfacing it.
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Timeout { .. } | Self::Connect { .. } | Self::Transport { .. } => true,
            Self::Status { status, .. } | Self::TokenRefused { status, .. } => {
                matches!(status, 408 | 429 | 500 | 502 | 503 | 504)
            }
            _ => false,
        }
    }

    /// The HTTP status of a non-2xx answer.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Status { status, .. } | Self::TokenRefused { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// How long the platform asked to wait before retrying (`Retry-After`), if it said.
    pub fn retry_after(&self) -> Option<std::time::Duration> {
        match self {
            Self::Status { retry_after, .. } => *retry_after,
            _ => None,
        }
    }

    /// Whether the platform answered 404.
    pub fn is_not_found(&self) -> bool {
        self.status() == Some(404) && matches!(self, Self::Status { .. })
    }

    pub(crate) fn from_reqwest(method: &Method, url: &url::Url, source: reqwest::Error) -> Self {
        let (method, url) = (method.clone(), url.to_string());
        if source.is_timeout() {
            Self::Timeout { method, url }
        } else if source.is_connect() {
            Self::Connect {
                method,
                url,
                source: source.without_url(),
            }
        } else {
            Self::Transport {
                method,
                url,
                source: source.without_url(),
            }
        }
    }
}

/// A body as an error shows it: every secret the process holds redacted (the platform may
/// echo a credential), then cut to [`MAX_ERROR_BODY`] bytes on a character boundary with a
/// note of its whole size.
pub(crate) fn truncate_body(body: &str) -> String {
    syncdef_secrets::shown_within(body.trim(), MAX_ERROR_BODY).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_redacted_and_cut() {
        let _held = syncdef_secrets::Secret::new("platform-pw-8c4d");
        assert_eq!(
            truncate_body(" bad password platform-pw-8c4d\n"),
            "bad password ***"
        );
        let long = "z".repeat(MAX_ERROR_BODY * 3);
        let cut = truncate_body(&long);
        assert!(cut.len() <= MAX_ERROR_BODY, "{}", cut.len());
        assert!(cut.starts_with(&"z".repeat(1900)));
        assert!(cut.ends_with("; 6144 bytes in all]"), "{cut}");
    }
}
