//! OpenAPI 3.0 schemas as JSON Schema (draft 2020-12), converted lazily: only the schemas of
//! operations a synchronization entry references, each with the closure of its `$ref`s, and
//! compiled once per file whatever the number of templates that feed the operation.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{Map, Value};
use syncdef_definitions::openapi::{self, OpenApi};
use syncdef_definitions::platform::FieldSchema;
use syncdef_definitions::{Node, NodeIdentity};

/// Where the converted root schema sits in its document (refs keep their own pointers).
const ROOT_POINTER: &str = "/x-syncdef-root";

/// Which side of an exchange a schema describes: OpenAPI's `readOnly` properties are not
/// required in requests, `writeOnly` ones not in responses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Direction {
    Request,
    Response,
}

/// One converted schema: the JSON Schema document and its compiled validator.
pub(crate) struct Converted {
    pub doc: Value,
    pub validator: Option<jsonschema::Validator>,
    /// Why the document does not compile, when it does not (the message the engine gives when
    /// it refuses the schema).
    pub compile_error: Option<String>,
}

impl Converted {
    /// The root schema, for static walks.
    pub fn root(&self) -> Option<FieldSchema<'_>> {
        let node = self.doc.pointer(ROOT_POINTER)?;
        Some(FieldSchema::in_document(&self.doc, node))
    }
}

/// Converted schemas of one file, keyed by the OpenAPI schema node's address.
#[derive(Default)]
pub(crate) struct SchemaCache {
    /// Shared by the rules, which may run on two threads: a schema both want is converted
    /// once (the second waits for it), two different ones at the same time.
    converted: Mutex<HashMap<(NodeIdentity, Direction), Arc<Slot>>>,
}

/// One schema's place in the cache: filled by the first rule that wants it.
type Slot = OnceLock<Arc<Converted>>;

impl SchemaCache {
    /// The JSON Schema of OpenAPI schema `schema` of document `root`, converted and compiled
    /// on first use.
    pub fn get(&self, root: &Node, schema: &Node, direction: Direction) -> Arc<Converted> {
        let key = (schema.identity(), direction);
        // A rule that panicked while holding the lock left the map whole (an insert is the
        // only write): keep using it.
        let cell = Arc::clone(
            self.converted
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .entry(key)
                .or_default(),
        );
        Arc::clone(cell.get_or_init(|| Arc::new(compile(root, schema, direction))))
    }

    /// Every schema converted, to be freed where the caller chooses (a compiled validator of
    /// a large schema takes a while to free).
    pub fn into_converted(self) -> Vec<Arc<Converted>> {
        self.converted
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .into_values()
            .filter_map(|cell| Arc::into_inner(cell).and_then(OnceLock::into_inner))
            .collect()
    }
}

/// `schema` converted to JSON Schema and compiled.
fn compile(root: &Node, schema: &Node, direction: Direction) -> Converted {
    let doc = convert_document(root, schema, direction);
    let built = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&doc);
    let (validator, compile_error) = match built {
        Ok(v) => (Some(v), None),
        Err(e) => (None, Some(e.to_string())),
    };
    Converted {
        doc,
        validator,
        compile_error,
    }
}

