//! `MissingSyncSection`: a file named for linting has no `synchronization` section.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports a file named explicitly on the command line that holds no top-level
    /// `synchronization` (or `x-synchronization`) section, and a file that holds both. Files found
    /// by walking a directory without such a section are skipped silently instead.
///
    /// ## Why is this bad?
    /// A plain OpenAPI document is not a synchronization definition: linting it checks nothing, and
    /// a file with both sections is ambiguous (which one would the platform use?).
///
    /// ## Example
    /// ```yaml
    /// openapi: 3.0.3
    /// info: {title: QuickBooks Online, version: "3"}
    /// paths: {}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// openapi: 3.0.3
    /// info: {title: QuickBooks Online, version: "3"}
    /// paths: {}
    /// synchronization:
    ///   Customer:
    ///     module: Accounts
    ///     push: {}
    /// ```
    pub struct MissingSyncSection {
        title: "a file named for linting has no `synchronization` section",
        severity: Error,
    }
}
