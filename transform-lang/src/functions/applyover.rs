//! `#applyover(t1, t2[, loopAlias])`: apply template `t1` to the input, then `t2` (a template
//! or an expression) to the result.

use std::sync::Arc;

use super::{ArgKinds, Fallback, FuncDef, def};
use crate::error::CompileErrorKind;
use crate::eval::{Cx, Fail, eval_node};
use crate::expr::{Call, Expr, ExprError, Lit};
use crate::settings::Settings;
use crate::template::{Node, compile_runtime, lenient};
use crate::value::Value;

pub(super) const DEFS: &[FuncDef] = &[def(
    "applyover",
    2,
    3,
    "#applyover(template, then[, loopAlias])",
    "Applies `template` (JSON text, single quotes allowed) to the input, then `then` (a template or an expression) to its result.",
    ArgKinds::Templates,
    Fallback::Null,
    applyover,
)];

/// JUST reads the second argument after `Trim().Trim('\'')`.
fn unquote(text: &str) -> &str {
    text.trim().trim_matches('\'')
}

/// The template a literal argument denotes: JSON text for the first argument; for the
/// second, JSON text when it starts with `{` or `[`, else an expression or a literal.
fn literal_template(i: usize, text: &str) -> Result<Value, String> {
    let t = if i == 0 { text.trim() } else { unquote(text) };
    if i == 0 || t.starts_with('{') || t.starts_with('[') {
        let max_depth = Settings::default().limits.max_depth;
        lenient::parse_value(t, max_depth).map_err(|e| e.message)
    } else {
        Ok(Value::from(t))
    }
}

/// Compiles literal arguments with the template.
pub(super) fn prepare(i: usize, text: &str, lit: &mut Lit, errors: &mut Vec<ExprError>) {
    if i > 1 {
        return;
    }
    let compiled = literal_template(i, text).and_then(|v| {
        // Nested templates use the default settings at compile time; the call's settings
        // apply at evaluation.
        compile_runtime(&v, &Settings::default()).map_err(|e| e.message)
    });
    match compiled {
        Ok(node) => lit.template = Some(Arc::new(node)),
        Err(message) => errors.push(ExprError {
            kind: CompileErrorKind::InvalidTemplate,
            message: format!("the #applyover template does not compile: {message}"),
            help: Some(
                "write the template as JSON text with single quotes; build commas with #constant_comma() inside #xconcat".into(),
            ),
            span: lit.span.clone(),
        }),
    }
}

/// The template of argument `i`: compiled with the template, or built now.
fn template_arg(cx: &mut Cx<'_>, c: &Call, i: usize) -> Result<Arc<Node>, Fail> {
    if let Some(Expr::Lit(l)) = c.args.get(i)
        && let Some(t) = &l.template
    {
        return Ok(t.clone());
    }
    let v = cx.arg(c, i)?;
    let v = match &v {
        Value::String(s) => literal_template(i, s).map_err(|m| {
            Fail::soft(
                crate::EvalErrorKind::InvalidTemplate,
                format!("the #applyover template does not parse: {m}"),
            )
        })?,
        _ => v,
    };
    Ok(Arc::new(compile_runtime(&v, cx.settings)?))
}

/// Runs `f` with `input` as the record and a fresh loop/scope state (JUST's new `State`).
fn with_input<T>(cx: &mut Cx<'_>, input: Value, f: impl FnOnce(&mut Cx<'_>) -> T) -> T {
    let saved_input = std::mem::replace(&mut cx.input, input);
    let saved_frames = std::mem::take(&mut cx.frames);
    let saved_building = std::mem::take(&mut cx.building);
    let r = f(cx);
    cx.input = saved_input;
    cx.frames = saved_frames;
    cx.building = saved_building;
    r
}

fn applyover(cx: &mut Cx<'_>, c: &Call) -> Result<Value, Fail> {
    let input = match cx.alias_arg(c, 2)? {
        Some(a) => cx.find_loop(Some(&a))?.current(),
        None => cx.loop_input(),
    };
    let first = template_arg(cx, c, 0)?;
    let mid = with_input(cx, input, |cx| eval_node(cx, &first, None))?;
    if let Some(Expr::Call(second)) = c.args.get(1) {
        Ok(with_input(cx, mid, |cx| cx.call(second))?)
    } else {
        let second = template_arg(cx, c, 1)?;
        Ok(with_input(cx, mid, |cx| eval_node(cx, &second, None))?)
    }
}
