//! `UndeclaredScope`: a required scope is not declared by the scheme's flows.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports scopes listed in a security requirement that no flow of the OAuth2 scheme declares
    /// in its `scopes` map, with a did-you-mean.
///
    /// ## Why is this bad?
    /// The authorization server refuses (or silently drops) scopes the application did not
    /// register; tokens then lack the permission and calls fail with 403.
///
    /// ## Example
    /// ```yaml
    /// security:
    ///   - oauth2: [com.intuit.quickbooks.acounting]
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// security:
    ///   - oauth2: [com.intuit.quickbooks.accounting]
    /// ```
    pub struct UndeclaredScope {
        title: "a required scope is not declared by the scheme's flows",
        severity: Error,
    }
}
