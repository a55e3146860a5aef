//! `UnknownPlaceholderEntry`: `{<Entry>.IntegrationId}` names no entry of the section.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports `{<Entry>.IntegrationId}` placeholders whose entry is not a key of the
    /// `synchronization` section, with a did-you-mean among the entries.
///
    /// ## Why is this bad?
    /// The platform looks the identifier up among the records synchronized by that entry; with no
    /// such entry there is never a value and every call fails.
///
    /// ## Example
    /// ```yaml
    /// synchronization:
    ///   Customer:
    ///     module: Accounts
    ///   Invoice:
    ///     module: Invoices
    ///     push:
    ///       update: "/v3/company/{realmId}/invoice/{Custmer.IntegrationId}/post"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///       update: "/v3/company/{realmId}/invoice/{Customer.IntegrationId}/post"
    /// ```
    pub struct UnknownPlaceholderEntry {
        title: "`{<Entry>.IntegrationId}` names no entry of the section",
        severity: Error,
    }
}
