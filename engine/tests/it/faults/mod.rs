//! Fault injection on loopback: every reliability behaviour of the push engine against a
//! misbehaving external system (wiremock for HTTP answers, a raw TCP server for hangs and
//! resets). Each test fails without the behaviour it names.

use crate::common;
mod raw;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime};

use futures::future::BoxFuture;
use serde_json::json;
use syncdef_definitions::settings::PushConfig;
use syncdef_definitions::{Definition, SourceFile};
use syncdef_engine::auth::{AuthError, Secret};
use syncdef_engine::transport::{HttpRequest, HttpResponse, Transport, TransportError};
use syncdef_engine::{
    Engine, ErrorClass, PushOutcome, PushStatus, RateLimitPolicy, RateLimits, RecordState,
    RecordingTransport, RepeatedCreate, ReqwestTransport, RetryPolicy, StaticToken, StepResponse,
    TokenProvider, UnresolvedCreate,
};
use syncdef_transform::Value;
use url::Url;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use raw::{Fault, RawServer, Unopened};

/// Retries without waiting, so that the suite is quick; the waits themselves are tested with
/// `Retry-After`.
fn fast() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 4,
        initial_backoff: Duration::ZERO,
        max_backoff: Duration::from_secs(5),
        deadline: Duration::from_secs(30),
        statuses: vec![429, 502, 503, 504],
    }
}

/// A catalog definition (accounts only), loaded as the CLI would.
fn catalog(name: &str) -> Engine {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../catalog")
        .join(name)
        .join("definition.yaml");
    common::load_file(&path)
}

fn transport(timeout_ms: u64) -> Arc<ReqwestTransport> {
    Arc::new(
        ReqwestTransport::builder()
            .timeout(Duration::from_millis(timeout_ms))
            .connect_timeout(Duration::from_millis(500))
            .build()
            .expect("the client builds"),
    )
}

/// `engine` sending to `base` with a fast retry policy and a rate-limit registry of its own.
fn connect(engine: &Engine, base: &str) -> Engine {
    engine
        .with_transport(transport(2_000))
        .with_token_provider(Arc::new(StaticToken::new("access-1")))
        .with_base_url(Url::parse(base).expect("the URL parses"))
        .with_retry_policy(fast())
        .with_rate_limits(RateLimits::new())
}

fn generic(base: &str) -> Engine {
    connect(&common::engine("generic.yaml"), base)
}

fn account() -> Value {
    common::json(r#"{"id": 42, "name": "Acme", "corpEmail": "ap@acme.example"}"#)
}

fn updating(id: &str) -> RecordState {
    let mut state = RecordState::new();
    state.external_id = Some(id.to_owned());
    state
}

fn created() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({"id": 7, "success": true, "errors": []}))
}

fn class(outcome: &PushOutcome) -> Option<ErrorClass> {
    outcome.error.as_ref().map(|e| e.class)
}

/// The push failed with `expected`; the error is shown when it did not.
fn assert_class(outcome: &PushOutcome, expected: ErrorClass) {
    assert_eq!(class(outcome), Some(expected), "{:#?}", outcome.error);
}

async fn received(server: &MockServer, verb: &str) -> usize {
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .filter(|r| r.method.as_str() == verb)
        .count()
}

/// A server whose `POST /accounts` (the generic definition's create) answers with `answer`.
async fn creates_answered(answer: impl Respond + 'static) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/accounts"))
        .respond_with(answer)
        .mount(&server)
        .await;
    server
}

/// Answers with `first` for the first `n` requests, then `then`.
struct Burst {
    n: usize,
    seen: AtomicUsize,
    first: ResponseTemplate,
    then: ResponseTemplate,
}

impl Burst {
    fn new(n: usize, first: ResponseTemplate, then: ResponseTemplate) -> Burst {
        Burst {
            n,
            seen: AtomicUsize::new(0),
            first,
            then,
        }
    }
}

impl Respond for Burst {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        if self.seen.fetch_add(1, Ordering::SeqCst) < self.n {
            self.first.clone()
        } else {
            self.then.clone()
        }
    }
}

// --- 429, Retry-After, 5xx -------------------------------------------------------------------

#[tokio::test]
async fn too_many_requests_without_retry_after_is_retried_with_backoff() {
    let server = creates_answered(Burst::new(2, ResponseTemplate::new(429), created())).await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let outcome = generic(&server.uri())
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    let creates: Vec<u32> = outcome
        .exchanges
        .iter()
        .filter(|e| &*e.step == "create")
        .map(|e| e.attempt)
        .collect();
    assert_eq!(
        creates,
        vec![1, 2, 3],
        "every attempt is in the audit trail"
    );
    assert_eq!(
        received(&server, "POST").await,
        3 + 2,
        "3 creates, 2 post-actions"
    );
}

#[tokio::test]
async fn retry_after_in_seconds_is_honoured() {
    let server = creates_answered(Burst::new(
        1,
        ResponseTemplate::new(429).insert_header("Retry-After", "1"),
        created(),
    ))
    .await;
    let started = Instant::now();
    let outcome = generic(&server.uri())
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created);
    // The policy's own backoff is zero: only the header can have made it wait.
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn retry_after_as_an_http_date_is_honoured() {
    let server = MockServer::start().await;
    let at = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(2));
    Mock::given(method("POST"))
        .and(path("/accounts"))
        .respond_with(Burst::new(
            1,
            ResponseTemplate::new(503).insert_header("Retry-After", at.as_str()),
            created(),
        ))
        .mount(&server)
        .await;
    let started = Instant::now();
    let outcome = generic(&server.uri())
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created);
    // The date has whole seconds: two seconds ahead is at least one second of waiting.
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn throttling_that_lasts_fails_transient_with_a_retry_hint() {
    let server =
        creates_answered(ResponseTemplate::new(429).insert_header("Retry-After", "0")).await;
    let outcome = generic(&server.uri())
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(class(&outcome), Some(ErrorClass::Transient));
    let error = outcome.error.as_ref().expect("an error");
    assert_eq!(error.retry_after, Some(Duration::ZERO));
    assert_eq!(
        received(&server, "POST").await,
        4,
        "max_attempts bounds the retries"
    );
    let report = syncdef_engine::render::json_report(&outcome);
    assert_eq!(report["outcome"]["error"]["retryAfterMs"], json!(0));
}

