//! Aggregates over arrays: `#sum`, `#average`, `#min`, `#max` and their `atpath` forms.

use rust_decimal::Decimal;

use super::string::path_or_value;
use super::{ArgKinds, Fallback, FuncDef, Returns, def, text};
use crate::analysis::ValueKind;
use crate::eval::{Cx, Fail};
use crate::expr::Call;
use crate::value::{Value, dotnet};

pub(super) const DEFS: &[FuncDef] = &[
    def(
        "sum",
        1,
        1,
        "#sum(array)",
        "Sum of the items (`$.path` is read first).",
        ArgKinds::PathsIfDollar(&[0]),
        Fallback::Null,
        sum,
    )
    .returning(Returns::Kind(ValueKind::Number)),
    def(
        "average",
        1,
        1,
        "#average(array)",
        "Average of the items; an empty array is an error.",
        ArgKinds::PathsIfDollar(&[0]),
        Fallback::Null,
        average,
    )
    .returning(Returns::Kind(ValueKind::Number)),
    def(
        "min",
        1,
        1,
        "#min(array)",
        "Smallest item; null for an empty array.",
        ArgKinds::PathsIfDollar(&[0]),
        Fallback::Null,
        min,
    )
    .returning(Returns::Kind(ValueKind::Number)),
    def(
        "max",
        1,
        1,
        "#max(array)",
        "Largest item; null for an empty array.",
        ArgKinds::PathsIfDollar(&[0]),
        Fallback::Null,
        max,
    )
    .returning(Returns::Kind(ValueKind::Number)),
    def(
        "sumatpath",
        2,
        2,
        "#sumatpath(array, path)",
        "Sum of `path` in each item (missing ones skipped).",
        ArgKinds::Mixed(&[0], &[1]),
        Fallback::Null,
        sum_at_path,
    )
    .returning(Returns::Kind(ValueKind::Number)),
    def(
        "averageatpath",
        2,
        2,
        "#averageatpath(array, path)",
        "Sum of `path` in each item divided by the number of items.",
        ArgKinds::Mixed(&[0], &[1]),
        Fallback::Null,
        average_at_path,
    )
    .returning(Returns::Kind(ValueKind::Number)),
    def(
        "minatpath",
        2,
        2,
        "#minatpath(array, path)",
        "Smallest `path` value among the items.",
        ArgKinds::Mixed(&[0], &[1]),
        Fallback::Null,
        min_at_path,
    )
    .returning(Returns::Kind(ValueKind::Number)),
    def(
        "maxatpath",
        2,
        2,
        "#maxatpath(array, path)",
        "Largest `path` value among the items.",
        ArgKinds::Mixed(&[0], &[1]),
        Fallback::Null,
        max_at_path,
    )
    .returning(Returns::Kind(ValueKind::Number)),
];

/// `Convert.ToDecimal(token.ToString())`; nulls are skipped.
fn number(v: &Value) -> Result<Option<Decimal>, Fail> {
    match v {
        Value::Null => Ok(None),
        Value::Decimal(d) => Ok(Some(*d)),
        Value::Int(i) => Ok(Some(Decimal::from(*i))),
        other => {
            let t = text(other).unwrap_or_default();
            dotnet::parse_decimal(&t)
                .map(Some)
                .ok_or_else(|| Fail::function(format!("'{t}' is not a number")))
        }
    }
}

fn items(cx: &mut Cx<'_>, c: &Call) -> Result<Vec<Decimal>, Fail> {
    let v = path_or_value(cx, c, 0)?;
    let Value::Array(a) = v else {
        return Err(Fail::function(format!(
            "expected an array, found a {}",
            v.type_name()
        )));
    };
    let mut out = Vec::with_capacity(a.len());
    for x in a.iter() {
        if let Some(d) = number(x)? {
            out.push(d);
        }
    }
    Ok(out)
}

/// Items at `path` in each element, and the element count.
fn items_at_path(cx: &mut Cx<'_>, c: &Call) -> Result<(Vec<Decimal>, usize), Fail> {
    let v = path_or_value(cx, c, 0)?;
    let Value::Array(a) = v else {
        return Err(Fail::function(format!(
            "expected an array, found a {}",
            v.type_name()
        )));
    };
    let path = cx.path_arg(c, 1)?;
    let mut out = Vec::with_capacity(a.len());
    for x in a.iter() {
        if let Some(d) = number(&path.select_value(x))? {
            out.push(d);
        }
    }
    Ok((out, a.len()))
}

fn total(xs: &[Decimal]) -> Result<Decimal, Fail> {
    xs.iter().try_fold(Decimal::ZERO, |acc, x| {
        acc.checked_add(*x)
            .ok_or_else(|| Fail::function("the sum is too large for a decimal"))
    })
}

fn mean(xs: &[Decimal], n: usize) -> Result<Value, Fail> {
    if n == 0 {
        return Err(Fail::function("cannot average an empty array"));
    }
    dotnet::divide(total(xs)?, Decimal::from(n))
        .map(dotnet::typed_number)
        .ok_or_else(|| Fail::function("the average is too large for a decimal"))
}

/// Deviation: JUST starts `max` from 0 and `min` from `decimal.MaxValue`; we start from the
/// first item, so all-negative arrays have a negative max and an empty array gives null.
fn extreme(xs: &[Decimal], pick: fn(Decimal, Decimal) -> Decimal) -> Value {
    xs.iter()
        .copied()
        .reduce(pick)
        .map_or(Value::Null, dotnet::typed_number)
}

fn sum(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    Ok(dotnet::typed_number(total(&items(cx, c)?)?))
}

fn average(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let xs = items(cx, c)?;
    mean(&xs, xs.len())
}

fn min(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    Ok(extreme(&items(cx, c)?, Decimal::min))
}

fn max(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    Ok(extreme(&items(cx, c)?, Decimal::max))
}

fn sum_at_path(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    Ok(dotnet::typed_number(total(&items_at_path(cx, c)?.0)?))
}

fn average_at_path(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let (xs, n) = items_at_path(cx, c)?;
    mean(&xs, n)
}

fn min_at_path(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    Ok(extreme(&items_at_path(cx, c)?.0, Decimal::min))
}

fn max_at_path(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    Ok(extreme(&items_at_path(cx, c)?.0, Decimal::max))
}
