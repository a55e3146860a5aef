//! `UnknownPlaceholder`: a placeholder is not `{IntegrationId}`, `{<Entry>.IntegrationId}` or a server variable.

use syncdef_definitions::operation_ref::PlaceholderKind;

use crate::codes::Rule;
use crate::context::{Context, Resolution, Sink};
use crate::rule::declare_rule;
use crate::suggest::did_you_mean;

declare_rule! {
    /// ## What it does
    /// Reports placeholders in operation references that the platform cannot fill. The platform
    /// knows `{IntegrationId}` (the external identifier of the record being pushed),
    /// `{<Entry>.IntegrationId}` (the external identifier of a record of another entry, such as
    /// `{Account.IntegrationId}`), and the server variables declared under `servers[].variables`.
///
    /// ## Why is this bad?
    /// An unknown placeholder is sent literally (`/customer/{CustomerId}`), so the call fails for
    /// every record.
///
    /// ## Example
    /// ```yaml
    /// preSynchronizationAction:
    ///   SyncToken:
    ///     type: ApiPath
    ///     path: "/v3/company/{realmId}/customer/{CustomerId}/get"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// preSynchronizationAction:
    ///   SyncToken:
    ///     type: ApiPath
    ///     path: "/v3/company/{realmId}/customer/{IntegrationId}/get"
    /// ```
    pub struct UnknownPlaceholder {
        title: "a placeholder is not `{IntegrationId}`, `{<Entry>.IntegrationId}` or a server variable",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for site in &info.operations {
            // On an unresolved reference SD202 is the finding; placeholders are judged against
            // the path they fill.
            let (Some(Resolution::Found { bindings, .. }), Ok(parsed)) =
                (ctx.resolve(site), site.parsed)
            else {
                continue;
            };
            for placeholder in &parsed.placeholders {
                if placeholder.kind != PlaceholderKind::Name
                    || ctx.is_server_variable(&placeholder.name)
                {
                    continue;
                }
                // A placeholder that copies the parameter it fills is SD303's finding.
                let copies_param = bindings
                    .iter()
                    .any(|b| b.range == placeholder.range && b.param == placeholder.name);
                if copies_param {
                    continue;
                }
                let name = &placeholder.name;
                let known = ["IntegrationId".to_owned()]
                    .into_iter()
                    .chain(ctx.entry_names().map(|e| format!("{e}.IntegrationId")))
                    .chain(ctx.server_variables.iter().map(|v| (*v).to_owned()));
                let help = match did_you_mean(name, known) {
                    Some(s) => format!("did you mean `{{{s}}}`?"),
                    None => "use `{IntegrationId}`, `{<Entry>.IntegrationId}` or a variable declared under `servers[].variables`".to_owned(),
                };
                let d = sink
                    .diagnostic(
                        Rule::UnknownPlaceholder,
                        ctx.span_in(site.text, placeholder.range.clone()),
                        format!("unknown placeholder `{{{name}}}`"),
                    )
                    .with_pointer(site.pointer)
                    .with_help(help);
                sink.push(d);
            }
        }
    }
}
