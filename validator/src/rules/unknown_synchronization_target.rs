//! `UnknownSynchronizationTarget`: an `ApiSynchronization` action names neither a child collection nor an entry.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports `ApiSynchronization` actions whose `path` is neither a child collection of the
    /// entry's module (`InvoiceItems` for `Invoices`, `OrderItems` for `Orders`) nor an entry of the
    /// `synchronization` section, with a did-you-mean.
///
    /// ## Why is this bad?
    /// The platform cannot synchronize what it cannot find: the invoice is pushed without its
    /// lines, or before its customer exists in the external system.
///
    /// ## Example
    /// ```yaml
    /// Invoice:
    ///   module: Invoices
    ///   push:
    ///     preSynchronizationAction:
    ///       Customer: {type: ApiSynchronization, path: Custmer}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///       Customer: {type: ApiSynchronization, path: Customer}
    /// ```
    pub struct UnknownSynchronizationTarget {
        title: "an `ApiSynchronization` action names neither a child collection nor an entry",
        severity: Error,
    }
}
