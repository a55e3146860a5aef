//! `MissingTemplate`: an operation has no transformation template.

use crate::codes::Rule;
use crate::context::{Context, EntryInfo, OperationSite, Resolution, Sink, Template};
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
    /// `batchReadResponse`; and `{action}Request` for an `ApiPath` action whose operation's
    /// `requestBody` is `required`. A template whose name is a typo of a missing one (`createRequestX`,
    /// `createRespons`) is reported here, at the typo, as this error: the platform never applies
    /// it.
///
    /// ## Why is this bad?
    /// Without a request template the platform has no body to send: the engine refuses to send
    /// a create, update, delete or `ApiPath` action without a body to an operation whose
    /// `requestBody` is `required` (a configuration error, nothing sent). Without
    /// `createResponse` it never learns the external identifier, so later updates cannot
    /// address the record and a changed record is created again. There is no shape where a create needs no id: even an entry that only ever
    /// creates keeps the id to know the record was pushed; one written to the external system
    /// and forgotten can silence this finding with `x-syncdef-ignore: [SD401]` on its `create`.
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
        for missing in missing(ctx, info) {
            let Missing { site, name, typo } = missing;
            let op = site.key;
            let why = if crate::templates::is_request_template(&name) {
                "the body sent to the external system"
            } else {
                "what is read from the external system's answer"
            };
            let d = match typo {
                // The typo is where the fix goes: one finding there, an error, since the
                // platform never applies it (SD402 leaves it to this rule).
                Some(typo) => sink
                    .diagnostic(
                        Rule::MissingTemplate,
                        typo.source.name.span,
                        format!(
                            "`{op}` has no `{name}` template: `{}` is not it",
                            typo.name()
                        ),
                    )
                    .with_pointer(typo.source.pointer.clone())
                    .with_label(site.key_span, format!("`{op}` needs `{name}`"))
                    .with_help(format!("did you mean `{name}`? It gives {why}")),
                None => sink
                    .diagnostic(
                        Rule::MissingTemplate,
                        site.key_span,
                        format!("`{op}` has no `{name}` template"),
                    )
                    .with_pointer(site.pointer)
                    .with_help(format!(
                        "add `{name}` under `schemasTransformer`: it gives {why}"
                    )),
            };
            sink.push(d);
        }
    }
}

/// A template an operation needs and its entry lacks.
pub(crate) struct Missing<'c, 'a> {
    /// The operation that needs it.
    pub site: &'c OperationSite<'a>,
    /// Its name (`createRequest`).
    pub name: String,
    /// A template of the entry whose name is a typo of it (`createRequestX`).
    pub typo: Option<&'c Template<'a>>,
}

/// The templates the operations of `info` need and it lacks.
pub(crate) fn missing<'c, 'a>(ctx: &Context<'a>, info: &'c EntryInfo<'a>) -> Vec<Missing<'c, 'a>> {
    let mut out = Vec::new();
    for site in &info.operations {
        for name in needed(ctx, site) {
            if info.template(&name).is_none() {
                let typo = misspelt_as(info, &name);
                out.push(Missing { site, name, typo });
            }
        }
    }
    out
}

/// The templates the operation written at `site` needs.
fn needed(ctx: &Context, site: &OperationSite) -> Vec<String> {
    let Some(op) = site.operation else {
        // An action's call sends `{action}Request` when there is one, nothing otherwise.
        return if body_required(ctx, site) {
            vec![request_name(site.key)]
        } else {
            Vec::new()
        };
    };
    let Some(spec) = OPERATIONS.iter().find(|o| o.operation == op) else {
        return Vec::new();
    };
    [
        (spec.request, request_name(op)),
        (spec.response, response_name(op)),
    ]
    .into_iter()
    .filter(|(need, _)| match need {
        Need::Required => true,
        Need::Optional => false,
        Need::WhenBody => has_request_body(ctx, site),
    })
    .map(|(_, name)| name)
    .collect()
}

/// Whether the operation `site` names declares a `requestBody` that is `required`.
fn body_required(ctx: &Context, site: &OperationSite) -> bool {
    match ctx.resolve(site) {
        Some(Resolution::Found { operation, .. }) => {
            crate::request_schema::body_required(&ctx.doc.root(), &operation)
        }
        _ => false,
    }
}

/// Whether the operation a `delete` targets declares a request body.
fn has_request_body(ctx: &Context, site: &OperationSite) -> bool {
    match ctx.resolve(site) {
        Some(Resolution::Found { operation, .. }) => operation.get("requestBody").is_some(),
        _ => false,
    }
}

/// The template of `info` whose name is a typo of `name`, the format knowing no such name.
fn misspelt_as<'c, 'a>(info: &'c EntryInfo<'a>, name: &str) -> Option<&'c Template<'a>> {
    info.templates.iter().find(|t| {
        !crate::templates::known_names().any(|k| k == t.name())
            && did_you_mean(t.name(), [name]).is_some()
    })
}
