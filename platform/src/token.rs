//! The access token: fetched with the password grant, shared, refreshed before expiry.

use std::time::{Duration, Instant};

use reqwest::header::{ACCEPT, HeaderValue};
use serde_json::Value;
use tokio::sync::Mutex;
use url::Url;

use crate::credentials::Credentials;
use crate::error::{PlatformError, truncate_body};
use crate::secret::Secret;

/// The shortest time a token with a lifetime is used before it is replaced.
const MIN_REUSE: Duration = Duration::from_secs(1);

/// A token and when to stop using it.
#[derive(Debug)]
struct CachedToken {
    value: Secret,
    /// `None` when the platform gave no lifetime: the token is used until a 401.
    refresh_at: Option<Instant>,
}

impl CachedToken {
    fn is_fresh(&self, now: Instant) -> bool {
        self.refresh_at.is_none_or(|at| now < at)
    }
}

/// Hands out the current token, fetching a new one when needed.
///
/// The lock is held while fetching, so callers that arrive during a refresh wait for it
/// and reuse its result instead of each asking the token endpoint (no thundering herd).
#[derive(Debug)]
pub(crate) struct TokenProvider {
    http: reqwest::Client,
    url: Url,
    credentials: Credentials,
    skew: Duration,
    current: Mutex<Option<CachedToken>>,
    warnings: std::sync::Mutex<Vec<String>>,
    /// The HTTP Basic encodings of the client key and secret, held so that they are masked by
    /// value while the client lives (a token endpoint may echo its `Authorization` header).
    _basic: Vec<Secret>,
}

impl TokenProvider {
    pub(crate) fn new(
        http: reqwest::Client,
        url: Url,
        credentials: Credentials,
        skew: Duration,
    ) -> Self {
        Self {
            _basic: syncdef_secrets::basic_auth(
                &credentials.client_key,
                &credentials.client_secret,
            ),
            http,
            url,
            credentials,
            skew,
            current: Mutex::new(None),
            warnings: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// A token valid for at least the skew (or until the platform says otherwise).
    pub(crate) async fn token(&self) -> Result<Secret, PlatformError> {
        let mut current = self.current.lock().await;
        if let Some(token) = current.as_ref().filter(|t| t.is_fresh(Instant::now())) {
            return Ok(token.value.clone());
        }
        let fresh = self.fetch().await?;
        let value = fresh.value.clone();
        *current = Some(fresh);
        Ok(value)
    }

    /// What the token endpoint did that a person should know, each once.
    pub(crate) fn warnings(&self) -> Vec<String> {
        self.warnings.lock().map(|w| w.clone()).unwrap_or_default()
    }

    fn warn(&self, warning: String) {
        tracing::warn!("{warning}");
        if let Ok(mut warnings) = self.warnings.lock()
            && !warnings.contains(&warning)
        {
            warnings.push(warning);
        }
    }

    /// Forgets `rejected` after a 401, unless another caller already replaced it: then
    /// the replacement is kept and no second refresh happens.
    pub(crate) async fn invalidate(&self, rejected: &Secret) {
        let mut current = self.current.lock().await;
        if current.as_ref().is_some_and(|t| &t.value == rejected) {
            *current = None;
        }
    }

    async fn fetch(&self) -> Result<CachedToken, PlatformError> {
        tracing::debug!(url = %self.url, "requesting a platform access token");
        let requested_at = Instant::now();
        let method = reqwest::Method::POST;
        // Client key and secret go only in HTTP Basic (spec 5.3); the form carries the user.
        let response = self
            .http
            .post(self.url.clone())
            .basic_auth(
                &self.credentials.client_key,
                Some(self.credentials.client_secret.expose()),
            )
            .header(ACCEPT, HeaderValue::from_static("application/json"))
            .form(&[
                ("grant_type", "password"),
                ("username", self.credentials.username.as_str()),
                ("password", self.credentials.password.expose()),
            ])
            .send()
            .await
            .map_err(|e| PlatformError::from_reqwest(&method, &self.url, e))?;
        let status = response.status();
        let body = response
            .text()
            .await
            .map_err(|e| PlatformError::from_reqwest(&method, &self.url, e))?;
        if !status.is_success() {
            return Err(PlatformError::TokenRefused {
                url: self.url.to_string(),
                status: status.as_u16(),
                body: truncate_body(&body),
            });
        }
        let token = parse_token(&body).map_err(|reason| PlatformError::TokenResponse {
            url: self.url.to_string(),
            reason: reason.to_owned(),
        })?;
        // A lifetime of 0 says nothing usable (a token that expired before it arrived): asked
        // for again before every call, the endpoint would get a request per call. Such a token
        // is used until a 401, like one without a lifetime, and the oddity is reported.
        let lifetime = token.lifetime.filter(|l| !l.is_zero());
        if token.lifetime.is_some_and(|l| l.is_zero()) {
            self.warn(format!(
                "the platform's token endpoint ({}) answered `expires_in: 0`: each token is used until the platform refuses it (401), then replaced",
                self.url
            ));
        }
        let refresh_at = lifetime.map(|lifetime| {
            // Half the lifetime at most, so a short-lived token is still reused at all; and
            // never less than a floor, so a token of a second is not asked for before each call.
            let margin = self.skew.min(lifetime / 2);
            requested_at + lifetime.saturating_sub(margin).max(MIN_REUSE)
        });
        if token.lifetime.is_none() {
            tracing::warn!("the token response has no expires_in; the token is used until a 401");
        }
        Ok(CachedToken {
            value: token.value,
            refresh_at,
        })
    }
}

struct ParsedToken {
    value: Secret,
    lifetime: Option<Duration>,
}

/// Reads `access_token` and `expires_in` by hand: serde's messages would quote the values.
fn parse_token(body: &str) -> Result<ParsedToken, &'static str> {
    let json: Value = serde_json::from_str(body).map_err(|_| "the body is not JSON")?;
    let access_token = match json.get("access_token") {
        Some(Value::String(s)) if !s.is_empty() => Secret::new(s.clone()),
        Some(_) => return Err("`access_token` is not a non-empty string"),
        None => return Err("`access_token` is missing"),
    };
    if let Some(kind) = json.get("token_type").and_then(Value::as_str)
        && !kind.eq_ignore_ascii_case("bearer")
    {
        return Err("`token_type` is not `bearer`");
    }
    let lifetime = match json.get("expires_in") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => Some(
            n.as_u64()
                .ok_or("`expires_in` is not a whole number of seconds")?,
        ),
        Some(Value::String(s)) => Some(
            s.trim()
                .parse::<u64>()
                .map_err(|_| "`expires_in` is not a whole number of seconds")?,
        ),
        Some(_) => return Err("`expires_in` is not a whole number of seconds"),
    };
    Ok(ParsedToken {
        value: access_token,
        lifetime: lifetime.map(Duration::from_secs),
    })
}

#[cfg(test)]
mod tests {
    use super::parse_token;

    #[test]
    fn token_bodies_are_read_leniently_but_safely() {
        let token =
            parse_token(r#"{"access_token":"abc","token_type":"bearer","expires_in":"60"}"#)
                .expect("valid");
        assert_eq!(token.value.expose(), "abc");
        assert_eq!(token.lifetime.map(|d| d.as_secs()), Some(60));
        assert!(parse_token(r#"{"token_type":"bearer"}"#).is_err());
        assert!(parse_token(r#"{"access_token":"abc","token_type":"mac"}"#).is_err());
        assert!(parse_token(r#"{"access_token":"abc","expires_in":-5}"#).is_err());
        assert!(parse_token("<html>").is_err());
    }
}
