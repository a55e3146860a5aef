//! `InvalidSuppression`: a suppression names something that is not a rule code.
//!
//! Suppressions are read in [`crate::suppress`]; this file words what is reported.

use std::sync::Arc;

use syncdef_definitions::{SourceFile, Span};

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports an `x-syncdef-ignore` whose value is not a rule code or a list of rule codes,
    /// and a code that no rule has, in `x-syncdef-ignore` or in the ignore file
    /// (`.syncdef-ignore.yaml`), with the code it most likely means. Codes are
    /// case-insensitive (`sd602` is `SD602`).
    ///
    /// Suppressions cannot silence this rule: set it to `off` in `syncdef.toml` instead.
    ///
    /// ## Why is this bad?
    /// A suppression that names no rule silences nothing: the finding it was written for is
    /// still reported, and whoever reads the definition believes it was looked at.
    ///
    /// ## Example
    /// ```yaml
    /// Customer:
    ///   x-syncdef-ignore: [SD62]   # SD602
    ///   module: Accounts
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// Customer:
    ///   x-syncdef-ignore: [SD602]
    ///   module: Accounts
    /// ```
    pub struct InvalidSuppression {
        title: "a suppression names something that is not a rule code",
        severity: Warning,
    }
}

/// `code`, written at `span`, is no rule's code.
pub(crate) fn unknown_code(
    file: Arc<SourceFile>,
    span: Span,
    pointer: String,
    code: &str,
) -> Diagnostic {
    let hint = crate::suggest::hint(code, Rule::ALL.iter().map(|r| r.code()))
        .unwrap_or_else(|| "`syncdef rules` lists the codes".to_owned());
    Diagnostic::new(
        Rule::InvalidSuppression,
        file,
        span,
        format!("`{code}` is not a rule code, so it suppresses nothing"),
    )
    .with_pointer(pointer)
    .with_help(hint)
}

/// An `x-syncdef-ignore` value, or an item of its list, at `span` is a `found` where a rule
/// code was expected.
pub(crate) fn not_a_code(
    file: Arc<SourceFile>,
    span: Span,
    pointer: String,
    found: &str,
) -> Diagnostic {
    Diagnostic::new(
        Rule::InvalidSuppression,
        file,
        span,
        format!("`x-syncdef-ignore` takes rule codes, not {found}"),
    )
    .with_pointer(pointer)
    .with_help("write one code (`x-syncdef-ignore: SD602`) or a list of codes (`x-syncdef-ignore: [SD602, SD402]`)")
}