#[tokio::test]
async fn the_deadline_stops_retries_that_would_end_after_it() {
    let server =
        creates_answered(ResponseTemplate::new(429).insert_header("Retry-After", "20")).await;
    let engine = generic(&server.uri()).with_retry_policy(RetryPolicy {
        deadline: Duration::from_secs(5),
        max_backoff: Duration::from_secs(60),
        ..fast()
    });
    let started = Instant::now();
    let outcome = engine
        .push("Account", &account(), &RecordState::new())
        .await;
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "did not wait 20 s"
    );
    let error = outcome.error.as_ref().expect("an error");
    assert_eq!(error.class, ErrorClass::Transient);
    assert_eq!(error.retry_after, Some(Duration::from_secs(20)));
    assert_eq!(received(&server, "POST").await, 1);
}

#[tokio::test]
async fn a_burst_of_503_on_a_create_is_retried() {
    let server = creates_answered(Burst::new(3, ResponseTemplate::new(503), created())).await;
    let outcome = generic(&server.uri())
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    assert_eq!(outcome.external_id(), Some("7"));
}

#[tokio::test]
async fn a_gateway_timeout_on_a_create_is_not_resent_and_reported_unknown() {
    let server = creates_answered(ResponseTemplate::new(504)).await;
    let outcome = generic(&server.uri())
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(class(&outcome), Some(ErrorClass::UnknownOutcome));
    let error = outcome.error.as_ref().expect("an error");
    assert!(error.message.contains("check before retrying"), "{error}");
    assert_eq!(
        received(&server, "POST").await,
        1,
        "a create is never blindly re-sent"
    );
}

#[tokio::test]
async fn a_burst_of_502_on_an_update_is_retried() {
    let server = MockServer::start().await;
    Mock::given(method("PUT"))
        .and(path("/accounts/7"))
        .respond_with(Burst::new(2, ResponseTemplate::new(502), created()))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let outcome = generic(&server.uri())
        .push("Account", &account(), &updating("7"))
        .await;
    assert_eq!(outcome.status, PushStatus::Updated, "{:#?}", outcome.error);
    assert_eq!(received(&server, "PUT").await, 3);
}

#[tokio::test]
async fn a_client_error_is_never_retried() {
    let server = creates_answered(
        ResponseTemplate::new(400).set_body_json(json!({"errors": ["name taken"]})),
    )
    .await;
    let outcome = generic(&server.uri())
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(class(&outcome), Some(ErrorClass::ExternalValidation));
    assert_eq!(outcome.error.as_ref().and_then(|e| e.retry_after), None);
    assert_eq!(received(&server, "POST").await, 1);
}

// --- connections: refused, hangs, resets ---------------------------------------------------

#[tokio::test]
async fn a_connection_that_cannot_be_opened_is_retried_then_transient() {
    // A port that was just free: connecting is refused, so nothing was sent.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let outcome = generic(&format!("http://127.0.0.1:{port}"))
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_class(&outcome, ErrorClass::Transient);
    assert_eq!(
        outcome.exchanges.len(),
        4,
        "a request never sent is retried"
    );
    assert!(outcome.error.as_ref().and_then(|e| e.retry_after).is_some());
}

#[tokio::test]
async fn a_timeout_after_sending_a_create_is_unknown_and_not_resent() {
    let server = RawServer::start(vec![Fault::Hang]).await;
    let engine = generic(&server.url()).with_transport(transport(300));
    let outcome = engine
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_class(&outcome, ErrorClass::UnknownOutcome);
    let message = &outcome.error.as_ref().expect("an error").message;
    assert!(
        message.contains("unknown: check before retrying"),
        "{message}"
    );
    assert_eq!(server.requests().len(), 1, "never re-sent");
}

#[tokio::test]
async fn a_connection_reset_after_sending_a_create_is_unknown_and_not_resent() {
    let server = RawServer::start(vec![Fault::Reset]).await;
    let outcome = generic(&server.url())
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_class(&outcome, ErrorClass::UnknownOutcome);
    assert_eq!(server.requests().len(), 1);
}

/// A transport whose connections give up opening after `connect_ms`, with `timeout_ms` for the
/// whole request.
fn connecting(connect_ms: u64, timeout_ms: u64) -> Arc<ReqwestTransport> {
    Arc::new(
        ReqwestTransport::builder()
            .connect_timeout(Duration::from_millis(connect_ms))
            .timeout(Duration::from_millis(timeout_ms))
            .build()
            .expect("the client builds"),
    )
}

/// The create attempts of `outcome` that got no response, and why.
fn unanswered_creates(outcome: &PushOutcome) -> Vec<(u32, String)> {
    outcome
        .exchanges
        .iter()
        .filter(|e| &*e.step == "create" && e.response.is_none())
        .map(|e| (e.attempt, e.error.clone().unwrap_or_default()))
        .collect()
}

/// A create whose connection never opened was never sent: it is retried (no duplicate is
/// possible) and, when every attempt hangs, reported transient, saying it was not sent.
#[tokio::test]
async fn a_create_whose_connection_never_opens_is_retried_and_reported_not_sent() {
    let server = Unopened::start();
    let engine = generic(&server.url())
        .with_transport(connecting(200, 5_000))
        .with_retry_policy(RetryPolicy {
            max_attempts: 3,
            ..fast()
        });
    let outcome = engine
        .push("Account", &account(), &RecordState::new())
        .await;
    let error = outcome.error.as_ref().expect("an error");
    assert_eq!(error.class, ErrorClass::Transient, "{error}");
    assert!(
        error.message.contains("could not be sent") && !error.message.contains("unknown"),
        "{error}"
    );
    assert!(error.retry_after.is_some(), "a hint for the worker");
    let attempts = unanswered_creates(&outcome);
    assert_eq!(
        attempts.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        vec![1, 2, 3],
        "every attempt was made: {attempts:?}"
    );
    assert!(
        attempts
            .iter()
            .all(|(_, why)| why.contains("could not be sent") && why.contains("did not open")),
        "{attempts:?}"
    );
    assert_eq!(outcome.status, PushStatus::Failed);
}

/// The same with a request timeout shorter than the connect timeout: the connection still
/// hangs when the request's time is up, and nothing was sent either.
#[tokio::test]
async fn a_request_timeout_while_connecting_is_not_sent() {
    let server = Unopened::start();
    let engine = generic(&server.url())
        .with_transport(connecting(10_000, 200))
        .with_retry_policy(RetryPolicy {
            max_attempts: 2,
            ..fast()
        });
    let started = Instant::now();
    let outcome = engine
        .push("Account", &account(), &RecordState::new())
        .await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_class(&outcome, ErrorClass::Transient);
    assert_eq!(unanswered_creates(&outcome).len(), 2);
}

/// Lets `server` accept connections once the first attempt has failed, counting attempts.
struct OpensAfterFirstFailure {
    inner: Arc<ReqwestTransport>,
    closed: tokio::sync::Mutex<Option<Unopened>>,
    open: tokio::sync::Mutex<Option<RawServer>>,
    sends: AtomicUsize,
}

