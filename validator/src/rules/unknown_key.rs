//! `UnknownKey`: a key of the `synchronization` section is not one the format defines.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports keys of the `synchronization` section that the format does not define, with a
    /// did-you-mean when the key is close to a known one (`preSyncronizationAction`). Keys starting
    /// with `x-` are extensions and never reported.
///
    /// ## Why is this bad?
    /// A misspelt key is ignored by the platform: the action, template or path it holds silently
    /// never runs.
///
    /// ## Example
    /// ```yaml
    /// push:
    ///   create: "/v3/company/{realmId}/customer/post"
    ///   preSyncronizationAction:
    ///     SyncToken: {type: ApiPath, path: "/v3/company/{realmId}/customer/{IntegrationId}/get"}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// push:
    ///   create: "/v3/company/{realmId}/customer/post"
    ///   preSynchronizationAction:
    ///     SyncToken: {type: ApiPath, path: "/v3/company/{realmId}/customer/{IntegrationId}/get"}
    /// ```
    pub struct UnknownKey {
        title: "a key of the `synchronization` section is not one the format defines",
        severity: Warning,
    }
}
