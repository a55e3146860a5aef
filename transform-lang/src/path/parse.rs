//! Parser of the Newtonsoft JPath syntax into steps with byte spans.

use std::sync::Arc;

use super::filter::{CmpOp, FilterExpr, Operand, PathRegex};
use super::{PathError, Step, StepKind};
use crate::value::Value;

/// Filters nest paths which nest filters: bound it so hostile input cannot exhaust the stack.
const MAX_NESTING: usize = 32;

pub(super) fn parse(text: &str) -> Result<Vec<Step>, PathError> {
    let mut p = Parser {
        s: text,
        b: text.as_bytes(),
        i: 0,
        depth: 0,
    };
    p.skip_ws();
    let steps = p.path(false)?;
    p.skip_ws();
    if p.i < p.b.len() {
        return Err(p.err_here("unexpected text after the path"));
    }
    Ok(steps)
}

struct Parser<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    depth: usize,
}

/// Characters that end an unquoted member name.
fn ends_name(c: u8, in_filter: bool) -> bool {
    matches!(
        c,
        b'.' | b'[' | b']' | b'(' | b')' | b' ' | b'\t' | b'\n' | b'\r'
    ) || (in_filter && matches!(c, b'=' | b'!' | b'<' | b'>' | b'|' | b'&' | b','))
}

