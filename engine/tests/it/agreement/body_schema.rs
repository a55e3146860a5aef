//! What a dry-run would send, judged by a third party: each request body validated with the
//! `jsonschema` crate against the request body its operation declares in the document. The
//! OpenAPI schema is converted to JSON Schema by the workspace's test support
//! (`tests/openapi_support/json_schema.rs`), by the rules of the OpenAPI specification, and not
//! with the conversion the engine and the linter share, so that a mistake of that conversion
//! cannot hide a request the external system would refuse.

#[path = "../../../../tests/openapi_support/json_schema.rs"]
mod json_schema;

use json_schema::{Direction, Formats, Schemas};
use serde_json::{Map, Value as Json};
use syncdef_definitions::Definition;
use syncdef_definitions::operation_ref::OperationRef;
use syncdef_engine::HttpRequest;

/// The request bodies a document's operations declare, and their schemas as JSON Schema.
pub struct BodySchemas {
    /// The document as written, to find an operation's request body in.
    document: Json,
    schemas: Schemas,
}

impl BodySchemas {
    pub fn of(definition: &Definition) -> BodySchemas {
        let document = definition.root().to_json();
        // `format` is an annotation, as JSON Schema 2020-12 and OpenAPI 3.1 define it and as
        // the engine and the linter treat it.
        let schemas = Schemas::of(&document, Direction::Request, Formats::Annotated);
        BodySchemas { document, schemas }
    }

    /// Why `request`, sent for `operation`, is not what the operation accepts; `None` when it is.
    pub fn refusal(&self, operation: &OperationRef, request: &HttpRequest) -> Option<String> {
        let item = self.path_item(&operation.path);
        self.refusal_in(item, operation.method.as_str(), request)
    }

    /// Why `request` is not what the `method` operation of the document's path `template`
    /// (written as the document writes it, `/v1/{+name}:approve`) accepts; `None` when it is.
    pub fn refusal_at(
        &self,
        template: &str,
        method: &str,
        request: &HttpRequest,
    ) -> Option<String> {
        let item = self
            .document
            .get("paths")
            .and_then(|paths| paths.get(template))
            .map(|item| self.follow(item));
        self.refusal_in(item, method, request)
    }

