//! The compiled form of a template.

use std::sync::Arc;

use crate::expr::Expr;
use crate::value::{Shape, Value};

/// A compiled template node.
#[derive(Debug)]
pub(crate) enum Node {
    /// A subtree with nothing to evaluate: returned as is (shared, not rebuilt).
    Const(Value),
    /// A `#function(...)` string.
    Expr(Box<ExprNode>),
    /// An object with something to evaluate inside.
    Object(Box<ObjectNode>),
    /// An array with something to evaluate inside.
    Array(Box<[Node]>),
}

/// An expression and where it is in the template.
#[derive(Debug)]
pub(crate) struct ExprNode {
    pub expr: Expr,
    /// JSON pointer of the template node, for runtime errors.
    pub pointer: Arc<str>,
    /// Whether the expression is the property's key or its value.
    pub part: crate::error::NodePart,
    /// Byte offset of the key or string content in the template text, when known exactly.
    pub text_offset: Option<usize>,
    /// Property values lose the escape of a leading `<esc>#` in their result; array items do
    /// not (JUST unescapes only property values).
    pub unescape_result: bool,
}

/// An object template.
#[derive(Debug)]
pub(crate) struct ObjectNode {
    pub props: Vec<Prop>,
    /// No property function (`#loop`, `#eval`, `#ifgroup`, `#scope`, `"#"`): the fast path.
    pub plain: bool,
    /// The property names in order, shared by every object built from this one (plain
    /// objects only; empty otherwise).
    pub keys: Shape,
    /// What a writer puts before each property's value, as JSON text: `{"key":` for the
    /// first, `,"key":` for the others (plain objects only; empty otherwise). Keys are
    /// constant, so they are escaped once, here.
    pub key_texts: Box<[Box<str>]>,
}

/// One property of an object template.
#[derive(Debug)]
pub(crate) enum Prop {
    /// `"key": value`.
    Value { key: Arc<str>, value: Node },
    /// `"#": ["#copy(...)", "#replace(...)", "#delete(...)"]`.
    Bulk { ops: Vec<ExprNode> },
    /// `"#ifgroup(cond)": { ... }`.
    IfGroup { cond: ExprNode, value: Node },
    /// `"#loop(path[,alias[,base]])": element template`.
    Loop { call: ExprNode, value: Node },
    /// `"#eval(expr)": value`.
    Eval { key: ExprNode, value: Node },
    /// `"#scope(path[,alias[,base]])": { ... }`.
    Scope { call: ExprNode, value: Node },
}
