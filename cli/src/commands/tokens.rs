//! The external system's OAuth2 credentials and tokens, as `push`, `sync` and `auth login`
//! take them from their flags.

use std::path::Path;
use std::sync::Arc;

use syncdef_engine::Engine;
use syncdef_engine::auth::{ClientCredentials, FileTokenStore, OAuth2Provider, TokenProvider};

use crate::failure::Failure;

/// The client id and secret: from `--client-file`, else the SYNCDEF_CLIENT_ID and
/// SYNCDEF_CLIENT_SECRET environment variables.
pub fn client_credentials(client_file: Option<&Path>) -> Result<ClientCredentials, Failure> {
    match client_file {
        Some(file) => ClientCredentials::from_file(file),
        None => ClientCredentials::from_env(),
    }
    .map_err(|e| Failure::usage(e.message))
}

/// Tokens read from (and refreshed into) the `--token-store` written by `syncdef auth login`,
/// with the definition's OAuth2 scheme.
pub fn stored_tokens(
    engine: &Engine,
    token_store: &Path,
    client_file: Option<&Path>,
) -> Result<Arc<dyn TokenProvider>, Failure> {
    let settings = engine
        .plan()
        .oauth()
        .map_err(|e| Failure::usage(e.message.clone()))?
        .clone();
    let store = Arc::new(FileTokenStore::new(token_store));
    let provider = OAuth2Provider::new(settings, client_credentials(client_file)?, store)
        .map_err(|e| Failure::usage(e.message))?;
    Ok(Arc::new(provider))
}
