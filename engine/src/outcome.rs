//! The typed result of a push and its audit trail.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde_json::Value as Json;

use crate::error::EngineError;
pub use crate::masked::{MaskedHeaders, MaskedJson};
use crate::plan::OperationKind;
use crate::received::Received;
use crate::transport::HttpRequest;

/// What became of the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PushStatus {
    /// The record was created; store [`PushOutcome::external_id`].
    Created,
    /// The record was updated.
    Updated,
    /// The record was deleted.
    Deleted,
    /// The push failed; see [`PushOutcome::error`].
    Failed,
}

/// The result of one push: status, external id, errors, and every request and response.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PushOutcome {
    /// The entry pushed (`Account`).
    pub entry: Arc<str>,
    /// The operation chosen, once chosen.
    pub operation: Option<OperationKind>,
    /// What became of the record.
    pub status: PushStatus,
    /// The record's external id (new on a create), as the external system writes it.
    pub external_id: Option<String>,
    /// The external id as an integer, when it is one (the spec's `int64` id).
    pub external_id_number: Option<i64>,
    /// The external system's own error messages (`errors` of the response, a fault's text).
    pub errors: Vec<String>,
    /// Why the push failed, classified.
    pub error: Option<EngineError>,
    /// A post-action that failed after the record itself was pushed: the record's status and
    /// id stand (store the id), and the post-action should be run again.
    pub post_action_error: Option<EngineError>,
    /// Every request sent, in order, with its response; secrets masked.
    pub exchanges: Vec<Exchange>,
    /// What each template produced (request bodies, response extractions); secrets masked.
    pub templates: Vec<TemplateOutput>,
    /// Things the caller should know that are not errors (a pre-action skipped on a create, a
    /// synthesised response).
    pub notes: Vec<String>,
    /// The idempotency key the record's create carried (`x-syncdef.idempotency`). When the
    /// create's outcome is unknown, keep it with the record and give it back in
    /// [`RecordState::unresolved_create`](crate::RecordState::unresolved_create): the next
    /// create of the record then carries the same key, whatever its body, so that the external
    /// system recognises it as a repeat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
    /// Set when the create was sent again under the idempotency key kept from an earlier
    /// create of unknown outcome ([`RecordState::unresolved_create`]): the external system
    /// answers such a repeat with the earlier create when that one was carried out. Says what
    /// the push did about it.
    ///
    /// [`RecordState::unresolved_create`]: crate::RecordState::unresolved_create
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeated_create: Option<RepeatedCreate>,
    /// Time the whole push took.
    #[serde(serialize_with = "millis")]
    pub duration: Duration,
}

impl PushOutcome {
    /// Whether the record was pushed.
    #[must_use]
    pub fn is_success(&self) -> bool {
        self.status != PushStatus::Failed
    }

    /// The external id to store for the record.
    #[must_use]
    pub fn external_id(&self) -> Option<&str> {
        self.external_id.as_deref()
    }
}

/// What a push did about a create sent again under an earlier create's idempotency key
/// ([`PushOutcome::repeated_create`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RepeatedCreate {
    /// The body was the earlier create's: whichever create made the record, it holds this
    /// version. Nothing followed.
    SameRecord,
    /// The body differed from the earlier create's (or that one is not known): the answer may
    /// be the earlier create's, so the record was updated at once with its current version.
    Updated,
    /// The body differed, and the entry has no `push.update`: the record there may hold the
    /// earlier version.
    NotUpdated,
}

/// The output of one template.
#[derive(Clone, Debug, Serialize)]
pub struct TemplateOutput {
    /// The template's name (`createRequest`).
    pub name: Arc<str>,
    /// What it produced, secrets masked.
    pub output: MaskedJson,
}

/// One request and its response (or why there is none).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Exchange {
    /// The push step (`create`, `update`, an action's name).
    pub step: Arc<str>,
    /// 1 for the first send of the step, then 2, 3, ... for each retry (after a token
    /// refresh or a transient failure). A re-send after a conflict starts again at 1.
    pub attempt: u32,
    /// The request as sent, secrets masked.
    pub request: RecordedRequest,
    /// The response, if one came.
    pub response: Option<RecordedResponse>,
    /// Why no response came.
    pub error: Option<String>,
    /// When the request was sent, from the start of the push.
    #[serde(serialize_with = "millis")]
    pub started: Duration,
    /// How long it took.
    #[serde(serialize_with = "millis")]
    pub duration: Duration,
    /// How long it waited, before it was sent, for room in the account's rate limit (shown
    /// only when it waited).
    #[serde(serialize_with = "millis", skip_serializing_if = "Duration::is_zero")]
    pub throttled: Duration,
}

/// A request as recorded, secrets masked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RecordedRequest {
    /// Upper-case method.
    pub method: &'static str,
    /// The URL, secret query parameters masked.
    pub url: Arc<str>,
    /// Headers in the order sent, secrets masked (a JSON object in serialized form).
    pub headers: MaskedHeaders,
    /// The body as JSON (`null` when there is none), secrets masked.
    pub body: MaskedJson,
}

impl RecordedRequest {
    /// The request, its URL and body as shown: the URL masked once for every attempt, the
    /// body as the template made it (parsing the bytes again would cost as much as building
    /// them).
    pub(crate) fn new(request: &HttpRequest, shown_url: Arc<str>, shown_body: MaskedJson) -> Self {
        RecordedRequest {
            method: request.method.as_upper_str(),
            url: shown_url,
            headers: MaskedHeaders::sent(Arc::clone(&request.headers)),
            body: shown_body,
        }
    }
}

/// A response as recorded, secrets masked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RecordedResponse {
    /// The status code.
    pub status: u16,
    /// Headers, secrets masked (a JSON object in serialized form).
    pub headers: MaskedHeaders,
    /// The body: JSON when it parses (secrets masked), otherwise its text.
    pub body: MaskedJson,
    /// Whether a dry-run made this response up.
    pub synthesized: bool,
}

impl RecordedResponse {
    /// The response, shared with the engine's reading of it.
    pub(crate) fn new(received: &Arc<Received>) -> Self {
        RecordedResponse {
            status: received.response.status,
            headers: MaskedHeaders::received(Arc::clone(received)),
            body: MaskedJson::from_response(Arc::clone(received)),
            synthesized: received.response.synthesized,
        }
    }
}

/// The most of a text body the audit trail shows: an HTML error page is read in its first
/// lines.
pub(crate) const MAX_SHOWN_TEXT_BODY: usize = 4096;

/// A body that is not JSON (or too large to show whole) is shown as text, secrets redacted,
/// cut at `max` bytes with a note of its whole size, so that an error page does not swamp the
/// audit trail.
pub(crate) fn text_body(bytes: &[u8], max: usize) -> Json {
    Json::String(syncdef_secrets::shown_bytes(bytes, max))
}

fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((d.as_secs_f64() * 1000.0 * 1000.0).round() / 1000.0)
}
