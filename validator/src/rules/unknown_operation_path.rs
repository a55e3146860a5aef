//! `UnknownOperationPath`: an operation reference matches no path of `paths`.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports operation references whose path matches no path template under `paths`. A reference
    /// matches a template segment by segment: literal segments must be equal, a template parameter
    /// (`{id}`) accepts a literal or a placeholder, and OData key segments
    /// (`SalesInvoice(No='{IntegrationId}',Document_Type='Invoice')`) match key by key. The help names
    /// the closest path.
///
    /// ## Why is this bad?
    /// The platform can only call operations the OpenAPI part describes; a reference to an
    /// undescribed path fails on every record pushed.
///
    /// ## Example
    /// ```yaml
    /// paths:
    ///   /v3/company/{realmId}/customer:
    ///     post: {responses: {"200": {description: ok}}}
    /// synchronization:
    ///   Customer:
    ///     module: Accounts
    ///     push:
    ///       create: "/v3/company/{realmId}/customers/post"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///     push:
    ///       create: "/v3/company/{realmId}/customer/post"
    /// ```
    pub struct UnknownOperationPath {
        title: "an operation reference matches no path of `paths`",
        severity: Error,
    }
}
