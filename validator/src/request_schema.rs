//! The request body schema of an operation, for checking rendered bodies before they are sent,
//! whatever media type they are written in (a form's fields are written from the value the
//! schema describes, so the value is checked before it is encoded).
//!
//! The push engine validates every request body it renders against the operation's OpenAPI
//! request body schema, with the same conversion to JSON Schema that lint rule SD802 uses
//! ([`crate::typecheck::openapi`]): a definition that lints clean and a push that is refused
//! for a body must agree on what the schema says. The schema is compiled once, when the
//! definition is compiled for pushing; [`RequestBodySchema::is_valid`] is the cheap check a
//! push makes, [`RequestBodySchema::violations`] the detailed one it makes only when that
//! fails.

use std::fmt;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde_json::Value;
use syncdef_definitions::model::TemplateSource;
use syncdef_definitions::{Node, Span};

use crate::context::Template;

mod guard;
mod text;
use crate::typecheck::openapi::{Direction, convert_document};
use crate::typecheck::shape::producer;
pub use guard::{BodyGuard, BodyWatch};
use syncdef_definitions::openapi::{MediaChoice, RequestMedia, request_media};
use text::{Indexed, TextJson};

/// The compiled JSON request body schema of one operation. `Send + Sync`: one per operation,
/// shared by every push.
pub struct RequestBodySchema {
    /// The converted JSON Schema document (its root a `$ref` to the body schema).
    doc: Value,
    validator: jsonschema::Validator,
    /// The same schema compiled for JSON text validated in place (no value built).
    text: jsonschema::Validator<TextJson>,
}

impl fmt::Debug for RequestBodySchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RequestBodySchema").finish_non_exhaustive()
    }
}

/// One way a body breaks its schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Where in the body (RFC 6901 JSON pointer, `""` for the body itself).
    pub pointer: String,
    /// The rule broken and how, without the value itself (a body carries personal data):
    /// `maxLength 500, the value has 602 characters`.
    pub rule: String,
}

/// The media type the engine writes the request body of `operation` (an operation object of
/// document `root`) in, `media_type` when the definition names one
/// ([`syncdef_definitions::openapi::request_media`]); `None` when there is none to write in
/// (SD814 reports that).
#[must_use]
pub fn chosen_media<'n>(
    root: Node<'n>,
    operation: Node<'n>,
    media_type: Option<&str>,
) -> Option<RequestMedia<'n>> {
    match request_media(root, operation, media_type)? {
        MediaChoice::Chosen(media) => Some(media),
        MediaChoice::Unwritable { .. } | MediaChoice::NotDeclared { .. } => None,
    }
}

/// Whether `operation` (an operation object of document `root`) declares a `requestBody`
/// that is `required: true`, directly or through a `$ref`: a request to it without a body is
/// refused by the external system, and by the engine before it is sent.
#[must_use]
pub fn body_required(root: &Node, operation: &Node) -> bool {
    syncdef_definitions::openapi::resolve(*root, operation.get("requestBody"))
        .and_then(|body| body.get("required"))
        .and_then(Node::as_bool)
        .unwrap_or(false)
}

impl RequestBodySchema {
    /// The request body schema of `operation` (an operation object of document `root`), of
    /// the media type the engine writes its body in when the definition names none: `None`
    /// when the operation declares no media type the engine writes, or no schema for it.
    ///
    /// # Errors
    /// A message when the converted schema does not compile (a `$ref` to nothing, a pattern
    /// that is not a regular expression).
    pub fn of_operation(root: &Node, operation: &Node) -> Option<Result<Self, String>> {
        Self::of_operation_as(root, operation, None)
    }

    /// [`RequestBodySchema::of_operation`], the body written as `media_type` when the
    /// definition names one (`x-syncdef.requestMediaType`): the schema of the media type
    /// [`chosen_media`] chooses, whatever its encoding (a form's fields are the members of the
    /// value its schema describes).
    ///
    /// # Errors
    /// As [`RequestBodySchema::of_operation`].
    pub fn of_operation_as(
        root: &Node,
        operation: &Node,
        media_type: Option<&str>,
    ) -> Option<Result<Self, String>> {
        let schema = chosen_media(*root, *operation, media_type)?.media.schema?;
        let doc = convert_document(root, &schema, Direction::Request);
        let compiled = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&doc)
            .and_then(|validator| {
                jsonschema::options_for::<TextJson>()
                    .with_draft(jsonschema::Draft::Draft202012)
                    .build(&doc)
                    .map(|text| RequestBodySchema {
                        doc: doc.clone(),
                        validator,
                        text,
                    })
            })
            .map_err(|e| format!("its request body schema does not compile: {e}"));
        Some(compiled)
    }

    /// The guard of the bodies `template` writes: their structure proven against the schema
    /// once, their computed values checked one by one as they are written. `None` when the
    /// structure cannot be proven this way (then each body is checked whole).
    #[must_use]
    pub fn guard(&self, template: &syncdef_transform::Template) -> Option<BodyGuard> {
        BodyGuard::build(&self.doc, &template.output_shape())
    }

    /// Whether `body` fits the schema; stops at the first violation.
    #[must_use]
    pub fn is_valid(&self, body: &Value) -> bool {
        self.validator.is_valid(body)
    }

    /// Whether the JSON text `body` fits the schema, read in place: one scan into an index of
    /// its values, no allocation per string or map (the cheap check a push makes). `None` when
    /// the text is not one JSON value.
    #[must_use]
    pub fn is_valid_text(&self, body: &str) -> Option<bool> {
        let indexed = Indexed::new(body)?;
        Some(self.text.is_valid(indexed.root()))
    }

    /// Every violation of the schema by `body`, in the validator's order.
    #[must_use]
    pub fn violations(&self, body: &Value) -> Vec<Violation> {
        self.validator
            .iter_errors(body)
            .map(|e| Violation {
                pointer: e.instance_path().as_str().to_owned(),
                rule: describe(e.kind(), e.instance()),
            })
            .collect()
    }
}

