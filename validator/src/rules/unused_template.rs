//! `UnusedTemplate`: a template is used by no operation of its entry.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports templates of `schemasTransformer` that no operation of the entry uses: a name that
    /// is not `{operation}Request` or `{operation}Response` for an operation the entry declares,
    /// often a typo (`updateRequst`) or a leftover of a removed operation.
///
    /// ## Why is this bad?
    /// The platform ignores the template, so the mapping it holds silently never applies; if it is
    /// a typo, the operation it was meant for has no template at all.
///
    /// ## Example
    /// ```yaml
    /// push:
    ///   create: "/v3/company/{realmId}/customer/post"
    ///   schemasTransformer:
    ///     createRequest: {DisplayName: "#valueof($.account.name)"}
    ///     createResponse: {id: "#valueof($.Customer.Id)"}
    ///     updateRequest: {sparse: true}
    /// ```
///
    /// ## Use instead
    /// Declare the operation the template is for, or delete the template:
    ///
    /// ```yaml
    /// push:
    ///   create: "/v3/company/{realmId}/customer/post"
    ///   update: "/v3/company/{realmId}/customer/post"
    ///   schemasTransformer:
    ///     createRequest: {DisplayName: "#valueof($.account.name)"}
    ///     createResponse: {id: "#valueof($.Customer.Id)"}
    ///     updateRequest: {sparse: true, Id: "#valueof($.externalId)", SyncToken: "#valueof($.syncToken)"}
    /// ```
    pub struct UnusedTemplate {
        title: "a template is used by no operation of its entry",
        severity: Warning,
    }
}
