//! `IncompleteOauthFlow`: an OAuth2 authorization code flow lacks a URL or its scopes.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports OAuth2 security schemes whose `authorizationCode` flow lacks `authorizationUrl`,
    /// `tokenUrl` or `scopes`, or whose URLs are not absolute `https` URLs.
///
    /// ## Why is this bad?
    /// The platform sends users to `authorizationUrl` to grant access and exchanges the code at
    /// `tokenUrl`; without either, the integration can never be authorized.
///
    /// ## Example
    /// ```yaml
    /// oauth2:
    ///   type: oauth2
    ///   flows:
    ///     authorizationCode:
    ///       authorizationUrl: https://appcenter.intuit.com/connect/oauth2
    ///       scopes: {com.intuit.quickbooks.accounting: Accounting}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// oauth2:
    ///   type: oauth2
    ///   flows:
    ///     authorizationCode:
    ///       authorizationUrl: https://appcenter.intuit.com/connect/oauth2
    ///       tokenUrl: https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer
    ///       scopes: {com.intuit.quickbooks.accounting: Accounting}
    /// ```
    pub struct IncompleteOauthFlow {
        title: "an OAuth2 authorization code flow lacks a URL or its scopes",
        severity: Error,
    }
}
