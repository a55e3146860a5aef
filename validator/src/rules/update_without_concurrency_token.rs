//! `UpdateWithoutConcurrencyToken`: an update sends no concurrency token.

use syncdef_definitions::model::ActionIn;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;
use crate::templates::request_name;

declare_rule! {
    /// ## What it does
    /// Reports entries with an `update` operation whose `updateRequest` template does not read
    /// `$.syncToken` (or a `$.syncTokens.<name>`) and that have no `in: Header` pre-action (such as `If-Match`) either.
///
    /// ## Why is this bad?
    /// Systems with optimistic concurrency refuse updates without the current token (QuickBooks
    /// error 5010 "Stale Object Error", Business Central `BadRequest_InvalidToken`). Systems without
    /// concurrency control do not need it: set this rule to `off` for them in `syncdef.toml`.
///
    /// ## Example
    /// ```yaml
    /// push:
    ///   update: "/v3/company/{realmId}/customer/post"
    ///   schemasTransformer:
    ///     updateRequest: {Id: "#valueof($.externalId)", sparse: true}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// push:
    ///   update: "/v3/company/{realmId}/customer/post"
    ///   preSynchronizationAction:
    ///     SyncToken:
    ///       type: ApiPath
    ///       path: "/v3/company/{realmId}/customer/{IntegrationId}/get"
    ///       schema: {type: String, SyncToken: "Customer.SyncToken"}
    ///       in: Body
    ///   schemasTransformer:
    ///     updateRequest: {Id: "#valueof($.externalId)", SyncToken: "#valueof($.syncToken)", sparse: true}
    /// ```
    pub struct UpdateWithoutConcurrencyToken {
        title: "an update sends no concurrency token",
        severity: Warning,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        if info.operation("update").is_none() {
            continue;
        }
        // A missing template is SD401's finding.
        let Some(template) = info.template(&request_name("update")) else {
            continue;
        };
        let header_token = info.actions().any(|(pre, a)| {
            pre && matches!(
                a.placement.as_ref().map(|p| &p.value),
                Some(ActionIn::Header)
            )
        });
        if header_token
            || template.reads_root("syncToken")
            || template.reads_root("syncTokens")
            || !template.errors.is_empty()
        {
            continue;
        }
        let d = sink
            .diagnostic(Rule::UpdateWithoutConcurrencyToken, template.source.name.span, "`updateRequest` sends no concurrency token")
            .with_pointer(template.source.pointer.clone())
            .with_help("read the token with a `preSynchronizationAction` (`in: Body`) and send it, e.g. `SyncToken: \"#valueof($.syncToken)\"`; or send it as `If-Match` with an `in: Header` action");
        sink.push(d);
    }
}
