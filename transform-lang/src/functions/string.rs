//! Strings: concatenation, substrings, searching, length, comparison.

use super::conditional::equals;
use super::joined::Joined;
use super::{ArgKinds, Fallback, FuncDef, Returns, def, text};
use crate::EvalErrorKind;
use crate::analysis::ValueKind;
use crate::eval::{Cx, Fail};
use crate::expr::Call;
use crate::value::{Value, dotnet};

pub(super) const DEFS: &[FuncDef] = &[
    def(
        "concat",
        2,
        2,
        "#concat(a, b)",
        "Joins two strings, or two arrays; a null side is ignored.",
        ArgKinds::Plain,
        Fallback::Null,
        concat,
    )
    .returning(Returns::Kind(ValueKind::String)),
    def(
        "xconcat",
        1,
        usize::MAX,
        "#xconcat(a, b, ...)",
        "Joins any number of strings, numbers or arrays, skipping nulls.",
        ArgKinds::Plain,
        Fallback::Null,
        xconcat,
    )
    .returning(Returns::Kind(ValueKind::String)),
    def(
        "substring",
        3,
        3,
        "#substring(s, start, length)",
        "`length` characters of `s` from `start` (0-based); out of range is an error.",
        ArgKinds::Plain,
        Fallback::Null,
        substring,
    )
    .returning(Returns::Kind(ValueKind::String)),
    def(
        "firstindexof",
        2,
        2,
        "#firstindexof(s, x)",
        "Index of the first `x` in `s`, or -1.",
        ArgKinds::Plain,
        Fallback::Zero,
        first_index_of,
    )
    .returning(Returns::Kind(ValueKind::Integer)),
    def(
        "lastindexof",
        2,
        2,
        "#lastindexof(s, x)",
        "Index of the last `x` in `s`, or -1.",
        ArgKinds::Plain,
        Fallback::Zero,
        last_index_of,
    )
    .returning(Returns::Kind(ValueKind::Integer)),
    def(
        "length",
        1,
        1,
        "#length(x)",
        "Characters of a string, items of an array, members of an object; `$.path` is read first.",
        ArgKinds::PathsIfDollar(&[0]),
        Fallback::Zero,
        length,
    )
    .returning(Returns::Kind(ValueKind::Integer)),
    def(
        "concatall",
        1,
        1,
        "#concatall(array)",
        "Joins the string forms of an array's items (`$.path` is read first).",
        ArgKinds::PathsIfDollar(&[0]),
        Fallback::Null,
        concat_all,
    )
    .returning(Returns::Kind(ValueKind::String)),
    def(
        "concatallatpath",
        2,
        2,
        "#concatallatpath(array, path)",
        "Joins the string forms of `path` in each item.",
        ArgKinds::Mixed(&[0], &[1]),
        Fallback::Null,
        concat_all_at_path,
    )
    .returning(Returns::Kind(ValueKind::String)),
    def(
        "stringequals",
        2,
        2,
        "#stringequals(a, b)",
        "Whether a and b are equal as strings (case-insensitive unless Strict).",
        ArgKinds::Plain,
        Fallback::False,
        string_equals,
    )
    .returning(Returns::Kind(ValueKind::Boolean)),
    def(
        "stringcontains",
        2,
        2,
        "#stringcontains(a, b)",
        "Whether `a` contains `b` (case-insensitive unless Strict).",
        ArgKinds::Plain,
        Fallback::False,
        string_contains,
    )
    .returning(Returns::Kind(ValueKind::Boolean)),
];

fn concat(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    xconcat(cx, c)
}

/// Joins the arguments left to right, skipping nulls; an argument is evaluated only once the
/// ones before it are joined, so an error stops the evaluation where it happens.
fn xconcat(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let mut joined = Joined::Nothing;
    for i in 0..c.args.len() {
        let v = cx.arg(c, i)?;
        joined.push(cx, v)?;
    }
    Ok(joined.finish())
}

fn out_of_range(what: &str) -> Fail {
    Fail::function(format!("{what} is out of range"))
}

fn substring(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let s = cx.arg(c, 0)?;
    let start = cx.arg(c, 1)?;
    let start = cx.to_int(&start, 1)?;
    let len = cx.arg(c, 2)?;
    let len = cx.to_int(&len, 2)?;
    let s = text(&s).ok_or_else(|| Fail::function("the string is null"))?;
    let (Ok(start), Ok(len)) = (usize::try_from(start), usize::try_from(len)) else {
        return Err(out_of_range("start or length"));
    };
    let from = dotnet::utf16_to_byte(&s, start).ok_or_else(|| out_of_range("start"))?;
    let to = start
        .checked_add(len)
        .and_then(|end| dotnet::utf16_to_byte(&s, end))
        .ok_or_else(|| out_of_range("start + length"))?;
    Ok(Value::from(&s[from..to]))
}

