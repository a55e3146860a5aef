//! What a function's path arguments are read against, declared in its table entry so that
//! static analysis knows it without knowing the function's name.

/// What a function's path arguments are evaluated against, for static analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reads {
    /// The innermost loop element (or the record); a second path argument is read on each
    /// item of the first argument's array (`#sumatpath(array, path)`).
    LoopElementAndItems,
    /// The current element of the loop named by argument `alias`, else of the innermost loop
    /// (`#currentvalueatpath`, `#copy`).
    LoopElement {
        /// The 0-based argument holding the alias.
        alias: usize,
    },
    /// The `#scope` or loop named by argument `alias`, else the innermost `#scope` (or the
    /// record) (`#valueof`).
    Scope {
        /// The 0-based argument holding the alias.
        alias: usize,
    },
    /// The loop or `#scope` named by argument `alias`, else the innermost of either
    /// (`#loop`, `#scope`).
    Frame {
        /// The 0-based argument holding the alias.
        alias: usize,
    },
    /// The output being built (`#replace`, `#delete`).
    Output,
}
