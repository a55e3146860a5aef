//! What every rule declares about itself: title, default severity and documentation.
//!
//! A rule's documentation is its doc comment. [`declare_rule!`] captures the `///` lines into a
//! `const` string, so `syncdef explain`, the generated `docs/rules/` pages and the SARIF rule
//! descriptions all print the very text the source carries, and cannot drift from it.

use crate::diagnostic::Severity;

/// Facts about one rule, known at compile time.
#[derive(Debug)]
pub struct RuleMeta {
    /// The struct name, the bad pattern in PascalCase (`UnknownOperationPath`).
    pub struct_name: &'static str,
    /// One line saying what the rule catches, without a final period.
    pub title: &'static str,
    /// The severity used when `syncdef.toml` says nothing about the rule.
    pub default_severity: Severity,
    /// The raw doc comment, one `///` line per line (each still starting with its space).
    pub raw_doc: &'static str,
    /// The source file declaring the rule, relative to the workspace.
    pub source_file: &'static str,
}

/// The sections every rule documentation must have, in this order.
pub const REQUIRED_SECTIONS: [&str; 4] = [
    "## What it does",
    "## Why is this bad?",
    "## Example",
    "## Use instead",
];

impl RuleMeta {
    /// The documentation as Markdown: the doc comment with the leading space of each line removed.
    #[must_use]
    pub fn documentation(&self) -> String {
        let mut out = String::with_capacity(self.raw_doc.len());
        for line in self.raw_doc.lines() {
            out.push_str(line.strip_prefix(' ').unwrap_or(line));
            out.push('\n');
        }
        out
    }

    /// The rule's name in kebab case (`unknown-operation-path`), used by SARIF and `syncdef rules`.
    #[must_use]
    pub fn name(&self) -> String {
        kebab_case(self.struct_name)
    }

    /// The required sections the documentation lacks (empty when complete).
    #[must_use]
    pub fn missing_sections(&self) -> Vec<&'static str> {
        let doc = self.documentation();
        REQUIRED_SECTIONS
            .iter()
            .copied()
            .filter(|section| !doc.lines().any(|line| line.trim_end() == *section))
            .collect()
    }
}

/// Declares a rule: its doc comment (the docs page), title and default severity.
///
/// ```ignore
/// declare_rule! {
///     /// ## What it does
///     /// ...
///     pub struct UnknownModule {
///         title: "`module` is not a platform module",
///         severity: Error,
///     }
/// }
/// ```
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        pub struct $name:ident {
            title: $title:literal,
            severity: $severity:ident $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Copy)]
        pub struct $name;

        impl $name {
            /// Title, default severity and documentation of this rule.
            pub const META: $crate::rule::RuleMeta = $crate::rule::RuleMeta {
                struct_name: stringify!($name),
                title: $title,
                default_severity: $crate::diagnostic::Severity::$severity,
                raw_doc: concat!($($doc, "\n"),*),
                source_file: file!(),
            };
        }
    };
}

pub(crate) use declare_rule;

/// A CamelCase name in kebab case (`UnknownFunction` -> `unknown-function`): how rule names and
/// the codes of other diagnostics (`transform::unknown-function`) are written.
#[must_use]
pub fn kebab_case(camel: &str) -> String {
    let mut out = String::with_capacity(camel.len() + 4);
    for (i, c) in camel.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab_names() {
        let meta = RuleMeta {
            struct_name: "UnknownOperationPath",
            title: "",
            default_severity: Severity::Error,
            raw_doc: " ## What it does\n text\n",
            source_file: "",
        };
        assert_eq!(meta.name(), "unknown-operation-path");
        assert_eq!(meta.documentation(), "## What it does\ntext\n");
        assert_eq!(
            meta.missing_sections(),
            vec!["## Why is this bad?", "## Example", "## Use instead"]
        );
    }
}
