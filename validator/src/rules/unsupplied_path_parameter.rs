//! `UnsuppliedPathParameter`: a path parameter of the target operation gets no value.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports operation references that copy a path parameter of the target (`{id}`) instead of
    /// supplying it with a literal, `{IntegrationId}`, `{<Entry>.IntegrationId}` or a server
    /// variable of the same name.
///
    /// ## Why is this bad?
    /// The platform fills only the placeholders it knows; `{id}` would be sent as is and the
    /// external system would answer 404 for every record.
///
    /// ## Example
    /// ```yaml
    /// paths:
    ///   /v3/company/{realmId}/customer/{id}:
    ///     get: {responses: {"200": {description: ok}}}
    /// synchronization:
    ///   Customer:
    ///     push:
    ///       preSynchronizationAction:
    ///         SyncToken:
    ///           type: ApiPath
    ///           path: "/v3/company/{realmId}/customer/{id}/get"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///           path: "/v3/company/{realmId}/customer/{IntegrationId}/get"
    /// ```
    pub struct UnsuppliedPathParameter {
        title: "a path parameter of the target operation gets no value",
        severity: Error,
    }
}
