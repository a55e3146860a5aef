//! The real transport: `reqwest` with rustls, one connection pool for every push.

use std::time::Duration;

use futures::future::BoxFuture;
use reqwest::redirect;
use syncdef_definitions::operation_ref::HttpMethod;

use super::{HttpRequest, HttpResponse, Transport, TransportError};

/// Sends requests with `reqwest` (rustls, HTTP/1.1 and HTTP/2, keep-alive pooling).
///
/// Clone-free sharing: put it in an `Arc` once and give it to every engine; the pool is
/// shared. Redirects are followed only within the same origin (scheme, host, port), so neither
/// a template nor a response can move a push, and its bearer token, to another host.
#[derive(Clone, Debug)]
pub struct ReqwestTransport {
    client: reqwest::Client,
}

/// Settings of a [`ReqwestTransport`].
#[derive(Clone, Debug)]
pub struct ReqwestTransportBuilder {
    connect_timeout: Duration,
    timeout: Duration,
    pool_idle_timeout: Duration,
    max_redirects: usize,
}

impl Default for ReqwestTransportBuilder {
    fn default() -> Self {
        ReqwestTransportBuilder {
            connect_timeout: Duration::from_secs(10),
            // Business Central gives up on a request after 10 minutes; a push that takes
            // longer than a minute is better reported as an unknown outcome than waited for.
            timeout: Duration::from_secs(60),
            pool_idle_timeout: Duration::from_secs(90),
            max_redirects: 5,
        }
    }
}

impl ReqwestTransportBuilder {
    /// Time allowed to open a connection (default 10 s). When it is not shorter than the
    /// request [`timeout`](Self::timeout), 90 % of that is used instead (see [`build`](Self::build)).
    #[must_use]
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Time allowed for a whole request and its response (default 60 s).
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Same-origin redirects followed at most (default 5; 0 follows none).
    #[must_use]
    pub fn max_redirects(mut self, n: usize) -> Self {
        self.max_redirects = n;
        self
    }

    /// Builds the transport.
    ///
    /// A connection that never opened means the request was never sent, which makes it safe to
    /// retry, even a create. reqwest reports that only when the *connect* timeout fires: if the
    /// request timeout ends first, the error does not say whether the connection was open, and
    /// the engine must assume the request may have been received. So the connect timeout
    /// always ends before the request timeout (at 90 % of it when set longer).
    ///
    /// # Errors
    /// When the TLS backend cannot be initialised.
    pub fn build(self) -> Result<ReqwestTransport, TransportError> {
        let max = self.max_redirects;
        let policy = redirect::Policy::custom(move |attempt| {
            let same_origin = attempt
                .previous()
                .first()
                .is_some_and(|first| first.origin() == attempt.url().origin());
            if !same_origin || attempt.previous().len() > max {
                attempt.stop()
            } else {
                attempt.follow()
            }
        });
        let client = reqwest::Client::builder()
            .use_rustls_tls()
            .https_only(false)
            .connect_timeout(self.connect_timeout.min(self.timeout.mul_f64(0.9)))
            .timeout(self.timeout)
            .pool_idle_timeout(self.pool_idle_timeout)
            .redirect(policy)
            .user_agent(concat!("syncdef/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| TransportError::NotSent(format!("cannot build the HTTP client: {e}")))?;
        Ok(ReqwestTransport { client })
    }
}

impl ReqwestTransport {
    /// A transport with the default settings.
    ///
    /// # Errors
    /// When the TLS backend cannot be initialised.
    pub fn new() -> Result<ReqwestTransport, TransportError> {
        ReqwestTransport::builder().build()
    }

    /// Settings to adjust before building.
    #[must_use]
    pub fn builder() -> ReqwestTransportBuilder {
        ReqwestTransportBuilder::default()
    }

    async fn execute(&self, request: &HttpRequest) -> Result<HttpResponse, TransportError> {
        let mut builder = self
            .client
            .request(method(request.method), request.url.clone());
        for (name, value) in request.headers.iter() {
            builder = builder.header(name, value);
        }
        if let Some(body) = &request.body {
            builder = builder.body(body.clone());
        }
        let mut response = builder.send().await.map_err(classify)?;
        let status = response.status().as_u16();
        let headers = std::mem::take(response.headers_mut());
        let body = response
            .bytes()
            .await
            .map_err(|e| TransportError::NoAnswer(format!("the response body broke off: {e}")))?;
        Ok(HttpResponse {
            status,
            headers,
            body,
            synthesized: false,
        })
    }
}

impl Transport for ReqwestTransport {
    fn send<'a>(
        &'a self,
        request: &'a HttpRequest,
    ) -> BoxFuture<'a, Result<HttpResponse, TransportError>> {
        Box::pin(self.execute(request))
    }
}

fn method(m: HttpMethod) -> reqwest::Method {
    match m {
        HttpMethod::Get => reqwest::Method::GET,
        HttpMethod::Put => reqwest::Method::PUT,
        HttpMethod::Post => reqwest::Method::POST,
        HttpMethod::Delete => reqwest::Method::DELETE,
        HttpMethod::Options => reqwest::Method::OPTIONS,
        HttpMethod::Head => reqwest::Method::HEAD,
        HttpMethod::Patch => reqwest::Method::PATCH,
        HttpMethod::Trace => reqwest::Method::TRACE,
    }
}

/// A connect error means nothing was sent; anything later may have reached the server.
/// reqwest's errors carry the URL only, never headers, so their text holds no token.
fn classify(error: reqwest::Error) -> TransportError {
    let error = error.without_url();
    // Connect is tested first: a connect timeout is also a timeout, but nothing was sent.
    if error.is_connect() && error.is_timeout() {
        TransportError::NotSent(format!(
            "the connection did not open within the connect timeout ({})",
            causes(&error)
        ))
    } else if error.is_connect() || error.is_builder() {
        TransportError::NotSent(causes(&error))
    } else if error.is_redirect() {
        TransportError::Refused(format!("redirect not followed: {}", causes(&error)))
    } else {
        TransportError::NoAnswer(causes(&error))
    }
}

/// The error and its causes: reqwest's own text ("error sending request") says nothing of why.
fn causes(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        let said = cause.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        source = cause.source();
    }
    text
}
