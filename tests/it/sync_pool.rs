//! Several `syncdef sync` processes on one PostgreSQL state: they share the work and no
//! record is created twice, also when one of them is killed mid-run. Real processes, a real
//! PostgreSQL server (started by the test), the loopback platform and QuickBooks fakes.

use crate::common;
use crate::sync_support;

use std::collections::HashSet;
use std::process::{Child, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::dice::Dice;
use serde_json::Value;
use sync_support::{Data, Platform, QuickBooks, SYNC_ENV};
use syncdef_mock::postgres::PgServer;

const DEFINITION: &str = "catalog/quickbooks-online/definition.yaml";
const ACCOUNTS: usize = 150;
const INVOICES: usize = 120;

/// A record count as the fake platform takes it.
fn count(n: usize) -> u32 {
    u32::try_from(n).expect("a small count")
}

/// The PostgreSQL server the tests running now share and a fresh database on it; the test
/// fails, saying how to install PostgreSQL, when its programs are missing.
fn postgres() -> (Arc<PgServer>, String) {
    let server = PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
    let url = database(&server);
    (server, url)
}

/// A PostgreSQL server of this test's own (it restarts it) and a fresh database on it.
fn own_postgres() -> (PgServer, String) {
    let server = PgServer::start().unwrap_or_else(|e| panic!("{e}"));
    let url = database(&server);
    (server, url)
}

fn database(server: &PgServer) -> String {
    server
        .database()
        .unwrap_or_else(|e| panic!("{e}\n{}", server.log()))
}

/// Starts one `syncdef sync` worker on the shared state.
fn start_worker(platform: &Platform, books: &QuickBooks, state: &str) -> Child {
    start_worker_with(platform, books, state, &[])
}

/// Starts one worker with `extra` arguments.
fn start_worker_with(
    platform: &Platform,
    books: &QuickBooks,
    state: &str,
    extra: &[&str],
) -> Child {
    start_worker_paging(platform, books, state, 40, extra)
}

/// Starts one worker listing `page_size` records a page.
fn start_worker_paging(
    platform: &Platform,
    books: &QuickBooks,
    state: &str,
    page_size: usize,
    extra: &[&str],
) -> Child {
    let page_size = page_size.to_string();
    let mut args: Vec<String> = [
        "sync",
        "--platform",
        &platform.uri(),
        DEFINITION,
        "--state",
        state,
        "--base-url",
        &books.base(),
        "--page-size",
        &page_size,
        "--entry",
        "Account,Invoice",
        "--lease-seconds",
        "3",
        "--format",
        "json",
    ]
    .map(str::to_owned)
    .to_vec();
    args.extend(extra.iter().map(|a| (*a).to_owned()));
    common::syncdef_command(&args, &SYNC_ENV)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the syncdef binary starts")
}

/// Waits for a worker off the async runtime (the fakes answer on it meanwhile).
async fn finish(child: Child) -> common::Run {
    tokio::task::spawn_blocking(move || child.wait_with_output().expect("the worker ends"))
        .await
        .expect("waited")
        .into()
}

/// Like [`finish`], but a worker still running after `limit` is killed and the test fails
/// (a stalled worker must fail the test, not hang the suite).
async fn finish_within(mut child: Child, limit: Duration) -> common::Run {
    let deadline = Instant::now() + limit;
    // Drain the pipes meanwhile: a full pipe would stall the worker on its own.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut pipe) = pipe {
                let _ = std::io::Read::read_to_string(&mut pipe, &mut text);
            }
            text
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let status = loop {
        if let Some(status) = child.try_wait().expect("the worker's status") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "the worker stalled: still running after {limit:?}\n{}",
                stderr.join().unwrap_or_default()
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    common::Run {
        code: status.code().unwrap_or(-1),
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    }
}

/// Creates per kind, and the names created more than once.
fn assert_each_created_once(books: &QuickBooks) {
    assert_eq!(books.duplicates(), Vec::<String>::new(), "created twice");
    assert_eq!(books.creates("Customer"), ACCOUNTS);
    assert_eq!(books.creates("Invoice"), INVOICES);
}

/// Create requests the company received, repeats included (it answers a repeated request id
/// without creating again, so its records alone would hide a create sent twice).
async fn create_requests(books: &QuickBooks) -> usize {
    let requests = books.server.received_requests().await.unwrap_or_default();
    requests
        .iter()
        .filter(|r| r.method.as_str() == "POST")
        .filter(|r| r.url.path().ends_with("/customer") || r.url.path().ends_with("/invoice"))
        .filter(|r| serde_json::from_slice::<Value>(&r.body).is_ok_and(|b| b.get("Id").is_none()))
        .count()
}

/// `sync status --format json` of the shared state.
async fn status(state: &str) -> common::Run {
    common::syncdef_beside_servers(
        ["sync", "status", "--state", state, "--format", "json"]
            .map(str::to_owned)
            .to_vec(),
        &SYNC_ENV,
    )
    .await
}

/// `sync status` on the shared state: every record done, nothing waiting.
async fn assert_all_done(state: &str) {
    let status = status(state).await;
    assert_eq!(status.code, 0, "{}\n{}", status.stdout, status.stderr);
    let report: Value = serde_json::from_str(&status.stdout).expect("json");
    assert_eq!(
        report["counts"]["Account"]["done"], ACCOUNTS as u64,
        "{report}"
    );
    assert_eq!(
        report["counts"]["Invoice"]["done"], INVOICES as u64,
        "{report}"
    );
    assert_eq!(report["problems"], Value::Array(Vec::new()), "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_workers_share_one_queue_and_create_each_record_once() {
    let (_server, url) = postgres();
    let platform = Platform::start(Data::generate(count(ACCOUNTS), count(INVOICES))).await;
    let books = QuickBooks::start().await;
    books.books.lock().expect("books").answer_delay = Some(Duration::from_millis(15));

    let workers: Vec<Child> = (0..3)
        .map(|_| start_worker(&platform, &books, &url))
        .collect();
    let mut created_by = Vec::new();
    for worker in workers {
        let run = finish(worker).await;
        assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
        let report: Value = serde_json::from_str(&run.stdout).expect("json report");
        let created = ["Account", "Invoice"]
            .map(|e| report["entries"][e]["created"].as_u64().unwrap_or(0))
            .iter()
            .sum::<u64>();
        created_by.push(created);
    }
    assert_each_created_once(&books);
    assert_eq!(create_requests(&books).await, ACCOUNTS + INVOICES);
    assert_eq!(
        created_by.iter().sum::<u64>(),
        (ACCOUNTS + INVOICES) as u64,
        "{created_by:?}"
    );
    assert!(
        created_by.iter().filter(|&&n| n > 0).count() >= 2,
        "the work was not shared: {created_by:?}"
    );
    assert_all_done(&url).await;

    // A later pool finds nothing to do.
    let again = finish(start_worker(&platform, &books, &url)).await;
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_each_created_once(&books);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_killed_mid_run_loses_nothing_and_duplicates_nothing() {
    let (_server, url) = postgres();
    let platform = Platform::start(Data::generate(count(ACCOUNTS), count(INVOICES))).await;
    let books = QuickBooks::start().await;
    // Slow answers: the killed worker has creates carried out but unanswered.
    books.books.lock().expect("books").answer_delay = Some(Duration::from_millis(40));

    // Two pushers each: the killed process may leave two creates cut short.
    let mut workers: Vec<Child> = (0..3)
        .map(|_| start_worker_with(&platform, &books, &url, &["--pushers", "2"]))
        .collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    while books.creates("Customer") < 40 {
        assert!(Instant::now() < deadline, "the workers made no progress");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut killed = workers.remove(0);
    killed.kill().expect("SIGKILL");
    killed.wait().expect("reaped");

    for worker in workers {
        let run = finish(worker).await;
        // Survivors end once the killed worker's leases expired and they took its records
        // over (exit 1 only for records left to a later run, never a duplicate).
        assert!(
            run.code == 0 || run.code == 1,
            "{}\n{}",
            run.stdout,
            run.stderr
        );
    }
    // Whatever the killed worker left (a listing cut short, creates of unknown outcome that
    // the catalog's lookups find out about) a next run finishes.
    let last = finish(start_worker(&platform, &books, &url)).await;
    assert_eq!(last.code, 0, "{}\n{}", last.stdout, last.stderr);
    assert_each_created_once(&books);
    assert_all_done(&url).await;
}

/// A listing page of 200 records is enqueued record by record, each state call waited for on
/// the command's one thread within one turn of its task: the process must not stall.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_listing_page_does_not_stall_syncdef_sync() {
    let (_server, url) = postgres();
    let platform = Platform::start(Data::generate(count(ACCOUNTS), count(INVOICES))).await;
    let books = QuickBooks::start().await;
    let worker = start_worker_paging(&platform, &books, &url, 200, &[]);
    let run = finish_within(worker, Duration::from_secs(90)).await;
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert_each_created_once(&books);
    assert_all_done(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_account_concurrency_limit_holds_for_all_workers_together() {
    let (_server, url) = postgres();
    let platform = Platform::start(Data::generate(12, 0)).await;
    let books = QuickBooks::start().await;
    let answer = Duration::from_millis(150);
    books.books.lock().expect("books").answer_delay = Some(answer);
    let dir = tempfile::tempdir().expect("dir");
    let config = dir.path().join("syncdef.toml");
    std::fs::write(&config, "[rate-limit]\nconcurrency = 1\n").expect("config");
    let config = config.display().to_string();
    let extra = ["--config", config.as_str()];

    let workers: Vec<Child> = (0..3)
        .map(|_| start_worker_with(&platform, &books, &url, &extra))
        .collect();
    for worker in workers {
        let run = finish(worker).await;
        assert!(
            run.code == 0 || run.code == 1,
            "{}\n{}",
            run.stdout,
            run.stderr
        );
    }
    let books = books.books.lock().expect("books");
    assert_eq!(books.creates.len(), 12);
    // One request at a time for the company, all processes together: each create arrives
    // after the answer to the one before (the answer takes `answer`).
    let gaps: Vec<Duration> = books
        .create_arrivals
        .windows(2)
        .map(|w| w[1].duration_since(w[0]))
        .collect();
    assert!(
        gaps.iter()
            .all(|g| *g >= answer.checked_sub(Duration::from_millis(20)).unwrap()),
        "requests overlapped: {gaps:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dry_run_on_the_shared_state_sends_and_stores_nothing() {
    let (_server, url) = postgres();
    let platform = Platform::start(Data::generate(12, 6)).await;
    let books = QuickBooks::start().await;
    let run = finish(start_worker_with(&platform, &books, &url, &["--dry-run"])).await;
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).expect("json report");
    assert_eq!(report["entries"]["Account"]["created"], 12, "{report}");
    assert_eq!(
        report["planned"].as_array().map(Vec::len),
        Some(18),
        "{report}"
    );
    assert_eq!(books.request_count().await, 0);
    let status = status(&url).await;
    assert_eq!(status.code, 0, "{}", status.stderr);
    let status: Value = serde_json::from_str(&status.stdout).expect("json");
    assert_eq!(status["counts"], serde_json::json!({}), "{status}");
    assert_eq!(status["cursors"], serde_json::json!([]), "{status}");
}

/// The seed of the pool's chaos test: `POOL_CHAOS_SEED=n` replays one run, else the clock
/// picks it (printed, so that a failure can be replayed).
fn chaos_seed() -> u64 {
    let seed = std::env::var("POOL_CHAOS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| {
                    u64::from(d.subsec_nanos()) ^ d.as_secs().rotate_left(32)
                })
        });
    eprintln!("pool chaos: POOL_CHAOS_SEED={seed} replays this run");
    seed
}

/// What the chaos does once the company holds `at` customers.
#[derive(Clone, Copy, Debug)]
enum Blow {
    KillAWorker,
    RestartPostgres,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pool_under_kills_a_database_restart_and_lost_answers_creates_each_record_once() {
    const MANY: u32 = 300;
    let seed = chaos_seed();
    let mut dice = Dice(seed | 1);
    let (server, url) = own_postgres();
    // Invoices too: each needs its account, which pushers of one process and of others may
    // be pushing at that moment.
    let platform = Platform::start(Data::generate(MANY, CHAOS_INVOICES)).await;
    let books = QuickBooks::start().await;
    // Faults of the company: three creates refused for good, every answer slow enough that
    // creates are in flight at each blow, and some answers lost after the create was made.
    let refused: Vec<String> = (0..3)
        .map(|_| format!("Account {}", 1 + dice.index(MANY as usize)))
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    {
        let mut books = books.books.lock().expect("books");
        books.answer_delay = Some(Duration::from_millis(25));
        books.refuse = refused.iter().cloned().collect();
        books.lose_answer_every = Some(11 + dice.index(10));
        // A lookup does not see a create for a moment, as QuickBooks' query service lags.
        books.query_lag = Some(Duration::from_millis(200));
    }
    // Four processes of two pushers each; two of them SIGKILLed and PostgreSQL stopped for
    // 1.5 s, each at a random point of the run.
    let mut workers: Vec<Child> = (0..4)
        .map(|_| start_worker_with(&platform, &books, &url, &["--pushers", "2"]))
        .collect();
    let mut blows: Vec<(usize, Blow)> = vec![
        (20 + dice.index(180), Blow::KillAWorker),
        (20 + dice.index(180), Blow::KillAWorker),
        (30 + dice.index(170), Blow::RestartPostgres),
    ];
    blows.sort_by_key(|(at, _)| *at);
    let server = strike(&blows, &mut workers, server, &books, &mut dice, seed).await;
    for worker in workers {
        let run = finish_within(worker, Duration::from_secs(90)).await;
        // Exit 1 when it met a refused record; a worker the restart stopped says so.
        assert!(
            run.code == 0 || run.code == 1,
            "seed {seed}\n{}\n{}",
            run.stdout,
            run.stderr
        );
        assert!(
            !run.stderr.contains("sync stopped"),
            "the restart stopped a worker (seed {seed}):\n{}",
            run.stderr
        );
    }

    // What the killed processes left (creates cut short: unknown until looked up) a next
    // run settles; the refused records stay failed and reported.
    let last = finish(start_worker(&platform, &books, &url)).await;
    assert!(
        last.code == 0 || last.code == 1,
        "seed {seed}\n{}\n{}",
        last.stdout,
        last.stderr
    );
    assert_each_created_once_or_reported(&books, &url, MANY, &refused, seed).await;
    drop(server);
}

/// Deals `blows` in order, each once the company holds its number of customers; returns the
/// (restarted) server.
async fn strike(
    blows: &[(usize, Blow)],
    workers: &mut Vec<Child>,
    server: PgServer,
    books: &QuickBooks,
    dice: &mut Dice,
    seed: u64,
) -> PgServer {
    let deadline = Instant::now() + Duration::from_secs(90);
    let mut server = server;
    for &(at, blow) in blows {
        while books.creates("Customer") < at {
            assert!(
                Instant::now() < deadline,
                "no progress to {at} ({blow:?}), seed {seed}"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        match blow {
            Blow::KillAWorker => {
                let mut killed = workers.remove(dice.index(workers.len()));
                killed.kill().expect("SIGKILL");
                killed.wait().expect("reaped");
            }
            Blow::RestartPostgres => {
                server = tokio::task::spawn_blocking(move || {
                    server
                        .restart(Duration::from_millis(1500))
                        .unwrap_or_else(|e| panic!("{e}\n{}", server.log()));
                    server
                })
                .await
                .expect("restarted");
            }
        }
    }
    server
}

/// Invoices of the pool's chaos test (invoice n bills account n).
const CHAOS_INVOICES: u32 = 100;

/// After the chaos: no customer or invoice twice, every account created but the refused ones,
/// which the state holds as failed and `sync status` reports, and every invoice either
/// created and done or held as failed or unknown: none lost.
async fn assert_each_created_once_or_reported(
    books: &QuickBooks,
    url: &str,
    many: u32,
    refused: &[String],
    seed: u64,
) {
    assert_eq!(
        books.duplicates(),
        Vec::<String>::new(),
        "created twice, seed {seed}"
    );
    // The lost answers were asked again (same request id: answered, not created again).
    assert!(
        create_requests(books).await > books.creates("Customer"),
        "no create was sent again after a lost answer (seed {seed})"
    );
    assert_eq!(
        books.creates("Customer"),
        many as usize - refused.len(),
        "seed {seed}"
    );
    let status = status(url).await;
    assert_eq!(status.code, 1, "{}\n{}", status.stdout, status.stderr);
    let report: Value = serde_json::from_str(&status.stdout).expect("json");
    let counts = &report["counts"]["Account"];
    let refused_count = refused.len() as u64;
    assert_eq!(
        counts["done"],
        u64::from(many) - refused_count,
        "seed {seed}: {report}"
    );
    assert_eq!(counts["failed"], refused_count, "seed {seed}: {report}");
    let invoices = &report["counts"]["Invoice"];
    let count = |status: &str| invoices[status].as_u64().unwrap_or(0);
    assert_eq!(
        count("done"),
        books.creates("Invoice") as u64,
        "seed {seed}: {report}"
    );
    assert_eq!(
        count("done") + count("failed") + count("unknown"),
        u64::from(CHAOS_INVOICES),
        "an invoice is missing from the state (seed {seed}): {report}"
    );
    let problems = report["problems"].to_string();
    for name in refused {
        let id = name.trim_start_matches("Account ");
        assert!(
            problems.contains(&format!("\"{id}\"")),
            "{name} is not reported (seed {seed}): {report}"
        );
    }
}