impl Transport for OpensAfterFirstFailure {
    fn send<'a>(
        &'a self,
        request: &'a HttpRequest,
    ) -> BoxFuture<'a, Result<HttpResponse, TransportError>> {
        Box::pin(async move {
            self.sends.fetch_add(1, Ordering::SeqCst);
            let result = self.inner.send(request).await;
            if result.is_err()
                && let Some(closed) = self.closed.lock().await.take()
            {
                *self.open.lock().await = Some(closed.open().await);
            }
            result
        })
    }
}

#[tokio::test]
async fn a_create_whose_connection_never_opened_is_sent_once_it_opens() {
    let closed = Unopened::start();
    let url = closed.url();
    let transport = Arc::new(OpensAfterFirstFailure {
        inner: connecting(200, 5_000),
        closed: tokio::sync::Mutex::new(Some(closed)),
        open: tokio::sync::Mutex::new(None),
        sends: AtomicUsize::new(0),
    });
    let outcome = generic(&url)
        .with_transport(transport.clone())
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    assert_eq!(outcome.external_id(), Some("7"));
    let creates: Vec<(u32, bool)> = outcome
        .exchanges
        .iter()
        .filter(|e| &*e.step == "create")
        .map(|e| (e.attempt, e.response.is_some()))
        .collect();
    assert_eq!(creates, vec![(1, false), (2, true)], "a second attempt");
    let server = transport
        .open
        .lock()
        .await
        .take()
        .expect("the server opened");
    let received: Vec<String> = server
        .requests()
        .iter()
        .filter_map(|r| r.lines().next().map(str::to_owned))
        .filter(|line| line.starts_with("POST /accounts "))
        .collect();
    assert_eq!(
        received.len(),
        1,
        "the server got the create once: {received:?}"
    );
    assert!(transport.sends.load(Ordering::SeqCst) >= 2);
}

#[tokio::test]
async fn a_timeout_after_sending_an_update_is_retried() {
    let server = RawServer::start(vec![Fault::Hang]).await;
    let engine = generic(&server.url()).with_transport(transport(300));
    let outcome = engine.push("Account", &account(), &updating("7")).await;
    assert_eq!(outcome.status, PushStatus::Updated, "{:#?}", outcome.error);
    let puts = server
        .requests()
        .iter()
        .filter(|r| r.starts_with("PUT "))
        .count();
    assert_eq!(puts, 2);
}

#[tokio::test]
async fn a_create_with_an_idempotency_key_is_resent_with_the_same_key_after_a_reset() {
    let server = RawServer::start(vec![Fault::Reset, Fault::Hang]).await;
    let engine =
        connect(&catalog("quickbooks-online"), &server.url()).with_transport(transport(300));
    let outcome = engine
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    let keys: Vec<&str> = requests
        .iter()
        .map(|r| {
            let line = r.lines().next().unwrap_or_default();
            line.split("requestid=")
                .nth(1)
                .unwrap_or("")
                .split([' ', '&'])
                .next()
                .unwrap_or("")
        })
        .collect();
    assert_eq!(keys[0].len(), 32, "{requests:?}");
    assert!(
        keys.iter().all(|k| *k == keys[0]),
        "the same key every time: {keys:?}"
    );
    // The audit trail shows each attempt's URL as sent, key included.
    assert_eq!(outcome.exchanges.len(), 3);
    for exchange in &outcome.exchanges {
        assert!(
            exchange
                .request
                .url
                .contains(&format!("requestid={}", keys[0])),
            "{}",
            exchange.request.url
        );
    }
}

// --- a create that may have been carried out --------------------------------------------------

/// The `requestid` of each create request the raw server received, in order.
fn request_ids(server: &RawServer) -> Vec<String> {
    server
        .requests()
        .iter()
        .filter(|r| r.starts_with("POST "))
        .filter_map(|line| {
            line.split("requestid=").nth(1).map(|rest| {
                rest.chars()
                    .take_while(char::is_ascii_alphanumeric)
                    .collect()
            })
        })
        .collect()
}

#[tokio::test]
async fn a_lost_create_then_throttled_until_the_attempts_run_out_is_unknown() {
    // The create reaches QuickBooks, the connection resets before the answer, and every
    // repeat with the same requestid is throttled: the last answer (429) must not decide.
    let server = RawServer::start(vec![
        Fault::Reset,
        Fault::Throttle,
        Fault::Throttle,
        Fault::Throttle,
    ])
    .await;
    let engine =
        connect(&catalog("quickbooks-online"), &server.url()).with_transport(transport(300));
    let outcome = engine
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_class(&outcome, ErrorClass::UnknownOutcome);
    let message = &outcome.error.as_ref().expect("an error").message;
    assert!(
        message.contains("attempt 1 was sent and got no answer"),
        "{message}"
    );
    let ids = request_ids(&server);
    assert_eq!(ids.len(), 4);
    assert!(ids.iter().all(|k| *k == ids[0]), "{ids:?}");
    assert_eq!(outcome.idempotency_key.as_deref(), Some(ids[0].as_str()));
}

