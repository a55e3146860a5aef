//! The sample answer of an operation: what a dry-run answers for it, and what the linter
//! renders templates over for the values actions read from it. The success response's example
//! if it has one (an example written as JSON text, a string holding the object or array the
//! schema expects, is read as that JSON), otherwise a value built from its schema. One reading,
//! so that a dry-run and a lint over the same records see the same values.

use crate::node::Node;
use crate::openapi::{Operation, Schema};
use serde_json::{Map, Value as Json, json};

/// Deeper schemas are cut off: a sample is for reading, and recursive schemas must end.
const MAX_DEPTH: usize = 8;

/// A response the engine would expect from an operation, derived once from the definition (its
/// example or its schema): what a dry-run's transport answers when given no response.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleResponse {
    /// The first success status the operation declares (200 when none).
    pub status: u16,
    /// The body.
    pub body: Json,
    /// Where it came from (`example` or `schema`), for the dry-run's note.
    pub source: &'static str,
}

/// The sample success response of `operation` of document `root`.
#[must_use]
pub fn sample_response(root: &Node, operation: &Operation<'_>) -> SampleResponse {
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
            body: example_value(&example, media.schema),
            source: "example",
        };
    }
    let body = media.schema.map_or(Json::Null, |s| {
        from_schema(&crate::openapi::OpenApi::new(*root).schema(s), None, 0)
    });
    SampleResponse {
        status,
        body,
        source: "schema",
    }
}

/// An example as its value; a string holding the JSON object or array its schema expects
/// (descriptions that write every example as JSON text) as that JSON.
fn example_value(example: &Node, schema: Option<Node>) -> Json {
    let value = example.to_json();
    let Json::String(text) = &value else {
        return value;
    };
    let schema_is_text = schema
        .and_then(|s| s.get("type"))
        .and_then(Node::as_str)
        .is_some_and(|t| t == "string");
    if schema_is_text {
        return value;
    }
    crate::answer::json_text(text).unwrap_or(value)
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
        return merged(schema, &all_of, name, depth);
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

/// What an `allOf` gives: the members of every part that gives an object, with the schema's
/// own properties beside it; else the first part's value that is not `null` (a field written
/// as `allOf` of a named string and its description is that string).
fn merged(schema: &Schema<'_>, all_of: &[Schema<'_>], name: Option<&str>, depth: usize) -> Json {
    let values: Vec<Json> = all_of
        .iter()
        .map(|part| from_schema(part, name, depth + 1))
        .collect();
    let own: Map<String, Json> = schema
        .properties()
        .map(|(key, prop)| (key.to_owned(), from_schema(&prop, Some(key), depth + 1)))
        .collect();
    if own.is_empty() && !values.iter().any(Json::is_object) {
        return values
            .into_iter()
            .find(|v| !v.is_null())
            .unwrap_or(Json::Null);
    }
    let mut out = Map::new();
    for value in values {
        if let Json::Object(members) = value {
            out.extend(members);
        }
    }
    out.extend(own);
    Json::Object(out)
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
        Some(n) => format!("{n} (synthesised)"),
        None => "synthesised".into(),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::sample_response;
    use crate::SourceFile;
    use crate::openapi::OpenApi;

    fn answer_of(text: &str) -> serde_json::Value {
        let file = Arc::new(SourceFile::new("t.yaml", text));
        let doc = crate::load::load_with(file, &crate::LoadOptions::default()).expect("loads");
        let root = doc.root();
        let operation = root.pointer("/paths/~1c/post").expect("the operation");
        sample_response(&root, &OpenApi::new(root).operation(operation)).body
    }

    #[test]
    fn an_example_written_as_json_text_is_read_as_the_json_it_holds() {
        let text = r#"
openapi: 3.0.3
paths:
  /c:
    post:
      responses:
        "200":
          content:
            application/json:
              schema: {type: object}
              example: '{"Contacts": [{"ContactID": "7"}]}'
"#;
        assert_eq!(answer_of(text), json!({"Contacts": [{"ContactID": "7"}]}));
        // A string schema keeps its text, and so does text that is not JSON.
        let kept = text.replace("{type: object}", "{type: string}");
        assert_eq!(
            answer_of(&kept),
            json!(r#"{"Contacts": [{"ContactID": "7"}]}"#)
        );
        let prose = text.replace(r#"'{"Contacts": [{"ContactID": "7"}]}'"#, "'{not json'");
        assert_eq!(answer_of(&prose), json!("{not json"));
    }

    #[test]
    fn all_of_merges_what_its_parts_give_scalars_included() {
        // A field written as `allOf` of a named string and its description (as the AWS
        // descriptions write every field) is a string, not an empty object.
        let text = r##"
openapi: 3.0.3
paths:
  /c:
    post:
      responses:
        "200":
          content:
            application/json:
              schema:
                allOf:
                  - {$ref: "#/components/schemas/Base"}
                properties:
                  ChannelArn:
                    allOf: [{$ref: "#/components/schemas/Arn"}, {description: The channel}]
                  Count:
                    allOf: [{$ref: "#/components/schemas/Count"}, {description: How many}]
components:
  schemas:
    Arn: {type: string}
    Count: {type: integer}
    Base:
      type: object
      properties:
        Id: {type: string}
"##;
        assert_eq!(
            answer_of(text),
            json!({"Id": "1", "ChannelArn": "ChannelArn (synthesised)", "Count": 1})
        );
    }
}
