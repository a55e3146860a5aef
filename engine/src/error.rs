//! Errors of loading, pushing and pulling, and the classification a sync worker acts on.

use std::fmt;

use serde::Serialize;
use syncdef_validator::{Diagnostic, Severity};

/// What kind of failure a push or a pull met, so that a worker knows what to do next without
/// parsing messages. The classes are stable; the retry rules and the sync worker key on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum ErrorClass {
    /// The definition, the instance settings or the caller's input is wrong (a missing
    /// external id for a placeholder, a template that fails, a server variable without value).
    /// Retrying will not help: fix the definition or the input.
    Configuration,
    /// The external system refused the credentials (401 after one refresh, 403), or no token
    /// could be obtained. Re-authorize (`syncdef auth login`).
    Authentication,
    /// The external system rejected the record (`success: false`, 400, 409, 412, 422).
    /// Fix the record or its mapping; a stale concurrency token is one of these.
    ExternalValidation,
    /// A fault that may pass: 429, 5xx, a timeout or a connection error before the request
    /// was sent. Retry later.
    Transient,
    /// The request may have been carried out but its answer is unknown or unreadable (a
    /// timeout after sending, a success without an id). Check the external system before
    /// retrying, or a create may be duplicated.
    UnknownOutcome,
}

impl ErrorClass {
    /// The class of an HTTP error status.
    #[must_use]
    pub fn from_status(status: u16) -> ErrorClass {
        match status {
            401 | 403 => ErrorClass::Authentication,
            408 | 429 | 500..=599 => ErrorClass::Transient,
            400..=499 => ErrorClass::ExternalValidation,
            // A redirect the transport did not follow (to another host): the server URL of the
            // definition or instance is wrong.
            300..=399 => ErrorClass::Configuration,
            _ => ErrorClass::UnknownOutcome,
        }
    }

    /// The name used in JSON output and messages.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorClass::Configuration => "configuration",
            ErrorClass::Authentication => "authentication",
            ErrorClass::ExternalValidation => "externalValidation",
            ErrorClass::Transient => "transient",
            ErrorClass::UnknownOutcome => "unknownOutcome",
        }
    }
}

impl fmt::Display for ErrorClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a push or a pull failed: its class, a message saying what happened, and the external
/// system's own error messages when it gave any. Never holds a secret: [`EngineError::new`]
/// redacts every secret value the process holds from the message (a server's answer quoted in
/// it may echo one) and bounds it to [`syncdef_secrets::MAX_SHOWN`] bytes, saying so when it
/// cuts; `Display` and `Serialize` redact again, for a message set directly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineError {
    /// What to do about it.
    pub class: ErrorClass,
    /// The step that failed (`create`, `SyncToken`, ...), when one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    /// What happened and, where it helps, what to do.
    #[serde(serialize_with = "redacted")]
    pub message: String,
    /// For a transient failure, how long to wait before pushing again: the external system's
    /// `Retry-After` when it sent one, else the engine's next backoff. `None` for other
    /// classes (waiting does not fix them).
    #[serde(
        skip_serializing_if = "Option::is_none",
        rename = "retryAfterMs",
        serialize_with = "millis"
    )]
    pub retry_after: Option<std::time::Duration>,
}

fn redacted<S: serde::Serializer>(text: &str, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&syncdef_secrets::redact(text))
}

#[expect(
    clippy::ref_option,
    reason = "`serialize_with` passes a reference to the field, which is an `Option`"
)]
fn millis<S: serde::Serializer>(d: &Option<std::time::Duration>, s: S) -> Result<S::Ok, S::Error> {
    match d {
        Some(d) => s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
        None => s.serialize_none(),
    }
}

impl EngineError {
    /// An error of `class`.
    pub fn new(class: ErrorClass, message: impl Into<String>) -> Self {
        let message = message.into();
        let message = match syncdef_secrets::shown(&message) {
            std::borrow::Cow::Borrowed(_) => message,
            std::borrow::Cow::Owned(shown) => shown,
        };
        EngineError {
            class,
            step: None,
            message,
            retry_after: None,
        }
    }

    /// A configuration error.
    pub fn configuration(message: impl Into<String>) -> Self {
        EngineError::new(ErrorClass::Configuration, message)
    }

    /// The same error with a retry hint (kept for transient errors only).
    #[must_use]
    pub fn retry_after(mut self, wait: Option<std::time::Duration>) -> Self {
        if self.class == ErrorClass::Transient {
            self.retry_after = wait;
        }
        self
    }

    /// The same error, attributed to `step`.
    #[must_use]
    pub fn at(mut self, step: &str) -> Self {
        self.step = Some(step.to_owned());
        self
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = syncdef_secrets::redact(&self.message);
        match &self.step {
            Some(step) => write!(f, "{step}: {message} ({})", self.class),
            None => write!(f, "{message} ({})", self.class),
        }
    }
}

impl std::error::Error for EngineError {}

/// A definition the engine refuses to load: it has lint errors (or cannot be modelled). Holds
/// every diagnostic so the caller can render them like `syncdef lint` does.
#[derive(Debug)]
pub struct LoadRefused {
    /// All diagnostics, errors and warnings.
    pub diagnostics: Vec<Diagnostic>,
    /// Gaps found while compiling a definition the validator let through (a template the
    /// engine cannot compile); empty when the lint errors refused it.
    pub problems: Vec<String>,
}

impl LoadRefused {
    /// The error diagnostics only.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }
}

impl fmt::Display for LoadRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.errors().count() == 0 && !self.problems.is_empty() {
            return write!(
                f,
                "the definition cannot be pushed: {}",
                self.problems.join("; ")
            );
        }
        let n = self.errors().count();
        write!(
            f,
            "the definition has {n} lint error{}; run `syncdef lint` on it and fix them",
            if n == 1 { "" } else { "s" }
        )
    }
}

impl std::error::Error for LoadRefused {}
