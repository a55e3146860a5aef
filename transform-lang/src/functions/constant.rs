//! Constants for characters that cannot be written literally in arguments.

use super::{ArgKinds, Fallback, FuncDef, Returns, def};
use crate::analysis::ValueKind;
use crate::eval::{Cx, Fail};
use crate::expr::Call;
use crate::value::Value;

pub(super) const DEFS: &[FuncDef] = &[
    def(
        "constant_comma",
        0,
        0,
        "#constant_comma()",
        "A comma: `,`.",
        ArgKinds::Plain,
        Fallback::Null,
        comma,
    )
    .returning(Returns::Kind(ValueKind::String)),
    def(
        "constant_hash",
        0,
        0,
        "#constant_hash()",
        "A hash: `#`.",
        ArgKinds::Plain,
        Fallback::Null,
        hash,
    )
    .returning(Returns::Kind(ValueKind::String)),
    def(
        "stringempty",
        0,
        0,
        "#stringempty()",
        "The empty string.",
        ArgKinds::Plain,
        Fallback::Null,
        empty_string,
    )
    .returning(Returns::Kind(ValueKind::String)),
    def(
        "arrayempty",
        0,
        0,
        "#arrayempty()",
        "An empty array.",
        ArgKinds::Plain,
        Fallback::Null,
        empty_array,
    )
    .returning(Returns::Kind(ValueKind::Array)),
];

#[expect(
    clippy::unnecessary_wraps,
    reason = "the signature every function of the table has"
)]
fn comma(_: &mut Cx<'_>, _: &Call) -> Result<Value, Fail> {
    Ok(Value::from(","))
}

#[expect(
    clippy::unnecessary_wraps,
    reason = "the signature every function of the table has"
)]
fn hash(_: &mut Cx<'_>, _: &Call) -> Result<Value, Fail> {
    Ok(Value::from("#"))
}

#[expect(
    clippy::unnecessary_wraps,
    reason = "the signature every function of the table has"
)]
fn empty_string(_: &mut Cx<'_>, _: &Call) -> Result<Value, Fail> {
    Ok(Value::from(""))
}

#[expect(
    clippy::unnecessary_wraps,
    reason = "the signature every function of the table has"
)]
fn empty_array(_: &mut Cx<'_>, _: &Call) -> Result<Value, Fail> {
    Ok(Value::array(Vec::new()))
}
