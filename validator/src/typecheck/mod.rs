//! Type checking (SD8xx): templates against the platform records they read and the external
//! operations they feed. What the rules share is here; each rule is a file under `rules/`.

pub(crate) mod action_values;
pub(crate) mod fits;
pub(crate) mod openapi;
pub(crate) mod pulled;
pub(crate) mod reads;
pub(crate) mod shape;

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::Value;
use syncdef_definitions::Node;
use syncdef_definitions::platform::{self, ExtensionProblem, JsonType, RecordSchemas};
use syncdef_transform::{JsonPath, ValueKind};

/// What request templates are rendered over besides the definition: sample records given by
/// the user, and the external ids of related records, each by entry name.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Sample records (`syncdef lint --record ENTRY=FILE`).
    pub records: BTreeMap<String, Value>,
    /// External ids of related records (`--related ENTRY=ID`, as `syncdef push --dry-run` takes
    /// them), read as `$.related.<ENTRY>.IntegrationId`; entries without one get a stand-in.
    pub related: BTreeMap<String, String>,
}

/// The platform record schema of one definition: the shipped one, or the shipped one with the
/// definition's `x-syncdef-records` applied.
pub(crate) struct Records<'d> {
    pub schemas: Cow<'static, RecordSchemas>,
    /// Problems of the extension, with its node.
    pub problems: Vec<ExtensionProblem>,
    pub extension: Option<Node<'d>>,
}

impl<'d> Records<'d> {
    pub fn of(root: &Node<'d>) -> Records<'d> {
        match root.get(platform::EXTENSION_KEY) {
            None => Records {
                schemas: Cow::Borrowed(platform::builtin()),
                problems: Vec::new(),
                extension: None,
            },
            Some(ext) => {
                let (schemas, problems) = platform::builtin().extended(&ext.to_json());
                Records {
                    schemas: Cow::Owned(schemas),
                    problems,
                    extension: Some(ext),
                }
            }
        }
    }
}

/// Infers the type of template expressions from the platform record schema.
pub(crate) struct RecordValueTypes<'s> {
    pub records: &'s RecordSchemas,
    /// The module whose record roots (`account`; `invoiceItem` and `invoice` for lines) have
    /// a known type: other reads have none.
    pub module: &'s syncdef_definitions::platform::modules::Module,
}

impl shape::ValueTypes for RecordValueTypes<'_> {
    /// What the function table says the expression gives; `#valueof` of the record is typed
    /// by the platform record schema.
    fn expression_type(&self, text: &str, _loop_depth: usize) -> Option<JsonType> {
        let read = |path: &JsonPath, function: &str| -> Option<ValueKind> {
            if function != "valueof" {
                return None;
            }
            let first = path.member_chain().next()?.0;
            if !self.module.record_roots().any(|r| r == first) {
                return None;
            }
            let end = reads::walk(self.records.input(), path.text(), path.steps()).ok()??;
            end.value_type().map(kind_of)
        };
        syncdef_transform::expression_kind(text, '/', &read).map(json_type)
    }
}

/// A JSON Schema type as the template language's value kind.
fn kind_of(t: JsonType) -> ValueKind {
    match t {
        JsonType::Object => ValueKind::Object,
        JsonType::Array => ValueKind::Array,
        JsonType::String => ValueKind::String,
        JsonType::Integer => ValueKind::Integer,
        JsonType::Number => ValueKind::Number,
        JsonType::Boolean => ValueKind::Boolean,
        JsonType::Null => ValueKind::Null,
    }
}

/// A value kind as a JSON Schema type.
fn json_type(kind: ValueKind) -> JsonType {
    match kind {
        ValueKind::Object => JsonType::Object,
        ValueKind::Array => JsonType::Array,
        ValueKind::String => JsonType::String,
        ValueKind::Integer => JsonType::Integer,
        ValueKind::Number => JsonType::Number,
        ValueKind::Boolean => JsonType::Boolean,
        ValueKind::Null => JsonType::Null,
    }
}

/// The JSON schemas of an operation's responses (2xx only, or every declared one), converted
/// once per file. Responses without a JSON schema are left out.
pub(crate) fn response_schemas(
    ctx: &crate::context::Context<'_>,
    operation: &Node,
    success_only: bool,
) -> Vec<std::sync::Arc<openapi::Converted>> {
    let root = &ctx.doc.root();
    let responses = if success_only {
        openapi::success_responses(*root, *operation)
    } else {
        openapi::all_responses(*root, *operation)
    };
    responses
        .into_iter()
        .filter_map(|r| openapi::json_content_schema(*root, r))
        .map(|s| ctx.schemas.get(root, &s, openapi::Direction::Response))
        .collect()
}

/// Header names the 2xx responses of an operation declare.
pub(crate) fn response_headers<'n>(root: Node<'n>, operation: Node<'n>) -> Vec<&'n str> {
    openapi::success_responses(root, operation)
        .into_iter()
        .filter_map(|r| r.get("headers").and_then(Node::as_object))
        .flatten()
        .map(|m| m.key.name)
        .collect()
}

/// A field named as the engine reads action values (`Customer.SyncToken`, `@odata.etag`): a
/// dot separates nested members, but a member whose own name contains dots wins.
pub(crate) enum FieldLookup<'s> {
    /// Declared (the schema, or `None` below an open object).
    Found(Option<platform::FieldSchema<'s>>),
    /// Not declared: the names the object at the failing level has.
    Missing(Vec<String>),
}

pub(crate) fn lookup_field<'s>(schema: platform::FieldSchema<'s>, name: &str) -> FieldLookup<'s> {
    use platform::Property;
    match schema.property(name) {
        Property::Known(s) => return FieldLookup::Found(Some(s)),
        Property::Open => return FieldLookup::Found(None),
        Property::Unknown => {}
    }
    let dots: Vec<usize> = name.match_indices('.').map(|(i, _)| i).collect();
    for i in dots.into_iter().rev() {
        let (head, rest) = (&name[..i], &name[i + 1..]);
        if let Property::Known(inner) = schema.property(head)
            && let FieldLookup::Found(found) = lookup_field(inner, rest)
        {
            return FieldLookup::Found(found);
        }
    }
    // Report at the deepest level reached through declared names.
    if let Some((head, rest)) = name.split_once('.')
        && let Property::Known(inner) = schema.property(head)
    {
        return lookup_field(inner, rest);
    }
    FieldLookup::Missing(
        schema
            .property_names()
            .into_iter()
            .map(str::to_owned)
            .collect(),
    )
}

/// Names for a help text, in backticks, at most twelve (`and 25 more`).
pub(crate) fn name_list<S: AsRef<str>>(names: &[S]) -> String {
    const SHOWN: usize = 12;
    let mut out = names
        .iter()
        .take(SHOWN)
        .map(|n| format!("`{}`", n.as_ref()))
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > SHOWN {
        out.push_str(&format!(" and {} more", names.len() - SHOWN));
    }
    out
}
