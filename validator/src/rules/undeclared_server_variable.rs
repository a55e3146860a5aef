//! `UndeclaredServerVariable`: a template reads a server variable that no server declares.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports `$.serverVariables.<name>` in templates when no entry of `servers[].variables`
    /// declares `<name>`, with a did-you-mean among the declared variables.
///
    /// ## Why is this bad?
    /// Server variables are the per-instance settings of the integration (a company id, a tenant);
    /// an undeclared one has no settings field and no default, so the template always reads
    /// nothing.
///
    /// ## Example
    /// ```yaml
    /// servers:
    ///   - url: "https://quickbooks.api.intuit.com/v3/company/{realmId}"
    ///     variables:
    ///       realmId: {default: "0", description: QuickBooks company id}
    /// # ...
    /// createRequest: {CompanyId: "#valueof($.serverVariables.realmID)"}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// createRequest: {CompanyId: "#valueof($.serverVariables.realmId)"}
    /// ```
    pub struct UndeclaredServerVariable {
        title: "a template reads a server variable that no server declares",
        severity: Error,
    }
}
