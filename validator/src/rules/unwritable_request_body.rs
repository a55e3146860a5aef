//! `UnwritableRequestBody`: an operation a request template feeds declares its request body
//! in no media type the engine writes.

use syncdef_definitions::Node;
use syncdef_definitions::openapi::{json_content, resolve};

use crate::codes::Rule;
use crate::context::{Context, Resolution, Sink};
use crate::rule::declare_rule;
use crate::templates::request_name;

declare_rule! {
    /// ## What it does
    /// Reports a `create`, `update` or `delete` whose request template renders a body, when the
    /// operation's `requestBody` lists media types and none of them is JSON
    /// (`application/json`, or a `+json` type such as `application/merge-patch+json`).
    ///
    /// ## Why is this bad?
    /// The engine writes the body the template renders as JSON. An operation that declares only
    /// `text/plain` or `application/xml` would be sent a JSON body it says it does not take, and
    /// every push would be refused (`415 Unsupported Media Type`), or its body misread.
    ///
    /// ## Example
    /// ```yaml
    /// /customers/post:
    ///   requestBody:
    ///     content:
    ///       text/plain:
    ///         schema: {type: string}
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    ///   requestBody:
    ///     content:
    ///       application/json:
    ///         schema: {$ref: "#/components/schemas/Customer"}
    /// ```
    pub struct UnwritableRequestBody {
        title: "an operation a request template feeds takes its body in no media type the engine writes",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    let root = ctx.doc.root();
    for info in &ctx.entries {
        for site in &info.operations {
            let Some(op) = site.operation else { continue };
            if info.template(&request_name(op)).is_none() {
                continue;
            }
            let Some(Resolution::Found { operation, .. }) = ctx.resolve(site) else {
                continue;
            };
            let Some(declared) = declared_media_types(root, operation) else {
                continue;
            };
            // The engine's own choice of the media type it writes.
            let body = operation.get("requestBody");
            if body.is_some_and(|body| json_content(root, body).is_some()) {
                continue;
            }
            let list = declared
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ");
            let d = sink
                .diagnostic(
                    Rule::UnwritableRequestBody,
                    site.text.span,
                    format!(
                        "`{}` takes its request body as {list}, but the engine writes the body `{}` renders as JSON",
                        site.text.value,
                        request_name(op)
                    ),
                )
                .with_pointer(site.pointer)
                .with_help("declare the JSON media type the external system accepts (`application/json`) in the operation's `requestBody.content`, or point the entry at an operation that takes JSON");
            sink.push(d);
        }
    }
}

/// The media types of the operation's request body; `None` when it declares none (then there
/// is nothing to compare with).
fn declared_media_types<'n>(root: Node<'n>, operation: Node<'n>) -> Option<Vec<&'n str>> {
    let body = resolve(root, operation.get("requestBody"))?;
    let content = body.get("content")?.as_object()?;
    let names: Vec<&str> = content.iter().map(|m| m.key.name).collect();
    (!names.is_empty()).then_some(names)
}
