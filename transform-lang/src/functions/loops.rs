//! Loop functions: the current element, index and property of the innermost loop, or of the
//! loop named by a trailing alias.

use super::{ArgKinds, Fallback, FuncDef, Reads, Returns, def};
use crate::analysis::ValueKind;
use crate::eval::{Cx, Fail, LoopFrame};
use crate::expr::Call;
use crate::value::Value;

pub(super) const DEFS: &[FuncDef] = &[
    def(
        "currentvalue",
        0,
        1,
        "#currentvalue([alias])",
        "The current loop element.",
        ArgKinds::Plain,
        Fallback::Null,
        current_value,
    ),
    def(
        "currentindex",
        0,
        1,
        "#currentindex([alias])",
        "The current loop index (0-based).",
        ArgKinds::Plain,
        Fallback::Zero,
        current_index,
    )
    .returning(Returns::Kind(ValueKind::Integer)),
    def(
        "lastindex",
        0,
        1,
        "#lastindex([alias])",
        "The last index of the loop.",
        ArgKinds::Plain,
        Fallback::Zero,
        last_index,
    )
    .returning(Returns::Kind(ValueKind::Integer)),
    def(
        "lastvalue",
        0,
        1,
        "#lastvalue([alias])",
        "The last element of the loop.",
        ArgKinds::Plain,
        Fallback::Null,
        last_value,
    ),
    FuncDef {
        reads: Reads::LoopElement { alias: 1 },
        ..def(
            "currentvalueatpath",
            1,
            2,
            "#currentvalueatpath(path[, alias])",
            "The token at `path` in the current element.",
            ArgKinds::Paths(&[0]),
            Fallback::Null,
            current_value_at_path,
        )
    },
    FuncDef {
        reads: Reads::LoopElement { alias: 1 },
        ..def(
            "lastvalueatpath",
            1,
            2,
            "#lastvalueatpath(path[, alias])",
            "The token at `path` in the last element.",
            ArgKinds::Paths(&[0]),
            Fallback::Null,
            last_value_at_path,
        )
    },
    def(
        "currentproperty",
        0,
        1,
        "#currentproperty([alias])",
        "The member name, in a loop over an object.",
        ArgKinds::Plain,
        Fallback::Null,
        current_property,
    )
    .returning(Returns::Kind(ValueKind::String)),
];

/// The loop named by argument `i`, or the innermost loop.
fn frame<'x>(cx: &'x mut Cx<'_>, c: &Call, i: usize) -> Result<&'x LoopFrame, Fail> {
    let alias = cx.alias_arg(c, i)?;
    Ok(cx.find_loop(alias.as_deref())?)
}

fn current_value(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    Ok(frame(cx, c, 0)?.current())
}

#[expect(
    clippy::cast_possible_wrap,
    reason = "a collection's length or index is at most `isize::MAX`, which `i64` holds"
)]
fn current_index(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    Ok(Value::Int(frame(cx, c, 0)?.index as i64))
}

#[expect(
    clippy::cast_possible_wrap,
    reason = "a collection's length or index is at most `isize::MAX`, which `i64` holds"
)]
fn last_index(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    Ok(Value::Int(frame(cx, c, 0)?.items.len() as i64 - 1))
}

fn last_value(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    Ok(frame(cx, c, 0)?.items.last().cloned().unwrap_or_default())
}

fn current_value_at_path(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let path = cx.path_arg(c, 0)?;
    let f = frame(cx, c, 1)?;
    Ok(f.items
        .get(f.index)
        .map_or(Value::Null, |v| path.select_value(v)))
}

fn last_value_at_path(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let path = cx.path_arg(c, 0)?;
    let f = frame(cx, c, 1)?;
    Ok(f.items.last().map_or(Value::Null, |v| path.select_value(v)))
}

fn current_property(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    Ok(frame(cx, c, 0)?
        .property
        .clone()
        .map_or(Value::Null, Value::String))
}
