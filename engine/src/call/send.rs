//! Sending one request: credentials, rate limit, the attempts and their audit trail. When to send
//! again is decided by [`retry::decide`], which holds every rule; this file carries it out.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::call::answer::Answer;
use crate::call::authorize::{Keyring, authorize};
use crate::call::compose::Outgoing;
use crate::call::connectors::Connectors;
use crate::call::trail::Trail;
use crate::error::{EngineError, ErrorClass};
use crate::outcome::{Exchange, MaskedJson, RecordedRequest, RecordedResponse};
use crate::plan::CallPlan;
use crate::received::Received;
use crate::reliability::rate_limit::Account;
use crate::reliability::retry::{self, Attempt, AttemptResult, Decision, RequestNature, Verdict};
use crate::transport::{HttpRequest, Transport, TransportError};

/// Sends `outgoing`, the request of `call`: attempts it as [`retry::decide`] rules for a
/// request of `nature` (a dry-run sends once), re-sends it once with a refreshed token after a
/// 401, and records every attempt. Each attempt first waits for `account`'s budget, when the
/// requests draw on one ([`Connectors::account`]).
pub(crate) async fn send(
    trail: &mut Trail,
    conn: &Connectors<'_>,
    account: Option<&Account>,
    call: &CallPlan,
    outgoing: Outgoing,
    nature: RequestNature,
) -> Result<Answer, EngineError> {
    let step = trail.step_name(&call.step);
    let Some(transport) = conn.transport else {
        return Err(EngineError::configuration(
            "the engine has no transport: give it one with Engine::with_transport",
        ));
    };
    let keyring = Keyring {
        tokens: conn.tokens,
        credentials: conn.credentials,
        stand_ins: transport.replays(),
    };
    let auth = authorize(&keyring, &call.security, &step).await?;
    // A body in another media type than JSON says so; JSON is the standard header.
    let content_type = outgoing.body.as_ref().and_then(|b| b.content_type.clone());
    let (body, shown_body) = match outgoing.body {
        Some(b) => (Some(b.bytes), b.shown),
        None => (None, MaskedJson::null()),
    };
    let mut target = outgoing.target;
    if !auth.query.is_empty() {
        target.edit(|url| {
            url.query_pairs_mut().extend_pairs(&auth.query);
        });
    }
    let (url, shown_url) = target.into_parts();
    // Headers beyond the standard ones: the request's own, then the credentials'.
    let mut extra = [outgoing.headers, auth.headers].concat();
    if let Some(content_type) = content_type {
        extra.push(("content-type".to_owned(), content_type.to_string()));
    }
    let authenticate = |e: crate::auth::AuthError| {
        EngineError::new(ErrorClass::Authentication, e.message).at(&step)
    };
    let mut token = auth.token;
    let mut request = HttpRequest {
        step: Arc::clone(&step),
        method: call.reference.method,
        url,
        headers: conn.headers.get(token.as_ref(), body.is_some(), &extra),
        body,
        sample: Some(Arc::clone(&call.sample)),
        idempotency_key: outgoing.idempotency_key,
    };
    let shown = Shown {
        url: shown_url,
        body: shown_body,
    };
    let replay = transport.replays();
    let began = Instant::now();
    let mut history: Vec<Attempt> = Vec::new();
    let mut refreshed = false;
    loop {
        let number = u32::try_from(history.len()).unwrap_or(u32::MAX) + 1 + u32::from(refreshed);
        let result = attempt(trail, account, transport, &request, &shown, number).await;
        if let (Ok(received), Some(rejected)) = (&result, &token)
            && received.response.status == 401
            && auth.refreshable
            && !refreshed
        {
            refreshed = true;
            let Some(fresh) = conn.tokens.refresh(rejected).await.map_err(authenticate)? else {
                return Ok(taken_at_word(Arc::clone(received)));
            };
            request.headers = conn
                .headers
                .get(Some(&fresh), request.body.is_some(), &extra);
            token = Some(fresh);
            continue;
        }
        history.push(Attempt {
            result: observed(&result),
            elapsed: began.elapsed(),
        });
        match retry::decide(&history, nature, conn.retry, fastrand::f64(), replay) {
            Decision::Retry { wait, reason } => {
                tracing::info!(
                    step = %step,
                    attempt = number,
                    wait_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
                    reason = %reason,
                    "retrying external request"
                );
                trail.note(format!(
                    "step `{step}`: {reason}; attempt {} after {} ms",
                    number + 1,
                    wait.as_millis()
                ));
                tokio::time::sleep(wait).await;
            }
            Decision::Stop(verdict) => {
                if let Some(why) = &verdict.gave_up {
                    trail.note(format!("step `{step}`: {why}"));
                }
                return conclude(result, &verdict, &history, &step);
            }
        }
    }
}

/// What the audit trail shows of a request, made once for every attempt.
struct Shown {
    url: Arc<str>,
    body: MaskedJson,
}

