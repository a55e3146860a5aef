//! `EntryDependencyCycle`: entries synchronize each other in a cycle.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports entries whose `ApiSynchronization` pre-actions form a cycle (`Invoice` synchronizes
    /// `Customer` first, and `Customer` synchronizes `Invoice` first). Each entry of the cycle is
    /// labelled.
///
    /// ## Why is this bad?
    /// Pre-synchronization means "push that one before this one"; in a cycle no entry can go first
    /// and the push never ends or fails on every record.
///
    /// ## Example
    /// ```yaml
    /// Customer:
    ///   push:
    ///     preSynchronizationAction:
    ///       Invoices: {type: ApiSynchronization, path: Invoice}
    /// Invoice:
    ///   push:
    ///     preSynchronizationAction:
    ///       Customer: {type: ApiSynchronization, path: Customer}
    /// ```
///
    /// ## Use instead
    /// Keep the dependency in one direction; synchronize invoices after the customer with a
    /// post-synchronization action if needed:
    ///
    /// ```yaml
    /// Customer:
    ///   push:
    ///     postSynchronizationAction:
    ///       Invoices: {type: ApiSynchronization, path: Invoice}
    /// Invoice:
    ///   push:
    ///     preSynchronizationAction:
    ///       Customer: {type: ApiSynchronization, path: Customer}
    /// ```
    pub struct EntryDependencyCycle {
        title: "entries synchronize each other in a cycle",
        severity: Error,
    }
}
