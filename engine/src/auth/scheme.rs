//! The security schemes of a definition as the engine sends them, and the requirement each
//! call carries: its operation's own `security`, else the document's (OpenAPI 3.0, "Operation
//! Object"), compiled once when the definition loads.

use std::fmt;
use std::sync::Arc;

use syncdef_definitions::Node;
use syncdef_definitions::openapi::{OpenApi, SecurityScheme};
use syncdef_validator::rules::unsendable_security::why_unsendable;

/// Where an `apiKey` scheme sends its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyPlace {
    /// A request header.
    Header,
    /// A query parameter of the URL.
    Query,
    /// A cookie.
    Cookie,
}

/// How a security scheme's credentials go on a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemeKind {
    /// `type: oauth2`: the token provider's access token, as `Authorization: Bearer`.
    OAuth2,
    /// `type: http, scheme: bearer`: a fixed token, as `Authorization: Bearer`.
    Bearer,
    /// `type: http, scheme: basic`: a user and a password, as `Authorization: Basic`.
    Basic,
    /// `type: apiKey`: a key sent as the parameter `name` in `place`.
    ApiKey {
        /// The header, query parameter or cookie name.
        name: String,
        /// Where it goes.
        place: KeyPlace,
    },
    /// A scheme the engine cannot send (`openIdConnect`, `mutualTLS`, an HTTP scheme other
    /// than basic and bearer, an `apiKey` without `name` or `in`): why, in words.
    Unsupported(String),
    /// A name `components.securitySchemes` does not define (lint: SD701).
    Undefined,
}

/// A security scheme of the definition, named as `components.securitySchemes` names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheme {
    /// Its name under `components.securitySchemes`.
    pub name: String,
    /// How it is sent.
    pub kind: SchemeKind,
}

impl Scheme {
    /// `scheme` as the engine sends it.
    #[must_use]
    pub fn read(scheme: &SecurityScheme<'_>) -> Scheme {
        Scheme {
            name: scheme.name.to_owned(),
            kind: kind_of(scheme),
        }
    }

    /// The scheme in words, for messages: `` `basicAuth` (http basic) ``.
    #[must_use]
    pub fn described(&self) -> String {
        let what = match &self.kind {
            SchemeKind::OAuth2 => "OAuth2".to_owned(),
            SchemeKind::Bearer => "http bearer".to_owned(),
            SchemeKind::Basic => "http basic".to_owned(),
            SchemeKind::ApiKey { name, place } => {
                let place = match place {
                    KeyPlace::Header => "header",
                    KeyPlace::Query => "query parameter",
                    KeyPlace::Cookie => "cookie",
                };
                format!("an API key in the {place} `{name}`")
            }
            SchemeKind::Unsupported(why) => why.clone(),
            SchemeKind::Undefined => "not defined under `components.securitySchemes`".to_owned(),
        };
        format!("`{}` ({what})", self.name)
    }
}

fn kind_of(scheme: &SecurityScheme<'_>) -> SchemeKind {
    // The linter's judgement (SD706), so that lint and push agree on what can be sent.
    if let Some(why) = why_unsendable(scheme) {
        return SchemeKind::Unsupported(why);
    }
    match (scheme.kind, scheme.http_scheme(), scheme.api_key()) {
        ("oauth2", _, _) => SchemeKind::OAuth2,
        ("http", Some(s), _) if s.eq_ignore_ascii_case("bearer") => SchemeKind::Bearer,
        ("http", _, _) => SchemeKind::Basic,
        ("apiKey", _, Some((name, place))) => SchemeKind::ApiKey {
            name: name.to_owned(),
            place: match place {
                "query" => KeyPlace::Query,
                "cookie" => KeyPlace::Cookie,
                _ => KeyPlace::Header,
            },
        },
        (other, _, _) => SchemeKind::Unsupported(format!("`{other}`")),
    }
}

/// The security requirement of one call: what its operation declares, or the document.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CallSecurity {
    /// Neither the operation nor the document declares `security` (a definition linted with
    /// SD704 turned off): the token provider's token is sent when it gives one.
    #[default]
    Undeclared,
    /// The alternatives, in order: a request carries every scheme of the first one the
    /// engine has credentials for. No alternative (`security: []`) sends none; an empty
    /// alternative (`{}`) allows a request without credentials.
    Alternatives(Vec<Vec<Arc<Scheme>>>),
}

impl CallSecurity {
    /// The requirement of `operation` in `api`, its schemes taken from `schemes` (the
    /// definition's, compiled once). A requirement naming a scheme the document does not
    /// define (lint: SD701) keeps it as one the engine cannot send.
    #[must_use]
    pub fn of(api: &OpenApi<'_>, operation: Node<'_>, schemes: &[Arc<Scheme>]) -> CallSecurity {
        let Some(alternatives) = api.operation_security(operation) else {
            return CallSecurity::Undeclared;
        };
        let scheme = |name: &str| {
            schemes
                .iter()
                .find(|s| s.name == name)
                .cloned()
                .unwrap_or_else(|| {
                    Arc::new(Scheme {
                        name: name.to_owned(),
                        kind: SchemeKind::Undefined,
                    })
                })
        };
        CallSecurity::Alternatives(
            alternatives
                .iter()
                .map(|alternative| alternative.iter().map(|r| scheme(r.scheme)).collect())
                .collect(),
        )
    }

    /// The first scheme the requirement names that the document does not define.
    #[must_use]
    pub fn undefined(&self) -> Option<&str> {
        match self {
            CallSecurity::Undeclared => None,
            CallSecurity::Alternatives(alternatives) => alternatives
                .iter()
                .flatten()
                .find(|s| s.kind == SchemeKind::Undefined)
                .map(|s| s.name.as_str()),
        }
    }

    /// Whether some alternative has only schemes the engine can send (or none at all).
    #[must_use]
    pub fn sendable(&self) -> bool {
        match self {
            CallSecurity::Undeclared => true,
            CallSecurity::Alternatives(alternatives) => {
                alternatives.is_empty()
                    || alternatives.iter().any(|a| {
                        a.iter().all(|s| {
                            !matches!(s.kind, SchemeKind::Unsupported(_) | SchemeKind::Undefined)
                        })
                    })
            }
        }
    }
}

impl fmt::Display for CallSecurity {
    /// The alternatives in words: `` `a` (http basic) and `b` (OAuth2), or `c` (...) ``.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallSecurity::Undeclared => f.write_str("no security requirement"),
            CallSecurity::Alternatives(alternatives) if alternatives.is_empty() => {
                f.write_str("no credentials (`security: []`)")
            }
            CallSecurity::Alternatives(alternatives) => {
                let text: Vec<String> = alternatives
                    .iter()
                    .map(|a| {
                        if a.is_empty() {
                            "none".to_owned()
                        } else {
                            a.iter()
                                .map(|s| s.described())
                                .collect::<Vec<_>>()
                                .join(" and ")
                        }
                    })
                    .collect();
                f.write_str(&text.join(", or "))
            }
        }
    }
}

/// Every scheme of `components.securitySchemes`, as the engine sends it.
#[must_use]
pub fn definition_schemes(api: &OpenApi<'_>) -> Vec<Arc<Scheme>> {
    api.security_schemes()
        .map(|s| Arc::new(Scheme::read(&s)))
        .collect()
}
