//! `MalformedOperationRef`: an operation reference is not `/path/method`.

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports operation references (`push.create`, `push.update`, `push.delete`, `pull.read`,
    /// `pull.batchRead`, and `path` of `ApiPath` actions) that are not a path followed by a slash
    /// and a lower-case HTTP method: a missing method, an unknown or upper-case method, a path that
    /// does not start with `/`, or an unclosed `{` placeholder.
///
    /// ## Why is this bad?
    /// The platform splits the reference at its last `/` to find the HTTP method; a reference
    /// without one is sent to the wrong URL with the wrong method, or not at all.
///
    /// ## Example
    /// ```yaml
    /// push:
    ///   create: "/v3/company/{realmId}/customer"
    ///   update: "/v3/company/{realmId}/customer/POST"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// push:
    ///   create: "/v3/company/{realmId}/customer/post"
    ///   update: "/v3/company/{realmId}/customer/post"
    /// ```
    pub struct MalformedOperationRef {
        title: "an operation reference is not `/path/method`",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for site in &info.operations {
            let Err(error) = site.parsed else { continue };
            let d = sink
                .diagnostic(
                    Rule::MalformedOperationRef,
                    ctx.span_in(site.text, error.range.clone()),
                    error.message.clone(),
                )
                .with_pointer(site.pointer)
                .with_help(error.help.clone());
            sink.push(d);
        }
    }
}
