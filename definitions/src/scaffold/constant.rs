//! The constant a starting definition writes where no platform field fits: a value of the
//! property's type, the one the vendor's schema suggests when it suggests one, and a
//! placeholder that says what to write otherwise.
//!
//! A placeholder, not a value made to fit the schema (one drawn from its `pattern` or within its
//! bounds, as the vendor corpus benchmark writes for its finished bodies): a plausible value
//! would hide that the user still has to decide it, where `TODO name` or an empty list shows
//! it (each is listed in `Scaffold::left` too).

use serde_json::{Value as Json, json};

use super::merged::Merged;
use crate::node::Node;
use crate::openapi::Schema;

/// A constant and why it is that value.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Constant {
    /// The value written.
    pub value: Json,
    /// Where it came from, for the list of constants to check.
    pub origin: &'static str,
}

/// The constant for property `name` of `schema` (merged as `merged`).
pub(super) fn constant(schema: &Schema<'_>, merged: &Merged<'_>, name: &str) -> Constant {
    let kind = merged.kind.unwrap_or("string");
    let suggested = [
        (merged.allowed, "the first value its enum allows"),
        (schema.default(), "its default"),
        (schema.example(), "the vendor's example"),
    ];
    for (node, origin) in suggested {
        if let Some(value) = node.map(Node::to_json).filter(|v| is_of(v, kind)) {
            return Constant {
                value: literal(value),
                origin,
            };
        }
    }
    let (value, origin) = match kind {
        "integer" | "number" => (
            minimum(schema).unwrap_or_else(|| json!(0)),
            "a number to replace",
        ),
        "boolean" => (json!(false), "a boolean to replace"),
        "array" => (json!([]), "an empty list to fill"),
        "object" => (json!({}), "an empty object to fill"),
        _ => match format_sample(schema.format()) {
            Some(sample) => (json!(sample), "a sample of its format, to replace"),
            None => (json!(format!("TODO {name}")), "a placeholder to replace"),
        },
    };
    Constant { value, origin }
}

/// Whether `value` is of OpenAPI type `kind`.
fn is_of(value: &Json, kind: &str) -> bool {
    match kind {
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => !value.is_null(),
    }
}

/// `value` as a template writes it literally: a string starting with `#` would be read as a
/// function call, so it is escaped (`/#`, which the template language reads as `#`).
fn literal(value: Json) -> Json {
    match value {
        Json::String(text) if text.starts_with('#') => Json::String(format!("/{text}")),
        other => other,
    }
}

/// The schema's `minimum`, when it has one.
fn minimum(schema: &Schema<'_>) -> Option<Json> {
    let minimum = schema.node.get("minimum")?.to_json();
    minimum.is_number().then_some(minimum)
}

/// A value of string format `format` the vendor accepts as such.
fn format_sample(format: Option<&str>) -> Option<&'static str> {
    Some(match format? {
        "date" => "2026-01-01",
        "date-time" => "2026-01-01T00:00:00Z",
        "email" => "someone@example.com",
        "uri" | "url" => "https://example.com/",
        "uuid" => "00000000-0000-4000-8000-000000000000",
        _ => return None,
    })
}
