//! `UndeclaredServerVariable`: a template reads a server variable that no server declares.

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::suggest::hint;

declare_rule! {
    /// ## What it does
    /// Reports `$.serverVariables.<name>` in templates when no entry of `servers[].variables`
    /// declares `<name>`, with a did-you-mean among the declared variables.
///
    /// ## Why is this bad?
    /// Server variables are the per-instance settings of the integration (a company id, a tenant);
    /// an undeclared one has no settings field and no default, so the template always reads
    /// nothing.
///
    /// ## Example
    /// ```yaml
    /// servers:
    ///   - url: "https://quickbooks.api.intuit.com/v3/company/{realmId}"
    ///     variables:
    ///       realmId: {default: "0", description: QuickBooks company id}
    /// # ...
    /// createRequest: {CompanyId: "#valueof($.serverVariables.realmID)"}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// createRequest: {CompanyId: "#valueof($.serverVariables.realmId)"}
    /// ```
    pub struct UndeclaredServerVariable {
        title: "a template reads a server variable that no server declares",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for template in &info.templates {
            for read in template
                .reads
                .iter()
                .filter(|r| r.root == "serverVariables")
            {
                let (Some(name), Some(span)) = (&read.member, read.member_span) else {
                    continue;
                };
                if ctx.is_server_variable(name) {
                    continue;
                }
                let help = hint(name, ctx.server_variables.iter().copied()).unwrap_or_else(|| {
                    if ctx.server_variables.is_empty() {
                        format!("declare `{name}` under `servers[].variables` with a `default` and a `description`")
                    } else {
                        format!(
                            "declared variables: {}; or declare `{name}` under `servers[].variables`",
                            ctx.server_variables.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ")
                        )
                    }
                });
                let d = sink
                    .diagnostic(
                        Rule::UndeclaredServerVariable,
                        span,
                        format!("server variable `{name}` is not declared"),
                    )
                    .with_pointer(template.source.pointer.clone())
                    .with_help(help);
                sink.push(d);
            }
        }
    }
}
