//! YAML 1.2 core-schema scalar resolution.

use super::json::parse_number;
use crate::node::{NumberValue, ScalarStyle};

/// What a scalar resolves to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Scalar {
    Null,
    Bool(bool),
    Number(NumberValue),
    String,
}

/// Resolves a scalar to null, boolean, number or string under the YAML 1.2 core schema.
///
/// Only plain scalars are resolved: a quoted or block scalar is always a string, and so is a
/// plain one tagged `!!str`. YAML 1.1 words (`yes`, `off`) stay strings, as YAML 1.2 says.
pub(super) fn resolve(value: &str, style: ScalarStyle, forced_string: bool) -> Scalar {
    if style == ScalarStyle::Plain && !forced_string {
        match value {
            "" | "~" | "null" | "Null" | "NULL" => return Scalar::Null,
            "true" | "True" | "TRUE" => return Scalar::Bool(true),
            "false" | "False" | "FALSE" => return Scalar::Bool(false),
            text => {
                if let Some(value) = number(text) {
                    return Scalar::Number(value);
                }
            }
        }
    }
    Scalar::String
}

/// A core-schema number: decimal, `0o` octal, `0x` hexadecimal integers; decimal floats with
/// optional exponent; `.inf`, `-.inf`, `.nan` in their three spellings.
fn number(text: &str) -> Option<NumberValue> {
    let b = text.as_bytes();
    let first = *b.first()?;
    if !(first.is_ascii_digit() || matches!(first, b'-' | b'+' | b'.')) {
        return None;
    }
    if let Some(hex) = text.strip_prefix("0x") {
        return radix(hex, 16);
    }
    if let Some(oct) = text.strip_prefix("0o") {
        return radix(oct, 8);
    }
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    match unsigned {
        ".inf" | ".Inf" | ".INF" => {
            return Some(NumberValue::Float(if first == b'-' {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }));
        }
        ".nan" | ".NaN" | ".NAN" if unsigned.len() == text.len() => {
            return Some(NumberValue::Float(f64::NAN));
        }
        _ => {}
    }
    let digits = unsigned.as_bytes();
    let mut i = 0;
    let int_digits = count_digits(digits, &mut i);
    let mut frac_digits = 0;
    let mut integer = true;
    if digits.get(i) == Some(&b'.') {
        integer = false;
        i += 1;
        frac_digits = count_digits(digits, &mut i);
    }
    if int_digits + frac_digits == 0 {
        return None;
    }
    if matches!(digits.get(i), Some(b'e' | b'E')) {
        integer = false;
        i += 1;
        if matches!(digits.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if count_digits(digits, &mut i) == 0 {
            return None;
        }
    }
    if i != digits.len() {
        return None;
    }
    let normalized = text.strip_prefix('+').unwrap_or(text);
    if integer {
        return Some(parse_number(normalized, true));
    }
    normalized.parse().ok().map(NumberValue::Float)
}

fn count_digits(b: &[u8], i: &mut usize) -> usize {
    let start = *i;
    while b.get(*i).is_some_and(u8::is_ascii_digit) {
        *i += 1;
    }
    *i - start
}

fn radix(digits: &str, radix: u32) -> Option<NumberValue> {
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    match u64::from_str_radix(digits, radix) {
        Ok(n) => Some(NumberValue::PosInt(n)),
        Err(_) => Some(NumberValue::Float(f64::INFINITY)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(s: &str) -> Scalar {
        resolve(s, ScalarStyle::Plain, false)
    }

    #[test]
    fn core_schema() {
        assert_eq!(kind("~"), Scalar::Null);
        assert_eq!(kind("True"), Scalar::Bool(true));
        assert!(matches!(kind("yes"), Scalar::String));
        assert!(matches!(
            kind("0x1F"),
            Scalar::Number(NumberValue::PosInt(31))
        ));
        assert!(matches!(
            kind("0o17"),
            Scalar::Number(NumberValue::PosInt(15))
        ));
        assert!(matches!(
            kind("-12"),
            Scalar::Number(NumberValue::NegInt(-12))
        ));
        assert!(matches!(
            kind("+12"),
            Scalar::Number(NumberValue::PosInt(12))
        ));
        assert!(matches!(kind("1.5e3"), Scalar::Number(n) if n == NumberValue::Float(1500.0)));
        assert!(
            matches!(kind("-.inf"), Scalar::Number(n) if n == NumberValue::Float(f64::NEG_INFINITY))
        );
        assert!(matches!(kind("3.0.3"), Scalar::String));
        assert!(matches!(kind("1_000"), Scalar::String));
        assert!(matches!(kind("."), Scalar::String));
        assert!(matches!(kind("-"), Scalar::String));
        assert!(matches!(
            resolve("12", ScalarStyle::SingleQuoted, false),
            Scalar::String
        ));
        assert!(matches!(
            resolve("12", ScalarStyle::Plain, true),
            Scalar::String
        ));
    }
}
