//! `UnknownPlaceholder`: a placeholder is not `{IntegrationId}`, `{<Entry>.IntegrationId}` or a server variable.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports placeholders in operation references that the platform cannot fill. The platform
    /// knows `{IntegrationId}` (the external identifier of the record being pushed),
    /// `{<Entry>.IntegrationId}` (the external identifier of a record of another entry, such as
    /// `{Account.IntegrationId}`), and the server variables declared under `servers[].variables`.
///
    /// ## Why is this bad?
    /// An unknown placeholder is sent literally (`/customer/{CustomerId}`), so the call fails for
    /// every record.
///
    /// ## Example
    /// ```yaml
    /// preSynchronizationAction:
    ///   SyncToken:
    ///     type: ApiPath
    ///     path: "/v3/company/{realmId}/customer/{CustomerId}/get"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// preSynchronizationAction:
    ///   SyncToken:
    ///     type: ApiPath
    ///     path: "/v3/company/{realmId}/customer/{IntegrationId}/get"
    /// ```
    pub struct UnknownPlaceholder {
        title: "a placeholder is not `{IntegrationId}`, `{<Entry>.IntegrationId}` or a server variable",
        severity: Error,
    }
}
