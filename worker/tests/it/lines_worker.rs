//! Invoices whose lines the external system takes one request each (as Stripe takes invoice
//! items), synced by the worker against the platform's fake and a fake ledger on loopback:
//! every line is created exactly once, whatever fails between them: a line refused, a line's
//! answer lost, the run dropped in the middle of an invoice's lines. A changed line is
//! updated, an unchanged one not sent again.

use crate::sync_support;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use sync_support::{Data, Platform, invoice_id};
use syncdef_definitions::{Definition, SourceFile};
use syncdef_engine::{Engine, ReqwestTransport, RetryPolicy, StaticToken};
use syncdef_platform::{Credentials, PlatformClient};
use syncdef_worker::state::State;
use syncdef_worker::{Clock, Dependencies, RecordStatus, SqliteState, SyncOptions, Worker};
use wiremock::matchers::path_regex;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const DEFINITION: &str = r##"
openapi: 3.0.3
info: {title: A ledger taking an invoice's lines one at a time, version: "1"}
servers:
  - url: https://ledger.example.com
paths:
  /customers:
    post:
      requestBody: {content: {application/json: {schema: {$ref: "#/components/schemas/Customer"}}}}
      responses: {"200": {$ref: "#/components/responses/made"}}
  /invoices:
    post:
      requestBody: {content: {application/json: {schema: {$ref: "#/components/schemas/Invoice"}}}}
      responses: {"200": {$ref: "#/components/responses/made"}}
  /invoices/{invoice}:
    post:
      parameters: [{name: invoice, in: path, required: true, schema: {type: string}}]
      requestBody: {content: {application/json: {schema: {$ref: "#/components/schemas/Invoice"}}}}
      responses: {"200": {$ref: "#/components/responses/made"}}
  /invoiceitems:
    post:
      requestBody: {content: {application/json: {schema: {$ref: "#/components/schemas/Item"}}}}
      responses: {"200": {$ref: "#/components/responses/made"}}
  /invoiceitems/{item}:
    parameters: [{name: item, in: path, required: true, schema: {type: string}}]
    post:
      requestBody: {content: {application/json: {schema: {$ref: "#/components/schemas/Item"}}}}
      responses: {"200": {$ref: "#/components/responses/made"}}
    delete:
      responses: {"200": {$ref: "#/components/responses/made"}}
components:
  responses:
    made:
      description: the object
      content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}
  schemas:
    Customer: {type: object, properties: {name: {type: string}}}
    Invoice: {type: object, properties: {customer: {type: string}, number: {type: string}}}
    Item:
      type: object
      properties:
        invoice: {type: string}
        customer: {type: string}
        description: {type: string}
        quantity: {type: number}
        currency: {type: string}
  securitySchemes:
    bearerAuth: {type: http, scheme: bearer}
security:
  - bearerAuth: []
x-syncdef:
  idempotency: {in: header, name: Idempotency-Key, operations: [create]}
synchronization:
  Account:
    module: Accounts
    push:
      create: /customers/post
      schemasTransformer:
        createRequest: {name: "#valueof($.account.name)"}
        createResponse: {id: "#valueof($.id)"}
  Invoice:
    module: Invoices
    push:
      create: /invoices/post
      update: /invoices/{IntegrationId}/post
      preSynchronizationAction:
        Account: {type: ApiSynchronization, path: Account}
      postSynchronizationAction:
        Items: {type: ApiSynchronization, path: InvoiceItems}
      schemasTransformer:
        createRequest:
          customer: "#valueof($.related.Account.IntegrationId)"
          number: "#valueof($.invoice.code)"
        createResponse: {id: "#valueof($.id)"}
        updateRequest: {number: "#valueof($.invoice.code)"}
  InvoiceItems:
    module: InvoiceItems
    push:
      create: /invoiceitems/post
      update: /invoiceitems/{IntegrationId}/post
      delete: /invoiceitems/{IntegrationId}/delete
      schemasTransformer:
        createRequest:
          invoice: "#valueof($.related.Invoice.IntegrationId)"
          customer: "#valueof($.related.Account.IntegrationId)"
          description: "#valueof($.invoiceItem.productName)"
          quantity: "#valueof($.invoiceItem.quantity)"
          currency: "#valueof($.invoice.billingAccount.accountCurrency.currency.mnemonic)"
        createResponse: {id: "#valueof($.id)"}
        updateRequest:
          description: "#valueof($.invoiceItem.productName)"
          quantity: "#valueof($.invoiceItem.quantity)"