/// One attempt: waits for the account's budget, sends, records the exchange.
async fn attempt(
    trail: &mut Trail,
    account: Option<&Account>,
    transport: &dyn Transport,
    request: &HttpRequest,
    shown: &Shown,
    number: u32,
) -> Result<Arc<Received>, TransportError> {
    // Held until the answer is in: the concurrency cap counts requests in flight.
    let permit = match account {
        Some(account) => Some(account.acquire().await),
        None => None,
    };
    let throttled = permit.as_ref().map_or(Duration::ZERO, |p| p.waited);
    if let Some(p) = permit.as_ref().filter(|p| !p.waited.is_zero()) {
        tracing::debug!(
            step = %request.step,
            waited_ms = u64::try_from(p.waited.as_millis()).unwrap_or(u64::MAX),
            "throttled by the account's rate limit"
        );
    }
    let at = Instant::now();
    let started = trail.since_start(at);
    let result = transport.send(request).await;
    let duration = at.elapsed();
    drop(permit);
    let recorded = RecordedRequest::new(request, Arc::clone(&shown.url), shown.body.clone());
    let step = Arc::clone(&request.step);
    // Masked data only: the recorded request, never `request` itself.
    tracing::debug!(
        step = %step,
        attempt = number,
        method = %recorded.method,
        url = %recorded.url,
        status = result.as_ref().map_or(0, |r| r.status),
        elapsed_ms = duration.as_secs_f64() * 1000.0,
        "external request"
    );
    match result {
        Ok(response) => {
            if response.synthesized {
                trail.note(synthesized_note(&step, request));
            }
            let received = Arc::new(Received::new(response));
            trail.exchange(Exchange {
                step,
                attempt: number,
                request: recorded,
                response: Some(RecordedResponse::new(&received)),
                error: None,
                started,
                duration,
                throttled,
            });
            Ok(received)
        }
        Err(e) => {
            trail.exchange(Exchange {
                step,
                attempt: number,
                request: recorded,
                response: None,
                error: Some(e.to_string()),
                started,
                duration,
                throttled,
            });
            Err(e)
        }
    }
}

fn synthesized_note(step: &str, request: &HttpRequest) -> String {
    let source = request.sample.as_ref().map_or("none", |s| s.source);
    format!(
        "step `{step}`: no response given; answered with one synthesised from the operation's {}",
        match source {
            "example" => "example",
            "schema" => "response schema",
            _ => "declaration (it declares no JSON response: empty body)",
        }
    )
}

/// What an attempt came to, as the retry rules see it.
fn observed(result: &Result<Arc<Received>, TransportError>) -> AttemptResult {
    match result {
        Ok(received) => AttemptResult::Answered {
            status: received.response.status,
            retry_after: retry::retry_after(&received.response),
        },
        Err(TransportError::NotSent(_)) => AttemptResult::NotSent,
        Err(TransportError::NoAnswer(_)) => AttemptResult::NoAnswer,
        Err(_) => AttemptResult::Refused,
    }
}

fn taken_at_word(received: Arc<Received>) -> Answer {
    Answer {
        received,
        unknown_outcome: None,
        retry_after: None,
    }
}

/// The last attempt's result, read as `verdict` says.
fn conclude(
    result: Result<Arc<Received>, TransportError>,
    verdict: &Verdict,
    history: &[Attempt],
    step: &str,
) -> Result<Answer, EngineError> {
    let unknown = verdict.unknown_outcome.then(|| why_unknown(history));
    match result {
        Ok(received) => Ok(Answer {
            received,
            unknown_outcome: unknown,
            retry_after: verdict.retry_after,
        }),
        Err(e) => {
            let (class, message) = match (&e, unknown) {
                (_, Some(why)) => (
                    ErrorClass::UnknownOutcome,
                    format!(
                        "{e}; {why}: unknown: check before retrying (it is not re-sent blindly, so that the record is not created twice)"
                    ),
                ),
                (TransportError::NotSent(_) | TransportError::NoAnswer(_), None) => {
                    (ErrorClass::Transient, e.to_string())
                }
                _ => (ErrorClass::Configuration, e.to_string()),
            };
            Err(EngineError::new(class, message)
                .retry_after(verdict.retry_after)
                .at(step))
        }
    }
}

/// Which attempt may have been carried out, in words.
fn why_unknown(history: &[Attempt]) -> String {
    let found = history
        .iter()
        .enumerate()
        .find(|(_, a)| a.result.may_have_been_carried_out());
    match found {
        Some((
            i,
            Attempt {
                result: AttemptResult::Answered { status, .. },
                ..
            },
        )) => format!(
            "attempt {} was answered HTTP {status}, a server or gateway error after which the request may have been carried out, and no attempt was seen to succeed",
            i + 1
        ),
        Some((i, _)) => format!(
            "attempt {} was sent and got no answer, so the request may have been carried out, and no attempt was seen to succeed",
            i + 1
        ),
        None => "the request may have been carried out".to_owned(),
    }
}