/// The rule and how the value breaks it, naming sizes and types rather than the value.
#[expect(
    clippy::too_many_lines,
    reason = "one message per kind of validation error: a table, read as one match"
)]
pub(crate) fn describe(kind: &ValidationErrorKind, value: &Value) -> String {
    let chars = || value.as_str().map_or(0, |s| s.chars().count());
    let items = || value.as_array().map_or(0, Vec::len);
    let members = || value.as_object().map_or(0, serde_json::Map::len);
    let number = || match value {
        Value::Number(n) => n.to_string(),
        other => type_name(other).to_owned(),
    };
    match kind {
        ValidationErrorKind::MaxLength { limit } => {
            format!("maxLength {limit}, the value has {} characters", chars())
        }
        ValidationErrorKind::MinLength { limit } => {
            format!("minLength {limit}, the value has {} characters", chars())
        }
        ValidationErrorKind::Maximum { limit } => {
            format!("maximum {limit}, the value is {}", number())
        }
        ValidationErrorKind::Minimum { limit } => {
            format!("minimum {limit}, the value is {}", number())
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            format!("exclusive maximum {limit}, the value is {}", number())
        }
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            format!("exclusive minimum {limit}, the value is {}", number())
        }
        ValidationErrorKind::MaxItems { limit } => {
            format!("maxItems {limit}, the array has {} items", items())
        }
        ValidationErrorKind::MinItems { limit } => {
            format!("minItems {limit}, the array has {} items", items())
        }
        ValidationErrorKind::MaxProperties { limit } => {
            format!(
                "maxProperties {limit}, the object has {} members",
                members()
            )
        }
        ValidationErrorKind::MinProperties { limit } => {
            format!(
                "minProperties {limit}, the object has {} members",
                members()
            )
        }
        ValidationErrorKind::Required { property } => match property.as_str() {
            Some(name) => format!("required, the member `{name}` is missing"),
            None => "required, a member is missing".to_owned(),
        },
        ValidationErrorKind::AdditionalProperties { unexpected } => format!(
            "additionalProperties false, the schema does not allow {}",
            unexpected
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ValidationErrorKind::Type { kind } => {
            let expected = match kind {
                TypeKind::Single(t) => t.to_string(),
                TypeKind::Multiple(set) => set
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" or "),
            };
            format!("type {expected}, the value is {}", a_type(value))
        }
        ValidationErrorKind::Enum { options } => {
            let count = options.as_array().map_or(0, Vec::len);
            match value {
                Value::String(_) => format!(
                    "enum of {count} values, the value (a string of {} characters) is none of them",
                    chars()
                ),
                other => format!(
                    "enum of {count} values, the value ({}) is none of them",
                    a_type(other)
                ),
            }
        }
        ValidationErrorKind::Constant { .. } => "const, the value differs".to_owned(),
        ValidationErrorKind::Pattern { pattern } => format!(
            "pattern `{pattern}`, the value (a string of {} characters) does not match",
            chars()
        ),
        ValidationErrorKind::Format { format } => {
            format!("format {format}, the value does not have it")
        }
        ValidationErrorKind::MultipleOf { .. } => {
            format!("multipleOf, the value {} is not one", number())
        }
        ValidationErrorKind::AnyOf { .. } => {
            "anyOf, the value fits none of the alternatives".to_owned()
        }
        ValidationErrorKind::OneOfNotValid { .. } => {
            "oneOf, the value fits none of the alternatives".to_owned()
        }
        ValidationErrorKind::OneOfMultipleValid { .. } => {
            "oneOf, the value fits more than one alternative".to_owned()
        }
        ValidationErrorKind::Not { .. } => "not, the value fits the schema it must not".to_owned(),
        ValidationErrorKind::FalseSchema => "false, no value is allowed here".to_owned(),
        ValidationErrorKind::UniqueItems => "uniqueItems, the array has duplicates".to_owned(),
        other => format!("{}, the value does not fit", other.keyword()),
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn a_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The file span of the template key that produces the output at `pointer` (RFC 6901) of
/// template `source`, a template of the document whose text is `file_text`: `#ifgroup`
/// contents are looked through, an index of a `#loop` array is the loop's body, and a pointer
/// the template does not write member by member gives its deepest producer (the template's
/// name for the body itself). The same mapping lint rule SD802 reports with.
#[must_use]
pub fn template_output_span(file_text: &str, source: &TemplateSource, pointer: &str) -> Span {
    let template = Template::analyse(source, file_text);
    let name = source.name.span;
    let Some(tree) = &template.tree else {
        return name;
    };
    // Stands for the name key: the root has no key of its own in the tree.
    let marker = Span::empty(u32::MAX);
    let (_, span) = producer(tree.root(), marker, pointer);
    if span == marker {
        name
    } else {
        tree.node_span(file_text, span)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::Arc;
    use syncdef_definitions::{Definition, SourceFile};

    const DOC: &str = r##"openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /things:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Thing"}
      responses: {"200": {description: ok}}
  /plain:
    post:
      responses: {"200": {description: ok}}
components:
  schemas:
    Thing:
      type: object
      required: [Name]
      properties:
        Name: {type: string, maxLength: 5}
        Size: {type: integer, maximum: 3}
synchronization:
  Thing:
    module: Accounts
    push:
      create: /things/post
      schemasTransformer:
        createRequest:
          Name: "#valueof($.account.name)"
          Inner:
            Size: 1
        createResponse: '{"Id": "#valueof($.Id)"}'
"##;

    fn schema_of(path: &str) -> (Definition, Option<Result<RequestBodySchema, String>>) {
        let def = Definition::load(SourceFile::new("t.yaml", DOC)).expect("loads");
        let op = def
            .root()
            .pointer(&format!("/paths/{}/post", path.replace('/', "~1")))
            .expect("operation");
        let schema = RequestBodySchema::of_operation(&def.root(), &op);
        (def, schema)
    }

    #[test]
    fn a_body_over_max_length_is_reported_with_pointer_and_sizes() {
        let (_, schema) = schema_of("/things");
        let schema = schema.expect("has a body").expect("compiles");
        assert!(schema.is_valid(&json!({"Name": "abc"})));
        let body = json!({"Name": "abcdefg", "Size": 4});
        assert!(!schema.is_valid(&body));
        // Read in place, the text gives the same answers.
        assert_eq!(
            schema.is_valid_text(r#"{"Name":"abc","Size":3}"#),
            Some(true)
        );
        assert_eq!(schema.is_valid_text(&body.to_string()), Some(false));
        assert_eq!(schema.is_valid_text(r#"{"Name":"ab\u0063de"}"#), Some(true));
        assert_eq!(
            schema.is_valid_text(r#"{"Name":"ab\u0063def"}"#),
            Some(false)
        );
        assert_eq!(schema.is_valid_text("{}"), Some(false));
        assert_eq!(schema.is_valid_text("{"), None);
        let mut found = schema.violations(&body);
        found.sort_by(|a, b| a.pointer.cmp(&b.pointer));
        assert_eq!(
            found,
            vec![
                Violation {
                    pointer: "/Name".into(),
                    rule: "maxLength 5, the value has 7 characters".into()
                },
                Violation {
                    pointer: "/Size".into(),
                    rule: "maximum 3, the value is 4".into()
                },
            ]
        );
        assert_eq!(
            schema.violations(&json!({}))[0].rule,
            "required, the member `Name` is missing"
        );
    }

    #[test]
    fn an_operation_without_a_request_body_has_no_schema() {
        assert!(schema_of("/plain").1.is_none());
    }

    #[test]
    fn an_output_pointer_maps_to_the_template_key_that_wrote_it() {
        let file = Arc::new(SourceFile::new("t.yaml", DOC));
        let def = Definition::load(SourceFile::new("t.yaml", DOC)).expect("loads");
        let sync = def.sync.as_ref().expect("section");
        let push = sync.entries[0].push.as_ref().expect("push");
        let source = push
            .common
            .templates
            .iter()
            .find(|t| t.name.value == "createRequest")
            .expect("template");
        let at = |pointer: &str| {
            let span = template_output_span(file.text(), source, pointer);
            (file.line_col(span.start).line, file.slice(span).to_owned())
        };
        assert_eq!(at("/Name"), (29, "Name".to_owned()));
        assert_eq!(at("/Inner/Size"), (31, "Size".to_owned()));
        assert_eq!(at(""), (28, "createRequest".to_owned()));
        // A member the template does not write: its deepest producer.
        assert_eq!(at("/Inner/Other"), (30, "Inner".to_owned()));
    }
}
