//! `ForeignTemplateRoot`: a template reads a JSONPath root its module does not provide.

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::platform::{COMMON_ROOTS, module_by_root};
use crate::rule::declare_rule;
use crate::suggest::did_you_mean;
use crate::templates::is_request_template;

declare_rule! {
    /// ## What it does
    /// Reports JSONPath expressions whose root is not available to the template. Every template
    /// may read `$.serverVariables` and `$.externalId`; `$.syncToken` is checked by SD405,
    /// `$.syncTokens` and `$.related` by SD407; and each
    /// module provides its own record root: `$.account` for `Accounts`, `$.invoice` for `Invoices`,
    /// and so on (see docs/rules/README.md for the table). Response templates read the external
    /// system's answer, so their paths are not checked.
///
    /// ## Why is this bad?
    /// The record of another module is never handed to the template: `$.invoice.dueDate` in an
    /// `Accounts` entry is always empty, and the field it fills is sent blank.
///
    /// ## Example
    /// ```yaml
    /// Customer:
    ///   module: Accounts
    ///   push:
    ///     schemasTransformer:
    ///       createRequest: {DisplayName: "#valueof($.acount.name)"}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///       createRequest: {DisplayName: "#valueof($.account.name)"}
    /// ```
    pub struct ForeignTemplateRoot {
        title: "a template reads a JSONPath root its module does not provide",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        // Without a known module the allowed roots are unknown: SD601 reports the module.
        let Some(module) = info.module else { continue };
        for template in info
            .templates
            .iter()
            .filter(|t| is_request_template(t.name()))
        {
            for read in &template.reads {
                if module.record_roots().any(|r| r == read.root)
                    || COMMON_ROOTS.contains(&read.root.as_str())
                {
                    continue;
                }
                let allowed = module.record_roots().chain(COMMON_ROOTS.iter().copied());
                let help = match (
                    module_by_root(&read.root),
                    did_you_mean(&read.root, allowed),
                ) {
                    (_, Some(s)) => format!("did you mean `$.{s}`?"),
                    (Some(other), None) => format!(
                        "`$.{}` is the record of `{}` entries; `{}` entries read their record as `$.{}`",
                        other.root, other.name, module.name, module.root
                    ),
                    (None, None) => format!(
                        "templates of `{}` entries read `$.{}`, `$.serverVariables`, `$.externalId`, `$.syncToken`, `$.syncTokens` or `$.related`",
                        module.name, module.root
                    ),
                };
                let d = sink
                    .diagnostic(
                        Rule::ForeignTemplateRoot,
                        read.root_span,
                        format!(
                            "`$.{}` is not available to templates of `{}` entries",
                            read.root, module.name
                        ),
                    )
                    .with_pointer(template.source.pointer.clone())
                    .with_help(help);
                sink.push(d);
            }
        }
    }
}
