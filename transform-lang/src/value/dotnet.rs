//! .NET behaviour the language inherits: number formatting, `ToString()`, and the argument
//! conversions of `ReflectionHelper.GetTypedValue` (invariant culture).

use std::cmp::Ordering;
use std::fmt::Write;
use std::str::FromStr;

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

use super::Value;

/// The .NET (Core 3.0+) default `double.ToString()`: shortest round-trip digits, scientific
/// notation (`1E+15`, `1E-05`) when the exponent is at least 15 or below -4.
pub(crate) fn double_to_string(d: f64) -> String {
    if d.is_nan() {
        return "NaN".into();
    }
    if d.is_infinite() {
        return if d > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if d == 0.0 {
        return if d.is_sign_negative() { "-0" } else { "0" }.into();
    }
    // `{:e}` gives the shortest digits that round-trip, e.g. `1.2345e3`.
    let sci = format!("{d:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (neg, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let mut out = String::with_capacity(24);
    if neg {
        out.push('-');
    }
    if !(-4..15).contains(&exp) {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "E{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    } else if exp < 0 {
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        out.push_str(&digits);
    } else {
        let int_len = exp.unsigned_abs() as usize + 1;
        if digits.len() <= int_len {
            out.push_str(&digits);
            for _ in digits.len()..int_len {
                out.push('0');
            }
        } else {
            out.push_str(&digits[..int_len]);
            out.push('.');
            out.push_str(&digits[int_len..]);
        }
    }
    out
}

/// Newtonsoft's JSON form of a double: `ToString("R")` plus `.0` when there is neither a
/// decimal point nor an exponent. NaN and infinities are written as strings.
pub(crate) fn write_json_double(d: f64, out: &mut String) {
    let s = double_to_string(d);
    if !d.is_finite() {
        out.push('"');
        out.push_str(&s);
        out.push('"');
        return;
    }
    out.push_str(&s);
    if !s.contains(['.', 'E']) {
        out.push_str(".0");
    }
}

/// Newtonsoft's JSON form of a decimal: its invariant text (scale kept) plus `.0` if integral.
pub(crate) fn write_json_decimal(d: &Decimal, out: &mut String) {
    let start = out.len();
    let _ = write!(out, "{d}");
    if !out[start..].contains('.') {
        out.push_str(".0");
    }
}

pub(crate) fn decimal_to_f64(d: &Decimal) -> f64 {
    d.to_f64().unwrap_or(f64::NAN)
}

/// `Convert.ToDecimal(double)`: at most 15 significant digits, trailing zeros dropped.
pub(crate) fn decimal_from_f64(d: f64) -> Option<Decimal> {
    if !d.is_finite() {
        return None;
    }
    let text = format!("{d:.14e}");
    Decimal::from_scientific(&text).ok().map(|x| x.normalize())
}

/// `decimal.Parse(s, NumberStyles.Float, InvariantCulture)`: surrounding spaces, a sign, a
/// decimal point and an exponent; the scale written is kept (`"1.10"` has scale 2).
pub(crate) fn parse_decimal(s: &str) -> Option<Decimal> {
    let t = s.trim();
    if t.is_empty() || t.contains('_') {
        return None;
    }
    let t = t.strip_prefix('+').unwrap_or(t);
    if t.contains(['e', 'E']) {
        return Decimal::from_scientific(t).ok();
    }
    if !t
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-')
    {
        return None;
    }
    Decimal::from_str(t).ok()
}

/// `int.Parse(s, NumberStyles.Integer, InvariantCulture)`.
pub(crate) fn parse_int(s: &str) -> Option<i32> {
    let t = s.trim();
    let t = t.strip_prefix('+').unwrap_or(t);
    t.parse().ok()
}

/// Round half to even of a decimal to an `i32` (`Convert.ToInt32(decimal)`).
fn decimal_to_i32(d: Decimal) -> Option<i32> {
    d.round_dp_with_strategy(0, rust_decimal::RoundingStrategy::MidpointNearestEven)
        .to_i32()
}

/// `GetTypedValue(v, typeof(decimal))`; `None` when the conversion throws.
pub(crate) fn to_decimal(v: &Value) -> Option<Decimal> {
    match v {
        Value::Decimal(d) => Some(*d),
        Value::Int(i) => Some(Decimal::from(*i)),
        Value::Double(d) => decimal_from_f64(*d),
        Value::String(s) => parse_decimal(s),
        // decimal is not a .NET primitive and has no bool constructor: the conversion fails.
        _ => None,
    }
}

/// `GetTypedValue(v, typeof(int))`.
#[expect(
    clippy::cast_possible_truncation,
    reason = "the double is rounded and inside `i32`'s range before the cast"
)]
pub(crate) fn to_int(v: &Value) -> Option<i32> {
    match v {
        Value::Int(i) => i32::try_from(*i).ok(),
        Value::Double(d) => {
            let r = d.round_ties_even();
            (r >= f64::from(i32::MIN) && r <= f64::from(i32::MAX)).then_some(r as i32)
        }
        Value::Decimal(d) => decimal_to_i32(*d),
        Value::String(s) => parse_int(s),
        Value::Bool(b) => Some(i32::from(*b)),
        _ => None,
    }
}

/// `GetTypedValue(v, typeof(bool))`: `bool.Parse` is case-insensitive; numbers are true when
/// non-zero.
pub(crate) fn to_bool(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) => {
            let t = s.trim();
            if t.eq_ignore_ascii_case("true") {
                Some(true)
            } else if t.eq_ignore_ascii_case("false") {
                Some(false)
            } else {
                None
            }
        }
        Value::Int(i) => Some(*i != 0),
        Value::Double(d) => Some(*d != 0.0),
        Value::Decimal(d) => Some(!d.is_zero()),
        _ => None,
    }
}

