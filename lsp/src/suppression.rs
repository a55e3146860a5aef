//! The edit that silences one finding with `x-syncdef-ignore`, written where the validator
//! reads it: in the object at the finding's JSON pointer, or the nearest object above it (a
//! code is silenced at its object and beneath).

use lsp_types::TextEdit;
use syncdef_definitions::pointer;
use syncdef_definitions::{Definition, Node, NodeKind};

use crate::document::Document;

const KEY: &str = "x-syncdef-ignore";

/// The edit adding `code` to the `x-syncdef-ignore` of the object holding `at` (a JSON
/// pointer), creating the key when the object has none.
#[must_use]
pub fn insert(doc: &Document, def: &Definition, at: &str, code: &str) -> Option<TextEdit> {
    let (object_pointer, object) = nearest_object(def.root(), at)?;
    let json = doc.is_json();
    let quoted = if json {
        format!("\"{code}\"")
    } else {
        code.to_owned()
    };
    let (start, end, new_text) = match def.ignores.iter().find(|i| i.pointer == object_pointer) {
        Some(existing) => add_to_existing(doc.text(), &existing.value(), &quoted)?,
        None => new_member(doc.text(), &object, KEY, &format!("[{quoted}]"), json)?,
    };
    Some(TextEdit {
        range: doc.lines().range(doc.text(), start, end),
        new_text,
    })
}

/// The deepest object on the way to `at`, and its pointer.
fn nearest_object<'d>(root: Node<'d>, at: &str) -> Option<(String, Node<'d>)> {
    let mut node = root;
    let mut walked = String::new();
    let mut best = matches!(node.kind, NodeKind::Object(_)).then(|| (String::new(), node));
    for token in pointer::tokens(at)? {
        let Some(next) = node.child(&token) else {
            break;
        };
        pointer::push(&mut walked, &token);
        node = next;
        if matches!(node.kind, NodeKind::Object(_)) {
            best = Some((walked.clone(), node));
        }
    }
    best
}

/// `code` added to an existing value: `[A]` -> `[A, code]`, `A` -> `[A, code]`; the range
/// replaced and its new text.
fn add_to_existing(text: &str, value: &Node, code: &str) -> Option<(usize, usize, String)> {
    let (start, end) = (value.span.start as usize, value.span.end as usize);
    let written = text.get(start..end)?;
    if written.starts_with('[') && written.ends_with(']') {
        let empty = matches!(&value.kind, NodeKind::Array(items) if items.is_empty());
        let sep = if empty { "" } else { ", " };
        return Some((end - 1, end - 1, format!("{sep}{code}")));
    }
    // One code written without the list becomes the first of a flow list.
    matches!(value.kind, NodeKind::String(_)).then(|| (start, end, format!("[{written}, {code}]")))
}

/// A new member `key: value` (`value` written as it must appear) as the object's first, in
/// the object's own style: the range replaced (empty) and its text.
pub(crate) fn new_member(
    text: &str,
    object: &Node,
    key: &str,
    value: &str,
    json: bool,
) -> Option<(usize, usize, String)> {
    let NodeKind::Object(members) = &object.kind else {
        return None;
    };
    let key = if json {
        format!("\"{key}\"")
    } else {
        key.to_owned()
    };
    let open = object.span.start as usize;
    let flow = text.as_bytes().get(open) == Some(&b'{');
    if flow {
        let sep = if members.is_empty() { "" } else { ", " };
        return Some((open + 1, open + 1, format!("{key}: {value}{sep}")));
    }
    let first = members.first()?.key.span.start as usize;
    let line_start = text[..first].rfind('\n').map_or(0, |i| i + 1);
    let indent = " ".repeat(text[line_start..first].chars().count());
    Some((first, first, format!("{key}: {value}\n{indent}")))
}
