//! An OpenAPI document's schemas as JSON Schema (draft 2020-12), so that the `jsonschema` crate
//! can judge a body against the schema its operation declares. Shared by the tests that judge
//! what the product sends from the outside (the catalog's dry-runs, the engine's lint and push
//! agreement, the vendor corpus example). The conversion is written here, by the rules of the
//! OpenAPI specification, and not taken from the product (the validator's `request_schema`,
//! which the engine's request check and the linter share), so that a mistake of that conversion
//! cannot hide a body the external system would refuse.
//!
//! OpenAPI 3.0's Schema Object is an extended subset of draft 4; converted:
//! - `nullable: true` admits `null`: beside a `type` as one more type (and in an `enum`),
//!   beside alternatives and no `type` (Stripe's expandable fields) as one more alternative;
//! - a `$ref`'s siblings are ignored;
//! - `exclusiveMinimum` and `exclusiveMaximum` are booleans that make `minimum` and `maximum`
//!   exclusive.
//!
//! OpenAPI 3.1's is JSON Schema 2020-12 already. In both, a `readOnly` property must not be sent
//! in a request and is required in responses only, a `writeOnly` property the other way round
//! (OpenAPI 3.0.3, "Fixed Fields" of the Schema Object), also when the property is a `$ref` to
//! a schema marked so.

use serde_json::{Map, Value, json};

/// Which way a body goes: a client must not send `readOnly` properties, a server must not send
/// `writeOnly` ones.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    Request,
    Response,
}

/// Whether `format` is asserted, or an annotation (as JSON Schema 2020-12 and OpenAPI 3.1
/// define it, and as the engine and the linter treat it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Formats {
    Asserted,
    Annotated,
}

/// A document with every schema converted, to compile validators of its schemas from.
pub struct Schemas {
    document: Value,
    openapi_30: bool,
    direction: Direction,
    formats: Formats,
}

impl Schemas {
    /// The schemas of the OpenAPI document `doc` (as JSON), for bodies going `direction`.
    pub fn of(doc: &Value, direction: Direction, formats: Formats) -> Schemas {
        let openapi_30 = doc
            .get("openapi")
            .and_then(Value::as_str)
            .is_some_and(|v| v.starts_with("3.0"));
        let converter = Converter {
            lookup: doc,
            openapi_30,
            direction,
        };
        Schemas {
            document: converter.document(doc),
            openapi_30,
            direction,
            formats,
        }
    }

    /// A validator of `schema`, a schema as the document writes it (its `$ref`s pointing into
    /// the document); a message when it does not compile.
    pub fn validator(&self, schema: &Value) -> Result<jsonschema::Validator, String> {
        let converter = Converter {
            lookup: &self.document,
            openapi_30: self.openapi_30,
            direction: self.direction,
        };
        let mut root = self.document.clone();
        let Value::Object(members) = &mut root else {
            return Err("the document is not an object".to_owned());
        };
        // The document is the root resource, so that `$ref`s resolve in it; the schema judged
        // is a member of it that the root refers to (the document's other members are no
        // keywords of JSON Schema).
        members.insert("x-checked-body".to_owned(), converter.schema(schema));
        members.insert("$ref".to_owned(), Value::from("#/x-checked-body"));
        jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(self.formats == Formats::Asserted)
            .build(&root)
            .map_err(|error| format!("its schema does not compile: {error}"))
    }
}

struct Converter<'a> {
    /// Where a property's `$ref` is followed, to see whether its target is read- or write-only.
    lookup: &'a Value,
    openapi_30: bool,
    direction: Direction,
}