"##;

/// What the fake ledger holds and how it misbehaves.
#[derive(Default)]
struct Books {
    next: u64,
    /// Every object by id: (kind, the body it was created or last updated with).
    objects: HashMap<String, (String, Value)>,
    /// Every create carried out: (kind, what names it: the item's invoice and description).
    creates: Vec<(String, String)>,
    /// Every update: the id.
    updates: Vec<String>,
    /// Every delete: the id.
    deletes: Vec<String>,
    /// The answer each idempotency key got: a repeated key gets it again, nothing done.
    keys: HashMap<String, Value>,
    /// Item creates with this description are refused (400) while set.
    refuse: Option<String>,
    /// The item create with this number (1-based, counting every item create carried out) is
    /// carried out and its answer lost (502).
    lose_item: Option<usize>,
}

impl Books {
    fn items_created(&self) -> usize {
        self.creates.iter().filter(|(k, _)| k == "item").count()
    }

    fn duplicates(&self) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        self.creates
            .iter()
            .filter(|c| !seen.insert((*c).clone()))
            .map(|(k, n)| format!("{k} {n}"))
            .collect()
    }
}

struct Ledger(Arc<Mutex<Books>>);

impl Respond for Ledger {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let mut books = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        let segments: Vec<&str> = request.url.path().trim_matches('/').split('/').collect();
        match segments.as_slice() {
            [collection] => create(&mut books, collection, request, body),
            [_, id] if request.method.as_str() == "DELETE" => match books.objects.remove(*id) {
                Some(_) => {
                    books.deletes.push((*id).to_owned());
                    ResponseTemplate::new(200).set_body_json(json!({"id": id}))
                }
                None => ResponseTemplate::new(404),
            },
            [_, id] => match books.objects.get_mut(*id) {
                Some((_, stored)) => {
                    *stored = body;
                    books.updates.push((*id).to_owned());
                    ResponseTemplate::new(200).set_body_json(json!({"id": id}))
                }
                None => ResponseTemplate::new(404)
                    .set_body_json(json!({"error": {"message": "No such object"}})),
            },
            _ => ResponseTemplate::new(404),
        }
    }
}

fn create(books: &mut Books, collection: &str, request: &Request, body: Value) -> ResponseTemplate {
    let key = request
        .headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    if let Some(answer) = key.as_ref().and_then(|k| books.keys.get(k)) {
        return ResponseTemplate::new(200).set_body_json(answer.clone());
    }
    let kind = match collection {
        "customers" => "customer",
        "invoices" => "invoice",
        _ => "item",
    };
    if kind == "item" && books.refuse.as_deref() == body["description"].as_str() {
        return ResponseTemplate::new(400)
            .set_body_json(json!({"error": {"message": "No such tax rate"}}));
    }
    books.next += 1;
    let id = format!("{kind}_{}", books.next);
    let name = match kind {
        "item" => format!("{} {}", body["invoice"], body["description"]),
        "invoice" => body["number"].to_string(),
        _ => body["name"].to_string(),
    };
    books.creates.push((kind.to_owned(), name));
    books.objects.insert(id.clone(), (kind.to_owned(), body));
    let answer = json!({"id": id});
    if let Some(key) = key {
        books.keys.insert(key, answer.clone());
    }
    if kind == "item" && books.lose_item == Some(books.items_created()) {
        return ResponseTemplate::new(502);
    }
    ResponseTemplate::new(200).set_body_json(answer)
}

struct Rig {
    /// The definition's text (`DEFINITION`, or a test's edit of it).
    definition: String,
    platform: Platform,
    ledger: MockServer,
    books: Arc<Mutex<Books>>,
    dir: tempfile::TempDir,
    now: Arc<AtomicI64>,
}

impl Rig {
    async fn start(accounts: u32, invoices: u32) -> Rig {
        let ledger = MockServer::start().await;
        let books = Arc::new(Mutex::new(Books::default()));
        Mock::given(path_regex(
            r"^/(customers|invoices|invoiceitems)(/[a-z_0-9]+)?$",
        ))
        .respond_with(Ledger(books.clone()))
        .mount(&ledger)
        .await;
        Rig {
            definition: DEFINITION.to_owned(),
            platform: Platform::start(Data::generate(accounts, invoices)).await,
            ledger,
            books,
            dir: tempfile::tempdir().expect("temp dir"),
            now: Arc::new(AtomicI64::new(1_800_000_000)),
        }
    }