/// `object.ToString()` as JUST sees it: `True`/`False`, numbers in invariant form, objects
/// as indented JSON (`JObject.ToString()`), `None` for null.
///
/// Deviation: JUST prints any array as `System.Object[]`; we print its compact JSON so that
/// comparisons and concatenations see the content.
pub(crate) fn to_dotnet_string(v: &Value) -> Option<std::borrow::Cow<'_, str>> {
    use std::borrow::Cow;
    Some(match v {
        Value::Null => return None,
        Value::Bool(true) => Cow::Borrowed("True"),
        Value::Bool(false) => Cow::Borrowed("False"),
        Value::Int(i) => Cow::Owned(i.to_string()),
        Value::Double(d) => Cow::Owned(double_to_string(*d)),
        Value::Decimal(d) => Cow::Owned(d.to_string()),
        Value::String(s) => Cow::Borrowed(s),
        Value::Array(_) => Cow::Owned(v.to_json_compact()),
        Value::Object(_) => Cow::Owned(v.to_json_pretty()),
    })
}

/// Numeric comparison across .NET number types.
pub(crate) fn cmp_numbers(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Decimal(x), Value::Decimal(y)) => Some(x.cmp(y)),
        (Value::Decimal(x), Value::Int(y)) => Some(x.cmp(&Decimal::from(*y))),
        (Value::Int(x), Value::Decimal(y)) => Some(Decimal::from(*x).cmp(y)),
        _ => as_f64(a)?.partial_cmp(&as_f64(b)?),
    }
}

#[expect(
    clippy::cast_precision_loss,
    reason = "the nearest double, as .NET converts a `long`"
)]
pub(crate) fn as_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Double(d) => Some(*d),
        Value::Decimal(d) => Some(decimal_to_f64(d)),
        _ => None,
    }
}

/// `TypedNumber`: an integral result that fits an `int` becomes an int, anything else stays a
/// decimal with its scale.
///
/// Deviation: JUST tests only `<= int.MaxValue`, so a large negative integral result overflows
/// the `int` cast and becomes the function's default; we keep it as a decimal.
pub(crate) fn typed_number(d: Decimal) -> Value {
    if d.fract().is_zero()
        && let Some(i) = d.to_i32()
    {
        return Value::Int(i64::from(i));
    }
    Value::Decimal(d)
}

/// .NET decimal division: the quotient keeps the smallest scale that holds it exactly (28
/// digits when inexact), but not less than the dividend's scale minus the divisor's
/// (`10/4` = `2.5`, `10.00/4` = `2.50`). `None` on overflow or division by zero.
pub(crate) fn divide(a: Decimal, b: Decimal) -> Option<Decimal> {
    let mut q = a.checked_div(b)?.normalize();
    let floor = a.scale().saturating_sub(b.scale());
    if q.scale() < floor {
        q.rescale(floor);
    }
    Some(q)
}

/// Length in UTF-16 code units, as .NET counts characters.
pub(crate) fn utf16_len(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.encode_utf16().count()
    }
}

/// Byte offset of UTF-16 index `i` (None if it splits a surrogate pair or is out of range).
pub(crate) fn utf16_to_byte(s: &str, i: usize) -> Option<usize> {
    if s.is_ascii() {
        return (i <= s.len()).then_some(i);
    }
    let mut units = 0;
    for (b, c) in s.char_indices() {
        if units == i {
            return Some(b);
        }
        if units > i {
            return None;
        }
        units += c.len_utf16();
    }
    (units == i).then_some(s.len())
}

/// UTF-16 index of byte offset `b` (which is on a char boundary).
pub(crate) fn byte_to_utf16(s: &str, b: usize) -> usize {
    if s.is_ascii() {
        b
    } else {
        s[..b].encode_utf16().count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_print_like_dotnet() {
        assert_eq!(double_to_string(1.0), "1");
        assert_eq!(double_to_string(1.5), "1.5");
        assert_eq!(double_to_string(1e15), "1E+15");
        assert_eq!(double_to_string(123_456_789_012_345.0), "123456789012345");
        assert_eq!(double_to_string(0.0001), "0.0001");
        assert_eq!(double_to_string(0.00001), "1E-05");
        assert_eq!(double_to_string(-1.5e-7), "-1.5E-07");
        assert_eq!(double_to_string(2500.5), "2500.5");
        let mut s = String::new();
        write_json_double(1.0, &mut s);
        assert_eq!(s, "1.0");
    }

    #[test]
    fn decimals_keep_scale() {
        let mut s = String::new();
        write_json_decimal(&Decimal::from(123), &mut s);
        assert_eq!(s, "123.0");
        assert_eq!(
            parse_decimal("1.10").map(|d| d.to_string()),
            Some("1.10".into())
        );
        assert_eq!(
            decimal_from_f64(0.1).map(|d| d.to_string()),
            Some("0.1".into())
        );
        assert_eq!(parse_decimal("abc"), None);
    }

    #[test]
    fn conversions() {
        assert_eq!(to_int(&Value::Double(-4.56)), Some(-5));
        assert_eq!(to_int(&Value::Double(2.5)), Some(2));
        assert_eq!(to_int(&"123".into()), Some(123));
        assert_eq!(to_int(&"1.5".into()), None);
        assert_eq!(to_bool(&"TRUE".into()), Some(true));
        assert_eq!(to_bool(&Value::Int(0)), Some(false));
        assert_eq!(to_decimal(&Value::Bool(true)), None);
    }
}
