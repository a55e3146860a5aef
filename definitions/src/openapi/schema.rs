//! A schema object: the keywords a reader of values needs, 3.0 and 3.1 alike.

use crate::node::{Member, Node};

use super::resolve;

/// A schema object of a document, references followed when it is made.
#[derive(Clone, Copy, Debug)]
pub struct Schema<'d> {
    root: Node<'d>,
    /// The schema object (a boolean schema in 3.1).
    pub node: Node<'d>,
}

impl<'d> Schema<'d> {
    /// The schema at `node`, following its `$ref` chain (the node itself when it cannot be
    /// followed: a reader then sees a schema without keywords).
    pub(super) fn new(root: Node<'d>, node: Node<'d>) -> Self {
        Schema {
            root,
            node: resolve(root, Some(node)).unwrap_or(node),
        }
    }

    fn at(&self, node: Node<'d>) -> Schema<'d> {
        Schema::new(self.root, node)
    }

    /// The types the schema names, `null` left out: 3.0's one `type`, or 3.1's list.
    #[must_use]
    pub fn types(&self) -> Vec<&'d str> {
        match self.node.get("type") {
            Some(t) => match t.as_array() {
                Some(list) => list
                    .iter()
                    .filter_map(Node::as_str)
                    .filter(|t| *t != "null")
                    .collect(),
                None => t.as_str().filter(|t| *t != "null").into_iter().collect(),
            },
            None => Vec::new(),
        }
    }

    /// The first type the schema names (`null` left out), or what its keywords imply: an
    /// object for `properties`, an array for `items`.
    #[must_use]
    pub fn main_type(&self) -> Option<&'d str> {
        if let Some(first) = self.types().first() {
            return Some(first);
        }
        if self.node.get("properties").is_some() {
            Some("object")
        } else if self.node.get("items").is_some() {
            Some("array")
        } else {
            None
        }
    }

    /// `properties`, each with its schema, in document order.
    pub fn properties(&self) -> impl Iterator<Item = (&'d str, Schema<'d>)> + use<'d> {
        let this = *self;
        super::members(self.node.get("properties"))
            .map(move |m: Member<'d>| (m.key.name, this.at(m.value)))
    }

    /// `items` (one schema; 3.0's only form, 3.1's when not a tuple).
    #[must_use]
    pub fn items(&self) -> Option<Schema<'d>> {
        let items = self.node.get("items")?;
        items.as_object().map(|_| self.at(items))
    }

    /// The schemas of composition keyword `keyword` (`allOf`, `oneOf`, `anyOf`).
    pub fn parts(&self, keyword: &str) -> impl Iterator<Item = Schema<'d>> + use<'d> {
        let this = *self;
        super::array(self.node.get(keyword)).map(move |p| this.at(p))
    }

    /// The schema's example: 3.0's `example`, or the first of 3.1's `examples`.
    #[must_use]
    pub fn example(&self) -> Option<Node<'d>> {
        self.node
            .get("example")
            .or_else(|| self.node.get("examples")?.as_array()?.first())
    }

    /// `default`.
    #[must_use]
    pub fn default(&self) -> Option<Node<'d>> {
        self.node.get("default")
    }

    /// A value the schema allows by listing it: 3.1's `const`, else the first of `enum`.
    #[must_use]
    pub fn first_allowed(&self) -> Option<Node<'d>> {
        self.node
            .get("const")
            .or_else(|| self.node.get("enum")?.as_array()?.first())
    }

    /// `format`, when it is a string.
    #[must_use]
    pub fn format(&self) -> Option<&'d str> {
        self.node.get("format").and_then(Node::as_str)
    }
}
