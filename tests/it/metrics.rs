//! `syncdef sync --metrics ADDR`: a following sync against loopback fakes, its `/metrics`
//! scraped and read by a Prometheus text parser, and its `/healthz` while it progresses and
//! while it is stuck.

use crate::common;
use crate::sync_support;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use sync_support::{Data, Platform, QuickBooks};

const DEFINITION: &str = "catalog/quickbooks-online/definition.yaml";

/// The loopback fakes' credentials, logging at `info` (where the address is said).
static METRICS_ENV: [(&str, &str); 6] = [
    ("SYNCDEF_ACCESS_TOKEN", "qbo-token"),
    ("SYNCDEF_PLATFORM_CLIENT_KEY", "key"),
    ("SYNCDEF_PLATFORM_CLIENT_SECRET", "secret"),
    ("SYNCDEF_PLATFORM_USERNAME", "user"),
    ("SYNCDEF_PLATFORM_PASSWORD", "password"),
    ("RUST_LOG", "info"),
];

/// A following `syncdef sync` of the accounts with `--metrics 127.0.0.1:0`, and the address
/// it says it serves on (read from its log on stderr; the rest of the log is drained).
fn start(platform: &str, books: &str, state: &str, extra: &[&str]) -> (Child, SocketAddr) {
    let mut args: Vec<String> = [
        "sync",
        "--platform",
        platform,
        DEFINITION,
        "--state",
        state,
        "--base-url",
        books,
        "--entry",
        "Account",
        "--follow",
        "1",
        "--format",
        "json",
        "--metrics",
        "127.0.0.1:0",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    let mut child = common::syncdef_command(&args, &METRICS_ENV)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("syncdef starts");
    let stderr = child.stderr.take().expect("stderr");
    let (found, address) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut found = Some(found);
        let mut log = String::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let said = line
                .split("serving metrics on http://")
                .nth(1)
                .and_then(|rest| rest.split('/').next())
                .and_then(|address| address.parse::<SocketAddr>().ok());
            log.push_str(&line);
            log.push('\n');
            if let Some(address) = said
                && let Some(sender) = found.take()
            {
                let _ = sender.send(Ok(address));
            }
        }
        if let Some(sender) = found {
            let _ = sender.send(Err(log));
        }
    });
    let address = address
        .recv_timeout(Duration::from_secs(30))
        .expect("syncdef logs or ends")
        .unwrap_or_else(|log| panic!("the address served on is not logged:\n{log}"));
    (child, address)
}

fn stop(child: Child) -> common::Run {
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    child.wait_with_output().expect("output").into()
}

async fn get(address: SocketAddr, path: &str) -> (u16, String) {
    let response = reqwest::get(format!("http://{address}{path}"))
        .await
        .expect("the server answers");
    let status = response.status().as_u16();
    (status, response.text().await.expect("a text body"))
}

