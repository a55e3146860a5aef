//! Just enough OpenAPI 3.0 to check a rendered request against the definition it was rendered
//! from: the server base URL, the operation a method and URL address, and that operation's
//! request body schema as a JSON Schema (`$ref`s kept pointing into the document, `nullable`
//! turned into a `null` type, `readOnly` properties refused since a client must not send them).

use serde_json::{Map, Value, json};

/// The first server's URL with every variable at its default (what a dry-run uses unless told
/// otherwise). Values in the path are percent-encoded as one segment, as the engine sends them
/// (`Company('CRONUS%20International%20Ltd.')`); values in the host go in as they are.
pub fn server_base(doc: &Value) -> String {
    let server = &doc["servers"][0];
    let url = server["url"].as_str().unwrap_or_default();
    let path_start = url
        .find("://")
        .and_then(|s| url[s + 3..].find('/').map(|p| s + 3 + p))
        .unwrap_or(url.len());
    let (mut host, mut path) = (url[..path_start].to_owned(), url[path_start..].to_owned());
    if let Some(vars) = server["variables"].as_object() {
        for (name, var) in vars {
            let default = var["default"].as_str().unwrap_or_default();
            let placeholder = format!("{{{name}}}");
            host = host.replace(&placeholder, default);
            path = path.replace(&placeholder, &encode_segment(default));
        }
    }
    format!("{host}{path}").trim_end_matches('/').to_owned()
}

/// Everything but RFC 3986's unreserved characters, percent-encoded.
fn encode_segment(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// One operation of `paths`, found by method and path.
#[allow(
    clippy::struct_field_names,
    reason = "`operation` is the OpenAPI Operation object, as the spec names it"
)]
pub struct Operation<'a> {
    pub template: &'a str,
    pub path_item: &'a Value,
    pub operation: &'a Value,
}

impl Operation<'_> {
    /// Parameters of the operation and of its path item, `$ref`s resolved.
    pub fn parameters<'d>(&'d self, doc: &'d Value) -> Vec<&'d Value> {
        self.path_item["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .chain(
                self.operation["parameters"]
                    .as_array()
                    .into_iter()
                    .flatten(),
            )
            .map(|p| resolve(doc, p))
            .collect()
    }

    /// The JSON request body schema, if the operation takes one.
    /// The request body schema: the JSON one, else the form's (a form body is checked as the
    /// JSON value it is written from, whose members are the form's fields).
    pub fn request_schema(&self) -> Option<&Value> {
        let content = &self.operation["requestBody"]["content"];
        content["application/json"]
            .get("schema")
            .or_else(|| content["application/x-www-form-urlencoded"].get("schema"))
    }

    /// The JSON body schema of the response with `status`, if the operation declares one.
    pub fn response_schema<'d>(&'d self, doc: &'d Value, status: u64) -> Option<&'d Value> {
        let response = self.operation["responses"].get(status.to_string())?;
        resolve(doc, response)["content"]["application/json"].get("schema")
    }
}

/// The operation that `method` on `path` (relative to the server base) addresses.
pub fn find_operation<'a>(doc: &'a Value, method: &str, path: &str) -> Option<Operation<'a>> {
    let method = method.to_ascii_lowercase();
    doc["paths"]
        .as_object()?
        .iter()
        .find_map(|(template, item)| {
            let operation = item.get(&method)?;
            matches_template(template, path).then_some(Operation {
                template,
                path_item: item,
                operation,
            })
        })
}

/// Whether `path` is an instance of the path template (`/customers({customerId})`): literal
/// parts match exactly, each `{parameter}` at least one character that is not `/`.
fn matches_template(template: &str, path: &str) -> bool {
    match template.find('{') {
        None => template == path,
        Some(open) => {
            let Some(close) = template[open..].find('}').map(|c| open + c) else {
                return false;
            };
            let (literal, rest) = (&template[..open], &template[close + 1..]);
            let Some(tail) = path.strip_prefix(literal) else {
                return false;
            };
            (1..=tail.len()).any(|n| {
                tail.is_char_boundary(n)
                    && !tail[..n].contains('/')
                    && matches_template(rest, &tail[n..])
            })
        }
    }
}

/// `value`, or what its `$ref` points at.
pub fn resolve<'a>(doc: &'a Value, value: &'a Value) -> &'a Value {
    match value["$ref"].as_str().and_then(|r| r.strip_prefix('#')) {
        Some(pointer) => doc.pointer(pointer).unwrap_or(value),
        None => value,
    }
}

/// Which way a body goes: a client must not send `readOnly` properties, a server may.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Request,
    Response,
}

/// A validator for request bodies of `schema`, a schema of the OpenAPI document `doc`.
pub fn request_validator(doc: &Value, schema: &Value) -> jsonschema::Validator {
    validator(doc, schema, Direction::Request)
}

