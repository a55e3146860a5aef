//! `DuplicateKey`: an object has the same key twice.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports a key that appears twice in the same object (YAML mapping or JSON object). The second
    /// occurrence is the primary location; the first is labelled.
///
    /// ## Why is this bad?
    /// YAML and JSON parsers disagree on which value wins: some keep the first, most the last, and
    /// the platform's importer may do either. A duplicated `update` or `schemasTransformer` silently
    /// drops half of the definition.
///
    /// ## Example
    /// ```yaml
    /// push:
    ///   create: "/customer/post"
    ///   create: "/customer/put"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// push:
    ///   create: "/customer/post"
    ///   update: "/customer/put"
    /// ```
    pub struct DuplicateKey {
        title: "an object has the same key twice",
        severity: Error,
    }
}
