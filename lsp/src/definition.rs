//! Go to definition: from an operation reference to its operation, from a `$ref` to its
//! target, from `{Entry.IntegrationId}` or an `ApiSynchronization` target to the entry, from
//! a template's name to the operation that uses it.

use lsp_types::{GotoDefinitionResponse, Location, Position};
use syncdef_definitions::operation_ref::OperationRef;
use syncdef_definitions::path_match::Resolution;
use syncdef_definitions::template_names::split_template_name;
use syncdef_definitions::{Definition, Span};

use crate::analysis;
use crate::document::Document;
use crate::locate;

/// Where what is under the cursor is defined.
#[must_use]
pub fn definition(doc: &Document, position: Position) -> Option<GotoDefinitionResponse> {
    let text = doc.text();
    let offset = doc.lines().offset(text, position);
    let def = analysis::current(doc)?;
    let span = target(&def, text, offset)?;
    let range = doc
        .lines()
        .range(text, span.start as usize, span.end as usize);
    Some(GotoDefinitionResponse::Scalar(Location::new(
        doc.uri.clone(),
        range,
    )))
}

/// Where what is written at `offset` of `text` is defined.
pub(crate) fn target(def: &Definition, text: &str, offset: usize) -> Option<Span> {
    placeholder_entry(def, text, offset)
        .or_else(|| operation(def, offset))
        .or_else(|| synchronization_target(def, offset))
        .or_else(|| template_operation(def, offset))
        .or_else(|| reference(def, offset))
}

/// The operation (its method key) an operation reference at `offset` resolves to; the path
/// when the path has no such method.
fn operation(def: &Definition, offset: usize) -> Option<Span> {
    let parsed = if let Some(field) = locate::operation_at(def, offset) {
        field.parsed.as_ref().ok()?
    } else {
        let action = locate::action_path_at(def, offset)?;
        action.path_ref.as_ref()?.as_ref().ok()?
    };
    resolved(def, parsed)
}

/// The operation of `paths` an operation reference names: its method key, or the path's key
/// when the path has no such method.
pub(crate) fn resolved(def: &Definition, parsed: &OperationRef) -> Option<Span> {
    match def.resolve(parsed) {
        Resolution::Found { path, .. } => Some(
            path.operation(parsed.method)
                .map_or(path.key_span, |(_, key)| key),
        ),
        Resolution::MethodMissing { path } => Some(path.key_span),
        Resolution::NotFound => None,
    }
}

/// The entry named by `{Entry.IntegrationId}` around `offset`.
fn placeholder_entry(def: &Definition, text: &str, offset: usize) -> Option<Span> {
    let open = text[..offset]
        .rfind(['{', '\n'])
        .filter(|&i| text.as_bytes()[i] == b'{')?;
    let close = offset
        + text[offset..]
            .find(['}', '\n'])
            .filter(|&i| text.as_bytes()[offset + i] == b'}')?;
    let name = text[open + 1..close].strip_suffix(".IntegrationId")?;
    entry_key(def, name)
}

/// The entry an `ApiSynchronization` action's `path` names.
fn synchronization_target(def: &Definition, offset: usize) -> Option<Span> {
    let action = locate::action_path_at(def, offset)?;
    let name = action.path.as_ref()?.as_str();
    entry_key(def, name)
}

/// The operation that uses the template whose name is at `offset` (`createRequest`: the
/// entry's `create`), resolved in `paths`; the reference itself when it resolves to nothing.
fn template_operation(def: &Definition, offset: usize) -> Option<Span> {
    let (entry, template) = locate::entries(def).find_map(|entry| {
        locate::commons(entry)
            .flat_map(|common| common.templates.iter())
            .find(|t| locate::contains(t.name.span, offset))
            .map(|t| (entry, t))
    })?;
    let (operation, _) = split_template_name(&template.name.value)?;
    let field = locate::operation_fields(entry).find(|f| f.name.value == operation)?;
    let parsed = field.parsed.as_ref().ok();
    Some(
        parsed
            .and_then(|p| resolved(def, p))
            .unwrap_or(field.text.span),
    )
}

pub(crate) fn entry_key(def: &Definition, name: &str) -> Option<Span> {
    locate::entries(def)
        .find(|e| e.key.as_str() == name)
        .map(|e| e.key.span)
}

/// The target of a local `$ref` at `offset`.
fn reference(def: &Definition, offset: usize) -> Option<Span> {
    let (key, node) = locate::string_member_at(&def.root(), offset)?;
    if key != "$ref" {
        return None;
    }
    let pointer = node.as_str()?.strip_prefix('#')?;
    def.root()
        .pointer_key_span(pointer)
        .or_else(|| def.root().pointer(pointer).map(|n| n.span))
}
