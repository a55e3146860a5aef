//! Lines pushed one request each: an invoice's `ApiSynchronization` post-action naming an
//! entry of lines pushes every item of the invoice after the invoice's create, each line naming
//! the new invoice; the first line that fails stops the others and is reported, the invoice
//! keeping its id. Without a synchronizer (a push from the command line) lines go with the
//! create only; with one, the engine hands them to it.

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use serde_json::json;
use syncdef_engine::{
    EngineError, Phase, PushStatus, RecordState, RetryPolicy, SyncRequest, Synchronizer,
};
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::common;

const DEFINITION: &str = r##"
openapi: 3.0.3
info: {title: Invoices and their items, version: "1"}
servers:
  - url: https://api.example.com
paths:
  /invoices:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                customer: {type: string}
                number: {type: string}
      responses:
        "200": {$ref: "#/components/responses/object"}
  /invoices/{id}:
    post:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {number: {type: string}}}
      responses:
        "200": {$ref: "#/components/responses/object"}
  /invoiceitems:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [invoice, customer, currency]
              properties:
                invoice: {type: string}
                customer: {type: string}
                currency: {type: string}
                description: {type: string}
                quantity: {type: number}
      responses:
        "200": {$ref: "#/components/responses/object"}
components:
  responses:
    object:
      description: the object made
      content:
        application/json:
          schema: {type: object, properties: {id: {type: string}}}
  securitySchemes:
    bearerAuth: {type: http, scheme: bearer}
security:
  - bearerAuth: []
synchronization:
  Invoice:
    module: Invoices
    push:
      create: /invoices/post
      update: /invoices/{IntegrationId}/post
      postSynchronizationAction:
        Items: {type: ApiSynchronization, path: InvoiceItems}
      schemasTransformer:
        createRequest:
          customer: "#valueof($.related.Customer.IntegrationId)"
          number: "#valueof($.invoice.code)"
        createResponse: {id: "#valueof($.id)"}
        updateRequest: {number: "#valueof($.invoice.code)"}
  Customer:
    module: Accounts
    push:
      create: /invoices/post
      schemasTransformer:
        createRequest: {number: "#valueof($.account.name)"}
        createResponse: {id: "#valueof($.id)"}
  InvoiceItems:
    module: InvoiceItems
    push:
      create: /invoiceitems/post
      schemasTransformer:
        createRequest:
          invoice: "#valueof($.related.Invoice.IntegrationId)"
          customer: "#valueof($.related.Customer.IntegrationId)"
          currency: "#valueof($.invoice.transactionCurrency)"
          description: "#valueof($.invoiceItem.productName)"
          quantity: "#valueof($.invoiceItem.quantity)"
        createResponse: {id: "#valueof($.id)"}
"##;

fn invoice() -> serde_json::Value {
    json!({
        "id": "6f1c2a9e-3b7d-4c51-9a0e-2d4f8b1c7e35",
        "code": "INV-1",
        "transactionCurrency": "EUR",
        "items": [
            {"id": 1, "productName": "Backup", "quantity": 2},
            {"id": 2, "productName": "Support", "quantity": 1},
            {"id": 3, "productName": "Licences", "quantity": 25}
        ]
    })
}

/// The steps of the invoice's create and of its three lines', in order.
const STEPS: [&str; 4] = [
    "create",
    "Items[0] id 1: create",
    "Items[1] id 2: create",
    "Items[2] id 3: create",
];

fn state() -> RecordState {
    RecordState::new().with_related("Customer", "cus_1")
}

fn engine(server: &MockServer) -> syncdef_engine::Engine {
    common::connect(
        common::load("lines.yaml", DEFINITION.to_owned()),
        &server.uri(),
    )
    .with_retry_policy(RetryPolicy::none())
}