#[tokio::test]
async fn the_next_create_of_an_unresolved_record_carries_the_kept_key_whatever_its_body() {
    let server = RawServer::start(Vec::new()).await;
    // The catalog without its lookups: the kept key alone makes the repeat safe.
    let engine =
        connect(&quickbooks_without_lookups(), &server.url()).with_transport(transport(2_000));
    let kept = "0123456789abcdef0123456789abcdef";
    // The record changed since: a key derived from the new body would be new, and QuickBooks
    // would create the customer a second time.
    let changed = common::json(r#"{"id": 42, "name": "Acme Renamed"}"#);
    let state = RecordState::new().with_unresolved_create(UnresolvedCreate {
        idempotency_key: Some(kept.to_owned()),
        body: None,
    });
    let outcome = engine.push("Account", &changed, &state).await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    assert_eq!(request_ids(&server), vec![kept.to_owned()]);
    // What the earlier create sent is not known: the record is brought up to date after it.
    assert!(
        outcome.exchanges.iter().any(|e| &*e.step == "update"),
        "{:?}",
        request_lines(&server)
    );
    assert!(
        outcome
            .notes
            .iter()
            .any(|n| n.contains("same idempotency key")),
        "{:?}",
        outcome.notes
    );
}

/// The catalog's QuickBooks definition without its lookups: a kept key alone settles a create
/// of unknown outcome.
fn quickbooks_without_lookups() -> Engine {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../catalog/quickbooks-online/definition.yaml");
    let text = std::fs::read_to_string(&path).expect("the catalog definition");
    let (head, rest) = text
        .split_once("  lookup:\n")
        .expect("the catalog declares lookups");
    let tail = &rest[rest
        .find("synchronization:")
        .expect("the synchronization section")..];
    common::load("qbo.yaml", format!("{head}{tail}"))
}

/// The request heads `server` received, as `METHOD path` without the query.
fn request_lines(server: &RawServer) -> Vec<String> {
    server
        .requests()
        .iter()
        .filter_map(|head| head.lines().next())
        .map(|line| {
            let mut parts = line.split(' ');
            let method = parts.next().unwrap_or_default();
            let target = parts.next().unwrap_or_default();
            let path = target.split('?').next().unwrap_or_default();
            format!("{method} {path}")
        })
        .collect()
}

#[tokio::test]
async fn a_change_made_while_a_create_was_unresolved_arrives_after_the_repeat_is_answered() {
    // The create reaches QuickBooks, its answer is lost, and every repeat is throttled: the
    // record is unknown, its key and body kept.
    let lost = RawServer::start(vec![
        Fault::Reset,
        Fault::Throttle,
        Fault::Throttle,
        Fault::Throttle,
    ])
    .await;
    let engine = quickbooks_without_lookups();
    let first = connect(&engine, &lost.url())
        .with_transport(transport(300))
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_class(&first, ErrorClass::UnknownOutcome);
    let kept = UnresolvedCreate {
        idempotency_key: first.idempotency_key.clone(),
        body: Some(first.exchanges[0].request.body.to_string()),
    };
    // The account then changes on the platform. QuickBooks answers the repeated requestid
    // with the first create (made before the change), so the change must go as an update.
    let server = RawServer::start(Vec::new()).await;
    let changed = common::json(
        r#"{"id": 42, "name": "Acme", "corpEmail": "ap@acme.example", "phone": "+30 210 000 0000"}"#,
    );
    let state = RecordState::new().with_unresolved_create(kept.clone());
    let outcome = connect(&engine, &server.url())
        .push("Account", &changed, &state)
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    assert_eq!(outcome.external_id.as_deref(), Some("7"));
    let lines = request_lines(&server);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[1].starts_with("GET ") && lines[1].ends_with("/customer/7"),
        "{lines:?}"
    );
    assert!(lines[2].starts_with("POST "), "{lines:?}");
    let update = outcome
        .exchanges
        .iter()
        .find(|e| &*e.step == "update")
        .expect("an update was sent");
    assert!(update.request.body.to_string().contains("+30 210 000 0000"));
    assert_eq!(
        request_ids(&server),
        vec![kept.idempotency_key.clone().expect("a key")]
    );
    // The outcome says so, and so does what `syncdef push` prints of it.
    assert_eq!(outcome.repeated_create, Some(RepeatedCreate::Updated));
    let shown = syncdef_engine::render::human_report(&outcome);
    assert!(
        shown.contains("sent again under the earlier create's idempotency key")
            && shown.contains("updated it with the record as it is now"),
        "{shown}"
    );
    let json = syncdef_engine::render::json_report(&outcome);
    assert_eq!(json["outcome"]["repeatedCreate"], "updated");

    // Nothing changed since the create: the repeat's answer is the record, nothing follows.
    let same = RawServer::start(Vec::new()).await;
    let outcome = connect(&engine, &same.url())
        .push("Account", &account(), &state)
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    assert_eq!(request_lines(&same).len(), 1, "{:?}", request_lines(&same));
    assert_eq!(outcome.repeated_create, Some(RepeatedCreate::SameRecord));
    // A first create is no repeat.
    let fresh = RawServer::start(Vec::new()).await;
    let outcome = connect(&engine, &fresh.url())
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(outcome.repeated_create, None);
    let json = syncdef_engine::render::json_report(&outcome);
    assert!(json["outcome"].get("repeatedCreate").is_none(), "{json}");
}

#[tokio::test]
async fn an_unresolved_create_without_a_way_to_find_out_sends_nothing() {
    let server = creates_answered(created()).await;
    let state = RecordState::new().with_unresolved_create(UnresolvedCreate::default());
    let outcome = generic(&server.uri())
        .push("Account", &account(), &state)
        .await;
    assert_eq!(class(&outcome), Some(ErrorClass::UnknownOutcome));
    assert!(
        outcome
            .error
            .as_ref()
            .expect("an error")
            .message
            .contains("no way to find out"),
        "{:#?}",
        outcome.error
    );
    assert_eq!(received(&server, "POST").await, 0);
}

#[tokio::test]
async fn a_create_answered_500_is_never_sent_again_and_is_unknown() {
    let server = creates_answered(ResponseTemplate::new(500)).await;
    let engine = generic(&server.uri()).with_retry_policy(RetryPolicy {
        statuses: vec![429, 500, 502, 503, 504],
        ..fast()
    });
    let outcome = engine
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_class(&outcome, ErrorClass::UnknownOutcome);
    assert_eq!(received(&server, "POST").await, 1);
}

#[tokio::test]
async fn a_created_answer_the_response_template_cannot_read_is_unknown_not_configuration() {
    // `success` must be true or false; the create itself was accepted (HTTP 201), so the
    // customer may exist: "fix and re-run" would create it twice.
    let server = creates_answered(
        ResponseTemplate::new(201).set_body_json(json!({"id": 7, "success": "maybe"})),
    )
    .await;
    let outcome = generic(&server.uri())
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_class(&outcome, ErrorClass::UnknownOutcome);
    let message = &outcome.error.as_ref().expect("an error").message;
    assert!(message.contains("fix the template"), "{message}");
    assert!(
        message.contains(r#""success":"maybe""#),
        "the answer goes with the message: {message}"
    );
    // The raw answer stays in the audit trail for whoever resolves the record.
    let answer = outcome.exchanges[0].response.as_ref().expect("the answer");
    assert_eq!(answer.body["success"], "maybe");
}

/// A QuickBooks company whose query for the customer answers `found`, and whose customer 67
/// can be read and updated.
async fn quickbooks_looked_up(found: serde_json::Value) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/query"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"QueryResponse": found})))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/customer/67"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"Customer": {"Id": "67", "SyncToken": "4", "DisplayName": "O'Brien"}}),
        ))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/customer"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"Customer": {"Id": "67", "SyncToken": "5", "DisplayName": "O'Brien"}}),
        ))
        .mount(&server)
        .await;
    server
}