/// A JSON Schema document for `schema`: the converted schema at [`ROOT_POINTER`], referenced
/// from the root, and every local `$ref` target it reaches converted at its own pointer.
pub(crate) fn convert_document(root: &Node, schema: &Node, direction: Direction) -> Value {
    let mut refs = Vec::new();
    let converted = convert(root, schema, direction, &mut refs);
    let mut doc = Map::new();
    doc.insert(
        "$schema".into(),
        "https://json-schema.org/draft/2020-12/schema".into(),
    );
    doc.insert("$ref".into(), format!("#{ROOT_POINTER}").into());
    doc.insert(ROOT_POINTER[1..].to_owned(), converted);
    let mut doc = Value::Object(doc);
    let mut done: Vec<String> = Vec::new();
    while let Some(pointer) = refs.pop() {
        if done.contains(&pointer) {
            continue;
        }
        done.push(pointer.clone());
        // A pointer in a URI fragment is percent-encoded (`%7B` is `{`: RFC 6901, section 6);
        // the target is found, and its conversion placed, by the decoded pointer, which is
        // where the `$ref` resolves.
        let Some(decoded) = syncdef_definitions::refs::local_pointer(&format!("#{pointer}")) else {
            continue;
        };
        let Some(target) = root.pointer(&decoded) else {
            // A broken `$ref` is SD106's finding; leave it unresolved (the build fails and
            // only the static walk runs).
            continue;
        };
        let value = convert(root, &target, direction, &mut refs);
        insert_at(&mut doc, &decoded, value);
    }
    doc
}

/// Whether `property` is a local `$ref` to a schema that sets `flag` (`readOnly`): OpenAPI 3.0
/// ignores a `$ref`'s siblings, so a property is read-only by its target.
fn flagged_target(root: &Node, property: &Value, flag: &str) -> bool {
    property
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(syncdef_definitions::refs::local_pointer)
        .and_then(|pointer| root.pointer(&pointer))
        .and_then(|target| target.get(flag).and_then(Node::as_bool))
        == Some(true)
}

fn insert_at(doc: &mut Value, pointer: &str, value: Value) {
    let mut at = doc;
    let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
    let Some((last, parents)) = tokens.split_last() else {
        return;
    };
    for token in parents {
        let token = unescape(token);
        let Some(map) = at.as_object_mut() else {
            return;
        };
        at = map
            .entry(token)
            .or_insert_with(|| Value::Object(Map::new()));
    }
    if let Some(map) = at.as_object_mut() {
        map.insert(unescape(last), value);
    }
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// One OpenAPI 3.0 schema object as JSON Schema 2020-12: `nullable` becomes a `null` type
/// (and a `null` enum value), boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers,
/// a `$ref` drops its siblings (OpenAPI 3.0 ignores them), `readOnly` (requests) or
/// `writeOnly` (responses) properties leave `required`; annotations OpenAPI adds
/// (`discriminator`, `xml`, `example`, `externalDocs`) are dropped.
pub(crate) fn convert(
    root: &Node,
    node: &Node,
    direction: Direction,
    refs: &mut Vec<String>,
) -> Value {
    let json = node.to_json();
    convert_value(root, &json, direction, refs, 0)
}

#[expect(
    clippy::too_many_lines,
    reason = "one match converting OpenAPI's schema dialect to JSON Schema keyword by keyword"
)]
fn convert_value(
    root: &Node,
    v: &Value,
    direction: Direction,
    refs: &mut Vec<String>,
    depth: u32,
) -> Value {
    let Some(obj) = v.as_object() else {
        return v.clone();
    };
    if depth > 64 {
        return Value::Bool(true);
    }
    if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
        if let Some(pointer) = r.strip_prefix('#') {
            refs.push(pointer.to_owned());
            return serde_json::json!({ "$ref": r });
        }
        // External refs are SD106's finding: accept anything here.
        return Value::Bool(true);
    }
    let mut out = Map::new();
    let nullable = obj.get("nullable") == Some(&Value::Bool(true));
    let skipped_required: Vec<String> = obj
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| {
            props
                .iter()
                .filter(|(_, p)| {
                    let flag = match direction {
                        Direction::Request => "readOnly",
                        Direction::Response => "writeOnly",
                    };
                    p.get(flag) == Some(&Value::Bool(true)) || flagged_target(root, p, flag)
                })
                .map(|(k, _)| k.clone())
                .collect()
        })
        .unwrap_or_default();
    for (key, value) in obj {
        let converted = match key.as_str() {
            "nullable" | "discriminator" | "xml" | "example" | "externalDocs" => continue,
            "type" if nullable => match value {
                Value::String(t) => Value::Array(vec![t.clone().into(), "null".into()]),
                other => other.clone(),
            },
            "enum" if nullable => {
                let mut items = value.as_array().cloned().unwrap_or_default();
                if !items.contains(&Value::Null) {
                    items.push(Value::Null);
                }
                Value::Array(items)
            }
            "exclusiveMinimum" | "exclusiveMaximum" => {
                let bound = if key == "exclusiveMinimum" {
                    "minimum"
                } else {
                    "maximum"
                };
                match (value, obj.get(bound)) {
                    (Value::Bool(true), Some(limit)) => limit.clone(),
                    (Value::Bool(_), _) => continue,
                    (other, _) => other.clone(),
                }
            }
            "minimum" | "maximum" => {
                let flag = if key == "minimum" {
                    "exclusiveMinimum"
                } else {
                    "exclusiveMaximum"
                };
                if obj.get(flag) == Some(&Value::Bool(true)) {
                    continue;
                }
                value.clone()
            }
            "required" => {
                let kept: Vec<Value> = value
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|n| {
                        !n.as_str()
                            .is_some_and(|n| skipped_required.iter().any(|s| s == n))
                    })
                    .cloned()
                    .collect();
                Value::Array(kept)
            }
            "properties" | "patternProperties" => Value::Object(
                value
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(k, s)| {
                        (
                            k.clone(),
                            convert_value(root, s, direction, refs, depth + 1),
                        )
                    })
                    .collect(),
            ),
            "items" | "additionalProperties" | "not" => {
                convert_value(root, value, direction, refs, depth + 1)
            }
            "allOf" | "anyOf" | "oneOf" => Value::Array(
                value
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|s| convert_value(root, s, direction, refs, depth + 1))
                    .collect(),
            ),
            _ => value.clone(),
        };
        out.insert(key.clone(), converted);
    }
    // `nullable` without `type` only matters inside compositions; OpenAPI 3.0.3 says it
    // does nothing there, so nothing is added.
    Value::Object(out)
}

