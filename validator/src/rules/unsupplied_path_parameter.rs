//! `UnsuppliedPathParameter`: a path parameter of the target operation gets no value.

use crate::codes::Rule;
use crate::context::{Context, Resolution, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports operation references that copy a path parameter of the target (`{id}`) instead of
    /// supplying it with a literal, `{IntegrationId}`, `{<Entry>.IntegrationId}` or a server
    /// variable of the same name.
///
    /// ## Why is this bad?
    /// The platform fills only the placeholders it knows; `{id}` would be sent as is and the
    /// external system would answer 404 for every record.
///
    /// ## Example
    /// ```yaml
    /// paths:
    ///   /v3/company/{realmId}/customer/{id}:
    ///     get: {responses: {"200": {description: ok}}}
    /// synchronization:
    ///   Customer:
    ///     push:
    ///       preSynchronizationAction:
    ///         SyncToken:
    ///           type: ApiPath
    ///           path: "/v3/company/{realmId}/customer/{id}/get"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///           path: "/v3/company/{realmId}/customer/{IntegrationId}/get"
    /// ```
    pub struct UnsuppliedPathParameter {
        title: "a path parameter of the target operation gets no value",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for site in &info.operations {
            let (Some(Resolution::Found { path, bindings, .. }), Ok(parsed)) =
                (ctx.resolve(site), site.parsed)
            else {
                continue;
            };
            for binding in &bindings {
                let filler = site.text.value.get(binding.range.clone()).unwrap_or("");
                let copied = filler == format!("{{{}}}", binding.param);
                // A parameter named like a placeholder (the vendor writes
                // `/customer/{IntegrationId}` in `paths`) is filled by that placeholder.
                if !copied || ctx.is_server_variable(binding.param) || is_placeholder(binding.param)
                {
                    continue;
                }
                let d = sink
                    .diagnostic(
                        Rule::UnsuppliedPathParameter,
                        ctx.span_in(site.text, binding.range.clone()),
                        format!("path parameter `{{{}}}` of `{} {}` gets no value", binding.param, parsed.method.as_str().to_uppercase(), path.template),
                    )
                    .with_pointer(site.pointer)
                    .with_span_label("copied from the path template")
                    .with_help(format!(
                        "fill it with `{{IntegrationId}}`, `{{<Entry>.IntegrationId}}`, a literal value, or declare `{}` under `servers[].variables`",
                        binding.param
                    ));
                sink.push(d);
            }
        }
    }
}

/// Whether a path parameter is named like a placeholder the engine fills: `IntegrationId`, or
/// `<Entry>.IntegrationId` (an unknown entry is SD302's to report).
fn is_placeholder(param: &str) -> bool {
    param == "IntegrationId"
        || param
            .strip_suffix(".IntegrationId")
            .is_some_and(|entry| !entry.is_empty() && !entry.contains('.'))
}