/// An unresolved create of "O'Brien" with the key and body it sent.
fn unresolved_obrien() -> RecordState {
    RecordState::new().with_unresolved_create(UnresolvedCreate {
        idempotency_key: Some("0123456789abcdef0123456789abcdef".into()),
        body: Some(r#"{"DisplayName":"O'Brien","CompanyName":"O'Brien"}"#.into()),
    })
}

async fn requests(server: &MockServer, verb: &str) -> Vec<wiremock::Request> {
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.method.as_str() == verb)
        .collect()
}

#[tokio::test]
async fn a_lookup_that_finds_the_lost_create_updates_it_instead_of_creating_again() {
    let server = quickbooks_looked_up(json!({"Customer": [{"Id": "67", "SyncToken": "4"}]})).await;
    // The record was renamed since: the lookup searches by what the lost create sent.
    let renamed = common::json(r#"{"id": 42, "name": "O'Brien & Sons"}"#);
    let outcome = connect(&catalog("quickbooks-online"), &server.uri())
        .push("Account", &renamed, &unresolved_obrien())
        .await;
    assert_eq!(outcome.status, PushStatus::Updated, "{:#?}", outcome.error);
    assert_eq!(outcome.external_id(), Some("67"));
    let query = &requests(&server, "GET").await[0];
    let asked: Vec<(String, String)> = query.url.query_pairs().into_owned().collect();
    assert_eq!(
        asked,
        vec![(
            "query".to_owned(),
            r"select Id from Customer where DisplayName = 'O\'Brien'".to_owned()
        )]
    );
    let posts = requests(&server, "POST").await;
    assert_eq!(posts.len(), 1, "one update, no create");
    let body: serde_json::Value = serde_json::from_slice(&posts[0].body).expect("JSON");
    assert_eq!(
        (&body["Id"], &body["SyncToken"]),
        (&json!("67"), &json!("4"))
    );
    assert!(
        !posts[0].url.as_str().contains("requestid"),
        "{}",
        posts[0].url
    );
}

#[tokio::test]
async fn a_lookup_that_finds_nothing_creates_the_record_with_the_kept_key() {
    let server = quickbooks_looked_up(json!({"startPosition": 1, "maxResults": 0})).await;
    let outcome = connect(&catalog("quickbooks-online"), &server.uri())
        .push("Account", &account(), &unresolved_obrien())
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    let posts = requests(&server, "POST").await;
    // The create carries the kept key; the record sent now differs from the one the earlier
    // create sent, so an update follows: QuickBooks' query service lags behind its writes, and a
    // lookup that found nothing may have missed a create it then answers as a repeat.
    assert_eq!(posts.len(), 2);
    assert!(
        posts[0]
            .url
            .as_str()
            .contains("requestid=0123456789abcdef0123456789abcdef"),
        "{}",
        posts[0].url
    );
}

#[tokio::test]
async fn a_lookup_that_finds_several_records_or_fails_sends_nothing_and_stays_unknown() {
    let server = quickbooks_looked_up(json!({"Customer": [{"Id": "67"}, {"Id": "68"}]})).await;
    let outcome = connect(&catalog("quickbooks-online"), &server.uri())
        .push("Account", &account(), &unresolved_obrien())
        .await;
    assert_class(&outcome, ErrorClass::UnknownOutcome);
    assert!(
        outcome
            .error
            .as_ref()
            .expect("error")
            .message
            .contains("67, 68")
    );
    assert_eq!(received(&server, "POST").await, 0);

    let failing = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(400).set_body_json(
            json!({"Fault": {"Error": [{"Message": "Invalid query", "code": "4000"}]}}),
        ))
        .mount(&failing)
        .await;
    let outcome = connect(&catalog("quickbooks-online"), &failing.uri())
        .push("Account", &account(), &unresolved_obrien())
        .await;
    assert_class(&outcome, ErrorClass::UnknownOutcome);
    assert_eq!(received(&failing, "POST").await, 0);
}

#[tokio::test]
async fn business_central_looks_up_by_display_name_with_odata_quoting() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/customers"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"value": []})))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(201)
                .set_body_json(json!({"id": "9c1e", "number": "C1", "displayName": "O'Brien"})),
        )
        .mount(&server)
        .await;
    let state = RecordState::new().with_unresolved_create(UnresolvedCreate {
        idempotency_key: None,
        body: Some(r#"{"displayName":"O'Brien","type":"Company"}"#.into()),
    });
    let outcome = connect(&catalog("business-central"), &server.uri())
        .push("Account", &account(), &state)
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    let query = &requests(&server, "GET").await[0];
    let filter = query
        .url
        .query_pairs()
        .find(|(k, _)| k == "$filter")
        .map(|(_, v)| v.into_owned());
    assert_eq!(filter.as_deref(), Some("displayName eq 'O''Brien'"));
}

// --- answers that cannot be read ------------------------------------------------------------

#[tokio::test]
async fn a_malformed_json_answer_to_a_create_is_unknown() {
    let server = creates_answered(ResponseTemplate::new(200).set_body_string("{\"id\": 7, ")).await;
    let outcome = generic(&server.uri())
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(class(&outcome), Some(ErrorClass::UnknownOutcome));
    assert!(
        outcome
            .error
            .as_ref()
            .expect("error")
            .message
            .contains("check the record")
    );
    assert_eq!(received(&server, "POST").await, 1);
}

#[tokio::test]
async fn an_empty_answer_to_a_create_is_unknown() {
    let server = creates_answered(ResponseTemplate::new(200)).await;
    let outcome = generic(&server.uri())
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(class(&outcome), Some(ErrorClass::UnknownOutcome));
    assert_eq!(received(&server, "POST").await, 1);
}

// --- tokens ---------------------------------------------------------------------------------

/// Hands out `old`, then `new` after a refresh; counts refreshes.
struct Rotating {
    refreshed: AtomicUsize,
}

impl TokenProvider for Rotating {
    fn token(&self) -> BoxFuture<'_, Result<Option<Secret>, AuthError>> {
        Box::pin(async { Ok(Some(Secret::new("expired-token-SECRET"))) })
    }

    fn refresh<'a>(&'a self, _: &'a Secret) -> BoxFuture<'a, Result<Option<Secret>, AuthError>> {
        self.refreshed.fetch_add(1, Ordering::SeqCst);
        Box::pin(async { Ok(Some(Secret::new("fresh-token-SECRET"))) })
    }
}

#[tokio::test]
async fn unauthorized_then_success_refreshes_once() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/accounts"))
        .and(wiremock::matchers::header(
            "authorization",
            "Bearer expired-token-SECRET",
        ))
        .respond_with(ResponseTemplate::new(401))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/accounts"))
        .and(wiremock::matchers::header(
            "authorization",
            "Bearer fresh-token-SECRET",
        ))
        .respond_with(created())
        .mount(&server)
        .await;
    let tokens = Arc::new(Rotating {
        refreshed: AtomicUsize::new(0),
    });
    let engine = generic(&server.uri()).with_token_provider(tokens.clone());
    let outcome = engine
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{:#?}", outcome.error);
    assert_eq!(tokens.refreshed.load(Ordering::SeqCst), 1);
    assert_eq!(outcome.exchanges[1].attempt, 2);
}

