//! Pushes per second against a local HTTP server, the engine beside a bare reqwest loop that
//! sends the same requests (same URL, headers and body) and reads the id from the answer.
//!
//! `cargo bench -p syncdef-engine --bench push` (env `PUSHES` sets pushes per run, default
//! 20000). The server is a minimal keep-alive HTTP/1.1 responder on 127.0.0.1 in the same
//! process, so both sides pay the same server cost.

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

async fn engine_run(
    engine: &Engine,
    record: &Value,
    pushes: usize,
    concurrency: usize,
) -> Duration {
    let start = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..concurrency {
        let engine = engine.clone();
        let record = record.clone();
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
    start.elapsed()
}

async fn bare_run(
    client: &reqwest::Client,
    url: &str,
    body: &Arc<Vec<u8>>,
    pushes: usize,
    concurrency: usize,
) -> Duration {
    let start = Instant::now();
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
    start.elapsed()
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing and wants a quick
    // smoke run.
    let smoke = !std::env::args().any(|a| a == "--bench");
    let pushes: usize = std::env::var("PUSHES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if smoke { 128 } else { 20_000 });
    let runs = if smoke { 1 } else { 5 };
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
        let text = std::fs::read_to_string(path).expect("fixture");
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
        assert_eq!(sent.url, url);
        // Configured like `ReqwestTransport` (timeouts, no cross-host redirects), so that the
        // difference is the engine's own work.
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(60))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client");
        println!("server latency: {} ms, {pushes} pushes per run, best of {runs}", latency.as_millis());
        println!("| concurrency | engine pushes/s | bare reqwest requests/s | engine overhead | extra per push |");
        println!("|---:|---:|---:|---:|---:|");
        for concurrency in [1, 8, 64] {
            // Warm both pools.
            engine_run(&engine, &record, concurrency * 4, concurrency).await;
            bare_run(&client, &url, &body, concurrency * 4, concurrency).await;
            let mut e = Vec::new();
            let mut b = Vec::new();
            // Interleaved, best of `runs`: the least disturbed run of each.
            for _ in 0..runs {
                e.push(engine_run(&engine, &record, pushes, concurrency).await);
                b.push(bare_run(&client, &url, &body, pushes, concurrency).await);
            }
            let e = e.into_iter().min().unwrap_or_default();
            let b = b.into_iter().min().unwrap_or_default();
            let n = (pushes / concurrency * concurrency) as f64;
            println!(
                "| {concurrency} | {:.0} | {:.0} | {:+.1} % | {:.1} µs |",
                n / e.as_secs_f64(),
                n / b.as_secs_f64(),
                (e.as_secs_f64() / b.as_secs_f64() - 1.0) * 100.0,
                (e.as_secs_f64() - b.as_secs_f64()) / n * 1e6
            );
        }
    });
}
