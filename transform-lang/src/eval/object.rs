//! Objects: property walk in document order, then JUST's post-operations.

use std::sync::Arc;

use super::array::eval_array;
use super::loops::{LoopOut, eval_loop, eval_scope};
use super::{Cx, bulk};
use crate::error::{EvalError, Res};
use crate::expr::Expr;
use crate::template::{ExprNode, Node, ObjectNode, Prop};
use crate::value::{Map, Value, dotnet};

/// What an object template turns into.
pub(super) enum ObjOut {
    /// An ordinary value (usually the object).
    Value(Value),
    /// A loop (or an `#ifgroup` holding one) replaced the object with these items; inside an
    /// array they are spliced in place.
    Splice(Vec<Value>),
}

/// Evaluates any node; `key` is the property name the node sits under, if any.
pub(crate) fn eval_node(cx: &mut Cx<'_>, node: &Node, key: Option<&Arc<str>>) -> Res<Value> {
    match node {
        Node::Const(v) => Ok(v.clone()),
        Node::Expr(e) => eval_expr_node(cx, e),
        Node::Object(o) => Ok(match eval_object(cx, o, key)? {
            ObjOut::Value(v) => v,
            ObjOut::Splice(items) => Value::array(items),
        }),
        Node::Array(items) => eval_array(cx, items),
    }
}

/// Evaluates an expression node, attaching its template location to errors.
pub(super) fn eval_expr_node(cx: &mut Cx<'_>, e: &ExprNode) -> Res<Value> {
    let v = cx.eval_expr(&e.expr).map_err(|err| locate(err, e))?;
    if e.unescape_result
        && let Value::String(s) = &v
        && let Some(text) = unescaped(s, cx.settings.escape_char)
    {
        return Ok(Value::from(text));
    }
    Ok(v)
}

/// A property value `<esc>#...` without its escape: JUST unescapes what an expression yields.
#[inline]
pub(super) fn unescaped(s: &str, esc: char) -> Option<&str> {
    // This runs for every string a property expression yields: an ASCII escape (the usual
    // `/`) is two byte tests; `str::starts_with(char)` would compare through `memcmp`.
    if esc.is_ascii() {
        let b = s.as_bytes();
        return (b.first() == Some(&(esc as u8)) && b.get(1) == Some(&b'#')).then(|| &s[1..]);
    }
    let mut chars = s.chars();
    (chars.next() == Some(esc) && chars.next() == Some('#')).then(|| &s[esc.len_utf8()..])
}

pub(super) fn locate(mut err: Box<EvalError>, e: &ExprNode) -> Box<EvalError> {
    if err.pointer.is_empty() {
        err.pointer = e.pointer.to_string();
    }
    err
}

/// The single argument of a key function (`#ifgroup(x)`, `#eval(x)`).
fn key_argument(e: &ExprNode) -> Option<&Expr> {
    match &e.expr {
        Expr::Call(c) => c.args.first(),
        Expr::Lit(_) => None,
    }
}

pub(super) fn eval_object(cx: &mut Cx<'_>, o: &ObjectNode, key: Option<&Arc<str>>) -> Res<ObjOut> {
    cx.enter()?;
    let tracking = cx.tracks_output();
    if tracking {
        cx.building.push((key.cloned(), Arc::new(Map::new())));
    }
    let result = if o.plain {
        let mut values = Vec::with_capacity(o.props.len());
        for p in &o.props {
            if let Prop::Value { key, value } = p {
                let v = eval_node(cx, value, Some(key))?;
                if tracking && let Some((_, m)) = cx.building.last_mut() {
                    Arc::make_mut(m).insert(key.clone(), v.clone());
                }
                values.push(v);
            }
        }
        // The output shares the template's key list.
        ObjOut::Value(Value::object(Map::shaped(o.keys.clone(), values)))
    } else {
        // Room for the plain properties only: an object made of a `#scope` or `#loop` key
        // alone needs no map of its own.
        let plain_props = o
            .props
            .iter()
            .filter(|p| matches!(p, Prop::Value { .. }))
            .count();
        eval_special(cx, o, Map::with_capacity(plain_props), tracking)?
    };
    if tracking {
        cx.building.pop();
    }
    cx.leave();
    cx.produced(1)?;
    Ok(result)
}

