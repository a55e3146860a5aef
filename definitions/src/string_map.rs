//! Maps byte offsets inside a string's decoded value back to the file.
//!
//! Templates may be written as strings holding JSON text (spec 2.6). When the template
//! compiler reports an error at offset 42 of the decoded value, the user must see the line and
//! column of the file. The mapping re-reads the raw scalar (only on that error path) as a
//! sequence of units, each a raw byte range and the number of decoded bytes it produced: a
//! plain character (same length both sides), an escape (`\n`, `\u00e9`: several raw bytes, one
//! character), YAML line folding (a line break and indentation: one space, or nothing), block
//! indentation (skipped).
//!
//! The mapping is exact for characters written as themselves in every style, which covers
//! block scalars and quoted or plain scalars without escapes. An escape maps to the whole
//! escape sequence. Folded runs of blank lines map to the nearest line break.

#![expect(
    clippy::cast_possible_truncation,
    reason = "offsets, lengths and counts here are bounded by one source file's size, and the loader refuses files of 1 GiB or more (`LoadErrorKind::TooLarge`), so they fit the `u32` of spans"
)]

use std::ops::Range;

use crate::node::ScalarStyle;
use crate::source::Span;

/// The file span of the character at `offset` of the decoded value of the string scalar
/// written at `span` in `text` with `style`. Offsets at or past the end map to an empty span
/// at the end of the value.
#[must_use]
pub fn map_offset(text: &str, span: Span, style: ScalarStyle, offset: usize) -> Span {
    let units = units(text, span, style);
    locate(&units, offset).unwrap_or_else(|| Span::empty(content_end(text, span, style)))
}

/// The file span covering the decoded byte range `range` (see [`map_offset`]).
#[must_use]
pub fn map_range(text: &str, span: Span, style: ScalarStyle, range: Range<usize>) -> Span {
    let units = units(text, span, style);
    let end = Span::empty(content_end(text, span, style));
    let first = locate(&units, range.start).unwrap_or(end);
    if range.end <= range.start + 1 {
        return first;
    }
    let last = locate(&units, range.end - 1).unwrap_or(end);
    first.cover(last)
}

/// A raw byte range of the file and how many decoded bytes it produced.
#[derive(Clone, Copy, Debug)]
struct Unit {
    raw: Span,
    decoded: usize,
}

fn locate(units: &[Unit], offset: usize) -> Option<Span> {
    let mut at = 0;
    for u in units {
        if u.decoded > 0 && offset < at + u.decoded {
            return Some(u.raw);
        }
        at += u.decoded;
    }
    None
}

fn content_end(text: &str, span: Span, style: ScalarStyle) -> u32 {
    match style {
        ScalarStyle::Json | ScalarStyle::DoubleQuoted | ScalarStyle::SingleQuoted
            if span.len() >= 2 =>
        {
            span.end - 1
        }
        ScalarStyle::Literal | ScalarStyle::Folded => {
            // Block content ends with its line break; point at the last character instead.
            let raw = text.get(span.range()).unwrap_or("");
            span.start + raw.trim_end_matches(['\n', '\r']).len() as u32
        }
        _ => span.end,
    }
}

fn units(text: &str, span: Span, style: ScalarStyle) -> Vec<Unit> {
    let Some(raw) = text.get(span.range()) else {
        return Vec::new();
    };
    let base = span.start as usize;
    let mut out = Vec::with_capacity(raw.len());
    match style {
        ScalarStyle::Json => quoted(raw, base, b'"', json_escape, false, &mut out),
        ScalarStyle::DoubleQuoted => quoted(raw, base, b'"', yaml_escape, true, &mut out),
        ScalarStyle::SingleQuoted => quoted(raw, base, b'\'', |_| None, true, &mut out),
        ScalarStyle::Plain => flow(raw, base, 0, raw.len(), &mut out),
        ScalarStyle::Literal => block(text, raw, base, false, &mut out),
        ScalarStyle::Folded => block(text, raw, base, true, &mut out),
    }
    out
}

fn unit(start: usize, end: usize, decoded: usize) -> Unit {
    Unit {
        raw: Span::new(start as u32, end as u32),
        decoded,
    }
}