impl Converter<'_> {
    /// `node` of the document with every schema in it converted: the value of each `schema`
    /// member (parameters, media types, headers) and of each member of `schemas` (components).
    fn document(&self, node: &Value) -> Value {
        match node {
            Value::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(key, value)| {
                        let converted = match (key.as_str(), value) {
                            ("schema", Value::Object(_)) => self.schema(value),
                            ("schemas", Value::Object(named)) => Value::Object(
                                named
                                    .iter()
                                    .map(|(name, s)| (name.clone(), self.schema(s)))
                                    .collect(),
                            ),
                            _ => self.document(value),
                        };
                        (key.clone(), converted)
                    })
                    .collect(),
            ),
            Value::Array(items) => Value::Array(items.iter().map(|i| self.document(i)).collect()),
            other => other.clone(),
        }
    }

    /// One schema object as a JSON Schema (draft 2020-12).
    fn schema(&self, schema: &Value) -> Value {
        let Some(object) = schema.as_object() else {
            return schema.clone();
        };
        if self.openapi_30
            && let Some(reference) = object.get("$ref")
        {
            return json!({ "$ref": reference });
        }
        let mut out = Map::new();
        let mut hidden = Vec::new();
        for (key, value) in object {
            let converted = match key.as_str() {
                "properties" => self.properties(value, &mut hidden),
                "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                    Value::Object(
                        value
                            .as_object()
                            .into_iter()
                            .flatten()
                            .map(|(name, s)| (name.clone(), self.schema(s)))
                            .collect(),
                    )
                }
                "items"
                | "not"
                | "additionalProperties"
                | "additionalItems"
                | "contains"
                | "propertyNames"
                | "if"
                | "then"
                | "else"
                | "unevaluatedItems"
                | "unevaluatedProperties" => self.schema(value),
                "allOf" | "anyOf" | "oneOf" | "prefixItems" => Value::Array(
                    value
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|s| self.schema(s))
                        .collect(),
                ),
                "exclusiveMinimum" | "exclusiveMaximum"
                    if self.openapi_30 && value.is_boolean() =>
                {
                    let bound = if key == "exclusiveMinimum" {
                        "minimum"
                    } else {
                        "maximum"
                    };
                    if value == &Value::Bool(true)
                        && let Some(limit) = object.get(bound)
                    {
                        out.insert(key.clone(), limit.clone());
                    }
                    continue;
                }
                _ => value.clone(),
            };
            out.insert(key.clone(), converted);
        }
        if let Some(Value::Array(required)) = out.get_mut("required") {
            required.retain(|name| name.as_str().is_none_or(|n| !hidden.iter().any(|h| h == n)));
        }
        if self.openapi_30 {
            admit_null_30(object, out)
        } else {
            Value::Object(out)
        }
    }

    /// The `properties` of a schema, converted; a property not sent this way refused (`false`)
    /// and its name added to `hidden`.
    fn properties(&self, properties: &Value, hidden: &mut Vec<String>) -> Value {
        let converted = properties.as_object().into_iter().flatten();
        Value::Object(
            converted
                .map(|(name, property)| {
                    if self.hidden(property) {
                        hidden.push(name.clone());
                        (name.clone(), Value::Bool(false))
                    } else {
                        (name.clone(), self.schema(property))
                    }
                })
                .collect(),
        )
    }

    /// Whether the property `schema` is one not sent this way: marked `readOnly` (a request) or
    /// `writeOnly` (a response), itself or the schema its `$ref` points at.
    fn hidden(&self, schema: &Value) -> bool {
        let keyword = match self.direction {
            Direction::Request => "readOnly",
            Direction::Response => "writeOnly",
        };
        let is_marked = |node: &Value| node.get(keyword) == Some(&Value::Bool(true));
        is_marked(schema) || is_marked(follow(self.lookup, schema))
    }
}

/// `out`, converted from the OpenAPI 3.0 schema `object`, with `null` admitted where `object`
/// is `nullable`, and its exclusive bounds (converted from booleans) replacing the inclusive.
fn admit_null_30(object: &Map<String, Value>, mut out: Map<String, Value>) -> Value {
    for (exclusive, inclusive) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        if out.contains_key(exclusive) {
            out.remove(inclusive);
        }
    }
    if object.get("nullable") != Some(&Value::Bool(true)) {
        return Value::Object(out);
    }
    if let Some(Value::String(kind)) = out.get("type") {
        let kinds = json!([kind, "null"]);
        out.insert("type".to_owned(), kinds);
    }
    if let Some(Value::Array(values)) = out.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
    if !out.contains_key("type") && (out.contains_key("anyOf") || out.contains_key("oneOf")) {
        return json!({ "anyOf": [Value::Object(out), { "type": "null" }] });
    }
    Value::Object(out)
}

