//! `CircularRef`: a `$ref` refers to itself through other references.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports `$ref`s that lead back to themselves through references only (`A` is `$ref: B`, and
    /// `B` is `$ref: A`), which never reach a schema.
///
    /// ## Why is this bad?
    /// A reference cycle with no schema in between has no meaning, and tools that resolve
    /// references loop or crash on it. (A schema that contains itself through a property, such as a
    /// tree node with `children`, is fine and not reported.)
///
    /// ## Example
    /// ```yaml
    /// components:
    ///   schemas:
    ///     Customer: {$ref: "#/components/schemas/Client"}
    ///     Client: {$ref: "#/components/schemas/Customer"}
    /// ```
///
    /// ## Use instead
    /// ```yaml
    /// components:
    ///   schemas:
    ///     Customer:
    ///       type: object
    ///       properties:
    ///         DisplayName: {type: string}
    ///     Client: {$ref: "#/components/schemas/Customer"}
    /// ```
    pub struct CircularRef {
        title: "a `$ref` refers to itself through other references",
        severity: Error,
    }
}
