//! Static analysis for tools: every JSONPath a template reads and every function it calls,
//! with locations, without evaluating anything.

use std::ops::Range;

use crate::error::Location;
use crate::expr::{Call, Expr};
use crate::functions::Reads;
use crate::path::JsonPath;
use crate::template::{ExprNode, Node, Prop};

/// What a path is evaluated against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathContext {
    /// The record.
    Root,
    /// The current element of the loop with this alias.
    LoopElement(String),
    /// The token of the `#scope` with this alias.
    Scope(String),
    /// Each item of an array argument (`#sumatpath(array, path)`).
    ArrayItem,
    /// The output being built (`#replace`, `#delete`, and the second template of
    /// `#applyover`).
    Output,
}

/// A JSONPath the template reads.
#[derive(Clone, Debug)]
pub struct PathUse<'t> {
    /// The compiled path (its steps carry byte ranges relative to the path text).
    pub path: &'t JsonPath,
    /// The function whose argument it is (`loop` and `scope` for keys).
    pub function: &'static str,
    /// The 1-based argument.
    pub argument: usize,
    /// Where the path text is: its range inside the key or string.
    pub location: Location,
    /// What it is evaluated against.
    pub context: PathContext,
}

impl PathUse<'_> {
    /// Byte range of `step` (one of `self.path.steps()`) inside the key or string holding the
    /// expression, to point at the exact property a path names. Exact unless escapes were
    /// removed from the argument before the step.
    pub fn step_range(&self, step: &crate::path::Step) -> Range<usize> {
        let base = self.location.range.start;
        let end = self.location.range.end;
        (base + step.span.start).min(end)..(base + step.span.end).min(end)
    }

    /// [`PathUse::step_range`] as a byte range of the template text, when known.
    pub fn step_offset(&self, step: &crate::path::Step) -> Option<Range<usize>> {
        let at = self.location.offset.as_ref()?.start - self.location.range.start;
        let r = self.step_range(step);
        Some(at + r.start..at + r.end)
    }
}

/// A function call in the template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallUse {
    /// The function name, without `#`.
    pub function: &'static str,
    /// Where the call is.
    pub location: Location,
}

#[derive(Clone)]
enum Frame {
    Loop(String),
    Scope(String),
}

impl Frame {
    /// The default alias stem of the frame's kind (`loop1`, `scope2`).
    fn prefix(&self) -> &'static str {
        match self {
            Frame::Loop(_) => "loop",
            Frame::Scope(_) => "scope",
        }
    }
}

struct Walker<'t> {
    stack: Vec<Frame>,
    paths: Vec<PathUse<'t>>,
    calls: Vec<CallUse>,
    /// Inside an `#applyover` template: locations point at the enclosing literal.
    outer: Option<(&'t ExprNode, Range<usize>)>,
}

pub(crate) fn paths(root: &Node) -> Vec<PathUse<'_>> {
    let mut w = Walker::new();
    w.node(root);
    w.paths
}

pub(crate) fn calls(root: &Node) -> Vec<CallUse> {
    let mut w = Walker::new();
    w.node(root);
    w.calls
}

fn alias_of(c: &Call, i: usize) -> Option<String> {
    match c.args.get(i) {
        Some(Expr::Lit(l)) => l.value.as_str().map(|s| s.trim().to_string()),
        _ => None,
    }
}

impl<'t> Walker<'t> {
    fn new() -> Self {
        Walker {
            stack: Vec::new(),
            paths: Vec::new(),
            calls: Vec::new(),
            outer: None,
        }
    }

    fn location(&self, at: &ExprNode, span: &Range<usize>) -> Location {
        let (node, span) = match &self.outer {
            Some((n, s)) => (*n, s),
            None => (at, span),
        };
        Location {
            pointer: node.pointer.to_string(),
            part: node.part,
            range: span.clone(),
            offset: node.text_offset.map(|o| o + span.start..o + span.end),
        }
    }

    fn innermost_loop(&self) -> PathContext {
        self.stack
            .iter()
            .rev()
            .find_map(|f| match f {
                Frame::Loop(a) => Some(PathContext::LoopElement(a.clone())),
                Frame::Scope(_) => None,
            })
            .unwrap_or(PathContext::Root)
    }

    fn named(&self, alias: &str) -> PathContext {
        if alias == "root" {
            return PathContext::Root;
        }
        self.stack
            .iter()
            .rev()
            .find_map(|f| match f {
                Frame::Loop(a) if a == alias => Some(PathContext::LoopElement(a.clone())),
                Frame::Scope(a) if a == alias => Some(PathContext::Scope(a.clone())),
                _ => None,
            })
            .unwrap_or(PathContext::Root)
    }

