//! `UnusedSuppression`: a suppression silences no finding.
//!
//! The matching itself is in [`crate::suppress`]; this file words what is reported.

use std::sync::Arc;

use syncdef_definitions::{SourceFile, Span};

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports a rule code of an `x-syncdef-ignore` list, or an entry of the ignore file
    /// (`.syncdef-ignore.yaml`), that silenced no finding in this run: the rule reports
    /// nothing at that node (for `x-syncdef-ignore`, nothing at it or beneath it). It is
    /// located at the code in the list, or at the JSON pointer in the ignore file.
    ///
    /// A rule that is `off` for the file in `syncdef.toml` did not run, so its suppressions
    /// are not reported; neither are ignore file entries of files the run did not lint.
    /// Suppressions cannot silence this rule: set it to `off` in `syncdef.toml` instead.
    ///
    /// ## Why is this bad?
    /// A suppression outlives the finding it was written for: once the definition is fixed (or
    /// the node moved), it silently waits for the next finding of that rule at that place, a
    /// mistake nobody will then review.
    ///
    /// ## Example
    /// ```yaml
    /// Customer:
    ///   x-syncdef-ignore: [SD602, SD402]   # no template of Customer is unused
    ///   module: Accounts
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// Customer:
    ///   x-syncdef-ignore: [SD602]
    ///   module: Accounts
    /// ```
    ///
    /// In the ignore file, remove the entry, or write the file again from the findings of
    /// today: `syncdef lint --generate-ignore-file`.
    pub struct UnusedSuppression {
        title: "a suppression silences no finding",
        severity: Warning,
    }
}

/// A code of an `x-syncdef-ignore` list (at `span`, in the object at `pointer`) that matched
/// nothing.
pub(crate) fn inline(file: Arc<SourceFile>, span: Span, rule: Rule, pointer: &str) -> Diagnostic {
    let code = rule.code();
    let at = if pointer.is_empty() {
        "in the document".to_owned()
    } else {
        format!("at `{pointer}` or beneath it")
    };
    Diagnostic::new(
        Rule::UnusedSuppression,
        file,
        span,
        format!("`{code}` is suppressed here, but no {code} finding is {at}"),
    )
    .with_pointer(pointer)
    .with_help(format!(
        "remove `{code}` from `x-syncdef-ignore`: left in place it would silence the next {code} finding here unseen"
    ))
}

/// An entry of the ignore file (the pointer at `span`, at `pointer` in the ignore file) that
/// matched no finding of `rule` in `file` at `at`.
pub(crate) fn in_ignore_file(
    ignore_file: Arc<SourceFile>,
    span: Span,
    pointer: String,
    rule: Rule,
    file: &str,
    at: &str,
) -> Diagnostic {
    let code = rule.code();
    Diagnostic::new(
        Rule::UnusedSuppression,
        ignore_file,
        span,
        format!("`{file}` has no {code} finding at `{at}`"),
    )
    .with_pointer(pointer)
    .with_help(
        "remove the entry, or write the file again from today's findings: `syncdef lint --generate-ignore-file`",
    )
}
