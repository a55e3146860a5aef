//! Masking secrets in everything the engine shows: audit trails, dry-run output, errors.
//!
//! A header, JSON member or query parameter is secret when its name, lower-cased with `-` and
//! `_` removed, is one of the credential names below or contains `password` or `secret`. The
//! list is deliberately exact rather than "contains token": `SyncToken` (QuickBooks'
//! concurrency token) is what a dry-run must show, not hide.

use std::borrow::Cow;

use serde_json::Value as Json;

/// What a masked value is replaced with.
pub const MASK: &str = "***";

const SECRET_NAMES: &[&str] = &[
    "accesstoken",
    "apikey",
    "apisecret",
    "authorization",
    "authtoken",
    "bearertoken",
    "code",
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

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// The shown value of header `name`: masked when secret, keeping an `Authorization` scheme
/// (`Bearer ***`) because which scheme is sent matters when debugging.
#[must_use]
pub fn header_value(name: &str, value: &str) -> String {
    if !is_secret_name(name) {
        return value.to_owned();
    }
    match value.split_once(' ') {
        Some((scheme, _)) if name.eq_ignore_ascii_case("authorization") => {
            [scheme, " ", MASK].concat()
        }
        _ => MASK.to_owned(),
    }
}

/// `json` with every secret member's value replaced, at any depth.
#[must_use]
pub fn json(value: &Json) -> Json {
    match value {
        Json::Object(map) => Json::Object(
            map.iter()
                .map(|(k, v)| {
                    let shown = if is_secret_name(k) && !v.is_null() {
                        Json::String(MASK.to_owned())
                    } else {
                        json(v)
                    };
                    (k.clone(), shown)
                })
                .collect(),
        ),
        Json::Array(items) => Json::Array(items.iter().map(json).collect()),
        other => other.clone(),
    }
}

/// Masks every secret member of `value` in place, at any depth: [`json`] without the copy.
pub fn json_in_place(value: &mut Json) {
    match value {
        Json::Object(map) => {
            for (k, v) in map.iter_mut() {
                if is_secret_name(k) && !v.is_null() {
                    *v = Json::String(MASK.to_owned());
                } else {
                    json_in_place(v);
                }
            }
        }
        Json::Array(items) => items.iter_mut().for_each(json_in_place),
        _ => {}
    }
}

/// `url` with the values of secret query parameters and any user-info password replaced.
#[must_use]
pub fn url(url: &url::Url) -> Cow<'_, str> {
    let secret_query = url.query().is_some() && url.query_pairs().any(|(k, _)| is_secret_name(&k));
    if url.password().is_none() && !secret_query {
        return Cow::Borrowed(url.as_str());
    }
    let mut shown = url.clone();
    if shown.password().is_some() {
        let _ = shown.set_password(Some(MASK));
    }
    if secret_query {
        let pairs: Vec<(String, String)> = url
            .query_pairs()
            .map(|(k, v)| {
                let v = if is_secret_name(&k) {
                    MASK.to_owned()
                } else {
                    v.into_owned()
                };
                (k.into_owned(), v)
            })
            .collect();
        shown.query_pairs_mut().clear().extend_pairs(pairs);
    }
    Cow::Owned(shown.to_string())
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
    }
}