// --- conflicts ------------------------------------------------------------------------------

fn stale_object() -> ResponseTemplate {
    ResponseTemplate::new(400).set_body_json(json!({
        "Fault": {"Error": [{"Message": "Stale Object Error", "Detail": "Stale Object Error : You and Ann were working on this at the same time.", "code": "5010"}], "type": "ValidationFault"},
        "time": "2026-11-21T10:00:00.000-08:00"
    }))
}

fn customer(sync_token: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(
        json!({"Customer": {"Id": "7", "SyncToken": sync_token, "DisplayName": "Acme"}}),
    )
}

async fn quickbooks_update(conflicts: usize) -> (PushOutcome, MockServer) {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/customer/7"))
        .respond_with(Burst::new(1, customer("1"), customer("2")))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/customer"))
        .respond_with(Burst::new(conflicts, stale_object(), customer("3")))
        .mount(&server)
        .await;
    let outcome = connect(&catalog("quickbooks-online"), &server.uri())
        .push("Account", &account(), &updating("7"))
        .await;
    (outcome, server)
}

#[tokio::test]
async fn quickbooks_stale_sync_token_rereads_and_retries_once() {
    let (outcome, server) = quickbooks_update(1).await;
    assert_eq!(outcome.status, PushStatus::Updated, "{:#?}", outcome.error);
    assert_eq!(
        received(&server, "GET").await,
        2,
        "the SyncToken is read again"
    );
    let updates: Vec<_> = outcome
        .exchanges
        .iter()
        .filter(|e| &*e.step == "update")
        .collect();
    assert_eq!(updates.len(), 2);
    assert_eq!(updates[0].request.body["SyncToken"], json!("1"));
    assert_eq!(
        updates[1].request.body["SyncToken"],
        json!("2"),
        "sent with the fresh token"
    );
}

#[tokio::test]
async fn quickbooks_second_stale_sync_token_fails_saying_why() {
    let (outcome, server) = quickbooks_update(2).await;
    assert_eq!(outcome.status, PushStatus::Failed);
    let error = outcome.error.as_ref().expect("an error");
    assert!(error.message.contains("stale concurrency token"), "{error}");
    assert_eq!(received(&server, "POST").await, 2, "retried once only");
    assert!(
        outcome
            .errors
            .iter()
            .any(|e| e.contains("Stale Object Error"))
    );
}

#[tokio::test]
async fn quickbooks_other_validation_faults_are_not_conflicts() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(customer("1"))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(400).set_body_json(
            json!({"Fault": {"Error": [{"Message": "Duplicate Name Exists Error", "code": "6240"}]}}),
        ))
        .mount(&server)
        .await;
    let outcome = connect(&catalog("quickbooks-online"), &server.uri())
        .push("Account", &account(), &updating("7"))
        .await;
    assert_eq!(class(&outcome), Some(ErrorClass::ExternalValidation));
    assert_eq!(received(&server, "GET").await, 1);
}

fn etag(tag: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({"id": "7", "@odata.etag": tag}))
}

/// Business Central answers a stale ETag with 412 Precondition Failed, or with 409 and its code
/// `Request_EntityChanged`.
async fn business_central_update(conflicts: usize, status: u16) -> (PushOutcome, MockServer) {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(Burst::new(1, etag("W/\"1\""), etag("W/\"2\"")))
        .mount(&server)
        .await;
    Mock::given(method("PATCH"))
        .respond_with(Burst::new(
            conflicts,
            ResponseTemplate::new(status).set_body_json(json!({"error": {"code": "Request_EntityChanged", "message": "Another user has already changed the record."}})),
            ResponseTemplate::new(200).set_body_json(json!({"id": "7", "number": "C1"})),
        ))
        .mount(&server)
        .await;
    let outcome = connect(&catalog("business-central"), &server.uri())
        .push("Account", &account(), &updating("7"))
        .await;
    (outcome, server)
}

#[tokio::test]
async fn business_central_precondition_failed_rereads_the_etag_and_retries_once() {
    let (outcome, server) = business_central_update(1, 412).await;
    assert_eq!(outcome.status, PushStatus::Updated, "{:#?}", outcome.error);
    assert_eq!(received(&server, "GET").await, 2);
    let sent: Vec<String> = server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .filter(|r| r.method.as_str() == "PATCH")
        .filter_map(|r| {
            r.headers
                .get("if-match")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        })
        .collect();
    assert_eq!(sent, vec!["W/\"1\"", "W/\"2\""]);
}

#[tokio::test]
async fn business_central_entity_changed_409_is_a_conflict_too() {
    let (outcome, server) = business_central_update(1, 409).await;
    assert_eq!(outcome.status, PushStatus::Updated, "{:#?}", outcome.error);
    assert_eq!(received(&server, "GET").await, 2);
    assert_eq!(received(&server, "PATCH").await, 2);
    let (outcome, server) = business_central_update(2, 409).await;
    assert_class(&outcome, ErrorClass::Transient);
    assert_eq!(received(&server, "PATCH").await, 2);
}

#[tokio::test]
async fn business_central_second_precondition_failed_fails_saying_why() {
    let (outcome, server) = business_central_update(2, 412).await;
    let error = outcome.error.as_ref().expect("an error");
    assert!(error.message.contains("HTTP 412"), "{error}");
    assert_eq!(received(&server, "PATCH").await, 2);
}

// --- hosts, paths, redirects ------------------------------------------------------------------

#[tokio::test]
async fn a_redirect_on_the_same_host_is_followed() {
    let server = MockServer::start().await;
    Mock::given(method("PUT"))
        .and(path("/accounts/7"))
        .respond_with(
            ResponseTemplate::new(307)
                .insert_header("Location", format!("{}/v2/accounts/7", server.uri())),
        )
        .mount(&server)
        .await;
    Mock::given(method("PUT"))
        .and(path("/v2/accounts/7"))
        .respond_with(created())
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let outcome = generic(&server.uri())
        .push("Account", &account(), &updating("7"))
        .await;
    assert_eq!(outcome.status, PushStatus::Updated, "{:#?}", outcome.error);
}

