//! Orders and contacts through the worker, against the loopback platform and a Business
//! Central company: each order once, after its account, with a line per item; each contact
//! once; a second run sends nothing; an edited order is updated with its current ETag.

use crate::sync_support;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use serde_json::json;
use sync_support::central::BusinessCentral;
use sync_support::{Data, Platform};
use syncdef_definitions::Definition;
use syncdef_engine::{Engine, RateLimitPolicy, ReqwestTransport, StaticToken, Transport};
use syncdef_platform::{Credentials, PlatformClient};
use syncdef_worker::{Clock, Dependencies, SqliteState, State, SyncOptions, SyncReport, Worker};

struct Rig {
    platform: Platform,
    central: BusinessCentral,
    dir: tempfile::TempDir,
    now: Arc<AtomicI64>,
}

impl Rig {
    async fn start(data: Data) -> Rig {
        Rig {
            platform: Platform::start(data).await,
            central: BusinessCentral::start().await,
            dir: tempfile::tempdir().expect("temp dir"),
            now: Arc::new(AtomicI64::new(1_800_000_000)),
        }
    }

    async fn run(&self, entries: &[&str]) -> SyncReport {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../catalog/business-central/definition.yaml");
        let definition = Definition::load_path(&path).expect("definition");
        let dependencies = Dependencies::from_definition(&definition);
        let engine = Engine::load(definition)
            .expect("catalog definition loads")
            .engine
            .with_rate_limit_policy(RateLimitPolicy::default())
            .with_base_url(url::Url::parse(&self.central.base()).expect("url"))
            .with_token_provider(Arc::new(StaticToken::new("bc-token")));
        let platform = PlatformClient::builder(
            self.platform.uri(),
            Credentials::new("key", "secret", "user", "password"),
        )
        .build()
        .expect("platform client");
        let state: Arc<dyn State> =
            Arc::new(SqliteState::open(&self.dir.path().join("state.sqlite")).expect("state"));
        let transport: Arc<dyn Transport> = Arc::new(ReqwestTransport::new().expect("transport"));
        let options = SyncOptions {
            entries: entries.iter().map(|e| (*e).to_owned()).collect(),
            page_size: 50,
            ..SyncOptions::default()
        };
        let now = self.now.clone();
        let clock: Clock = Arc::new(move || now.load(Ordering::SeqCst));
        let report = Worker::new(engine, transport, &dependencies, platform, state, options)
            .expect("worker")
            .with_clock(clock)
            .run()
            .await;
        self.now.fetch_add(600, Ordering::SeqCst);
        report
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn orders_and_contacts_sync_once_each_with_their_accounts_first() {
    let rig = Rig::start(
        Data::generate(30, 0)
            .with_orders(150, 30)
            .with_contacts(120, 30),
    )
    .await;
    let report = rig.run(&["Order", "Contact"]).await;
    assert!(report.is_clean(), "{report:?}");
    {
        let company = rig.central.company.lock().expect("company");
        assert_eq!(company.creates("salesOrders"), 150);
        assert_eq!(company.creates("contacts"), 120);
        assert_eq!(
            company.creates("customers"),
            30,
            "each account once, before its orders"
        );
        for set in ["salesOrders", "contacts", "customers"] {
            assert!(
                company.duplicates(set).is_empty(),
                "{set}: {:?}",
                company.duplicates(set)
            );
        }
        // Every order carries a line per item of the platform's order.
        let lines: Vec<usize> = company
            .records
            .iter()
            .filter(|((set, _), _)| set == "salesOrders")
            .map(|(_, (_, order))| order["salesOrderLines"].as_array().map_or(0, Vec::len))
            .collect();
        assert!(lines.iter().all(|n| *n == 2), "{lines:?}");
    }
    assert_eq!(
        report.entries["Account"].pushed_as_dependency, 30,
        "{report:?}"
    );
    // A second run sends nothing.
    let again = rig.run(&["Order", "Contact"]).await;
    assert!(again.is_clean(), "{again:?}");
    let company = rig.central.company.lock().expect("company");
    assert_eq!(company.creates.len(), 300);
    assert!(company.updates.is_empty(), "{:?}", company.updates);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_order_is_updated_with_its_current_etag() {
    let rig = Rig::start(Data::generate(2, 0).with_orders(3, 2)).await;
    assert!(rig.run(&["Order"]).await.is_clean());
    {
        let mut data = rig.platform.data.lock().expect("data");
        let order = data
            .orders
            .get_mut("30000000-0000-4000-8000-000000000002")
            .expect("order");
        order["code"] = json!("SO-2-REVISED");
        order["updatedAt"] = json!(sync_support::stamp(99_000));
    }
    let report = rig.run(&["Order"]).await;
    assert!(report.is_clean(), "{report:?}");
    assert_eq!(report.entries["Order"].updated, 1, "{report:?}");
    let company = rig.central.company.lock().expect("company");
    let revised = company
        .records
        .values()
        .filter(|(_, r)| r["externalDocumentNumber"] == "SO-2-REVISED")
        .count();
    assert_eq!(revised, 1);
}
