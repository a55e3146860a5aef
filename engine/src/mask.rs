//! Masking secrets in everything the engine shows: audit trails, dry-run output, errors.
//!
//! Two layers. By name: a header, JSON member or query parameter is secret when its name,
//! lower-cased with `-` and `_` removed, is one of the credential names below or contains
//! `password` or `secret`. The list is deliberately exact rather than "contains token":
//! `SyncToken` (QuickBooks' concurrency token) is what a dry-run must show, not hide. By value:
//! after that, every string shown has each secret the process holds replaced
//! ([`syncdef_secrets::redact`]), wherever a server echoed it.
//!
//! `code` is secret as a query parameter only (the OAuth2 authorization code of a redirect):
//! as a JSON member it is an error code (QuickBooks' `Fault.Error[].code`), which the user
//! needs to see. The authorization code itself is registered by value during a login.

use std::borrow::Cow;

use serde_json::Value as Json;
use syncdef_secrets::redact;

/// What a masked value is replaced with.
pub const MASK: &str = syncdef_secrets::MASK;

const SECRET_NAMES: &[&str] = &[
    "accesstoken",
    "apikey",
    "apisecret",
    "authorization",
    "authtoken",
    "bearertoken",
    "codeverifier",
    "cookie",
    "idtoken",
    "proxyauthorization",
    "refreshtoken",
    "sessiontoken",
    "setcookie",
    "token",
    "xapikey",
];

/// Whether a header, member or parameter named `name` holds a secret.
#[must_use]
pub fn is_secret_name(name: &str) -> bool {
    // Called for every header and JSON member of the audit trail: normalise into a stack
    // buffer rather than a String. Names longer than the buffer are not credential names,
    // but may still contain `password` or `secret`.
    let mut buf = [0u8; 48];
    let mut len = 0;
    let mut long = false;
    for b in name.bytes().filter(|b| *b != b'-' && *b != b'_') {
        if len == buf.len() {
            long = true;
            break;
        }
        buf[len] = b.to_ascii_lowercase();
        len += 1;
    }
    if long {
        let lower = name.to_ascii_lowercase();
        return lower.contains("password") || lower.contains("secret");
    }
    let norm = &buf[..len];
    SECRET_NAMES.iter().any(|s| s.as_bytes() == norm)
        || contains(norm, b"password")
        || contains(norm, b"secret")
}

/// Whether a query parameter named `name` holds a secret: [`is_secret_name`], or `code` (an
/// OAuth2 authorization code).
#[must_use]
pub fn is_secret_query_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("code") || is_secret_name(name)
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// The shown value of header `name`: masked when secret, keeping an `Authorization` scheme
/// (`Bearer ***`) because which scheme is sent matters when debugging.
#[must_use]
pub fn header_value(name: &str, value: &str) -> String {
    if !is_secret_name(name) {
        return redact(value).into_owned();
    }
    match value.split_once(' ') {
        Some((scheme, _)) if name.eq_ignore_ascii_case("authorization") => {
            [scheme, " ", MASK].concat()
        }
        _ => MASK.to_owned(),
    }
}

/// `json` with every secret member's value replaced, at any depth, and every secret value the
/// process holds redacted from the strings left.
#[must_use]
pub fn json(value: &Json) -> Json {
    let mut shown = by_name(value);
    syncdef_secrets::redact_json(&mut shown);
    shown
}

fn by_name(value: &Json) -> Json {
    match value {
        Json::Object(map) => Json::Object(
            map.iter()
                .map(|(k, v)| {
                    let shown = if is_secret_name(k) && !v.is_null() {
                        Json::String(MASK.to_owned())
                    } else {
                        by_name(v)
                    };
                    (k.clone(), shown)
                })
                .collect(),
        ),
        Json::Array(items) => Json::Array(items.iter().map(by_name).collect()),
        other => other.clone(),
    }
}

