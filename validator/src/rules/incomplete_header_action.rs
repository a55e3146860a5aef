//! `IncompleteHeaderAction`: a `Header` action lacks `schema.header` or `schema.headerValue`.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports actions with `in: Header` whose `schema` does not name both the header to send
    /// (`header`) and the response field that supplies its value (`headerValue`).
///
    /// ## Why is this bad?
    /// Without a header name the platform does not know which header to set; without a value field
    /// it has nothing to put in it. Business Central then refuses the update for lack of `If-Match`.
///
    /// ## Example
    /// ```yaml
    /// HeaderETag:
    ///   type: ApiPath
    ///   path: "/SalesInvoice(No='{IntegrationId}',Document_Type='Invoice')/get"
    ///   schema: {type: String, header: If-Match}
    ///   in: Header
    /// ```
///
    /// ## Use instead
    /// ```yaml
    ///   schema: {type: String, header: If-Match, headerValue: "@odata.etag"}
    /// ```
    pub struct IncompleteHeaderAction {
        title: "a `Header` action lacks `schema.header` or `schema.headerValue`",
        severity: Error,
    }
}
