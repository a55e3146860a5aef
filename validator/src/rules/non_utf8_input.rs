//! `NonUtf8Input`: the file is not UTF-8.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports a file containing bytes that are not valid UTF-8, at the first invalid byte.
///
    /// ## Why is this bad?
    /// JSON must be UTF-8 (RFC 8259) and the platform reads definitions as UTF-8. A file saved as
    /// Latin-1 or UTF-16 turns accented names into garbage or fails to import.
///
    /// ## Example
    /// A definition saved by an editor in Windows-1252, where `é` is the single byte `0xE9`:
    ///
    /// ```yaml
    /// info:
    ///   title: Société   # byte 0xE9
    /// ```
///
    /// ## Use instead
    /// Save the file as UTF-8 (most editors: "Save with encoding" / "Reopen with encoding").
    ///
    /// ```yaml
    /// info:
    ///   title: Société
    /// ```
    pub struct NonUtf8Input {
        title: "the file is not UTF-8",
        severity: Error,
    }
}
