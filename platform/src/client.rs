//! [`PlatformClient`]: one authorized HTTP client for the whole program.

use std::sync::Arc;
use std::time::Duration;

use reqwest::Method;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderName, HeaderValue};
use serde_json::Value;
use url::Url;

use crate::credentials::Credentials;
use crate::error::{PlatformError, truncate_body};
use crate::secret::Secret;
use crate::token::TokenProvider;
use crate::version::ApiVersion;

/// The header selecting the API version (spec part 9).
pub const API_VERSION_HEADER: &str = "X-Api-Version";

/// The media type of RFC 6902; the spec does not name one for PATCH.
pub const JSON_PATCH_CONTENT_TYPE: &str = "application/json-patch+json";

/// Client of the platform REST API. Cheap to clone: clones share the connection pool and
/// the token, so build one per platform and hand clones to tasks.
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use futures::TryStreamExt;
/// use syncdef_platform::{collections, Credentials, PlatformClient};
/// use syncdef_platform::query::{Direction, Filter, Query};
///
/// let client = PlatformClient::builder("https://bss.example.com", Credentials::load()?).build()?;
/// let query = Query::new(&collections::ACCOUNTS)
///     .filter(Filter::eq("resellingEnabled", true))
///     .order_by("updatedAt", Direction::Asc);
/// let mut accounts = client.list(&query)?;
/// while let Some(account) = accounts.try_next().await? {
///     println!("{}", account["name"]);
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct PlatformClient {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    http: reqwest::Client,
    base: Url,
    version: ApiVersion,
    version_header: HeaderValue,
    patch_content_type: HeaderValue,
    max_pages: u32,
    tokens: TokenProvider,
}

/// Settings of a [`PlatformClient`]; every one has a default.
#[derive(Debug)]
pub struct PlatformClientBuilder {
    base_url: String,
    credentials: Credentials,
    api_version: ApiVersion,
    token_skew: Duration,
    timeout: Duration,
    connect_timeout: Duration,
    max_pages: u32,
    patch_content_type: String,
    allow_insecure_http: bool,
}

impl PlatformClientBuilder {
    /// `X-Api-Version` to send; default `3.0` (see [`ApiVersion`]).
    #[must_use]
    pub fn api_version(mut self, version: ApiVersion) -> Self {
        self.api_version = version;
        self
    }

    /// How long before `expires_in` a token is replaced; default 60 s, capped at half the
    /// token's lifetime.
    #[must_use]
    pub fn token_skew(mut self, skew: Duration) -> Self {
        self.token_skew = skew;
        self
    }

    /// Whole-request timeout; default 30 s.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Connection timeout; default 10 s.
    #[must_use]
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Most pages read from one collection before giving up; default 10 000. A guard against
    /// a platform whose links never end.
    #[must_use]
    pub fn max_pages(mut self, pages: u32) -> Self {
        self.max_pages = pages;
        self
    }

    /// Content type of PATCH bodies; default `application/json-patch+json`.
    #[must_use]
    pub fn patch_content_type(mut self, content_type: impl Into<String>) -> Self {
        self.patch_content_type = content_type.into();
        self
    }

    /// Allows `http://` to hosts other than loopback. Tokens and passwords then cross the
    /// network in clear text; meant for test rigs only.
    #[must_use]
    pub fn allow_insecure_http(mut self, allow: bool) -> Self {
        self.allow_insecure_http = allow;
        self
    }

