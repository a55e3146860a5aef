//! The external system's credentials, as `push`, `pull`, `sync` and `auth login` take them:
//! OAuth2 tokens from their flags, the other schemes' credentials from the environment.

use std::path::Path;
use std::sync::Arc;

use syncdef_engine::auth::{
    ClientCredentials, Credentials, FileTokenStore, OAuth2Provider, TokenProvider, TokenStore,
};
use syncdef_engine::{Engine, NoToken, StaticToken};

use crate::failure::Failure;

/// The client id and secret: from `--client-file`, else the `SYNCDEF_CLIENT_ID` and
/// `SYNCDEF_CLIENT_SECRET` environment variables.
pub fn client_credentials(client_file: Option<&Path>) -> Result<ClientCredentials, Failure> {
    match client_file {
        Some(file) => ClientCredentials::from_file(file),
        None => ClientCredentials::from_env(),
    }
    .map_err(|e| Failure::usage(e.message))
}

/// Environment variable holding a static bearer token (never an argument: process lists and
/// shell history would show it).
pub const ACCESS_TOKEN_VAR: &str = "SYNCDEF_ACCESS_TOKEN";

/// The bearer tokens of a command that talks to the external system: the `--token-store`'s
/// (refreshed with the client credentials), else `SYNCDEF_ACCESS_TOKEN` when set (a definition
/// secured by a static bearer token), else none.
pub fn token_provider(
    engine: &Engine,
    token_store: Option<&Path>,
    client_file: Option<&Path>,
) -> Result<Arc<dyn TokenProvider>, Failure> {
    Ok(match token_store {
        Some(path) => stored_tokens(engine, path, client_file)?,
        None => match std::env::var(ACCESS_TOKEN_VAR) {
            Ok(token) if !token.is_empty() => Arc::new(StaticToken::new(token)),
            _ => Arc::new(NoToken),
        },
    })
}

/// Tokens read from (and refreshed into) the `--token-store` written by `syncdef auth login`,
/// with the definition's OAuth2 scheme.
pub fn stored_tokens(
    engine: &Engine,
    token_store: &Path,
    client_file: Option<&Path>,
) -> Result<Arc<dyn TokenProvider>, Failure> {
    oauth_tokens(
        engine,
        Arc::new(FileTokenStore::new(token_store)),
        client_file,
    )
}

/// Tokens read from (and refreshed into) `store`, with the definition's OAuth2 scheme.
pub fn oauth_tokens(
    engine: &Engine,
    store: Arc<dyn TokenStore>,
    client_file: Option<&Path>,
) -> Result<Arc<dyn TokenProvider>, Failure> {
    let settings = engine
        .plan()
        .oauth()
        .map_err(|e| Failure::usage(e.message.clone()))?
        .clone();
    let provider = OAuth2Provider::new(settings, client_credentials(client_file)?, store)
        .map_err(|e| Failure::usage(e.message))?;
    Ok(Arc::new(provider))
}

/// The credentials of the definition's http basic, http bearer and apiKey schemes, from the
/// environment: `SYNCDEF_<SCHEME>_USER` and `_PASSWORD`, `_TOKEN`, `_KEY`
/// (docs/configuration.md, "Credentials of the external system").
pub fn scheme_credentials(engine: &Engine) -> Result<Credentials, Failure> {
    Credentials::from_env(engine.plan().security_schemes()).map_err(|e| Failure::usage(e.message))
}
