//! `ExampleMismatch`: a `default`, `example` or `examples` value does not fit its schema.

use syncdef_definitions::Node;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::typecheck::fits::{self, Verdict};
use crate::typecheck::openapi::{Direction, resolve};

declare_rule! {
    /// ## What it does
    /// Validates every `default` and `example` of a schema, the `examples` of an OpenAPI 3.1
    /// schema, and the `example` and `examples` (their `value`) of a parameter, header or media
    /// type against the schema they illustrate, converted to JSON Schema as SD802 converts
    /// request bodies, and reports each value that does not fit, at the value (or the part of
    /// it that breaks the schema), naming the rule it breaks.
    ///
    /// A value fits when it fits the schema as a request or as a response (`readOnly` and
    /// `writeOnly` properties are required on one side only). It is a warning: OpenAPI says
    /// an example SHOULD match its schema.
    ///
    /// Some descriptions write every example as JSON text (a string holding `{"Id": ...}`)
    /// where the schema expects an object or an array. Those are reported once per document,
    /// at the first, with their count: the dry-run's synthesised answers read such an example
    /// as the JSON it holds, so each is usable as it is.
    ///
    /// ## Why is this bad?
    /// Mock servers answer with the examples and clients send the defaults: a value the schema
    /// refuses makes tests pass against answers the system never gives, and usually means the
    /// schema or the example is out of date.
    ///
    /// ## Example
    /// ```yaml
    /// Currency:
    ///   type: string
    ///   pattern: "^[A-Z]{3}$"
    ///   example: eur
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// Currency:
    ///   type: string
    ///   pattern: "^[A-Z]{3}$"
    ///   example: EUR
    /// ```
    pub struct ExampleMismatch {
        title: "a `default` or example value does not fit its schema",
        severity: Warning,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    let mut as_text = Vec::new();
    check_values(ctx, sink, &mut as_text);
    report_json_text(sink, &as_text);
}

/// Checks every illustrated value; those written as JSON text are collected in `as_text`.
fn check_values<'d>(ctx: &Context<'d>, sink: &mut Sink, as_text: &mut Vec<(Node<'d>, String)>) {
    let root = &ctx.doc.root();
    for schema in &ctx.openapi.schemas {
        if !illustrated(&schema.node) {
            continue;
        }
        let at = &ctx.openapi.pointer(schema.place);
        for key in ["default", "example"] {
            if let Some(value) = schema.node.get(key) {
                validate(
                    ctx,
                    sink,
                    as_text,
                    &schema.node,
                    &value,
                    &format!("{at}/{key}"),
                    key,
                );
            }
        }
        // In 3.1 a schema's `examples` is a list of values; in 3.0 it is not a keyword.
        let listed = schema.node.get("examples").and_then(Node::as_array);
        for (i, value) in listed.unwrap_or_default().iter().enumerate() {
            validate(
                ctx,
                sink,
                as_text,
                &schema.node,
                &value,
                &format!("{at}/examples/{i}"),
                "examples",
            );
        }
    }
    for holder in &ctx.openapi.holders {
        let Some(schema) = holder.node.get("schema") else {
            continue;
        };
        if !illustrated(&holder.node) {
            continue;
        }
        let at = &ctx.openapi.pointer(holder.place);
        if let Some(value) = holder.node.get("example") {
            validate(
                ctx,
                sink,
                as_text,
                &schema,
                &value,
                &format!("{at}/example"),
                "example",
            );
        }
        let named = holder.node.get("examples").and_then(Node::as_object);
        for member in named.unwrap_or_default() {
            let Some(value) = resolve(*root, Some(member.value)).and_then(|e| e.get("value"))
            else {
                continue;
            };
            let name = syncdef_definitions::pointer::escape(member.key.name);
            let pointer = format!("{at}/examples/{name}/value");
            validate(ctx, sink, as_text, &schema, &value, &pointer, "example");
        }
    }
}

/// Whether `node` carries a value to check: most schemas carry none, and their pointer is then
/// never written.
fn illustrated(node: &Node) -> bool {
    node.as_object()
        .unwrap_or_default()
        .iter()
        .any(|m| matches!(m.key.name, "default" | "example" | "examples"))
}

/// Reports the first way `value` breaks `schema` (as a request and as a response); a value
/// written as JSON text is collected in `as_text` instead.
fn validate<'d>(
    ctx: &Context<'d>,
    sink: &mut Sink,
    as_text: &mut Vec<(Node<'d>, String)>,
    schema: &Node<'d>,
    value: &Node<'d>,
    at: &str,
    what: &str,
) {
    let root = &ctx.doc.root();
    // Examples of one component (`schema: {$ref: ...}` in every media type that returns it)
    // share one converted and compiled schema: the cache is keyed by the node resolved to.
    let schema = crate::typecheck::openapi::resolve(*root, Some(*schema)).unwrap_or(*schema);
    // Most examples are decided by walking the schema in place; only the rest are checked by
    // the converted and compiled schema.
    let request = fits::verdict(root, &schema, value, Direction::Request);
    if request == Verdict::Fits {
        return;
    }
    let response = fits::verdict(root, &schema, value, Direction::Response);
    if response == Verdict::Fits {
        return;
    }
    if written_as_json_text(&schema, value) {
        as_text.push((*value, at.to_owned()));
        return;
    }
    if request == Verdict::Breaks
        && response == Verdict::Breaks
        && let Some(found) = fits::mismatch(root, &schema, *value, Direction::Request)
    {
        report(sink, &found.pointer, &found.node, &found.reason, at, what);
        return;
    }
    let json = value.to_json();
    let fits = |direction| {
        let converted = ctx.schemas.get(root, &schema, direction);
        // A schema that does not compile is SD125's or SD106's finding.
        converted
            .validator
            .as_ref()
            .is_none_or(|v| v.is_valid(&json))
    };
    if fits(Direction::Request) || fits(Direction::Response) {
        return;
    }
    let converted = ctx.schemas.get(root, &schema, Direction::Request);
    let Some(error) = converted
        .validator
        .as_ref()
        .and_then(|v| v.iter_errors(&json).next())
    else {
        return;
    };
    let inner = error.instance_path().as_str().to_owned();
    let node = value.pointer(&inner).unwrap_or(*value);
    let reason = crate::request_schema::describe(error.kind(), error.instance());
    report(sink, &inner, &node, &reason, at, what);
}

/// Reports `value` (the part `node` at `inner` of it) breaking its schema for `reason`.
fn report(sink: &mut Sink, inner: &str, node: &Node, reason: &str, at: &str, what: &str) {
    let place = if inner.is_empty() {
        String::new()
    } else {
        format!(" at `{inner}`")
    };
    let d = sink
        .diagnostic(
            Rule::ExampleMismatch,
            node.span,
            format!("this `{what}` value does not fit its schema{place}: {reason}"),
        )
        .with_pointer(format!("{at}{inner}"))
        .with_help("fix the value, or the schema if the value is what the system really sends");
    sink.push(d);
}

/// Whether `value` is a string holding the JSON object or array its schema expects.
fn written_as_json_text(schema: &Node, value: &Node) -> bool {
    let Some(text) = value.as_str() else {
        return false;
    };
    let expects = match schema.get("type").and_then(Node::as_str) {
        Some(kind) => matches!(kind, "object" | "array"),
        None => schema.get("properties").is_some() || schema.get("items").is_some(),
    };
    expects && syncdef_definitions::answer::json_text(text).is_some()
}

/// One finding for every value written as JSON text, at the first.
fn report_json_text(sink: &mut Sink, as_text: &[(Node, String)]) {
    let Some((first, at)) = as_text.first() else {
        return;
    };
    let message = match as_text.len() {
        1 => "this example is written as JSON text (a string holding JSON) where its schema expects an object or an array".to_owned(),
        n => format!("{n} examples are written as JSON text (a string holding JSON) where their schemas expect an object or an array; this is one of them"),
    };
    let d = sink
        .diagnostic(Rule::ExampleMismatch, first.span, message)
        .with_pointer(at.clone())
        .with_help("write the value itself (YAML or JSON, not a string) if you can edit the description; the dry-run reads such an example as the JSON it holds, so it needs no change to be used");
    sink.push(d);
}
