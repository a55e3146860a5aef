//! `InvalidOpenApi`: the OpenAPI part does not have the OpenAPI 3.0 structure.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports a part of the document outside the `synchronization` section that does not have the
    /// shape OpenAPI 3.0 requires: a missing `openapi`, `info` or `paths`, a value of the wrong type,
    /// an unknown HTTP method under a path.
///
    /// ## Why is this bad?
    /// The platform reads the external system's operations, servers and security from the OpenAPI
    /// part; a definition whose OpenAPI part does not parse cannot push anything.
///
    /// ## Example
    /// ```yaml
    /// openapi: 3.0.3
    /// info:
    ///   title: QuickBooks Online
    /// paths:
    ///   /v3/company/{realmId}/customer:
    ///     post:
    ///       responses: "200"
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// openapi: 3.0.3
    /// info:
    ///   title: QuickBooks Online
    ///   version: "3"
    /// paths:
    ///   /v3/company/{realmId}/customer:
    ///     post:
    ///       responses:
    ///         "200":
    ///           description: the created customer
    /// ```
    pub struct InvalidOpenApi {
        title: "the OpenAPI part does not have the OpenAPI 3.0 structure",
        severity: Error,
    }
}
