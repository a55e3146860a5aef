//! The audit trail and results of one push: every exchange, template output and note, and
//! what the push found (its operation, the external id, the external system's messages).

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;

use crate::error::PushError;
use crate::extract;
use crate::outcome::{Exchange, MaskedJson, PushOutcome, PushStatus, TemplateOutput};
use crate::plan::OperationKind;

/// The audit trail and results of one push.
pub(crate) struct Run {
    entry: Arc<str>,
    started: Instant,
    pub operation: Option<OperationKind>,
    pub external_id: Option<String>,
    pub errors: Vec<String>,
    pub post_action_error: Option<PushError>,
    exchanges: Vec<Exchange>,
    templates: Vec<TemplateOutput>,
    notes: Vec<String>,
    /// The idempotency key the record's create carried, when it carried one.
    pub idempotency_key: Option<Arc<str>>,
    /// The body the record's create carried, as sent.
    pub create_body: Option<Bytes>,
}

impl Run {
    pub fn new(entry: Arc<str>) -> Run {
        Run {
            entry,
            started: Instant::now(),
            operation: None,
            external_id: None,
            errors: Vec::new(),
            post_action_error: None,
            exchanges: Vec::new(),
            templates: Vec::new(),
            notes: Vec::new(),
            idempotency_key: None,
            create_body: None,
        }
    }

    pub fn note(&mut self, note: String) {
        self.notes.push(note);
    }

    /// Records one attempt of a request.
    pub fn exchange(&mut self, exchange: Exchange) {
        self.exchanges.push(exchange);
    }

    /// Time from the start of the push to `at`.
    pub fn since_start(&self, at: Instant) -> Duration {
        at.saturating_duration_since(self.started)
    }

    pub fn template(&mut self, name: Arc<str>, output: MaskedJson) {
        self.templates.push(TemplateOutput { name, output });
    }

    /// The entry the run is for.
    pub fn entry(&self) -> Arc<str> {
        Arc::clone(&self.entry)
    }

    /// The exchanges and notes, for a run that is not a push (a pull's page).
    pub fn into_trail(self) -> (Vec<Exchange>, Vec<String>, Duration) {
        (self.exchanges, self.notes, self.started.elapsed())
    }

    pub fn finish(self, result: Result<PushStatus, PushError>) -> PushOutcome {
        let (status, error) = match result {
            Ok(status) => (status, None),
            Err(e) => (PushStatus::Failed, Some(e)),
        };
        let external_id_number = self.external_id.as_deref().and_then(extract::id_number);
        PushOutcome {
            entry: self.entry,
            operation: self.operation,
            status,
            external_id: self.external_id,
            external_id_number,
            errors: self.errors,
            error,
            post_action_error: self.post_action_error,
            exchanges: self.exchanges,
            templates: self.templates,
            notes: self.notes,
            idempotency_key: self.idempotency_key.map(|k| k.to_string()),
            duration: self.started.elapsed(),
        }
    }
}
