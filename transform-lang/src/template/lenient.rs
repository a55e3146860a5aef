//! A lenient JSON reader for template text, as Newtonsoft reads it: single or double quotes,
//! unquoted names, comments, trailing commas, and objects or arrays left open at the end of
//! the text. It records where every node is, so compile errors point into the text.

use std::collections::HashMap;
use std::sync::Arc;

use crate::error::{CompileError, CompileErrorKind, Location, NodePart};
use crate::value::{Map, Value};

/// Where the nodes of a template text are: JSON pointer -> byte offsets.
#[derive(Debug, Default)]
pub struct SourceMap {
    nodes: HashMap<String, Spans>,
}

#[derive(Debug, Default, Clone, Copy)]
struct Spans {
    /// Start of the key's content, if the key has no escapes (offsets inside map 1:1).
    key: Option<usize>,
    value: Option<usize>,
}

impl SourceMap {
    /// Byte offset in the text of the content of the key or value at `pointer`, when offsets
    /// inside it map one to one (no escape sequences).
    pub fn offset(&self, pointer: &str, part: NodePart) -> Option<usize> {
        let s = self.nodes.get(pointer)?;
        match part {
            NodePart::Key => s.key,
            NodePart::Value => s.value,
        }
    }
}

/// Parses template text into a value and its source map.
pub(crate) fn parse(text: &str, max_depth: usize) -> Result<(Value, SourceMap), Box<CompileError>> {
    let mut p = Reader {
        s: text,
        b: text.as_bytes(),
        i: 0,
        max_depth,
        map: SourceMap::default(),
    };
    p.ws()?;
    let v = p.value("", 0)?;
    p.ws()?;
    if p.i < p.b.len() {
        return Err(p.err("unexpected text after the template"));
    }
    Ok((v, p.map))
}

/// Parses JSON text leniently, without keeping locations (`#applyover` templates).
pub(crate) fn parse_value(text: &str, max_depth: usize) -> Result<Value, Box<CompileError>> {
    parse(text, max_depth).map(|(v, _)| v)
}

struct Reader<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    max_depth: usize,
    map: SourceMap,
}

