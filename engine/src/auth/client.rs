//! The definition's OAuth2 scheme and the client's credentials.

use std::path::Path;

use syncdef_definitions::openapi::OpenApi;

use syncdef_validator::rules::insecure_url::is_insecure_http;

use super::{AuthError, Secret};

/// The OAuth2 flow a person logs in with (the only one the engine drives).
const AUTHORIZATION_CODE: &str = "authorizationCode";

/// The authorization-code flow of the definition's OAuth2 security scheme.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OAuthSettings {
    /// The scheme's name under `components.securitySchemes`.
    pub scheme: String,
    /// `authorizationUrl`.
    pub authorization_url: String,
    /// `tokenUrl` (or `refreshUrl` for refreshes when given).
    pub token_url: String,
    /// `refreshUrl`, when it differs.
    pub refresh_url: Option<String>,
    /// The scopes `security` requires (all of the flow's when it names none).
    pub scopes: Vec<String>,
}

impl OAuthSettings {
    /// The first OAuth2 scheme with an authorization-code flow that a security requirement
    /// lists: the document's top-level `security`, then each operation's own (a description
    /// may declare `security` on every operation and none at the top).
    ///
    /// # Errors
    /// When the definition has none.
    pub fn from_openapi(api: &OpenApi<'_>) -> Result<OAuthSettings, AuthError> {
        for requirement in api.security().chain(api.operations_security()).flatten() {
            let Some(scheme) = api.security_scheme(requirement.scheme) else {
                continue;
            };
            let Some(flow) = scheme.oauth_flow(AUTHORIZATION_CODE) else {
                continue;
            };
            let (Some(authorization_url), Some(token_url)) =
                (flow.authorization_url, flow.token_url)
            else {
                return Err(AuthError::new(format!(
                    "the authorizationCode flow of the OAuth2 scheme `{}` needs both `authorizationUrl` and `tokenUrl`",
                    scheme.name
                )));
            };
            let scopes = if requirement.scopes.is_empty() {
                flow.scopes
            } else {
                requirement.scopes
            };
            let settings = OAuthSettings {
                scheme: scheme.name.to_owned(),
                authorization_url: authorization_url.to_owned(),
                token_url: token_url.to_owned(),
                refresh_url: flow.refresh_url.map(str::to_owned),
                scopes: scopes.into_iter().map(str::to_owned).collect(),
            };
            settings.check_secure()?;
            return Ok(settings);
        }
        // Say what is missing: the scheme, or only its place in `security`.
        let unlisted = api
            .security_schemes()
            .find(|s| s.oauth_flow(AUTHORIZATION_CODE).is_some());
        Err(AuthError::new(match unlisted {
            Some(scheme) => format!(
                "the OAuth2 scheme `{name}` has an authorizationCode flow, but no `security` requirement lists it (neither the top-level `security` nor an operation's); add `security: [{{{name}: []}}]` at the top or on the operations that need it (with the scopes to request in the list)",
                name = scheme.name
            ),
            None => "the definition has no OAuth2 security scheme with an authorizationCode flow, which OAuth2 login and token refresh need; add one under `components.securitySchemes` (`type: oauth2`, `flows.authorizationCode` with `authorizationUrl`, `tokenUrl` and `scopes`) and list it in a `security` requirement, at the top or on the operations (a system secured by a fixed bearer token, a password or a key needs no login)".to_owned(),
        }))
    }
}

impl OAuthSettings {
    /// Refuses a plain `http` authorization, token or refresh URL to a host other than
    /// loopback: the token URL receives the client secret and refresh tokens, the
    /// authorization URL the user's consent. Loopback stays allowed for local test servers.
    ///
    /// # Errors
    /// Naming the URL and saying to use https.
    pub fn check_secure(&self) -> Result<(), AuthError> {
        let urls = [
            ("authorizationUrl", Some(&self.authorization_url)),
            ("tokenUrl", Some(&self.token_url)),
            ("refreshUrl", self.refresh_url.as_ref()),
        ];
        for (key, url) in urls {
            if let Some(url) = url.filter(|u| is_insecure_http(u)) {
                return Err(AuthError::new(format!(
                    "the `{key}` `{url}` of the OAuth2 scheme `{}` uses plain http to a host other than loopback; use https (plain http is accepted only for 127.0.0.0/8, ::1 and localhost, for local test servers)",
                    self.scheme
                )));
            }
        }
        Ok(())
    }
}

