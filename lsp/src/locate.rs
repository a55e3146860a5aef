//! What of a loaded definition is at a byte offset: an operation reference, an action, a node
//! of the tree.

use syncdef_definitions::model::{Action, MethodCommon, OperationField, SyncEntry};
use syncdef_definitions::{Definition, Node, NodeKind, Span};

/// Whether `offset` is inside `span` (its end included: the cursor may sit after the last
/// character).
#[must_use]
pub fn contains(span: Span, offset: usize) -> bool {
    (span.start as usize) <= offset && offset <= span.end as usize
}

/// The operation fields (`create`, `update`, `delete`, `read`, `batchRead`) of an entry.
pub fn operation_fields(entry: &SyncEntry) -> impl Iterator<Item = &OperationField> {
    let push = entry
        .push
        .iter()
        .flat_map(|p| [&p.create, &p.update, &p.delete]);
    let pull = entry.pull.iter().flat_map(|p| [&p.read, &p.batch_read]);
    push.chain(pull).flatten()
}

/// The pre- and post-actions and templates' holders of an entry (push, then pull).
pub fn commons(entry: &SyncEntry) -> impl Iterator<Item = &MethodCommon> {
    let push = entry.push.iter().map(|p| &p.common);
    let pull = entry.pull.iter().map(|p| &p.common);
    push.chain(pull)
}

/// Every action of an entry.
pub fn actions(entry: &SyncEntry) -> impl Iterator<Item = &Action> {
    commons(entry).flat_map(|c| c.pre_actions.iter().chain(c.post_actions.iter()))
}

/// The entries of `def`.
pub fn entries(def: &Definition) -> impl Iterator<Item = &SyncEntry> {
    def.sync.iter().flat_map(|s| s.entries.iter())
}

/// The operation field whose text holds `offset`.
#[must_use]
pub fn operation_at(def: &Definition, offset: usize) -> Option<&OperationField> {
    entries(def)
        .flat_map(operation_fields)
        .find(|field| contains(field.text.span, offset))
}

/// The action whose `path` holds `offset`.
#[must_use]
pub fn action_path_at(def: &Definition, offset: usize) -> Option<&Action> {
    entries(def).flat_map(actions).find(|action| {
        action
            .path
            .as_ref()
            .is_some_and(|p| contains(p.span, offset))
    })
}

/// The string value at `offset` and the key it is the value of.
#[must_use]
pub fn string_member_at<'t>(root: &Node<'t>, offset: usize) -> Option<(&'t str, Node<'t>)> {
    let mut node = *root;
    let mut key: Option<&str> = None;
    loop {
        let next = match node.kind {
            NodeKind::Object(members) => members
                .iter()
                .find(|m| contains(m.value.span, offset))
                .map(|m| (Some(m.key.name), m.value)),
            NodeKind::Array(items) => items
                .iter()
                .find(|item| contains(item.span, offset))
                .map(|item| (None, item)),
            NodeKind::String(_) => return key.map(|k| (k, node)),
            _ => None,
        };
        let (next_key, next_node) = next?;
        key = next_key;
        node = next_node;
    }
}