/// Splits the body of a quoted scalar: escapes via `escape` (raw length, decoded length),
/// `''` in single quotes, line folding when `folds`.
fn quoted(
    raw: &str,
    base: usize,
    quote: u8,
    escape: fn(&str) -> Option<(usize, usize)>,
    folds: bool,
    out: &mut Vec<Unit>,
) {
    let bytes = raw.as_bytes();
    let end = if raw.len() >= 2 && bytes[raw.len() - 1] == quote {
        raw.len() - 1
    } else {
        raw.len()
    };
    let mut i = usize::from(bytes.first() == Some(&quote));
    while i < end {
        let rest = &raw[i..end];
        if quote == b'\'' && rest.starts_with("''") {
            out.push(unit(base + i, base + i + 2, 1));
            i += 2;
        } else if quote == b'"' && rest.starts_with('\\') {
            if folds && rest[1..].starts_with(['\n', '\r']) {
                // An escaped line break joins the lines without a space.
                let skip = 1 + rest[1..].len()
                    - rest[1..].trim_start_matches([' ', '\t', '\r', '\n']).len();
                out.push(unit(base + i, base + i + skip, 0));
                i += skip;
            } else {
                let (raw_len, decoded) =
                    escape(rest).unwrap_or((rest.chars().take(2).map(char::len_utf8).sum(), 1));
                out.push(unit(base + i, base + i + raw_len, decoded));
                i += raw_len;
            }
        } else if folds && rest.starts_with([' ', '\t', '\n', '\r']) {
            i = fold(raw, base, i, end, out);
        } else {
            let len = rest.chars().next().map_or(1, char::len_utf8);
            out.push(unit(base + i, base + i + len, len));
            i += len;
        }
    }
}

/// Plain scalar: characters as themselves, whitespace runs that cross a line folded.
fn flow(raw: &str, base: usize, mut i: usize, end: usize, out: &mut Vec<Unit>) {
    while i < end {
        let rest = &raw[i..end];
        if rest.starts_with([' ', '\t', '\n', '\r']) {
            i = fold(raw, base, i, end, out);
        } else {
            let len = rest.chars().next().map_or(1, char::len_utf8);
            out.push(unit(base + i, base + i + len, len));
            i += len;
        }
    }
}

/// A whitespace run at `i`: kept as is within a line; across `k` line breaks it folds to one
/// space (`k == 1`) or `k - 1` line breaks.
fn fold(raw: &str, base: usize, i: usize, end: usize, out: &mut Vec<Unit>) -> usize {
    let run = &raw[i..end];
    let len = run.len() - run.trim_start_matches([' ', '\t', '\n', '\r']).len();
    let breaks = run[..len].bytes().filter(|&b| b == b'\n').count();
    if breaks == 0 {
        for k in 0..len {
            out.push(unit(base + i + k, base + i + k + 1, 1));
        }
    } else {
        out.push(unit(
            base + i,
            base + i + len,
            breaks.saturating_sub(1).max(1),
        ));
    }
    i + len
}

/// Block scalars: the raw span starts at the first content character; every following line
/// loses the block's indentation. Folded blocks turn single line breaks into spaces (same
/// length) and drop one break of each blank-line run.
fn block(text: &str, raw: &str, base: usize, folded: bool, out: &mut Vec<Unit>) {
    let line_start = text[..base].rfind('\n').map_or(0, |n| n + 1);
    let indent = base - line_start;
    let bytes = raw.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        if bytes[i] == b'\n' || raw[i..].starts_with("\r\n") {
            let mut j = i;
            let mut breaks = 0;
            // Consume this break, then the indentation and any blank lines that follow.
            loop {
                let nl = if raw[j..].starts_with("\r\n") {
                    2
                } else if bytes.get(j) == Some(&b'\n') {
                    1
                } else {
                    break;
                };
                j += nl;
                breaks += 1;
                let spaces = raw[j..]
                    .bytes()
                    .take(indent)
                    .take_while(|&b| b == b' ')
                    .count();
                j += spaces;
                if !folded || !matches!(bytes.get(j), Some(b'\n' | b'\r')) {
                    break;
                }
            }
            let decoded = if folded && breaks > 1 {
                breaks - 1
            } else {
                breaks
            };
            out.push(unit(base + i, base + j, decoded));
            i = j;
        } else {
            let len = raw[i..].chars().next().map_or(1, char::len_utf8);
            out.push(unit(base + i, base + i + len, len));
            i += len;
        }
    }
}

fn json_escape(rest: &str) -> Option<(usize, usize)> {
    let b = rest.as_bytes();
    match b.get(1)? {
        b'u' => {
            let first = u32::from_str_radix(rest.get(2..6)?, 16).ok()?;
            if (0xD800..0xDC00).contains(&first) && rest.get(6..8) == Some("\\u") {
                return Some((12, 4));
            }
            Some((6, char::from_u32(first).map_or(3, char::len_utf8)))
        }
        _ => Some((2, 1)),
    }
}

fn yaml_escape(rest: &str) -> Option<(usize, usize)> {
    let b = rest.as_bytes();
    let hex = |n: usize| -> Option<(usize, usize)> {
        let code = u32::from_str_radix(rest.get(2..2 + n)?, 16).ok()?;
        Some((2 + n, char::from_u32(code).map_or(1, char::len_utf8)))
    };
    match b.get(1)? {
        b'x' => hex(2),
        b'u' => hex(4),
        b'U' => hex(8),
        b'N' | b'_' => Some((2, 2)),
        b'L' | b'P' => Some((2, 3)),
        _ => Some((2, 1)),
    }
}
