//! What a dry-run would send, judged by a third party: each request body validated with the
//! `jsonschema` crate against the request body its operation declares in the document. The
//! OpenAPI 3.0 schema is converted to JSON Schema here, by the rules of the OpenAPI
//! specification, and not with the conversion the engine and the linter share, so that a
//! mistake of that conversion cannot hide a request the external system would refuse.

use serde_json::{Map, Value as Json};
use syncdef_definitions::Definition;
use syncdef_definitions::operation_ref::OperationRef;
use syncdef_engine::HttpRequest;

/// The document as a JSON Schema resource: every schema converted, each request body schema
/// reachable by a JSON pointer.
pub struct BodySchemas {
    document: Json,
    draft: jsonschema::Draft,
}

impl BodySchemas {
    pub fn of(definition: &Definition) -> BodySchemas {
        let mut document = definition.root().to_json();
        let openapi_30 = document
            .get("openapi")
            .and_then(Json::as_str)
            .is_some_and(|v| v.starts_with("3.0"));
        if openapi_30 {
            convert_30(&mut document);
        }
        BodySchemas {
            document,
            // OpenAPI 3.0's Schema Object is an extended subset of JSON Schema draft 4
            // (`exclusiveMaximum` as a boolean); 3.1 is JSON Schema 2020-12.
            draft: if openapi_30 {
                jsonschema::Draft::Draft4
            } else {
                jsonschema::Draft::Draft202012
            },
        }
    }

    /// Why `request`, sent for `operation`, is not what the operation accepts; `None` when it is.
    pub fn refusal(&self, operation: &OperationRef, request: &HttpRequest) -> Option<String> {
        let declared = self.request_body(operation);
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
        let Some((media, entry)) = content
            .iter()
            .find(|(media, _)| media.eq_ignore_ascii_case(essence))
        else {
            let declared: Vec<&String> = content.keys().collect();
            return Some(format!(
                "a body sent as `{sent_type}`, where the operation declares {declared:?}"
            ));
        };
        let schema = entry.get("schema")?;
        let Ok(instance) = serde_json::from_slice::<Json>(body) else {
            return Some(format!("a `{media}` body that is not JSON"));
        };
        self.violation(schema, &instance)
    }

    /// The operation's request body object, its `$ref` followed.
    fn request_body(&self, operation: &OperationRef) -> Option<&Json> {
        let item = self.path_item(&operation.path)?;
        let body = item.get(operation.method.as_str())?.get("requestBody")?;
        Some(self.follow(body))
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

    fn follow<'a>(&'a self, mut node: &'a Json) -> &'a Json {
        for _ in 0..32 {
            let Some(target) = node
                .get("$ref")
                .and_then(Json::as_str)
                .and_then(|r| r.strip_prefix('#'))
                .and_then(|pointer| self.document.pointer(pointer))
            else {
                break;
            };
            node = target;
        }
        node
    }

    /// The first error of `instance` against `schema` (resolved in the whole document).
    fn violation(&self, schema: &Json, instance: &Json) -> Option<String> {
        let mut root = self.document.clone();
        let Json::Object(members) = &mut root else {
            return Some("the document is not an object".to_owned());
        };
        members.insert("x-checked-body".to_owned(), schema.clone());
        members.insert("$ref".to_owned(), Json::from("#/x-checked-body"));
        // `format` is an annotation, as JSON Schema 2020-12 and OpenAPI 3.1 define it and as
        // the engine and the linter treat it: draft 4 would assert it by default.
        let built = jsonschema::options()
            .with_draft(self.draft)
            .should_validate_formats(false)
            .build(&root);
        let validator = match built {
            Ok(validator) => validator,
            Err(error) => return Some(format!("its schema does not compile: {error}")),
        };
        let error = validator.iter_errors(instance).next()?;
        Some(format!(
            "a body the schema refuses at `{}`: {error}",
            error.instance_path().as_str()
        ))
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

/// OpenAPI 3.0 to JSON Schema draft 4, for request bodies: `nullable: true` admits `null`, and a
/// `readOnly` property is required in responses only (OpenAPI 3.0.3, "Fixed Fields" of the
/// Schema Object).
fn convert_30(node: &mut Json) {
    match node {
        Json::Object(members) => {
            admit_null(members);
            drop_read_only_requirements(members);
            for value in members.values_mut() {
                convert_30(value);
            }
        }
        Json::Array(items) => items.iter_mut().for_each(convert_30),
        _ => {}
    }
}

fn admit_null(members: &mut Map<String, Json>) {
    if members.get("nullable") != Some(&Json::Bool(true)) {
        return;
    }
    if let Some(Json::String(kind)) = members.get("type") {
        let kinds = Json::from(vec![kind.clone(), "null".to_owned()]);
        members.insert("type".to_owned(), kinds);
    }
    if let Some(Json::Array(values)) = members.get_mut("enum")
        && !values.contains(&Json::Null)
    {
        values.push(Json::Null);
    }
}

fn drop_read_only_requirements(members: &mut Map<String, Json>) {
    let read_only: Vec<String> = members
        .get("properties")
        .and_then(Json::as_object)
        .map(|properties| {
            properties
                .iter()
                .filter(|(_, schema)| schema.get("readOnly") == Some(&Json::Bool(true)))
                .map(|(name, _)| name.clone())
                .collect()
        })
        .unwrap_or_default();
    if let Some(Json::Array(required)) = members.get_mut("required") {
        required.retain(|name| {
            !name
                .as_str()
                .is_some_and(|n| read_only.iter().any(|r| r == n))
        });
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use syncdef_definitions::{Definition, SourceFile};
    use syncdef_engine::HttpRequest;

    use super::{BodySchemas, fills};

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
        assert!(refusal(None, "application/json").is_some());
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
