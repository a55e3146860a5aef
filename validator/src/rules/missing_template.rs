//! `MissingTemplate`: an operation has no transformation template.

use crate::codes::Rule;
use crate::context::{Context, EntryInfo, Resolution, Sink};
use crate::rule::declare_rule;
use crate::suggest::did_you_mean;
use crate::templates::{Need, OPERATIONS, request_name, response_name};

declare_rule! {
    /// ## What it does
    /// Reports a push or pull operation whose template is missing from `schemasTransformer`.
    /// Templates are named after the operation: `{operation}Request` builds the body sent,
    /// `{operation}Response` reads the answer. Required are: `createRequest` and `createResponse`
    /// (the response gives the external identifier of the new record), `updateRequest`,
    /// `deleteRequest` when the delete operation declares a request body, `readResponse` and
    /// `batchReadResponse`.
///
    /// ## Why is this bad?
    /// Without a request template the platform has no body to send; without `createResponse` it
    /// never learns the external identifier, so later updates cannot address the record.
///
    /// ## Example
    /// ```yaml
    /// push:
    ///   create: "/v3/company/{realmId}/customer/post"
    ///   schemasTransformer:
    ///     createRequest: {DisplayName: "#valueof($.account.name)"}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// push:
    ///   create: "/v3/company/{realmId}/customer/post"
    ///   schemasTransformer:
    ///     createRequest: {DisplayName: "#valueof($.account.name)"}
    ///     createResponse: {id: "#valueof($.Customer.Id)"}
    /// ```
    pub struct MissingTemplate {
        title: "an operation has no transformation template",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for site in &info.operations {
            let Some(op) = site.operation else { continue };
            let Some(spec) = OPERATIONS.iter().find(|o| o.operation == op) else {
                continue;
            };
            for (need, is_request) in [(spec.request, true), (spec.response, false)] {
                let required = match need {
                    Need::Required => true,
                    Need::Optional => false,
                    Need::WhenBody => has_request_body(ctx, site),
                };
                let name = if is_request {
                    request_name(op)
                } else {
                    response_name(op)
                };
                if !required || info.template(&name).is_some() || misspelt_as(info, &name) {
                    continue;
                }
                let why = if is_request {
                    "the body sent to the external system"
                } else {
                    "what is read from the external system's answer"
                };
                let d = sink
                    .diagnostic(
                        Rule::MissingTemplate,
                        site.key_span,
                        format!("`{op}` has no `{name}` template"),
                    )
                    .with_pointer(site.pointer)
                    .with_help(format!(
                        "add `{name}` under `schemasTransformer`: it gives {why}"
                    ));
                sink.push(d);
            }
        }
    }
}

/// Whether the operation a `delete` targets declares a request body.
fn has_request_body(ctx: &Context, site: &crate::context::OperationSite) -> bool {
    match ctx.resolve(site) {
        Some(Resolution::Found { operation, .. }) => operation.get("requestBody").is_some(),
        _ => false,
    }
}

/// A template whose name is a typo of `name` is reported by SD402 with a did-you-mean; one
/// finding at the typo is better than two.
fn misspelt_as(info: &EntryInfo, name: &str) -> bool {
    info.templates.iter().any(|t| {
        !crate::templates::known_names().any(|k| k == t.name())
            && did_you_mean(t.name(), [name]).is_some()
    })
}
