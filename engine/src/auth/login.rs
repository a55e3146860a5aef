//! `syncdef auth login`: the authorization-code flow with PKCE and a loopback redirect.

use std::collections::BTreeMap;
use std::time::Duration;

use oauth2::basic::BasicClient;
use oauth2::{
    AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, PkceCodeChallenge, RedirectUrl,
    Scope, TokenResponse, TokenUrl,
};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use url::Url;

use super::oauth::{http_client, token_error};
use super::store::now_secs;
use super::{AuthError, ClientCredentials, OAuthSettings, Secret, StoredTokens, TokenStore};

/// Options of a login.
#[derive(Clone, Debug)]
pub struct LoginOptions {
    /// Port of the loopback listener; 0 (default) picks a free one. Some providers only accept
    /// a redirect URI registered with a fixed port.
    pub port: u16,
    /// How long to wait for the browser (default 5 minutes).
    pub timeout: Duration,
}

impl Default for LoginOptions {
    fn default() -> Self {
        LoginOptions {
            port: 0,
            timeout: Duration::from_secs(300),
        }
    }
}

/// A login waiting for the browser: open [`LoginFlow::url`], then [`LoginFlow::finish`].
pub struct LoginFlow {
    listener: TcpListener,
    url: Url,
    redirect: String,
    csrf: CsrfToken,
    verifier: oauth2::PkceCodeVerifier,
    settings: OAuthSettings,
    credentials: ClientCredentials,
    timeout: Duration,
}

impl std::fmt::Debug for LoginFlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoginFlow")
            .field("redirect", &self.redirect)
            .finish_non_exhaustive()
    }
}

/// What a login obtained besides the tokens: the redirect's other parameters (QuickBooks sends
/// the company's `realmId` there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoginResult {
    /// Query parameters of the redirect other than `code` and `state`.
    pub redirect_parameters: BTreeMap<String, String>,
    /// When the access token expires (Unix seconds).
    pub expires_at: Option<u64>,
    /// Whether a refresh token was issued.
    pub has_refresh_token: bool,
}