fn is_quote(c: u8) -> bool {
    // A backtick reads as a single quote (JUST's JsonPathSelectable rewrites it).
    matches!(c, b'\'' | b'"' | b'`')
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn peek_at(&self, n: usize) -> Option<u8> {
        self.b.get(self.i + n).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn err(message: impl Into<String>, start: usize, end: usize) -> PathError {
        PathError {
            message: message.into(),
            span: start..end.max(start),
        }
    }

    fn err_here(&self, message: impl Into<String>) -> PathError {
        if self.i >= self.b.len() {
            // At the end of the path: point at its last character.
            let start = self.s[..self.i].char_indices().last().map_or(0, |(i, _)| i);
            return Self::err(message, start, self.i);
        }
        let end = self.s[self.i..]
            .chars()
            .next()
            .map_or(self.i, |c| self.i + c.len_utf8());
        Self::err(message, self.i, end)
    }

    fn expect(&mut self, c: u8, what: &str) -> Result<(), PathError> {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.err_here(format!("expected {what}")))
        }
    }

    /// A path: at top level (optional `$`, or a bare first name) or inside a filter (`@`/`$`).
    fn path(&mut self, in_filter: bool) -> Result<Vec<Step>, PathError> {
        let mut steps = Vec::new();
        let start = self.i;
        match self.peek() {
            Some(b'$') => {
                self.i += 1;
                steps.push(Step {
                    kind: StepKind::Root,
                    recursive: false,
                    span: start..self.i,
                });
            }
            Some(b'@') if in_filter => {
                self.i += 1;
                steps.push(Step {
                    kind: StepKind::Current,
                    recursive: false,
                    span: start..self.i,
                });
                // `@name` without a dot is accepted by Newtonsoft.
                if self.peek().is_some_and(|c| !ends_name(c, true)) {
                    steps.push(self.member(self.i, false, true)?);
                }
            }
            Some(c) if !in_filter && !ends_name(c, false) => {
                steps.push(self.member(start, false, false)?);
            }
            _ => {}
        }
        loop {
            let step_start = self.i;
            match self.peek() {
                None | Some(b' ' | b'\t' | b'\n' | b'\r') => break,
                Some(b'.') => {
                    let recursive = self.peek_at(1) == Some(b'.');
                    self.i += if recursive { 2 } else { 1 };
                    match self.peek() {
                        Some(b'[') => steps.push(self.bracket(step_start, recursive)?),
                        Some(b'*') => {
                            self.i += 1;
                            steps.push(Step {
                                kind: StepKind::AnyMember,
                                recursive,
                                span: step_start..self.i,
                            });
                        }
                        Some(c) if !ends_name(c, in_filter) => {
                            steps.push(self.member(step_start, recursive, in_filter)?);
                        }
                        // `$.` at the very end, as in `$.[0]`'s prefix, selects the root itself.
                        None if !recursive => break,
                        _ => return Err(self.err_here("expected a member name after '.'")),
                    }
                }
                Some(b'[') => steps.push(self.bracket(step_start, false)?),
                Some(c) if in_filter && ends_name(c, true) => break,
                Some(_) => return Err(self.err_here("unexpected character in path")),
            }
        }
        Ok(steps)
    }

    fn member(
        &mut self,
        start: usize,
        recursive: bool,
        in_filter: bool,
    ) -> Result<Step, PathError> {
        let name_start = self.i;
        while self.peek().is_some_and(|c| !ends_name(c, in_filter)) {
            self.i += 1;
        }
        if self.i == name_start {
            return Err(self.err_here("expected a member name"));
        }
        let name = &self.s[name_start..self.i];
        let kind = if name == "*" {
            StepKind::AnyMember
        } else {
            StepKind::Member(name.into())
        };
        Ok(Step {
            kind,
            recursive,
            span: start..self.i,
        })
    }

    fn bracket(&mut self, start: usize, recursive: bool) -> Result<Step, PathError> {
        self.i += 1; // '['
        self.skip_ws();
        let kind = match self.peek() {
            Some(b'?') => {
                self.i += 1;
                self.expect(b'(', "'(' after '[?'")?;
                self.depth += 1;
                if self.depth > MAX_NESTING {
                    return Err(self.err_here("filters are nested too deeply"));
                }
                let expr = self.or_expr()?;
                self.depth -= 1;
                self.expect(b')', "')' to close the filter")?;
                StepKind::Filter(Box::new(expr))
            }
            Some(b'(') => {
                return Err(self.err_here(
                    "script expressions '[(...)]' are not supported; use a filter '[?(...)]'",
                ));
            }
            Some(c) if is_quote(c) => {
                let mut names: Vec<Arc<str>> = vec![self.quoted()?.into()];
                loop {
                    self.skip_ws();
                    if self.peek() != Some(b',') {
                        break;
                    }
                    self.i += 1;
                    self.skip_ws();
                    names.push(self.quoted()?.into());
                }
                if names.len() == 1 {
                    StepKind::Member(names.remove(0))
                } else {
                    StepKind::Members(names)
                }
            }
            Some(b'*') => {
                self.i += 1;
                StepKind::AnyIndex
            }
            Some(c) if c.is_ascii_digit() || c == b'-' || c == b':' => self.indexes()?,
            _ => return Err(self.err_here("expected an index, '*', a quoted name or a filter")),
        };
        self.expect(b']', "']'")?;
        Ok(Step {
            kind,
            recursive,
            span: start..self.i,
        })
    }

    fn int(&mut self) -> Result<Option<i64>, PathError> {
        self.skip_ws();
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        if self.i == start {
            return Ok(None);
        }
        self.s[start..self.i]
            .parse()
            .map(Some)
            .map_err(|_| Self::err("invalid index", start, self.i))
    }

    fn indexes(&mut self) -> Result<StepKind, PathError> {
        let first = self.int()?;
        self.skip_ws();
        match self.peek() {
            Some(b':') => {
                self.i += 1;
                let end = self.int()?;
                self.skip_ws();
                let mut step = None;
                if self.peek() == Some(b':') {
                    self.i += 1;
                    let at = self.i;
                    step = self.int()?;
                    if step == Some(0) {
                        return Err(Self::err("slice step cannot be 0", at, self.i));
                    }
                }
                Ok(StepKind::Slice {
                    start: first,
                    end,
                    step,
                })
            }
            Some(b',') => {
                let mut all = vec![first.ok_or_else(|| self.err_here("expected an index"))?];
                while self.peek() == Some(b',') {
                    self.i += 1;
                    all.push(
                        self.int()?
                            .ok_or_else(|| self.err_here("expected an index"))?,
                    );
                    self.skip_ws();
                }
                Ok(StepKind::Indexes(all))
            }
            _ => Ok(StepKind::Index(
                first.ok_or_else(|| self.err_here("expected an index"))?,
            )),
        }
    }

    /// A quoted string with JSON-like escapes; the quote is `'`, `"` or a backtick.
    fn quoted(&mut self) -> Result<String, PathError> {
        let start = self.i;
        let Some(q) = self.peek().filter(|c| is_quote(*c)) else {
            return Err(self.err_here("expected a quoted name"));
        };
        // A backtick may close a name opened by a quote and vice versa once rewritten to `'`.
        let closes = |c: u8| c == q || (q != b'"' && matches!(c, b'\'' | b'`'));
        self.i += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.s[self.i..].chars().next() else {
                return Err(Self::err("unterminated string", start, self.i));
            };
            self.i += c.len_utf8();
            match c {
                '\\' => {
                    let Some(e) = self.s[self.i..].chars().next() else {
                        return Err(Self::err("unterminated string", start, self.i));
                    };
                    self.i += e.len_utf8();
                    out.push(match e {
                        'n' => '\n',
                        'r' => '\r',
                        't' => '\t',
                        'b' => '\u{8}',
                        'f' => '\u{c}',
                        'u' => {
                            let hex = self.s.get(self.i..self.i + 4).unwrap_or("");
                            let cp = u32::from_str_radix(hex, 16)
                                .ok()
                                .and_then(char::from_u32)
                                .ok_or_else(|| {
                                    Self::err("invalid \\u escape", self.i - 2, self.i)
                                })?;
                            self.i += 4;
                            cp
                        }
                        other => other,
                    });
                }
                c if c.is_ascii() && closes(c as u8) => return Ok(out),
                c => out.push(c),
            }
        }
    }

    fn or_expr(&mut self) -> Result<FilterExpr, PathError> {
        let mut left = self.and_expr()?;
        loop {
            self.skip_ws();
            if self.b[self.i..].starts_with(b"||") {
                self.i += 2;
                let right = self.and_expr()?;
                left = FilterExpr::Or(Box::new(left), Box::new(right));
            } else {
                return Ok(left);
            }
        }
    }

    fn and_expr(&mut self) -> Result<FilterExpr, PathError> {
        let mut left = self.comparison()?;
        loop {
            self.skip_ws();
            if self.b[self.i..].starts_with(b"&&") {
                self.i += 2;
                let right = self.comparison()?;
                left = FilterExpr::And(Box::new(left), Box::new(right));
            } else {
                return Ok(left);
            }
        }
    }

    fn comparison(&mut self) -> Result<FilterExpr, PathError> {
        self.skip_ws();
        if self.peek() == Some(b'(') {
            self.i += 1;
            self.depth += 1;
            if self.depth > MAX_NESTING {
                return Err(self.err_here("filters are nested too deeply"));
            }
            let inner = self.or_expr()?;
            self.depth -= 1;
            self.expect(b')', "')'")?;
            return Ok(inner);
        }
        let left = self.operand()?;
        self.skip_ws();
        let rest = &self.b[self.i..];
        let op = [
            (&b"=="[..], CmpOp::Eq),
            (b"!=", CmpOp::Ne),
            (b"<=", CmpOp::Le),
            (b">=", CmpOp::Ge),
            (b"=~", CmpOp::Eq),
            (b"<", CmpOp::Lt),
            (b">", CmpOp::Gt),
        ]
        .into_iter()
        .find(|(t, _)| rest.starts_with(t));
        let Some((token, op)) = op else {
            return Ok(FilterExpr::Exists(left));
        };
        let op_start = self.i;
        self.i += token.len();
        self.skip_ws();
        if token == b"=~" {
            if self.peek() != Some(b'/') {
                return Err(self.err_here("expected a regular expression '/.../' after '=~'"));
            }
            let regex = self.regex()?;
            return Ok(FilterExpr::Matches { left, regex });
        }
        if self.peek().is_none() {
            return Err(Self::err(
                "expected a value after the operator",
                op_start,
                self.i,
            ));
        }
        let right = self.operand()?;
        Ok(FilterExpr::Compare { left, op, right })
    }

    fn regex(&mut self) -> Result<PathRegex, PathError> {
        let start = self.i;
        self.i += 1;
        let body_start = self.i;
        loop {
            match self.peek() {
                None => return Err(Self::err("unterminated regular expression", start, self.i)),
                Some(b'\\') => self.i += 2,
                Some(b'/') => break,
                Some(_) => self.i += 1,
            }
        }
        let body = self.s.get(body_start..self.i).unwrap_or("");
        self.i += 1;
        let flags_start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.i += 1;
        }
        let flags = &self.s[flags_start..self.i];
        PathRegex::new(body, flags).map_err(|e| Self::err(e, start, self.i))
    }

    fn operand(&mut self) -> Result<Operand, PathError> {
        self.skip_ws();
        let start = self.i;
        match self.peek() {
            Some(b'@' | b'$') => Ok(Operand::Path(self.path(true)?)),
            Some(c) if is_quote(c) => Ok(Operand::Literal(Value::from(self.quoted()?))),
            Some(c) if c == b'-' || c.is_ascii_digit() => {
                while self.peek().is_some_and(|c| {
                    c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E')
                }) {
                    self.i += 1;
                }
                let t = &self.s[start..self.i];
                if let Ok(i) = t.parse::<i64>() {
                    Ok(Operand::Literal(Value::Int(i)))
                } else if let Ok(d) = t.parse::<f64>() {
                    Ok(Operand::Literal(Value::Double(d)))
                } else {
                    Err(Self::err("invalid number", start, self.i))
                }
            }
            _ => {
                for (word, v) in [
                    ("true", Value::Bool(true)),
                    ("false", Value::Bool(false)),
                    ("null", Value::Null),
                ] {
                    if self.s[self.i..].starts_with(word) {
                        self.i += word.len();
                        return Ok(Operand::Literal(v));
                    }
                }
                Err(self
                    .err_here("expected '@', '$', a number, a quoted string, true, false or null"))
            }
        }
    }
}