/// The JSON schema of a request body or response `content`: `application/json` first, then
/// any `+json`/`json` media type.
pub(crate) fn json_content_schema<'n>(root: Node<'n>, holder: Node<'n>) -> Option<Node<'n>> {
    openapi::json_content(root, holder)?.schema
}

/// The success (2xx) responses of an operation, in document order.
pub(crate) fn success_responses<'n>(root: Node<'n>, operation: Node<'n>) -> Vec<Node<'n>> {
    OpenApi::new(root).operation(operation).success_responses()
}

/// Every declared response (success, error and `default`): response templates are applied
/// to whatever the system answers.
pub(crate) fn all_responses<'n>(root: Node<'n>, operation: Node<'n>) -> Vec<Node<'n>> {
    let operation = OpenApi::new(root).operation(operation);
    operation.responses().map(|(_, r)| r).collect()
}

/// Follows local `$ref`s (`None` for a broken, external or circular one: SD106 to SD108 report
/// those).
pub(crate) use syncdef_definitions::openapi::resolve;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::Arc;
    use syncdef_definitions::{LoadOptions, SourceFile};

    fn doc(text: &str) -> syncdef_definitions::Tree {
        let file = Arc::new(SourceFile::new("t.yaml", text));
        syncdef_definitions::load::load_with(file, &LoadOptions::default())
            .expect("loads")
            .tree
    }

    #[test]
    fn a_read_only_property_written_as_a_ref_leaves_required_in_requests() {
        // Apideck writes `id: {$ref: "#/components/schemas/Id"}`, the `Id` schema `readOnly`.
        let root_tree = doc(r##"
components:
  schemas:
    Body:
      type: object
      required: [id, name]
      properties:
        id: {$ref: "#/components/schemas/Id"}
        name: {type: string}
    Id: {type: string, readOnly: true}
"##);
        let root = root_tree.root();
        let schema = root.pointer("/components/schemas/Body").expect("schema");
        let request = convert_document(&root, &schema, Direction::Request);
        assert_eq!(request["x-syncdef-root"]["required"], json!(["name"]));
        let response = convert_document(&root, &schema, Direction::Response);
        assert_eq!(
            response["x-syncdef-root"]["required"],
            json!(["id", "name"])
        );
    }

    #[test]
    fn a_ref_whose_pointer_is_percent_encoded_is_converted_where_it_points() {
        // RFC 6901, section 6: a pointer in a URI fragment is percent-encoded (`%7B` for `{`).
        let root_tree = doc(r##"
paths:
  /ships/{symbol}:
    get:
      responses:
        "200":
          content:
            application/json:
              schema: {type: string, enum: [FRIGATE]}
components:
  schemas:
    Body:
      type: object
      properties:
        kind: {$ref: "#/paths/~1ships~1%7Bsymbol%7D/get/responses/200/content/application~1json/schema"}
"##);
        let root = root_tree.root();
        let schema = root.pointer("/components/schemas/Body").expect("schema");
        let converted = convert_document(&root, &schema, Direction::Request);
        let validator = jsonschema::validator_for(&converted).expect("compiles");
        assert!(validator.is_valid(&json!({"kind": "FRIGATE"})));
        assert!(!validator.is_valid(&json!({"kind": "BARGE"})));
    }

    #[test]
    fn converts_nullable_refs_bounds_and_read_only() {
        let root_tree = doc(r##"
components:
  schemas:
    Body:
      type: object
      required: [id, name]
      properties:
        id: {type: string, readOnly: true}
        name: {type: string, nullable: true, enum: [a, b], example: a}
        size: {type: number, minimum: 0, exclusiveMinimum: true}
        tags: {type: array, items: {$ref: "#/components/schemas/Tag"}}
    Tag: {type: string, maxLength: 3}
"##);
        let root = root_tree.root();
        let schema = root.pointer("/components/schemas/Body").expect("schema");
        let converted = convert_document(&root, &schema, Direction::Request);
        let body = &converted["x-syncdef-root"];
        assert_eq!(body["required"], json!(["name"]));
        assert_eq!(
            body["properties"]["name"]["type"],
            json!(["string", "null"])
        );
        assert_eq!(body["properties"]["name"]["enum"], json!(["a", "b", null]));
        assert!(body["properties"]["name"].get("example").is_none());
        assert_eq!(body["properties"]["size"]["exclusiveMinimum"], json!(0));
        assert!(body["properties"]["size"].get("minimum").is_none());
        assert_eq!(
            converted["components"]["schemas"]["Tag"],
            json!({"type": "string", "maxLength": 3})
        );
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&converted)
            .expect("compiles");
        assert!(validator.is_valid(&json!({"name": null, "tags": ["abc"]})));
        assert!(!validator.is_valid(&json!({"name": "a", "tags": ["abcd"]})));
        assert!(!validator.is_valid(&json!({"tags": []})));
        assert!(!validator.is_valid(&json!({"name": "a", "size": 0})));
        // In a response the read-only id is required again.
        let response = convert_document(&root, &schema, Direction::Response);
        assert_eq!(
            response["x-syncdef-root"]["required"],
            json!(["id", "name"])
        );
    }

    #[test]
    fn the_cache_converts_a_shared_schema_once() {
        let root_tree = doc("components: {schemas: {A: {type: object}}}\n");
        let root = root_tree.root();
        let schema = root.pointer("/components/schemas/A").expect("schema");
        let cache = SchemaCache::default();
        let a = cache.get(&root, &schema, Direction::Request);
        let b = cache.get(&root, &schema, Direction::Request);
        assert!(Arc::ptr_eq(&a, &b));
        assert!(a.validator.is_some());
    }
}