/// Answers the invoice's create with `in_1` and each line with `ii_<n>`, failing line
/// `failing` (1-based) with a 400.
async fn server(failing: Option<usize>) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path_regex("^/invoices(/in_1)?$"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": "in_1"})))
        .mount(&server)
        .await;
    let count = Arc::new(Mutex::new(0_usize));
    Mock::given(method("POST"))
        .and(path("/invoiceitems"))
        .respond_with(move |_: &wiremock::Request| {
            let mut n = count
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            *n += 1;
            if Some(*n) == failing {
                ResponseTemplate::new(400)
                    .set_body_json(json!({"error": {"message": "No such price"}}))
            } else {
                ResponseTemplate::new(200).set_body_json(json!({"id": format!("ii_{n}")}))
            }
        })
        .mount(&server)
        .await;
    server
}

async fn sent_bodies(server: &MockServer, to: &str) -> Vec<serde_json::Value> {
    let requests = server.received_requests().await.unwrap_or_default();
    requests
        .iter()
        .filter(|r| r.url.path() == to)
        .map(|r| serde_json::from_slice(&r.body).unwrap_or_default())
        .collect()
}

#[tokio::test]
async fn each_line_is_pushed_after_the_create_naming_the_new_invoice() {
    let server = server(None).await;
    let record = common::json(&invoice().to_string());
    let outcome = engine(&server).push("Invoice", &record, &state()).await;
    assert_eq!(outcome.status, PushStatus::Created, "{outcome:#?}");
    assert!(outcome.post_action_error.is_none(), "{outcome:#?}");
    assert_eq!(outcome.external_id.as_deref(), Some("in_1"));
    let lines = sent_bodies(&server, "/invoiceitems").await;
    assert_eq!(
        lines,
        [
            json!({"invoice": "in_1", "customer": "cus_1", "currency": "EUR", "description": "Backup", "quantity": 2}),
            json!({"invoice": "in_1", "customer": "cus_1", "currency": "EUR", "description": "Support", "quantity": 1}),
            json!({"invoice": "in_1", "customer": "cus_1", "currency": "EUR", "description": "Licences", "quantity": 25}),
        ]
    );
    // The audit trail names each line's requests.
    let steps: Vec<&str> = outcome.exchanges.iter().map(|e| &*e.step).collect();
    assert_eq!(steps, STEPS);
}

#[tokio::test]
async fn a_failing_line_stops_the_others_and_the_invoice_keeps_its_id() {
    let server = server(Some(2)).await;
    let record = common::json(&invoice().to_string());
    let outcome = engine(&server).push("Invoice", &record, &state()).await;
    // The invoice was created: its id is kept, and the lines' failure is the post-action's.
    assert_eq!(outcome.status, PushStatus::Created, "{outcome:#?}");
    assert_eq!(outcome.external_id.as_deref(), Some("in_1"));
    let error = outcome.post_action_error.expect("the lines failed");
    assert_eq!(error.step.as_deref(), Some("Items[1] id 2"));
    assert!(error.message.contains("line 2 of 3"), "{error}");
    assert!(error.message.contains("1 pushed before it"), "{error}");
    assert!(
        outcome.errors.iter().any(|e| e.contains("No such price")),
        "{:?}",
        outcome.errors
    );
    assert_eq!(sent_bodies(&server, "/invoiceitems").await.len(), 2);
}

#[tokio::test]
async fn an_update_without_a_synchronizer_sends_no_line_again() {
    let server = server(None).await;
    let record = common::json(&invoice().to_string());
    let state = state().with_external_id("in_1");
    let outcome = engine(&server).push("Invoice", &record, &state).await;
    assert_eq!(outcome.status, PushStatus::Updated, "{outcome:#?}");
    assert!(sent_bodies(&server, "/invoiceitems").await.is_empty());
    assert!(
        outcome
            .notes
            .iter()
            .any(|n| n.contains("with the record's create")),
        "{:?}",
        outcome.notes
    );
}

