//! The views through which a loaded document is read.
//!
//! A [`Node`] is a JSON-compatible value that remembers the bytes it came from: a small value
//! that borrows its document's [`Tree`](crate::tree::Tree), made when it is read. Object
//! members stay in document order and keep the span of their key, because diagnostics often
//! point at a key ("unknown field `modul`") rather than at its value.

use crate::items::Items;
use crate::members::Members;
use crate::pointer;
use crate::source::Span;

/// One value of a loaded document and the bytes it was read from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node<'t> {
    /// The whole value in the source: quotes of a string, brackets of an array, the indicator
    /// and body of a YAML block scalar.
    pub span: Span,
    /// What the value is.
    pub kind: NodeKind<'t>,
}

/// What tells a node of a tree apart from every other node of that tree
/// ([`Node::identity`]): a key for maps of nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeIdentity {
    span: Span,
    first: u32,
    len: u32,
}

/// The value of a [`Node`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NodeKind<'t> {
    /// `null`, YAML `~`, or an empty YAML value.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written and as parsed.
    Number(&'t Number),
    /// A string (decoded) and how it was written.
    String(StringValue<'t>),
    /// An array (YAML sequence).
    Array(Items<'t>),
    /// An object (YAML mapping), members in document order.
    Object(Members<'t>),
}

/// A number literal: its text as written, and its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Number {
    /// The literal as written (`1e3`, `0x1F` in YAML), so nothing is lost to rounding.
    pub text: Box<str>,
    /// The parsed value.
    pub value: NumberValue,
}

/// The parsed form of a [`Number`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NumberValue {
    /// An integer that fits `u64` (non-negative).
    PosInt(u64),
    /// A negative integer that fits `i64`.
    NegInt(i64),
    /// Anything else: fractions, exponents, integers too large for 64 bits, YAML `.inf`/`.nan`.
    Float(f64),
}

impl NumberValue {
    /// The value as `f64` (integers beyond 2^53 lose precision).
    #[must_use]
    #[expect(
        clippy::cast_precision_loss,
        reason = "the nearest `f64` is the documented result"
    )]
    pub fn as_f64(self) -> f64 {
        match self {
            NumberValue::PosInt(n) => n as f64,
            NumberValue::NegInt(n) => n as f64,
            NumberValue::Float(f) => f,
        }
    }
}

/// A decoded string and the scalar style it was written in.
///
/// The style and the node's span are all that is needed to map an offset inside the decoded
/// value back to the file (see [`crate::string_map`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StringValue<'t> {
    /// The decoded value (escapes processed, YAML folding applied).
    pub value: &'t str,
    /// How it was written.
    pub style: ScalarStyle,
}

/// How a string scalar was written in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarStyle {
    /// A JSON string: double quotes, JSON escapes.
    Json,
    /// A YAML plain (unquoted) scalar.
    Plain,
    /// A YAML `'single quoted'` scalar (`''` is a quote).
    SingleQuoted,
    /// A YAML `"double quoted"` scalar with YAML escapes.
    DoubleQuoted,
    /// A YAML literal block scalar (`|`).
    Literal,
    /// A YAML folded block scalar (`>`).
    Folded,
}

/// One `key: value` member of an object.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Member<'t> {
    /// The key, decoded, and where it is written.
    pub key: Key<'t>,
    /// The value.
    pub value: Node<'t>,
    /// Where the member is in its object.
    pub(crate) position: u32,
}

impl Member<'_> {
    /// Where the member is in its object (document order): what
    /// [`Members::at`](crate::Members::at) finds it by.
    #[must_use]
    pub fn position(&self) -> usize {
        self.position as usize
    }
}

/// An object key and its span (quotes included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key<'t> {
    /// The decoded key.
    pub name: &'t str,
    /// Where the key is written.
    pub span: Span,
}

impl<'t> Node<'t> {
    /// A node of `kind` at `span`.
    #[must_use]
    pub const fn new(span: Span, kind: NodeKind<'t>) -> Self {
        Node { span, kind }
    }

