//! `UpdateNotSparse`: an update to a target that supports sparse updates is not marked sparse.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports `updateRequest` templates that do not set a top-level `sparse` to `true` when the
    /// update operation's request body schema declares a `sparse` property (QuickBooks Online does).
///
    /// ## Why is this bad?
    /// Without `"sparse": true` QuickBooks treats the update as a full replacement and sets every
    /// writable field the template does not send to NULL, erasing data in the external system.
///
    /// ## Example
    /// ```yaml
    /// updateRequest: {Id: "#valueof($.externalId)", SyncToken: "#valueof($.syncToken)", DisplayName: "#valueof($.account.name)"}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// updateRequest: {Id: "#valueof($.externalId)", SyncToken: "#valueof($.syncToken)", DisplayName: "#valueof($.account.name)", sparse: true}
    /// ```
    pub struct UpdateNotSparse {
        title: "an update to a target that supports sparse updates is not marked sparse",
        severity: Error,
    }
}
