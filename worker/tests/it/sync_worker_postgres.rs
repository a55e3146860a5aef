//! The sync worker as a library on a PostgreSQL state (a real server started here): the
//! loop's promises through the shared queue, with one worker and with two at once.

use crate::sync_support;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};

use futures::future::BoxFuture;

use sync_support::{Data, Platform, QuickBooks};
use syncdef_definitions::Definition;
use syncdef_engine::{
    Engine, HttpRequest, HttpResponse, RateLimitPolicy, ReqwestTransport, StaticToken, Transport,
    TransportError,
};
use syncdef_mock::postgres::PgServer;
use syncdef_platform::{Credentials, PlatformClient};
use syncdef_worker::state::State;
use syncdef_worker::{
    Clock, Dependencies, PostgresState, RecordKey, RecordStatus, SyncOptions, SyncReport, Worker,
};

fn definition_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../catalog/quickbooks-online/definition.yaml")
}

struct Rig {
    platform: Platform,
    books: QuickBooks,
    now: Arc<AtomicI64>,
    url: String,
    /// The most requests the workers had on their way at once.
    at_once: Arc<AtOnce>,
    /// The definition the workers load: the catalog's, or an edited copy.
    definition: PathBuf,
    dir: tempfile::TempDir,
    _server: Arc<PgServer>,
}

/// A transport that counts the requests on their way at once.
#[derive(Default)]
struct AtOnce {
    now: AtomicUsize,
    most: AtomicUsize,
}

struct Counting {
    inner: ReqwestTransport,
    at_once: Arc<AtOnce>,
}

impl Transport for Counting {
    fn send<'a>(
        &'a self,
        request: &'a HttpRequest,
    ) -> BoxFuture<'a, Result<HttpResponse, TransportError>> {
        Box::pin(async move {
            let now = self.at_once.now.fetch_add(1, Ordering::SeqCst) + 1;
            self.at_once.most.fetch_max(now, Ordering::SeqCst);
            let answer = self.inner.send(request).await;
            self.at_once.now.fetch_sub(1, Ordering::SeqCst);
            answer
        })
    }
}

impl Rig {
    async fn start(accounts: u32, invoices: u32) -> Rig {
        let server = PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
        let url = server
            .database()
            .unwrap_or_else(|e| panic!("{e}\n{}", server.log()));
        Rig {
            platform: Platform::start(Data::generate(accounts, invoices)).await,
            books: QuickBooks::start().await,
            now: Arc::new(AtomicI64::new(1_800_000_000)),
            url,
            at_once: Arc::default(),
            definition: definition_path(),
            dir: tempfile::tempdir().expect("temp dir"),
            _server: server,
        }
    }

    /// The catalog definition without its lookups, used from now on: a kept idempotency key
    /// alone settles a create of unknown outcome.
    fn without_lookups(&mut self) {
        let text = std::fs::read_to_string(definition_path()).expect("the catalog definition");
        let path = self.dir.path().join("definition.yaml");
        std::fs::write(&path, sync_support::without_lookups(&text)).expect("write");
        self.definition = path;
    }

    fn state(&self) -> PostgresState {
        PostgresState::open(&self.url).expect("state")
    }

    /// A worker with a connection pool of its own, as a separate process has.
    fn worker(&self, options: SyncOptions) -> Worker {
        self.try_worker(options).expect("worker")
    }

    /// [`Rig::worker`], or why the options are refused.
    fn try_worker(&self, options: SyncOptions) -> Result<Worker, syncdef_worker::WorkerError> {
        let definition = Definition::load_path(&self.definition).expect("definition");
        let dependencies = Dependencies::from_definition(&definition);
        // No request budget: the local fakes answer at once (the shared budget has its own
        // tests).
        let engine = Engine::load(definition)
            .expect("catalog definition loads")
            .engine
            .with_rate_limit_policy(RateLimitPolicy {
                key: Vec::new(),
                requests_per_minute: None,
                window_seconds: None,
                concurrency: None,
            })
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
        let transport = Arc::new(Counting {
            inner: ReqwestTransport::new().expect("transport"),
            at_once: self.at_once.clone(),
        });
        Worker::new(
            engine,
            transport,
            &dependencies,
            platform,
            Arc::new(self.state()),
            options,
        )
        .map(|worker| worker.with_clock(clock))
    }

    async fn run(&self, options: SyncOptions) -> SyncReport {
        self.worker(options).run().await
    }

