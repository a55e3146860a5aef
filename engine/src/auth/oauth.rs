//! OAuth2 access tokens with refresh: before expiry, and once after a 401.

use std::sync::Arc;

use futures::future::BoxFuture;
use oauth2::basic::{BasicClient, BasicErrorResponseType};
use oauth2::{
    ClientId, ClientSecret, RefreshToken, RequestTokenError, StandardErrorResponse, TokenResponse,
    TokenUrl,
};
use tokio::sync::Mutex;

use super::store::now_secs;
use super::{AuthError, ClientCredentials, OAuthSettings, Secret, StoredTokens, TokenProvider};

/// Refresh this long before the access token expires, so that a request never leaves with a
/// token that dies on the way.
const EXPIRY_MARGIN_SECS: u64 = 60;

/// Access tokens from a [`super::TokenStore`], refreshed with the definition's token URL.
///
/// One refresh at a time: concurrent pushes that see the same expired or rejected token wait
/// for a single refresh and share its result. A rotated refresh token is saved to the store
/// before the new access token is handed out, so a crash cannot lose it.
pub struct OAuth2Provider {
    settings: OAuthSettings,
    credentials: ClientCredentials,
    store: Arc<dyn super::TokenStore>,
    http: oauth2::reqwest::Client,
    current: Mutex<Option<StoredTokens>>,
    /// The client's Basic credentials, held so that they are masked by value while the
    /// provider lives (a token endpoint may echo its `Authorization` header).
    _basic: Vec<Secret>,
}

impl std::fmt::Debug for OAuth2Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuth2Provider")
            .field("token_url", &self.settings.token_url)
            .field("client_id", &self.credentials.id)
            .finish_non_exhaustive()
    }
}

impl OAuth2Provider {
    /// A provider refreshing at `settings`' token URL with `credentials`, keeping tokens in
    /// `store`.
    ///
    /// # Errors
    /// When the HTTP client cannot be built, or a URL of `settings` is plain http to a host
    /// other than loopback.
    pub fn new(
        settings: OAuthSettings,
        credentials: ClientCredentials,
        store: Arc<dyn super::TokenStore>,
    ) -> Result<Self, AuthError> {
        settings.check_secure()?;
        Ok(OAuth2Provider {
            _basic: credentials.basic_auth(),
            settings,
            credentials,
            store,
            http: http_client()?,
            current: Mutex::new(None),
        })
    }

    async fn refresh_locked(
        &self,
        current: &mut Option<StoredTokens>,
    ) -> Result<Option<Secret>, AuthError> {
        let Some(old) = current.as_ref() else {
            return Ok(None);
        };
        let Some(refresh) = &old.refresh_token else {
            return Ok(None);
        };
        let url = self
            .settings
            .refresh_url
            .as_deref()
            .unwrap_or(&self.settings.token_url);
        let mut client = BasicClient::new(ClientId::new(self.credentials.id.clone()))
            .set_token_uri(
                TokenUrl::new(url.to_owned()).map_err(|e| {
                    AuthError::new(format!("the token URL `{url}` is invalid: {e}"))
                })?,
            );
        if let Some(secret) = &self.credentials.secret {
            client = client.set_client_secret(ClientSecret::new(secret.expose().to_owned()));
        }
        let response = client
            .exchange_refresh_token(&RefreshToken::new(refresh.expose().to_owned()))
            .request_async(&self.http)
            .await
            .map_err(|e| token_error(e, Grant::RefreshToken))?;
        let fresh = StoredTokens {
            access_token: Secret::new(response.access_token().secret().clone()),
            // A server that does not rotate keeps the old refresh token valid.
            refresh_token: response
                .refresh_token()
                .map(|r| Secret::new(r.secret().clone()))
                .or_else(|| old.refresh_token.clone()),
            expires_at: response
                .expires_in()
                .map(|d| now_secs().saturating_add(d.as_secs())),
        };
        // Persist first: if this fails, the new refresh token may already have replaced the old
        // one at the server, and using the access token would hide that it is about to be lost.
        self.store.save(&fresh).await?;
        let token = fresh.access_token.clone();
        *current = Some(fresh);
        Ok(Some(token))
    }

