//! Just enough OpenAPI 3.0 to check a rendered request against the definition it was rendered
//! from: the server base URL, the operation a method and URL address, and that operation's
//! request body schema as a JSON Schema (converted by `openapi_support/json_schema.rs`).

#[path = "../openapi_support/json_schema.rs"]
mod json_schema;

use serde_json::Value;

pub use json_schema::Direction;
use json_schema::{Formats, Schemas};

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
    json_schema::follow(doc, value)
}

/// A validator for request bodies of `schema`, a schema of the OpenAPI document `doc`.
pub fn request_validator(doc: &Value, schema: &Value) -> jsonschema::Validator {
    validator(doc, schema, Direction::Request)
}

/// A validator for bodies going `direction` of `schema`, a schema of the OpenAPI document `doc`.
/// Formats are asserted: a date or an e-mail address the external system would refuse fails
/// the catalog's checks.
pub fn validator(doc: &Value, schema: &Value, direction: Direction) -> jsonschema::Validator {
    Schemas::of(doc, direction, Formats::Asserted)
        .validator(schema)
        .unwrap_or_else(|e| panic!("the body schema: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_match_parameters_inside_segments() {
        assert!(matches_template("/customers({id})", "/customers(6a1f)"));
        assert!(matches_template("/customer/{id}", "/customer/67"));
        assert!(!matches_template("/customer/{id}", "/customer/67/x"));
        assert!(!matches_template("/customer/{id}", "/customer/"));
        assert!(matches_template("/customer", "/customer"));
    }
}
