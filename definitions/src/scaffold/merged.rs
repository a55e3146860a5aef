//! What a schema amounts to once its composition is merged: its properties, the names it
//! requires, its type and its item schema, `$ref`s followed, `allOf` parts merged and the first
//! alternative of `oneOf` and `anyOf` taken (the one a starting definition writes).

use crate::node::Node;
use crate::openapi::Schema;

/// Composition deeper than this is not followed: a schema that composes itself ends here.
const MAX_DEPTH: usize = 16;

/// A schema with its composition merged.
#[derive(Clone, Debug, Default)]
pub(super) struct Merged<'d> {
    /// Every property, the schema's own first, then its parts', without repeats.
    pub properties: Vec<(&'d str, Schema<'d>)>,
    /// The names it requires, without repeats.
    pub required: Vec<&'d str>,
    /// The first type it or a part names (`null` left out), or `object` when it has
    /// properties.
    pub kind: Option<&'d str>,
    /// The item schema of an array.
    pub items: Option<Schema<'d>>,
    /// The first value it or a part lists (`const`, else the first of `enum`).
    pub allowed: Option<Node<'d>>,
}

impl<'d> Merged<'d> {
    /// `schema` merged.
    pub fn of(schema: &Schema<'d>) -> Self {
        let mut merged = Merged::default();
        merged.add(schema, 0);
        if merged.kind.is_none() && !merged.properties.is_empty() {
            merged.kind = Some("object");
        }
        merged
    }

    /// Whether the schema is written by its owner, never sent (`readOnly: true`).
    pub fn is_read_only(schema: &Schema<'d>) -> bool {
        schema.node.get("readOnly").and_then(Node::as_bool) == Some(true)
    }

    fn add(&mut self, schema: &Schema<'d>, depth: usize) {
        for (name, property) in schema.properties() {
            if !self.properties.iter().any(|(known, _)| *known == name) {
                self.properties.push((name, property));
            }
        }
        let required = schema.node.get("required").and_then(Node::as_array);
        for name in required.into_iter().flatten().filter_map(Node::as_str) {
            if !self.required.contains(&name) {
                self.required.push(name);
            }
        }
        self.kind = self.kind.or_else(|| schema.main_type());
        self.items = self.items.or_else(|| schema.items());
        self.allowed = self.allowed.or_else(|| schema.first_allowed());
        if depth >= MAX_DEPTH {
            return;
        }
        for part in schema.parts("allOf") {
            self.add(&part, depth + 1);
        }
        for keyword in ["oneOf", "anyOf"] {
            if let Some(first) = first_alternative(schema, keyword) {
                self.add(&first, depth + 1);
            }
        }
    }
}

/// The first alternative of `keyword` that is not only `null`.
fn first_alternative<'d>(schema: &Schema<'d>, keyword: &str) -> Option<Schema<'d>> {
    let only_null =
        |part: &Schema<'d>| part.node.get("type").and_then(Node::as_str) == Some("null");
    schema.parts(keyword).find(|part| !only_null(part))
}