    /// Checks the settings and builds the client. Makes no request.
    pub fn build(self) -> Result<PlatformClient, PlatformError> {
        let base = parse_base_url(&self.base_url, self.allow_insecure_http)?;
        if self.max_pages == 0 {
            return Err(PlatformError::Config(
                "max_pages must be at least 1".to_owned(),
            ));
        }
        let version_header = HeaderValue::from_str(self.api_version.as_str()).map_err(|_| {
            PlatformError::Config("the API version is not a valid header value".to_owned())
        })?;
        let patch_content_type = HeaderValue::from_str(&self.patch_content_type).map_err(|_| {
            PlatformError::Config(format!(
                "`{}` is not a valid content type",
                self.patch_content_type
            ))
        })?;
        let http = reqwest::Client::builder()
            .timeout(self.timeout)
            .connect_timeout(self.connect_timeout)
            .user_agent(concat!("syncdef-platform/", env!("CARGO_PKG_VERSION")))
            // A redirect turns the token POST into a GET and hides a wrong base URL; report
            // it instead, with its target, so the user fixes the configuration.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| PlatformError::Config(format!("cannot set up HTTP: {e}")))?;
        let token_url = endpoint(&base, "/oauth/token");
        let tokens = TokenProvider::new(http.clone(), token_url, self.credentials, self.token_skew);
        Ok(PlatformClient {
            inner: Arc::new(Inner {
                http,
                base,
                version: self.api_version,
                version_header,
                patch_content_type,
                max_pages: self.max_pages,
                tokens,
            }),
        })
    }
}

/// Refuses URLs that would leak credentials or could not be joined with paths.
fn parse_base_url(text: &str, allow_insecure_http: bool) -> Result<Url, PlatformError> {
    let config = |reason: String| PlatformError::Config(reason);
    let url = Url::parse(text.trim()).map_err(|e| {
        config(format!(
            "`{text}` is not a URL ({e}); give the platform address, e.g. https://bss.example.com"
        ))
    })?;
    match url.scheme() {
        "https" => {}
        "http" if allow_insecure_http || is_loopback(&url) => {}
        "http" => {
            return Err(config(format!(
                "`{text}` uses plain http: tokens and passwords would travel in clear text; use https"
            )));
        }
        other => {
            return Err(config(format!(
                "`{text}` has the scheme `{other}`; use https"
            )));
        }
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(config(
            "the platform URL must not contain a user or password; use the credential variables"
                .to_owned(),
        ));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(config(format!(
            "`{text}` has a query or fragment; give only the scheme, host and optional path prefix"
        )));
    }
    Ok(url)
}

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(domain)) => domain.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// `base` with `path` (already escaped, starting with `/`) appended to its own path.
fn endpoint(base: &Url, path: &str) -> Url {
    let mut url = base.clone();
    let prefix = base.path().trim_end_matches('/');
    url.set_path(&format!("{prefix}{path}"));
    url
}

/// A request body.
pub(crate) enum Body {
    None,
    /// A JSON record (a create).
    Json(Vec<u8>),
    JsonPatch(Vec<u8>),
}

impl PlatformClient {
    /// What the client met that a person should know, each once (a token endpoint that says
    /// its tokens expire at once): a sync run reports them.
    #[must_use]
    pub fn warnings(&self) -> Vec<String> {
        self.inner.tokens.warnings()
    }
}

impl PlatformClient {
    /// Starts configuring a client for the platform at `base_url` (scheme, host and optional
    /// path prefix; `/api/...` and `/oauth/token` are appended).
    pub fn builder(base_url: impl Into<String>, credentials: Credentials) -> PlatformClientBuilder {
        PlatformClientBuilder {
            base_url: base_url.into(),
            credentials,
            api_version: ApiVersion::default(),
            token_skew: Duration::from_secs(60),
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            max_pages: 10_000,
            patch_content_type: JSON_PATCH_CONTENT_TYPE.to_owned(),
            allow_insecure_http: false,
        }
    }

    /// The API version sent.
    pub fn api_version(&self) -> &ApiVersion {
        &self.inner.version
    }

    /// The base URL.
    pub fn base_url(&self) -> &Url {
        &self.inner.base
    }

    pub(crate) fn max_pages(&self) -> u32 {
        self.inner.max_pages
    }

    /// The URL of an escaped path, with an optional escaped query string.
    pub(crate) fn url(&self, path: &str, query: Option<&str>) -> Url {
        let mut url = endpoint(&self.inner.base, path);
        url.set_query(query.filter(|q| !q.is_empty()));
        url
    }

