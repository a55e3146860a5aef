//! A hand-written, span-aware JSON parser.
//!
//! Written by hand rather than on top of `serde_json` because serde's data model has no
//! positions: we need the span of every value and key, in one pass, at close to `serde_json`'s
//! speed (see `docs/benchmarks.md`). Strings without escapes are copied once, straight from the
//! input; the text is already known to be UTF-8, so scanning bytes for `"`, `\` and control
//! characters is enough.

#![expect(
    clippy::cast_possible_truncation,
    reason = "offsets, lengths and counts here are bounded by one source file's size, and the loader refuses files of 1 GiB or more (`LoadErrorKind::TooLarge`), so they fit the `u32` of spans"
)]

use std::sync::Arc;

use super::json_escape::{self, EscapeError};
use super::{LoadError, LoadErrorKind, LoadOptions, duplicates};
use crate::node::{Number, NumberValue, ScalarStyle};
use crate::source::{SourceFile, Span};
use crate::tree::{PendingMember, Slot, TreeBuilder};

/// Parses the whole text of `source` as one JSON value, into `builder`; returns the root.
pub(super) fn parse(
    source: &Arc<SourceFile>,
    options: &LoadOptions,
    builder: &mut TreeBuilder,
) -> Result<Slot, LoadError> {
    let mut p = Parser {
        text: source.text(),
        bytes: source.text().as_bytes(),
        pos: 0,
        depth: 0,
        max_depth: options.max_depth,
        source,
        members: Vec::new(),
        items: Vec::new(),
        builder,
    };
    // A byte order mark is tolerated at the very start, as most editors write one on request.
    if p.bytes.starts_with("\u{feff}".as_bytes()) {
        p.pos = 3;
    }
    p.skip_ws();
    if p.pos >= p.bytes.len() {
        return Err(p
            .error_at(p.pos, LoadErrorKind::EmptyDocument, "the document is empty")
            .with_help("write the OpenAPI definition as one JSON object"));
    }
    let root = p.value()?;
    p.skip_ws();
    if p.pos < p.bytes.len() {
        return Err(p
            .error_at(
                p.pos,
                LoadErrorKind::Syntax,
                "unexpected text after the end of the document",
            )
            .with_help("a JSON file holds exactly one value; remove what follows it"));
    }
    Ok(root)
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth: u32,
    max_depth: u32,
    source: &'a Arc<SourceFile>,
    /// Members of the objects being read, innermost last: each object takes its own off the
    /// top when it closes, into a vector of exactly its size. Growing one vector per object
    /// left a third of the tree's memory unused on large documents.
    members: Vec<PendingMember>,
    /// The same for array items.
    items: Vec<Slot>,
    builder: &'a mut TreeBuilder,
}

