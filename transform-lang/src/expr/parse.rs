//! JUST's expression syntax (ExpressionHelper): the function regex, argument splitting with
//! the escape character, literal arguments.

use std::ops::Range;

use super::{Call, Expr, Lit, Route};
use crate::error::CompileErrorKind;
use crate::functions::{self, FuncDef};
use crate::value::Value;

/// An error inside one expression; the range is relative to the key or string.
#[derive(Debug)]
pub(crate) struct ExprError {
    pub kind: CompileErrorKind,
    pub message: String,
    pub help: Option<String>,
    pub span: Range<usize>,
}

/// Nested calls deeper than this are rejected: the evaluator recurses once per level.
const MAX_CALL_DEPTH: usize = 64;

/// The parts of `^\s*#(.+?)[(](.*)[)]\s*$`: name range and argument range.
fn match_function(s: &str, base: usize) -> Option<(Range<usize>, Range<usize>)> {
    let lead = s.len() - s.trim_start().len();
    let body = s.trim_end();
    if !body[lead..].starts_with('#') || !body.ends_with(')') {
        return None;
    }
    let name_start = lead + 1;
    let open = name_start + s[name_start..].find('(')?;
    if open == name_start {
        return None;
    }
    let close = body.len() - 1;
    if close < open {
        return None;
    }
    Some((
        base + name_start..base + open,
        base + open + 1..base + close,
    ))
}

/// Parses a string that starts (after whitespace) with `#`: a call, or a literal (trimmed)
/// when it does not have the shape of one.
///
/// `text` is the whole key or value; `range` is the part to parse.
pub(crate) fn parse_call_or_literal(
    text: &str,
    range: Range<usize>,
    esc: char,
    errors: &mut Vec<ExprError>,
    depth: usize,
) -> Expr {
    let s = &text[range.clone()];
    let Some((name_r, args_r)) = match_function(s, range.start) else {
        let trimmed = s.trim();
        let start = range.start + (s.len() - s.trim_start().len());
        check_unclosed(text, start, trimmed, errors);
        return Expr::Lit(Lit {
            value: Value::from(trimmed),
            path: None,
            template: None,
            span: start..start + trimmed.len(),
        });
    };
    let call_start = name_r.start - 1;
    let call_span = call_start..args_r.end + 1;
    let name = &text[name_r.clone()];
    let func = match lookup(name, name_r.clone(), errors) {
        Some(f) => f,
        None => &functions::UNKNOWN,
    };
    if depth > MAX_CALL_DEPTH {
        errors.push(ExprError {
            kind: CompileErrorKind::TooDeep,
            message: format!("calls are nested more than {MAX_CALL_DEPTH} levels deep"),
            help: Some("split the expression into several properties".into()),
            span: call_span,
        });
        return Expr::Lit(Lit {
            value: Value::Null,
            path: None,
            template: None,
            span: range,
        });
    }
    let pieces = split_arguments(text, args_r.clone(), esc, errors);
    let mut args = Vec::with_capacity(pieces.len());
    for (i, piece) in pieces.into_iter().enumerate() {
        let raw = &text[piece.clone()];
        if raw.trim_start().starts_with('#') {
            args.push(parse_call_or_literal(text, piece, esc, errors, depth + 1));
        } else {
            let value = unescape_literal(raw, esc);
            let mut lit = Lit {
                value: Value::from(value),
                path: None,
                template: None,
                span: piece,
            };
            functions::prepare_literal(func, i, &mut lit, errors);
            args.push(Expr::Lit(lit));
        }
    }
    let n = args.len();
    if !std::ptr::eq(func, &raw const functions::UNKNOWN) && (n < func.min || n > func.max) {
        errors.push(ExprError {
            kind: CompileErrorKind::ArgumentCount,
            message: format!(
                "#{} takes {}, but {n} {} given",
                func.name,
                func.arity_text(),
                if n == 1 { "was" } else { "were" }
            ),
            help: Some(format!(
                "usage: {}; arguments are separated by commas: write a literal comma as \
                 `{esc},` or #constant_comma()",
                func.usage
            )),
            span: call_span.clone(),
        });
    }
    let route = Route::of(func, &args);
    Expr::Call(Box::new(Call {
        func,
        args,
        span: call_span,
        route,
    }))
}

