//! [`Secret`]: a credential that never shows itself and is masked wherever its value appears.

use std::fmt;
use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use crate::registry;

/// A token, client secret or password.
///
/// `Debug` prints `Secret(***)` and `Display` prints `***`, so a secret can sit in structs that
/// derive `Debug` or in a `tracing` field without leaking. The value is reached only through
/// [`Secret::expose`], which makes every place that sends it easy to find.
///
/// Creating a secret registers its value with the process-wide registry that [`crate::redact`]
/// reads, so that the value is masked in any text it turns up in (a server echoing it back).
/// Clones share one registration; the last clone dropped removes it (a short list of the most
/// recently dropped values stays masked, for output rendered just after).
#[derive(Clone)]
pub struct Secret(Arc<Inner>);

struct Inner {
    value: Box<str>,
    /// The patterns registered for this value (none for a placeholder or a short value).
    forms: Vec<Box<str>>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        registry::unregister(&self.forms);
    }
}

impl Secret {
    /// Wraps `value` and registers it for redaction.
    pub fn new(value: impl Into<String>) -> Self {
        let value = value.into().into_boxed_str();
        let forms = registry::forms(&value);
        registry::register(&forms);
        Secret(Arc::new(Inner { value, forms }))
    }

    /// A stand-in that is sent like a token but is not secret (a dry-run's `dry-run` token):
    /// hidden in `Debug` like any secret, but not registered, so that the word is not masked
    /// wherever else it appears.
    pub fn placeholder(value: impl Into<String>) -> Self {
        Secret(Arc::new(Inner {
            value: value.into().into_boxed_str(),
            forms: Vec::new(),
        }))
    }

    /// The value itself. Call it only where the value is sent.
    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0.value
    }

    /// True for an empty value, which is never a usable credential.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.value.is_empty()
    }
}

/// The HTTP Basic credentials `user:password` as sent, one [`Secret`] per encoding: plain
/// (RFC 7617, what `reqwest` sends) and with both parts form-urlencoded first (RFC 6749
/// 2.3.1, what an OAuth2 client sends to a token endpoint). Hold them as long as the
/// credentials are used: a server that echoes the `Authorization` header it got then shows
/// `***`.
#[must_use]
pub fn basic_auth(user: &str, password: &Secret) -> Vec<Secret> {
    let password = password.expose();
    let plain = STANDARD.encode(format!("{user}:{password}"));
    let user_enc: String = form_urlencoded::byte_serialize(user.as_bytes()).collect();
    let password_enc: String = form_urlencoded::byte_serialize(password.as_bytes()).collect();
    let oauth = STANDARD.encode(format!("{user_enc}:{password_enc}"));
    let mut secrets = vec![Secret::new(plain.clone())];
    if oauth != plain {
        secrets.push(Secret::new(oauth));
    }
    secrets
}

impl PartialEq for Secret {
    fn eq(&self, other: &Self) -> bool {
        self.0.value == other.0.value
    }
}

impl Eq for Secret {}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(crate::MASK)
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Secret::new(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Secret::new(value)
    }
}

impl<'de> serde::Deserialize<'de> for Secret {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Secret::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redact;

    #[test]
    fn debug_and_display_are_masked() {
        let secret = Secret::new("hunter2-debug");
        assert_eq!(format!("{secret:?}"), "Secret(***)");
        assert_eq!(secret.to_string(), "***");
        assert_eq!(secret.expose(), "hunter2-debug");
    }

    #[test]
    fn a_secret_is_masked_while_held() {
        let secret = Secret::new("while-held-8b1f");
        let copy = secret.clone();
        drop(secret);
        assert_eq!(redact("x while-held-8b1f y"), "x *** y");
        drop(copy);
        // Recently dropped values stay masked for output rendered just after.
        assert_eq!(redact("x while-held-8b1f y"), "x *** y");
    }

    #[test]
    fn placeholders_are_not_masked() {
        let _p = Secret::placeholder("placeholder-value-c2");
        assert_eq!(redact("placeholder-value-c2"), "placeholder-value-c2");
    }

    #[test]
    fn basic_encodings_are_masked() {
        let password = Secret::new("s3cr:et/+x");
        let _held = basic_auth("client id", &password);
        let plain = STANDARD.encode("client id:s3cr:et/+x");
        let oauth = STANDARD.encode("client+id:s3cr%3Aet%2F%2Bx");
        assert_eq!(redact(&format!("Basic {plain}")), "Basic ***");
        assert_eq!(redact(&format!("Basic {oauth}")), "Basic ***");
        assert_eq!(redact("s3cr%3Aet%2F%2Bx"), "***");
    }
}
