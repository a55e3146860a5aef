//! Go to definition: from an operation reference to its operation, from a `$ref` to its
//! target, from `{Entry.IntegrationId}` or an `ApiSynchronization` target to the entry.

use lsp_types::{GotoDefinitionResponse, Location, Position};
use syncdef_definitions::path_match::Resolution;
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
    let span = placeholder_entry(&def, text, offset)
        .or_else(|| operation(&def, offset))
        .or_else(|| synchronization_target(&def, offset))
        .or_else(|| reference(&def, offset))?;
    let range = doc
        .lines()
        .range(text, span.start as usize, span.end as usize);
    Some(GotoDefinitionResponse::Scalar(Location::new(
        doc.uri.clone(),
        range,
    )))
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

fn entry_key(def: &Definition, name: &str) -> Option<Span> {
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
