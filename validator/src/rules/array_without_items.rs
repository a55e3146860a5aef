//! `ArrayWithoutItems`: an OpenAPI 3.0 schema of `type: array` has no `items`.

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports a schema of an OpenAPI 3.0 document that says `type: array` and has no `items`.
    /// OpenAPI 3.0 requires it: "`items` MUST be present if the `type` is `array`" (its
    /// Schema Object). OpenAPI 3.1 schemas are JSON Schema 2020-12, where `items` is optional,
    /// and are not reported.
    ///
    /// ## Why is this bad?
    /// Tools that follow the 3.0 specification refuse the document, or each read the array
    /// differently: a code generator makes a list of nothing, a validator takes any item. The
    /// request bodies a template writes are checked against these schemas, and an array whose
    /// items are unknown proves nothing about them.
    ///
    /// ## Example
    /// ```yaml
    /// Customer:
    ///   type: object
    ///   properties:
    ///     Tags:
    ///       type: array
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// Customer:
    ///   type: object
    ///   properties:
    ///     Tags:
    ///       type: array
    ///       items: {type: string}
    /// ```
    pub struct ArrayWithoutItems {
        title: "an OpenAPI 3.0 schema of `type: array` has no `items`",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    let version = ctx
        .doc
        .root()
        .get("openapi")
        .and_then(syncdef_definitions::Node::as_str);
    if !version.is_some_and(|v| v.starts_with("3.0")) {
        return;
    }
    for schema in &ctx.openapi.schemas {
        let Some(kind) = schema.node.get("type") else {
            continue;
        };
        if kind.as_str() != Some("array") || schema.node.get("items").is_some() {
            continue;
        }
        let d = sink
            .diagnostic(
                Rule::ArrayWithoutItems,
                kind.span,
                "this schema is an array without `items`, which OpenAPI 3.0 requires",
            )
            .with_pointer(format!("{}/type", ctx.openapi.pointer(schema.place)))
            .with_help("say what the items are: `items: {type: string}`, a `$ref`, or `items: {}` for any value");
        sink.push(d);
    }
}