#[tokio::test]
async fn a_redirect_to_another_host_is_refused_and_the_token_stays_home() {
    let server = MockServer::start().await;
    let elsewhere = MockServer::start().await;
    Mock::given(method("PUT"))
        .respond_with(
            ResponseTemplate::new(307)
                .insert_header("Location", format!("{}/steal", elsewhere.uri())),
        )
        .mount(&server)
        .await;
    Mock::given(method("PUT"))
        .respond_with(created())
        .mount(&elsewhere)
        .await;
    let outcome = generic(&server.uri())
        .push("Account", &account(), &updating("7"))
        .await;
    assert_class(&outcome, ErrorClass::Configuration);
    assert!(
        elsewhere
            .received_requests()
            .await
            .unwrap_or_default()
            .is_empty()
    );
}

#[tokio::test]
async fn an_external_id_cannot_change_the_path() {
    let server = MockServer::start().await;
    Mock::given(method("PUT"))
        .respond_with(created())
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let outcome = generic(&server.uri())
        .push("Account", &account(), &updating("../admin?x=1#y/z"))
        .await;
    assert_eq!(outcome.status, PushStatus::Updated, "{:#?}", outcome.error);
    let requests = server.received_requests().await.unwrap_or_default();
    let put = requests
        .iter()
        .find(|r| r.method.as_str() == "PUT")
        .expect("a PUT");
    assert_eq!(put.url.path(), "/accounts/..%2Fadmin%3Fx%3D1%23y%2Fz");
    assert_eq!(put.url.query(), None);
}

#[tokio::test]
async fn a_server_variable_cannot_change_the_host_or_path() {
    let engine =
        common::engine("generic.yaml").with_transport(Arc::new(RecordingTransport::synthesizing()));
    let mut state = RecordState::new();
    state
        .server_variables
        .insert("tenant".into(), "../evil.example/x?y".into());
    let outcome = engine.push("Account", &account(), &state).await;
    let url = &outcome.exchanges[0].request.url;
    assert!(
        url.starts_with("https://api.example.com/..%2Fevil.example%2Fx%3Fy/accounts"),
        "{url}"
    );
}

