//! Path and existence: `#valueof`, `#exists`, `#existsandnotempty`.

use super::{ArgKinds, Fallback, Form, FuncDef, Reads, Returns, def};
use crate::analysis::ValueKind;
use crate::eval::{Cx, Fail};
use crate::expr::Call;
use crate::value::Value;

pub(super) const DEFS: &[FuncDef] = &[
    FuncDef {
        form: Form::ScopeRead,
        reads: Reads::Scope { alias: 1 },
        ..def(
            "valueof",
            1,
            2,
            "#valueof(path[, scopeAlias])",
            "The token at `path` in the innermost #scope (or the record); null if missing, an array if several match.",
            ArgKinds::Paths(&[0]),
            Fallback::Null,
            valueof,
        )
        .returning(Returns::Read)
    },
    FuncDef {
        form: Form::ExistsTest,
        ..def(
            "exists",
            1,
            1,
            "#exists(path)",
            "Whether `path` selects a token in the current loop element (or the record); a null value counts.",
            ArgKinds::Paths(&[0]),
            Fallback::False,
            exists,
        )
        .returning(Returns::Kind(ValueKind::Boolean))
    },
    def(
        "existsandnotempty",
        1,
        1,
        "#existsandnotempty(path)",
        "Whether `path` selects a non-blank string or a non-empty array.",
        ArgKinds::Paths(&[0]),
        Fallback::False,
        exists_and_not_empty,
    )
        .returning(Returns::Kind(ValueKind::Boolean)),
];

fn valueof(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let path = cx.path_arg(c, 0)?;
    let alias = cx.alias_arg(c, 1)?;
    Ok(path.select_value(cx.scope_input_ref(alias.as_deref())?))
}

fn exists(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let path = cx.path_arg(c, 0)?;
    Ok(Value::Bool(path.exists(cx.loop_input_ref())))
}

fn exists_and_not_empty(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let path = cx.path_arg(c, 0)?;
    Ok(Value::Bool(match path.select_value(cx.loop_input_ref()) {
        Value::String(s) => !s.trim().is_empty(),
        Value::Array(a) => !a.is_empty(),
        _ => false,
    }))
}
