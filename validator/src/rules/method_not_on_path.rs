//! `MethodNotOnPath`: the path exists but has no operation for that method.

use crate::codes::Rule;
use crate::context::{Context, Resolution, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports operation references whose path matches a path of `paths` that has no operation for
    /// the referenced method, and lists the methods it has.
///
    /// ## Why is this bad?
    /// The external system answers an undescribed method with 404 or 405, and the request and
    /// response cannot be checked against a schema.
///
    /// ## Example
    /// ```yaml
    /// paths:
    ///   /v3/company/{realmId}/customer:
    ///     post: {responses: {"200": {description: ok}}}
    /// synchronization:
    ///   Customer:
    ///     module: Accounts
    ///     push:
    ///       update: "/v3/company/{realmId}/customer/put"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///     push:
    ///       update: "/v3/company/{realmId}/customer/post"
    /// ```
    pub struct MethodNotOnPath {
        title: "the path exists but has no operation for that method",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for site in &info.operations {
            let (Some(Resolution::MethodMissing { path }), Ok(parsed)) =
                (ctx.resolve(site), site.parsed)
            else {
                continue;
            };
            let methods = path.methods();
            let help = match methods.as_slice() {
                [] => format!(
                    "`{}` declares no operation; add `{}` to it",
                    path.template, parsed.method
                ),
                _ => format!(
                    "`{}` has {}; use one of them or add `{}` to the path",
                    path.template,
                    methods
                        .iter()
                        .map(|m| format!("`{m}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    parsed.method
                ),
            };
            let d = sink
                .diagnostic(
                    Rule::MethodNotOnPath,
                    ctx.span_in(site.text, parsed.method_range.clone()),
                    format!("`{}` has no `{}` operation", path.template, parsed.method),
                )
                .with_pointer(site.pointer)
                .with_label(path.key_span, "the path is declared here")
                .with_help(help);
            sink.push(d);
        }
    }
}
