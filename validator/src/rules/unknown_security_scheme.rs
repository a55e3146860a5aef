//! `UnknownSecurityScheme`: `security` names a scheme that `components.securitySchemes` does not define.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports security requirements (top-level `security` or an operation's `security`) naming a
    /// scheme absent from `components.securitySchemes`, with a did-you-mean.
///
    /// ## Why is this bad?
    /// The platform builds the settings page of the integration (client id, secret, tokens) from
    /// the scheme; an undefined scheme leaves requests unauthenticated and every call is refused
    /// with 401.
///
    /// ## Example
    /// ```yaml
    /// components:
    ///   securitySchemes:
    ///     oauth2: {type: oauth2, flows: {...}}
    /// security:
    ///   - OAuth2: [com.intuit.quickbooks.accounting]
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// security:
    ///   - oauth2: [com.intuit.quickbooks.accounting]
    /// ```
    pub struct UnknownSecurityScheme {
        title: "`security` names a scheme that `components.securitySchemes` does not define",
        severity: Error,
    }
}
