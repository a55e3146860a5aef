//! The audit trail of one push or pull: every exchange, template output and note, and the
//! external system's own error messages, with the time it started.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::outcome::{Exchange, MaskedJson, TemplateOutput};

/// What one push or pull did, as its steps record it.
pub(crate) struct Trail {
    started: Instant,
    /// Every attempt of every request, in the order sent.
    pub exchanges: Vec<Exchange>,
    /// What each template made.
    pub templates: Vec<TemplateOutput>,
    /// Retries, skipped actions and other notes.
    pub notes: Vec<String>,
    /// The external system's error messages, from the answer that failed.
    pub errors: Vec<String>,
    /// What the steps of a push within another are named after (a line: `Items[0] id 90311`),
    /// so that its requests are told apart from the record's own, for the transport too.
    step_prefix: Option<Arc<str>>,
}

impl Trail {
    /// A trail starting now.
    pub fn new() -> Trail {
        Trail {
            started: Instant::now(),
            exchanges: Vec::new(),
            templates: Vec::new(),
            notes: Vec::new(),
            errors: Vec::new(),
            step_prefix: None,
        }
    }

    /// A trail whose steps are named after `prefix` (`Items[0] id 90311: create`).
    pub fn prefixed(prefix: Option<Arc<str>>) -> Trail {
        Trail {
            step_prefix: prefix,
            ..Trail::new()
        }
    }

    /// The name a request of `step` goes out under.
    pub fn step_name(&self, step: &Arc<str>) -> Arc<str> {
        match &self.step_prefix {
            Some(prefix) => Arc::from(format!("{prefix}: {step}")),
            None => Arc::clone(step),
        }
    }

    pub fn note(&mut self, note: String) {
        self.notes.push(note);
    }

    /// Records one attempt of a request.
    pub fn exchange(&mut self, exchange: Exchange) {
        self.exchanges.push(exchange);
    }

    /// Time from the start of the trail to `at`.
    pub fn since_start(&self, at: Instant) -> Duration {
        at.saturating_duration_since(self.started)
    }

    /// Time from the start of the trail to now.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    pub fn template(&mut self, name: Arc<str>, output: MaskedJson) {
        self.templates.push(TemplateOutput { name, output });
    }
}