    fn refusal_in(
        &self,
        item: Option<&Json>,
        method: &str,
        request: &HttpRequest,
    ) -> Option<String> {
        let declared = item
            .and_then(|item| item.get(method))
            .and_then(|operation| operation.get("requestBody"))
            .map(|body| self.follow(body));
        let sent_type = request
            .headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("content-type"))
            .map(|(_, value)| value.as_str());
        let Some(body) = &request.body else {
            let required = declared.is_some_and(|b| b.get("required") == Some(&Json::Bool(true)));
            return required.then(|| "no body, where the request body is required".to_owned());
        };
        let Some(declared) = declared else {
            return Some("a body, where the operation declares no request body".to_owned());
        };
        let sent_type = sent_type.unwrap_or("(no content-type)");
        let essence = sent_type.split(';').next().unwrap_or("").trim();
        let content = declared.get("content").and_then(Json::as_object)?;
        let Some((media, entry)) = content.iter().find(|(media, _)| {
            let declared = media.split(';').next().unwrap_or("").trim();
            declared.eq_ignore_ascii_case(essence)
        }) else {
            let declared: Vec<&String> = content.keys().collect();
            return Some(format!(
                "a body sent as `{sent_type}`, where the operation declares {declared:?}"
            ));
        };
        let schema = entry.get("schema")?;
        if essence.eq_ignore_ascii_case("application/x-www-form-urlencoded") {
            let names = self.property_names(schema);
            return self.form_violation(schema, &form_fields(body, &names));
        }
        let Ok(instance) = serde_json::from_slice::<Json>(body) else {
            return Some(format!("a `{media}` body that is not JSON"));
        };
        self.violation(schema, &instance)
    }

    /// The path item whose template the reference's path fills: a placeholder of the document
    /// (`{documentType}`) stands for any text within its segment, the reference's own
    /// placeholders (`{IntegrationId}`) and literals (`Invoice`) alike.
    fn path_item(&self, path: &str) -> Option<&Json> {
        let path = path.split('?').next().unwrap_or(path);
        let paths = self.document.get("paths")?.as_object()?;
        paths
            .iter()
            .find(|(template, _)| fills(template, path))
            .map(|(_, item)| item)
    }

    fn follow<'a>(&'a self, node: &'a Json) -> &'a Json {
        json_schema::follow(&self.document, node)
    }

    /// The first error of `instance` against `schema` (resolved in the whole document).
    fn violation(&self, schema: &Json, instance: &Json) -> Option<String> {
        let validator = match self.validator(schema) {
            Ok(validator) => validator,
            Err(error) => return Some(error),
        };
        let error = validator.iter_errors(instance).next()?;
        Some(format!(
            "a body the schema refuses at `{}`: {error}",
            error.instance_path().as_str()
        ))
    }

    /// The first error of a form's fields against `schema`. A field is text on the wire: where
    /// the schema asks for a number, a boolean, `null` or an array, the text is read as one
    /// (OpenAPI's form serialization: an array's items comma-separated, or the field
    /// repeated), as the receiving side reads it.
    fn form_violation(&self, schema: &Json, fields: &Json) -> Option<String> {
        let validator = match self.validator(schema) {
            Ok(validator) => validator,
            Err(error) => return Some(error),
        };
        let mut instance = fields.clone();
        // Each round reads one field as its schema asks; a form has few fields.
        for _ in 0..256 {
            let error = validator.iter_errors(&instance).next()?;
            let pointer = error.instance_path().as_str().to_owned();
            let read = match error.kind() {
                jsonschema::error::ValidationErrorKind::Type { kind } => {
                    let wanted: Vec<jsonschema::JsonType> = match kind {
                        jsonschema::error::TypeKind::Single(one) => vec![*one],
                        jsonschema::error::TypeKind::Multiple(set) => set.iter().collect(),
                    };
                    instance
                        .pointer(&pointer)
                        .and_then(|text| read_field(text, &wanted))
                }
                _ => None,
            };
            let Some(read) = read else {
                return Some(format!("a form the schema refuses at `{pointer}`: {error}"));
            };
            if let Some(slot) = instance.pointer_mut(&pointer) {
                *slot = read;
            }
        }
        Some("a form whose fields could not be read by its schema".to_owned())
    }

    /// The names of the properties `schema` declares at its top level (its `$ref` followed).
    fn property_names(&self, schema: &Json) -> Vec<String> {
        self.follow(schema)
            .get("properties")
            .and_then(Json::as_object)
            .map(|properties| properties.keys().cloned().collect())
            .unwrap_or_default()
    }

    fn validator(&self, schema: &Json) -> Result<jsonschema::Validator, String> {
        self.schemas.validator(schema)
    }
}

/// A form field's text read as one of the `wanted` JSON types; `None` when it reads as none.
fn read_field(value: &Json, wanted: &[jsonschema::JsonType]) -> Option<Json> {
    use jsonschema::JsonType;
    let text = value.as_str();
    for kind in wanted {
        let read = match (kind, text) {
            (JsonType::Integer, Some(t)) => t.parse::<i64>().ok().map(Json::from),
            (JsonType::Number, Some(t)) => t
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(Json::Number),
            (JsonType::Boolean, Some(t)) => t.parse::<bool>().ok().map(Json::Bool),
            (JsonType::Null, Some("")) => Some(Json::Null),
            (JsonType::Array, Some(t)) => Some(Json::Array(
                t.split(',')
                    .map(|item| Json::from(item.to_owned()))
                    .collect(),
            )),
            (JsonType::Array, None) if !value.is_array() => Some(Json::Array(vec![value.clone()])),
            _ => None,
        };
        if read.is_some() {
            return read;
        }
    }
    None
}

/// The fields of a form body as JSON, each value a string: `a[b]=1` is the member `b` of the
/// object `a`, `a[0]=x` the first item of the array `a`, a field given twice an array. A name
/// the schema declares as it is (`declared`, `model[name]`) is one field.
fn form_fields(body: &[u8], declared: &[String]) -> Json {
    let mut root = Json::Object(Map::new());
    for (name, value) in url::form_urlencoded::parse(body) {
        if declared.iter().any(|d| *d == name) {
            insert_field(&mut root, &[&name], Json::from(value.into_owned()));
            continue;
        }
        let mut keys: Vec<&str> = Vec::new();
        let (head, mut rest) = name.split_once('[').map_or((&*name, ""), |(h, r)| (h, r));
        keys.push(head);
        while let Some((key, after)) = rest.split_once(']') {
            keys.push(key);
            rest = after.strip_prefix('[').unwrap_or(after);
        }
        insert_field(&mut root, &keys, Json::from(value.into_owned()));
    }
    root
}

