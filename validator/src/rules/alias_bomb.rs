//! `AliasBomb`: YAML aliases expand into too many nodes.

use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports YAML documents whose aliases (`*anchor`) would expand into more nodes than the loader
    /// accepts (a "billion laughs" document).
///
    /// ## Why is this bad?
    /// A few lines of nested aliases can expand into billions of nodes and exhaust memory in the
    /// linter, the editor, the platform and every other tool that reads the file.
///
    /// ## Example
    /// ```yaml
    /// a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]
    /// b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
    /// c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
    /// # ... and so on, each level multiplying by nine
    /// ```
///
    /// ## Use instead
    /// Write the repeated structure once under `components` and refer to it with `$ref`, or
    /// repeat the small values literally.
    pub struct AliasBomb {
        title: "YAML aliases expand into too many nodes",
        severity: Error,
    }
}
