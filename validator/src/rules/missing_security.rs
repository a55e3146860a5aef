//! `MissingSecurity`: the document declares no security requirement.

use syncdef_definitions::operation_ref::HttpMethod;
use syncdef_definitions::{Node, Span};

use crate::codes::Rule;
use crate::context::{Context, Resolution, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports each operation the synchronization calls that has no security requirement: it
    /// declares no `security` of its own, and the document's top-level `security` is missing or
    /// empty. An operation's own `security` overrides the document's (OpenAPI 3.0, "Operation
    /// Object"), so a description that declares `security` on each operation, and none at the
    /// top, is complete; `security: []` on an operation says it needs no credentials. A
    /// document without a `synchronization` section is checked in full: one finding when any
    /// of its operations has neither.
///
    /// ## Why is this bad?
    /// The engine authenticates each request with the scheme its operation's requirement
    /// names, and the platform builds the integration's credentials page from the schemes the
    /// operations use. An operation without a requirement would be called without
    /// credentials, and refused (`401 Unauthorized`).
///
    /// ## Example
    /// ```yaml
    /// components:
    ///   securitySchemes:
    ///     bearerAuth: {type: http, scheme: bearer}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// components:
    ///   securitySchemes:
    ///     bearerAuth: {type: http, scheme: bearer}
    /// security:
    ///   - bearerAuth: []
    /// ```
    pub struct MissingSecurity {
        title: "the document declares no security requirement",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    let root = ctx.doc.root();
    if declares_requirement(root.get("security")) {
        return;
    }
    if ctx.doc.sync.is_none() {
        report_document(sink, &root);
        return;
    }
    // An operation's own `security` overrides the document's: each operation the
    // synchronization calls needs one of the two. Reported once per operation, where it is
    // first referenced.
    let mut reported = std::collections::HashSet::new();
    for info in &ctx.entries {
        for site in &info.operations {
            let Some(Resolution::Found { operation, .. }) = ctx.resolve(site) else {
                continue;
            };
            if operation.get("security").is_some() || !reported.insert(operation.span) {
                continue;
            }
            let d = sink
                .diagnostic(
                    Rule::MissingSecurity,
                    site.text.span,
                    format!(
                        "`{}` has no security requirement: the operation declares no `security`, and the document none",
                        site.text.value
                    ),
                )
                .with_pointer(site.pointer)
                .with_help("add a `security` to the operation, or a top-level `security` for every operation, listing a scheme of `components.securitySchemes` with the scopes it needs (`security: [{oauth: [accounting]}]`); `security: []` on the operation says it needs none");
            sink.push(d);
        }
    }
}

/// Whether a `security` value lists at least one requirement.
fn declares_requirement(security: Option<Node>) -> bool {
    security
        .and_then(Node::as_array)
        .is_some_and(|a| !a.is_empty())
}

/// A document without a synchronization section, linted in full: one finding, when an
/// operation has neither its own `security` nor the document's.
fn report_document(sink: &mut Sink, root: &Node) {
    let uncovered = root
        .get("paths")
        .and_then(Node::as_object)
        .unwrap_or_default()
        .iter()
        .flat_map(|path| path.value.as_object().unwrap_or_default())
        .filter(|op| {
            HttpMethod::from_lower(op.key.name).is_some() && op.value.get("security").is_none()
        })
        .count();
    if uncovered == 0 {
        return;
    }
    let (span, pointer) = match root.member("security") {
        Some(m) => (m.key.span, "/security"),
        // No key to point at: point at the start of the document's first key.
        None => (
            root.as_object()
                .and_then(|m| m.first())
                .map_or(Span::empty(0), |m| m.key.span),
            "",
        ),
    };
    let d = sink
        .diagnostic(
            Rule::MissingSecurity,
            span,
            format!("the document declares no security requirement, and {uncovered} of its operations declare none of their own"),
        )
        .with_pointer(pointer)
        .with_help("add a top-level `security` listing a scheme of `components.securitySchemes` with the scopes it needs (`security: [{oauth: [accounting]}]`), or a `security` on each operation");
    sink.push(d);
}