    fn innermost_scope(&self) -> PathContext {
        self.stack
            .iter()
            .rev()
            .find_map(|f| match f {
                Frame::Scope(a) => Some(PathContext::Scope(a.clone())),
                Frame::Loop(_) => None,
            })
            .unwrap_or(PathContext::Root)
    }

    fn innermost_any(&self) -> PathContext {
        match self.stack.last() {
            Some(Frame::Loop(a)) => PathContext::LoopElement(a.clone()),
            Some(Frame::Scope(a)) => PathContext::Scope(a.clone()),
            None => PathContext::Root,
        }
    }

    /// The context of argument `i` of `c`, as its function declares it.
    fn context(&self, c: &Call, i: usize) -> PathContext {
        match c.func.reads {
            Reads::Scope { alias } => match alias_of(c, alias) {
                Some(a) => self.named(&a),
                None => self.innermost_scope(),
            },
            Reads::Frame { alias } => match alias_of(c, alias) {
                Some(a) => self.named(&a),
                None => self.innermost_any(),
            },
            Reads::LoopElement { alias } => match alias_of(c, alias) {
                Some(a) => self.named(&a),
                None => self.innermost_loop(),
            },
            Reads::Output => PathContext::Output,
            Reads::LoopElementAndItems if i == 1 => PathContext::ArrayItem,
            Reads::LoopElementAndItems => self.innermost_loop(),
        }
    }

    fn expr(&mut self, e: &'t Expr, at: &'t ExprNode) {
        let Expr::Call(c) = e else { return };
        self.calls.push(CallUse {
            function: c.func.name,
            location: self.location(at, &c.span),
        });
        for (i, a) in c.args.iter().enumerate() {
            match a {
                Expr::Call(_) => self.expr(a, at),
                Expr::Lit(l) => {
                    if let Some(p) = &l.path {
                        self.paths.push(PathUse {
                            path: p,
                            function: c.func.name,
                            argument: i + 1,
                            location: self.location(at, &l.span),
                            context: self.context(c, i),
                        });
                    }
                    if let Some(t) = &l.template {
                        self.nested(t, at, l.span.clone(), i);
                    }
                }
            }
        }
    }

    /// An `#applyover` template: the first runs on the loop element or record with a fresh
    /// state, the second on the first one's output.
    fn nested(&mut self, t: &'t Node, at: &'t ExprNode, span: Range<usize>, i: usize) {
        let saved_stack = std::mem::take(&mut self.stack);
        let holder = self.outer.as_ref().map_or(at, |o| o.0);
        let saved_outer = self.outer.replace((holder, span));
        let base = if i == 0 {
            match saved_stack
                .iter()
                .rev()
                .find(|f| matches!(f, Frame::Loop(_)))
            {
                Some(f) => vec![f.clone()],
                None => Vec::new(),
            }
        } else {
            Vec::new()
        };
        self.stack = base;
        let first_path = self.paths.len();
        self.node(t);
        if i == 1 {
            for p in &mut self.paths[first_path..] {
                if p.context == PathContext::Root {
                    p.context = PathContext::Output;
                }
            }
        }
        self.stack = saved_stack;
        self.outer = saved_outer;
    }

    /// Walks the value of a `#loop` or `#scope` key inside its frame, named by the call's alias
    /// or, as JUST does, `loop<level>` / `scope<level>`.
    fn framed(&mut self, call: &'t ExprNode, value: &'t Node, frame: fn(String) -> Frame) {
        self.expr(&call.expr, call);
        let alias = match &call.expr {
            Expr::Call(c) => alias_of(c, 1),
            Expr::Lit(_) => None,
        };
        let prefix = frame(String::new()).prefix();
        let alias = alias.unwrap_or_else(|| {
            let level = 1 + self.stack.iter().filter(|f| f.prefix() == prefix).count();
            format!("{prefix}{level}")
        });
        self.stack.push(frame(alias));
        self.node(value);
        self.stack.pop();
    }

