//! `UnknownModule`: `module` is not a platform module.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports entries whose `module` is not one of the platform's modules: `Accounts`, `Contacts`,
    /// `Orders`, `Invoices`, `Products`, `Payments`, `Cases`, `Subscriptions` (see
    /// docs/rules/README.md), with a did-you-mean.
///
    /// ## Why is this bad?
    /// The platform attaches entries to modules by name; an unknown module is never triggered, so
    /// nothing is ever synchronized.
///
    /// ## Example
    /// ```yaml
    /// Customer:
    ///   module: Account
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// Customer:
    ///   module: Accounts
    /// ```
    pub struct UnknownModule {
        title: "`module` is not a platform module",
        severity: Error,
    }
}