    /// The string value, if this is a string.
    #[must_use]
    pub fn as_str(self) -> Option<&'t str> {
        match self.kind {
            NodeKind::String(s) => Some(s.value),
            _ => None,
        }
    }

    /// The string and its style, if this is a string.
    #[must_use]
    pub fn as_string(self) -> Option<StringValue<'t>> {
        match self.kind {
            NodeKind::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    #[must_use]
    pub fn as_bool(self) -> Option<bool> {
        match self.kind {
            NodeKind::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The members, if this is an object.
    #[must_use]
    pub fn as_object(self) -> Option<Members<'t>> {
        match self.kind {
            NodeKind::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The items, if this is an array.
    #[must_use]
    pub fn as_array(self) -> Option<Items<'t>> {
        match self.kind {
            NodeKind::Array(items) => Some(items),
            _ => None,
        }
    }

    /// Whether this is `null`.
    #[must_use]
    pub fn is_null(self) -> bool {
        matches!(self.kind, NodeKind::Null)
    }

    /// The member named `key`, if this is an object that has it (the first one: loaders refuse
    /// duplicates).
    #[must_use]
    pub fn member(self, key: &str) -> Option<Member<'t>> {
        match self.kind {
            NodeKind::Object(members) => members.get(key),
            _ => None,
        }
    }

    /// The value of member `key`, if this is an object that has it.
    #[must_use]
    pub fn get(self, key: &str) -> Option<Node<'t>> {
        self.member(key).map(|m| m.value)
    }

    /// A one-word description of the kind, for messages ("expected a string, found an array").
    #[must_use]
    pub fn type_name(self) -> &'static str {
        self.kind.type_name()
    }

    /// The node at an RFC 6901 JSON pointer (`""` is the node itself, `/paths/~1customer/post`
    /// a descendant). Array indices are decimal without leading zeros.
    #[must_use]
    pub fn pointer(self, pointer: &str) -> Option<Node<'t>> {
        let mut node = self;
        for token in pointer::tokens(pointer)? {
            node = node.child(&token)?;
        }
        Some(node)
    }

    /// The span of the key of the member a pointer designates, or for an array item (which has
    /// no key) the item's span. `None` for the root or a missing node.
    #[must_use]
    pub fn pointer_key_span(self, pointer: &str) -> Option<Span> {
        let (parent, last) = pointer::split_last(pointer)?;
        let parent = self.pointer(parent)?;
        let last = pointer::unescape(last);
        match parent.kind {
            NodeKind::Object(members) => members.get(&last).map(|m| m.key.span),
            NodeKind::Array(_) => parent.child(&last).map(|n| n.span),
            _ => None,
        }
    }

    /// The direct child for one unescaped pointer token.
    #[must_use]
    pub fn child(self, token: &str) -> Option<Node<'t>> {
        match self.kind {
            NodeKind::Object(_) => self.get(token),
            NodeKind::Array(items) => items.get(pointer::array_index(token)?),
            _ => None,
        }
    }

    /// What tells this node apart from every other of its tree: its span, and for an object
    /// or an array where its contents are (a parent and its only child can share a span).
    #[must_use]
    pub fn identity(self) -> NodeIdentity {
        let (first, len) = match self.kind {
            NodeKind::Object(members) => members.range(),
            NodeKind::Array(items) => {
                let (first, len) = items.range();
                (first, len | (1 << 31))
            }
            _ => (u32::MAX, u32::MAX),
        };
        NodeIdentity {
            span: self.span,
            first,
            len,
        }
    }

    /// A `serde_json::Value` copy (numbers keep their literal when it is valid JSON).
    #[must_use]
    pub fn to_json(self) -> serde_json::Value {
        use serde_json::Value;
        match &self.kind {
            NodeKind::Null => Value::Null,
            NodeKind::Bool(b) => Value::Bool(*b),
            NodeKind::Number(n) => match n.value {
                NumberValue::PosInt(u) => Value::from(u),
                NumberValue::NegInt(i) => Value::from(i),
                NumberValue::Float(f) => {
                    serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
                }
            },
            NodeKind::String(s) => Value::String(s.value.to_string()),
            NodeKind::Array(items) => Value::Array(items.iter().map(Node::to_json).collect()),
            NodeKind::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|m| (m.key.name.to_owned(), m.value.to_json()))
                    .collect(),
            ),
        }
    }

    /// Every node of the tree, depth first, with its JSON pointer.
    pub fn walk(self, visit: &mut dyn FnMut(&str, &Node<'t>)) {
        let mut path = String::new();
        walk_inner(self, &mut path, visit);
    }
}

fn walk_inner<'t>(node: Node<'t>, path: &mut String, visit: &mut dyn FnMut(&str, &Node<'t>)) {
    visit(path, &node);
    let len = path.len();
    match &node.kind {
        NodeKind::Object(members) => {
            for m in members {
                pointer::push(path, m.key.name);
                walk_inner(m.value, path, visit);
                path.truncate(len);
            }
        }
        NodeKind::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                pointer::push_index(path, i);
                walk_inner(item, path, visit);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

impl NodeKind<'_> {
    /// The kind with its article (`a string`, `an object`, `null`), for messages.
    #[must_use]
    pub fn described(&self) -> &'static str {
        match self {
            NodeKind::Null => "null",
            NodeKind::Bool(_) => "a boolean",
            NodeKind::Number(_) => "a number",
            NodeKind::String(_) => "a string",
            NodeKind::Array(_) => "an array",
            NodeKind::Object(_) => "an object",
        }
    }

    /// A one-word description of the kind.
    #[must_use]
    pub fn type_name(&self) -> &'static str {
        match self {
            NodeKind::Null => "null",
            NodeKind::Bool(_) => "boolean",
            NodeKind::Number(_) => "number",
            NodeKind::String(_) => "string",
            NodeKind::Array(_) => "array",
            NodeKind::Object(_) => "object",
        }
    }
}

#[cfg(test)]
mod size {
    use crate::tree::{MemberSlot, Slot};

    /// The tree's memory is mostly slots: a larger one grows every value of every document.
    #[test]
    fn slots_stay_small() {
        assert_eq!(std::mem::size_of::<Slot>(), 16);
        assert_eq!(std::mem::size_of::<MemberSlot>(), 24);
    }
}
