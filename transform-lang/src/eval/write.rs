//! Applying a template straight to JSON text.
//!
//! A request body or a JSON Lines output is written once and never read back, so building the
//! output tree only to serialize and drop it costs an allocation per object and a reference
//! count per copied value for nothing. This walk writes plain objects, `#scope` objects and
//! direct `#valueof` reads as it goes, borrowing from the record, and builds (then writes) a
//! tree only below nodes whose meaning depends on what they produce (`#loop`, `#ifgroup`,
//! `#eval`, bulk operations, arrays that splice, look-in-transformed mode). The text is
//! exactly that of `write_compact` on the tree, with the same limits counted in the same order.

use std::sync::Arc;

use super::Cx;
use super::loops::in_scope;
use super::object::{eval_expr_node, eval_node, locate, unescaped};
use crate::error::Res;
use crate::expr::{Expr, Route};
use crate::path::Selection;
use crate::template::{ExprNode, Node, ObjectNode, OutputObserver, Prop};
use crate::value::ser::{write_compact_array, write_str};
use crate::value::{Value, write_compact};

/// Writes the output of `node` as compact JSON, telling `observer` where the text of each
/// computed node (see [`crate::template::OutputShape`]) starts.
pub(crate) fn write_node<O: OutputObserver>(
    cx: &mut Cx<'_>,
    node: &Node,
    key: Option<&Arc<str>>,
    out: &mut String,
    observer: &mut O,
) -> Res<()> {
    match node {
        Node::Const(v) => {
            let start = out.len();
            write_compact(v, out);
            // In look-in-transformed mode the whole output is one computed part.
            if cx.tracks_output() {
                observer.written(out, start);
            }
        }
        Node::Object(o) if o.plain && !cx.tracks_output() => write_plain(cx, o, out, observer)?,
        _ => {
            let start = out.len();
            write_computed(cx, node, key, out)?;
            observer.written(out, start);
        }
    }
    Ok(())
}

/// A node whose output is only known once applied: written in place where the template
/// allows, built then written otherwise.
fn write_computed(
    cx: &mut Cx<'_>,
    node: &Node,
    key: Option<&Arc<str>>,
    out: &mut String,
) -> Res<()> {
    match node {
        Node::Expr(e) => write_expr(cx, e, out)?,
        Node::Object(o) if !cx.tracks_output() => match lone_scope(o) {
            Some((call, body)) => write_scope(cx, call, body, out)?,
            None => write_compact(&eval_node(cx, node, key)?, out),
        },
        _ => write_compact(&eval_node(cx, node, key)?, out),
    }
    Ok(())
}

/// The observer of a write nobody watches (and of the nodes inside a computed one).
pub(crate) struct Unobserved;

impl OutputObserver for Unobserved {
    #[inline]
    fn written(&mut self, _out: &str, _start: usize) {}
}

/// The `#scope` key and body of an object made of that key alone.
fn lone_scope(o: &ObjectNode) -> Option<(&ExprNode, &Node)> {
    match o.props.as_slice() {
        [Prop::Scope { call, value }] => Some((call, value)),
        _ => None,
    }
}

/// An object of plain properties, with the bookkeeping of `eval_object`.
fn write_plain<O: OutputObserver>(
    cx: &mut Cx<'_>,
    o: &ObjectNode,
    out: &mut String,
    observer: &mut O,
) -> Res<()> {
    cx.enter()?;
    // The keys were written out when the template was compiled, the first with the `{`
    // (an object without properties is a constant, not written here, but kept valid).
    if o.key_texts.is_empty() {
        out.push('{');
    }
    for (p, key_text) in o.props.iter().zip(&o.key_texts) {
        if let Prop::Value { key, value } = p {
            out.push_str(key_text);
            write_node(cx, value, Some(key), out, observer)?;
        }
    }
    out.push('}');
    cx.leave();
    cx.produced(1)
}

/// `{"#scope(path)": body}`: the body, written inside the scope.
fn write_scope(cx: &mut Cx<'_>, call: &ExprNode, body: &Node, out: &mut String) -> Res<()> {
    cx.enter()?;
    in_scope(cx, call, |cx| {
        write_node(cx, body, None, out, &mut Unobserved)
    })
    .map_err(|err| locate(err, call))?;
    cx.leave();
    cx.produced(1)
}

/// An expression: a `#valueof` of a compiled path is written from the record in place;
/// anything else is evaluated, then written.
fn write_expr(cx: &mut Cx<'_>, e: &ExprNode, out: &mut String) -> Res<()> {
    if let Expr::Call(c) = &e.expr
        && let Route::ValueOf(path) = &c.route
    {
        // As `Cx::call` counts it.
        cx.step().map_err(|err| locate(err, e))?;
        let escape_char = cx.settings.escape_char;
        let (root, memo) = cx.scope_input_and_memo();
        match path.selection_memo(root, memo) {
            Selection::Nothing => out.push_str("null"),
            Selection::One(Value::String(s)) if e.unescape_result => {
                write_str(unescaped(s, escape_char).unwrap_or(s), out);
            }
            Selection::One(v) => write_compact(v, out),
            Selection::Many(all) => write_compact_array(all.into_iter(), out),
        }
        return Ok(());
    }
    if let Expr::Call(c) = &e.expr
        && let Route::IfCondition(args) = &c.route
        && !cx.tracks_output()
    {
        cx.step().map_err(|err| locate(err, e))?;
        let branch = cx.if_condition(c, args).map_err(|err| locate(err, e))?;
        match cx.operand(branch) {
            Value::String(s) if e.unescape_result => {
                write_str(unescaped(s, cx.settings.escape_char).unwrap_or(s), out);
            }
            v => write_compact(v, out),
        }
        return Ok(());
    }
    write_compact(&eval_expr_node(cx, e)?, out);
    Ok(())
}
