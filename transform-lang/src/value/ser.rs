//! Writing JSON text exactly as Newtonsoft serializes the same tokens.

use std::fmt::Write;

use super::{Value, dotnet};

/// Compact JSON (one line).
pub fn to_string_compact(v: &Value) -> String {
    let mut out = String::with_capacity(128);
    write_compact(v, &mut out);
    out
}

/// Indented JSON (two spaces per level, `"key": value`).
pub fn to_string_pretty(v: &Value) -> String {
    let mut out = String::with_capacity(256);
    write_pretty(v, &mut out);
    out
}

/// Appends compact JSON to `out`.
pub fn write_compact(v: &Value, out: &mut String) {
    match v {
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact(x, out);
            }
            out.push(']');
        }
        Value::Object(o) => {
            out.push('{');
            for (i, (k, x)) in o.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(k, out);
                out.push(':');
                write_compact(x, out);
            }
            out.push('}');
        }
        scalar => write_scalar(scalar, out),
    }
}

/// Appends indented JSON to `out`.
pub fn write_pretty(v: &Value, out: &mut String) {
    pretty(v, out, 0);
}

fn indent(out: &mut String, level: usize) {
    out.push('\n');
    for _ in 0..level {
        out.push_str("  ");
    }
}

fn pretty(v: &Value, out: &mut String, level: usize) {
    match v {
        Value::Array(a) if !a.is_empty() => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(out, level + 1);
                pretty(x, out, level + 1);
            }
            indent(out, level);
            out.push(']');
        }
        Value::Object(o) if !o.is_empty() => {
            out.push('{');
            for (i, (k, x)) in o.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(out, level + 1);
                write_str(k, out);
                out.push_str(": ");
                pretty(x, out, level + 1);
            }
            indent(out, level);
            out.push('}');
        }
        other => write_compact(other, out),
    }
}

fn write_scalar(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Double(d) => dotnet::write_json_double(*d, out),
        Value::Decimal(d) => dotnet::write_json_decimal(d, out),
        Value::String(s) => write_str(s, out),
        Value::Array(_) => out.push_str("[]"),
        Value::Object(_) => out.push_str("{}"),
    }
}

/// A JSON string with Newtonsoft's default escaping: control characters, `"` and `\`, plus
/// U+0085, U+2028 and U+2029; everything else is written as is.
pub(crate) fn write_str(s: &str, out: &mut String) {
    out.push('"');
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let esc: Option<&str> = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            '\u{8}' => Some("\\b"),
            '\u{c}' => Some("\\f"),
            c if (c as u32) < 0x20 || matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}') => None,
            _ => continue,
        };
        out.push_str(&s[start..i]);
        match esc {
            Some(e) => out.push_str(e),
            None => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
        }
        start = i + c.len_utf8();
    }
    out.push_str(&s[start..]);
    out.push('"');
}