impl Reader<'_> {
    fn err(&self, message: &str) -> Box<CompileError> {
        Box::new(CompileError {
            kind: CompileErrorKind::InvalidTemplate,
            message: format!("invalid template JSON: {message}"),
            help: Some("check the template text near this offset".into()),
            location: Location {
                pointer: String::new(),
                part: NodePart::Value,
                range: self.i..self.i,
                offset: Some(self.i..(self.i + 1).min(self.b.len())),
            },
        })
    }

    fn ws(&mut self) -> Result<(), Box<CompileError>> {
        loop {
            match self.b.get(self.i) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.i += 1,
                Some(b'/') if self.b.get(self.i + 1) == Some(&b'/') => {
                    while self.b.get(self.i).is_some_and(|c| *c != b'\n') {
                        self.i += 1;
                    }
                }
                Some(b'/') if self.b.get(self.i + 1) == Some(&b'*') => {
                    match self.s[self.i + 2..].find("*/") {
                        Some(end) => self.i += end + 4,
                        None => return Err(self.err("unterminated comment")),
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn note(&mut self, pointer: &str, part: NodePart, at: Option<usize>) {
        let e = self.map.nodes.entry(pointer.to_string()).or_default();
        match part {
            NodePart::Key => e.key = at,
            NodePart::Value => e.value = at,
        }
    }

    fn value(&mut self, pointer: &str, depth: usize) -> Result<Value, Box<CompileError>> {
        if depth > self.max_depth {
            return Err(self.err("the template nests too deeply"));
        }
        let start = self.i;
        let v = match self.b.get(self.i) {
            Some(b'{') => self.object(pointer, depth)?,
            Some(b'[') => self.array(pointer, depth)?,
            Some(b'"' | b'\'') => {
                let (s, raw) = self.string()?;
                self.note(pointer, NodePart::Value, raw.then_some(start + 1));
                return Ok(Value::String(s.into()));
            }
            Some(_) => self.scalar()?,
            None => return Err(self.err("unexpected end of text, expected a value")),
        };
        self.note(pointer, NodePart::Value, Some(start));
        Ok(v)
    }

    fn object(&mut self, pointer: &str, depth: usize) -> Result<Value, Box<CompileError>> {
        self.i += 1;
        let mut map = Map::new();
        loop {
            self.ws()?;
            match self.b.get(self.i) {
                // Newtonsoft closes an object left open at the end of the text.
                None => break,
                Some(b'}') => {
                    self.i += 1;
                    break;
                }
                _ => {}
            }
            let key_start = self.i;
            let (key, raw) = match self.b.get(self.i) {
                Some(b'"' | b'\'') => {
                    let (k, raw) = self.string()?;
                    (k, raw.then_some(key_start + 1))
                }
                _ => (self.bare_name()?, Some(key_start)),
            };
            let child = child_pointer(pointer, &key);
            self.note(&child, NodePart::Key, raw);
            self.ws()?;
            if self.b.get(self.i) != Some(&b':') {
                return Err(self.err("expected ':' after the property name"));
            }
            self.i += 1;
            self.ws()?;
            let v = self.value(&child, depth + 1)?;
            map.insert(Arc::from(key), v);
            self.ws()?;
            match self.b.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b'}') | None => {}
                _ => return Err(self.err("expected ',' or '}'")),
            }
        }
        Ok(Value::object(map))
    }

    fn array(&mut self, pointer: &str, depth: usize) -> Result<Value, Box<CompileError>> {
        self.i += 1;
        let mut items = Vec::new();
        loop {
            self.ws()?;
            match self.b.get(self.i) {
                None => break,
                Some(b']') => {
                    self.i += 1;
                    break;
                }
                _ => {}
            }
            let child = child_pointer(pointer, &items.len().to_string());
            items.push(self.value(&child, depth + 1)?);
            self.ws()?;
            match self.b.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b']') | None => {}
                _ => return Err(self.err("expected ',' or ']'")),
            }
        }
        Ok(Value::array(items))
    }

    fn bare_name(&mut self) -> Result<String, Box<CompileError>> {
        let start = self.i;
        while self
            .b
            .get(self.i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'-'))
        {
            self.i += 1;
        }
        if self.i == start {
            return Err(self.err("expected a property name"));
        }
        Ok(self.s[start..self.i].to_string())
    }

    /// A quoted string; the flag says whether it had no escapes (offsets map one to one).
    fn string(&mut self) -> Result<(String, bool), Box<CompileError>> {
        let q = self.b[self.i];
        self.i += 1;
        let mut out = String::new();
        let mut raw = true;
        loop {
            let Some(c) = self.s[self.i..].chars().next() else {
                return Err(self.err("unterminated string"));
            };
            self.i += c.len_utf8();
            match c {
                '\\' => {
                    raw = false;
                    let Some(e) = self.s[self.i..].chars().next() else {
                        return Err(self.err("unterminated string"));
                    };
                    self.i += e.len_utf8();
                    match e {
                        'n' => out.push('\n'),
                        'r' => out.push('\r'),
                        't' => out.push('\t'),
                        'b' => out.push('\u{8}'),
                        'f' => out.push('\u{c}'),
                        'u' => {
                            let mut code = self.hex4()?;
                            if (0xD800..0xDC00).contains(&code)
                                && self.s[self.i..].starts_with("\\u")
                            {
                                self.i += 2;
                                let low = self.hex4()?;
                                code = 0x10000
                                    + ((code - 0xD800) << 10)
                                    + (low.wrapping_sub(0xDC00) & 0x3FF);
                            }
                            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                        }
                        other => out.push(other),
                    }
                }
                c if c as u32 == u32::from(q) => return Ok((out, raw)),
                c => out.push(c),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, Box<CompileError>> {
        let hex = self.s.get(self.i..self.i + 4).unwrap_or("");
        let v = u32::from_str_radix(hex, 16).map_err(|_| self.err("invalid \\u escape"))?;
        self.i += 4;
        Ok(v)
    }

    fn scalar(&mut self) -> Result<Value, Box<CompileError>> {
        let start = self.i;
        while self
            .b
            .get(self.i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.'))
        {
            self.i += 1;
        }
        let t = &self.s[start..self.i];
        Ok(match t {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            "null" | "undefined" => Value::Null,
            _ => {
                if let Ok(i) = t.parse::<i64>() {
                    Value::Int(i)
                } else if let Some(d) = t.parse::<f64>().ok().filter(|d| {
                    d.is_finite()
                        && t.bytes()
                            .all(|b| b.is_ascii_digit() || b"-+.eE".contains(&b))
                }) {
                    Value::Double(d)
                } else {
                    self.i = start;
                    return Err(self.err("expected a value"));
                }
            }
        })
    }
}

fn child_pointer(parent: &str, token: &str) -> String {
    let mut p = String::with_capacity(parent.len() + token.len() + 1);
    p.push_str(parent);
    p.push('/');
    for c in token.chars() {
        match c {
            '~' => p.push_str("~0"),
            '/' => p.push_str("~1"),
            c => p.push(c),
        }
    }
    p
}
