//! Soak: 10,000 creates (`SOAK_PUSHES` to change) against a loopback server that injects
//! faults into 10 percent of them from a seeded, deterministic plan. Half the records go
//! through the QuickBooks catalog definition (idempotency key `requestid`), half through a
//! definition without one. The run must end with every record pushed exactly once or reported,
//! and none created twice. Run it with its figures:
//! `cargo test --release -p syncdef-engine --test it soak:: -- --nocapture`.

use crate::common;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::StreamExt;
use serde_json::{Value as Json, json};
use syncdef_engine::{
    Engine, ErrorClass, PushOutcome, PushStatus, RateLimitPolicy, RateLimits, RecordState,
    ReqwestTransport, RetryPolicy, StaticToken,
};
use syncdef_transform::Value;
use url::Url;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const SEED: u64 = 0x5eed_2026;

/// What the server does with one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Fault {
    /// 429 with `Retry-After: 0`: not carried out.
    Throttled,
    /// 503: not carried out.
    Unavailable,
    /// 502: the gateway failed before the upstream; not carried out.
    BadGateway,
    /// Carried out, then 504: the answer is lost.
    DoneThenGatewayTimeout,
    /// Carried out, answered after the client's timeout.
    DoneThenSlow,
    /// Carried out, answered 200 with an empty body.
    DoneThenEmpty,
}

/// splitmix64: a deterministic plan from the seed, the request's identity and its attempt.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn fault(name: &str, attempt: u64) -> Option<Fault> {
    let h = name.bytes().fold(SEED, |h, b| mix(h ^ u64::from(b)));
    match mix(h ^ attempt) % 1000 {
        0..=29 => Some(Fault::Throttled),
        30..=49 => Some(Fault::Unavailable),
        50..=69 => Some(Fault::BadGateway),
        70..=84 => Some(Fault::DoneThenGatewayTimeout),
        85..=92 => Some(Fault::DoneThenSlow),
        93..=99 => Some(Fault::DoneThenEmpty),
        _ => None,
    }
}

#[derive(Default)]
struct Books {
    /// Records created, by name: more than one is a duplicate.
    created: HashMap<String, u32>,
    /// Idempotency key -> the id created for it.
    keys: HashMap<String, u64>,
    /// Requests seen per record name (the attempt number of the plan).
    attempts: HashMap<String, u64>,
    faults: HashMap<String, u64>,
}

struct System {
    books: Mutex<Books>,
    next_id: AtomicU64,
    requests: AtomicU64,
}

/// The system shared by the mocks of both definitions.
struct Shared(Arc<System>);

impl Respond for Shared {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        self.0.respond(request)
    }
}

