//! `MissingTemplate`: an operation has no transformation template.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports a push or pull operation whose template is missing from `schemasTransformer`.
    /// Templates are named after the operation: `{operation}Request` builds the body sent,
    /// `{operation}Response` reads the answer. Required are: `createRequest` and `createResponse`
    /// (the response gives the external identifier of the new record), `updateRequest`,
    /// `deleteRequest` when the delete operation declares a request body, `readResponse` and
    /// `batchReadResponse`.
///
    /// ## Why is this bad?
    /// Without a request template the platform has no body to send; without `createResponse` it
    /// never learns the external identifier, so later updates cannot address the record.
///
    /// ## Example
    /// ```yaml
    /// push:
    ///   create: "/v3/company/{realmId}/customer/post"
    ///   schemasTransformer:
    ///     createRequest: {DisplayName: "#valueof($.account.name)"}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// push:
    ///   create: "/v3/company/{realmId}/customer/post"
    ///   schemasTransformer:
    ///     createRequest: {DisplayName: "#valueof($.account.name)"}
    ///     createResponse: {id: "#valueof($.Customer.Id)"}
    /// ```
    pub struct MissingTemplate {
        title: "an operation has no transformation template",
        severity: Error,
    }
}
