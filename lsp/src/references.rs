//! Find references: every place of the definition that names what is under the cursor, the
//! inverse of go to definition. On an operation of `paths` (its method or its path), the
//! operation references and action paths that resolve to it; on an entry, its
//! `{Entry.IntegrationId}` placeholders and the `ApiSynchronization` actions that name it; on a
//! schema or any other `$ref` target, the `$ref`s to it. On one of those places, the places
//! that name the same thing.

use lsp_types::{Location, Position};
use syncdef_definitions::model::Text;
use syncdef_definitions::operation_ref::{OperationRef, PlaceholderKind};
use syncdef_definitions::{Definition, Node, NodeKind, Span, refs};

use crate::document::Document;
use crate::{analysis, definition, locate};

/// The places that name what is at `position`, and the place it is defined when
/// `include_declaration`, in document order.
#[must_use]
pub fn references(
    doc: &Document,
    position: Position,
    include_declaration: bool,
) -> Option<Vec<Location>> {
    let text = doc.text();
    let offset = doc.lines().offset(text, position);
    let def = analysis::current(doc)?;
    let target = definition::target(&def, text, offset).or_else(|| key_at(def.root(), offset))?;
    let mut found: Vec<Span> = sites(&def, text)
        .into_iter()
        .filter(|(_, to)| *to == target)
        .map(|(site, _)| site)
        .collect();
    if include_declaration {
        found.push(target);
    }
    found.sort_by_key(|span| (span.start, span.end));
    found.dedup();
    let location = |span: Span| {
        let range = doc
            .lines()
            .range(text, span.start as usize, span.end as usize);
        Location::new(doc.uri.clone(), range)
    };
    Some(found.into_iter().map(location).collect())
}

/// Every place that names something defined elsewhere in the definition, with where that is.
fn sites(def: &Definition, text: &str) -> Vec<(Span, Span)> {
    let mut sites = Vec::new();
    for entry in locate::entries(def) {
        for field in locate::operation_fields(entry) {
            if let Ok(parsed) = &field.parsed {
                reference_sites(def, text, &field.text, parsed, &mut sites);
            }
        }
        for action in locate::actions(entry) {
            let Some(path) = &action.path else { continue };
            match action.path_ref.as_ref().and_then(|r| r.as_ref().ok()) {
                Some(parsed) => reference_sites(def, text, path, parsed, &mut sites),
                None => {
                    if let Some(to) = definition::entry_key(def, &path.value) {
                        sites.push((path.span, to));
                    }
                }
            }
        }
    }
    let root = def.root();
    for site in refs::ref_sites(&root) {
        let Some(pointer) = site.target.strip_prefix('#') else {
            continue;
        };
        let to = root
            .pointer_key_span(pointer)
            .or_else(|| root.pointer(pointer).map(|n| n.span));
        if let Some(to) = to {
            sites.push((site.span, to));
        }
    }
    sites
}

/// The operation reference written as `written`: the operation it resolves to, and each
/// `{Entry.IntegrationId}` placeholder of its path with the entry it names.
fn reference_sites(
    def: &Definition,
    text: &str,
    written: &Text,
    parsed: &OperationRef,
    sites: &mut Vec<(Span, Span)>,
) {
    if let Some(to) = definition::resolved(def, parsed) {
        sites.push((written.span, to));
    }
    for placeholder in &parsed.placeholders {
        if let PlaceholderKind::EntryIntegrationId { entry } = &placeholder.kind
            && let Some(to) = definition::entry_key(def, entry)
        {
            sites.push((written.span_of(text, placeholder.range.clone()), to));
        }
    }
}

/// The key of the innermost member whose key is written at `offset`: a place things are
/// defined (an entry, a path, a method, a schema).
fn key_at(node: Node<'_>, offset: usize) -> Option<Span> {
    match node.kind {
        NodeKind::Object(members) => members.iter().find_map(|m| {
            if locate::contains(m.key.span, offset) {
                Some(m.key.span)
            } else if locate::contains(m.value.span, offset) {
                key_at(m.value, offset)
            } else {
                None
            }
        }),
        NodeKind::Array(items) => items
            .iter()
            .find(|item| locate::contains(item.span, offset))
            .and_then(|item| key_at(item, offset)),
        _ => None,
    }
}
