//! `InvalidOpenApi`: the OpenAPI part does not have the structure of its OpenAPI version.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports every part of the document outside the `synchronization` section that does not
    /// have the structure its OpenAPI version (`openapi: 3.0.x` or `3.1.x`) requires, each at its
    /// node: a missing required field (`info`, a response's `description`), a value of the wrong
    /// type, an unknown field (`summry`, with the field meant when the name is a near miss), a
    /// value outside its enumeration (`in: pth`, `type: boolen`, with the value meant), a path
    /// that does not start with `/`, a security scheme without the fields its type needs, a
    /// number no 64-bit float holds, and an `openapi` version other than 3.0 and 3.1. In 3.0,
    /// schemas have a closed set of keywords; in 3.1 they are JSON Schema 2020-12 (type lists,
    /// numeric `exclusiveMinimum`, other keywords as annotations). A 3.1 document is also
    /// reported where it uses what the push engine's 3.0 reading cannot take.
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
        title: "the OpenAPI part does not have the structure of its OpenAPI version",
        severity: Error,
    }
}
