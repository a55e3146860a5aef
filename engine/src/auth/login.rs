//! `syncdef auth login`: the authorization-code flow with PKCE and a loopback redirect.

use std::collections::BTreeMap;
use std::time::Duration;

use oauth2::basic::BasicClient;
use oauth2::{
    AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, PkceCodeChallenge, RedirectUrl,
    Scope, TokenResponse, TokenUrl,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use url::Url;

use super::oauth::{Grant, http_client, token_error};
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
    timeout: Duration,
    exchange: Exchange,
}

/// What the code exchange needs once the redirect came.
struct Exchange {
    redirect: String,
    csrf: CsrfToken,
    verifier: oauth2::PkceCodeVerifier,
    settings: OAuthSettings,
    credentials: ClientCredentials,
}

impl std::fmt::Debug for LoginFlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoginFlow")
            .field("redirect", &self.exchange.redirect)
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
    /// When the port cannot be bound or a URL of the definition is invalid or plain http to a
    /// host other than loopback.
    pub async fn start(
        settings: OAuthSettings,
        credentials: ClientCredentials,
        options: &LoginOptions,
    ) -> Result<LoginFlow, AuthError> {
        settings.check_secure()?;
        let listener = TcpListener::bind(("127.0.0.1", options.port))
            .await
            .map_err(|e| {
                let mut message = format!("cannot listen on 127.0.0.1:{}: {e}", options.port);
                if options.port != 0 {
                    message.push_str(
                        "; stop the program that holds the port, or choose another one (`--port`) that is registered as a redirect URI with the provider",
                    );
                }
                AuthError::new(message)
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
            timeout: options.timeout,
            exchange: Exchange {
                redirect,
                csrf,
                verifier,
                settings,
                credentials,
            },
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
        &self.exchange.redirect
    }

    /// Waits for the redirect, exchanges the code and saves the tokens in `store`. The browser
    /// gets its page when all is done, so that it says whether the login worked.
    ///
    /// # Errors
    /// On a timeout, a refused authorization, a state mismatch, or a failed exchange or save.
    pub async fn finish(self, store: &dyn TokenStore) -> Result<LoginResult, AuthError> {
        let (params, browser) =
            tokio::time::timeout(self.timeout, wait_for_redirect(self.listener))
                .await
                .map_err(|_| {
                    AuthError::new("no redirect from the browser in time; run the login again")
                })??;
        let outcome = self.exchange.complete(params, store).await;
        browser.answer(outcome.as_ref().map(|_| ())).await;
        outcome
    }
}

impl Exchange {
    /// Checks the redirect, exchanges its code and saves the tokens.
    async fn complete(
        self,
        params: BTreeMap<String, String>,
        store: &dyn TokenStore,
    ) -> Result<LoginResult, AuthError> {
        // `state` first: an error redirect that is not ours must not pass for the provider's.
        if params.get("state").map(String::as_str) != Some(self.csrf.secret().as_str()) {
            return Err(AuthError::new(
                "the redirect's `state` does not match this login (a stale or forged redirect), so its code was not used and no tokens were saved; run the login again and open the URL it prints",
            ));
        }
        if let Some(error) = params.get("error") {
            return Err(AuthError::new(format!(
                "the provider refused the authorization: {}{}; no tokens were saved. Run the login again and grant access (if the provider refuses again, check the app's redirect URIs and scopes there)",
                printable(error),
                params
                    .get("error_description")
                    .map(|d| format!(" ({})", printable(d)))
                    .unwrap_or_default()
            )));
        }
        let code = params.get("code").ok_or_else(|| {
            AuthError::new("the redirect carries neither `code` nor `error`; run the login again")
        })?;
        // Held until the exchange is over: the code, the PKCE verifier and the client's Basic
        // credentials are masked in whatever the token endpoint answers.
        let _masked = (
            Secret::new(code.clone()),
            Secret::new(self.verifier.secret().clone()),
            self.credentials.basic_auth(),
        );
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
            .map_err(|e| token_error(e, Grant::AuthorizationCode))?;
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

/// Text from the redirect (anyone on this machine can send one) as it may be shown on a
/// terminal: control characters escaped, length bounded.
fn printable(text: &str) -> String {
    let mut shown = String::new();
    for c in text.chars().take(200) {
        if c.is_control() {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    shown
}

/// How long one connection may take to send its request head. Connections are served side by
/// side, so one that stays silent (a browser's speculative preconnect) delays nothing.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// A request head longer than this is not a redirect from our provider.
const MAX_REQUEST_HEAD: usize = 16 * 1024;

/// The connection that brought the redirect, answered once the login is done.
struct Browser(TcpStream);

impl Browser {
    async fn answer(mut self, outcome: Result<(), &AuthError>) {
        let (status, page) = match outcome {
            Ok(()) => (
                "200 OK",
                page(
                    "syncdef is authorized",
                    "The tokens are saved. You can close this window and return to the terminal.",
                ),
            ),
            Err(e) => (
                "400 Bad Request",
                page(
                    "syncdef could not log in",
                    &format!("{} (the terminal shows this too).", sentence(&e.message)),
                ),
            ),
        };
        respond(&mut self.0, status, &page).await;
    }
}

fn page(title: &str, text: &str) -> String {
    format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title></head>\n<body><h1>{title}</h1>\n<p>{}</p></body></html>\n",
        html_escape(text)
    )
}

/// `text` with a capital first letter: messages start lower-case to follow `syncdef: `.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

fn html_escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            c => escaped.push(c),
        }
    }
    escaped
}

async fn respond(stream: &mut TcpStream, status: &str, page: &str) {
    let reply = format!(
        "HTTP/1.1 {status}\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n{page}",
        page.len()
    );
    // The browser may be gone; the login's outcome does not depend on its page.
    let _ = stream.write_all(reply.as_bytes()).await;
    let _ = stream.shutdown().await;
}

type Redirect = (BTreeMap<String, String>, Browser);

/// Aborts the accepting task when the wait ends, however it ends.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Serves the loopback listener until a request to `/callback` arrives; returns its query and
/// the connection to answer.
async fn wait_for_redirect(listener: TcpListener) -> Result<Redirect, AuthError> {
    let (send, mut redirects) = mpsc::channel(1);
    let _acceptor = AbortOnDrop(tokio::spawn(accept(listener, send)));
    redirects
        .recv()
        .await
        .unwrap_or_else(|| Err(AuthError::new("the loopback listener stopped")))
}

async fn accept(listener: TcpListener, send: mpsc::Sender<Result<Redirect, AuthError>>) {
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                tokio::spawn(serve(stream, send.clone()));
            }
            Err(e) => {
                let failed = AuthError::new(format!("the loopback listener failed: {e}"));
                let _ = send.send(Err(failed)).await;
                return;
            }
        }
    }
}

