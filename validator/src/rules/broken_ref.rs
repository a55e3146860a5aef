//! `BrokenRef`: a `$ref` points at nothing.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports a local `$ref` (`#/components/...`) whose target does not exist in the document,
    /// with a did-you-mean among the existing components. A reference to another file is followed
    /// (a relative path is read from the directory of the file holding the `$ref`); one whose file
    /// cannot be read, or a URL, is reported.
///
    /// ## Why is this bad?
    /// A broken reference leaves a request or response schema undefined: the operation cannot be
    /// checked and tools that resolve references fail.
///
    /// ## Example
    /// ```yaml
    /// requestBody:
    ///   content:
    ///     application/json:
    ///       schema: {$ref: "#/components/schemas/Custmer"}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// requestBody:
    ///   content:
    ///     application/json:
    ///       schema: {$ref: "#/components/schemas/Customer"}
    /// ```
    pub struct BrokenRef {
        title: "a `$ref` points at nothing",
        severity: Error,
    }
}
