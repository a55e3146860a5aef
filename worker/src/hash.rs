//! The fingerprint that decides whether a record needs pushing again.
//!
//! It is taken over the push's *input*: the full platform record (child collections
//! included, the top-level `updatedAt` left out) and the external ids of its related
//! records. `updatedAt` is left out so that a record the platform touched without changing
//! anything is not pushed again; a template that copies `updatedAt` itself into the external
//! record would then keep the older value until a real change (docs/worker.md). Not over the rendered request
//! body: an update body carries the concurrency token read from the external system at push
//! time (QuickBooks' `SyncToken`, an ETag), so it differs on every push even when nothing
//! changed. A change of a related record's external id (an account re-created) changes the
//! hash too, so the invoice follows.

use std::collections::BTreeMap;

use serde_json::Value;
use sha2::{Digest, Sha256};
use syncdef_definitions::platform::modules::CHANGE_CURSOR;

/// The record's field that only says when it changed (the change cursor): not part of the
/// hash.
pub const IGNORED_FIELD: &str = CHANGE_CURSOR;

/// `sha256:<hex>` of the record in canonical form (object keys sorted, no spaces, no
/// top-level `updatedAt`) followed by the related ids.
pub fn input_hash(record: &Value, related: &BTreeMap<String, String>) -> String {
    let mut hasher = Sha256::new();
    match record {
        Value::Object(map) if map.contains_key(IGNORED_FIELD) => {
            let mut trimmed = map.clone();
            trimmed.remove(IGNORED_FIELD);
            canonical(&Value::Object(trimmed), &mut hasher);
        }
        _ => canonical(record, &mut hasher),
    }
    for (entry, id) in related {
        hasher.update(b"\x00");
        hasher.update(entry.as_bytes());
        hasher.update(b"=");
        hasher.update(id.as_bytes());
    }
    let digest = hasher.finalize();
    let mut text = String::with_capacity(7 + 64);
    text.push_str("sha256:");
    for byte in digest {
        text.push_str(&format!("{byte:02x}"));
    }
    text
}

/// Writes `value` with sorted keys, whatever map order `serde_json` was built with.
fn canonical(value: &Value, hasher: &mut Sha256) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            hasher.update(b"{");
            for key in keys {
                hasher.update(Value::String(key.clone()).to_string().as_bytes());
                hasher.update(b":");
                if let Some(v) = map.get(key) {
                    canonical(v, hasher);
                }
                hasher.update(b",");
            }
            hasher.update(b"}");
        }
        Value::Array(items) => {
            hasher.update(b"[");
            for item in items {
                canonical(item, hasher);
                hasher.update(b",");
            }
            hasher.update(b"]");
        }
        scalar => hasher.update(scalar.to_string().as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_order_does_not_matter_but_values_and_relations_do() {
        let none = BTreeMap::new();
        let a = input_hash(&json!({"a": 1, "b": [1, {"x": "y"}]}), &none);
        let b: Value = serde_json::from_str(r#"{"b": [1, {"x": "y"}], "a": 1}"#).expect("json");
        assert_eq!(a, input_hash(&b, &none));
        assert_ne!(a, input_hash(&json!({"a": 2, "b": [1, {"x": "y"}]}), &none));
        let related = BTreeMap::from([("Account".to_owned(), "67".to_owned())]);
        assert_ne!(a, input_hash(&b, &related));
        assert!(a.starts_with("sha256:") && a.len() == 71);
        let touched = json!({"a": 1, "b": [1, {"x": "y"}], "updatedAt": "2026-01-01"});
        assert_eq!(
            a,
            input_hash(&touched, &none),
            "updatedAt alone is no change"
        );
    }
}