/// `node`, or what its local `$ref` points at in `document` (a `$ref` to a `$ref` followed; a
/// cycle ends after a few steps).
pub fn follow<'a>(document: &'a Value, mut node: &'a Value) -> &'a Value {
    for _ in 0..32 {
        let Some(target) = node
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
            .and_then(|pointer| document.pointer(pointer))
        else {
            break;
        };
        node = target;
    }
    node
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{Direction, Formats, Schemas};

    fn valid(doc: &Value, schema: &Value, direction: Direction, body: &Value) -> bool {
        Schemas::of(doc, direction, Formats::Annotated)
            .validator(schema)
            .expect("compiles")
            .is_valid(body)
    }

    #[test]
    fn nullable_alternatives_allow_null() {
        let doc = json!({"openapi": "3.0.3"});
        let schema = json!({"nullable": true, "anyOf": [{"type": "string"}, {"type": "object"}]});
        let answer = |body: Value| valid(&doc, &schema, Direction::Response, &body);
        assert!(answer(Value::Null));
        assert!(answer(json!("cus_1")));
        assert!(!answer(json!(1)));
        let strict = json!({"anyOf": [{"type": "string"}]});
        assert!(!valid(&doc, &strict, Direction::Response, &Value::Null));
    }

    #[test]
    fn nullable_read_only_and_refs_convert() {
        let doc = json!({"openapi": "3.0.3", "components": {"schemas": {
            "Id": {"type": "string", "readOnly": true},
            "A": {"type": "object", "required": ["n", "id", "ref"], "properties": {
                "n": {"type": "string", "nullable": true, "enum": ["a"]},
                "id": {"type": "string", "readOnly": true},
                "ref": {"$ref": "#/components/schemas/Id"},
                "secret": {"type": "string", "writeOnly": true},
                "low": {"type": "number", "minimum": 1, "exclusiveMinimum": true}}}}}});
        let schema = json!({"$ref": "#/components/schemas/A", "description": "x"});
        let request = |body: Value| valid(&doc, &schema, Direction::Request, &body);
        // A read-only property is required in answers only, and never sent.
        assert!(request(json!({"n": null, "secret": "s"})));
        assert!(request(json!({"n": "a", "low": 1.5})));
        assert!(!request(json!({"n": "b"})));
        assert!(!request(json!({"n": 1})));
        assert!(!request(json!({"n": "a", "low": 1})));
        assert!(!request(json!({"n": "a", "id": "1"})));
        assert!(!request(json!({"n": "a", "ref": "1"})));
        assert!(!request(json!({})));
        let answer = |body: Value| valid(&doc, &schema, Direction::Response, &body);
        assert!(answer(json!({"n": "a", "id": "1", "ref": "2"})));
        assert!(!answer(json!({"n": "a", "id": "1"})));
        assert!(!answer(
            json!({"n": "a", "id": "1", "ref": "2", "secret": "s"})
        ));
    }

    #[test]
    fn formats_are_asserted_only_when_asked() {
        let doc = json!({"openapi": "3.1.0"});
        let schema = json!({"type": "string", "format": "date"});
        let validator = |formats| {
            Schemas::of(&doc, Direction::Request, formats)
                .validator(&schema)
                .expect("compiles")
        };
        assert!(validator(Formats::Annotated).is_valid(&json!("soon")));
        assert!(!validator(Formats::Asserted).is_valid(&json!("soon")));
        assert!(validator(Formats::Asserted).is_valid(&json!("2026-01-01")));
    }

    #[test]
    fn schemas_anywhere_in_the_document_are_converted_for_references() {
        let doc = json!({"openapi": "3.0.1", "paths": {"/a": {"post": {"requestBody": {
            "content": {"application/json": {"schema": {"type": "integer", "nullable": true}}}}}}}});
        let schema =
            json!({"$ref": "#/paths/~1a/post/requestBody/content/application~1json/schema"});
        assert!(valid(&doc, &schema, Direction::Request, &Value::Null));
        assert!(!valid(&doc, &schema, Direction::Request, &json!("1")));
    }
}
