//! Pulling onto the platform, through the worker, against a platform and a QuickBooks company
//! on loopback: external edits come back as JSON Patches of what differs, new customers become
//! accounts once, the next push sends nothing back, a record changed on both sides is a
//! conflict, and a pull cut short in a create does not create twice.

use crate::sync_support;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use serde_json::json;
use sync_support::{Data, Platform, QuickBooks};
use syncdef_definitions::Definition;
use syncdef_engine::{Engine, RateLimitPolicy, ReqwestTransport, StaticToken, Transport};
use syncdef_platform::{Credentials, PlatformClient};
use syncdef_worker::{
    Clock, Dependencies, Direction, Event, Observer, RecordKey, RecordStatus, SqliteState, State,
    SyncOptions, SyncReport, Worker,
};

const START: i64 = 1_800_000_000;

fn definition_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../catalog/quickbooks-online/definition.yaml")
}

struct Rig {
    platform: Platform,
    books: QuickBooks,
    dir: tempfile::TempDir,
    now: Arc<AtomicI64>,
}

impl Rig {
    async fn start(accounts: u32) -> Rig {
        let books = QuickBooks::start().await;
        books.books.lock().expect("books").clock = START;
        Rig {
            platform: Platform::start(Data::generate(accounts, 0)).await,
            books,
            dir: tempfile::tempdir().expect("temp dir"),
            now: Arc::new(AtomicI64::new(START)),
        }
    }

    fn worker(&self, direction: Direction) -> Worker {
        self.worker_with(SyncOptions {
            entries: vec!["Account".into()],
            page_size: 50,
            direction,
            ..SyncOptions::default()
        })
    }

    fn worker_with(&self, options: SyncOptions) -> Worker {
        self.try_worker(options).expect("worker")
    }

    fn try_worker(&self, options: SyncOptions) -> Result<Worker, syncdef_worker::WorkerError> {
        let transport: Arc<dyn Transport> = Arc::new(ReqwestTransport::new().expect("transport"));
        let state: Arc<dyn State> =
            Arc::new(SqliteState::open(&self.dir.path().join("state.sqlite")).expect("state"));
        let definition = Definition::load_path(&definition_path()).expect("definition");
        let dependencies = Dependencies::from_definition(&definition);
        let engine = Engine::load(definition)
            .expect("catalog definition loads")
            .engine
            .with_rate_limit_policy(RateLimitPolicy::default())
            .with_base_url(url::Url::parse(&self.books.base()).expect("url"))
            .with_token_provider(Arc::new(StaticToken::new("qbo-token")));
        let platform = PlatformClient::builder(
            self.platform.uri(),
            Credentials::new("key", "secret", "user", "password"),
        )
        .build()
        .expect("platform client");
        let now = self.now.clone();
        let clock: Clock = Arc::new(move || now.load(Ordering::SeqCst));
        Ok(
            Worker::new(engine, transport, &dependencies, platform, state, options)?
                .with_clock(clock),
        )
    }

    async fn run(&self, direction: Direction) -> SyncReport {
        let report = self.worker(direction).run().await;
        // The next run happens a while later, as the external system's clock moves on too.
        self.now.fetch_add(600, Ordering::SeqCst);
        self.books.books.lock().expect("books").clock += 600;
        report
    }

    fn state(&self) -> SqliteState {
        SqliteState::open(&self.dir.path().join("state.sqlite")).expect("state")
    }

    /// Changes the phone of the customer `account` was pushed as, in QuickBooks; its id.
    fn set_phone(&self, account: i64, phone: &str) -> String {
        let customer = self.customer_of(account);
        self.books
            .books
            .lock()
            .expect("books")
            .edit_customer(&customer, |c| {
                c["PrimaryPhone"] = json!({ "FreeFormNumber": phone });
            });
        customer
    }

    fn customer_of(&self, account: i64) -> String {
        self.state()
            .record(&RecordKey::new("Account", account.to_string()))
            .expect("state")
            .and_then(|r| r.external_id)
            .expect("the account was pushed")
    }
}

/// Queries (listings) the company answered.
async fn queries(books: &QuickBooks) -> usize {
    let requests = books.server.received_requests().await.unwrap_or_default();
    requests
        .iter()
        .filter(|r| r.url.path().ends_with("/query"))
        .count()
}