    async fn load(&self, current: &mut Option<StoredTokens>) -> Result<(), AuthError> {
        if current.is_none() {
            *current = self.store.load().await?;
        }
        if current.is_none() {
            return Err(AuthError::new(
                "the token store holds no tokens; run `syncdef auth login DEFINITION --token-store FILE` first",
            ));
        }
        Ok(())
    }
}

impl TokenProvider for OAuth2Provider {
    fn token(&self) -> BoxFuture<'_, Result<Option<Secret>, AuthError>> {
        Box::pin(async move {
            let mut current = self.current.lock().await;
            self.load(&mut current).await?;
            let expiring = current
                .as_ref()
                .is_some_and(|t| t.expires_within(EXPIRY_MARGIN_SECS) && t.refresh_token.is_some());
            if expiring {
                return self.refresh_locked(&mut current).await;
            }
            Ok(current.as_ref().map(|t| t.access_token.clone()))
        })
    }

    fn refresh<'a>(
        &'a self,
        rejected: &'a Secret,
    ) -> BoxFuture<'a, Result<Option<Secret>, AuthError>> {
        Box::pin(async move {
            let mut current = self.current.lock().await;
            self.load(&mut current).await?;
            // Another push refreshed while this one waited: use its token.
            if let Some(t) = current.as_ref().filter(|t| &t.access_token != rejected) {
                return Ok(Some(t.access_token.clone()));
            }
            self.refresh_locked(&mut current).await
        })
    }
}

/// The token endpoint's client: no redirects (a token request must not be forwarded, RFC 6749
/// security considerations), rustls.
pub(crate) fn http_client() -> Result<oauth2::reqwest::Client, AuthError> {
    oauth2::reqwest::Client::builder()
        .redirect(oauth2::reqwest::redirect::Policy::none())
        .timeout(std::time::Duration::from_secs(30))
        .build()
        .map_err(|e| AuthError::new(format!("cannot build the HTTP client: {e}")))
}

/// What was exchanged at the token endpoint, for the advice on an `invalid_grant`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Grant {
    /// A refresh token, by [`OAuth2Provider`].
    RefreshToken,
    /// The code of `syncdef auth login`'s redirect.
    AuthorizationCode,
}

/// The token endpoint's answer as a message without any token in it.
pub(crate) fn token_error<E: std::error::Error>(
    e: RequestTokenError<E, StandardErrorResponse<BasicErrorResponseType>>,
    grant: Grant,
) -> AuthError {
    match e {
        RequestTokenError::ServerResponse(r) => {
            let mut m = format!("the token endpoint refused: {}", r.error());
            if let Some(d) = r.error_description() {
                m.push_str(&format!(" ({d})"));
            }
            m.push_str(match (r.error(), grant) {
                (BasicErrorResponseType::InvalidGrant, Grant::RefreshToken) => {
                    "; the refresh token expired or was revoked: run `syncdef auth login` again"
                }
                (BasicErrorResponseType::InvalidGrant, Grant::AuthorizationCode) => {
                    "; the authorization code expired or was already used: run the login again and finish it within a few minutes"
                }
                (BasicErrorResponseType::InvalidClient, _) => {
                    "; check the client id and secret (--client-file, or SYNCDEF_CLIENT_ID and SYNCDEF_CLIENT_SECRET)"
                }
                _ => "",
            });
            AuthError::new(m)
        }
        RequestTokenError::Request(e) => {
            AuthError::new(format!("cannot reach the token endpoint: {e}"))
        }
        RequestTokenError::Parse(e, _) => AuthError::new(format!(
            "the token endpoint's answer is not a token response: {e}"
        )),
        RequestTokenError::Other(m) => AuthError::new(format!("token request failed: {m}")),
    }
}