/// Masks every secret member of `value` in place, at any depth, and redacts secret values:
/// [`json`] without the copy.
pub fn json_in_place(value: &mut Json) {
    by_name_in_place(value);
    syncdef_secrets::redact_json(value);
}

fn by_name_in_place(value: &mut Json) {
    match value {
        Json::Object(map) => {
            for (k, v) in map.iter_mut() {
                if is_secret_name(k) && !v.is_null() {
                    *v = Json::String(MASK.to_owned());
                } else {
                    by_name_in_place(v);
                }
            }
        }
        Json::Array(items) => items.iter_mut().for_each(by_name_in_place),
        _ => {}
    }
}

/// `url` with the values of secret query parameters and any user-info password replaced, and
/// secret values redacted wherever else they are (a path segment).
#[must_use]
pub fn url(url: &url::Url) -> Cow<'_, str> {
    let secret_query =
        url.query().is_some() && url.query_pairs().any(|(k, _)| is_secret_query_name(&k));
    if url.password().is_none() && !secret_query {
        return redact(url.as_str());
    }
    let mut shown = url.clone();
    if shown.password().is_some() {
        let _ = shown.set_password(Some(MASK));
    }
    if secret_query {
        let pairs: Vec<(String, String)> = url
            .query_pairs()
            .map(|(k, v)| {
                let v = if is_secret_query_name(&k) {
                    MASK.to_owned()
                } else {
                    v.into_owned()
                };
                (k.into_owned(), v)
            })
            .collect();
        shown.query_pairs_mut().clear().extend_pairs(pairs);
    }
    Cow::Owned(redact(shown.as_str()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_secret_name("Authorization"));
        assert!(is_secret_name("refresh_token"));
        assert!(is_secret_name("X-Api-Key"));
        assert!(is_secret_name("client_secret"));
        assert!(is_secret_name("userPassword"));
        assert!(!is_secret_name("SyncToken"));
        assert!(!is_secret_name("If-Match"));
        assert!(!is_secret_name("DisplayName"));
        // An error code in a body is shown; an authorization code in a URL is not.
        assert!(!is_secret_name("code"));
        assert!(is_secret_query_name("code"));
    }

    #[test]
    fn secret_values_are_redacted_after_names() {
        let _held = syncdef_secrets::Secret::new("mask-secret-77b2");
        assert_eq!(header_value("X-Echo", "mask-secret-77b2"), "***");
        let body = serde_json::json!({"detail": "got mask-secret-77b2", "password": "p"});
        let masked = serde_json::json!({"detail": "got ***", "password": "***"});
        assert_eq!(json(&body), masked);
        let mut in_place = body.clone();
        json_in_place(&mut in_place);
        assert_eq!(in_place, masked);
        let u = url::Url::parse("https://h/x/mask-secret-77b2?q=mask-secret-77b2").unwrap();
        assert_eq!(url(&u), "https://h/x/***?q=***");
    }

    #[test]
    fn values() {
        assert_eq!(header_value("Authorization", "Bearer abc"), "Bearer ***");
        assert_eq!(header_value("X-Api-Key", "abc"), "***");
        assert_eq!(header_value("If-Match", "W/\"1\""), "W/\"1\"");
        let body = serde_json::json!({"a": {"password": "p", "SyncToken": "3"}, "token": null});
        let masked = serde_json::json!({"a": {"password": "***", "SyncToken": "3"}, "token": null});
        assert_eq!(json(&body), masked);
        let mut in_place = body.clone();
        json_in_place(&mut in_place);
        assert_eq!(in_place, masked);
        let u = url::Url::parse("https://u:p@h/x?access_token=s&q=1").unwrap();
        assert_eq!(url(&u), "https://u:***@h/x?access_token=***&q=1");
        let u = url::Url::parse("https://h/cb?code=abc&state=1").unwrap();
        assert_eq!(url(&u), "https://h/cb?code=***&state=1");
        let fault = serde_json::json!({"Fault": {"Error": [{"code": "6240"}]}});
        assert_eq!(json(&fault), fault);
    }
}
