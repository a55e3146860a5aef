//! `UnknownActionType`: an action's `type` is not `ApiPath` or `ApiSynchronization`.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports pre- and post-synchronization actions whose `type` is neither `ApiPath` (call an
    /// operation of the external system) nor `ApiSynchronization` (synchronize a child collection or
    /// another entry), with a did-you-mean.
///
    /// ## Why is this bad?
    /// The platform skips an action of unknown type; a concurrency token it should have fetched is
    /// then missing and the update is refused.
///
    /// ## Example
    /// ```yaml
    /// preSynchronizationAction:
    ///   SyncToken:
    ///     type: ApiCall
    ///     path: "/v3/company/{realmId}/customer/{IntegrationId}/get"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// preSynchronizationAction:
    ///   SyncToken:
    ///     type: ApiPath
    ///     path: "/v3/company/{realmId}/customer/{IntegrationId}/get"
    /// ```
    pub struct UnknownActionType {
        title: "an action's `type` is not `ApiPath` or `ApiSynchronization`",
        severity: Error,
    }
}
