//! The evaluation forms a function declares in its table entry: how the core evaluates a call
//! besides (or instead of) the function's `run`. The core dispatches on these declarations,
//! never on a function's name, so a fast path follows its function under any name.

/// How the core evaluates calls of a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// Only through `run`, with the argument machinery.
    Call,
    /// A read in the current scope: with a single compiled path argument, `run` gives what the
    /// path selects in the innermost `#scope` (or the record), `null` for nothing, and cannot
    /// fail; such a call is read directly, and written in place by the text writer
    /// (`#valueof`).
    ScopeRead,
    /// An existence test: with a single compiled path argument, `run` tells whether the path
    /// selects anything in the current loop element (or the record), and cannot fail
    /// (`#exists`).
    ExistsTest,
    /// A choice: `run` compares its first two arguments as `ComparisonHelper.Equals` does and
    /// gives the third when they are equal, the fourth otherwise, evaluating only that one.
    /// When no argument can fail, the operands are compared and the branch read in place
    /// (`#ifcondition`).
    Choice,
    /// A property key evaluated by the object walk.
    Key(KeyForm),
    /// An operation of a `"#"` array, applied by the object walk in its phase.
    Bulk(BulkOp),
}

/// What a property key function does to its object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeyForm {
    /// Merges the value's properties when the condition is true (`#ifgroup`).
    IfGroup,
    /// Evaluates the value for each element at the path; the results replace the object
    /// (`#loop`).
    Loop,
    /// Adds a property named by the expression's result (`#eval`).
    Eval,
    /// Evaluates the value with the path's token as the read input; the result replaces the
    /// object (`#scope`).
    Scope,
}

/// An operation of a `"#"` array. Operations run by phase, in this order, whatever their
/// order in the array: every copy, then every replace, then every delete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BulkOp {
    /// Appends the members of an object (`#copy`).
    Copy,
    /// Replaces the tokens at a path of the output (`#replace`).
    Replace,
    /// Removes the tokens at a path of the output (`#delete`).
    Delete,
}

impl BulkOp {
    /// The phases, in the order they run.
    pub(crate) const PHASES: [BulkOp; 3] = [BulkOp::Copy, BulkOp::Replace, BulkOp::Delete];
}
