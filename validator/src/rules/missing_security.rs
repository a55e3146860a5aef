//! `MissingSecurity`: the document declares no security requirement.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports definitions whose document has no top-level `security` requirement, or an empty
    /// one.
///
    /// ## Why is this bad?
    /// The platform requires at least one security scheme listed under `security` to build the
    /// credentials page of the integration; without it the definition cannot be installed.
///
    /// ## Example
    /// ```yaml
    /// components:
    ///   securitySchemes:
    ///     bearerAuth: {type: http, scheme: bearer}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// components:
    ///   securitySchemes:
    ///     bearerAuth: {type: http, scheme: bearer}
    /// security:
    ///   - bearerAuth: []
    /// ```
    pub struct MissingSecurity {
        title: "the document declares no security requirement",
        severity: Error,
    }
}