    fn state_path(&self) -> PathBuf {
        self.dir.path().join("state.sqlite")
    }

    fn worker(&self) -> Worker {
        self.worker_of(&["Account", "Invoice"]).expect("worker")
    }

    fn worker_of(&self, entries: &[&str]) -> Result<Worker, syncdef_worker::WorkerError> {
        let definition = Definition::load(SourceFile::new("ledger.yaml", self.definition.clone()))
            .expect("the definition loads");
        let dependencies = Dependencies::from_definition(&definition);
        let engine = Engine::load(definition)
            .expect("the definition compiles")
            .engine
            .with_retry_policy(RetryPolicy::none())
            .with_base_url(url::Url::parse(&self.ledger.uri()).expect("url"))
            .with_token_provider(Arc::new(StaticToken::new("ledger-token")));
        let platform = PlatformClient::builder(
            self.platform.uri(),
            Credentials::new("key", "secret", "user", "password"),
        )
        .build()
        .expect("platform client");
        let state = Arc::new(SqliteState::open(&self.state_path()).expect("state"));
        let now = self.now.clone();
        let clock: Clock = Arc::new(move || now.load(Ordering::SeqCst));
        let options = SyncOptions {
            entries: entries.iter().map(|e| (*e).to_owned()).collect(),
            page_size: 50,
            ..SyncOptions::default()
        };
        let transport = Arc::new(ReqwestTransport::new().expect("transport"));
        Ok(
            Worker::new(engine, transport, &dependencies, platform, state, options)?
                .with_clock(clock),
        )
    }

    async fn run(&self) -> syncdef_worker::SyncReport {
        self.worker().run().await
    }

    fn books(&self) -> std::sync::MutexGuard<'_, Books> {
        self.books
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn assert_each_created_once(&self) {
        let duplicates = self.books().duplicates();
        assert!(duplicates.is_empty(), "created twice: {duplicates:?}");
    }

    fn items_created(&self) -> usize {
        self.books().items_created()
    }

    /// Runs again once every backoff ended, and checks that no invoice failed and that the
    /// ledger holds `lines` lines, each created once and stored done.
    async fn run_again_and_check_each_line_pushed_once(&self, lines: usize) {
        self.advance_a_day();
        let again = self.run().await;
        assert_eq!(again.entries["Invoice"].failed, 0, "{again:#?}");
        assert_eq!(self.items_created(), lines);
        self.assert_each_created_once();
        assert_eq!(self.line_rows(RecordStatus::Done), lines);
    }

    /// Lets every backoff end.
    fn advance_a_day(&self) {
        self.now.fetch_add(86_400, Ordering::SeqCst);
    }