    fn advance(&self, seconds: i64) {
        self.now.fetch_add(seconds, Ordering::SeqCst);
    }

    fn done(&self, entry: &str) -> u64 {
        self.state()
            .counts()
            .expect("counts")
            .iter()
            .filter(|c| c.entry == entry && c.status == RecordStatus::Done)
            .map(|c| c.count)
            .sum()
    }
}

fn options(entries: &[&str]) -> SyncOptions {
    SyncOptions {
        entries: entries.iter().map(|e| (*e).to_owned()).collect(),
        page_size: 50,
        ..SyncOptions::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_worker_pushes_everything_once_through_the_queue_and_then_nothing() {
    let rig = Rig::start(120, 90).await;
    let first = rig.run(options(&["Invoice", "Account"])).await;
    assert!(first.is_clean(), "{first:#?}");
    assert_eq!(first.entries["Account"].listed, 120);
    assert_eq!(first.entries["Account"].created, 120);
    assert_eq!(first.entries["Invoice"].created, 90);
    assert_eq!(rig.books.creates("Customer"), 120);
    assert_eq!(rig.books.creates("Invoice"), 90);
    assert!(first.entries["Account"].cursor.is_some());
    let second = rig.run(options(&["Account", "Invoice"])).await;
    assert!(second.is_clean(), "{second:#?}");
    assert_eq!(second.entries["Account"].listed, 0);
    assert_eq!(rig.books.creates("Customer"), 120);
    assert_eq!((rig.done("Account"), rig.done("Invoice")), (120, 90));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_workers_at_once_create_each_record_once() {
    let rig = Rig::start(150, 100).await;
    let (a, b) = (
        rig.worker(options(&["Account", "Invoice"])),
        rig.worker(options(&["Account", "Invoice"])),
    );
    let (a, b) = tokio::join!(a.run(), b.run());
    assert!(a.is_clean() && b.is_clean(), "{a:#?}\n{b:#?}");
    rig.books.assert_each_created_once();
    assert_eq!(rig.books.creates("Customer"), 150);
    assert_eq!(rig.books.creates("Invoice"), 100);
    let created = |r: &SyncReport| r.entries["Account"].created + r.entries["Invoice"].created;
    assert_eq!(created(&a) + created(&b), 250);
    assert_eq!((rig.done("Account"), rig.done("Invoice")), (150, 100));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_worker_with_four_pushers_pushes_four_at_once_and_each_record_once() {
    let rig = Rig::start(60, 40).await;
    rig.books.books.lock().expect("books").answer_delay =
        Some(std::time::Duration::from_millis(20));
    let report = rig
        .run(SyncOptions {
            pushers: 4,
            ..options(&["Account", "Invoice"])
        })
        .await;
    assert!(report.is_clean(), "{report:#?}");
    rig.books.assert_each_created_once();
    // The fake refuses an invoice whose customer it does not have: every invoice came after
    // its account, whichever pusher took it.
    assert_eq!(rig.books.creates("Customer"), 60);
    assert_eq!(rig.books.creates("Invoice"), 40);
    assert_eq!((rig.done("Account"), rig.done("Invoice")), (60, 40));
    let most = rig.at_once.most.load(Ordering::SeqCst);
    assert!((2..=4).contains(&most), "{most} requests at once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pushers_of_one_worker_push_a_shared_account_once() {
    // Invoices only: each pushes its account first under its own lease, and twelve invoices
    // share each of four accounts, so pushers of one worker meet on the same account.
    let rig = Rig::start(4, 48).await;
    {
        let mut books = rig.books.books.lock().expect("books");
        books.answer_delay = Some(std::time::Duration::from_millis(20));
        // Neither a lookup nor the request id shows an account another pusher is creating.
        books.query_lag = Some(std::time::Duration::from_secs(5));
        books.ignore_request_ids = true;
    }
    let pushers = |entries: &[&str]| SyncOptions {
        pushers: 8,
        ..options(entries)
    };
    let first = rig.run(pushers(&["Invoice"])).await;
    assert!(first.stopped.is_none(), "{first:#?}");
    rig.books.assert_each_created_once();
    assert_eq!(rig.books.creates("Customer"), 4);
    // An invoice whose account another pusher was pushing is tried again after its backoff.
    rig.advance(3600);
    let second = rig.run(pushers(&["Invoice"])).await;
    assert!(second.stopped.is_none(), "{second:#?}");
    rig.books.assert_each_created_once();
    assert_eq!(rig.books.creates("Customer"), 4);
    assert_eq!(rig.books.creates("Invoice"), 48);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_pushers_refuse_an_exact_push_count() {
    let rig = Rig::start(1, 0).await;
    let Err(error) = rig.try_worker(SyncOptions {
        pushers: 2,
        max_pushes: Some(5),
        ..options(&["Account"])
    }) else {
        panic!("two pushers with --max-pushes")
    };
    assert!(
        error.to_string().contains("use it with --pushers 1"),
        "{error}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_pusher_sends_one_request_at_a_time() {
    let rig = Rig::start(20, 0).await;
    rig.books.books.lock().expect("books").answer_delay = Some(std::time::Duration::from_millis(5));
    let report = rig.run(options(&["Account"])).await;
    assert!(report.is_clean(), "{report:#?}");
    assert_eq!(rig.books.creates("Customer"), 20);
    assert_eq!(rig.at_once.most.load(Ordering::SeqCst), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_record_is_retried_through_the_queue_after_its_backoff() {
    let rig = Rig::start(20, 0).await;
    let refused = "Account 7".to_owned();
    rig.books
        .books
        .lock()
        .expect("books")
        .refuse
        .insert(refused);
    let first = rig.run(options(&["Account"])).await;
    assert_eq!(first.entries["Account"].failed, 1);
    rig.books.books.lock().expect("books").refuse.clear();
    rig.advance(299);
    let early = rig.run(options(&["Account"])).await;
    assert_eq!(
        early.entries["Account"].created, 0,
        "not before the backoff"
    );
    rig.advance(2);
    let due = rig.run(options(&["Account"])).await;
    assert!(due.is_clean(), "{due:#?}");
    assert_eq!(due.entries["Account"].retried, 1);
    assert_eq!(due.entries["Account"].created, 1);
    assert_eq!(rig.books.creates("Customer"), 20);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invoice_pushes_its_missing_account_first_under_its_lease() {
    let rig = Rig::start(10, 10).await;
    let report = rig.run(options(&["Invoice"])).await;
    assert!(report.is_clean(), "{report:#?}");
    assert_eq!(report.entries["Account"].pushed_as_dependency, 10);
    assert_eq!(rig.books.creates("Customer"), 10);
    assert_eq!(rig.books.creates("Invoice"), 10);
    let accounts = rig.run(options(&["Account"])).await;
    assert_eq!(accounts.entries["Account"].created, 0);
    assert_eq!(accounts.entries["Account"].unchanged, 10);
}

/// Runs a worker that is killed while QuickBooks carries out create 37, whose answer never
/// arrives; checks that its lease keeps the record from others until it ends, then runs
/// `between` and a second worker after the lease. The key of the record that was in flight.
async fn killed_mid_create_37(
    rig: &Rig,
    between: impl FnOnce(&Rig, &RecordKey),
) -> (SyncReport, RecordKey) {
    // Dropped mid-create, like a killed process: its leases stay until they end.
    let worker = rig.worker(options(&["Account"]));
    rig.books.cut_short_at_create(37, worker.run()).await;
    drop(worker);
    let in_flight: Vec<RecordKey> = rig
        .state()
        .problems(10)
        .expect("problems")
        .into_iter()
        .filter(|r| r.status == RecordStatus::InFlight)
        .map(|r| r.key)
        .collect();
    assert_eq!(in_flight.len(), 1, "{in_flight:?}");
    // While the dead worker's lease lasts, a new worker leaves that record alone.
    let state = rig.state();
    assert_eq!(
        state
            .recover_in_flight(rig.now.load(Ordering::SeqCst))
            .expect("recover"),
        0
    );
    between(rig, &in_flight[0]);
    rig.advance(61);
    let second = rig.run(options(&["Account"])).await;
    assert!(second.is_clean(), "{second:#?}");
    rig.books.assert_each_created_once();
    assert_eq!(
        rig.books.creates("Customer"),
        100,
        "nothing is created twice"
    );
    assert_eq!(rig.done("Account"), 100);
    let row = rig
        .state()
        .record(&in_flight[0])
        .expect("read")
        .expect("row");
    assert_eq!(row.status, RecordStatus::Done);
    (second, in_flight[0].clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_killed_mid_create_hands_it_over_after_its_lease_as_unknown_never_created_again() {
    let rig = Rig::start(100, 0).await;
    let (second, _) = killed_mid_create_37(&rig, |_, _| ()).await;
    // The catalog's lookup found the create carried out: the record is updated instead.
    assert!(second.entries["Account"].updated >= 1, "{second:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_inheriting_a_create_repeated_under_its_key_sends_the_change_made_meanwhile() {
    let mut rig = Rig::start(100, 0).await;
    rig.without_lookups();
    let (_, key) = killed_mid_create_37(&rig, |rig, key| {
        let id = key.platform_id.parse().expect("a numeric account id");
        rig.platform.touch_account(id, 80_000, |account| {
            account["phone"] = serde_json::json!("+30 210 000 0037");
        });
    })
    .await;
    // QuickBooks answered the repeated requestid with the create made before the change.
    let name = format!("Account {}", key.platform_id);
    let id = rig.books.id_of("Customer", &name).expect("created once");
    let books = rig.books.books.lock().expect("books");
    let (_, body) = &books.records[&("Customer".to_owned(), id)];
    assert_eq!(body["PrimaryPhone"]["FreeFormNumber"], "+30 210 000 0037");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_listing_page_does_not_stall_the_library() {
    // 260 accounts listed 200 a page: the lister enqueues a whole page while its lease
    // heartbeat waits on the same runtime. Blocking a runtime worker thread on the state used
    // to stall the run for good after some 65 items.
    let rig = Rig::start(260, 0).await;
    let mut large_pages = options(&["Account"]);
    large_pages.page_size = 200;
    let report = rig.run(large_pages).await;
    assert!(report.is_clean(), "{report:#?}");
    assert_eq!(rig.books.creates("Customer"), 260);
}

/// Two workers pull and push one shared state at once: one of them reads the external
/// changes, the other waits for that pull instead of reading them again or pushing the
/// records before the pull wrote them, and no change is sent back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_workers_pull_an_entry_once_and_push_nothing_back() {
    let rig = Rig::start(120, 0).await;
    assert!(rig.run(options(&["Account"])).await.is_clean());
    let state = rig.state();
    for account in [5, 40, 77, 101, 110, 120] {
        let customer = state
            .record(&RecordKey::new("Account", account.to_string()))
            .expect("state")
            .and_then(|r| r.external_id)
            .expect("pushed");
        rig.books
            .books
            .lock()
            .expect("books")
            .edit_customer(&customer, |c| {
                c["PrimaryPhone"] =
                    serde_json::json!({"FreeFormNumber": format!("+1 555 {account:04}")});
            });
    }
    rig.advance(600);
    let updates_before = rig.books.updates("Customer");
    // Slow answers: the two runs overlap.
    rig.books.books.lock().expect("books").answer_delay =
        Some(std::time::Duration::from_millis(30));
    let both = || SyncOptions {
        direction: syncdef_worker::Direction::Both,
        ..options(&["Account"])
    };
    let (first, second) = (rig.worker(both()), rig.worker(both()));
    let (a, b) = tokio::join!(first.run(), second.run());
    assert!(a.is_clean(), "{a:#?}");
    assert!(b.is_clean(), "{b:#?}");
    let read = |r: &SyncReport| r.pulled.get("Account").map_or(0, |p| p.read);
    let updated = |r: &SyncReport| r.pulled.get("Account").map_or(0, |p| p.updated);
    assert_eq!(read(&a) + read(&b), 120, "one pull read every customer");
    assert_eq!(updated(&a) + updated(&b), 6);
    assert_eq!(rig.platform.data.lock().expect("data").patches.len(), 6);
    assert_eq!(
        rig.books.updates("Customer"),
        updates_before,
        "no pulled change was pushed back"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_platform_that_ignores_the_filter_stops_the_pool_instead_of_listing_forever() {
    let rig = Rig::start(120, 0).await;
    rig.platform.data.lock().expect("data").listing_fault =
        Some(sync_support::ListingFault::IgnoresFilter);
    let run = tokio::time::timeout(
        std::time::Duration::from_secs(60),
        rig.run(options(&["Account"])),
    )
    .await
    .expect("the run ends");
    let stopped = run.stopped.as_deref().expect("the run stopped");
    assert!(stopped.contains("makes no progress"), "{stopped}");
    rig.books.assert_each_created_once();
}
