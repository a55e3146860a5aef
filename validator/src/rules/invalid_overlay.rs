//! `InvalidOverlay`: an OpenAPI Overlay that cannot be applied as written.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports an OpenAPI Overlay 1.0 definition (`overlay: 1.0.0`, `extends`, `actions`) that
    /// cannot be applied as written: an `extends` that is missing, cannot be read (the path tried
    /// is named) or comes back to an overlay it started from; an action whose `target` is not an
    /// RFC 9535 JSONPath (the column in the expression is shown) or selects nothing; an action
    /// with both `update` and `remove: true`, or neither; an `update` of the wrong kind for what
    /// its target selects (an object merges into an object, any value is appended to an array,
    /// a text or a number cannot be updated). An action at fault is skipped: the others still
    /// apply, and the document they make is linted as usual.
    ///
    /// ## Why is this bad?
    /// An action that does nothing leaves the vendor's description without the change it was
    /// written for (most often the `synchronization` section, or a local fix of the vendor's
    /// description), and the definition then fails in ways far from the mistake. A target that
    /// selected something once and selects nothing after the vendor published a new version is
    /// how an overlay tells the vendor moved what it changes.
    ///
    /// ## Example
    /// ```yaml
    /// overlay: 1.0.0
    /// info: {title: QuickBooks synchronization, version: 1.0.0}
    /// extends: ./quickbooks-openapi.json
    /// actions:
    ///   - target: $.paths['/v3/company/{realmId}/customers'].post   # the path is `/customer`
    ///     update: {summary: Create a customer}
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// overlay: 1.0.0
    /// info: {title: QuickBooks synchronization, version: 1.0.0}
    /// extends: ./quickbooks-openapi.json
    /// actions:
    ///   - target: $.paths['/v3/company/{realmId}/customer'].post
    ///     update: {summary: Create a customer}
    /// ```
    pub struct InvalidOverlay {
        title: "an OpenAPI Overlay cannot be applied as written",
        severity: Error,
    }
}
