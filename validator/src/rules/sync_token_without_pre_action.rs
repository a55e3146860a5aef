//! `SyncTokenWithoutPreAction`: a template reads `$.syncToken` but no pre-action supplies it.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports templates reading `$.syncToken` in an entry that has no `preSynchronizationAction`
    /// placing a value in the body (`in: Body`). The token is the value such an action reads from
    /// the external record before the push.
///
    /// ## Why is this bad?
    /// Without the action the token is always empty, and systems with optimistic concurrency
    /// (QuickBooks `SyncToken`, Business Central `@odata.etag`) refuse every update.
///
    /// ## Example
    /// ```yaml
    /// push:
    ///   update: "/v3/company/{realmId}/customer/post"
    ///   schemasTransformer:
    ///     updateRequest: {Id: "#valueof($.externalId)", SyncToken: "#valueof($.syncToken)", sparse: true}
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
    pub struct SyncTokenWithoutPreAction {
        title: "a template reads `$.syncToken` but no pre-action supplies it",
        severity: Error,
    }
}