/// An object with key functions. Out of line: its many locals would otherwise enlarge the
/// stack frame of every plain object's walk.
#[inline(never)]
#[expect(
    clippy::too_many_lines,
    reason = "gathers the special properties, then applies them in JUST's order (bulk, eval, groups, loops, scope), which reads best in one place"
)]
fn eval_special(cx: &mut Cx<'_>, o: &ObjectNode, mut out: Map, tracking: bool) -> Res<ObjOut> {
    let mut bulk_ops: Option<&[ExprNode]> = None;
    let mut evals: Vec<(Arc<str>, Value)> = Vec::new();
    let mut groups: Vec<Value> = Vec::new();
    let mut loops: Vec<LoopOut> = Vec::new();
    let mut scope: Option<Value> = None;
    for p in &o.props {
        match p {
            Prop::Value { key, value } => {
                let v = eval_node(cx, value, Some(key))?;
                if tracking && let Some((_, m)) = cx.building.last_mut() {
                    Arc::make_mut(m).insert(key.clone(), v.clone());
                }
                out.insert(key.clone(), v);
            }
            Prop::Bulk { ops } => bulk_ops = Some(ops),
            Prop::IfGroup { cond, value } => {
                let c = match key_argument(cond) {
                    Some(e) => cx.eval_expr(e).map_err(|err| locate(err, cond))?,
                    None => Value::Null,
                };
                let on = match dotnet::to_bool(&c) {
                    Some(b) => b,
                    None if cx.settings.mode.is_exactly_strict() => {
                        let mut err = EvalError::new(
                            crate::EvalErrorKind::Conversion,
                            format!(
                                "the #ifgroup condition '{}' is not a boolean",
                                c.to_json_compact()
                            ),
                        );
                        err.function = match &cond.expr {
                            Expr::Call(c) => Some(c.func.name.into()),
                            Expr::Lit(_) => None,
                        };
                        err.argument = Some(1);
                        err.record_path = cx.record_path();
                        return Err(locate(err, cond));
                    }
                    None => false,
                };
                if on {
                    groups.push(eval_node(cx, value, None)?);
                }
            }
            Prop::Loop { call, value } => {
                loops.push(eval_loop(cx, call, value).map_err(|err| locate(err, call))?);
            }
            Prop::Eval { key, value } => {
                let k = match key_argument(key) {
                    Some(e) => cx.eval_expr(e).map_err(|err| locate(err, key))?,
                    None => Value::Null,
                };
                let k: Arc<str> = dotnet::to_dotnet_string(&k)
                    .map_or_else(|| Arc::from(""), |s| Arc::from(s.as_ref()));
                let v = eval_node(cx, value, Some(&k))?;
                evals.push((k, v));
            }
            Prop::Scope { call, value } => {
                scope = Some(eval_scope(cx, call, value).map_err(|err| locate(err, call))?);
            }
        }
    }
    // Post-operations, in JUST's order: copy, replace, delete, eval, ifgroup, loop, scope.
    if let Some(ops) = bulk_ops {
        bulk::apply(cx, ops, &mut out)?;
    }
    for (k, v) in evals {
        out.insert(k, v);
    }
    let mut replaced: Option<ObjOut> = None;
    for g in groups {
        match g {
            Value::Object(m) => {
                for (k, v) in m.iter() {
                    out.insert(k.clone(), v.clone());
                }
            }
            Value::Array(a) => replaced = Some(ObjOut::Splice(a.to_vec())),
            _ => {}
        }
    }
    if !loops.is_empty() {
        let mut items: Option<Vec<Value>> = None;
        let mut members: Option<Map> = None;
        for l in loops {
            match l {
                LoopOut::Array(v) => items.get_or_insert_with(Vec::new).extend(v),
                LoopOut::Object(m) => {
                    let target = members.get_or_insert_with(Map::new);
                    for (k, v) in m {
                        target.insert(k, v);
                    }
                }
                LoopOut::Removed => {}
            }
        }
        if let Some(items) = items {
            replaced = Some(ObjOut::Splice(items));
        } else if let Some(m) = members {
            replaced = Some(ObjOut::Value(Value::object(m)));
        } else if out.is_empty() && replaced.is_none() {
            replaced = Some(ObjOut::Value(Value::Null));
        }
    }
    if let Some(s) = scope {
        replaced = Some(ObjOut::Value(s));
    }
    Ok(replaced.unwrap_or_else(|| ObjOut::Value(Value::object(out))))
}