impl System {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        self.requests.fetch_add(1, Ordering::Relaxed);
        let body: Json = serde_json::from_slice(&request.body).unwrap_or(Json::Null);
        let quickbooks = request.url.path().starts_with("/customer");
        let name = body
            .get(if quickbooks { "DisplayName" } else { "name" })
            .and_then(Json::as_str)
            .unwrap_or_default()
            .to_owned();
        let key = request
            .url
            .query_pairs()
            .find(|(k, _)| k == "requestid")
            .map(|(_, v)| v.into_owned());
        let Ok(mut books) = self.books.lock() else {
            return ResponseTemplate::new(500);
        };
        let attempt = {
            let a = books.attempts.entry(name.clone()).or_default();
            *a += 1;
            *a
        };
        let planned = fault(&name, attempt);
        if let Some(f) = planned {
            *books.faults.entry(format!("{f:?}")).or_default() += 1;
        }
        match planned {
            Some(Fault::Throttled) => {
                return ResponseTemplate::new(429).insert_header("Retry-After", "0");
            }
            Some(Fault::Unavailable) => return ResponseTemplate::new(503),
            Some(Fault::BadGateway) => return ResponseTemplate::new(502),
            _ => {}
        }
        // Carried out: a repeated key is recognised, anything else creates.
        let id = if let Some(id) = key.as_ref().and_then(|k| books.keys.get(k)) {
            *id
        } else {
            let id = self.next_id.fetch_add(1, Ordering::Relaxed);
            *books.created.entry(name).or_default() += 1;
            if let Some(k) = key {
                books.keys.insert(k, id);
            }
            id
        };
        let answer = if quickbooks {
            json!({"Customer": {"Id": id.to_string(), "SyncToken": "0"}})
        } else {
            json!({"id": id, "success": true, "errors": []})
        };
        match planned {
            Some(Fault::DoneThenGatewayTimeout) => ResponseTemplate::new(504),
            Some(Fault::DoneThenSlow) => ResponseTemplate::new(200)
                .set_body_json(answer)
                .set_delay(Duration::from_millis(400)),
            Some(Fault::DoneThenEmpty) => ResponseTemplate::new(200),
            _ => ResponseTemplate::new(200).set_body_json(answer),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[expect(
    clippy::too_many_lines,
    reason = "one soak scenario read top to bottom: the faulty system, the pushes, then the accounting"
)]
#[expect(
    clippy::cast_precision_loss,
    reason = "the fault rate is printed as a percentage to one decimal"
)]
async fn ten_thousand_pushes_with_ten_percent_faults_none_duplicated() {
    let pushes: usize = std::env::var("SOAK_PUSHES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let server = MockServer::start().await;
    let system = Arc::new(System {
        books: Mutex::new(Books::default()),
        next_id: AtomicU64::new(1),
        requests: AtomicU64::new(0),
    });
    Mock::given(method("POST"))
        .and(path("/customer"))
        .respond_with(Shared(Arc::clone(&system)))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/accounts"))
        .respond_with(Shared(Arc::clone(&system)))
        .mount(&server)
        .await;
    // The generic definition's post-actions.
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let transport = Arc::new(
        ReqwestTransport::builder()
            .timeout(Duration::from_millis(200))
            .build()
            .expect("client"),
    );
    let policy = RetryPolicy {
        max_attempts: 4,
        initial_backoff: Duration::ZERO,
        max_backoff: Duration::from_millis(10),
        deadline: Duration::from_secs(30),
        statuses: vec![429, 502, 503, 504],
    };
    let base = Url::parse(&server.uri()).expect("url");
    let limits = RateLimits::new();
    let connect = |engine: Engine| {
        engine
            .with_transport(transport.clone())
            .with_token_provider(Arc::new(StaticToken::new("access-1")))
            .with_base_url(base.clone())
            .with_retry_policy(policy.clone())
            .with_rate_limits(Arc::clone(&limits))
            // The catalog's 500 requests a minute would make this run last 11 minutes; the
            // throttling is tested on its own (faults, rate_limit unit tests).
            .with_rate_limit_policy(RateLimitPolicy::default())
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let quickbooks = connect(common::load_file(
        &root.join("../catalog/quickbooks-online/definition.yaml"),
    ));
    let generic = connect(common::engine("generic.yaml"));

    let started = Instant::now();
    let outcomes: Vec<(String, PushOutcome)> = futures::stream::iter(0..pushes)
        .map(|i| {
            let engine = if i % 2 == 0 { &quickbooks } else { &generic };
            async move {
                let name = format!("Customer {i:05}");
                let record = Value::from_json_str(&json!({"id": i, "name": name}).to_string())
                    .expect("json");
                let outcome = engine.push("Account", &record, &RecordState::new()).await;
                (name, outcome)
            }
        })
        .buffer_unordered(32)
        .collect()
        .await;
    let elapsed = started.elapsed();

    let books = system.books.lock().expect("books");
    let duplicated: Vec<_> = books.created.iter().filter(|(_, n)| **n > 1).collect();
    assert!(duplicated.is_empty(), "created twice: {duplicated:?}");
    let mut by_class: HashMap<String, usize> = HashMap::new();
    let mut created_once = 0;
    for (name, outcome) in &outcomes {
        match (&outcome.status, &outcome.error) {
            (PushStatus::Created, None) => {
                created_once += 1;
                assert_eq!(
                    books.created.get(name),
                    Some(&1),
                    "{name} pushed exactly once"
                );
            }
            (PushStatus::Failed, Some(e)) => {
                assert!(
                    matches!(e.class, ErrorClass::Transient | ErrorClass::UnknownOutcome),
                    "{name}: {e}"
                );
                if e.class == ErrorClass::Transient {
                    assert!(
                        e.retry_after.is_some(),
                        "{name}: a transient error has a hint"
                    );
                }
                *by_class.entry(e.class.to_string()).or_default() += 1;
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    let reported: usize = by_class.values().sum();
    assert_eq!(
        created_once + reported,
        pushes,
        "every record pushed or reported"
    );
    let faults: u64 = books.faults.values().sum();
    let requests = system.requests.load(Ordering::Relaxed);
    println!(
        "soak: {pushes} pushes in {:.1} s, {requests} create requests, {faults} faults injected ({:.1} %): {:?}; pushed exactly once: {created_once}; reported: {by_class:?}; duplicates: 0",
        elapsed.as_secs_f64(),
        faults as f64 * 100.0 / requests as f64,
        books.faults,
    );
}
