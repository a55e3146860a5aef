//! JSON in the audit trail: request and response bodies and template outputs, secrets masked,
//! rendered when first looked at rather than during the push.
//!
//! A push makes its bodies anyway (the template's output, the parsed answer); the audit trail
//! keeps a shared handle on them instead of a masked copy of each. A worker pushing thousands of
//! records that never reads the trail pays nothing for it; `dry-run` and anything else that
//! reads it gets the masked JSON, built once and shared by every clone.

use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::{Serialize, Serializer};
use serde_json::Value as Json;
use syncdef_transform::Value;

use crate::extract::ResponseBody;
use crate::mask;
use crate::outcome::text_body;

/// JSON with every secret member masked ([`mask::json`]). Dereferences to the masked
/// [`serde_json::Value`]; `Debug`, `Display` and `Serialize` show it too. The unmasked source
/// is private: no method gives it out. Cloning shares it.
#[derive(Clone, Default)]
pub struct MaskedJson(Option<Arc<Shown>>);

struct Shown {
    source: Source,
    masked: OnceLock<Json>,
}

enum Source {
    /// A template's output, converted to JSON as the template language does (`From<&Value>`).
    Value(Value),
    /// A response body, shared with the engine's reading of it: JSON, or its text.
    Response(Arc<ResponseBody>),
    /// Already masked (a text body, or JSON given in masked form).
    Masked,
}

static NULL: Json = Json::Null;

impl MaskedJson {
    /// `null`: no body.
    #[must_use]
    pub fn null() -> Self {
        MaskedJson(None)
    }

    /// A template's output; masked when first shown.
    pub(crate) fn from_value(value: Value) -> Self {
        if value.is_null() {
            return MaskedJson(None);
        }
        Self::lazy(Source::Value(value))
    }

    /// A response body, shared; parsed and masked when first shown.
    pub(crate) fn from_response(body: Arc<ResponseBody>) -> Self {
        if body.bytes().is_empty() {
            return MaskedJson(None);
        }
        Self::lazy(Source::Response(body))
    }

    /// JSON with nothing to mask (a text body), shown as it is.
    pub(crate) fn plain(json: Json) -> Self {
        let masked = OnceLock::new();
        let _ = masked.set(json);
        MaskedJson(Some(Arc::new(Shown {
            source: Source::Masked,
            masked,
        })))
    }

    fn lazy(source: Source) -> Self {
        MaskedJson(Some(Arc::new(Shown {
            source,
            masked: OnceLock::new(),
        })))
    }

    /// The masked JSON.
    #[must_use]
    pub fn json(&self) -> &Json {
        let Some(shown) = &self.0 else {
            return &NULL;
        };
        shown.masked.get_or_init(|| match &shown.source {
            Source::Value(v) => {
                let mut json = Json::from(v);
                mask::json_in_place(&mut json);
                json
            }
            Source::Response(body) => match body.json() {
                Ok(json) => mask::json(json),
                Err(_) => text_body(body.bytes()),
            },
            // Set at construction.
            Source::Masked => Json::Null,
        })
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
            return MaskedJson(None);
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
        let body = ResponseBody::new(br#"{"refresh_token": "r", "Id": 1}"#.to_vec());
        let parsed = MaskedJson::from_response(Arc::new(body));
        assert_eq!(*parsed, json!({"refresh_token": "***", "Id": 1}));
        let page = MaskedJson::from_response(Arc::new(ResponseBody::new(b"<p>down</p>".to_vec())));
        assert_eq!(*page, json!("<p>down</p>"));
        assert_eq!(
            *MaskedJson::from(json!({"code": "c"})),
            json!({"code": "***"})
        );
    }

    #[test]
    fn null_is_no_body() {
        assert!(MaskedJson::null().is_null());
        assert!(MaskedJson::from_value(Value::Null).is_null());
        assert_eq!(serde_json::to_string(&MaskedJson::null()).unwrap(), "null");
    }
}
