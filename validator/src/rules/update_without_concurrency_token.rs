//! `UpdateWithoutConcurrencyToken`: an update sends no concurrency token.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports entries with an `update` operation whose `updateRequest` template does not read
    /// `$.syncToken` and that have no `in: Header` pre-action (such as `If-Match`) either.
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
