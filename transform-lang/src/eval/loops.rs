//! `#loop` and `#scope` keys.

use std::sync::Arc;

use super::object::eval_node;
use super::{Alias, Cx, Fail, Frame, LoopFrame};
use crate::error::{EvalError, EvalErrorKind, Res};
use crate::expr::{Call, Expr};
use crate::path::JsonPath;
use crate::template::{ExprNode, Node};
use crate::value::{Map, Value};

/// What a loop produced.
pub(super) enum LoopOut {
    /// Over an array: one item per element.
    Array(Vec<Value>),
    /// Over an object: the first property of each element's result.
    Object(Map),
    /// Nothing to loop over: the loop key is removed.
    Removed,
}

fn fail(e: Fail) -> Box<EvalError> {
    match e {
        Fail::Soft(e) | Fail::Fatal(e) => e,
    }
}

fn key_call(e: &ExprNode) -> Res<&Call> {
    match &e.expr {
        Expr::Call(c) => Ok(c),
        Expr::Lit(_) => Err(EvalError::new(EvalErrorKind::Function, "not a call")),
    }
}

/// Evaluates the `path` argument of a loop or scope against its base: the alias given as
/// argument `base_arg`, or the innermost loop element or scope.
fn source(cx: &mut Cx<'_>, call: &Call, base_arg: usize, wrap: bool) -> Res<(Value, Arc<str>)> {
    let base_alias = cx.alias_arg(call, base_arg).map_err(fail)?;
    let select = |cx: &Cx<'_>, path: &JsonPath| -> Res<Value> {
        let base = cx.base_input(base_alias.as_deref())?;
        let v = path.select_value(&base);
        // A single non-array match of a path ending in `[...]` (a filter, an index) is
        // looped over as a one-element array.
        Ok(match v {
            Value::Null | Value::Array(_) => v,
            v if wrap && path.ends_with_bracket() => Value::array(vec![v]),
            v => v,
        })
    };
    match call.args.first() {
        Some(Expr::Lit(l)) if l.path.is_some() => {
            let path = l
                .path
                .as_deref()
                .ok_or_else(|| EvalError::new(EvalErrorKind::InvalidPath, "missing path"))?;
            Ok((select(cx, path)?, path.text_shared()))
        }
        Some(e) => match cx.eval_expr(e)? {
            Value::String(s) => {
                let path = cx.runtime_path(&s).map_err(|err| {
                    EvalError::new(
                        EvalErrorKind::InvalidPath,
                        format!("invalid JSONPath '{s}': {}", err.message),
                    )
                    .with_argument(1)
                })?;
                Ok((select(cx, &path)?, s))
            }
            other => Ok((other, "(computed)".into())),
        },
        None => Ok((Value::Null, "".into())),
    }
}

pub(super) fn eval_loop(cx: &mut Cx<'_>, key: &ExprNode, body: &Node) -> Res<LoopOut> {
    let call = key_call(key)?;
    let (src, path_text) = source(cx, call, 2, true)?;
    let alias = match cx.alias_arg(call, 1).map_err(fail)? {
        Some(a) => Alias::Named(a),
        None => Alias::Default("loop", cx.loop_count() + 1),
    };
    cx.enter()?;
    let out = match src {
        Value::Array(items) => {
            cx.produced(items.len())?;
            let mut results = Vec::with_capacity(items.len());
            cx.frames.push(Frame::Loop(LoopFrame {
                alias,
                items: items.clone(),
                index: 0,
                property: None,
                path: path_text,
            }));
            for i in 0..items.len() {
                cx.step()?;
                if let Some(Frame::Loop(l)) = cx.frames.last_mut() {
                    l.index = i;
                }
                let r = eval_node(cx, body, None)?;
                // A null element result becomes an empty object.
                results.push(if r.is_null() {
                    Value::object(Map::new())
                } else {
                    r
                });
            }
            cx.frames.pop();
            LoopOut::Array(results)
        }
        Value::Object(m) => {
            let names: Vec<Arc<str>> = m.keys().cloned().collect();
            let items: Arc<Vec<Value>> = Arc::new(
                m.iter()
                    .map(|(k, v)| {
                        let mut one = Map::with_capacity(1);
                        one.insert(k.clone(), v.clone());
                        Value::object(one)
                    })
                    .collect(),
            );
            cx.produced(items.len())?;
            cx.frames.push(Frame::Loop(LoopFrame {
                alias,
                items,
                index: 0,
                property: None,
                path: path_text,
            }));
            let mut members = Map::new();
            for (i, name) in names.into_iter().enumerate() {
                cx.step()?;
                if let Some(Frame::Loop(l)) = cx.frames.last_mut() {
                    l.index = i;
                    l.property = Some(name);
                }
                if let Value::Object(r) = eval_node(cx, body, None)?
                    && let Some((k, v)) = r.first()
                {
                    members.insert(k.clone(), v.clone());
                }
            }
            cx.frames.pop();
            LoopOut::Object(members)
        }
        _ => LoopOut::Removed,
    };
    cx.leave();
    Ok(out)
}

pub(super) fn eval_scope(cx: &mut Cx<'_>, key: &ExprNode, body: &Node) -> Res<Value> {
    in_scope(cx, key, |cx| eval_node(cx, body, None))
}

/// Runs `f` inside the scope the `#scope` key `key` opens.
pub(super) fn in_scope<'s, T>(
    cx: &mut Cx<'s>,
    key: &ExprNode,
    f: impl FnOnce(&mut Cx<'s>) -> Res<T>,
) -> Res<T> {
    let call = key_call(key)?;
    let (value, _) = source(cx, call, 2, false)?;
    let alias = match cx.alias_arg(call, 1).map_err(fail)? {
        Some(a) => Alias::Named(a),
        None => Alias::Default("scope", cx.scope_count() + 1),
    };
    cx.enter()?;
    cx.frames.push(Frame::Scope { alias, value });
    let r = f(cx);
    cx.frames.pop();
    cx.leave();
    r
}