/// A `#name(` that never closes is almost surely a mistake, not a literal: report it.
fn check_unclosed(text: &str, start: usize, trimmed: &str, errors: &mut Vec<ExprError>) {
    let Some(open) = trimmed.find('(') else {
        return;
    };
    let name = &trimmed[1..open];
    if functions::lookup(name).is_some() && !trimmed.ends_with(')') {
        let _ = text;
        errors.push(ExprError {
            kind: CompileErrorKind::UnbalancedParentheses,
            message: format!("the call to #{name} is not closed: the expression must end with ')'"),
            help: Some("add the missing ')' or escape a literal parenthesis".into()),
            span: start..start + trimmed.len(),
        });
    }
}

fn lookup(name: &str, span: Range<usize>, errors: &mut Vec<ExprError>) -> Option<&'static FuncDef> {
    if let Some(f) = functions::lookup(name) {
        return Some(f);
    }
    if name == "customfunction" || name.contains("::") {
        errors.push(ExprError {
            kind: CompileErrorKind::UnsupportedFunction,
            message: format!("#{name}: .NET custom functions are not supported"),
            help: Some("express the logic with the built-in functions".into()),
            span,
        });
        return None;
    }
    let help = match functions::did_you_mean(name) {
        Some(best) => format!("did you mean #{best}? (function names are case-sensitive)"),
        None => "see docs/transform-language.md for the list of functions".into(),
    };
    errors.push(ExprError {
        kind: CompileErrorKind::UnknownFunction,
        message: format!("unknown function #{name}"),
        help: Some(help),
        span,
    });
    None
}

/// `SplitArguments`: splits on commas outside parentheses; escaped characters do not count.
/// Returns the raw pieces (escapes kept) as ranges of `text`.
fn split_arguments(
    text: &str,
    range: Range<usize>,
    esc: char,
    errors: &mut Vec<ExprError>,
) -> Vec<Range<usize>> {
    let s = &text[range.clone()];
    if s.is_empty() {
        return Vec::new();
    }
    let mut pieces = Vec::new();
    let mut depth: i64 = 0;
    let mut opens: Vec<usize> = Vec::new();
    let mut start = range.start;
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let at = range.start + i;
        if c == esc {
            if let Some(&(_, n)) = chars.peek()
                && (n == esc || matches!(n, '(' | ')' | ','))
            {
                chars.next();
            }
            continue;
        }
        match c {
            '(' => {
                depth += 1;
                opens.push(at);
            }
            ')' => {
                depth -= 1;
                opens.pop();
                if depth < 0 {
                    errors.push(ExprError {
                        kind: CompileErrorKind::UnbalancedParentheses,
                        message: "this ')' closes nothing".into(),
                        help: Some(format!(
                            "remove it, or write a literal parenthesis as `{esc})`"
                        )),
                        span: at..at + 1,
                    });
                    depth = 0;
                }
            }
            ',' if depth == 0 => {
                pieces.push(start..at);
                start = at + 1;
            }
            _ => {}
        }
    }
    if let Some(&open) = opens.first() {
        errors.push(ExprError {
            kind: CompileErrorKind::UnbalancedParentheses,
            message: "this '(' is never closed".into(),
            help: Some(format!(
                "add the missing ')', or write a literal parenthesis as `{esc}(`"
            )),
            span: open..open + 1,
        });
    }
    pieces.push(start..range.end);
    pieces
}

/// Unescapes a literal argument: `<esc>` before `(`, `)`, `,` or itself is dropped, and a
/// leading `<esc>#` loses its escape.
pub(crate) fn unescape_literal(raw: &str, esc: char) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == esc
            && let Some(&n) = chars.peek()
            && (n == esc || matches!(n, '(' | ')' | ','))
        {
            out.push(n);
            chars.next();
            continue;
        }
        out.push(c);
    }
    let mut prefix = [0u8; 4];
    let esc_sharp = format!("{}#", esc.encode_utf8(&mut prefix));
    if out.starts_with(&esc_sharp) {
        out.remove(0);
        // `remove` took one char; the escape is one char.
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        let mut errors = Vec::new();
        split_arguments(s, 0..s.len(), '/', &mut errors)
            .into_iter()
            .map(|r| unescape_literal(&s[r], '/'))
            .collect()
    }

    #[test]
    fn splitting_respects_parentheses_and_escapes() {
        assert_eq!(args("a,b"), ["a", "b"]);
        assert_eq!(args("$.a[?(@.x=='b')],c"), ["$.a[?(@.x=='b')]", "c"]);
        assert_eq!(args("///),_end"), ["/)", "_end"]);
        assert_eq!(args("//,_end"), ["/", "_end"]);
        assert_eq!(args("a/,b"), ["a,b"]);
        assert_eq!(args("x, "), ["x", " "]);
        assert_eq!(args("/#x"), ["#x"]);
    }
}
