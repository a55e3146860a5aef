//! What the audit trail shows of bodies, template outputs and headers: secrets masked, rendered
//! when first looked at rather than during the push.
//!
//! A push makes these anyway (the template's output, the answer's bytes, the headers sent and
//! received); the audit trail keeps a shared handle on them instead of a masked copy of each. A
//! worker pushing thousands of records that never reads the trail pays nothing for it;
//! `dry-run` and anything else that reads it gets the masked form, built once and shared by
//! every clone.

use std::fmt;
use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::Value as Json;
use syncdef_transform::Value;

use crate::mask;
use crate::outcome::{MAX_SHOWN_TEXT_BODY, text_body};
use crate::received::Received;
#[cfg(test)]
use crate::transport::HttpResponse;

/// JSON with every secret member masked ([`mask::json`]). Dereferences to the masked
/// [`serde_json::Value`]; `Debug`, `Display` and `Serialize` show it too. The unmasked source
/// is private: no method gives it out. Cloning shares the source (a response, a template's
/// [`Value`], a request body's bytes); the masked form is made by each copy looked at, once.
/// Nothing is allocated for it until then: every push records several of these, and few are
/// ever looked at.
#[derive(Clone, Default)]
pub struct MaskedJson(Repr);

#[derive(Clone, Default)]
enum Repr {
    /// `null`: no body.
    #[default]
    Null,
    /// Already masked (a text body, or JSON given in masked form).
    Masked(Arc<Json>),
    /// A template's output, converted to JSON as the template language does
    /// (`From<&Value>`).
    Value(Value, OnceLock<Json>),
    /// The JSON text of a request body, as sent.
    Sent(Bytes, OnceLock<Json>),
    /// A response body: the response keeps its masked view itself.
    Received(Arc<Received>),
}

static NULL: Json = Json::Null;

impl MaskedJson {
    /// `null`: no body.
    #[must_use]
    pub fn null() -> Self {
        MaskedJson(Repr::Null)
    }

    /// A template's output; masked when first shown.
    pub(crate) fn from_value(value: Value) -> Self {
        if value.is_null() {
            return MaskedJson(Repr::Null);
        }
        MaskedJson(Repr::Value(value, OnceLock::new()))
    }

    /// A request body as sent; parsed and masked when first shown.
    pub(crate) fn from_sent(text: Bytes) -> Self {
        MaskedJson(Repr::Sent(text, OnceLock::new()))
    }

    /// A response's body, shared; parsed and masked when first shown.
    pub(crate) fn from_response(received: Arc<Received>) -> Self {
        if received.body.bytes().is_empty() {
            return MaskedJson(Repr::Null);
        }
        MaskedJson(Repr::Received(received))
    }

    /// JSON masked already, shown as it is.
    fn plain(json: Json) -> Self {
        MaskedJson(Repr::Masked(Arc::new(json)))
    }

    /// The masked JSON.
    #[must_use]
    pub fn json(&self) -> &Json {
        match &self.0 {
            Repr::Null => &NULL,
            Repr::Masked(json) => json,
            Repr::Value(value, masked) => masked.get_or_init(|| {
                let mut json = Json::from(value);
                mask::json_in_place(&mut json);
                json
            }),
            Repr::Sent(text, masked) => masked.get_or_init(|| match serde_json::from_slice(text) {
                Ok(mut json) => {
                    mask::json_in_place(&mut json);
                    json
                }
                // Only a body nested deeper than the JSON reader goes: shown as its text.
                Err(_) => text_body(text, syncdef_secrets::MAX_SHOWN),
            }),
            Repr::Received(received) => received.shown_body.get_or_init(|| {
                let bytes = received.body.bytes();
                // A huge answer is shown as the beginning of its text, with its size, not
                // parsed and copied whole into every rendering of the audit trail.
                if bytes.len() > syncdef_secrets::MAX_SHOWN {
                    let json = bytes
                        .iter()
                        .find(|b| !b.is_ascii_whitespace())
                        .is_some_and(|b| matches!(b, b'{' | b'['));
                    let max = if json {
                        syncdef_secrets::MAX_SHOWN
                    } else {
                        MAX_SHOWN_TEXT_BODY
                    };
                    return text_body(bytes, max);
                }
                match received.body.json() {
                    Ok(json) => mask::json(json),
                    Err(_) => text_body(bytes, MAX_SHOWN_TEXT_BODY),
                }
            }),
        }
    }
}

impl std::ops::Deref for MaskedJson {
    type Target = Json;

    fn deref(&self) -> &Json {
        self.json()
    }
}

