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
        Value::Array(a) => write_compact_array(a.iter(), out),
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

/// Appends `items` to `out` as a compact JSON array.
pub(crate) fn write_compact_array<'v>(items: impl Iterator<Item = &'v Value>, out: &mut String) {
    out.push('[');
    for (i, x) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_compact(x, out);
    }
    out.push(']');
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
    let b = s.as_bytes();
    // Most strings need no escape: one reservation and one copy, with the escaping walk out
    // of line.
    out.reserve(b.len() + 2);
    out.push('"');
    match plain_run(b, 0) {
        i if i == b.len() => out.push_str(s),
        i => write_escaped(s, i, out),
    }
    out.push('"');
}

/// The characters of `s` with Newtonsoft's escapes, from `first`, the first byte to look at.
#[inline(never)]
fn write_escaped(s: &str, first: usize, out: &mut String) {
    let b = s.as_bytes();
    let mut start = 0;
    let mut i = first;
    // Scan bytes: the characters to escape are ASCII, or start with 0xC2 (U+0085) or 0xE2
    // (U+2028/9); every other byte is copied in runs.
    while i < b.len() {
        i = plain_run(b, i);
        let Some(&c) = b.get(i) else { break };
        let (esc, width): (Option<&str>, usize) = match c {
            b'"' => (Some("\\\""), 1),
            b'\\' => (Some("\\\\"), 1),
            b'\n' => (Some("\\n"), 1),
            b'\r' => (Some("\\r"), 1),
            b'\t' => (Some("\\t"), 1),
            0x08 => (Some("\\b"), 1),
            0x0c => (Some("\\f"), 1),
            0..0x20 => (None, 1),
            0xC2 if b.get(i + 1) == Some(&0x85) => (None, 2),
            0xE2 if b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xA8 | 0xA9)) => {
                (None, 3)
            }
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&s[start..i]);
        if let Some(e) = esc {
            out.push_str(e);
        } else {
            let ch = s[i..].chars().next().map_or(0, u32::from);
            let _ = write!(out, "\\u{ch:04x}");
        }
        i += width;
        start = i;
    }
    out.push_str(&s[start..]);
}

/// Bytes `write_str` looks at: those of characters it escapes, and the lead bytes of
/// U+0085 and U+2028/9.
static LOOK: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = true;
        c += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[0xC2] = true;
    t[0xE2] = true;
    t
};

/// The index of the first byte from `i` that `write_str` must look at (or the length).
/// Strings are mostly plain ASCII: eight bytes are tested at once, then byte by byte from
/// the first word that has a control character, a quote, a backslash or a non-ASCII byte.
#[inline]
fn plain_run(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    const SPACE: u64 = u64::from_ne_bytes([0x20; 8]);
    const QUOTE: u64 = u64::from_ne_bytes([b'"'; 8]);
    const BACKSLASH: u64 = u64::from_ne_bytes([b'\\'; 8]);
    // A byte of `v - ONES` keeps its high bit clear of `v`'s only where `v` had a zero byte
    // (or a borrow from a lower one, which only happens above a real zero): exact as "any".
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let plain = |word: [u8; 8]| {
        let w = u64::from_ne_bytes(word);
        let below_space = w.wrapping_sub(SPACE) & !w & HIGH;
        (below_space | zero(w ^ QUOTE) | zero(w ^ BACKSLASH) | (w & HIGH)) == 0
    };
    let word_at = |at: usize| b.get(at..at + 8).and_then(|w| <[u8; 8]>::try_from(w).ok());
    while let Some(word) = word_at(i) {
        if !plain(word) {
            break;
        }
        i += 8;
    }
    // Fewer than eight bytes left after plain words: the last eight bytes, overlapping bytes
    // already found plain, settle them in one test.
    if i < b.len()
        && b.len() - i < 8
        && let Some(last) = b.len().checked_sub(8).and_then(word_at)
        && plain(last)
    {
        return b.len();
    }
    while b.get(i).is_some_and(|&c| !LOOK[usize::from(c)]) {
        i += 1;
    }
    i
}