fn index_args(cx: &mut Cx<'_>, c: &Call) -> Result<(String, String), Fail> {
    let s = cx.arg(c, 0)?;
    let x = cx.arg(c, 1)?;
    let s = text(&s)
        .ok_or_else(|| Fail::function("the string is null"))?
        .into_owned();
    let x = text(&x)
        .ok_or_else(|| Fail::function("the searched value is null"))?
        .into_owned();
    Ok((s, x))
}

#[expect(
    clippy::cast_possible_wrap,
    reason = "a string's length is at most `isize::MAX`, which `i64` holds"
)]
fn first_index_of(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let (s, x) = index_args(cx, c)?;
    Ok(Value::Int(
        s.find(&x)
            .map_or(-1, |b| dotnet::byte_to_utf16(&s, b) as i64),
    ))
}

#[expect(
    clippy::cast_possible_wrap,
    reason = "a string's length is at most `isize::MAX`, which `i64` holds"
)]
fn last_index_of(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let (s, x) = index_args(cx, c)?;
    Ok(Value::Int(
        s.rfind(&x)
            .map_or(-1, |b| dotnet::byte_to_utf16(&s, b) as i64),
    ))
}

/// Argument `i` read as a path against the loop input when compiled as one (or when it is a
/// string starting with `$.`), else taken as is.
#[expect(
    clippy::many_single_char_names,
    reason = "the function table's conventions: `cx` the context, `c` the call, `i` the argument"
)]
pub(crate) fn path_or_value(cx: &mut Cx<'_>, c: &Call, i: usize) -> Result<Value, Fail> {
    if let Some(crate::expr::Expr::Lit(l)) = c.args.get(i)
        && let Some(p) = &l.path
    {
        return Ok(p.select_value(&cx.loop_input()));
    }
    let v = cx.arg(c, i)?;
    match &v {
        Value::String(s) if s.starts_with("$.") => {
            let p = cx.runtime_path(s).map_err(|e| {
                Fail::soft(
                    EvalErrorKind::InvalidPath,
                    format!("invalid JSONPath '{s}': {}", e.message),
                )
            })?;
            Ok(p.select_value(&cx.loop_input()))
        }
        _ => Ok(v),
    }
}

#[expect(
    clippy::cast_possible_wrap,
    reason = "a collection's length or index is at most `isize::MAX`, which `i64` holds"
)]
fn length(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let v = path_or_value(cx, c, 0)?;
    let n = match &v {
        Value::String(s) => dotnet::utf16_len(s),
        Value::Array(a) => a.len(),
        Value::Object(o) => o.len(),
        other => {
            return Err(Fail::function(format!(
                "cannot take the length of a {}",
                other.type_name()
            )));
        }
    };
    Ok(Value::Int(n as i64))
}

fn join_all(cx: &Cx<'_>, items: impl Iterator<Item = Value>) -> Result<Value, Fail> {
    let mut s = String::new();
    for v in items {
        if cx.settings.mode.is_exactly_strict() && !matches!(v, Value::String(_)) {
            return Err(Fail::soft(
                EvalErrorKind::Conversion,
                format!(
                    "every item must be a string in Strict mode, found a {}",
                    v.type_name()
                ),
            ));
        }
        if let Some(t) = text(&v) {
            s.push_str(&t);
            cx.check_len(s.len())?;
        }
    }
    Ok(Value::from(s))
}

fn array_arg(v: Value) -> Result<std::sync::Arc<Vec<Value>>, Fail> {
    match v {
        Value::Array(a) => Ok(a),
        other => Err(Fail::function(format!(
            "expected an array, found a {}",
            other.type_name()
        ))),
    }
}

fn concat_all(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let items = array_arg(path_or_value(cx, c, 0)?)?;
    join_all(cx, items.iter().cloned())
}

fn concat_all_at_path(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let items = array_arg(path_or_value(cx, c, 0)?)?;
    let path = cx.path_arg(c, 1)?;
    join_all(cx, items.iter().map(|item| path.select_value(item)))
}

fn string_equals(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let a = cx.arg(c, 0)?;
    let b = cx.arg(c, 1)?;
    Ok(Value::Bool(equals(cx, &a, &b)))
}

fn string_contains(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let a = cx.arg(c, 0)?;
    let b = cx.arg(c, 1)?;
    let (Some(a), Some(b)) = (text(&a), text(&b)) else {
        return Ok(Value::Bool(false));
    };
    Ok(Value::Bool(if cx.ignore_case() {
        a.to_lowercase().contains(&b.to_lowercase())
    } else {
        a.contains(b.as_ref())
    }))
}