impl From<Json> for MaskedJson {
    /// JSON given by the caller: masked now.
    fn from(mut json: Json) -> Self {
        if json.is_null() {
            return MaskedJson(Repr::Null);
        }
        mask::json_in_place(&mut json);
        MaskedJson::plain(json)
    }
}

impl PartialEq for MaskedJson {
    fn eq(&self, other: &Self) -> bool {
        self.json() == other.json()
    }
}

impl PartialEq<Json> for MaskedJson {
    fn eq(&self, other: &Json) -> bool {
        self.json() == other
    }
}

impl fmt::Debug for MaskedJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.json(), f)
    }
}

impl fmt::Display for MaskedJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.json(), f)
    }
}

impl Serialize for MaskedJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.json().serialize(s)
    }
}

/// Headers in the order sent or received, secret values masked ([`mask::header_value`]).
/// Dereferences to the masked `(name, value)` pairs; `Debug` shows them too, `Serialize` writes
/// a JSON object. The unmasked source is private: no method gives it out. Cloning shares the
/// source and copies the masked form if it was made.
///
/// Held inline rather than behind an `Arc` of its own: every request and response of every
/// push records its headers, few are ever looked at, and the source is shared already.
#[derive(Clone)]
pub struct MaskedHeaders {
    source: HeaderSource,
    masked: OnceLock<Vec<(String, String)>>,
}

#[derive(Clone)]
enum HeaderSource {
    /// The headers of a request, shared with the request sent.
    Sent(Arc<[(String, String)]>),
    /// The headers of a response, shared with the engine's reading of it.
    Received(Arc<Received>),
    /// Already masked (given by the caller).
    Masked,
}

impl MaskedHeaders {
    pub(crate) fn sent(headers: Arc<[(String, String)]>) -> Self {
        Self::lazy(HeaderSource::Sent(headers))
    }

    pub(crate) fn received(received: Arc<Received>) -> Self {
        Self::lazy(HeaderSource::Received(received))
    }

    fn lazy(source: HeaderSource) -> Self {
        MaskedHeaders {
            source,
            masked: OnceLock::new(),
        }
    }

    /// The masked headers.
    #[must_use]
    pub fn pairs(&self) -> &[(String, String)] {
        self.masked.get_or_init(|| {
            let mask = |(k, v): &(String, String)| (k.clone(), mask::header_value(k, v));
            match &self.source {
                HeaderSource::Sent(h) => h.iter().map(mask).collect(),
                HeaderSource::Received(r) => r
                    .response
                    .header_pairs()
                    .into_iter()
                    .map(|(k, v)| {
                        let v = mask::header_value(&k, &v);
                        (k, v)
                    })
                    .collect(),
                // Set at construction.
                HeaderSource::Masked => Vec::new(),
            }
        })
    }
}

impl Default for MaskedHeaders {
    fn default() -> Self {
        MaskedHeaders::from(Vec::new())
    }
}

impl From<Vec<(String, String)>> for MaskedHeaders {
    /// Headers given by the caller: masked now.
    fn from(headers: Vec<(String, String)>) -> Self {
        let masked = OnceLock::new();
        let _ = masked.set(
            headers
                .iter()
                .map(|(k, v)| (k.clone(), mask::header_value(k, v)))
                .collect(),
        );
        MaskedHeaders {
            source: HeaderSource::Masked,
            masked,
        }
    }
}

impl std::ops::Deref for MaskedHeaders {
    type Target = [(String, String)];

    fn deref(&self) -> &[(String, String)] {
        self.pairs()
    }
}

impl<'a> IntoIterator for &'a MaskedHeaders {
    type Item = &'a (String, String);
    type IntoIter = std::slice::Iter<'a, (String, String)>;

    fn into_iter(self) -> Self::IntoIter {
        self.pairs().iter()
    }
}

impl PartialEq for MaskedHeaders {
    fn eq(&self, other: &Self) -> bool {
        self.pairs() == other.pairs()
    }
}

impl fmt::Debug for MaskedHeaders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.pairs(), f)
    }
}

