//! Math: every argument is converted to a .NET `decimal`; results go through `TypedNumber`.

use rust_decimal::{Decimal, RoundingStrategy};

use super::{ArgKinds, Fallback, FuncDef, Returns, def};
use crate::analysis::ValueKind;
use crate::eval::{Cx, Fail};
use crate::expr::Call;
use crate::value::{Value, dotnet};

pub(super) const DEFS: &[FuncDef] = &[
    def(
        "add",
        2,
        2,
        "#add(a, b)",
        "a + b.",
        ArgKinds::Plain,
        Fallback::Null,
        add,
    )
    .returning(Returns::Kind(ValueKind::Number)),
    def(
        "subtract",
        2,
        2,
        "#subtract(a, b)",
        "a - b.",
        ArgKinds::Plain,
        Fallback::Null,
        subtract,
    )
    .returning(Returns::Kind(ValueKind::Number)),
    def(
        "multiply",
        2,
        2,
        "#multiply(a, b)",
        "a × b.",
        ArgKinds::Plain,
        Fallback::Null,
        multiply,
    )
    .returning(Returns::Kind(ValueKind::Number)),
    def(
        "divide",
        2,
        2,
        "#divide(a, b)",
        "a ÷ b; division by zero is an error.",
        ArgKinds::Plain,
        Fallback::Null,
        divide,
    )
    .returning(Returns::Kind(ValueKind::Number)),
    def(
        "xadd",
        1,
        usize::MAX,
        "#xadd(a, b, ...)",
        "The sum of the non-null arguments.",
        ArgKinds::Plain,
        Fallback::Null,
        xadd,
    )
    .returning(Returns::Kind(ValueKind::Number)),
    def(
        "round",
        2,
        2,
        "#round(v, places)",
        "`v` rounded half away from zero to `places` decimals; a decimal (`1.0`).",
        ArgKinds::Plain,
        Fallback::DecimalZero,
        round,
    )
    .returning(Returns::Kind(ValueKind::Number)),
    def(
        "mathequals",
        2,
        2,
        "#mathequals(a, b)",
        "a = b as numbers.",
        ArgKinds::Plain,
        Fallback::False,
        math_equals,
    )
    .returning(Returns::Kind(ValueKind::Boolean)),
    def(
        "mathgreaterthan",
        2,
        2,
        "#mathgreaterthan(a, b)",
        "a > b.",
        ArgKinds::Plain,
        Fallback::False,
        math_greater_than,
    )
    .returning(Returns::Kind(ValueKind::Boolean)),
    def(
        "mathlessthan",
        2,
        2,
        "#mathlessthan(a, b)",
        "a < b.",
        ArgKinds::Plain,
        Fallback::False,
        math_less_than,
    )
    .returning(Returns::Kind(ValueKind::Boolean)),
    def(
        "mathgreaterthanorequalto",
        2,
        2,
        "#mathgreaterthanorequalto(a, b)",
        "a ≥ b.",
        ArgKinds::Plain,
        Fallback::False,
        math_greater_or_equal,
    )
    .returning(Returns::Kind(ValueKind::Boolean)),
    def(
        "mathlessthanorequalto",
        2,
        2,
        "#mathlessthanorequalto(a, b)",
        "a ≤ b.",
        ArgKinds::Plain,
        Fallback::False,
        math_less_or_equal,
    )
    .returning(Returns::Kind(ValueKind::Boolean)),
];

fn two(cx: &mut Cx<'_>, c: &Call) -> Result<(Decimal, Decimal), Fail> {
    let a = cx.arg(c, 0)?;
    let a = cx.to_decimal(&a, 0)?;
    let b = cx.arg(c, 1)?;
    let b = cx.to_decimal(&b, 1)?;
    Ok((a, b))
}

fn overflow() -> Fail {
    Fail::function("the result is too large for a decimal")
}

fn add(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let (a, b) = two(cx, c)?;
    a.checked_add(b)
        .map(dotnet::typed_number)
        .ok_or_else(overflow)
}

fn subtract(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let (a, b) = two(cx, c)?;
    a.checked_sub(b)
        .map(dotnet::typed_number)
        .ok_or_else(overflow)
}

fn multiply(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let (a, b) = two(cx, c)?;
    a.checked_mul(b)
        .map(dotnet::typed_number)
        .ok_or_else(overflow)
}

fn divide(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let (a, b) = two(cx, c)?;
    if b.is_zero() {
        return Err(Fail::function("division by zero"));
    }
    dotnet::divide(a, b)
        .map(dotnet::typed_number)
        .ok_or_else(overflow)
}

fn xadd(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let mut sum = Decimal::ZERO;
    for i in 0..c.args.len() {
        let v = cx.arg(c, i)?;
        if !v.is_null() {
            let d = cx.to_decimal(&v, i)?;
            sum = sum.checked_add(d).ok_or_else(overflow)?;
        }
    }
    Ok(dotnet::typed_number(sum))
}

fn round(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let v = cx.arg(c, 0)?;
    let v = cx.to_decimal(&v, 0)?;
    let places = cx.arg(c, 1)?;
    let places = cx.to_int(&places, 1)?;
    let places = u32::try_from(places)
        .ok()
        .filter(|p| *p <= 28)
        .ok_or_else(|| Fail::function("places must be between 0 and 28"))?;
    Ok(Value::Decimal(v.round_dp_with_strategy(
        places,
        RoundingStrategy::MidpointAwayFromZero,
    )))
}

fn compare(cx: &mut Cx<'_>, c: &Call, f: fn(std::cmp::Ordering) -> bool) -> Result<Value, Fail> {
    let (a, b) = two(cx, c)?;
    Ok(Value::Bool(f(a.cmp(&b))))
}

fn math_equals(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    compare(cx, c, std::cmp::Ordering::is_eq)
}

fn math_greater_than(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    compare(cx, c, std::cmp::Ordering::is_gt)
}

fn math_less_than(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    compare(cx, c, std::cmp::Ordering::is_lt)
}

fn math_greater_or_equal(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    compare(cx, c, std::cmp::Ordering::is_ge)
}

fn math_less_or_equal(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    compare(cx, c, std::cmp::Ordering::is_le)
}
