//! Idempotency keys: a value derived from the record that lets the external system recognise a
//! request it has already carried out (QuickBooks `requestid`), so that a create whose answer
//! was lost can be sent again without creating the record twice.
//!
//! The key is a hash of the entry, the platform record's id and the rendered body: the same
//! version of the same record always gets the same key (a worker's later re-push is recognised
//! too), and a changed record gets a new one (it is a new request, not a repeat).

use sha2::{Digest, Sha256};
use syncdef_transform::Value;
use url::Url;

use crate::plan::OperationKind;

use syncdef_definitions::extension::ParameterPlace;

/// `x-syncdef.idempotency`: how the external system accepts an idempotency key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdempotencyKey {
    /// Query parameter or header.
    pub placement: ParameterPlace,
    /// Its name (`requestid`).
    pub name: String,
    /// The operations that carry it. Default: `[create]`, the only one a lost answer can
    /// duplicate.
    pub operations: Vec<OperationKind>,
}

#[cfg(test)]
fn creates() -> Vec<OperationKind> {
    vec![OperationKind::Create]
}

impl IdempotencyKey {
    /// Whether `kind` requests carry the key.
    #[must_use]
    pub fn applies_to(&self, kind: OperationKind) -> bool {
        self.operations.contains(&kind)
    }

    /// Adds `key` to the request (`url` or `headers`).
    pub(crate) fn apply(&self, key: &str, url: &mut Url, headers: &mut Vec<(String, String)>) {
        match self.placement {
            ParameterPlace::Query => {
                url.query_pairs_mut().append_pair(&self.name, key);
            }
            ParameterPlace::Header => {
                headers.retain(|(k, _)| !k.eq_ignore_ascii_case(&self.name));
                headers.push((self.name.clone(), key.to_owned()));
            }
        }
    }
}

/// The key of one request: 32 hex digits (QuickBooks accepts up to 50 characters) of
/// SHA-256 over the entry, the record's platform id and the body sent.
#[must_use]
pub fn derive(entry: &str, record: &Value, body: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let id = record
        .get("id")
        .map(Value::to_json_compact)
        .unwrap_or_default();
    let mut hash = Sha256::new();
    // Length-prefixed so that ("ab", "c") and ("a", "bc") differ.
    for part in [entry.as_bytes(), id.as_bytes(), body] {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part);
    }
    let mut key = String::with_capacity(32);
    for b in &hash.finalize()[..16] {
        key.push(char::from(DIGITS[usize::from(b >> 4)]));
        key.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_record_same_key_changed_record_new_key() {
        let a = Value::from_json_str(r#"{"id": 7, "name": "Acme"}"#).unwrap();
        let b = Value::from_json_str(r#"{"id": 8, "name": "Acme"}"#).unwrap();
        let k = derive("Account", &a, b"{\"DisplayName\":\"Acme\"}");
        assert_eq!(k.len(), 32);
        assert_eq!(k, derive("Account", &a, b"{\"DisplayName\":\"Acme\"}"));
        assert_ne!(k, derive("Account", &b, b"{\"DisplayName\":\"Acme\"}"));
        assert_ne!(k, derive("Account", &a, b"{\"DisplayName\":\"Acme 2\"}"));
        assert_ne!(k, derive("Invoice", &a, b"{\"DisplayName\":\"Acme\"}"));
    }

    #[test]
    fn query_and_header_placement() {
        let key = IdempotencyKey {
            placement: ParameterPlace::Query,
            name: "requestid".into(),
            operations: creates(),
        };
        let mut url =
            Url::parse("https://h.example/v3/company/1/customer?minorversion=75").unwrap();
        let mut headers = Vec::new();
        key.apply("abc", &mut url, &mut headers);
        assert_eq!(url.query(), Some("minorversion=75&requestid=abc"));
        let key = IdempotencyKey {
            placement: ParameterPlace::Header,
            ..key
        };
        key.apply("abc", &mut url, &mut headers);
        assert_eq!(headers, vec![("requestid".to_owned(), "abc".to_owned())]);
    }
}
