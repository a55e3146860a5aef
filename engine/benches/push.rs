//! Pushes per second against a local HTTP server, the engine beside a bare reqwest loop that
//! sends the same requests (same URL, headers and body) and reads the id from the answer.
//!
//! `cargo bench -p syncdef-engine --bench push` (env `PUSHES` sets pushes per run, default
//! 20000; `RUNS` the interleaved runs of each side, default 7, in pairs taken in alternate
//! order: the best of each is compared, and the median of the engine-to-bare ratios of the
//! pairs is shown beside it). The server is a minimal keep-alive HTTP/1.1 responder on 127.0.0.1 in the same
//! process, so both sides pay the same server cost.
//!
//! Besides wall-clock rates, with the instant server each run's CPU time (all threads of the
//! process, server included) is divided by its pushes: on a shared machine the wall clock varies
//! with other load, the CPU time per push much less, and the difference of the two CPU columns
//! is the engine's own cost. With a server that waits (`LATENCY_MS`), the runtime's idle threads
//! spend CPU looking for work while the answers are pending, which says nothing of the engine:
//! those columns are left out.
//!
//! `REQUEST_VALIDATION=off` turns the request body check off for the pushed entry (its cost is
//! the difference with a run that keeps it on).
//!
//! `ONLY=engine` or `ONLY=bare` runs that side alone, `PUSHES` pushes at concurrency
//! `CONCURRENCY` (default 1), and prints nothing: for counting instructions under valgrind (the
//! difference between two push counts is the cost of the extra pushes, setup excluded) or
//! profiling one side.

use std::sync::Arc;
use std::time::{Duration, Instant};

use syncdef_definitions::Definition;
use syncdef_engine::{Engine, RecordState, ReqwestTransport, StaticToken};
use syncdef_transform::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

const ANSWER: &str = r#"{"Customer":{"Id":"67","SyncToken":"0","DisplayName":"Acme Ltd"},"time":"2024-03-01T10:00:00-07:00"}"#;

const ACCOUNT: &str = r#"{"id": 42, "name": "Acme Ltd", "phone": "+1 555 0100", "fax": null,
  "corpEmail": "billing@acme.test", "webSite": "https://acme.test", "isTaxable": true,
  "addresses": [{"isBilling": false, "city": "Elsewhere"}, {"isBilling": true, "address1": "1 Main St",
    "city": "Springfield", "countryName": "United States", "postCode": "12345", "region": "IL"}],
  "accountCurrency": {"currency": {"mnemonic": "USD", "name": "US Dollar"}}}"#;

/// Answers every request on a connection with `ANSWER` after `latency`, keeping the
/// connection open.
async fn serve(listener: TcpListener, latency: Duration) {
    loop {
        let Ok((mut stream, _)) = listener.accept().await else {
            continue;
        };
        tokio::spawn(async move {
            let mut buf = Vec::with_capacity(8192);
            let mut chunk = [0u8; 8192];
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{ANSWER}",
                ANSWER.len()
            );
            loop {
                // Read one request: headers, then content-length bytes of body.
                let (head_end, body_len) = loop {
                    if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                        let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
                        let len = head
                            .lines()
                            .find_map(|l| l.strip_prefix("content-length:"))
                            .and_then(|v| v.trim().parse::<usize>().ok())
                            .unwrap_or(0);
                        break (end + 4, len);
                    }
                    match stream.read(&mut chunk).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => buf.extend_from_slice(&chunk[..n]),
                    }
                };
                while buf.len() < head_end + body_len {
                    match stream.read(&mut chunk).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => buf.extend_from_slice(&chunk[..n]),
                    }
                }
                buf.drain(..head_end + body_len);
                if !latency.is_zero() {
                    tokio::time::sleep(latency).await;
                }
                if stream.write_all(response.as_bytes()).await.is_err() {
                    return;
                }
            }
        });
    }
}

/// CPU time used so far by every thread of this process, from Linux's per-thread scheduler
/// statistics (nanoseconds); `None` elsewhere.
fn process_cpu() -> Option<Duration> {
    let mut total = 0u64;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let stat = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        total += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(Duration::from_nanos(total))
}

