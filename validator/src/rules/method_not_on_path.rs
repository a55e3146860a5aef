//! `MethodNotOnPath`: the path exists but has no operation for that method.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports operation references whose path matches a path of `paths` that has no operation for
    /// the referenced method, and lists the methods it has.
///
    /// ## Why is this bad?
    /// The external system answers an undescribed method with 404 or 405, and the request and
    /// response cannot be checked against a schema.
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
    ///       update: "/v3/company/{realmId}/customer/put"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///     push:
    ///       update: "/v3/company/{realmId}/customer/post"
    /// ```
    pub struct MethodNotOnPath {
        title: "the path exists but has no operation for that method",
        severity: Error,
    }
}
