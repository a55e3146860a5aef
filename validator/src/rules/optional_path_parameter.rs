//! `OptionalPathParameter`: an `in: path` parameter without `required: true`.

use syncdef_definitions::Node;

use crate::codes::Rule;
use crate::context::{Context, HolderKind, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports an `in: path` parameter that does not say `required: true`: one that says
    /// `required: false`, or says nothing (the default is `false`).
    ///
    /// ## Why is this bad?
    /// OpenAPI says a path parameter MUST have `required: true`: a path cannot be called with
    /// a hole in it. Validators refuse the document, and generated clients make the value
    /// optional, then call `/customers/` when it is missing.
    ///
    /// ## Example
    /// ```yaml
    /// parameters:
    ///   - {name: customerId, in: path, schema: {type: string}}
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// parameters:
    ///   - {name: customerId, in: path, required: true, schema: {type: string}}
    /// ```
    pub struct OptionalPathParameter {
        title: "a path parameter without `required: true`",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for holder in &ctx.openapi.holders {
        let parameter = holder.node;
        if holder.kind != HolderKind::Parameter
            || parameter.get("in").and_then(Node::as_str) != Some("path")
        {
            continue;
        }
        let name = parameter.get("name").and_then(Node::as_str).unwrap_or("?");
        let (span, pointer, what) = match parameter.member("required") {
            Some(m) if m.value.as_bool() == Some(true) => continue,
            Some(m) => (
                m.value.span,
                format!("{}/required", ctx.openapi.pointer(holder.place)),
                "says `required: false`",
            ),
            None => {
                let at = parameter
                    .member("in")
                    .map_or(parameter.span, |m| m.key.span);
                (
                    at,
                    ctx.openapi.pointer(holder.place),
                    "has no `required: true`",
                )
            }
        };
        let d = sink
            .diagnostic(
                Rule::OptionalPathParameter,
                span,
                format!("path parameter `{name}` {what}; a path parameter is always required"),
            )
            .with_pointer(pointer)
            .with_help("add `required: true` to the parameter");
        sink.push(d);
    }
}
