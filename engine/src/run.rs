//! One push in progress: what it has found so far (the scope templates and placeholders read)
//! and what it has done (the audit trail), and the sending of each request.

use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use bytes::Bytes;
use syncdef_transform::Value;
use syncdef_transform::value::{Map, Shape};

use crate::engine::Engine;
use crate::error::{ErrorClass, PushError};
use crate::extract::{self, ResponseBody};
use crate::outcome::{
    Exchange, MaskedJson, PushOutcome, PushStatus, RecordedRequest, RecordedResponse,
    TemplateOutput,
};
use crate::plan::{CallPlan, OperationKind};
use crate::received::Received;
use crate::reliability::rate_limit::Account;
use crate::reliability::retry;
use crate::request::{Fill, Target};
use crate::servers::Server;
use crate::state::RecordState;
use crate::transport::{HttpRequest, HttpResponse, TransportError};

/// A response, shared with the audit trail's record of it, and what the engine learnt of it.
pub(crate) struct Answer {
    pub received: Arc<Received>,
    /// A gateway error (502, 504) to a request that is not safe to repeat: the upstream may
    /// have carried it out, so its outcome is unknown rather than transient.
    pub maybe_done: bool,
    /// For a transient status given up on: how long to wait before pushing again.
    pub retry_after: Option<Duration>,
}

impl Answer {
    pub fn response(&self) -> &HttpResponse {
        &self.received.response
    }

    pub fn body(&self) -> &ResponseBody {
        &self.received.body
    }
}

/// A request body: the bytes sent and the JSON shown in the audit trail, which reads them.
pub(crate) struct Body {
    pub bytes: Bytes,
    pub shown: MaskedJson,
}

/// What templates and placeholders can read, growing as pre-actions run.
pub(crate) struct Scope<'a> {
    pub external_id: Option<String>,
    pub related: BTreeMap<String, String>,
    pub server: &'a Arc<Server>,
    /// Values read by `in: Body` actions, in the order read, by schema name.
    pub body_values: Vec<(String, String)>,
    /// Headers set by `in: Header` actions, sent on the push request.
    pub headers: Vec<(String, String)>,
}

impl<'a> Scope<'a> {
    pub fn new(state: &RecordState, server: &'a Arc<Server>) -> Scope<'a> {
        Scope {
            external_id: state.external_id.clone(),
            related: state.related.clone(),
            server,
            body_values: Vec::new(),
            headers: Vec::new(),
        }
    }

    pub fn fill(&self) -> Fill<'_> {
        Fill {
            external_id: self.external_id.as_deref(),
            related: &self.related,
            variables: &self.server.variables,
        }
    }

    /// The template input, of the entry's [`shape`](crate::plan::input_shape):
    /// `$.<root>` (the record), `$.serverVariables`, `$.externalId`,
    /// `$.syncToken` (the first value a Body pre-action read), `$.syncTokens` (all of them
    /// by schema name) and `$.related.<Entry>.IntegrationId` (the external id of each related
    /// record, as `{<Entry>.IntegrationId}` fills paths: from the record state, or from an
    /// `ApiSynchronization` pre-action that pushed it).
    pub fn input(&self, shape: &Shape, record: &Value) -> Value {
        let keys = &*INPUT_KEYS;
        let text = |s: Option<&str>| s.map_or(Value::Null, Value::from);
        let tokens = if self.body_values.is_empty() {
            keys.no_members.clone()
        } else {
            let mut tokens = Map::with_capacity(self.body_values.len());
            for (k, v) in &self.body_values {
                tokens.insert(Arc::from(k.as_str()), Value::from(v.as_str()));
            }
            Value::object(tokens)
        };
        let related = if self.related.is_empty() {
            keys.no_members.clone()
        } else {
            let mut related = Map::with_capacity(self.related.len());
            for (entry, id) in &self.related {
                let mut ids = Map::with_capacity(1);
                ids.insert(keys.integration_id.clone(), Value::from(id.as_str()));
                related.insert(Arc::from(entry.as_str()), Value::object(ids));
            }
            Value::object(related)
        };
        let values = vec![
            record.clone(),
            self.server.template_variables.clone(),
            text(self.external_id.as_deref()),
            text(self.body_values.first().map(|(_, v)| v.as_str())),
            tokens,
            related,
        ];
        // The shape is the entry's, of as many keys.
        Value::object(Map::with_shape(shape, values).unwrap_or_default())
    }
}

/// The member names inside every template input, allocated once for all pushes.
struct InputKeys {
    integration_id: Arc<str>,
    /// `{}`, shared by the inputs that have no sync tokens or related records.
    no_members: Value,
}

