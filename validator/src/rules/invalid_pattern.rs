//! `InvalidPattern`: a schema's `pattern` is not a regular expression.

use std::collections::HashMap;

use serde_json::json;
use syncdef_definitions::Node;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports a schema `pattern` (and a `patternProperties` key) that does not compile as an
    /// ECMA-262 regular expression, the dialect OpenAPI and JSON Schema use. It is compiled
    /// the way the push engine compiles the schemas it checks request bodies against.
    ///
    /// It is a warning: JSON Schema says a pattern SHOULD be a valid regular expression. Where
    /// the engine checks request bodies against the schema, SD802 reports the schema that
    /// cannot compile as an error.
    ///
    /// ## Why is this bad?
    /// A validator cannot use the schema at all: some refuse the whole document, others skip
    /// the check, so values the pattern was meant to refuse reach the system. A pattern written
    /// for another dialect (`(?<name>` lookbehinds, `\Z`, possessive `a++`) often does not mean
    /// what it says in ECMA-262 either.
    ///
    /// ## Example
    /// ```yaml
    /// DocumentNumber:
    ///   type: string
    ///   pattern: "^[A-Z]{2-4}[0-9+$"
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// DocumentNumber:
    ///   type: string
    ///   pattern: "^[A-Z]{2,4}[0-9]+$"
    /// ```
    pub struct InvalidPattern {
        title: "a schema's `pattern` is not a regular expression",
        severity: Warning,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    // Descriptions repeat a few patterns many times (Microsoft Graph's 612 are 5 texts):
    // each text is compiled once.
    let mut compiles: HashMap<&str, bool> = HashMap::new();
    let mut compiles = |text| {
        *compiles
            .entry(text)
            .or_insert_with(|| compile(text).is_ok())
    };
    for schema in &ctx.openapi.schemas {
        if let Some(pattern) = schema.node.get("pattern") {
            let Some(text) = pattern.as_str() else {
                continue;
            };
            if !compiles(text) {
                report(
                    sink,
                    &pattern,
                    text,
                    format!("{}/pattern", ctx.openapi.pointer(schema.place)),
                );
            }
        }
        let keys = schema
            .node
            .get("patternProperties")
            .and_then(Node::as_object)
            .unwrap_or_default();
        for member in keys {
            if !compiles(member.key.name) {
                let at = format!(
                    "{}/patternProperties/{}",
                    ctx.openapi.pointer(schema.place),
                    syncdef_definitions::pointer::escape(member.key.name)
                );
                let key = Node::new(member.key.span, syncdef_definitions::NodeKind::Null);
                report(sink, &key, member.key.name, at);
            }
        }
    }
}

fn report(sink: &mut Sink, at: &Node, text: &str, pointer: String) {
    let d = sink
        .diagnostic(
            Rule::InvalidPattern,
            at.span,
            format!("pattern `{text}` does not compile as an ECMA-262 regular expression"),
        )
        .with_pointer(pointer)
        .with_help("fix the expression (JavaScript's regular expression syntax): close every group and class, and escape a literal `{`, `[` or `(` with `\\`");
    sink.push(d);
}

/// A validator of strings matching `pattern`, compiled by the JSON Schema validator the
/// engine uses (its message only repeats the pattern, so it is not kept).
pub(crate) fn compile(pattern: &str) -> Result<jsonschema::Validator, ()> {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&json!({ "type": "string", "pattern": pattern }))
        .map_err(drop)
}