/// The OAuth2 client id and secret of the integration's app. Read from the environment or a
/// file, never from command-line arguments (they show in process lists and shell history).
#[derive(Clone, Debug)]
pub struct ClientCredentials {
    /// The client id (not secret, but kept with the secret).
    pub id: String,
    /// The client secret, if the app has one (PKCE-only public clients do not).
    pub secret: Option<Secret>,
}

impl ClientCredentials {
    /// The HTTP Basic credentials sent to the token endpoint, as [`Secret`]s: held beside the
    /// credentials, they make a token endpoint's echo of its `Authorization` header masked
    /// (see [`syncdef_secrets::basic_auth`]). None for a public client without a secret.
    #[must_use]
    pub fn basic_auth(&self) -> Vec<Secret> {
        self.secret
            .as_ref()
            .map(|secret| syncdef_secrets::basic_auth(&self.id, secret))
            .unwrap_or_default()
    }
}

/// Environment variable holding the client id.
pub const CLIENT_ID_VAR: &str = "SYNCDEF_CLIENT_ID";
/// Environment variable holding the client secret.
pub const CLIENT_SECRET_VAR: &str = "SYNCDEF_CLIENT_SECRET";

impl ClientCredentials {
    /// `SYNCDEF_CLIENT_ID` and `SYNCDEF_CLIENT_SECRET`.
    ///
    /// # Errors
    /// When `SYNCDEF_CLIENT_ID` is not set.
    pub fn from_env() -> Result<ClientCredentials, AuthError> {
        let id = std::env::var(CLIENT_ID_VAR).map_err(|_| {
            AuthError::new(format!(
                "set {CLIENT_ID_VAR} and {CLIENT_SECRET_VAR}, or pass --client-file with a JSON file {{\"client_id\": ..., \"client_secret\": ...}}"
            ))
        })?;
        let secret = std::env::var(CLIENT_SECRET_VAR).ok().map(Secret::new);
        Ok(ClientCredentials { id, secret })
    }

    /// A JSON file `{"client_id": "...", "client_secret": "..."}`. On Unix the file must not
    /// be readable or writable by group or others, as the token store: it holds the secret
    /// that turns a stolen refresh token into access.
    ///
    /// # Errors
    /// When the file cannot be read, is open to others, or lacks `client_id`.
    pub fn from_file(path: &Path) -> Result<ClientCredentials, AuthError> {
        check_private(path)?;
        let text = std::fs::read_to_string(path)
            .map_err(|e| AuthError::new(format!("cannot read {}: {e}", path.display())))?;
        let json: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| AuthError::new(format!("{} is not JSON: {e}", path.display())))?;
        let id = json
            .get("client_id")
            .and_then(|v| v.as_str())
            .ok_or_else(|| {
                AuthError::new(format!("{} has no string `client_id`", path.display()))
            })?;
        let secret = json
            .get("client_secret")
            .and_then(|v| v.as_str())
            .map(Secret::new);
        Ok(ClientCredentials {
            id: id.to_owned(),
            secret,
        })
    }
}

#[cfg(unix)]
fn check_private(path: &Path) -> Result<(), AuthError> {
    use std::os::unix::fs::PermissionsExt;
    let metadata = std::fs::metadata(path)
        .map_err(|e| AuthError::new(format!("cannot read {}: {e}", path.display())))?;
    let mode = metadata.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(AuthError::new(format!(
            "the client file {} is readable by group or others (mode {mode:o}); run `chmod 600 {}` and try again (and consider rotating the client secret)",
            path.display(),
            path.display()
        )));
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_private(_path: &Path) -> Result<(), AuthError> {
    // Windows ACLs do not map to mode bits; the file's ACL is the user's responsibility.
    Ok(())
}
