//! `InvalidSyncStructure`: the `synchronization` section does not have the documented shape.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports members of the `synchronization` section with the wrong type or missing where they
    /// are required: an entry that is not an object, an entry without `module` or without `push` and
    /// `pull`, an operation reference that is not a string, a template that is neither an object nor
    /// a string of JSON, an action without `type` or `path`.
///
    /// ## Why is this bad?
    /// The platform ignores or rejects an entry it cannot read, so the records of that module are
    /// never synchronized, with no error at run time to tell why.
///
    /// ## Example
    /// ```yaml
    /// synchronization:
    ///   Customer:
    ///     module: Accounts
    ///     push:
    ///       create: ["/v3/company/{realmId}/customer/post"]
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// synchronization:
    ///   Customer:
    ///     module: Accounts
    ///     push:
    ///       create: "/v3/company/{realmId}/customer/post"
    /// ```
    pub struct InvalidSyncStructure {
        title: "the `synchronization` section does not have the documented shape",
        severity: Error,
    }
}
