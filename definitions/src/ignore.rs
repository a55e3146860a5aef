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
    let places: Vec<Vec<OwnedStep>> = {
        let mut places = Vec::new();
        find(root, &mut Vec::new(), &mut places);
        places
            .into_iter()
            .map(|place| place.into_iter().map(OwnedStep::from).collect())
            .collect()
    };
    places
        .iter()
        .filter_map(|place| remove_at(root, place))
        .collect()
}

/// One step from a node to a child: a member's key or an item's index.
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// The path of every object holding the key, in document order. A large document has a
/// million nodes and usually no ignore at all: the walk keeps borrowed steps on a stack and
/// writes nothing (no pointer, no escaping) unless it finds one. The recursion is bounded by
/// the loader's depth limit.
fn find<'a>(node: &'a Node, stack: &mut Vec<Step<'a>>, places: &mut Vec<Vec<Step<'a>>>) {
    match &node.kind {
        NodeKind::Object(members) => {
            if members.iter().any(|m| &*m.key.name == IGNORE_KEY) {
                places.push(stack.clone());
            }
            // The ignore's own value is taken out whole: not walked into.
            for m in members.iter().filter(|m| &*m.key.name != IGNORE_KEY) {
                stack.push(Step::Key(&m.key.name));
                find(&m.value, stack, places);
                stack.pop();
            }
        }
        NodeKind::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                stack.push(Step::Index(i));
                find(item, stack, places);
                stack.pop();
            }
        }
        _ => {}
    }
}

/// Takes the key out of the object at `place` (steps owned, the tree no longer borrowed).
fn remove_at(root: &mut Node, place: &[OwnedStep]) -> Option<InlineIgnore> {
    let mut pointer = String::new();
    for step in place {
        match step {
            OwnedStep::Key(key) => pointer::push(&mut pointer, key),
            OwnedStep::Index(i) => pointer::push_index(&mut pointer, *i),
        }
    }
    let (key_span, value) = take_ignore(root, place)?;
    Some(InlineIgnore {
        pointer,
        key_span,
        value,
    })
}

/// Takes the ignore member out of the object at `place` below `node`, changing each object and
/// array on the way in place, or through a copy where it is shared (a YAML alias).
fn take_ignore(node: &mut Node, place: &[OwnedStep]) -> Option<(Span, Node)> {
    let Some((step, rest)) = place.split_first() else {
        let NodeKind::Object(members) = &mut node.kind else {
            return None;
        };
        // Loaders refuse duplicate keys: there is at most one per object.
        let at = members.position(IGNORE_KEY)?;
        let member = members.remove(at);
        return Some((member.key.span, member.value));
    };
    match (step, &mut node.kind) {
        (OwnedStep::Key(key), NodeKind::Object(members)) => {
            // An ignore's own value is never walked into, so keys here are not it.
            let at = members.position(key)?;
            members.update(at, |value| take_ignore(value, rest))
        }
        (OwnedStep::Index(i), NodeKind::Array(items)) => {
            let at = *i;
            if at >= items.len() {
                return None;
            }
            items.update(at, |item| take_ignore(item, rest))
        }
        _ => None,
    }
}

/// A [`Step`] that owns its key, once the walk's borrow of the tree has ended.
enum OwnedStep {
    Key(String),
    Index(usize),
}

impl From<Step<'_>> for OwnedStep {
    fn from(step: Step<'_>) -> Self {
        match step {
            Step::Key(k) => OwnedStep::Key(k.to_owned()),
            Step::Index(i) => OwnedStep::Index(i),
        }
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
    fn only_a_document_that_reads_the_key_is_known_to_hold_one() {
        let mentions = |text: &str| {
            crate::load::load(SourceFile::new("t.yaml", text))
                .expect("valid YAML")
                .mentions_ignore
        };
        assert!(mentions("a: {x-syncdef-ignore: [SD202]}"));
        assert!(mentions(r#"{"x-syncdef-ignor\u0065": ["SD202"]}"#));
        assert!(!mentions("a: {x-syncdef: {}}"));
        // The escaped spelling is still an ignore once loaded.
        let mut root = load("{\"a\": {\"x-syncdef-ignor\\u0065\": [\"SD202\"]}}");
        assert_eq!(take(&mut root).len(), 1);
    }

    #[test]
    fn a_document_without_ignores_is_left_as_it_is() {
        let mut root = load("a: {b: [1, {c: d}]}\n");
        let before = root.clone();
        assert!(take(&mut root).is_empty());
        assert_eq!(root, before);
    }
}