impl Parser<'_> {
    #[inline]
    fn skip_ws(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            if matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn value(&mut self) -> Result<Slot, LoadError> {
        let start = self.pos;
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => {
                let (decoded, span) = self.string()?;
                Ok(match decoded {
                    None => TreeBuilder::source_string(span, ScalarStyle::Json),
                    Some(value) => self.builder.string(span, &value, ScalarStyle::Json),
                })
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.literal("true", |span| TreeBuilder::bool(span, true)),
            Some(b'f') => self.literal("false", |span| TreeBuilder::bool(span, false)),
            Some(b'n') => self.literal("null", TreeBuilder::null),
            Some(_) | None => Err(self.unexpected(start, "a value")),
        }
    }

    fn enter(&mut self) -> Result<(), LoadError> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(self
                .error_at(
                    self.pos,
                    LoadErrorKind::TooDeep,
                    format!("values nest deeper than {} levels", self.max_depth),
                )
                .with_help(
                    "flatten the structure, or move nested schemas to components and `$ref` them",
                ));
        }
        Ok(())
    }

    fn object(&mut self) -> Result<Slot, LoadError> {
        let start = self.pos;
        self.enter()?;
        self.pos += 1;
        let base = self.members.len();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
        } else {
            loop {
                self.skip_ws();
                match self.peek() {
                    Some(b'"') => {}
                    Some(b'}') if self.members.len() > base => {
                        return Err(self.trailing_comma(self.pos, "}"));
                    }
                    _ => return Err(self.unexpected(self.pos, "a key in double quotes")),
                }
                let (decoded, span) = self.string()?;
                let key = match decoded {
                    None => TreeBuilder::quoted_key(span),
                    Some(name) => self.builder.key(span, &name),
                };
                self.skip_ws();
                if self.peek() != Some(b':') {
                    return Err(self.unexpected(self.pos, "`:` after the key"));
                }
                self.pos += 1;
                self.skip_ws();
                let value = self.value()?;
                self.members.push(PendingMember { key, value });
                self.skip_ws();
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b'}') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.unclosed(start, b'}')),
                }
            }
        }
        self.depth -= 1;
        let span = self.span_from(start);
        self.builder
            .object(span, &mut self.members, base)
            .map_err(|d| duplicates::error(&d, self.source))
    }

    fn array(&mut self) -> Result<Slot, LoadError> {
        let start = self.pos;
        self.enter()?;
        self.pos += 1;
        let base = self.items.len();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
        } else {
            loop {
                self.skip_ws();
                if self.peek() == Some(b']') {
                    return Err(self.trailing_comma(self.pos, "]"));
                }
                let item = self.value()?;
                self.items.push(item);
                self.skip_ws();
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b']') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.unclosed(start, b']')),
                }
            }
        }
        self.depth -= 1;
        let span = self.span_from(start);
        Ok(self.builder.array(span, self.items.drain(base..)))
    }

    /// Parses a string at `"`; returns its decoded value when it differs from the text
    /// between the quotes (it has escapes), and its span, quotes included.
    fn string(&mut self) -> Result<(Option<String>, Span), LoadError> {
        let start = self.pos;
        let body = start + 1;
        let mut i = body;
        // Fast path: no escape, the value is a slice of the input.
        loop {
            match self.bytes.get(i) {
                Some(b'"') => {
                    self.pos = i + 1;
                    return Ok((None, self.span_from(start)));
                }
                Some(b'\\') => break,
                Some(&b) if b < 0x20 => return Err(self.control_char(start, i)),
                Some(_) => i += 1,
                None => return Err(self.unterminated_string(start)),
            }
        }
        let mut out = String::with_capacity(i - body + 16);
        out.push_str(&self.text[body..i]);
        let mut run = i;
        loop {
            match self.bytes.get(i) {
                Some(b'"') => {
                    out.push_str(&self.text[run..i]);
                    self.pos = i + 1;
                    return Ok((Some(out), self.span_from(start)));
                }
                Some(b'\\') => {
                    out.push_str(&self.text[run..i]);
                    i = self.escape(i, &mut out)?;
                    run = i;
                }
                Some(&b) if b < 0x20 => return Err(self.control_char(start, i)),
                Some(_) => i += 1,
                None => return Err(self.unterminated_string(start)),
            }
        }
    }

    /// Decodes the escape at `at` (a backslash) into `out`; returns the offset after it.
    fn escape(&self, at: usize, out: &mut String) -> Result<usize, LoadError> {
        match json_escape::decode(self.bytes, at) {
            Ok((c, next)) => {
                out.push(c);
                Ok(next)
            }
            Err(EscapeError::Unknown) => Err(self
                .error_span(Span::new(at as u32, self.char_end(at + 1) as u32), LoadErrorKind::Syntax, "invalid escape in a string")
                .with_help(r#"valid escapes are \" \\ \/ \b \f \n \r \t and \uXXXX; write a backslash as \\"#)),
            Err(EscapeError::NotHex { at }) => Err(self
                .error_span(
                    Span::new(at as u32, (at as u32 + 2).min(self.bytes.len() as u32)),
                    LoadErrorKind::Syntax,
                    "`\\u` must be followed by four hexadecimal digits",
                )
                .with_help("write the character as \\uXXXX, e.g. \\u00e9")),
            Err(EscapeError::LoneSurrogate) => Err(self.lone_surrogate(at)),
        }
    }

    fn number(&mut self) -> Result<Slot, LoadError> {
        let start = self.pos;
        let b = self.bytes;
        let mut i = start;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match b.get(i) {
            Some(b'0') => {
                i += 1;
                if b.get(i).is_some_and(u8::is_ascii_digit) {
                    return Err(self
                        .error_span(Span::new(start as u32, i as u32 + 1), LoadErrorKind::Syntax, "invalid number: leading zero")
                        .with_help("write the number without leading zeros, or quote it if it is an identifier like a postal code"));
                }
            }
            Some(b'1'..=b'9') => {
                while b.get(i).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                }
            }
            _ => return Err(self.bad_number(start, i)),
        }
        let mut integer = true;
        if b.get(i) == Some(&b'.') {
            integer = false;
            i += 1;
            if !b.get(i).is_some_and(u8::is_ascii_digit) {
                return Err(self.bad_number(start, i));
            }
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            integer = false;
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if !b.get(i).is_some_and(u8::is_ascii_digit) {
                return Err(self.bad_number(start, i));
            }
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        let text = &self.text[start..i];
        self.pos = i;
        let value = parse_number(text, integer);
        let number = Number {
            text: Box::from(text),
            value,
        };
        Ok(self.builder.number(self.span_from(start), number))
    }

    fn literal(&mut self, word: &str, slot: fn(Span) -> Slot) -> Result<Slot, LoadError> {
        let start = self.pos;
        let rest = &self.text[start..];
        let len = rest
            .find(|c: char| !c.is_alphanumeric())
            .unwrap_or(rest.len());
        if &rest[..len] == word {
            self.pos += word.len();
            return Ok(slot(self.span_from(start)));
        }
        let found = &rest[..len];
        Err(self
            .error_span(Span::new(start as u32, (start + len) as u32), LoadErrorKind::Syntax, format!("expected a value, found `{found}`"))
            .with_help(format!("did you mean `{word}`? JSON literals are `true`, `false` and `null` in lower case; quote strings")))
    }

    /// A `,` directly before the closing bracket at `close`.
    fn trailing_comma(&self, close: usize, bracket: &str) -> LoadError {
        let comma = self.text[..close].rfind(',').unwrap_or(close);
        self.error_span(
            Span::new(comma as u32, comma as u32 + 1),
            LoadErrorKind::Syntax,
            format!("trailing comma before `{bracket}`"),
        )
        .with_help("JSON does not allow a comma after the last item; remove it")
    }

    fn span_from(&self, start: usize) -> Span {
        Span::new(start as u32, self.pos as u32)
    }

    /// End of the character starting at `at` (for spans that must not split a character).
    fn char_end(&self, at: usize) -> usize {
        let mut end = (at + 1).min(self.bytes.len());
        while !self.text.is_char_boundary(end) {
            end += 1;
        }
        end
    }

    fn error_at(&self, at: usize, kind: LoadErrorKind, message: impl Into<String>) -> LoadError {
        self.error_span(Span::empty(at as u32), kind, message)
    }

    fn error_span(&self, span: Span, kind: LoadErrorKind, message: impl Into<String>) -> LoadError {
        LoadError::new(kind, self.source, span, message)
    }

    fn unexpected(&self, at: usize, expected: &str) -> LoadError {
        match self.text.get(at..).and_then(|rest| rest.chars().next()) {
            None => self
                .error_at(
                    at,
                    LoadErrorKind::Syntax,
                    format!("expected {expected}, found the end of the file"),
                )
                .with_help("the file looks truncated; complete or close the open values"),
            Some(c) => {
                let span = Span::new(at as u32, (at + c.len_utf8()) as u32);
                let help = match c {
                    '\'' => "JSON strings use double quotes",
                    '/' | '#' => {
                        "JSON has no comments; remove them, or write the definition in YAML"
                    }
                    c if c.is_alphabetic() => "JSON strings and keys must be in double quotes",
                    _ => "fix the JSON syntax at this position",
                };
                self.error_span(
                    span,
                    LoadErrorKind::Syntax,
                    format!("expected {expected}, found `{c}`"),
                )
                .with_help(help)
            }
        }
    }

    fn unclosed(&self, open: usize, close: u8) -> LoadError {
        let (what, closer) = if close == b'}' {
            ("object", "`}`")
        } else {
            ("array", "`]`")
        };
        let mut err = self.unexpected(self.pos, &format!("`,` or {closer}"));
        err.related.push(super::Related {
            span: Span::new(open as u32, open as u32 + 1),
            message: format!("the {what} opened here"),
        });
        err.help = Some(format!(
            "separate items with `,` and close the {what} with {closer}"
        ));
        err
    }

    fn unterminated_string(&self, start: usize) -> LoadError {
        self.error_span(
            Span::new(start as u32, start as u32 + 1),
            LoadErrorKind::Syntax,
            "unterminated string",
        )
        .with_help("close the string with a double quote")
    }

    fn control_char(&self, start: usize, at: usize) -> LoadError {
        let b = self.bytes[at];
        self.error_span(
            Span::new(at as u32, at as u32 + 1),
            LoadErrorKind::Syntax,
            format!("control character U+{b:04X} inside a string"),
        )
        .with_related(
            Span::new(start as u32, start as u32 + 1),
            "the string starts here",
        )
        .with_help(if b == b'\n' {
            "a JSON string cannot span lines: write a line break as \\n, or close the string"
        } else {
            "escape control characters (\\t, \\n, \\uXXXX)"
        })
    }

    fn lone_surrogate(&self, at: usize) -> LoadError {
        self.error_span(Span::new(at as u32, at as u32 + 6), LoadErrorKind::Syntax, "unpaired UTF-16 surrogate in a `\\u` escape")
            .with_help("write a character outside the basic plane as a surrogate pair (\\uD83D\\uDE00) or as the character itself")
    }

    fn bad_number(&self, start: usize, at: usize) -> LoadError {
        self.error_span(Span::new(start as u32, self.char_end(at) as u32), LoadErrorKind::Syntax, "invalid number")
            .with_help("JSON numbers are like -12, 0.5 or 1e-3: no leading `+`, leading zeros, bare `.` or NaN")
    }
}

/// Parses a number literal already checked against the JSON grammar.
pub(super) fn parse_number(text: &str, integer: bool) -> NumberValue {
    if integer {
        if let Some(digits) = text.strip_prefix('-') {
            // `-0` is the float −0.0, as `serde_json` reads it.
            if let Ok(n) = digits.parse::<u64>()
                && n != 0
                && n <= i64::MAX as u64 + 1
            {
                return NumberValue::NegInt(n.cast_signed().wrapping_neg());
            }
        } else if let Ok(n) = text.parse::<u64>() {
            return NumberValue::PosInt(n);
        }
    }
    // The grammar was checked, so only overflow to infinity can happen, and f64 parsing
    // saturates rather than failing.
    NumberValue::Float(text.parse().unwrap_or(f64::NAN))
}
