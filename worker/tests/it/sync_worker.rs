//! The sync worker as a library against a platform and a QuickBooks company on loopback:
//! hundreds of records across pages, equal timestamps across page boundaries, restarts,
//! faults and backoff.

use crate::sync_support;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use serde_json::json;
use sync_support::{Data, ListingFault, Platform, QuickBooks, without_lookups};
use syncdef_definitions::Definition;
use syncdef_engine::{
    Engine, RateLimitPolicy, RecordingTransport, ReqwestTransport, RetryPolicy, StaticToken,
    Transport,
};
use syncdef_platform::{Credentials, PlatformClient};
use syncdef_worker::state::{
    CursorRow, Failed, Pushed, RecordRow, State, StateError, StatusCount, WarningRow, WorkQueue,
};
use syncdef_worker::{
    Clock, Dependencies, InFlightCreate, RecordKey, RecordStatus, Resolution, SqliteState,
    SyncOptions, SyncReport, Worker,
};

const ACCOUNTS: u32 = 300;
const INVOICES: u32 = 250;

fn definition_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../catalog/quickbooks-online/definition.yaml")
}

struct Rig {
    platform: Platform,
    books: QuickBooks,
    dir: tempfile::TempDir,
    now: Arc<AtomicI64>,
    definition: PathBuf,
}

impl Rig {
    async fn start(accounts: u32, invoices: u32) -> Rig {
        Rig::with_data(Data::generate(accounts, invoices)).await
    }

    async fn with_data(data: Data) -> Rig {
        Rig {
            platform: Platform::start(data).await,
            books: QuickBooks::start().await,
            dir: tempfile::tempdir().expect("temp dir"),
            now: Arc::new(AtomicI64::new(1_800_000_000)),
            definition: definition_path(),
        }
    }

    /// The catalog definition with `edit` applied to its text, used from now on.
    fn edit_definition(&mut self, edit: impl FnOnce(String) -> String) {
        let text = std::fs::read_to_string(definition_path()).expect("the catalog definition");
        let path = self.dir.path().join("definition.yaml");
        std::fs::write(&path, edit(text)).expect("write the definition");
        self.definition = path;
    }

    fn state_path(&self) -> PathBuf {
        self.dir.path().join("state.sqlite")
    }

    fn worker(&self, options: SyncOptions) -> Worker {
        self.worker_to(&self.books.base(), options)
    }

    fn worker_to(&self, external_base: &str, options: SyncOptions) -> Worker {
        let transport: Arc<dyn Transport> = if options.dry_run {
            Arc::new(RecordingTransport::synthesizing())
        } else {
            Arc::new(ReqwestTransport::new().expect("transport"))
        };
        let state: Arc<dyn State> = if options.dry_run {
            Arc::new(SqliteState::open_dry_run(&self.state_path()).expect("state"))
        } else {
            Arc::new(SqliteState::open(&self.state_path()).expect("state"))
        };
        let definition = Definition::load_path(&self.definition).expect("definition");
        let dependencies = Dependencies::from_definition(&definition);
        // The catalog throttles QuickBooks to 500 requests a minute per company, shared by every
        // engine of the process: these tests push hundreds of records against a local fake, and
        // what they check is the worker, not the throttle (engine/tests/it/faults/ checks that).
        let engine = Engine::load(definition)
            .expect("catalog definition loads")
            .engine
            .with_rate_limit_policy(unthrottled())
            .with_retry_policy(quick_retries())
            .with_base_url(url::Url::parse(external_base).expect("url"))
            .with_token_provider(Arc::new(StaticToken::new("qbo-token")));
        let platform = PlatformClient::builder(
            self.platform.uri(),
            Credentials::new("key", "secret", "user", "password"),
        )
        .build()
        .expect("platform client");
        let now = self.now.clone();
        let clock: Clock = Arc::new(move || now.load(Ordering::SeqCst));
        Worker::new(engine, transport, &dependencies, platform, state, options)
            .expect("worker")
            .with_clock(clock)
    }

    async fn run(&self, options: SyncOptions) -> SyncReport {
        self.worker(options).run().await
    }

    fn state(&self) -> SqliteState {
        SqliteState::open(&self.state_path()).expect("state")
    }

    fn advance(&self, seconds: i64) {
        self.now.fetch_add(seconds, Ordering::SeqCst);
    }
}

fn options(entries: &[&str]) -> SyncOptions {
    SyncOptions {
        entries: entries.iter().map(|e| (*e).to_owned()).collect(),
        page_size: 50,
        ..SyncOptions::default()
    }
}

