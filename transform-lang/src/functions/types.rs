//! Type conversion and checks.

use rust_decimal::Decimal;

use super::{ArgKinds, Fallback, FuncDef, Returns, def, text};
use crate::analysis::ValueKind;
use crate::eval::{Cx, Fail};
use crate::expr::Call;
use crate::value::{Value, dotnet};

pub(super) const DEFS: &[FuncDef] = &[
    def(
        "tointeger",
        1,
        1,
        "#tointeger(v)",
        "`v` as an integer (doubles round half to even); 0 if it does not convert.",
        ArgKinds::Plain,
        Fallback::Zero,
        to_integer,
    )
    .returning(Returns::Kind(ValueKind::Integer)),
    def(
        "tostring",
        1,
        1,
        "#tostring(v)",
        "`v` as a string (`True`/`False` for booleans).",
        ArgKinds::Plain,
        Fallback::Null,
        to_string,
    )
    .returning(Returns::Kind(ValueKind::String)),
    def(
        "toboolean",
        1,
        1,
        "#toboolean(v)",
        "`v` as a boolean (`true`/`false` in any case, non-zero numbers).",
        ArgKinds::Plain,
        Fallback::False,
        to_boolean,
    )
    .returning(Returns::Kind(ValueKind::Boolean)),
    def(
        "todecimal",
        1,
        1,
        "#todecimal(v)",
        "`v` as a decimal (`123` gives `123.0`).",
        ArgKinds::Plain,
        Fallback::DecimalZero,
        to_decimal,
    )
    .returning(Returns::Kind(ValueKind::Number)),
    def(
        "isnumber",
        1,
        1,
        "#isnumber(v)",
        "Whether `v` converts to a number.",
        ArgKinds::Plain,
        Fallback::False,
        is_number,
    )
    .returning(Returns::Kind(ValueKind::Boolean)),
    def(
        "isboolean",
        1,
        1,
        "#isboolean(v)",
        "Whether `v` is a boolean (literal arguments are strings).",
        ArgKinds::Plain,
        Fallback::False,
        is_boolean,
    )
    .returning(Returns::Kind(ValueKind::Boolean)),
    def(
        "isstring",
        1,
        1,
        "#isstring(v)",
        "Whether `v` is a string.",
        ArgKinds::Plain,
        Fallback::False,
        is_string,
    )
    .returning(Returns::Kind(ValueKind::Boolean)),
    def(
        "isarray",
        1,
        1,
        "#isarray(v)",
        "Whether `v` is an array.",
        ArgKinds::Plain,
        Fallback::False,
        is_array,
    )
    .returning(Returns::Kind(ValueKind::Boolean)),
];

fn to_integer(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let v = cx.arg(c, 0)?;
    Ok(Value::Int(cx.to_int(&v, 0)?.into()))
}

fn to_string(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let v = cx.arg(c, 0)?;
    Ok(match &v {
        Value::String(_) => v,
        other => text(other).map_or(Value::Null, |t| Value::from(t.into_owned())),
    })
}

fn to_boolean(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let v = cx.arg(c, 0)?;
    Ok(Value::Bool(cx.to_bool(&v, 0)?))
}

fn to_decimal(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let v = cx.arg(c, 0)?;
    let d: Decimal = cx.to_decimal(&v, 0)?;
    Ok(Value::Decimal(
        d.round_dp(cx.settings.default_decimal_places.min(28)),
    ))
}

/// Deviation: JUST's default mode answers true for any string (the failed conversion falls
/// back to 0 before the check); we answer whether the value really converts.
fn is_number(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let v = cx.arg(c, 0)?;
    Ok(Value::Bool(
        !v.is_null() && dotnet::to_decimal(&v).is_some(),
    ))
}

fn is_boolean(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    Ok(Value::Bool(matches!(cx.arg(c, 0)?, Value::Bool(_))))
}

fn is_string(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    Ok(Value::Bool(matches!(cx.arg(c, 0)?, Value::String(_))))
}

fn is_array(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    Ok(Value::Bool(matches!(cx.arg(c, 0)?, Value::Array(_))))
}
