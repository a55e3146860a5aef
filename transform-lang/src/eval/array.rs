//! Arrays: evaluated items are flattened when they are arrays and dropped when null.

use super::Cx;
use super::object::{ObjOut, eval_expr_node, eval_object};
use crate::error::Res;
use crate::template::Node;
use crate::value::Value;

pub(super) fn eval_array(cx: &mut Cx<'_>, items: &[Node]) -> Res<Value> {
    cx.enter()?;
    let mut out = Vec::with_capacity(items.len());
    for n in items {
        match n {
            Node::Const(v) => out.push(v.clone()),
            Node::Expr(e) => match eval_expr_node(cx, e)? {
                Value::Array(a) => out.extend(a.iter().cloned()),
                Value::Null => {}
                v => out.push(v),
            },
            // Deviation: JUST appends a loop's items at the end of the array; we splice them
            // where the loop object stands, which is what the template reads as.
            Node::Object(o) => match eval_object(cx, o, None)? {
                ObjOut::Splice(items) => out.extend(items),
                ObjOut::Value(Value::Null) => {}
                ObjOut::Value(v) => out.push(v),
            },
            Node::Array(a) => out.push(eval_array(cx, a)?),
        }
    }
    cx.produced(out.len())?;
    cx.leave();
    Ok(Value::array(out))
}
