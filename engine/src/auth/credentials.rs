//! The credentials of the schemes that are not OAuth2: a fixed bearer token, a user and a
//! password, an API key, each held for the scheme `components.securitySchemes` names. OAuth2
//! access tokens come from the [`TokenProvider`](super::TokenProvider) instead, which
//! refreshes them.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use super::scheme::{Scheme, SchemeKind};
use super::{AuthError, Secret};

/// The credential of one scheme.
#[derive(Clone)]
pub enum Credential {
    /// A fixed token for an http `bearer` scheme.
    Bearer(Secret),
    /// A user and a password for an http `basic` scheme.
    Basic(Basic),
    /// The key of an `apiKey` scheme.
    ApiKey(Secret),
}

/// HTTP Basic credentials, with the encodings a server could echo them in held as secrets.
#[derive(Clone)]
pub struct Basic {
    /// `base64(user:password)`, as the `Authorization` header carries it.
    encoded: Secret,
    /// Every encoding of the pair (see [`syncdef_secrets::basic_auth`]), kept registered for
    /// redaction while the credentials are in use.
    _forms: Vec<Secret>,
}

impl Basic {
    /// The value of the `Authorization` header.
    pub(crate) fn header(&self) -> String {
        ["Basic ", self.encoded.expose()].concat()
    }
}

impl Credential {
    /// A fixed bearer token, registered for redaction by value.
    pub fn bearer(token: impl Into<String>) -> Credential {
        Credential::Bearer(Secret::new(token))
    }

    /// A user and a password: the password, and the Basic encodings of the pair, are
    /// registered for redaction by value.
    pub fn basic(user: &str, password: impl Into<String>) -> Credential {
        let password = Secret::new(password);
        let forms = syncdef_secrets::basic_auth(user, &password);
        Credential::Basic(Basic {
            encoded: plain_form(&forms),
            _forms: [vec![password], forms].concat(),
        })
    }

    /// An API key, registered for redaction by value.
    pub fn api_key(key: impl Into<String>) -> Credential {
        Credential::ApiKey(Secret::new(key))
    }

    /// The stand-in of a dry-run for a scheme of `kind`: the word `dry-run`, sent where the
    /// credential would be and masked there by name, but not registered, so that the word
    /// stays readable elsewhere.
    fn stand_in(kind: &SchemeKind) -> Option<Credential> {
        const WORD: &str = "dry-run";
        Some(match kind {
            SchemeKind::Bearer => Credential::Bearer(Secret::placeholder(WORD)),
            SchemeKind::Basic => {
                let forms = syncdef_secrets::basic_auth(WORD, &Secret::placeholder(WORD));
                Credential::Basic(Basic {
                    encoded: plain_form(&forms),
                    _forms: forms,
                })
            }
            SchemeKind::ApiKey { .. } => Credential::ApiKey(Secret::placeholder(WORD)),
            SchemeKind::OAuth2 | SchemeKind::Unsupported(_) | SchemeKind::Undefined => {
                return None;
            }
        })
    }

    /// Whether the credential is what a scheme of `kind` sends.
    fn fits(&self, kind: &SchemeKind) -> bool {
        matches!(
            (self, kind),
            (Credential::Bearer(_), SchemeKind::Bearer)
                | (Credential::Basic(_), SchemeKind::Basic)
                | (Credential::ApiKey(_), SchemeKind::ApiKey { .. })
        )
    }
}

/// The RFC 7617 form of [`syncdef_secrets::basic_auth`]'s encodings, its first.
fn plain_form(forms: &[Secret]) -> Secret {
    forms
        .first()
        .cloned()
        .unwrap_or_else(|| Secret::placeholder(String::new()))
}

impl fmt::Debug for Credential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Credential::Bearer(_) => "Bearer(***)",
            Credential::Basic(_) => "Basic(***)",
            Credential::ApiKey(_) => "ApiKey(***)",
        })
    }
}

/// The credentials of a definition's schemes other than OAuth2, by scheme name. Cheap to
/// clone; shown as the scheme names only.
#[derive(Clone, Default)]
pub struct Credentials {
    by_scheme: Arc<BTreeMap<String, Credential>>,
    /// A dry-run's: every scheme without a credential of its own gets a stand-in.
    stand_ins: bool,
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("schemes", &self.by_scheme.keys().collect::<Vec<_>>())
            .field("stand_ins", &self.stand_ins)
            .finish()
    }
}

