//! `UnusedParameterValue`: a value under `x-syncdef.parameters` that no called operation
//! declares, so that it is never sent.

use syncdef_definitions::extension::{EXTENSION_KEY, ParameterPlace};
use syncdef_definitions::openapi::OpenApi;
use syncdef_definitions::pointer;

use crate::codes::Rule;
use crate::context::{Context, Resolution, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports a header or query parameter given a value under `x-syncdef.parameters` that
    /// none of the operations the synchronization calls declares (in its own `parameters` or
    /// its path item's), with the name and place it is given under.
    ///
    /// ## Why is this bad?
    /// The engine sends a value only to the operations that declare the parameter: a name
    /// misspelt (`xero-tenantid`), or given under `query` for a header, is sent nowhere, and
    /// nothing else says so unless the parameter is required (SD304).
    ///
    /// ## Example
    /// ```yaml
    /// x-syncdef:
    ///   parameters:
    ///     query:
    ///       xero-tenant-id: "{tenantId}"   # the operations declare it `in: header`
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// x-syncdef:
    ///   parameters:
    ///     header:
    ///       xero-tenant-id: "{tenantId}"
    /// ```
    pub struct UnusedParameterValue {
        title: "a parameter value under `x-syncdef.parameters` that no called operation declares",
        severity: Warning,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    let Some(given) = &ctx.extension.parameters else {
        return;
    };
    let declared = declared_parameters(ctx);
    for (place, name, _) in given.iter() {
        if declared
            .iter()
            .any(|(at, declared)| *at == place && place.same_name(declared, name))
        {
            continue;
        }
        let at = pointer::join([EXTENSION_KEY, "parameters", place.key(), name]);
        let Some(span) = ctx.doc.root().pointer_key_span(&at) else {
            continue;
        };
        let elsewhere = declared
            .iter()
            .find(|(at, declared)| *at != place && at.same_name(declared, name));
        let help = match elsewhere {
            Some((at, _)) => format!(
                "the operations declare `{name}` as a {} parameter: give it under `x-syncdef.parameters.{}`",
                at.key(),
                at.key()
            ),
            None => format!(
                "check the name against the operations' `parameters` (`in: {}`), or remove it",
                place.key()
            ),
        };
        let d = sink
            .diagnostic(
                Rule::UnusedParameterValue,
                span,
                format!(
                    "no operation the synchronization calls declares the {} parameter `{name}`: this value is never sent",
                    place.key()
                ),
            )
            .with_pointer(at)
            .with_help(help);
        sink.push(d);
    }
}

/// The header and query parameters of every operation an entry calls.
fn declared_parameters<'a>(ctx: &Context<'a>) -> Vec<(ParameterPlace, &'a str)> {
    let api = OpenApi::new(ctx.doc.root());
    let mut out = Vec::new();
    for site in ctx.entries.iter().flat_map(|e| &e.operations) {
        if let Some(Resolution::Found {
            path, operation, ..
        }) = ctx.resolve(site)
        {
            out.extend(
                api.operation(operation)
                    .sent_parameters(Some(path.item))
                    .into_iter()
                    .map(|p| (p.place, p.name)),
            );
        }
    }
    out
}
