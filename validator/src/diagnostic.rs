//! The one diagnostic type every rule produces and every renderer consumes.
//!
//! Locations are byte [`Span`]s into the linted [`SourceFile`]; lines and columns are computed
//! only when a renderer needs them, through the file's line index.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use syncdef_definitions::{Location, SourceFile, Span};

use crate::codes::Rule;

/// How serious a finding is. Ordered so that `Error` is the greatest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; never fails a lint run.
    Info,
    /// Probably a mistake; fails a run only with `--deny-warnings`.
    Warning,
    /// The definition cannot work as written; fails the run.
    Error,
}

impl Severity {
    /// The lower-case name used in every output format and in `syncdef.toml`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A secondary location shown next to the primary one ("first defined here").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// What the label points at.
    pub span: Span,
    /// A short text printed under the span.
    pub message: String,
}

/// One finding: what is wrong, where, and what to do about it.
#[derive(Clone)]
pub struct Diagnostic {
    /// The rule that found it; gives the stable code, the title and the docs page.
    pub rule: Rule,
    /// The severity after `syncdef.toml` was applied.
    pub severity: Severity,
    /// What is wrong, in one sentence without a final period.
    pub message: String,
    /// The file the spans point into.
    pub file: Arc<SourceFile>,
    /// The exact characters at fault.
    pub span: Span,
    /// A short text under the primary span (defaults to nothing).
    pub span_label: Option<String>,
    /// Other places that explain the finding.
    pub labels: Vec<Label>,
    /// JSON pointer (RFC 6901) of the node at fault, when it is a node of the document.
    pub pointer: Option<String>,
    /// What to do, including a did-you-mean when a name is unknown.
    pub help: Option<String>,
}

impl fmt::Debug for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Diagnostic")
            .field("code", &self.rule.code())
            .field("severity", &self.severity)
            .field("message", &self.message)
            .field("file", &self.file.name())
            .field("span", &self.span)
            .field("pointer", &self.pointer)
            .finish_non_exhaustive()
    }
}

impl Diagnostic {
    /// A diagnostic of `rule` at `span` of `file`, with the rule's default severity.
    #[must_use]
    pub fn new(rule: Rule, file: Arc<SourceFile>, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            rule,
            severity: rule.default_severity(),
            message: message.into(),
            file,
            span,
            span_label: None,
            labels: Vec::new(),
            pointer: None,
            help: None,
        }
    }

    /// Sets the help text.
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Sets the help text when there is one.
    #[must_use]
    pub fn with_optional_help(mut self, help: Option<String>) -> Self {
        self.help = help;
        self
    }

    /// Sets the JSON pointer of the node at fault.
    #[must_use]
    pub fn with_pointer(mut self, pointer: impl Into<String>) -> Self {
        self.pointer = Some(pointer.into());
        self
    }

    /// Sets the text shown under the primary span.
    #[must_use]
    pub fn with_span_label(mut self, label: impl Into<String>) -> Self {
        self.span_label = Some(label.into());
        self
    }

    /// Adds a secondary labelled span.
    #[must_use]
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// The stable code, such as `SD202`.
    #[must_use]
    pub fn code(&self) -> &'static str {
        self.rule.code()
    }

    /// The docs page of the rule.
    #[must_use]
    pub fn url(&self) -> String {
        self.rule.url()
    }

    /// Start and end line/column of the primary span (1-based, columns in characters), in
    /// the file holding it.
    #[must_use]
    pub fn location(&self) -> Location {
        self.file.location(self.span)
    }

    /// The name of the file the primary span is in: the linted file's, or, for a definition
    /// written as an overlay, the file that wrote what is at fault (the vendor's description
    /// or the overlay).
    #[must_use]
    pub fn file_name(&self) -> &str {
        self.file.name_at(self.span.start)
    }

    /// The name of the file `span` (a label's) is in.
    #[must_use]
    pub fn file_name_at(&self, span: Span) -> &str {
        self.file.name_at(span.start)
    }

    /// The order reports use: file, position, then code, so output is deterministic.
    pub(crate) fn sort_key(&self) -> (&str, u32, u32, &'static str, &str) {
        (
            self.file.name(),
            self.span.start,
            self.span.end,
            self.rule.code(),
            &self.message,
        )
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

impl miette::Diagnostic for Diagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.rule.code()))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_deref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.rule.url()))
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&*self.file)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let primary = miette::LabeledSpan::new_primary_with_span(
            self.span_label.clone(),
            miette::SourceSpan::from(self.span),
        );
        let secondary = self.labels.iter().map(|label| {
            miette::LabeledSpan::new_with_span(
                Some(label.message.clone()),
                miette::SourceSpan::from(label.span),
            )
        });
        Some(Box::new(std::iter::once(primary).chain(secondary)))
    }
}
