//! `FileTooLarge`: the file is larger than the loader can address.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports a file larger than 4 GiB, the most the loader's byte offsets can address.
///
    /// ## Why is this bad?
    /// Locations in such a file could not be reported correctly, and no external system needs an
    /// OpenAPI description of that size.
///
    /// ## Example
    /// A definition that embeds megabytes of generated examples for every operation until it
    /// passes 4 GiB.
///
    /// ## Use instead
    /// Remove the embedded examples, or split the description and keep only the operations the
    /// synchronization uses.
    pub struct FileTooLarge {
        title: "the file is larger than the loader can address",
        severity: Error,
    }
}
