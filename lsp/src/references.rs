//! Find references: every place of the definition that names what is under the cursor, the
//! inverse of go to definition. On an operation of `paths` (its method or its path), the
//! operation references and action paths that resolve to it; on an entry, its
//! `{Entry.IntegrationId}` placeholders and the `ApiSynchronization` actions that name it; on a
//! schema or any other `$ref` target, the `$ref`s to it. On one of those places, the places
//! that name the same thing.

use lsp_types::{Location, Position};
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
            if let Some(to) = field
                .parsed
                .as_ref()
                .ok()
                .and_then(|p| definition::resolved(def, p))
            {
                sites.push((field.text.span, to));
            }
        }
        for action in locate::actions(entry) {
            let Some(path) = &action.path else { continue };
            let operation = action.path_ref.as_ref().and_then(|r| r.as_ref().ok());
            let to = operation
                .and_then(|p| definition::resolved(def, p))
                .or_else(|| definition::entry_key(def, &path.value));
            if let Some(to) = to {
                sites.push((path.span, to));
            }
        }
    }
    placeholders(def, text, &mut sites);
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

/// The `{Entry.IntegrationId}` placeholders of the `synchronization` section, each with the
/// entry it names.
fn placeholders(def: &Definition, text: &str, sites: &mut Vec<(Span, Span)>) {
    let root = def.root();
    let Some(section) = ["synchronization", "x-synchronization"]
        .into_iter()
        .find_map(|key| root.get(key))
    else {
        return;
    };
    let (start, end) = (section.span.start as usize, section.span.end as usize);
    let Some(body) = text.get(start..end) else {
        return;
    };
    for open in memchr::memchr_iter(b'{', body.as_bytes()) {
        let rest = &body[open + 1..];
        let Some(close) = rest
            .find(['}', '\n', '{'])
            .filter(|&i| rest.as_bytes()[i] == b'}')
        else {
            continue;
        };
        let Some(name) = rest[..close].strip_suffix(".IntegrationId") else {
            continue;
        };
        if let Some(to) = definition::entry_key(def, name) {
            let from = u32::try_from(start + open).unwrap_or(u32::MAX);
            let to_end = u32::try_from(start + open + close + 2).unwrap_or(u32::MAX);
            sites.push((Span::new(from, to_end), to));
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