impl Serialize for MaskedHeaders {
    /// A JSON object, in order (a repeated name keeps its last value when read back).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let pairs = self.pairs();
        let mut map = s.serialize_map(Some(pairs.len()))?;
        for (k, v) in pairs {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_view_is_masked() {
        let value =
            Value::from_json_str(r#"{"user": "a", "password": "p", "n": [{"token": "t"}]}"#)
                .unwrap();
        let shown = MaskedJson::from_value(value);
        let masked = json!({"user": "a", "password": "***", "n": [{"token": "***"}]});
        assert_eq!(*shown, masked);
        assert_eq!(shown.to_string(), masked.to_string());
        assert_eq!(format!("{shown:?}"), format!("{masked:?}"));
        assert_eq!(serde_json::to_value(&shown).unwrap(), masked);
        // A request body is shown as the text sent, parsed: a decimal's scale is not kept.
        let sent = MaskedJson::from_sent(Bytes::from_static(br#"{"password":"p","Amount":2.10}"#));
        assert_eq!(*sent, json!({"password": "***", "Amount": 2.1}));
        let answer = |body: &'static [u8]| {
            Arc::new(Received::new(HttpResponse {
                body: Bytes::from_static(body),
                ..HttpResponse::default()
            }))
        };
        let parsed = MaskedJson::from_response(answer(br#"{"refresh_token": "r", "Id": 1}"#));
        assert_eq!(*parsed, json!({"refresh_token": "***", "Id": 1}));
        let page = MaskedJson::from_response(answer(b"<p>down</p>"));
        assert_eq!(*page, json!("<p>down</p>"));
        assert!(MaskedJson::from_response(answer(b"")).is_null());
        assert_eq!(
            *MaskedJson::from(json!({"token": "c", "code": "6240"})),
            json!({"token": "***", "code": "6240"})
        );
    }

    #[test]
    fn headers_are_masked() {
        let sent: Arc<[(String, String)]> = Arc::from(vec![
            ("authorization".to_owned(), "Bearer s3cret".to_owned()),
            ("If-Match".to_owned(), "W/\"1\"".to_owned()),
        ]);
        let shown = MaskedHeaders::sent(sent);
        let masked = [
            ("authorization".to_owned(), "Bearer ***".to_owned()),
            ("If-Match".to_owned(), "W/\"1\"".to_owned()),
        ];
        assert_eq!(*shown, masked);
        assert!(!format!("{shown:?}").contains("s3cret"));
        assert_eq!(
            serde_json::to_value(&shown).unwrap(),
            json!({"authorization": "Bearer ***", "If-Match": "W/\"1\""})
        );
        let mut response = HttpResponse::default();
        response
            .headers
            .insert("set-cookie", "id=1".parse().unwrap());
        assert_eq!(
            *MaskedHeaders::received(Arc::new(Received::new(response))),
            [("set-cookie".to_owned(), "***".to_owned())]
        );
        let given = MaskedHeaders::from(vec![("x-api-key".to_owned(), "k".to_owned())]);
        assert_eq!(*given, [("x-api-key".to_owned(), "***".to_owned())]);
    }

    #[test]
    fn echoed_secrets_are_redacted_in_every_view() {
        let _held = syncdef_secrets::Secret::new("masked-view-secret-3a");
        let answer = |body: Vec<u8>| {
            Arc::new(Received::new(HttpResponse {
                body: Bytes::from(body),
                ..HttpResponse::default()
            }))
        };
        let json_body =
            br#"{"detail": "echo masked-view-secret-3a", "n": [{"m": "masked-view-secret-3a"}]}"#;
        assert_eq!(
            *MaskedJson::from_response(answer(json_body.to_vec())),
            json!({"detail": "echo ***", "n": [{"m": "***"}]})
        );
        assert_eq!(
            *MaskedJson::from_response(answer(b"<p>masked-view-secret-3a</p>".to_vec())),
            json!("<p>***</p>")
        );
        let mut response = HttpResponse::default();
        response.headers.insert(
            "www-authenticate",
            "Bearer error=\"masked-view-secret-3a\"".parse().unwrap(),
        );
        assert_eq!(
            *MaskedHeaders::received(Arc::new(Received::new(response))),
            [(
                "www-authenticate".to_owned(),
                "Bearer error=\"***\"".to_owned()
            )]
        );
    }

    #[test]
    fn a_huge_answer_is_shown_as_its_beginning() {
        let mut body = b"{\"items\": [".to_vec();
        body.resize(3_000_000, b' ');
        body.extend_from_slice(b"]}");
        let shown = MaskedJson::from_response(Arc::new(Received::new(HttpResponse {
            body: Bytes::from(body),
            ..HttpResponse::default()
        })));
        let text = shown.as_str().unwrap();
        assert!(
            text.len() < syncdef_secrets::MAX_SHOWN + 100,
            "{}",
            text.len()
        );
        assert!(
            text.ends_with("bytes shown; 3000002 bytes in all]"),
            "{}",
            &text[text.len() - 80..]
        );
    }

    #[test]
    fn null_is_no_body() {
        assert!(MaskedJson::null().is_null());
        assert!(MaskedJson::from_value(Value::Null).is_null());
        assert_eq!(serde_json::to_string(&MaskedJson::null()).unwrap(), "null");
    }
}
