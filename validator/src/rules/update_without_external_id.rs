//! `UpdateWithoutExternalId`: an update does not say which external record to change.

use syncdef_definitions::operation_ref::PlaceholderKind;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::templates::request_name;

declare_rule! {
    /// ## What it does
    /// Reports entries whose `update` operation reference has no `{IntegrationId}` placeholder and
    /// whose `updateRequest` template does not read `$.externalId`.
///
    /// ## Why is this bad?
    /// The external system must be told which record to update, in the URL or in the body; without
    /// it, the update creates a duplicate or is refused.
///
    /// ## Example
    /// ```yaml
    /// push:
    ///   update: "/v3/company/{realmId}/customer/post"
    ///   schemasTransformer:
    ///     updateRequest: {DisplayName: "#valueof($.account.name)", sparse: true}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///     updateRequest: {Id: "#valueof($.externalId)", DisplayName: "#valueof($.account.name)", sparse: true}
    /// ```
    pub struct UpdateWithoutExternalId {
        title: "an update does not say which external record to change",
        severity: Error,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        let Some(site) = info.operation("update") else {
            continue;
        };
        let Ok(parsed) = site.parsed else { continue };
        let Some(template) = info.template(&request_name("update")) else {
            continue;
        };
        let in_path = parsed
            .placeholders
            .iter()
            .any(|p| p.kind == PlaceholderKind::IntegrationId);
        if in_path || template.reads_root("externalId") || !template.errors.is_empty() {
            continue;
        }
        let d = sink
            .diagnostic(Rule::UpdateWithoutExternalId, template.source.name.span, "the update does not say which external record to change")
            .with_pointer(template.source.pointer.clone())
            .with_label(site.text.span, "no `{IntegrationId}` in the path either")
            .with_help("send the external identifier in the body (`Id: \"#valueof($.externalId)\"`) or put `{IntegrationId}` in the update path");
        sink.push(d);
    }
}