impl LoginFlow {
    /// Binds the loopback listener on 127.0.0.1 and prepares the authorization URL.
    ///
    /// # Errors
    /// When the port cannot be bound or a URL of the definition is invalid.
    pub async fn start(
        settings: OAuthSettings,
        credentials: ClientCredentials,
        options: &LoginOptions,
    ) -> Result<LoginFlow, AuthError> {
        let listener = TcpListener::bind(("127.0.0.1", options.port))
            .await
            .map_err(|e| {
                AuthError::new(format!("cannot listen on 127.0.0.1:{}: {e}", options.port))
            })?;
        let port = listener
            .local_addr()
            .map_err(|e| AuthError::new(e.to_string()))?
            .port();
        let redirect = format!("http://127.0.0.1:{port}/callback");
        let client = BasicClient::new(ClientId::new(credentials.id.clone()))
            .set_auth_uri(
                AuthUrl::new(settings.authorization_url.clone())
                    .map_err(|e| AuthError::new(format!("the authorizationUrl is invalid: {e}")))?,
            )
            .set_redirect_uri(
                RedirectUrl::new(redirect.clone()).map_err(|e| AuthError::new(e.to_string()))?,
            );
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, csrf) = client
            .authorize_url(CsrfToken::new_random)
            .add_scopes(settings.scopes.iter().cloned().map(Scope::new))
            .set_pkce_challenge(challenge)
            .url();
        Ok(LoginFlow {
            listener,
            url,
            redirect,
            csrf,
            verifier,
            settings,
            credentials,
            timeout: options.timeout,
        })
    }

    /// The URL to open in a browser.
    #[must_use]
    pub fn url(&self) -> &Url {
        &self.url
    }

    /// The redirect URI to register with the provider.
    #[must_use]
    pub fn redirect_uri(&self) -> &str {
        &self.redirect
    }

    /// Waits for the redirect, exchanges the code and saves the tokens in `store`.
    ///
    /// # Errors
    /// On a timeout, a refused authorization, a state mismatch, or a failed exchange or save.
    pub async fn finish(self, store: &dyn TokenStore) -> Result<LoginResult, AuthError> {
        let params = tokio::time::timeout(self.timeout, wait_for_redirect(&self.listener))
            .await
            .map_err(|_| {
                AuthError::new("no redirect from the browser in time; run the login again")
            })??;
        if let Some(error) = params.get("error") {
            return Err(AuthError::new(format!(
                "the authorization was refused: {error}{}",
                params
                    .get("error_description")
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default()
            )));
        }
        if params.get("state").map(String::as_str) != Some(self.csrf.secret().as_str()) {
            return Err(AuthError::new(
                "the redirect's `state` does not match this login (a stale or forged redirect); run the login again",
            ));
        }
        let code = params
            .get("code")
            .ok_or_else(|| AuthError::new("the redirect carries no `code`"))?;
        let mut client = BasicClient::new(ClientId::new(self.credentials.id.clone()))
            .set_token_uri(
                TokenUrl::new(self.settings.token_url.clone())
                    .map_err(|e| AuthError::new(format!("the tokenUrl is invalid: {e}")))?,
            )
            .set_redirect_uri(
                RedirectUrl::new(self.redirect.clone())
                    .map_err(|e| AuthError::new(e.to_string()))?,
            );
        if let Some(secret) = &self.credentials.secret {
            client = client.set_client_secret(ClientSecret::new(secret.expose().to_owned()));
        }
        let response = client
            .exchange_code(AuthorizationCode::new(code.clone()))
            .set_pkce_verifier(self.verifier)
            .request_async(&http_client()?)
            .await
            .map_err(token_error)?;
        let tokens = StoredTokens {
            access_token: Secret::new(response.access_token().secret().clone()),
            refresh_token: response
                .refresh_token()
                .map(|r| Secret::new(r.secret().clone())),
            expires_at: response
                .expires_in()
                .map(|d| now_secs().saturating_add(d.as_secs())),
        };
        store.save(&tokens).await?;
        let redirect_parameters = params
            .into_iter()
            .filter(|(k, _)| k != "code" && k != "state")
            .collect();
        Ok(LoginResult {
            redirect_parameters,
            expires_at: tokens.expires_at,
            has_refresh_token: tokens.refresh_token.is_some(),
        })
    }
}

/// Serves the loopback listener until a request to `/callback` arrives; returns its query.
async fn wait_for_redirect(listener: &TcpListener) -> Result<BTreeMap<String, String>, AuthError> {
    loop {
        let (stream, _) = listener
            .accept()
            .await
            .map_err(|e| AuthError::new(format!("the loopback listener failed: {e}")))?;
        let mut stream = BufReader::new(stream);
        let mut line = String::new();
        // A request line longer than 8 KiB is not a redirect from our provider.
        let read = (&mut stream).take(8192).read_line(&mut line).await;
        if read.is_err() {
            continue;
        }
        let target = line.split_whitespace().nth(1).unwrap_or("");
        let Ok(url) = Url::parse(&format!("http://127.0.0.1{target}")) else {
            continue;
        };
        let (status, page) = if url.path() == "/callback" {
            (
                "200 OK",
                "<html><body><p>syncdef: authorization received. You can close this window.</p></body></html>",
            )
        } else {
            ("404 Not Found", "<html><body>not found</body></html>")
        };
        let reply = format!(
            "HTTP/1.1 {status}\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{page}",
            page.len()
        );
        let _ = stream.get_mut().write_all(reply.as_bytes()).await;
        let _ = stream.get_mut().shutdown().await;
        if url.path() == "/callback" {
            return Ok(url.query_pairs().into_owned().collect());
        }
    }
}
