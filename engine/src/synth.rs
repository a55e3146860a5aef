//! Plausible responses for dry-runs, derived once per operation from the definition: the
//! success response's example if it has one, otherwise a value built from its schema.

use serde_json::{Map, Value as Json, json};
use syncdef_definitions::Node;
use syncdef_definitions::openapi::{Operation, Schema};

use crate::transport::SampleResponse;

/// Deeper schemas are cut off: a sample is for reading, and recursive schemas must end.
const MAX_DEPTH: usize = 8;

/// The sample success response of `operation` of document `root`.
pub(crate) fn sample(root: &Node, operation: &Operation<'_>) -> SampleResponse {
    let none = |status| SampleResponse {
        status,
        body: Json::Null,
        source: "none",
    };
    let Some((status, response)) = operation
        .responses()
        .find_map(|(code, r)| Some((success_status(code)?, r)))
    else {
        return none(200);
    };
    let Some(media) = operation.json_content(response) else {
        return none(status);
    };
    if let Some(example) = media.example(*root) {
        return SampleResponse {
            status,
            body: example.to_json(),
            source: "example",
        };
    }
    let body = media.schema.map_or(Json::Null, |s| {
        from_schema(
            &syncdef_definitions::openapi::OpenApi::new(*root).schema(s),
            None,
            0,
        )
    });
    SampleResponse {
        status,
        body,
        source: "schema",
    }
}

/// The status a success response code stands for: itself (`201`), or 200 for `2XX`.
fn success_status(code: &str) -> Option<u16> {
    if code.eq_ignore_ascii_case("2XX") {
        return Some(200);
    }
    code.parse().ok().filter(|c| (200..300).contains(c))
}

fn from_schema(schema: &Schema<'_>, name: Option<&str>, depth: usize) -> Json {
    if let Some(value) = schema.example().or_else(|| schema.default()) {
        return value.to_json();
    }
    if depth >= MAX_DEPTH {
        return Json::Null;
    }
    let all_of: Vec<Schema<'_>> = schema.parts("allOf").collect();
    if !all_of.is_empty() {
        let mut out = Map::new();
        for part in &all_of {
            if let Json::Object(m) = from_schema(part, name, depth + 1) {
                out.extend(m);
            }
        }
        return Json::Object(out);
    }
    let choice = schema
        .parts("oneOf")
        .next()
        .or_else(|| schema.parts("anyOf").next());
    if let Some(first) = choice {
        return from_schema(&first, name, depth + 1);
    }
    match schema.main_type() {
        Some("object") => Json::Object(
            schema
                .properties()
                .map(|(key, prop)| (key.to_owned(), from_schema(&prop, Some(key), depth + 1)))
                .collect(),
        ),
        Some("array") => match schema.items() {
            Some(items) => Json::Array(vec![from_schema(&items, name, depth + 1)]),
            None => json!([]),
        },
        Some("string") => {
            if let Some(first) = schema.first_allowed().and_then(Node::as_str) {
                Json::String(first.to_owned())
            } else {
                let format = schema.format().unwrap_or("").to_ascii_lowercase();
                Json::String(string_sample(name, &format))
            }
        }
        Some("integer") => json!(1),
        Some("number") => json!(1.0),
        Some("boolean") => json!(true),
        _ => schema.first_allowed().map_or(Json::Null, Node::to_json),
    }
}

/// Strings that read like what they name: ids are digit strings (QuickBooks ids are, and the
/// engine converts them), concurrency tokens look like versions, dates like dates.
fn string_sample(name: Option<&str>, format: &str) -> String {
    if format.contains("datetime") || format.contains("date-time") {
        return "2024-01-01T00:00:00Z".into();
    }
    if format == "date" {
        return "2024-01-01".into();
    }
    match name {
        Some(n) if n == "id" || n == "Id" || n.ends_with("Id") || n.ends_with("ID") => "1".into(),
        Some(n) if n.eq_ignore_ascii_case("synctoken") => "0".into(),
        Some(n) if n.to_ascii_lowercase().contains("etag") => "W/\"1\"".into(),
        Some(n) => format!("{n} (synthesized)"),
        None => "synthesized".into(),
    }
}
