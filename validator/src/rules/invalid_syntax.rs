//! `InvalidSyntax`: the file is not one valid YAML or JSON document.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports text that cannot be read as exactly one YAML 1.2 or JSON document: a syntax error, an
    /// empty file, several YAML documents in one stream (`---` separators), a mapping used as a key,
    /// or an alias (`*name`) whose anchor was never defined. The diagnostic points at the first
    /// character the parser could not accept.
///
    /// ## Why is this bad?
    /// Nothing else in the file can be checked until it parses, and the platform refuses to import
    /// it. Reporting the exact character saves searching a large OpenAPI document by eye.
///
    /// ## Example
    /// ```yaml
    /// synchronization:
    ///   Customer:
    ///     module: Accounts
    ///     push: {create: "/customer/post"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// synchronization:
    ///   Customer:
    ///     module: Accounts
    ///     push: {create: "/customer/post"}
    /// ```
    pub struct InvalidSyntax {
        title: "the file is not one valid YAML or JSON document",
        severity: Error,
    }
}