/// The prefix of the environment variables that hold a scheme's credentials.
pub const SCHEME_VAR_PREFIX: &str = "SYNCDEF_";

impl Credentials {
    /// No credentials.
    #[must_use]
    pub fn new() -> Credentials {
        Credentials::default()
    }

    /// These credentials with `credential` for the scheme `scheme`.
    #[must_use]
    pub fn with(mut self, scheme: impl Into<String>, credential: Credential) -> Credentials {
        Arc::make_mut(&mut self.by_scheme).insert(scheme.into(), credential);
        self
    }

    /// A dry-run's: a stand-in (`dry-run`, not secret) for every http basic, http bearer and
    /// apiKey scheme, so that the requests show where each credential goes.
    #[must_use]
    pub fn stand_ins() -> Credentials {
        Credentials {
            by_scheme: Arc::default(),
            stand_ins: true,
        }
    }

    /// The credential for `scheme`, when these credentials hold one that it sends.
    pub(crate) fn for_scheme(&self, scheme: &Scheme) -> Option<Credential> {
        match self.by_scheme.get(&scheme.name) {
            Some(credential) if credential.fits(&scheme.kind) => Some(credential.clone()),
            _ if self.stand_ins => Credential::stand_in(&scheme.kind),
            _ => None,
        }
    }

    /// The credentials of `schemes` found in the environment (see [`scheme_var`]):
    /// `SYNCDEF_<SCHEME>_TOKEN` for an http bearer scheme, `SYNCDEF_<SCHEME>_USER` and
    /// `SYNCDEF_<SCHEME>_PASSWORD` for http basic, `SYNCDEF_<SCHEME>_KEY` for an apiKey. A
    /// scheme whose variables are not set gets none (a request needing it fails, naming
    /// them); empty values count as not set.
    ///
    /// # Errors
    /// When a basic scheme has its user without its password or the reverse.
    pub fn from_env<'a>(
        schemes: impl IntoIterator<Item = &'a Scheme>,
    ) -> Result<Credentials, AuthError> {
        Credentials::from_lookup(schemes, |name| {
            std::env::var(name).ok().filter(|v| !v.is_empty())
        })
    }

    /// [`Credentials::from_env`] with the variables read by `var`.
    ///
    /// # Errors
    /// As [`Credentials::from_env`].
    pub fn from_lookup<'a>(
        schemes: impl IntoIterator<Item = &'a Scheme>,
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<Credentials, AuthError> {
        let mut credentials = Credentials::new();
        for scheme in schemes {
            let read = |part: &str| var(&scheme_var(&scheme.name, part));
            let credential = match &scheme.kind {
                SchemeKind::Bearer => read("TOKEN").map(Credential::bearer),
                SchemeKind::ApiKey { .. } => read("KEY").map(Credential::api_key),
                SchemeKind::Basic => match (read("USER"), read("PASSWORD")) {
                    (Some(user), Some(password)) => Some(Credential::basic(&user, password)),
                    (None, None) => None,
                    _ => {
                        return Err(AuthError::new(format!(
                            "the http basic scheme `{}` needs both {} and {}; one of them is not set",
                            scheme.name,
                            scheme_var(&scheme.name, "USER"),
                            scheme_var(&scheme.name, "PASSWORD")
                        )));
                    }
                },
                SchemeKind::OAuth2 | SchemeKind::Unsupported(_) | SchemeKind::Undefined => None,
            };
            if let Some(credential) = credential {
                credentials = credentials.with(scheme.name.clone(), credential);
            }
        }
        Ok(credentials)
    }
}

/// The environment variable holding `part` (`TOKEN`, `USER`, `PASSWORD`, `KEY`) of the
/// scheme `scheme`: `SYNCDEF_`, the scheme's name in upper case with a `_` where a word
/// begins (`basicAuth` → `BASIC_AUTH`) and for every character that is not a letter or a
/// digit, `_`, then `part`: `SYNCDEF_BASIC_AUTH_PASSWORD`.
#[must_use]
pub fn scheme_var(scheme: &str, part: &str) -> String {
    let mut name = String::from(SCHEME_VAR_PREFIX);
    let mut previous: Option<char> = None;
    for c in scheme.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase()
                && previous.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
            {
                name.push('_');
            }
            name.push(c.to_ascii_uppercase());
        } else {
            name.push('_');
        }
        previous = Some(c);
    }
    name.push('_');
    name.push_str(part);
    name
}