#[tokio::test]
async fn a_line_alone_is_refused_and_pushed_with_its_parent() {
    let server = server(None).await;
    let engine = engine(&server);
    let line = common::json(r#"{"id": 1, "productName": "Backup", "quantity": 2}"#);
    let alone = engine.push("InvoiceItems", &line, &state()).await;
    assert_eq!(alone.status, PushStatus::Failed);
    let message = alone.error.map(|e| e.message).unwrap_or_default();
    assert!(
        message.contains("each within its record's push"),
        "{message}"
    );
    let parent = common::json(&invoice().to_string());
    let state = state().with_related("Invoice", "in_9");
    let outcome = engine
        .push_line("InvoiceItems", &line, &parent, &state)
        .await;
    assert_eq!(outcome.status, PushStatus::Created, "{outcome:#?}");
    assert_eq!(
        sent_bodies(&server, "/invoiceitems").await,
        [
            json!({"invoice": "in_9", "customer": "cus_1", "currency": "EUR", "description": "Backup", "quantity": 2})
        ]
    );
}

/// One request to the synchronizer: its phase, target, entry of lines and the record's id.
type Request = (Phase, String, Option<String>, Option<String>);

/// Records what it was asked, as the sync worker's synchronizer would be.
#[derive(Default)]
struct Asked(Mutex<Vec<Request>>);

impl Synchronizer for Asked {
    fn synchronize<'a>(
        &'a self,
        request: SyncRequest<'a>,
    ) -> BoxFuture<'a, Result<Option<String>, EngineError>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((
                request.phase,
                request.target.to_owned(),
                request.lines.map(|l| l.entry.to_owned()),
                request.external_id.map(str::to_owned),
            ));
        Box::pin(async { Ok(None) })
    }
}

#[tokio::test]
async fn a_synchronizer_is_handed_the_lines_with_the_entry_that_pushes_them() {
    let server = server(None).await;
    let asked = Arc::new(Asked::default());
    let engine = engine(&server).with_synchronizer(asked.clone());
    let record = common::json(&invoice().to_string());
    let outcome = engine.push("Invoice", &record, &state()).await;
    assert_eq!(outcome.status, PushStatus::Created, "{outcome:#?}");
    assert!(sent_bodies(&server, "/invoiceitems").await.is_empty());
    let asked = asked.0.lock().map(|a| a.clone()).unwrap_or_default();
    assert_eq!(
        asked,
        [(
            Phase::Post,
            "InvoiceItems".to_owned(),
            Some("InvoiceItems".to_owned()),
            Some("in_1".to_owned())
        )]
    );
}

#[tokio::test]
async fn a_push_of_the_post_actions_alone_sends_nothing_of_the_record_itself() {
    let server = server(None).await;
    let asked = Arc::new(Asked::default());
    let engine = engine(&server).with_synchronizer(asked.clone());
    let record = common::json(&invoice().to_string());
    let mut state = state().with_external_id("in_1");
    state.intent = syncdef_engine::Intent::PostActions;
    let outcome = engine.push("Invoice", &record, &state).await;
    assert_eq!(outcome.status, PushStatus::Updated, "{outcome:#?}");
    assert_eq!(outcome.external_id.as_deref(), Some("in_1"));
    assert!(
        server
            .received_requests()
            .await
            .unwrap_or_default()
            .is_empty()
    );
    let asked = asked.0.lock().map(|a| a.clone()).unwrap_or_default();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0].3.as_deref(), Some("in_1"));
}

#[tokio::test]
async fn the_transport_tells_a_line_s_create_from_the_record_s() {
    // A transport that marks the record's create in flight (as the sync worker's does) must
    // not take a line's create for the record's.
    let transport = Arc::new(syncdef_engine::RecordingTransport::synthesizing());
    let engine = common::load("lines.yaml", DEFINITION.to_owned())
        .with_transport(transport.clone())
        .with_token_provider(Arc::new(syncdef_engine::StaticToken::new(
            "lines-stand-in-access-token",
        )))
        .with_retry_policy(RetryPolicy::none());
    let record = common::json(&invoice().to_string());
    let outcome = engine.push("Invoice", &record, &state()).await;
    assert_eq!(outcome.status, PushStatus::Created, "{outcome:#?}");
    let steps: Vec<String> = transport
        .requests()
        .iter()
        .map(|r| r.step.to_string())
        .collect();
    assert_eq!(steps, STEPS);
}
