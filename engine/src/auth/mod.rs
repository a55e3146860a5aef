//! Credentials for the external system: the security schemes a definition declares and the
//! requirement of each call ([`scheme`]), bearer tokens (the provider trait the engine asks, a
//! static token, and OAuth2: authorization code with PKCE, refresh, a token store), and the
//! credentials of the other schemes (a fixed bearer token, a user and a password, an API key).

mod client;
mod credentials;
mod login;
mod oauth;
pub mod scheme;
mod secret;
mod store;

use futures::future::BoxFuture;

pub use client::{CLIENT_ID_VAR, CLIENT_SECRET_VAR, ClientCredentials, OAuthSettings};
pub(crate) use credentials::how_to_provide;
pub use credentials::{Basic, Credential, Credentials, SCHEME_VAR_PREFIX, scheme_var};
pub use login::{LoginFlow, LoginOptions, LoginResult};
pub use oauth::OAuth2Provider;
pub use secret::Secret;
pub use store::{FileTokenStore, MemoryTokenStore, StoredTokens, TokenStore};

/// Why no token could be had. Messages never include a token or a secret: a token endpoint's
/// answer quoted in one may echo them, so [`AuthError::new`] redacts every secret the process
/// holds and bounds the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", syncdef_secrets::redact(.message))]
pub struct AuthError {
    /// What happened and what to do.
    pub message: String,
}

impl AuthError {
    /// An error with `message`, secrets redacted.
    pub fn new(message: impl Into<String>) -> Self {
        let message = message.into();
        AuthError {
            message: syncdef_secrets::shown(&message).into_owned(),
        }
    }
}

/// Gives the engine the bearer token of each request, and a new one when the external system
/// refuses it. Shared by every push: implementations synchronise their own refreshes.
pub trait TokenProvider: Send + Sync {
    /// The access token to send, or `None` to send no `Authorization` header.
    fn token(&self) -> BoxFuture<'_, Result<Option<Secret>, AuthError>>;

    /// Called once when a request carrying `rejected` got a 401: returns a fresh token to retry
    /// with, or `None` when there is none to try (the push then fails as an authentication
    /// error).
    fn refresh<'a>(
        &'a self,
        rejected: &'a Secret,
    ) -> BoxFuture<'a, Result<Option<Secret>, AuthError>>;
}

/// Sends no token (an external system without authentication, or a dry-run).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoToken;

impl TokenProvider for NoToken {
    fn token(&self) -> BoxFuture<'_, Result<Option<Secret>, AuthError>> {
        Box::pin(std::future::ready(Ok(None)))
    }

    fn refresh<'a>(&'a self, _: &'a Secret) -> BoxFuture<'a, Result<Option<Secret>, AuthError>> {
        Box::pin(std::future::ready(Ok(None)))
    }
}

/// Sends one fixed token (the vendor's "Bearer Token" instance setting); never refreshes.
#[derive(Clone, Debug)]
pub struct StaticToken(Secret);

impl StaticToken {
    /// A provider of `token`, registered for redaction by value.
    pub fn new(token: impl Into<String>) -> Self {
        StaticToken(Secret::new(token))
    }

    /// A provider of a stand-in that is not secret (a dry-run's `dry-run`): masked by name in
    /// the `Authorization` header like a real token, but not registered by value, so that the
    /// word is not masked wherever else it appears.
    pub fn placeholder(token: impl Into<String>) -> Self {
        StaticToken(Secret::placeholder(token))
    }
}

impl TokenProvider for StaticToken {
    fn token(&self) -> BoxFuture<'_, Result<Option<Secret>, AuthError>> {
        Box::pin(std::future::ready(Ok(Some(self.0.clone()))))
    }

    fn refresh<'a>(&'a self, _: &'a Secret) -> BoxFuture<'a, Result<Option<Secret>, AuthError>> {
        Box::pin(std::future::ready(Ok(None)))
    }
}