/// How to give `scheme` its credentials, for the error of a request that needs them.
pub(crate) fn how_to_provide(scheme: &Scheme) -> String {
    let var = |part| scheme_var(&scheme.name, part);
    match &scheme.kind {
        SchemeKind::OAuth2 => "log in with `syncdef auth login` and give the command the same `--token-store`, or set SYNCDEF_ACCESS_TOKEN to an access token (a library gives the engine a token provider)".to_owned(),
        SchemeKind::Bearer => format!(
            "set {} (or SYNCDEF_ACCESS_TOKEN, the token of every bearer scheme)",
            var("TOKEN")
        ),
        SchemeKind::Basic => format!("set {} and {}", var("USER"), var("PASSWORD")),
        SchemeKind::ApiKey { .. } => format!("set {}", var("KEY")),
        SchemeKind::Unsupported(_) | SchemeKind::Undefined => "the engine cannot send it: declare a scheme it sends (oauth2, http basic or bearer, apiKey) in the operation's `security`".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::scheme::KeyPlace;
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;

    fn scheme(name: &str, kind: SchemeKind) -> Scheme {
        Scheme {
            name: name.to_owned(),
            kind,
        }
    }

    #[test]
    fn scheme_names_become_variable_names() {
        assert_eq!(scheme_var("basicAuth", "USER"), "SYNCDEF_BASIC_AUTH_USER");
        assert_eq!(scheme_var("OAuth2", "TOKEN"), "SYNCDEF_OAUTH2_TOKEN");
        assert_eq!(scheme_var("api-key", "KEY"), "SYNCDEF_API_KEY_KEY");
        assert_eq!(scheme_var("x2Token", "KEY"), "SYNCDEF_X2_TOKEN_KEY");
    }

    #[test]
    fn credentials_are_read_by_scheme() {
        let schemes = [
            scheme("basicAuth", SchemeKind::Basic),
            scheme("bearerAuth", SchemeKind::Bearer),
            scheme(
                "key",
                SchemeKind::ApiKey {
                    name: "X-Key".to_owned(),
                    place: KeyPlace::Header,
                },
            ),
            scheme("oauth", SchemeKind::OAuth2),
        ];
        let env = BTreeMap::from([
            ("SYNCDEF_BASIC_AUTH_USER", "ann"),
            ("SYNCDEF_BASIC_AUTH_PASSWORD", "credential-test-pw"),
            ("SYNCDEF_KEY_KEY", "credential-test-key"),
        ]);
        let credentials =
            Credentials::from_lookup(&schemes, |name| env.get(name).map(|v| (*v).to_owned()))
                .unwrap();
        let basic = match credentials.for_scheme(&schemes[0]) {
            Some(Credential::Basic(basic)) => basic,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            basic.header(),
            format!("Basic {}", STANDARD.encode("ann:credential-test-pw"))
        );
        assert!(credentials.for_scheme(&schemes[1]).is_none());
        assert!(matches!(
            credentials.for_scheme(&schemes[2]),
            Some(Credential::ApiKey(k)) if k.expose() == "credential-test-key"
        ));
        assert!(credentials.for_scheme(&schemes[3]).is_none());
        // Held credentials are masked wherever they appear, and never shown by `Debug`.
        let echoed = format!("{} {}", "credential-test-pw", basic.header());
        assert_eq!(syncdef_secrets::redact(&echoed), "*** Basic ***");
        assert!(!format!("{credentials:?}").contains("credential-test"));
    }

    #[test]
    fn half_a_basic_pair_is_refused() {
        let schemes = [scheme("basicAuth", SchemeKind::Basic)];
        let e = Credentials::from_lookup(&schemes, |name| {
            (name == "SYNCDEF_BASIC_AUTH_USER").then(|| "ann".to_owned())
        })
        .unwrap_err();
        assert!(
            e.message.contains("SYNCDEF_BASIC_AUTH_PASSWORD"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_dry_run_has_stand_ins_for_every_scheme_it_can_send() {
        let stand_ins = Credentials::stand_ins();
        for kind in [
            SchemeKind::Basic,
            SchemeKind::Bearer,
            SchemeKind::ApiKey {
                name: "k".to_owned(),
                place: KeyPlace::Query,
            },
        ] {
            assert!(stand_ins.for_scheme(&scheme("s", kind)).is_some());
        }
        assert!(
            stand_ins
                .for_scheme(&scheme("o", SchemeKind::OAuth2))
                .is_none()
        );
    }
}
