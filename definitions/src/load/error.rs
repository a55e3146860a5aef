//! The error a loader returns when a file cannot be read as a document at all.

use std::fmt;
use std::sync::Arc;

use crate::source::{SourceFile, Span};

/// Why a file could not be loaded. Stable: tools may match on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LoadErrorKind {
    /// The file could not be read.
    Io,
    /// The bytes are not UTF-8.
    InvalidUtf8,
    /// The file is 1 GiB or larger: beyond what the tree addresses.
    TooLarge,
    /// The text is not valid JSON or YAML.
    Syntax,
    /// The document holds no value.
    EmptyDocument,
    /// The YAML stream holds more than one document.
    MultipleDocuments,
    /// An object has the same key twice.
    DuplicateKey,
    /// A YAML mapping key is a mapping or a sequence.
    NonStringKey,
    /// Values nest deeper than the configured limit.
    TooDeep,
    /// YAML aliases expand into more nodes than the configured limit (a "billion laughs").
    AliasBomb,
    /// A YAML alias names an anchor that was never defined.
    UnknownAnchor,
    /// An OpenAPI Overlay whose `extends` is missing, cannot be read or comes back to itself.
    Overlay,
}

impl LoadErrorKind {
    /// A stable kebab-case code, used in `syncdef::load::<code>` diagnostic codes.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            LoadErrorKind::Io => "io",
            LoadErrorKind::InvalidUtf8 => "invalid-utf8",
            LoadErrorKind::TooLarge => "too-large",
            LoadErrorKind::Syntax => "syntax",
            LoadErrorKind::EmptyDocument => "empty-document",
            LoadErrorKind::MultipleDocuments => "multiple-documents",
            LoadErrorKind::DuplicateKey => "duplicate-key",
            LoadErrorKind::NonStringKey => "non-string-key",
            LoadErrorKind::TooDeep => "too-deep",
            LoadErrorKind::AliasBomb => "alias-bomb",
            LoadErrorKind::UnknownAnchor => "unknown-anchor",
            LoadErrorKind::Overlay => "overlay",
        }
    }
}

/// A secondary location of an error ("first defined here").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    /// Where.
    pub span: Span,
    /// What is there.
    pub message: String,
}

/// A file that cannot be loaded, with where and why, and what to do about it.
#[derive(Clone, Debug)]
pub struct LoadError {
    /// What went wrong, for tools.
    pub kind: LoadErrorKind,
    /// What went wrong, for people.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
    /// Where it went wrong; `None` only when the file could not be read at all.
    pub span: Option<Span>,
    /// Other places that explain the error (the first of two duplicate keys).
    pub related: Vec<Related>,
    /// The file (its text is empty when it could not be read).
    pub source: Arc<SourceFile>,
}

impl LoadError {
    pub(crate) fn new(
        kind: LoadErrorKind,
        source: &Arc<SourceFile>,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        LoadError {
            kind,
            message: message.into(),
            help: None,
            span: Some(span),
            related: Vec::new(),
            source: Arc::clone(source),
        }
    }

    pub(crate) fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub(crate) fn with_related(mut self, span: Span, message: impl Into<String>) -> Self {
        self.related.push(Related {
            span,
            message: message.into(),
        });
        self
    }

    /// `file:line:column` of the error (just `file` when it has no position).
    #[must_use]
    pub fn location(&self) -> String {
        match self.span {
            Some(span) => self.source.describe(span),
            None => self.source.name().to_owned(),
        }
    }

    /// A plain-text rendering: the located message, the related locations and the help, one
    /// per line. Used by tests and by tools that do not want miette's graphics.
    #[must_use]
    pub fn render(&self) -> String {
        let mut out = format!(
            "{}: error[{}]: {}",
            self.location(),
            self.kind.code(),
            self.message
        );
        for r in &self.related {
            out.push_str(&format!(
                "\n  {}: {}",
                self.source.describe(r.span),
                r.message
            ));
        }
        if let Some(help) = &self.help {
            out.push_str(&format!("\n  help: {help}"));
        }
        out
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location(), self.message)
    }
}

impl std::error::Error for LoadError {}

impl miette::Diagnostic for LoadError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(format!("syncdef::load::{}", self.kind.code())))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display + 'a>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.span.map(|_| &*self.source as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let primary = self
            .span
            .map(|s| miette::LabeledSpan::new_primary_with_span(Some("here".into()), s));
        let related = self
            .related
            .iter()
            .map(|r| miette::LabeledSpan::new_with_span(Some(r.message.clone()), r.span));
        Some(Box::new(primary.into_iter().chain(related)))
    }
}
