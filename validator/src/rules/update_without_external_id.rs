//! `UpdateWithoutExternalId`: an update does not say which external record to change.

use crate::rule::declare_rule;

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