fn done(state: &SqliteState, entry: &str) -> u64 {
    state
        .counts()
        .expect("counts")
        .iter()
        .filter(|c| c.entry == entry && c.status == RecordStatus::Done)
        .map(|c| c.count)
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_run_pushes_everything_once_and_second_run_nothing() {
    let rig = Rig::start(ACCOUNTS, INVOICES).await;
    // Asked in the "wrong" order: the definition puts accounts first.
    let report = rig.run(options(&["Invoice", "Account"])).await;
    assert_eq!(report.order, ["Account", "Invoice"]);
    assert!(report.is_clean(), "{report:#?}");
    assert_eq!(report.entries["Account"].created, u64::from(ACCOUNTS));
    assert_eq!(report.entries["Invoice"].created, u64::from(INVOICES));
    assert_eq!(report.entries["Account"].listed, u64::from(ACCOUNTS));
    assert_eq!(report.entries["Invoice"].listed, u64::from(INVOICES));
    assert_eq!(rig.books.creates("Customer"), ACCOUNTS as usize);
    assert_eq!(rig.books.creates("Invoice"), INVOICES as usize);
    rig.books.assert_each_created_once();
    // Equal timestamps across page boundaries: every record read exactly once.
    assert_eq!(rig.platform.gets("/api/accounts/").await, ACCOUNTS as usize);
    assert_eq!(
        rig.platform.gets("/api/invoices/").await,
        2 * INVOICES as usize
    );
    // The invoice went to its account's customer.
    let customer = rig.books.id_of("Customer", "Account 3").expect("customer");
    let invoice = rig.books.id_of("Invoice", "INV-00003").expect("invoice");
    let books = rig.books.books.lock().expect("books").records[&("Invoice".to_owned(), invoice)]
        .1
        .clone();
    assert_eq!(books["CustomerRef"]["value"], json!(customer));
    assert_eq!(
        report.entries["Invoice"].cursor.as_deref(),
        Some(sync_support::stamp(10_000 + INVOICES / 5 * 5).as_str())
    );

    let before = rig.books.request_count().await;
    let second = rig.run(options(&["Account", "Invoice"])).await;
    assert!(second.is_clean(), "{second:#?}");
    assert_eq!(
        rig.books.request_count().await,
        before,
        "nothing is sent again"
    );
    assert_eq!(second.entries["Account"].listed, 0);
    let state = rig.state();
    assert_eq!(done(&state, "Account"), u64::from(ACCOUNTS));
    assert_eq!(done(&state, "Invoice"), u64::from(INVOICES));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_edited_while_paging_skips_no_other_record() {
    let rig = Rig::start(120, 0).await;
    // Account 3 moves to the end of the updatedAt order right after page 1 is served: an
    // offset-based page 2 would now start one record later and skip account 51.
    rig.platform.data.lock().expect("data").edit_after_listing = Some((3, 90_000));
    let report = rig.run(options(&["Account"])).await;
    assert!(report.is_clean(), "{report:#?}");
    assert_eq!(rig.books.creates("Customer"), 120);
    rig.books.assert_each_created_once();
    assert_eq!(done(&rig.state(), "Account"), 120);
    // The full read after the listing already saw the edit, so the create carried it; when
    // the edit is listed again at the end it is recognised (same updatedAt) and not re-sent.
    assert_eq!(rig.books.updates("Customer"), 0);
    assert_eq!(report.entries["Account"].unchanged, 1);
    let id = rig.books.id_of("Customer", "Account 3").expect("created");
    let books = rig.books.books.lock().expect("books");
    assert_eq!(
        books.records[&("Customer".to_owned(), id)].1["PrimaryPhone"]["FreeFormNumber"],
        json!("+30 210 999 9999")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_platform_serving_smaller_pages_than_asked_still_skips_nothing() {
    let rig = Rig::start(120, 0).await;
    {
        let mut data = rig.platform.data.lock().expect("data");
        data.page_cap = Some(20);
        data.edit_after_listing = Some((3, 90_000));
    }
    let report = rig.run(options(&["Account"])).await;
    assert!(report.is_clean(), "{report:#?}");
    assert_eq!(rig.books.creates("Customer"), 120);
    rig.books.assert_each_created_once();
    assert_eq!(done(&rig.state(), "Account"), 120);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_record_is_updated_not_created_again() {
    let rig = Rig::start(40, 20).await;
    rig.run(options(&["Account", "Invoice"])).await;
    let id = rig.books.id_of("Customer", "Account 5").expect("created");
    rig.platform
        .touch_account(5, 50_000, |a| a["phone"] = json!("+30 210 000 0000"));
    // Only updatedAt moves: listed and read, but the same content is not pushed again.
    rig.platform.touch_account(6, 50_000, |_| {});
    let report = rig.run(options(&["Account", "Invoice"])).await;
    assert!(report.is_clean(), "{report:#?}");
    assert_eq!(report.entries["Account"].listed, 2);
    assert_eq!(report.entries["Account"].updated, 1);
    assert_eq!(report.entries["Account"].unchanged, 1);
    assert_eq!(report.entries["Account"].created, 0);
    assert_eq!(rig.books.updates("Customer"), 1);
    assert_eq!(rig.books.creates("Customer"), 40);
    let books = rig.books.books.lock().expect("books");
    let (token, body) = &books.records[&("Customer".to_owned(), id.clone())];
    assert_eq!(
        body["PrimaryPhone"]["FreeFormNumber"],
        json!("+30 210 000 0000")
    );
    assert_eq!(*token, 1, "one sparse update with the SyncToken read first");
    assert!(books.updates.contains(&("Customer".to_owned(), id)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_stopped_mid_way_resumes_without_duplicates() {
    let rig = Rig::start(ACCOUNTS, 60).await;
    let first = rig
        .run(SyncOptions {
            max_pushes: Some(120),
            ..options(&["Account", "Invoice"])
        })
        .await;
    assert!(first.stopped.is_some());
    assert_eq!(rig.books.creates("Customer"), 120);
    let second = rig.run(options(&["Account", "Invoice"])).await;
    assert!(second.is_clean(), "{second:#?}");
    assert_eq!(rig.books.creates("Customer"), ACCOUNTS as usize);
    assert_eq!(rig.books.creates("Invoice"), 60);
    rig.books.assert_each_created_once();
}

/// Runs a sync of 200 accounts that is killed while QuickBooks carries out create 77, whose
/// answer never arrives; then `between`, then a second run.
async fn killed_during_create_77(rig: &Rig, between: impl FnOnce(&Rig)) -> SyncReport {
    // Dropping the worker drops the run mid-create, like a killed process.
    let worker = rig.worker(options(&["Account"]));
    rig.books.cut_short_at_create(77, worker.run()).await;
    drop(worker);
    between(rig);
    let second = rig.run(options(&["Account"])).await;
    assert_eq!(second.recovered_in_flight, 1);
    rig.books.assert_each_created_once();
    assert_eq!(
        rig.books.creates("Customer"),
        200,
        "nothing is created twice"
    );
    second
}

fn unknown_records(state: &SqliteState) -> Vec<RecordRow> {
    state
        .problems(10)
        .expect("problems")
        .into_iter()
        .filter(|r| r.status == RecordStatus::Unknown)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_create_killed_in_flight_is_found_by_the_lookup_and_updated_not_created_again() {
    let rig = Rig::start(200, 0).await;
    let second = killed_during_create_77(&rig, |rig| {
        rig.platform.touch_account(77, 80_000, |account| {
            account["phone"] = json!("+30 210 000 0077");
        });
    })
    .await;
    assert!(second.is_clean(), "{second:#?}");
    assert_eq!(second.entries["Account"].updated, 1, "{second:#?}");
    let state = rig.state();
    assert!(unknown_records(&state).is_empty());
    assert_eq!(done(&state, "Account"), 200);
    let id = rig
        .books
        .id_of("Customer", "Account 77")
        .expect("created once");
    let updated = rig.books.books.lock().expect("books").updates.clone();
    assert!(
        updated.contains(&("Customer".to_owned(), id)),
        "{updated:?}"
    );
    assert_eq!(
        customer_phone(&rig, "Account 77"),
        Some("+30 210 000 0077".to_owned())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_create_killed_in_flight_is_sent_again_with_its_kept_key_and_quickbooks_answers_the_repeat()
 {
    let mut rig = Rig::start(200, 0).await;
    rig.edit_definition(|text| without_lookups(&text));
    // The record changes on the platform before the next run: a key derived from the new body
    // would be new, and QuickBooks would create the customer a second time.
    let second = killed_during_create_77(&rig, |rig| {
        rig.platform.touch_account(77, 99_000, |account| {
            account["phone"] = json!("+30 210 000 0000");
        });
    })
    .await;
    assert!(second.is_clean(), "{second:#?}");
    assert!(unknown_records(&rig.state()).is_empty());
    assert_eq!(done(&rig.state(), "Account"), 200);
    // QuickBooks answered the repeat with the first create, made before the change: the change
    // still arrives, as an update of the customer that create made.
    assert_eq!(
        customer_phone(&rig, "Account 77"),
        Some("+30 210 000 0000".to_owned())
    );
    // The run says so, in its counts and in what `syncdef sync` prints.
    assert_eq!(second.entries["Account"].repeated_creates, 1, "{second:#?}");
    let shown = syncdef_worker::render::summary(&second);
    assert!(
        shown.contains("Account: 1 create sent again under an earlier create's idempotency key"),
        "{shown}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_create_whose_update_fails_keeps_the_id_and_is_updated_later() {
    let mut rig = Rig::start(200, 0).await;
    rig.edit_definition(|text| without_lookups(&text));
    let second = killed_during_create_77(&rig, |rig| {
        rig.platform.touch_account(77, 80_000, |account| {
            account["phone"] = json!("+30 210 000 0079");
        });
        rig.books.books.lock().expect("books").fail_updates = true;
    })
    .await;
    assert_eq!(second.entries["Account"].failed, 1, "{second:#?}");
    // The create's id is known now: the record is failed, not unknown, and keeps it.
    let id = rig
        .books
        .id_of("Customer", "Account 77")
        .expect("created once");
    let row = rig
        .state()
        .record(&RecordKey::new("Account", "77"))
        .expect("read")
        .expect("row");
    assert_eq!(row.status, RecordStatus::Failed, "{row:?}");
    assert_eq!(row.external_id.as_deref(), Some(id.as_str()));
    assert_eq!(row.create, None);
    rig.books.books.lock().expect("books").fail_updates = false;
    rig.advance(3_600);
    let third = rig.run(options(&["Account"])).await;
    assert!(third.is_clean(), "{third:#?}");
    assert_eq!(third.entries["Account"].updated, 1, "{third:#?}");
    assert_eq!(rig.books.creates("Customer"), 200);
    assert_eq!(
        customer_phone(&rig, "Account 77"),
        Some("+30 210 000 0079".to_owned())
    );
}

/// The phone QuickBooks holds for the customer named `name`.
fn customer_phone(rig: &Rig, name: &str) -> Option<String> {
    let id = rig
        .books
        .id_of("Customer", name)
        .expect("the customer exists");
    let books = rig.books.books.lock().expect("books");
    let (_, body) = &books.records[&("Customer".to_owned(), id)];
    body["PrimaryPhone"]["FreeFormNumber"]
        .as_str()
        .map(str::to_owned)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_create_killed_in_flight_waits_for_an_operator_when_nothing_can_tell() {
    let mut rig = Rig::start(200, 0).await;
    rig.edit_definition(|text| {
        without_lookups(&text).replace(
            "  idempotency: {in: query, name: requestid, operations: [create]}\n",
            "",
        )
    });
    let second = killed_during_create_77(&rig, |rig| {
        rig.platform.touch_account(77, 80_000, |account| {
            account["phone"] = json!("+30 210 000 0078");
        });
    })
    .await;
    assert_eq!(second.entries["Account"].skipped, 1, "{second:#?}");
    let state = rig.state();
    let unknown = unknown_records(&state);
    assert_eq!(unknown.len(), 1, "{unknown:?}");
    assert_eq!(unknown[0].error_class.as_deref(), Some("unknownOutcome"));
    assert_eq!(done(&state, "Account"), 199);
    // The operator finds the customer in QuickBooks and stores its id.
    let name = format!("Account {}", unknown[0].key.platform_id);
    let id = rig.books.id_of("Customer", &name).expect("it was created");
    assert!(
        state
            .resolve(&unknown[0].key, &Resolution::ExternalId(id.clone()), 0)
            .expect("resolve")
    );
    drop(state);
    let third = rig.run(options(&["Account"])).await;
    assert!(third.is_clean(), "{third:#?}");
    assert_eq!(third.entries["Account"].updated, 1);
    assert_eq!(done(&rig.state(), "Account"), 200);
    assert_eq!(rig.books.creates("Customer"), 200);
    assert!(
        rig.books
            .books
            .lock()
            .expect("books")
            .updates
            .contains(&("Customer".to_owned(), id))
    );
    assert_eq!(
        customer_phone(&rig, &name),
        Some("+30 210 000 0078".to_owned())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_record_is_retried_after_its_backoff_and_not_before() {
    let rig = Rig::start(30, 30).await;
    rig.books
        .books
        .lock()
        .expect("books")
        .refuse
        .insert("Account 7".to_owned());
    let first = rig.run(options(&["Account", "Invoice"])).await;
    assert_eq!(first.entries["Account"].failed, 1);
    // Invoice 7 needs account 7: it fails too, and its account is not pushed again for it.
    assert_eq!(first.entries["Invoice"].failed, 1);
    assert_eq!(rig.books.creates("Customer"), 29);
    let state = rig.state();
    let row = state
        .record(&RecordKey::new("Account", "7"))
        .expect("read")
        .expect("row");
    assert_eq!(row.status, RecordStatus::Failed);
    assert_eq!(row.attempts, 1);
    assert_eq!(row.error_class.as_deref(), Some("externalValidation"));
    assert!(
        row.last_error
            .as_deref()
            .unwrap_or_default()
            .contains("Duplicate Name")
    );
    drop(state);

    rig.books.books.lock().expect("books").refuse.clear();
    rig.advance(299);
    let early = rig.run(options(&["Account", "Invoice"])).await;
    assert_eq!(early.entries["Account"].retried, 0);
    assert_eq!(
        rig.books.creates("Customer"),
        29,
        "not before the backoff ends"
    );

    rig.advance(2);
    let due = rig.run(options(&["Account", "Invoice"])).await;
    assert!(due.is_clean(), "{due:#?}");
    assert_eq!(due.entries["Account"].retried, 1);
    assert_eq!(due.entries["Account"].created, 1);
    assert_eq!(due.entries["Invoice"].created, 1);
    assert_eq!(rig.books.creates("Customer"), 30);
    assert_eq!(rig.books.creates("Invoice"), 30);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invoice_pushes_its_missing_account_first() {
    let rig = Rig::start(10, 10).await;
    let report = rig.run(options(&["Invoice"])).await;
    assert!(report.is_clean(), "{report:#?}");
    assert_eq!(report.entries["Account"].pushed_as_dependency, 10);
    assert_eq!(rig.books.creates("Customer"), 10);
    assert_eq!(rig.books.creates("Invoice"), 10);
    // The accounts, now known, are not pushed again when their entry runs.
    let accounts = rig.run(options(&["Account"])).await;
    assert_eq!(accounts.entries["Account"].created, 0);
    assert_eq!(accounts.entries["Account"].unchanged, 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dry_run_sends_nothing_and_stores_nothing() {
    let rig = Rig::start(12, 4).await;
    let report = rig
        .run(SyncOptions {
            dry_run: true,
            ..options(&["Account", "Invoice"])
        })
        .await;
    assert!(report.dry_run);
    assert_eq!(rig.books.request_count().await, 0);
    assert_eq!(report.planned.len(), 16);
    let first = &report.planned[0];
    assert_eq!(first.operation.as_deref(), Some("create"));
    assert_eq!(first.requests[0].body["DisplayName"], json!("Account 1"));
    assert!(!rig.state_path().exists(), "no state file is created");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn since_rescans_without_pushing_unless_forced() {
    let rig = Rig::start(10, 0).await;
    rig.run(options(&["Account"])).await;
    let reads = rig.platform.gets("/api/accounts/").await;
    let rescan = rig
        .run(SyncOptions {
            since: Some("2026-01-01".to_owned()),
            ..options(&["Account"])
        })
        .await;
    assert_eq!(rescan.entries["Account"].listed, 10);
    assert_eq!(rescan.entries["Account"].unchanged, 10);
    assert_eq!(
        rig.platform.gets("/api/accounts/").await,
        reads,
        "no full reads"
    );
    assert_eq!(rig.books.updates("Customer"), 0);
    let forced = rig
        .run(SyncOptions {
            since: Some("2026-01-01".to_owned()),
            force: true,
            ..options(&["Account"])
        })
        .await;
    assert!(forced.is_clean(), "{forced:#?}");
    assert_eq!(forced.entries["Account"].updated, 10);
    assert_eq!(rig.books.updates("Customer"), 10);
    assert_eq!(rig.books.creates("Customer"), 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_request_ends_the_run_cleanly_after_the_current_record() {
    let rig = Rig::start(150, 0).await;
    let worker = rig.worker(options(&["Account"]));
    let stop = worker.stop_handle();
    let books = rig.books.books.clone();
    let watcher = tokio::spawn(async move {
        while books.lock().expect("books").creates.len() < 30 {
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
        stop.stop();
    });
    let report = worker.run().await;
    watcher.await.expect("watcher");
    drop(worker);
    assert!(
        report
            .stopped
            .as_deref()
            .unwrap_or_default()
            .contains("interrupted"),
        "{report:#?}"
    );
    let created = rig.books.creates("Customer");
    assert!((30..150).contains(&created), "{created}");
    assert_eq!(
        report.entries["Account"].unknown, 0,
        "nothing is left in flight"
    );
    let rest = rig.run(options(&["Account"])).await;
    assert!(rest.is_clean(), "{rest:#?}");
    assert_eq!(rest.recovered_in_flight, 0);
    assert_eq!(rig.books.creates("Customer"), 150);
    rig.books.assert_each_created_once();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creates_that_never_left_are_failed_not_unknown() {
    let rig = Rig::start(5, 0).await;
    // Nothing listens there: the connection is refused before any byte of the create leaves.
    let report = rig
        .worker_to("http://127.0.0.1:9/qbo", options(&["Account"]))
        .run()
        .await;
    assert_eq!(report.entries["Account"].failed, 5, "{report:#?}");
    assert_eq!(report.entries["Account"].unknown, 0);
    let state = rig.state();
    let row = state
        .record(&RecordKey::new("Account", "1"))
        .expect("read")
        .expect("row");
    assert_eq!(row.status, RecordStatus::Failed);
    assert_eq!(row.error_class.as_deref(), Some("transient"));
    drop(state);
    rig.advance(301);
    let retried = rig.run(options(&["Account"])).await;
    assert!(retried.is_clean(), "{retried:#?}");
    assert_eq!(retried.entries["Account"].retried, 5);
    assert_eq!(rig.books.creates("Customer"), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_platform_outage_stops_the_run_and_keeps_the_cursor() {
    let rig = Rig::start(20, 0).await;
    rig.run(options(&["Account"])).await;
    let cursor = rig.state().cursor("Account").expect("cursor");
    rig.platform
        .touch_account(4, 60_000, |a| a["phone"] = json!("+30 1"));
    rig.platform.data.lock().expect("data").listing_down = true;
    let down = rig.run(options(&["Account"])).await;
    let stopped = down.stopped.clone().unwrap_or_default();
    assert!(
        stopped.contains("listing the changed records of `Account` failed")
            && stopped.contains("HTTP 503"),
        "{stopped}"
    );
    assert_eq!(rig.state().cursor("Account").expect("cursor"), cursor);
    rig.platform.data.lock().expect("data").listing_down = false;
    let back = rig.run(options(&["Account"])).await;
    assert!(back.is_clean(), "{back:#?}");
    assert_eq!(back.entries["Account"].updated, 1);
}

/// A state whose disk refuses the in-flight mark: the boundary of the `State` trait at work.
struct NoInFlight(SqliteState);

impl State for NoInFlight {
    fn queue(&self) -> &dyn WorkQueue {
        self.0.queue()
    }
    fn record(&self, key: &RecordKey) -> Result<Option<RecordRow>, StateError> {
        self.0.record(key)
    }
    fn mark_in_flight(
        &self,
        key: &RecordKey,
        _: &InFlightCreate,
        _: i64,
    ) -> Result<(), StateError> {
        Err(StateError::Corrupt {
            path: "test".to_owned(),
            detail: format!("disk full while marking {key}"),
        })
    }
    fn record_pushed(&self, key: &RecordKey, pushed: &Pushed, now: i64) -> Result<(), StateError> {
        self.0.record_pushed(key, pushed, now)
    }
    fn record_unchanged(
        &self,
        key: &RecordKey,
        at: Option<&str>,
        now: i64,
    ) -> Result<(), StateError> {
        self.0.record_unchanged(key, at, now)
    }
    fn record_failed(&self, key: &RecordKey, failed: &Failed, now: i64) -> Result<(), StateError> {
        self.0.record_failed(key, failed, now)
    }
    fn by_external_id(
        &self,
        entries: &[String],
        external_id: &str,
    ) -> Result<Option<RecordRow>, StateError> {
        self.0.by_external_id(entries, external_id)
    }
    fn forget(&self, key: &RecordKey) -> Result<bool, StateError> {
        self.0.forget(key)
    }
    fn cursor(&self, entry: &str) -> Result<Option<String>, StateError> {
        self.0.cursor(entry)
    }
    fn set_cursor(&self, entry: &str, at: &str, now: i64) -> Result<(), StateError> {
        self.0.set_cursor(entry, at, now)
    }
    fn reset_cursor(&self, entry: &str) -> Result<bool, StateError> {
        self.0.reset_cursor(entry)
    }
    fn set_warnings(&self, entry: &str, warnings: &[String], now: i64) -> Result<(), StateError> {
        self.0.set_warnings(entry, warnings, now)
    }
    fn warnings(&self) -> Result<Vec<WarningRow>, StateError> {
        self.0.warnings()
    }
    fn due_retries(&self, entry: &str, now: i64) -> Result<Vec<RecordRow>, StateError> {
        self.0.due_retries(entry, now)
    }
    fn rows_under(&self, entry: &str, prefix: &str) -> Result<Vec<RecordRow>, StateError> {
        self.0.rows_under(entry, prefix)
    }
    fn recover_in_flight(&self, now: i64) -> Result<u64, StateError> {
        self.0.recover_in_flight(now)
    }
    fn resolve(&self, key: &RecordKey, r: &Resolution, now: i64) -> Result<bool, StateError> {
        self.0.resolve(key, r, now)
    }
    fn counts(&self) -> Result<Vec<StatusCount>, StateError> {
        self.0.counts()
    }
    fn problems(&self, limit: u32) -> Result<Vec<RecordRow>, StateError> {
        self.0.problems(limit)
    }
    fn cursors(&self) -> Result<Vec<CursorRow>, StateError> {
        self.0.cursors()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_create_is_never_sent_unless_its_in_flight_mark_is_stored() {
    let rig = Rig::start(3, 0).await;
    let definition = Definition::load_path(&definition_path()).expect("definition");
    let dependencies = Dependencies::from_definition(&definition);
    let engine = Engine::load(definition)
        .expect("loads")
        .engine
        .with_rate_limit_policy(unthrottled())
        .with_retry_policy(quick_retries())
        .with_token_provider(Arc::new(StaticToken::new("qbo-token")))
        .with_base_url(url::Url::parse(&rig.books.base()).expect("url"));
    let platform = PlatformClient::builder(
        rig.platform.uri(),
        Credentials::new("key", "secret", "user", "password"),
    )
    .build()
    .expect("platform client");
    let state = Arc::new(NoInFlight(SqliteState::in_memory().expect("state")));
    let worker = Worker::new(
        engine,
        Arc::new(ReqwestTransport::new().expect("transport")),
        &dependencies,
        platform,
        state.clone(),
        options(&["Account"]),
    )
    .expect("worker");
    let report = worker.run().await;
    assert_eq!(report.entries["Account"].failed, 3, "{report:#?}");
    assert_eq!(rig.books.request_count().await, 0, "no create left");
    let problems = state.problems(10).expect("problems");
    assert!(
        problems[0]
            .last_error
            .as_deref()
            .unwrap_or_default()
            .contains("cannot record the create as in flight"),
        "{problems:?}"
    );
}

/// No request budget: the local fakes answer at once and the tests count requests themselves.
fn unthrottled() -> RateLimitPolicy {
    RateLimitPolicy {
        key: Vec::new(),
        requests_per_minute: None,
        window_seconds: None,
        concurrency: None,
    }
}

/// The same attempts as the default policy, with backoffs in milliseconds: these tests check
/// what the worker does with a step's outcome, not how long the engine waits between attempts
/// (engine/tests/it/faults/ checks that).
fn quick_retries() -> RetryPolicy {
    RetryPolicy {
        initial_backoff: std::time::Duration::from_millis(5),
        max_backoff: std::time::Duration::from_millis(20),
        ..RetryPolicy::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn products_and_payments_sync_once_each_with_their_accounts_first() {
    let rig = Rig::with_data(
        Data::generate(40, 0)
            .with_products(140)
            .with_payments(200, 40),
    )
    .await;
    // Payments alone: each payment's account is pushed first, once.
    let report = rig.run(options(&["Payment", "Product"])).await;
    assert!(report.is_clean(), "{report:?}");
    assert_eq!(rig.books.creates("Payment"), 200);
    assert_eq!(
        rig.books.creates("Customer"),
        40,
        "each account once, before its payments"
    );
    assert_eq!(
        report.entries["Account"].pushed_as_dependency, 40,
        "{report:?}"
    );
    // Retired products (every seventh) never pushed are not created.
    assert_eq!(rig.books.creates("Item"), 120);
    assert_eq!(report.entries["Product"].skipped, 20, "{report:?}");
    rig.books.assert_each_created_once();
    // A second run pushes nothing.
    rig.advance(60);
    let again = rig.run(options(&["Payment", "Product"])).await;
    assert!(again.is_clean(), "{again:?}");
    assert_eq!(
        rig.books.creates("Payment") + rig.books.creates("Item"),
        320
    );
    assert_eq!(rig.books.updates("Payment") + rig.books.updates("Item"), 0);
}

/// A definition for a system with subscriptions: the catalog's QuickBooks company, where
/// each platform subscription becomes a service item of its customer's name (a test stand-in
/// for a contracts API; the catalog itself maps no subscriptions, docs/catalog.md).
const SUBSCRIPTION_ENTRY: &str = r##"
  Subscription:
    description: Platform subscriptions as service items named after their account
    module: Subscriptions
    push:
      create: /item/post
      update: /item/post
      preSynchronizationAction:
        Account:
          type: ApiSynchronization
          path: Account
        SyncToken:
          type: ApiPath
          path: /item/{IntegrationId}/get
          schema:
            type: String
            SyncToken: Item.SyncToken
          in: Body
      schemasTransformer:
        createRequest:
          Name: "#valueof($.subscription.name)"
          Type: Service
          IncomeAccountRef: {value: "#valueof($.serverVariables.incomeAccountId)"}
          Description: "#xconcat(#valueof($.subscription.accountName), for customer ,#valueof($.related.Account.IntegrationId))"
        updateRequest:
          Id: "#valueof($.externalId)"
          SyncToken: "#valueof($.syncToken)"
          sparse: true
          Name: "#valueof($.subscription.name)"
        createResponse: &subscriptionItem
          id: "#valueof($.Item.Id)"
          success: "#exists($.Item.Id)"
        updateResponse: *subscriptionItem
"##;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscriptions_sync_once_each_with_their_accounts_first() {
    let mut rig = Rig::with_data(Data::generate(30, 0).with_subscriptions(150, 30)).await;
    rig.edit_definition(|text| format!("{text}{SUBSCRIPTION_ENTRY}"));
    let report = rig.run(options(&["Subscription"])).await;
    assert!(report.is_clean(), "{report:?}");
    assert_eq!(report.entries["Subscription"].created, 150, "{report:?}");
    assert_eq!(rig.books.creates("Item"), 150);
    assert_eq!(
        rig.books.creates("Customer"),
        30,
        "each account once, before its subscriptions"
    );
    assert_eq!(report.entries["Account"].pushed_as_dependency, 30);
    rig.books.assert_each_created_once();
    // Each item names the customer its account became.
    let customer = rig.books.id_of("Customer", "Account 7").expect("account 7");
    let item = rig
        .books
        .id_of("Item", "Subscription 7")
        .expect("subscription 7");
    let description = rig.books.books.lock().expect("books").records[&("Item".to_owned(), item)].1
        ["Description"]
        .clone();
    assert_eq!(
        description,
        json!(format!("Account 7 for customer {customer}"))
    );
    // A second run pushes nothing; an edited subscription is updated, once.
    rig.advance(60);
    {
        let mut data = rig.platform.data.lock().expect("data");
        let subscription = data
            .subscriptions
            .get_mut("30000000-0000-4000-8000-000000000007")
            .expect("subscription 7");
        subscription["name"] = json!("Subscription 7, renamed");
        subscription["updatedAt"] = json!(sync_support::stamp(90_000));
    }
    let again = rig.run(options(&["Subscription"])).await;
    assert!(again.is_clean(), "{again:?}");
    assert_eq!(again.entries["Subscription"].created, 0, "{again:?}");
    assert_eq!(again.entries["Subscription"].updated, 1, "{again:?}");
    assert_eq!(rig.books.creates("Item"), 150);
    assert_eq!(rig.books.updates("Item"), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_product_retired_after_its_push_is_updated_as_inactive() {
    let rig = Rig::with_data(Data::generate(1, 0).with_products(3)).await;
    assert!(rig.run(options(&["Product"])).await.is_clean());
    assert_eq!(rig.books.creates("Item"), 3);
    {
        let mut data = rig.platform.data.lock().expect("data");
        let product = data
            .products
            .get_mut("10000000-0000-4000-8000-000000000002")
            .expect("product");
        product["isDeleted"] = json!(true);
        product["isActive"] = json!(false);
        product["updatedAt"] = json!(sync_support::stamp(90_000));
    }
    rig.advance(60);
    let report = rig.run(options(&["Product"])).await;
    assert!(report.is_clean(), "{report:?}");
    // The catalog's QuickBooks items cannot be deleted: the retired product is made inactive.
    assert_eq!(report.entries["Product"].updated, 1, "{report:?}");
    let id = rig.books.id_of("Item", "Product 2").expect("the item");
    let item = rig.books.books.lock().expect("books").records[&("Item".to_owned(), id)]
        .1
        .clone();
    assert_eq!(item["Active"], json!(false));
}

/// A rig of 120 accounts whose platform lists them with `fault`.
async fn misbehaving_listing(fault: ListingFault) -> Rig {
    let rig = Rig::start(120, 0).await;
    rig.platform.data.lock().expect("data").listing_fault = Some(fault);
    rig
}

async fn listings(rig: &Rig) -> usize {
    rig.platform
        .server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .filter(|r| r.url.path() == "/api/accounts")
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_platform_that_ignores_the_filter_stops_the_run_instead_of_listing_forever() {
    let rig = misbehaving_listing(ListingFault::IgnoresFilter).await;
    let run = tokio::time::timeout(
        std::time::Duration::from_secs(60),
        rig.run(options(&["Account"])),
    )
    .await
    .expect("the run ends");
    let stopped = run.stopped.as_deref().expect("the run stopped");
    assert!(stopped.contains("makes no progress"), "{stopped}");
    assert!(
        stopped.contains("ignore `$filter` on `updatedAt`"),
        "{stopped}"
    );
    assert!(run.stalled);
    assert!(listings(&rig).await <= 3, "{}", listings(&rig).await);
    // What was handled stays handled: the first page is pushed once, the cursor kept.
    assert_eq!(rig.books.creates("Customer"), 50);
    rig.books.assert_each_created_once();
    assert!(!run.is_clean());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_platform_that_ignores_the_page_asked_for_stops_the_run() {
    let rig = misbehaving_listing(ListingFault::IgnoresPage).await;
    // Equal timestamps over whole pages make the walk follow the platform's pages.
    for account in rig
        .platform
        .data
        .lock()
        .expect("data")
        .accounts
        .values_mut()
    {
        account["updatedAt"] = json!(sync_support::stamp(7));
    }
    let run = rig.run(options(&["Account"])).await;
    let stopped = run.stopped.as_deref().expect("the run stopped");
    assert!(
        stopped.contains("page 2 of the listing holds the same 50 records as page 1"),
        "{stopped}"
    );
    assert_eq!(rig.books.creates("Customer"), 50);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_without_an_id_and_paging_that_disagrees_are_warnings_and_not_clean() {
    let rig = misbehaving_listing(ListingFault::OnePageCount).await;
    rig.platform
        .data
        .lock()
        .expect("data")
        .accounts
        .get_mut(&3)
        .and_then(|a| a.as_object_mut())
        .map(|a| a.remove("id"));
    let run = rig.run(options(&["Account"])).await;
    let summary = &run.entries["Account"];
    assert_eq!(summary.unusable, 1, "{run:#?}");
    assert!(
        !run.records_clean(),
        "a record that cannot be synced is not clean"
    );
    assert_eq!(summary.warnings.len(), 2, "{:#?}", summary.warnings);
    let warned = |text: &str| summary.warnings.iter().any(|w| w.contains(text));
    assert!(warned("without a usable `id`"), "{:#?}", summary.warnings);
    assert!(
        warned("1 pages of 50 for 120 records"),
        "{:#?}",
        summary.warnings
    );
    // `syncdef sync status` shows them from the state.
    let status = syncdef_worker::status::StatusReport::read(&rig.state(), 10).expect("status");
    assert_eq!(status.warnings.len(), 1, "{:#?}", status.warnings);
    assert_eq!(status.warnings[0].messages, summary.warnings);
    let shown = syncdef_worker::render::status(&status);
    assert!(shown.contains("warnings of the last run:"), "{shown}");
    assert!(shown.contains("Account ("), "{shown}");
    let printed = syncdef_worker::render::summary(&run);
    assert!(
        printed.contains("warning: Account: the platform said 1 pages"),
        "{printed}"
    );
    // The records past the first page wait for the next run; none is lost.
    assert_eq!(rig.books.creates("Customer"), 49);
    let second = rig.run(options(&["Account"])).await;
    assert_eq!(second.entries["Account"].created, 50, "{second:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_platform_token_said_to_expire_at_once_is_asked_for_once_and_reported() {
    let rig = Rig::start(30, 0).await;
    wiremock::Mock::given(wiremock::matchers::method("POST"))
        .and(wiremock::matchers::path("/oauth/token"))
        .respond_with(wiremock::ResponseTemplate::new(200).set_body_json(
            json!({"access_token": "platform-token", "token_type": "bearer", "expires_in": 0}),
        ))
        .with_priority(1)
        .mount(&rig.platform.server)
        .await;
    let run = rig.run(options(&["Account"])).await;
    assert!(run.is_clean(), "{run:#?}");
    let tokens = rig
        .platform
        .server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .filter(|r| r.url.path() == "/oauth/token")
        .count();
    assert_eq!(tokens, 1, "one token for the whole run");
    assert_eq!(run.warnings.len(), 1, "{:?}", run.warnings);
    assert!(
        run.warnings[0].contains("`expires_in: 0`"),
        "{:?}",
        run.warnings
    );
    let status = syncdef_worker::status::StatusReport::read(&rig.state(), 10).expect("status");
    assert_eq!(status.warnings[0].entry, "");
    assert!(syncdef_worker::render::status(&status).contains("the run ("));
}
