//! Structural problems found while building the typed model.
//!
//! Unlike a [`crate::LoadError`], a problem does not stop loading: the model is kept partial
//! (the field is `None`) and every problem of the file is reported at once.

use std::fmt;

use crate::source::Span;

/// What kind of structural problem. Stable: the validator maps each to a rule code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ProblemKind {
    /// The OpenAPI part does not deserialize into an OpenAPI 3.0 document.
    OpenApi,
    /// Both `synchronization` and `x-synchronization` are present.
    ConflictingSyncKeys,
    /// The document has no `synchronization` (or `x-synchronization`) section.
    MissingSync,
    /// A field has the wrong JSON type (a string where an object is expected...).
    WrongType,
    /// A required field is missing (an entry without `module`...).
    MissingField,
    /// A `$ref` points at nothing.
    BrokenRef,
    /// A chain of `$ref`s comes back to itself without any content between.
    CircularRef,
    /// A `$ref` to another file or URL that cannot be followed.
    ExternalRef,
    /// An OpenAPI Overlay's action that cannot run as written (its target does not compile or
    /// selects nothing, its update is of the wrong kind, it both updates and removes).
    Overlay,
}

impl ProblemKind {
    /// A stable kebab-case name.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            ProblemKind::OpenApi => "openapi",
            ProblemKind::ConflictingSyncKeys => "conflicting-sync-keys",
            ProblemKind::MissingSync => "missing-sync",
            ProblemKind::WrongType => "wrong-type",
            ProblemKind::MissingField => "missing-field",
            ProblemKind::BrokenRef => "broken-ref",
            ProblemKind::CircularRef => "circular-ref",
            ProblemKind::ExternalRef => "external-ref",
            ProblemKind::Overlay => "overlay",
        }
    }
}

/// A located structural problem of a definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadProblem {
    /// What kind.
    pub kind: ProblemKind,
    /// The node (or key) at fault.
    pub span: Span,
    /// JSON pointer of the node at fault.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
    /// What to do.
    pub help: Option<String>,
    /// Other places involved (the other `$ref`s of a cycle, the other sync key).
    pub related: Vec<(Span, String)>,
}

impl LoadProblem {
    pub(crate) fn new(
        kind: ProblemKind,
        span: Span,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        LoadProblem {
            kind,
            span,
            pointer: pointer.into(),
            message: message.into(),
            help: None,
            related: Vec::new(),
        }
    }

    pub(crate) fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for LoadProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at {})", self.message, self.pointer)
    }
}
