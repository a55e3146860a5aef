//! `x-syncdef-ignore`: rule codes a definition silences at one node and everywhere beneath it.
//!
//! ```yaml
//! synchronization:
//!   Customer:
//!     x-syncdef-ignore: [SD602]      # or one code: `x-syncdef-ignore: SD602`
//!     module: Accounts
//! ```
//!
//! The key may be written on any object of the document. It is taken out of the tree when the
//! definition is modelled, so that nothing else ever reads it: not the OpenAPI model (under
//! `properties` or `components/schemas` it would name a property or a schema), not the
//! `synchronization` model (there it would name an entry, an action or a template), and not
//! the engine (inside a request template it would be sent). The linter reads what was taken
//! out, [`crate::Definition::ignores`]; which codes the value names is the linter's business.

use crate::node::{Node, NodeKind};
use crate::pointer;
use crate::source::Span;

/// The key, the same on every object.
pub const IGNORE_KEY: &str = "x-syncdef-ignore";

/// One `x-syncdef-ignore` as written.
#[derive(Clone, Debug, PartialEq)]
pub struct InlineIgnore {
    /// JSON pointer of the object holding the key: the node the codes are silenced at.
    pub pointer: String,
    /// Where the key is written.
    pub key_span: Span,
    /// The value as written: a rule code, or an array of them.
    pub value: Node,
}

/// Takes every `x-syncdef-ignore` member out of the tree under `root`, in document order.
///
/// A YAML alias copies its anchor's members: each copy is taken out and listed, with its own
/// pointer and the anchor's spans.
pub fn take(root: &mut Node) -> Vec<InlineIgnore> {
    let mut found = Vec::new();
    let mut path = String::new();
    take_inner(root, &mut path, &mut found);
    found
}

/// Depth-first, one pointer buffer for the whole walk: a large document has a million nodes,
/// and most have no ignore at all, so no pointer is allocated unless one is found. The
/// recursion is bounded by the loader's depth limit.
fn take_inner(node: &mut Node, path: &mut String, found: &mut Vec<InlineIgnore>) {
    let len = path.len();
    match &mut node.kind {
        NodeKind::Object(members) => {
            if let Some(at) = members.iter().position(|m| &*m.key.name == IGNORE_KEY) {
                // Loaders refuse duplicate keys: there is at most one per object.
                let member = members.remove(at);
                found.push(InlineIgnore {
                    pointer: path.clone(),
                    key_span: member.key.span,
                    value: member.value,
                });
            }
            for m in members.iter_mut() {
                pointer::push(path, &m.key.name);
                take_inner(&mut m.value, path, found);
                path.truncate(len);
            }
        }
        NodeKind::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                pointer::push_index(path, i);
                take_inner(item, path, found);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SourceFile;

    fn load(text: &str) -> Node {
        crate::load::load(SourceFile::new("t.yaml", text))
            .expect("valid YAML")
            .root
    }

    #[test]
    fn takes_every_ignore_with_the_pointer_of_its_object() {
        let mut root = load(
            "x-syncdef-ignore: SD704\npaths:\n  /a~b/c:\n    get: {x-syncdef-ignore: [SD202], responses: {}}\nlist:\n  - {x-syncdef-ignore: [SD109]}\n",
        );
        let found = take(&mut root);
        let pointers: Vec<&str> = found.iter().map(|i| i.pointer.as_str()).collect();
        assert_eq!(pointers, ["", "/paths/~1a~0b~1c/get", "/list/0"]);
        assert_eq!(found[0].value.as_str(), Some("SD704"));
        let mut rest = Vec::new();
        root.walk(&mut |p, _| rest.push(p.to_owned()));
        assert!(!rest.iter().any(|p| p.contains(IGNORE_KEY)), "{rest:?}");
        assert!(root.pointer("/paths/~1a~0b~1c/get/responses").is_some());
    }

    #[test]
    fn a_document_without_ignores_is_left_as_it_is() {
        let mut root = load("a: {b: [1, {c: d}]}\n");
        let before = root.clone();
        assert!(take(&mut root).is_empty());
        assert_eq!(root, before);
    }
}