    /// Sends a request with the token and the standard headers. A 401 gets one retry with a
    /// fresh token, since tokens can be revoked before `expires_in`; a second 401 is an error.
    /// Returns the body of a 2xx answer.
    pub(crate) async fn execute(
        &self,
        method: Method,
        url: &Url,
        body: &Body,
    ) -> Result<String, PlatformError> {
        let token = self.inner.tokens.token().await?;
        let mut response = self.send_once(&method, url, body, &token).await?;
        if response.status() == reqwest::StatusCode::UNAUTHORIZED {
            tracing::debug!(%method, %url, "401: refreshing the token and retrying once");
            self.inner.tokens.invalidate(&token).await;
            let token = self.inner.tokens.token().await?;
            response = self.send_once(&method, url, body, &token).await?;
        }
        let status = response.status();
        tracing::debug!(%method, %url, status = status.as_u16(), "platform answered");
        let retry_after = retry_after(response.headers());
        let location = response
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let text = response
            .text()
            .await
            .map_err(|e| PlatformError::from_reqwest(&method, url, e))?;
        if !status.is_success() {
            return Err(PlatformError::Status {
                method,
                url: url.to_string(),
                status: status.as_u16(),
                body: match location {
                    Some(location) => format!("(Location: {location}) {}", truncate_body(&text)),
                    None => truncate_body(&text),
                },
                retry_after,
            });
        }
        Ok(text)
    }

    async fn send_once(
        &self,
        method: &Method,
        url: &Url,
        body: &Body,
        token: &Secret,
    ) -> Result<reqwest::Response, PlatformError> {
        let mut request = self
            .inner
            .http
            .request(method.clone(), url.clone())
            .bearer_auth(token.expose())
            .header(ACCEPT, HeaderValue::from_static("application/json"))
            .header(
                HeaderName::from_static("x-api-version"),
                self.inner.version_header.clone(),
            );
        match body {
            Body::None => {}
            Body::Json(bytes) => {
                request = request
                    .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
                    .body(bytes.clone());
            }
            Body::JsonPatch(bytes) => {
                request = request
                    .header(CONTENT_TYPE, self.inner.patch_content_type.clone())
                    .body(bytes.clone());
            }
        }
        request
            .send()
            .await
            .map_err(|e| PlatformError::from_reqwest(method, url, e))
    }

    /// GET returning the JSON body; an empty body reads as `null`.
    pub(crate) async fn get_json(&self, url: &Url) -> Result<Value, PlatformError> {
        let text = self.execute(Method::GET, url, &Body::None).await?;
        parse_json(&Method::GET, url, &text)
    }
}

/// `Retry-After` in seconds (the HTTP-date form is rare on APIs and is ignored).
fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse::<u64>()
        .ok()
        .map(Duration::from_secs)
}

/// Parses a 2xx body; empty means `null` (some endpoints answer 200 with nothing for "none").
pub(crate) fn parse_json(method: &Method, url: &Url, text: &str) -> Result<Value, PlatformError> {
    if text.trim().is_empty() {
        return Ok(Value::Null);
    }
    serde_json::from_str(text).map_err(|e| PlatformError::Decode {
        method: method.clone(),
        url: url.to_string(),
        reason: format!("not JSON ({e})"),
        body: truncate_body(text),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls_are_checked() {
        assert!(parse_base_url("https://bss.example.com", false).is_ok());
        assert!(parse_base_url("http://127.0.0.1:8080", false).is_ok());
        assert!(parse_base_url("http://localhost", false).is_ok());
        assert!(parse_base_url("http://bss.example.com", false).is_err());
        assert!(parse_base_url("http://bss.example.com", true).is_ok());
        assert!(parse_base_url("https://u:p@bss.example.com", false).is_err());
        assert!(parse_base_url("https://bss.example.com/?x=1", false).is_err());
        assert!(parse_base_url("ftp://bss.example.com", false).is_err());
        assert!(parse_base_url("bss.example.com", false).is_err());
    }

    #[test]
    fn paths_keep_the_base_prefix() {
        let base = Url::parse("https://h.example/bss/").expect("url");
        assert_eq!(
            endpoint(&base, "/api/accounts").as_str(),
            "https://h.example/bss/api/accounts"
        );
        let base = Url::parse("https://h.example").expect("url");
        assert_eq!(
            endpoint(&base, "/oauth/token").as_str(),
            "https://h.example/oauth/token"
        );
    }
}
