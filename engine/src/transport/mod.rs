//! How requests reach the external system: a trait, a real implementation over `reqwest` and a
//! recording one for dry-runs and tests. The engine builds every request the same way whatever
//! the transport, which is what makes a dry-run show exactly what a push would send.

mod recording;
mod reqwest_transport;

use std::fmt;
use std::sync::Arc;

use bytes::Bytes;
use futures::future::BoxFuture;
pub use reqwest::header::HeaderMap;
use syncdef_definitions::operation_ref::HttpMethod;
use url::Url;

pub use recording::{RecordingTransport, StepResponse};
pub use reqwest_transport::{ReqwestTransport, ReqwestTransportBuilder};

pub use syncdef_definitions::openapi::SampleResponse;

/// One HTTP request, built by the engine. Its `Debug` masks secrets like the audit trail does.
#[derive(Clone)]
pub struct HttpRequest {
    /// The push step it belongs to: `create`, `update`, `delete`, or an action's name.
    pub step: Arc<str>,
    /// The method.
    pub method: HttpMethod,
    /// The absolute URL, always on one of the definition's servers.
    pub url: Url,
    /// Headers in the order they are sent, secrets unmasked (transports must not log them).
    /// Shared with the audit trail's record of the request.
    pub headers: Arc<[(String, String)]>,
    /// The JSON body, serialized; shared with the audit trail and every attempt.
    pub body: Option<Bytes>,
    /// The operation's sample response, for transports that synthesise answers.
    pub sample: Option<Arc<SampleResponse>>,
    /// The idempotency key the request carries (already in its URL or headers), for a
    /// transport wrapper that must keep it before the request leaves (a sync worker's
    /// in-flight mark).
    pub idempotency_key: Option<Arc<str>>,
}

/// Headers as `Debug` shows them: secret values masked.
fn masked(headers: &[(String, String)]) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(k, v)| (k.clone(), crate::mask::header_value(k, v)))
        .collect()
}

impl fmt::Debug for HttpRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpRequest")
            .field("step", &self.step)
            .field("method", &self.method)
            .field("url", &crate::mask::url(&self.url))
            .field("headers", &masked(&self.headers))
            .field("body_len", &self.body.as_ref().map(Bytes::len))
            .finish_non_exhaustive()
    }
}

/// One HTTP response. Its `Debug` masks secret headers and shows the body's length only.
#[derive(Clone, Default)]
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// Headers as received: kept in the HTTP library's form, because most answers are read
    /// for two or three headers at most and turning every one into strings would cost each
    /// push more than reading them.
    pub headers: HeaderMap,
    /// The body bytes, as the HTTP library received them (not copied).
    pub body: Bytes,
    /// Whether the transport made this response up (dry-run synthesis) rather than receiving it.
    pub synthesized: bool,
}

impl fmt::Debug for HttpResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpResponse")
            .field("status", &self.status)
            .field("headers", &masked(&self.header_pairs()))
            .field("body_len", &self.body.len())
            .field("synthesized", &self.synthesized)
            .finish()
    }
}

impl HttpResponse {
    /// The first header named `name` (case-insensitive), if its value is UTF-8.
    #[must_use]
    pub fn header(&self, name: &str) -> Option<&str> {
        std::str::from_utf8(self.headers.get(name)?.as_bytes()).ok()
    }

    /// Every header as text, in the order received (names lower-case; a value that is not
    /// UTF-8 has its invalid bytes replaced).
    #[must_use]
    pub fn header_pairs(&self) -> Vec<(String, String)> {
        self.headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect()
    }

    /// Whether the status is 2xx.
    #[must_use]
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// Why a request got no response.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportError {
    /// The request never left: no connection, DNS failure, TLS failure. Safe to retry.
    NotSent(String),
    /// The request may have been received but no complete answer came (timeout, reset after
    /// sending). A create must not be re-sent blindly.
    NoAnswer(String),
    /// The request was refused by policy before sending: a URL off the definition's servers,
    /// a redirect to another host.
    Refused(String),
    /// A recording transport has no response for the step and cannot synthesise one.
    NoResponse(String),
}

impl fmt::Display for TransportError {
    /// The reason as it may be shown: a transport's message can quote what a server sent, so
    /// secrets are redacted and the text bounded.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |m: &String| syncdef_secrets::shown(m).into_owned();
        match self {
            TransportError::NotSent(m) => write!(f, "the request could not be sent: {}", shown(m)),
            TransportError::NoAnswer(m) => write!(f, "no answer to the request: {}", shown(m)),
            TransportError::Refused(m) => write!(f, "the request was refused: {}", shown(m)),
            TransportError::NoResponse(m) => write!(f, "no response to play back: {}", shown(m)),
        }
    }
}

impl std::error::Error for TransportError {}

/// Sends requests. Implementations must be cheap to share (`Arc<dyn Transport>`) and safe to
/// call from many tasks at once.
pub trait Transport: Send + Sync {
    /// Sends `request` and returns the full response.
    fn send<'a>(
        &'a self,
        request: &'a HttpRequest,
    ) -> BoxFuture<'a, Result<HttpResponse, TransportError>>;

    /// Whether this transport plays back answers instead of talking to a server (a dry-run).
    /// The engine never retries, throttles or waits on such a transport: a dry-run shows each
    /// request once, as the first attempt would send it.
    fn replays(&self) -> bool {
        false
    }
}