/// Wall-clock and CPU time of one run.
#[derive(Clone, Copy)]
struct Timing {
    wall: Duration,
    cpu: Option<Duration>,
}

async fn timed<F: Future<Output = ()>>(run: F) -> Timing {
    let cpu = process_cpu();
    let start = Instant::now();
    run.await;
    let wall = start.elapsed();
    Timing {
        wall,
        cpu: cpu.and_then(|c| Some(process_cpu()?.saturating_sub(c))),
    }
}

async fn engine_run(engine: &Engine, record: &Value, pushes: usize, concurrency: usize) {
    let mut tasks = Vec::new();
    for _ in 0..concurrency {
        let engine = engine.clone();
        // A record of its own, as each push of a worker has: one shared by every task would
        // make its reference count a point of contention no real push run has.
        let record = Value::from(&serde_json::Value::from(record));
        let n = pushes / concurrency;
        tasks.push(tokio::spawn(async move {
            let state = RecordState::new();
            for _ in 0..n {
                let outcome = engine.push("Account", &record, &state).await;
                assert_eq!(outcome.external_id(), Some("67"), "{:?}", outcome.error);
            }
        }));
    }
    for t in tasks {
        t.await.expect("a push task panicked");
    }
}

async fn bare_run(
    client: &reqwest::Client,
    url: &str,
    body: &Arc<Vec<u8>>,
    pushes: usize,
    concurrency: usize,
) {
    let mut tasks = Vec::new();
    for _ in 0..concurrency {
        let client = client.clone();
        let url = url.to_owned();
        let body = Arc::clone(body);
        let n = pushes / concurrency;
        tasks.push(tokio::spawn(async move {
            for _ in 0..n {
                let response = client
                    .post(&url)
                    .header("accept", "application/json")
                    .header("content-type", "application/json")
                    .header("authorization", "Bearer bench-token")
                    .body(body.as_ref().clone())
                    .send()
                    .await
                    .expect("the bare request is answered");
                let bytes = response.bytes().await.expect("the body arrives");
                let json: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
                assert_eq!(json["Customer"]["Id"], "67");
            }
        }));
    }
    for t in tasks {
        t.await.expect("a bare task panicked");
    }
}

