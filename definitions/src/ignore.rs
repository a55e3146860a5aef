//! `x-syncdef-ignore`: rule codes a definition silences at one node and everywhere beneath it.
//!
//! ```yaml
//! synchronization:
//!   Customer:
//!     x-syncdef-ignore: [SD602]      # or one code: `x-syncdef-ignore: SD602`
//!     module: Accounts
//! ```
//!
//! The key may be written on any object of the document. The loader takes it out of its
//! object when the object closes, so that nothing else ever reads it: not the OpenAPI model (under
//! `properties` or `components/schemas` it would name a property or a schema), not the
//! `synchronization` model (there it would name an entry, an action or a template), and not
//! the engine (inside a request template it would be sent). The linter reads what was taken
//! out, [`crate::Definition::ignores`]; which codes the value names is the linter's business.

use std::collections::HashMap;

use crate::load::Document;
use crate::node::{Node, NodeKind};
use crate::source::Span;
use crate::tree::Tree;

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
    pub value: Tree,
}

impl InlineIgnore {
    /// The value as written.
    #[must_use]
    pub fn value(&self) -> Node<'_> {
        self.value.root()
    }
}

/// Every `x-syncdef-ignore` the loader took out of `doc`, with the pointer of its object, in
/// document order.
///
/// A YAML alias shares its anchor's members: the ignore is listed at every place the object
/// appears, each with its own pointer and the anchor's spans.
pub fn taken(doc: &Document) -> Vec<InlineIgnore> {
    if doc.ignores.is_empty() {
        return Vec::new();
    }
    let mut by_object: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
    for (i, taken) in doc.ignores.iter().enumerate() {
        by_object.entry(taken.object).or_default().push(i);
    }
    let mut found = Vec::new();
    doc.tree.root().walk(&mut |at, node| {
        let NodeKind::Object(members) = node.kind else {
            return;
        };
        for &i in by_object.get(&members.range()).into_iter().flatten() {
            let taken = doc.ignores[i];
            found.push(InlineIgnore {
                pointer: at.to_owned(),
                key_span: taken.key,
                value: doc.tree.copy(&doc.tree.view(taken.value)),
            });
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SourceFile;

    fn load(text: &str) -> Document {
        crate::load::load(SourceFile::new("t.yaml", text)).expect("valid YAML")
    }

    #[test]
    fn takes_every_ignore_with_the_pointer_of_its_object() {
        let doc = load(
            "x-syncdef-ignore: SD704\npaths:\n  /a~b/c:\n    get: {x-syncdef-ignore: [SD202], responses: {}}\nlist:\n  - {x-syncdef-ignore: [SD109]}\n",
        );
        let found = taken(&doc);
        let pointers: Vec<&str> = found.iter().map(|i| i.pointer.as_str()).collect();
        assert_eq!(pointers, ["", "/paths/~1a~0b~1c/get", "/list/0"]);
        assert_eq!(found[0].value().as_str(), Some("SD704"));
        let root = doc.tree.root();
        let mut rest = Vec::new();
        root.walk(&mut |p, _| rest.push(p.to_owned()));
        assert!(!rest.iter().any(|p| p.contains(IGNORE_KEY)), "{rest:?}");
        assert!(root.pointer("/paths/~1a~0b~1c/get/responses").is_some());
    }

    #[test]
    fn an_escaped_spelling_is_an_ignore_once_decoded() {
        let doc = load("{\"a\": {\"x-syncdef-ignor\\u0065\": [\"SD202\"]}}");
        let found = taken(&doc);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].pointer, "/a");
        assert_eq!(
            doc.tree
                .root()
                .pointer("/a")
                .and_then(Node::as_object)
                .map(|m| m.len()),
            Some(0)
        );
    }

    #[test]
    fn an_alias_of_an_object_with_an_ignore_is_silenced_at_both_places() {
        let doc = load("a: &x {x-syncdef-ignore: SD202, b: 1}\nc: *x\n");
        let pointers: Vec<String> = taken(&doc).into_iter().map(|i| i.pointer).collect();
        assert_eq!(pointers, ["/a", "/c"]);
    }

    #[test]
    fn a_text_loaded_as_data_keeps_the_key() {
        let options = crate::LoadOptions {
            take_ignores: false,
            ..crate::LoadOptions::default()
        };
        let doc = crate::load::load_with(
            std::sync::Arc::new(SourceFile::new(
                "t.json",
                r#"{"x-syncdef-ignore": "SD202"}"#,
            )),
            &options,
        )
        .expect("valid JSON");
        assert!(taken(&doc).is_empty());
        assert_eq!(
            doc.root().get(IGNORE_KEY).and_then(Node::as_str),
            Some("SD202")
        );
    }

    #[test]
    fn a_document_without_ignores_is_left_as_it_is() {
        let doc = load("a: {b: [1, {c: d}]}\n");
        assert!(taken(&doc).is_empty());
        assert_eq!(
            doc.tree.root().to_json(),
            serde_json::json!({"a": {"b": [1, {"c": "d"}]}})
        );
    }
}