    fn line_rows(&self, status: RecordStatus) -> usize {
        let state = SqliteState::open(&self.state_path()).expect("state");
        state
            .counts()
            .expect("counts")
            .iter()
            .filter(|c| c.entry == "InvoiceItems" && c.status == status)
            .map(|c| usize::try_from(c.count).unwrap_or(usize::MAX))
            .sum()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_line_is_created_once_and_an_unchanged_one_never_again() {
    let rig = Rig::start(4, 6).await;
    let first = rig.run().await;
    assert_eq!(first.entries["Invoice"].created, 6, "{first:#?}");
    assert_eq!(first.entries["InvoiceItems"].created, 12, "{first:#?}");
    assert_eq!(rig.items_created(), 12);
    rig.assert_each_created_once();
    // Each item names its invoice and the invoice's customer.
    {
        let books = rig.books();
        let items = books.objects.values().filter(|(k, _)| k == "item");
        for (_, body) in items {
            let invoice = body["invoice"].as_str().unwrap_or_default();
            assert!(invoice.starts_with("invoice_"), "{body}");
            assert!(
                body["customer"]
                    .as_str()
                    .is_some_and(|c| c.starts_with("customer_")),
                "{body}"
            );
            assert_eq!(body["currency"], "EUR");
        }
    }
    assert_eq!(rig.line_rows(RecordStatus::Done), 12);
    let requests = rig
        .ledger
        .received_requests()
        .await
        .unwrap_or_default()
        .len();
    let second = rig.run().await;
    assert_eq!(second.entries["Invoice"].created, 0, "{second:#?}");
    assert_eq!(
        rig.ledger
            .received_requests()
            .await
            .unwrap_or_default()
            .len(),
        requests,
        "nothing is sent for unchanged invoices"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_line_is_retried_with_its_invoice_and_the_lines_before_it_are_not_sent_again() {
    let rig = Rig::start(2, 3).await;
    // Invoice 2's second line (`Support`) is refused: invoice 1 gets both lines, invoice 2 its
    // first, invoice 3 ... would be refused too, as every `Support` line is.
    rig.books().refuse = Some("Support".to_owned());
    let first = rig.run().await;
    assert_eq!(first.entries["Invoice"].failed, 3, "{first:#?}");
    assert_eq!(rig.items_created(), 3, "each invoice's first line");
    assert_eq!(rig.line_rows(RecordStatus::Failed), 3);
    // The invoices were created and keep their ids: the next attempt updates them.
    assert_eq!(
        rig.books()
            .creates
            .iter()
            .filter(|(k, _)| k == "invoice")
            .count(),
        3
    );
    rig.books().refuse = None;
    rig.advance_a_day();
    let second = rig.run().await;
    assert_eq!(second.entries["Invoice"].failed, 0, "{second:#?}");
    assert_eq!(second.entries["Invoice"].updated, 3, "{second:#?}");
    assert_eq!(second.entries["InvoiceItems"].created, 3, "{second:#?}");
    assert_eq!(rig.items_created(), 6);
    rig.assert_each_created_once();
    assert_eq!(rig.line_rows(RecordStatus::Done), 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_whose_answer_was_lost_is_sent_again_with_its_key_and_not_created_twice() {
    let rig = Rig::start(1, 2).await;
    rig.books().lose_item = Some(3);
    let first = rig.run().await;
    assert_eq!(first.entries["InvoiceItems"].unknown, 1, "{first:#?}");
    assert_eq!(rig.line_rows(RecordStatus::Unknown), 1);
    rig.books().lose_item = None;
    rig.run_again_and_check_each_line_pushed_once(4).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_dropped_between_two_lines_resumes_without_a_duplicate() {
    let rig = Rig::start(1, 3).await;
    let books = rig.books.clone();
    let worker = rig.worker();
    let stopped = async {
        loop {
            if books.lock().map_or(true, |b| b.items_created() >= 3) {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
    };
    tokio::select! {
        _ = worker.run() => panic!("the run should have been dropped first"),
        () = stopped => {}
    }
    drop(worker);
    rig.run_again_and_check_each_line_pushed_once(6).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_line_is_updated_not_created_again() {
    let rig = Rig::start(1, 1).await;
    rig.run().await;
    assert_eq!(rig.items_created(), 2);
    {
        let mut data = rig.platform.data.lock().expect("data");
        let id = invoice_id(1);
        data.items.get_mut(&id).expect("items")[1]["quantity"] = json!(3);
        data.invoices.get_mut(&id).expect("invoice")["updatedAt"] =
            json!(sync_support::stamp(20_000));
    }
    let second = rig.run().await;
    assert_eq!(second.entries["Invoice"].updated, 1, "{second:#?}");
    assert_eq!(second.entries["InvoiceItems"].updated, 1, "{second:#?}");
    assert_eq!(rig.items_created(), 2);
    let books = rig.books();
    let updated: Vec<&Value> = books
        .updates
        .iter()
        .filter_map(|id| books.objects.get(id))
        .filter(|(k, _)| k == "item")
        .map(|(_, body)| body)
        .collect();
    assert_eq!(updated, [&json!({"description": "Support", "quantity": 3})]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_changed_after_its_answer_was_lost_is_not_created_twice_but_updated() {
    let rig = Rig::start(1, 1).await;
    rig.books().lose_item = Some(2);
    rig.run().await;
    assert_eq!(rig.line_rows(RecordStatus::Unknown), 1);
    rig.books().lose_item = None;
    {
        // The line changes before the next attempt: its body, and a key derived from it,
        // differ from the create that was lost; only the kept key finds that create.
        let mut data = rig.platform.data.lock().expect("data");
        let id = invoice_id(1);
        data.items.get_mut(&id).expect("items")[1]["quantity"] = json!(5);
        data.invoices.get_mut(&id).expect("invoice")["updatedAt"] =
            json!(sync_support::stamp(20_000));
    }
    rig.advance_a_day();
    let second = rig.run().await;
    assert_eq!(second.entries["Invoice"].failed, 0, "{second:#?}");
    assert_eq!(rig.items_created(), 2);
    rig.assert_each_created_once();
    let books = rig.books();
    let quantities: Vec<&Value> = books
        .objects
        .values()
        .filter(|(k, _)| k == "item")
        .map(|(_, body)| &body["quantity"])
        .collect();
    assert!(quantities.contains(&&json!(5)), "{quantities:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lines_are_synced_with_their_invoice_not_on_their_own() {
    let rig = Rig::start(1, 1).await;
    let Err(refused) = rig.worker_of(&["InvoiceItems"]) else {
        panic!("an entry of lines synced on its own");
    };
    let message = refused.to_string();
    assert!(
        message.contains("sync the entry of `Invoices`"),
        "{message}"
    );
}

/// Takes the first line off invoice 1 on the platform, as a new version of the invoice.
fn remove_first_line(rig: &Rig) {
    let mut data = rig.platform.data.lock().expect("data");
    let id = invoice_id(1);
    data.items.get_mut(&id).expect("items").remove(0);
    data.invoices.get_mut(&id).expect("invoice")["updatedAt"] = json!(sync_support::stamp(20_000));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_removed_on_the_platform_is_deleted_and_forgotten() {
    let rig = Rig::start(1, 2).await;
    rig.run().await;
    let removed = rig
        .books()
        .objects
        .iter()
        .find(|(_, (kind, body))| {
            kind == "item" && body["description"] == "Backup" && body["invoice"] == "invoice_2"
        })
        .map(|(id, _)| id.clone())
        .expect("invoice 1's first line");
    remove_first_line(&rig);
    let second = rig.run().await;
    assert_eq!(second.entries["InvoiceItems"].deleted, 1, "{second:#?}");
    assert_eq!(rig.books().deletes, [removed]);
    assert_eq!(rig.line_rows(RecordStatus::Done), 3);
    // Gone, and not deleted again.
    rig.run().await;
    assert_eq!(rig.books().deletes.len(), 1);
    rig.assert_each_created_once();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_removed_where_lines_cannot_be_deleted_is_reported() {
    let mut rig = Rig::start(1, 1).await;
    rig.definition = DEFINITION.replace("      delete: /invoiceitems/{IntegrationId}/delete\n", "");
    rig.run().await;
    remove_first_line(&rig);
    let second = rig.run().await;
    assert!(rig.books().deletes.is_empty());
    let warnings = &second.entries["InvoiceItems"].warnings;
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("has no `push.delete`, so it stays")),
        "{warnings:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invoice_that_cannot_be_updated_runs_only_its_lines_again() {
    let mut rig = Rig::start(1, 1).await;
    rig.definition = DEFINITION
        .replace("      update: /invoices/{IntegrationId}/post\n", "")
        .replace(
            "        updateRequest: {number: \"#valueof($.invoice.code)\"}\n",
            "",
        );
    rig.books().refuse = Some("Support".to_owned());
    let first = rig.run().await;
    assert_eq!(first.entries["Invoice"].failed, 1, "{first:#?}");
    rig.books().refuse = None;
    rig.advance_a_day();
    let second = rig.run().await;
    assert_eq!(second.entries["Invoice"].failed, 0, "{second:#?}");
    assert_eq!(second.entries["InvoiceItems"].created, 1, "{second:#?}");
    // Neither created nor updated again: only its lines were pushed.
    assert_eq!(
        rig.books()
            .creates
            .iter()
            .filter(|(k, _)| k == "invoice")
            .count(),
        1
    );
    assert!(rig.books().updates.is_empty());
    rig.assert_each_created_once();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_lines_with_one_id_are_refused_not_merged() {
    let rig = Rig::start(1, 1).await;
    {
        let mut data = rig.platform.data.lock().expect("data");
        let items = data.items.get_mut(&invoice_id(1)).expect("items");
        items[1]["id"] = items[0]["id"].clone();
    }
    let report = rig.run().await;
    assert_eq!(report.entries["Invoice"].failed, 1, "{report:#?}");
    assert_eq!(rig.items_created(), 0);
    let state = SqliteState::open(&rig.state_path()).expect("state");
    let problems = state.problems(10).expect("problems");
    let message = problems
        .iter()
        .find(|r| r.key.entry == "Invoice")
        .and_then(|r| r.last_error.clone())
        .unwrap_or_default();
    assert!(message.contains("have the id of"), "{message}");
}
