//! `UnknownActionPlacement`: an action's `in` is not `Body` or `Header`.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports actions whose `in` (where the value read by the action goes) is neither `Body` (a
    /// property of the pushed record, read by templates as `$.syncToken`) nor `Header` (a request
    /// header named by `schema.header`).
///
    /// ## Why is this bad?
    /// The value read by the action is dropped, so the concurrency token never reaches the
    /// request.
///
    /// ## Example
    /// ```yaml
    /// ETag:
    ///   type: ApiPath
    ///   path: "/SalesInvoice(No='{IntegrationId}',Document_Type='Invoice')/get"
    ///   schema: {type: String, ETag: "@odata.etag"}
    ///   in: body
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///   in: Body
    /// ```
    pub struct UnknownActionPlacement {
        title: "an action's `in` is not `Body` or `Header`",
        severity: Error,
    }
}
