//! `UnknownTemplateInput`: a template reads `$.related` or `$.syncTokens` under a name that
//! nothing supplies.

use syncdef_definitions::model::ActionIn;

use crate::codes::Rule;
use crate::context::{Context, EntryInfo, Sink};
use crate::rule::declare_rule;
use crate::suggest::hint;

declare_rule! {
    /// ## What it does
    /// Checks the two template inputs whose members depend on the definition:
    /// `$.related.<Entry>.IntegrationId`, the external id of a related record (the value
    /// `{<Entry>.IntegrationId}` puts in a path), where `<Entry>` must be an entry of the
    /// definition and `IntegrationId` the only field; and `$.syncTokens.<name>`, a value read by
    /// an `in: Body` pre-action of the same entry, where `<name>` must be a name its `schema`
    /// maps (`SyncToken: Customer.SyncToken` supplies `$.syncTokens.SyncToken`).
///
    /// ## Why is this bad?
    /// Nothing ever fills such a path, so the field it feeds is sent empty: an invoice without
    /// its customer reference, an update without its concurrency token. The external system
    /// refuses the push, or worse, accepts it with the field cleared.
///
    /// ## Example
    /// ```yaml
    /// Invoice:
    ///   module: Invoices
    ///   push:
    ///     schemasTransformer:
    ///       createRequest:
    ///         CustomerRef: {value: "#valueof($.related.Acount.IntegrationId)"}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///         CustomerRef: {value: "#valueof($.related.Account.IntegrationId)"}
    /// ```
    pub struct UnknownTemplateInput {
        title: "a template reads `$.related` or `$.syncTokens` under a name nothing supplies",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        let tokens = body_token_names(info);
        for template in &info.templates {
            for read in &template.reads {
                let (Some(member), Some(member_span)) = (&read.member, read.member_span) else {
                    continue;
                };
                let finding = match read.root.as_str() {
                    "related" => related(ctx, member, member_span, read.field.as_ref()),
                    "syncTokens" if !tokens.contains(&member.as_str()) => Some((
                        member_span,
                        format!("no `in: Body` pre-action of this entry supplies `$.syncTokens.{member}`"),
                        hint(member, tokens.iter().copied()).unwrap_or_else(|| {
                            if tokens.is_empty() {
                                "add a `preSynchronizationAction` with `in: Body` whose `schema` maps this name to a response field".to_owned()
                            } else {
                                format!(
                                    "the Body pre-actions supply {}",
                                    tokens.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")
                                )
                            }
                        }),
                    )),
                    _ => None,
                };
                if let Some((span, message, help)) = finding {
                    let d = sink
                        .diagnostic(Rule::UnknownTemplateInput, span, message)
                        .with_pointer(template.source.pointer.clone())
                        .with_help(help);
                    sink.push(d);
                }
            }
        }
    }
}

/// The finding for `$.related.<member>.<field>`, if any.
fn related(
    ctx: &Context,
    entry: &str,
    entry_span: syncdef_definitions::Span,
    field: Option<&(String, syncdef_definitions::Span)>,
) -> Option<(syncdef_definitions::Span, String, String)> {
    if !ctx.entry_names().any(|name| name == entry) {
        let help = hint(entry, ctx.entry_names()).unwrap_or_else(|| {
            format!(
                "`$.related` holds one member per entry of the definition: {}",
                ctx.entry_names()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        });
        return Some((
            entry_span,
            format!("`{entry}` is not an entry of this definition"),
            help,
        ));
    }
    match field {
        Some((name, span)) if name != "IntegrationId" => Some((
            *span,
            format!("`$.related.{entry}` has no `{name}`"),
            format!(
                "a related record is known by its external id only: read `$.related.{entry}.IntegrationId`"
            ),
        )),
        _ => None,
    }
}

/// Names the entry's `in: Body` pre-actions map, as `$.syncTokens` keys them.
fn body_token_names<'a>(info: &EntryInfo<'a>) -> Vec<&'a str> {
    info.actions()
        .filter(|(pre, action)| {
            *pre && matches!(
                action.placement.as_ref().map(|p| &p.value),
                Some(ActionIn::Body)
            )
        })
        .flat_map(|(_, action)| action.schema.iter().flat_map(|s| s.fields.iter()))
        .map(|field| field.name.value.as_str())
        .collect()
}
