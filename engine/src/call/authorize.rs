//! The credentials one request carries: those of the first alternative of its operation's
//! security requirement the engine has credentials for, every scheme of it (OpenAPI 3.0,
//! "Security Requirement Object"). OAuth2 access tokens come from the token provider, the
//! other schemes' credentials from [`Credentials`].

use crate::auth::scheme::{CallSecurity, KeyPlace, Scheme, SchemeKind};
use crate::auth::{AuthError, Credential, Credentials, Secret, TokenProvider, how_to_provide};
use crate::error::{EngineError, ErrorClass};

/// What a dry-run shows in place of a token it was not given.
const STAND_IN: &str = "dry-run";

/// What a request carries to authenticate.
#[derive(Default)]
pub(crate) struct Authorization {
    /// The bearer token of the `Authorization` header.
    pub token: Option<Secret>,
    /// Whether the token is the token provider's, which a 401 refreshes once.
    pub refreshable: bool,
    /// Headers: a Basic `Authorization`, API keys, their cookies.
    pub headers: Vec<(String, String)>,
    /// Query parameters: API keys sent in the URL.
    pub query: Vec<(String, String)>,
}

/// Where a request's credentials come from.
pub(crate) struct Keyring<'a> {
    pub tokens: &'a dyn TokenProvider,
    pub credentials: &'a Credentials,
    /// A dry-run's: a credential the engine lacks is shown as a stand-in, `dry-run`, since
    /// nothing is sent.
    pub stand_ins: bool,
}

/// The credentials of a request of `step` under `security`.
pub(crate) async fn authorize(
    keyring: &Keyring<'_>,
    security: &CallSecurity,
    step: &str,
) -> Result<Authorization, EngineError> {
    let mut provided = Provided::Unasked;
    let alternatives = match security {
        CallSecurity::Undeclared => {
            // Nothing declared (SD704 turned off): the token provider's token, as always.
            let token = provided.token(keyring.tokens, step).await?;
            return Ok(Authorization {
                refreshable: token.is_some(),
                token,
                ..Authorization::default()
            });
        }
        CallSecurity::Alternatives(alternatives) => alternatives,
    };
    if alternatives.is_empty() {
        return Ok(Authorization::default());
    }
    let mut lacking: Vec<&Scheme> = Vec::new();
    for alternative in alternatives {
        let mut made = Authorization::default();
        let mut cookies: Vec<String> = Vec::new();
        let mut complete = true;
        for scheme in alternative {
            let credential = match &scheme.kind {
                SchemeKind::OAuth2 => None,
                _ => keyring.credentials.for_scheme(scheme).or_else(|| {
                    keyring
                        .stand_ins
                        .then(|| Credentials::stand_ins().for_scheme(scheme))
                        .flatten()
                }),
            };
            let given = match (&scheme.kind, credential) {
                (SchemeKind::Bearer, Some(Credential::Bearer(token))) => {
                    made.token = Some(token);
                    true
                }
                (SchemeKind::OAuth2 | SchemeKind::Bearer, _) => {
                    match provided.token(keyring.tokens, step).await? {
                        Some(token) => {
                            made.token = Some(token);
                            made.refreshable = true;
                            true
                        }
                        None if keyring.stand_ins => {
                            made.token = Some(Secret::placeholder(STAND_IN));
                            true
                        }
                        None => false,
                    }
                }
                (SchemeKind::Basic, Some(Credential::Basic(basic))) => {
                    made.headers
                        .push(("authorization".to_owned(), basic.header()));
                    true
                }
                (SchemeKind::ApiKey { name, place }, Some(Credential::ApiKey(key))) => {
                    let key = key.expose().to_owned();
                    match place {
                        KeyPlace::Header => made.headers.push((name.clone(), key)),
                        KeyPlace::Query => made.query.push((name.clone(), key)),
                        KeyPlace::Cookie => cookies.push(format!("{name}={key}")),
                    }
                    true
                }
                _ => false,
            };
            if !given {
                complete = false;
                lacking.push(scheme);
            }
        }
        if complete {
            if !cookies.is_empty() {
                made.headers.push(("cookie".to_owned(), cookies.join("; ")));
            }
            return Ok(made);
        }
    }
    Err(lacking_credentials(security, &lacking, step))
}

/// The token provider's token, asked once per request whichever schemes want it.
enum Provided {
    Unasked,
    Asked(Option<Secret>),
}

impl Provided {
    async fn token(
        &mut self,
        tokens: &dyn TokenProvider,
        step: &str,
    ) -> Result<Option<Secret>, EngineError> {
        if let Provided::Asked(token) = self {
            return Ok(token.clone());
        }
        let token = tokens.token().await.map_err(|e| authentication(e, step))?;
        *self = Provided::Asked(token.clone());
        Ok(token)
    }
}

fn authentication(e: AuthError, step: &str) -> EngineError {
    EngineError::new(ErrorClass::Authentication, e.message).at(step)
}

/// No alternative of `security` could be met: each scheme lacking a credential, and how to
/// give it.
fn lacking_credentials(security: &CallSecurity, lacking: &[&Scheme], step: &str) -> EngineError {
    let mut seen: Vec<&str> = Vec::new();
    let how: Vec<String> = lacking
        .iter()
        .filter(|s| {
            let new = !seen.contains(&s.name.as_str());
            seen.push(&s.name);
            new
        })
        .map(|s| format!("{}: {}", s.described(), how_to_provide(s)))
        .collect();
    EngineError::new(
        ErrorClass::Authentication,
        format!(
            "the {step} needs the credentials of {security}, and the engine has none for {}",
            how.join("; ")
        ),
    )
    .at(step)
}
