//! `UpdateNotSparse`: an update to a target that supports sparse updates is not marked sparse.

use syncdef_definitions::openapi::resolve;
use syncdef_definitions::{Node, NodeKind};

use crate::codes::Rule;
use crate::context::{Context, Resolution, Sink};
use crate::rule::declare_rule;
use crate::templates::request_name;

declare_rule! {
    /// ## What it does
    /// Reports `updateRequest` templates that do not set a top-level `sparse` to `true` when the
    /// update operation's request body schema declares a `sparse` property (QuickBooks Online does).
///
    /// ## Why is this bad?
    /// Without `"sparse": true` QuickBooks treats the update as a full replacement and sets every
    /// writable field the template does not send to NULL, erasing data in the external system.
///
    /// ## Example
    /// ```yaml
    /// updateRequest: {Id: "#valueof($.externalId)", SyncToken: "#valueof($.syncToken)", DisplayName: "#valueof($.account.name)"}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// updateRequest: {Id: "#valueof($.externalId)", SyncToken: "#valueof($.syncToken)", DisplayName: "#valueof($.account.name)", sparse: true}
    /// ```
    pub struct UpdateNotSparse {
        title: "an update to a target that supports sparse updates is not marked sparse",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        let Some(site) = info.operation("update") else {
            continue;
        };
        let Some(Resolution::Found { operation, .. }) = ctx.resolve(site) else {
            continue;
        };
        if !body_has_sparse(&ctx.doc.root(), &operation) {
            continue;
        }
        let Some(template) = info.template(&request_name("update")) else {
            continue;
        };
        let Some(tree) = &template.tree else { continue };
        let sparse = tree.root().member("sparse");
        let (span, message) = match sparse {
            Some(m) if matches!(m.value.kind, NodeKind::Bool(true)) => continue,
            Some(m) => (
                tree.node_span(ctx.text(), m.value.span),
                "`sparse` must be the boolean `true`".to_owned(),
            ),
            None => (
                template.source.name.span,
                "`updateRequest` does not mark the update as sparse".to_owned(),
            ),
        };
        let d = sink
            .diagnostic(Rule::UpdateNotSparse, span, message)
            .with_pointer(template.source.pointer.clone())
            .with_label(site.text.span, "this operation's request body has `sparse`")
            .with_help("add `\"sparse\": true` at the top level of the template, or the update replaces the whole record and clears every field it does not send");
        sink.push(d);
    }
}

/// Whether a JSON request body schema of `operation` declares a `sparse` property (directly,
/// through local `$ref`s or in an `allOf` part).
fn body_has_sparse(root: &Node, operation: &Node) -> bool {
    let Some(content) = resolve(*root, operation.get("requestBody"))
        .and_then(|b| b.get("content"))
        .and_then(Node::as_object)
    else {
        return false;
    };
    content
        .iter()
        .any(|media| schema_has(root, resolve(*root, media.value.get("schema")), 0))
}

fn schema_has(root: &Node, schema: Option<Node<'_>>, depth: u32) -> bool {
    let Some(schema) = schema else { return false };
    if depth > 16 {
        return false;
    }
    if schema
        .get("properties")
        .and_then(|p| p.get("sparse"))
        .is_some()
    {
        return true;
    }
    schema
        .get("allOf")
        .and_then(Node::as_array)
        .unwrap_or_default()
        .iter()
        .any(|part| schema_has(root, resolve(*root, Some(part)), depth + 1))
}
