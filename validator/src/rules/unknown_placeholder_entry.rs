//! `UnknownPlaceholderEntry`: `{<Entry>.IntegrationId}` names no entry of the section.

use syncdef_definitions::operation_ref::PlaceholderKind;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::suggest::hint;

declare_rule! {
    /// ## What it does
    /// Reports `{<Entry>.IntegrationId}` placeholders whose entry is not a key of the
    /// `synchronization` section, with a did-you-mean among the entries.
///
    /// ## Why is this bad?
    /// The platform looks the identifier up among the records synchronized by that entry; with no
    /// such entry there is never a value and every call fails.
///
    /// ## Example
    /// ```yaml
    /// synchronization:
    ///   Customer:
    ///     module: Accounts
    ///   Invoice:
    ///     module: Invoices
    ///     push:
    ///       update: "/v3/company/{realmId}/invoice/{Custmer.IntegrationId}/post"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///       update: "/v3/company/{realmId}/invoice/{Customer.IntegrationId}/post"
    /// ```
    pub struct UnknownPlaceholderEntry {
        title: "`{<Entry>.IntegrationId}` names no entry of the section",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for site in &info.operations {
            let Ok(parsed) = site.parsed else { continue };
            for placeholder in &parsed.placeholders {
                let PlaceholderKind::EntryIntegrationId { entry } = &placeholder.kind else {
                    continue;
                };
                if ctx.entry_names().any(|n| n == entry) {
                    continue;
                }
                // Point at the entry name, after the `{`.
                let start = placeholder.range.start + 1;
                let span = ctx.span_in(site.text, start..start + entry.len());
                let help = hint(entry, ctx.entry_names()).unwrap_or_else(|| {
                    format!(
                        "`{{<Entry>.IntegrationId}}` names an entry of `synchronization`: {}",
                        ctx.entry_names()
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                });
                let d = sink
                    .diagnostic(
                        Rule::UnknownPlaceholderEntry,
                        span,
                        format!("`{entry}` is not an entry of the `synchronization` section"),
                    )
                    .with_pointer(site.pointer)
                    .with_help(help);
                sink.push(d);
            }
        }
    }
}