// --- throttling -----------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[expect(
    clippy::many_single_char_names,
    reason = "two engines `a`/`b` and four concurrent pushes `x`/`y`/`z`/`w`: only their number matters"
)]
async fn the_concurrency_cap_is_shared_by_engines_of_one_registry() {
    let server = creates_answered(created().set_delay(Duration::from_millis(100))).await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let limits = RateLimits::new();
    let policy = RateLimitPolicy {
        key: vec!["tenant".into()],
        requests_per_minute: None,
        window_seconds: None,
        concurrency: Some(1),
    };
    let a = generic(&server.uri())
        .with_rate_limits(Arc::clone(&limits))
        .with_rate_limit_policy(policy.clone());
    let b = generic(&server.uri())
        .with_rate_limits(Arc::clone(&limits))
        .with_rate_limit_policy(policy);
    let record = account();
    let started = Instant::now();
    let state = RecordState::new();
    let (x, y, z, w) = tokio::join!(
        a.push("Account", &record, &state),
        b.push("Account", &record, &state),
        a.push("Account", &record, &state),
        b.push("Account", &record, &state),
    );
    assert!([x, y, z, w].iter().all(PushOutcome::is_success));
    // Four 100 ms creates one at a time; unthrottled they would overlap in ~100 ms.
    assert!(
        started.elapsed() >= Duration::from_millis(400),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn the_catalog_declares_its_throttling() {
    let qb = catalog("quickbooks-online");
    let policy = qb.rate_limit_policy();
    assert_eq!(policy.key, vec!["realmId".to_owned()]);
    assert_eq!(policy.requests_per_minute, Some(500));
    assert_eq!(policy.concurrency, Some(10));
    let bc = catalog("business-central");
    assert_eq!(bc.rate_limit_policy().concurrency, Some(5));
    let key = qb.plan().reliability().idempotency.as_ref().expect("a key");
    assert_eq!(key.name, "requestid");
}

// --- dry-runs -------------------------------------------------------------------------------

#[tokio::test]
async fn a_dry_run_never_retries() {
    let transport = Arc::new(
        RecordingTransport::default().with_response("create", StepResponse::json(503, json!({}))),
    );
    let engine = common::engine("generic.yaml").with_transport(transport.clone());
    let outcome = engine
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(outcome.exchanges.len(), 1);
    assert_eq!(transport.requests().len(), 1);
    assert_eq!(class(&outcome), Some(ErrorClass::Transient));
}

// --- hostile records and templates --------------------------------------------------------------

#[tokio::test]
async fn a_record_too_deep_is_refused_before_any_request() {
    let transport = Arc::new(RecordingTransport::synthesizing());
    let engine = common::engine("generic.yaml").with_transport(transport.clone());
    let mut text = String::from(r#"{"name": "Acme", "deep": "#);
    text.push_str(&"[".repeat(100));
    text.push_str(&"]".repeat(100));
    text.push('}');
    let record = common::json(&text);
    let outcome = engine.push("Account", &record, &RecordState::new()).await;
    assert_eq!(class(&outcome), Some(ErrorClass::Configuration));
    assert!(
        outcome
            .error
            .as_ref()
            .expect("error")
            .message
            .contains("nested deeper")
    );
    assert!(transport.requests().is_empty());
}

#[tokio::test]
async fn a_loop_bomb_ends_with_a_configuration_error() {
    let text = std::fs::read_to_string(common::fixture("generic.yaml")).expect("fixture");
    let text = text.replace(
        "        createRequest:\n          name: \"#valueof($.account.name)\"\n          email: \"#valueof($.account.corpEmail)\"",
        "        createRequest:\n          name: \"#valueof($.account.name)\"\n          lines:\n            \"#loop($.account.addresses)\":\n              a: \"#currentvalueatpath($.address1)\"\n              b: \"#currentvalueatpath($.city)\"",
    );
    assert!(
        text.contains("#loop"),
        "the fixture's createRequest changed"
    );
    let definition = Definition::load(SourceFile::new("bomb.yaml", text)).expect("loads");
    let limits = syncdef_transform::Limits {
        max_output_nodes: 1_000,
        ..syncdef_transform::Limits::default()
    };
    let diagnostics = syncdef_validator::lint_definition(
        &definition,
        &syncdef_validator::RuleSettings::default(),
        true,
    );
    let engine = Engine::load_linted(&definition, diagnostics, &PushConfig::default(), &limits)
        .unwrap_or_else(|r| panic!("{r}: {:?} {:#?}", r.problems, r.diagnostics))
        .engine
        .with_transport(Arc::new(RecordingTransport::synthesizing()));
    let addresses: Vec<serde_json::Value> = (0..1_000)
        .map(|i| json!({"address1": format!("street {i}"), "city": "Oslo", "isBilling": false}))
        .collect();
    let record = Value::from_json_str(&json!({"name": "Acme", "addresses": addresses}).to_string())
        .expect("json");
    let started = Instant::now();
    let outcome = engine.push("Account", &record, &RecordState::new()).await;
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_class(&outcome, ErrorClass::Configuration);
    assert!(
        outcome
            .error
            .as_ref()
            .expect("error")
            .message
            .contains("createRequest")
    );
}

// --- x-syncdef ------------------------------------------------------------------------------

#[tokio::test]
async fn the_definition_configures_retries_and_bad_extensions_are_refused() {
    let text = std::fs::read_to_string(common::fixture("generic.yaml")).expect("fixture");
    let with = |ext: &str| {
        text.replacen(
            "\nsynchronization:",
            &format!("\n{ext}\nsynchronization:"),
            1,
        )
    };
    let engine = common::load(
        "x.yaml",
        with("x-syncdef:\n  retry: {maxAttempts: 2, initialBackoffMs: 0}"),
    );
    assert_eq!(engine.retry_policy().max_attempts, 2);
    let server = creates_answered(ResponseTemplate::new(503)).await;
    let outcome = engine
        .with_transport(transport(2_000))
        .with_token_provider(Arc::new(StaticToken::new("access-1")))
        .with_base_url(Url::parse(&server.uri()).expect("url"))
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(class(&outcome), Some(ErrorClass::Transient));
    assert_eq!(received(&server, "POST").await, 2);
    for bad in [
        "x-syncdef:\n  retry: {maxAtempts: 2}",
        "x-syncdef:\n  retry: {maxAttempts: 0}",
        "x-syncdef:\n  conflicts: [{status: 400, path: \"Fault.code\"}]",
        "x-syncdef:\n  idempotency: {in: cookie, name: x}",
        "x-syncdef:\n  rateLimit: {concurrency: 0}",
    ] {
        let definition = Definition::load(SourceFile::new("bad.yaml", with(bad))).expect("loads");
        let refused = Engine::load(definition)
            .err()
            .unwrap_or_else(|| panic!("accepted: {bad}"));
        // The linter reads the extension with the engine's reader: the load is refused by a
        // lint error located in `x-syncdef`.
        let located = refused.errors().any(|d| {
            d.code() == "SD114"
                && d.pointer
                    .as_deref()
                    .is_some_and(|p| p.starts_with("/x-syncdef"))
        });
        assert!(located, "{bad}: {refused} {:#?}", refused.diagnostics);
    }
}

#[tokio::test]
async fn syncdef_toml_and_the_instance_override_the_extension_field_by_field() {
    let text = std::fs::read_to_string(common::fixture("generic.yaml")).expect("fixture");
    let text = text.replacen(
        "\nsynchronization:",
        "\nx-syncdef:\n  retry: {maxAttempts: 4, initialBackoffMs: 0, deadlineMs: 9000}\n  rateLimit: {requestsPerMinute: 600}\nsynchronization:",
        1,
    );
    let definition = Definition::load(SourceFile::new("x.yaml", text)).expect("loads");
    let settings = syncdef_validator::RuleSettings::parse(
        "[retry]\nmax-attempts = 2\n[rate-limit]\nconcurrency = 3\n",
        std::path::Path::new("syncdef.toml"),
    )
    .expect("a valid syncdef.toml");
    let diagnostics = syncdef_validator::lint_definition(&definition, &settings, true);
    let limits = syncdef_transform::Limits::default();
    let engine = Engine::load_linted(&definition, diagnostics, settings.push(), &limits)
        .unwrap_or_else(|r| panic!("{r}: {:?}", r.problems))
        .engine;
    let retry = engine.retry_policy();
    assert_eq!(retry.max_attempts, 2, "syncdef.toml");
    assert_eq!(retry.initial_backoff, Duration::ZERO, "x-syncdef");
    assert_eq!(retry.deadline, Duration::from_secs(9), "x-syncdef");
    assert_eq!(
        retry.max_backoff,
        RetryPolicy::default().max_backoff,
        "default"
    );
    let rate = engine.rate_limit_policy();
    assert_eq!(rate.concurrency, Some(3), "syncdef.toml");
    assert_eq!(rate.requests_per_minute, Some(600), "x-syncdef");

    let server = creates_answered(ResponseTemplate::new(503)).await;
    let connected = engine
        .with_transport(transport(2_000))
        .with_token_provider(Arc::new(StaticToken::new("access-1")))
        .with_base_url(Url::parse(&server.uri()).expect("url"))
        .with_rate_limits(RateLimits::new());
    let outcome = connected
        .push("Account", &account(), &RecordState::new())
        .await;
    assert_eq!(class(&outcome), Some(ErrorClass::Transient));
    assert_eq!(
        received(&server, "POST").await,
        2,
        "syncdef.toml's 2 attempts"
    );

    let flags = syncdef_engine::Overrides {
        retry: syncdef_engine::RetryOverrides {
            max_attempts: Some(1),
            ..Default::default()
        },
        ..Default::default()
    };
    let once = connected.with_overrides(&flags);
    assert_eq!(once.retry_policy().deadline, Duration::from_secs(9));
    let outcome = once.push("Account", &account(), &RecordState::new()).await;
    assert_eq!(class(&outcome), Some(ErrorClass::Transient));
    assert_eq!(
        received(&server, "POST").await,
        2 + 1,
        "the instance's 1 attempt"
    );
}

#[tokio::test]
async fn vendor_style_paths_with_placeholders_in_paths_push_where_they_say() {
    // The vendor's documentation writes `{IntegrationId}` in `paths` itself; such a definition
    // lints clean, so it must push to the URL it names.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../catalog/business-central-odata/definition.yaml");
    let text = std::fs::read_to_string(&path)
        .expect("the catalog definition")
        .replace(
            "/Customer(No='{customerNo}'):",
            "/Customer(No='{IntegrationId}'):",
        )
        .replace("- name: customerNo", "- name: IntegrationId");
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(etag("W/\"1\""))
        .mount(&server)
        .await;
    Mock::given(method("PATCH"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"No": "C0042"})))
        .mount(&server)
        .await;
    let outcome = connect(&common::load("vendor.yaml", text), &server.uri())
        .push("Account", &account(), &updating("C0042"))
        .await;
    assert_eq!(outcome.status, PushStatus::Updated, "{:#?}", outcome.error);
    let sent = &requests(&server, "PATCH").await[0];
    assert!(
        sent.url.path().ends_with("/Customer(No='C0042')"),
        "{}",
        sent.url
    );
}
