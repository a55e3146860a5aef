//! `ForeignTemplateRoot`: a template reads a JSONPath root its module does not provide.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports JSONPath expressions whose root is not available to the template. Every template
    /// may read `$.serverVariables` and `$.externalId`; `$.syncToken` is checked by SD405; and each
    /// module provides its own record root: `$.account` for `Accounts`, `$.invoice` for `Invoices`,
    /// and so on (see docs/rules/README.md for the table). Response templates read the external
    /// system's answer, so their paths are not checked.
///
    /// ## Why is this bad?
    /// The record of another module is never handed to the template: `$.invoice.dueDate` in an
    /// `Accounts` entry is always empty, and the field it fills is sent blank.
///
    /// ## Example
    /// ```yaml
    /// Customer:
    ///   module: Accounts
    ///   push:
    ///     schemasTransformer:
    ///       createRequest: {DisplayName: "#valueof($.acount.name)"}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///       createRequest: {DisplayName: "#valueof($.account.name)"}
    /// ```
    pub struct ForeignTemplateRoot {
        title: "a template reads a JSONPath root its module does not provide",
        severity: Error,
    }
}