fn insert_field(node: &mut Json, keys: &[&str], value: Json) {
    let Some((first, rest)) = keys.split_first() else {
        return;
    };
    if let Ok(index) = first.parse::<usize>()
        && let Json::Array(items) = node
    {
        while items.len() <= index {
            items.push(Json::Null);
        }
        return place(&mut items[index], rest, value);
    }
    if !node.is_object() {
        *node = Json::Object(Map::new());
    }
    if let Json::Object(members) = node {
        let slot = members.entry((*first).to_owned()).or_insert_with(|| {
            if rest.first().is_some_and(|k| k.parse::<usize>().is_ok()) {
                Json::Array(Vec::new())
            } else {
                Json::Null
            }
        });
        place(slot, rest, value);
    }
}

/// `value` at `keys` under `slot`; a leaf given again becomes an array of its values.
fn place(slot: &mut Json, keys: &[&str], value: Json) {
    if !keys.is_empty() {
        return insert_field(slot, keys, value);
    }
    match slot {
        Json::Null => *slot = value,
        Json::Array(items) => items.push(value),
        other => *other = Json::Array(vec![other.clone(), value]),
    }
}

/// Whether `path` fills `template`: its literal text equal, each `{placeholder}` of the
/// template taking any text without a `/`.
fn fills(template: &str, path: &str) -> bool {
    match template.find('{') {
        None => template == path,
        Some(open) => {
            let Some(close) = template[open..].find('}').map(|c| open + c) else {
                return template == path;
            };
            let (literal, rest) = (&template[..open], &template[close + 1..]);
            let Some(after) = path.strip_prefix(literal) else {
                return false;
            };
            // The placeholder takes the shortest text that lets the rest match.
            let segment = &after[..after.find('/').unwrap_or(after.len())];
            let ends = segment.char_indices().map(|(at, _)| at);
            ends.chain([segment.len()])
                .any(|taken| fills(rest, &after[taken..]))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use syncdef_definitions::{Definition, SourceFile};
    use syncdef_engine::HttpRequest;

    use super::{BodySchemas, fills, form_fields};

    const DOCUMENT: &str = r#"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /orders('{no}')/lines:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [id, name]
              properties:
                id: {type: string, readOnly: true}
                name: {type: string, nullable: true}
                due: {type: string, format: date}
      responses:
        "200": {description: ok}
  /orders/{no}:
    post:
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [count]
              properties:
                count: {type: integer}
                paid: {type: boolean}
                tags: {type: array, items: {type: string}}
                lines:
                  type: array
                  items: {type: object, properties: {price: {type: number}}}
      responses:
        "200": {description: ok}
  /orders/{no}:approve:
    post:
      responses:
        "200": {description: ok}
"#;

    fn request(body: Option<&str>, media: &str) -> HttpRequest {
        HttpRequest {
            step: Arc::from("create"),
            method: syncdef_definitions::operation_ref::HttpMethod::Post,
            url: url::Url::parse("https://example.com/").expect("a URL"),
            headers: Arc::from(vec![("Content-Type".to_owned(), media.to_owned())]),
            body: body.map(|b| bytes::Bytes::from(b.to_owned())),
            sample: None,
            idempotency_key: None,
        }
    }

    fn refusal(body: Option<&str>, media: &str) -> Option<String> {
        let definition = Definition::load(SourceFile::new("t.yaml", DOCUMENT)).expect("loads");
        let schemas = BodySchemas::of(&definition);
        let operation = syncdef_definitions::operation_ref::OperationRef::parse(
            "/orders('{IntegrationId}')/lines/post",
        )
        .expect("a reference");
        schemas.refusal(&operation, &request(body, media))
    }

    #[test]
    fn a_body_is_judged_by_the_schema_of_the_operation_its_reference_fills() {
        // Nullable admits null; a read-only property is required in answers only; `format`
        // is an annotation.
        assert_eq!(
            refusal(Some(r#"{"name": null, "due": "soon"}"#), "application/json"),
            None
        );
        let missing = refusal(
            Some(r#"{"due": "2026-01-01"}"#),
            "application/json; charset=utf-8",
        );
        assert!(missing.is_some_and(|m| m.contains("name")));
        assert!(refusal(Some(r#"{"name": 1}"#), "application/json").is_some());
        assert!(refusal(Some(r#"{"name": "a"}"#), "text/plain").is_some());
        // The declared media type is compared by its essence, as the sent one.
        let declared_with_parameters = DOCUMENT.replace(
            "          application/json:",
            "          application/json; charset=utf-8:",
        );
        let definition =
            Definition::load(SourceFile::new("t.yaml", &declared_with_parameters)).expect("loads");
        let sent = request(Some(r#"{"name": "a"}"#), "application/json; charset=utf-8");
        let judged =
            BodySchemas::of(&definition).refusal_at("/orders('{no}')/lines", "post", &sent);
        assert_eq!(judged, None);
        assert!(refusal(None, "application/json").is_some());
    }

    fn form_refusal(template: &str, body: &str) -> Option<String> {
        let definition = Definition::load(SourceFile::new("t.yaml", DOCUMENT)).expect("loads");
        let schemas = BodySchemas::of(&definition);
        let media = "application/x-www-form-urlencoded";
        schemas.refusal_at(template, "post", &request(Some(body), media))
    }

    #[test]
    fn a_form_is_judged_field_by_field_as_its_schema_reads_the_text() {
        assert_eq!(
            form_fields(b"a=1&b%5Bc%5D=x+y&d%5B0%5D%5Be%5D=2&f=3&f=4", &[]),
            serde_json::json!({"a": "1", "b": {"c": "x y"}, "d": [{"e": "2"}], "f": ["3", "4"]})
        );
        assert_eq!(
            form_fields(b"m%5Bname%5D=x", &["m[name]".to_owned()]),
            serde_json::json!({"m[name]": "x"})
        );
        let body = "count=2&paid=true&tags=a,b&lines%5B0%5D%5Bprice%5D=1.5";
        assert_eq!(form_refusal("/orders/{no}", body), None);
        assert_eq!(form_refusal("/orders/{no}", "count=1&tags=a"), None);
        let refused = form_refusal("/orders/{no}", "count=two");
        assert!(refused.is_some_and(|r| r.contains("/count")));
        assert!(form_refusal("/orders/{no}", "paid=true").is_some());
    }

    #[test]
    fn the_operation_named_by_its_template_is_judged_not_the_first_the_path_fills() {
        // `/orders/1:approve` fills `/orders/{no}` too; the template names the operation meant.
        let refused = form_refusal("/orders/{no}:approve", "count=1");
        assert_eq!(
            refused.as_deref(),
            Some("a body, where the operation declares no request body")
        );
        assert_eq!(form_refusal("/orders/{no}", "count=1"), None);
    }

    #[test]
    fn a_body_the_vendor_refuses_is_refused() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../catalog/quickbooks-online/definition.yaml"
        );
        let definition = Definition::load_path(std::path::Path::new(path)).expect("loads");
        let schemas = BodySchemas::of(&definition);
        let judged = |body: &str| {
            let sent = request(Some(body), "application/json");
            schemas.refusal_at("/customer", "post", &sent)
        };
        assert_eq!(judged(r#"{"DisplayName": "Acme"}"#), None);
        assert!(
            judged(r#"{"CompanyName": "Acme"}"#).is_some(),
            "a create needs DisplayName"
        );
        assert!(
            judged(r#"{"DisplayName": "A", "Balance": 3}"#).is_some(),
            "Balance is read-only"
        );
    }

    #[test]
    fn a_reference_fills_a_template_segment_by_segment() {
        assert!(fills("/a('{no}')/b", "/a('{IntegrationId}')/b"));
        assert!(fills(
            "/a(No='{no}',T='{t}')",
            "/a(No='{IntegrationId}',T='Invoice')"
        ));
        assert!(fills("/é/{x}", "/é/ü"));
        assert!(!fills("/a/{x}", "/a/b/c"));
        assert!(!fills("/a/{x}/c", "/a/b/d"));
    }
}