/// Reads one request: `/callback` goes to the login, anything else (a favicon) gets a 404.
async fn serve(mut stream: TcpStream, send: mpsc::Sender<Result<Redirect, AuthError>>) {
    let Ok(Some(target)) = tokio::time::timeout(REQUEST_TIMEOUT, request_target(&mut stream)).await
    else {
        return;
    };
    let url = target
        .starts_with('/')
        .then(|| Url::parse(&format!("http://127.0.0.1{target}")).ok())
        .flatten();
    match url {
        Some(url) if url.path() == "/callback" => {
            let params = url.query_pairs().into_owned().collect();
            let _ = send.send(Ok((params, Browser(stream)))).await;
        }
        _ => {
            let page = page("Not found", "This is syncdef's login listener.");
            respond(&mut stream, "404 Not Found", &page).await;
        }
    }
}

/// The request-target of the request on `stream`, after reading its whole head: answering
/// with unread request bytes pending would reset the connection and lose the page.
async fn request_target(stream: &mut TcpStream) -> Option<String> {
    let mut head = Vec::new();
    let mut chunk = [0u8; 2048];
    let ended = |head: &[u8]| {
        head.windows(4).any(|w| w == b"\r\n\r\n") || head.windows(2).any(|w| w == b"\n\n")
    };
    while !ended(&head) {
        if head.len() > MAX_REQUEST_HEAD {
            return None;
        }
        let read = stream.read(&mut chunk).await.ok()?;
        if read == 0 {
            return None;
        }
        head.extend_from_slice(&chunk[..read]);
    }
    let head = String::from_utf8_lossy(&head);
    head.lines()
        .next()
        .and_then(|line| line.split_whitespace().nth(1))
        .map(str::to_owned)
}