#[expect(
    clippy::too_many_lines,
    reason = "the measurement read top to bottom: options, the mock system, the runs, the figures"
)]
#[expect(
    clippy::cast_precision_loss,
    reason = "push counts turned into rates for the printed figures"
)]
fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing and wants a quick
    // smoke run.
    let smoke = !std::env::args().any(|a| a == "--bench");
    let pushes: usize = std::env::var("PUSHES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if smoke { 128 } else { 20_000 });
    let runs = if smoke {
        1
    } else {
        std::env::var("RUNS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(7)
    };
    // `LATENCY_MS`: the server's answer time (default 0: loopback as fast as it goes).
    let latency = Duration::from_millis(
        std::env::var("LATENCY_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0),
    );
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(serve(listener, latency));
        let base = format!("http://{addr}");
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../definitions/tests/fixtures/quickbooks-online.yaml"
        );
        let mut text = std::fs::read_to_string(path).expect("fixture");
        // `REQUEST_VALIDATION=off`: the same push with the request body check turned off for
        // the entry, to measure what the check costs.
        if std::env::var("REQUEST_VALIDATION").is_ok_and(|v| v == "off") {
            text.push_str("x-syncdef:\n  requestValidation: {skip: [Account]}\n");
        }
        let definition =
            Definition::load(syncdef_definitions::SourceFile::new(path, text)).expect("fixture");
        let engine = Engine::load(definition)
            .expect("the fixture lints clean")
            .engine
            .with_transport(Arc::new(ReqwestTransport::new().expect("client")))
            .with_token_provider(Arc::new(StaticToken::new("bench-token")))
            .with_base_url(url::Url::parse(&base).expect("url"));
        let record = Value::from_json_str(ACCOUNT).expect("record");
        // The bare loop sends exactly the body the engine sends.
        let first = engine.push("Account", &record, &RecordState::new()).await;
        let sent = &first.exchanges[0].request;
        let body = Arc::new(serde_json::to_vec(&sent.body).expect("body"));
        let url = format!("{base}/v3/company/1234567890/customer");
        assert_eq!(*sent.url, url);
        // Configured like `ReqwestTransport` (timeouts, no cross-host redirects, its
        // `User-Agent`), so that both send the same bytes and the difference is the engine's
        // own work.
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(60))
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("syncdef/", env!("CARGO_PKG_VERSION")))
            .build()
            .expect("client");
        if let Ok(side) = std::env::var("ONLY") {
            let concurrency = std::env::var("CONCURRENCY")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(1);
            match side.as_str() {
                "engine" => engine_run(&engine, &record, pushes, concurrency).await,
                "bare" => bare_run(&client, &url, &body, pushes, concurrency).await,
                other => panic!("ONLY is `engine` or `bare`, not `{other}`"),
            }
            return;
        }
        println!("server latency: {} ms, {pushes} pushes per run, best of {runs}", latency.as_millis());
        let cpu_columns = latency.is_zero();
        if cpu_columns {
            println!(
                "| concurrency | engine pushes/s | bare reqwest requests/s | engine overhead | median of pairs | extra per push \
                 | CPU per push: engine | CPU per push: bare | engine CPU overhead |"
            );
            println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        } else {
            println!(
                "| concurrency | engine pushes/s | bare reqwest requests/s | engine overhead | median of pairs | extra per push |"
            );
            println!("|---:|---:|---:|---:|---:|---:|");
        }
        for concurrency in [1, 8, 64] {
            // Warm both pools.
            engine_run(&engine, &record, concurrency * 4, concurrency).await;
            bare_run(&client, &url, &body, concurrency * 4, concurrency).await;
            let mut e = Vec::new();
            let mut b = Vec::new();
            // Interleaved, best of `runs`: the least disturbed run of each. Each pair runs in
            // the other order from the one before (engine first, then bare first, ...), so that
            // whatever the first run of a pair pays or leaves behind falls on both sides alike.
            for i in 0..runs {
                if i % 2 == 0 {
                    e.push(timed(engine_run(&engine, &record, pushes, concurrency)).await);
                    b.push(timed(bare_run(&client, &url, &body, pushes, concurrency)).await);
                } else {
                    b.push(timed(bare_run(&client, &url, &body, pushes, concurrency)).await);
                    e.push(timed(engine_run(&engine, &record, pushes, concurrency)).await);
                }
            }
            let n = (pushes / concurrency * concurrency) as f64;
            let best = |runs: &[Timing], of: fn(&Timing) -> Option<Duration>| {
                runs.iter().filter_map(of).min().map(|d| d.as_secs_f64())
            };
            let (e_wall, b_wall) = (
                best(&e, |t| Some(t.wall)).unwrap_or_default(),
                best(&b, |t| Some(t.wall)).unwrap_or_default(),
            );
            let cpu = match (best(&e, |t| t.cpu), best(&b, |t| t.cpu)) {
                _ if !cpu_columns => String::new(),
                (Some(ec), Some(bc)) => format!(
                    " {:.1} µs | {:.1} µs | {:+.1} % |",
                    ec / n * 1e6,
                    bc / n * 1e6,
                    (ec / bc - 1.0) * 100.0
                ),
                _ => " - | - | - |".to_owned(),
            };
            // Each engine run against the bare run right after it: how the overhead looks
            // when neither side is picked for its luck.
            let mut pairs: Vec<f64> = e
                .iter()
                .zip(&b)
                .map(|(e, b)| e.wall.as_secs_f64() / b.wall.as_secs_f64())
                .collect();
            pairs.sort_by(f64::total_cmp);
            let median = pairs.get(pairs.len() / 2).copied().unwrap_or(1.0);
            println!(
                "| {concurrency} | {:.0} | {:.0} | {:+.1} % | {:+.1} % | {:.1} µs |{cpu}",
                n / e_wall,
                n / b_wall,
                (e_wall / b_wall - 1.0) * 100.0,
                (median - 1.0) * 100.0,
                (e_wall - b_wall) / n * 1e6
            );
        }
    });
}