/// A validator for bodies going `direction` of `schema`, a schema of the OpenAPI document `doc`.
pub fn validator(doc: &Value, schema: &Value, direction: Direction) -> jsonschema::Validator {
    let to_json_schema = |s: &Value| to_json_schema(s, direction);
    let mut root = match to_json_schema(schema) {
        Value::Object(map) => map,
        other => Map::from_iter([("allOf".to_owned(), json!([other]))]),
    };
    // `$ref: "#/components/schemas/X"` resolves against the root: carry the converted
    // components there.
    let mut schemas = Map::new();
    if let Some(components) = doc["components"]["schemas"].as_object() {
        for (name, s) in components {
            schemas.insert(name.clone(), to_json_schema(s));
        }
    }
    root.insert("components".into(), json!({ "schemas": schemas }));
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(&Value::Object(root))
        .unwrap_or_else(|e| panic!("the request schema does not compile: {e}"))
}

/// One OpenAPI 3.0 schema object as a JSON Schema (draft 2020-12).
fn to_json_schema(schema: &Value, direction: Direction) -> Value {
    let to_json_schema = |s: &Value| to_json_schema(s, direction);
    let Some(object) = schema.as_object() else {
        return schema.clone();
    };
    // OpenAPI 3.0 ignores the siblings of `$ref`.
    if let Some(reference) = object.get("$ref") {
        return json!({ "$ref": reference });
    }
    if direction == Direction::Request && object.get("readOnly") == Some(&Value::Bool(true)) {
        return Value::Bool(false);
    }
    let mut out = Map::new();
    for (key, value) in object {
        let converted = match key.as_str() {
            "nullable" | "readOnly" | "writeOnly" | "example" | "discriminator" | "xml"
            | "externalDocs" | "deprecated" => continue,
            "properties" => Value::Object(
                value
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(k, v)| (k.clone(), to_json_schema(v)))
                    .collect(),
            ),
            "items" | "not" | "additionalProperties" => to_json_schema(value),
            "allOf" | "anyOf" | "oneOf" => Value::Array(
                value
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(&to_json_schema)
                    .collect(),
            ),
            // OpenAPI 3.0 (like draft 4) writes exclusive bounds as booleans.
            "exclusiveMinimum" | "exclusiveMaximum" if value.is_boolean() => {
                if value == &Value::Bool(true) {
                    let bound = if key == "exclusiveMinimum" {
                        "minimum"
                    } else {
                        "maximum"
                    };
                    if let Some(limit) = object.get(bound) {
                        out.insert(key.clone(), limit.clone());
                    }
                }
                continue;
            }
            _ => value.clone(),
        };
        out.insert(key.clone(), converted);
    }
    if object.get("nullable") == Some(&Value::Bool(true))
        && let Some(ty) = out.get("type").cloned()
    {
        out.insert("type".into(), json!([ty, "null"]));
        if let Some(Value::Array(values)) = out.get_mut("enum") {
            values.push(Value::Null);
        }
    }
    // An exclusive bound replaced the inclusive one.
    for (exclusive, inclusive) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        if out.contains_key(exclusive) {
            out.remove(inclusive);
        }
    }
    // `nullable` beside alternatives and no `type` (Stripe's expandable fields): null is one
    // more alternative.
    if object.get("nullable") == Some(&Value::Bool(true))
        && !out.contains_key("type")
        && (out.contains_key("anyOf") || out.contains_key("oneOf"))
    {
        return json!({ "anyOf": [Value::Object(out), { "type": "null" }] });
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nullable_alternatives_allow_null() {
        let schema = json!({"nullable": true, "anyOf": [{"type": "string"}, {"type": "object"}]});
        let converted = to_json_schema(&schema, Direction::Response);
        let validator = jsonschema::validator_for(&converted).expect("compiles");
        assert!(validator.is_valid(&Value::Null));
        assert!(validator.is_valid(&json!("cus_1")));
        assert!(!validator.is_valid(&json!(1)));
        let strict = json!({"anyOf": [{"type": "string"}]});
        let validator = jsonschema::validator_for(&to_json_schema(&strict, Direction::Response))
            .expect("compiles");
        assert!(!validator.is_valid(&Value::Null));
    }

    #[test]
    fn templates_match_parameters_inside_segments() {
        assert!(matches_template("/customers({id})", "/customers(6a1f)"));
        assert!(matches_template("/customer/{id}", "/customer/67"));
        assert!(!matches_template("/customer/{id}", "/customer/67/x"));
        assert!(!matches_template("/customer/{id}", "/customer/"));
        assert!(matches_template("/customer", "/customer"));
    }

    #[test]
    fn nullable_read_only_and_refs_convert() {
        let doc = json!({"components": {"schemas": {
            "A": {"type": "object", "required": ["n"], "properties": {
                "n": {"type": "string", "nullable": true},
                "id": {"type": "string", "readOnly": true}}}}}});
        let v = request_validator(
            &doc,
            &json!({"$ref": "#/components/schemas/A", "description": "x"}),
        );
        assert!(v.is_valid(&json!({"n": null})));
        assert!(!v.is_valid(&json!({"n": 1})));
        assert!(!v.is_valid(&json!({"n": "x", "id": "1"})));
        assert!(!v.is_valid(&json!({})));
    }
}