static INPUT_KEYS: LazyLock<InputKeys> = LazyLock::new(|| InputKeys {
    integration_id: Arc::from("IntegrationId"),
    no_members: Value::object(Map::new()),
});

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
    /// The external account's budget this push draws on (none: unlimited, or a dry-run).
    pub account: Option<Arc<Account>>,
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
            account: None,
        }
    }

    pub fn note(&mut self, note: String) {
        self.notes.push(note);
    }

    pub fn template(&mut self, name: Arc<str>, output: MaskedJson) {
        self.templates.push(TemplateOutput { name, output });
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
            duration: self.started.elapsed(),
        }
    }

    /// The body of `call` from its `{step}Request` template, serialized as the template language
    /// writes it (keeping .NET number forms such as `2.10`).
    pub fn request_body(
        &mut self,
        call: &CallPlan,
        input: &Value,
    ) -> Result<Option<Body>, PushError> {
        let Some(template) = &call.request else {
            return Ok(None);
        };
        let step = &*call.step;
        let related = input.get("related");
        if let Some(entry) = call
            .related_reads
            .iter()
            .find(|entry| related.and_then(|r| r.get(entry)).is_none())
        {
            return Err(PushError::configuration(format!(
                "`{step}Request` reads `$.related.{entry}.IntegrationId`, the external id of the \
                 related `{entry}`, which is not known; pass it in the record state \
                 (`--related {entry}=ID`) or push the `{entry}` first"
            ))
            .at(step));
        }
        let mut text = String::with_capacity(512);
        template.apply_to_json(input, &mut text).map_err(|e| {
            PushError::configuration(format!("the template `{step}Request` failed: {e}")).at(step)
        })?;
        if text == "null" {
            self.template(Arc::clone(&call.request_name), MaskedJson::null());
            return Ok(None);
        }
        // The bytes sent, shared by every attempt and by the audit trail's record of them.
        let bytes = Bytes::from(text.into_bytes());
        let shown = MaskedJson::from_sent(bytes.clone());
        self.template(Arc::clone(&call.request_name), shown.clone());
        call.check_body(&bytes)?;
        Ok(Some(Body { bytes, shown }))
    }

    /// Sends one request with the engine's transport and token: retries transient failures
    /// by the engine's [`RetryPolicy`](crate::RetryPolicy) (a request that is not
    /// `repeatable`, a create without idempotency key, only when it certainly did not reach
    /// the server), and once with a refreshed token after a 401. Every attempt is recorded;
    /// a dry-run sends once.
    pub async fn send(
        &mut self,
        engine: &Engine,
        call: &CallPlan,
        target: Target,
        body: Option<Body>,
        extra_headers: &[(String, String)],
        repeatable: bool,
    ) -> Result<Answer, PushError> {
        let (body, shown) = match body {
            Some(b) => (Some(b.bytes), b.shown),
            None => (None, MaskedJson::null()),
        };
        let Some(transport) = &engine.transport else {
            return Err(PushError::configuration(
                "the engine has no transport: give it one with Engine::with_transport",
            ));
        };
        let step = &*call.step;
        let replay = transport.replays();
        let (url, shown_url) = target.into_parts();
        let mut token = engine
            .tokens
            .token()
            .await
            .map_err(|e| PushError::new(ErrorClass::Authentication, e.message).at(step))?;
        let mut request = HttpRequest {
            step: Arc::clone(&call.step),
            method: call.reference.method,
            url,
            headers: engine
                .request_headers
                .get(token.as_ref(), body.is_some(), extra_headers),
            body,
            sample: Some(Arc::clone(&call.sample)),
        };
        let policy = engine.retry_policy();
        let began = Instant::now();
        let (mut attempt, mut retries, mut refreshed) = (0u32, 0u32, false);
        loop {
            attempt += 1;
            let result = self
                .attempt(
                    transport.as_ref(),
                    &request,
                    &shown_url,
                    &shown,
                    attempt,
                    repeatable,
                )
                .await;
            if let (Ok(answer), Some(rejected)) = (&result, &token)
                && answer.response().status == 401
                && !refreshed
            {
                refreshed = true;
                let fresh =
                    engine.tokens.refresh(rejected).await.map_err(|e| {
                        PushError::new(ErrorClass::Authentication, e.message).at(step)
                    })?;
                let Some(fresh) = fresh else {
                    return result;
                };
                request.headers =
                    engine
                        .request_headers
                        .get(Some(&fresh), request.body.is_some(), extra_headers);
                token = Some(fresh);
                continue;
            }
            let (wait, why) = match &result {
                Ok(answer) => {
                    let status = answer.response().status;
                    if !policy.retries_status(status) {
                        return result;
                    }
                    if !(retry::refused_unprocessed(status) || repeatable) {
                        // A gateway error to a create: the upstream may have created it.
                        return result.map(|mut a| {
                            a.maybe_done = true;
                            a
                        });
                    }
                    let wait = retry::retry_after(answer.response()).map_or_else(
                        || policy.backoff(retries + 1),
                        |w| w.min(policy.max_backoff),
                    );
                    (wait, format!("HTTP {status}"))
                }
                Err(e) if e.class == ErrorClass::Transient => {
                    (policy.backoff(retries + 1), e.message.clone())
                }
                Err(_) => return result,
            };
            let out_of_attempts = retries + 1 >= policy.max_attempts;
            let past_deadline = began.elapsed() + wait > policy.deadline;
            if replay || out_of_attempts || past_deadline {
                if !replay {
                    self.note(format!(
                        "step `{step}`: {why}; not retried: {}",
                        if out_of_attempts {
                            format!("{} attempts made", policy.max_attempts)
                        } else {
                            format!(
                                "the next attempt would end after the {} ms deadline",
                                policy.deadline.as_millis()
                            )
                        }
                    ));
                }
                return match result {
                    Ok(mut a) => {
                        a.retry_after = Some(wait);
                        Ok(a)
                    }
                    Err(e) => Err(e.retry_after(Some(wait))),
                };
            }
            retries += 1;
            tracing::info!(
                step = %step,
                attempt,
                wait_ms = wait.as_millis() as u64,
                reason = %why,
                "retrying external request"
            );
            self.note(format!(
                "step `{step}`: {why}; attempt {} after {} ms",
                attempt + 1,
                wait.as_millis()
            ));
            tokio::time::sleep(wait).await;
        }
    }

    async fn attempt(
        &mut self,
        transport: &dyn crate::transport::Transport,
        request: &HttpRequest,
        shown_url: &Arc<str>,
        shown_body: &MaskedJson,
        attempt: u32,
        repeatable: bool,
    ) -> Result<Answer, PushError> {
        // Held until the answer is in: the concurrency cap counts requests in flight.
        let permit = match &self.account {
            Some(account) => Some(account.acquire().await),
            None => None,
        };
        if let Some(p) = permit.as_ref().filter(|p| !p.waited.is_zero()) {
            tracing::debug!(
                step = %request.step,
                waited_ms = p.waited.as_millis() as u64,
                "throttled by the account's rate limit"
            );
        }
        let at = Instant::now();
        let started = at.saturating_duration_since(self.started);
        let result = transport.send(request).await;
        let duration = at.elapsed();
        drop(permit);
        let recorded = RecordedRequest::new(request, Arc::clone(shown_url), shown_body.clone());
        let step = Arc::clone(&request.step);
        // Masked data only: the recorded request, never `request` itself.
        tracing::debug!(
            step = %step,
            attempt,
            method = %recorded.method,
            url = %recorded.url,
            status = result.as_ref().map_or(0, |r| r.status),
            elapsed_ms = duration.as_secs_f64() * 1000.0,
            "external request"
        );
        match result {
            Ok(response) => {
                if response.synthesized {
                    let source = request.sample.as_ref().map_or("none", |s| s.source);
                    self.note(format!(
                        "step `{step}`: no response given; answered with one synthesised from the operation's {}",
                        match source {
                            "example" => "example",
                            "schema" => "response schema",
                            _ => "declaration (it declares no JSON response: empty body)",
                        }
                    ));
                }
                let received = Arc::new(Received::new(response));
                self.exchanges.push(Exchange {
                    step,
                    attempt,
                    request: recorded,
                    response: Some(RecordedResponse::new(&received)),
                    error: None,
                    started,
                    duration,
                });
                Ok(Answer {
                    received,
                    maybe_done: false,
                    retry_after: None,
                })
            }
            Err(e) => {
                self.exchanges.push(Exchange {
                    step: Arc::clone(&step),
                    attempt,
                    request: recorded,
                    response: None,
                    error: Some(e.to_string()),
                    started,
                    duration,
                });
                let (class, message) = match &e {
                    TransportError::NotSent(_) => (ErrorClass::Transient, e.to_string()),
                    TransportError::NoAnswer(_) if repeatable => {
                        (ErrorClass::Transient, e.to_string())
                    }
                    TransportError::NoAnswer(_) => (
                        ErrorClass::UnknownOutcome,
                        format!(
                            "{e}; the request was sent and may have been carried out: unknown: check before retrying (it is not re-sent, so that the record is not created twice)"
                        ),
                    ),
                    _ => (ErrorClass::Configuration, e.to_string()),
                };
                Err(PushError::new(class, message).at(&step))
            }
        }
    }

    /// A non-2xx answer is a failed step: the external system's messages are kept, and the
    /// status gives the class.
    pub fn check_status(&mut self, step: &str, answer: &Answer) -> Result<(), PushError> {
        let response = answer.response();
        if response.is_success() {
            return Ok(());
        }
        let status = response.status;
        let messages = answer
            .body()
            .json()
            .map(extract::error_messages)
            .unwrap_or_default();
        let mut message = format!("the external system answered HTTP {status}");
        if answer.maybe_done {
            message.push_str(" from a gateway: the request may have reached the external system and been carried out; unknown: check before retrying");
        }
        if (300..400).contains(&status) {
            match response.header("location") {
                Some(to) => message.push_str(&format!(
                    " redirecting to {to}; redirects to another host are never followed: fix the server URL"
                )),
                None => message.push_str(" (a redirect without Location)"),
            }
        } else if status == 401 {
            message.push_str(" (unauthorized, also after a token refresh): authorize again with `syncdef auth login`");
        }
        if !messages.is_empty() {
            message.push_str(": ");
            message.push_str(&messages.join("; "));
        }
        self.errors = messages;
        let class = if answer.maybe_done {
            ErrorClass::UnknownOutcome
        } else {
            ErrorClass::from_status(status)
        };
        let hint = answer.retry_after.or_else(|| retry::retry_after(response));
        Err(PushError::new(class, message).retry_after(hint).at(step))
    }
}
