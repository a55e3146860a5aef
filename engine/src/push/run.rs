//! One push as it goes: its audit [`Trail`] and what the push found (its operation, the
//! external id, a post-action's failure, what its create carried), made into its outcome.

use std::sync::Arc;

use bytes::Bytes;

use crate::call::trail::Trail;
use crate::error::EngineError;
use crate::extract;
use crate::outcome::{PushOutcome, PushStatus, RepeatedCreate};
use crate::plan::OperationKind;

/// The audit trail and results of one push.
pub(crate) struct Run {
    entry: Arc<str>,
    pub trail: Trail,
    pub operation: Option<OperationKind>,
    pub external_id: Option<String>,
    pub post_action_error: Option<EngineError>,
    /// The idempotency key the record's create carried, when it carried one.
    pub idempotency_key: Option<Arc<str>>,
    /// The body the record's create carried, as sent.
    pub create_body: Option<Bytes>,
    /// What the push did about a create sent again under an earlier create's key.
    pub repeated_create: Option<RepeatedCreate>,
}

impl Run {
    /// The run of a push of `entry`; within another push (a line), its steps are named after
    /// `prefix`.
    pub fn named(entry: Arc<str>, prefix: Option<Arc<str>>) -> Run {
        Run {
            entry,
            trail: Trail::prefixed(prefix),
            operation: None,
            external_id: None,
            post_action_error: None,
            idempotency_key: None,
            create_body: None,
            repeated_create: None,
        }
    }

    pub fn finish(self, result: Result<PushStatus, EngineError>) -> PushOutcome {
        let (status, error) = match result {
            Ok(status) => (status, None),
            Err(e) => (PushStatus::Failed, Some(e)),
        };
        let external_id_number = self.external_id.as_deref().and_then(extract::id_number);
        let duration = self.trail.elapsed();
        PushOutcome {
            entry: self.entry,
            operation: self.operation,
            status,
            external_id: self.external_id,
            external_id_number,
            errors: self.trail.errors,
            error,
            post_action_error: self.post_action_error,
            exchanges: self.trail.exchanges,
            templates: self.trail.templates,
            notes: self.trail.notes,
            idempotency_key: self.idempotency_key.map(|k| k.to_string()),
            repeated_create: self.repeated_create,
            duration,
        }
    }
}
