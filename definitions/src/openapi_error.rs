//! Locating `openapiv3` errors precisely.
//!
//! `openapiv3` uses untagged enums (`ReferenceOr<Schema>`) and flattened fields. serde
//! deserializes those by first buffering the whole value, so an error found deep inside (a
//! `type: [string, "null"]` in a property) surfaces at the boundary with no path below it: the
//! whole schema. serde's message still says what it found ("invalid type: sequence, expected a
//! string"), so we search the subtree for the first value of that kind under a field OpenAPI
//! types strictly, and report there.

use crate::de::DeError;
use crate::model::{LoadProblem, ProblemKind};
use crate::node::{Node, NodeKind, NumberValue};
use crate::pointer;

/// OpenAPI 3.0 fields with a fixed scalar type: where a wrong value type is found.
const TYPED_FIELDS: &[&str] = &[
    "$ref",
    "allowEmptyValue",
    "allowReserved",
    "authorizationUrl",
    "bearerFormat",
    "contentType",
    "deprecated",
    "description",
    "email",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "explode",
    "format",
    "in",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "multipleOf",
    "name",
    "nullable",
    "openIdConnectUrl",
    "openapi",
    "operationId",
    "pattern",
    "propertyName",
    "readOnly",
    "refreshUrl",
    "required",
    "scheme",
    "style",
    "summary",
    "termsOfService",
    "title",
    "tokenUrl",
    "type",
    "uniqueItems",
    "url",
    "version",
    "writeOnly",
];

/// The located problem for an OpenAPI deserialization error.
pub(crate) fn problem(root: &Node, err: &DeError) -> LoadProblem {
    let mut pointer = err.pointer();
    let mut span = err.span.unwrap_or(root.span);
    let mut narrowed = false;
    if let (Some(found), Some(at)) = (unexpected(&err.message), root.pointer(&pointer)) {
        let mut path = pointer.clone();
        let schema_expected = err.message.contains("expected struct Schema");
        if let Some((p, node)) = find(at, &found, &mut path, None, schema_expected) {
            narrowed = p != pointer;
            pointer = p;
            span = node.span;
        }
    }
    let message = format!("not a valid OpenAPI 3.0 document: {}", err.message);
    let help = if err.message.contains("expected struct PathItem")
        && pointer.contains("/callbacks/")
    {
        "`openapiv3` (the OpenAPI model syncdef uses) does not accept a `$ref` to a callback: write the callback inline"
    } else if narrowed
        && err.message.contains("sequence, expected a string")
        && pointer.ends_with("/type")
    {
        "OpenAPI 3.0 allows one type per schema: write `type: string` and `nullable: true` instead of a list of types"
    } else if err.message.contains("untagged enum") {
        "this must be either `$ref: '#/components/...'` or a complete object of the expected type; check its fields"
    } else if err.message.contains("missing field") {
        "add the missing field (see the OpenAPI 3.0 specification)"
    } else {
        "fix this value to match the OpenAPI 3.0 specification"
    };
    LoadProblem::new(ProblemKind::OpenApi, span, pointer, message).help(help)
}

/// What serde says it found: "invalid type: sequence, expected ...".
enum Found<'m> {
    Array,
    Object,
    Null,
    Bool(bool),
    Int(&'m str),
    Float(f64),
    Str(&'m str),
}

fn unexpected(message: &str) -> Option<Found<'_>> {
    let rest = message.strip_prefix("invalid type: ")?;
    let found = rest.split(", expected").next()?;
    let tick = |s: &'static str| found.strip_prefix(s).and_then(|r| r.strip_suffix('`'));
    Some(match found {
        "sequence" => Found::Array,
        "map" => Found::Object,
        "unit value" | "null" => Found::Null,
        "boolean `true`" => Found::Bool(true),
        "boolean `false`" => Found::Bool(false),
        _ => {
            if let Some(i) = tick("integer `") {
                Found::Int(i)
            } else if let Some(f) = tick("floating point `") {
                Found::Float(f.parse().ok()?)
            } else if let Some(s) = found
                .strip_prefix("string \"")
                .and_then(|r| r.strip_suffix('"'))
            {
                Found::Str(s)
            } else {
                return None;
            }
        }
    })
}

fn fits(node: &Node, found: &Found<'_>) -> bool {
    match (&node.kind, found) {
        (NodeKind::Array(_), Found::Array)
        | (NodeKind::Object(_), Found::Object)
        | (NodeKind::Null, Found::Null) => true,
        (NodeKind::Bool(b), Found::Bool(f)) => b == f,
        (NodeKind::Number(n), Found::Int(i)) => {
            *n.text == **i || matches!(n.value, NumberValue::PosInt(u) if u.to_string() == *i)
        }
        (NodeKind::Number(n), Found::Float(f)) => n.value.as_f64() == *f,
        (NodeKind::String(s), Found::Str(v)) => *s.value == **v,
        _ => false,
    }
}

/// Whether a value found under `key` (in an object under `parent`) is where serde's complaint
/// can apply.
fn suspect(
    key: Option<&str>,
    parent: Option<&str>,
    found: &Found<'_>,
    schema_expected: bool,
) -> bool {
    if schema_expected {
        // Where a Schema (or a reference to one) must be.
        return matches!(parent, Some("properties" | "allOf" | "anyOf" | "oneOf"))
            || matches!(key, Some("items" | "not" | "schema"));
    }
    // `required` is a list in a schema and a boolean in a parameter: a list there is fine.
    key.is_some_and(|k| {
        TYPED_FIELDS.contains(&k) && !(k == "required" && matches!(found, Found::Array))
    })
}

/// The first node (document order) where serde's complaint applies and that fits `found`.
fn find<'n>(
    node: &'n Node,
    found: &Found<'_>,
    path: &mut String,
    key: Option<&str>,
    schema_expected: bool,
) -> Option<(String, &'n Node)> {
    find_in(node, found, path, key, None, schema_expected)
}

fn find_in<'n>(
    node: &'n Node,
    found: &Found<'_>,
    path: &mut String,
    key: Option<&str>,
    parent: Option<&str>,
    schema_expected: bool,
) -> Option<(String, &'n Node)> {
    if suspect(key, parent, found, schema_expected) && fits(node, found) {
        return Some((path.clone(), node));
    }
    let len = path.len();
    match &node.kind {
        NodeKind::Object(members) => {
            for m in members {
                pointer::push(path, &m.key.name);
                // Under `properties` the keys are property names, not OpenAPI fields.
                let field = if key == Some("properties") {
                    None
                } else {
                    Some(&*m.key.name)
                };
                let hit = find_in(&m.value, found, path, field, key, schema_expected);
                path.truncate(len);
                if hit.is_some() {
                    return hit;
                }
            }
        }
        NodeKind::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                pointer::push_index(path, i);
                let hit = find_in(item, found, path, None, key, schema_expected);
                path.truncate(len);
                if hit.is_some() {
                    return hit;
                }
            }
        }
        _ => {}
    }
    None
}
