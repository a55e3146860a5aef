//! `MissingSecurity`: the document declares no security requirement.

use syncdef_definitions::Span;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports definitions whose document has no top-level `security` requirement, or an empty
    /// one.
///
    /// ## Why is this bad?
    /// The platform requires at least one security scheme listed under `security` to build the
    /// credentials page of the integration; without it the definition cannot be installed.
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
    let root = &ctx.doc.root();
    let (span, pointer) = match root.member("security") {
        Some(m) if m.value.as_array().is_some_and(|a| !a.is_empty()) => return,
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
        .diagnostic(Rule::MissingSecurity, span, "the document declares no security requirement")
        .with_pointer(pointer)
        .with_help("add a top-level `security` listing a scheme of `components.securitySchemes`, e.g. `security: [{oauth2: [com.intuit.quickbooks.accounting]}]`");
    sink.push(d);
}