fn pulled(report: &SyncReport) -> &syncdef_worker::PullSummary {
    report.pulled.get("Account").expect("the pull ran")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn external_edits_come_back_as_patches_of_what_differs_and_are_not_pushed_back() {
    let rig = Rig::start(120).await;
    let pushed = rig.run(Direction::Push).await;
    assert!(pushed.is_clean(), "{pushed:?}");
    assert_eq!(rig.books.creates("Customer"), 120);
    // Five customers are edited in QuickBooks.
    for account in [3, 17, 50, 99, 120] {
        rig.set_phone(account, &format!("+1 555 {account:04}"));
    }
    let report = rig.run(Direction::Pull).await;
    assert!(report.is_clean(), "{report:?}");
    let summary = pulled(&report);
    // The first pull reads every customer; only the five differ from their accounts.
    assert_eq!(summary.read, 120, "{summary:?}");
    assert_eq!(
        (summary.updated, summary.unchanged, summary.created),
        (5, 115, 0)
    );
    assert!(summary.pages >= 2, "100 a page: {summary:?}");
    let data = rig.platform.data.lock().expect("data").patches.clone();
    assert_eq!(data.len(), 5);
    for (account, ops) in &data {
        assert_eq!(
            ops,
            &json!([{"op": "replace", "path": "/phone", "value": format!("+1 555 {account:04}")}]),
            "only the phone changed"
        );
    }
    // The patched accounts are listed as changed by the next push, which sends nothing back.
    let updates_before = rig.books.updates("Customer");
    let again = rig.run(Direction::Push).await;
    assert!(again.is_clean(), "{again:?}");
    assert_eq!(
        rig.books.updates("Customer"),
        updates_before,
        "a pulled change is not pushed back"
    );
    assert_eq!(again.entries["Account"].unchanged, 5, "{again:?}");
    // A second pull reads only what changed since (nothing) and writes nothing.
    let second = rig.run(Direction::Pull).await;
    assert_eq!(pulled(&second).updated, 0, "{second:?}");
    assert_eq!(rig.platform.data.lock().expect("data").patches.len(), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refresh_reads_only_the_records_asked_for_and_leaves_the_pull_cursor() {
    let rig = Rig::start(30).await;
    assert!(rig.run(Direction::Push).await.is_clean());
    let first = rig.set_phone(4, "+1 555 0004");
    let second = rig.set_phone(9, "+1 555 0009");
    // Edited too, but not asked for: a refresh leaves it to the next pull.
    rig.set_phone(21, "+1 555 0021");
    let queries_before = queries(&rig.books).await;
    let report = rig
        .worker_with(SyncOptions {
            entries: vec!["Account".into()],
            direction: Direction::Pull,
            refresh: vec![first, second],
            ..SyncOptions::default()
        })
        .run()
        .await;
    assert!(report.is_clean(), "{report:?}");
    let summary = pulled(&report);
    assert_eq!((summary.read, summary.updated), (2, 2), "{summary:?}");
    assert_eq!(
        queries(&rig.books).await,
        queries_before,
        "no listing was read"
    );
    let patched: Vec<i64> = rig
        .platform
        .data
        .lock()
        .expect("data")
        .patches
        .iter()
        .map(|(account, _)| *account)
        .collect();
    assert_eq!(patched, vec![4, 9]);
    assert_eq!(
        rig.state()
            .cursor(&syncdef_worker::pull_cursor_name("Account"))
            .expect("state"),
        None,
        "a refresh is not a pull: the cursor stays"
    );
    // The next pull reads every change, the one left among them.
    let later = rig.run(Direction::Pull).await;
    assert_eq!(pulled(&later).updated, 1, "{later:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refresh_needs_a_pull_of_one_entry() {
    let rig = Rig::start(1).await;
    for (entries, direction, says) in [
        (vec!["Account"], Direction::Both, "--direction pull"),
        (
            vec!["Account", "Invoice"],
            Direction::Pull,
            "name one entry",
        ),
        (vec!["Invoice"], Direction::Pull, "has no `pull.read`"),
    ] {
        let options = SyncOptions {
            entries: entries.iter().map(|e| (*e).to_owned()).collect(),
            direction,
            refresh: vec!["58".into()],
            ..SyncOptions::default()
        };
        let error = rig.try_worker(options).expect_err("refused");
        assert!(error.to_string().contains(says), "{error}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn customers_new_in_the_external_system_become_accounts_once() {
    let rig = Rig::start(3).await;
    assert!(rig.run(Direction::Push).await.is_clean());
    let new = rig.books.books.lock().expect("books").add_customer(json!({
        "DisplayName": "Made in QuickBooks", "Taxable": true,
        "PrimaryEmailAddr": {"Address": "books@example.com"}
    }));
    let report = rig.run(Direction::Both).await;
    assert!(report.is_clean(), "{report:?}");
    assert_eq!(pulled(&report).created, 1, "{report:?}");
    let creates = rig
        .platform
        .data
        .lock()
        .expect("data")
        .account_creates
        .clone();
    assert_eq!(
        creates,
        vec![
            json!({"integrationId": new, "name": "Made in QuickBooks", "isTaxable": true, "corpEmail": "books@example.com"})
        ]
    );
    // The push of the same run finds the new account in sync: no customer is created for it.
    assert_eq!(rig.books.creates("Customer"), 3);
    // It is edited in QuickBooks again: the next pull patches the account it made.
    rig.books
        .books
        .lock()
        .expect("books")
        .edit_customer(&new, |c| {
            c["DisplayName"] = json!("Renamed in QuickBooks");
        });
    let report = rig.run(Direction::Both).await;
    assert!(report.is_clean(), "{report:?}");
    assert_eq!((pulled(&report).created, pulled(&report).updated), (0, 1));
    assert_eq!(
        rig.platform
            .data
            .lock()
            .expect("data")
            .account_creates
            .len(),
        1
    );
    assert_eq!(rig.books.creates("Customer"), 3);
    assert_eq!(
        rig.books.updates("Customer"),
        0,
        "nothing went back to QuickBooks"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_changed_on_both_sides_keeps_the_platform_version_and_says_so() {
    let rig = Rig::start(4).await;
    assert!(rig.run(Direction::Push).await.is_clean());
    let customer = rig.customer_of(2);
    rig.platform
        .touch_account(2, 90_000, |a| a["phone"] = json!("+30 210 000 0002"));
    rig.books
        .books
        .lock()
        .expect("books")
        .edit_customer(&customer, |c| {
            c["PrimaryPhone"] = json!({"FreeFormNumber": "+1 555 7777"});
        });
    let report = rig.run(Direction::Both).await;
    assert_eq!(pulled(&report).conflicts, 1, "{report:?}");
    assert!(rig.platform.data.lock().expect("data").patches.is_empty());
    // The push that follows sends the platform's version.
    assert_eq!(report.entries["Account"].updated, 1, "{report:?}");
    let sent = rig.books.books.lock().expect("books").records[&("Customer".to_owned(), customer)]
        .1
        .clone();
    assert_eq!(sent["PrimaryPhone"]["FreeFormNumber"], "+30 210 000 0002");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pull_cut_short_in_a_create_does_not_create_twice() {
    let rig = Rig::start(1).await;
    assert!(rig.run(Direction::Push).await.is_clean());
    rig.books
        .books
        .lock()
        .expect("books")
        .add_customer(json!({"DisplayName": "Slow"}));
    // The platform carries the create out but its answer never comes: the run is dropped
    // mid-request, as a killed process would be.
    rig.platform.data.lock().expect("data").create_delay =
        Some(std::time::Duration::from_secs(600));
    let worker = rig.worker(Direction::Pull);
    let cut = tokio::time::timeout(std::time::Duration::from_secs(3), worker.run()).await;
    assert!(cut.is_err(), "the run was cut short");
    drop(worker);
    assert_eq!(
        rig.platform
            .data
            .lock()
            .expect("data")
            .account_creates
            .len(),
        1
    );
    rig.platform.data.lock().expect("data").create_delay = None;
    rig.now.fetch_add(600, Ordering::SeqCst);
    let report = rig.run(Direction::Pull).await;
    assert_eq!(report.recovered_in_flight, 1, "{report:?}");
    assert_eq!(pulled(&report).unknown, 1, "{report:?}");
    assert_eq!(
        rig.platform
            .data
            .lock()
            .expect("data")
            .account_creates
            .len(),
        1,
        "not created a second time"
    );
    let problems = rig.state().problems(10).expect("problems");
    assert!(
        problems
            .iter()
            .any(|r| r.key.platform_id.starts_with("pull:") && r.status == RecordStatus::Unknown),
        "{problems:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pull_only_asked_of_an_entry_that_cannot_pull_is_refused() {
    let rig = Rig::start(1).await;
    let definition = Definition::load_path(&definition_path()).expect("definition");
    let dependencies = Dependencies::from_definition(&definition);
    let engine = Engine::load(definition).expect("loads").engine;
    let platform = PlatformClient::builder(
        rig.platform.uri(),
        Credentials::new("key", "secret", "user", "password"),
    )
    .build()
    .expect("platform client");
    let state: Arc<dyn State> =
        Arc::new(SqliteState::open(&rig.dir.path().join("s.sqlite")).expect("state"));
    let options = SyncOptions {
        entries: vec!["Invoice".into()],
        direction: Direction::Pull,
        ..SyncOptions::default()
    };
    let transport: Arc<dyn Transport> = Arc::new(ReqwestTransport::new().expect("transport"));
    let error = Worker::new(engine, transport, &dependencies, platform, state, options)
        .expect_err("refused");
    assert!(
        error.to_string().contains("has no `pull.batchRead`"),
        "{error}"
    );
}

/// What an observer heard, in words: `request push create 2xx`, `pulled Updated`, `page 30`,
/// `queue`, `run`.
#[derive(Default)]
struct Heard(std::sync::Mutex<Vec<String>>);

impl Observer for Heard {
    fn event(&self, event: &Event<'_>) {
        let said = match event {
            Event::Request {
                entry,
                flow,
                operation,
                status,
                account,
                ..
            } => {
                assert_eq!(*entry, "Account");
                // No limit is set here: no request draws on an account's budget.
                assert_eq!(*account, None);
                format!("request {} {operation} {}", flow.as_str(), status.as_str())
            }
            Event::PullPage { read, rejected, .. } => format!("page {read} {rejected}"),
            Event::Pulled { result, .. } => format!("pulled {result:?}"),
            Event::PullFinished { summary, .. } => format!("pull done {}", summary.read),
            Event::Queue { .. } => "queue".to_owned(),
            Event::RunFinished { .. } => "run".to_owned(),
            _ => return,
        };
        self.0.lock().expect("heard").push(said);
    }
}

impl Heard {
    fn count(&self, prefix: &str) -> usize {
        let heard = self.0.lock().expect("heard");
        heard.iter().filter(|h| h.starts_with(prefix)).count()
    }

    fn clear(&self) {
        self.0.lock().expect("heard").clear();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_observer_hears_each_request_pulled_record_and_run_as_the_report_counts_them() {
    let rig = Rig::start(30).await;
    let heard = Arc::new(Heard::default());
    let observed = |direction| {
        rig.worker(direction)
            .with_observer(Arc::clone(&heard) as Arc<dyn Observer>)
    };
    let pushed = observed(Direction::Push).run().await;
    assert!(pushed.is_clean(), "{pushed:?}");
    // One create a record, each answered 2xx; the queue read as pushers took their batches.
    assert_eq!(heard.count("request push create 2xx"), 30);
    assert_eq!(
        heard.count("request push create 2xx"),
        rig.books.creates("Customer")
    );
    assert_eq!(heard.count("request pull"), 0);
    assert!(heard.count("queue") >= 1);
    assert_eq!(heard.count("run"), 1);

    heard.clear();
    rig.now.fetch_add(600, Ordering::SeqCst);
    rig.books.books.lock().expect("books").clock += 600;
    rig.set_phone(7, "+1 555 0007");
    rig.set_phone(8, "+1 555 0008");
    let report = observed(Direction::Pull).run().await;
    assert!(report.is_clean(), "{report:?}");
    let summary = pulled(&report);
    assert_eq!(summary.updated, 2, "{summary:?}");
    let heard_pages: Vec<String> = heard
        .0
        .lock()
        .expect("heard")
        .iter()
        .filter(|h| h.starts_with("page "))
        .cloned()
        .collect();
    assert_eq!(
        u64::try_from(heard_pages.len()).expect("few"),
        summary.pages,
        "{heard_pages:?}"
    );
    assert_eq!(
        heard.count("pulled Updated"),
        usize::try_from(summary.updated).expect("few")
    );
    assert_eq!(
        heard.count("pulled "),
        usize::try_from(summary.read).expect("few")
    );
    assert_eq!(heard.count(&format!("pull done {}", summary.read)), 1);
    // Each page is one listing request, sent for the pull.
    assert_eq!(
        u64::try_from(heard.count("request pull ")).expect("few"),
        summary.pages
    );
    assert_eq!(heard.count("request push"), 0);
}