/// The sum of `metric`'s samples whose labels include `labels`.
fn sum(scrape: &prometheus_parse::Scrape, metric: &str, labels: &[(&str, &str)]) -> f64 {
    scrape
        .samples
        .iter()
        .filter(|s| s.metric == metric)
        .filter(|s| labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
        .map(|s| match s.value {
            prometheus_parse::Value::Counter(v)
            | prometheus_parse::Value::Gauge(v)
            | prometheus_parse::Value::Untyped(v) => v,
            _ => panic!("{metric} is not a single number: {s:?}"),
        })
        // From +0: an empty `Sum` of floats is -0.
        .fold(0.0, |total, value| total + value)
}

/// [`sum`] of a count: a whole number.
fn count(scrape: &prometheus_parse::Scrape, metric: &str, labels: &[(&str, &str)]) -> u64 {
    let total = sum(scrape, metric, labels);
    total
        .to_string()
        .parse()
        .unwrap_or_else(|_| panic!("{metric} {labels:?} is not a whole count: {total}"))
}

fn has(scrape: &prometheus_parse::Scrape, metric: &str) -> bool {
    scrape.samples.iter().any(|s| s.metric == metric)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_what_the_sync_reports_and_health_follows_progress() {
    let platform = Platform::start(Data::generate(12, 0)).await;
    let books = QuickBooks::start().await;
    let dir = tempfile::tempdir().expect("dir");
    let state = dir.path().join("state.sqlite").display().to_string();
    let (mut child, address) = start(&platform.uri(), &books.base(), &state, &[]);
    // The first run's report is the first line of stdout.
    let stdout = child.stdout.take().expect("stdout");
    let report = tokio::task::spawn_blocking(move || {
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("a report");
        line
    })
    .await
    .expect("read");
    let report: Value = serde_json::from_str(&report).expect("a JSON report");
    let account = &report["entries"]["Account"];
    assert_eq!(account["created"], 12, "{report}");

    let (status, health) = get(address, "/healthz").await;
    assert_eq!(status, 200, "{health}");
    assert!(health.starts_with("ok: "), "{health}");

    let (status, text) = get(address, "/metrics").await;
    assert_eq!(status, 200, "{text}");
    let scrape = prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_owned())))
        .expect("Prometheus text");
    let number = |field: &str| account[field].as_u64().expect("a count");
    let push = [("entry", "Account"), ("direction", "push")];
    for result in [
        "created",
        "updated",
        "unchanged",
        "failed",
        "unknown",
        "skipped",
    ] {
        let labels = [push[0], push[1], ("result", result)];
        // Later runs (every second) find nothing changed: the counts stay the first run's.
        assert_eq!(
            count(&scrape, "syncdef_records_total", &labels),
            number(result),
            "{result}:\n{text}"
        );
    }
    assert_eq!(
        count(&scrape, "syncdef_records_listed_total", &push),
        number("listed"),
        "{text}"
    );
    // Every create was one request answered 2xx, timed in the histogram as well.
    let creates = [
        ("entry", "Account"),
        ("operation", "create"),
        ("status", "2xx"),
    ];
    assert_eq!(
        count(&scrape, "syncdef_external_requests_total", &creates),
        u64::try_from(books.creates("Customer")).expect("few"),
        "{text}"
    );
    let requests = count(&scrape, "syncdef_external_requests_total", &[]);
    assert_eq!(
        count(
            &scrape,
            "syncdef_external_request_duration_seconds_count",
            &[]
        ),
        requests,
        "{text}"
    );
    assert!(
        sum(
            &scrape,
            "syncdef_external_request_duration_seconds_sum",
            &[]
        ) > 0.0
    );
    // The definition limits requests per company: every request drew on its budget.
    assert_eq!(
        count(&scrape, "syncdef_rate_limit_requests_total", &[]),
        requests,
        "{text}"
    );
    // One pusher, far below the company's limits: no request waited for room.
    assert_eq!(
        count(&scrape, "syncdef_rate_limit_waits_total", &[]),
        0,
        "{text}"
    );
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs_f64();
    let last = sum(&scrape, "syncdef_last_success_timestamp_seconds", &push);
    assert!(last > now - 120.0 && last <= now + 1.0, "{last}\n{text}");
    assert_eq!(count(&scrape, "syncdef_token_refreshes_total", &[]), 0);
    for gauge in ["syncdef_queue_depth", "syncdef_queue_leases_held"] {
        assert!(has(&scrape, gauge), "{gauge} missing:\n{text}");
    }
    let (status, _) = get(address, "/nothing").await;
    assert_eq!(status, 404);

    let run = tokio::task::spawn_blocking(move || stop(child))
        .await
        .expect("stopped");
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_turns_503_when_the_worker_makes_no_progress() {
    // A platform whose listing never answers in time: the worker waits on it, sending nothing.
    let platform = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::path("/oauth/token"))
        .respond_with(wiremock::ResponseTemplate::new(200).set_body_json(
            serde_json::json!({"access_token": "platform-token", "token_type": "bearer", "expires_in": 3600}),
        ))
        .mount(&platform)
        .await;
    wiremock::Mock::given(wiremock::matchers::path("/api/accounts"))
        .respond_with(
            wiremock::ResponseTemplate::new(200)
                .set_body_json(serde_json::json!({"items": []}))
                .set_delay(Duration::from_secs(60)),
        )
        .mount(&platform)
        .await;
    let books = QuickBooks::start().await;
    let dir = tempfile::tempdir().expect("dir");
    let state = dir.path().join("state.sqlite").display().to_string();
    let (child, address) = start(
        &platform.uri(),
        &books.base(),
        &state,
        &["--healthz-within", "1"],
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    let health = loop {
        let (status, body) = get(address, "/healthz").await;
        if status == 503 {
            break body;
        }
        assert_eq!(status, 200, "{body}");
        assert!(Instant::now() < deadline, "still healthy: {body}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(
        health.contains("no progress for") && health.contains("more than 1 s"),
        "{health}"
    );
    let pid = child.id().to_string();
    let _ = std::process::Command::new("kill")
        .args(["-KILL", &pid])
        .status();
    let _ = tokio::task::spawn_blocking(move || child.wait_with_output()).await;
}