    fn node(&mut self, n: &'t Node) {
        match n {
            Node::Const(_) => {}
            Node::Expr(e) => self.expr(&e.expr, e),
            Node::Array(items) => items.iter().for_each(|i| self.node(i)),
            Node::Object(o) => {
                for p in &o.props {
                    match p {
                        Prop::Value { value, .. } => self.node(value),
                        Prop::Bulk { ops } => ops.iter().for_each(|op| self.expr(&op.expr, op)),
                        Prop::IfGroup { cond, value } => {
                            self.expr(&cond.expr, cond);
                            self.node(value);
                        }
                        Prop::Eval { key, value } => {
                            self.expr(&key.expr, key);
                            self.node(value);
                        }
                        Prop::Loop { call, value } => self.framed(call, value, Frame::Loop),
                        Prop::Scope { call, value } => self.framed(call, value, Frame::Scope),
                    }
                }
            }
        }
    }
}

/// The kind of JSON value an expression gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A whole number (`#tointeger`, `#length`, an integer field).
    Integer,
    /// A number, whole or not.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

/// The kind of value the template string `text` (a property value) gives, when it is known
/// without evaluating it: a plain string is a string; a call gives what its function declares
/// (`#concat` a string, `#ifcondition` what both its branches give, a literal argument being
/// a string: `#ifcondition(a,b,true,false)` gives the *string* `"true"` or `"false"`). The
/// kind of a path read (`#valueof($.account.name)`) is asked of `read`, with the path and the
/// function reading it. `None` when it depends on the data.
pub fn expression_kind(
    text: &str,
    escape: char,
    read: &dyn Fn(&JsonPath, &'static str) -> Option<ValueKind>,
) -> Option<ValueKind> {
    if !text.trim_start().starts_with('#') {
        return Some(ValueKind::String);
    }
    let mut errors = Vec::new();
    let expr = crate::expr::parse_call_or_literal(text, 0..text.len(), escape, &mut errors, 0);
    if !errors.is_empty() {
        return None;
    }
    kind_of(&expr, read)
}

fn kind_of(
    expr: &Expr,
    read: &dyn Fn(&JsonPath, &'static str) -> Option<ValueKind>,
) -> Option<ValueKind> {
    use crate::functions::Returns;
    let call = match expr {
        Expr::Lit(_) => return Some(ValueKind::String),
        Expr::Call(call) => call,
    };
    match call.func.returns {
        Returns::Unknown => None,
        Returns::Kind(kind) => Some(kind),
        Returns::Read => match call.args.first()? {
            Expr::Lit(lit) => read(lit.path.as_deref()?, call.func.name),
            Expr::Call(_) => None,
        },
        Returns::OneOf(args) => {
            let mut kinds = args.iter().map(|&i| kind_of(call.args.get(i - 1)?, read));
            let first = kinds.next()??;
            kinds.all(|k| k == Some(first)).then_some(first)
        }
    }
}

#[cfg(test)]
mod kind_tests {
    use super::*;

    fn kind(text: &str) -> Option<ValueKind> {
        let read = |path: &JsonPath, function: &str| {
            (function == "valueof" && path.text() == "$.account.isTaxable")
                .then_some(ValueKind::Boolean)
        };
        expression_kind(text, '/', &read)
    }

    #[test]
    fn functions_declare_what_they_give() {
        assert_eq!(kind("plain text"), Some(ValueKind::String));
        assert_eq!(kind("#concat(a,b)"), Some(ValueKind::String));
        assert_eq!(kind("#add(1,2)"), Some(ValueKind::Number));
        assert_eq!(kind("#toboolean(#valueof($.x))"), Some(ValueKind::Boolean));
        assert_eq!(
            kind("#valueof($.account.isTaxable)"),
            Some(ValueKind::Boolean)
        );
        assert_eq!(kind("#valueof($.account.other)"), None);
        assert_eq!(kind("#currentvalue()"), None);
    }

    #[test]
    fn a_condition_gives_what_both_branches_give_and_literals_are_strings() {
        assert_eq!(
            kind("#ifcondition(#valueof($.a),true,false,true)"),
            Some(ValueKind::String)
        );
        assert_eq!(
            kind("#ifcondition(#valueof($.a),x,#add(1,2),#add(2,3))"),
            Some(ValueKind::Number)
        );
        assert_eq!(kind("#ifcondition(#valueof($.a),x,#add(1,2),text)"), None);
        assert_eq!(
            kind("#ifcondition(a,b,#valueof($.account.isTaxable),#toboolean(false))"),
            Some(ValueKind::Boolean)
        );
    }

    #[test]
    fn a_malformed_expression_has_no_kind() {
        assert_eq!(kind("#concat(a"), None);
        assert_eq!(kind("#nosuchfunction(a)"), None);
    }
}
